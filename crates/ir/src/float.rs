//! IEEE 754 bit patterns of `float` and `double` and their exact text, shared
//! by the IR printer and the generated C (hexadecimal literals round-trip).

use crate::types::FloatKind;

/// The parts of an IEEE 754 value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FloatClass {
    /// Finite: `(-1)^negative * significand * 2^exponent`, the significand an
    /// integer (so the value is exact), zero included.
    Finite {
        negative: bool,
        significand: u64,
        exponent: i32,
    },
    Infinite {
        negative: bool,
    },
    /// `quiet` is the top bit of the fraction; `payload` the fraction's other bits.
    NaN {
        negative: bool,
        quiet: bool,
        payload: u64,
    },
}

/// Exponent and fraction widths of the kinds with IEEE arithmetic.
pub fn layout(kind: FloatKind) -> (u32, u32) {
    match kind {
        FloatKind::F32 => (8, 23),
        _ => (11, 52),
    }
}

/// The bits of `kind` (its low 32 or 64 bits) taken apart.
pub fn classify(kind: FloatKind, bits: u64) -> FloatClass {
    let (exponent_bits, fraction_bits) = layout(kind);
    let negative = (bits >> (exponent_bits + fraction_bits)) & 1 == 1;
    let fraction = bits & ((1u64 << fraction_bits) - 1);
    let biased = ((bits >> fraction_bits) & ((1u64 << exponent_bits) - 1)) as i32;
    let max_biased = (1i32 << exponent_bits) - 1;
    let bias = (1i32 << (exponent_bits - 1)) - 1;
    if biased == max_biased {
        if fraction == 0 {
            return FloatClass::Infinite { negative };
        }
        let quiet_bit = 1u64 << (fraction_bits - 1);
        return FloatClass::NaN {
            negative,
            quiet: fraction & quiet_bit != 0,
            payload: fraction & !quiet_bit,
        };
    }
    // A subnormal has the exponent of the smallest normal and no hidden bit.
    let (significand, biased) = if biased == 0 {
        (fraction, 1)
    } else {
        (fraction | (1u64 << fraction_bits), biased)
    };
    FloatClass::Finite {
        negative,
        significand,
        exponent: biased - bias - fraction_bits as i32,
    }
}

/// A finite value as a C hexadecimal floating literal without suffix
/// (`0x1.8p+1`, `-0x0p+0`, `0x1p-1074`): exact, so it reads back to the same bits.
pub fn hex_literal(negative: bool, significand: u64, exponent: i32) -> String {
    let sign = if negative { "-" } else { "" };
    if significand == 0 {
        return format!("{sign}0x0p+0");
    }
    // Normalise to 1.xxx: the leading one bit becomes the integer digit.
    let top = 63 - significand.leading_zeros();
    let fraction = significand & !(1u64 << top);
    let power = exponent + top as i32;
    // Fraction bits left-aligned on a hex-digit boundary, trailing zeros dropped.
    let digits = top.div_ceil(4);
    let aligned = fraction << (digits * 4 - top);
    let mut hex = format!("{aligned:0width$x}", width = digits as usize);
    while hex.ends_with('0') {
        hex.pop();
    }
    let dot = if hex.is_empty() { "" } else { "." };
    format!("{sign}0x1{dot}{hex}p{power:+}")
}

/// The value's exact text for the IR printer and reports: a hexadecimal
/// literal, `inf`, `-inf`, or `nan` with its sign and fraction bits.
pub fn text(kind: FloatKind, bits: u64) -> String {
    match classify(kind, bits) {
        FloatClass::Finite {
            negative,
            significand,
            exponent,
        } => hex_literal(negative, significand, exponent),
        FloatClass::Infinite { negative } => format!("{}inf", if negative { "-" } else { "" }),
        FloatClass::NaN {
            negative,
            quiet,
            payload,
        } => format!(
            "{}{}nan(0x{payload:x})",
            if negative { "-" } else { "" },
            if quiet { "" } else { "s" }
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finite_values_print_as_exact_hex_literals() {
        assert_eq!(text(FloatKind::F64, 3.0f64.to_bits()), "0x1.8p+1");
        assert_eq!(
            text(FloatKind::F64, 0.1f64.to_bits()),
            "0x1.999999999999ap-4"
        );
        assert_eq!(text(FloatKind::F64, (-0.0f64).to_bits()), "-0x0p+0");
        assert_eq!(text(FloatKind::F64, 1), "0x1p-1074");
        assert_eq!(
            text(FloatKind::F64, f64::MAX.to_bits()),
            "0x1.fffffffffffffp+1023"
        );
        assert_eq!(
            text(FloatKind::F32, u64::from(0.1f32.to_bits())),
            "0x1.99999ap-4"
        );
        assert_eq!(
            text(FloatKind::F32, u64::from(f32::MAX.to_bits())),
            "0x1.fffffep+127"
        );
        assert_eq!(text(FloatKind::F32, 1), "0x1p-149");
    }

    #[test]
    fn special_values_say_what_they_are() {
        assert_eq!(text(FloatKind::F64, f64::NEG_INFINITY.to_bits()), "-inf");
        assert_eq!(text(FloatKind::F64, f64::NAN.to_bits()), "nan(0x0)");
        assert_eq!(text(FloatKind::F32, 0xffa0_0001), "-snan(0x200001)");
    }
}
