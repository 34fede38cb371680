//! End-to-end tests of the real `cairn` binary: exit codes, diagnostics, the
//! inspection commands, and `gen --check` catching a driver that disagrees
//! with the program.

mod common;

use common::{arg, cairn, text};
use std::path::{Path, PathBuf};
use std::process::Output;

/// `cairn gen SRC -o OUT` with `extra` flags.
fn gen(src: &Path, out_dir: &Path, extra: &[&str]) -> Output {
    let mut args = vec!["gen", arg(src), "-o", arg(out_dir)];
    args.extend_from_slice(extra);
    cairn(&args)
}

fn write(dir: &Path, name: &str, body: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, body).expect("write source");
    path
}

const CLAMP: &str = "int clamp(int x, int lo, int hi)\n{\n    if (x < lo)\n        return lo;\n    if (x > hi && hi >= lo)\n        return hi;\n    return x;\n}\n";

#[test]
fn unreadable_file_and_unknown_function_are_usage_errors() {
    let dir = tempfile::tempdir().expect("temp dir");
    let out_dir = dir.path().join("out");
    let out = gen(Path::new("/no/such/dir/file.c"), &out_dir, &[]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        text(&out.stderr),
        "cairn: /no/such/dir/file.c: No such file or directory\n"
    );
    assert!(
        !out_dir.exists(),
        "an early error leaves no output directory"
    );

    let dir = tempfile::tempdir().expect("temp dir");
    let src = write(dir.path(), "clamp.c", CLAMP);
    let out = cairn(&["goals", arg(&src), "-f", "missing"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("no function named `missing`"));
    let out = gen(&src, &out_dir, &["-f", "missing"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        !out_dir.exists(),
        "an early error leaves no output directory"
    );
}

#[test]
fn a_syntax_error_is_placed_where_gcc_places_it() {
    let dir = tempfile::tempdir().expect("temp dir");
    // The `;` missing at the end of line 7, before a comment.
    let src = write(
        dir.path(),
        "semi.c",
        "int f(int a)\n{\n    int b = a;\n    if (b > 0)\n        b = 2;\n    /* note */\n    b = b + 1 // one more\n    return b;\n}\n",
    );
    let out_dir = dir.path().join("out");
    let out = gen(&src, &out_dir, &[]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = text(&out.stderr);
    assert!(
        stderr.starts_with(&format!("cairn: {}:7:14: error: syntax error", arg(&src))),
        "{stderr}"
    );
    assert!(
        !out_dir.exists(),
        "an early error leaves no output directory"
    );
}

#[test]
fn a_file_without_functions_says_so_and_exits_5() {
    let dir = tempfile::tempdir().expect("temp dir");
    let out_dir = dir.path().join("out");
    let empty = write(dir.path(), "empty.c", "");
    let out = gen(&empty, &out_dir, &[]);
    assert_eq!(out.status.code(), Some(5));
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("empty.c: the file defines no function"),
        "{stderr}"
    );
    assert!(!out_dir.exists(), "nothing to test, nothing written");

    let only_data = write(dir.path(), "data.c", "int table[4] = {1, 2, 3, 4};\n");
    let out = gen(&only_data, &out_dir, &[]);
    assert_eq!(out.status.code(), Some(5), "{}", text(&out.stderr));

    // Beside a file with functions, it is only a note.
    let src = write(dir.path(), "clamp.c", CLAMP);
    let out = cairn(&["gen", arg(&empty), arg(&src), "-o", arg(&out_dir)]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert!(text(&out.stderr).contains("empty.c: the file defines no function"));
    assert!(out_dir.join("clamp_test.c").exists());
    assert!(!out_dir.join("empty_test.c").exists());

    for command in [vec!["--help"], vec!["gen", "--help"]] {
        let help = text(&cairn(&command).stdout);
        assert!(
            help.contains("5    gen: no file defines a function to test"),
            "{help}"
        );
    }
}

#[test]
fn an_output_directory_that_cannot_be_written_is_refused_before_the_analysis() {
    let dir = tempfile::tempdir().expect("temp dir");
    let src = write(dir.path(), "clamp.c", CLAMP);
    // Under a regular file no directory can be made, whoever runs the test.
    let out = gen(&src, &src.join("out"), &["--max-time", "600"]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = text(&out.stderr);
    assert!(
        stderr.contains("cannot write in the output directory")
            && stderr.contains("Not a directory"),
        "{stderr}"
    );
    assert!(text(&out.stdout).is_empty(), "no analysis ran");

    let read_only = dir.path().join("read-only");
    std::fs::create_dir(&read_only).expect("make directory");
    let mut permissions = std::fs::metadata(&read_only).expect("stat").permissions();
    std::os::unix::fs::PermissionsExt::set_mode(&mut permissions, 0o555);
    std::fs::set_permissions(&read_only, permissions).expect("chmod");
    // The superuser writes anywhere: then there is nothing to refuse.
    if std::fs::write(read_only.join("probe"), "").is_ok() {
        return;
    }
    let out = gen(&src, &read_only, &["--max-time", "600"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("Permission denied"),
        "{}",
        text(&out.stderr)
    );
}

#[test]
fn outputs_get_the_mode_the_umask_gives() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().expect("temp dir");
    let src = write(dir.path(), "clamp.c", CLAMP);
    let out_dir = dir.path().join("out");
    let command = format!(
        "umask 027 && exec '{}' gen '{}' -o '{}'",
        env!("CARGO_BIN_EXE_cairn"),
        arg(&src),
        arg(&out_dir)
    );
    let out = std::process::Command::new("sh")
        .args(["-c", &command])
        .output()
        .expect("run cairn under sh");
    assert!(out.status.success(), "{}", text(&out.stderr));
    for name in ["clamp_test.c", "clamp.tests.json"] {
        let mode = std::fs::metadata(out_dir.join(name))
            .expect("written")
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o640, "{name}");
    }
}

#[test]
fn goals_lists_each_direction_with_position_and_text() {
    let dir = tempfile::tempdir().expect("temp dir");
    let src = write(dir.path(), "clamp.c", CLAMP);
    let out = cairn(&["goals", arg(&src)]);
    assert!(out.status.success());
    let stdout = text(&out.stdout);
    assert!(stdout.contains("clamp (6 goals)"), "{stdout}");
    assert!(stdout.contains("clamp.c:3:9  x < lo: true"), "{stdout}");
    assert!(stdout.contains("clamp.c:5:9  x > hi: false"), "{stdout}");
    assert!(stdout.contains("clamp.c:5:19  hi >= lo: true"), "{stdout}");
}

#[test]
fn ir_and_cfg_print_the_function() {
    let dir = tempfile::tempdir().expect("temp dir");
    let src = write(dir.path(), "clamp.c", CLAMP);
    let ir = cairn(&["ir", arg(&src), "-f", "clamp"]);
    assert!(ir.status.success());
    assert!(text(&ir.stdout).contains("fn @f0 clamp(_0 x: i32, _1 lo: i32, _2 hi: i32) -> i32 {"));
    let cfg = cairn(&["cfg", arg(&src), "-f", "clamp"]);
    assert!(cfg.status.success());
    let dot = text(&cfg.stdout);
    assert!(dot.starts_with("digraph \"clamp\""), "{dot}");
    assert_eq!(dot.matches("[label=\"T\"]").count(), 3, "{dot}");
}

#[test]
fn unsupported_construct_excludes_only_its_function() {
    let dir = tempfile::tempdir().expect("temp dir");
    let body =
        format!("{CLAMP}int spin(int n)\n{{\n    __asm__ volatile(\"nop\");\n    return n;\n}}\n");
    let src = write(dir.path(), "mixed.c", &body);
    let out_dir = dir.path().join("out");
    let out = gen(&src, &out_dir, &[]);
    let stderr = text(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert!(stderr.contains("mixed.c:11:5: unsupported:"), "{stderr}");
    let driver = std::fs::read_to_string(out_dir.join("mixed_test.c")).expect("driver written");
    assert!(driver.contains("clamp("));
    assert!(!driver.contains("spin("));
}

#[test]
fn a_function_without_a_test_says_why() {
    let dir = tempfile::tempdir().expect("temp dir");
    // No branch, so no goal to carry the reason: the function's own.
    let body = format!(
        "{CLAMP}#include <stdio.h>\nint ask(void)\n{{\n    int n = 0;\n    \
         scanf(\"%d\", &n);\n    return n;\n}}\n"
    );
    let src = write(dir.path(), "ask.c", &body);
    let out_dir = dir.path().join("out");
    let out = gen(&src, &out_dir, &[]);
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{stdout}{}", text(&out.stderr));
    assert!(
        stdout.contains("  ask: no test: unsupported: no model of `scanf`"),
        "{stdout}"
    );
    let json: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(out_dir.join("ask.tests.json")).expect("tests.json"),
    )
    .expect("JSON");
    let functions = json["functions"].as_array().expect("functions");
    let ask = functions.iter().find(|f| f["name"] == "ask").expect("ask");
    assert!(
        ask["untested"]
            .as_str()
            .is_some_and(|why| why.contains("`scanf`")),
        "{ask}"
    );
    // A function with tests has no such entry.
    let clamp = functions
        .iter()
        .find(|f| f["name"] == "clamp")
        .expect("clamp");
    assert!(clamp.get("untested").is_none(), "{clamp}");
}

#[test]
fn check_measures_coverage_and_fails_on_a_wrong_expectation() {
    let dir = tempfile::tempdir().expect("temp dir");
    let src = write(dir.path(), "clamp.c", CLAMP);
    let out_dir = dir.path().join("out");
    let out = gen(&src, &out_dir, &["--check"]);
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{stdout}{}", text(&out.stderr));
    assert!(stdout.contains("0 failed"), "{stdout}");
    assert!(stdout.contains("6/6"), "{stdout}");

    // Change the source behind the generated driver: `check` must now see the
    // driver's predictions fail and exit 1.
    write(
        dir.path(),
        "clamp.c",
        &CLAMP.replace("return lo;", "return lo + 1;"),
    );
    let out = cairn(&["check", arg(&out_dir)]);
    assert_eq!(out.status.code(), Some(1), "{}", text(&out.stdout));
    assert!(
        text(&out.stdout).contains("FAIL") || text(&out.stdout).contains("1 failed"),
        "{}",
        text(&out.stdout)
    );
}

#[test]
fn same_input_gives_the_same_tests() {
    let dir = tempfile::tempdir().expect("temp dir");
    let src = write(dir.path(), "clamp.c", CLAMP);
    let mut drivers = Vec::new();
    for run in ["a", "b"] {
        let out_dir = dir.path().join(run);
        let out = gen(&src, &out_dir, &[]);
        assert!(out.status.success());
        drivers
            .push(std::fs::read_to_string(out_dir.join("clamp_test.c")).expect("driver written"));
    }
    assert_eq!(drivers[0], drivers[1]);
}

#[test]
fn unconstrained_goals_reach_the_same_measured_coverage() {
    let dir = tempfile::tempdir().expect("temp dir");
    let src = write(dir.path(), "clamp.c", CLAMP);
    let out_dir = dir.path().join("out");
    let out = gen(&src, &out_dir, &["--goals", "unconstrained", "--check"]);
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{stdout}{}", text(&out.stderr));
    assert!(
        text(&out.stderr).contains("targeted 4 unconstrained goals of 6 (2 saved)"),
        "{}",
        text(&out.stderr)
    );
    // Predicted and measured columns both show every branch.
    assert!(stdout.contains("6/6        6/6"), "{stdout}");
}

/// `--search random` and `mixed` write drivers that pass with gcov's
/// measurement agreeing, and the same seed writes the same driver.
#[test]
fn random_and_mixed_searches_write_checked_drivers_reproducibly() {
    let dir = tempfile::tempdir().expect("temp dir");
    let src = write(dir.path(), "clamp.c", CLAMP);
    let driver = |search: &str, seed: &str, name: &str| {
        let out_dir = dir.path().join(name);
        let out = gen(
            &src,
            &out_dir,
            &["--search", search, "--seed", seed, "--check"],
        );
        assert!(out.status.success(), "{}", text(&out.stderr));
        std::fs::read_to_string(out_dir.join("clamp_test.c")).expect("driver")
    };
    let first = driver("random", "4", "random-a");
    assert_eq!(first, driver("random", "4", "random-b"));
    driver("mixed", "4", "mixed");
}

#[test]
fn dump_queries_writes_replayable_files_and_refuses_an_unwritable_directory() {
    let dir = tempfile::tempdir().expect("temp dir");
    let src = write(dir.path(), "clamp.c", CLAMP);
    let dump = dir.path().join("queries/clamp");
    let out = gen(
        &src,
        &dir.path().join("out"),
        &["--dump-queries", arg(&dump)],
    );
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let first = std::fs::read_to_string(dump.join("query-000001.smt2")).expect("first query");
    assert!(first.starts_with("; Z3 answered "), "{first}");
    assert!(first.contains("(check-sat)"), "{first}");

    // Under a regular file no directory can be made, whoever runs the test.
    let blocked = dir.path().join("clamp.c/queries");
    for command in [
        vec!["gen", arg(&src)],
        vec!["reach", arg(&src), "-f", "clamp", "--line", "4"],
        vec!["path", arg(&src), "-f", "clamp", "--path", "3,4"],
    ] {
        let mut args = command.clone();
        args.extend(["--dump-queries", arg(&blocked)]);
        let out = cairn(&args);
        assert_eq!(
            out.status.code(),
            Some(2),
            "{command:?}: {}",
            text(&out.stderr)
        );
        assert!(
            text(&out.stderr).contains("--dump-queries: cannot write files in"),
            "{}",
            text(&out.stderr)
        );
    }
}

const COUNTED_LIST: &str = r#"#include <stddef.h>
struct node { struct node *next; int value; };
struct list { struct node *head; unsigned len; };
DECLARATION
int list_ok(const struct list *l) {
    unsigned n = 0;
    if (l == NULL) return 0;
    for (const struct node *p = l->head; p != NULL; p = p->next)
        if (++n > l->len) return 0;
    return n == l->len;
}
int second_value(const struct list *l) {
    if (l->len < 2) return -1;
    return l->head->next->value;
}
"#;

#[test]
fn an_invariant_in_a_comment_or_flag_keeps_false_findings_out() {
    let dir = tempfile::tempdir().expect("temp dir");
    let free = write(
        dir.path(),
        "free.c",
        &COUNTED_LIST.replace("DECLARATION", ""),
    );
    let out = gen(&free, &dir.path().join("free"), &["--findings", "all"]);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let stdout = text(&out.stdout);
    assert!(
        stdout.contains("null-dereference in second_value")
            && stdout.contains("[input not vouched for: struct list, struct node]"),
        "{stdout}"
    );
    let out = gen(&free, &dir.path().join("free"), &[]);
    assert!(text(&out.stdout).contains("more finding(s) on inputs nothing vouches for"));

    let flagged = gen(
        &free,
        &dir.path().join("flag"),
        &["--invariant", "struct list=list_ok", "--check"],
    );
    let stdout = text(&flagged.stdout);
    assert!(
        flagged.status.success(),
        "{stdout}{}",
        text(&flagged.stderr)
    );
    assert!(!stdout.contains("null-dereference"), "{stdout}");

    let commented = write(
        dir.path(),
        "commented.c",
        &COUNTED_LIST.replace("DECLARATION", "/* cairn: invariant struct list=list_ok */"),
    );
    let out = gen(&commented, &dir.path().join("comment"), &[]);
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    assert!(
        !stdout.contains("null-dereference") && !stdout.contains("more finding"),
        "{stdout}"
    );
}

#[test]
fn a_wrong_invariant_is_a_usage_error_that_points_at_it() {
    let dir = tempfile::tempdir().expect("temp dir");
    let bad = write(
        dir.path(),
        "bad.c",
        &COUNTED_LIST.replace("DECLARATION", "/* cairn: invariant struct list */"),
    );
    let out = gen(&bad, &dir.path().join("o"), &[]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        text(&out.stderr).contains("bad.c:4:4: an invariant is TYPE=FUNCTION"),
        "{}",
        text(&out.stderr)
    );

    let free = write(
        dir.path(),
        "free.c",
        &COUNTED_LIST.replace("DECLARATION", ""),
    );
    for (flag, expected) in [
        ("struct list=missing", "which the file does not define"),
        (
            "struct node=list_ok",
            "must be a function defined in the file that takes one pointer",
        ),
        ("struct nowhere=list_ok", "names a type no file defines"),
    ] {
        let out = gen(&free, &dir.path().join("o"), &["--invariant", flag]);
        assert_eq!(out.status.code(), Some(2), "{flag}");
        assert!(
            text(&out.stderr).contains(expected),
            "{flag}: {}",
            text(&out.stderr)
        );
    }
}
