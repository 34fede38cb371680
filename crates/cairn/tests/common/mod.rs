//! Helpers shared by the end-to-end tests of the `cairn` binary.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

pub fn cairn(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_cairn"))
        .args(args)
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

/// A path as a command-line argument (the test directories are UTF-8).
pub fn arg(path: &Path) -> &str {
    path.to_str().expect("UTF-8 path")
}
