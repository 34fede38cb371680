//! `cairn testcomp`: `gen` on a verification task's `main`, then its tests
//! as a Test-Comp test suite (`OUT/test-suite.zip`).
//!
//! A command of its own rather than a `gen` format, because a Test-Comp
//! task fixes what `gen` lets vary: one program, its `main` only, globals
//! from their initializers (the program starts as it would run), no
//! failing allocations (the harness cannot make them fail); and it has
//! options `gen` has not (the specification).

use crate::cli::{
    CheckArgs, CoverageChoice, FindingsMode, FrameworkChoice, GenArgs, GlobalsMode, GoalsMode,
    HardGoalsMode, SearchMode, SpecChoice, TestcompArgs,
};
use crate::native_runs::{self, StopAt};
use crate::record::{self, RunRecord};
use crate::{gen, Outcome, UsageError};
use emit::testcomp::NativeTest;
use std::path::Path;
use std::time::{Duration, Instant};

/// The share of `--max-time` the symbolic search has; the native runs go
/// on until the whole of it is spent (or they stop finding new edges).
const SYMBOLIC_SHARE: f64 = 0.5;

/// Least time the native runs get, however long the search took.
const NATIVE_LEAST: Duration = Duration::from_secs(1);

pub fn run(args: TestcompArgs) -> Result<Outcome, UsageError> {
    if args.budgets.alloc_may_fail {
        return Err(UsageError(
            "--alloc-may-fail: a Test-Comp harness cannot make an allocation fail".to_string(),
        ));
    }
    // Hashed as it is now, before the analysis reads it.
    let program_bytes = std::fs::read(&args.file).map_err(|e| {
        UsageError(format!(
            "{}: {}",
            args.file.display(),
            front::io_message(&e)
        ))
    })?;
    // The symbolic search has a share of the time; the native runs, seeded
    // by its tests, the rest.
    let started = Instant::now();
    let budget = Duration::from_secs_f64(args.budgets.max_time);
    let deadline = started + budget;
    let config = emit::testcomp::SuiteConfig {
        program_file: args.file.clone(),
        program_hash: emit::testcomp::program_hash(&program_bytes),
        specification: args.spec.into(),
        producer: format!("cairn {}", env!("CARGO_PKG_VERSION")),
        creation_time: humantime::format_rfc3339_seconds(std::time::SystemTime::now()).to_string(),
    };
    if matches!(args.spec, SpecChoice::ErrorCall) {
        // The error call first: one that random streams reach, native runs
        // find in a fraction of the time a symbolic search takes.
        let program = front::compile(&args.file, &args.source.front_config())
            .map_err(|d| UsageError(d.to_string()))?
            .program;
        let until = started + budget.mul_f64(SYMBOLIC_SHARE);
        let native = native_tests(&program, &args, None, started, until, StopAt::Error);
        if native.iter().any(|test| test.reaches_error) {
            write_suite(&program, None, &native, &config, &args)?;
            if args.check {
                eprintln!("cairn: --check: no driver to check: native runs found the error call");
            }
            return Ok(Outcome::Success);
        }
    }
    // A `main` the engine cannot analyse (floating point under ILP32, a
    // construct it refuses) still runs natively.
    let searched = match gen::run(gen_args(&args)) {
        Ok(outcome @ (Outcome::Success | Outcome::Interrupted { .. })) => Some(outcome),
        Ok(outcome) => return Ok(outcome),
        Err(why) => {
            eprintln!(
                "cairn: no symbolic search of `main`: {}; the suite comes from native runs alone",
                why.0
            );
            None
        }
    };
    let program = front::compile(&args.file, &args.source.front_config())
        .map_err(|d| UsageError(d.to_string()))?
        .program;
    let record = match &searched {
        Some(_) => {
            let stem = args.file.file_stem().unwrap_or_default().to_string_lossy();
            Some(RunRecord::read(&record::path(&args.out, &stem))?)
        }
        None => None,
    };
    if record
        .as_ref()
        .is_some_and(|record| record::fingerprint(&program) != record.program)
    {
        return Err(UsageError(format!(
            "{} changed while the tests were generated; run again",
            args.file.display()
        )));
    }
    let report = record.as_ref().and_then(|record| record.reports.first());
    let interrupted = matches!(searched, Some(Outcome::Interrupted { .. }));
    if interrupted && report.is_none() {
        // Interrupted before main's report: gen said so.
        return Ok(searched.unwrap_or(Outcome::Success));
    }
    let native = if interrupted {
        Vec::new()
    } else {
        native_tests(&program, &args, report, started, deadline, StopAt::Deadline)
    };
    write_suite(&program, report, &native, &config, &args)?;
    let outcome = searched.unwrap_or(Outcome::Success);
    if args.check && report.is_none() {
        eprintln!("cairn: --check: no driver to check, as the symbolic search did not run");
    } else if args.check && matches!(outcome, Outcome::Success) {
        return gen::run_check(&CheckArgs {
            out: args.out.clone(),
            sanitize: false,
            cc: "gcc".to_string(),
            coverage: CoverageChoice::Branch,
            json: false,
            junit: None,
            sarif: None,
            html: None,
        });
    }
    Ok(outcome)
}

/// Writes the suite of `report` and `native` and says what it holds.
fn write_suite(
    program: &ir::Program,
    report: Option<&testcase::FunctionReport>,
    native: &[NativeTest],
    config: &emit::testcomp::SuiteConfig,
    args: &TestcompArgs,
) -> Result<(), UsageError> {
    let suite = emit::testcomp::test_suite(program, report, native, config)
        .map_err(|e| UsageError(format!("{}: {e}", args.file.display())))?;
    let zip = emit::testcomp::write_test_suite(&args.out, &suite)
        .map_err(|e| UsageError(format!("cannot write {e}")))?;
    print!("{}", suite_summary(program, &suite, &zip));
    if let Some(report) = report {
        print!("{}", uncovered_summary(program, report));
    }
    for note in &suite.notes {
        eprintln!("cairn: {note}");
    }
    Ok(())
}

/// The tests of the program's native runs until `deadline`, seeded by
/// the symbolic search's tests; none, with a note, when the program cannot
/// run natively.
fn native_tests(
    program: &ir::Program,
    args: &TestcompArgs,
    report: Option<&testcase::FunctionReport>,
    started: Instant,
    deadline: Instant,
    stop: StopAt,
) -> Vec<NativeTest> {
    // The tests the suite holds: a test it leaves out seeds no run, or the
    // edges only it took would keep the runs from becoming tests.
    let seeds: Vec<Vec<_>> = report
        .iter()
        .flat_map(|report| {
            let tests = report.tests.iter().map(|t| &t.inputs);
            tests.chain(report.findings.iter().map(|f| &f.inputs))
        })
        .filter_map(|inputs| emit::testcomp::input_stream(inputs).ok())
        .map(|calls| calls.into_iter().map(|(f, v)| (f, v.clone())).collect())
        .collect();
    let build = args.out.join(".cairn-build").join("native-runs");
    let deadline = deadline.max(Instant::now() + NATIVE_LEAST);
    match native_runs::explore(
        program,
        &args.file,
        &build,
        &seeds,
        started,
        (deadline, stop),
    ) {
        Ok(found) => {
            let error = match found.first_error {
                Some(time) => format!(
                    ", the error function first entered {:.2} s after the start",
                    time.as_secs_f64()
                ),
                None => String::new(),
            };
            println!(
                "native runs: {} runs, {} edges, {} tests kept{error}",
                found.runs,
                found.edges,
                found.tests.len()
            );
            found.tests
        }
        Err(why) => {
            eprintln!("cairn: no native runs: {why}");
            Vec::new()
        }
    }
}

/// `gen` on the program's `main` as the task runs it, with half the time.
fn gen_args(args: &TestcompArgs) -> GenArgs {
    let mut budgets = args.budgets.clone();
    budgets.max_time *= SYMBOLIC_SHARE;
    GenArgs {
        files: vec![args.file.clone()],
        functions: vec!["main".to_string()],
        out: args.out.clone(),
        check: false,
        sanitize: false,
        budgets,
        globals: GlobalsMode::Init,
        goals: GoalsMode::All,
        coverage: CoverageChoice::Branch,
        hard_goals: HardGoalsMode::Off,
        search: SearchMode::Coverage,
        seed: 0,
        no_cheap_inputs: false,
        // The suite is validated by TestCov, as Test-Comp does.
        no_validate: true,
        check_all_globals: false,
        // A Test-Comp suite is scored on branch coverage alone.
        no_boundary_tests: true,
        no_flipped_boundaries: true,
        findings: FindingsMode::Valid,
        json: false,
        framework: FrameworkChoice::Plain,
        jobs: None,
        shard: None,
        fresh: false,
        // Test-Comp counts every branch of the program.
        whole_program: true,
        source: args.source.clone(),
    }
}

/// What the suite holds, and whether a test calls the program's error
/// function (`reach_error`, `__VERIFIER_error`).
fn suite_summary(program: &ir::Program, suite: &emit::testcomp::TestSuite, zip: &Path) -> String {
    use std::fmt::Write;
    let inputs: usize = suite.tests.iter().map(|t| t.inputs).sum();
    let mut text = format!(
        "Test-Comp suite: {} tests, {inputs} inputs, in {}\n",
        suite.tests.len(),
        zip.display()
    );
    let error_function = testcase::ERROR_FUNCTIONS
        .iter()
        .find(|name| program.function_by_name(name).is_some());
    let reaching: Vec<_> = suite
        .tests
        .iter()
        .filter_map(|t| Some((&t.file_name, t.reaches_error.as_ref()?)))
        .collect();
    match (error_function, reaching.is_empty()) {
        (_, false) => {
            for (file, place) in reaching {
                let _ = writeln!(text, "  error function reached: {file} calls it at {place}");
            }
        }
        (Some(name), true) => {
            let _ = writeln!(text, "  {name}() not reached by any test");
        }
        (None, true) => {}
    }
    text
}

/// The branch directions of the program the symbolic search of `main` did
/// not take (nor a finding's path, which the suite holds): those
/// no input takes (every path to them explored: a sound verdict, whatever
/// the native runs did), and per bound those it stopped short of, which
/// the native runs may have taken (TestCov measures the suite).
fn uncovered_summary(program: &ir::Program, report: &testcase::FunctionReport) -> String {
    use std::collections::BTreeMap;
    use std::fmt::Write;
    let goals = ir::goal_infos(program, &report.goals);
    let mut unreachable = Vec::new();
    let mut stopped: BTreeMap<String, usize> = BTreeMap::new();
    // A finding's path is a test of the suite too (an error call's, say).
    let on_findings = |goal: &ir::Goal| report.findings.iter().any(|f| f.path_goals.contains(goal));
    for (goal, why) in report.uncovered.iter().filter(|(g, _)| !on_findings(g)) {
        match why {
            testcase::Uncovered::Infeasible => {
                if let Some(info) = goals.get(goal) {
                    let span = info.span;
                    unreachable.push(format!(
                        "{}:{}:{} `{}`",
                        program.file_name(span),
                        span.line,
                        span.col,
                        info.label
                    ));
                }
            }
            testcase::Uncovered::Budget(bound) => {
                *stopped.entry(bound.explained()).or_default() += 1
            }
            testcase::Uncovered::Unsupported(what) | testcase::Uncovered::Refuted(what) => {
                *stopped.entry(what.clone()).or_default() += 1
            }
            // Only MC/DC's vectors, which a whole program's goals never are.
            testcase::Uncovered::NotSought => {}
        }
    }
    let mut text = String::new();
    if !unreachable.is_empty() {
        let _ = writeln!(
            text,
            "  no input takes (every path to them explored): {}",
            unreachable.join(", ")
        );
    }
    for (why, count) in stopped {
        let _ = writeln!(
            text,
            "  {count} branch direction(s) the symbolic search did not reach ({why}); the native runs may take them"
        );
    }
    text
}
