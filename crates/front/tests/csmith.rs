//! Robustness: the front end over random csmith programs never panics and
//! lowers most of their functions. Skipped (with a note) without csmith.

use std::path::Path;
use std::process::Command;

const PROGRAMS: u64 = 20;

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
    for (reason, count) in &reasons {
        eprintln!("  excluded {count}x: {reason}");
    }
    for failure in &parse_failures {
        eprintln!("  parse failure: {failure}");
    }
    assert!(parse_failures.is_empty(), "lang-c rejected csmith programs");
    assert!(total > 0);
}
