//! `float` and `double` as SSE computes them on x86-64. Values stay IEEE
//! 754 bit-vectors (32 or 64 bits) in memory and expressions; each
//! operation converts to Z3's floating-point sort, applies the IEEE
//! operation rounding to nearest, ties to even, and converts back.
//!
//! NaN results follow SSE: an operation on a NaN gives that NaN made quiet
//! (the first operand's when both are NaN), an invalid one (`0/0`, `inf -
//! inf`, `sqrt(-1)`) the "indefinite" NaN, sign set and only the quiet bit.
//!
//! On known operands each operation computes natively (`native`), to the
//! same bits, and makes no term.

use ir::{BinOp, FloatKind, IntType};
use z3::ast::RoundingMode;
use z3::ast::{Ast, Bool, Float, BV};
use z3::Sort;

use crate::value::{bv_u, computed_bits, ieee_value as value, Cond, Word};

mod native;

fn sort(kind: FloatKind) -> Sort {
    crate::value::float_sort(kind)
}

pub fn width(kind: FloatKind) -> u32 {
    let (exponent_bits, fraction_bits) = ir::float::layout(kind);
    1 + exponent_bits + fraction_bits
}

fn nearest_even() -> RoundingMode {
    RoundingMode::round_nearest_ties_to_even()
}

/// The quiet bit of a NaN: the top bit of the fraction.
fn quiet_bit(kind: FloatKind) -> u128 {
    1u128 << (ir::float::layout(kind).1 - 1)
}

fn sign_bit(kind: FloatKind) -> u128 {
    1u128 << (width(kind) - 1)
}

/// SSE's default ("indefinite") NaN.
fn indefinite_nan(kind: FloatKind) -> u128 {
    let (exponent_bits, fraction_bits) = ir::float::layout(kind);
    let exponent = ((1u128 << exponent_bits) - 1) << fraction_bits;
    sign_bit(kind) | exponent | quiet_bit(kind)
}

/// The bits of `x`, a result computed from no NaN (a NaN is the indefinite one).
fn bits_of(x: &Float, kind: FloatKind) -> BV {
    x.is_nan()
        .ite(&bv_u(indefinite_nan(kind), width(kind)), &x.to_ieee_bv())
}

/// The bits of a known value of `kind`. Unlike `value::concrete`, a term
/// is not simplified: only known operands take the native path.
fn known(a: &Word) -> Option<u128> {
    match a {
        Word::Known { bits, .. } => Some(*bits),
        Word::Term(_) => None,
    }
}

/// A result of `kind` computed natively.
fn known_result(bits: u128, kind: FloatKind) -> Word {
    Word::known(bits, width(kind))
}

/// `bits`, whose floating value `ieee` gives when it is a term (see
/// [`computed_bits`]).
fn remembered(bits: Word, ieee: impl FnOnce() -> Float) -> Word {
    match bits {
        Word::Term(term) => computed_bits(term, &ieee()),
        known @ Word::Known { .. } => known,
    }
}

/// `result` unless an operand is NaN, in which case the first NaN operand made quiet.
fn propagate_nan(operands: &[&BV], kind: FloatKind, result: BV) -> BV {
    operands.iter().rev().fold(result, |rest, operand| {
        let quieted = operand.bvor(bv_u(quiet_bit(kind), width(kind)));
        value(operand, kind).is_nan().ite(&quieted, &rest)
    })
}

/// `a op b` for `+ - * /`.
pub fn arithmetic(op: BinOp, a: &Word, b: &Word, kind: FloatKind) -> Option<Word> {
    if let (Some(a), Some(b)) = (known(a), known(b)) {
        return native::arithmetic(op, a, b, kind).map(|bits| known_result(bits, kind));
    }
    let (a, b) = (&a.term(), &b.term());
    let (x, y, rounding) = (value(a, kind), value(b, kind), nearest_even());
    let result = match op {
        BinOp::Add => x.add_with_rounding_mode(&y, &rounding),
        BinOp::Sub => x.sub_with_rounding_mode(&y, &rounding),
        BinOp::Mul => x.mul_with_rounding_mode(&y, &rounding),
        BinOp::Div => x.div_with_rounding_mode(&y, &rounding),
        _ => return None,
    };
    // A NaN operand makes the result NaN: the bits encode `result` in every case.
    let bits = propagate_nan(&[a, b], kind, bits_of(&result, kind));
    Some(computed_bits(bits, &result))
}

/// A comparison with IEEE semantics: NaN is unordered (only `!=` holds)
/// and `-0 == +0`.
pub fn compare(op: BinOp, a: &Word, b: &Word, kind: FloatKind) -> Option<Cond> {
    if let (Some(a), Some(b)) = (known(a), known(b)) {
        return native::compare(op, a, b, kind).map(Cond::Known);
    }
    let (a, b) = (&a.term(), &b.term());
    let (x, y) = (value(a, kind), value(b, kind));
    Some(Cond::from(match op {
        BinOp::Eq => x.eq_fpa(&y),
        BinOp::Ne => x.eq_fpa(&y).not(),
        BinOp::Lt => x.lt(&y),
        BinOp::Le => x.le(&y),
        BinOp::Gt => x.gt(&y),
        BinOp::Ge => x.ge(&y),
        _ => return None,
    }))
}

/// `-a` flips the sign bit, NaN included (`xorps`).
pub fn negate(a: &Word, kind: FloatKind) -> Word {
    let bits = a.bvxor(Word::known(sign_bit(kind), width(kind)));
    remembered(bits, || value(&a.term(), kind).unary_neg())
}

/// `fabs(a)` clears the sign bit, NaN included (`andps`).
pub fn absolute(a: &Word, kind: FloatKind) -> Word {
    let bits = a.bvand(Word::known(!sign_bit(kind), width(kind)));
    remembered(bits, || value(&a.term(), kind).unary_abs())
}

/// `copysign(a, b)`: `a` with the sign bit of `b`, NaN included (`andps`, `orps`).
pub fn copy_sign(a: &Word, b: &Word, kind: FloatKind) -> Word {
    let sign = Word::known(sign_bit(kind), width(kind));
    let magnitude = a.bvand(Word::known(!sign_bit(kind), width(kind)));
    magnitude.bvor(b.bvand(sign))
}

/// gcc's `__builtin_signbit` as an `int`: 1 for a negative double, the bit
/// in place (`0x80000000`) for a negative float.
pub fn sign_of(a: &Word, kind: FloatKind) -> Word {
    match kind {
        FloatKind::F32 => a.bvand(Word::known(sign_bit(kind), 32)),
        _ => a.extract(63, 63).zero_ext(31),
    }
}

/// An integer (`signed` or not) converted to `kind`, rounded to nearest.
pub fn from_integer(a: &Word, signed: bool, kind: FloatKind) -> Word {
    if let Word::Known { bits, width } = a {
        return known_result(native::from_integer(*bits, *width, signed, kind), kind);
    }
    let a = &a.term();
    let context = a.get_ctx();
    let (rounding, sort) = (nearest_even(), sort(kind));
    let make = if signed {
        z3_sys::Z3_mk_fpa_to_fp_signed
    } else {
        z3_sys::Z3_mk_fpa_to_fp_unsigned
    };
    // SAFETY: the context, terms and sort are live and well sorted.
    let converted = unsafe {
        Float::wrap(
            context,
            make(
                context.get_z3_context(),
                rounding.get_z3_ast(),
                a.get_z3_ast(),
                sort.get_z3_sort(),
            )
            .expect("Z3 builds a conversion of well-sorted terms"),
        )
    };
    computed_bits(converted.to_ieee_bv(), &converted)
}

/// A value converted to an integer type by truncation, and when that is
/// defined: the truncated value lies in the type's range (never for NaN or
/// an infinity). `_Bool` is `a != 0`, always defined. An undefined
/// conversion of a known value stays Z3's, whose result the finding
/// reports.
pub fn to_integer(a: &Word, kind: FloatKind, to: IntType) -> (Word, Cond) {
    if let Some(converted) = known(a).and_then(|a| native::to_integer(a, kind, to)) {
        return (
            Word::known(converted, u32::from(to.bits)),
            Cond::Known(true),
        );
    }
    let a = &a.term();
    let x = value(a, kind);
    let bits = u32::from(to.bits);
    if to.is_bool {
        let zero = x.is_zero();
        return (
            Word::from(zero.ite(&bv_u(0, bits), &bv_u(1, bits))),
            Cond::Known(true),
        );
    }
    let truncated = x.round_to_integral_with_rounding_mode(&RoundingMode::round_towards_zero());
    // Both bounds are powers of two (or zero), exact in every format.
    let (low, high) = if to.signed {
        (
            -(2f64.powi(i32::from(to.bits) - 1)),
            2f64.powi(i32::from(to.bits) - 1),
        )
    } else {
        (0.0, 2f64.powi(i32::from(to.bits)))
    };
    let defined = Bool::and(&[truncated.ge(low), truncated.lt(high)]);
    let towards_zero = RoundingMode::round_towards_zero();
    let converted = if to.signed {
        x.to_sbv_with_rounding_mode(&towards_zero, bits)
    } else {
        x.to_ubv_with_rounding_mode(&towards_zero, bits)
    };
    (Word::from(converted), Cond::from(defined))
}

/// A value converted between `float` and `double`: widening is exact,
/// narrowing rounds to nearest; a NaN keeps its sign and top fraction bits
/// and becomes quiet (`cvtss2sd`, `cvtsd2ss`).
pub fn convert(a: &Word, from: FloatKind, to: FloatKind) -> Word {
    if from == to {
        return a.clone();
    }
    if let Some(a) = known(a) {
        return known_result(native::convert(a, from, to), to);
    }
    let a = &a.term();
    let converted = value(a, from).to_fp_with_rounding_mode(&nearest_even(), &sort(to));
    let (from_fraction, to_fraction) = (ir::float::layout(from).1, ir::float::layout(to).1);
    let fraction = a.extract(from_fraction - 1, 0);
    let fraction = if to_fraction > from_fraction {
        fraction
            .zero_ext(to_fraction - from_fraction)
            .bvshl(bv_u(u128::from(to_fraction - from_fraction), to_fraction))
    } else {
        fraction.extract(from_fraction - 1, from_fraction - to_fraction)
    };
    let sign = a.extract(width(from) - 1, width(from) - 1);
    let exponent_ones = bv_u(u128::MAX, ir::float::layout(to).0);
    let nan = sign
        .concat(&exponent_ones)
        .concat(&fraction)
        .bvor(bv_u(quiet_bit(to), width(to)));
    let bits = value(a, from).is_nan().ite(&nan, &converted.to_ieee_bv());
    computed_bits(bits, &converted)
}

/// A unary operation of `<math.h>` on one value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MathUnary {
    Sqrt,
    Floor,
    Ceil,
    Trunc,
    /// Halfway cases away from zero (C's `round`).
    Round,
}

/// `op(a)` exactly as glibc computes it (all five are exact or correctly
/// rounded in glibc, so the IEEE operation is glibc's result).
pub fn math_unary(op: MathUnary, a: &Word, kind: FloatKind) -> Word {
    if let Some(a) = known(a) {
        return known_result(native::math_unary(op, a, kind), kind);
    }
    let a = &a.term();
    let x = value(a, kind);
    let result = match op {
        MathUnary::Sqrt => x.sqrt_with_rounding_mode(&nearest_even()),
        MathUnary::Floor => {
            x.round_to_integral_with_rounding_mode(&RoundingMode::round_towards_negative())
        }
        MathUnary::Ceil => {
            x.round_to_integral_with_rounding_mode(&RoundingMode::round_towards_positive())
        }
        MathUnary::Trunc => {
            x.round_to_integral_with_rounding_mode(&RoundingMode::round_towards_zero())
        }
        MathUnary::Round => {
            x.round_to_integral_with_rounding_mode(&RoundingMode::round_nearest_ties_to_away())
        }
    };
    let bits = propagate_nan(&[a], kind, bits_of(&result, kind));
    computed_bits(bits, &result)
}

/// `fmin` or `fmax` as glibc computes them: the smaller (larger) operand,
/// the second when they compare equal (`fmin(-0, +0)` is `+0`), the other
/// one when one is a quiet NaN, and the first NaN made quiet when both are
/// NaN or one is signalling.
pub fn min_max(maximum: bool, a: &Word, b: &Word, kind: FloatKind) -> Word {
    if let (Some(a), Some(b)) = (known(a), known(b)) {
        return known_result(native::min_max(maximum, a, b, kind), kind);
    }
    let (a, b) = (&a.term(), &b.term());
    let (x, y) = (value(a, kind), value(b, kind));
    let first = if maximum { x.gt(&y) } else { x.lt(&y) };
    let ordered = first.ite(a, b);
    let one_nan = x.is_nan().ite(b, &y.is_nan().ite(a, &ordered));
    let quiet = bv_u(quiet_bit(kind), width(kind));
    let signalling = |bits: &BV, v: &Float| {
        Bool::and(&[v.is_nan(), bits.bvand(&quiet).eq(bv_u(0, width(kind)))])
    };
    let propagates = Bool::or(&[
        signalling(a, &x),
        signalling(b, &y),
        Bool::and(&[x.is_nan(), y.is_nan()]),
    ]);
    Word::from(propagates.ite(&propagate_nan(&[a, b], kind, a.clone()), &one_nan))
}

#[cfg(test)]
mod tests {
    use super::*;
    use z3::{SatResult, Solver};

    /// The only value `term` may take, by asking the solver twice.
    fn only_value(word: &Word) -> u64 {
        let term = &word.term();
        let solver = Solver::new();
        assert_eq!(solver.check(), SatResult::Sat);
        let model = solver.get_model().expect("model");
        let v = model
            .eval(term, true)
            .and_then(|v| v.as_u64())
            .expect("value");
        solver.assert(term.eq(bv_u(u128::from(v), term.get_size())).not());
        assert_eq!(solver.check(), SatResult::Unsat, "one value only");
        v
    }

    fn double(v: f64) -> Word {
        Word::known(u128::from(v.to_bits()), 64)
    }

    fn single(v: f32) -> Word {
        Word::known(u128::from(v.to_bits()), 32)
    }

    #[test]
    fn arithmetic_matches_the_hardware() {
        let pairs = [
            (0.1, 0.2),
            (1e308, 1e308),
            (-0.0, 0.0),
            (1.0, 3.0),
            (5e-324, 0.5),
        ];
        for (x, y) in pairs {
            for (op, expected) in [
                (BinOp::Add, x + y),
                (BinOp::Sub, x - y),
                (BinOp::Mul, x * y),
                (BinOp::Div, x / y),
            ] {
                let got = arithmetic(op, &double(x), &double(y), FloatKind::F64).expect("op");
                assert_eq!(only_value(&got), expected.to_bits(), "{x} {op:?} {y}");
            }
        }
        let sum = arithmetic(BinOp::Add, &single(0.1), &single(0.2), FloatKind::F32).expect("op");
        assert_eq!(only_value(&sum), u64::from((0.1f32 + 0.2f32).to_bits()));
    }

    #[test]
    fn nan_results_follow_sse() {
        let invalid = arithmetic(
            BinOp::Sub,
            &double(f64::INFINITY),
            &double(f64::INFINITY),
            FloatKind::F64,
        )
        .expect("op");
        assert_eq!(only_value(&invalid), 0xfff8_0000_0000_0000);
        let signalling = Word::known(0x7ff0_0000_0000_0001, 64);
        let propagated =
            arithmetic(BinOp::Mul, &double(2.0), &signalling, FloatKind::F64).expect("op");
        assert_eq!(only_value(&propagated), 0x7ff8_0000_0000_0001);
        let narrowed = convert(
            &Word::known(0xfff8_0000_2000_0000, 64),
            FloatKind::F64,
            FloatKind::F32,
        );
        assert_eq!(only_value(&narrowed), 0xffc0_0001);
    }

    #[test]
    fn comparisons_treat_nan_as_unordered() {
        let nan = double(f64::NAN);
        for op in [BinOp::Eq, BinOp::Lt, BinOp::Le, BinOp::Gt, BinOp::Ge] {
            let c = compare(op, &nan, &nan, FloatKind::F64).expect("comparison");
            assert_eq!(c.term().simplify().as_bool(), Some(false));
        }
        let ne = compare(BinOp::Ne, &nan, &nan, FloatKind::F64).expect("comparison");
        assert_eq!(ne.term().simplify().as_bool(), Some(true));
        let zeros = compare(BinOp::Eq, &double(-0.0), &double(0.0), FloatKind::F64).expect("cmp");
        assert_eq!(zeros.term().simplify().as_bool(), Some(true));
    }

    #[test]
    fn conversions_round_and_say_when_undefined() {
        let big = Word::known(u128::from(u64::MAX), 64);
        assert_eq!(
            only_value(&from_integer(&big, false, FloatKind::F64)),
            (u64::MAX as f64).to_bits()
        );
        assert_eq!(
            only_value(&from_integer(
                &Word::known(16_777_217, 32),
                true,
                FloatKind::F32
            )),
            u64::from(16_777_216f32.to_bits())
        );
        let (value, defined) = to_integer(&double(-2.9), FloatKind::F64, IntType::INT);
        assert_eq!(only_value(&value), u64::from((-2i32) as u32));
        assert_eq!(defined.term().simplify().as_bool(), Some(true));
        for outside in [2147483648.0, -2147483649.0, f64::NAN, f64::INFINITY] {
            let (_, defined) = to_integer(&double(outside), FloatKind::F64, IntType::INT);
            assert_eq!(
                defined.term().simplify().as_bool(),
                Some(false),
                "{outside}"
            );
        }
        let (_, defined) = to_integer(&double(-0.9), FloatKind::F64, IntType::UINT);
        assert_eq!(defined.term().simplify().as_bool(), Some(true));
        let narrowed = convert(&double(0.1), FloatKind::F64, FloatKind::F32);
        assert_eq!(only_value(&narrowed), u64::from(0.1f32.to_bits()));
    }

    #[test]
    fn math_functions_match_glibc() {
        for x in [2.5f64, -2.5, 0.49999999999999994, -0.0, 1e300, 2.0] {
            for (op, expected) in [
                (MathUnary::Floor, x.floor()),
                (MathUnary::Ceil, x.ceil()),
                (MathUnary::Trunc, x.trunc()),
                (MathUnary::Round, x.round()),
                (MathUnary::Sqrt, x.sqrt()),
            ] {
                let got = only_value(&math_unary(op, &double(x), FloatKind::F64));
                assert_eq!(got, expected.to_bits(), "{op:?}({x})");
            }
        }
        let min = min_max(false, &double(f64::NAN), &double(1.0), FloatKind::F64);
        assert_eq!(only_value(&min), 1.0f64.to_bits());
        // Measured on glibc 2.36: equal operands give the second.
        let min = min_max(false, &double(-0.0), &double(0.0), FloatKind::F64);
        assert_eq!(only_value(&min), 0.0f64.to_bits());
        let max = min_max(true, &double(0.0), &double(-0.0), FloatKind::F64);
        assert_eq!(only_value(&max), (-0.0f64).to_bits());
        let copied = copy_sign(&double(3.5), &double(-0.0), FloatKind::F64);
        assert_eq!(only_value(&copied), (-3.5f64).to_bits());
        let copied = copy_sign(&single(f32::NAN), &single(-1.0), FloatKind::F32);
        assert_eq!(only_value(&copied), u64::from((-f32::NAN).to_bits()));
        assert_eq!(only_value(&sign_of(&double(-1.0), FloatKind::F64)), 1);
        assert_eq!(
            only_value(&sign_of(&single(-1.0), FloatKind::F32)),
            0x8000_0000
        );
    }

    /// Z3's bits of `word`, a term on numerals only.
    fn z3_bits(word: &Word) -> u128 {
        let term = word.term();
        crate::value::concrete_term(&term).unwrap_or_else(|| panic!("not a numeral: {term}"))
    }

    fn z3_truth(cond: &Cond) -> bool {
        let simplified = cond.term().simplify();
        simplified
            .as_bool()
            .unwrap_or_else(|| panic!("not a constant: {simplified}"))
    }

    /// A word of `kind`'s width whose operations take Z3's path.
    fn as_term(bits: u128, kind: FloatKind) -> Word {
        Word::Term(bv_u(bits, width(kind)))
    }

    /// Edge values of `kind` (zeros, subnormals, extremes, infinities,
    /// quiet and signalling NaNs of both signs, rounding ties, values
    /// around the integer ranges) and random bit patterns from a fixed seed.
    fn edge_values(kind: FloatKind) -> Vec<u128> {
        let doubles = [
            0.0,
            -0.0,
            1.0,
            -1.0,
            0.1,
            0.2,
            0.5,
            1.5,
            2.5,
            -2.5,
            3.5,
            3.0,
            1e308,
            -1e308,
            f64::MAX,
            f64::MIN,
            f64::MIN_POSITIVE,
            f64::INFINITY,
            f64::NEG_INFINITY,
            9007199254740992.0,
            1.1102230246251565e-16,
            0.49999999999999994,
            2147483647.9,
            -2147483648.9,
            2147483648.0,
            4294967295.5,
            -0.9,
            9.3e18,
            f64::from(f32::MAX),
            3.4028235677973366e38,
            1.401298464324817e-45,
            7.006492321624085e-46,
        ];
        let nans: [u128; 4] = match kind {
            FloatKind::F32 => [0x7fc0_0000, 0xffc0_0001, 0x7f80_0001, 0xffa0_0000],
            _ => [
                0x7ff8_0000_0000_0000,
                0xfff8_0000_0000_0001,
                0x7ff0_0000_0000_0001,
                0xfff4_0000_2000_0000,
            ],
        };
        let subnormals: [u128; 3] = match kind {
            FloatKind::F32 => [1, 0x007f_ffff, 0x8000_0001],
            _ => [1, 0x000f_ffff_ffff_ffff, 0x8000_0000_0000_0001],
        };
        let mut values: Vec<u128> = doubles
            .iter()
            .map(|&v| native::convert(u128::from(f64::to_bits(v)), FloatKind::F64, kind))
            .chain(nans)
            .chain(subnormals)
            .collect();
        let mut seed = 0x2545_f491_4f6c_dd1d_u64;
        for _ in 0..12 {
            // xorshift64
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            values.push(u128::from(seed) & ((1u128 << width(kind)) - 1));
        }
        values
    }

    /// Every native operation gives the bits (and truth values) Z3 gives
    /// on the same known values.
    #[test]
    fn known_values_compute_as_z3_does() {
        type Unary = fn(&Word, FloatKind) -> Word;
        for kind in [FloatKind::F32, FloatKind::F64] {
            let values = edge_values(kind);
            let other = if kind == FloatKind::F32 {
                FloatKind::F64
            } else {
                FloatKind::F32
            };
            for &a in &values {
                let (x, tx) = (known_result(a, kind), as_term(a, kind));
                for &b in &values {
                    let (y, ty) = (known_result(b, kind), as_term(b, kind));
                    for op in [BinOp::Add, BinOp::Sub, BinOp::Mul, BinOp::Div] {
                        let native = arithmetic(op, &x, &y, kind).expect("op");
                        let z3 = arithmetic(op, &tx, &ty, kind).expect("op");
                        assert_eq!(known(&native), Some(z3_bits(&z3)), "{a:#x} {op:?} {b:#x}");
                    }
                    for op in [
                        BinOp::Eq,
                        BinOp::Ne,
                        BinOp::Lt,
                        BinOp::Le,
                        BinOp::Gt,
                        BinOp::Ge,
                    ] {
                        let native = compare(op, &x, &y, kind).expect("comparison");
                        let z3 = compare(op, &tx, &ty, kind).expect("comparison");
                        let Cond::Known(native) = native else {
                            panic!("a term for known values");
                        };
                        assert_eq!(native, z3_truth(&z3), "{a:#x} {op:?} {b:#x}");
                    }
                    for maximum in [false, true] {
                        let native = min_max(maximum, &x, &y, kind);
                        let z3 = min_max(maximum, &tx, &ty, kind);
                        assert_eq!(
                            known(&native),
                            Some(z3_bits(&z3)),
                            "{maximum} {a:#x} {b:#x}"
                        );
                    }
                }
                let unary: [(&str, Unary); 8] = [
                    ("neg", negate),
                    ("fabs", absolute),
                    ("sqrt", |v, k| math_unary(MathUnary::Sqrt, v, k)),
                    ("floor", |v, k| math_unary(MathUnary::Floor, v, k)),
                    ("ceil", |v, k| math_unary(MathUnary::Ceil, v, k)),
                    ("trunc", |v, k| math_unary(MathUnary::Trunc, v, k)),
                    ("round", |v, k| math_unary(MathUnary::Round, v, k)),
                    ("signbit", sign_of),
                ];
                for (name, op) in unary {
                    let native = op(&x, kind);
                    assert_eq!(
                        known(&native),
                        Some(z3_bits(&op(&tx, kind))),
                        "{name} {a:#x}"
                    );
                }
                let native = convert(&x, kind, other);
                let z3 = convert(&tx, kind, other);
                assert_eq!(known(&native), Some(z3_bits(&z3)), "convert {a:#x}");
                for to in [
                    IntType::BOOL,
                    IntType::CHAR,
                    IntType::USHORT,
                    IntType::INT,
                    IntType::UINT,
                    IntType::LONG_LONG,
                    IntType::ULONG_LONG,
                    IntType::new(128, true),
                    IntType::new(128, false),
                ] {
                    let (native, native_defined) = to_integer(&x, kind, to);
                    let (z3, z3_defined) = to_integer(&tx, kind, to);
                    let defined = z3_truth(&z3_defined);
                    assert_eq!(z3_truth(&native_defined), defined, "{a:#x} to {to:?}");
                    if defined {
                        assert_eq!(known(&native), Some(z3_bits(&z3)), "{a:#x} to {to:?}");
                    }
                }
            }
            let integers = [
                0u128,
                1,
                2,
                0x7f,
                0x80,
                0xff,
                0x7fff_ffff,
                0x8000_0000,
                0xffff_ffff,
                16_777_217,
                0x0020_0000_0000_0001,
                0x7fff_ffff_ffff_ffff,
                0x8000_0000_0000_0000,
                u128::from(u64::MAX),
                u128::MAX,
                u128::MAX >> 1,
                1 << 127,
                0xffff_ff80_0000_0000_0000_0000_0000_0001,
            ];
            for bits in [8, 16, 32, 64, 128] {
                for &n in &integers {
                    let n = Word::known(n, bits);
                    for signed in [false, true] {
                        let native = from_integer(&n, signed, kind);
                        let z3 = from_integer(&Word::Term(n.term()), signed, kind);
                        assert_eq!(known(&native), Some(z3_bits(&z3)), "{n:?} {signed}");
                    }
                }
            }
        }
    }
}
