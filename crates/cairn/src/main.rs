//! The `cairn` binary: parses arguments and runs the pipeline stages in order
//! (front -> engine -> emit -> check). No stage logic lives here.

mod cache;
mod cli;

use clap::Parser;
use cli::{Cli, Command, InspectArgs, SourceArgs};
use std::io::Write;
use std::process::ExitCode;

/// How a command ends, mapped to the documented exit codes.
enum Outcome {
    Success,
    /// Tests were generated but checking them found a problem (exit 1).
    CheckFailed,
    /// The search proved that no input exists (exit 3).
    Disproved,
    /// Bounds stopped the search before it found an input or a proof (exit 4).
    BoundsHit,
    /// No file of `gen` defines a function to test (exit 5).
    NothingToTest,
    /// SIGINT or SIGTERM stopped the run (exit 130 or 143, as a shell reports it).
    Interrupted {
        status: u8,
    },
}

/// Bad usage or unreadable input (exit 2); the message is already user-facing.
struct UsageError(String);

impl<E: std::fmt::Display> From<E> for UsageError {
    fn from(e: E) -> Self {
        UsageError(e.to_string())
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Gen(args) => gen::run(args),
        Command::Check(args) => gen::run_check(&args),
        Command::Testcomp(args) => testcomp::run(args),
        Command::Merge(args) => merge::run(&args),
        Command::Ir(args) => inspect(&args, print_ir),
        Command::Cfg(args) => inspect(&args, print_cfg),
        Command::Goals(args) => inspect(&args, print_goals),
        Command::Reach(args) => reach::run(&args),
        Command::Path(args) => path::run(&args),
    };
    match result {
        Ok(Outcome::Success) => ExitCode::SUCCESS,
        Ok(Outcome::CheckFailed) => ExitCode::from(1),
        Ok(Outcome::Disproved) => ExitCode::from(3),
        Ok(Outcome::BoundsHit) => ExitCode::from(4),
        Ok(Outcome::NothingToTest) => ExitCode::from(5),
        Ok(Outcome::Interrupted { status }) => ExitCode::from(status),
        Err(UsageError(msg)) => {
            eprintln!("cairn: {msg}");
            ExitCode::from(2)
        }
    }
}

mod gen;
mod journal;
mod merge;
mod native_runs;
mod path;
mod reach;
mod record;
mod testcomp;
mod validate;

/// Runs the front end on one file, printing its diagnostics to stderr.
fn load(file: &std::path::Path, source: &SourceArgs) -> Result<front::FrontOutput, UsageError> {
    shown(front::compile(file, &source.front_config()))
}

/// A file the front end read, its diagnostics shown.
fn shown(
    compiled: Result<front::FrontOutput, front::Diagnostic>,
) -> Result<front::FrontOutput, UsageError> {
    let output = compiled.map_err(|d| UsageError(d.to_string()))?;
    for d in &output.diagnostics {
        eprintln!("{d}");
    }
    Ok(output)
}

/// The functions to work on: the named ones (each must exist with a body), or
/// every function with a body defined in the main file but the error
/// function of a verification task (`reach_error`).
/// What a `reach` or `path` search cost, for its verdict line.
fn effort(stats: &testcase::Stats) -> String {
    format!(
        "in {:.2} s ({} paths, {} solver calls)",
        stats.elapsed.as_secs_f64(),
        stats.paths,
        stats.solver_calls
    )
}

/// Writes the driver and tests.json of one test found by `reach` or `path`
/// into `out` (gen's driver contract) and returns the driver's path.
fn write_single_test(
    program: &ir::Program,
    report: testcase::FunctionReport,
    file: &std::path::Path,
    out: &std::path::Path,
    source: &SourceArgs,
) -> Result<std::path::PathBuf, UsageError> {
    std::fs::create_dir_all(out).map_err(|e| {
        UsageError(format!(
            "cannot create output directory {}: {e}",
            out.display()
        ))
    })?;
    let emit_config = emit::EmitConfig {
        out_dir: out.to_path_buf(),
        source: file.to_path_buf(),
        flags: emit::SourceFlags {
            defines: source.define.clone(),
            include_dirs: source.include.clone(),
            ..emit::SourceFlags::default()
        },
        framework: emit::Framework::Plain,
        unresolved: Default::default(),
    };
    let summary = emit::write_outputs(program, &[report], &emit_config)
        .map_err(|e| UsageError(e.to_string()))?;
    for note in &summary.notes {
        eprintln!("cairn: {note}");
    }
    Ok(summary.driver)
}

fn select_functions(
    program: &ir::Program,
    names: &[String],
) -> Result<Vec<ir::FuncId>, UsageError> {
    if names.is_empty() {
        return Ok(program
            .functions
            .iter()
            .enumerate()
            // A verification task's error function is the harness's, not code to test.
            .filter(|(_, f)| {
                f.body.is_some()
                    && f.span.file == 0
                    && !testcase::ERROR_FUNCTIONS.contains(&f.name.as_str())
            })
            .map(|(i, _)| ir::FuncId(i as u32))
            .collect());
    }
    names
        .iter()
        .map(|name| match program.function_by_name(name) {
            Some(id) if program.function(id).body.is_some() => Ok(id),
            Some(_) => Err(UsageError(format!(
                "function `{name}` has no body cairn can analyse (see the diagnostics above)"
            ))),
            None => Err(UsageError(format!(
                "no function named `{name}` in the file"
            ))),
        })
        .collect()
}

fn inspect(
    args: &InspectArgs,
    show: fn(&ir::Program, &[ir::FuncId], &mut String),
) -> Result<Outcome, UsageError> {
    let output = load(&args.file, &args.source)?;
    let funcs = select_functions(&output.program, &args.functions)?;
    let mut text = String::new();
    show(&output.program, &funcs, &mut text);
    std::io::stdout().write_all(text.as_bytes())?;
    Ok(Outcome::Success)
}

fn print_ir(program: &ir::Program, funcs: &[ir::FuncId], out: &mut String) {
    let names: Vec<String> = funcs
        .iter()
        .map(|f| program.function(*f).name.clone())
        .collect();
    out.push_str(&ir::print::print_program(program, &names));
}

fn print_cfg(program: &ir::Program, funcs: &[ir::FuncId], out: &mut String) {
    for f in funcs {
        out.push_str(&ir::print::cfg_dot(program, *f));
    }
}

/// Lists each function's goals; `*` marks the unconstrained ones, whose
/// coverage implies every other goal's (dominance over CFG edges).
fn print_goals(program: &ir::Program, funcs: &[ir::FuncId], out: &mut String) {
    use std::fmt::Write as _;
    let summary = |goals: usize, unconstrained: usize| {
        let fewer = match goals {
            0 => 0.0,
            n => 100.0 * (n - unconstrained) as f64 / n as f64,
        };
        format!("{goals} goals, {unconstrained} unconstrained ({fewer:.0}% fewer)")
    };
    let (mut total_goals, mut total_unconstrained) = (0, 0);
    for f in funcs {
        let goals = ir::function_goals(program, *f);
        let unconstrained = ir::unconstrained_goals(program, *f);
        let _ = writeln!(out, "{} ({} goals)", program.function(*f).name, goals.len());
        for g in &goals {
            let mark = if unconstrained.contains(&g.goal) {
                '*'
            } else {
                ' '
            };
            let _ = writeln!(
                out,
                "  {mark} {}:{}:{}  {}",
                program.file_name(g.span),
                g.span.line,
                g.span.col,
                g.label
            );
        }
        let _ = writeln!(out, "  {}", summary(goals.len(), unconstrained.len()));
        total_goals += goals.len();
        total_unconstrained += unconstrained.len();
    }
    if funcs.len() > 1 {
        let _ = writeln!(out, "total: {}", summary(total_goals, total_unconstrained));
    }
}
