//! Emit: C test drivers, findings reproducers and `tests.json`.
//!
//! Architecture invariant: reads solved test cases only; knows no solver.
//!
//! [`write_outputs`] writes, each atomically (temporary file, then rename):
//!
//! * `OUT/<stem>_test.c`: one translation unit that `#include`s the source by
//!   its path relative to `OUT` (so `static` functions are callable; a `main`
//!   in the source is renamed `cairn_original_main`), defines stubs for the
//!   bodiless functions the tests script, and one `static int test_<fn>_<what>(void)`
//!   per test (named by `test_names`): a comment with the branches it newly covers, the inputs built in
//!   three steps (allocate every input object with `calloc`, assign their
//!   contents, link the pointers; a failed `calloc` ends the test with a FAIL
//!   line), stub scripts, the call, and a check of the return value and of
//!   every output the engine predicted. An object of the output heap gets a
//!   pointer variable named after its access path (`result_next_out`) where a
//!   check first reaches it, after a check that it is new (not NULL, not an
//!   input, not named before); later pointers to it are compared with that
//!   name, so sharing and cycles are checked. Checks never read an input
//!   object the function freed. The test then frees the input objects the
//!   function did not free and every named output object. `main` runs each
//!   test in a child process of its own (see `runner.rs`), so each starts from
//!   the program's initial state, and a test that crashes, outlives its time
//!   limit or prints more than its output limit fails with one `FAIL` line
//!   while the others run; every failed check prints a `FAIL` line too. It
//!   ends with `N passed, N failed` and exits 0 only when all pass. `./BIN
//!   TEST` runs that one test in-process, without limits, for a debugger.
//!   Build from any directory: `cc OUT/<stem>_test.c -o BIN -lm`.
//!   When a test makes allocations fail, the code under test calls counting
//!   wrappers of `malloc`, `calloc`, `realloc`, `strdup` and `strndup`
//!   (macros around the `#include`, so the driver's own set-up allocates for
//!   real), and each test lists the failing call numbers right before its
//!   call.
//! * `OUT/<stem>_findings.c` (only when there are findings): the same include
//!   scheme, one `finding_<k>` function per finding; `./BIN` lists them and
//!   `./BIN k` runs finding `k`. Reproducers allocate their inputs through
//!   `cairn_input`, which keeps them (and a returned pointer) reachable from a
//!   global and never frees them, so LeakSanitizer reports only memory the
//!   function lost. An uninitialized read whose function returns an integer
//!   is run twice, with the memory the code under test allocates filled with
//!   0x00 and then 0x01 bytes, and prints `CONFIRMED: ...` when the results
//!   differ.
//! * `OUT/shapes/<test>.dot` and `.svg` for each written test with input
//!   objects: the input heap drawn by [`shapes`] (no Graphviz needed).
//! * `OUT/<stem>.tests.json`:
//!
//! ```text
//! {
//!   "format": "cairn-tests/1",
//!   "source": "examples/classify.c",          // as given to cairn
//!   "source_from_out": "../examples/classify.c", // what the drivers include
//!   "include_dirs": ["/abs/include"],          // -I the source needs
//!   "driver": "classify_test.c",              // classify_test.cc for gtest
//!   "framework": "plain",                      // or "cmocka", "gtest" (see framework.rs)
//!   "driver_c_part": "classify_test_cases.c",  // gtest only: the tests' bodies
//!   "findings_driver": "classify_findings.c" | null,
//!   "notes": ["test_f_returns_2 left out: ..."],
//!   "functions": [{
//!     "name": "classify", "file": "../examples/classify.c", "line": 3,
//!     "goals": [{ "key": "classify:5:9:T", "file": "../examples/classify.c",
//!                 "line": 5, "col": 9, "label": "a <= 0: true",
//!                 "site": 0, "target": 2,   // one gcov arc per (site, target);
//!                                            // target skips empty jump-only blocks
//!                 "covered": true, "reason": null // or "infeasible", "budget: ..."
//!     }],
//!     "tests": [{ "name": "test_classify_returns_1_when_a_gt_0", "skipped": null,
//!                 "inputs": { "args": [{"name": "a", "value": 3}],
//!                             "globals": [{"name": "count", "value": 0}],
//!                             "objects": [{"name": "*out", "c_name": "out_in",
//!                                          "elem_type": "int", "len": 1, "init": [0]}],
//!                             "edges": [{"from": "out", "to": "*out", "offset": 0}],
//!                             "stubs": [{"function": "read", "returns": [4, -1]}],
//!                             "failing_allocations": [0, 2] }, // malloc/calloc/realloc/strdup
//!                                                 // calls (from 0) that return NULL
//!                 "expected_return": {"allocated": "result", "offset": 0},
//!                 "checks": [{"lvalue": "*out_in", "expected": 7},
//!                            {"lvalue": "result_out->next", "expected": null}],
//!                 "allocated": [{"name": "result", "c_name": "result_out", // the output heap
//!                                "elem_type": "struct node", "len": 1,
//!                                "values": [{"key": 7, "next": null}]}],
//!                 "freed_inputs": ["*head"],     // input objects the function freed
//!                 "covers": ["classify:5:9:T"], "path_goals": ["classify:5:9:T"] }],
//!     "findings": [{ "kind": "division-by-zero", "location": "../examples/classify.c:9:14",
//!                    "line": 9, "col": 14, "message": "divisor b is 0",
//!                    "inputs": {...}, "reproducer": 1 }],
//!     "stats": { "paths": 12, "solver_calls": 40, "statements": 310, "elapsed_ms": 35,
//!                "solver_questions": 52,      // asked of the solver's layers
//!                "answered_by_cache": 9,      // the same constraints asked before
//!                "answered_by_last_model": 14, // the last model satisfied them
//!                "answered_by_guesses": 3,    // a guessed value of their one symbol did
//!                "priced_out": 0,             // checks not made: bit-blasting alone too long
//!                "solver_ms": 21 }            // inside Z3 checks
//!   }]
//! }
//! ```
//!
//! Values: integers are numbers, NULL is `null`, a pointer is
//! `{"object": "<access path>", "offset": <bytes>}` (an input object),
//! `{"allocated": "<access path>", "offset": <bytes>}` (an object of the
//! test's output heap, named by the path that first reaches it) or
//! `{"global": "<name>", "offset": <bytes>}`, a function is
//! `{"function": "<name>"}`, a struct is an object by member name, an array a
//! list, and a value the engine does not know is `"unknown"` (never checked).
//! A goal is `covered` when a test written to the driver has it on its path;
//! `check` compares that claim with gcov line by line.

mod ctype;
mod decisions;
mod driver;
mod environment;
#[cfg(any(test, feature = "fixtures"))]
pub mod fixture;
mod framework;
mod inputs;
pub mod json;
mod literal;
mod names;
pub mod native_runs;
mod poisoned;
mod runner;
pub mod shapes;
mod streams;
mod summary;
mod support;
mod test_names;
pub mod testcomp;
mod unit;
pub mod xml;

pub use framework::Framework;
pub use summary::{summary_json, summary_table, EmitSummary, FindingSummary, FunctionSummary};

use std::fmt;
use std::io::Write;
use std::os::unix::fs::PermissionsExt;
use std::path::{Component, Path, PathBuf};
use testcase::FunctionReport;

#[derive(Clone, Debug)]
pub struct EmitConfig {
    pub out_dir: PathBuf,
    /// The C file as given on the command line.
    pub source: PathBuf,
    pub flags: SourceFlags,
    /// The test framework the driver is written for.
    pub framework: Framework,
    /// Symbols the linker found undefined when the driver was last built.
    pub unresolved: Unresolved,
}

/// Symbols the linker found undefined when a driver was last built: code
/// cairn does not lower (a cleanup handler's call, an inline function of a
/// header) references them and nothing the driver links defines them. The
/// drivers define them (see [`support`]).
#[derive(Clone, Debug, Default)]
pub struct Unresolved {
    pub symbols: std::collections::BTreeSet<String>,
    /// Those the driver references as thread-local (`extern __thread T
    /// *heap;`): they are defined thread-local too.
    pub thread_local: std::collections::BTreeSet<String>,
}

/// Preprocessor flags the source needs, as given to the front end. Defines
/// are written into the generated files before the `#include`, so that
/// `cc OUT/<stem>_test.c` still works; include directories cannot be, so they
/// are recorded in the JSON (for `check`) and in the drivers' build comment.
#[derive(Clone, Debug, Default)]
pub struct SourceFlags {
    /// `NAME` or `NAME=VALUE`, as for `cc -D`.
    pub defines: Vec<String>,
    pub include_dirs: Vec<PathBuf>,
    /// `cc -U NAME`: written as `#undef`s after the defines.
    pub undefines: Vec<String>,
    /// `cc -include FILE`: included after the defines, before the source.
    pub forced_includes: Vec<PathBuf>,
    /// Any other flag that changes the source's preprocessed text
    /// (`-iquote DIR`, `-std=gnu89`, `-pthread`...), given to every
    /// compilation of the generated files.
    pub compiler_flags: Vec<String>,
}

/// A file that could not be read or written.
#[derive(Debug)]
pub struct EmitError {
    pub path: PathBuf,
    pub message: String,
}

impl fmt::Display for EmitError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.path.display(), self.message)
    }
}

impl std::error::Error for EmitError {}

/// Writes the driver, the JSON and (when there are findings) the reproducers
/// for one source file.
pub fn write_outputs(
    program: &ir::Program,
    reports: &[FunctionReport],
    config: &EmitConfig,
) -> Result<EmitSummary, EmitError> {
    let flags = &config.flags;
    let error = |path: &Path, message: String| EmitError {
        path: path.to_path_buf(),
        message,
    };
    let stem = config
        .source
        .file_stem()
        .and_then(|s| s.to_str())
        .ok_or_else(|| {
            error(
                &config.source,
                "the source file name is not valid UTF-8".into(),
            )
        })?
        .to_string();
    std::fs::create_dir_all(&config.out_dir).map_err(|e| error(&config.out_dir, e.to_string()))?;
    let out_abs = config
        .out_dir
        .canonicalize()
        .map_err(|e| error(&config.out_dir, e.to_string()))?;
    let included = copy_without_line_markers(&config.source, &config.out_dir, &stem)?;
    let include_path = out_relative(&out_abs, included.as_deref().unwrap_or(&config.source))
        .map_err(|m| error(&config.source, m))?;
    if include_path.contains(['"', '\n']) {
        return Err(error(
            &config.source,
            "the path cannot be written in an #include directive".into(),
        ));
    }

    let defines = flags
        .defines
        .iter()
        .map(|d| support::parse_define(d))
        .collect::<Result<Vec<_>, _>>()
        .map_err(|m| error(&config.source, m))?;
    // A directory that does not exist adds nothing (gcc ignores it too).
    let include_dirs = flags
        .include_dirs
        .iter()
        .filter(|d| d.is_dir())
        .map(|d| {
            let absolute = d.canonicalize().map_err(|e| error(d, e.to_string()))?;
            absolute
                .to_str()
                .map(str::to_string)
                .ok_or_else(|| error(d, "not valid UTF-8".into()))
        })
        .collect::<Result<Vec<_>, _>>()?;
    let undefines = flags
        .undefines
        .iter()
        .map(|name| support::checked_macro_name(name))
        .collect::<Result<Vec<_>, _>>()
        .map_err(|m| error(&config.source, m))?;
    let forced_includes = flags
        .forced_includes
        .iter()
        .map(|file| {
            let file = file.canonicalize().unwrap_or_else(|_| file.clone());
            match file.to_str() {
                Some(name) if !name.contains(['"', '\n']) => Ok(name.to_string()),
                _ => Err(error(
                    &file,
                    "cannot be written in an #include directive".into(),
                )),
            }
        })
        .collect::<Result<Vec<_>, _>>()?;
    let compiler_flags = flags
        .compiler_flags
        .iter()
        .map(|flag| support::driver_dialect(flag))
        .collect();
    let source = support::SourceRef {
        include_path: include_path.clone(),
        stem: stem.clone(),
        defines,
        undefines,
        forced_includes,
        include_dirs,
        compiler_flags,
        data_model: program.data_model,
    };

    let mut unit = unit::Unit::new(program);
    unit.unresolved = config.unresolved.clone();
    let driver = driver::test_driver(&unit, reports, &source, config.framework);
    let has_findings = reports.iter().any(|r| !r.findings.is_empty());
    let reproducers = has_findings.then(|| driver::findings_driver(&unit, reports, &source));

    let files = framework::driver_files(config.framework, &stem);
    let driver_name = files.driver;
    let findings_name = format!("{stem}_findings.c");
    let json_name = format!("{stem}.tests.json");
    let file_path = |index: u32| -> String {
        if index == 0 {
            return include_path.clone();
        }
        let name = program
            .files
            .get(index as usize)
            .map(String::as_str)
            .unwrap_or("?");
        out_relative(&out_abs, Path::new(name)).unwrap_or_else(|_| name.to_string())
    };
    let no_numbers = Vec::new();
    let functions = reports
        .iter()
        .enumerate()
        .flat_map(|(i, report)| {
            let numbers = reproducers
                .as_ref()
                .map(|r| &r.numbers[i])
                .unwrap_or(&no_numbers);
            json::function_json(&unit, report, &driver.tests[i], numbers, &file_path)
        })
        .collect::<Vec<_>>();
    let mut notes = driver.notes.clone();
    if let Some(r) = &reproducers {
        notes.extend(r.notes.iter().cloned());
    }
    if let Some(previous) = previous_source(&config.out_dir.join(&json_name)) {
        if previous != include_path {
            notes.push(format!(
                "replaced the tests of {previous}, another file named {stem}.c"
            ));
        }
    }
    let tests_file = testcase::json::TestsFile {
        format: testcase::json::FORMAT.to_string(),
        source: config.source.display().to_string(),
        source_from_out: include_path.clone(),
        include_dirs: source.include_dirs.clone(),
        flags: source.compiler_flags.clone(),
        data_model: program.data_model,
        driver: driver_name.clone(),
        framework: config.framework,
        driver_c_part: files.c_part.clone(),
        findings_driver: reproducers.as_ref().map(|_| findings_name.clone()),
        functions,
        notes: notes.clone(),
    };
    let json_text = serde_json::to_string_pretty(&tests_file)
        .map_err(|e| error(Path::new(&json_name), e.to_string()))?;

    let driver_path = config.out_dir.join(&driver_name);
    let json_path = config.out_dir.join(&json_name);
    let findings_path = config.out_dir.join(&findings_name);
    write_atomically(&driver_path, &driver.text)?;
    if let (Some(name), Some(text)) = (&files.c_part, &driver.c_part) {
        write_atomically(&config.out_dir.join(name), text)?;
    }
    write_atomically(&json_path, &(json_text + "\n"))?;
    shapes::write_pictures(
        program,
        reports,
        &driver.tests,
        &config.out_dir.join("shapes"),
    )?;
    match &reproducers {
        Some(r) => write_atomically(&findings_path, &r.text)?,
        None => match std::fs::remove_file(&findings_path) {
            Ok(()) => {}
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => {
                return Err(error(
                    &findings_path,
                    format!("cannot remove a stale reproducers file: {e}"),
                ))
            }
        },
    }
    Ok(summary::summarize(
        &tests_file,
        &config.source,
        driver_path,
        json_path,
        reproducers.map(|_| findings_path),
        notes,
    ))
}

/// The source an existing tests file in the output directory was written for.
fn previous_source(json: &Path) -> Option<String> {
    let text = std::fs::read_to_string(json).ok()?;
    let previous: testcase::json::TestsFile = serde_json::from_str(&text).ok()?;
    Some(previous.source_from_out)
}

/// Writes `contents` to a temporary file next to `path`, then renames it over `path`,
/// so an interrupted run never leaves a half-written file. The file gets
/// the mode any tool gives (0666 less the umask), not a temporary file's 0600.
pub fn write_atomically(path: &Path, contents: impl AsRef<[u8]>) -> Result<(), EmitError> {
    let fail = |e: std::io::Error| EmitError {
        path: path.to_path_buf(),
        message: e.to_string(),
    };
    let dir = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let mut temp = tempfile::Builder::new()
        .permissions(std::fs::Permissions::from_mode(0o666))
        .tempfile_in(dir)
        .map_err(fail)?;
    temp.write_all(contents.as_ref()).map_err(fail)?;
    temp.persist(path).map_err(|e| fail(e.error))?;
    Ok(())
}

/// `target` as a path relative to the directory `from` (both resolved).
/// For a preprocessed source (see [`ir::preprocessed`]), `OUT/<stem>_source.c`:
/// the file read as a source again, which the drivers include.
fn copy_without_line_markers(
    source: &Path,
    out_dir: &Path,
    stem: &str,
) -> Result<Option<PathBuf>, EmitError> {
    let error = |path: &Path, e: std::io::Error| EmitError {
        path: path.to_path_buf(),
        message: e.to_string(),
    };
    let bytes = std::fs::read(source).map_err(|e| error(source, e))?;
    let text = String::from_utf8_lossy(&bytes);
    if !ir::preprocessed::is_preprocessed(source, &text) {
        return Ok(None);
    }
    let copy = out_dir.join(format!("{stem}_source.c"));
    std::fs::write(&copy, ir::preprocessed::as_source(&text)).map_err(|e| error(&copy, e))?;
    Ok(Some(copy))
}

fn out_relative(from: &Path, target: &Path) -> Result<String, String> {
    let target = target.canonicalize().map_err(|e| e.to_string())?;
    let from: Vec<Component> = from.components().collect();
    let to: Vec<Component> = target.components().collect();
    let common = from.iter().zip(&to).take_while(|(a, b)| a == b).count();
    let mut rel = PathBuf::new();
    for _ in common..from.len() {
        rel.push("..");
    }
    for c in &to[common..] {
        rel.push(c.as_os_str());
    }
    rel.to_str()
        .map(str::to_string)
        .ok_or_else(|| "the path is not valid UTF-8".to_string())
}

/// Accumulates C source with four-space indentation.
#[derive(Default)]
pub(crate) struct CodeWriter {
    text: String,
    depth: usize,
    /// Where the source's `#include` ends and the names it poisons.
    poisoned_from: Option<(usize, Vec<String>)>,
}

impl CodeWriter {
    pub fn line(&mut self, line: &str) {
        for _ in 0..self.depth {
            self.text.push_str("    ");
        }
        self.text.push_str(line);
        self.text.push('\n');
    }

    pub fn blank(&mut self) {
        if !self.text.is_empty() && !self.text.ends_with("\n\n") && !self.text.ends_with("{\n") {
            self.text.push('\n');
        }
    }

    /// A line that opens a block; following lines are indented.
    pub fn open(&mut self, line: &str) {
        self.line(line);
        self.depth += 1;
    }

    /// Ends a block: drops a trailing blank line, dedents, writes `line`.
    pub fn close(&mut self, line: &str) {
        while self.text.ends_with("\n\n") {
            self.text.pop();
        }
        self.depth = self.depth.saturating_sub(1);
        self.line(line);
    }

    /// Already formatted text, indented to the current depth line by line.
    pub fn text(&mut self, text: &str) {
        for line in text.lines() {
            if line.is_empty() {
                self.text.push('\n');
            } else {
                self.line(line);
            }
        }
    }

    /// From here on, `names` are written through their aliases
    /// ([`poisoned::alias`]), which the text defined before.
    pub fn poisoned_from_here(&mut self, names: &[String]) {
        if !names.is_empty() {
            self.poisoned_from = Some((self.text.len(), names.to_vec()));
        }
    }

    pub fn finish(self) -> String {
        match self.poisoned_from {
            None => self.text,
            Some((start, names)) => {
                let (before, after) = self.text.split_at(start);
                before.to_string() + &poisoned::spell_through_aliases(after, &names)
            }
        }
    }
}
