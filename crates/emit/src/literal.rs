//! C literals that mean exactly the intended value for every type and edge value.

use ir::float::{self, FloatClass};
use ir::{FloatKind, IntType};

/// A C expression of value `bits` interpreted as `ty`, valid where a value of
/// `ty` is expected, in both data models: a 64-bit value has a `LL` suffix
/// where it needs one (`long` may be 32 bits). The most negative values are
/// written as a subtraction because `-2147483648` is the negation of a wider
/// type, not an `int`.
pub fn int_literal(ty: IntType, bits: u128) -> String {
    let value = ty.value_of(bits);
    if ty.is_bool {
        return if value != 0 { "1" } else { "0" }.to_string();
    }
    if ty.bits > 64 {
        return wide_literal(ty, bits);
    }
    if ty.signed {
        let (min, _) = ty.range();
        if value == min && ty.bits >= 32 {
            let suffix = if ty.bits > 32 { "LL" } else { "" };
            return format!("({}{suffix} - 1)", min + 1);
        }
        return value.to_string();
    }
    // Unsigned: suffix values that do not fit `int` so the literal has an
    // unsigned type of the right width.
    match ty.bits {
        b if b <= 16 => value.to_string(),
        32 if value > i128::from(i32::MAX) => format!("{value}U"),
        32 => value.to_string(),
        _ if value > i128::from(i32::MAX) => format!("{value}ULL"),
        _ => value.to_string(),
    }
}

/// A value of `__int128` or `unsigned __int128`, which C has no literal
/// for: a `long long` literal when the value fits one (it converts), else built
/// from its two 64-bit halves.
fn wide_literal(ty: IntType, bits: u128) -> String {
    // `value_of` gives an `i128`, which an `unsigned __int128` may not fit.
    let small = match ty.signed {
        true => i64::try_from(bits as i128).ok(),
        false => i64::try_from(bits).ok(),
    };
    if let Some(small) = small {
        return int_literal(IntType::LONG_LONG, u128::from(small as u64));
    }
    let name = if ty.signed {
        "__int128"
    } else {
        "unsigned __int128"
    };
    let (high, low) = ((bits >> 64) as u64, bits as u64);
    format!("(({name})(((unsigned __int128){high:#x}ULL << 64) | {low:#x}ULL))")
}

/// A C expression of the `float` or `double` with IEEE bits `bits`, exact:
/// a hexadecimal literal for a number, gcc's builtins for infinities and
/// NaNs (the payload and signalling bit included), so no header is needed.
pub fn float_literal(kind: FloatKind, bits: u64) -> String {
    let single = kind == FloatKind::F32;
    let sign = |negative: bool| if negative { "-" } else { "" };
    let suffix = if single { "f" } else { "" };
    match float::classify(kind, bits) {
        FloatClass::Finite {
            negative,
            significand,
            exponent,
        } => format!(
            "{}{suffix}",
            float::hex_literal(negative, significand, exponent)
        ),
        FloatClass::Infinite { negative } => format!("{}__builtin_inf{suffix}()", sign(negative)),
        FloatClass::NaN {
            negative,
            quiet,
            payload,
        } => {
            let builtin = if quiet { "nan" } else { "nans" };
            format!(
                "{}__builtin_{builtin}{suffix}(\"{payload:#x}\")",
                sign(negative)
            )
        }
    }
}

/// A character constant for printable ASCII (`'a'`, `'\''`), else the number.
pub fn char_literal(ty: IntType, bits: u128) -> String {
    let value = ty.value_of(bits);
    match u8::try_from(value) {
        Ok(b'\'') => "'\\''".to_string(),
        Ok(b'\\') => "'\\\\'".to_string(),
        Ok(0) => "'\\0'".to_string(),
        Ok(b'\t') => "'\\t'".to_string(),
        Ok(b'\n') => "'\\n'".to_string(),
        Ok(b'\r') => "'\\r'".to_string(),
        Ok(c) if (0x20..0x7f).contains(&c) => format!("'{}'", c as char),
        _ => int_literal(ty, bits),
    }
}

/// Text inside a C string literal (without the quotes).
pub fn escape_string(text: &str) -> String {
    escape_bytes(text.as_bytes())
}

/// A C string literal holding exactly `bytes` (plus the terminator C adds).
pub fn bytes_literal(bytes: &[u8]) -> String {
    format!("\"{}\"", escape_bytes(bytes))
}

/// `bytes` as the inside of a C string literal: printable ASCII as itself,
/// other bytes as three-digit octal escapes, so that a digit after one is
/// never read as part of it.
fn escape_bytes(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len());
    for &b in bytes {
        match b {
            b'"' => out.push_str("\\\""),
            b'\\' => out.push_str("\\\\"),
            b'\n' => out.push_str("\\n"),
            b'\t' => out.push_str("\\t"),
            b'\r' => out.push_str("\\r"),
            // `??x` would be a trigraph under -trigraphs; `%` is safe since
            // strings are never used as printf formats.
            b'?' => out.push_str("\\?"),
            0x20..=0x7e => out.push(b as char),
            other => out.push_str(&format!("\\{other:03o}")),
        }
    }
    out
}

/// Text safe inside a C block comment (one line, no comment terminator).
pub fn comment_text(text: &str) -> String {
    text.replace("*/", "* /").replace(['\n', '\r'], " ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn signed_edges_are_valid_c() {
        assert_eq!(
            int_literal(IntType::INT, (i32::MIN as u32).into()),
            "(-2147483647 - 1)"
        );
        assert_eq!(int_literal(IntType::INT, (-5i32 as u32).into()), "-5");
        assert_eq!(int_literal(IntType::INT, i32::MAX as u128), "2147483647");
        assert_eq!(
            int_literal(IntType::LONG_LONG, (i64::MIN as u64).into()),
            "(-9223372036854775807LL - 1)"
        );
        assert_eq!(int_literal(IntType::LONG_LONG, (-1i64 as u64).into()), "-1");
        assert_eq!(int_literal(IntType::CHAR, 0x80), "-128");
        assert_eq!(int_literal(IntType::SHORT, 0x8000), "-32768");
    }

    #[test]
    fn unsigned_values_get_suffixes_when_needed() {
        assert_eq!(int_literal(IntType::UINT, u32::MAX.into()), "4294967295U");
        assert_eq!(int_literal(IntType::UINT, 7), "7");
        assert_eq!(
            int_literal(IntType::ULONG_LONG, u64::MAX.into()),
            "18446744073709551615ULL"
        );
        assert_eq!(int_literal(IntType::UCHAR, 255), "255");
        assert_eq!(int_literal(IntType::BOOL, 1), "1");
    }

    #[test]
    fn wide_integers_are_built_from_halves() {
        let int128 = IntType::new(128, true);
        let uint128 = IntType::new(128, false);
        assert_eq!(int_literal(int128, (-5i128) as u128), "-5");
        assert_eq!(
            int_literal(uint128, u128::MAX),
            "((unsigned __int128)(((unsigned __int128)0xffffffffffffffffULL << 64) | 0xffffffffffffffffULL))"
        );
        assert_eq!(
            int_literal(int128, i128::MIN as u128),
            "((__int128)(((unsigned __int128)0x8000000000000000ULL << 64) | 0x0ULL))"
        );
        assert_eq!(
            int_literal(uint128, u128::from(u64::MAX)),
            "((unsigned __int128)(((unsigned __int128)0x0ULL << 64) | 0xffffffffffffffffULL))"
        );
    }

    #[test]
    fn characters_and_strings_escape() {
        assert_eq!(char_literal(IntType::CHAR, b'a'.into()), "'a'");
        assert_eq!(char_literal(IntType::CHAR, b'\''.into()), "'\\''");
        assert_eq!(char_literal(IntType::CHAR, 0), "'\\0'");
        assert_eq!(char_literal(IntType::CHAR, 0xff), "-1");
        assert_eq!(escape_string("a\"b\\c?\n"), "a\\\"b\\\\c\\?\\n");
        assert_eq!(comment_text("a */ b\nc"), "a * / b c");
        assert_eq!(bytes_literal(b"2024-02-30"), "\"2024-02-30\"");
        assert_eq!(bytes_literal(b"a\0b\x01\"\n"), "\"a\\000b\\001\\\"\\n\"");
    }
}
