//! The IR verifier over real programs: every C file of the repository's
//! corpus and examples lowers to valid IR (`front::compile` verifies what it
//! lowers and reports a failure as an internal error), with and without
//! decisions lowered for MC/DC.

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
            // Also with decisions lowered for MC/DC.
            for mcdc in [false, true] {
                let config = front::FrontConfig {
                    mcdc,
                    ..front::FrontConfig::default()
                };
                match front::compile(&file, &config) {
                    Ok(_) => verified += 1,
                    Err(d) => {
                        assert!(!d.message.contains("internal error"), "{d}");
                        eprintln!("note: not lowered, so not verified: {d}");
                    }
                }
            }
        }
    }
    eprintln!("{verified} files of the corpus and examples lowered to valid IR");
    assert!(
        verified > 0,
        "no C file found under tests/corpus or examples"
    );
}
