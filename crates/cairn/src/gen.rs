//! `cairn gen` and `cairn check`: the whole pipeline for a set of files.

use crate::cli::{
    BudgetArgs, CheckArgs, FindingsMode, GenArgs, GlobalsMode, GoalsMode, HardGoalsMode,
    InputsMode, SearchMode,
};
use crate::{load, select_functions, Outcome, UsageError};
use std::io::IsTerminal;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// The engine configuration the budget flags give (`gen`, `reach` and `path`).
pub fn engine_config(budgets: &BudgetArgs) -> Result<engine::EngineConfig, UsageError> {
    if !(budgets.max_time.is_finite() && budgets.max_time > 0.0) {
        return Err(UsageError(format!(
            "--max-time must be a positive number of seconds, got {}",
            budgets.max_time
        )));
    }
    if let Some(dir) = &budgets.dump_queries {
        writable_dir(dir).map_err(|e| {
            UsageError(format!(
                "--dump-queries: cannot write files in {}: {e}",
                dir.display()
            ))
        })?;
    }
    Ok(engine::EngineConfig {
        max_time: Duration::from_secs_f64(budgets.max_time),
        max_paths: budgets.max_paths,
        max_array: budgets.max_array,
        max_nodes: budgets.max_nodes,
        max_depth: budgets.max_depth,
        max_iterations: budgets
            .max_iterations
            .unwrap_or(engine::EngineConfig::default().max_iterations),
        allocation_may_fail: budgets.alloc_may_fail,
        dump_queries: budgets.dump_queries.clone(),
        inputs: match budgets.inputs {
            InputsMode::Api => engine::InputMode::Api,
            InputsMode::Free => engine::InputMode::Free,
        },
        max_build_calls: budgets.max_build_calls,
        invariants: budgets
            .invariant
            .iter()
            .map(|spec| invariant_spec(spec))
            .collect::<Result<_, _>>()?,
        ..engine::EngineConfig::default()
    })
}

/// `TYPE=FUNCTION` as `--invariant` takes it.
fn invariant_spec(text: &str) -> Result<engine::InvariantSpec, UsageError> {
    match text.split_once('=') {
        Some((ty, predicate)) if !ty.trim().is_empty() && !predicate.trim().is_empty() => {
            Ok(engine::InvariantSpec {
                type_name: ty.trim().to_string(),
                predicate: predicate.trim().to_string(),
            })
        }
        _ => Err(UsageError(format!(
            "an invariant is TYPE=FUNCTION, e.g. 'struct list=list_is_valid', got `{text}`"
        ))),
    }
}

/// Adds the invariants the files declare in comments
/// (`/* cairn: invariant struct list=list_is_valid */`) to those of
/// `--invariant`, then checks them against the programs of a run: each type
/// must be defined by some file, and where it is, its predicate must fit it.
pub fn declare_invariants<'p>(
    config: &mut engine::EngineConfig,
    programs: impl IntoIterator<Item = (&'p Path, &'p ir::Program)>,
) -> Result<(), UsageError> {
    let programs: Vec<_> = programs.into_iter().collect();
    for (file, _) in &programs {
        config.invariants.extend(source_invariants(file)?);
    }
    let mut defined = vec![false; config.invariants.len()];
    for (file, program) in &programs {
        engine::resolve_invariants(program, &config.invariants)
            .map_err(|e| UsageError(format!("{}: {e}", file.display())))?;
        for (seen, spec) in defined.iter_mut().zip(&config.invariants) {
            *seen |= engine::defines_type(program, spec);
        }
    }
    match config
        .invariants
        .iter()
        .zip(&defined)
        .find(|(_, seen)| !**seen)
    {
        Some((spec, _)) => Err(UsageError(format!(
            "the invariant `{}={}` names a type no file defines as a struct or union",
            spec.type_name, spec.predicate
        ))),
        None => Ok(()),
    }
}

/// The marker of an invariant declared in a source comment.
const INVARIANT_MARKER: &str = "cairn: invariant ";

/// The invariants `file` declares in comments, one per marker, up to the
/// end of the comment or line.
fn source_invariants(file: &Path) -> Result<Vec<engine::InvariantSpec>, UsageError> {
    let text = std::fs::read_to_string(file)
        .map_err(|e| UsageError(format!("{}: {e}", file.display())))?;
    let mut specs = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let Some(at) = line.find(INVARIANT_MARKER) else {
            continue;
        };
        let rest = &line[at + INVARIANT_MARKER.len()..];
        let declared = rest.split("*/").next().unwrap_or_default().trim();
        let spec = invariant_spec(declared)
            .map_err(|e| UsageError(format!("{}:{}:{}: {}", file.display(), n + 1, at + 1, e.0)))?;
        specs.push(spec);
    }
    Ok(specs)
}

/// Creates `dir` if missing and writes a file in it, so that a directory
/// the analysis could not write to is found before it starts.
fn writable_dir(dir: &Path) -> std::io::Result<()> {
    std::fs::create_dir_all(dir)?;
    let probe = dir.join(format!(".cairn-probe-{}", std::process::id()));
    std::fs::File::create(&probe)?;
    std::fs::remove_file(&probe)
}

pub fn run(args: GenArgs) -> Result<Outcome, UsageError> {
    let engine_config = engine::EngineConfig {
        globals_as_inputs: args.globals == GlobalsMode::Inputs,
        check_all_globals: args.check_all_globals,
        goals: match args.goals {
            GoalsMode::All => engine::GoalSelection::All,
            GoalsMode::Unconstrained => engine::GoalSelection::Unconstrained,
        },
        hard_goals: match args.hard_goals {
            HardGoalsMode::Off => engine::HardGoalStrategy::Off,
            HardGoalsMode::Trees => engine::HardGoalStrategy::Trees,
        },
        search: match args.search {
            SearchMode::Coverage => engine::SearchOrder::Coverage,
            SearchMode::Random => engine::SearchOrder::Random,
            SearchMode::Mixed => engine::SearchOrder::CoverageAndRandom,
        },
        seed: args.seed,
        ..engine_config(&args.budgets)?
    };
    std::fs::create_dir_all(&args.out).map_err(|e| {
        UsageError(format!(
            "cannot create output directory {}: {e}",
            args.out.display()
        ))
    })?;
    // Load every file first so a bad path is reported before any long run.
    let mut loaded = Vec::new();
    for file in &args.files {
        let output = load(file, &args.source)?;
        let funcs = select_functions(&output.program, &args.functions)?;
        loaded.push((file, output, funcs));
    }
    let mut engine_config = engine_config;
    declare_invariants(
        &mut engine_config,
        loaded
            .iter()
            .map(|(file, output, _)| (file.as_path(), &output.program)),
    )?;
    let interrupted = interrupt_flag();
    let engine_config = engine::EngineConfig {
        cancel: Some(interrupted.clone()),
        ..engine_config
    };
    let mut summaries = Vec::new();
    for (file, output, funcs) in loaded {
        let flags = emit::SourceFlags {
            defines: args.source.define.clone(),
            include_dirs: args.source.include.clone(),
        };
        let config = emit::EmitConfig {
            out_dir: args.out.clone(),
            source: file.clone(),
            flags,
        };
        let mut reports = Vec::new();
        for (n, func) in funcs.iter().enumerate() {
            if interrupted.load(Ordering::SeqCst) {
                break;
            }
            progress(file, n, funcs.len(), &output.program.function(*func).name);
            reports.extend(engine::generate(&output.program, &[*func], &engine_config));
            if n + 1 < funcs.len() {
                // A checkpoint, so that an interruption keeps what was found so far.
                emit::write_outputs(&output.program, &reports, &config)
                    .map_err(|e| UsageError(e.to_string()))?;
            }
        }
        if args.goals == GoalsMode::Unconstrained {
            report_targets(&output.program, &funcs);
        }
        summaries.push(
            emit::write_outputs(&output.program, &reports, &config)
                .map_err(|e| UsageError(e.to_string()))?,
        );
    }
    clear_progress();
    if interrupted.load(Ordering::SeqCst) {
        print_summaries(&summaries, args.json, args.findings);
        return Err(UsageError(
            "interrupted: the tests found so far are written".into(),
        ));
    }
    print_summaries(&summaries, args.json, args.findings);
    if args.check {
        return check_dir(&args.out, "gcc", args.sanitize, args.json);
    }
    Ok(Outcome::Success)
}

pub fn run_check(args: &CheckArgs) -> Result<Outcome, UsageError> {
    check_dir(&args.out, &args.cc, args.sanitize, args.json)
}

fn print_summaries(summaries: &[emit::EmitSummary], json: bool, findings: FindingsMode) {
    for s in summaries {
        if json {
            println!("{}", emit::summary_json(s));
        } else {
            print!("{}", emit::summary_table(s, findings == FindingsMode::All));
        }
    }
}

fn check_dir(out: &Path, cc: &str, sanitize: bool, json: bool) -> Result<Outcome, UsageError> {
    let config = check::CheckConfig {
        cc: cc.to_string(),
        sanitize,
    };
    let report = check::check(out, &config).map_err(|e| UsageError(e.to_string()))?;
    if json {
        println!("{}", report.to_json());
    } else {
        print!("{}", report.table());
    }
    Ok(if report.ok() {
        Outcome::Success
    } else {
        Outcome::CheckFailed
    })
}

/// Set by the first Ctrl-C: the search of the current function stops at its
/// next turn, and the run ends with what was found so far.
fn interrupt_flag() -> Arc<AtomicBool> {
    let flag = Arc::new(AtomicBool::new(false));
    let handler_flag = flag.clone();
    // A second handler cannot be installed in one process; without one, Ctrl-C
    // just ends the run as usual, which loses at most the current function.
    let _ = ctrlc::set_handler(move || {
        if handler_flag.swap(true, Ordering::SeqCst) {
            std::process::exit(130);
        }
        eprintln!(
            "\ncairn: interrupted; writing the tests found so far (Ctrl-C again to quit now)"
        );
    });
    flag
}

/// One status line on a terminal; nothing when stderr is redirected.
fn progress(file: &Path, done: usize, total: usize, function: &str) {
    if std::io::stderr().is_terminal() {
        eprint!(
            "\r\x1b[K[{}/{total}] {}: {function}",
            done + 1,
            file.display()
        );
    }
}

fn clear_progress() {
    if std::io::stderr().is_terminal() {
        eprint!("\r\x1b[K");
    }
}

/// How many goals `--goals unconstrained` targeted and how many it saved.
fn report_targets(program: &ir::Program, funcs: &[ir::FuncId]) {
    let all: usize = funcs
        .iter()
        .map(|f| ir::function_goals(program, *f).len())
        .sum();
    let targeted: usize = funcs
        .iter()
        .map(|f| ir::unconstrained_goals(program, *f).len())
        .sum();
    eprintln!(
        "targeted {targeted} unconstrained goals of {all} ({} saved)",
        all - targeted
    );
}
