//! Building and reading drivers written for a test framework
//! (`cairn gen --framework`): the commands that build each kind, and the
//! framework's per-test report (`[ RUN      ] name` ... `[       OK ] name`
//! or `[  FAILED  ] name`, as CMocka and GoogleTest both print it) read
//! back as the lines cairn's own runner prints, so that the rest of the
//! check reads every driver the same way.

use crate::run::Ran;
use std::path::{Path, PathBuf};
use std::process::Command;
use testcase::json::{Framework, TestsFile};

/// One step of building a driver: a label for problems, and the command.
pub struct BuildStep {
    pub label: String,
    pub command: Command,
}

/// The steps that build the driver of `tests` (in `out_dir`) into
/// `build/driver`, with `flags` on every compile and link; the C object
/// that includes the source is `build/driver.o`, so gcov's data is
/// `driver.gcda` for every framework. `label` names the build (`compile`,
/// `compile-sanitize`).
/// The object file the driver's compile step writes into `build`.
pub fn driver_object(build: &Path) -> std::path::PathBuf {
    build.join("driver.o")
}

pub fn build_steps(
    cc: &str,
    tests: &TestsFile,
    out_dir: &Path,
    build: &Path,
    flags: &[String],
    label: &str,
) -> Vec<BuildStep> {
    let object = driver_object(build);
    let binary = build.join("driver");
    let c_file = match (&tests.framework, &tests.driver_c_part) {
        (Framework::Gtest, Some(c_part)) => out_dir.join(c_part),
        _ => out_dir.join(&tests.driver),
    };
    let mut compile = Command::new(cc);
    compile
        .args(tests.compiler_flags())
        .args(flags)
        .arg("-c")
        .arg(&c_file)
        .arg("-o")
        .arg(&object);
    let mut steps = vec![BuildStep {
        label: label.to_string(),
        command: compile,
    }];
    let link_label = label.replacen("compile", "link", 1);
    match tests.framework {
        Framework::Plain | Framework::Cmocka => {
            let mut link = Command::new(cc);
            link.args(tests.target_flags())
                .args(flags)
                .arg(&object)
                .arg("-o")
                .arg(&binary);
            if tests.framework == Framework::Cmocka {
                link.arg("-lcmocka");
            }
            link.arg("-lm");
            steps.push(BuildStep {
                label: link_label,
                command: link,
            });
        }
        Framework::Gtest => {
            let cxx = cxx_for(cc);
            let cc_object = build.join("driver_cc.o");
            let mut compile_cc = Command::new(&cxx);
            compile_cc
                .args(tests.target_flags())
                .args(flags)
                .arg("-c")
                .arg(out_dir.join(&tests.driver))
                .arg("-o")
                .arg(&cc_object);
            steps.push(BuildStep {
                label: format!("{label} (C++)"),
                command: compile_cc,
            });
            let mut link = Command::new(&cxx);
            link.args(tests.target_flags())
                .args(flags)
                .arg(&object)
                .arg(&cc_object)
                .arg("-o")
                .arg(&binary)
                .args(["-lgtest", "-lgtest_main", "-pthread", "-lm"]);
            steps.push(BuildStep {
                label: link_label,
                command: link,
            });
        }
    }
    steps
}

/// The C++ compiler of the same family as `cc`: `g++` for `gcc`
/// (`g++-12` for `gcc-12`), `clang++` for `clang`, else `c++`.
fn cxx_for(cc: &str) -> String {
    let path = PathBuf::from(cc);
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("cc");
    let cxx = if let Some(at) = name.rfind("gcc") {
        format!("{}g++{}", &name[..at], &name[at + 3..])
    } else if let Some(at) = name.rfind("clang") {
        format!("{}clang++{}", &name[..at], &name[at + 5..])
    } else {
        "c++".to_string()
    };
    path.with_file_name(cxx).to_string_lossy().into_owned()
}

/// A framework driver's run with its output as cairn's runner prints it:
/// a `FAIL TEST: MESSAGE` line per message of a failed test (or one
/// saying it failed), a `RESULT TEST: passed|failed in SECONDS s` line per
/// test, and `N passed, N failed` when the framework finished its report.
/// A plain driver's run is returned as it is.
pub fn as_runner_output(framework: Framework, ran: &Ran) -> Ran {
    if framework == Framework::Plain {
        return ran.clone();
    }
    let mut lines = Vec::new();
    let mut messages: Vec<&str> = Vec::new();
    let mut current: Option<&str> = None;
    let (mut passed, mut failed) = (0, 0);
    for line in ran.stdout.lines() {
        if let Some(name) = line.strip_prefix("[ RUN      ] ") {
            current = Some(test_name(name));
            messages.clear();
        } else if let Some(rest) = line.strip_prefix("[       OK ] ") {
            passed += 1;
            lines.push(result_line(test_name(rest), "passed", rest));
            current = None;
        } else if let Some(rest) = line.strip_prefix("[  FAILED  ] ") {
            // Also the summary (`[  FAILED  ] 2 tests, listed below:`) and
            // its list, after the tests ran: only a test that ran counts.
            let name = test_name(rest);
            if current == Some(name) {
                failed += 1;
                if messages.is_empty() {
                    lines.push(format!("FAIL {name}: the test failed"));
                }
                lines.extend(messages.iter().map(|m| format!("FAIL {name}: {m}")));
                lines.push(result_line(name, "failed", rest));
                current = None;
            }
        } else if current.is_some() && !line.trim().is_empty() {
            messages.push(line.trim());
        }
    }
    // `[==========] 2 tests from 1 test suite ran.` (GoogleTest), `[==========]
    // 2 test(s) run.` (CMocka): the framework reached the end of its report.
    let finished = ran.stdout.lines().any(|l| {
        l.starts_with("[==========] ") && (l.contains(" ran.") || l.trim_end().ends_with(" run."))
    });
    if finished {
        lines.push(format!("{passed} passed, {failed} failed"));
    }
    Ran {
        status: ran.status,
        stdout: lines.join("\n") + "\n",
        stderr: ran.stderr.clone(),
    }
}

/// `suite.test_f (3 ms)` (GoogleTest) or `test_f` (CMocka) -> `test_f`.
fn test_name(reported: &str) -> &str {
    let name = reported.split(" (").next().unwrap_or(reported).trim();
    name.rsplit('.').next().unwrap_or(name)
}

/// `RESULT test_f: passed in 0.003 s`, with GoogleTest's `(3 ms)` when given.
fn result_line(name: &str, outcome: &str, reported: &str) -> String {
    let milliseconds = reported
        .rsplit_once(" (")
        .and_then(|(_, time)| time.strip_suffix(" ms)"))
        .and_then(|ms| ms.parse::<f64>().ok())
        .unwrap_or(0.0);
    format!("RESULT {name}: {outcome} in {:.6} s", milliseconds / 1000.0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::run::Ending;

    fn ran(stdout: &str) -> Ran {
        Ran {
            status: Ending::Exited(1),
            stdout: stdout.to_string(),
            stderr: String::new(),
        }
    }

    #[test]
    fn googletest_reports_read_as_the_runner_prints() {
        let report = "\
[==========] Running 2 tests from 1 test suite.
[ RUN      ] calls.test_f_returns_1
[       OK ] calls.test_f_returns_1 (0 ms)
[ RUN      ] calls.test_f_returns_2
calls_test.cc:66: Failure
Expected equality of these values:
[  FAILED  ] calls.test_f_returns_2 (2 ms)
[==========] 2 tests from 1 test suite ran. (2 ms total)
[  PASSED  ] 1 test.
[  FAILED  ] 1 test, listed below:
[  FAILED  ] calls.test_f_returns_2
";
        let read = as_runner_output(Framework::Gtest, &ran(report));
        assert_eq!(
            read.stdout,
            "RESULT test_f_returns_1: passed in 0.000000 s
FAIL test_f_returns_2: calls_test.cc:66: Failure
FAIL test_f_returns_2: Expected equality of these values:
RESULT test_f_returns_2: failed in 0.002000 s
1 passed, 1 failed
"
        );
    }

    #[test]
    fn cmocka_reports_read_as_the_runner_prints() {
        let report = "\
[==========] Running 2 test(s).
[ RUN      ] test_f_returns_1
[       OK ] test_f_returns_1
[ RUN      ] test_f_returns_2
[  FAILED  ] test_f_returns_2
[==========] 2 test(s) run.
[  PASSED  ] 1 test(s).
[  FAILED  ] 1 test(s), listed below:
[  FAILED  ] test_f_returns_2
";
        let read = as_runner_output(Framework::Cmocka, &ran(report));
        assert_eq!(
            read.stdout,
            "RESULT test_f_returns_1: passed in 0.000000 s
FAIL test_f_returns_2: the test failed
RESULT test_f_returns_2: failed in 0.000000 s
1 passed, 1 failed
"
        );
        // A run that died before its report ends has no summary line.
        let cut = as_runner_output(Framework::Cmocka, &ran("[ RUN      ] test_f_returns_1\n"));
        assert_eq!(cut.stdout, "\n");
    }

    #[test]
    fn cxx_compilers_match_the_c_compiler() {
        assert_eq!(cxx_for("gcc"), "g++");
        assert_eq!(cxx_for("/usr/bin/gcc-12"), "/usr/bin/g++-12");
        assert_eq!(cxx_for("clang"), "clang++");
        assert_eq!(cxx_for("cc"), "c++");
    }
}
