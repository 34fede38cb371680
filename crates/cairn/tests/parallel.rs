//! `gen -j N`: exploring functions in parallel changes nothing in the output.

mod common;

use common::{arg, cairn, corpus, text};
use std::collections::BTreeMap;
use std::path::Path;

/// Every file under `dir` by its relative path, with `tests.json` files
/// parsed and their timings (`elapsed_ms`, which differ from run to run
/// whatever `-j` is) set to 0, the others as bytes.
fn outputs(dir: &Path) -> BTreeMap<String, Vec<u8>> {
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
            let bytes = match path.to_string_lossy().ends_with(".tests.json") {
                true => without_timings(&bytes),
                false => bytes,
            };
            files.insert(name.to_string(), bytes);
        }
    }
    files
}

fn without_timings(json: &[u8]) -> Vec<u8> {
    let mut value: serde_json::Value = serde_json::from_slice(json).expect("tests.json");
    fn clear(value: &mut serde_json::Value) {
        match value {
            serde_json::Value::Object(fields) => {
                for (key, field) in fields.iter_mut() {
                    match key.as_str() {
                        "elapsed_ms" => *field = 0.into(),
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

#[test]
fn two_jobs_write_what_one_job_writes() {
    let dir = tempfile::tempdir().expect("temp dir");
    let sources = [
        corpus("heap", "dlist.c"),
        corpus("heap", "slist.c"),
        corpus("scalar", "triangle.c"),
    ];
    let run = |jobs: &str| {
        let out_dir = dir.path().join(format!("out-j{jobs}"));
        let mut args = vec!["gen", "-o", arg(&out_dir), "-j", jobs];
        args.extend(sources.iter().map(|s| arg(s)));
        let out = cairn(&args);
        assert!(out.status.success(), "-j {jobs}: {}", text(&out.stderr));
        let summary = text(&out.stdout).replace(arg(&out_dir), "OUT");
        (summary, outputs(&out_dir))
    };
    let (one_summary, one_files) = run("1");
    let (two_summary, two_files) = run("2");
    assert_eq!(one_summary, two_summary);
    assert_eq!(
        one_files.keys().collect::<Vec<_>>(),
        two_files.keys().collect::<Vec<_>>()
    );
    for (name, bytes) in &one_files {
        assert!(
            two_files[name] == *bytes,
            "{name} differs between -j 1 and -j 2"
        );
    }
    assert!(one_files.contains_key("dlist_test.c") && one_files.contains_key("triangle_test.c"));
}

#[test]
fn zero_jobs_is_a_usage_error() {
    let dir = tempfile::tempdir().expect("temp dir");
    let out_dir = dir.path().join("out");
    let source = corpus("scalar", "triangle.c");
    let out = cairn(&["gen", arg(&source), "-o", arg(&out_dir), "-j", "0"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(!out_dir.exists());
}
