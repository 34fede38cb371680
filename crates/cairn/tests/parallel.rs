//! `gen -j N`: exploring functions in parallel changes nothing in the output.

mod common;

use common::{arg, cairn, corpus, outputs, text};

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
        // The deadline far off: on a loaded machine only it could make
        // the runs differ, and what is compared is the work, not the clock.
        let mut args = vec!["gen", "-o", arg(&out_dir), "-j", jobs, "--max-time", "60"];
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
