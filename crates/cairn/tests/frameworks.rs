//! `cairn gen --framework plain|cmocka|gtest` end to end: each flavour of
//! the driver for a corpus file with stubs and globals is built and run
//! with its framework's own runner, and must pass as many tests as the
//! plain driver; `cairn check` then measures its coverage. Needs
//! libcmocka-dev and libgtest-dev (`scripts/setup.sh` installs them).

mod common;

use common::{arg, cairn, corpus, text};
use std::path::Path;
use std::process::Command;
use testcase::json::TestsFile;

/// Runs `program` with `args` in `dir`; panics with its output on failure.
fn run(dir: &Path, program: &str, args: &[&str]) -> String {
    let output = Command::new(program)
        .current_dir(dir)
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("cannot run {program}: {e}"));
    let printed = format!("{}{}", text(&output.stdout), text(&output.stderr));
    assert!(
        output.status.success(),
        "{program} {args:?} failed:\n{printed}"
    );
    printed
}

/// `cairn gen SOURCE -o OUT --framework FRAMEWORK`, which must succeed.
fn gen_in_flavour(source: &Path, out: &Path, framework: &str) -> std::process::Output {
    // The flavours are compared test for test: a generous deadline, the one
    // clock in a search, keeps a loaded machine from deciding their number.
    let gen = cairn(&[
        "gen",
        arg(source),
        "-o",
        arg(out),
        "--framework",
        framework,
        "--max-time",
        "60",
    ]);
    assert!(gen.status.success(), "{}", text(&gen.stderr));
    gen
}

/// Builds the driver in `out` as its header comment says, runs it, and
/// returns how many tests its runner reports passed, with its output.
fn build_and_run(framework: &str, out: &Path) -> (usize, String) {
    let output = match framework {
        "plain" => {
            run(out, "cc", &["calls_test.c", "-o", "driver", "-lm"]);
            run(out, "./driver", &[])
        }
        "cmocka" => {
            run(
                out,
                "cc",
                &["calls_test.c", "-o", "driver", "-lcmocka", "-lm"],
            );
            run(out, "./driver", &[])
        }
        "gtest" => {
            run(out, "cc", &["-c", "calls_test_cases.c", "-o", "cases.o"]);
            run(
                out,
                "c++",
                &[
                    "calls_test.cc",
                    "cases.o",
                    "-o",
                    "driver",
                    "-lgtest",
                    "-lgtest_main",
                    "-pthread",
                    "-lm",
                ],
            );
            run(out, "./driver", &[])
        }
        other => panic!("no framework {other}"),
    };
    // Each framework's own summary line.
    let passed = output.lines().find_map(|line| match framework {
        "plain" => line.strip_suffix(" passed, 0 failed")?.parse().ok(),
        "cmocka" => line
            .strip_prefix("[  PASSED  ] ")?
            .strip_suffix(" test(s).")?
            .parse()
            .ok(),
        _ => line
            .strip_prefix("[  PASSED  ] ")?
            .strip_suffix(" tests.")?
            .parse()
            .ok(),
    });
    let passed = passed.unwrap_or_else(|| panic!("no summary from {framework}:\n{output}"));
    (passed, output)
}

#[test]
fn every_flavour_passes_its_tests_with_its_own_runner_and_is_checked() {
    let dir = tempfile::tempdir().expect("temp dir");
    let source = corpus("scalar", "calls.c");
    let mut passed_per_framework = Vec::new();
    for framework in ["plain", "cmocka", "gtest"] {
        let out = dir.path().join(framework);
        gen_in_flavour(&source, &out, framework);
        let json = std::fs::read_to_string(out.join("calls.tests.json")).expect("tests.json");
        let tests: TestsFile = serde_json::from_str(&json).expect("tests.json parses");
        assert_eq!(tests.framework.name(), framework);
        let written: Vec<&str> = tests
            .functions
            .iter()
            .flat_map(|f| &f.tests)
            .filter(|t| t.skipped.is_none())
            .map(|t| t.name.as_str())
            .collect();
        let (passed, output) = build_and_run(framework, &out);
        assert_eq!(passed, written.len(), "{framework}:\n{output}");
        // Per-test results, the framework's way, under the names of tests.json.
        if framework != "plain" {
            for name in &written {
                assert!(
                    output
                        .lines()
                        .any(|l| l.starts_with("[       OK ] ") && l.contains(name)),
                    "{framework}: no OK line for {name}:\n{output}"
                );
            }
        }
        let check = cairn(&["check", arg(&out)]);
        assert!(
            check.status.success(),
            "check of {framework}:\n{}{}",
            text(&check.stdout),
            text(&check.stderr)
        );
        assert!(
            text(&check.stdout).contains(&format!("{passed} passed, 0 failed")),
            "{}",
            text(&check.stdout)
        );
        passed_per_framework.push(passed);
    }
    assert!(passed_per_framework[0] > 0);
    assert!(
        passed_per_framework
            .iter()
            .all(|p| *p == passed_per_framework[0]),
        "{passed_per_framework:?}"
    );
}

#[test]
fn a_failing_framework_test_fails_the_check_under_its_name() {
    let dir = tempfile::tempdir().expect("temp dir");
    let out = dir.path().join("out");
    let source = corpus("scalar", "calls.c");
    let gen = cairn(&["gen", arg(&source), "-o", arg(&out), "--framework", "gtest"]);
    assert!(gen.status.success(), "{}", text(&gen.stderr));
    // Expect a wrong value in the first check of the C part.
    let cases = out.join("calls_test_cases.c");
    let body = std::fs::read_to_string(&cases).expect("C part");
    let check_at = body
        .find("cairn_expect_signed(__func__, ")
        .expect("a signed check");
    let end = check_at + body[check_at..].find(");").expect("end of the check");
    let wrong = format!("{} + 1{}", &body[..end], &body[end..]);
    std::fs::write(&cases, wrong).expect("write C part");
    let test = body[..check_at]
        .rfind("\nint test_")
        .map(|at| &body[at + 5..])
        .and_then(|rest| rest.split('(').next())
        .expect("the test's name");
    let check = cairn(&["check", arg(&out)]);
    let printed = text(&check.stdout);
    assert_eq!(check.status.code(), Some(1), "{printed}");
    assert!(printed.contains(&format!("FAIL {test}: ")), "{printed}");
    assert!(printed.contains("1 failed"), "{printed}");
}

#[test]
fn shared_process_flavours_leave_out_tests_that_need_a_static_fresh() {
    let dir = tempfile::tempdir().expect("temp dir");
    let source = corpus("scalar", "statics.c");
    for framework in ["cmocka", "gtest"] {
        let out = dir.path().join(framework);
        let gen = gen_in_flavour(&source, &out, framework);
        let said = text(&gen.stdout) + &text(&gen.stderr);
        assert!(
            said.contains("at its initial value, which an earlier test may have changed"),
            "{said}"
        );
        // The tests left in pass, however the runner orders what they share.
        let check = cairn(&["check", arg(&out)]);
        assert!(
            check.status.success(),
            "check of {framework}:\n{}{}",
            text(&check.stdout),
            text(&check.stderr)
        );
    }
}
