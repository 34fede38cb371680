//! `cairn reach`: one goal-oriented search, a one-line verdict, and the test
//! (when found) written under the driver contract of `cairn gen`.

use crate::cli::ReachArgs;
use crate::gen::engine_config;
use crate::{load, select_functions, Outcome, UsageError};
use engine::reach::{Code, ReachTarget, Verdict};

pub fn run(args: &ReachArgs) -> Result<Outcome, UsageError> {
    let mut config = engine_config(&args.budgets)?;
    // Without --max-iterations, loops get what K executions need, not gen's
    // default: steering toward many runs of one line would otherwise unroll
    // the loops before it (building an input list) a thousand times.
    if args.budgets.max_iterations.is_none() {
        config.max_iterations = engine::reach::iteration_bound(args.times);
    }
    let output = load(&args.file, &args.source)?;
    let program = &output.program;
    crate::gen::declare_invariants(&mut config, [(args.file.as_path(), program)])?;
    crate::gen::prepare_dump_dir(&args.budgets)?;
    let func = select_functions(program, std::slice::from_ref(&args.function))?[0];
    let (code, what) = match (&args.line, &args.branch) {
        (_, Some(spec)) => (
            Code::Branch(parse_branch(program, func, spec)?),
            format!("branch {spec}"),
        ),
        (Some(line), None) => (Code::Line(*line), format!("line {line}")),
        (None, None) => return Err(UsageError("give --line or --branch".into())),
    };
    let target = ReachTarget {
        code,
        times: args.times,
        exact: args.exact,
        before: args.before.map(Code::Line),
    };
    let asked = format!(
        "{}{} time(s){}",
        if args.exact { "exactly " } else { "" },
        args.times,
        args.before
            .map(|line| format!(" before line {line}"))
            .unwrap_or_default()
    );
    let outcome = engine::reach::reach(program, func, &target, &config)?;
    let effort = crate::effort(&outcome.report.stats);
    let name = &args.function;
    match outcome.verdict {
        Verdict::Reached { hits } => {
            let driver = crate::write_single_test(
                program,
                outcome.report,
                &args.file,
                &args.out,
                &args.source,
            )?;
            println!(
                "reached: {name} {what} executed {hits} times (asked {asked}) {effort}; test in {}",
                driver.display()
            );
            Ok(Outcome::Success)
        }
        Verdict::Unreachable => {
            println!(
                "unreachable: no input runs {name} {what} {asked}; every path was explored \
                 (the most on any finished path: {}) {effort}",
                outcome.best_hits
            );
            // A run stops at a fault; compiled code may go on past it, so
            // the proof covers only the runs without one.
            for finding in &outcome.report.findings {
                println!(
                    "  runs were not followed past a fault: {} at line {}:{}: {}",
                    finding.kind.slug(),
                    finding.span.line,
                    finding.span.col,
                    finding.message
                );
            }
            Ok(Outcome::Disproved)
        }
        Verdict::NotReached { stopped_by } => {
            println!(
                "not reached within bounds ({}): {name} {what} asked {asked}, ran at most {} \
                 time(s) on a finished path {effort}",
                stopped_by.explained(),
                outcome.best_hits
            );
            Ok(Outcome::BoundsHit)
        }
    }
}

/// `LINE:COL:ARM` as `cairn goals` prints it (without the function name).
fn parse_branch(
    program: &ir::Program,
    func: ir::FuncId,
    spec: &str,
) -> Result<ir::Goal, UsageError> {
    let bad = || {
        UsageError(format!(
            "--branch wants LINE:COL:ARM with ARM one of T, F, C<n>, D (see `cairn goals`), got `{spec}`"
        ))
    };
    let mut parts = spec.split(':');
    let (Some(line), Some(col), Some(arm), None) =
        (parts.next(), parts.next(), parts.next(), parts.next())
    else {
        return Err(bad());
    };
    let line: u32 = line.parse().map_err(|_| bad())?;
    let col: u32 = col.parse().map_err(|_| bad())?;
    engine::reach::goal_at(program, func, line, col, arm).ok_or_else(|| {
        UsageError(format!(
            "`{}` has no condition direction {spec} (see `cairn goals`)",
            program.function(func).name
        ))
    })
}
