//! What `cairn gen` prints: a table per file (function, tests, branches
//! covered/total, findings) and the findings themselves.

use serde::Serialize;
use std::fmt::Write;
use std::path::{Path, PathBuf};
use testcase::json::TestsFile;

#[derive(Clone, Debug, Serialize)]
pub struct EmitSummary {
    pub source: PathBuf,
    pub driver: PathBuf,
    pub tests_json: PathBuf,
    pub findings_driver: Option<PathBuf>,
    pub functions: Vec<FunctionSummary>,
    pub findings: Vec<FindingSummary>,
    /// Tests, stubs or reproducers the generated C could not express.
    pub notes: Vec<String>,
}

#[derive(Clone, Debug, Serialize)]
pub struct FunctionSummary {
    pub name: String,
    pub tests: usize,
    pub branches_covered: usize,
    pub branches_total: usize,
    /// Findings on valid inputs.
    pub findings: usize,
    /// Findings on inputs no declared invariant vouches for.
    pub unchecked_findings: usize,
    /// Tests left out because running them contradicted the engine.
    pub dropped_tests: usize,
    /// Tests whose path ran C library functions natively, on inputs
    /// concretised for them.
    pub native_tests: usize,
    /// Those functions, each once.
    pub run_natively: Vec<String>,
    /// Why the function has no test, when it has none.
    pub untested: Option<String>,
    /// Under `--coverage mcdc`: conditions of its decisions the tests show
    /// independent, and all of them.
    pub conditions_shown: usize,
    pub conditions_total: usize,
    /// Each condition no test shows independent: `line:col: `condition`
    /// in `decision`: why`.
    pub conditions_not_shown: Vec<String>,
}

#[derive(Clone, Debug, Serialize)]
pub struct FindingSummary {
    pub function: String,
    pub kind: testcase::FindingKind,
    pub location: String,
    pub message: String,
    pub reproducer: Option<u32>,
    /// Struct types the inputs build freely (empty: valid inputs).
    pub unvouched_inputs: Vec<String>,
    /// Why its reproducer did not show the fault when cairn ran it.
    pub not_confirmed: Option<String>,
}

pub(crate) fn summarize(
    file: &TestsFile,
    source: &Path,
    driver: PathBuf,
    tests_json: PathBuf,
    findings_driver: Option<PathBuf>,
    notes: Vec<String>,
) -> EmitSummary {
    let functions = file
        .functions
        .iter()
        .map(|f| FunctionSummary {
            name: f.name.clone(),
            tests: kept(f).count(),
            branches_covered: f.goals.iter().filter(|g| g.covered).count(),
            branches_total: f.goals.len(),
            findings: f
                .findings
                .iter()
                .filter(|x| x.unvouched_inputs.is_empty() && x.not_confirmed.is_none())
                .count(),
            unchecked_findings: f
                .findings
                .iter()
                .filter(|x| !x.unvouched_inputs.is_empty() && x.not_confirmed.is_none())
                .count(),
            dropped_tests: f.dropped_tests.len(),
            native_tests: kept(f).filter(|t| !t.native_calls.is_empty()).count(),
            run_natively: {
                let mut names: Vec<String> = kept(f)
                    .flat_map(|t| t.native_calls.iter().map(|c| c.function.clone()))
                    .collect();
                names.sort_unstable();
                names.dedup();
                names
            },
            untested: f.untested.clone().filter(|_| kept(f).next().is_none()),
            conditions_shown: f
                .decisions
                .iter()
                .flat_map(|d| &d.conditions)
                .filter(|c| c.shown_by.is_some())
                .count(),
            conditions_total: f.decisions.iter().map(|d| d.conditions.len()).sum(),
            conditions_not_shown: f
                .decisions
                .iter()
                .flat_map(|d| d.conditions.iter().map(move |c| (d, c)))
                .filter(|(_, c)| c.shown_by.is_none())
                .map(|(d, c)| {
                    let why = c.reason.as_deref().unwrap_or("no pair of tests shows it");
                    format!("{}:{}: `{}` in `{}`: {why}", c.line, c.col, c.text, d.text)
                })
                .collect(),
        })
        .collect();
    let findings = file
        .functions
        .iter()
        .flat_map(|f| {
            f.findings.iter().map(|x| FindingSummary {
                function: f.name.clone(),
                kind: x.kind,
                // The JSON names files relative to OUT; a person reads them from where cairn ran.
                location: match x.location.strip_prefix(&file.source_from_out) {
                    Some(rest) => format!("{}{rest}", file.source),
                    None => x.location.clone(),
                },
                message: x.message.clone(),
                reproducer: x.reproducer,
                unvouched_inputs: x.unvouched_inputs.clone(),
                not_confirmed: x.not_confirmed.clone(),
            })
        })
        .collect();
    EmitSummary {
        source: source.to_path_buf(),
        driver,
        tests_json,
        findings_driver,
        functions,
        findings,
        notes,
    }
}

/// The tests of `f` the driver runs.
fn kept(f: &testcase::json::FunctionJson) -> impl Iterator<Item = &testcase::json::TestJson> {
    f.tests.iter().filter(|t| t.skipped.is_none())
}

/// The plain-text table for a terminal. The findings column counts findings
/// on valid inputs; `all_findings` also lists those on inputs no declared
/// invariant vouches for, labelled (otherwise one line says how many).
pub fn summary_table(summary: &EmitSummary, all_findings: bool) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "{}", summary.source.display());
    let width = summary
        .functions
        .iter()
        .map(|f| f.name.len())
        .max()
        .unwrap_or(0)
        .max("function".len());
    // The MC/DC column appears when some function has decisions.
    let mcdc = summary.functions.iter().any(|f| f.conditions_total > 0);
    let row = |out: &mut String,
               name: &str,
               tests: &str,
               branches: &str,
               mcdc_cell: &str,
               findings: &str| {
        let mcdc_cell = if mcdc {
            format!("  {mcdc_cell:>9}")
        } else {
            String::new()
        };
        let _ = writeln!(
            out,
            "  {name:<width$}  {tests:>5}  {branches:>9}{mcdc_cell}  {findings:>8}"
        );
    };
    row(
        &mut out, "function", "tests", "branches", "MC/DC", "findings",
    );
    let (mut tests, mut covered, mut total, mut findings) = (0, 0, 0, 0);
    let (mut shown, mut conditions) = (0, 0);
    for f in &summary.functions {
        let branches = format!("{}/{}", f.branches_covered, f.branches_total);
        let mcdc_cell = match f.conditions_total {
            0 => "-".to_string(),
            n => format!("{}/{n}", f.conditions_shown),
        };
        row(
            &mut out,
            &f.name,
            &f.tests.to_string(),
            &branches,
            &mcdc_cell,
            &f.findings.to_string(),
        );
        tests += f.tests;
        covered += f.branches_covered;
        total += f.branches_total;
        findings += f.findings;
        shown += f.conditions_shown;
        conditions += f.conditions_total;
    }
    if summary.functions.len() > 1 {
        let branches = format!("{covered}/{total}");
        let mcdc_cell = format!("{shown}/{conditions}");
        row(
            &mut out,
            "total",
            &tests.to_string(),
            &branches,
            &mcdc_cell,
            &findings.to_string(),
        );
    }
    for f in &summary.functions {
        for not_shown in &f.conditions_not_shown {
            let _ = writeln!(out, "  {}: MC/DC: {not_shown}", f.name);
        }
    }
    for f in &summary.functions {
        if let Some(why) = &f.untested {
            let _ = writeln!(out, "  {}: no test: {why}", f.name);
        }
    }
    let mut unchecked: Vec<&str> = Vec::new();
    for finding in &summary.findings {
        if finding.not_confirmed.is_some() {
            continue;
        }
        if !finding.unvouched_inputs.is_empty() {
            unchecked.extend(finding.unvouched_inputs.iter().map(String::as_str));
            if !all_findings {
                continue;
            }
        }
        let run = match (&summary.findings_driver, finding.reproducer) {
            (Some(path), Some(k)) => format!(" (reproducer {k} in {})", path.display()),
            _ => String::new(),
        };
        let label = match finding.unvouched_inputs.as_slice() {
            [] => String::new(),
            types => format!(" [input not vouched for: {}]", types.join(", ")),
        };
        let _ = writeln!(
            out,
            "  {}: {} in {}: {}{run}{label}",
            finding.location, finding.kind, finding.function, finding.message
        );
    }
    let unchecked_count = summary
        .findings
        .iter()
        .filter(|f| !f.unvouched_inputs.is_empty() && f.not_confirmed.is_none())
        .count();
    if unchecked_count > 0 && !all_findings {
        unchecked.sort_unstable();
        unchecked.dedup();
        let _ = writeln!(
            out,
            "  {unchecked_count} more finding(s) on inputs nothing vouches for ({}), which may be values \
             the program never holds: --findings all lists them; --invariant TYPE=FUNCTION declares \
             what a valid value is",
            unchecked.join(", ")
        );
    }
    let unconfirmed = summary
        .findings
        .iter()
        .filter(|f| f.not_confirmed.is_some())
        .count();
    let dropped: usize = summary.functions.iter().map(|f| f.dropped_tests).sum();
    if dropped > 0 {
        let _ = writeln!(
            out,
            "  {dropped} test(s) left out: running them against the code contradicted the engine \
             (tests.json says why for each)"
        );
    }
    let native: usize = summary.functions.iter().map(|f| f.native_tests).sum();
    if native > 0 {
        let mut functions: Vec<&str> = summary
            .functions
            .iter()
            .flat_map(|f| f.run_natively.iter().map(String::as_str))
            .collect();
        functions.sort_unstable();
        functions.dedup();
        let _ = writeln!(
            out,
            "  {native} test(s) depend on C library functions cairn has no model of ({}), which it \
             ran natively: their inputs were concretised, fixed to the values given to those calls \
             (tests.json lists them for each)",
            functions.join(", ")
        );
    }
    if unconfirmed > 0 {
        let _ = writeln!(
            out,
            "  {unconfirmed} more finding(s) whose reproducer did not show the fault when cairn ran it: \
             not reported as faults (tests.json says why for each)"
        );
    }
    for note in &summary.notes {
        let _ = writeln!(out, "  note: {note}");
    }
    let _ = writeln!(
        out,
        "  wrote {} and {}",
        summary.driver.display(),
        summary.tests_json.display()
    );
    out
}

/// The summary as one JSON document (for `--json`).
pub fn summary_json(summary: &EmitSummary) -> String {
    serde_json::to_string(summary).unwrap_or_else(|e| format!("{{\"error\": \"{e}\"}}"))
}
