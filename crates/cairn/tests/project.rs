//! `gen -p BUILD_DIR`: every C file of a project's compile_commands.json,
//! each with its flags and an output directory of its own; a file that
//! cannot be read costs only itself. Its shards merge into the whole run.

mod common;

use common::{arg, cairn, outputs, text};
use std::path::{Path, PathBuf};

/// `tests/project` of the repository.
fn project() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/project")
        .canonicalize()
        .expect("tests/project")
}

/// A build directory holding the project's compile_commands.json, in both
/// spellings of an entry (`arguments` and `command`).
fn build_dir(at: &Path) -> PathBuf {
    let root = project();
    let entries = serde_json::json!([
        {"directory": root, "file": "src/geometry/rect.c",
         "arguments": ["cc", "-Iinclude", "-DMAX_SIDE=100", "-c", "src/geometry/rect.c"]},
        {"directory": root, "file": "src/geometry/util.c",
         "command": "cc -O2 -c src/geometry/util.c"},
        {"directory": root, "file": "src/text/util.c",
         "command": "cc -std=c99 -c src/text/util.c -o util.o"},
        {"directory": root, "file": "src/broken/bad.c", "command": "cc -c src/broken/bad.c"},
    ]);
    let build = at.join("build");
    std::fs::create_dir_all(&build).expect("build dir");
    std::fs::write(
        build.join("compile_commands.json"),
        serde_json::to_string_pretty(&entries).expect("JSON"),
    )
    .expect("write compile_commands.json");
    build
}

/// `gen -p BUILD -o OUT -f NAME...`.
fn gen_functions(build: &Path, out: &Path, names: &[&str]) -> std::process::Output {
    let mut args = vec!["gen", "-p", arg(build), "-o", arg(out)];
    for name in names {
        args.extend(["-f", name]);
    }
    cairn(&args)
}

#[test]
fn a_project_is_tested_file_by_file() {
    let dir = tempfile::tempdir().expect("temp dir");
    let build = build_dir(dir.path());
    let out = dir.path().join("out");
    let run = cairn(&["gen", "-p", arg(&build), "-o", arg(&out), "-j", "1"]);
    let stderr = text(&run.stderr);
    assert!(run.status.success(), "{stderr}");
    // The broken file is named, and only it is lost.
    assert!(stderr.contains("bad.c:3:"), "{stderr}");
    assert!(
        stderr.contains("1 file could not be read") && stderr.contains("project: 3 files"),
        "{stderr}"
    );
    for driver in [
        "geometry/rect/rect_test.c",
        "geometry/util/util_test.c",
        "text/util/util_test.c",
    ] {
        assert!(out.join(driver).is_file(), "no {driver}");
    }
    assert!(!out.join("broken").exists());
    // The drivers build with the files' flags (-Iinclude, -DMAX_SIDE) and
    // gcov measures what cairn claims, in every subdirectory.
    let check = cairn(&["check", arg(&out)]);
    let report = text(&check.stdout);
    assert!(check.status.success(), "{report}");
    assert_eq!(report.matches(" passed, 0 failed").count(), 3, "{report}");

    // Two shards of the project, merged, are the whole run.
    let mut merge = vec!["merge".to_string()];
    for k in 1..=2 {
        let shard_out = dir.path().join(format!("shard{k}"));
        let shard = format!("{k}/2");
        let run = cairn(&[
            "gen",
            "-p",
            arg(&build),
            "-o",
            arg(&shard_out),
            "--shard",
            &shard,
        ]);
        assert!(run.status.success(), "{}", text(&run.stderr));
        merge.push(arg(&shard_out).to_string());
    }
    let merged = dir.path().join("merged");
    merge.extend(["-o".to_string(), arg(&merged).to_string()]);
    let merge: Vec<&str> = merge.iter().map(String::as_str).collect();
    let run = cairn(&merge);
    assert!(run.status.success(), "{}", text(&run.stderr));
    let (whole, joined) = (outputs(&out), outputs(&merged));
    // `check` left its builds in the whole run's directory.
    let whole: Vec<_> = whole
        .into_iter()
        .filter(|(name, _)| !name.contains(".cairn-build"))
        .collect();
    assert_eq!(whole, joined.into_iter().collect::<Vec<_>>());
}

#[test]
fn functions_named_with_f_are_found_in_any_file_of_a_project() {
    let dir = tempfile::tempdir().expect("temp dir");
    let build = build_dir(dir.path());
    let out = dir.path().join("out");
    let run = gen_functions(&build, &out, &["clamp", "is_vowel"]);
    let stderr = text(&run.stderr);
    assert!(run.status.success(), "{stderr}");
    assert!(stderr.contains("project: 2 files"), "{stderr}");
    let summary = text(&run.stdout);
    assert!(
        summary.contains("clamp") && summary.contains("is_vowel"),
        "{summary}"
    );
    assert!(!summary.contains("count_digits") && !out.join("geometry/rect").exists());
}

#[test]
fn a_build_dir_without_c_files_is_a_usage_error() {
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::write(dir.path().join("compile_commands.json"), "[]").expect("write");
    let out = dir.path().join("out");
    let run = cairn(&["gen", "-p", arg(dir.path()), "-o", arg(&out)]);
    assert_eq!(run.status.code(), Some(2));
    assert!(text(&run.stderr).contains("lists no C file"));
    assert!(!out.exists());
}

/// A function named with `-f` is taken where it is defined, not where a
/// header only declares it; a file in Latin-1 is read as any other, and a
/// missing include directory costs nothing.
#[test]
fn named_functions_are_taken_where_they_are_defined() {
    let dir = tempfile::tempdir().expect("temp dir");
    let root = dir.path().join("src");
    std::fs::create_dir_all(&root).expect("src");
    std::fs::write(root.join("area.h"), "int area(int w, int h);\n").expect("header");
    std::fs::write(
        root.join("area.c"),
        "#include \"area.h\"\nint area(int w, int h)\n{\n    if (w < 0 || h < 0)\n        return 0;\n    return w * h;\n}\n",
    )
    .expect("area.c");
    // \xe9 is an e with an acute accent in Latin-1.
    let mut twice = b"#include \"area.h\"\n/* Caf\xe9 */\nint twice_area(int w)\n{\n    return w > 100 ? -1 : 2 * area(w, w);\n}\n".to_vec();
    twice.extend_from_slice(b"int unrelated(void)\n{\n    return 1;\n}\n");
    std::fs::write(root.join("twice.c"), twice).expect("twice.c");
    let build = dir.path().join("build");
    std::fs::create_dir_all(&build).expect("build");
    let entries = serde_json::json!([
        // gcc ignores an include directory that does not exist; so does cairn.
        {"directory": root, "file": "area.c", "command": "cc -I/nonexistent/include -c area.c"},
        {"directory": root, "file": "twice.c", "command": "cc -c twice.c"},
    ]);
    std::fs::write(
        build.join("compile_commands.json"),
        serde_json::to_string(&entries).expect("JSON"),
    )
    .expect("write compile_commands.json");
    let out = dir.path().join("out");
    let run = gen_functions(&build, &out, &["area", "twice_area"]);
    let (stdout, stderr) = (text(&run.stdout), text(&run.stderr));
    assert!(run.status.success(), "{stdout}{stderr}");
    assert!(!stderr.contains("has no body"), "{stderr}");
    assert!(
        stdout.contains("area ") && stdout.contains("twice_area"),
        "{stdout}"
    );
    assert!(!stdout.contains("unrelated"), "{stdout}");
}

/// With `-f`, a file whose own lines do not name a function asked for is
/// not parsed (a broken one says nothing), while a name a macro pastes
/// together is found.
#[test]
fn files_that_do_not_name_the_functions_asked_for_are_not_parsed() {
    let dir = tempfile::tempdir().expect("temp dir");
    let root = dir.path().join("src");
    std::fs::create_dir_all(&root).expect("src");
    let files = [
        (
            "box.c",
            "struct box { int width; };\n#define GETTER(field) \\\n    int get_##field(const struct box *b) { return b->field > 0 ? b->field : 0; }\nGETTER(width)\n",
        ),
        ("broken.c", "int half(int v)\n{\n    return v / 2 +;\n}\n"),
    ];
    let mut entries = Vec::new();
    for (name, text) in files {
        std::fs::write(root.join(name), text).expect("source");
        entries.push(serde_json::json!({"directory": root, "file": name, "command": format!("cc -c {name}")}));
    }
    let build = dir.path().join("build");
    std::fs::create_dir_all(&build).expect("build");
    std::fs::write(
        build.join("compile_commands.json"),
        serde_json::to_string(&entries).expect("JSON"),
    )
    .expect("write compile_commands.json");
    let run = gen_functions(&build, &dir.path().join("out"), &["get_width"]);
    let (stdout, stderr) = (text(&run.stdout), text(&run.stderr));
    assert!(run.status.success(), "{stdout}{stderr}");
    assert!(stdout.contains("get_width"), "{stdout}");
    assert!(!stderr.contains("broken.c"), "{stderr}");
}
