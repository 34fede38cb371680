//! Writes every query that reaches Z3 as a standalone SMT-LIB 2 file,
//! `query-NNNNNN.smt2` numbered in order, headed by a comment with Z3's
//! answer and the time it took, so that a slow query can be replayed with
//! `z3 FILE`.

use super::query::{Answer, Context, Effort, Query, QuerySolver};
use super::store::ConstraintStore;
use std::collections::{BTreeSet, HashSet};
use std::ffi::CStr;
use std::fs;
use std::io::{ErrorKind, Write as _};
use std::path::{Path, PathBuf};
use std::time::Instant;
use z3::ast::{Ast, Bool, Dynamic};

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

/// Prints queries as SMT-LIB. Z3 writes each formula as a benchmark,
/// without a solver: asserted in a solver of the engine's context, even
/// only to be printed, formulas add terms there, and Z3's later answers
/// depend on the order of its terms (measured: most corpus drivers changed
/// with the dump on).
#[derive(Default)]
struct Printer {
    /// Each constraint's text, printed once (printing takes milliseconds).
    constraints: Vec<Option<Printed>>,
}

/// A formula in SMT-LIB: the declarations of its symbols, the overflow
/// predicates it uses (with their width), and its assertion.
struct Printed {
    declarations: Vec<String>,
    overflow_predicates: BTreeSet<(OverflowPredicate, u32)>,
    assertion: String,
}

impl Printer {
    /// The query as an SMT-LIB 2 script: its constraints and transient
    /// formula asserted plainly (the back end's guards and scopes change
    /// nothing to the answer), then `(check-sat)`.
    fn script(&mut self, query: &Query, store: &ConstraintStore) -> String {
        self.constraints.resize_with(store.count(), || None);
        for id in query.constraints {
            if self.constraints[*id as usize].is_none() {
                self.constraints[*id as usize] = Some(printed(store.constraint(*id)));
            }
        }
        let transient = query.transient.map(printed);
        let formulas: Vec<&Printed> = query
            .constraints
            .iter()
            .filter_map(|id| self.constraints[*id as usize].as_ref())
            .chain(&transient)
            .collect();
        let mut text = String::from("(set-logic QF_BV)\n");
        let predicates: BTreeSet<&(OverflowPredicate, u32)> = formulas
            .iter()
            .flat_map(|f| &f.overflow_predicates)
            .collect();
        if !predicates.is_empty() {
            text.push_str(
                "; Z3 4.8 writes multiplication overflow predicates it cannot read: defined here.\n",
            );
        }
        for (predicate, bits) in predicates {
            text.push_str(&predicate.definition(*bits));
        }
        let declarations: BTreeSet<&String> =
            formulas.iter().flat_map(|f| &f.declarations).collect();
        for declaration in declarations {
            text.push_str(declaration);
            text.push('\n');
        }
        for formula in formulas {
            text.push_str(&formula.assertion);
        }
        text.push_str("(check-sat)\n");
        if query.wants_model {
            text.push_str("(get-model)\n");
        }
        text
    }
}

fn printed(formula: &Bool) -> Printed {
    let overflow_predicates = overflow_predicates(formula);
    let mut printed = Printed {
        declarations: Vec::new(),
        overflow_predicates,
        assertion: String::new(),
    };
    for line in benchmark(formula).lines() {
        if line.starts_with("(declare-fun ") {
            printed.declarations.push(line.to_string());
        } else if !(line.starts_with(';')
            || line.starts_with("(set-info ")
            || line == "(check-sat)")
        {
            let mut line = line.to_string();
            for (predicate, _) in &printed.overflow_predicates {
                line = line.replace(
                    &format!("({} ", predicate.z3_name()),
                    &format!("({} ", predicate.defined_name()),
                );
            }
            printed.assertion.push_str(&line);
            printed.assertion.push('\n');
        }
    }
    printed
}

/// `formula` as Z3 writes a benchmark: a comment, `(set-info :status
/// unknown)`, declarations, the assertion with shared terms named once, and
/// `(check-sat)`. (The z3 crate has it only for a solver's assertions.)
fn benchmark(formula: &Bool) -> String {
    let (empty, status) = (c"", c"unknown");
    let no_assumptions: [z3_sys::Z3_ast; 0] = [];
    // SAFETY: the context and term are live (borrowed from `formula`), the
    // strings are NUL-terminated, and the text Z3 returns, valid until its
    // next call on the context, is copied at once.
    unsafe {
        let text = z3_sys::Z3_benchmark_to_smtlib_string(
            formula.get_ctx().get_z3_context(),
            empty.as_ptr(),
            empty.as_ptr(),
            status.as_ptr(),
            empty.as_ptr(),
            0,
            no_assumptions.as_ptr(),
            formula.get_z3_ast(),
        );
        if text.is_null() {
            return String::new();
        }
        CStr::from_ptr(text).to_string_lossy().into_owned()
    }
}

/// The multiplication overflow predicates Z3 4.8 prints but cannot parse,
/// written under names of our own, defined at the top of the file.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
enum OverflowPredicate {
    SignedNoOverflow,
    SignedNoUnderflow,
    UnsignedNoOverflow,
}

const OVERFLOW_PREDICATES: [OverflowPredicate; 3] = [
    OverflowPredicate::SignedNoOverflow,
    OverflowPredicate::SignedNoUnderflow,
    OverflowPredicate::UnsignedNoOverflow,
];

impl OverflowPredicate {
    /// Its name in Z3 (its `DeclKind` number differs between libz3 4.8 and
    /// the z3 crate's, so it is known by name).
    fn z3_name(self) -> &'static str {
        match self {
            OverflowPredicate::SignedNoOverflow => "bvsmul_noovfl",
            OverflowPredicate::SignedNoUnderflow => "bvsmul_noudfl",
            OverflowPredicate::UnsignedNoOverflow => "bvumul_noovfl",
        }
    }

    fn defined_name(self) -> String {
        format!("cairn_{}", self.z3_name())
    }

    /// The product of the operands, computed at twice their width, fits in
    /// their width: at most the signed maximum, at least the signed
    /// minimum, or no high bits. Z3 tells the widths apart (overloading).
    fn definition(self, n: u32) -> String {
        let product = |extend: &str| format!("(bvmul ((_ {extend} {n}) a) ((_ {extend} {n}) b))");
        let signed_max = format!("((_ sign_extend {n}) (bvlshr (bvnot (_ bv0 {n})) (_ bv1 {n})))");
        let fits = match self {
            OverflowPredicate::SignedNoOverflow => {
                format!("(bvsle {} {signed_max})", product("sign_extend"))
            }
            OverflowPredicate::SignedNoUnderflow => {
                format!("(bvsge {} (bvnot {signed_max}))", product("sign_extend"))
            }
            OverflowPredicate::UnsignedNoOverflow => format!(
                "(= ((_ extract {} {n}) {}) (_ bv0 {n}))",
                2 * n - 1,
                product("zero_extend")
            ),
        };
        format!(
            "(define-fun {} ((a (_ BitVec {n})) (b (_ BitVec {n}))) Bool\n  {fits})\n",
            self.defined_name()
        )
    }
}

/// The overflow predicates `formula` uses, with the width of their operands.
fn overflow_predicates(formula: &Bool) -> BTreeSet<(OverflowPredicate, u32)> {
    let mut found = BTreeSet::new();
    let mut seen = HashSet::new();
    let mut stack = vec![Dynamic::from_ast(formula)];
    while let Some(term) = stack.pop() {
        if !seen.insert(term.clone()) {
            continue;
        }
        let children = term.children();
        let name = term.safe_decl().map(|d| d.name()).unwrap_or_default();
        let predicate = OVERFLOW_PREDICATES
            .into_iter()
            .find(|p| p.z3_name() == name);
        let bits = children
            .first()
            .and_then(|a| a.as_bv())
            .map(|a| a.get_size());
        if let (Some(predicate), Some(bits)) = (predicate, bits) {
            found.insert((predicate, bits));
        }
        stack.extend(children);
    }
    found
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
        let mut dump = QueryDump::new(dir, Box::new(Z3Backend::new()));
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
    fn overflow_predicates_are_defined_with_their_meaning_in_z3() {
        // Proving multipliers equal is hard beyond a few bits.
        for bits in [4, 8] {
            let a = BV::new_const("a", bits);
            let b = BV::new_const("b", bits);
            for (predicate, in_z3) in OVERFLOW_PREDICATES.into_iter().zip([
                a.bvmul_no_overflow(&b, true),
                a.bvmul_no_underflow(&b),
                a.bvmul_no_overflow(&b, false),
            ]) {
                let solver = z3::Solver::new();
                let p = Bool::new_const("p");
                solver.assert(p.eq(&in_z3));
                solver.from_string(format!(
                    "{}(declare-fun a () (_ BitVec {bits}))\n\
                     (declare-fun b () (_ BitVec {bits}))\n\
                     (declare-fun p () Bool)\n\
                     (assert (not (= p ({} a b))))",
                    predicate.definition(bits),
                    predicate.defined_name(),
                ));
                assert_eq!(solver.check(), z3::SatResult::Unsat, "{in_z3}");
            }
        }
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
