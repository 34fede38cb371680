//! `check` over an output directory that `emit` wrote for the hand-built
//! sample (see `emit::fixture`), with gcc and gcov for real.

use check::{check, CheckConfig, CheckReport, FunctionCheck, ProblemKind, Ratio, TestOutcome};
use emit::fixture::{int_value, sample_program, sample_reports, CLASSIFY, SAMPLE_C};
use emit::{write_outputs, EmitConfig};
use ir::{Arm, BranchId, Goal};
use std::path::PathBuf;
use std::process::Command;
use testcase::FunctionReport;

struct Sample {
    dir: tempfile::TempDir,
}

impl Sample {
    fn new(reports: &[FunctionReport]) -> Self {
        let dir = tempfile::tempdir().expect("temp dir");
        std::fs::write(dir.path().join("sample.c"), SAMPLE_C).expect("write sample.c");
        let sample = Sample { dir };
        let config = EmitConfig {
            out_dir: sample.out(),
            source: sample.dir.path().join("sample.c"),
            flags: Default::default(),
            framework: Default::default(),
            unresolved: Default::default(),
        };
        write_outputs(&sample_program(), reports, &config).expect("emit");
        sample
    }

    fn out(&self) -> PathBuf {
        self.dir.path().join("out")
    }

    fn check(&self, sanitize: bool) -> CheckReport {
        check(
            &self.out(),
            &CheckConfig {
                cc: "gcc".into(),
                sanitize,
                ..CheckConfig::default()
            },
        )
        .expect("check")
    }

    /// Inserts `code` at the end of each named test of the written driver,
    /// after its call and checks, and sets the driver's time limit per test.
    fn inject(&self, timeout_seconds: u32, tests: &[(&str, &str)]) {
        let path = self.out().join("sample_test.c");
        let mut text = std::fs::read_to_string(&path).expect("driver");
        for (test, code) in tests {
            let start = text.find(&format!("static int {test}(void)")).expect(test);
            let end = start
                + text[start..]
                    .find("    return failures != 0;")
                    .expect("end");
            text.insert_str(end, &format!("    {code}\n"));
        }
        // Replaces the limit check sets with -D.
        let limit =
            format!("#undef CAIRN_TEST_TIMEOUT\n#define CAIRN_TEST_TIMEOUT {timeout_seconds}\n");
        std::fs::write(&path, limit + &text).expect("rewrite");
    }
}

fn function<'r>(report: &'r CheckReport, name: &str) -> &'r FunctionCheck {
    report.files[0]
        .functions
        .iter()
        .find(|f| f.name == name)
        .expect(name)
}

fn ratio(covered: usize, total: usize) -> Option<Ratio> {
    Some(Ratio { covered, total })
}

#[test]
fn measured_coverage_agrees_with_the_claims() {
    let sample = Sample::new(&sample_reports(&sample_program()));
    let report = sample.check(false);
    assert!(report.ok(), "{}", report.table());
    let file = &report.files[0];
    assert_eq!((file.passed, file.failed), (Some(13), Some(0)));
    for (name, branches) in [
        ("classify", 4),
        ("order", 2),
        ("find", 4),
        ("sensor_level", 4),
        ("first_bang", 4),
    ] {
        let f = function(&report, name);
        assert_eq!(
            f.predicted,
            Ratio {
                covered: branches,
                total: branches
            },
            "{name}"
        );
        assert_eq!(f.measured_branches, ratio(branches, branches), "{name}");
        let lines = f.measured_lines.expect(name);
        assert_eq!(lines.covered, lines.total, "{name}: every line runs");
        assert!(f.unmeasurable.is_empty(), "{name}: {:?}", f.unmeasurable);
    }
    let ratio_fn = function(&report, "ratio");
    assert_eq!(ratio_fn.measured_branches, ratio(0, 0));
    assert!(report.table().contains("13 passed, 0 failed"));
}

#[test]
fn a_claim_no_test_makes_good_is_caught() {
    let mut reports = sample_reports(&sample_program());
    // Drop the test that takes `a == b: false`, but let the engine still claim it.
    reports[0].tests.pop();
    let claimed = Goal {
        func: CLASSIFY,
        site: BranchId(1),
        arm: Arm::False,
    };
    reports[0].tests[1].path_goals.push(claimed);
    let sample = Sample::new(&reports);
    let report = sample.check(false);
    assert!(!report.ok());
    let problems = &report.files[0].problems;
    assert_eq!(problems.len(), 1, "{}", report.table());
    assert_eq!(problems[0].kind, ProblemKind::ClaimedNotMeasured);
    assert!(
        problems[0].message.contains("line 16") && problems[0].message.contains("a == b: false")
    );
    assert_eq!(function(&report, "classify").measured_branches, ratio(3, 4));
}

#[test]
fn a_failing_test_fails_the_check() {
    let mut reports = sample_reports(&sample_program());
    reports[0].tests[0].ret = Some(int_value(0));
    let sample = Sample::new(&reports);
    let report = sample.check(false);
    assert!(!report.ok());
    let file = &report.files[0];
    assert_eq!((file.passed, file.failed), (Some(12), Some(1)));
    assert_eq!(
        file.failures,
        ["FAIL test_classify_returns_0_when_a_gt_b: classify(3, 1) returned 1, expected 0"]
    );
    assert!(file
        .problems
        .iter()
        .any(|p| p.kind == ProblemKind::FailingTests));
    assert_eq!(function(&report, "classify").failed, 1);
    assert_eq!(function(&report, "order").failed, 0);
}

#[test]
fn sanitizers_confirm_the_finding_and_pass_the_driver() {
    let sample = Sample::new(&sample_reports(&sample_program()));
    let report = sample.check(true);
    assert!(report.ok(), "{}", report.table());
    let runs = &report.files[0].reproducers;
    assert_eq!(runs.len(), 1);
    assert!(runs[0].confirmed);
    assert!(
        runs[0].output.contains("division by zero"),
        "{}",
        runs[0].output
    );
    let single = check::run_reproducer(&sample.out(), "sample", 1, &CheckConfig::default())
        .expect("reproducer");
    assert!(single.confirmed);
}

#[test]
fn a_driver_that_does_not_compile_is_a_problem() {
    let sample = Sample::new(&sample_reports(&sample_program()));
    let driver = sample.out().join("sample_test.c");
    let text = std::fs::read_to_string(&driver).expect("driver");
    std::fs::write(&driver, text + "\nthis is not C;\n").expect("rewrite");
    let report = sample.check(false);
    assert!(!report.ok());
    assert_eq!(report.files[0].problems[0].kind, ProblemKind::CompileError);
    assert_eq!(report.files[0].passed, None);
}

#[test]
fn a_directory_without_tests_is_an_error() {
    let dir = tempfile::tempdir().expect("temp dir");
    let error = check(dir.path(), &CheckConfig::default()).expect_err("no tests");
    assert!(error.to_string().contains("no *.tests.json"));
}

/// A source that needs `-I` and `-D` to compile: the defines go into the
/// driver, the include directory into the JSON, and check uses both.
#[test]
fn preprocessor_flags_reach_the_driver_and_the_check() {
    let dir = tempfile::tempdir().expect("temp dir");
    let include = dir.path().join("inc");
    std::fs::create_dir(&include).expect("mkdir");
    std::fs::write(
        include.join("cfg.h"),
        "#ifndef SAMPLE_OK\n#error needs -DSAMPLE_OK\n#endif\n#include <stddef.h>\n",
    )
    .expect("write cfg.h");
    // Same line count as the sample: the goals keep their lines.
    let text = SAMPLE_C.replacen("#include <stddef.h>", "#include \"cfg.h\"", 1);
    let source = dir.path().join("sample.c");
    std::fs::write(&source, text).expect("write sample.c");
    let out = dir.path().join("out");
    let flags = emit::SourceFlags {
        defines: vec!["SAMPLE_OK".into()],
        include_dirs: vec![include.clone()],
        ..emit::SourceFlags::default()
    };
    let config = EmitConfig {
        out_dir: out.clone(),
        source,
        flags,
        framework: Default::default(),
        unresolved: Default::default(),
    };
    emit::write_outputs(
        &sample_program(),
        &sample_reports(&sample_program()),
        &config,
    )
    .expect("emit");
    let driver = std::fs::read_to_string(out.join("sample_test.c")).expect("driver");
    assert!(driver.contains("#define SAMPLE_OK 1\n"));
    assert!(driver.contains(&format!(
        "cc -I{} path/to/sample_test.c",
        include.canonicalize().unwrap().display()
    )));
    let report = check(
        &out,
        &CheckConfig {
            cc: "gcc".into(),
            sanitize: true,
            ..CheckConfig::default()
        },
    )
    .expect("check");
    assert!(report.ok(), "{}", report.table());
    assert_eq!(report.files[0].passed, Some(13));
}

#[test]
fn a_crashing_test_fails_alone() {
    let mut reports = sample_reports(&sample_program());
    // first_bang(NULL, ...) dereferences NULL: that test dies of SIGSEGV.
    reports[4].tests[1].inputs.args[0] = testcase::Value::Null;
    let sample = Sample::new(&reports);
    let report = sample.check(false);
    assert!(!report.ok());
    let file = &report.files[0];
    assert_eq!((file.passed, file.failed), (Some(12), Some(1)));
    assert_eq!(
        file.failures,
        ["FAIL test_first_bang_returns_0_when_s_is_nul: killed by signal SIGSEGV (segmentation fault)"]
    );
    assert_eq!(function(&report, "first_bang").failed, 1);
    assert!(file.problems.iter().all(|p| p.kind != ProblemKind::Crash));
    // The other tests' coverage is measured.
    assert_eq!(function(&report, "classify").measured_branches, ratio(4, 4));
    assert_eq!(function(&report, "find").measured_branches, ratio(4, 4));
}

/// Tests that crash, hang or print without end each fail with one line,
/// the others pass, and the coverage of every test, even of those that
/// were stopped, reaches gcov: it is the same as that of the clean driver.
#[test]
fn a_test_that_crashes_hangs_or_floods_fails_alone_and_keeps_its_coverage() {
    let clean = Sample::new(&sample_reports(&sample_program())).check(false);
    let sample = Sample::new(&sample_reports(&sample_program()));
    sample.inject(
        1,
        &[
            (
                "test_classify_returns_0_when_a_is_b",
                "*(volatile int *)0 = 0;",
            ),
            (
                "test_order_when_p_lo_gt_p_hi",
                "for (;;) printf(\"again and again\\n\");",
            ),
            ("test_find_returns_null_when_i_ge_n", "for (;;) {}"),
            ("test_sensor_level_returns_1_when_v_le_100", "abort();"),
        ],
    );
    let report = sample.check(false);
    let file = &report.files[0];
    assert_eq!(
        (file.passed, file.failed),
        (Some(9), Some(4)),
        "{}",
        report.table()
    );
    assert_eq!(
        file.failures,
        [
            "FAIL test_classify_returns_0_when_a_is_b: killed by signal SIGSEGV (segmentation fault)",
            "FAIL test_order_when_p_lo_gt_p_hi: printed more than 1048576 bytes, so it was stopped",
            "FAIL test_find_returns_null_when_i_ge_n: did not finish within 1 s",
            "FAIL test_sensor_level_returns_1_when_v_le_100: killed by signal SIGABRT (aborted)",
        ]
    );
    let kinds: Vec<ProblemKind> = file.problems.iter().map(|p| p.kind).collect();
    assert_eq!(kinds, [ProblemKind::FailingTests], "{}", report.table());
    for (measured, expected) in file.functions.iter().zip(&clean.files[0].functions) {
        assert_eq!(measured.measured_branches, expected.measured_branches);
        assert_eq!(measured.measured_lines, expected.measured_lines);
    }
}

/// With `stop_after_timeouts`, a driver stops once that many tests in a
/// row did not finish: a hang among tests that finish costs its time limit
/// alone, and each test after the run stopped is reported not run, never
/// passed.
#[test]
fn a_driver_stops_after_tests_in_a_row_do_not_finish() {
    let sample = Sample::new(&sample_reports(&sample_program()));
    let hang = "for (;;) {}";
    sample.inject(
        1,
        &[
            ("test_classify_returns_0_when_a_is_b", hang),
            ("test_find_returns_null_when_i_ge_n", hang),
            ("test_find_when_a_i_is_key", hang),
        ],
    );
    let config = CheckConfig {
        stop_after_timeouts: Some(2),
        ..CheckConfig::default()
    };
    let report = check(&sample.out(), &config).expect("check");
    let file = &report.files[0];
    assert_eq!(
        (file.passed, file.failed),
        (Some(4), Some(9)),
        "{}",
        report.table()
    );
    let outcome = |name: &str| {
        let run = file.tests.iter().find(|t| t.name == name).expect(name);
        (run.outcome, run.messages.join("; "))
    };
    assert_eq!(
        outcome("test_classify_returns_0_when_a_is_b"),
        (TestOutcome::Error, "did not finish within 1 s".to_string())
    );
    assert_eq!(
        outcome("test_order_when_p_lo_le_p_hi").0,
        TestOutcome::Passed
    );
    let stopped = "not run: the run stopped after tests did not finish within 1 s, 2 in a row (CAIRN_STOP_AFTER_TIMEOUTS)";
    for name in [
        "test_sensor_level_returns_minus_1_when_v_lt_0",
        "test_ratio_returns_2",
    ] {
        assert_eq!(outcome(name), (TestOutcome::NotRun, stopped.to_string()));
    }
    // The tests that ran are measured.
    assert_eq!(function(&report, "classify").measured_branches, ratio(4, 4));
    assert_eq!(
        function(&report, "sensor_level").measured_branches,
        ratio(0, 4)
    );
}

/// Under the sanitizers, a test's error is that test's failure, and the
/// tests after it still run.
#[test]
fn a_sanitizer_error_fails_its_test_and_the_others_run() {
    let sample = Sample::new(&sample_reports(&sample_program()));
    sample.inject(
        10,
        &[
            (
                "test_classify_returns_0_when_a_is_b",
                "{ int *gone = malloc(sizeof *gone); free(gone); (void)*(volatile int *)gone; }",
            ),
            (
                "test_order_when_p_lo_gt_p_hi",
                "{ void *volatile lost = malloc(8); lost = NULL; }",
            ),
        ],
    );
    let report = sample.check(true);
    let file = &report.files[0];
    // Without the sanitizers, neither error shows.
    assert_eq!((file.passed, file.failed), (Some(13), Some(0)));
    let problem = file
        .problems
        .iter()
        .find(|p| p.kind == ProblemKind::Sanitizer)
        .expect("a sanitizer problem");
    for expected in [
        "ERROR: AddressSanitizer: heap-use-after-free",
        "ERROR: LeakSanitizer: detected memory leaks",
        "FAIL test_classify_returns_0_when_a_is_b: exited with status 1",
        "FAIL test_order_when_p_lo_gt_p_hi: exited with status 1",
    ] {
        assert!(problem.message.contains(expected), "{}", problem.message);
    }
    assert!(file.reproducers[0].confirmed);
}

/// Line and branch counts of one file in `gcov --json-format` output:
/// `(line, count, branch counts)`.
fn counts_of(gcov_json: &[u8], file_suffix: &str) -> Vec<(u64, u64, Vec<u64>)> {
    let document: serde_json::Value = serde_json::from_slice(gcov_json).expect("gcov json");
    let file = document["files"]
        .as_array()
        .expect("files")
        .iter()
        .find(|f| f["file"].as_str().is_some_and(|n| n.ends_with(file_suffix)))
        .expect(file_suffix);
    let number = |v: &serde_json::Value| v.as_u64().expect("a count");
    file["lines"]
        .as_array()
        .expect("lines")
        .iter()
        .map(|l| {
            let branches = l["branches"].as_array().expect("branches");
            (
                number(&l["line_number"]),
                number(&l["count"]),
                branches.iter().map(|b| number(&b["count"])).collect(),
            )
        })
        .collect()
}

/// With a process per test, the counts of the code under test are those of
/// running the tests one after the other (`./driver TEST`, each writing its
/// counts at exit), and a child writes only what it ran, not the counts it
/// inherited from the parent: the parent's call of each test counts once.
#[test]
fn each_count_is_written_once_by_the_process_that_made_it() {
    let sample = Sample::new(&sample_reports(&sample_program()));
    let build = tempfile::tempdir().expect("temp dir");
    let binary = build.path().join("driver");
    let object = build.path().join("driver.o");
    let compile = |args: &[&std::ffi::OsStr]| {
        let status = Command::new("gcc")
            .arg("--coverage")
            .args(args)
            .status()
            .expect("gcc");
        assert!(status.success());
    };
    let driver = sample.out().join("sample_test.c");
    compile(&[
        "-c".as_ref(),
        driver.as_ref(),
        "-o".as_ref(),
        object.as_ref(),
    ]);
    compile(&[object.as_ref(), "-o".as_ref(), binary.as_ref()]);
    let gcov = || {
        let output = Command::new("gcov")
            .args(["-b", "--json-format", "--stdout", "driver.gcda"])
            .current_dir(build.path())
            .output()
            .expect("gcov");
        assert!(output.status.success());
        std::fs::remove_file(build.path().join("driver.gcda")).expect("remove");
        output.stdout
    };
    let run = |args: &[&str]| {
        Command::new(&binary)
            .args(args)
            .current_dir(build.path())
            .output()
            .expect("driver")
    };
    assert!(run(&[]).status.success());
    let isolated = gcov();
    let tests = check::read_tests_file(&sample.out().join("sample.tests.json")).expect("json");
    let names: Vec<&str> = tests
        .functions
        .iter()
        .flat_map(|f| &f.tests)
        .map(|t| t.name.as_str())
        .collect();
    for name in &names {
        assert!(run(&[name]).status.success(), "{name}");
    }
    let one_after_another = gcov();
    assert_eq!(
        counts_of(&isolated, "sample.c"),
        counts_of(&one_after_another, "sample.c")
    );
    let call_line = std::fs::read_to_string(&driver)
        .expect("driver")
        .lines()
        .position(|l| l.contains("switch (cairn_run_in_child(&cairn_tests[i]))"))
        .expect("the call of each test") as u64
        + 1;
    let calls = counts_of(&isolated, "sample_test.c")
        .into_iter()
        .find(|(line, _, _)| *line == call_line)
        .map(|(_, count, _)| count);
    assert_eq!(calls, Some(names.len() as u64));
}
