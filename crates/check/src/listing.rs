//! A source file line by line with what the engine predicted and what gcov
//! measured on each line, and the texts the driver and the reproducers
//! file hold for each test and finding: what the HTML report shows.

use crate::compare::Comparison;
use crate::gcov::{FunctionCoverage, LineCoverage};
use std::collections::BTreeMap;
use std::path::PathBuf;
use testcase::json::GoalJson;

/// The source under test with its coverage, line by line (lines count from 1).
#[derive(Clone, Debug)]
pub struct SourceListing {
    /// The source, resolved against the output directory.
    pub path: PathBuf,
    /// Its text, or why it could not be read.
    pub text: Result<String, String>,
    /// gcov's measure per line, every function of the file merged (`None`:
    /// the driver did not run to its end, nothing was measured).
    pub measured: Option<BTreeMap<u32, LineCoverage>>,
    /// The engine's branch goals in this file, by line, in the order of
    /// `tests.json`.
    pub goals: BTreeMap<u32, Vec<GoalJson>>,
    /// Lines where the engine claims more branches covered than gcov saw
    /// taken, with the check's words (a problem of the check).
    pub claimed_not_measured: BTreeMap<u32, Vec<String>>,
    /// Lines whose claims gcov cannot confirm either way (gcc folded or
    /// moved the condition), with the check's words.
    pub unmeasurable: BTreeMap<u32, Vec<String>>,
    /// Branches gcov saw taken that no claim of the engine accounts for.
    pub unpredicted: BTreeMap<u32, usize>,
}

/// What a line's coverage amounts to, worst first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LineClass {
    /// The engine claims a branch here that gcov did not see taken.
    ClaimedNotMeasured,
    /// gcov counts the line and it never ran.
    NotRun,
    /// It ran, but some of the branches gcov counts on it were never taken.
    PartlyRun,
    /// It ran, and every branch gcov counts on it was taken.
    Run,
    /// Nothing was measured; only the engine's prediction is known.
    NotMeasured,
    /// No code gcov counts: blank lines, comments, declarations.
    NoCode,
}

impl SourceListing {
    pub(crate) fn new(path: PathBuf, text: Result<String, String>) -> Self {
        SourceListing {
            path,
            text,
            measured: None,
            goals: BTreeMap::new(),
            claimed_not_measured: BTreeMap::new(),
            unmeasurable: BTreeMap::new(),
            unpredicted: BTreeMap::new(),
        }
    }

    /// Takes gcov's measure of the file's functions, tested or not.
    pub(crate) fn record_measure(&mut self, functions: &BTreeMap<String, FunctionCoverage>) {
        let measured = self.measured.get_or_insert_with(BTreeMap::new);
        for (line, coverage) in functions.values().flat_map(|f| &f.lines) {
            // Two functions on one line: the line ran if either did.
            let merged = measured.entry(*line).or_default();
            merged.count = merged.count.max(coverage.count);
            merged.branches += coverage.branches;
            merged.branches_taken += coverage.branches_taken;
        }
    }

    /// Takes what comparing one function's claims with gcov found.
    pub(crate) fn record_comparison(&mut self, comparison: &Comparison) {
        for note in &comparison.unmeasured_claims {
            let notes = self.claimed_not_measured.entry(note.line).or_default();
            notes.push(note.message.clone());
        }
        for note in &comparison.unmeasurable {
            let notes = self.unmeasurable.entry(note.line).or_default();
            notes.push(note.message.clone());
        }
        for (line, count) in &comparison.unpredicted {
            *self.unpredicted.entry(*line).or_default() += count;
        }
    }

    pub fn class(&self, line: u32) -> LineClass {
        if self.claimed_not_measured.contains_key(&line) {
            return LineClass::ClaimedNotMeasured;
        }
        let Some(measured) = &self.measured else {
            return match self.goals.contains_key(&line) {
                true => LineClass::NotMeasured,
                false => LineClass::NoCode,
            };
        };
        match measured.get(&line) {
            None => LineClass::NoCode,
            Some(c) if c.count == 0 => LineClass::NotRun,
            Some(c) if c.branches_taken < c.branches => LineClass::PartlyRun,
            Some(_) => LineClass::Run,
        }
    }
}

/// A test's function as the driver wrote it (`text`): its one-line
/// comment, then the definition through its closing brace, if found.
pub(crate) fn test_code(text: &str, name: &str) -> Option<String> {
    let lines: Vec<&str> = text.lines().collect();
    let call = format!(" {name}(");
    let header = lines.iter().position(|l| {
        !l.starts_with(char::is_whitespace) && l.contains(&call) && !l.ends_with(';')
    })?;
    let comment = header
        .checked_sub(1)
        .filter(|&above| lines[above].starts_with("/*") && lines[above].ends_with("*/"));
    through_body(&lines, comment.unwrap_or(header), header)
}

/// Reproducer `number` as the reproducers file wrote it: from its
/// `/* Finding N: ... */` comment through the function that runs it.
pub(crate) fn reproducer_code(text: &str, number: u32) -> Option<String> {
    let lines: Vec<&str> = text.lines().collect();
    let tag = format!("/* Finding {number}: ");
    let start = lines.iter().position(|l| l.starts_with(&tag))?;
    // An uninitialized read's reproducer has a helper before it.
    let header = start
        + lines[start..]
            .iter()
            .position(|l| l.starts_with("static void "))?;
    through_body(&lines, start, header)
}

/// `lines[start..]` through the first closing brace in column 0 after `header`.
fn through_body(lines: &[&str], start: usize, header: usize) -> Option<String> {
    let end = header + lines[header..].iter().position(|l| *l == "}")?;
    Some(lines[start..=end].join("\n"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compare::LineNote;

    fn coverage(count: u64, branches: usize, branches_taken: usize) -> LineCoverage {
        LineCoverage {
            count,
            branches,
            branches_taken,
        }
    }

    fn goal(line: u32) -> GoalJson {
        GoalJson {
            key: format!("f:{line}:5:T"),
            file: "f.c".into(),
            line,
            col: 5,
            label: "x > 0: true".into(),
            site: 0,
            target: 1,
            covered: true,
            reason: None,
        }
    }

    #[test]
    fn each_line_is_classified_by_what_gcov_measured_and_what_the_check_found() {
        let mut listing = SourceListing::new(PathBuf::from("f.c"), Ok(String::new()));
        listing.goals.insert(3, vec![goal(3)]);
        // Before any measurement only lines with goals are code.
        assert_eq!(listing.class(3), LineClass::NotMeasured);
        assert_eq!(listing.class(4), LineClass::NoCode);
        let lines = BTreeMap::from([
            (2, coverage(4, 0, 0)),
            (3, coverage(4, 2, 1)),
            (5, coverage(0, 2, 0)),
            (7, coverage(1, 2, 2)),
        ]);
        let comparison = Comparison {
            unmeasured_claims: vec![LineNote {
                line: 7,
                message: "line 7: claimed".into(),
            }],
            unmeasurable: vec![],
            unpredicted: BTreeMap::from([(3, 1)]),
        };
        let function = FunctionCoverage { lines };
        listing.record_measure(&BTreeMap::from([("f".to_string(), function)]));
        listing.record_comparison(&comparison);
        let classes: Vec<LineClass> = (1..=7).map(|l| listing.class(l)).collect();
        use LineClass::*;
        assert_eq!(
            classes,
            [
                NoCode,
                Run,
                PartlyRun,
                NoCode,
                NotRun,
                NoCode,
                ClaimedNotMeasured
            ]
        );
        assert_eq!(listing.unpredicted[&3], 1);
        assert_eq!(listing.claimed_not_measured[&7], ["line 7: claimed"]);
    }

    const DRIVER: &str = r"static int cairn_expect(int a);
/* newly covers f.c:3 true */
static int test_f_1(void)
{
    int result = f(1);
    return cairn_expect(result);
}

static int test_f_10(void)
{
    return 0;
}
";

    #[test]
    fn a_test_is_cut_from_the_driver_with_its_comment() {
        assert_eq!(
            test_code(DRIVER, "test_f_1").as_deref(),
            Some("/* newly covers f.c:3 true */\nstatic int test_f_1(void)\n{\n    int result = f(1);\n    return cairn_expect(result);\n}")
        );
        assert_eq!(
            test_code(DRIVER, "test_f_10").as_deref(),
            Some("static int test_f_10(void)\n{\n    return 0;\n}")
        );
        // A declaration or a call is not the definition.
        assert_eq!(test_code(DRIVER, "cairn_expect"), None);
        assert_eq!(test_code(DRIVER, "test_f_2"), None);
    }

    #[test]
    fn a_reproducer_is_cut_with_its_helper() {
        let findings = "/* Finding 1: leak */\nstatic void finding_1(void)\n{\n    f();\n}\n\n\
/* Finding 2: uninitialized-read */\nstatic long long finding_2_call(int fill)\n{\n    return g();\n}\n\n\
static void finding_2(void)\n{\n    cairn_compare_fills(finding_2_call);\n}\n";
        assert_eq!(
            reproducer_code(findings, 1).as_deref(),
            Some("/* Finding 1: leak */\nstatic void finding_1(void)\n{\n    f();\n}")
        );
        let second = reproducer_code(findings, 2).expect("finding 2");
        assert!(second.starts_with("/* Finding 2:"), "{second}");
        assert!(second.ends_with("finding_2_call);\n}"), "{second}");
        assert_eq!(reproducer_code(findings, 3), None);
    }
}
