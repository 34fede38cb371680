//! `cairn check --junit --sarif --html` end to end: gen on the faulty
//! corpus file, a source change that makes one test fail, then both
//! reports read back (JUnit with an XML parser, SARIF against its schema);
//! and the HTML report checked for its contents and its markup, then
//! rendered in headless Chromium.

mod common;
#[path = "../../../tests/schemas/sarif_validator.rs"]
mod sarif_validator;

use common::{arg, cairn_in, corpus, text};
use quick_xml::events::Event;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

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
    let cairn = |args: &[&str]| cairn_in(dir.path(), args);
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

/// Well-formed enough for a browser to read as written: every tag that
/// is not void closes in order (the text of `<style>` and `<pre>` holds no
/// markup: everything from the source is escaped), and every `#anchor`
/// link names an `id` of the page. Returns the problems found.
fn markup_problems(html: &str) -> Vec<String> {
    const VOID: &[&str] = &["meta", "br", "img", "hr", "link", "input", "wbr"];
    let mut problems = Vec::new();
    let mut open: Vec<String> = Vec::new();
    let mut rest = html;
    while let Some(at) = rest.find('<') {
        let Some(end) = rest[at..].find('>') else {
            problems.push("a `<` never closed by `>`".to_string());
            break;
        };
        let tag = &rest[at + 1..at + end];
        rest = &rest[at + end + 1..];
        if tag.starts_with('!') {
            continue;
        }
        if let Some(name) = tag.strip_prefix('/') {
            match open.pop() {
                Some(top) if top == name => {}
                top => problems.push(format!("</{name}> closes {top:?}")),
            }
            continue;
        }
        let name: String = tag
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric())
            .collect();
        if name.is_empty() {
            problems.push(format!("`<{tag}>` is no tag: an unescaped `<`"));
        } else if name == "style" {
            // CSS is raw text up to its end tag.
            let end = rest.find("</style>").unwrap_or(rest.len());
            rest = &rest[end..];
            open.push(name);
        } else if !VOID.contains(&name.as_str()) && !tag.ends_with('/') {
            open.push(name);
        }
        if tag.contains('&') && !tag.contains("&amp;") && !tag.contains("&quot;") {
            problems.push(format!("a raw `&` in `<{tag}>`"));
        }
    }
    if !open.is_empty() {
        problems.push(format!("never closed: {open:?}"));
    }
    let ids: std::collections::HashSet<&str> = html
        .split(" id=\"")
        .skip(1)
        .filter_map(|s| s.split('"').next())
        .collect();
    for target in html
        .split("href=\"#")
        .skip(1)
        .filter_map(|s| s.split('"').next())
    {
        if !ids.contains(target) {
            problems.push(format!("a link to #{target}, which no id names"));
        }
    }
    problems
}

#[test]
fn the_markup_check_catches_what_a_browser_would_misread() {
    let good = "<html><head><style>a > b {}</style><meta charset=\"utf-8\"></head>\
        <body><p id=\"x\"><a href=\"#x\">a &lt; b</a><br></p></body></html>";
    assert_eq!(markup_problems(good), Vec::<String>::new());
    for broken in [
        "<p>if (a < b)</p>",
        "<p><b>x</p></b>",
        "<p><a href=\"#nowhere\">x</a></p>",
        "<div>",
    ] {
        assert!(!markup_problems(broken).is_empty(), "{broken}");
    }
}

/// The first of these browsers found on PATH.
fn chromium() -> Option<&'static str> {
    ["chromium", "chromium-browser", "google-chrome"]
        .into_iter()
        .find(|name| {
            Command::new(name)
                .arg("--version")
                .output()
                .is_ok_and(|o| o.status.success())
        })
}

/// Runs `command`, killed after `limit`; its exit status, or `None` when killed.
fn run_with_limit(command: &mut Command, limit: Duration) -> Option<std::process::ExitStatus> {
    let mut child = command
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("start the browser");
    let deadline = Instant::now() + limit;
    while Instant::now() < deadline {
        if let Some(status) = child.try_wait().expect("wait for the browser") {
            return Some(status);
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    let _ = child.kill();
    let _ = child.wait();
    None
}

#[test]
fn the_html_report_shows_coverage_tests_and_findings_and_renders_in_chromium() {
    let dir = tempfile::tempdir().expect("temp dir");
    let source = dir.path().join("faults.c");
    std::fs::copy(corpus("faulty", "faults.c"), &source).expect("copy faults.c");
    let cairn = |args: &[&str]| cairn_in(dir.path(), args);
    let gen = cairn(&["gen", "faults.c", "-o", "out", "--max-time", "5"]);
    assert!(gen.status.success(), "{}", text(&gen.stderr));
    let check = cairn(&["check", "out", "--html", "report"]);
    assert!(check.status.success(), "{}", text(&check.stdout));

    let report = dir.path().join("report");
    let read = |name: &str| {
        std::fs::read_to_string(report.join(name)).unwrap_or_else(|e| panic!("{name}: {e}"))
    };
    let index = read("index.html");
    let page = read("faults.html");
    for (name, html) in [("index.html", &index), ("faults.html", &page)] {
        let problems = markup_problems(html);
        assert!(problems.is_empty(), "{name}: {problems:#?}");
        assert!(
            !html.contains("http://") && !html.contains("https://") && !html.contains("<script"),
            "{name} must open offline"
        );
    }
    assert!(
        index.contains("<a href=\"faults.html\">faults.c</a>"),
        "{index}"
    );

    // Lines as gcov measured them: the NULL dereference's line ran, the
    // line after the use after free never did.
    let ran = common::line_of(&source, "fault: NULL dereference");
    assert!(
        page.contains(&format!("<tr class=\"run\" id=\"L{ran}\">")),
        "{page}"
    );
    let never = common::line_of(&source, "fault: use after free");
    assert!(
        page.contains(&format!("<tr class=\"not-run\" id=\"L{never}\">")),
        "{page}"
    );
    // An uncovered branch with the engine's reason, in words.
    assert!(page.contains("&#10007; <code>"), "{page}");
    assert!(page.contains("unsupported: only reached by paths that end in a finding"));
    // Every test, with its code from the driver; pictures copied beside the pages.
    let tests: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(dir.path().join("out/faults.tests.json")).expect("tests.json"),
    )
    .expect("JSON");
    let names: Vec<&str> = tests["functions"]
        .as_array()
        .expect("functions")
        .iter()
        .flat_map(|f| f["tests"].as_array().expect("tests"))
        .filter_map(|t| t["name"].as_str())
        .collect();
    assert!(names.len() > 10);
    for name in &names {
        assert!(
            page.contains(&format!("<div class=\"test\" id=\"{name}\">")),
            "{name}"
        );
        assert!(page.contains(&format!("int {name}(void)")), "{name}'s code");
    }
    let pictures: Vec<_> = std::fs::read_dir(report.join("shapes/faults"))
        .expect("the pictures")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .collect();
    assert!(!pictures.is_empty());
    for picture in &pictures {
        assert!(
            page.contains(&format!("<img src=\"shapes/faults/{picture}\"")),
            "{picture}"
        );
    }
    // The findings with their reproducers: file, code and command.
    assert!(page.contains("null-dereference in second_key"), "{page}");
    // The fault's line links to its finding.
    assert!(
        page.contains("finding: <code>null-dereference</code> in <code>second_key</code>"),
        "{page}"
    );
    assert!(page.contains("/out/faults_findings.c</code>"), "{page}");
    assert!(
        page.contains("static void finding_1_second_key_null_dereference(void)"),
        "{page}"
    );
    assert!(
        page.contains("-o faults_findings -lm &amp;&amp; ./faults_findings 1"),
        "{page}"
    );
    assert!(!page.contains("NullDereference") && !page.contains("Exited("));

    let Some(browser) = chromium() else {
        eprintln!(
            "\n!!! SKIPPED the screenshot of the HTML report: no chromium on PATH \
             (install it with `apt-get install chromium`) !!!\n"
        );
        return;
    };
    for (name, height) in [("index.html", 900), ("faults.html", 2000)] {
        let png = dir.path().join(format!("{name}.png"));
        let profile = tempfile::tempdir().expect("browser profile");
        let status = run_with_limit(
            Command::new(browser)
                .args([
                    "--headless",
                    "--no-sandbox",
                    "--disable-gpu",
                    "--hide-scrollbars",
                ])
                .arg(format!("--user-data-dir={}", profile.path().display()))
                .arg(format!("--screenshot={}", png.display()))
                .arg(format!("--window-size=1200,{height}"))
                .arg(format!("file://{}", report.join(name).display())),
            Duration::from_secs(120),
        );
        assert!(
            status.is_some_and(|s| s.success()),
            "{browser} on {name}: {status:?}"
        );
        let bytes = std::fs::read(&png).expect("the screenshot");
        assert!(bytes.starts_with(b"\x89PNG\r\n\x1a\n"), "{name}: not a PNG");
        // A blank page of this size compresses to under 10 kB.
        assert!(
            bytes.len() > 20_000,
            "{name}: {} bytes, blank?",
            bytes.len()
        );
    }
}
