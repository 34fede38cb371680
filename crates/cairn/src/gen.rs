//! `cairn gen` and `cairn check`: the whole pipeline for a set of files.

use crate::cli::{CheckArgs, GenArgs, GlobalsMode};
use crate::{load, select_functions, Outcome, UsageError};
use std::path::Path;
use std::time::Duration;

pub fn run(args: GenArgs) -> Result<Outcome, UsageError> {
    if !(args.max_time.is_finite() && args.max_time > 0.0) {
        return Err(UsageError(format!(
            "--max-time must be a positive number of seconds, got {}",
            args.max_time
        )));
    }
    let engine_config = engine::EngineConfig {
        max_time: Duration::from_secs_f64(args.max_time),
        max_paths: args.max_paths,
        max_array: args.max_array,
        max_depth: args.max_depth,
        globals_as_inputs: args.globals == GlobalsMode::Inputs,
        check_all_globals: args.check_all_globals,
        ..engine::EngineConfig::default()
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
    let mut summaries = Vec::new();
    for (file, output, funcs) in loaded {
        let reports = engine::generate(&output.program, &funcs, &engine_config);
        let config = emit::EmitConfig {
            out_dir: args.out.clone(),
            source: file.clone(),
        };
        let summary = emit::write_outputs(&output.program, &reports, &config)
            .map_err(|e| UsageError(e.to_string()))?;
        summaries.push(summary);
    }
    print_summaries(&summaries, args.json);
    if args.check {
        return check_dir(&args.out, "gcc", args.sanitize, args.json);
    }
    Ok(Outcome::Success)
}

pub fn run_check(args: &CheckArgs) -> Result<Outcome, UsageError> {
    check_dir(&args.out, &args.cc, args.sanitize, args.json)
}

fn print_summaries(summaries: &[emit::EmitSummary], json: bool) {
    for s in summaries {
        if json {
            println!("{}", emit::summary_json(s));
        } else {
            print!("{}", emit::summary_table(s));
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
