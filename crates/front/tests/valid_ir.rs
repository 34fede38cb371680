//! The IR verifier over real programs: every C file of the repository's
//! corpus and examples that the front end accepts lowers to valid IR. And the
//! rule that keeps the other tests honest: they lower C only through the
//! helpers of `tests/common`, which verify what was lowered.

mod common;

use std::path::{Path, PathBuf};

/// The files under `dir` (searched recursively) whose name ends in `.ext`, sorted.
fn files_with_extension(dir: &Path, ext: &str) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let entries = std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    for path in entries.map(|e| e.expect("directory entry").path()) {
        if path.is_dir() {
            found.extend(files_with_extension(&path, ext));
        } else if path.extension().is_some_and(|x| x == ext) {
            found.push(path);
        }
    }
    found.sort();
    found
}

#[test]
fn corpus_and_examples_lower_to_valid_ir() {
    let repository = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let mut verified = 0;
    for dir in ["tests/corpus", "examples"] {
        for file in files_with_extension(&repository.join(dir), "c") {
            match common::compile_verified(&file, &front::FrontConfig::default()) {
                Ok(_) => verified += 1,
                Err(d) => eprintln!("note: not lowered, so not verified: {d}"),
            }
        }
    }
    eprintln!("{verified} files of the corpus and examples lowered to valid IR");
    assert!(
        verified > 0,
        "no C file found under tests/corpus or examples"
    );
}

/// Whether a line of Rust calls or imports `front::compile` or
/// `front::compile_preprocessed` itself, bypassing the verifying helpers.
fn lowers_without_the_verifier(line: &str) -> bool {
    let code = line.split("//").next().unwrap_or_default();
    let Some((_, after_crate)) = code.split_once("front::") else {
        return false;
    };
    after_crate
        .split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .any(|word| word == "compile" || word == "compile_preprocessed")
}

#[test]
fn tests_lower_c_only_through_the_verifying_helpers() {
    let tests = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests");
    let helpers = tests.join("common/mod.rs");
    let mut bypasses = Vec::new();
    for file in files_with_extension(&tests, "rs") {
        if file == helpers {
            continue;
        }
        let text = std::fs::read_to_string(&file).expect("readable test source");
        for (i, line) in text.lines().enumerate() {
            if lowers_without_the_verifier(line) {
                bypasses.push(format!("{}:{}: {}", file.display(), i + 1, line.trim()));
            }
        }
    }
    assert!(
        bypasses.is_empty(),
        "lower C with common::compile_verified or common::compile_preprocessed_verified:\n{}",
        bypasses.join("\n")
    );
}
