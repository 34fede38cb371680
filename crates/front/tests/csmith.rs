//! Robustness and semantics over random csmith programs: the front end never
//! panics, lowers most functions, and where a whole program lowers, running
//! its `main` on the IR (tests/common) prints the checksum the natively
//! compiled program prints. Skipped (with a note) without csmith.

mod common;

use std::path::Path;
use std::process::Command;

/// Statements the IR interpreter may run per program before giving up.
const STEP_BUDGET: u64 = 500_000;

/// What the native program prints, or `None` when it cannot be built or run.
fn native_output(file: &Path) -> Option<String> {
    let bin = file.with_extension("bin");
    let built = Command::new("cc")
        .args(["-w", "-O0", "-I/usr/include/csmith", "-o"])
        .arg(&bin)
        .arg(file)
        .status();
    if !built.is_ok_and(|s| s.success()) {
        return None;
    }
    let run = Command::new("timeout").arg("5").arg(&bin).output().ok()?;
    run.status
        .success()
        .then(|| String::from_utf8_lossy(&run.stdout).into_owned())
}

/// What `main` prints when run on the IR, or why it could not be run.
fn interpreted_output(program: &ir::Program) -> Result<String, String> {
    let main = program.function_by_name("main").ok_or("no main")?;
    let run = std::panic::catch_unwind(|| {
        let mut machine = common::Machine::new(program, STEP_BUDGET);
        let args = vec![
            common::make_int(ir::IntType::INT, 1),
            common::Value::Ptr(common::Pointer::Null),
        ];
        machine.call(main, args);
        machine.output
    });
    run.map_err(|e| {
        e.downcast_ref::<String>()
            .cloned()
            .unwrap_or_else(|| "interpreter gave up".into())
    })
}

const PROGRAMS: u64 = 12;

fn csmith_available() -> bool {
    Command::new("csmith")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

#[test]
fn csmith_programs_lower_without_panics() {
    if !csmith_available() {
        eprintln!("note: csmith is not installed (apt-get install csmith); skipping");
        return;
    }
    let dir = tempfile::tempdir().expect("temporary directory");
    let config = front::FrontConfig {
        include_dirs: vec!["/usr/include/csmith".into()],
        ..front::FrontConfig::default()
    };
    let (mut lowered, mut total, mut parse_failures) = (0usize, 0usize, Vec::new());
    let (mut agreed, mut not_run) = (0usize, Vec::new());
    let mut reasons: std::collections::BTreeMap<String, usize> = Default::default();
    for seed in 1..=PROGRAMS {
        let file = dir.path().join(format!("p{seed}.c"));
        let status = Command::new("csmith")
            .args([
                "--seed",
                &seed.to_string(),
                "--no-bitfields",
                "--max-funcs",
                "3",
            ])
            .args(["--max-block-depth", "3", "--max-expr-complexity", "6", "-o"])
            .arg(&file)
            .output()
            .expect("csmith runs");
        assert!(status.status.success(), "csmith failed for seed {seed}");
        match front::compile(Path::new(&file), &config) {
            Err(d) => {
                assert!(!d.message.contains("internal error"), "seed {seed}: {d}");
                parse_failures.push(format!("seed {seed}: {d}"));
            }
            Ok(out) => {
                if out.excluded.is_empty() {
                    // The native run only when the interpreter finished (some programs run for ages).
                    match interpreted_output(&out.program).map(|ours| (ours, native_output(&file)))
                    {
                        Ok((ours, Some(theirs))) => {
                            assert_eq!(
                                ours, theirs,
                                "seed {seed}: the IR computes another checksum"
                            );
                            agreed += 1;
                        }
                        Ok((_, None)) => not_run.push(format!("seed {seed}: native run failed")),
                        Err(why) => not_run.push(format!("seed {seed}: {why}")),
                    }
                }
                let main_file = out.program.files.first().cloned().unwrap_or_default();
                for f in &out.program.functions {
                    let excluded = out.excluded.iter().find(|(n, _)| *n == f.name);
                    if f.body.is_none() && excluded.is_none() {
                        continue; // only declared here (libc)
                    }
                    if out.program.file_name(f.span) != main_file {
                        continue; // helper defined in a csmith header
                    }
                    total += 1;
                    match excluded {
                        None => lowered += 1,
                        Some((_, d)) => *reasons.entry(d.message.clone()).or_default() += 1,
                    }
                }
            }
        }
    }
    eprintln!(
        "csmith: {lowered}/{total} functions of {PROGRAMS} programs lowered without diagnostics ({:.1}%)",
        100.0 * lowered as f64 / total.max(1) as f64
    );
    eprintln!("csmith: {agreed} programs run on the IR print the native checksum");
    for why in &not_run {
        eprintln!("  not compared: {why}");
    }
    for (reason, count) in &reasons {
        eprintln!("  excluded {count}x: {reason}");
    }
    for failure in &parse_failures {
        eprintln!("  parse failure: {failure}");
    }
    assert!(parse_failures.is_empty(), "lang-c rejected csmith programs");
    assert!(total > 0);
}
