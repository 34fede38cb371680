//! The check report as static HTML: an index page with a summary table,
//! and per source file a page with the source annotated line by line
//! (gcov's measure next to the engine's prediction, each branch direction
//! with why it is uncovered), the tests as the driver wrote them with the
//! pictures of their inputs `gen` drew, and the findings with their
//! reproducers. Pages open from disk: inline CSS, no script, no network.

use crate::listing::{LineClass, SourceListing};
use crate::report::{
    CheckReport, FileCheck, FindingReport, FunctionCheck, PathStep, Ratio, TestOutcome,
};
use crate::TestRun;
use emit::xml::{attribute, text as escape};
use std::collections::{BTreeSet, HashMap};
use std::fmt::Write;
use std::path::{Path, PathBuf};

/// One file of the report: its path inside the report directory, and its text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HtmlFile {
    pub path: PathBuf,
    pub text: String,
}

/// The whole report: `index.html`, a page per source file and the
/// pictures of the tests' inputs under `shapes/<page>/`.
pub fn html(report: &CheckReport) -> Vec<HtmlFile> {
    let pages = page_names(report);
    let mut files = vec![HtmlFile {
        path: PathBuf::from("index.html"),
        text: index_page(report, &pages),
    }];
    for (file, page) in report.files.iter().zip(&pages) {
        files.push(HtmlFile {
            path: PathBuf::from(format!("{page}.html")),
            text: file_page(file, page),
        });
        for test in &file.tests {
            if let Some(svg) = &test.picture {
                files.push(HtmlFile {
                    path: PathBuf::from(picture_path(page, &test.name)),
                    text: svg.clone(),
                });
            }
        }
    }
    files
}

/// A page name per file: its stem in letters, digits, `-` and `_` only
/// (safe in a file name and a path), unique (a project may hold two
/// `util.c`), never `index`.
fn page_names(report: &CheckReport) -> Vec<String> {
    let mut taken = BTreeSet::from(["index".to_string()]);
    report
        .files
        .iter()
        .map(|file| {
            let mut safe: String = file
                .stem
                .chars()
                .map(|c| match c.is_ascii_alphanumeric() || c == '-' {
                    true => c,
                    false => '_',
                })
                .collect();
            if safe.is_empty() {
                safe.push_str("file");
            }
            let name = (1..)
                .map(|n| match n {
                    1 => safe.clone(),
                    n => format!("{safe}-{n}"),
                })
                .find(|name| !taken.contains(name))
                .unwrap_or(safe);
            taken.insert(name.clone());
            name
        })
        .collect()
}

fn picture_path(page: &str, test: &str) -> String {
    format!("shapes/{page}/{test}.svg")
}

const STYLE: &str = "
body { font-family: system-ui, 'DejaVu Sans', 'Liberation Sans', Arial, sans-serif; margin: 1.5em auto; max-width: 1200px; padding: 0 1em; color: #1d1d1d; background: #ffffff; line-height: 1.4; }
h1 { font-size: 1.5em; margin-bottom: 0.2em; }
h2 { font-size: 1.2em; margin-top: 1.8em; border-bottom: 1px solid #cccccc; }
h3 { font-size: 1em; margin: 0; font-family: 'DejaVu Sans Mono', Menlo, Consolas, monospace; }
code, pre, .code { font-family: 'DejaVu Sans Mono', Menlo, Consolas, 'Liberation Mono', monospace; font-size: 12.5px; }
pre { background: #f6f8fa; border: 1px solid #dddddd; padding: 0.5em; overflow-x: auto; tab-size: 8; }
pre.wrap { white-space: pre-wrap; word-break: break-all; }
table { border-collapse: collapse; }
table.summary td, table.summary th { border: 1px solid #cccccc; padding: 0.25em 0.6em; }
table.summary th { background: #f0f0f0; text-align: left; }
td.number { text-align: right; font-variant-numeric: tabular-nums; }
.muted { color: #666666; }
.ok { color: #1a7f37; font-weight: bold; }
.bad { color: #b3261e; font-weight: bold; }
.warn { color: #9a6700; font-weight: bold; }
.box { border: 1px solid #cccccc; border-radius: 4px; padding: 0.6em 0.8em; margin: 0.8em 0; }
.problem { border-color: #b3261e; background: #fdecea; }
.legend { font-size: 0.9em; background: #fafafa; }
.legend span.swatch { display: inline-block; width: 1.2em; height: 0.9em; border: 1px solid #bbbbbb; vertical-align: middle; margin-right: 0.3em; }
table.source { width: 100%; font-family: 'DejaVu Sans Mono', Menlo, Consolas, monospace; font-size: 12.5px; }
table.source td { padding: 0 0.4em; vertical-align: top; white-space: pre; }
table.source td.gutter { text-align: right; color: #555555; border-right: 1px solid #dddddd; font-variant-numeric: tabular-nums; }
table.source td.code { width: 100%; tab-size: 8; }
table.source a { color: inherit; text-decoration: none; }
tr.run td.code { background: #e6f4ea; }
tr.partly-run td.code { background: #fff4ce; }
tr.not-run td.code { background: #fde2e1; }
tr.claimed-not-measured td.code { background: #f4b6b2; }
tr.not-measured td.code { background: #eeeeee; }
tr.branches td { white-space: normal; padding-bottom: 0.3em; }
.goal { display: inline-block; border-radius: 3px; padding: 0 0.4em; margin: 0.1em 0.3em 0.1em 0; font-size: 11.5px; }
.goal.covered { background: #d2eed9; border: 1px solid #8cc79b; }
.goal.uncovered { background: #eeeeee; border: 1px solid #bbbbbb; }
.goal.fault { background: #f4b6b2; border: 1px solid #b3261e; }
.note { display: inline-block; font-size: 11.5px; margin: 0.1em 0; }
.note.claimed { color: #b3261e; }
.note.unpredicted { color: #1f5fa8; }
.note.unmeasurable { color: #666666; }
.marker-claimed { color: #b3261e; font-weight: bold; }
.marker-unpredicted { color: #1f5fa8; font-weight: bold; }
.test, .finding { border: 1px solid #cccccc; border-radius: 4px; padding: 0.6em 0.8em; margin: 0.8em 0; }
.test img { max-width: 100%; border: 1px solid #eeeeee; margin-top: 0.4em; }
.outcome { display: inline-block; border-radius: 3px; padding: 0 0.5em; font-size: 0.85em; margin-left: 0.5em; }
.outcome.passed { background: #d2eed9; }
.outcome.failed, .outcome.error, .outcome.not-run { background: #f4b6b2; }
.outcome.skipped { background: #eeeeee; }
ul.steps { margin: 0.3em 0; padding-left: 1.4em; }
";

/// A page with the shared head and style around `body`.
fn page(title: &str, body: &str) -> String {
    format!(
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>{}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n{body}</body>\n</html>\n",
        escape(title)
    )
}

fn index_page(report: &CheckReport, pages: &[String]) -> String {
    let mut body = String::new();
    let _ = writeln!(body, "<h1>cairn check</h1>");
    let verdict = match report.ok() {
        true => "<p class=\"ok\">check passed: every test passed and gcov measured every branch cairn claimed</p>",
        false => "<p class=\"bad\">check FAILED: see the problems on the files' pages</p>",
    };
    body.push_str(verdict);
    body.push_str(
        "<table class=\"summary\">\n<tr><th>source file</th><th>tests</th><th>failed</th>\
         <th>predicted</th><th>branches</th><th>lines</th><th>findings</th><th>problems</th></tr>\n",
    );
    let summaries: Vec<FileSummary> = report.files.iter().map(FileSummary::of).collect();
    for ((file, page), summary) in report.files.iter().zip(pages).zip(&summaries) {
        let name = format!(
            "<a href=\"{}.html\">{}</a>",
            attribute(page),
            escape(&file.source)
        );
        summary_row(&mut body, &name, summary);
    }
    if summaries.len() > 1 {
        summary_row(
            &mut body,
            "<b>all files</b>",
            &FileSummary::total(&summaries),
        );
    }
    body.push_str("</table>\n");
    body.push_str(SUMMARY_LEGEND);
    page("cairn check", &body)
}

/// One row of the index: a file's counts, or their sum.
struct FileSummary {
    tests: usize,
    failed: usize,
    predicted: Option<Ratio>,
    branches: Option<Ratio>,
    lines: Option<Ratio>,
    findings: usize,
    problems: usize,
}

impl FileSummary {
    fn of(file: &FileCheck) -> Self {
        let sum =
            |get: fn(&FunctionCheck) -> Option<Ratio>| sum_measured(file.functions.iter().map(get));
        FileSummary {
            tests: file
                .tests
                .iter()
                .filter(|t| t.outcome != TestOutcome::Skipped)
                .count(),
            failed: failed_count(file),
            predicted: sum(|f| Some(f.predicted)),
            branches: sum(|f| f.measured_branches),
            lines: sum(|f| f.measured_lines),
            findings: file.findings.len(),
            problems: file.problems.len(),
        }
    }

    fn total(rows: &[FileSummary]) -> Self {
        let count = |get: fn(&FileSummary) -> usize| rows.iter().map(get).sum();
        FileSummary {
            tests: count(|r| r.tests),
            failed: count(|r| r.failed),
            predicted: sum_measured(rows.iter().map(|r| r.predicted)),
            branches: sum_measured(rows.iter().map(|r| r.branches)),
            lines: sum_measured(rows.iter().map(|r| r.lines)),
            findings: count(|r| r.findings),
            problems: count(|r| r.problems),
        }
    }
}

/// The sum of ratios, measured only when every one was.
fn sum_measured(mut ratios: impl Iterator<Item = Option<Ratio>>) -> Option<Ratio> {
    ratios.try_fold(Ratio::default(), |all, r| {
        let r = r?;
        Some(Ratio {
            covered: all.covered + r.covered,
            total: all.total + r.total,
        })
    })
}

fn summary_row(body: &mut String, name: &str, row: &FileSummary) {
    let problems = match row.problems {
        0 => "ok",
        _ => "bad",
    };
    let _ = writeln!(
        body,
        "<tr><td>{name}</td><td class=\"number\">{}</td><td class=\"number\">{}</td>\
         <td class=\"number\">{}</td><td class=\"number\">{}</td><td class=\"number\">{}</td>\
         <td class=\"number\">{}</td><td class=\"number {problems}\">{}</td></tr>",
        row.tests,
        row.failed,
        ratio(row.predicted),
        ratio(row.branches),
        ratio(row.lines),
        row.findings,
        row.problems,
    );
}

/// What the summary tables' columns count.
const SUMMARY_LEGEND: &str = "<div class=\"box legend\"><b>Columns.</b> \
<b>tests</b>: tests in the driver; <b>failed</b>: those that failed a check, crashed or did not run; \
<b>predicted</b>: branch directions cairn says its tests take / all branch directions of the tested functions; \
<b>branches</b>: branch directions gcov saw taken / all that gcov counts (gcc folds some conditions, so the totals may differ); \
<b>lines</b>: lines gcov saw run / all lines with code; <b>findings</b>: inputs that make the code misbehave, each with a reproducer; \
<b>problems</b>: what makes the check fail (a failing test, a branch cairn claimed that gcov did not see taken...); \
&ndash; : not measured.</div>\n";

fn failed_count(file: &FileCheck) -> usize {
    file.tests
        .iter()
        .filter(|t| {
            matches!(
                t.outcome,
                TestOutcome::Failed | TestOutcome::Error | TestOutcome::NotRun
            )
        })
        .count()
}

fn ratio(r: Option<Ratio>) -> String {
    r.map_or_else(|| "&ndash;".to_string(), |r| r.to_string())
}

fn file_page(file: &FileCheck, page_name: &str) -> String {
    let mut body = String::new();
    let _ = writeln!(
        body,
        "<p><a href=\"index.html\">&larr; all files</a></p>\n<h1>{}</h1>",
        escape(&file.source)
    );
    let run = match (file.passed, file.failed) {
        (Some(passed), Some(failed)) => format!("{passed} passed, {failed} failed"),
        _ => "did not complete".to_string(),
    };
    let _ = writeln!(
        body,
        "<p>Driver <code>{}</code>: {}. <a href=\"#source\">Source</a> &middot; \
         <a href=\"#tests\">{} tests</a> &middot; <a href=\"#findings\">{} findings</a></p>",
        escape(&file.driver),
        escape(&run),
        file.tests.len(),
        file.findings.len()
    );
    for problem in &file.problems {
        let _ = writeln!(
            body,
            "<div class=\"box problem\"><b>Problem: {}</b><pre class=\"wrap\">{}</pre></div>",
            escape(&problem.kind.to_string()),
            escape(&problem.message)
        );
    }
    for note in &file.notes {
        let _ = writeln!(body, "<p class=\"muted\">Note: {}</p>", escape(note));
    }
    functions_table(&mut body, file);
    decisions_section(&mut body, file);
    let covering = covering_tests(&file.tests);
    source_section(&mut body, file, &covering);
    tests_section(&mut body, file, page_name);
    findings_section(&mut body, file);
    page(&format!("{}: cairn check", file.source), &body)
}

fn functions_table(body: &mut String, file: &FileCheck) {
    body.push_str(
        "<h2>Functions</h2>\n<table class=\"summary\">\n<tr><th>function</th><th>tests</th>\
         <th>failed</th><th>predicted</th><th>branches</th><th>lines</th></tr>\n",
    );
    for f in &file.functions {
        let _ = writeln!(
            body,
            "<tr><td><code>{}</code></td><td class=\"number\">{}</td><td class=\"number\">{}</td>\
             <td class=\"number\">{}</td><td class=\"number\">{}</td><td class=\"number\">{}</td></tr>",
            escape(&f.name),
            f.tests,
            f.failed,
            f.predicted,
            ratio(f.measured_branches),
            ratio(f.measured_lines)
        );
    }
    body.push_str("</table>\n");
    for f in &file.functions {
        for note in &f.unmeasurable {
            let _ = writeln!(
                body,
                "<p class=\"muted\">Note: <code>{}</code>: {}</p>",
                escape(&f.name),
                escape(note)
            );
        }
    }
    body.push_str(SUMMARY_LEGEND);
}

/// Under MC/DC: each decision's conditions, the two tests cairn says show
/// each independent (or why none can) and whether llvm-cov counts it so.
fn decisions_section(body: &mut String, file: &FileCheck) {
    let Some(mcdc) = &file.mcdc else {
        return;
    };
    let _ = writeln!(
        body,
        "<h2 id=\"mcdc\">MC/DC</h2>\n<p>{} of {} conditions shown independent as llvm-cov \
         measured ({} claimed), in {} decisions.</p>\n<table class=\"summary\">\n<tr><th>line</th>\
         <th>decision</th><th>condition</th><th>shown by (cairn)</th><th>llvm-cov</th></tr>",
        mcdc.measured, mcdc.conditions, mcdc.claimed, mcdc.decisions
    );
    for decision in &mcdc.each {
        for condition in &decision.conditions {
            let claim = match (&condition.shown_by, &condition.reason) {
                (Some((a, b)), _) => {
                    format!("<code>{}</code>, <code>{}</code>", escape(a), escape(b))
                }
                (None, why) => format!("not shown: {}", escape(why.as_deref().unwrap_or(""))),
            };
            let measured = match condition.measured {
                Some(true) => "shown",
                Some(false) => "not shown",
                None => "not measured",
            };
            let _ = writeln!(
                body,
                "<tr><td class=\"number\">{}</td><td><code>{}</code></td><td><code>{}</code></td>\
                 <td>{claim}</td><td>{measured}</td></tr>",
                decision.line,
                escape(&decision.text),
                escape(&condition.text)
            );
        }
    }
    body.push_str("</table>\n");
}

/// The first test covering each branch direction, by (line, column, label).
fn covering_tests(tests: &[TestRun]) -> HashMap<(u32, u32, &str), &str> {
    let mut covering = HashMap::new();
    for test in tests {
        for step in &test.covers {
            covering
                .entry((step.line, step.col, step.label.as_str()))
                .or_insert(test.name.as_str());
        }
    }
    covering
}

/// A line's class as the CSS of [`STYLE`] names it.
fn css_class(class: LineClass) -> &'static str {
    match class {
        LineClass::ClaimedNotMeasured => "claimed-not-measured",
        LineClass::NotRun => "not-run",
        LineClass::PartlyRun => "partly-run",
        LineClass::Run => "run",
        LineClass::NotMeasured => "not-measured",
        LineClass::NoCode => "no-code",
    }
}

const SOURCE_LEGEND: &str = "<div class=\"box legend\"><b>How to read the source.</b> \
Columns: <b>line</b>; <b>runs</b>: how many times gcov saw the line run; \
<b>gcov</b>: branch directions gcov saw taken / all it counts on the line; \
<b>cairn</b>: branch directions cairn predicted its tests take / all of them on the line.<br>\
<span class=\"swatch\" style=\"background:#e6f4ea\"></span>ran, every branch taken \
<span class=\"swatch\" style=\"background:#fff4ce\"></span>ran, some branch never taken \
<span class=\"swatch\" style=\"background:#fde2e1\"></span>never ran \
<span class=\"swatch\" style=\"background:#f4b6b2\"></span>cairn predicted a branch that gcov did not see taken (a problem) \
<span class=\"swatch\" style=\"background:#eeeeee\"></span>not measured (the driver did not run) \
<span class=\"swatch\" style=\"background:#ffffff\"></span>no code<br>\
Under a line with conditions, each branch direction: <span class=\"goal covered\">&#10003; taken</span> \
by the test named after it, as cairn predicts, or <span class=\"goal uncovered\">&#10007; not taken</span> \
with the reason cairn gives (<i>infeasible</i>: no input takes it; <i>not reached within bounds</i>: \
a limit such as the time or the size of inputs stopped the search first; <i>unsupported</i>: \
the path needs something cairn does not model); <span class=\"goal fault\">finding: kind in function</span> \
marks the line of a finding&apos;s fault and links to it. \
In the gcov column, <span class=\"marker-claimed\">!</span> marks a line where cairn predicted more than \
gcov measured, and <span class=\"marker-unpredicted\">+N</span> a line where gcov saw N branch directions \
taken that cairn did not predict. gcov counts branches per line and cannot say which condition \
each belongs to, so a branch gcc placed on a nearby line is matched there.</div>\n";

fn source_section(body: &mut String, file: &FileCheck, covering: &HashMap<(u32, u32, &str), &str>) {
    let listing = &file.listing;
    let _ = writeln!(
        body,
        "<h2 id=\"source\">Source <span class=\"muted\">{}</span></h2>",
        escape(&listing.path.display().to_string())
    );
    body.push_str(SOURCE_LEGEND);
    let text = match &listing.text {
        Ok(text) => text,
        Err(why) => {
            let _ = writeln!(
                body,
                "<p class=\"bad\">The source could not be read: {}</p>",
                escape(why)
            );
            return;
        }
    };
    body.push_str(
        "<table class=\"source\">\n<tr><td class=\"gutter\">line</td><td class=\"gutter\">runs</td>\
         <td class=\"gutter\">gcov</td><td class=\"gutter\">cairn</td><td></td></tr>\n",
    );
    let findings: Vec<(usize, &FindingReport)> = file
        .findings
        .iter()
        .enumerate()
        .filter(|(_, f)| f.file == listing.path)
        .collect();
    for (index, code) in text.lines().enumerate() {
        let line = u32::try_from(index + 1).unwrap_or(u32::MAX);
        source_line(body, listing, line, code);
        let here: Vec<(usize, &FindingReport)> = findings
            .iter()
            .filter(|(_, f)| f.line == line)
            .copied()
            .collect();
        line_details(body, listing, covering, line, &here);
    }
    body.push_str("</table>\n");
}

/// A line of the source, its measure and prediction in the gutter.
fn source_line(body: &mut String, listing: &SourceListing, line: u32, code: &str) {
    let measured = listing.measured.as_ref().and_then(|m| m.get(&line));
    let runs = measured.map_or_else(String::new, |m| m.count.to_string());
    let mut gcov = measured
        .filter(|m| m.branches > 0)
        .map_or_else(String::new, |m| {
            format!("{}/{}", m.branches_taken, m.branches)
        });
    if listing.claimed_not_measured.contains_key(&line) {
        gcov.push_str(" <span class=\"marker-claimed\">!</span>");
    }
    if let Some(extra) = listing.unpredicted.get(&line) {
        let _ = write!(gcov, " <span class=\"marker-unpredicted\">+{extra}</span>");
    }
    let goals = listing.goals.get(&line).map_or(&[][..], Vec::as_slice);
    let cairn = match goals {
        [] => String::new(),
        goals => format!(
            "{}/{}",
            goals.iter().filter(|g| g.covered).count(),
            goals.len()
        ),
    };
    let _ = writeln!(
        body,
        "<tr class=\"{}\" id=\"L{line}\"><td class=\"gutter\"><a href=\"#L{line}\">{line}</a></td>\
         <td class=\"gutter\">{runs}</td><td class=\"gutter\">{gcov}</td><td class=\"gutter\">{cairn}</td>\
         <td class=\"code\">{}</td></tr>",
        css_class(listing.class(line)),
        escape(code)
    );
}

/// Under a line: the findings on it, its branch directions, and what the
/// check found there (`findings` by their index in the file).
fn line_details(
    body: &mut String,
    listing: &SourceListing,
    covering: &HashMap<(u32, u32, &str), &str>,
    line: u32,
    findings: &[(usize, &FindingReport)],
) {
    let goals = listing.goals.get(&line).map_or(&[][..], Vec::as_slice);
    let mut details = String::new();
    for (index, finding) in findings {
        let _ = write!(
            details,
            "<a class=\"goal fault\" href=\"#{}\">finding: <code>{}</code> in <code>{}</code></a>",
            finding_id(*index),
            escape(&finding.kind.to_string()),
            escape(&finding.function)
        );
    }
    for goal in goals {
        match (goal.covered, &goal.reason) {
            (true, _) => {
                let by = covering
                    .get(&(goal.line, goal.col, goal.label.as_str()))
                    .map(|test| {
                        format!(
                            " <span class=\"muted\">by</span> <a href=\"#{}\">{}</a>",
                            attribute(test),
                            escape(test)
                        )
                    })
                    .unwrap_or_default();
                let _ = write!(
                    details,
                    "<span class=\"goal covered\">&#10003; <code>{}</code>{by}</span>",
                    escape(&goal.label)
                );
            }
            (false, reason) => {
                let reason = reason.as_deref().unwrap_or("no test takes it");
                let _ = write!(
                    details,
                    "<span class=\"goal uncovered\">&#10007; <code>{}</code>: {}</span>",
                    escape(&goal.label),
                    escape(reason)
                );
            }
        }
    }
    for message in listing
        .claimed_not_measured
        .get(&line)
        .into_iter()
        .flatten()
    {
        let _ = write!(
            details,
            "<br><span class=\"note claimed\">! predicted but not measured: {}</span>",
            escape(message)
        );
    }
    if let Some(extra) = listing.unpredicted.get(&line) {
        let _ = write!(
            details,
            "<br><span class=\"note unpredicted\">+{extra}: gcov saw {extra} branch direction(s) taken here that cairn did not predict</span>"
        );
    }
    for message in listing.unmeasurable.get(&line).into_iter().flatten() {
        let _ = write!(
            details,
            "<br><span class=\"note unmeasurable\">cannot be measured: {}</span>",
            escape(message)
        );
    }
    if !details.is_empty() {
        let _ = writeln!(
            body,
            "<tr class=\"branches\"><td class=\"gutter\"></td><td class=\"gutter\"></td>\
             <td class=\"gutter\"></td><td class=\"gutter\"></td><td>{details}</td></tr>"
        );
    }
}

/// A test's outcome in words, with its CSS class.
fn outcome(test: &TestRun) -> (&'static str, &'static str) {
    match test.outcome {
        TestOutcome::Passed => ("passed", "passed"),
        TestOutcome::Failed => ("failed", "failed"),
        TestOutcome::Error => ("did not end normally", "error"),
        TestOutcome::Skipped => ("not in the driver", "skipped"),
        TestOutcome::NotRun => ("did not run", "not-run"),
    }
}

fn tests_section(body: &mut String, file: &FileCheck, page_name: &str) {
    let _ = writeln!(body, "<h2 id=\"tests\">Tests</h2>");
    if file.tests.is_empty() {
        body.push_str("<p class=\"muted\">No tests.</p>\n");
    }
    for test in &file.tests {
        let (words, class) = outcome(test);
        let seconds = test
            .seconds
            .map(|s| format!(" <span class=\"muted\">in {s:.4} s</span>"))
            .unwrap_or_default();
        let _ = writeln!(
            body,
            "<div class=\"test\" id=\"{}\"><h3>{}<span class=\"outcome {class}\">{words}</span>{seconds}</h3>",
            attribute(&test.name),
            escape(&test.name)
        );
        let _ = writeln!(body, "<p>Tests <code>{}</code>. ", escape(&test.function));
        match test.covers.as_slice() {
            [] => body.push_str("It covers no branch direction that earlier tests missed.</p>\n"),
            covers => {
                body.push_str("It is the first to take:</p>\n");
                write_steps(body, file, covers);
            }
        }
        // A skipped test's message is why cairn could not write it.
        let (lead, class) = match test.outcome {
            TestOutcome::Skipped => ("Left out of the driver: ", "muted"),
            _ => ("", "bad"),
        };
        for message in &test.messages {
            let _ = writeln!(body, "<p class=\"{class}\">{lead}{}</p>", escape(message));
        }
        match &test.code {
            Some(code) => {
                let _ = writeln!(body, "<pre>{}</pre>", escape(code));
            }
            None if test.outcome != TestOutcome::Skipped => {
                let _ = writeln!(
                    body,
                    "<p class=\"muted\">Not found in {}.</p>",
                    escape(&file.driver)
                );
            }
            None => {}
        }
        if test.picture.is_some() {
            let _ = writeln!(
                body,
                "<div>The input structure (parameters in blue, nodes reached by two links in yellow, links back to an earlier node dashed):<br>\
                 <img src=\"{}\" alt=\"the input structure of {}\"></div>",
                attribute(&picture_path(page_name, &test.name)),
                attribute(&test.name)
            );
        }
        body.push_str("</div>\n");
    }
}

/// `line N`, a link to the line when it is in the page's source, else
/// with the file it is in.
/// A list of branch directions, each linked to its line.
fn write_steps(body: &mut String, file: &FileCheck, steps: &[PathStep]) {
    body.push_str("<ul class=\"steps\">\n");
    for step in steps {
        let _ = writeln!(
            body,
            "<li>{}: <code>{}</code></li>",
            line_link(file, &step.file, step.line),
            escape(&step.label),
        );
    }
    body.push_str("</ul>\n");
}

fn line_link(file: &FileCheck, path: &Path, line: u32) -> String {
    match path == file.listing.path {
        true => format!("<a href=\"#L{line}\">line {line}</a>"),
        false => format!("{}, line {line}", escape(&path.display().to_string())),
    }
}

fn findings_section(body: &mut String, file: &FileCheck) {
    let _ = writeln!(body, "<h2 id=\"findings\">Findings</h2>");
    if file.findings.is_empty() {
        body.push_str("<p class=\"muted\">No findings.</p>\n");
    }
    for (index, finding) in file.findings.iter().enumerate() {
        finding_box(body, file, index, finding);
    }
}

/// The anchor of the file's finding `index` (from 0: a finding without a
/// reproducer has no number of its own).
fn finding_id(index: usize) -> String {
    format!("finding-{}", index + 1)
}

fn finding_box(body: &mut String, file: &FileCheck, index: usize, finding: &FindingReport) {
    let number = finding
        .reproducer
        .map_or_else(String::new, |n| format!("{n}: "));
    let _ = writeln!(
        body,
        "<div class=\"finding\" id=\"{}\"><h3>{number}{} in {}</h3>",
        finding_id(index),
        escape(&finding.kind.to_string()),
        escape(&finding.function)
    );
    let _ = writeln!(
        body,
        "<p>At {}, column {}: {} <span class=\"muted\">({})</span></p>",
        line_link(file, &finding.file, finding.line),
        finding.col,
        escape(&finding.message),
        escape(finding.kind.description()),
    );
    match finding.unvouched_inputs.as_slice() {
        [] => body.push_str("<p>Its inputs are valid ones (vouched for).</p>\n"),
        unvouched => {
            let _ = writeln!(
                body,
                "<p class=\"warn\">Its inputs are not vouched for ({}): they may be values the program never holds.</p>",
                escape(&unvouched.join(", "))
            );
        }
    }
    if !finding.path.is_empty() {
        body.push_str("<p>The branches taken on the way, each the first time:</p>\n");
        write_steps(body, file, &finding.path);
    }
    let run = finding.reproducer.and_then(|n| file.reproducer_run(n));
    let verdict = match (finding.reproducer, run) {
        (None, _) => "<p class=\"muted\">No reproducer could be written for it.</p>".to_string(),
        (Some(_), None) => {
            "<p class=\"muted\">Not confirmed yet: <code>cairn check --sanitize</code> runs the reproducer.</p>"
                .to_string()
        }
        (Some(_), Some(run)) => match &run.evidence {
            Some(evidence) => format!("<p class=\"bad\">Confirmed: {}</p>", escape(evidence)),
            None => format!(
                "<p class=\"warn\">Not confirmed: the reproducer {}, with no evidence of the fault.</p>",
                escape(&run.ending.to_string())
            ),
        },
    };
    body.push_str(&verdict);
    if let Some(reproducer_file) = &finding.reproducer_file {
        let _ = writeln!(
            body,
            "<p>Reproducer in <code>{}</code>:</p>",
            escape(&reproducer_file.display().to_string())
        );
    }
    if let Some(code) = &finding.reproducer_code {
        let _ = writeln!(body, "<pre>{}</pre>", escape(code));
    }
    if let Some(command) = &finding.reproducer_command {
        let _ = writeln!(
            body,
            "<p>Build and run it under the sanitizers:</p><pre class=\"wrap\">{}</pre>",
            escape(command)
        );
    }
    body.push_str("</div>\n");
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::sample_file_check;

    fn sample_report() -> CheckReport {
        let mut file = sample_file_check(Path::new("/out"));
        file.listing.text =
            Ok("int clamp(int x)\n{\n    if (x < lo && y > 'q') return 1;\n}\n".into());
        file.tests[0].code =
            Some("static int test_clamp_1(void)\n{\n    return f(\"<b>\");\n}".into());
        file.tests[0].picture = Some("<svg xmlns=\"http://www.w3.org/2000/svg\"/>".into());
        CheckReport { files: vec![file] }
    }

    #[test]
    fn the_report_is_an_index_a_page_per_file_and_the_pictures() {
        let files = html(&sample_report());
        let paths: Vec<&Path> = files.iter().map(|f| f.path.as_path()).collect();
        assert_eq!(
            paths,
            [
                Path::new("index.html"),
                Path::new("m.html"),
                Path::new("shapes/m/test_clamp_1.svg")
            ]
        );
        let index = &files[0].text;
        assert!(index.contains("<a href=\"m.html\">m.c</a>"), "{index}");
        assert!(index.contains("check FAILED"), "{index}");
    }

    #[test]
    fn the_file_page_escapes_the_source_and_links_tests_findings_and_lines() {
        let files = html(&sample_report());
        let page = &files[1].text;
        // The source line, escaped, with its goal (the sample's goal is on line 2).
        assert!(
            page.contains("if (x &lt; lo &amp;&amp; y &gt; &apos;q&apos;) return 1;"),
            "{page}"
        );
        assert!(
            page.contains("<tr class=\"not-measured\" id=\"L2\">"),
            "{page}"
        );
        assert!(
            page.contains("&#10003; <code>x &lt; lo: true</code>"),
            "{page}"
        );
        assert!(page.contains("return f(&quot;&lt;b&gt;&quot;);"), "{page}");
        assert!(
            page.contains("<img src=\"shapes/m/test_clamp_1.svg\""),
            "{page}"
        );
        assert!(
            page.contains("returned 5, expected 3 &lt;&quot;&amp;&quot;&gt;"),
            "{page}"
        );
        // The finding: its message escaped, confirmed, with its reproducer command.
        assert!(page.contains("divisor b is 0 &lt;&amp;&gt;"), "{page}");
        assert!(page.contains("Confirmed: the sanitizers report"), "{page}");
        assert!(page.contains("&amp;&amp; ./m_findings 1</pre>"), "{page}");
        assert!(!page.contains("DivisionByZero"), "{page}");
        assert!(
            page.contains("<p class=\"muted\">Left out of the driver: a float input</p>"),
            "{page}"
        );
    }

    #[test]
    fn the_index_sums_the_files_and_a_file_not_measured_leaves_the_sum_unmeasured() {
        let function = |measured: Option<Ratio>| FunctionCheck {
            name: "clamp".into(),
            tests: 3,
            failed: 0,
            predicted: Ratio {
                covered: 1,
                total: 2,
            },
            measured_branches: measured,
            measured_lines: measured,
            unmeasurable: vec![],
            contradicted_lines: vec![],
        };
        let mut report = sample_report();
        report.files[0].functions.push(function(Some(Ratio {
            covered: 1,
            total: 4,
        })));
        let mut other = report.files[0].clone();
        other.functions = vec![function(None)];
        report.files.push(other);
        let index = &html(&report)[0].text;
        assert!(
            index.contains(
                "<td><b>all files</b></td><td class=\"number\">6</td><td class=\"number\">4</td>\
                <td class=\"number\">2/4</td><td class=\"number\">&ndash;</td>"
            ),
            "{index}"
        );
    }

    #[test]
    fn page_names_are_unique_and_never_the_index() {
        let mut report = sample_report();
        let mut other = report.files[0].clone();
        other.stem = "m".into();
        let mut index = report.files[0].clone();
        index.stem = "index".into();
        let mut odd = report.files[0].clone();
        odd.stem = "a b/../c".into();
        let mut empty = report.files[0].clone();
        empty.stem = String::new();
        report.files.extend([other, index, odd, empty]);
        assert_eq!(
            page_names(&report),
            ["m", "m-2", "index-2", "a_b____c", "file"]
        );
    }
}
