//! Declarations, function bodies, statements and conditions.

use super::expr::{float_zero, make_binary};
use super::types::{
    alias_attribute, has_attribute, layout_attribute, merge_nonnull, nonnull_attribute,
    vector_attribute, Declared, Specs,
};
use super::vla::VariableLength;
use super::{
    FnBuilder, FuncDecl, GlobalDecl, Lowerer, Prototype, Scope, SwitchState, Symbol, MAX_NESTING, R,
};
use crate::cint;
use crate::Severity;
use ir::{
    BinOp, BlockId, BranchKind, BranchSite, Expr, ExprKind, FnSig, Function, Global, Init, IntType,
    Place, Terminator, Type,
};
use lang_c::ast::*;
use lang_c::span::Node;

/// The name a declarator declares, found without resolving any type.
fn declarator_name(d: &Declarator) -> Option<(String, usize)> {
    match &d.kind.node {
        DeclaratorKind::Identifier(id) => Some((id.node.name.clone(), id.span.start)),
        DeclaratorKind::Declarator(inner) => declarator_name(&inner.node),
        DeclaratorKind::Abstract => None,
    }
}

fn is_logical(e: &Expression) -> bool {
    match e {
        Expression::BinaryOperator(b) => {
            matches!(
                b.node.operator.node,
                BinaryOperator::LogicalAnd | BinaryOperator::LogicalOr
            )
        }
        Expression::UnaryOperator(u) => {
            u.node.operator.node == UnaryOperator::Negate && is_logical(&u.node.operand.node)
        }
        _ => false,
    }
}

impl<'a> Lowerer<'a> {
    // ----- declarations -----

    pub(super) fn file_declaration(&mut self, d: &'a Node<Declaration>) {
        if let Err(diag) = self.declaration(d) {
            self.report_file_scope(d.span.start, &diag);
        }
    }

    /// A declaration at file or block scope. At file scope a failing
    /// declarator poisons only its own name; in a block the error excludes
    /// the function.
    pub(super) fn declaration(&mut self, d: &Node<Declaration>) -> R<()> {
        let specs = Specs::of_declaration(&d.node.specifiers, d.span.start);
        let file_scope = self.at_file_scope();
        let base = match self.base_type(&specs) {
            Ok(t) => t,
            Err(diag) if file_scope => {
                for init_decl in &d.node.declarators {
                    if let Some((name, _)) = declarator_name(&init_decl.node.declarator.node) {
                        self.bind(&name, Symbol::Poisoned(diag.clone()));
                    }
                }
                return Err(diag);
            }
            Err(diag) => return Err(diag),
        };
        let mut first_error = None;
        for init_decl in &d.node.declarators {
            match self.init_declarator(&specs, &base, init_decl) {
                Ok(()) => {}
                Err(diag) if file_scope => {
                    if let Some((name, _)) = declarator_name(&init_decl.node.declarator.node) {
                        self.bind(&name, Symbol::Poisoned(diag.clone()));
                    }
                    first_error.get_or_insert(diag);
                }
                Err(diag) => return Err(diag),
            }
        }
        first_error.map_or(Ok(()), Err)
    }

    fn init_declarator(
        &mut self,
        specs: &Specs<'_>,
        base: &Type,
        init_decl: &Node<InitDeclarator>,
    ) -> R<()> {
        let automatic = !self.at_file_scope()
            && matches!(
                specs.storage,
                None | Some(StorageClassSpecifier::Auto | StorageClassSpecifier::Register)
            );
        let outer = std::mem::replace(
            &mut self.variable_length,
            match automatic {
                true => VariableLength::Local,
                false => VariableLength::Refused,
            },
        );
        let declared = self.declarator(base.clone(), &init_decl.node.declarator);
        self.variable_length = outer;
        let lengths = std::mem::take(&mut self.pending_lengths);
        let declared = declared?;
        let Some(name) = declared.name.clone() else {
            return Ok(());
        };
        if !lengths.is_empty() {
            let initializer = init_decl.node.initializer.as_ref();
            return self.variable_length_array(
                name,
                &declared.ty,
                lengths,
                initializer,
                declared.name_offset,
            );
        }
        let initializer = init_decl.node.initializer.as_ref();
        let extensions = &init_decl.node.declarator.node.extensions;
        if let Some(at) = specs.vector.or_else(|| vector_attribute(extensions)) {
            return self.unsupported(at, "a vector type (`vector_size`)");
        }
        if specs.storage == Some(StorageClassSpecifier::Typedef) {
            if let Some(at) = layout_attribute(&init_decl.node.declarator.node.extensions) {
                return self.unsupported(at, "alignment or packing attribute");
            }
            let extensions = &init_decl.node.declarator.node.extensions;
            if let (true, Type::Struct(id)) =
                (has_attribute(extensions, "transparent_union"), &declared.ty)
            {
                self.transparent_unions.insert(*id);
            }
            self.note_typedef_name(&declared.ty, &name);
            self.bind(&name, Symbol::Typedef(declared.ty));
            return Ok(());
        }
        if let Type::Function(sig) = &declared.ty {
            let extensions = &init_decl.node.declarator.node.extensions;
            // Another name of a function defined before (glibc's
            // `strong_alias`): calls through it are calls of that one,
            // which the driver must not define again.
            if let Some(Symbol::Func(target)) =
                alias_attribute(extensions).and_then(|target| self.lookup(&target))
            {
                let target = *target;
                self.bind(&name, Symbol::Func(target));
                return Ok(());
            }
            let is_static = specs.storage == Some(StorageClassSpecifier::Static);
            let index =
                self.declare_function(&name, (**sig).clone(), is_static, &declared, None)?;
            let noreturn = specs.noreturn || has_attribute(extensions, "noreturn");
            let nonnull = merge_nonnull(specs.nonnull.clone(), nonnull_attribute(extensions));
            if let Some(decl) = self.funcs.get_mut(index) {
                decl.noreturn |= noreturn;
                decl.note_nonnull(nonnull);
            }
            self.bind(&name, Symbol::Func(index));
            return Ok(());
        }
        if self.at_file_scope() {
            return self.file_variable(name, declared, specs, initializer);
        }
        match specs.storage {
            Some(StorageClassSpecifier::Extern) => {
                let index = match self.scopes.first().and_then(|s| s.names.get(&name)) {
                    Some(Symbol::Global(i)) => *i,
                    _ => {
                        self.globals_in_blocks.push(name.clone());
                        self.new_global(&name, &declared, specs, true)
                    }
                };
                self.bind(&name, Symbol::Global(index));
                Ok(())
            }
            Some(StorageClassSpecifier::Static) => {
                self.static_local(name, declared, specs, initializer)
            }
            _ => {
                let cleanup = specs.cleanup.clone().or_else(|| {
                    super::cleanup::cleanup_attribute(&init_decl.node.declarator.node.extensions)
                });
                self.local_variable(name, declared, initializer, cleanup)
            }
        }
    }

    fn new_global(
        &mut self,
        name: &str,
        declared: &Declared,
        specs: &Specs<'_>,
        is_extern: bool,
    ) -> usize {
        let at = declared.name_offset;
        let global = Global {
            name: name.to_string(),
            ty: declared.ty.clone(),
            init: None,
            is_static: specs.storage == Some(StorageClassSpecifier::Static),
            is_extern,
            is_const: declared.is_const_object(specs.is_const),
            span: self.span(at),
        };
        self.globals.push(GlobalDecl {
            id: None,
            global,
            defined: false,
        });
        let index = self.globals.len() - 1;
        if self.in_main_file(at) {
            self.global_id(index);
        }
        index
    }

    fn file_variable(
        &mut self,
        name: String,
        declared: Declared,
        specs: &Specs<'_>,
        initializer: Option<&Node<Initializer>>,
    ) -> R<()> {
        let is_extern =
            specs.storage == Some(StorageClassSpecifier::Extern) && initializer.is_none();
        let index = match self.scopes.first().and_then(|s| s.names.get(&name)) {
            Some(Symbol::Global(i)) => {
                let i = *i;
                if let Some(decl) = self.globals.get_mut(i) {
                    if matches!(decl.global.ty, Type::Array(_, None)) {
                        decl.global.ty = declared.ty.clone();
                    }
                    decl.global.is_extern &= is_extern;
                    decl.global.is_static |= specs.storage == Some(StorageClassSpecifier::Static);
                }
                i
            }
            _ => {
                let i = self.new_global(&name, &declared, specs, is_extern);
                self.bind(&name, Symbol::Global(i));
                i
            }
        };
        if let Some(init) = initializer {
            let ty = self.global_type(index);
            let (ty, init) = self.static_init(&ty, init)?;
            if let Some(decl) = self.globals.get_mut(index) {
                decl.global.ty = ty;
                decl.global.init = Some(init);
                decl.defined = true;
            }
        } else if !is_extern {
            if let Some(decl) = self.globals.get_mut(index) {
                if decl.global.init.is_none() {
                    decl.global.init = Some(Init::Fields(Vec::new()));
                }
            }
        }
        Ok(())
    }

    fn static_local(
        &mut self,
        name: String,
        declared: Declared,
        specs: &Specs<'_>,
        initializer: Option<&Node<Initializer>>,
    ) -> R<()> {
        let function = self
            .func
            .as_ref()
            .map(|f| f.name.clone())
            .unwrap_or_default();
        // Two blocks of one function may each have a `static` of the same name.
        let mut qualified = format!("{function}.{name}");
        let mut n = 1;
        while self.globals.iter().any(|g| g.global.name == qualified) {
            qualified = format!("{function}.{name}.{n}");
            n += 1;
        }
        let index = self.new_global(&qualified, &declared, specs, false);
        self.global_id(index);
        self.bind(&name, Symbol::Global(index));
        let (ty, init) = match initializer {
            Some(init) => self.static_init(&declared.ty, init)?,
            None => (declared.ty, Init::Fields(Vec::new())),
        };
        if let Some(decl) = self.globals.get_mut(index) {
            decl.global.ty = ty;
            decl.global.init = Some(init);
            decl.defined = true;
        }
        Ok(())
    }

    fn local_variable(
        &mut self,
        name: String,
        declared: Declared,
        initializer: Option<&Node<Initializer>>,
        cleanup: Option<(String, usize)>,
    ) -> R<()> {
        let at = declared.name_offset;
        let ty = match initializer {
            Some(init) => self.complete_array_type(&declared.ty, init)?,
            None => declared.ty,
        };
        if self.is_incomplete(&ty) {
            return self.error(at, format!("variable `{name}` has incomplete type"));
        }
        let span = self.span(at);
        let id = self.builder(at)?.new_local(&name, ty.clone(), span);
        self.bind(&name, Symbol::Local(id, ty.clone()));
        if let Some(init) = initializer {
            self.local_init(Place::local(id), &ty, init)?;
        }
        match cleanup {
            Some(cleanup) => self.note_cleanup(cleanup, id, &ty),
            None => Ok(()),
        }
    }

    /// Declares (or merges into) a file-scope function and returns its index.
    fn declare_function(
        &mut self,
        name: &str,
        sig: FnSig,
        is_static: bool,
        declared: &Declared,
        definition: Option<&'a Node<FunctionDefinition>>,
    ) -> R<usize> {
        let at = declared.name_offset;
        let existing = match self.scopes.first().and_then(|s| s.names.get(name)) {
            Some(Symbol::Func(i)) => Some(*i),
            _ => None,
        };
        let index = match existing.and_then(|i| self.funcs.get_mut(i).map(|d| (i, d))) {
            Some((i, decl)) => {
                let mut conflicting = false;
                if !declared.unprototyped {
                    // A prototype after an old-style definition must give
                    // the types its body receives.
                    conflicting =
                        decl.prototype == Prototype::OldStyleDefinition && decl.function.sig != sig;
                    if decl.prototype == Prototype::Missing {
                        decl.function.sig = sig;
                    }
                    decl.prototype = Prototype::Declared;
                }
                decl.function.is_static |= is_static;
                decl.at_file_scope |= self.scopes.len() <= 1;
                note_const_pointee(&mut decl.function, &declared.const_pointee);
                if conflicting {
                    return self.error(at, format!("conflicting types for `{name}`"));
                }
                i
            }
            None => {
                let function = Function {
                    name: name.to_string(),
                    sig,
                    prototyped: !declared.unprototyped,
                    nonnull: Vec::new(),
                    const_pointee: declared.const_pointee.clone(),
                    is_static,
                    span: self.span(at),
                    body: None,
                };
                self.funcs.push(FuncDecl {
                    id: None,
                    function,
                    header_definition: None,
                    prototype: match declared.unprototyped {
                        true => Prototype::Missing,
                        false => Prototype::Declared,
                    },
                    params: Vec::new(),
                    noreturn: false,
                    at_file_scope: self.at_file_scope(),
                    inline_definition: false,
                    inline_only: false,
                });
                let i = self.funcs.len() - 1;
                if let Some(scope) = self.scopes.first_mut() {
                    scope.names.insert(name.to_string(), Symbol::Func(i));
                }
                i
            }
        };
        if let Some(def) = definition {
            self.define_function(index, declared, def)?;
        }
        if self.in_main_file(at) {
            self.func_id(index);
        }
        Ok(index)
    }

    /// Records the definition `def` of function `index`, whose declarator
    /// is `declared`.
    fn define_function(
        &mut self,
        index: usize,
        declared: &Declared,
        def: &'a Node<FunctionDefinition>,
    ) -> R<()> {
        let Some(decl) = self.funcs.get(index) else {
            return Ok(());
        };
        let (prototype, sig) = (decl.prototype, decl.function.sig.clone());
        let received = match (declared.unprototyped, prototype) {
            (false, _) => None,
            (true, Prototype::Missing) => Some(self.received_types(None, declared)?),
            (true, Prototype::Declared) => Some(self.received_types(Some(&sig), declared)?),
            // A second definition, which the caller reports.
            (true, Prototype::OldStyleDefinition) => return Ok(()),
        };
        let span = self.span(declared.name_offset);
        let from_header = !self.in_main_file(def.span.start);
        let Some(decl) = self.funcs.get_mut(index) else {
            return Ok(());
        };
        decl.params = declared.params.clone();
        decl.function.span = span;
        match received {
            Some(params) => {
                decl.function.sig.params = params;
                if prototype == Prototype::Missing {
                    decl.prototype = Prototype::OldStyleDefinition;
                }
            }
            None => {
                decl.function.sig.variadic =
                    matches!(&declared.ty, Type::Function(s) if s.variadic);
                decl.prototype = Prototype::Declared;
            }
        }
        if from_header {
            decl.header_definition = Some(def);
            if decl.id.is_some() {
                self.pending_bodies.push(index);
            }
        }
        Ok(())
    }

    pub(super) fn function_definition(&mut self, def: &'a Node<FunctionDefinition>) {
        let specs = Specs::of_declaration(&def.node.specifiers, def.span.start);
        let declared = self
            .base_type(&specs)
            .and_then(|base| self.declarator(base, &def.node.declarator));
        let result = declared.and_then(|declared| match (&declared.ty, &declared.name) {
            (Type::Function(sig), Some(name)) => {
                let is_static = specs.storage == Some(StorageClassSpecifier::Static);
                let (name, sig) = (name.clone(), (**sig).clone());
                let declared =
                    match (declared.unprototyped, def.node.declarations.first()) {
                        (true, _) => self.old_style_parameters(declared, &def.node.declarations)?,
                        (false, None) => declared,
                        (false, Some(k)) => return self.error(
                            k.span.start,
                            "old-style parameter declarations in a prototyped function definition",
                        ),
                    };
                let index = self.declare_function(&name, sig, is_static, &declared, Some(def))?;
                if let Some(decl) = self.funcs.get_mut(index) {
                    decl.noreturn |= specs.noreturn;
                    decl.note_nonnull(specs.nonnull.clone());
                    decl.inline_definition = specs.inline && specs.storage.is_none();
                    decl.inline_only =
                        specs.inline && specs.storage == Some(StorageClassSpecifier::Extern);
                }
                Ok(index)
            }
            _ => self.error(
                def.span.start,
                "function definition without a function declarator",
            ),
        });
        match result {
            Ok(index) => {
                let defined_before = self
                    .funcs
                    .get(index)
                    .is_some_and(|f| f.function.body.is_some());
                if defined_before {
                    let name = self
                        .funcs
                        .get(index)
                        .map(|f| f.function.name.clone())
                        .unwrap_or_default();
                    let diag = self.diag(
                        Severity::Error,
                        def.span.start,
                        format!("redefinition of `{name}`"),
                    );
                    self.diagnostics.push(diag);
                } else if self.in_main_file(def.span.start) {
                    self.lower_function_body(index, def);
                }
            }
            Err(diag) => {
                if let Some((name, _)) = declarator_name(&def.node.declarator.node) {
                    if self.in_main_file(def.span.start) {
                        self.declare_excluded_signature(def, &specs);
                        self.note_names_of_excluded(def);
                        self.excluded.push((name.clone(), diag.clone()));
                    }
                    self.bind(&name, Symbol::Poisoned(diag.clone()));
                }
                self.report_file_scope(def.span.start, &diag);
            }
        }
    }

    /// Keeps an excluded definition in the program (without a body) when its
    /// signature can be typed with opaque stand-ins for poisoned struct tags.
    fn declare_excluded_signature(&mut self, def: &'a Node<FunctionDefinition>, specs: &Specs<'_>) {
        self.lenient = true;
        let declared = self
            .base_type(specs)
            .and_then(|base| self.declarator(base, &def.node.declarator));
        self.lenient = false;
        if let Ok(declared) = declared {
            if let (Type::Function(sig), Some(name)) = (&declared.ty, &declared.name) {
                let is_static = specs.storage == Some(StorageClassSpecifier::Static);
                // Its diagnostic is the one that excluded the definition.
                let _ = self.declare_function(name, (**sig).clone(), is_static, &declared, None);
            }
        }
    }

    pub(super) fn lower_function_body(&mut self, index: usize, def: &'a Node<FunctionDefinition>) {
        let Some(decl) = self.funcs.get(index) else {
            return;
        };
        let name = decl.function.name.clone();
        let sig = decl.function.sig.clone();
        let params = decl.params.clone();
        self.func = Some(FnBuilder::new(name.clone(), sig.ret.clone()));
        self.scopes.push(Scope::default());
        let result = self.function_body(&name, &sig, &params, def);
        self.scopes.truncate(1);
        let builder = self.func.take();
        match (result, builder) {
            (Ok(()), Some(builder)) => {
                if let Some(decl) = self.funcs.get_mut(index) {
                    decl.function.body = Some(builder.finish());
                }
            }
            // The library's own definition is the function.
            (Err(_), _)
                if self
                    .funcs
                    .get(index)
                    .is_some_and(|decl| decl.inline_only && decl.header_definition.is_some()) => {}
            (Err(diag), _) => {
                self.note_names_of_excluded(def);
                self.excluded.push((name, diag.clone()));
                if !self.diagnostics.contains(&diag) {
                    self.diagnostics.push(diag);
                }
            }
            (Ok(()), None) => {}
        }
    }

    fn function_body(
        &mut self,
        name: &str,
        sig: &FnSig,
        params: &[(Option<String>, Type, usize)],
        def: &Node<FunctionDefinition>,
    ) -> R<()> {
        let mut converted = Vec::new();
        for (i, ty) in sig.params.iter().enumerate() {
            let (pname, declared, at) = match params.get(i) {
                Some((n, declared, at)) => (n.clone().unwrap_or_default(), declared, *at),
                None => (String::new(), ty, def.span.start),
            };
            let span = self.span(at);
            let id = self.builder(at)?.new_local(&pname, ty.clone(), span);
            if pname.is_empty() {
                continue;
            }
            match declared == ty {
                true => self.bind(&pname, Symbol::Local(id, ty.clone())),
                false => converted.push((
                    pname,
                    Expr::load(Place::local(id), ty.clone()),
                    declared.clone(),
                    at,
                )),
            }
        }
        if sig.variadic {
            // Right after the parameters, where `ir::Function::va_area` finds it.
            let span = self.span(def.span.start);
            let f = self.builder(def.span.start)?;
            f.va_area = Some(f.new_local("va_area", Type::ptr(Type::Void), span));
        }
        // An old-style definition receives a parameter promoted and first
        // converts it to its declared type (`old_style.rs`).
        for (pname, received, declared, at) in converted {
            let span = self.span(at);
            let own = self.builder(at)?.new_local(&pname, declared.clone(), span);
            let value = self.convert(received, &declared, at)?;
            self.assign_stmt(Place::local(own), value, at)?;
            self.bind(&pname, Symbol::Local(own, declared));
        }
        self.statement(&def.node.statement)?;
        let end = def.span.end.saturating_sub(1);
        let span = self.span(end);
        let value = (name == "main" && sig.ret == Type::Int(IntType::INT))
            .then(|| Expr::int(IntType::INT, 0));
        let f = self.builder(end)?;
        f.terminate(Terminator::Return(value), span);
        let undefined = f
            .labels
            .iter()
            .find(|(_, (_, defined, _))| !defined)
            .map(|(n, (_, _, at))| (n.clone(), *at));
        if let Some((label, at)) = undefined {
            return self.error(at, format!("use of undeclared label `{label}`"));
        }
        Ok(())
    }

    // ----- statements -----

    pub(super) fn statement(&mut self, s: &Node<Statement>) -> R<()> {
        let at = s.span.start;
        let span = self.span(at);
        match &s.node {
            Statement::Compound(items) => {
                self.scopes.push(Scope::default());
                for item in items {
                    match &item.node {
                        BlockItem::Declaration(d) => self.declaration(d)?,
                        BlockItem::StaticAssert(_) => {}
                        BlockItem::Statement(st) => self.statement(st)?,
                    }
                }
                self.end_scope_cleanups()?;
                self.scopes.pop();
                Ok(())
            }
            Statement::Expression(Some(e)) => self.discard(e),
            Statement::Expression(None) => Ok(()),
            Statement::If(i) => {
                let (then_bb, else_bb, join) = {
                    let f = self.builder(at)?;
                    (f.new_block(), f.new_block(), f.new_block())
                };
                let else_target = if i.node.else_statement.is_some() {
                    else_bb
                } else {
                    join
                };
                self.cond_branch(&i.node.condition, then_bb, else_target, BranchKind::If)?;
                self.builder(at)?.current = then_bb;
                self.statement(&i.node.then_statement)?;
                self.builder(at)?.goto_and_switch(join, span);
                if let Some(e) = &i.node.else_statement {
                    self.builder(at)?.current = else_bb;
                    self.statement(e)?;
                    self.builder(at)?.goto_and_switch(join, span);
                }
                Ok(())
            }
            Statement::While(w) => {
                let f = self.builder(at)?;
                let (head, body, exit) = (f.new_block(), f.new_block(), f.new_block());
                f.goto_and_switch(head, span);
                self.cond_branch(&w.node.expression, body, exit, BranchKind::Loop)?;
                self.loop_body(&w.node.statement, body, head, exit, at)?;
                self.builder(at)?.goto_and_switch(head, span);
                self.builder(at)?.current = exit;
                Ok(())
            }
            Statement::DoWhile(d) => {
                let f = self.builder(at)?;
                let (body, cond, exit) = (f.new_block(), f.new_block(), f.new_block());
                f.goto_and_switch(body, span);
                self.loop_body(&d.node.statement, body, cond, exit, at)?;
                self.builder(at)?.goto_and_switch(cond, span);
                self.cond_branch(&d.node.expression, body, exit, BranchKind::Loop)?;
                self.builder(at)?.current = exit;
                Ok(())
            }
            Statement::For(f) => {
                self.scopes.push(Scope::default());
                match &f.node.initializer.node {
                    ForInitializer::Empty | ForInitializer::StaticAssert(_) => {}
                    ForInitializer::Expression(e) => self.discard(e)?,
                    ForInitializer::Declaration(d) => self.declaration(d)?,
                }
                let b = self.builder(at)?;
                let (head, body, step, exit) =
                    (b.new_block(), b.new_block(), b.new_block(), b.new_block());
                b.goto_and_switch(head, span);
                match &f.node.condition {
                    Some(c) => self.cond_branch(c, body, exit, BranchKind::Loop)?,
                    None => self.builder(at)?.terminate(Terminator::Goto(body), span),
                }
                self.loop_body(&f.node.statement, body, step, exit, at)?;
                self.builder(at)?.goto_and_switch(step, span);
                if let Some(e) = &f.node.step {
                    self.discard(e)?;
                }
                self.builder(at)?.terminate(Terminator::Goto(head), span);
                self.builder(at)?.current = exit;
                self.end_scope_cleanups()?;
                self.scopes.pop();
                Ok(())
            }
            Statement::Switch(sw) => self.switch(sw, at),
            Statement::Labeled(l) => self.labeled(l, at),
            Statement::Goto(label) => {
                let target = self.label_block(&label.node.name, label.span.start)?;
                self.goto_with_cleanups(&label.node.name, target, at)
            }
            Statement::Continue | Statement::Break => {
                let is_break = matches!(s.node, Statement::Break);
                let f = self.builder(at)?;
                let target = if is_break {
                    f.breaks.last()
                } else {
                    f.continues.last()
                }
                .copied();
                match target {
                    Some((t, depth)) => {
                        let left = self.cleanups_from(depth);
                        self.run_cleanups(&left)?;
                        self.builder(at)?.terminate(Terminator::Goto(t), span);
                        Ok(())
                    }
                    None if is_break => self.error(at, "break statement not within loop or switch"),
                    None => self.error(at, "continue statement not within a loop"),
                }
            }
            Statement::Return(value) => {
                let ret = self
                    .func
                    .as_ref()
                    .map(|f| f.ret.clone())
                    .unwrap_or(Type::Void);
                let value = match value {
                    None => None,
                    Some(e) if ret == Type::Void => {
                        self.discard(e)?;
                        None
                    }
                    Some(e) => {
                        let v = self.rvalue(e)?;
                        Some(self.convert_assigned(v, &ret, e.span.start)?)
                    }
                };
                // The value is taken before the cleanups run.
                let cleanups = self.cleanups_from(1);
                let value = match value {
                    Some(v) if !cleanups.is_empty() => {
                        let kept = self.temp(ret.clone(), at)?;
                        self.assign_stmt(Place::local(kept), v, at)?;
                        Some(Expr::load(Place::local(kept), ret))
                    }
                    other => other,
                };
                self.run_cleanups(&cleanups)?;
                self.builder(at)?.terminate(Terminator::Return(value), span);
                Ok(())
            }
            Statement::Asm(_) => self.unsupported(at, "inline assembly"),
        }
    }

    fn loop_body(
        &mut self,
        body: &Node<Statement>,
        start: BlockId,
        cont: BlockId,
        exit: BlockId,
        at: usize,
    ) -> R<()> {
        let depth = self.scopes.len();
        let f = self.builder(at)?;
        f.current = start;
        f.breaks.push((exit, depth));
        f.continues.push((cont, depth));
        let result = self.statement(body);
        let f = self.builder(at)?;
        f.breaks.pop();
        f.continues.pop();
        result
    }

    fn label_block(&mut self, name: &str, at: usize) -> R<BlockId> {
        let f = self.builder(at)?;
        if let Some((b, _, _)) = f.labels.get(name) {
            return Ok(*b);
        }
        let b = f.new_block();
        f.labels.insert(name.to_string(), (b, false, at));
        Ok(b)
    }

    fn labeled(&mut self, l: &Node<LabeledStatement>, at: usize) -> R<()> {
        let span = self.span(at);
        match &l.node.label.node {
            Label::Identifier(id) => {
                let b = self.label_block(&id.node.name, id.span.start)?;
                let f = self.builder(at)?;
                if let Some(entry) = f.labels.get_mut(&id.node.name) {
                    if entry.1 {
                        return self.error(
                            id.span.start,
                            format!("redefinition of label `{}`", id.node.name),
                        );
                    }
                    entry.1 = true;
                }
                self.define_label_cleanups(&id.node.name, b, at)?;
                self.builder(at)?.goto_and_switch(b, span);
            }
            Label::Case(e) => {
                let value = self.const_int(e)?;
                self.add_cases(&[value], at)?;
            }
            Label::CaseRange(r) => {
                let (lt, low) = self.const_int(&r.node.low)?;
                let (_, high) = self.const_int(&r.node.high)?;
                if high.saturating_sub(low) > 1024 {
                    return self.unsupported(at, "case range wider than 1024 values");
                }
                let values: Vec<(IntType, i128)> = (low..=high).map(|v| (lt, v)).collect();
                self.add_cases(&values, at)?;
            }
            Label::Default => {
                let f = self.builder(at)?;
                let b = f.new_block();
                f.goto_and_switch(b, span);
                match f.switches.last_mut() {
                    Some(state) if state.default.is_none() => state.default = Some(b),
                    Some(_) => return self.error(at, "multiple default labels in one switch"),
                    None => return self.error(at, "default label not within a switch statement"),
                }
            }
        }
        self.statement(&l.node.statement)
    }

    /// Starts a block for `case` labels: values are converted to the
    /// switch's promoted type.
    fn add_cases(&mut self, values: &[(IntType, i128)], at: usize) -> R<()> {
        let span = self.span(at);
        let f = self.builder(at)?;
        let Some(ty) = f.switches.last().map(|s| s.ty) else {
            return self.error(at, "case label not within a switch statement");
        };
        let b = f.new_block();
        f.goto_and_switch(b, span);
        for (from, value) in values {
            let converted = ty.value_of(cint::convert(*from, ty, *value as u128));
            let Some(state) = f.switches.last_mut() else {
                break;
            };
            if state.cases.iter().any(|(v, _)| *v == converted) {
                return self.error(at, format!("duplicate case value {converted}"));
            }
            state.cases.push((converted, b));
        }
        Ok(())
    }

    fn switch(&mut self, sw: &Node<SwitchStatement>, at: usize) -> R<()> {
        let span = self.span(at);
        let cond_at = sw.node.expression.span.start;
        let value = self.rvalue(&sw.node.expression)?;
        let Some(t) = value.ty.as_int() else {
            return self.error(cond_at, "statement requires expression of integer type");
        };
        let ty = cint::promote(t);
        let value = self.convert(value, &Type::Int(ty), cond_at)?;
        let site = BranchSite {
            span: self.span(cond_at),
            text: self.text(sw.node.expression.span),
            kind: BranchKind::Switch,
        };
        let depth = self.scopes.len();
        let f = self.builder(at)?;
        let dispatch = f.current;
        let exit = f.new_block();
        f.terminate(Terminator::Unreachable, span);
        f.switches.push(SwitchState {
            ty,
            cases: Vec::new(),
            default: None,
        });
        f.breaks.push((exit, depth));
        let result = self.statement(&sw.node.statement);
        let f = self.builder(at)?;
        f.breaks.pop();
        let state = f.switches.pop();
        result?;
        f.goto_and_switch(exit, span);
        let state = state.unwrap_or(SwitchState {
            ty,
            cases: Vec::new(),
            default: None,
        });
        let site = f.add_branch(site);
        let term = Terminator::Switch {
            value,
            cases: state.cases,
            default: state.default.unwrap_or(exit),
            site,
        };
        if let Some(block) = f.blocks.get_mut(dispatch.index()) {
            block.term = Some((term, span));
        }
        Ok(())
    }

    // ----- conditions -----

    /// The truth value of a condition that is an integer constant expression.
    pub(super) fn constant_truth(&mut self, e: &Node<Expression>) -> Option<bool> {
        let saved = self.func.take();
        let result = self.rvalue(e);
        self.func = saved;
        match result.ok()? {
            Expr {
                kind: ExprKind::Int(bits),
                ty: Type::Int(t),
            } => Some(t.value_of(bits) != 0),
            Expr {
                kind: ExprKind::Null,
                ..
            } => Some(false),
            _ => None,
        }
    }

    /// Branches to `then_bb` or `else_bb` on `e`; `&&` and `||` become one
    /// branch per operand, and a constant condition becomes a plain jump.
    pub(super) fn cond_branch(
        &mut self,
        e: &Node<Expression>,
        then_bb: BlockId,
        else_bb: BlockId,
        kind: BranchKind,
    ) -> R<()> {
        if self.depth >= MAX_NESTING {
            return self.unsupported(e.span.start, "condition nested too deeply");
        }
        self.depth += 1;
        let result = self.cond_branch_unguarded(e, then_bb, else_bb, kind);
        self.depth -= 1;
        result
    }

    fn cond_branch_unguarded(
        &mut self,
        e: &Node<Expression>,
        then_bb: BlockId,
        else_bb: BlockId,
        kind: BranchKind,
    ) -> R<()> {
        let at = e.span.start;
        let span = self.span(at);
        if let Some(truth) = self.constant_truth(e) {
            let (then_bb, else_bb) = self.condition_targets(then_bb, else_bb, at)?;
            let target = if truth { then_bb } else { else_bb };
            self.builder(at)?.terminate(Terminator::Goto(target), span);
            return Ok(());
        }
        match &e.node {
            Expression::BinaryOperator(b)
                if matches!(
                    b.node.operator.node,
                    BinaryOperator::LogicalAnd | BinaryOperator::LogicalOr
                ) && self.starts_decision(at) =>
            {
                self.lower_decision(e, then_bb, else_bb, |this| {
                    this.cond_branch_unguarded(e, then_bb, else_bb, kind)
                })
            }
            Expression::BinaryOperator(b)
                if matches!(
                    b.node.operator.node,
                    BinaryOperator::LogicalAnd | BinaryOperator::LogicalOr
                ) =>
            {
                let mid = self.builder(at)?.new_block();
                if b.node.operator.node == BinaryOperator::LogicalAnd {
                    self.cond_branch(&b.node.lhs, mid, else_bb, BranchKind::Logical)?;
                } else {
                    self.cond_branch(&b.node.lhs, then_bb, mid, BranchKind::Logical)?;
                }
                self.builder(at)?.current = mid;
                self.cond_branch(&b.node.rhs, then_bb, else_bb, BranchKind::Logical)
            }
            Expression::UnaryOperator(u)
                if u.node.operator.node == UnaryOperator::Negate
                    && is_logical(&u.node.operand.node) =>
            {
                self.cond_branch(&u.node.operand, else_bb, then_bb, kind)
            }
            Expression::Comma(list) if list.len() > 1 => {
                let Some((last, rest)) = list.split_last() else {
                    return Ok(());
                };
                for x in rest {
                    self.discard(x)?;
                }
                self.cond_branch(last, then_bb, else_bb, kind)
            }
            _ => {
                let cond = self.condition_value(at, |this| {
                    let v = this.expr(e)?;
                    this.rvalue_of(v, at)
                })?;
                let (then_bb, else_bb) = self.condition_targets(then_bb, else_bb, at)?;
                self.branch_on(cond, e, then_bb, else_bb, kind)
            }
        }
    }

    /// Ends the current block with a branch on the value `cond` of the condition `e`.
    pub(super) fn branch_on(
        &mut self,
        cond: Expr,
        e: &Node<Expression>,
        then_bb: BlockId,
        else_bb: BlockId,
        kind: BranchKind,
    ) -> R<()> {
        let at = e.span.start;
        let span = self.span(at);
        // A floating condition is its comparison with zero (NaN is true).
        let cond = match cond.ty {
            Type::Float(kind) if cond.ty.as_ieee_float().is_some() => {
                make_binary(BinOp::Ne, cond, float_zero(kind), Type::Int(IntType::INT))
            }
            _ => cond,
        };
        if !matches!(cond.ty, Type::Int(_) | Type::Pointer(_)) {
            return self.error(
                at,
                "used a value that is not a scalar where a condition is required",
            );
        }
        let site = BranchSite {
            span,
            text: self.text(e.span),
            kind,
        };
        let f = self.builder(at)?;
        let site = f.add_branch(site);
        f.terminate(
            Terminator::Branch {
                cond,
                then_bb,
                else_bb,
                site,
            },
            span,
        );
        Ok(())
    }
}

/// Adds the parameters a further declaration of `function` says point to
/// `const` (any declaration saying so is enough).
fn note_const_pointee(function: &mut Function, params: &[usize]) {
    let known = &mut function.const_pointee;
    known.extend(params.iter().filter(|&&p| p < function.sig.params.len()));
    known.sort_unstable();
    known.dedup();
}
