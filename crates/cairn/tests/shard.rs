//! `gen --shard K/N` and `merge`: the shards of a run, merged, are the run.

mod common;

use common::{arg, cairn, cairn_in, corpus, outputs, text};
use std::path::{Path, PathBuf};

/// Files whose tests are the same from run to run (no solver time limit
/// picks their values), as given from the repository's root: a shard is
/// chosen by a hash of the path as given, the same in every checkout.
const SOURCES: [&str; 3] = [
    "tests/corpus/heap/dlist.c",
    "tests/corpus/heap/slist.c",
    "tests/corpus/scalar/triangle.c",
];

fn repository() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// `cairn ARGS SOURCES -o OUT` from the repository's root, which must
/// succeed; its stdout with OUT spelled `OUT`.
fn succeed(args: &[&str], out: &Path) -> String {
    let mut all: Vec<&str> = args.to_vec();
    all.extend(["-o", arg(out)]);
    if args[0] == "gen" {
        // The deadline far off: on a loaded machine only it could make
        // the shards differ from the whole run.
        all.extend(["--max-time", "60"]);
        all.extend(SOURCES);
    }
    let run = cairn_in(&repository(), &all);
    assert!(run.status.success(), "{args:?}: {}", text(&run.stderr));
    text(&run.stdout).replace(arg(out), "OUT")
}

#[test]
fn merged_shards_are_the_whole_run() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = |name: &str| dir.path().join(name);
    let whole = succeed(&["gen", "-j", "1"], &path("whole"));
    for k in 1..=3 {
        let shard = format!("{k}/3");
        succeed(&["gen", "--shard", &shard], &path(&format!("shard{k}")));
    }
    let shards = [path("shard1"), path("shard2"), path("shard3")];
    // Each shard has a part: the split is no degenerate one.
    for shard in &shards {
        assert!(
            outputs(shard).keys().any(|f| f.ends_with("_test.c")),
            "{} has no driver",
            shard.display()
        );
    }
    let mut merge = vec!["merge"];
    merge.extend(shards.iter().map(|s| arg(s)));
    let merged = succeed(&merge, &path("merged"));
    assert_eq!(whole, merged, "the summaries differ");
    let (whole_files, merged_files) = (outputs(&path("whole")), outputs(&path("merged")));
    assert_eq!(
        whole_files.keys().collect::<Vec<_>>(),
        merged_files.keys().collect::<Vec<_>>()
    );
    for (name, bytes) in &whole_files {
        assert!(merged_files[name] == *bytes, "{name} differs once merged");
    }
    // The same coverage, as gcov measures it.
    let check = |out: &Path| {
        let run = cairn(&["check", arg(out)]);
        assert!(run.status.success(), "check: {}", text(&run.stdout));
        text(&run.stdout).replace(arg(out), "OUT")
    };
    assert_eq!(check(&path("whole")), check(&path("merged")));
}

#[test]
fn a_missing_or_repeated_shard_is_refused_before_writing() {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = |name: &str| dir.path().join(name);
    for k in 1..=2 {
        let shard = format!("{k}/2");
        succeed(&["gen", "--shard", &shard], &path(&format!("shard{k}")));
    }
    let out = path("merged");
    let missing = cairn_in(
        &repository(),
        &["merge", arg(&path("shard1")), "-o", arg(&out)],
    );
    assert_eq!(missing.status.code(), Some(2));
    assert!(
        text(&missing.stderr).contains("shards missing"),
        "{}",
        text(&missing.stderr)
    );
    let shard1 = path("shard1");
    let repeated = cairn_in(
        &repository(),
        &[
            "merge",
            arg(&shard1),
            arg(&shard1),
            arg(&path("shard2")),
            "-o",
            arg(&out),
        ],
    );
    assert_eq!(repeated.status.code(), Some(2));
    assert!(
        text(&repeated.stderr).contains("same shard given twice"),
        "{}",
        text(&repeated.stderr)
    );
    assert!(!out.exists());
}

#[test]
fn a_bad_shard_is_a_usage_error() {
    let dir = tempfile::tempdir().expect("temp dir");
    let out = dir.path().join("out");
    let source = corpus("scalar", "triangle.c");
    for bad in ["0/2", "3/2", "2"] {
        let run = cairn(&["gen", arg(&source), "-o", arg(&out), "--shard", bad]);
        assert_eq!(run.status.code(), Some(2), "{bad}");
    }
    assert!(!out.exists());
}
