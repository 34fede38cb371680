//! `__attribute__((cleanup(f)))` on a local variable: `f(&var)` runs when
//! the variable's scope ends, however it ends (the end of its block,
//! `return`, `break`, `continue`, a `goto` out of it), the variables
//! declared last first, as gcc does. GLib's `g_autoptr` and `g_autofree`
//! and systemd's `_cleanup_` are made of it: left out, the engine would
//! predict fewer calls of `g_free` than the code makes.

use super::{Lowerer, Symbol, R};
use ir::{BlockId, Expr, LocalId, Place, StmtKind, Terminator, Type};
use lang_c::ast::{Expression, Extension};
use lang_c::span::Node;

/// One variable's cleanup, registered where its declaration is lowered.
#[derive(Clone)]
pub(super) struct Cleanup {
    /// Numbers the cleanups of one function, so that a `goto` can tell
    /// those of the scopes it leaves from those of its label's scopes.
    id: u32,
    function: String,
    var: LocalId,
    ty: Type,
    at: usize,
}

/// A `goto` to a label not lowered yet, leaving scopes with cleanups: the
/// block that will run those its label's scopes do not share.
#[derive(Clone)]
pub(super) struct PendingGoto {
    label: String,
    block: BlockId,
    alive: Vec<Cleanup>,
}

/// The function a `cleanup` attribute names, and where.
pub(super) fn cleanup_attribute(ext: &[Node<Extension>]) -> Option<(String, usize)> {
    ext.iter().find_map(|e| match &e.node {
        Extension::Attribute(a) if a.name.node.trim_matches('_') == "cleanup" => {
            match a.arguments.first().map(|arg| &arg.node) {
                Some(Expression::Identifier(id)) => Some((id.node.name.clone(), e.span.start)),
                _ => None,
            }
        }
        _ => None,
    })
}

impl<'a> Lowerer<'a> {
    /// Registers the cleanup of local `var` in the innermost scope.
    pub(super) fn note_cleanup(
        &mut self,
        (function, at): (String, usize),
        var: LocalId,
        ty: &Type,
    ) -> R<()> {
        if !matches!(self.lookup(&function), Some(Symbol::Func(_))) {
            return self.error(at, format!("cleanup function `{function}` is not declared"));
        }
        let id = self.builder(at)?.cleanups_registered;
        self.builder(at)?.cleanups_registered += 1;
        let cleanup = Cleanup {
            id,
            function,
            var,
            ty: ty.clone(),
            at,
        };
        if let Some(scope) = self.scopes.last_mut() {
            scope.cleanups.push(cleanup);
        }
        Ok(())
    }

    /// The cleanups registered in scopes from `depth` on, outermost first.
    pub(super) fn cleanups_from(&self, depth: usize) -> Vec<Cleanup> {
        (self.scopes.iter().skip(depth))
            .flat_map(|s| s.cleanups.iter().cloned())
            .collect()
    }

    /// Calls `cleanups`, the last registered first.
    pub(super) fn run_cleanups(&mut self, cleanups: &[Cleanup]) -> R<()> {
        for c in cleanups.iter().rev() {
            let Some(Symbol::Func(index)) = self.lookup(&c.function).cloned() else {
                return self.error(
                    c.at,
                    format!("cleanup function `{}` is not declared", c.function),
                );
            };
            let Some(callee) = self.func_id(index) else {
                return self.error(
                    c.at,
                    format!("cleanup function `{}` cannot be called", c.function),
                );
            };
            let address = Expr {
                kind: ir::ExprKind::AddrOf(Box::new(Place::local(c.var))),
                ty: Type::ptr(c.ty.clone()),
            };
            let param = (self.funcs.get(index))
                .and_then(|d| d.function.sig.params.first().cloned())
                .unwrap_or_else(|| Type::ptr(c.ty.clone()));
            let argument = self.convert_assigned(address, &param, c.at)?;
            self.emit(
                StmtKind::Call {
                    dest: None,
                    callee: ir::Callee::Direct(callee),
                    args: vec![argument],
                },
                c.at,
            )?;
        }
        Ok(())
    }

    /// Runs the cleanups of the innermost scope, as it ends.
    pub(super) fn end_scope_cleanups(&mut self) -> R<()> {
        let own = self.cleanups_from(self.scopes.len().saturating_sub(1));
        self.run_cleanups(&own)
    }

    /// `goto label` from here: through the cleanups of the scopes it leaves.
    pub(super) fn goto_with_cleanups(&mut self, label: &str, target: BlockId, at: usize) -> R<()> {
        let span = self.span(at);
        let alive = self.cleanups_from(1);
        let at_label = self.builder(at)?.label_cleanups.get(label).cloned();
        match at_label {
            _ if alive.is_empty() => {}
            Some(kept) => {
                let left: Vec<Cleanup> = (alive.into_iter())
                    .filter(|c| !kept.contains(&c.id))
                    .collect();
                self.run_cleanups(&left)?;
            }
            None => {
                let f = self.builder(at)?;
                let block = f.new_block();
                f.terminate(Terminator::Goto(block), span);
                f.pending_gotos.push(PendingGoto {
                    label: label.to_string(),
                    block,
                    alive,
                });
                return Ok(());
            }
        }
        self.builder(at)?.terminate(Terminator::Goto(target), span);
        Ok(())
    }

    /// Label `label` (its block `target`) is being defined here: the gotos
    /// that came before it run the cleanups of the scopes they leave.
    pub(super) fn define_label_cleanups(
        &mut self,
        label: &str,
        target: BlockId,
        at: usize,
    ) -> R<()> {
        let span = self.span(at);
        let alive = self.cleanups_from(1);
        let kept: Vec<u32> = alive.iter().map(|c| c.id).collect();
        let f = self.builder(at)?;
        f.label_cleanups.insert(label.to_string(), kept.clone());
        let (waiting, others): (Vec<PendingGoto>, Vec<PendingGoto>) =
            std::mem::take(&mut f.pending_gotos)
                .into_iter()
                .partition(|g| g.label == label);
        f.pending_gotos = others;
        let resume = f.current;
        for goto in waiting {
            self.builder(at)?.current = goto.block;
            let left: Vec<Cleanup> = (goto.alive.into_iter())
                .filter(|c| !kept.contains(&c.id))
                .collect();
            self.run_cleanups(&left)?;
            self.builder(at)?.terminate(Terminator::Goto(target), span);
        }
        self.builder(at)?.current = resume;
        Ok(())
    }
}
