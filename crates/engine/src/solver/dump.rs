//! Writes every query that reaches Z3 as a standalone SMT-LIB 2 file,
//! `query-NNNNNN.smt2` numbered in order, headed by a comment with Z3's
//! answer and the time it took, so that a slow query can be replayed with
//! `z3 FILE`.

use super::query::{Answer, Context, Effort, Query, QuerySolver};
use super::smtlib::Printer;
use std::fs;
use std::io::{ErrorKind, Write as _};
use std::path::{Path, PathBuf};
use std::time::Instant;

pub struct QueryDump {
    dir: PathBuf,
    /// Number of the next file, found on first use after those already in
    /// `dir` (from an earlier function or run).
    next: Option<u64>,
    /// Set after a write failed: dumping stops, with one warning.
    failed: bool,
    printer: Printer,
    inner: Box<dyn QuerySolver>,
}

impl QueryDump {
    pub fn new(dir: &Path, inner: Box<dyn QuerySolver>) -> QueryDump {
        QueryDump {
            dir: dir.to_path_buf(),
            next: None,
            failed: false,
            printer: Printer::default(),
            inner,
        }
    }

    /// Writes `text` to the next free numbered file of the directory.
    fn write(&mut self, text: &str) -> std::io::Result<()> {
        let mut number = match self.next {
            Some(n) => n,
            None => last_number(&self.dir)? + 1,
        };
        loop {
            let path = self.dir.join(file_name(number));
            match fs::OpenOptions::new()
                .write(true)
                .create_new(true)
                .open(&path)
            {
                Ok(mut file) => {
                    file.write_all(text.as_bytes())?;
                    self.next = Some(number + 1);
                    return Ok(());
                }
                // Another solver writing to the same directory took it.
                Err(e) if e.kind() == ErrorKind::AlreadyExists => number += 1,
                Err(e) => return Err(e),
            }
        }
    }
}

fn file_name(number: u64) -> String {
    format!("query-{number:06}.smt2")
}

/// The highest number of a query file in `dir`, 0 when there is none.
fn last_number(dir: &Path) -> std::io::Result<u64> {
    let mut last = 0;
    for entry in fs::read_dir(dir)? {
        let name = entry?.file_name();
        let number = name
            .to_str()
            .and_then(|n| n.strip_prefix("query-"))
            .and_then(|n| n.strip_suffix(".smt2"))
            .and_then(|n| n.parse::<u64>().ok());
        last = last.max(number.unwrap_or(0));
    }
    Ok(last)
}

impl QuerySolver for QueryDump {
    fn solve(&mut self, query: &Query, cx: &mut Context) -> Answer {
        let started = Instant::now();
        let answer = self.inner.solve(query, cx);
        let took = started.elapsed();
        if self.failed {
            return answer;
        }
        let verdict = match answer {
            Answer::Sat(_) => "sat",
            Answer::Unsat => "unsat",
            Answer::Unknown => "unknown",
        };
        let limit = match query.effort {
            Effort::Within(limit) => format!("time limit {} ms", limit.as_millis()),
            Effort::Full | Effort::KnownOnly => "no time limit".to_string(),
        };
        let text = format!(
            "; Z3 answered {verdict} in {:.1} ms ({limit})\n{}",
            took.as_secs_f64() * 1000.0,
            self.printer.script(query, cx.store)
        );
        if let Err(e) = self.write(&text) {
            // The directory was checked before the run; this is rare (a
            // full disk) and must not stop the analysis.
            eprintln!(
                "cairn: no longer dumping solver queries to {}: {e}",
                self.dir.display()
            );
            self.failed = true;
        }
        answer
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solver::testing::{feasibility, number, Bed};
    use crate::solver::z3_backend::Z3Backend;
    use z3::ast::{Bool, BV};

    /// Asks a query with a model wanted and an unsatisfiable one, over
    /// symbols whose names need quoting in SMT-LIB and with overflow
    /// checks; returns the answers.
    fn dump_two_queries(dir: &Path) -> [&'static str; 2] {
        let mut bed = Bed::default();
        let key = BV::new_const("list->next->key", 32);
        let size = BV::new_const("size[0]", 32);
        let product = bed.intern(&Bool::and(&[
            key.bvmul(&size).eq(number(12)),
            key.bvmul_no_overflow(&size, true),
            key.bvmul_no_underflow(&size),
            key.bvmul_no_overflow(&size, false),
        ]));
        let small = bed.intern(&key.bvult(number(3)));
        let zero = bed.intern(&key.eq(number(0)));
        let mut dump = QueryDump::new(dir, Box::new(Z3Backend::new(Default::default())));
        let ask = |bed: &mut Bed, dump: &mut QueryDump, query: &Query| match bed.ask(dump, query) {
            Answer::Sat(_) => "sat",
            Answer::Unsat => "unsat",
            Answer::Unknown => "unknown",
        };
        let satisfiable = [product, small];
        let with_model = Query {
            wants_model: true,
            ..feasibility(&satisfiable)
        };
        let contradiction = [product, zero];
        let readable = Bool::from_bool(true);
        let unsatisfiable = Query {
            transient: Some(&readable),
            ..feasibility(&contradiction)
        };
        [
            ask(&mut bed, &mut dump, &with_model),
            ask(&mut bed, &mut dump, &unsatisfiable),
        ]
    }

    fn read(dir: &Path, number: u64) -> String {
        fs::read_to_string(dir.join(file_name(number))).unwrap()
    }

    #[test]
    fn each_query_reaching_z3_is_one_numbered_file() {
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(dump_two_queries(dir.path()), ["sat", "unsat"]);
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 2);
        let first = read(dir.path(), 1);
        assert!(first.starts_with("; Z3 answered sat in "), "{first}");
        assert!(first.contains("(set-logic QF_BV)"));
        assert!(
            first.contains("(declare-fun |size[0]| () (_ BitVec 32))"),
            "{first}"
        );
        assert!(
            first.contains("(define-fun cairn_bvsmul_noovfl "),
            "{first}"
        );
        assert!(first.ends_with("(check-sat)\n(get-model)\n"), "{first}");
        let second = read(dir.path(), 2);
        assert!(second.starts_with("; Z3 answered unsat in "), "{second}");
        assert!(second.ends_with("(check-sat)\n"), "{second}");
    }

    #[test]
    fn numbering_goes_on_after_the_files_already_there() {
        let dir = tempfile::tempdir().unwrap();
        fs::write(dir.path().join(file_name(7)), "").unwrap();
        dump_two_queries(dir.path());
        assert!(dir.path().join(file_name(8)).exists());
        assert!(dir.path().join(file_name(9)).exists());
    }

    #[test]
    fn z3_replays_a_dumped_query_to_the_same_answer() {
        let dir = tempfile::tempdir().unwrap();
        let answers = dump_two_queries(dir.path());
        for (number, answer) in (1..).zip(answers) {
            let replay = std::process::Command::new("z3")
                .arg(dir.path().join(file_name(number)))
                .output()
                .expect("the z3 binary runs (scripts/setup.sh installs it)");
            let output = String::from_utf8_lossy(&replay.stdout);
            assert_eq!(output.lines().next(), Some(answer), "{output}");
        }
    }
}
