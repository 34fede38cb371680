//! Check: build the driver with gcc --coverage, run it, read gcov's JSON and
//! compare measured coverage with what the engine predicted.
//!
//! Architecture invariant: knows only the files `emit` wrote (it reads
//! `<stem>.tests.json` through `emit::json`), never the IR or the engine.
//!
//! For each `OUT/<stem>.tests.json`, [`check`] compiles `OUT/<stem>_test.c`
//! with `--coverage -O0 -g` in a fresh `OUT/.cairn-build/<stem>-coverage/`,
//! runs it (each test in a process of its own, 10 s each; see [`Limits`]
//! for the bounds of every run), reads its `FAIL` lines (a crashed or stopped
//! test has one too) and its `N passed, N failed` line, runs
//! `gcov -b --json-format --stdout` on its data, keeps the lines of the source
//! under test and compares them per function with the engine's claims (see
//! `compare.rs` for the rule and the conditions gcc folds). With `sanitize`,
//! the driver is also built with `-fsanitize=address,undefined` and run with
//! leak detection on (drivers free everything they and the code under test
//! allocated, so any report is a problem), and every findings reproducer is
//! run under the sanitizers and judged by the evidence its kind calls for
//! (see [`confirmation`]); an uninitialized read the reproducer's own fill
//! comparison cannot confirm is run under valgrind's memcheck when installed.

mod compare;
mod frameworks;
mod gcov;
mod html;
mod junit;
mod listing;
mod mcdc;
mod report;
mod run;
mod sarif;
#[cfg(test)]
#[path = "../../../tests/schemas/sarif_validator.rs"]
mod sarif_validator;

pub use compare::NEARBY_LINES;
pub use gcov::LineCoverage;
pub use html::{html, HtmlFile};
pub use junit::junit;
pub use listing::{LineClass, SourceListing};
pub use mcdc::McdcCheck;
pub use report::{
    CheckReport, FileCheck, FindingReport, FunctionCheck, PathStep, Problem, ProblemKind, Ratio,
    ReproducerRun, TestOutcome, TestRun,
};
pub use run::{signal_name, Ending, Limits, Ran};
pub use sarif::sarif;

use std::fmt;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;
use testcase::json::TestsFile;
use testcase::FindingKind;

/// Time limit for one run of a reproducer, and of a driver beside its tests.
const RUN_LIMIT: Duration = Duration::from_secs(60);
/// Time limit of one test of a driver (`-DCAIRN_TEST_TIMEOUT`); the driver
/// kills a test at most this much later when its alarm did not stop it.
const TEST_TIMEOUT: Duration = Duration::from_secs(10);
const TEST_KILLED_AFTER: Duration = Duration::from_secs(5);
const COMPILE_LIMIT: Duration = Duration::from_secs(300);
const SANITIZE_FLAGS: &[&str] = &[
    // UBSan leaves out float-cast-overflow unless named.
    "-fsanitize=address,undefined,float-cast-overflow",
    "-fno-omit-frame-pointer",
    "-g",
    "-O0",
];

#[derive(Clone, Debug)]
pub struct CheckConfig {
    /// The gcc to build with; gcov is the matching `gcov`.
    pub cc: String,
    /// Also build and run with AddressSanitizer and UndefinedBehaviorSanitizer.
    pub sanitize: bool,
    /// A plain driver stops once this many tests in a row did not finish
    /// within their time limit: the tests after them are not run, each
    /// with a `FAIL` line saying so (`CAIRN_STOP_AFTER_TIMEOUTS`). `None`:
    /// every test runs.
    pub stop_after_timeouts: Option<u32>,
    /// Also measure MC/DC with clang and llvm-cov (`mcdc.rs`).
    pub mcdc: bool,
}

impl Default for CheckConfig {
    fn default() -> Self {
        CheckConfig {
            cc: "gcc".to_string(),
            sanitize: false,
            stop_after_timeouts: None,
            mcdc: false,
        }
    }
}

/// The command that runs a built driver, with the configured
/// `CAIRN_STOP_AFTER_TIMEOUTS`.
fn driver_command(binary: &Path, config: &CheckConfig) -> Command {
    let mut command = Command::new(binary);
    match config.stop_after_timeouts {
        Some(count) => command.env("CAIRN_STOP_AFTER_TIMEOUTS", count.to_string()),
        None => command.env_remove("CAIRN_STOP_AFTER_TIMEOUTS"),
    };
    command
}

/// The output directory cannot be checked at all.
#[derive(Debug)]
pub struct CheckError {
    pub path: PathBuf,
    pub message: String,
}

impl fmt::Display for CheckError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.path.display(), self.message)
    }
}

impl std::error::Error for CheckError {}

fn error(path: &Path, message: impl Into<String>) -> CheckError {
    CheckError {
        path: path.to_path_buf(),
        message: message.into(),
    }
}

/// Checks every `<stem>.tests.json` in `out_dir` and, for the output of a
/// project (`gen -p`), in its subdirectories, each in the directory it is in.
pub fn check(out_dir: &Path, config: &CheckConfig) -> Result<CheckReport, CheckError> {
    let out_dir = out_dir
        .canonicalize()
        .map_err(|e| error(out_dir, e.to_string()))?;
    let jsons = tests_files(&out_dir)?;
    if jsons.is_empty() {
        return Err(error(
            &out_dir,
            "no *.tests.json here: run `cairn gen` with this output directory first",
        ));
    }
    let mut files = Vec::with_capacity(jsons.len());
    for json in jsons {
        let dir = json.parent().unwrap_or(&out_dir);
        files.push(check_file(dir, &json, config)?);
    }
    Ok(CheckReport { files })
}

/// The `*.tests.json` files under `dir`, by path; hidden directories (the
/// builds of `check`, the run records of `gen`) are not looked in.
fn tests_files(dir: &Path) -> Result<Vec<PathBuf>, CheckError> {
    let mut found = Vec::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(at) = pending.pop() {
        for entry in std::fs::read_dir(&at).map_err(|e| error(&at, e.to_string()))? {
            let path = entry.map_err(|e| error(&at, e.to_string()))?.path();
            let Some(name) = path.file_name().and_then(|n| n.to_str()) else {
                continue;
            };
            if path.is_dir() && !name.starts_with('.') {
                pending.push(path);
            } else if name.ends_with(".tests.json") {
                found.push(path);
            }
        }
    }
    found.sort();
    Ok(found)
}

/// Reads one `<stem>.tests.json`.
pub fn read_tests_file(path: &Path) -> Result<TestsFile, CheckError> {
    let text = std::fs::read_to_string(path).map_err(|e| error(path, e.to_string()))?;
    let file: TestsFile = serde_json::from_str(&text)
        .map_err(|e| error(path, format!("not a cairn tests file: {e}")))?;
    if file.format != testcase::json::FORMAT {
        return Err(error(
            path,
            format!(
                "format `{}`, expected `{}`",
                file.format,
                testcase::json::FORMAT
            ),
        ));
    }
    Ok(file)
}

fn stem_of(json: &Path) -> String {
    let name = json.file_name().and_then(|n| n.to_str()).unwrap_or("tests");
    name.trim_end_matches(".tests.json").to_string()
}

/// A fresh build directory `OUT/.cairn-build/<name>`.
fn fresh_build_dir(out_dir: &Path, name: &str) -> Result<PathBuf, CheckError> {
    let dir = out_dir.join(".cairn-build").join(name);
    if dir.exists() {
        std::fs::remove_dir_all(&dir).map_err(|e| error(&dir, e.to_string()))?;
    }
    std::fs::create_dir_all(&dir).map_err(|e| error(&dir, e.to_string()))?;
    Ok(dir)
}

/// Checks one `<stem>.tests.json` in `out_dir`, the directory it is in.
pub fn check_file(
    out_dir: &Path,
    json: &Path,
    config: &CheckConfig,
) -> Result<FileCheck, CheckError> {
    let tests = read_tests_file(json)?;
    let stem = stem_of(json);
    let mut result = FileCheck::new(&tests, &stem, out_dir, &config.cc);
    let build = fresh_build_dir(out_dir, &format!("{stem}-coverage"))?;
    let binary = build.join("driver");
    let flags = ["--coverage", "-O0", "-g"].map(String::from);
    if !build_driver(
        config,
        &tests,
        out_dir,
        &build,
        &flags,
        "compile",
        &mut result,
    )? {
        return Ok(result);
    }
    let ran = run::run(
        // One RESULT line per test, for test reports.
        driver_command(&binary, config).env("CAIRN_REPORT_RESULTS", "1"),
        &build,
        "driver",
        Limits::program(driver_time_limit(&tests)),
    )
    .map_err(|m| error(&binary, m))?;
    result.record_run(&frameworks::as_runner_output(tests.framework, &ran));
    let source = out_dir.join(&tests.source_from_out);
    match measure(&build, &config.cc) {
        Ok(coverage) => result.compare(&tests, &coverage, out_dir),
        Err(message) => result
            .problems
            .push(Problem::new(ProblemKind::Coverage, message)),
    }
    if !source.exists() {
        result.problems.push(Problem::new(
            ProblemKind::Coverage,
            format!("source {} not found", source.display()),
        ));
    }
    if config.mcdc {
        mcdc::check_mcdc(out_dir, &stem, &tests, config, &mut result)?;
    }
    if config.sanitize {
        sanitize_driver(out_dir, &stem, &tests, config, &mut result)?;
        if let Some(findings) = &tests.findings_driver {
            match build_reproducers(out_dir, &stem, &out_dir.join(findings), &tests, config)? {
                Ok(binaries) => {
                    for function in &tests.functions {
                        for finding in &function.findings {
                            let Some(number) = finding.reproducer else {
                                continue;
                            };
                            let about = Finding {
                                number,
                                kind: finding.kind,
                                function: &function.name,
                            };
                            result
                                .reproducers
                                .push(run_reproducer_binary(&binaries, &about)?);
                        }
                    }
                }
                Err(message) => result
                    .problems
                    .push(Problem::new(ProblemKind::CompileError, message)),
            }
        }
    }
    Ok(result)
}

/// A shell command that builds the reproducers of `tests` with the
/// sanitizers, as `check --sanitize` does, and runs reproducer `number`.
pub(crate) fn reproducer_command(
    tests: &TestsFile,
    out_dir: &Path,
    cc: &str,
    number: u32,
) -> Option<String> {
    let findings = tests.findings_driver.as_deref()?;
    let binary = findings.strip_suffix(".c").unwrap_or(findings);
    let mut words = vec![cc.to_string()];
    words.extend(SANITIZE_FLAGS.iter().map(|f| f.to_string()));
    words.extend(tests.compiler_flags());
    words.push(out_dir.join(findings).to_string_lossy().into_owned());
    words.extend(["-o".to_string(), binary.to_string(), "-lm".to_string()]);
    let build: Vec<String> = words.iter().map(|w| shell_word(w)).collect();
    Some(format!(
        "{} && ./{} {number}",
        build.join(" "),
        shell_word(binary)
    ))
}

/// `word` as a POSIX shell reads it back: quoted unless plainly safe.
fn shell_word(word: &str) -> String {
    let safe = |c: char| c.is_ascii_alphanumeric() || "-_./=,+:@%".contains(c);
    if !word.is_empty() && word.chars().all(safe) {
        word.to_string()
    } else {
        format!("'{}'", word.replace('\'', "'\\''"))
    }
}

fn test_timeout_define() -> String {
    format!("-DCAIRN_TEST_TIMEOUT={}", TEST_TIMEOUT.as_secs())
}

/// Enough for every test of the driver to use all its time.
fn driver_time_limit(tests: &TestsFile) -> Duration {
    let count = tests
        .functions
        .iter()
        .flat_map(|f| &f.tests)
        .filter(|t| t.skipped.is_none())
        .count();
    RUN_LIMIT + (TEST_TIMEOUT + TEST_KILLED_AFTER) * u32::try_from(count).unwrap_or(u32::MAX)
}

/// Builds the driver of `tests` into `build/driver` with `flags` (see
/// [`frameworks::build_steps`]); on failure records the problem and
/// returns false.
fn build_driver(
    config: &CheckConfig,
    tests: &TestsFile,
    out_dir: &Path,
    build: &Path,
    flags: &[String],
    label: &str,
    result: &mut FileCheck,
) -> Result<bool, CheckError> {
    let mut flags = flags.to_vec();
    flags.push(test_timeout_define());
    for mut step in frameworks::build_steps(&config.cc, tests, out_dir, build, &flags, label) {
        if !compile_step(&mut step.command, build, &step.label, result)? {
            if !result.unresolved_symbols.is_empty() {
                let object = frameworks::driver_object(build);
                for symbol in undefined_thread_locals(&object) {
                    if !result.thread_local_symbols.contains(&symbol) {
                        result.thread_local_symbols.push(symbol);
                    }
                }
            }
            return Ok(false);
        }
    }
    Ok(true)
}

/// The symbols `object` references as thread-local and does not define
/// (`extern __thread T *heap;`), as binutils' `readelf` lists them: a
/// definition the driver adds must be thread-local too, or the assembler
/// refuses the file. None when `readelf` cannot read it.
fn undefined_thread_locals(object: &Path) -> Vec<String> {
    let Ok(listed) = Command::new("readelf")
        .args(["--syms", "--wide"])
        .arg(object)
        .output()
    else {
        return Vec::new();
    };
    String::from_utf8_lossy(&listed.stdout)
        .lines()
        .filter_map(|line| {
            // Num: Value Size Type Bind Vis Ndx Name
            let fields: Vec<&str> = line.split_whitespace().collect();
            match fields[..] {
                [_, _, _, "TLS", _, _, "UND", name, ..] => Some(name.to_string()),
                _ => None,
            }
        })
        .collect()
}

/// The configured compiler with the flags the generated files need.
fn compiler(config: &CheckConfig, tests: &TestsFile) -> Command {
    let mut command = Command::new(&config.cc);
    command.args(tests.compiler_flags());
    command
}

/// Runs a compiler step; on failure records the problem and returns false.
fn compile_step(
    command: &mut Command,
    build: &Path,
    label: &str,
    result: &mut FileCheck,
) -> Result<bool, CheckError> {
    let ran = run::run(command, build, label, Limits::tool(COMPILE_LIMIT))
        .map_err(|m| error(build, m))?;
    if !ran.success() {
        result
            .functions_not_compiling
            .extend(functions_with_errors(&ran.stderr));
        for symbol in unresolved_symbols(&ran.stderr) {
            if !result.unresolved_symbols.contains(&symbol) {
                result.unresolved_symbols.push(symbol);
            }
        }
        let message = format!(
            "{label} failed: the compiler {}:\n{}",
            ran.status,
            run::excerpt(&ran.stderr, 30)
        );
        result
            .problems
            .push(Problem::new(ProblemKind::CompileError, message));
    }
    Ok(ran.success())
}

/// The functions gcc reports errors in (`x.c: In function 'f':` and then
/// an `error:` line), each once, in order.
fn functions_with_errors(stderr: &str) -> Vec<String> {
    let mut current: Option<&str> = None;
    let mut found: Vec<String> = Vec::new();
    for line in stderr.lines() {
        if let Some((_, rest)) = line.split_once(": In function ") {
            let quoted = rest.trim_end_matches(':');
            current = Some(quoted.trim_matches(|c| matches!(c, '\'' | '‘' | '’' | '`')));
        } else if line.contains(": At top level:") {
            current = None;
        } else if line.contains(": error: ") {
            if let Some(name) = current.filter(|n| !found.iter().any(|f| f == n)) {
                found.push(name.to_string());
            }
        }
    }
    found
}

/// The symbols a linker reports undefined: GNU ld's ``undefined reference
/// to `NAME'`` and lld's `undefined symbol: NAME`.
fn unresolved_symbols(stderr: &str) -> Vec<String> {
    let mut found: Vec<String> = Vec::new();
    for line in stderr.lines() {
        let name = if let Some((_, rest)) = line.split_once("undefined reference to ") {
            rest.trim()
                .trim_matches(|c| matches!(c, '\'' | '‘' | '’' | '`'))
        } else if let Some((_, rest)) = line.split_once("undefined symbol: ") {
            rest.trim()
        } else {
            continue;
        };
        let symbol = name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
        if symbol && !name.is_empty() && !found.iter().any(|f| f == name) {
            found.push(name.to_string());
        }
    }
    found
}

fn measure(build: &Path, cc: &str) -> Result<gcov::Coverage, String> {
    let data = build.join("driver.gcda");
    if !data.exists() {
        return Err("the driver wrote no coverage data (it did not exit normally)".to_string());
    }
    let gcov = run::gcov_for(cc);
    let mut command = Command::new(&gcov);
    command.args(["-b", "--json-format", "--stdout"]).arg(&data);
    let stdout = tool_output(&mut command, build, &gcov)?;
    gcov::parse(&stdout, build)
}

/// What a coverage tool named `name` printed, or why it failed.
fn tool_output(command: &mut Command, dir: &Path, name: &str) -> Result<String, String> {
    // The label names the files of its output: no directory in it.
    let label = Path::new(name)
        .file_name()
        .map_or(name.into(), |n| n.to_string_lossy());
    let ran = run::run(command, dir, &label, Limits::tool(COMPILE_LIMIT))?;
    if !ran.success() {
        return Err(format!(
            "{name} {}: {}",
            ran.status,
            run::excerpt(&ran.stderr, 10)
        ));
    }
    Ok(ran.stdout)
}

fn sanitize_driver(
    out_dir: &Path,
    stem: &str,
    tests: &TestsFile,
    config: &CheckConfig,
    result: &mut FileCheck,
) -> Result<(), CheckError> {
    let build = fresh_build_dir(out_dir, &format!("{stem}-sanitize"))?;
    let binary = build.join("driver");
    let flags: Vec<String> = SANITIZE_FLAGS.iter().map(|f| f.to_string()).collect();
    if !build_driver(
        config,
        tests,
        out_dir,
        &build,
        &flags,
        "compile-sanitize",
        result,
    )? {
        return Ok(());
    }
    // A report of UBSan ends its test, whose FAIL line then names it.
    let ran = run::run(
        sanitized(&mut driver_command(&binary, config), Leaks::Detect)
            .env("UBSAN_OPTIONS", "print_stacktrace=1:halt_on_error=1"),
        &build,
        "driver",
        Limits::program(driver_time_limit(tests)).with_huge_address_space(),
    )
    .map_err(|m| error(&binary, m))?;
    let ran = frameworks::as_runner_output(tests.framework, &ran);
    let leaking: Vec<&str> = tests
        .functions
        .iter()
        .filter(|f| f.findings.iter().any(|x| x.kind == FindingKind::Leak))
        .map(|f| f.name.as_str())
        .collect();
    if let Some(report) = sanitizer_report(&ran) {
        match leaks_of_reported_functions(&ran.stderr, &leaking) {
            Some(functions) => result.notes.push(format!(
                "the sanitized driver leaks only memory lost by {}, as the leak findings say",
                functions.join(", ")
            )),
            None => {
                // The reports do not name the tests; the FAIL lines do.
                let failed = report::fail_lines(&ran.stdout);
                result.record_sanitizer_failures(&failed);
                name_sanitizer_reports(&binary, config, &build, result)?;
                let message = if failed.is_empty() {
                    report
                } else {
                    format!(
                        "{report}\nfailed under the sanitizers:\n{}",
                        failed.join("\n")
                    )
                };
                result
                    .problems
                    .push(Problem::new(ProblemKind::Sanitizer, message))
            }
        }
    } else if !ran.success() {
        result.record_sanitizer_failures(&report::fail_lines(&ran.stdout));
        let message = format!(
            "the sanitized driver {}:\n{}",
            ran.status,
            run::excerpt(&ran.stdout, 20)
        );
        result
            .problems
            .push(Problem::new(ProblemKind::Sanitizer, message));
    }
    Ok(())
}

/// Most tests that failed under the sanitizers run again, alone, to name
/// what the sanitizer reported in each.
const MOST_RERUNS_ALONE: usize = 16;

/// Runs tests that exited under the sanitizers (their FAIL line only says
/// "exited with status") again one at a time, and puts the sanitizer's
/// first line in their message instead: which rule broke, and where.
fn name_sanitizer_reports(
    binary: &Path,
    config: &CheckConfig,
    build: &Path,
    result: &mut FileCheck,
) -> Result<(), CheckError> {
    const EXITED: &str = "under the sanitizers: exited with status";
    let exited: Vec<usize> = (result.tests.iter().enumerate())
        .filter(|(_, t)| t.messages.iter().any(|m| m.starts_with(EXITED)))
        .map(|(index, _)| index)
        .take(MOST_RERUNS_ALONE)
        .collect();
    for index in exited {
        let test = &mut result.tests[index];
        let ran = run::run(
            sanitized(
                driver_command(binary, config).arg(&test.name),
                Leaks::Detect,
            )
            .env("UBSAN_OPTIONS", "print_stacktrace=1:halt_on_error=1"),
            build,
            "driver",
            Limits::program(RUN_LIMIT + TEST_TIMEOUT + TEST_KILLED_AFTER).with_huge_address_space(),
        )
        .map_err(|m| error(binary, m))?;
        let Some(first) = sanitizer_report(&ran).and_then(|r| r.lines().next().map(str::to_string))
        else {
            continue;
        };
        for message in &mut test.messages {
            if message.starts_with(EXITED) {
                *message = format!("under the sanitizers: {}", first.trim());
            }
        }
    }
    Ok(())
}

/// Whether a sanitized run looks for leaks at exit.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Leaks {
    Detect,
    Ignore,
}

/// Environment for sanitized runs.
fn sanitized(command: &mut Command, leaks: Leaks) -> &mut Command {
    let detect = match leaks {
        Leaks::Detect => 1,
        Leaks::Ignore => 0,
    };
    command
        .env(
            "ASAN_OPTIONS",
            format!("detect_leaks={detect}:abort_on_error=0"),
        )
        .env("UBSAN_OPTIONS", "print_stacktrace=1")
}

/// The sanitizer's own lines from a run, if it reported anything.
fn sanitizer_report(ran: &Ran) -> Option<String> {
    let lines: Vec<&str> = ran
        .stderr
        .lines()
        .filter(|l| {
            l.contains("runtime error:")
                || l.contains("ERROR: AddressSanitizer")
                || l.contains("ERROR: LeakSanitizer")
                || l.starts_with("SUMMARY:")
        })
        .collect();
    (!lines.is_empty()).then(|| lines.join("\n"))
}

/// When a sanitizer report holds nothing but leaks, each allocated through
/// one of the functions that have leak findings (a test on a leaking path
/// loses what the function loses), those functions; else `None`.
fn leaks_of_reported_functions<'a>(stderr: &str, leaking: &[&'a str]) -> Option<Vec<&'a str>> {
    let other_error = stderr
        .lines()
        .any(|l| l.contains("runtime error:") || l.contains("ERROR: AddressSanitizer"));
    if other_error || !stderr.contains("ERROR: LeakSanitizer") {
        return None;
    }
    let mut blames = Vec::new();
    let mut blocks = 0;
    let mut lines = stderr.lines().peekable();
    while let Some(line) = lines.next() {
        let trimmed = line.trim_start();
        if !(trimmed.starts_with("Direct leak of") || trimmed.starts_with("Indirect leak of")) {
            continue;
        }
        blocks += 1;
        let mut culprit = None;
        while let Some(frame) = lines.next_if(|l| l.trim_start().starts_with('#')) {
            culprit = culprit.or_else(|| {
                leaking
                    .iter()
                    .find(|f| frame.contains(&format!(" in {f} ")))
                    .copied()
            });
        }
        match culprit {
            Some(function) if !blames.contains(&function) => blames.push(function),
            Some(_) => {}
            None => return None,
        }
    }
    (blocks > 0).then_some(blames)
}

/// A finding as the reproducers file numbers it.
struct Finding<'a> {
    number: u32,
    kind: FindingKind,
    function: &'a str,
}

/// What in a reproducer's run confirms its finding, if anything does:
/// a leak needs LeakSanitizer's report with a stack through the function;
/// an uninitialized read needs the reproducer's own `CONFIRMED:` line (the
/// result changed with the fill of new memory); any other fault needs a
/// sanitizer report or a crash on a signal.
pub fn confirmation(kind: FindingKind, function: &str, ran: &Ran) -> Option<String> {
    match kind {
        FindingKind::Leak => {
            let frame = format!(" in {function} ");
            (ran.stderr
                .contains("ERROR: LeakSanitizer: detected memory leaks")
                && ran.stderr.lines().any(|l| l.contains(&frame)))
            .then(|| format!("LeakSanitizer reports memory {function} allocated and lost"))
        }
        FindingKind::UninitializedRead | FindingKind::BrokenInvariant => ran
            .stdout
            .lines()
            .find_map(|l| l.strip_prefix("CONFIRMED: "))
            .map(str::to_string),
        FindingKind::ErrorExit => match ran.status {
            Ending::Exited(status) if status != 0 => Some(format!("it exits with status {status}")),
            _ => None,
        },
        _ => match (sanitizer_report(ran), ran.status) {
            (Some(report), _) => Some(format!(
                "the sanitizers report: {}",
                report.lines().next().unwrap_or_default().trim()
            )),
            (None, Ending::Signal(signal)) => Some(format!(
                "it was killed by signal {}",
                run::signal_name(signal)
            )),
            (None, _) => None,
        },
    }
}

/// Builds `OUT/<stem>_findings.c` with the sanitizers and runs reproducer `number`.
pub fn run_reproducer(
    out_dir: &Path,
    stem: &str,
    number: u32,
    config: &CheckConfig,
) -> Result<ReproducerRun, CheckError> {
    let out_dir = out_dir
        .canonicalize()
        .map_err(|e| error(out_dir, e.to_string()))?;
    let tests = read_tests_file(&out_dir.join(format!("{stem}.tests.json")))?;
    let findings = tests
        .findings_driver
        .as_ref()
        .ok_or_else(|| error(&out_dir, format!("{stem} has no findings reproducers")))?;
    let findings = out_dir.join(findings);
    let (function, finding) = tests
        .functions
        .iter()
        .find_map(|f| {
            f.findings
                .iter()
                .find(|x| x.reproducer == Some(number))
                .map(|x| (f, x))
        })
        .ok_or_else(|| error(&findings, format!("no reproducer number {number}")))?;
    let binaries = build_reproducers(&out_dir, stem, &findings, &tests, config)?
        .map_err(|m| error(&findings, m))?;
    let about = Finding {
        number,
        kind: finding.kind,
        function: &function.name,
    };
    run_reproducer_binary(&binaries, &about)
}

/// The reproducers, built with the sanitizers, and without them for
/// valgrind's memcheck when it is installed and some finding is an
/// uninitialized read (the sanitizers do not see those).
struct ReproducerBinaries {
    sanitized: PathBuf,
    plain: Option<PathBuf>,
}

/// Compiles the reproducers in fresh build directories; the inner error is
/// the compiler's complaint.
fn build_reproducers(
    out_dir: &Path,
    stem: &str,
    findings: &Path,
    tests: &TestsFile,
    config: &CheckConfig,
) -> Result<Result<ReproducerBinaries, String>, CheckError> {
    let sanitized = match compile_reproducers(
        out_dir,
        &format!("{stem}-findings"),
        findings,
        tests,
        config,
        SANITIZE_FLAGS,
    )? {
        Ok(binary) => binary,
        Err(message) => return Ok(Err(message)),
    };
    let wants_memcheck = tests
        .functions
        .iter()
        .flat_map(|f| &f.findings)
        .any(|f| f.kind == FindingKind::UninitializedRead);
    let plain = if wants_memcheck && valgrind_installed() {
        compile_reproducers(
            out_dir,
            &format!("{stem}-findings-plain"),
            findings,
            tests,
            config,
            &["-g", "-O0"],
        )?
        .ok()
    } else {
        None
    };
    Ok(Ok(ReproducerBinaries { sanitized, plain }))
}

fn compile_reproducers(
    out_dir: &Path,
    build_name: &str,
    findings: &Path,
    tests: &TestsFile,
    config: &CheckConfig,
    flags: &[&str],
) -> Result<Result<PathBuf, String>, CheckError> {
    let build = fresh_build_dir(out_dir, build_name)?;
    let binary = build.join("findings");
    let mut compile = compiler(config, tests);
    compile
        .args(flags)
        .arg(findings)
        .arg("-o")
        .arg(&binary)
        .arg("-lm");
    let ran = run::run(&mut compile, &build, "compile", Limits::tool(COMPILE_LIMIT))
        .map_err(|m| error(&build, m))?;
    Ok(if ran.success() {
        Ok(binary)
    } else {
        Err(format!(
            "{} does not compile:\n{}",
            findings.display(),
            run::excerpt(&ran.stderr, 30)
        ))
    })
}

fn valgrind_installed() -> bool {
    Command::new("valgrind")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

fn run_reproducer_binary(
    binaries: &ReproducerBinaries,
    finding: &Finding,
) -> Result<ReproducerRun, CheckError> {
    let binary = &binaries.sanitized;
    let build = binary.parent().unwrap_or(Path::new("."));
    let number = finding.number;
    let leaks = if finding.kind == FindingKind::Leak {
        Leaks::Detect
    } else {
        Leaks::Ignore
    };
    let mut command = Command::new(binary);
    command.arg(number.to_string());
    let ran = run::run(
        sanitized(&mut command, leaks),
        build,
        &format!("finding-{number}"),
        Limits::program(RUN_LIMIT).with_huge_address_space(),
    )
    .map_err(|m| error(binary, m))?;
    let mut evidence = confirmation(finding.kind, finding.function, &ran);
    let mut output = format!("{}{}", ran.stdout, ran.stderr);
    if let (None, FindingKind::UninitializedRead, Some(plain)) =
        (&evidence, finding.kind, &binaries.plain)
    {
        let build = plain.parent().unwrap_or(Path::new("."));
        let mut command = Command::new("valgrind");
        command
            .args(["--error-exitcode=99", "--track-origins=yes"])
            .arg(plain)
            .arg(number.to_string());
        let memcheck = run::run(
            &mut command,
            build,
            &format!("memcheck-{number}"),
            Limits::program(RUN_LIMIT).with_huge_address_space(),
        )
        .map_err(|m| error(plain, m))?;
        evidence = memcheck_confirmation(finding.function, &memcheck.stderr);
        output.push_str(&memcheck.stderr);
    }
    Ok(ReproducerRun {
        number,
        kind: finding.kind,
        confirmed: evidence.is_some(),
        evidence,
        output,
        ending: ran.status,
    })
}

/// valgrind's memcheck confirms an uninitialized read when one of its
/// "uninitialised value" errors has `function` on the error's stack.
fn memcheck_confirmation(function: &str, stderr: &str) -> Option<String> {
    let frame = format!(": {function} (");
    let mut lines = stderr.lines().map(strip_pid).peekable();
    while let Some(line) = lines.next() {
        if !line.contains("uninitialised value") {
            continue;
        }
        let header = line.trim();
        while let Some(frame_line) = lines.next_if(|l| {
            let l = l.trim_start();
            l.starts_with("at ") || l.starts_with("by ")
        }) {
            if frame_line.contains(&frame) {
                return Some(format!("valgrind: {header} in {function}"));
            }
        }
    }
    None
}

/// A valgrind line without its `==PID== ` prefix.
fn strip_pid(line: &str) -> &str {
    line.strip_prefix("==")
        .and_then(|rest| rest.split_once("== "))
        .map_or(line, |(_, text)| text)
}

#[cfg(test)]
mod tests {
    use super::*;

    const LEAK_IN_COPY_HEAD: &str = "
=================================================================
==1==ERROR: LeakSanitizer: detected memory leaks

Direct leak of 16 byte(s) in 1 object(s) allocated from:
    #0 0x7fe2e36b89cf in __interceptor_malloc asan_malloc_linux.cpp:69
    #1 0x55ff26293400 in cairn_malloc faults_test.c:34
    #2 0x55ff26293812 in copy_head faults.c:49
    #3 0x55ff26295337 in test_copy_head_3 faults_test.c:268

Indirect leak of 16 byte(s) in 1 object(s) allocated from:
    #0 0x7fe2e36b89cf in __interceptor_malloc asan_malloc_linux.cpp:69
    #1 0x55ff26293812 in copy_head faults.c:50

SUMMARY: AddressSanitizer: 32 byte(s) leaked in 2 allocation(s).
";

    #[test]
    fn compile_errors_are_placed_in_their_functions() {
        let stderr = "\
In file included from out/x_test.c:40:
out/../x.c: In function ‘helper’:
out/../x.c:3:5: warning: unused variable ‘y’ [-Wunused-variable]
out/x_test.c: In function ‘test_f_returns_1’:
out/x_test.c:90:5: error: ‘struct s’ has no member named ‘free’
out/x_test.c:91:5: error: ‘item’ undeclared (first use in this function)
out/x_test.c: At top level:
out/x_test.c:99:1: error: expected ‘;’ before ‘}’ token
out/x_test.c: In function 'test_g_returns_0':
out/x_test.c:120:9: error: too few arguments to function 'g'
";
        assert_eq!(
            functions_with_errors(stderr),
            vec!["test_f_returns_1", "test_g_returns_0"]
        );
    }

    #[test]
    fn the_linker_names_the_symbols_it_misses() {
        let stderr = "\
/usr/bin/ld: build/driver.o: in function `glib_autoptr_clear_GError':
/usr/include/glib-2.0/glib/glib-autocleanups.h:54: undefined reference to `g_error_free'
/usr/bin/ld: build/driver.o: in function `run':
x_test.c:10: undefined reference to `g_error_free'
x_test.c:11: undefined reference to `hook_table'
ld.lld: error: undefined symbol: g_free
collect2: error: ld returned 1 exit status
";
        assert_eq!(
            unresolved_symbols(stderr),
            vec!["g_error_free", "hook_table", "g_free"]
        );
    }

    #[test]
    fn leaks_are_blamed_on_functions_with_leak_findings_only() {
        assert_eq!(
            leaks_of_reported_functions(LEAK_IN_COPY_HEAD, &["copy_head"]),
            Some(vec!["copy_head"])
        );
        // A leak through another function is the driver's problem.
        assert_eq!(
            leaks_of_reported_functions(LEAK_IN_COPY_HEAD, &["copy"]),
            None
        );
        let with_error = format!("{LEAK_IN_COPY_HEAD}x.c:3:5: runtime error: division by zero\n");
        assert_eq!(
            leaks_of_reported_functions(&with_error, &["copy_head"]),
            None
        );
        assert_eq!(leaks_of_reported_functions("", &["copy_head"]), None);
    }

    #[test]
    fn memcheck_errors_count_when_the_function_is_on_their_stack() {
        let report = "==7== Memcheck, a memory error detector
==7== Conditional jump or move depends on uninitialised value(s)
==7==    at 0x109234: count_fresh (heap.c:95)
==7==    by 0x10A001: finding_4 (heap_findings.c:160)
==7==
";
        assert_eq!(
            memcheck_confirmation("count_fresh", report).as_deref(),
            Some("valgrind: Conditional jump or move depends on uninitialised value(s) in count_fresh")
        );
        assert_eq!(memcheck_confirmation("finding", report), None);
        assert_eq!(
            memcheck_confirmation("count_fresh", "==7== All heap blocks were freed\n"),
            None
        );
    }

    #[test]
    fn each_kind_needs_its_own_evidence() {
        let ran = |status, stdout: &str, stderr: &str| Ran {
            status,
            stdout: stdout.to_string(),
            stderr: stderr.to_string(),
        };
        let leaked = ran(Ending::Exited(23), "", LEAK_IN_COPY_HEAD);
        assert!(confirmation(FindingKind::Leak, "copy_head", &leaked).is_some());
        assert!(confirmation(FindingKind::Leak, "copy_tail", &leaked).is_none());
        let clean = ran(Ending::Exited(0), "running finding 1\n", "");
        assert!(confirmation(FindingKind::Leak, "copy_head", &clean).is_none());
        assert!(confirmation(FindingKind::NullDereference, "f", &clean).is_none());
        // An exit code alone is no evidence; a signal is.
        assert!(confirmation(
            FindingKind::NullDereference,
            "f",
            &ran(Ending::Exited(2), "", "")
        )
        .is_none());
        assert_eq!(
            confirmation(
                FindingKind::NullDereference,
                "f",
                &ran(Ending::Signal(11), "", "")
            )
            .as_deref(),
            Some("it was killed by signal SIGSEGV (segmentation fault)")
        );
        let differs = ran(Ending::Exited(0), "CONFIRMED: it differs\n", "");
        assert_eq!(
            confirmation(FindingKind::UninitializedRead, "f", &differs).as_deref(),
            Some("it differs")
        );
        // A sanitizer report is no evidence of an uninitialized read.
        let overflow = ran(
            Ending::Exited(0),
            "",
            "x.c:1:1: runtime error: signed integer overflow",
        );
        assert!(confirmation(FindingKind::UninitializedRead, "f", &overflow).is_none());
        assert!(confirmation(FindingKind::SignedOverflow, "f", &overflow).is_some());
    }
}
