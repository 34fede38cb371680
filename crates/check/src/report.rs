//! The check report: measured next to predicted, problems, rendering.

use crate::compare;
use crate::gcov::{self, Coverage};
use crate::run::{Ending, Ran};
use serde::Serialize;
use std::fmt::Write;
use std::path::Path;
use testcase::json::{GoalJson, TestsFile};

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

#[derive(Clone, Debug, Serialize)]
pub struct FileCheck {
    pub source: String,
    pub driver: String,
    pub passed: Option<usize>,
    pub failed: Option<usize>,
    pub functions: Vec<FunctionCheck>,
    pub problems: Vec<Problem>,
    /// The driver's `FAIL ...` lines.
    pub failures: Vec<String>,
    pub reproducers: Vec<ReproducerRun>,
    /// Facts worth knowing that are not problems.
    pub notes: Vec<String>,
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
    pub(crate) fn new(tests: &TestsFile) -> Self {
        FileCheck {
            source: tests.source.clone(),
            driver: tests.driver.clone(),
            passed: None,
            failed: None,
            functions: vec![],
            problems: vec![],
            failures: vec![],
            reproducers: vec![],
            notes: vec![],
        }
    }

    /// Reads the driver's summary line and FAIL lines.
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
        for function in &tests.functions {
            let written = function.tests.iter().filter(|t| t.skipped.is_none());
            let failed = written
                .clone()
                .filter(|t| self.failures.iter().any(|l| fails(l, &t.name)))
                .count();
            let path = gcov::resolve(out_dir, &function.file)
                .unwrap_or_else(|| out_dir.join(&function.file));
            let measured =
                gcov::functions_of(coverage, &path).and_then(|by_name| by_name.get(&function.name));
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
            };
            match measured {
                Some(measured) => {
                    let (covered, total) = measured.branches_covered();
                    check.measured_branches = Some(Ratio { covered, total });
                    let (covered, total) = measured.lines_covered();
                    check.measured_lines = Some(Ratio { covered, total });
                    let comparison = compare::compare(&goals, measured);
                    for claim in comparison.unmeasured_claims {
                        let message = format!("{}: {claim}", function.name);
                        self.problems
                            .push(Problem::new(ProblemKind::ClaimedNotMeasured, message));
                    }
                    check.unmeasurable = comparison.unmeasurable;
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
        let _ = writeln!(
            out,
            "  {:<width$}  {:>5}  {:>9}  {:>9}  {:>9}",
            "function", "tests", "predicted", "branches", "lines"
        );
        let show = |r: &Option<Ratio>| r.map(|r| r.to_string()).unwrap_or_else(|| "-".to_string());
        for f in &self.functions {
            let tests = if f.failed > 0 {
                format!("{}!{}", f.tests, f.failed)
            } else {
                f.tests.to_string()
            };
            let _ = writeln!(
                out,
                "  {:<width$}  {:>5}  {:>9}  {:>9}  {:>9}",
                f.name,
                tests,
                f.predicted.to_string(),
                show(&f.measured_branches),
                show(&f.measured_lines)
            );
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
fn fails(line: &str, test: &str) -> bool {
    line.strip_prefix("FAIL ")
        .and_then(|rest| rest.strip_prefix(test))
        .is_some_and(|rest| rest.starts_with(':'))
}

fn last_lines(text: &str, n: usize) -> String {
    let lines: Vec<&str> = text.lines().collect();
    lines[lines.len().saturating_sub(n)..].join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

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
