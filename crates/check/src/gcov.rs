//! Reading `gcov --json-format` (format of gcc 9 and later).

use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::{Component, Path, PathBuf};

#[derive(Debug, Deserialize)]
struct Document {
    #[serde(default)]
    current_working_directory: Option<String>,
    files: Vec<FileEntry>,
}

#[derive(Debug, Deserialize)]
struct FileEntry {
    file: String,
    #[serde(default)]
    functions: Vec<FunctionEntry>,
    #[serde(default)]
    lines: Vec<LineEntry>,
}

#[derive(Debug, Deserialize)]
struct FunctionEntry {
    name: String,
    start_line: u32,
    end_line: u32,
}

#[derive(Debug, Deserialize)]
struct LineEntry {
    line_number: u32,
    #[serde(deserialize_with = "count")]
    count: u64,
    #[serde(default)]
    function_name: Option<String>,
    #[serde(default)]
    branches: Vec<BranchEntry>,
}

#[derive(Debug, Deserialize)]
struct BranchEntry {
    #[serde(deserialize_with = "count")]
    count: u64,
    #[serde(default)]
    throw: bool,
}

/// An execution count. gcov writes a negative one when its counters
/// disagree (an arc counted from inconsistent data, as after a process
/// killed while writing): nothing is known to have run there, so it reads
/// as 0.
fn count<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<u64, D::Error> {
    let count = i128::deserialize(deserializer)?;
    Ok(u64::try_from(count).unwrap_or(0))
}

/// Measured coverage of one source line (entries for the same line merged).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LineCoverage {
    pub count: u64,
    pub branches: usize,
    pub branches_taken: usize,
}

/// Measured coverage of one function.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FunctionCoverage {
    pub lines: BTreeMap<u32, LineCoverage>,
}

impl FunctionCoverage {
    pub fn lines_covered(&self) -> (usize, usize) {
        (
            self.lines.values().filter(|l| l.count > 0).count(),
            self.lines.len(),
        )
    }
    pub fn branches_covered(&self) -> (usize, usize) {
        self.lines
            .values()
            .fold((0, 0), |(c, t), l| (c + l.branches_taken, t + l.branches))
    }
}

/// Coverage by resolved source path, then by function name.
pub type Coverage = BTreeMap<PathBuf, BTreeMap<String, FunctionCoverage>>;

/// Parses gcov's `--stdout` output: one JSON document per data file.
pub fn parse(text: &str, build_dir: &Path) -> Result<Coverage, String> {
    let mut coverage = Coverage::new();
    for doc in serde_json::Deserializer::from_str(text).into_iter::<Document>() {
        let doc = doc.map_err(|e| format!("unreadable gcov JSON: {e}"))?;
        let cwd = doc
            .current_working_directory
            .map(PathBuf::from)
            .unwrap_or_else(|| build_dir.to_path_buf());
        for file in doc.files {
            let path = resolve(&cwd, &file.file).unwrap_or_else(|| PathBuf::from(&file.file));
            let functions = coverage.entry(path).or_default();
            for line in &file.lines {
                // gcc 9+ names the function of every line; older output falls back to ranges.
                let owner = line.function_name.clone().or_else(|| {
                    file.functions
                        .iter()
                        .find(|f| (f.start_line..=f.end_line).contains(&line.line_number))
                        .map(|f| f.name.clone())
                });
                // A line of no function: one of a function a system header
                // declared first (a C library function the source defines
                // itself: gcc files the function under that header), kept
                // under "" for `unattributed_from`.
                let mut owner = owner.unwrap_or_default();
                if owner == testcase::RENAMED_MAIN {
                    // The driver renamed the source's `main` to call it; report it by its own name.
                    owner = "main".to_string();
                }
                let entry = functions
                    .entry(owner)
                    .or_default()
                    .lines
                    .entry(line.line_number)
                    .or_default();
                entry.count = entry.count.max(line.count);
                let real = line.branches.iter().filter(|b| !b.throw);
                entry.branches += real.clone().count();
                entry.branches_taken += real.filter(|b| b.count > 0).count();
            }
        }
    }
    Ok(coverage)
}

/// The lines of no function in `functions` (see `parse`) from `first` up
/// to `end` (excluded): a function gcc filed under a system header that
/// declared it first, whose lines `first..end` the caller knows.
pub fn unattributed_from(
    functions: &BTreeMap<String, FunctionCoverage>,
    first: u32,
    end: Option<u32>,
) -> Option<FunctionCoverage> {
    let lines: BTreeMap<u32, LineCoverage> = functions
        .get("")?
        .lines
        .range(first..end.unwrap_or(u32::MAX))
        .map(|(line, coverage)| (*line, coverage.clone()))
        .collect();
    (!lines.is_empty()).then_some(FunctionCoverage { lines })
}

/// A path as gcov reports it, resolved against `cwd`, if it exists.
pub fn resolve(cwd: &Path, file: &str) -> Option<PathBuf> {
    cwd.join(file).canonicalize().ok()
}

/// The functions gcov measured in `target` (an existing, resolved path).
/// gcov 12 mangles an included `../../x.c` that climbs to `/` into the
/// relative `x.c`, so besides an exact match a path counts when `target` ends
/// with its normal components.
pub fn functions_of<'c>(
    coverage: &'c Coverage,
    target: &Path,
) -> Option<&'c BTreeMap<String, FunctionCoverage>> {
    coverage.get(target).or_else(|| {
        coverage.iter().find_map(|(path, functions)| {
            let tail: PathBuf = path
                .components()
                .filter(|c| matches!(c, Component::Normal(_)))
                .collect();
            (path.is_relative() && !tail.as_os_str().is_empty() && target.ends_with(&tail))
                .then_some(functions)
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_function_filed_under_a_header_is_found_by_its_lines() {
        // proxychains defines `gethostbyname`: gcc 12 files the function
        // under netdb.h, and its lines in the source under no function.
        let doc = r#"{"current_working_directory": "/nonexistent", "files": [
            {"file": "/usr/include/netdb.h",
             "functions": [{"name": "gethostbyname", "start_line": 142, "end_line": 142}],
             "lines": [{"line_number": 142, "count": 1, "function_name": "gethostbyname", "branches": []}]},
            {"file": "t.c", "functions": [{"name": "g", "start_line": 1, "end_line": 3}],
             "lines": [
              {"line_number": 2, "count": 1, "function_name": "g", "branches": []},
              {"line_number": 10, "count": 1, "branches": [{"count": 1, "throw": false}, {"count": 0, "throw": false}]},
              {"line_number": 11, "count": 0, "branches": []},
              {"line_number": 20, "count": 1, "branches": []}
            ]}]}"#;
        let cov = parse(doc, Path::new("/")).unwrap();
        let functions = functions_of(&cov, Path::new("/src/t.c")).unwrap();
        let found = unattributed_from(functions, 9, Some(15)).unwrap();
        assert_eq!(
            found.lines.keys().copied().collect::<Vec<_>>(),
            vec![10, 11]
        );
        assert_eq!(found.branches_covered(), (1, 2));
        assert!(unattributed_from(functions, 21, None).is_none());
    }

    #[test]
    fn merges_lines_and_counts_taken_branches() {
        let doc = r#"{"current_working_directory": "/nonexistent", "files": [{"file": "t.c",
            "functions": [{"name": "f", "start_line": 1, "end_line": 9}],
            "lines": [
              {"line_number": 3, "count": 2, "function_name": "f", "branches": [{"count": 2, "throw": false}, {"count": 0, "throw": false}]},
              {"line_number": 4, "count": 0, "branches": []},
              {"line_number": 3, "count": 1, "function_name": "f", "branches": [{"count": 1, "throw": false}]}
            ]}]}"#;
        let cov = parse(doc, Path::new("/")).unwrap();
        let f = &functions_of(&cov, Path::new("/src/t.c")).unwrap()["f"];
        assert_eq!(
            f.lines[&3],
            LineCoverage {
                count: 2,
                branches: 3,
                branches_taken: 2
            }
        );
        assert_eq!(f.lines_covered(), (1, 2));
        assert_eq!(f.branches_covered(), (2, 3));
    }

    #[test]
    fn negative_counts_read_as_not_run() {
        let doc = r#"{"current_working_directory": "/nonexistent", "files": [{"file": "t.c",
            "functions": [{"name": "f", "start_line": 1, "end_line": 9}],
            "lines": [
              {"line_number": 3, "count": -1, "function_name": "f", "branches": [{"count": -1, "throw": false}, {"count": 4, "throw": false}]}
            ]}]}"#;
        let cov = parse(doc, Path::new("/")).unwrap();
        let f = &functions_of(&cov, Path::new("/src/t.c")).unwrap()["f"];
        assert_eq!(
            f.lines[&3],
            LineCoverage {
                count: 0,
                branches: 2,
                branches_taken: 1
            }
        );
    }
}
