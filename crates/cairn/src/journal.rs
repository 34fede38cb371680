//! The journal of a `gen` run: each function's report is appended to
//! `OUT/.cairn/<stem>.journal` as soon as its exploration ends, so that a
//! run stopped hard (a second Ctrl-C, a kill, a crash, a power cut) loses
//! no function it finished: the next run into the same directory reuses
//! them as it reuses the reports of a finished run's record. The outputs
//! themselves are written once per file, after its last function, and the
//! journal is then removed: writing grows with the work, never with the
//! number of functions times the number of writes.
//!
//! One JSON line per function, after a first line naming the format. A
//! line cut short by the stop is ignored when the journal is read.

use crate::cache::Reusable;
use crate::record;
use crate::UsageError;
use serde::{Deserialize, Serialize};
use std::io::Write;
use std::path::{Path, PathBuf};

/// The journal's first line; a journal of another format is not read.
const FORMAT: &str = "\"cairn-journal/1\"";

/// One finished function: its key, and its report for that key.
#[derive(Serialize, Deserialize)]
pub struct Entry {
    pub key: Reusable,
    pub report: testcase::FunctionReport,
}

/// The journal of one source file of a run.
pub struct Journal {
    path: PathBuf,
}

impl Journal {
    /// Where the journal of the source with stem `stem` goes in `out`.
    fn path(out: &Path, stem: &str) -> PathBuf {
        out.join(record::DIR).join(format!("{stem}.journal"))
    }

    /// Starts the journal of a run afresh with the reports it reuses, which
    /// may come from an earlier journal this one replaces.
    pub fn start(out: &Path, stem: &str, reused: &[Entry]) -> Result<Journal, UsageError> {
        let dir = out.join(record::DIR);
        std::fs::create_dir_all(&dir)
            .map_err(|e| UsageError(format!("cannot create {}: {e}", dir.display())))?;
        let path = Journal::path(out, stem);
        let mut text = format!("{FORMAT}\n");
        for entry in reused {
            text.push_str(&line(&path, entry)?);
        }
        emit::write_atomically(&path, text).map_err(|e| UsageError(format!("cannot write {e}")))?;
        Ok(Journal { path })
    }

    /// Appends one finished function. Opened for each line: a project
    /// has a journal per file, too many to keep open.
    pub fn append(&self, entry: &Entry) -> Result<(), UsageError> {
        let fail =
            |e: std::io::Error| UsageError(format!("cannot write {}: {e}", self.path.display()));
        let text = line(&self.path, entry)?;
        let mut file = std::fs::OpenOptions::new()
            .append(true)
            .open(&self.path)
            .map_err(fail)?;
        file.write_all(text.as_bytes()).map_err(fail)
    }

    /// Removes the journal once the outputs and record hold all it holds.
    pub fn finish(&self) -> Result<(), UsageError> {
        match std::fs::remove_file(&self.path) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(UsageError(format!(
                "cannot remove {}: {e}",
                self.path.display()
            ))),
            _ => Ok(()),
        }
    }

    /// The entries of the journal a stopped run left for the source with
    /// stem `stem` in `out`; none when there is no journal. A journal that
    /// cannot be read costs only the reuse, and says so.
    pub fn left_by_stopped_run(out: &Path, stem: &str) -> Vec<Entry> {
        let path = Journal::path(out, stem);
        let text = match std::fs::read_to_string(&path) {
            Ok(text) => text,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Vec::new(),
            Err(e) => {
                eprintln!("cairn: {}: {e}; its tests are not reused", path.display());
                return Vec::new();
            }
        };
        let mut lines = text.lines();
        if lines.next() != Some(FORMAT) {
            eprintln!(
                "cairn: {}: not a journal this cairn reads; its tests are not reused",
                path.display()
            );
            return Vec::new();
        }
        // Only the last line can be cut short; a bad one ends the reading.
        lines
            .map_while(|line| serde_json::from_str(line).ok())
            .collect()
    }
}

/// `entry` as one line of the journal at `path`.
fn line(path: &Path, entry: &Entry) -> Result<String, UsageError> {
    let mut text =
        serde_json::to_string(entry).map_err(|e| UsageError(format!("{}: {e}", path.display())))?;
    text.push('\n');
    Ok(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(function: &str) -> Entry {
        Entry {
            key: Reusable {
                function: function.to_string(),
                key: format!("key of {function}"),
                lines: Vec::new(),
            },
            report: testcase::FunctionReport {
                func: ir::FuncId(0),
                tests: Vec::new(),
                findings: Vec::new(),
                goals: Vec::new(),
                uncovered: Vec::new(),
                stats: testcase::Stats::default(),
                dropped_tests: Vec::new(),
                untested: None,
            },
        }
    }

    #[test]
    fn a_journal_cut_inside_a_line_gives_the_lines_before() {
        let out = tempfile::tempdir().expect("temp dir");
        let Ok(journal) = Journal::start(out.path(), "list", &[entry("first")]) else {
            panic!("cannot start the journal");
        };
        assert!(journal.append(&entry("second")).is_ok());
        let path = Journal::path(out.path(), "list");
        let mut text = std::fs::read_to_string(&path).expect("read");
        text.push_str("{\"key\":{\"function\":\"thi");
        std::fs::write(&path, text).expect("cut");

        let left = Journal::left_by_stopped_run(out.path(), "list");
        let names: Vec<&str> = left.iter().map(|e| e.key.function.as_str()).collect();
        assert_eq!(names, ["first", "second"]);

        assert!(journal.finish().is_ok());
        assert!(!path.exists());
        assert!(Journal::left_by_stopped_run(out.path(), "list").is_empty());
    }
}
