//! Initialisers: functions that set up a struct on their caller's storage
//! (`void tok_init(struct tok *t)`, `int buf_init(struct buf *b, size_t
//! cap)` returning 0 on success), told apart by what they do with the
//! struct, not by their names: they write it before they read it.

use crate::params::{param_read, strip_casts};
use crate::program::{
    BlockId, Body, Callee, Expr, ExprKind, FuncId, LocalId, Place, PlaceBase, Program, Proj,
    StmtKind, Terminator,
};
use crate::types::{IntType, Layout, Type};

/// What an initialiser returns when it has set its struct up: the test uses
/// the struct only on that outcome.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Success {
    /// It returns nothing (`void`): it always succeeds.
    Void,
    /// This value (`0`, or `1` from one that returns 0 when it fails).
    Is(i128),
    /// Any value from 0 up (it returns negative values when it fails).
    NonNegative,
    /// Any value but 0 (a `bool`).
    NonZero,
}

/// Whether `func` sets up the struct its parameter `param` points to from
/// scratch, as an initialiser does on its caller's storage: on every path
/// it reads no member before writing it, and on some path to a `return` it
/// writes every member that is not an array (an array is a buffer that
/// another member says how much of is in use). Writes count through the
/// functions it hands the struct or a member to when those set it up
/// themselves (`memset`, another initialiser).
pub fn sets_up(program: &Program, func: FuncId, param: usize) -> bool {
    sets_up_within(program, func, param, &mut Vec::new())
}

/// What `func`, an initialiser, returns on success: for an integer, the
/// value of the last `return` in the source when it is a constant (the
/// end of the set-up: `return 0;` after `return -1;` on the failures);
/// otherwise any value from 0 up when it also returns a negative
/// constant, else 0.
pub fn success(program: &Program, func: FuncId) -> Success {
    let function = program.function(func);
    let it = match &function.sig.ret {
        Type::Int(it) if it.is_bool => return Success::NonZero,
        Type::Int(it) => *it,
        _ => return Success::Void,
    };
    let Some(body) = &function.body else {
        return Success::Is(0);
    };
    let mut returns: Vec<(crate::program::Span, Option<i128>)> = body
        .blocks
        .iter()
        .filter_map(|block| match &block.term {
            Terminator::Return(Some(value)) => Some((block.term_span, constant(value, it))),
            _ => None,
        })
        .collect();
    returns.sort_by_key(|(span, _)| *span);
    match returns.last() {
        Some((_, Some(last))) => Success::Is(*last),
        _ if it.signed && returns.iter().any(|(_, v)| v.is_some_and(|v| v < 0)) => {
            Success::NonNegative
        }
        _ => Success::Is(0),
    }
}

/// The value of an integer constant of type `it`, read as C reads it.
fn constant(e: &Expr, it: IntType) -> Option<i128> {
    let ExprKind::Int(bits) = strip_casts(e).kind else {
        return None;
    };
    Some(it.value_of(bits))
}

/// The members of a struct written so far on every path: one flag each.
type Members = Vec<bool>;

fn sets_up_within(
    program: &Program,
    func: FuncId,
    param: usize,
    running: &mut Vec<(FuncId, usize)>,
) -> bool {
    let function = program.function(func);
    let (Some(body), Some(Type::Struct(id))) = (
        &function.body,
        function.sig.params.get(param).and_then(Type::pointee),
    ) else {
        return false;
    };
    let def = program.struct_def(*id);
    if !def.complete || def.fields.is_empty() || running.contains(&(func, param)) {
        return false;
    }
    running.push((func, param));
    let mut walk = Walk {
        program,
        body,
        param,
        params: function.sig.params.len(),
        union: def.is_union,
        members: def.fields.len(),
        running,
    };
    let result = walk.run();
    walk.running.pop();
    let Some(at_returns) = result else {
        return false;
    };
    let needed: Vec<usize> = (0..def.fields.len())
        .filter(|&i| !matches!(def.fields[i].ty, Type::Array(..)))
        .collect();
    at_returns.iter().any(|written| {
        if needed.is_empty() {
            written.iter().any(|w| *w)
        } else {
            needed.iter().all(|&i| written[i])
        }
    })
}

/// One function's walk, forward over its blocks, of the members of
/// parameter `param`'s struct written on every path.
struct Walk<'a, 'r> {
    program: &'a Program,
    body: &'a Body,
    param: usize,
    params: usize,
    union: bool,
    members: usize,
    running: &'r mut Vec<(FuncId, usize)>,
}

/// What a statement or an expression does to the struct.
enum Access {
    /// Reads member `i` (or all of them).
    Read(Option<usize>),
    /// Writes member `i` (or all of them).
    Write(Option<usize>),
}

impl Walk<'_, '_> {
    /// The members written on entry to each `return`, or `None` when some
    /// path reads a member before writing it or changes the parameter.
    fn run(&mut self) -> Option<Vec<Members>> {
        let blocks = self.body.blocks.len();
        let mut entry: Vec<Option<Members>> = vec![None; blocks];
        entry[0] = Some(vec![false; self.members]);
        let mut pending = vec![BlockId(0)];
        let mut at_returns = Vec::new();
        while let Some(id) = pending.pop() {
            let Some(mut written) = entry[id.index()].clone() else {
                continue;
            };
            let block = self.body.block(id);
            for stmt in &block.stmts {
                for access in self.statement(&stmt.kind)? {
                    self.apply(&mut written, access)?;
                }
            }
            for access in self.terminator(&block.term) {
                self.apply(&mut written, access)?;
            }
            if matches!(block.term, Terminator::Return(_)) {
                at_returns.push(written.clone());
            }
            for next in block.term.successors() {
                let merged = match &entry[next.index()] {
                    None => written.clone(),
                    Some(before) => before.iter().zip(&written).map(|(a, b)| *a && *b).collect(),
                };
                if entry[next.index()].as_ref() != Some(&merged) {
                    entry[next.index()] = Some(merged);
                    pending.push(next);
                }
            }
        }
        Some(at_returns)
    }

    /// `written` after `access`; `None` for a read of a member not written,
    /// or an access to a member the struct does not have (the parameter
    /// cast to another struct type: no initialiser of this one).
    fn apply(&self, written: &mut Members, access: Access) -> Option<()> {
        match access {
            Access::Read(Some(i)) if *written.get(i)? => {}
            Access::Read(None) if written.iter().all(|w| *w) => {}
            Access::Read(_) => return None,
            Access::Write(Some(i)) if !self.union => *written.get_mut(i)? = true,
            Access::Write(_) => written.iter_mut().for_each(|w| *w = true),
        }
        Some(())
    }

    /// What a statement does to the struct, in order: its reads, then its
    /// writes. `None` when it changes the parameter itself.
    fn statement(&mut self, kind: &StmtKind) -> Option<Vec<Access>> {
        let mut accesses = Vec::new();
        let assigned = match kind {
            StmtKind::Assign(place, value) => {
                self.reads_in_place(place, &mut accesses);
                self.reads(value, &mut accesses);
                Some(place)
            }
            StmtKind::Call { dest, callee, args } => {
                if let Some(place) = dest {
                    self.reads_in_place(place, &mut accesses);
                }
                if let Callee::Indirect(pointer) = callee {
                    self.reads(pointer, &mut accesses);
                }
                let mut effects = Vec::new();
                for (j, arg) in args.iter().enumerate() {
                    match self.handed(arg) {
                        Some(member) => effects.push(self.call_effect(callee, j, member)),
                        None => self.reads(arg, &mut accesses),
                    }
                }
                accesses.extend(effects);
                dest.as_ref()
            }
        };
        if let Some(place) = assigned {
            if place.base == PlaceBase::Local(LocalId(self.param as u32)) {
                return None;
            }
            if let Some(member) = self.member_of(place) {
                accesses.push(Access::Write(member));
            }
        }
        Some(accesses)
    }

    fn terminator(&self, term: &Terminator) -> Vec<Access> {
        let mut accesses = Vec::new();
        match term {
            Terminator::Branch { cond: e, .. }
            | Terminator::Switch { value: e, .. }
            | Terminator::Return(Some(e)) => self.reads(e, &mut accesses),
            _ => {}
        }
        accesses
    }

    /// The member of the struct `place` designates (`None`: all of it),
    /// if it lies in the struct.
    fn member_of(&self, place: &Place) -> Option<Option<usize>> {
        let PlaceBase::Deref(pointer) = &place.base else {
            return None;
        };
        if param_read(pointer, self.params) != Some(self.param) {
            return None;
        }
        match place.proj.first() {
            None => Some(None),
            Some(Proj::Field { index, .. }) => Some(Some(*index as usize)),
            // `t[k]`: not the struct as a whole; counted as all of it.
            Some(Proj::Index { .. }) => Some(None),
        }
    }

    /// The members `e` reads, appended to `out`.
    fn reads(&self, e: &Expr, out: &mut Vec<Access>) {
        crate::walk::subexpressions(e, &mut |sub| {
            if let ExprKind::Load(place) = &sub.kind {
                if let Some(member) = self.member_of(place) {
                    out.push(Access::Read(member));
                }
            }
        });
    }

    /// The members read by the pointer and indices of `place`.
    fn reads_in_place(&self, place: &Place, out: &mut Vec<Access>) {
        crate::walk::place_expressions(place, &mut |sub| {
            if let ExprKind::Load(inner) = &sub.kind {
                if let Some(member) = self.member_of(inner) {
                    out.push(Access::Read(member));
                }
            }
        });
    }

    /// The part of the struct an argument hands to a function: the
    /// parameter itself (all of it) or a member's address.
    fn handed(&self, arg: &Expr) -> Option<Option<usize>> {
        if param_read(arg, self.params) == Some(self.param) {
            return Some(None);
        }
        match &strip_casts(arg).kind {
            ExprKind::AddrOf(place) => self.member_of(place),
            _ => None,
        }
    }

    /// What a call does to the part of the struct it gets as argument `j`:
    /// a function that sets that part up writes it; a C library function
    /// that fills memory writes it, another without a body may set a
    /// member up (`pthread_mutex_init(&t->lock, NULL)`); anything else
    /// reads it.
    fn call_effect(&mut self, callee: &Callee, j: usize, part: Option<usize>) -> Access {
        let Callee::Direct(g) = callee else {
            return Access::Read(part);
        };
        let function = self.program.function(*g);
        if function.body.is_none() {
            let fills = matches!(
                (function.name.as_str(), j),
                (
                    "memset" | "bzero" | "explicit_bzero" | "memcpy" | "memmove",
                    0
                )
            );
            return match (fills, part) {
                (true, _) | (false, Some(_)) => Access::Write(part),
                (false, None) => Access::Read(None),
            };
        }
        if sets_up_within(self.program, *g, j, self.running) {
            Access::Write(part)
        } else {
            Access::Read(part)
        }
    }
}
