//! `cairn testcomp`: `gen` on a verification task's `main`, then its tests
//! as a Test-Comp test suite (`OUT/test-suite.zip`).
//!
//! A command of its own rather than a `gen` format, because a Test-Comp
//! task fixes what `gen` lets vary: one program, its `main` only, globals
//! from their initializers (the program starts as it would run), no
//! failing allocations (the harness cannot make them fail); and it has
//! options `gen` has not (the specification).

use crate::cli::{
    CheckArgs, FindingsMode, FrameworkChoice, GenArgs, GlobalsMode, GoalsMode, HardGoalsMode,
    SearchMode, TestcompArgs,
};
use crate::record::{self, RunRecord};
use crate::{gen, Outcome, UsageError};
use std::path::Path;

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
    let outcome = gen::run(gen_args(&args))?;
    if !matches!(outcome, Outcome::Success | Outcome::Interrupted { .. }) {
        return Ok(outcome);
    }
    let stem = args
        .file
        .file_stem()
        .unwrap_or_default()
        .to_string_lossy()
        .into_owned();
    let record = RunRecord::read(&record::path(&args.out, &stem))?;
    let Some(report) = record.reports.first() else {
        // Interrupted before main's report: gen said so.
        return Ok(outcome);
    };
    let program = front::compile(&args.file, &args.source.front_config())
        .map_err(|d| UsageError(d.to_string()))?
        .program;
    if record::fingerprint(&program) != record.program {
        return Err(UsageError(format!(
            "{} changed while the tests were generated; run again",
            args.file.display()
        )));
    }
    let config = emit::testcomp::SuiteConfig {
        program_file: args.file.clone(),
        program_hash: emit::testcomp::program_hash(&program_bytes),
        specification: args.spec.into(),
        producer: format!("cairn {}", env!("CARGO_PKG_VERSION")),
        creation_time: humantime::format_rfc3339_seconds(std::time::SystemTime::now()).to_string(),
    };
    let suite = emit::testcomp::test_suite(&program, report, &config)
        .map_err(|e| UsageError(format!("{}: {e}", args.file.display())))?;
    let zip = emit::testcomp::write_test_suite(&args.out, &suite)
        .map_err(|e| UsageError(format!("cannot write {e}")))?;
    print!("{}", suite_summary(&program, &suite, &zip));
    for note in &suite.notes {
        eprintln!("cairn: {note}");
    }
    if args.check && matches!(outcome, Outcome::Success) {
        return gen::run_check(&CheckArgs {
            out: args.out.clone(),
            sanitize: false,
            cc: "gcc".to_string(),
            json: false,
            junit: None,
            sarif: None,
            html: None,
        });
    }
    Ok(outcome)
}

/// `gen` on the program's `main` as the task runs it.
fn gen_args(args: &TestcompArgs) -> GenArgs {
    GenArgs {
        files: vec![args.file.clone()],
        functions: vec!["main".to_string()],
        out: args.out.clone(),
        check: false,
        sanitize: false,
        budgets: args.budgets.clone(),
        globals: GlobalsMode::Init,
        goals: GoalsMode::All,
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
