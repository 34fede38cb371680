//! A rerun of `gen` into the same output directory explores again only the
//! functions whose code (or the code they run) or options changed.

mod common;

use common::{arg, cairn, outputs, text};
use std::path::Path;

const SOURCE: &str = "\
int sign(int x)
{
    if (x < 0)
        return -1;
    return x > 0;
}

int clamp(int x, int lo, int hi)
{
    if (x < lo)
        return lo;
    if (x > hi)
        return hi;
    return x;
}

int ratio(int a, int b)
{
    if (a > 100)
        return a / b;
    return 0;
}
";

/// Each function's report in the run record of `out`, by function name.
fn recorded_reports(out: &Path, stem: &str) -> Vec<(String, serde_json::Value)> {
    let path = out.join(".cairn").join(format!("{stem}.run.json"));
    let record: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&path).expect("run record")).expect("JSON");
    let names = record["functions"].as_array().expect("functions").clone();
    record["reports"]
        .as_array()
        .expect("reports")
        .iter()
        .map(|report| {
            let func = report["func"].as_u64().expect("func id") as usize;
            let name = names[func].as_str().expect("name").to_string();
            (name, report.clone())
        })
        .collect()
}

fn gen(source: &Path, out: &Path, extra: &[&str]) -> String {
    let mut args = vec!["gen", arg(source), "-o", arg(out), "-j", "1"];
    args.extend(extra);
    let run = cairn(&args);
    assert!(run.status.success(), "{}", text(&run.stderr));
    text(&run.stderr)
}

#[test]
fn a_rerun_explores_only_the_function_that_changed() {
    let dir = tempfile::tempdir().expect("temp dir");
    let source = dir.path().join("calc.c");
    let out = dir.path().join("out");
    std::fs::write(&source, SOURCE).expect("write source");
    let first = gen(&source, &out, &[]);
    assert!(!first.contains("unchanged"), "{first}");
    let before = recorded_reports(&out, "calc");

    // sign changes, and every line below it moves down by one.
    let edited = SOURCE.replace(
        "    return x > 0;",
        "    if (x == 7)\n        return 7;\n    return x > 0;",
    );
    std::fs::write(&source, edited).expect("write source");
    let second = gen(&source, &out, &[]);
    assert!(
        second.contains("2 of 3 functions unchanged since the last run"),
        "{second}"
    );
    let after = recorded_reports(&out, "calc");
    for ((name, then), (same_name, now)) in before.iter().zip(&after) {
        assert_eq!(name, same_name);
        // A reused report keeps even its timings; a new search has its
        // own. (Its tests' boundaries move with the code, as findings do.)
        let kept = then["stats"] == now["stats"];
        assert_eq!(kept, name != "sign", "{name}");
    }
    // The division by zero of ratio is now two lines further down.
    let findings = &after[2].1["findings"];
    assert_eq!(findings[0]["span"]["line"], 22, "{findings}");

    // Whatever was reused, the outputs are those a fresh run writes.
    let fresh = dir.path().join("fresh");
    gen(&source, &fresh, &[]);
    let (reused_files, fresh_files) = (outputs(&out), outputs(&fresh));
    for (name, bytes) in &fresh_files {
        if name.ends_with(".c") || name.ends_with(".h") {
            assert!(
                reused_files[name] == *bytes,
                "{name} differs from a fresh run"
            );
        }
    }
}

#[test]
fn fresh_or_other_options_explore_everything_again() {
    let dir = tempfile::tempdir().expect("temp dir");
    let source = dir.path().join("calc.c");
    let out = dir.path().join("out");
    std::fs::write(&source, SOURCE).expect("write source");
    gen(&source, &out, &[]);
    let with_fresh = gen(&source, &out, &["--fresh"]);
    assert!(!with_fresh.contains("unchanged"), "{with_fresh}");
    let other_options = gen(&source, &out, &["--max-array", "4"]);
    assert!(!other_options.contains("unchanged"), "{other_options}");
    let same_again = gen(&source, &out, &["--max-array", "4"]);
    assert!(
        same_again.contains("3 of 3 functions unchanged"),
        "{same_again}"
    );
}
