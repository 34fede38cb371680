//! The generated files for the hand-built sample (see `emit::fixture`):
//! golden text, and the real thing compiled with cc and run.

use emit::fixture::{int_value, sample_program, sample_reports, CLASSIFY, SAMPLE_C};
use emit::{write_outputs, EmitConfig, EmitSummary, Framework};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use testcase::json::TestsFile;
use testcase::{ApiCall, FunctionReport, ObjectId, Value};

/// `dir/sample.c` and the output directory `dir/out`.
struct Sample {
    dir: tempfile::TempDir,
}

impl Sample {
    fn new() -> Self {
        let dir = tempfile::tempdir().expect("temp dir");
        std::fs::write(dir.path().join("sample.c"), SAMPLE_C).expect("write sample.c");
        Sample { dir }
    }

    fn out(&self) -> PathBuf {
        self.dir.path().join("out")
    }

    fn emit(&self, reports: &[FunctionReport]) -> EmitSummary {
        self.emit_for(reports, Framework::Plain)
    }

    fn emit_for(&self, reports: &[FunctionReport], framework: Framework) -> EmitSummary {
        let config = EmitConfig {
            out_dir: self.out(),
            source: self.dir.path().join("sample.c"),
            flags: Default::default(),
            framework,
            unresolved: Default::default(),
        };
        write_outputs(&sample_program(), reports, &config).expect("emit")
    }

    fn read(&self, name: &str) -> String {
        std::fs::read_to_string(self.out().join(name)).expect(name)
    }

    /// The file with the temporary directory's path replaced by `<tmp>`.
    fn read_stable(&self, name: &str) -> String {
        self.read(name)
            .replace(&self.dir.path().display().to_string(), "<tmp>")
    }

    /// Compiles `file` (in OUT) with cc from `cwd`, as the contract promises.
    fn compile(&self, file: &str, cwd: &Path) -> PathBuf {
        let binary = self.dir.path().join(file.replace(".c", ""));
        let output = Command::new("cc")
            .current_dir(cwd)
            .args(["-Wall", "-Wextra", "-Werror"])
            .arg(self.out().join(file))
            .arg("-o")
            .arg(&binary)
            .arg("-lm")
            .output()
            .expect("run cc");
        assert!(
            output.status.success(),
            "cc failed:\n{}",
            String::from_utf8_lossy(&output.stderr)
        );
        binary
    }
}

fn run(binary: &Path, args: &[&str]) -> Output {
    Command::new(binary)
        .args(args)
        .output()
        .expect("run binary")
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

#[test]
fn driver_text_is_stable() {
    let sample = Sample::new();
    sample.emit(&sample_reports(&sample_program()));
    insta::assert_snapshot!("sample_test_c", sample.read_stable("sample_test.c"));
    insta::assert_snapshot!("sample_findings_c", sample.read_stable("sample_findings.c"));
}

#[test]
fn framework_drivers_are_stable() {
    let sample = Sample::new();
    sample.emit_for(&sample_reports(&sample_program()), Framework::Cmocka);
    insta::assert_snapshot!("sample_test_cmocka_c", sample.read_stable("sample_test.c"));
    sample.emit_for(&sample_reports(&sample_program()), Framework::Gtest);
    insta::assert_snapshot!("sample_test_cc", sample.read_stable("sample_test.cc"));
    insta::assert_snapshot!(
        "sample_test_cases_c",
        sample.read_stable("sample_test_cases.c")
    );
}

/// Runs `program` with `args` in `dir`, warnings as errors for compilers.
fn run_in(dir: &Path, program: &str, args: &[&str]) -> Output {
    let output = Command::new(program)
        .current_dir(dir)
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("cannot run {program}: {e}"));
    assert!(
        output.status.success(),
        "{program} {args:?}:\n{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    output
}

#[test]
fn framework_drivers_compile_cleanly_and_pass_with_their_runners() {
    const STRICT: [&str; 3] = ["-Wall", "-Wextra", "-Werror"];
    let sample = Sample::new();
    let out = sample.out();
    sample.emit_for(&sample_reports(&sample_program()), Framework::Cmocka);
    let mut cmocka = STRICT.to_vec();
    cmocka.extend(["sample_test.c", "-o", "cmocka_driver", "-lcmocka", "-lm"]);
    run_in(&out, "cc", &cmocka);
    let ran = run_in(&out, "./cmocka_driver", &[]);
    let report = stdout(&ran);
    // CMocka prints its summary on standard error.
    let summary = String::from_utf8_lossy(&ran.stderr);
    assert!(summary.contains("[  PASSED  ] 13 test(s)."), "{summary}");
    assert!(report.contains("[       OK ] test_classify_returns_1_when_a_gt_b\n"));

    sample.emit_for(&sample_reports(&sample_program()), Framework::Gtest);
    let mut c_part = STRICT.to_vec();
    c_part.extend(["-c", "sample_test_cases.c", "-o", "cases.o"]);
    run_in(&out, "cc", &c_part);
    let mut cxx = STRICT.to_vec();
    cxx.extend([
        "sample_test.cc",
        "cases.o",
        "-o",
        "gtest_driver",
        "-lgtest",
        "-lgtest_main",
        "-pthread",
        "-lm",
    ]);
    run_in(&out, "c++", &cxx);
    let report = stdout(&run_in(&out, "./gtest_driver", &[]));
    assert!(report.contains("[  PASSED  ] 13 tests."), "{report}");
    assert!(report.contains("[       OK ] sample.test_classify_returns_1_when_a_gt_b ("));
}

#[test]
fn json_text_is_stable() {
    let sample = Sample::new();
    sample.emit(&sample_reports(&sample_program()));
    insta::assert_snapshot!("sample_tests_json", sample.read_stable("sample.tests.json"));
}

#[test]
fn driver_compiles_from_another_directory_and_all_tests_pass() {
    let sample = Sample::new();
    let summary = sample.emit(&sample_reports(&sample_program()));
    let elsewhere = tempfile::tempdir().expect("temp dir");
    let binary = sample.compile("sample_test.c", elsewhere.path());
    let output = run(&binary, &[]);
    let text = stdout(&output);
    assert!(output.status.success(), "{text}");
    let tests: usize = summary.functions.iter().map(|f| f.tests).sum();
    assert_eq!(tests, 13);
    assert_eq!(text, "13 passed, 0 failed\n");
}

#[test]
fn a_test_named_on_the_command_line_runs_alone_in_process() {
    let sample = Sample::new();
    let mut reports = sample_reports(&sample_program());
    reports[0].tests[0].ret = Some(int_value(0));
    sample.emit(&reports);
    let binary = sample.compile("sample_test.c", &sample.out());
    // Names say what the engine predicted: here a wrong return value.
    let alone = run(&binary, &["test_classify_returns_0_when_a_gt_b"]);
    assert_eq!(
        stdout(&alone),
        "FAIL test_classify_returns_0_when_a_gt_b: classify(3, 1) returned 1, expected 0\n0 passed, 1 failed\n"
    );
    assert_eq!(alone.status.code(), Some(1));
    assert_eq!(
        stdout(&run(&binary, &["test_order_when_p_lo_gt_p_hi"])),
        "1 passed, 0 failed\n"
    );
    let unknown = run(&binary, &["test_nothing"]);
    assert_eq!(unknown.status.code(), Some(2));
    assert!(stdout(&unknown).starts_with(
        "no test named test_nothing; the tests are:\n  test_classify_returns_0_when_a_gt_b\n  test_classify_returns_0_when_a_is_b\n"
    ));
}

#[test]
fn earlier_calls_come_before_the_checked_call_in_the_driver_and_its_json() {
    let sample = Sample::new();
    let mut reports = sample_reports(&sample_program());
    // classify counts its calls in `calls`: two calls before the checked one
    // leave it at 3.
    let test = &mut reports[0].tests[0];
    for (a, b) in [(0, 0), (-4, 7)] {
        test.inputs.earlier_calls.push(ApiCall {
            func: CLASSIFY,
            args: vec![int_value(a), int_value(b)],
            part: None,
            initialises: None,
        });
    }
    test.checks[0].expected = int_value(3);
    sample.emit(&reports);
    let driver = sample.read("sample_test.c");
    let earlier = driver.find("    (void)classify(0, 0);\n    (void)classify(-4, 7);\n");
    let checked = driver.find("classify(3, 1);");
    assert!(
        earlier.is_some() && earlier < checked,
        "earlier calls before the checked call:\n{driver}"
    );
    let json: TestsFile =
        serde_json::from_str(&sample.read("sample.tests.json")).expect("tests.json parses");
    assert_eq!(
        json.functions[0].tests[0].inputs.earlier_calls,
        ["classify(0, 0)", "classify(-4, 7)"]
    );
    let binary = sample.compile("sample_test.c", &sample.out());
    let output = run(&binary, &[]);
    assert_eq!(stdout(&output), "13 passed, 0 failed\n");
}

#[test]
fn wrong_expectations_fail_with_one_line_each() {
    let sample = Sample::new();
    let mut reports = sample_reports(&sample_program());
    // classify(3, 1) really returns 1, and order() really sets *swapped to 1.
    reports[0].tests[0].ret = Some(int_value(0));
    reports[1].tests[0].checks[0].expected = int_value(0);
    // find() really returns &a[1], not &a[2].
    reports[2].tests[1].ret = Some(Value::Pointer {
        object: ObjectId(0),
        offset: 8,
    });
    sample.emit(&reports);
    let binary = sample.compile("sample_test.c", &sample.out());
    let output = run(&binary, &[]);
    let text = stdout(&output);
    assert_eq!(output.status.code(), Some(1), "{text}");
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 4, "{text}");
    assert_eq!(
        lines[0],
        "FAIL test_classify_returns_0_when_a_gt_b: classify(3, 1) returned 1, expected 0"
    );
    assert_eq!(
        lines[1],
        "FAIL test_order_when_p_lo_gt_p_hi: *swapped_in is 1, expected 0"
    );
    assert!(
        lines[2].starts_with("FAIL test_find_when_a_i_is_key: find(a_in, 3, 5) returned 0x"),
        "{}",
        lines[2]
    );
    assert!(lines[2].contains(", expected &a_in[2] (0x"), "{}", lines[2]);
    assert_eq!(lines[3], "10 passed, 3 failed");
}

#[test]
fn findings_reproducer_lists_and_runs_the_chosen_finding() {
    let sample = Sample::new();
    let summary = sample.emit(&sample_reports(&sample_program()));
    assert_eq!(summary.findings.len(), 1);
    assert_eq!(summary.findings[0].reproducer, Some(1));
    let binary = sample.compile("sample_findings.c", sample.dir.path());
    let listing = stdout(&run(&binary, &[]));
    assert!(
        listing.starts_with("1: division-by-zero in ratio at sample.c:"),
        "{listing}"
    );
    assert!(listing.trim_end().ends_with("divisor b is 0"), "{listing}");
    let out_of_range = run(&binary, &["2"]);
    assert_eq!(out_of_range.status.code(), Some(2));
    // 1 / 0 traps on x86-64: the reproducer dies of SIGFPE.
    use std::os::unix::process::ExitStatusExt;
    assert_eq!(run(&binary, &["1"]).status.signal(), Some(8));
}

#[test]
fn stale_findings_file_is_removed() {
    let sample = Sample::new();
    sample.emit(&sample_reports(&sample_program()));
    assert!(sample.out().join("sample_findings.c").exists());
    let mut reports = sample_reports(&sample_program());
    reports.iter_mut().for_each(|r| r.findings.clear());
    let summary = sample.emit(&reports);
    assert!(summary.findings_driver.is_none());
    assert!(!sample.out().join("sample_findings.c").exists());
}

#[test]
fn json_records_inputs_checks_and_claimed_coverage() {
    let sample = Sample::new();
    sample.emit(&sample_reports(&sample_program()));
    let file: TestsFile = serde_json::from_str(&sample.read("sample.tests.json")).expect("json");
    assert_eq!(file.source_from_out, "../sample.c");
    assert_eq!(file.driver, "sample_test.c");
    assert_eq!(file.findings_driver.as_deref(), Some("sample_findings.c"));
    let classify = &file.functions[0];
    assert_eq!(classify.name, "classify");
    assert_eq!(classify.goals.len(), 4);
    assert!(classify
        .goals
        .iter()
        .all(|g| g.covered && g.reason.is_none()));
    assert_eq!(classify.goals[0].key, "classify:14:9:T");
    assert_eq!(
        (classify.goals[0].line, classify.goals[0].label.as_str()),
        (14, "a > b: true")
    );
    let second = &classify.tests[1];
    assert_eq!(second.name, "test_classify_returns_0_when_a_is_b");
    assert_eq!(second.inputs.globals[0].name, "calls");
    assert_eq!(second.inputs.globals[0].value, serde_json::json!(41));
    assert_eq!(second.checks[0].lvalue, "result");
    assert_eq!(second.checks[1].lvalue, "calls");
    assert_eq!(second.checks[1].expected, serde_json::json!(42));
    assert_eq!(second.covers, ["classify:14:9:F", "classify:16:9:T"]);
    let find = &file.functions[2];
    assert_eq!(
        find.tests[1].expected_return,
        Some(serde_json::json!({"object": "a", "offset": 4}))
    );
    assert_eq!(
        find.tests[1].inputs.objects[0].c_name.as_deref(),
        Some("a_in")
    );
    let edges = &file.functions[1].tests[0].inputs.edges;
    assert_eq!(edges.len(), 1);
    assert_eq!(
        (
            edges[0].from.as_str(),
            edges[0].to.as_str(),
            edges[0].offset
        ),
        ("swapped", "*swapped", 0)
    );
    let ratio = &file.functions[5];
    assert_eq!(
        ratio.findings[0].kind,
        testcase::FindingKind::DivisionByZero
    );
    assert_eq!(ratio.findings[0].reproducer, Some(1));
    assert_eq!(ratio.stats.elapsed_ms, 12);
}

#[test]
fn a_test_the_driver_cannot_express_is_left_out_and_claims_nothing() {
    let sample = Sample::new();
    let mut reports = sample_reports(&sample_program());
    // A pointer to an input object that does not exist.
    reports[0].tests[2].inputs.args[0] = Value::Pointer {
        object: ObjectId(9),
        offset: 0,
    };
    let summary = sample.emit(&reports);
    assert!(
        summary
            .notes
            .iter()
            .any(|n| n.starts_with("test_classify_returns_minus_1_when_a_is_not_b left out")),
        "{:?}",
        summary.notes
    );
    let file: TestsFile = serde_json::from_str(&sample.read("sample.tests.json")).expect("json");
    let classify = &file.functions[0];
    assert!(classify.tests[2].skipped.is_some());
    let unclaimed: Vec<&str> = classify
        .goals
        .iter()
        .filter(|g| !g.covered)
        .map(|g| g.key.as_str())
        .collect();
    assert_eq!(unclaimed, ["classify:16:9:F"]);
    assert!(!sample
        .read("sample_test.c")
        .contains("test_classify_returns_minus_1"));
    let binary = sample.compile("sample_test.c", sample.dir.path());
    assert_eq!(stdout(&run(&binary, &[])), "12 passed, 0 failed\n");
}

#[test]
fn replacing_another_files_tests_is_noted() {
    let sample = Sample::new();
    sample.emit(&sample_reports(&sample_program()));
    let other_dir = sample.dir.path().join("other");
    std::fs::create_dir(&other_dir).expect("mkdir");
    std::fs::write(other_dir.join("sample.c"), SAMPLE_C).expect("write");
    let config = EmitConfig {
        out_dir: sample.out(),
        source: other_dir.join("sample.c"),
        flags: Default::default(),
        framework: Default::default(),
        unresolved: Default::default(),
    };
    let summary = write_outputs(
        &sample_program(),
        &sample_reports(&sample_program()),
        &config,
    )
    .expect("emit");
    assert_eq!(
        summary.notes,
        ["replaced the tests of ../sample.c, another file named sample.c"]
    );
    // Writing the same file again replaces nothing of anyone else's.
    let again = write_outputs(
        &sample_program(),
        &sample_reports(&sample_program()),
        &config,
    )
    .expect("emit");
    assert!(again.notes.is_empty());
}
