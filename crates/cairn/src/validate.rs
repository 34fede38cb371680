//! Running what `gen` wrote before handing it over: a test cairn writes
//! must pass against the code it came from, a branch it claims must be one
//! gcov sees taken, and a finding it reports must be one its reproducer
//! shows. The engine may be wrong (a C library function it models
//! differently from the real one, a stream, a bound); where a run
//! contradicts it, the test is left out and the claim withdrawn, each with
//! the reason, so the outputs say only what running them showed.

use crate::UsageError;
use ir::Goal;
use std::collections::BTreeSet;
use std::path::Path;
use testcase::json::TestsFile;
use testcase::{DroppedTest, FunctionReport, TestCase, Uncovered};

/// How often a file's outputs are run and corrected: leaving tests out
/// changes nothing the others do, so a second run only confirms.
pub const ROUNDS: usize = 3;

/// A run of a driver stops once this many tests in a row did not finish
/// within their time limit (10 s each): the tests after them are left out
/// unrun, with the reason. A library whose tests all hang (its code waits
/// on a socket the tests never open) then costs two time limits a driver
/// run, not one per test; tests that hang one by one among others that
/// finish still all run.
const STOP_AFTER_TIMEOUTS: u32 = 2;

/// Runs the outputs of one source file in `out_dir` (`<stem>.tests.json`,
/// its driver and reproducers, built with gcov and with the sanitizers)
/// and records in `reports` what the run contradicts, and in `unresolved`
/// the symbols the linker found no definition of (the drivers then define
/// them). Returns whether it changed anything (the outputs must then be
/// written again).
pub fn refute(
    program: &ir::Program,
    reports: &mut [FunctionReport],
    unresolved: &mut emit::Unresolved,
    out_dir: &Path,
    stem: &str,
) -> Result<bool, UsageError> {
    // The builds run in directories of their own: paths must not be relative.
    let out_dir = &out_dir.canonicalize()?;
    let json = out_dir.join(format!("{stem}.tests.json"));
    let tests = check::read_tests_file(&json)?;
    let config = check::CheckConfig {
        sanitize: true,
        stop_after_timeouts: Some(STOP_AFTER_TIMEOUTS),
        ..check::CheckConfig::default()
    };
    let ran = check::check_file(out_dir, &json, &config);
    // The builds are check's: the output directory holds only what gen writes.
    let _ = std::fs::remove_dir_all(out_dir.join(".cairn-build"));
    let ran = ran?;
    let mut changed = false;
    for symbol in &ran.unresolved_symbols {
        changed |= unresolved.symbols.insert(symbol.clone());
    }
    for symbol in &ran.thread_local_symbols {
        changed |= unresolved.thread_local.insert(symbol.clone());
    }
    for report in reports.iter_mut() {
        let name = &program.function(report.func).name;
        let Some(function) = tests.functions.iter().find(|f| &f.name == name) else {
            continue;
        };
        changed |= drop_failing_tests(report, function, &ran);
        if let Some(measured) = ran.functions.iter().find(|f| &f.name == name) {
            changed |= withdraw_claims(program, report, &measured.contradicted_lines);
        }
        changed |= mark_unconfirmed_findings(report, function, &tests, &ran);
    }
    Ok(changed)
}

/// Leaves out the tests that failed, crashed, broke a sanitizer's rule, did
/// not compile or did not run (the driver stopped before them, or after too
/// many tests that did not finish): nothing vouches for a test that did not
/// run. Goals only they covered become uncovered with why.
fn drop_failing_tests(
    report: &mut FunctionReport,
    function: &testcase::json::FunctionJson,
    ran: &check::FileCheck,
) -> bool {
    let mut failing: Vec<(usize, String)> = Vec::new();
    for (index, test) in function.tests.iter().enumerate() {
        if test.skipped.is_some() {
            continue;
        }
        if ran.functions_not_compiling.contains(&test.name) {
            failing.push((index, "its code does not compile".to_string()));
            continue;
        }
        let Some(run) = ran
            .tests
            .iter()
            .find(|r| r.name == test.name && r.function == function.name)
        else {
            continue;
        };
        let not_run = run.outcome == check::TestOutcome::NotRun && !run.messages.is_empty();
        if not_run
            || matches!(
                run.outcome,
                check::TestOutcome::Failed | check::TestOutcome::Error
            )
        {
            let why = match run.messages.as_slice() {
                [] => "it failed".to_string(),
                messages => messages.join("; "),
            };
            failing.push((index, why));
        }
    }
    if failing.is_empty() || function.tests.len() != report.tests.len() {
        return false;
    }
    let before = covered_goals(&report.tests);
    let mut dropped = Vec::new();
    for (index, why) in failing.iter().rev() {
        let test = report.tests.remove(*index);
        dropped.push((test, function.tests[*index].name.clone(), why.clone()));
    }
    let after = covered_goals(&report.tests);
    for goal in before.difference(&after) {
        let Some((_, name, why)) = dropped.iter().find(|(t, _, _)| covers(t, goal)) else {
            continue;
        };
        let reason = format!("running {name} against the code contradicted the engine: {why}");
        report.uncovered.push((*goal, Uncovered::Refuted(reason)));
    }
    if report.tests.is_empty() {
        if let Some((_, name, why)) = dropped.last() {
            let reason = format!("running {name} against the code contradicted the engine: {why}");
            report.untested = Some(Uncovered::Refuted(reason));
        }
    }
    for (_, name, reason) in dropped.into_iter().rev() {
        report.dropped_tests.push(DroppedTest { name, reason });
    }
    true
}

/// Withdraws the claims on the lines where gcov saw fewer branches taken
/// than the engine claims: no test claims them any more.
fn withdraw_claims(program: &ir::Program, report: &mut FunctionReport, lines: &[u32]) -> bool {
    if lines.is_empty() {
        return false;
    }
    let claimed = covered_goals(&report.tests);
    let withdrawn: BTreeSet<Goal> = ir::goal_infos(program, &report.goals)
        .into_values()
        .filter(|info| lines.contains(&info.span.line) && claimed.contains(&info.goal))
        .map(|info| info.goal)
        .collect();
    if withdrawn.is_empty() {
        return false;
    }
    for test in &mut report.tests {
        test.path_goals.retain(|g| !withdrawn.contains(g));
        test.new_goals.retain(|g| !withdrawn.contains(g));
    }
    for goal in withdrawn {
        let reason = "gcov did not see it taken when cairn ran the tests".to_string();
        report.uncovered.push((goal, Uncovered::Refuted(reason)));
    }
    true
}

/// A finding whose reproducer ran without showing the fault, could not be
/// built or could not be written, is no claim: it says why.
fn mark_unconfirmed_findings(
    report: &mut FunctionReport,
    function: &testcase::json::FunctionJson,
    tests: &TestsFile,
    ran: &check::FileCheck,
) -> bool {
    if function.findings.len() != report.findings.len() || tests.findings_driver.is_none() {
        return false;
    }
    let mut changed = false;
    for (finding, written) in report.findings.iter_mut().zip(&function.findings) {
        if finding.not_confirmed.is_some() {
            continue;
        }
        let why = match written.reproducer.map(|number| ran.reproducer_run(number)) {
            Some(Some(run)) if run.confirmed => continue,
            Some(Some(run)) => {
                format!("its reproducer {} and nothing showed the fault", run.ending)
            }
            Some(None) => "its reproducer could not be built".to_string(),
            // The findings file says why (an input no call of the API builds).
            None => "no reproducer could be written for it".to_string(),
        };
        finding.not_confirmed = Some(why);
        changed = true;
    }
    changed
}

/// Every goal some test claims.
fn covered_goals(tests: &[TestCase]) -> BTreeSet<Goal> {
    tests
        .iter()
        .flat_map(|t| t.path_goals.iter().chain(&t.new_goals))
        .copied()
        .collect()
}

fn covers(test: &TestCase, goal: &Goal) -> bool {
    test.path_goals.contains(goal) || test.new_goals.contains(goal)
}
