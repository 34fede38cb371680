//! `cairn gen` and `cairn check`: the whole pipeline for a set of files.

use crate::cache;
use crate::cli::{
    BudgetArgs, CheckArgs, CoverageChoice, FindingsMode, FrameworkChoice, GenArgs, GlobalsMode,
    GoalsMode, HardGoalsMode, InputsMode, SearchMode,
};
use crate::journal::{Entry, Journal};
use crate::record::{self, RunRecord, Shard};
use crate::{select_functions, shown, Outcome, UsageError};
use signal_hook::consts::{SIGINT, SIGTERM};
use signal_hook::iterator::Signals;
use std::collections::{HashMap, HashSet};
use std::io::IsTerminal;
use std::num::NonZeroUsize;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicI32, Ordering};
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
    Ok(engine::EngineConfig {
        max_time: Duration::from_secs_f64(budgets.max_time),
        max_paths: budgets.max_paths,
        max_array: budgets.max_array,
        max_nodes: budgets.max_nodes,
        max_depth: budgets.max_depth,
        max_iterations: budgets
            .max_iterations
            .unwrap_or(engine::EngineConfig::default().max_iterations),
        allocation_failure: match (budgets.alloc_may_fail, budgets.alloc_never_fails) {
            (true, _) => engine::AllocationFailure::Tested,
            (false, true) => engine::AllocationFailure::Never,
            (false, false) => engine::AllocationFailure::Handled,
        },
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

/// Whether `file` may declare invariants (which every file of a run
/// declares for all).
fn declares_invariants(file: &Path) -> bool {
    std::fs::read(file).is_ok_and(|bytes| {
        bytes
            .windows(INVARIANT_MARKER.len())
            .any(|w| w == INVARIANT_MARKER.as_bytes())
    })
}

/// The invariants `file` declares in comments, one per marker, up to the
/// end of the comment or line.
fn source_invariants(file: &Path) -> Result<Vec<engine::InvariantSpec>, UsageError> {
    // Sources in Latin-1 and other encodings are common: the markers are ASCII.
    let bytes = std::fs::read(file).map_err(|e| UsageError(format!("{}: {e}", file.display())))?;
    let text = String::from_utf8_lossy(&bytes);
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
/// the analysis could not write to is found before it starts. Called once
/// the inputs are read: an error in them leaves no empty directory behind.
fn writable_dir(dir: &Path) -> std::io::Result<()> {
    std::fs::create_dir_all(dir)?;
    let probe = dir.join(format!(".cairn-probe-{}", std::process::id()));
    std::fs::File::create(&probe)?;
    std::fs::remove_file(&probe)
}

/// The output directory, created and checked writable.
pub fn prepare_out(out: &Path) -> Result<(), UsageError> {
    writable_dir(out).map_err(|e| {
        UsageError(format!(
            "cannot write in the output directory {}: {}",
            out.display(),
            front::io_message(&e)
        ))
    })
}

/// The directory of `--dump-queries`, created and checked writable.
pub fn prepare_dump_dir(budgets: &BudgetArgs) -> Result<(), UsageError> {
    match &budgets.dump_queries {
        Some(dir) => writable_dir(dir).map_err(|e| {
            UsageError(format!(
                "--dump-queries: cannot write files in {}: {}",
                dir.display(),
                front::io_message(&e)
            ))
        }),
        None => Ok(()),
    }
}

pub fn run(args: GenArgs) -> Result<Outcome, UsageError> {
    let interruption = Interruption::watch();
    let outcome = generate(&args, &interruption);
    match (interruption.exit_status(), outcome) {
        (None, outcome) => outcome,
        (Some(status), Ok(_)) => Ok(Outcome::Interrupted { status }),
        // A child such as the preprocessor dies of the same Ctrl-C: its
        // error is the interruption.
        (Some(status), Err(_)) => {
            eprintln!("cairn: interrupted");
            Ok(Outcome::Interrupted { status })
        }
    }
}

/// `gen` up to its end or the first SIGINT or SIGTERM, after which it
/// writes the tests found so far and stops.
fn generate(args: &GenArgs, interruption: &Interruption) -> Result<Outcome, UsageError> {
    let budgeted = engine_config(&args.budgets)?;
    let engine_config = engine::EngineConfig {
        // A whole program's harness cannot make an allocation fail.
        allocation_failure: match args.whole_program {
            true => engine::AllocationFailure::Explored,
            false => budgeted.allocation_failure,
        },
        globals_as_inputs: args.globals == GlobalsMode::Inputs,
        check_all_globals: args.check_all_globals,
        boundary_tests: !args.no_boundary_tests,
        flipped_boundaries: !args.no_flipped_boundaries,
        goal_scope: match args.whole_program {
            true => engine::GoalScope::Program,
            false => engine::GoalScope::Function,
        },
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
        cheap_inputs: !args.no_cheap_inputs,
        // Only cairn's own runner runs each test in a process of its own.
        exit_tests: args.framework == FrameworkChoice::Plain,
        cancel: Some(interruption.cancel.clone()),
        ..budgeted
    };
    // Load every file first so a bad path is reported before any long run
    // and before anything is written. In a project, a file that cannot be
    // read is reported and the others go on.
    let shard = args.shard.unwrap_or(Shard::WHOLE);
    let sources = sources(args)?;
    let project = args.files.is_empty();
    let mut loaded = Vec::new();
    let mut unreadable = Vec::new();
    let jobs = args
        .jobs
        .unwrap_or_else(|| std::thread::available_parallelism().unwrap_or(NonZeroUsize::MIN));
    let files: Vec<&Path> = sources.iter().map(|s| s.file.as_path()).collect();
    let wanted = match project {
        true => args.functions.as_slice(),
        false => &[],
    };
    let config = front::FrontConfig {
        mcdc: args.coverage == CoverageChoice::Mcdc,
        ..args.source.front_config()
    };
    let compiled = compile_all(&files, wanted, &config, jobs, &interruption.cancel);
    for (source, compiled) in sources.iter().zip(compiled) {
        let compiled = match compiled {
            FileRead::Read(compiled) => *compiled,
            FileRead::NotNaming => continue,
            // Interrupted while reading the files: nothing was searched yet.
            FileRead::Unread => break,
        };
        let read = shown(compiled).and_then(|output| {
            // In a project, -f names the functions wherever they are
            // defined: a file that only declares one (a header's
            // prototype) does not take it.
            let names: Vec<String> = match project {
                true => args
                    .functions
                    .iter()
                    .filter(|name| defines(&output, name))
                    .cloned()
                    .collect(),
                false => args.functions.clone(),
            };
            let funcs = match names.is_empty() && !args.functions.is_empty() {
                true => Vec::new(),
                false => select_functions(&output.program, &names)?,
            };
            Ok((output, funcs))
        });
        let (output, funcs) = match read {
            Ok(read) => read,
            Err(UsageError(why)) if project => {
                eprintln!("cairn: {why}");
                unreadable.push(source.file.clone());
                continue;
            }
            Err(e) => return Err(e),
        };
        if funcs.is_empty() && args.functions.is_empty() {
            eprintln!(
                "cairn: {}: {}",
                source.file.display(),
                nothing_to_test(&output)
            );
        }
        let run_order: Vec<String> = funcs
            .iter()
            .map(|f| output.program.function(*f).name.clone())
            .collect();
        let funcs: Vec<ir::FuncId> = funcs
            .into_iter()
            .filter(|f| shard.takes(&source.key, &output.program.function(*f).name))
            .collect();
        loaded.push((source.clone(), output, run_order, funcs));
    }
    if loaded
        .iter()
        .all(|(_, _, run_order, _)| run_order.is_empty())
    {
        return Ok(Outcome::NothingToTest);
    }
    let mut engine_config = engine_config;
    declare_invariants(
        &mut engine_config,
        loaded
            .iter()
            .map(|(source, output, _, _)| (source.file.as_path(), &output.program)),
    )?;
    prepare_dump_dir(&args.budgets)?;
    prepare_out(&args.out)?;
    let config_text = record::config_text(&engine_config);
    let build = cache::build_identity();
    let mut files: Vec<FileRun> = Vec::new();
    let mut reports: Vec<Vec<testcase::FunctionReport>> = Vec::new();
    for (position, (source, output, run_order, funcs)) in loaded.into_iter().enumerate() {
        if funcs.is_empty() {
            continue;
        }
        let record = RunRecord {
            format: record::FORMAT.to_string(),
            source: source.file.clone(),
            out_subdir: source.out_subdir.clone(),
            position,
            flags: record::SourceFlags::of(&args.source),
            program: record::fingerprint(&output.program),
            config: config_text.clone(),
            framework: args.framework.into(),
            shard,
            functions: run_order,
            reports: (),
            reusable: Vec::new(),
        };
        let config = emit_config(&args.out, &record)?;
        let keys = cache::Keys::new(
            &output.program,
            &engine_config,
            &format!("{build:?}\n{}\n{:?}", record.config, record.flags),
        );
        let keyed: Vec<cache::Reusable> = funcs.iter().map(|f| keys.of(*f)).collect();
        let reused = match args.fresh || build.is_none() {
            true => Vec::new(),
            false => reusable_reports(&keys, &keyed, &config),
        };
        if !reused.is_empty() {
            eprintln!(
                "cairn: {}: {} of {} functions unchanged since the last run in {}: their tests are kept (--fresh explores them again)",
                source.file.display(),
                reused.len(),
                funcs.len(),
                args.out.display()
            );
        }
        let position: HashMap<ir::FuncId, usize> =
            funcs.iter().enumerate().map(|(at, f)| (*f, at)).collect();
        let kept: Vec<Entry> = reused
            .iter()
            .filter_map(|report| {
                let key = keyed.get(*position.get(&report.func)?)?.clone();
                Some(Entry {
                    key,
                    report: report.clone(),
                })
            })
            .collect();
        let journal = Journal::start(&config.out_dir, &source_stem(&config), &kept)?;
        let to_explore = funcs
            .iter()
            .copied()
            .filter(|f| !reused.iter().any(|r| r.func == *f))
            .collect();
        files.push(FileRun {
            output,
            funcs,
            position,
            to_explore,
            keyed,
            config,
            record,
            journal,
        });
        reports.push(reused);
    }
    if files.is_empty() {
        // More shards than functions: this one has nothing, which is no error.
        eprintln!("cairn: shard {shard} has none of the functions to test; nothing written");
        return Ok(Outcome::Success);
    }
    let work: Vec<(&ir::Program, ir::FuncId)> = files
        .iter()
        .flat_map(|run| {
            run.to_explore
                .iter()
                .map(|func| (&run.output.program, *func))
        })
        .collect();
    let owners: Vec<usize> = files
        .iter()
        .enumerate()
        .flat_map(|(owner, run)| std::iter::repeat_n(owner, run.to_explore.len()))
        .collect();
    // Functions whose search an interruption may have cut short: a later
    // run must not reuse their reports.
    let mut unfinished: Vec<Vec<ir::FuncId>> = vec![Vec::new(); files.len()];
    let mut summaries: Vec<Option<emit::EmitSummary>> = vec![None; files.len()];
    // An interrupted run writes what it has at once, without running it.
    let validate = || !args.no_validate && !interruption.cancel.load(Ordering::SeqCst);
    progress(&files, &owners, &work, 0);
    engine::generate_each(&work, &engine_config, jobs, |n, report| {
        let owner = owners[n];
        let (run, file_reports) = (&files[owner], &mut reports[owner]);
        if interruption.cancel.load(Ordering::SeqCst) {
            unfinished[owner].push(report.func);
        } else {
            run.journal_finished(&report)?;
        }
        file_reports.push(report);
        progress(&files, &owners, &work, n + 1);
        if file_reports.len() == run.funcs.len() {
            summaries[owner] =
                Some(run.write(file_reports, &unfinished[owner], args.goals, validate())?);
        }
        Ok::<(), UsageError>(())
    })?;
    // Files whose every function was reused, and the one file an
    // interruption may leave part done, written as they are.
    for (owner, run) in files.iter().enumerate() {
        if summaries[owner].is_none() && !reports[owner].is_empty() {
            summaries[owner] = Some(run.write(
                &mut reports[owner],
                &unfinished[owner],
                args.goals,
                validate(),
            )?);
        }
    }
    let summaries: Vec<emit::EmitSummary> = summaries.into_iter().flatten().collect();
    clear_progress();
    print_summaries(&summaries, args.json, args.findings);
    if project {
        project_summary(&summaries, &unreadable);
    }
    if interruption.exit_status().is_some() {
        match summaries.is_empty() {
            true => eprintln!("cairn: interrupted before any test was written"),
            false => eprintln!(
                "cairn: interrupted; the tests found so far are in {}",
                args.out.display()
            ),
        }
        return Ok(Outcome::Success);
    }
    if args.check {
        let check = CheckArgs {
            out: args.out.clone(),
            sanitize: args.sanitize,
            cc: "gcc".to_string(),
            coverage: args.coverage,
            json: args.json,
            junit: None,
            sarif: None,
            html: None,
        };
        return run_check(&check);
    }
    Ok(Outcome::Success)
}

/// Why a file gives `gen` no function to test.
fn nothing_to_test(output: &front::FrontOutput) -> &'static str {
    if output.program.functions.iter().any(|f| f.span.file == 0) {
        "no function here that cairn can test (see the diagnostics above)"
    } else {
        "the file defines no function"
    }
}

pub fn run_check(args: &CheckArgs) -> Result<Outcome, UsageError> {
    let config = check::CheckConfig {
        cc: args.cc.clone(),
        sanitize: args.sanitize,
        mcdc: args.coverage == CoverageChoice::Mcdc,
        ..check::CheckConfig::default()
    };
    let report = check::check(&args.out, &config).map_err(|e| UsageError(e.to_string()))?;
    if args.json {
        println!("{}", report.to_json());
    } else {
        print!("{}", report.table());
    }
    if let Some(path) = &args.junit {
        write_report(path, &check::junit(&report))?;
    }
    if let Some(path) = &args.sarif {
        let cwd = std::env::current_dir()
            .and_then(|d| d.canonicalize())
            .map_err(|e| UsageError(format!("the working directory: {e}")))?;
        write_report(
            path,
            &check::sarif(&report, &cwd, env!("CARGO_PKG_VERSION")),
        )?;
    }
    if let Some(dir) = &args.html {
        for file in check::html(&report) {
            let path = dir.join(&file.path);
            if let Some(parent) = path.parent() {
                std::fs::create_dir_all(parent)
                    .map_err(|e| UsageError(format!("cannot create {}: {e}", parent.display())))?;
            }
            write_report(&path, &file.text)?;
        }
    }
    Ok(if report.ok() {
        Outcome::Success
    } else {
        Outcome::CheckFailed
    })
}

/// Writes a report file whole or not at all; failing to is bad usage (exit 2).
fn write_report(path: &Path, text: &str) -> Result<(), UsageError> {
    emit::write_atomically(path, text).map_err(|e| UsageError(format!("cannot write {e}")))
}

pub fn print_summaries(summaries: &[emit::EmitSummary], json: bool, findings: FindingsMode) {
    for s in summaries {
        if json {
            println!("{}", emit::summary_json(s));
        } else {
            print!("{}", emit::summary_table(s, findings == FindingsMode::All));
        }
    }
}

/// The first SIGINT or SIGTERM of a run: the search stops within a second
/// (Z3 included) and the run ends after writing what it found.
struct Interruption {
    /// Set on the signal; the engine's cancel flag.
    cancel: Arc<AtomicBool>,
    /// The signal's number, 0 before it comes.
    signal: Arc<AtomicI32>,
}

impl Interruption {
    /// Watches for the signals from a thread of its own, which also says
    /// on stderr what happens; a second signal ends the process at once.
    fn watch() -> Interruption {
        let interruption = Interruption {
            cancel: Arc::new(AtomicBool::new(false)),
            signal: Arc::new(AtomicI32::new(0)),
        };
        let (cancel, first) = (interruption.cancel.clone(), interruption.signal.clone());
        let watch = move || {
            // Registered here, so that without this thread the signals keep
            // their default action (end the process).
            let Ok(mut signals) = Signals::new([SIGINT, SIGTERM]) else {
                return;
            };
            for signal in signals.forever() {
                if first
                    .compare_exchange(0, signal, Ordering::SeqCst, Ordering::SeqCst)
                    .is_err()
                {
                    std::process::exit(exit_status(signal).into());
                }
                cancel.store(true, Ordering::SeqCst);
                eprintln!(
                    "\ncairn: interrupted; writing the tests found so far (Ctrl-C again to quit now)"
                );
            }
        };
        let _ = std::thread::Builder::new()
            .name("cairn-signals".into())
            .spawn(watch);
        interruption
    }

    /// The exit status the signal received asks for, if one came.
    fn exit_status(&self) -> Option<u8> {
        match self.signal.load(Ordering::SeqCst) {
            0 => None,
            signal => Some(exit_status(signal)),
        }
    }
}

/// What reading one file of the run gave.
enum FileRead {
    Read(Box<Result<front::FrontOutput, front::Diagnostic>>),
    /// Its own lines name none of the functions asked for: not parsed.
    NotNaming,
    /// Not reached before an interruption.
    Unread,
}

/// Whether `output` defines the function `name` (or would, had the front
/// end not excluded it): a header's prototype does not count.
fn defines(output: &front::FrontOutput, name: &str) -> bool {
    output
        .program
        .function_by_name(name)
        .is_some_and(|f| output.program.function(f).body.is_some())
        || output.excluded.iter().any(|(excluded, _)| excluded == name)
}

/// Reads the run's files with the front end, `jobs` at a time (a project
/// of a hundred files spends minutes there), in their order. With `wanted` functions (a
/// project's -f), a file whose own lines do not name one (and declares no
/// invariant) is preprocessed only: cairn tests the functions a file's
/// own lines define, not those of the files it includes.
fn compile_all(
    files: &[&Path],
    wanted: &[String],
    config: &front::FrontConfig,
    jobs: NonZeroUsize,
    cancel: &AtomicBool,
) -> Vec<FileRead> {
    let next = std::sync::atomic::AtomicUsize::new(0);
    let results = std::sync::Mutex::new(
        (0..files.len())
            .map(|_| FileRead::Unread)
            .collect::<Vec<_>>(),
    );
    std::thread::scope(|scope| {
        for _ in 0..jobs.get().min(files.len()) {
            scope.spawn(|| loop {
                let n = next.fetch_add(1, Ordering::SeqCst);
                if n >= files.len() || cancel.load(Ordering::SeqCst) {
                    break;
                }
                let read = match wanted.is_empty() || declares_invariants(files[n]) {
                    true => FileRead::Read(Box::new(front::compile(files[n], config))),
                    false => front::compile_mentioning(files[n], config, wanted)
                        .map_or(FileRead::NotNaming, |read| FileRead::Read(Box::new(read))),
                };
                if let Ok(mut results) = results.lock() {
                    results[n] = read;
                }
            });
        }
    });
    results.into_inner().unwrap_or_default()
}

/// A source file of a `gen` run.
#[derive(Clone)]
struct Source {
    file: PathBuf,
    /// What the shards split it by: the path as given, or in a project
    /// its path from the project's root (the same on every machine).
    key: PathBuf,
    /// Where its outputs go inside the output directory (a project's
    /// files each have their own).
    out_subdir: PathBuf,
}

/// The files of the run: those given, or every C file of the project's
/// `compile_commands.json`, each with a directory of its own named after
/// its path from their deepest common directory.
fn sources(args: &GenArgs) -> Result<Vec<Source>, UsageError> {
    let Some(database) = args
        .source
        .compile_commands
        .as_ref()
        .filter(|_| args.files.is_empty())
    else {
        return Ok(args
            .files
            .iter()
            .map(|file| Source {
                file: file.clone(),
                key: file.clone(),
                out_subdir: PathBuf::new(),
            })
            .collect());
    };
    let files = front::compile_database_files(database).map_err(|d| UsageError(d.to_string()))?;
    if files.is_empty() {
        return Err(UsageError(format!(
            "{}: compile_commands.json lists no C file",
            database.display()
        )));
    }
    let root = files
        .iter()
        .filter_map(|f| f.parent())
        .fold(None::<PathBuf>, |common, dir| {
            Some(match common {
                None => dir.to_path_buf(),
                Some(common) => common
                    .components()
                    .zip(dir.components())
                    .take_while(|(a, b)| a == b)
                    .map(|(a, _)| a)
                    .collect(),
            })
        })
        .unwrap_or_default();
    Ok(files
        .into_iter()
        .map(|file| {
            let key = file.strip_prefix(&root).unwrap_or(&file).to_path_buf();
            Source {
                out_subdir: key.with_extension(""),
                key,
                file,
            }
        })
        .collect())
}

/// A project run's last lines: its totals, and the files it could not read.
fn project_summary(summaries: &[emit::EmitSummary], unreadable: &[PathBuf]) {
    let functions = summaries.iter().flat_map(|s| &s.functions);
    let (tests, covered, total, findings) =
        functions.fold((0, 0, 0, 0), |(t, c, b, f), function| {
            (
                t + function.tests,
                c + function.branches_covered,
                b + function.branches_total,
                f + function.findings,
            )
        });
    let files = |n: usize| match n {
        1 => "1 file".to_string(),
        n => format!("{n} files"),
    };
    eprintln!(
        "cairn: project: {} with tests: {tests} tests, {covered}/{total} branches, {findings} findings",
        files(summaries.len())
    );
    if !unreadable.is_empty() {
        eprintln!(
            "cairn: {} could not be read (see above): {}",
            files(unreadable.len()),
            unreadable
                .iter()
                .map(|f| f.display().to_string())
                .collect::<Vec<_>>()
                .join(", ")
        );
    }
}

/// One file of a `gen` run: its program, the functions to test, where
/// its outputs go.
struct FileRun {
    output: front::FrontOutput,
    /// This shard's functions.
    funcs: Vec<ir::FuncId>,
    /// Those of `funcs` whose reports of the last run cannot be reused.
    to_explore: Vec<ir::FuncId>,
    /// Where each of `funcs` is in it.
    position: HashMap<ir::FuncId, usize>,
    /// The key of each of `funcs`, in that order.
    keyed: Vec<cache::Reusable>,
    config: emit::EmitConfig,
    /// The file's run record, without reports.
    record: RunRecord<()>,
    /// Where each function's report goes as soon as it comes.
    journal: Journal,
}

impl FileRun {
    /// Journals the report of a function whose exploration ran to its end.
    fn journal_finished(&self, report: &testcase::FunctionReport) -> Result<(), UsageError> {
        let Some(key) = self
            .position
            .get(&report.func)
            .and_then(|at| self.keyed.get(*at))
        else {
            return Ok(());
        };
        self.journal.append(&Entry {
            key: key.clone(),
            report: report.clone(),
        })
    }

    /// The file's outputs and run record, written once, after its last
    /// report (or at an interruption): of the reports, those of
    /// `unfinished` functions may be cut short. The journal then goes.
    fn write(
        &self,
        reports: &mut [testcase::FunctionReport],
        unfinished: &[ir::FuncId],
        goals: GoalsMode,
        validate: bool,
    ) -> Result<emit::EmitSummary, UsageError> {
        if goals == GoalsMode::Unconstrained {
            report_targets(&self.output.program, &self.funcs);
        }
        // Reused reports come first: put them all in the run's order.
        reports.sort_by_key(|r| self.position.get(&r.func).copied());
        let reported: HashSet<ir::FuncId> = reports.iter().map(|r| r.func).collect();
        let reusable = self
            .funcs
            .iter()
            .zip(&self.keyed)
            .filter(|(func, _)| reported.contains(*func) && !unfinished.contains(func))
            .map(|(_, key)| key.clone())
            .collect();
        let record = RunRecord {
            reusable,
            ..self.record.clone()
        };
        let mut config = self.config.clone();
        let mut summary = write_file(&self.output.program, reports, &config, &record)?;
        if validate {
            let stem = source_stem(&self.config);
            for _ in 0..crate::validate::ROUNDS {
                let program = &self.output.program;
                let unresolved = &mut config.unresolved;
                let out_dir = &self.config.out_dir;
                match crate::validate::refute(program, reports, unresolved, out_dir, &stem) {
                    Ok(false) => break,
                    Ok(true) => summary = write_file(program, reports, &config, &record)?,
                    Err(UsageError(why)) => {
                        eprintln!("cairn: the tests were not run before writing them: {why}");
                        break;
                    }
                }
            }
        }
        self.journal.finish()?;
        Ok(summary)
    }
}

/// The reports of the last run in `config`'s output directory that `keys`
/// say are still right, for the functions `keyed`: from its record, and
/// from the journal it left if it was stopped. A record that cannot be
/// read costs only the reuse.
fn reusable_reports(
    keys: &cache::Keys,
    keyed: &[cache::Reusable],
    config: &emit::EmitConfig,
) -> Vec<testcase::FunctionReport> {
    let stem = source_stem(config);
    let path = record::path(&config.out_dir, &stem);
    let record = match path.exists().then(|| RunRecord::read(&path)) {
        None => None,
        Some(Ok(record)) => Some(record),
        Some(Err(UsageError(why))) => {
            eprintln!("cairn: the tests of the last run are not reused: {why}");
            None
        }
    };
    let journal = Journal::left_by_stopped_run(&config.out_dir, &stem);
    if record.is_none() && journal.is_empty() {
        return Vec::new();
    }
    let earlier = cache::Earlier::new(record, journal);
    keyed
        .iter()
        .filter_map(|now| keys.reuse(now, &earlier))
        .collect()
}

/// The stem of the outputs' names (emit refused a source whose stem is
/// not UTF-8).
fn source_stem(config: &emit::EmitConfig) -> std::borrow::Cow<'_, str> {
    config
        .source
        .file_stem()
        .unwrap_or_default()
        .to_string_lossy()
}

/// How emit writes the outputs of a record's source into `out`: with the
/// flags of the command line and, from a `compile_commands.json`, the
/// file's include directories and macros, which its driver needs too.
pub fn emit_config(out: &Path, record: &RunRecord<()>) -> Result<emit::EmitConfig, UsageError> {
    let mut flags = emit::SourceFlags {
        defines: record.flags.define.clone(),
        include_dirs: record.flags.include.clone(),
        ..emit::SourceFlags::default()
    };
    if let Some(database) = &record.flags.compile_commands {
        let listed = front::flags_from_compile_commands(database, &record.source)
            .map_err(|d| UsageError(d.to_string()))?;
        for flag in listed {
            match flag {
                front::SourceFlag::IncludeDir(dir) => flags.include_dirs.push(dir),
                front::SourceFlag::Define(define) => flags.defines.push(define),
                front::SourceFlag::Undefine(name) => flags.undefines.push(name),
                front::SourceFlag::ForcedInclude { file, .. } => flags.forced_includes.push(file),
                front::SourceFlag::Other(words) => flags.compiler_flags.extend(words),
            }
        }
    }
    Ok(emit::EmitConfig {
        out_dir: out.join(&record.out_subdir),
        source: record.source.clone(),
        flags,
        framework: record.framework,
        unresolved: Default::default(),
    })
}

/// Writes one source file's outputs for `reports` and its run record.
pub fn write_file(
    program: &ir::Program,
    reports: &[testcase::FunctionReport],
    config: &emit::EmitConfig,
    record: &RunRecord<()>,
) -> Result<emit::EmitSummary, UsageError> {
    let summary =
        emit::write_outputs(program, reports, config).map_err(|e| UsageError(e.to_string()))?;
    record
        .with_reports(reports)
        .write(&config.out_dir, &source_stem(config))?;
    Ok(summary)
}

/// A shell's exit status for a process ended by `signal`: 130 for SIGINT,
/// 143 for SIGTERM.
fn exit_status(signal: i32) -> u8 {
    u8::try_from(128 + signal).unwrap_or(u8::MAX)
}

/// One status line on a terminal, naming the function whose tests are
/// awaited next (the `done`th of `work`); nothing when stderr is redirected.
fn progress(files: &[FileRun], owners: &[usize], work: &[(&ir::Program, ir::FuncId)], done: usize) {
    if !std::io::stderr().is_terminal() {
        return;
    }
    if let (Some((program, func)), Some(owner)) = (work.get(done), owners.get(done)) {
        eprint!(
            "\r\x1b[K[{}/{}] {}: {}",
            done + 1,
            work.len(),
            files[*owner].record.source.display(),
            program.function(*func).name
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
