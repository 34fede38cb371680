//! `cairn testcomp` end to end on the Test-Comp style programs of
//! `tests/corpus/testcomp`: the suite is read back (metadata, one `<input>`
//! per nondet call of each test, as many as the test's stub results in
//! tests.json), then validated by TestCov, whose branch coverage must be
//! close to what `cairn check` measures. Without TestCov (or lcov) the
//! validation is skipped, saying so on stderr; `scripts/setup-testcov.sh`
//! installs both.

mod common;

use common::{arg, corpus, text};
use quick_xml::events::Event;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::Command;

/// How far TestCov's branch coverage may be from gcov's, in percentage
/// points: TestCov counts decision edges of its own instrumentation (a
/// `switch` case is one goal, gcov counts its arcs) and also runs the
/// tests of the findings, which the driver leaves out.
const COVERAGE_TOLERANCE: f64 = 10.0;

/// The data model a task declares: how cairn and TestCov are told it, and
/// how metadata.xml names it.
#[derive(Clone, Copy)]
enum Model {
    Lp64,
    Ilp32,
}

impl Model {
    fn cairn_flag(self) -> &'static str {
        match self {
            Model::Lp64 => "-m64",
            Model::Ilp32 => "-m32",
        }
    }
    fn testcov_flag(self) -> &'static str {
        match self {
            Model::Lp64 => "-64",
            Model::Ilp32 => "-32",
        }
    }
    fn architecture(self) -> &'static str {
        match self {
            Model::Lp64 => "64bit",
            Model::Ilp32 => "32bit",
        }
    }
}

/// A program of the corpus copied into a directory of its own (TestCov
/// writes its preprocessed copy beside it), with the suite generated.
struct Generated {
    dir: tempfile::TempDir,
    program: PathBuf,
    model: Model,
    stdout: String,
}

impl Generated {
    fn new(name: &str, model: Model, form: Form, max_time: &str) -> Generated {
        Generated::with_options(name, model, form, max_time, &[])
    }

    /// `cairn testcomp` with `options` besides the usual ones.
    fn with_options(
        name: &str,
        model: Model,
        form: Form,
        max_time: &str,
        options: &[&str],
    ) -> Generated {
        let dir = tempfile::tempdir().expect("temp dir");
        let program = match form {
            Form::Source => {
                let program = dir.path().join(name);
                std::fs::copy(corpus("testcomp", name), &program).expect("copy the program");
                program
            }
            // As sv-benchmarks distributes its tasks: preprocessed, line
            // markers naming a file that is not there.
            Form::Preprocessed => {
                let program = dir.path().join(name).with_extension("i");
                let status = Command::new("cc")
                    .args(["-E", model.cairn_flag(), "-o", arg(&program)])
                    .arg(corpus("testcomp", name))
                    .status()
                    .expect("run cc -E");
                assert!(status.success(), "cc -E {name}");
                program
            }
        };
        let out = dir.path().join("out");
        let run = Command::new(env!("CARGO_BIN_EXE_cairn"))
            .args(["testcomp", arg(&program), "-o", arg(&out), "--check"])
            .arg(model.cairn_flag())
            .args(["--max-time", max_time])
            .args(options)
            .output()
            .expect("run cairn");
        let stdout = text(&run.stdout);
        assert!(
            run.status.success(),
            "cairn testcomp {name}:\n{stdout}\n{}",
            text(&run.stderr)
        );
        Generated {
            dir,
            program,
            model,
            stdout,
        }
    }

    fn out(&self) -> PathBuf {
        self.dir.path().join("out")
    }

    fn suite(&self) -> PathBuf {
        self.out().join("test-suite.zip")
    }
}

/// How the task's program is given to cairn.
#[derive(Clone, Copy)]
enum Form {
    Source,
    Preprocessed,
}

/// Every file of the zip by name, in the zip's order.
fn unzip(path: &Path) -> Vec<(String, String)> {
    let bytes = std::fs::read(path).expect("the suite");
    let mut archive = zip::ZipArchive::new(std::io::Cursor::new(bytes)).expect("a zip");
    (0..archive.len())
        .map(|n| {
            let mut file = archive.by_index(n).expect("an entry");
            let mut text = String::new();
            file.read_to_string(&mut text).expect("UTF-8 text");
            (file.name().expect("a UTF-8 name").into_owned(), text)
        })
        .collect()
}

/// Names with values: attributes, or elements with their text.
type Named = Vec<(String, String)>;

/// The root element's attributes and the text of each element below it,
/// in document order, read by an XML parser.
fn read_xml(xml: &str) -> (Named, Named) {
    let mut reader = quick_xml::Reader::from_str(xml);
    let (mut root, mut children) = (None, Vec::new());
    let mut open: Option<String> = None;
    loop {
        match reader.read_event().expect("well-formed XML") {
            Event::Start(e) if root.is_none() => {
                let attributes = e
                    .attributes()
                    .map(|a| {
                        let a = a.expect("an attribute");
                        let key = String::from_utf8_lossy(a.key.as_ref()).into_owned();
                        (key, a.unescape_value().expect("escaped").into_owned())
                    })
                    .collect();
                root = Some(attributes);
            }
            Event::Start(e) => open = Some(String::from_utf8_lossy(e.name().as_ref()).into()),
            Event::Text(t) => {
                if let Some(name) = open.take() {
                    children.push((name, t.unescape().expect("escaped").into_owned()));
                }
            }
            Event::Eof => return (root.expect("a root element"), children),
            _ => {}
        }
    }
}

/// How many stub results each test and then each finding of `main` has
/// in tests.json: the inputs its Test-Comp test must have.
fn stub_results(out: &Path, stem: &str) -> Vec<usize> {
    let json = std::fs::read_to_string(out.join(format!("{stem}.tests.json"))).expect("JSON");
    let json: serde_json::Value = serde_json::from_str(&json).expect("tests.json");
    let main = &json["functions"][0];
    let count = |inputs: &serde_json::Value| -> usize {
        inputs["stubs"]
            .as_array()
            .expect("stubs")
            .iter()
            .map(|s| s["returns"].as_array().expect("returns").len())
            .sum()
    };
    let tests = main["tests"].as_array().expect("tests");
    let findings = main["findings"].as_array().expect("findings");
    tests
        .iter()
        .chain(findings)
        .map(|t| count(&t["inputs"]))
        .collect()
}

/// Checks the suite's files against the format and tests.json; returns
/// the file names of the tests that cover the error.
fn check_suite(generated: &Generated) -> Vec<String> {
    let files = unzip(&generated.suite());
    let (metadata_name, metadata) = &files[0];
    assert_eq!(metadata_name, "test-suite/metadata.xml");
    let lines: Vec<&str> = metadata.lines().collect();
    assert!(lines[0].starts_with("<?xml "), "{metadata}");
    assert!(lines[1].starts_with("<!DOCTYPE test-metadata PUBLIC \"+//IDN sosy-lab.org//DTD test-format test-metadata 1.1//EN\""));
    let (_, fields) = read_xml(metadata);
    let field = |name: &str| {
        fields
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
            .unwrap_or_else(|| panic!("no <{name}> in {metadata}"))
    };
    let source = std::fs::read(&generated.program).expect("the program");
    assert_eq!(field("programhash"), emit::testcomp::program_hash(&source));
    assert_eq!(field("programfile"), arg(&generated.program));
    assert_eq!(field("sourcecodelang"), "C");
    assert_eq!(field("entryfunction"), "main");
    assert_eq!(field("architecture"), generated.model.architecture());
    assert!(field("producer").starts_with("cairn "));
    assert!(field("specification").contains("@DECISIONEDGE"));

    let stem = generated.program.file_stem().expect("a stem");
    let expected_inputs = stub_results(&generated.out(), &stem.to_string_lossy());
    let tests = &files[1..];
    assert_eq!(
        tests.len(),
        expected_inputs.len(),
        "a test per test and finding"
    );
    let mut covering_error = Vec::new();
    for (n, ((name, xml), inputs)) in tests.iter().zip(&expected_inputs).enumerate() {
        assert_eq!(name, &format!("test-suite/test{}.xml", n + 1));
        let lines: Vec<&str> = xml.lines().collect();
        assert!(lines[0].starts_with("<?xml "), "{xml}");
        assert_eq!(lines[1], "<!DOCTYPE testcase PUBLIC \"+//IDN sosy-lab.org//DTD test-format testcase 1.1//EN\" \"https://sosy-lab.org/test-format/testcase-1.1.dtd\">");
        let (attributes, elements) = read_xml(xml);
        assert_eq!(elements.len(), *inputs, "{name}:\n{xml}");
        assert!(elements.iter().all(|(tag, _)| tag == "input"), "{xml}");
        if attributes.contains(&("coversError".to_string(), "true".to_string())) {
            covering_error.push(name.trim_start_matches("test-suite/").to_string());
        }
    }
    covering_error
}

/// TestCov's executable: `$TESTCOV`, `testcov` on the PATH, or the one
/// `scripts/setup-testcov.sh` installs in `target/testcov-venv`; `Err`
/// says what is missing.
fn testcov() -> Result<PathBuf, String> {
    let on_path = |name: &str| {
        std::env::var_os("PATH").and_then(|paths| {
            std::env::split_paths(&paths)
                .map(|dir| dir.join(name))
                .find(|path| path.is_file())
        })
    };
    if on_path("lcov").is_none() {
        return Err("lcov is not installed".to_string());
    }
    let venv = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target/testcov-venv/bin/testcov");
    std::env::var_os("TESTCOV")
        .map(PathBuf::from)
        .or_else(|| on_path("testcov"))
        .or_else(|| venv.is_file().then_some(venv))
        .ok_or_else(|| "testcov is neither $TESTCOV, on the PATH nor in target/testcov-venv".into())
}

/// Runs TestCov on the suite (with `goal`, a property file, if given) and
/// returns its result lines (`Tests run`, `Coverage`, `Result`, ...).
fn run_testcov(
    testcov: &Path,
    generated: &Generated,
    goal: Option<&Path>,
) -> Vec<(String, String)> {
    let mut command = Command::new(testcov);
    command
        .current_dir(generated.dir.path())
        .args([
            "--no-isolation",
            generated.model.testcov_flag(),
            "--no-plots",
        ])
        .args(["--test-suite", arg(&generated.suite())]);
    if let Some(goal) = goal {
        command.args(["--goal", arg(goal)]);
    }
    let run = command
        .arg(arg(&generated.program))
        .output()
        .expect("run testcov");
    let stdout = text(&run.stdout);
    assert!(
        run.status.success(),
        "testcov:\n{stdout}\n{}",
        text(&run.stderr)
    );
    stdout
        .lines()
        .filter_map(|line| line.split_once(": "))
        .map(|(key, value)| (key.to_string(), value.trim().to_string()))
        .collect()
}

/// TestCov's branch coverage of the suite, in percent; `None`, said
/// SKIPPED, when TestCov is not installed.
fn testcov_branch_coverage(generated: &Generated) -> Option<f64> {
    let name = generated
        .program
        .file_name()
        .unwrap_or_default()
        .to_string_lossy();
    let testcov = match testcov() {
        Ok(testcov) => testcov,
        Err(why) => {
            eprintln!("SKIPPED: TestCov validation of {name}: {why}");
            return None;
        }
    };
    let results = run_testcov(&testcov, generated, None);
    let measured = result(&results, "Coverage").trim_end_matches('%');
    Some(measured.parse().expect("a percentage"))
}

fn result<'a>(results: &'a [(String, String)], key: &str) -> &'a str {
    results
        .iter()
        .find(|(k, _)| k == key)
        .map(|(_, v)| v.as_str())
        .unwrap_or_else(|| panic!("no `{key}` in TestCov's results: {results:?}"))
}

/// The branch coverage `cairn check` measured for `main`, in percent.
fn cairn_coverage(generated: &Generated) -> f64 {
    let check = Command::new(env!("CARGO_BIN_EXE_cairn"))
        .args(["check", arg(&generated.out()), "--json"])
        .output()
        .expect("run cairn check");
    assert!(check.status.success(), "{}", text(&check.stdout));
    let report: serde_json::Value = serde_json::from_slice(&check.stdout).expect("JSON report");
    let branches = &report["files"][0]["functions"][0]["measured_branches"];
    let covered = branches["covered"].as_f64().expect("covered");
    let total = branches["total"].as_f64().expect("total");
    100.0 * covered / total
}

/// Generates the suite of `name`, checks it, and has TestCov run it.
fn suite_validates(name: &str, model: Model, form: Form, reaches_error: bool) {
    let generated = Generated::new(name, model, form, "30");
    assert!(
        generated.stdout.contains("Test-Comp suite: "),
        "{}",
        generated.stdout
    );
    let covering_error = check_suite(&generated);
    assert_eq!(
        !covering_error.is_empty(),
        reaches_error,
        "{covering_error:?}"
    );
    for test in &covering_error {
        let line = format!("error function reached: {test} calls it at ");
        assert!(generated.stdout.contains(&line), "{}", generated.stdout);
    }
    if !reaches_error {
        assert!(generated
            .stdout
            .contains("reach_error() not reached by any test"));
    }

    let testcov = match testcov() {
        Ok(testcov) => testcov,
        Err(why) => {
            eprintln!(
                "SKIPPED: TestCov validation of {name}: {why} (scripts/setup-testcov.sh installs it)"
            );
            return;
        }
    };
    let results = run_testcov(&testcov, &generated, None);
    let tests = unzip(&generated.suite()).len() - 1;
    assert_eq!(
        result(&results, "Tests run"),
        tests.to_string(),
        "{results:?}"
    );
    let measured = result(&results, "Coverage");
    let testcov_coverage: f64 = measured
        .trim_end_matches('%')
        .parse()
        .unwrap_or_else(|_| panic!("a percentage: {measured}"));
    let cairn = cairn_coverage(&generated);
    eprintln!(
        "{name}: TestCov branch coverage {testcov_coverage:.2}%, cairn check (gcov) {cairn:.2}%"
    );
    assert!(
        (testcov_coverage - cairn).abs() <= COVERAGE_TOLERANCE,
        "{name}: TestCov {testcov_coverage}% against cairn's {cairn}%"
    );
    if reaches_error {
        assert_error_call_covered(&testcov, &generated);
    }
}

#[test]
fn sorting_nondet_ints_gives_a_suite_testcov_runs() {
    suite_validates("sort5.c", Model::Lp64, Form::Source, false);
}

#[test]
fn a_state_machine_on_nondet_chars_gives_a_suite_testcov_runs() {
    suite_validates("number_parser.c", Model::Lp64, Form::Source, false);
}

#[test]
fn a_reachable_error_is_a_test_that_covers_it() {
    suite_validates("thermostat.c", Model::Lp64, Form::Source, true);
}

#[test]
fn an_ilp32_task_gives_a_32bit_suite_testcov_runs() {
    suite_validates("ledger32.c", Model::Ilp32, Form::Source, true);
}

#[test]
fn a_preprocessed_task_loads_and_its_suite_testcov_runs() {
    suite_validates("ledger32.c", Model::Ilp32, Form::Preprocessed, true);
}

/// The suite of `name`, whose summary says native runs ran.
fn with_native_runs(name: &str, model: Model, max_time: &str) -> Generated {
    let generated = Generated::new(name, model, Form::Source, max_time);
    assert!(
        generated.stdout.contains("native runs: "),
        "{}",
        generated.stdout
    );
    generated
}

#[test]
fn a_long_input_stream_runs_natively_and_its_tests_reach_past_the_loops() {
    let generated = with_native_runs("long_stream.c", Model::Lp64, "6");
    // The symbolic search is cut inside the first loop; a native run reads
    // all 100,000 values and goes on to the counts.
    let tests = unzip(&generated.suite());
    let whole_streams = tests
        .iter()
        .filter(|(_, xml)| read_xml(xml).1.len() == 100_000)
        .count();
    // Both arms of the comparison of the last reading with the first.
    assert!(whole_streams >= 2, "{}", generated.stdout);
    let Some(coverage) = testcov_branch_coverage(&generated) else {
        return;
    };
    // The loops, each reading's comparisons, the counts' true arms (a
    // random stream of 100,000 values has both kinds) and the last test.
    assert!(coverage >= 70.0, "{coverage}%");
}

#[test]
fn floating_point_under_ilp32_gets_a_suite_from_native_runs() {
    let generated = with_native_runs("heater32.c", Model::Ilp32, "4");
    let tests = unzip(&generated.suite()).len() - 1;
    assert!(tests >= 3, "{}", generated.stdout);
    let Some(coverage) = testcov_branch_coverage(&generated) else {
        return;
    };
    // Every branch but the error call, which no input reaches.
    assert!(coverage >= 85.0, "{coverage}%");
}

#[test]
fn a_direction_no_input_takes_is_said_so_with_its_place() {
    let generated = Generated::new("coupled.c", Model::Lp64, Form::Source, "4");
    assert!(
        generated
            .stdout
            .contains("no input takes (every path to them explored): ")
            && generated.stdout.contains("coupled.c:11:18 `x < 0: true`"),
        "{}",
        generated.stdout
    );
    assert!(generated
        .stdout
        .contains("reach_error() not reached by any test"));
}

#[test]
fn for_the_error_call_property_native_runs_go_first_and_stop_at_the_error() {
    let generated = Generated::with_options(
        "thermostat.c",
        Model::Lp64,
        Form::Source,
        "30",
        &["--spec", "error-call"],
    );
    // Found by a native run long before the symbolic search's half ends.
    assert!(
        generated
            .stdout
            .contains("the error function first entered")
            && generated
                .stdout
                .contains("thermostat.c:9:6, where it starts (a native run)"),
        "{}",
        generated.stdout
    );
    let testcov = match testcov() {
        Ok(testcov) => testcov,
        Err(why) => {
            eprintln!("SKIPPED: TestCov validation of thermostat.c: {why}");
            return;
        }
    };
    assert_error_call_covered(&testcov, &generated);
}

/// TestCov's verdict on the error-call property is TRUE for the suite.
fn assert_error_call_covered(testcov: &Path, generated: &Generated) {
    let goal = generated.dir.path().join("coverage-error-call.prp");
    std::fs::write(
        &goal,
        "COVER( init(main()), FQL(COVER EDGES(@CALL(reach_error))) )\n",
    )
    .expect("write the property");
    let results = run_testcov(testcov, generated, Some(&goal));
    assert_eq!(result(&results, "Result"), "TRUE", "{results:?}");
}

#[test]
fn branches_of_the_functions_main_calls_are_goals_with_verdicts() {
    let generated = Generated::new("checked_calls.c", Model::Lp64, Form::Source, "4");
    let json = std::fs::read_to_string(generated.out().join("checked_calls.tests.json"))
        .expect("tests.json");
    let json: serde_json::Value = serde_json::from_str(&json).expect("tests.json");
    // Per function: the directions no test takes, with why.
    let mut uncovered: Vec<(String, String, String)> = Vec::new();
    let mut functions = Vec::new();
    for function in json["functions"].as_array().expect("functions") {
        let name = function["name"].as_str().expect("name").to_string();
        for goal in function["goals"].as_array().expect("goals") {
            if goal["covered"] != serde_json::Value::Bool(true) {
                let label = goal["label"].as_str().expect("label").to_string();
                let reason = goal["reason"].as_str().unwrap_or_default().to_string();
                uncovered.push((name.clone(), label, reason));
            }
        }
        functions.push(name);
    }
    assert_eq!(
        functions,
        ["main", "check", "clamp", "scaled", "unlocks"],
        "{json}"
    );
    // Every other direction is taken, the computed code's included; these
    // four no input takes, which the search proved by running every path.
    let proved = |function: &str, label: &str| {
        (
            function.to_string(),
            label.to_string(),
            "infeasible".to_string(),
        )
    };
    assert_eq!(
        uncovered,
        [
            proved("main", "level >= 0: false"),
            proved("main", "level <= 100: false"),
            proved("check", "!ok: true"),
            proved("scaled", "factor < 0: true"),
        ],
        "{}",
        generated.stdout
    );
    assert!(
        generated
            .stdout
            .contains("checked_calls.c:12:9 `!ok: true`")
            && generated
                .stdout
                .contains("checked_calls.c:27:9 `factor < 0: true`"),
        "{}",
        generated.stdout
    );
    let Some(coverage) = testcov_branch_coverage(&generated) else {
        return;
    };
    // TestCov's decision edges: all but the error call's and the negative factor's.
    assert!(coverage >= 83.0, "{coverage}%");
}

#[test]
fn main_runs_without_arguments_as_the_harness_starts_it() {
    let generated = Generated::new("no_arguments.c", Model::Lp64, Form::Source, "4");
    // argc is 1: what lies behind the argument check no input takes.
    assert!(
        generated
            .stdout
            .contains("no_arguments.c:19:9 `argc < 2: false`")
            && generated.stdout.contains("`*text >= '0': true`"),
        "{}",
        generated.stdout
    );
    let Some(coverage) = testcov_branch_coverage(&generated) else {
        return;
    };
    // Both directions of the reading's check and the argument check's
    // true direction: 3 of TestCov's 8 decision edges.
    assert!(coverage >= 37.0, "{coverage}%");
}
