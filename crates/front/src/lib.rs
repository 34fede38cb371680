//! Front end: C source -> system preprocessor -> lang-c AST -> typed IR.
//!
//! Architecture invariant: the only crate that knows lang-c; it never panics on
//! user input and reports what it cannot handle as diagnostics with file:line:col.
//!
//! Entry point: [`compile`]. Types and conversions follow x86-64 Linux (LP64):
//! `char` is signed, `long` is 64 bits, enums are `int`, struct layout is System V.
//!
//! # Lowering rules (what the engine may rely on)
//! - IR expressions have no side effects. Calls, assignments, `++`/`--` and the
//!   comma operator become statements; their values are read from temporaries
//!   (locals with an empty name). A call is `StmtKind::Call` with a temporary as
//!   `dest` (none for `void`). Calls to functions without a body in this file
//!   (libc included) are `Callee::Direct` to a `Function` whose `body` is `None`;
//!   calls through pointers are `Callee::Indirect`.
//! - Binary arithmetic casts both operands to their common type (usual
//!   arithmetic conversions) and has that type. Shifts promote each operand on
//!   its own and have the promoted left type. Comparisons and `!` yield `int`
//!   0/1; compared operands have one integer type or are both pointers (a null
//!   constant is converted to the other pointer type). Conversion to `_Bool`
//!   is a `Cast` to `IntType::BOOL` (meaning `!= 0`). Constant operands are folded.
//! - `p + n` is `PtrAdd(p, n as i64)`, `p - n` is `PtrAdd(p, -n)`, `p - q` is
//!   `PtrDiff`. `a[i]` on an array place is a `Proj::Index`; on a pointer it is
//!   `Place::deref(PtrAdd(p, i))`. Array decay is `AddrOf(a[0])`. `p->f` is
//!   `Deref(p)` plus a `Field` projection; `&*p` folds to `p` and `*&x` to `x`.
//! - Conditions are `Terminator::Branch` on a scalar (`!= 0`). `&&` and `||`
//!   give one branch per operand (`BranchKind::Logical`, text = that operand),
//!   also when used as values (then into an `int` temporary). `!(a && b)`
//!   branches on the operands with the targets swapped. A condition that is an
//!   integer constant expression (`while (1)`) produces a `Goto`, no branch.
//!   `BranchSite.span` is the start of the condition and `text` its source text
//!   (after preprocessing, whitespace collapsed).
//! - `switch` is a `Terminator::Switch` on the promoted value; case values are
//!   converted to that type; without `default` the default target is the block
//!   after the switch. Fall-through is a `Goto` into the next case block.
//! - Local initializers are assignments at the declaration; for aggregates
//!   every scalar is assigned (unmentioned ones get zero), and `char s[] =
//!   "ab"` assigns each byte. Globals and function `static`s (named
//!   `function.name`) get an `Init::Fields` of constant scalars at byte
//!   offsets; `init` is `None` only for `extern` declarations without a
//!   definition (zero-initialized definitions have an empty item list).
//! - A call to a function declared `_Noreturn` or `__attribute__((noreturn))`
//!   (`abort`, `exit`, glibc's `__assert_fail`) ends its block with
//!   `Terminator::Unreachable`.
//! - Falling off the end of a function returns no value (`main` returns 0).
//!   Blocks no path reaches are dropped.
//! - Every statement and terminator carries the span of its source construct.
//! - Declarations from headers become IR functions/globals only when used;
//!   a function a header defines (`static inline`) gets its body then too.
//! - Spans: `file` indexes `Program::files` (0 is the main file); columns in
//!   the main file are measured on the original line.
//! - Old-style (K&R) definitions (`lower/old_style.rs`) receive their
//!   parameters as gcc passes them without a prototype: the signature holds
//!   the promoted types (`int` for a `char`, `double` for a `float`, unless
//!   a prototype declared before says otherwise) and the body first converts
//!   each into a local of its declared type. A call without a prototype in
//!   scope passes its arguments promoted, then converted to the types the
//!   callee receives once the file is read; extra arguments are dropped; a
//!   function only declared `f()` receives what its first call passes;
//!   `ir::Function::prototyped` says whether C callers see a prototype.
//! - GNU statement expressions `({ ...; e; })` (glibc's `assert`) run their
//!   statements in place; the value of the final expression is the result.
//! - GNU `a ?: b` evaluates `a` once into a temporary and branches on it
//!   (one `BranchKind::Conditional`, as gcc counts it).
//! - GCC builtins (`lower/builtin.rs`) are expressions without branches:
//!   `__builtin_*_overflow` computes in an unsigned type two bits wider than
//!   its operand and result types (products: one, with `MulOverflows`),
//!   `clz`/`ctz`/`popcount` are `UnOp`s, `parity`, `ffs` and `bswap` are
//!   built from them and from shifts. Such wide types are never stored.
//! - Struct layout follows System V as gcc applies it (`ir::Layout::lay_out_members`),
//!   bit-fields included; under `#pragma pack(n)` member alignment is capped
//!   at `n`, and `__attribute__((packed))` after a struct body makes it 1.
//!   A bit-field reads as its declared type, promoted as gcc promotes it
//!   (`lower/expr.rs`, `promoted_bit_field`). Only the struct types the
//!   program uses are kept.
//! - A call of an undeclared function declares it as gcc 12 does
//!   (`lower/library.rs`): with the C library's type when gcc knows it as
//!   a builtin (`strlen`, `exit`...), in `<built-in>`; else as `int f();`
//!   at the call. `__atomic_*`/`__sync_*` builtins are plain accesses
//!   without branches (`lower/atomic.rs`).
//!
//! GNU spellings lang-c cannot parse are rewritten before parsing
//! (`gnu.rs`); a parse error still left costs only the top-level item it is
//! in (`salvage.rs`: a function keeps its prototype and is excluded).
//!
//! Unsupported constructs (inline asm, arrays of variable-length arrays,
//! setjmp/longjmp, computed goto, `long double` arithmetic,
//! implicit `int` (`f() {...}`, `register n;`, which lang-c cannot parse),
//! `_Bool` parameters of old-style definitions, calls without a prototype
//! whose callee would read what no conversion gives (too few arguments, an
//! `int` for a `double` or a `long`: undefined behaviour),
//! `_Complex`, `_Atomic` of a struct (or of `long long` under ILP32), `va_arg` of a struct, `aligned`
//! attributes and `packed` on single members) yield an `unsupported: <construct>`
//! diagnostic and exclude only the functions using them; at file scope the
//! affected name is poisoned so that only its users are excluded. A function
//! that calls an excluded function is excluded too. Nesting deeper than any
//! real program (thousands of levels) is refused before parsing, since the
//! parser's recursion could otherwise overflow the stack.
//!
//! # Tests
//! Golden IR snapshots (`tests/golden.rs`, inputs in `tests/inputs/`), layout
//! and diagnostics checks (`tests/semantics.rs`, including layouts compared
//! with the system compiler), differential runs against the system compiler
//! (`tests/arithmetic.rs`: random integer expressions; `tests/execution.rs`:
//! memory, control flow and calls on a small IR interpreter in
//! `tests/common`), csmith programs (`tests/csmith.rs`: no panics, and the
//! checksum `main` prints on the IR equals the native one) and token-level
//! mutants that must never panic (`tests/mutations.rs`). `compile` verifies the
//! IR it lowers, so every test's C is verified; `tests/valid_ir.rs` lowers
//! every C file of `tests/corpus` and `examples` and fails on an internal error.

mod cfloat;
mod cint;
mod gnu;
mod linemap;
mod lower;
mod nesting;
mod pragma;
mod preprocess;
pub use preprocess::{compile_database_files, flags_from_compile_commands, SourceFlag};
mod salvage;

use std::path::{Path, PathBuf};

/// How to preprocess and parse one file.
#[derive(Clone, Debug, Default)]
pub struct FrontConfig {
    /// The C compiler used as preprocessor (`cc` when empty).
    pub cc: String,
    pub include_dirs: Vec<PathBuf>,
    /// `NAME` or `NAME=VALUE`.
    pub defines: Vec<String>,
    /// Directory holding a `compile_commands.json` to take flags from.
    pub compile_commands_dir: Option<PathBuf>,
    /// The target's data model: preprocessing (`-m32`), integer widths
    /// and layouts follow it.
    pub data_model: ir::DataModel,
    /// Whether decisions are lowered for MC/DC: each ends in a switch on
    /// its test vector (`ir::decisions`).
    pub mcdc: bool,
}

impl FrontConfig {
    fn lowering(&self) -> lower::Lowering {
        lower::Lowering {
            data_model: self.data_model,
            mcdc: self.mcdc,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Severity {
    Error,
    Warning,
    /// A construct cairn does not support yet; the enclosing function is excluded.
    Unsupported,
}

/// A message tied to a source position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    pub severity: Severity,
    pub file: String,
    /// 0 when the message is about the whole file (it cannot be read, the
    /// preprocessor cannot run): then it shows as `FILE: message`.
    pub line: u32,
    pub col: u32,
    pub message: String,
}

impl std::fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.line == 0 {
            return write!(f, "{}: {}", self.file, self.message);
        }
        let sev = match self.severity {
            Severity::Error => "error: ",
            Severity::Warning => "warning: ",
            // The message already reads `unsupported: <construct>`.
            Severity::Unsupported if self.message.starts_with("unsupported:") => "",
            Severity::Unsupported => "unsupported: ",
        };
        write!(
            f,
            "{}:{}:{}: {sev}{}",
            self.file, self.line, self.col, self.message
        )
    }
}

/// An I/O error as people read it (`No such file or directory`), without
/// Rust's `(os error 2)`.
pub fn io_message(error: &std::io::Error) -> String {
    let text = error.to_string();
    match text.find(" (os error") {
        Some(at) => text[..at].to_string(),
        None => text,
    }
}

/// The result of the front end on one file.
#[derive(Clone, Debug)]
pub struct FrontOutput {
    pub program: ir::Program,
    /// Functions left out of `program`'s bodies (declared only) and why.
    pub excluded: Vec<(String, Diagnostic)>,
    pub diagnostics: Vec<Diagnostic>,
}

/// Stack for parsing and lowering: lang-c and the lowering recurse on nesting depth.
const WORKER_STACK: usize = 256 << 20;

/// Preprocesses, parses and lowers one C file.
///
/// `Err` only when the file cannot be read, the preprocessor fails or the
/// parser rejects the text; everything else is reported inside the output.
/// The result passes [`ir::verify`]; IR that does not is a bug of the
/// lowering, reported as an internal error at the broken statement.
pub fn compile(path: &Path, config: &FrontConfig) -> Result<FrontOutput, Diagnostic> {
    compile_preprocessed_file(path, config, preprocess::preprocess(path, config)?)
}

/// [`compile`], when the file's own lines name one of `names` once
/// preprocessed; `None` when they do not. A project's file that cannot
/// define a function asked for costs a preprocessor run, not a parse.
pub fn compile_mentioning(
    path: &Path,
    config: &FrontConfig,
    names: &[String],
) -> Option<Result<FrontOutput, Diagnostic>> {
    match preprocess::preprocess(path, config) {
        Ok(preprocessed) if !preprocessed.main_file_mentions(names) => None,
        Ok(preprocessed) => Some(compile_preprocessed_file(path, config, preprocessed)),
        Err(error) => Some(Err(error)),
    }
}

fn compile_preprocessed_file(
    path: &Path,
    config: &FrontConfig,
    preprocessed: preprocess::Preprocessed,
) -> Result<FrontOutput, Diagnostic> {
    let source = std::fs::read(path)
        .ok()
        .map(|b| String::from_utf8_lossy(&b).into_owned());
    let name = path.display().to_string();
    let mut output =
        run_on_worker(preprocessed.text, name, source, config.lowering()).and_then(verified)?;
    let program = &output.program;
    let named = |name: &String| {
        program.function_by_name(name).is_some() || program.globals.iter().any(|g| &g.name == name)
    };
    let macro_names = preprocessed.macros.into_iter().filter(named).collect();
    output.program.macro_names = macro_names;
    output.program.poisoned = preprocessed.poisoned;
    // Items the parser could not read are cut and the rest is analysed,
    // unless the compiler rejects the file too: then it is the file's error.
    let syntax_error = output
        .diagnostics
        .iter()
        .find(|d| d.severity == Severity::Error && d.message.starts_with("syntax error"));
    if let Some(error) = syntax_error {
        if !preprocess::compiler_accepts(path, config) {
            return Err(error.clone());
        }
    }
    Ok(output)
}

/// Parses and lowers already preprocessed text whose main file is
/// `main_file`, for the data model the text was preprocessed for.
pub fn compile_preprocessed(
    text: String,
    main_file: &str,
    data_model: ir::DataModel,
) -> Result<FrontOutput, Diagnostic> {
    let lowering = lower::Lowering {
        data_model,
        mcdc: false,
    };
    run_on_worker(text, main_file.to_string(), None, lowering).and_then(verified)
}

/// Runs [`ir::verify`] on what the lowering produced (one linear walk). The
/// lowering must only ever produce valid IR, so a failure is a bug of the
/// front end, never of the input: an internal error naming the function and
/// the broken invariant at the statement, rather than odd engine results.
fn verified(output: FrontOutput) -> Result<FrontOutput, Diagnostic> {
    match ir::verify::verify(&output.program) {
        Ok(()) => Ok(output),
        Err(e) => Err(Diagnostic {
            severity: Severity::Error,
            file: e.file,
            line: e.span.line,
            col: e.span.col,
            message: format!(
                "internal error: the front end lowered `{}` wrongly ({})",
                e.function, e.message
            ),
        }),
    }
}

/// Parses and lowers on a thread with a large stack, turning a panic into a diagnostic.
fn run_on_worker(
    text: String,
    main_file: String,
    source: Option<String>,
    lowering: lower::Lowering,
) -> Result<FrontOutput, Diagnostic> {
    let fallback_file = main_file.clone();
    let internal = move |what: &str| Diagnostic {
        severity: Severity::Error,
        file: fallback_file.clone(),
        line: 0,
        col: 0,
        message: format!("internal error: {what}"),
    };
    let worker = std::thread::Builder::new()
        .name("cairn-front".into())
        .stack_size(WORKER_STACK)
        .spawn(move || {
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                parse_and_lower(text, &main_file, source.as_deref(), lowering)
            }))
        });
    match worker {
        Err(e) => Err(internal(&format!("cannot start the front-end thread: {e}"))),
        Ok(handle) => match handle.join() {
            Ok(Ok(result)) => result,
            Ok(Err(_)) | Err(_) => Err(internal("the parser or lowering panicked on this input")),
        },
    }
}

fn parse_and_lower(
    text: String,
    main_file: &str,
    source: Option<&str>,
    lowering: lower::Lowering,
) -> Result<FrontOutput, Diagnostic> {
    let rewritten = gnu::rewrite(&text);
    let lines = linemap::LineMap::new(&text, main_file, source).with_edits(rewritten.edits);
    let mut text = rewritten.text;
    if let Some(offset) = nesting::too_deep(&text, nesting::MAX_NESTING_ESTIMATE) {
        return Err(lines.diagnostic(
            offset,
            Severity::Unsupported,
            "unsupported: nesting too deep to parse safely".into(),
        ));
    }
    let config = lang_c::driver::Config::with_gcc();
    let mut cut = Vec::new();
    let parse = loop {
        let error = match lang_c::driver::parse_preprocessed(&config, text.clone()) {
            Ok(p) => break p,
            Err(e) => e,
        };
        let mut expected: Vec<&str> = error.expected.iter().copied().collect();
        expected.sort_unstable();
        let message = format!("syntax error, expected one of: {}", expected.join(" "));
        let diagnostic = lines.syntax_error(error.offset, message);
        if cut.len() >= salvage::MAX_CUTS {
            return Err(diagnostic);
        }
        let Some(item) = salvage::cut(&mut text, error.offset) else {
            return Err(diagnostic);
        };
        let diagnostic = match item.construct {
            Some(construct) => lines.diagnostic(
                error.offset,
                Severity::Unsupported,
                format!("unsupported: {construct}"),
            ),
            None => diagnostic,
        };
        cut.push((item.function, diagnostic));
    };
    let lowered = lower::lower_unit(&parse.unit, &parse.source, &lines, cut, lowering);
    Ok(FrontOutput {
        program: lowered.program,
        excluded: lowered.excluded,
        diagnostics: lowered.diagnostics,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn invalid_ir_is_an_internal_error_at_the_broken_terminator() {
        let text = "int f(int a)\n{\n    return a;\n}\n";
        let mut output =
            compile_preprocessed(text.into(), "t.c", ir::DataModel::Lp64).expect("valid C");
        let body = output.program.functions[0].body.as_mut().expect("a body");
        let last = body.blocks.len() - 1;
        body.blocks[last].term = ir::Terminator::Goto(ir::BlockId(99));
        let line = body.blocks[last].term_span.line;
        let error = verified(output).expect_err("bb99 does not exist");
        assert_eq!((error.file.as_str(), error.line), ("t.c", line));
        assert!(error.message.starts_with("internal error"), "{error}");
        assert!(error.message.contains("`f`"), "{error}");
    }
}
