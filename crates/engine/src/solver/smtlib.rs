//! Queries as standalone SMT-LIB 2 scripts, for the query dump.

use super::query::Query;
use super::store::ConstraintStore;
use crate::stable_hash::StableHashSet;
use std::collections::BTreeSet;
use std::ffi::CStr;
use z3::ast::{Ast, Bool, Dynamic};

/// Prints queries as SMT-LIB. Z3 writes each formula as a benchmark,
/// without a solver: asserted in a solver of the engine's context, even
/// only to be printed, formulas add terms there, and Z3's later answers
/// depend on the order of its terms (measured: the tests of 9 of the 20
/// corpus files changed with the dump on).
#[derive(Default)]
pub struct Printer {
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
    pub fn script(&mut self, query: &Query, store: &ConstraintStore) -> String {
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
        let floating = query.constraints.iter().any(|id| store.is_floating(*id));
        let logic = if floating { "QF_FPBV" } else { "QF_BV" };
        let mut text = format!("(set-logic {logic})\n");
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
    let mut seen = StableHashSet::default();
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

#[cfg(test)]
mod tests {
    use super::*;
    use z3::ast::BV;

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
}
