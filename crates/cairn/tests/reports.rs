//! `cairn check --junit --sarif` end to end: gen on the faulty corpus file,
//! a source change that makes one test fail, then both reports read back
//! (JUnit with an XML parser, SARIF against its schema).

mod common;
#[path = "../../../tests/schemas/sarif_validator.rs"]
mod sarif_validator;

use common::{arg, corpus, text};
use quick_xml::events::Event;
use std::process::Command;

/// Each `<testcase>` as (classname, name, the verdict element inside, if any).
fn test_cases(xml: &str) -> Vec<(String, String, Option<String>)> {
    let mut reader = quick_xml::Reader::from_str(xml);
    let mut cases = Vec::new();
    loop {
        match reader.read_event().expect("well-formed JUnit XML") {
            Event::Start(e) | Event::Empty(e) if e.name().as_ref() == b"testcase" => {
                let attribute = |name: &[u8]| {
                    e.try_get_attribute(name)
                        .expect("an attribute")
                        .map(|a| a.unescape_value().expect("escaped").into_owned())
                        .unwrap_or_default()
                };
                cases.push((attribute(b"classname"), attribute(b"name"), None));
            }
            Event::Start(e) | Event::Empty(e)
                if matches!(e.name().as_ref(), b"failure" | b"error" | b"skipped") =>
            {
                let verdict = String::from_utf8_lossy(e.name().as_ref()).into_owned();
                cases.last_mut().expect("inside a testcase").2 = Some(verdict);
            }
            Event::Eof => return cases,
            _ => {}
        }
    }
}

#[test]
fn junit_and_sarif_reports_describe_the_tests_and_the_findings() {
    let dir = tempfile::tempdir().expect("temp dir");
    let source = dir.path().join("faults.c");
    let original = std::fs::read_to_string(corpus("faulty", "faults.c")).expect("faults.c");
    std::fs::write(&source, &original).expect("write faults.c");
    let cairn = |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_cairn"))
            .args(args)
            .current_dir(dir.path())
            .output()
            .expect("run cairn")
    };
    let gen = cairn(&["gen", "faults.c", "-o", "out", "--max-time", "5"]);
    assert!(gen.status.success(), "{}", text(&gen.stderr));
    // `contains` now answers 2 where its tests expect 1.
    let changed = original.replacen("return 1;", "return 2;", 1);
    assert_ne!(changed, original);
    std::fs::write(&source, changed).expect("change faults.c");

    let junit = dir.path().join("junit.xml");
    let sarif = dir.path().join("faults.sarif");
    let check = cairn(&[
        "check",
        "out",
        "--sanitize",
        "--junit",
        arg(&junit),
        "--sarif",
        arg(&sarif),
    ]);
    let stdout = text(&check.stdout);
    assert_eq!(check.status.code(), Some(1), "{stdout}");
    assert!(
        !stdout.contains("FailingTests") && !stdout.contains("Exited("),
        "{stdout}"
    );

    let xml = std::fs::read_to_string(&junit).expect("junit.xml written");
    let cases = test_cases(&xml);
    let tests: Vec<_> = cases.iter().filter(|(c, _, _)| c == "faults").collect();
    assert!(tests.len() > 10, "{xml}");
    assert!(tests.iter().all(|(_, name, _)| name.starts_with("test_")));
    let failed: Vec<_> = tests.iter().filter(|(_, _, v)| v.is_some()).collect();
    assert!(!failed.is_empty(), "{xml}");
    assert!(
        failed
            .iter()
            .any(|(_, name, _)| name.starts_with("test_contains_")),
        "{xml}"
    );
    assert!(
        failed
            .iter()
            .all(|(_, _, v)| v.as_deref() == Some("failure")),
        "{xml}"
    );
    assert!(xml.contains("returned 2, expected 1"), "{xml}");
    assert!(xml.contains(" time=\""), "{xml}");
    let findings: Vec<_> = cases
        .iter()
        .filter(|(c, _, _)| c == "faults.findings")
        .collect();
    assert!(
        findings.iter().any(
            |(_, name, v)| name.contains("null-dereference in second_key")
                && v.as_deref() == Some("failure")
        ),
        "{xml}"
    );

    let log: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&sarif).expect("SARIF written"))
            .expect("SARIF is JSON");
    let validator = sarif_validator::sarif_validator();
    let errors: Vec<String> = validator.iter_errors(&log).map(|e| e.to_string()).collect();
    assert!(errors.is_empty(), "{errors:#?}");
    let results = log["runs"][0]["results"].as_array().expect("results");
    assert_eq!(results.len(), findings.len());
    let null = results
        .iter()
        .find(|r| r["ruleId"] == "null-dereference")
        .expect("the NULL dereference");
    let place = &null["locations"][0]["physicalLocation"];
    assert_eq!(place["artifactLocation"]["uri"], "faults.c");
    assert_eq!(
        place["region"]["startLine"],
        common::line_of(&source, "fault: NULL dereference")
    );
    assert!(null["codeFlows"][0]["threadFlows"][0]["locations"]
        .as_array()
        .is_some_and(|steps| steps.len() >= 2));
    assert_eq!(null["properties"]["confirmed"], true);
    assert!(null["properties"]["reproducerCommand"]
        .as_str()
        .is_some_and(|c| c.contains("faults_findings.c")));
}
