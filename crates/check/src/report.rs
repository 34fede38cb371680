//! The check report: measured next to predicted, problems, rendering.

use crate::compare;
use crate::gcov::{self, Coverage};
use crate::listing::{self, SourceListing};
use crate::run::{Ending, Ran};
use serde::Serialize;
use std::collections::HashMap;
use std::fmt::Write;
use std::path::{Path, PathBuf};
use testcase::json::{FunctionJson, GoalJson, TestsFile};
use testcase::FindingKind;

#[derive(Clone, Debug, Serialize)]
pub struct CheckReport {
    pub files: Vec<FileCheck>,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Ratio {
    pub covered: usize,
    pub total: usize,
}

impl std::fmt::Display for Ratio {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.covered, self.total)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum ProblemKind {
    CompileError,
    /// The driver died on a signal, was stopped at a limit, or printed no
    /// summary line.
    Crash,
    FailingTests,
    /// A goal the engine claims covered that gcov did not see taken.
    ClaimedNotMeasured,
    Sanitizer,
    /// gcov could not be run or read.
    Coverage,
}

impl std::fmt::Display for ProblemKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            ProblemKind::CompileError => "does not compile",
            ProblemKind::Crash => "driver stopped",
            ProblemKind::FailingTests => "failing tests",
            ProblemKind::ClaimedNotMeasured => "claimed but not measured",
            ProblemKind::Sanitizer => "sanitizer",
            ProblemKind::Coverage => "coverage not measured",
        })
    }
}

#[derive(Clone, Debug, Serialize)]
pub struct Problem {
    pub kind: ProblemKind,
    pub message: String,
}

impl Problem {
    pub fn new(kind: ProblemKind, message: impl Into<String>) -> Self {
        Problem {
            kind,
            message: message.into(),
        }
    }
}

#[derive(Clone, Debug, Serialize)]
pub struct FunctionCheck {
    pub name: String,
    /// Tests written to the driver for this function, and how many failed.
    pub tests: usize,
    pub failed: usize,
    /// Goals the engine claims covered / all goals.
    pub predicted: Ratio,
    /// Branches gcov saw taken / all branches gcov counts (None: no measurement).
    pub measured_branches: Option<Ratio>,
    pub measured_lines: Option<Ratio>,
    /// Engine claims gcov could not confirm either way (see `compare`).
    pub unmeasurable: Vec<String>,
    /// Lines where gcov contradicts a claim of the engine: a branch it
    /// claims covered was not seen taken.
    pub contradicted_lines: Vec<u32>,
}

/// One findings reproducer run under the sanitizers.
#[derive(Clone, Debug, Serialize)]
pub struct ReproducerRun {
    pub number: u32,
    pub kind: testcase::FindingKind,
    /// The run shows the fault the way its kind calls for (see
    /// [`crate::confirmation`]).
    pub confirmed: bool,
    /// What confirmed it.
    pub evidence: Option<String>,
    /// The run's standard output, then its standard error.
    pub output: String,
    #[serde(skip)]
    pub ending: Ending,
}

/// How one test of a driver ended, for test reports (`--junit`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum TestOutcome {
    Passed,
    /// A check of the test failed.
    Failed,
    /// The test crashed, was stopped at a limit, or exited by itself.
    Error,
    /// Not in the driver: cairn could not express it.
    Skipped,
    /// The driver did not compile, or stopped before this test ended.
    NotRun,
}

/// One test of a driver as the driver reported it.
#[derive(Clone, Debug, Serialize)]
pub struct TestRun {
    /// The function under test.
    pub function: String,
    /// The test's function in the driver, e.g. `test_classify_3`.
    pub name: String,
    pub outcome: TestOutcome,
    /// Its run time, from fork to verdict (`None`: not measured).
    pub seconds: Option<f64>,
    /// The driver's `FAIL` lines for it without their `FAIL TEST: `, or
    /// why it is not in the driver.
    pub messages: Vec<String>,
    /// The branch directions it covers first, in the order it reaches them.
    pub covers: Vec<PathStep>,
    /// Its function as the driver wrote it: comment, inputs, call, checks
    /// (`None`: not found in the driver).
    #[serde(skip)]
    pub code: Option<String>,
    /// The picture of its input structure that `gen` drew
    /// (`OUT/shapes/<test>.svg`), as SVG text.
    #[serde(skip)]
    pub picture: Option<String>,
}

/// A finding of `tests.json`, placed in the source for reports.
#[derive(Clone, Debug, Serialize)]
pub struct FindingReport {
    pub function: String,
    pub kind: FindingKind,
    /// The source file, resolved against the output directory.
    pub file: PathBuf,
    pub line: u32,
    pub col: u32,
    pub message: String,
    /// What nothing vouches for in its inputs (empty: they are valid).
    pub unvouched_inputs: Vec<String>,
    /// Its number in the reproducers program (`None`: left out).
    pub reproducer: Option<u32>,
    /// A shell command that builds and runs the reproducer.
    pub reproducer_command: Option<String>,
    /// The reproducers file holding it.
    pub reproducer_file: Option<PathBuf>,
    /// The reproducer as that file wrote it (`None`: not found there).
    #[serde(skip)]
    pub reproducer_code: Option<String>,
    /// The branch directions on the path to it, in order of first reach.
    pub path: Vec<PathStep>,
}

/// A branch direction in the source: one a test covers, or one on the
/// path to a finding.
#[derive(Clone, Debug, Serialize)]
pub struct PathStep {
    pub file: PathBuf,
    pub line: u32,
    pub col: u32,
    /// The condition and direction, e.g. `b == 0: true`.
    pub label: String,
}

#[derive(Clone, Debug, Serialize)]
pub struct FileCheck {
    pub source: String,
    /// `<stem>` of `<stem>.tests.json`.
    pub stem: String,
    pub driver: String,
    pub passed: Option<usize>,
    pub failed: Option<usize>,
    pub functions: Vec<FunctionCheck>,
    pub problems: Vec<Problem>,
    /// The driver's `FAIL ...` lines.
    pub failures: Vec<String>,
    /// Functions of the generated files (tests, reproducers) the compiler
    /// reported errors in.
    pub functions_not_compiling: Vec<String>,
    /// Symbols the linker found no definition of (`undefined reference to
    /// ...`), each once, in order.
    pub unresolved_symbols: Vec<String>,
    /// Those of them the driver references as thread-local (`extern
    /// __thread T *heap;`), each once, in order.
    pub thread_local_symbols: Vec<String>,
    pub reproducers: Vec<ReproducerRun>,
    /// Facts worth knowing that are not problems.
    pub notes: Vec<String>,
    /// Every test of `tests.json`, in its order.
    pub tests: Vec<TestRun>,
    /// Every finding of `tests.json`, in its order.
    pub findings: Vec<FindingReport>,
    /// The source with its coverage line by line (for the HTML report).
    #[serde(skip)]
    pub listing: SourceListing,
    /// MC/DC as llvm-cov measured it, with `check --coverage mcdc`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mcdc: Option<crate::McdcCheck>,
}

impl CheckReport {
    /// True when every driver compiled, ran to its end with all tests passing,
    /// and every covered goal the engine claims was measured.
    pub fn ok(&self) -> bool {
        self.files.iter().all(|f| f.problems.is_empty())
    }

    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_else(|e| format!("{{\"error\": \"{e}\"}}"))
    }

    /// A table per file: measured coverage next to the engine's prediction.
    pub fn table(&self) -> String {
        let mut out = String::new();
        for file in &self.files {
            file.render(&mut out);
        }
        out.push_str(LEGEND);
        let verdict = if self.ok() {
            "check passed"
        } else {
            "check FAILED"
        };
        let _ = writeln!(out, "{verdict}");
        out
    }
}

impl FileCheck {
    /// Before anything ran: every test not run yet. `out_dir` resolves the
    /// files `tests.json` names.
    pub(crate) fn new(tests: &TestsFile, stem: &str, out_dir: &Path, cc: &str) -> Self {
        let read = |name: &str| std::fs::read_to_string(out_dir.join(name)).ok();
        // A GoogleTest driver keeps the tests' bodies in its C part.
        let driver_text = read(tests.driver_c_part.as_deref().unwrap_or(&tests.driver));
        let runs = tests
            .functions
            .iter()
            .flat_map(|f| f.tests.iter().map(move |t| (f, t)))
            .map(|(function, test)| TestRun {
                function: function.name.clone(),
                name: test.name.clone(),
                outcome: match test.skipped {
                    Some(_) => TestOutcome::Skipped,
                    None => TestOutcome::NotRun,
                },
                seconds: None,
                messages: test.skipped.iter().cloned().collect(),
                covers: branch_steps(function, &test.covers, out_dir),
                code: driver_text
                    .as_deref()
                    .and_then(|text| listing::test_code(text, &test.name)),
                // A name from tests.json becomes a path only as a C identifier.
                picture: is_identifier(&test.name)
                    .then(|| read(&format!("shapes/{}.svg", test.name)))
                    .flatten(),
            })
            .collect();
        FileCheck {
            source: tests.source.clone(),
            stem: stem.to_string(),
            driver: tests.driver.clone(),
            passed: None,
            failed: None,
            functions: vec![],
            problems: vec![],
            failures: vec![],
            functions_not_compiling: vec![],
            unresolved_symbols: vec![],
            thread_local_symbols: vec![],
            reproducers: vec![],
            notes: vec![],
            tests: runs,
            findings: finding_reports(tests, out_dir, cc),
            listing: source_listing(tests, out_dir),
            mcdc: None,
        }
    }

    /// The tests the sanitized driver's FAIL lines name fail, with the
    /// message, unless the plain run failed them already.
    pub(crate) fn record_sanitizer_failures(&mut self, fail_lines: &[String]) {
        for test in &mut self.tests {
            let messages: Vec<String> = fail_lines
                .iter()
                .filter_map(|l| fail_message(l, &test.name))
                .map(|m| format!("under the sanitizers: {m}"))
                .collect();
            if messages.is_empty() {
                continue;
            }
            if test.outcome == TestOutcome::Passed {
                test.outcome = TestOutcome::Failed;
            }
            test.messages.extend(messages);
        }
    }

    /// The run of reproducer `number`, if `check --sanitize` ran it.
    pub fn reproducer_run(&self, number: u32) -> Option<&ReproducerRun> {
        self.reproducers.iter().find(|r| r.number == number)
    }

    /// Reads the driver's summary line, FAIL lines and RESULT lines.
    pub(crate) fn record_run(&mut self, ran: &Ran) {
        let summary = ran
            .stdout
            .lines()
            .rev()
            .find(|l| !l.trim().is_empty())
            .and_then(parse_summary);
        if let Some((passed, failed)) = summary {
            self.passed = Some(passed);
            self.failed = Some(failed);
        }
        self.failures = fail_lines(&ran.stdout);
        for test in &mut self.tests {
            if test.outcome == TestOutcome::Skipped {
                continue;
            }
            test.messages = self
                .failures
                .iter()
                .filter_map(|l| fail_message(l, &test.name))
                .map(str::to_string)
                .collect();
            match ran.stdout.lines().find_map(|l| parse_result(l, &test.name)) {
                Some((outcome, seconds)) => {
                    test.outcome = outcome;
                    test.seconds = Some(seconds);
                }
                // No RESULT line: the part of the output cut away held it,
                // or the driver stopped first.
                None if !test.messages.is_empty() => test.outcome = TestOutcome::Failed,
                None if summary.is_some() => test.outcome = TestOutcome::Passed,
                None if matches!(
                    ran.status,
                    Ending::Signal(_) | Ending::TimedOut(_) | Ending::TooMuchOutput(_)
                ) =>
                {
                    let why = format!("not run to its end: the driver {} first", ran.status);
                    test.outcome = TestOutcome::NotRun;
                    test.messages.push(why);
                }
                None => {}
            }
        }
        match ran.status {
            Ending::Signal(_) | Ending::TimedOut(_) | Ending::TooMuchOutput(_) => {
                self.problems.push(Problem::new(
                    ProblemKind::Crash,
                    format!(
                        "the driver {}; last output:\n{}",
                        ran.status,
                        last_lines(&ran.stdout, 5)
                    ),
                ))
            }
            Ending::Exited(_) if summary.is_none() => self.problems.push(Problem::new(
                ProblemKind::Crash,
                format!(
                    "the driver printed no `N passed, N failed` line:\n{}",
                    last_lines(&ran.stdout, 5)
                ),
            )),
            Ending::Exited(code) => {
                if summary.is_some_and(|(_, failed)| failed > 0) || code != 0 {
                    let message =
                        format!("the driver {}:\n{}", ran.status, self.failures.join("\n"));
                    self.problems
                        .push(Problem::new(ProblemKind::FailingTests, message));
                }
            }
        }
    }

    /// Per function: measured next to predicted, and claims gcov contradicts.
    pub(crate) fn compare(&mut self, tests: &TestsFile, coverage: &Coverage, out_dir: &Path) {
        if let Some(functions) = gcov::functions_of(coverage, &self.listing.path) {
            self.listing.record_measure(functions);
        }
        for function in &tests.functions {
            let written = function.tests.iter().filter(|t| t.skipped.is_none());
            let failed = written
                .clone()
                .filter(|t| self.failures.iter().any(|l| fails(l, &t.name)))
                .count();
            let path = gcov::resolve(out_dir, &function.file)
                .unwrap_or_else(|| out_dir.join(&function.file));
            let in_file = gcov::functions_of(coverage, &path);
            // The next function of the file bounds one gcc filed elsewhere.
            let next_start = tests
                .functions
                .iter()
                .filter(|f| f.file == function.file && f.line > function.line)
                .map(|f| f.line)
                .min();
            let filed_elsewhere = in_file
                .filter(|by_name| !by_name.contains_key(&function.name))
                .and_then(|by_name| gcov::unattributed_from(by_name, function.line, next_start));
            let measured = in_file
                .and_then(|by_name| by_name.get(&function.name))
                .or(filed_elsewhere.as_ref());
            let goals: Vec<&GoalJson> = function.goals.iter().collect();
            let predicted = Ratio {
                covered: goals.iter().filter(|g| g.covered).count(),
                total: goals.len(),
            };
            let mut check = FunctionCheck {
                name: function.name.clone(),
                tests: written.count(),
                failed,
                predicted,
                measured_branches: None,
                measured_lines: None,
                unmeasurable: vec![],
                contradicted_lines: vec![],
            };
            match measured {
                Some(measured) => {
                    let (covered, total) = measured.branches_covered();
                    check.measured_branches = Some(Ratio { covered, total });
                    let (covered, total) = measured.lines_covered();
                    check.measured_lines = Some(Ratio { covered, total });
                    let comparison = compare::compare(&goals, measured);
                    for claim in &comparison.unmeasured_claims {
                        let message = format!("{}: {}", function.name, claim.message);
                        self.problems
                            .push(Problem::new(ProblemKind::ClaimedNotMeasured, message));
                        check.contradicted_lines.push(claim.line);
                    }
                    check.unmeasurable = comparison
                        .unmeasurable
                        .iter()
                        .map(|note| note.message.clone())
                        .collect();
                    if path == self.listing.path {
                        self.listing.record_comparison(&comparison);
                    }
                }
                None if predicted.covered > 0 && self.passed.is_some() => {
                    self.problems.push(Problem::new(
                        ProblemKind::ClaimedNotMeasured,
                        format!(
                            "{}: gcov has no data for it in {}",
                            function.name,
                            path.display()
                        ),
                    ))
                }
                None => {}
            }
            self.functions.push(check);
        }
    }

    fn render(&self, out: &mut String) {
        let run = match (self.passed, self.failed) {
            (Some(p), Some(f)) => format!("{p} passed, {f} failed"),
            _ => "did not complete".to_string(),
        };
        let _ = writeln!(out, "{} ({}): {run}", self.source, self.driver);
        let width = self
            .functions
            .iter()
            .map(|f| f.name.len())
            .max()
            .unwrap_or(0)
            .max("function".len());
        let tests_of = |f: &FunctionCheck| match f.failed {
            0 => f.tests.to_string(),
            failed => format!("{} ({failed} failed)", f.tests),
        };
        let tests_width = self
            .functions
            .iter()
            .map(|f| tests_of(f).len())
            .max()
            .unwrap_or(0)
            .max("tests".len());
        let _ = writeln!(
            out,
            "  {:<width$}  {:>tests_width$}  {:>9}  {:>9}  {:>9}",
            "function", "tests", "predicted", "branches", "lines"
        );
        let show = |r: &Option<Ratio>| r.map(|r| r.to_string()).unwrap_or_else(|| "-".to_string());
        for f in &self.functions {
            let _ = writeln!(
                out,
                "  {:<width$}  {:>tests_width$}  {:>9}  {:>9}  {:>9}",
                f.name,
                tests_of(f),
                f.predicted.to_string(),
                show(&f.measured_branches),
                show(&f.measured_lines)
            );
        }
        if let Some(mcdc) = &self.mcdc {
            let _ = writeln!(
                out,
                "  MC/DC: {} of {} conditions shown independent as llvm-cov measured ({} claimed), in {} decisions",
                mcdc.measured, mcdc.conditions, mcdc.claimed, mcdc.decisions
            );
            for decision in &mcdc.not_measured {
                let _ = writeln!(
                    out,
                    "  note: llvm-cov does not measure the decision {decision}"
                );
            }
        }
        for problem in &self.problems {
            let _ = writeln!(out, "  problem ({}): {}", problem.kind, problem.message);
        }
        for f in &self.functions {
            for note in &f.unmeasurable {
                let _ = writeln!(out, "  note: {}: {note}", f.name);
            }
        }
        for note in &self.notes {
            let _ = writeln!(out, "  note: {note}");
        }
        for r in &self.reproducers {
            let verdict = match &r.evidence {
                Some(evidence) => format!("confirmed: {evidence}"),
                None => format!("NOT confirmed (it {}, no evidence)", r.ending),
            };
            let _ = writeln!(out, "  finding {} ({}): {verdict}", r.number, r.kind);
        }
    }
}

/// What the columns of [`CheckReport::table`] count.
const LEGEND: &str = "\
columns: tests = tests in the driver (and how many failed); predicted = branch
  directions cairn says its tests take / all of them; branches = branch directions
  gcov saw taken / all that gcov counts; lines = lines run / all, by gcov; - = not measured
";

/// A driver's `FAIL ...` lines: one per failed check, crashed or stopped test.
pub(crate) fn fail_lines(stdout: &str) -> Vec<String> {
    stdout
        .lines()
        .filter(|l| l.starts_with("FAIL "))
        .map(str::to_string)
        .collect()
}

/// `3 passed, 1 failed` -> (3, 1).
fn parse_summary(line: &str) -> Option<(usize, usize)> {
    let (passed, failed) = line.trim().split_once(" passed, ")?;
    Some((
        passed.parse().ok()?,
        failed.strip_suffix(" failed")?.parse().ok()?,
    ))
}

/// A FAIL line names this test (and not, say, `test_f_12` for `test_f_1`).
pub(crate) fn fails(line: &str, test: &str) -> bool {
    fail_message(line, test).is_some()
}

/// `FAIL test_f_1: MESSAGE` -> `MESSAGE`, for this test only.
fn fail_message<'l>(line: &'l str, test: &str) -> Option<&'l str> {
    tagged_line(line, "FAIL ", test)
}

/// What follows `TAG TEST:` in `line`, trimmed.
fn tagged_line<'l>(line: &'l str, tag: &str, test: &str) -> Option<&'l str> {
    line.strip_prefix(tag)
        .and_then(|rest| rest.strip_prefix(test))
        .and_then(|rest| rest.strip_prefix(':'))
        .map(str::trim)
}

/// `RESULT test_f_1: failed in 0.000812 s` (see emit's runner) -> the
/// outcome and seconds, for this test only.
fn parse_result(line: &str, test: &str) -> Option<(TestOutcome, f64)> {
    let (outcome, rest) = tagged_line(line, "RESULT ", test)?.split_once(" in ")?;
    let outcome = match outcome {
        "passed" => TestOutcome::Passed,
        "failed" => TestOutcome::Failed,
        "error" => TestOutcome::Error,
        "not-run" => TestOutcome::NotRun,
        _ => return None,
    };
    let seconds: f64 = rest.strip_suffix(" s")?.parse().ok()?;
    Some((outcome, seconds))
}

/// The findings of `tests.json`, with their files resolved against
/// `out_dir` and their paths placed by the function's goals.
fn finding_reports(tests: &TestsFile, out_dir: &Path, cc: &str) -> Vec<FindingReport> {
    let resolve = |file: &str| resolved(out_dir, file);
    let reproducer_file = tests.findings_driver.as_ref().map(|f| out_dir.join(f));
    let reproducers_text = reproducer_file
        .as_ref()
        .and_then(|file| std::fs::read_to_string(file).ok());
    let mut reports = Vec::new();
    for function in &tests.functions {
        for finding in &function.findings {
            // `location` is `file:line:col`; the file may contain colons.
            let file = finding
                .location
                .rsplitn(3, ':')
                .nth(2)
                .map_or_else(|| resolve(&function.file), resolve);
            reports.push(FindingReport {
                function: function.name.clone(),
                kind: finding.kind,
                file,
                line: finding.line,
                col: finding.col,
                message: finding.message.clone(),
                unvouched_inputs: finding.unvouched_inputs.clone(),
                reproducer: finding.reproducer,
                reproducer_command: finding
                    .reproducer
                    .and_then(|number| crate::reproducer_command(tests, out_dir, cc, number)),
                reproducer_file: finding.reproducer.and(reproducer_file.clone()),
                reproducer_code: finding.reproducer.and_then(|number| {
                    listing::reproducer_code(reproducers_text.as_deref()?, number)
                }),
                path: branch_steps(function, &finding.path_goals, out_dir),
            });
        }
    }
    reports
}

fn is_identifier(name: &str) -> bool {
    name.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

/// A file `tests.json` names, resolved against `out_dir`.
fn resolved(out_dir: &Path, file: &str) -> PathBuf {
    gcov::resolve(out_dir, file).unwrap_or_else(|| out_dir.join(file))
}

/// The goals of `function` with these keys, as branch directions in the source.
fn branch_steps(function: &FunctionJson, keys: &[String], out_dir: &Path) -> Vec<PathStep> {
    let goals: HashMap<&str, &GoalJson> =
        function.goals.iter().map(|g| (g.key.as_str(), g)).collect();
    keys.iter()
        .filter_map(|key| goals.get(key.as_str()))
        .map(|goal| PathStep {
            file: resolved(out_dir, &goal.file),
            line: goal.line,
            col: goal.col,
            label: goal.label.clone(),
        })
        .collect()
}

/// The source under test, before anything was measured: its text and the
/// engine's goals in it.
fn source_listing(tests: &TestsFile, out_dir: &Path) -> SourceListing {
    let path = resolved(out_dir, &tests.source_from_out);
    let text = std::fs::read_to_string(&path).map_err(|e| e.to_string());
    let mut listing = SourceListing::new(path, text);
    for goal in tests.functions.iter().flat_map(|f| &f.goals) {
        // Goals in a header the source includes are not on its lines.
        if resolved(out_dir, &goal.file) == listing.path {
            listing
                .goals
                .entry(goal.line)
                .or_default()
                .push(goal.clone());
        }
    }
    listing
}

fn last_lines(text: &str, n: usize) -> String {
    let lines: Vec<&str> = text.lines().collect();
    lines[lines.len().saturating_sub(n)..].join("\n")
}

/// A checked file for the writers' tests: `clamp` with a passing, a
/// failing, a crashed and a skipped test, and `ratio` with a confirmed
/// division by zero on the path through one branch.
#[cfg(test)]
pub(crate) fn sample_file_check(out_dir: &Path) -> FileCheck {
    let goal = |key: &str, line: u32, label: &str| {
        serde_json::json!({ "key": key, "file": "../m.c", "line": line, "col": 9,
            "label": label, "site": 0, "target": 1, "covered": true, "reason": null })
    };
    let test = |name: &str, skipped: Option<&str>| {
        serde_json::json!({ "name": name, "skipped": skipped, "inputs": {
            "args": [], "globals": [], "objects": [], "stubs": [] },
            "expected_return": 1, "checks": [], "covers": [], "path_goals": [] })
    };
    let tests: TestsFile = serde_json::from_value(serde_json::json!({
        "format": testcase::json::FORMAT, "source": "m.c", "source_from_out": "../m.c",
        "driver": "m_test.c", "findings_driver": "m_findings.c", "notes": [],
        "functions": [
            { "name": "clamp", "file": "../m.c", "line": 1, "findings": [],
              "goals": [goal("clamp:2:9:T", 2, "x < lo: true")],
              "tests": [test("test_clamp_1", None), test("test_clamp_2", None),
                        test("test_clamp_3", None), test("test_clamp_4", Some("a float input"))],
              "stats": { "paths": 1, "solver_calls": 1, "elapsed_ms": 1 } },
            { "name": "ratio", "file": "../m.c", "line": 9,
              "goals": [goal("ratio:10:9:F", 10, "b < 0: false")], "tests": [],
              "findings": [{ "kind": "division-by-zero", "location": "../m.c:11:14",
                  "line": 11, "col": 14, "message": "divisor b is 0 <&>",
                  "inputs": { "args": [], "globals": [], "objects": [], "stubs": [] },
                  "reproducer": 1, "path_goals": ["ratio:10:9:F"] }],
              "stats": { "paths": 1, "solver_calls": 1, "elapsed_ms": 1 } }
        ]
    }))
    .expect("a valid tests file");
    let mut file = FileCheck::new(&tests, "m", out_dir, "gcc");
    file.record_run(&Ran {
        status: Ending::Exited(1),
        stdout: "RESULT test_clamp_1: passed in 0.000400 s\n\
            FAIL test_clamp_2: clamp(5, 1, 3) returned 5, expected 3 <\"&\">\n\
            RESULT test_clamp_2: failed in 0.000500 s\n\
            FAIL test_clamp_3: killed by signal SIGSEGV (segmentation fault)\n\
            RESULT test_clamp_3: error in 0.001000 s\n\
            1 passed, 2 failed\n"
            .to_string(),
        stderr: String::new(),
    });
    file.reproducers.push(ReproducerRun {
        number: 1,
        kind: FindingKind::DivisionByZero,
        confirmed: true,
        evidence: Some("the sanitizers report: division by zero".to_string()),
        output: String::new(),
        ending: Ending::Signal(8),
    });
    file
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_test_gets_its_outcome_time_and_failed_checks() {
        let file = sample_file_check(Path::new("/out"));
        let outcomes: Vec<_> = file
            .tests
            .iter()
            .map(|t| (t.name.as_str(), t.outcome, t.seconds))
            .collect();
        assert_eq!(
            outcomes,
            [
                ("test_clamp_1", TestOutcome::Passed, Some(0.0004)),
                ("test_clamp_2", TestOutcome::Failed, Some(0.0005)),
                ("test_clamp_3", TestOutcome::Error, Some(0.001)),
                ("test_clamp_4", TestOutcome::Skipped, None),
            ]
        );
        assert_eq!(
            file.tests[1].messages,
            ["clamp(5, 1, 3) returned 5, expected 3 <\"&\">"]
        );
        assert_eq!(file.findings[0].path[0].label, "b < 0: false");
        assert_eq!(file.findings[0].file, Path::new("/out/../m.c"));
        assert!(file.findings[0]
            .reproducer_command
            .as_deref()
            .is_some_and(|c| c.ends_with("/out/m_findings.c -o m_findings -lm && ./m_findings 1")));
    }

    /// A test the driver did not run is never passed: a `not-run` RESULT
    /// line says so, and so does a driver stopped before a test ended.
    #[test]
    fn tests_a_driver_did_not_run_are_not_run_with_the_reason() {
        let mut file = sample_file_check(Path::new("/out"));
        file.record_run(&Ran {
            status: Ending::Exited(1),
            stdout: "FAIL test_clamp_1: did not finish within 10 s\n\
                RESULT test_clamp_1: error in 15.000000 s\n\
                FAIL test_clamp_2: not run: the run stopped after tests did not finish within 10 s, 1 in a row\n\
                RESULT test_clamp_2: not-run in 0.000000 s\n\
                0 passed, 3 failed\n"
                .to_string(),
            stderr: String::new(),
        });
        assert_eq!(file.tests[1].outcome, TestOutcome::NotRun);
        assert!(file.tests[1].messages[0].starts_with("not run: "));
        let mut file = sample_file_check(Path::new("/out"));
        file.record_run(&Ran {
            status: Ending::TimedOut(std::time::Duration::from_secs(90)),
            stdout: "RESULT test_clamp_1: passed in 0.000400 s\n".to_string(),
            stderr: String::new(),
        });
        let outcomes: Vec<_> = file.tests.iter().map(|t| t.outcome).collect();
        assert_eq!(
            outcomes,
            [
                TestOutcome::Passed,
                TestOutcome::NotRun,
                TestOutcome::NotRun,
                TestOutcome::Skipped
            ]
        );
        assert_eq!(
            file.tests[2].messages,
            ["not run to its end: the driver was stopped at its time limit of 90 s first"]
        );
    }

    #[test]
    fn the_table_says_in_words_how_many_tests_failed_and_explains_its_columns() {
        let mut file = sample_file_check(Path::new("/out"));
        file.functions.push(FunctionCheck {
            name: "clamp".to_string(),
            tests: 3,
            failed: 2,
            predicted: Ratio {
                covered: 1,
                total: 2,
            },
            measured_branches: None,
            measured_lines: None,
            unmeasurable: vec![],
            contradicted_lines: vec![],
        });
        let table = CheckReport { files: vec![file] }.table();
        assert!(table.contains("  clamp     3 (2 failed)  "), "{table}");
        assert!(
            table.contains("columns: tests = tests in the driver"),
            "{table}"
        );
    }

    #[test]
    fn only_c_identifiers_name_a_picture_file() {
        assert!(is_identifier("test_f_1") && is_identifier("_t9"));
        assert!(!is_identifier("../x") && !is_identifier("9t") && !is_identifier(""));
    }

    #[test]
    fn reads_the_summary_and_fail_lines() {
        assert_eq!(parse_summary("12 passed, 0 failed"), Some((12, 0)));
        assert_eq!(parse_summary("x passed, 0 failed"), None);
        assert!(fails(
            "FAIL test_f_1: f(...) returned 2, expected 1",
            "test_f_1"
        ));
        assert!(!fails(
            "FAIL test_f_12: f(...) returned 2, expected 1",
            "test_f_1"
        ));
    }
}
