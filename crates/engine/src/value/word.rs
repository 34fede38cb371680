//! Integers and conditions that stay plain numbers until a symbol flows in.
//!
//! Building, simplifying and freeing a Z3 term costs tens of microseconds;
//! most statements of real code (tables, counters, CRCs) compute on values
//! no input decides. A [`Word`] is either a known number, computed natively
//! exactly as Z3 computes on bit-vectors (wrap-around at the width, Z3's
//! results of a division by zero), or a term; an operation makes a term only
//! when an operand is one. A [`Cond`] is the same for truth values, so a
//! branch on a known condition asks no solver. The operations are named as
//! Z3's, so the executor reads the same whichever a value is.

use std::borrow::Borrow;
use z3::ast::{Ast, Bool, Dynamic, BV};

/// Widest known number: a wider value (an overflow check one bit wider
/// than a 128-bit operand) is a term.
const KNOWN_WIDTH: u32 = 128;

/// An integer (or the bits of a float) of `width` bits.
#[derive(Clone, Debug)]
pub enum Word {
    /// A number of `width` bits (1..=128), `bits` zero above them.
    Known { bits: u128, width: u32 },
    /// A value that depends on a symbol (or is wider than 128 bits).
    Term(BV),
}

/// A truth value.
#[derive(Clone, Debug)]
pub enum Cond {
    Known(bool),
    Term(Bool),
}

fn mask(width: u32) -> u128 {
    if width >= KNOWN_WIDTH {
        u128::MAX
    } else {
        (1u128 << width) - 1
    }
}

/// The two's complement value of the low `width` bits of `bits`.
fn signed(bits: u128, width: u32) -> i128 {
    if width < KNOWN_WIDTH && (bits >> (width - 1)) & 1 == 1 {
        (bits | !mask(width)) as i128
    } else {
        bits as i128
    }
}

/// Whether `value` is a two's complement number of `width` bits.
fn fits_signed(value: i128, width: u32) -> bool {
    width >= KNOWN_WIDTH || {
        let half = 1i128 << (width - 1);
        (-half..half).contains(&value)
    }
}

/// A bit-vector term of `width` bits holding the low bits of `v`.
pub fn bv_u(v: u128, width: u32) -> BV {
    if width <= 64 {
        BV::from_u64((v & mask(width)) as u64, width)
    } else {
        let high = BV::from_u64((v >> 64) as u64, width - 64);
        high.concat(BV::from_u64(v as u64, 64))
    }
}

impl From<BV> for Word {
    /// A numeral term becomes a known number; anything else stays a term.
    fn from(term: BV) -> Word {
        let width = term.get_size();
        match term.as_u64() {
            Some(n) if width <= 64 => Word::Known {
                bits: u128::from(n),
                width,
            },
            _ => Word::Term(term),
        }
    }
}

impl PartialEq for Word {
    /// The same number, or the same term: what lets a read of a stored
    /// value's bytes give the value back whole.
    fn eq(&self, other: &Word) -> bool {
        match (self, other) {
            (Word::Known { bits, width }, Word::Known { bits: b, width: w }) => {
                bits == b && width == w
            }
            (Word::Term(a), Word::Term(b)) => a == b,
            _ => false,
        }
    }
}

impl Word {
    /// The low `width` bits of `v`.
    pub fn known(v: u128, width: u32) -> Word {
        if width <= KNOWN_WIDTH {
            Word::Known {
                bits: v & mask(width),
                width,
            }
        } else {
            Word::Term(bv_u(v, width))
        }
    }

    pub fn get_size(&self) -> u32 {
        match self {
            Word::Known { width, .. } => *width,
            Word::Term(t) => t.get_size(),
        }
    }

    /// The word as a Z3 term (made here for a known number).
    pub fn term(&self) -> BV {
        match self {
            Word::Known { bits, width } => bv_u(*bits, *width),
            Word::Term(t) => t.clone(),
        }
    }

    /// `native` on two known numbers of one width, else `symbolic` on their terms.
    fn binary(
        &self,
        other: &Word,
        native: impl FnOnce(u128, u128, u32) -> u128,
        symbolic: impl FnOnce(&BV, &BV) -> BV,
    ) -> Word {
        match (self, other) {
            (Word::Known { bits: a, width }, Word::Known { bits: b, width: w }) if width == w => {
                Word::Known {
                    bits: native(*a, *b, *width) & mask(*width),
                    width: *width,
                }
            }
            _ => Word::Term(symbolic(&self.term(), &other.term())),
        }
    }

    /// `native` on two known numbers of one width, else `symbolic` on their terms.
    fn predicate(
        &self,
        other: &Word,
        native: impl FnOnce(u128, u128, u32) -> bool,
        symbolic: impl FnOnce(&BV, &BV) -> Bool,
    ) -> Cond {
        match (self, other) {
            (Word::Known { bits: a, width }, Word::Known { bits: b, width: w }) if width == w => {
                Cond::Known(native(*a, *b, *width))
            }
            _ => Cond::Term(symbolic(&self.term(), &other.term())),
        }
    }

    /// `native` on a known number (its bits and width), giving bits and a
    /// width, else `symbolic` on the term; a result wider than a known
    /// number can be is a term.
    fn unary(
        &self,
        native: impl FnOnce(u128, u32) -> (u128, u32),
        symbolic: impl FnOnce(&BV) -> BV,
    ) -> Word {
        if let Word::Known { bits, width } = self {
            let (bits, width) = native(*bits, *width);
            if width <= KNOWN_WIDTH {
                return Word::Known {
                    bits: bits & mask(width),
                    width,
                };
            }
        }
        Word::Term(symbolic(&self.term()))
    }

    pub fn bvadd(&self, other: impl Borrow<Word>) -> Word {
        self.binary(
            other.borrow(),
            |a, b, _| a.wrapping_add(b),
            |a, b| a.bvadd(b),
        )
    }

    pub fn bvsub(&self, other: impl Borrow<Word>) -> Word {
        self.binary(
            other.borrow(),
            |a, b, _| a.wrapping_sub(b),
            |a, b| a.bvsub(b),
        )
    }

    pub fn bvmul(&self, other: impl Borrow<Word>) -> Word {
        self.binary(
            other.borrow(),
            |a, b, _| a.wrapping_mul(b),
            |a, b| a.bvmul(b),
        )
    }

    /// Unsigned division; all ones for a zero divisor, as in Z3.
    pub fn bvudiv(&self, other: impl Borrow<Word>) -> Word {
        self.binary(
            other.borrow(),
            |a, b, w| a.checked_div(b).unwrap_or(mask(w)),
            |a, b| a.bvudiv(b),
        )
    }

    /// Unsigned remainder; the dividend for a zero divisor, as in Z3.
    pub fn bvurem(&self, other: impl Borrow<Word>) -> Word {
        self.binary(
            other.borrow(),
            |a, b, _| a.checked_rem(b).unwrap_or(a),
            |a, b| a.bvurem(b),
        )
    }

    /// Signed division rounding toward zero; for a zero divisor -1 or 1
    /// (a negative dividend), as in Z3.
    pub fn bvsdiv(&self, other: impl Borrow<Word>) -> Word {
        self.binary(
            other.borrow(),
            |a, b, w| match (signed(a, w), signed(b, w)) {
                (x, 0) if x < 0 => 1,
                (_, 0) => mask(w),
                (x, y) => x.wrapping_div(y) as u128,
            },
            |a, b| a.bvsdiv(b),
        )
    }

    /// Signed remainder, of the dividend's sign; the dividend for a zero
    /// divisor, as in Z3.
    pub fn bvsrem(&self, other: impl Borrow<Word>) -> Word {
        self.binary(
            other.borrow(),
            |a, b, w| match signed(b, w) {
                0 => a,
                y => signed(a, w).wrapping_rem(y) as u128,
            },
            |a, b| a.bvsrem(b),
        )
    }

    pub fn bvshl(&self, other: impl Borrow<Word>) -> Word {
        self.binary(
            other.borrow(),
            |a, b, w| if b >= u128::from(w) { 0 } else { a << b },
            |a, b| a.bvshl(b),
        )
    }

    pub fn bvlshr(&self, other: impl Borrow<Word>) -> Word {
        self.binary(
            other.borrow(),
            |a, b, w| if b >= u128::from(w) { 0 } else { a >> b },
            |a, b| a.bvlshr(b),
        )
    }

    pub fn bvashr(&self, other: impl Borrow<Word>) -> Word {
        self.binary(
            other.borrow(),
            |a, b, w| {
                let shift = b.min(u128::from(w - 1)) as u32;
                (signed(a, w) >> shift) as u128
            },
            |a, b| a.bvashr(b),
        )
    }

    pub fn bvand(&self, other: impl Borrow<Word>) -> Word {
        self.binary(other.borrow(), |a, b, _| a & b, |a, b| a.bvand(b))
    }

    pub fn bvor(&self, other: impl Borrow<Word>) -> Word {
        self.binary(other.borrow(), |a, b, _| a | b, |a, b| a.bvor(b))
    }

    pub fn bvxor(&self, other: impl Borrow<Word>) -> Word {
        self.binary(other.borrow(), |a, b, _| a ^ b, |a, b| a.bvxor(b))
    }

    pub fn bvnot(&self) -> Word {
        self.unary(|a, w| (!a, w), |a| a.bvnot())
    }

    pub fn bvneg(&self) -> Word {
        self.unary(|a, w| (a.wrapping_neg(), w), |a| a.bvneg())
    }

    /// Bits `high` down to `low`.
    pub fn extract(&self, high: u32, low: u32) -> Word {
        self.unary(|a, _| (a >> low, high - low + 1), |a| a.extract(high, low))
    }

    /// `self` above `low`.
    pub fn concat(&self, low: impl Borrow<Word>) -> Word {
        let low = low.borrow();
        match (self, low) {
            (
                Word::Known { bits: h, width: hw },
                Word::Known {
                    bits: l,
                    width: lw @ ..KNOWN_WIDTH,
                },
            ) if hw + lw <= KNOWN_WIDTH => Word::Known {
                bits: (h << lw) | l,
                width: hw + lw,
            },
            _ => Word::Term(self.term().concat(low.term())),
        }
    }

    pub fn zero_ext(&self, extra: u32) -> Word {
        self.unary(|a, w| (a, w + extra), |a| a.zero_ext(extra))
    }

    pub fn sign_ext(&self, extra: u32) -> Word {
        self.unary(
            |a, w| (signed(a, w) as u128, w + extra),
            |a| a.sign_ext(extra),
        )
    }

    pub fn eq(&self, other: impl Borrow<Word>) -> Cond {
        self.predicate(other.borrow(), |a, b, _| a == b, |a, b| a.eq(b))
    }

    pub fn bvult(&self, other: impl Borrow<Word>) -> Cond {
        self.predicate(other.borrow(), |a, b, _| a < b, |a, b| a.bvult(b))
    }

    pub fn bvule(&self, other: impl Borrow<Word>) -> Cond {
        self.predicate(other.borrow(), |a, b, _| a <= b, |a, b| a.bvule(b))
    }

    pub fn bvugt(&self, other: impl Borrow<Word>) -> Cond {
        self.predicate(other.borrow(), |a, b, _| a > b, |a, b| a.bvugt(b))
    }

    pub fn bvuge(&self, other: impl Borrow<Word>) -> Cond {
        self.predicate(other.borrow(), |a, b, _| a >= b, |a, b| a.bvuge(b))
    }

    pub fn bvslt(&self, other: impl Borrow<Word>) -> Cond {
        self.predicate(
            other.borrow(),
            |a, b, w| signed(a, w) < signed(b, w),
            |a, b| a.bvslt(b),
        )
    }

    pub fn bvsle(&self, other: impl Borrow<Word>) -> Cond {
        self.predicate(
            other.borrow(),
            |a, b, w| signed(a, w) <= signed(b, w),
            |a, b| a.bvsle(b),
        )
    }

    pub fn bvsgt(&self, other: impl Borrow<Word>) -> Cond {
        self.predicate(
            other.borrow(),
            |a, b, w| signed(a, w) > signed(b, w),
            |a, b| a.bvsgt(b),
        )
    }

    pub fn bvsge(&self, other: impl Borrow<Word>) -> Cond {
        self.predicate(
            other.borrow(),
            |a, b, w| signed(a, w) >= signed(b, w),
            |a, b| a.bvsge(b),
        )
    }

    /// Whether the signed sum fits the width.
    pub fn signed_add_fits(&self, other: &Word) -> Cond {
        self.predicate(
            other,
            |a, b, w| {
                signed(a, w)
                    .checked_add(signed(b, w))
                    .is_some_and(|sum| fits_signed(sum, w))
            },
            |a, b| Bool::and(&[a.bvadd_no_overflow(b, true), a.bvadd_no_underflow(b)]),
        )
    }

    /// Whether the signed difference fits the width.
    pub fn signed_sub_fits(&self, other: &Word) -> Cond {
        self.predicate(
            other,
            |a, b, w| {
                signed(a, w)
                    .checked_sub(signed(b, w))
                    .is_some_and(|difference| fits_signed(difference, w))
            },
            |a, b| Bool::and(&[a.bvsub_no_overflow(b), a.bvsub_no_underflow(b, true)]),
        )
    }

    /// Whether the unsigned product fits the width.
    pub fn unsigned_mul_fits(&self, other: &Word) -> Cond {
        self.predicate(
            other,
            |a, b, w| a.checked_mul(b).is_some_and(|product| product <= mask(w)),
            |a, b| a.bvmul_no_overflow(b, false),
        )
    }

    /// Whether the signed product fits the width. Z3 4.8.12's own
    /// predicates (`bvsmul_noovfl`) are wrong when one operand is negative
    /// (they call -1 * 3 an overflow in 3 bits, in models and in
    /// `simplify` alike), so the product of the magnitudes is bounded
    /// instead: at most 2^(n-1) - 1 for a positive result, 2^(n-1) for a
    /// negative one.
    pub fn signed_mul_fits(&self, other: &Word) -> Cond {
        self.predicate(
            other,
            |a, b, w| {
                signed(a, w)
                    .checked_mul(signed(b, w))
                    .is_some_and(|product| fits_signed(product, w))
            },
            |x, y| {
                let bits = x.get_size();
                let zero = bv_u(0, bits);
                let (x_negative, y_negative) = (x.bvslt(&zero), y.bvslt(&zero));
                let x_magnitude = x_negative.ite(&x.bvneg(), x);
                let y_magnitude = y_negative.ite(&y.bvneg(), y);
                // 2^(n-1) as an unsigned n-bit number: the widest (129 bits) exceeds u128.
                let half = bv_u(1, bits).bvshl(bv_u(u128::from(bits - 1), bits));
                let most = x_negative
                    .xor(&y_negative)
                    .ite(&half, &half.bvsub(bv_u(1, bits)));
                Bool::and(&[
                    x_magnitude.bvmul_no_overflow(&y_magnitude, false),
                    x_magnitude.bvmul(&y_magnitude).bvule(&most),
                ])
            },
        )
    }
}

impl From<bool> for Cond {
    fn from(known: bool) -> Cond {
        Cond::Known(known)
    }
}

impl From<Bool> for Cond {
    /// A constant term becomes a known truth value.
    fn from(term: Bool) -> Cond {
        match term.as_bool() {
            Some(known) => Cond::Known(known),
            None => Cond::Term(term),
        }
    }
}

impl Cond {
    /// The condition as a Z3 term.
    pub fn term(&self) -> Bool {
        match self {
            Cond::Known(known) => Bool::from_bool(*known),
            Cond::Term(t) => t.clone(),
        }
    }

    pub fn not(&self) -> Cond {
        match self {
            Cond::Known(known) => Cond::Known(!known),
            Cond::Term(t) => Cond::Term(t.not()),
        }
    }

    /// All of `conds`: known when one is known false or all are known.
    pub fn and(conds: &[Cond]) -> Cond {
        Cond::combine(conds, false, Bool::and)
    }

    /// Any of `conds`: known when one is known true or all are known.
    pub fn or(conds: &[Cond]) -> Cond {
        Cond::combine(conds, true, Bool::or)
    }

    /// `conds` joined by `join`, for which `deciding` decides the result.
    fn combine(conds: &[Cond], deciding: bool, join: fn(&[Bool]) -> Bool) -> Cond {
        let mut terms = Vec::new();
        for cond in conds {
            match cond {
                Cond::Known(known) if *known == deciding => return Cond::Known(deciding),
                Cond::Known(_) => {}
                Cond::Term(t) => terms.push(t.clone()),
            }
        }
        match terms.len() {
            0 => Cond::Known(!deciding),
            1 => Cond::Term(terms.remove(0)),
            _ => Cond::Term(join(&terms)),
        }
    }

    /// `then` where the condition holds, else `otherwise`.
    pub fn ite_cond(&self, then: &Cond, otherwise: &Cond) -> Cond {
        match self {
            Cond::Known(true) => then.clone(),
            Cond::Known(false) => otherwise.clone(),
            Cond::Term(t) => Cond::Term(t.ite(&then.term(), &otherwise.term())),
        }
    }

    /// `then` where the condition holds, else `otherwise`.
    pub fn ite(&self, then: &Word, otherwise: &Word) -> Word {
        match self {
            Cond::Known(true) => then.clone(),
            Cond::Known(false) => otherwise.clone(),
            Cond::Term(t) => Word::Term(t.ite(&then.term(), &otherwise.term())),
        }
    }
}

/// Values whose symbols a path may fix to numbers (`State::with_fixed`).
pub trait Substitute: Clone {
    /// The value with each symbol of `pairs` replaced by its number, simplified.
    fn substituted(&self, pairs: &[(&BV, &BV)]) -> Self;
    /// The value's term, when it is not a number or truth value.
    fn symbolic(&self) -> Option<Dynamic>;
}

impl Substitute for Word {
    fn symbolic(&self) -> Option<Dynamic> {
        match self {
            Word::Known { .. } => None,
            Word::Term(t) => Some(Dynamic::from_ast(t)),
        }
    }

    fn substituted(&self, pairs: &[(&BV, &BV)]) -> Word {
        match self {
            Word::Known { .. } => self.clone(),
            Word::Term(t) => Word::from(t.substitute(pairs).simplify()),
        }
    }
}

impl Substitute for Cond {
    fn symbolic(&self) -> Option<Dynamic> {
        match self {
            Cond::Known(_) => None,
            Cond::Term(t) => Some(Dynamic::from_ast(t)),
        }
    }

    fn substituted(&self, pairs: &[(&BV, &BV)]) -> Cond {
        match self {
            Cond::Known(_) => self.clone(),
            Cond::Term(t) => Cond::from(t.substitute(pairs).simplify()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::value::concrete;
    use z3::{SatResult, Solver};

    /// Z3's value of `term`, which must simplify to a numeral.
    fn z3_value(term: &BV) -> u128 {
        let s = term.simplify();
        let width = s.get_size();
        let low = s.extract(width.min(64) - 1, 0).simplify().as_u64();
        let high = if width > 64 {
            s.extract(width - 1, 64).simplify().as_u64()
        } else {
            Some(0)
        };
        match (high, low) {
            (Some(h), Some(l)) => (u128::from(h) << 64) | u128::from(l),
            _ => panic!("not a numeral: {s}"),
        }
    }

    fn is_true(term: &Bool) -> bool {
        if let Some(known) = term.simplify().as_bool() {
            return known;
        }
        let solver = Solver::new();
        solver.assert(term.not());
        solver.check() == SatResult::Unsat
    }

    /// Every operation on known numbers equals Z3's on their terms, for
    /// edge values of several widths.
    #[test]
    fn known_numbers_compute_as_z3_does() {
        type Op = fn(&Word, &Word) -> Word;
        let ops: [(&str, Op); 13] = [
            ("add", |a, b| a.bvadd(b)),
            ("sub", |a, b| a.bvsub(b)),
            ("mul", |a, b| a.bvmul(b)),
            ("udiv", |a, b| a.bvudiv(b)),
            ("urem", |a, b| a.bvurem(b)),
            ("sdiv", |a, b| a.bvsdiv(b)),
            ("srem", |a, b| a.bvsrem(b)),
            ("shl", |a, b| a.bvshl(b)),
            ("lshr", |a, b| a.bvlshr(b)),
            ("ashr", |a, b| a.bvashr(b)),
            ("and", |a, b| a.bvand(b)),
            ("or", |a, b| a.bvor(b)),
            ("concat", |a, b| a.concat(b)),
        ];
        type Test = fn(&Word, &Word) -> Cond;
        type Unary = fn(&Word) -> Word;
        let tests: [(&str, Test); 9] = [
            ("eq", |a, b| a.eq(b)),
            ("ult", |a, b| a.bvult(b)),
            ("sle", |a, b| a.bvsle(b)),
            ("sgt", |a, b| a.bvsgt(b)),
            ("uge", |a, b| a.bvuge(b)),
            ("add fits", |a, b| a.signed_add_fits(b)),
            ("sub fits", |a, b| a.signed_sub_fits(b)),
            ("smul fits", |a, b| a.signed_mul_fits(b)),
            ("umul fits", |a, b| a.unsigned_mul_fits(b)),
        ];
        for width in [1u32, 3, 8, 32, 64, 65, 128] {
            let m = mask(width);
            let half = 1u128 << (width - 1);
            let values = [0, 1, 2, 3, 7, half - 1, half, half + 1, m - 1, m];
            for &a in &values {
                for &b in &values {
                    let (x, y) = (Word::known(a, width), Word::known(b, width));
                    let (tx, ty) = (Word::Term(x.term()), Word::Term(y.term()));
                    for (name, op) in ops {
                        let native = op(&x, &y);
                        if native.get_size() > KNOWN_WIDTH {
                            continue;
                        }
                        let expected = z3_value(&op(&tx, &ty).term());
                        assert_eq!(concrete(&native), Some(expected), "{name} {a} {b} w{width}");
                    }
                    for (name, test) in tests {
                        let native = match test(&x, &y) {
                            Cond::Known(known) => Some(known),
                            Cond::Term(_) => None,
                        };
                        let symbolic = test(&tx, &ty).term();
                        let expected = if is_true(&symbolic) {
                            true
                        } else {
                            assert!(is_true(&symbolic.not()), "{name} undecided");
                            false
                        };
                        assert_eq!(native, Some(expected), "{name} {a} {b} w{width}");
                    }
                }
                let x = Word::known(a, width);
                let tx = Word::Term(x.term());
                let unary: [(&str, Unary); 5] = [
                    ("not", |v| v.bvnot()),
                    ("neg", |v| v.bvneg()),
                    ("sext", |v| v.sign_ext(7)),
                    ("zext", |v| v.zero_ext(9)),
                    ("extract", |v| v.extract(v.get_size() - 1, v.get_size() / 2)),
                ];
                for (name, op) in unary {
                    let native = op(&x);
                    if native.get_size() <= KNOWN_WIDTH {
                        let expected = z3_value(&op(&tx).term());
                        assert_eq!(concrete(&native), Some(expected), "{name} {a} w{width}");
                    }
                }
            }
        }
    }

    #[test]
    fn a_symbol_makes_a_term_and_numerals_become_known() {
        let x = Word::Term(BV::new_const("x", 32));
        assert!(matches!(x.bvadd(Word::known(1, 32)), Word::Term(_)));
        assert_eq!(Word::from(BV::from_u64(5, 32)), Word::known(5, 32));
        assert!(matches!(x.eq(&x), Cond::Term(_)));
        assert!(matches!(
            Cond::and(&[Cond::Known(true), x.eq(Word::known(0, 32))]),
            Cond::Term(_)
        ));
        assert!(matches!(
            Cond::or(&[x.eq(Word::known(0, 32)), Cond::Known(true)]),
            Cond::Known(true)
        ));
    }
}
