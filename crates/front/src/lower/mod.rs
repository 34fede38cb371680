//! Semantic analysis and lowering of a lang-c translation unit to the IR.
//!
//! One pass over the unit in source order. File-scope names live in
//! `scopes[0]`; a function body pushes block scopes on top. Declarations that
//! come from headers get an IR entity only when something uses them, so the
//! program holds what the main file needs, not all of libc.

mod atomic;
mod builtin;
mod cleanup;
mod compact;
mod decision;
mod expr;
mod float_builtin;
mod init;
mod library;
mod old_style;
mod stmt;
mod types;
mod varargs;
mod vla;

use crate::linemap::LineMap;
use crate::{Diagnostic, Severity};
use ir::{
    Block, BlockId, Body, BranchSite, FnSig, FuncId, Function, Global, GlobalId, IntType, Local,
    LocalId, Program, Span, Stmt, StmtKind, StructId, Terminator, Type,
};
use lang_c::ast::{ExternalDeclaration, FunctionDefinition, TranslationUnit};
use lang_c::span::Node;
use std::collections::{HashMap, HashSet};

pub(crate) type R<T> = Result<T, Diagnostic>;

/// Parameters of a function definition: name (if any), type, source offset.
type Params = Vec<(Option<String>, Type, usize)>;

/// Deepest expression or condition nesting lowered; deeper ones are
/// reported instead of risking the stack (here and in later stages).
const MAX_NESTING: u32 = 1000;

/// What an ordinary identifier names in a scope.
#[derive(Clone, Debug)]
enum Symbol {
    Local(LocalId, Type),
    /// Index into [`Lowerer::globals`].
    Global(usize),
    /// Index into [`Lowerer::funcs`].
    Func(usize),
    EnumConst(i128),
    Typedef(Type),
    /// A file-scope name whose declaration uses something unsupported; any use
    /// excludes the user with this diagnostic.
    Poisoned(Diagnostic),
    /// A local variable-length array.
    VariableArray(vla::VariableArray),
}

#[derive(Clone, Debug)]
enum Tag {
    Struct(StructId),
    /// An enum, with the integer type gcc gives it.
    Enum(IntType),
    Poisoned(Diagnostic),
}

#[derive(Default)]
struct Scope {
    names: HashMap<String, Symbol>,
    tags: HashMap<String, Tag>,
    /// Locals whose scope's end calls a function (see `cleanup`).
    cleanups: Vec<cleanup::Cleanup>,
}

/// A global variable as declared so far; it reaches the program when used
/// or when the main file declares it.
struct GlobalDecl {
    id: Option<GlobalId>,
    global: Global,
    defined: bool,
}

struct FuncDecl<'a> {
    id: Option<FuncId>,
    function: Function,
    /// A definition seen in a header, lowered only if the function is used.
    header_definition: Option<&'a Node<FunctionDefinition>>,
    prototype: Prototype,
    /// Parameter names, types and positions of the definition, the types as
    /// its body declares them (see [`old_style`]).
    params: Params,
    /// Declared `_Noreturn` / `noreturn`: nothing after a call to it runs.
    noreturn: bool,
    /// Some declaration of it is at file scope (else only inside a
    /// function: `{ extern void log_it(const char *); log_it(s); }`).
    at_file_scope: bool,
    /// Defined `inline`, neither `static` nor `extern`: in C99 an inline
    /// definition, which gives the linker no symbol.
    inline_definition: bool,
    /// Defined `extern inline` in a header: GNU's inline-only version of
    /// a function a library defines (glibc's `error` over
    /// `__builtin_va_arg_pack`), so a body cairn cannot read leaves the
    /// library's function, not an excluded one.
    inline_only: bool,
}

impl FuncDecl<'_> {
    /// Adds the parameters a declaration's `nonnull` attribute names
    /// (`types::nonnull_attribute`) to those the function never takes NULL for.
    fn note_nonnull(&mut self, numbers: Option<Vec<usize>>) {
        let Some(numbers) = numbers else {
            return;
        };
        let nonnull = &mut self.function.nonnull;
        nonnull.extend(types::nonnull_params(&numbers, &self.function.sig.params));
        nonnull.sort_unstable();
        nonnull.dedup();
    }

    /// A function the compiler declares itself (no prototype in the source).
    fn built_in(function: Function) -> Self {
        FuncDecl {
            id: None,
            function,
            header_definition: None,
            prototype: Prototype::Declared,
            params: Vec::new(),
            noreturn: false,
            at_file_scope: true,
            inline_definition: false,
            inline_only: false,
        }
    }
}

/// Whether calls of a function see a prototype, as C decides it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Prototype {
    /// Only declared `f()`: calls pass their arguments after the default
    /// promotions, unchecked; the signature has no parameters yet (a
    /// bodiless one gets those of its calls, [`old_style`]).
    Missing,
    /// Defined old-style (`int f(c) char c; {...}`) with no prototype in
    /// scope: calls are as for `Missing`; the signature holds the promoted
    /// types the body receives (`int` for `c`).
    OldStyleDefinition,
    /// Calls convert their arguments to the parameter types.
    Declared,
}

/// A block being built: its terminator is `None` while it is still open.
#[derive(Clone)]
struct BuildBlock {
    stmts: Vec<Stmt>,
    term: Option<(Terminator, Span)>,
}

/// Targets of `break`, `continue` and the state of the innermost `switch`.
#[derive(Clone)]
struct SwitchState {
    ty: ir::IntType,
    cases: Vec<(i128, BlockId)>,
    default: Option<BlockId>,
}

/// The function under construction.
#[derive(Clone)]
struct FnBuilder {
    name: String,
    ret: Type,
    locals: Vec<Local>,
    blocks: Vec<BuildBlock>,
    current: BlockId,
    branches: Vec<BranchSite>,
    /// Where `break` and `continue` go, with the number of scopes open
    /// there (those past it have their cleanups run).
    breaks: Vec<(BlockId, usize)>,
    continues: Vec<(BlockId, usize)>,
    switches: Vec<SwitchState>,
    /// Label name -> (block, defined yet, offset of first use).
    labels: HashMap<String, (BlockId, bool, usize)>,
    /// Cleanups registered so far (see `cleanup`).
    cleanups_registered: u32,
    /// Label name -> the cleanups registered in the scopes open there.
    label_cleanups: HashMap<String, Vec<u32>>,
    pending_gotos: Vec<cleanup::PendingGoto>,
    /// A variadic function's argument area (`ir::Function::va_area`).
    va_area: Option<LocalId>,
    /// Where the lowering is in a decision lowered for MC/DC.
    decision: decision::DecisionState,
    decisions: Vec<ir::decisions::Decision>,
}

impl FnBuilder {
    fn new(name: String, ret: Type) -> FnBuilder {
        FnBuilder {
            name,
            ret,
            locals: Vec::new(),
            blocks: vec![BuildBlock {
                stmts: Vec::new(),
                term: None,
            }],
            current: BlockId(0),
            branches: Vec::new(),
            breaks: Vec::new(),
            continues: Vec::new(),
            switches: Vec::new(),
            labels: HashMap::new(),
            cleanups_registered: 0,
            label_cleanups: HashMap::new(),
            pending_gotos: Vec::new(),
            va_area: None,
            decision: decision::DecisionState::Outside,
            decisions: Vec::new(),
        }
    }

    fn new_block(&mut self) -> BlockId {
        self.blocks.push(BuildBlock {
            stmts: Vec::new(),
            term: None,
        });
        BlockId((self.blocks.len() - 1) as u32)
    }

    fn new_local(&mut self, name: &str, ty: Type, span: Span) -> LocalId {
        self.locals.push(Local {
            name: name.to_string(),
            ty,
            span,
        });
        LocalId((self.locals.len() - 1) as u32)
    }

    fn current_mut(&mut self) -> Option<&mut BuildBlock> {
        self.blocks.get_mut(self.current.index())
    }

    fn push(&mut self, kind: StmtKind, span: Span) {
        if let Some(b) = self.current_mut() {
            b.stmts.push(Stmt { kind, span });
        }
    }

    /// Ends the current block; code after it goes to a fresh (unreachable
    /// unless labelled) block.
    fn terminate(&mut self, term: Terminator, span: Span) {
        if let Some(b) = self.current_mut() {
            if b.term.is_none() {
                b.term = Some((term, span));
            }
        }
        self.current = self.new_block();
    }

    /// Falls through from the current block into `target` and continues there.
    fn goto_and_switch(&mut self, target: BlockId, span: Span) {
        if let Some(b) = self.current_mut() {
            if b.term.is_none() {
                b.term = Some((Terminator::Goto(target), span));
            }
        }
        self.current = target;
    }

    fn add_branch(&mut self, site: BranchSite) -> ir::BranchId {
        self.branches.push(site);
        ir::BranchId((self.branches.len() - 1) as u32)
    }

    /// Drops blocks no path from the entry reaches and renumbers the rest in
    /// depth-first order from the entry (and the branch sites they use), so
    /// the printed IR reads top to bottom.
    fn finish(self) -> Body {
        let n = self.blocks.len();
        let mut new_id: Vec<Option<BlockId>> = vec![None; n];
        let mut order = Vec::new();
        let mut stack = vec![0usize];
        while let Some(b) = stack.pop() {
            if b >= n || new_id[b].is_some() {
                continue;
            }
            new_id[b] = Some(BlockId(order.len() as u32));
            order.push(b);
            if let Some((t, _)) = &self.blocks[b].term {
                stack.extend(t.successors().iter().rev().map(|s| s.index()));
            }
        }
        let remap = |b: BlockId| {
            new_id
                .get(b.index())
                .copied()
                .flatten()
                .unwrap_or(BlockId(0))
        };
        let mut branch_id: HashMap<ir::BranchId, ir::BranchId> = HashMap::new();
        let mut branches = Vec::new();
        let mut blocks = Vec::new();
        let mut old_blocks: Vec<Option<BuildBlock>> = self.blocks.into_iter().map(Some).collect();
        for index in order {
            let Some(block) = old_blocks.get_mut(index).and_then(Option::take) else {
                continue;
            };
            let (term, term_span) = block
                .term
                .unwrap_or((Terminator::Unreachable, Span::default()));
            let mut renumber_site =
                |site: ir::BranchId| {
                    *branch_id.entry(site).or_insert_with(|| {
                        branches.push(self.branches.get(site.index()).cloned().unwrap_or(
                            BranchSite {
                                span: Span::default(),
                                text: String::new(),
                                kind: ir::BranchKind::If,
                            },
                        ));
                        ir::BranchId((branches.len() - 1) as u32)
                    })
                };
            let term = match term {
                Terminator::Goto(b) => Terminator::Goto(remap(b)),
                Terminator::Branch {
                    cond,
                    then_bb,
                    else_bb,
                    site,
                } => Terminator::Branch {
                    cond,
                    then_bb: remap(then_bb),
                    else_bb: remap(else_bb),
                    site: renumber_site(site),
                },
                Terminator::Switch {
                    value,
                    cases,
                    default,
                    site,
                } => Terminator::Switch {
                    value,
                    cases: cases.into_iter().map(|(v, b)| (v, remap(b))).collect(),
                    default: remap(default),
                    site: renumber_site(site),
                },
                other => other,
            };
            blocks.push(Block {
                stmts: block.stmts,
                term,
                term_span,
            });
        }
        // A decision no path evaluates lost its switch with its block.
        let decisions = self
            .decisions
            .into_iter()
            .filter_map(|mut d| {
                d.site = *branch_id.get(&d.site)?;
                Some(d)
            })
            .collect();
        Body {
            locals: self.locals,
            blocks,
            branches,
            decisions,
        }
    }
}

pub(crate) struct Lowerer<'a> {
    lines: &'a LineMap,
    program: Program,
    diagnostics: Vec<Diagnostic>,
    excluded: Vec<(String, Diagnostic)>,
    scopes: Vec<Scope>,
    globals: Vec<GlobalDecl>,
    funcs: Vec<FuncDecl<'a>>,
    func: Option<FnBuilder>,
    /// Header-defined functions that became used and still need a body.
    pending_bodies: Vec<usize>,
    strings: HashMap<Vec<u8>, ir::StringId>,
    va_list_struct: Option<StructId>,
    /// Current expression nesting, bounded by [`MAX_NESTING`].
    depth: u32,
    /// Where `#pragma pack` is in force.
    packed: Vec<(usize, usize, u64)>,
    /// Set while typing the signature of an excluded definition: a poisoned
    /// struct tag then names an opaque placeholder (see `placeholders`).
    lenient: bool,
    placeholders: HashMap<String, StructId>,
    /// Where the declarator being typed may have an array length that is
    /// no constant.
    variable_length: vla::VariableLength,
    /// The lengths that are no constants of the local variable-length array
    /// being declared, evaluated by its declarator, innermost first.
    pending_lengths: Vec<ir::Expr>,
    /// Unions declared `__attribute__((transparent_union))`.
    transparent_unions: HashSet<StructId>,
    /// Names the bodies of excluded definitions use: the driver compiles
    /// those bodies, so what they call or read must link.
    named_by_excluded: HashSet<String>,
    /// Globals first declared `extern` inside a function body.
    globals_in_blocks: Vec<String>,
    /// Whether decisions are lowered for MC/DC (`ir::decisions`).
    mcdc: bool,
}

/// The lowered program with its diagnostics.
pub(crate) struct Lowered {
    pub program: Program,
    pub diagnostics: Vec<Diagnostic>,
    pub excluded: Vec<(String, Diagnostic)>,
}

/// What a unit is lowered for.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Lowering {
    pub data_model: ir::DataModel,
    pub mcdc: bool,
}

/// Lowers a parsed unit. `cut` are the items [`crate::salvage`] took out
/// of the text, each with its diagnostic: the functions among them are
/// excluded (and their callers with them).
pub(crate) fn lower_unit(
    unit: &TranslationUnit,
    src: &str,
    lines: &LineMap,
    cut: Vec<(Option<String>, Diagnostic)>,
    lowering: Lowering,
) -> Lowered {
    let program = Program {
        files: lines.files.clone(),
        structs: Vec::new(),
        globals: Vec::new(),
        functions: Vec::new(),
        strings: Vec::new(),
        data_model: lowering.data_model,
        own_library_declarations: Vec::new(),
        excluded_definitions: Vec::new(),
        declared_in_blocks_only: Vec::new(),
        macro_names: Vec::new(),
        inline_definitions: Vec::new(),
        used_by_excluded: Vec::new(),
        callback_mocks: Vec::new(),
        poisoned: Vec::new(),
    };
    let mut l = Lowerer {
        lines,
        program,
        diagnostics: Vec::new(),
        excluded: Vec::new(),
        scopes: vec![Scope::default()],
        globals: Vec::new(),
        funcs: Vec::new(),
        func: None,
        pending_bodies: Vec::new(),
        strings: HashMap::new(),
        va_list_struct: None,
        depth: 0,
        packed: crate::pragma::packed_regions(src),
        lenient: false,
        placeholders: HashMap::new(),
        variable_length: vla::VariableLength::Refused,
        pending_lengths: Vec::new(),
        transparent_unions: HashSet::new(),
        named_by_excluded: HashSet::new(),
        globals_in_blocks: Vec::new(),
        mcdc: lowering.mcdc,
    };
    for (function, diag) in cut {
        if diag.file == lines.files[0] {
            l.diagnostics.push(diag.clone());
        }
        if let Some(name) = function {
            l.excluded.push((name, diag));
        }
    }
    for ext in &unit.0 {
        match &ext.node {
            ExternalDeclaration::Declaration(d) => l.file_declaration(d),
            ExternalDeclaration::StaticAssert(_) => {}
            ExternalDeclaration::FunctionDefinition(f) => l.function_definition(f),
        }
    }
    while let Some(index) = l.pending_bodies.pop() {
        if let Some(def) = l.funcs.get(index).and_then(|f| f.header_definition) {
            l.lower_function_body(index, def);
        }
    }
    l.finish()
}

impl<'a> Lowerer<'a> {
    fn finish(mut self) -> Lowered {
        self.declare_project_functions();
        self.declare_what_excluded_code_uses();
        for decl in &mut self.globals {
            // A tentative definition `int a[];` becomes one element at the end.
            if let (Type::Array(elem, None), false) = (&decl.global.ty, decl.global.is_extern) {
                decl.global.ty = Type::Array(elem.clone(), Some(1));
            }
        }
        self.program.own_library_declarations = self.own_library_declarations();
        self.reconcile_unprototyped_calls();
        self.exclude_callers_of_excluded();
        self.program.excluded_definitions =
            self.excluded.iter().map(|(name, _)| name.clone()).collect();
        self.program.declared_in_blocks_only = self
            .funcs
            .iter()
            .filter(|decl| !decl.at_file_scope)
            .map(|decl| decl.function.name.clone())
            .collect();
        let file_scope = self.scopes.first().map(|s| &s.names);
        let in_blocks_only = self
            .globals_in_blocks
            .iter()
            .filter(|name| !file_scope.is_some_and(|names| names.contains_key(*name)));
        let in_blocks_only: Vec<String> = in_blocks_only.cloned().collect();
        self.program.declared_in_blocks_only.extend(in_blocks_only);
        self.program.inline_definitions = self
            .funcs
            .iter()
            // Another library's header functions call into that library,
            // which the driver does not link: those stay inline.
            .filter(|decl| decl.inline_definition && !decl.function.is_static)
            .filter(|decl| !self.program.in_system_header(decl.function.span))
            .map(|decl| decl.function.name.clone())
            .collect();
        for decl in &self.globals {
            if let Some(id) = decl.id {
                if let Some(slot) = self.program.globals.get_mut(id.index()) {
                    *slot = decl.global.clone();
                }
            }
        }
        for decl in &mut self.funcs {
            decl.function.prototyped = decl.prototype == Prototype::Declared;
            if let Some(id) = decl.id {
                if let Some(slot) = self.program.functions.get_mut(id.index()) {
                    *slot = decl.function.clone();
                }
            }
        }
        compact::compact_structs(&mut self.program);
        self.program.add_callback_mocks();
        Lowered {
            program: self.program,
            diagnostics: self.diagnostics,
            excluded: self.excluded,
        }
    }

    /// Gives an IR entry to every function the project's own files declare
    /// without defining it, used or not: a driver compiles every body of
    /// the file, also those cairn never lowers (a header's `static`
    /// function nothing lowered calls, an excluded definition), and must
    /// stub what they call.
    fn declare_project_functions(&mut self) {
        for index in 0..self.funcs.len() {
            let decl = &self.funcs[index];
            let declared_only = decl.id.is_none()
                && decl.header_definition.is_none()
                && decl.function.body.is_none()
                && !decl.function.is_static;
            if declared_only && !self.program.in_system_header(decl.function.span) {
                self.func_id(index);
            }
        }
    }

    /// The functions and extern globals, declared here and defined
    /// elsewhere (another library's too), that excluded bodies name get IR
    /// entries, listed in `ir::Program::used_by_excluded`: the driver
    /// compiles those bodies, so it must define each (a stub, a global).
    fn declare_what_excluded_code_uses(&mut self) {
        let mut names: Vec<String> = self.named_by_excluded.iter().cloned().collect();
        names.sort();
        for name in names {
            let declared_only = match self.scopes.first().and_then(|s| s.names.get(&name)) {
                Some(Symbol::Func(i)) => {
                    let i = *i;
                    let decl = &self.funcs[i];
                    let only = decl.function.body.is_none()
                        && decl.header_definition.is_none()
                        && !decl.function.is_static;
                    only && self.func_id(i).is_some()
                }
                Some(Symbol::Global(i)) => {
                    let i = *i;
                    let decl = &self.globals[i];
                    let only = decl.global.is_extern && !decl.defined;
                    only && self.global_id(i).is_some()
                }
                _ => false,
            };
            if declared_only {
                self.program.used_by_excluded.push(name);
            }
        }
    }

    /// Notes the names an excluded definition's body uses.
    fn note_names_of_excluded(&mut self, def: &Node<FunctionDefinition>) {
        struct Names<'n>(&'n mut HashSet<String>);
        impl<'ast> lang_c::visit::Visit<'ast> for Names<'_> {
            fn visit_identifier(
                &mut self,
                identifier: &'ast lang_c::ast::Identifier,
                _: &'ast lang_c::span::Span,
            ) {
                self.0.insert(identifier.name.clone());
            }
        }
        lang_c::visit::Visit::visit_statement(
            &mut Names(&mut self.named_by_excluded),
            &def.node.statement.node,
            &def.node.statement.span,
        );
    }

    /// A function that calls an excluded one is excluded too: its behaviour
    /// depends on a body we could not lower (and a test driver cannot stub a
    /// function the source defines). Its message names the callee and the
    /// first reason down the chain, so that exclusions count by their cause.
    fn exclude_callers_of_excluded(&mut self) {
        // The reason that started each chain of callers, by function name.
        let mut causes: HashMap<String, String> = HashMap::new();
        loop {
            let excluded: HashMap<FuncId, (String, Severity, String)> = self
                .funcs
                .iter()
                .filter_map(|d| {
                    let name = &d.function.name;
                    let (_, diag) = self.excluded.iter().find(|(n, _)| n == name)?;
                    let cause = causes.get(name).cloned().unwrap_or_else(|| {
                        let own = diag.message.strip_prefix("unsupported: ");
                        own.unwrap_or(&diag.message).to_string()
                    });
                    Some((d.id?, (name.clone(), diag.severity.clone(), cause)))
                })
                .collect();
            let mut newly = Vec::new();
            for (index, decl) in self.funcs.iter().enumerate() {
                let Some(body) = &decl.function.body else {
                    continue;
                };
                let call = body
                    .blocks
                    .iter()
                    .flat_map(|b| &b.stmts)
                    .find_map(|s| match &s.kind {
                        StmtKind::Call {
                            callee: ir::Callee::Direct(f),
                            ..
                        } => excluded.get(f).map(|c| (c.clone(), s.span)),
                        _ => None,
                    });
                if let Some(((callee, severity, cause), span)) = call {
                    newly.push((index, callee, severity, cause, span));
                }
            }
            if newly.is_empty() {
                return;
            }
            for (index, callee, severity, cause, span) in newly {
                let message = format!("calls `{callee}`, which is excluded ({cause})");
                let message = match severity {
                    Severity::Unsupported => format!("unsupported: {message}"),
                    _ => message,
                };
                if let Some(decl) = self.funcs.get(index) {
                    causes.insert(decl.function.name.clone(), cause);
                }
                self.exclude_body(index, span, severity, message);
            }
        }
    }

    /// Takes the body of function `index` out, for a reason found at `span`
    /// after it was lowered.
    fn exclude_body(&mut self, index: usize, span: Span, severity: Severity, message: String) {
        let Some(decl) = self.funcs.get_mut(index) else {
            return;
        };
        // The driver compiles the body still: what it calls must link.
        let callees: Vec<FuncId> = decl
            .function
            .body
            .take()
            .iter()
            .flat_map(|body| body.blocks.iter().flat_map(|b| &b.stmts))
            .filter_map(|stmt| match &stmt.kind {
                StmtKind::Call {
                    callee: ir::Callee::Direct(f),
                    ..
                } => Some(*f),
                _ => None,
            })
            .collect();
        for decl in &self.funcs {
            let declared_only = decl.function.body.is_none() && decl.header_definition.is_none();
            if declared_only && decl.id.is_some_and(|id| callees.contains(&id)) {
                self.program
                    .used_by_excluded
                    .push(decl.function.name.clone());
            }
        }
        let Some(decl) = self.funcs.get(index) else {
            return;
        };
        let name = decl.function.name.clone();
        let file = self
            .lines
            .files
            .get(span.file as usize)
            .cloned()
            .unwrap_or_default();
        let diag = Diagnostic {
            severity,
            file,
            line: span.line,
            col: span.col,
            message,
        };
        self.diagnostics.push(diag.clone());
        self.excluded.push((name, diag));
    }

    // ----- positions and diagnostics -----

    fn span(&self, offset: usize) -> Span {
        let p = self.lines.locate(offset);
        Span {
            file: p.file,
            line: p.line,
            col: p.col,
        }
    }

    /// The file number of the compiler's own declarations (`<built-in>`),
    /// which counts as a system header.
    fn built_in_file(&mut self) -> u32 {
        const BUILT_IN: &str = "<built-in>";
        match self.program.files.iter().position(|f| f == BUILT_IN) {
            Some(at) => at as u32,
            None => {
                self.program.files.push(BUILT_IN.to_string());
                (self.program.files.len() - 1) as u32
            }
        }
    }

    /// A function the compiler declares itself, in its `<built-in>` file.
    fn built_in_function(&mut self, name: &str, sig: FnSig) -> Function {
        Function {
            name: name.to_string(),
            sig,
            prototyped: true,
            nonnull: Vec::new(),
            const_pointee: Vec::new(),
            is_static: false,
            span: Span {
                file: self.built_in_file(),
                line: 0,
                col: 0,
            },
            body: None,
        }
    }

    fn in_main_file(&self, offset: usize) -> bool {
        self.lines.locate(offset).file == 0
    }

    fn diag(&self, severity: Severity, offset: usize, message: String) -> Diagnostic {
        self.lines.diagnostic(offset, severity, message)
    }

    fn error<T>(&self, offset: usize, message: impl Into<String>) -> R<T> {
        Err(self.diag(Severity::Error, offset, message.into()))
    }

    fn unsupported<T>(&self, offset: usize, what: &str) -> R<T> {
        Err(self.diag(
            Severity::Unsupported,
            offset,
            format!("unsupported: {what}"),
        ))
    }

    /// Turns a message from the integer-rule helpers into a diagnostic.
    fn rule_error(&self, offset: usize, message: String) -> Diagnostic {
        match message.strip_prefix("unsupported: ") {
            Some(_) => self.diag(Severity::Unsupported, offset, message),
            None => self.diag(Severity::Error, offset, message),
        }
    }

    /// Source text of a node, whitespace runs collapsed, for branch labels.
    /// (Line markers inside a macro expansion are left out.)
    fn text(&self, span: lang_c::span::Span) -> String {
        let raw = self.lines.original_text(span.start, span.end);
        raw.lines()
            .filter(|line| !line.trim_start().starts_with('#'))
            .flat_map(str::split_whitespace)
            .collect::<Vec<_>>()
            .join(" ")
    }

    // ----- scopes -----

    fn lookup(&self, name: &str) -> Option<&Symbol> {
        self.scopes.iter().rev().find_map(|s| s.names.get(name))
    }

    fn lookup_tag(&self, name: &str) -> Option<&Tag> {
        self.scopes.iter().rev().find_map(|s| s.tags.get(name))
    }

    fn bind(&mut self, name: &str, symbol: Symbol) {
        if let Some(scope) = self.scopes.last_mut() {
            scope.names.insert(name.to_string(), symbol);
        }
    }

    fn at_file_scope(&self) -> bool {
        self.scopes.len() <= 1
    }

    // ----- entities -----

    fn intern_string(&mut self, bytes: Vec<u8>) -> ir::StringId {
        if let Some(id) = self.strings.get(&bytes) {
            return *id;
        }
        self.program.strings.push(bytes.clone());
        let id = ir::StringId((self.program.strings.len() - 1) as u32);
        self.strings.insert(bytes, id);
        id
    }

    /// The IR id of a declared function, creating its entry on first use.
    fn func_id(&mut self, index: usize) -> Option<FuncId> {
        let decl = self.funcs.get_mut(index)?;
        if let Some(id) = decl.id {
            return Some(id);
        }
        self.program.functions.push(decl.function.clone());
        let id = FuncId((self.program.functions.len() - 1) as u32);
        decl.id = Some(id);
        if decl.header_definition.is_some() {
            self.pending_bodies.push(index);
        }
        Some(id)
    }

    fn global_id(&mut self, index: usize) -> Option<GlobalId> {
        let decl = self.globals.get_mut(index)?;
        if let Some(id) = decl.id {
            return Some(id);
        }
        self.program.globals.push(decl.global.clone());
        let id = GlobalId((self.program.globals.len() - 1) as u32);
        decl.id = Some(id);
        Some(id)
    }

    /// Whether calls of function `id` see a prototype.
    fn has_prototype(&self, id: FuncId) -> bool {
        self.funcs
            .iter()
            .find(|f| f.id == Some(id))
            .is_none_or(|f| f.prototype == Prototype::Declared)
    }

    fn fn_sig_of(&self, index: usize) -> Option<FnSig> {
        self.funcs.get(index).map(|f| f.function.sig.clone())
    }

    fn global_type(&self, index: usize) -> Type {
        self.globals
            .get(index)
            .map(|g| g.global.ty.clone())
            .unwrap_or(Type::Void)
    }

    fn builder(&mut self, offset: usize) -> R<&mut FnBuilder> {
        if self.func.is_none() {
            return Err(self.diag(Severity::Error, offset, "not a constant expression".into()));
        }
        self.func.as_mut().ok_or_else(|| Diagnostic {
            severity: Severity::Error,
            file: String::new(),
            line: 0,
            col: 0,
            message: "not a constant expression".into(),
        })
    }

    /// Records a problem with a file-scope declaration: shown when it is in
    /// the main file, otherwise only if something uses the poisoned name.
    fn report_file_scope(&mut self, offset: usize, diag: &Diagnostic) {
        if self.in_main_file(offset) && !self.diagnostics.contains(diag) {
            self.diagnostics.push(diag.clone());
        }
    }
}
