//! Helpers shared by the end-to-end tests of the `cairn` binary.

#![allow(dead_code)]

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

pub fn cairn(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_cairn"))
        .args(args)
        .output()
        .expect("run cairn")
}

/// Runs cairn with `args` in the directory `dir`.
pub fn cairn_in(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_cairn"))
        .args(args)
        .current_dir(dir)
        .output()
        .expect("run cairn")
}

pub fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// `tests/corpus/<dir>/<name>` of the repository.
pub fn corpus(dir: &str, name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/corpus")
        .join(dir)
        .join(name)
}

/// The line of `file` holding `marker` (its first occurrence).
pub fn line_of(file: &Path, marker: &str) -> u32 {
    let source = std::fs::read_to_string(file).expect("read corpus file");
    let index = source.lines().position(|l| l.contains(marker));
    index.unwrap_or_else(|| panic!("{marker} not in {}", file.display())) as u32 + 1
}

/// Writes `source` as `name` in `dir` and runs `gen --check --max-time 20`
/// on it into `dir/out`, which must pass; the run's output (stdout,
/// stderr) and the output directory.
pub fn gen_checked(dir: &Path, name: &str, source: &str) -> (String, String, PathBuf) {
    gen_checked_with(dir, name, source, &[])
}

/// [`gen_checked`] with `extra` arguments (`--sanitize`, ...).
pub fn gen_checked_with(
    dir: &Path,
    name: &str,
    source: &str,
    extra: &[&str],
) -> (String, String, PathBuf) {
    let src = dir.join(name);
    std::fs::write(&src, source).expect("write source");
    let out_dir = dir.join("out");
    let mut args = vec![
        "gen",
        arg(&src),
        "-o",
        arg(&out_dir),
        "--check",
        "--max-time",
        "20",
    ];
    args.extend(extra);
    let out = cairn(&args);
    let (stdout, stderr) = (text(&out.stdout), text(&out.stderr));
    assert_eq!(out.status.code(), Some(0), "{stdout}{stderr}");
    assert!(stdout.contains("check passed"), "{stdout}");
    (stdout, stderr, out_dir)
}

/// Whether gen's summary shows `function` with `ratio` (e.g. "2/4") on its line.
pub fn covers(stdout: &str, function: &str, ratio: &str) -> bool {
    stdout
        .lines()
        .any(|l| l.contains(function) && l.contains(ratio))
}

/// A path as a command-line argument (the test directories are UTF-8).
pub fn arg(path: &Path) -> &str {
    path.to_str().expect("UTF-8 path")
}

/// `cairn gen SOURCE -o OUT_DIR EXTRA` with the deadline far off (60 s a
/// function), which must succeed; its outputs (see [`outputs`]). Work
/// bounds then decide what the run does, not the clock, so runs compared
/// on a loaded machine stop where they would on a quiet one.
pub fn gen_outputs(source: &Path, out_dir: &Path, extra: &[&str]) -> BTreeMap<String, Vec<u8>> {
    let mut args = vec!["gen", arg(source), "-o", arg(out_dir), "--max-time", "60"];
    args.extend(extra);
    let out = cairn(&args);
    assert!(out.status.success(), "{}", text(&out.stderr));
    outputs(out_dir)
}

/// Every file under `dir` by its relative path, with `tests.json` files and
/// run records parsed and their timings (`elapsed_ms`, `elapsed`, `solver_ms`, `z3_time`, which
/// differ from run to run whatever `-j` is) set to 0, the others as bytes.
pub fn outputs(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    let mut files = BTreeMap::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(at) = pending.pop() {
        for entry in std::fs::read_dir(&at).expect("read output dir") {
            let path = entry.expect("dir entry").path();
            if path.is_dir() {
                pending.push(path);
                continue;
            }
            let name = path.strip_prefix(dir).expect("under dir").display();
            let bytes = std::fs::read(&path).expect("read output");
            let name_text = path.to_string_lossy();
            let bytes = match name_text.ends_with(".tests.json") || name_text.ends_with(".run.json")
            {
                true => without_timings(&bytes),
                false => bytes,
            };
            files.insert(name.to_string(), bytes);
        }
    }
    files
}

fn without_timings(json: &[u8]) -> Vec<u8> {
    let mut value: serde_json::Value = serde_json::from_slice(json).expect("JSON output");
    fn clear(value: &mut serde_json::Value) {
        match value {
            serde_json::Value::Object(fields) => {
                for (key, field) in fields.iter_mut() {
                    match key.as_str() {
                        "elapsed_ms" | "elapsed" | "solver_ms" | "z3_time" => *field = 0.into(),
                        _ => clear(field),
                    }
                }
            }
            serde_json::Value::Array(items) => items.iter_mut().for_each(clear),
            _ => {}
        }
    }
    clear(&mut value);
    value.to_string().into_bytes()
}

/// Whether the driver `out_dir/<stem>_test.c`, built against `source` with
/// `line` replaced by `mutant` (a changed copy of the code it tests),
/// fails: the regression its checks must catch. The source is restored.
pub fn driver_catches(out_dir: &Path, source: &Path, (line, mutant): (&str, &str)) -> bool {
    let original = std::fs::read_to_string(source).expect("read source");
    assert!(original.contains(line), "{line} not in the source");
    std::fs::write(source, original.replacen(line, mutant, 1)).expect("write mutant");
    let stem = source.file_stem().and_then(|s| s.to_str()).expect("stem");
    let binary = out_dir.join("mutant");
    let built = Command::new("gcc")
        .args(["-std=gnu11", "-w", "-o", arg(&binary)])
        .arg(out_dir.join(format!("{stem}_test.c")))
        .arg("-lm")
        .output()
        .expect("run gcc");
    std::fs::write(source, original).expect("restore source");
    assert!(built.status.success(), "{}", text(&built.stderr));
    let ran = Command::new(&binary).output().expect("run driver");
    !ran.status.success()
}
