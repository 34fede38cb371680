//! The operations of `float.rs` on known values, computed with Rust's `f32`
//! and `f64`, whose arithmetic is IEEE 754 rounding to nearest, ties to
//! even, as SSE's. Each gives the bits the Z3 terms give on the same
//! values, NaN included (the test of `float.rs` checks every one), so a
//! statement on floats no input decides builds no term.

use super::{indefinite_nan, quiet_bit, width, MathUnary};
use ir::{BinOp, FloatKind, IntType};

/// `f32` or `f64`, read from and written to the low bits of a word.
trait Ieee: Copy {
    fn from_word(bits: u128) -> Self;
    fn to_word(self) -> u128;
    fn is_nan(self) -> bool;
    /// Exact: every `f32` is an `f64`.
    fn to_f64(self) -> f64;
    /// Rounded to nearest, ties to even.
    fn from_f64(v: f64) -> Self;
    fn from_signed(v: i128) -> Self;
    fn from_unsigned(v: u128) -> Self;
}

macro_rules! ieee {
    ($float:ident, $bits:ident) => {
        impl Ieee for $float {
            fn from_word(bits: u128) -> Self {
                $float::from_bits(bits as $bits)
            }
            fn to_word(self) -> u128 {
                u128::from(self.to_bits())
            }
            fn is_nan(self) -> bool {
                $float::is_nan(self)
            }
            fn to_f64(self) -> f64 {
                f64::from(self)
            }
            fn from_f64(v: f64) -> Self {
                // Rust's `as` between floats rounds to nearest, ties to even.
                v as $float
            }
            fn from_signed(v: i128) -> Self {
                // Rust's `as` from integers rounds to nearest, ties to even.
                v as $float
            }
            fn from_unsigned(v: u128) -> Self {
                v as $float
            }
        }
    };
}

ieee!(f32, u32);
ieee!(f64, u64);

/// `$body` with `$float` the Rust type of `$kind`, whose own methods
/// (`sqrt`, `floor`, ...) and operators are IEEE's (a `long double` never
/// gets here: the front end refuses arithmetic on it).
macro_rules! with_float {
    ($kind:expr, $float:ident => $body:expr) => {
        match $kind {
            FloatKind::F32 => {
                type $float = f32;
                $body
            }
            _ => {
                type $float = f64;
                $body
            }
        }
    };
}

fn is_nan(bits: u128, kind: FloatKind) -> bool {
    with_float!(kind, F => F::from_word(bits).is_nan())
}

/// The bits of `result` computed from `operands` as SSE gives them: the
/// first NaN operand made quiet, else the indefinite NaN for an invalid
/// operation (whose Rust NaN's bits are not specified).
fn sse_bits<F: Ieee>(operands: &[u128], result: F, kind: FloatKind) -> u128 {
    match operands.iter().find(|&&bits| is_nan(bits, kind)) {
        Some(nan) => nan | quiet_bit(kind),
        None if result.is_nan() => indefinite_nan(kind),
        None => result.to_word(),
    }
}

/// `a op b` for `+ - * /`.
pub fn arithmetic(op: BinOp, a: u128, b: u128, kind: FloatKind) -> Option<u128> {
    with_float!(kind, F => {
        let (x, y) = (F::from_word(a), F::from_word(b));
        let result = match op {
            BinOp::Add => x + y,
            BinOp::Sub => x - y,
            BinOp::Mul => x * y,
            BinOp::Div => x / y,
            _ => return None,
        };
        Some(sse_bits(&[a, b], result, kind))
    })
}

/// An IEEE comparison: Rust's on floats is one (NaN unordered, `-0 == +0`).
pub fn compare(op: BinOp, a: u128, b: u128, kind: FloatKind) -> Option<bool> {
    with_float!(kind, F => {
        let (x, y) = (F::from_word(a), F::from_word(b));
        Some(match op {
            BinOp::Eq => x == y,
            BinOp::Ne => x != y,
            BinOp::Lt => x < y,
            BinOp::Le => x <= y,
            BinOp::Gt => x > y,
            BinOp::Ge => x >= y,
            _ => return None,
        })
    })
}

/// An integer of `bits` bits (`signed` or not) converted to `kind`.
pub fn from_integer(a: u128, bits: u32, signed: bool, kind: FloatKind) -> u128 {
    with_float!(kind, F => {
        let value = if signed {
            // The sign bit moved to the top, then shifted back arithmetically.
            let unused = 128 - bits;
            F::from_signed(((a << unused) as i128) >> unused)
        } else {
            F::from_unsigned(a)
        };
        value.to_word()
    })
}

/// A value converted to an integer type by truncation, or `None` when that
/// is undefined (the truncated value outside the type's range, NaN, an
/// infinity), which `float.rs` leaves to Z3 as before.
pub fn to_integer(a: u128, kind: FloatKind, to: IntType) -> Option<u128> {
    let x = with_float!(kind, F => F::from_word(a).to_f64());
    if to.is_bool {
        return Some(u128::from(x != 0.0));
    }
    let truncated = x.trunc();
    // Both bounds are powers of two (or zero), exact in every format.
    let half = 2f64.powi(i32::from(to.bits) - 1);
    let (low, high) = if to.signed {
        (-half, half)
    } else {
        (0.0, 2.0 * half)
    };
    if !(low..high).contains(&truncated) {
        return None;
    }
    Some(if to.signed {
        truncated as i128 as u128
    } else {
        truncated as u128
    })
}

/// A value converted between `float` and `double`: widening is exact,
/// narrowing rounds to nearest; a NaN keeps its sign and top fraction bits
/// and becomes quiet.
pub fn convert(a: u128, from: FloatKind, to: FloatKind) -> u128 {
    if is_nan(a, from) {
        let (from_fraction, to_fraction) = (ir::float::layout(from).1, ir::float::layout(to).1);
        let fraction = a & ((1 << from_fraction) - 1);
        let fraction = if to_fraction > from_fraction {
            fraction << (to_fraction - from_fraction)
        } else {
            fraction >> (from_fraction - to_fraction)
        };
        let sign = (a >> (width(from) - 1)) & 1;
        let exponent_ones = ((1 << ir::float::layout(to).0) - 1) << to_fraction;
        return (sign << (width(to) - 1)) | exponent_ones | fraction | quiet_bit(to);
    }
    let value = with_float!(from, F => F::from_word(a).to_f64());
    with_float!(to, F => F::from_f64(value).to_word())
}

/// `op(a)`, exact in Rust as in glibc.
pub fn math_unary(op: MathUnary, a: u128, kind: FloatKind) -> u128 {
    with_float!(kind, F => {
        let x = F::from_word(a);
        let result = match op {
            MathUnary::Sqrt => x.sqrt(),
            MathUnary::Floor => x.floor(),
            MathUnary::Ceil => x.ceil(),
            MathUnary::Trunc => x.trunc(),
            MathUnary::Round => x.round(),
        };
        sse_bits(&[a], result, kind)
    })
}

/// `fmin` or `fmax` as glibc computes them (see `float::min_max`).
pub fn min_max(maximum: bool, a: u128, b: u128, kind: FloatKind) -> u128 {
    let signalling = |bits| is_nan(bits, kind) && bits & quiet_bit(kind) == 0;
    let (a_nan, b_nan) = (is_nan(a, kind), is_nan(b, kind));
    if signalling(a) || signalling(b) || (a_nan && b_nan) {
        return if a_nan { a } else { b } | quiet_bit(kind);
    }
    if a_nan {
        return b;
    }
    if b_nan {
        return a;
    }
    let first = with_float!(kind, F => {
        let (x, y) = (F::from_word(a), F::from_word(b));
        if maximum { x > y } else { x < y }
    });
    if first {
        a
    } else {
        b
    }
}
