//! MC/DC measured by an independent tool: the driver built with clang's
//! MC/DC instrumentation (`-fprofile-instr-generate -fcoverage-mapping
//! -fcoverage-mcdc`, clang 18 or later), run, and `llvm-cov export`'s
//! `mcdc_records` compared with the decisions `gen --coverage mcdc`
//! claims, as gcov's branches are compared with the branch claims.
//!
//! A decision of tests.json is matched with llvm-cov's record that starts
//! at its line and column; a condition cairn claims shown independent that
//! llvm-cov does not count so is a problem.

use crate::frameworks;
use crate::report::{fail_lines, fails, FileCheck, Problem, ProblemKind};
use crate::run::{self, Limits};
use crate::{build_driver, driver_command, driver_time_limit, error, fresh_build_dir};
use crate::{tool_output, CheckConfig, CheckError};
use serde::Serialize;
use std::path::Path;
use std::process::Command;
use testcase::json::TestsFile;

/// What llvm-cov measured of the decisions of one file, next to the claims.
#[derive(Clone, Debug, Default, Serialize)]
pub struct McdcCheck {
    /// Decisions of the file cairn reported (`gen --coverage mcdc`).
    pub decisions: usize,
    /// Their conditions.
    pub conditions: usize,
    /// Conditions cairn claims its tests show independent.
    pub claimed: usize,
    /// Conditions llvm-cov measured shown independent, of the decisions
    /// it measured.
    pub measured: usize,
    /// Decisions llvm-cov has no record for (as `file:line:col: text`).
    pub not_measured: Vec<String>,
    /// Every decision with each condition's claim and measure (for the HTML report).
    pub each: Vec<MeasuredDecision>,
}

#[derive(Clone, Debug, Serialize)]
pub struct MeasuredDecision {
    pub function: String,
    pub line: u32,
    pub text: String,
    pub conditions: Vec<MeasuredCondition>,
}

#[derive(Clone, Debug, Serialize)]
pub struct MeasuredCondition {
    pub text: String,
    /// The two tests cairn says show it independent.
    pub shown_by: Option<(String, String)>,
    /// Why no pair does, by cairn's account.
    pub reason: Option<String>,
    /// Whether llvm-cov counts it shown (None: the decision is not measured).
    pub measured: Option<bool>,
}

/// The clang, llvm-profdata and llvm-cov of one LLVM release that has
/// MC/DC (18 or later): the versioned names Debian installs first.
struct Tools {
    clang: String,
    profdata: String,
    cov: String,
}

fn tools() -> Option<Tools> {
    ["-19", "-18", "-20", ""].into_iter().find_map(|suffix| {
        let version = Command::new(format!("clang{suffix}"))
            .arg("-dumpversion")
            .output()
            .ok()?;
        let major: u32 = String::from_utf8_lossy(&version.stdout)
            .trim()
            .split('.')
            .next()?
            .parse()
            .ok()?;
        let tools = Tools {
            clang: format!("clang{suffix}"),
            profdata: format!("llvm-profdata{suffix}"),
            cov: format!("llvm-cov{suffix}"),
        };
        let runs = |tool: &str| Command::new(tool).arg("--version").output().is_ok();
        (major >= 18 && runs(&tools.profdata) && runs(&tools.cov)).then_some(tools)
    })
}

/// Builds and runs the driver of `tests` with MC/DC instrumentation and
/// records what llvm-cov measured in `result.mcdc`.
pub(crate) fn check_mcdc(
    out_dir: &Path,
    stem: &str,
    tests: &TestsFile,
    config: &CheckConfig,
    result: &mut FileCheck,
) -> Result<(), CheckError> {
    let Some(tools) = tools() else {
        result.problems.push(Problem::new(
            ProblemKind::Coverage,
            "MC/DC needs clang 18 or later with llvm-profdata and llvm-cov \
             (on Debian 12: apt-get install clang-19 llvm-19)",
        ));
        return Ok(());
    };
    let build = fresh_build_dir(out_dir, &format!("{stem}-mcdc"))?;
    let flags = [
        "-fprofile-instr-generate",
        "-fcoverage-mapping",
        "-fcoverage-mcdc",
        "-O0",
        "-g",
    ]
    .map(String::from);
    let clang_config = CheckConfig {
        cc: tools.clang.clone(),
        ..config.clone()
    };
    if !build_driver(
        &clang_config,
        tests,
        out_dir,
        &build,
        &flags,
        "compile-mcdc",
        result,
    )? {
        return Ok(());
    }
    let binary = build.join("driver");
    let profile = build.join("driver-%p.profraw");
    let ran = run::run(
        driver_command(&binary, config).env("LLVM_PROFILE_FILE", &profile),
        &build,
        "driver-mcdc",
        Limits::program(driver_time_limit(tests)),
    )
    .map_err(|m| error(&binary, m))?;
    let failing = fail_lines(&frameworks::as_runner_output(tests.framework, &ran).stdout);
    match measured_records(&build, &tools) {
        Ok(records) => {
            let source = out_dir.join(&tests.source_from_out);
            let source = source.canonicalize().unwrap_or(source);
            result.mcdc = Some(compare(tests, &records, &source, &failing, result));
        }
        Err(message) => result
            .problems
            .push(Problem::new(ProblemKind::Coverage, message)),
    }
    Ok(())
}

/// One decision as llvm-cov reports it.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Record {
    file: String,
    line: u32,
    col: u32,
    /// Per condition (in source order): shown independent.
    shown: Vec<bool>,
}

/// Merges the profiles the driver's processes wrote and reads llvm-cov's
/// MC/DC records of every file.
fn measured_records(build: &Path, tools: &Tools) -> Result<Vec<Record>, String> {
    let profiles: Vec<_> = std::fs::read_dir(build)
        .map_err(|e| format!("{}: {e}", build.display()))?
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "profraw"))
        .collect();
    if profiles.is_empty() {
        return Err("the MC/DC driver wrote no profile (it did not exit normally)".to_string());
    }
    let merged = build.join("driver.profdata");
    let mut merge = Command::new(&tools.profdata);
    merge
        .args(["merge", "-sparse"])
        .args(&profiles)
        .arg("-o")
        .arg(&merged);
    tool_output(&mut merge, build, &tools.profdata)?;
    let mut export = Command::new(&tools.cov);
    export
        .args([
            "export",
            "-format=text",
            "-skip-expansions",
            "-instr-profile",
        ])
        .arg(&merged)
        .arg(build.join("driver"));
    let exported = tool_output(&mut export, build, &tools.cov)?;
    parse(&exported)
}

/// The `mcdc_records` of every file of an `llvm-cov export` JSON: each
/// `[line, col, end line, end col, file id, kind, [shown...]]`.
fn parse(json: &str) -> Result<Vec<Record>, String> {
    let value: serde_json::Value =
        serde_json::from_str(json).map_err(|e| format!("unreadable llvm-cov JSON: {e}"))?;
    let files = value["data"]
        .as_array()
        .into_iter()
        .flatten()
        .flat_map(|export| export["files"].as_array().into_iter().flatten());
    let mut records = Vec::new();
    for file in files {
        let name = file["filename"].as_str().unwrap_or_default();
        for record in file["mcdc_records"].as_array().into_iter().flatten() {
            let number = |i: usize| record[i].as_u64().and_then(|n| u32::try_from(n).ok());
            let (Some(line), Some(col)) = (number(0), number(1)) else {
                continue;
            };
            let shown = record
                .as_array()
                .and_then(|fields| fields.iter().find_map(|f| f.as_array()))
                .map(|bools| bools.iter().map(|b| b.as_bool() == Some(true)).collect())
                .unwrap_or_default();
            records.push(Record {
                file: name.to_string(),
                line,
                col,
                shown,
            });
        }
    }
    Ok(records)
}

/// Compares the decisions of `tests` with llvm-cov's records of `source`;
/// a condition claimed and not measured is a problem of `result`, unless
/// tests of its function fail when clang builds them (`failing`: the
/// driver's `FAIL` lines): where gcc and clang compile the code
/// differently, as with the width of arithmetic on bit-fields, llvm-cov
/// measures another program, and a note says so.
fn compare(
    tests: &TestsFile,
    records: &[Record],
    source: &Path,
    failing: &[String],
    result: &mut FileCheck,
) -> McdcCheck {
    let of_source: Vec<&Record> = records
        .iter()
        .filter(|r| Path::new(&r.file) == source)
        .collect();
    let mut check = McdcCheck::default();
    for function in &tests.functions {
        for decision in &function.decisions {
            check.decisions += 1;
            check.conditions += decision.conditions.len();
            let claimed: Vec<bool> = decision
                .conditions
                .iter()
                .map(|c| c.shown_by.is_some())
                .collect();
            check.claimed += claimed.iter().filter(|&&c| c).count();
            let place = format!(
                "{}:{}:{}: `{}`",
                decision.file, decision.line, decision.col, decision.text
            );
            let record = matching_record(&of_source, &function.decisions, decision);
            check.each.push(MeasuredDecision {
                function: function.name.clone(),
                line: decision.line,
                text: decision.text.clone(),
                conditions: decision
                    .conditions
                    .iter()
                    .enumerate()
                    .map(|(k, c)| MeasuredCondition {
                        text: c.text.clone(),
                        shown_by: c.shown_by.clone(),
                        reason: c.reason.clone(),
                        measured: record.map(|r| r.shown[k]),
                    })
                    .collect(),
            });
            let Some(record) = record else {
                check.not_measured.push(place);
                continue;
            };
            check.measured += record.shown.iter().filter(|&&s| s).count();
            let contradicted: Vec<&str> = decision
                .conditions
                .iter()
                .zip(&record.shown)
                .filter(|(c, &shown)| c.shown_by.is_some() && !shown)
                .map(|(c, _)| c.text.as_str())
                .collect();
            if contradicted.is_empty() {
                continue;
            }
            let message = format!(
                "{place}: llvm-cov does not count {} shown independent",
                contradicted.join(", ")
            );
            let failed_under_clang: Vec<&str> = function
                .tests
                .iter()
                .filter(|t| failing.iter().any(|line| fails(line, &t.name)))
                .map(|t| t.name.as_str())
                .collect();
            match failed_under_clang.as_slice() {
                [] => result
                    .problems
                    .push(Problem::new(ProblemKind::ClaimedNotMeasured, message)),
                names => result.notes.push(format!(
                    "{message}; built by clang, {} test(s) of {} fail (such as {}), as gcc and clang \
                     compile this code differently",
                    names.len(),
                    function.name,
                    names[0]
                )),
            }
        }
    }
    check
}

/// llvm-cov's record of `decision`: the one starting where it starts,
/// or else the only one on its line when it is the only decision there
/// (a macro's expansion can move the column), with as many conditions.
fn matching_record<'r>(
    records: &[&'r Record],
    decisions: &[testcase::json::DecisionJson],
    decision: &testcase::json::DecisionJson,
) -> Option<&'r Record> {
    let fits = |r: &&&Record| r.line == decision.line && r.shown.len() == decision.conditions.len();
    let exact = records.iter().filter(fits).find(|r| r.col == decision.col);
    let on_line: Vec<&&Record> = records.iter().filter(|r| r.line == decision.line).collect();
    let ours_on_line = decisions.iter().filter(|d| d.line == decision.line).count();
    let only = match (on_line.as_slice(), ours_on_line) {
        ([record], 1) => Some(*record).filter(fits),
        _ => None,
    };
    exact.or(only).copied()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_are_read_with_their_conditions() {
        let json = r#"{"data":[{"files":[{"filename":"/s/a.c","mcdc_records":[
            [2, 7, 2, 32, 0, 5, [true, false, true]]]}]}]}"#;
        let records = parse(json).unwrap();
        assert_eq!(
            records,
            [Record {
                file: "/s/a.c".to_string(),
                line: 2,
                col: 7,
                shown: vec![true, false, true],
            }]
        );
        assert!(parse("not json").is_err());
    }
}
