//! The floating rules of C on x86-64 with SSE: literal values (decimal and
//! hexadecimal, correctly rounded to nearest, ties to even), and constant
//! folding of `float` and `double` as the hardware computes them (Rust's
//! `f32`/`f64` operations are the same IEEE 754 operations).

use ir::{BinOp, FloatKind, IntType};
use lang_c::ast::{Float, FloatBase, FloatFormat};

/// A `float` or `double` value in the width it has in C.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum FloatValue {
    Single(f32),
    Double(f64),
}

impl FloatValue {
    pub(crate) fn from_bits(kind: FloatKind, bits: u64) -> FloatValue {
        match kind {
            FloatKind::F32 => FloatValue::Single(f32::from_bits(bits as u32)),
            _ => FloatValue::Double(f64::from_bits(bits)),
        }
    }

    pub(crate) fn bits(self) -> u64 {
        match self {
            FloatValue::Single(v) => u64::from(v.to_bits()),
            FloatValue::Double(v) => v.to_bits(),
        }
    }

    /// The value exactly, as a double (every `float` is one).
    fn wide(self) -> f64 {
        match self {
            FloatValue::Single(v) => f64::from(v),
            FloatValue::Double(v) => v,
        }
    }

    /// The value converted to `kind`, rounded to nearest (ties to even).
    fn to_kind(self, kind: FloatKind) -> FloatValue {
        match kind {
            FloatKind::F32 => FloatValue::Single(self.wide() as f32),
            _ => FloatValue::Double(self.wide()),
        }
    }
}

/// The kind and IEEE bits of a floating literal; `long double` and
/// imaginary literals are refused (the message says which).
pub(crate) fn literal(lit: &Float) -> Result<(FloatKind, u64), String> {
    let kind = match lit.suffix.format {
        FloatFormat::Float => FloatKind::F32,
        FloatFormat::Double => FloatKind::F64,
        FloatFormat::LongDouble => return Err("unsupported: long double constant".into()),
        _ => return Err("unsupported: decimal or extended floating constant".into()),
    };
    Ok((kind, literal_in(lit, kind)?))
}

/// The bits of a literal's value read as a `kind`, whatever its suffix.
/// For a `long double` literal converted at once (`(double)1e-16L`) this is
/// gcc's value unless the literal lies within 2^-64 (relative) of a point
/// halfway between two values of `kind`, where gcc's rounding to 80 bits
/// first could round the other way; <float.h>'s constants are not such.
pub(crate) fn literal_in(lit: &Float, kind: FloatKind) -> Result<u64, String> {
    if lit.suffix.imaginary {
        return Err("unsupported: imaginary constant".into());
    }
    let invalid = || format!("invalid floating constant `{}`", lit.number);
    let value = match (lit.base.clone(), kind) {
        (FloatBase::Decimal, FloatKind::F32) => {
            FloatValue::Single(lit.number.parse().map_err(|_| invalid())?)
        }
        (FloatBase::Decimal, _) => FloatValue::Double(lit.number.parse().map_err(|_| invalid())?),
        (FloatBase::Hexadecimal, _) => {
            let bits = hexadecimal(&lit.number, kind).ok_or_else(invalid)?;
            FloatValue::from_bits(kind, bits)
        }
    };
    Ok(value.bits())
}

/// The bits of a hexadecimal floating literal's digits (`1.8p+1`, after `0x`).
fn hexadecimal(text: &str, kind: FloatKind) -> Option<u64> {
    let (digits, exponent) = text.split_once(['p', 'P'])?;
    let mut exponent: i64 = exponent.parse().ok()?;
    let (whole, fraction) = digits.split_once('.').unwrap_or((digits, ""));
    if whole.is_empty() && fraction.is_empty() {
        return None;
    }
    // Up to 120 significant bits are kept; any one bit below them only
    // breaks a tie, so it is kept as a sticky bit.
    let mut significand: u128 = 0;
    let mut sticky = false;
    for (index, c) in whole.chars().chain(fraction.chars()).enumerate() {
        let digit = u128::from(c.to_digit(16)?);
        if index >= whole.len() {
            exponent -= 4;
        }
        if significand >> 116 == 0 {
            significand = (significand << 4) | digit;
        } else {
            sticky |= digit != 0;
            exponent += 4;
        }
    }
    Some(round_to_bits(significand, sticky, exponent, kind))
}

/// The IEEE bits of `significand * 2^exponent` (plus a little more when
/// `sticky`), rounded to nearest, ties to even, as the format of `kind` holds it.
fn round_to_bits(significand: u128, sticky: bool, exponent: i64, kind: FloatKind) -> u64 {
    let (exponent_bits, fraction_bits) = ir::float::layout(kind);
    let precision = i64::from(fraction_bits) + 1;
    let bias = (1i64 << (exponent_bits - 1)) - 1;
    let (min_exponent, max_exponent) = (1 - bias, bias);
    let infinity = ((1u64 << exponent_bits) - 1) << fraction_bits;
    if significand == 0 {
        return 0;
    }
    let top = 127 - i64::from(significand.leading_zeros());
    let leading_exponent = top + exponent;
    // Bits the result keeps: all of its precision, fewer when subnormal.
    let kept = precision - (min_exponent - leading_exponent).max(0);
    let dropped = top + 1 - kept;
    let (mut kept_value, scale) = if dropped <= 0 {
        (significand << -dropped, exponent + dropped)
    } else {
        let (quotient, remainder) = if dropped >= 128 {
            (0, significand)
        } else {
            (
                significand >> dropped,
                significand & ((1u128 << dropped) - 1),
            )
        };
        let half = if dropped > 128 {
            None
        } else {
            Some(1u128 << (dropped - 1))
        };
        let round_up = match half {
            Some(half) => remainder > half || (remainder == half && (sticky || quotient & 1 == 1)),
            None => false,
        };
        (quotient + u128::from(round_up), exponent + dropped)
    };
    // Rounding up may carry into one more bit.
    let mut scale = scale;
    if kept_value >> precision != 0 {
        kept_value >>= 1;
        scale += 1;
    }
    if kept_value >> (precision - 1) == 0 {
        // Subnormal (or zero): the fraction alone, biased exponent 0.
        return kept_value as u64;
    }
    let value_exponent = scale + precision - 1;
    if value_exponent > max_exponent {
        return infinity;
    }
    let biased = (value_exponent + bias) as u64;
    (biased << fraction_bits) | (kept_value as u64 & ((1u64 << fraction_bits) - 1))
}

/// `op` on two constants of one kind: the result (a float of the kind, or a
/// comparison's `int` 0 or 1), or `None` when `op` is not floating arithmetic.
pub(crate) enum Folded {
    Value(FloatValue),
    Truth(bool),
}

pub(crate) fn fold_binary(op: BinOp, a: FloatValue, b: FloatValue) -> Option<Folded> {
    use FloatValue::{Double, Single};
    let compare = |x: f64, y: f64| match op {
        BinOp::Eq => Some(x == y),
        BinOp::Ne => Some(x != y),
        BinOp::Lt => Some(x < y),
        BinOp::Le => Some(x <= y),
        BinOp::Gt => Some(x > y),
        BinOp::Ge => Some(x >= y),
        _ => None,
    };
    if op.is_predicate() {
        return compare(a.wide(), b.wide()).map(Folded::Truth);
    }
    // NaN results keep whatever payload the operation gives; fold only
    // numbers so that the engine decides every NaN the same way.
    let value = match (a, b) {
        (Single(x), Single(y)) => Single(arith(op, x, y)?),
        (Double(x), Double(y)) => Double(arith(op, x, y)?),
        _ => return None,
    };
    (!value.wide().is_nan()).then_some(Folded::Value(value))
}

/// `x op y` in the type's own IEEE arithmetic (round to nearest even).
fn arith<T>(op: BinOp, x: T, y: T) -> Option<T>
where
    T: std::ops::Add<Output = T>
        + std::ops::Sub<Output = T>
        + std::ops::Mul<Output = T>
        + std::ops::Div<Output = T>,
{
    Some(match op {
        BinOp::Add => x + y,
        BinOp::Sub => x - y,
        BinOp::Mul => x * y,
        BinOp::Div => x / y,
        _ => return None,
    })
}

/// Negation flips the sign bit (as `xorps` does, NaN included).
pub(crate) fn fold_negation(kind: FloatKind, bits: u64) -> u64 {
    let (exponent_bits, fraction_bits) = ir::float::layout(kind);
    bits ^ (1u64 << (exponent_bits + fraction_bits))
}

/// A constant converted between floating kinds (NaN left to the engine).
pub(crate) fn convert(value: FloatValue, to: FloatKind) -> Option<FloatValue> {
    (!value.wide().is_nan()).then(|| value.to_kind(to))
}

/// An integer constant (`value` of type `from`) as a floating one, rounded to nearest.
pub(crate) fn from_integer(value: i128, to: FloatKind) -> FloatValue {
    match to {
        FloatKind::F32 => FloatValue::Single(value as f32),
        _ => FloatValue::Double(value as f64),
    }
}

/// A floating constant truncated toward zero into `to`, or `None` when the
/// result is out of its range (undefined: left to the engine to report).
pub(crate) fn to_integer(value: FloatValue, to: IntType) -> Option<i128> {
    let truncated = value.wide().trunc();
    let (min, max) = to.range();
    // Every bound of a 64-bit or narrower type is exact in f64 but max; the
    // comparison against max + 1 (a power of two) is exact.
    let in_range = truncated >= min as f64 && truncated < (max as f64 + 1.0);
    if to.is_bool {
        return Some(i128::from(value.wide() != 0.0));
    }
    in_range.then_some(truncated as i128)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hex(text: &str, kind: FloatKind) -> u64 {
        hexadecimal(text, kind).expect("valid literal")
    }

    #[test]
    fn hexadecimal_literals_are_exact() {
        assert_eq!(hex("1.8p+1", FloatKind::F64), 3.0f64.to_bits());
        assert_eq!(hex("1p-1074", FloatKind::F64), 1);
        assert_eq!(
            hex("1.fffffffffffffp+1023", FloatKind::F64),
            f64::MAX.to_bits()
        );
        assert_eq!(hex("1p1024", FloatKind::F64), f64::INFINITY.to_bits());
        assert_eq!(hex(".8p0", FloatKind::F32), u64::from(0.5f32.to_bits()));
        assert_eq!(hex("A.Bp-3", FloatKind::F64), (10.6875f64 / 8.0).to_bits());
    }

    #[test]
    fn hexadecimal_literals_round_to_nearest_even() {
        // 1 + 2^-53 is a tie between 1 and the next double: even is 1.
        assert_eq!(hex("1.00000000000008p0", FloatKind::F64), 1.0f64.to_bits());
        // A bit beyond the tie decides upward.
        assert_eq!(
            hex("1.000000000000080000000000000000001p0", FloatKind::F64),
            1.0f64.to_bits() + 1
        );
        // 1 + 3 * 2^-53 ties between odd and even neighbours: up to even.
        assert_eq!(
            hex("1.00000000000018p0", FloatKind::F64),
            1.0f64.to_bits() + 2
        );
        // Half the smallest subnormal ties to zero; a little more is the smallest.
        assert_eq!(hex("1p-1075", FloatKind::F64), 0);
        assert_eq!(hex("1.8p-1075", FloatKind::F64), 1);
        // In a float, 1 + 2^-24 ties to 1; 1 + 3 * 2^-24 ties up to even.
        assert_eq!(
            hex("1.000001p0", FloatKind::F32),
            u64::from(1.0f32.to_bits())
        );
        assert_eq!(
            hex("1.000003p0", FloatKind::F32),
            u64::from(1.0f32.to_bits()) + 2
        );
    }

    #[test]
    fn folding_follows_ieee() {
        let third = fold_binary(BinOp::Div, FloatValue::Double(1.0), FloatValue::Double(3.0));
        assert!(matches!(third, Some(Folded::Value(FloatValue::Double(v))) if v == 1.0 / 3.0));
        let nan = FloatValue::Double(f64::NAN);
        assert!(matches!(
            fold_binary(BinOp::Ne, nan, nan),
            Some(Folded::Truth(true))
        ));
        assert!(matches!(
            fold_binary(BinOp::Lt, nan, nan),
            Some(Folded::Truth(false))
        ));
        assert_eq!(to_integer(FloatValue::Double(-2.9), IntType::INT), Some(-2));
        assert_eq!(
            to_integer(FloatValue::Double(2147483648.0), IntType::INT),
            None
        );
        assert_eq!(to_integer(FloatValue::Double(-1.0), IntType::UINT), None);
        assert_eq!(to_integer(FloatValue::Single(0.5), IntType::BOOL), Some(1));
    }
}
