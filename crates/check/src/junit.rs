//! The check report as JUnit XML, the dialect Jenkins, GitLab and GitHub
//! test reporters read: `<testsuites>` holding, per source file, a suite of
//! the driver's tests (classname = file stem, name = the test's function in
//! the driver) and, when the file has findings, a suite of their
//! reproducers.

use crate::report::{CheckReport, FileCheck, FindingReport, TestOutcome, TestRun};
use emit::xml;
use std::fmt::Write;

/// One `<testcase>` as it is written.
struct Case {
    classname: String,
    name: String,
    seconds: Option<f64>,
    verdict: Verdict,
}

/// What a `<testcase>` holds besides its name.
enum Verdict {
    Passed,
    /// `<failure>`: what the test checks does not hold.
    Failure {
        message: String,
        details: String,
    },
    /// `<error>`: the test could not run to its end.
    Error {
        message: String,
        details: String,
    },
    Skipped {
        message: String,
    },
}

struct Suite {
    name: String,
    cases: Vec<Case>,
}

impl Suite {
    fn count(&self, wanted: fn(&Verdict) -> bool) -> usize {
        self.cases.iter().filter(|c| wanted(&c.verdict)).count()
    }

    fn seconds(&self) -> f64 {
        // Folded from +0.0: an empty f64 sum is -0.0.
        self.cases
            .iter()
            .filter_map(|c| c.seconds)
            .fold(0.0, |a, b| a + b)
    }
}

fn is_failure(v: &Verdict) -> bool {
    matches!(v, Verdict::Failure { .. })
}

fn is_error(v: &Verdict) -> bool {
    matches!(v, Verdict::Error { .. })
}

fn is_skipped(v: &Verdict) -> bool {
    matches!(v, Verdict::Skipped { .. })
}

/// The whole report as a JUnit XML document.
pub fn junit(report: &CheckReport) -> String {
    let suites: Vec<Suite> = report
        .files
        .iter()
        .flat_map(|file| {
            let tests = Suite {
                name: file.source.clone(),
                cases: file.tests.iter().map(|t| test_case(file, t)).collect(),
            };
            let findings = (!file.findings.is_empty()).then(|| Suite {
                name: format!("{}: findings", file.source),
                cases: file
                    .findings
                    .iter()
                    .map(|f| finding_case(file, f))
                    .collect(),
            });
            std::iter::once(tests).chain(findings)
        })
        .collect();
    let mut out = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    let total =
        |wanted: fn(&Verdict) -> bool| suites.iter().map(|s| s.count(wanted)).sum::<usize>();
    let _ = writeln!(
        out,
        "<testsuites name=\"cairn check\" tests=\"{}\" failures=\"{}\" errors=\"{}\" skipped=\"{}\" time=\"{:.6}\">",
        suites.iter().map(|s| s.cases.len()).sum::<usize>(),
        total(is_failure),
        total(is_error),
        total(is_skipped),
        suites.iter().map(Suite::seconds).fold(0.0, |a, b| a + b)
    );
    for suite in &suites {
        write_suite(&mut out, suite);
    }
    out.push_str("</testsuites>\n");
    out
}

fn write_suite(out: &mut String, suite: &Suite) {
    let _ = writeln!(
        out,
        "  <testsuite name=\"{}\" tests=\"{}\" failures=\"{}\" errors=\"{}\" skipped=\"{}\" time=\"{:.6}\">",
        xml::attribute(&suite.name),
        suite.cases.len(),
        suite.count(is_failure),
        suite.count(is_error),
        suite.count(is_skipped),
        suite.seconds()
    );
    for case in &suite.cases {
        let time = case
            .seconds
            .map(|s| format!(" time=\"{s:.6}\""))
            .unwrap_or_default();
        let open = format!(
            "    <testcase classname=\"{}\" name=\"{}\"{time}",
            xml::attribute(&case.classname),
            xml::attribute(&case.name)
        );
        match &case.verdict {
            Verdict::Passed => {
                let _ = writeln!(out, "{open}/>");
            }
            Verdict::Skipped { message } => {
                let _ = writeln!(
                    out,
                    "{open}>\n      <skipped message=\"{}\"/>\n    </testcase>",
                    xml::attribute(message)
                );
            }
            Verdict::Failure { message, details } | Verdict::Error { message, details } => {
                let tag = if is_failure(&case.verdict) {
                    "failure"
                } else {
                    "error"
                };
                let _ = writeln!(
                    out,
                    "{open}>\n      <{tag} message=\"{}\">{}</{tag}>\n    </testcase>",
                    xml::attribute(message),
                    xml::text(details)
                );
            }
        }
    }
    out.push_str("  </testsuite>\n");
}

fn test_case(file: &FileCheck, test: &TestRun) -> Case {
    let details = test.messages.join("\n");
    let first = test.messages.first().cloned();
    let verdict = match test.outcome {
        TestOutcome::Passed => Verdict::Passed,
        TestOutcome::Failed => Verdict::Failure {
            message: first.unwrap_or_else(|| "a check failed".to_string()),
            details,
        },
        TestOutcome::Error => Verdict::Error {
            message: first.unwrap_or_else(|| "the test did not end normally".to_string()),
            details,
        },
        TestOutcome::Skipped => Verdict::Skipped {
            message: first.unwrap_or_else(|| "not in the driver".to_string()),
        },
        TestOutcome::NotRun => Verdict::Error {
            message: "did not run: the driver did not compile or stopped before this test"
                .to_string(),
            details: file
                .problems
                .iter()
                .map(|p| format!("{}: {}", p.kind, p.message))
                .collect::<Vec<_>>()
                .join("\n"),
        },
    };
    Case {
        classname: file.stem.clone(),
        name: test.name.clone(),
        seconds: test.seconds,
        verdict,
    }
}

/// A finding's reproducer: a failure when `check --sanitize` confirmed the
/// fault (the code misbehaves on that input), else skipped with the reason.
fn finding_case(file: &FileCheck, finding: &FindingReport) -> Case {
    let number = finding
        .reproducer
        .map_or_else(|| "-".to_string(), |n| n.to_string());
    let place = format!(
        "{} at {}:{}:{}",
        finding.function,
        finding.file.display(),
        finding.line,
        finding.col
    );
    let vouching = match finding.unvouched_inputs.as_slice() {
        [] => String::new(),
        unvouched => format!(" (input not vouched for: {})", unvouched.join(", ")),
    };
    let run = finding.reproducer.and_then(|n| file.reproducer_run(n));
    let verdict = match (finding.reproducer, run) {
        (None, _) => Verdict::Skipped {
            message: "no reproducer could be written for it".to_string(),
        },
        (Some(_), None) => Verdict::Skipped {
            message: "reproducer not run: `cairn check --sanitize` runs it".to_string(),
        },
        (Some(_), Some(run)) => match &run.evidence {
            Some(evidence) => {
                let mut details = vec![
                    format!("{} in {place}: {}{vouching}", finding.kind, finding.message),
                    format!("confirmed: {evidence}"),
                ];
                details.extend(
                    finding
                        .reproducer_command
                        .as_ref()
                        .map(|c| format!("reproduce: {c}")),
                );
                Verdict::Failure {
                    message: format!("{}{vouching}: {evidence}", finding.message),
                    details: details.join("\n"),
                }
            }
            None => Verdict::Skipped {
                message: format!("not confirmed: the reproducer {}, no evidence", run.ending),
            },
        },
    };
    Case {
        classname: format!("{}.findings", file.stem),
        name: format!("finding {number}: {} in {place}", finding.kind),
        seconds: None,
        verdict,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::sample_file_check;
    use quick_xml::events::Event;
    use std::path::Path;

    /// Every element of `xml` as (name, attributes), attribute values
    /// unescaped, with the text each failure or error holds.
    fn elements(xml: &str) -> Vec<(String, Vec<(String, String)>)> {
        let mut reader = quick_xml::Reader::from_str(xml);
        let mut found = Vec::new();
        loop {
            match reader.read_event().expect("well-formed XML") {
                Event::Start(e) | Event::Empty(e) => {
                    let attributes = e
                        .attributes()
                        .map(|a| {
                            let a = a.expect("an attribute");
                            let value = a.unescape_value().expect("escaped value");
                            (
                                String::from_utf8_lossy(a.key.as_ref()).into_owned(),
                                value.into_owned(),
                            )
                        })
                        .collect();
                    found.push((
                        String::from_utf8_lossy(e.name().as_ref()).into_owned(),
                        attributes,
                    ));
                }
                Event::Text(t) => {
                    let text = t.unescape().expect("escaped text").into_owned();
                    if !text.trim().is_empty() {
                        found.push(("#text".to_string(), vec![("".to_string(), text)]));
                    }
                }
                Event::Eof => return found,
                _ => {}
            }
        }
    }

    fn attribute_of<'e>(element: &'e (String, Vec<(String, String)>), name: &str) -> &'e str {
        let (_, attributes) = element;
        attributes
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
            .unwrap_or_else(|| panic!("no {name} in {element:?}"))
    }

    #[test]
    fn tests_and_findings_become_suites_of_test_cases() {
        let report = CheckReport {
            files: vec![sample_file_check(Path::new("/out"))],
        };
        let xml = junit(&report);
        let found = elements(&xml);
        let names: Vec<&str> = found.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(
            names,
            [
                "testsuites",
                "testsuite",
                "testcase",
                "testcase",
                "failure",
                "#text",
                "testcase",
                "error",
                "#text",
                "testcase",
                "skipped",
                "testsuite",
                "testcase",
                "failure",
                "#text",
            ],
            "{xml}"
        );
        let root = &found[0];
        assert_eq!(attribute_of(root, "tests"), "5");
        assert_eq!(attribute_of(root, "failures"), "2");
        assert_eq!(attribute_of(root, "errors"), "1");
        assert_eq!(attribute_of(root, "skipped"), "1");
        assert_eq!(attribute_of(&found[1], "name"), "m.c");
        assert_eq!(attribute_of(&found[2], "classname"), "m");
        assert_eq!(attribute_of(&found[2], "name"), "test_clamp_1");
        assert_eq!(attribute_of(&found[2], "time"), "0.000400");
        // The failed check, escaped and read back whole.
        assert_eq!(
            attribute_of(&found[4], "message"),
            "clamp(5, 1, 3) returned 5, expected 3 <\"&\">"
        );
        assert_eq!(
            attribute_of(&found[7], "message"),
            "killed by signal SIGSEGV (segmentation fault)"
        );
        assert_eq!(attribute_of(&found[10], "message"), "a float input");
        assert_eq!(attribute_of(&found[11], "name"), "m.c: findings");
        assert_eq!(
            attribute_of(&found[12], "name"),
            "finding 1: division-by-zero in ratio at /out/../m.c:11:14"
        );
        let details = attribute_of(&found[14], "");
        assert!(
            details.contains("confirmed: the sanitizers report"),
            "{details}"
        );
        assert!(details.contains("reproduce: gcc "), "{details}");
    }

    #[test]
    fn a_driver_that_did_not_compile_leaves_its_tests_in_error() {
        let mut file = sample_file_check(Path::new("/out"));
        for test in &mut file.tests {
            if test.outcome != TestOutcome::Skipped {
                test.outcome = TestOutcome::NotRun;
            }
        }
        file.problems.push(crate::Problem::new(
            crate::ProblemKind::CompileError,
            "m_test.c:3: error: expected ';'",
        ));
        let xml = junit(&CheckReport { files: vec![file] });
        assert!(xml.contains("errors=\"3\""), "{xml}");
        assert!(
            xml.contains("does not compile: m_test.c:3: error: expected &apos;;&apos;"),
            "{xml}"
        );
    }
}
