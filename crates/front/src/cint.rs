//! The integer rules of C on x86 Linux (LP64 or ILP32): literal types,
//! character constants, string literals, promotions, the usual arithmetic
//! conversions and constant folding with the exact wrap-around of each type.

use ir::{BinOp, DataModel, IntType, UnOp};
use lang_c::ast::{Integer, IntegerBase, IntegerSize};

/// The integer promotions: every type narrower than `int` (and `_Bool`) becomes `int`.
pub(crate) fn promote(t: IntType) -> IntType {
    if t.is_bool || t.bits < 32 {
        IntType::INT
    } else {
        t
    }
}

/// The usual arithmetic conversions of two integer operands (after promotion).
pub(crate) fn usual_arithmetic(a: IntType, b: IntType) -> IntType {
    let (a, b) = (promote(a), promote(b));
    if a == b {
        return a;
    }
    if a.signed == b.signed {
        return if a.bits >= b.bits { a } else { b };
    }
    let (signed, unsigned) = if a.signed { (a, b) } else { (b, a) };
    if unsigned.bits >= signed.bits {
        unsigned
    } else {
        // A wider signed type holds every value of the narrower unsigned
        // one; by width alone, `unsigned int` against a 32-bit `long` is
        // `unsigned long` (ILP32), as C ranks them.
        signed
    }
}

/// The type and value of an integer literal (C11 6.4.4.1, with gcc's choice
/// of `unsigned long long` for a decimal literal too large for `long long`).
pub(crate) fn literal(lit: &Integer, model: DataModel) -> Result<(IntType, u128), String> {
    if lit.suffix.imaginary {
        return Err("unsupported: imaginary constant".into());
    }
    let radix = match lit.base {
        IntegerBase::Decimal => 10,
        IntegerBase::Octal => 8,
        IntegerBase::Hexadecimal => 16,
        IntegerBase::Binary => 2,
    };
    let digits = if lit.number.is_empty() {
        "0"
    } else {
        &lit.number
    };
    let value = u128::from_str_radix(digits, radix)
        .map_err(|_| format!("invalid integer constant `{}`", lit.number))?;
    if value > u128::from(u64::MAX) {
        return Err(format!("integer constant `{}` is too large", lit.number));
    }
    // By rank: int, long, long long, each signed then unsigned.
    let ranks = [
        (IntType::INT, IntType::UINT),
        (model.long(), model.ulong()),
        (IntType::LONG_LONG, IntType::ULONG_LONG),
    ];
    let first_rank = match lit.suffix.size {
        IntegerSize::Int => 0,
        IntegerSize::Long => 1,
        IntegerSize::LongLong => 2,
    };
    // A decimal literal without `u` takes only signed types (C11 6.4.4.1).
    let signed_only = matches!(lit.base, IntegerBase::Decimal) && !lit.suffix.unsigned;
    let fits = |t: &IntType| value as i128 <= t.range().1;
    let ty = ranks[first_rank..]
        .iter()
        .flat_map(|&(signed, unsigned)| {
            let signed = (!lit.suffix.unsigned).then_some(signed);
            let unsigned = (!signed_only).then_some(unsigned);
            signed.into_iter().chain(unsigned)
        })
        .find(fits)
        .unwrap_or(IntType::ULONG_LONG);
    Ok((ty, value))
}

/// Decodes one escape sequence after the backslash; returns the value and
/// the rest of the input.
fn escape(rest: &str) -> Result<(u32, &str), String> {
    let mut chars = rest.chars();
    let c = chars.next().ok_or("incomplete escape sequence")?;
    let simple = match c {
        'n' => Some(10),
        't' => Some(9),
        'r' => Some(13),
        'a' => Some(7),
        'b' => Some(8),
        'f' => Some(12),
        'v' => Some(11),
        'e' | 'E' => Some(27),
        '\\' | '\'' | '"' | '?' => Some(c as u32),
        _ => None,
    };
    if let Some(v) = simple {
        return Ok((v, chars.as_str()));
    }
    let (radix, body, max_len) = match c {
        'x' => (16, chars.as_str(), usize::MAX),
        '0'..='7' => (8, rest, 3),
        _ => return Err(format!("unknown escape sequence `\\{c}`")),
    };
    let len = body
        .chars()
        .take(max_len)
        .take_while(|c| c.is_digit(radix))
        .count();
    if len == 0 {
        return Err("\\x used with no following hex digits".into());
    }
    let (digits, after) = body.split_at(len);
    let value = u64::from_str_radix(digits, radix)
        .map_err(|_| "escape sequence out of range".to_string())?;
    Ok((u32::try_from(value).unwrap_or(u32::MAX), after))
}

/// The values of a literal's body: an escape gives its value, a source
/// character its UTF-8 bytes, or for a `wide` literal its code point.
fn decode(body: &str, wide: bool) -> Result<Vec<u32>, String> {
    let mut units = Vec::new();
    let mut rest = body;
    while let Some(c) = rest.chars().next() {
        if c == '\\' {
            let (value, after) = escape(&rest[1..])?;
            units.push(value);
            rest = after;
        } else {
            if wide {
                units.push(u32::from(c));
            } else {
                let mut buf = [0u8; 4];
                units.extend(c.encode_utf8(&mut buf).bytes().map(u32::from));
            }
            rest = &rest[c.len_utf8()..];
        }
    }
    Ok(units)
}

/// The type and value of a character constant such as `'a'`, `'\n'`, `L'x'`.
pub(crate) fn char_constant(raw: &str) -> Result<(IntType, i128), String> {
    let quote = raw.find('\'').ok_or("malformed character constant")?;
    let (prefix, quoted) = raw.split_at(quote);
    let body = quoted
        .get(1..quoted.len().saturating_sub(1))
        .ok_or("malformed character constant")?;
    let units = decode(body, !prefix.is_empty())?;
    match prefix {
        "" => {
            // gcc: each char is a byte; several chars are packed big-end first into an int.
            let mut value: u32 = 0;
            for u in &units {
                value = (value << 8) | (u & 0xff);
            }
            if units.len() == 1 {
                Ok((IntType::INT, IntType::CHAR.value_of(u128::from(value))))
            } else {
                Ok((IntType::INT, IntType::INT.value_of(u128::from(value))))
            }
        }
        "L" => Ok((
            IntType::INT,
            i128::from(units.last().copied().unwrap_or(0) as i32),
        )),
        "u" => Ok((
            IntType::USHORT,
            i128::from(units.last().copied().unwrap_or(0) & 0xffff),
        )),
        "U" => Ok((
            IntType::UINT,
            i128::from(units.last().copied().unwrap_or(0)),
        )),
        _ => Err(format!("unsupported: character constant prefix `{prefix}`")),
    }
}

/// A (possibly concatenated) string literal as the target stores it, NUL
/// included: bytes for `"..."` and `u8"..."`, UTF-16 units for `u"..."`,
/// UTF-32 for `U"..."` and `L"..."` (`wchar_t` is `int`), little-endian.
pub(crate) struct StringLiteral {
    /// The type of one element.
    pub unit: IntType,
    pub bytes: Vec<u8>,
}

impl StringLiteral {
    /// How many elements it has, NUL included.
    pub fn len(&self) -> usize {
        self.bytes.len() / usize::from(self.unit.bits / 8)
    }

    /// The raw bits of each element.
    pub fn units(&self) -> impl Iterator<Item = u128> + '_ {
        self.bytes
            .chunks(usize::from(self.unit.bits / 8))
            .map(|unit| {
                unit.iter()
                    .rev()
                    .fold(0u128, |value, byte| (value << 8) | u128::from(*byte))
            })
    }
}

/// The pieces of a string literal, joined. Pieces without a prefix take
/// the one prefix the others have (C11 6.4.5).
pub(crate) fn string_literal(pieces: &[String]) -> Result<StringLiteral, String> {
    let mut parts = Vec::new();
    let mut wide: Option<&str> = None;
    for piece in pieces {
        let quote = piece.find('"').ok_or("malformed string literal")?;
        let (prefix, quoted) = piece.split_at(quote);
        let body = quoted
            .get(1..quoted.len().saturating_sub(1))
            .ok_or("malformed string literal")?;
        match prefix {
            "" | "u8" => {}
            "L" | "u" | "U" if wide.is_none_or(|w| w == prefix) => wide = Some(prefix),
            "L" | "u" | "U" => {
                return Err("string literals of different kinds are concatenated".into())
            }
            _ => return Err(format!("unsupported: string literal prefix `{prefix}`")),
        }
        parts.push(body);
    }
    let mut values = Vec::new();
    for body in parts {
        values.extend(decode(body, wide.is_some())?);
    }
    values.push(0);
    let (unit, units): (IntType, Vec<u32>) = match wide {
        None => (IntType::CHAR, values.iter().map(|v| v & 0xff).collect()),
        Some("u") => (IntType::USHORT, utf16(&values)),
        Some("U") => (IntType::UINT, values),
        Some(_) => (IntType::INT, values),
    };
    let width = usize::from(unit.bits / 8);
    let bytes = units
        .iter()
        .flat_map(|unit| unit.to_le_bytes().into_iter().take(width))
        .collect();
    Ok(StringLiteral { unit, bytes })
}

/// Code points as UTF-16 units: those beyond 16 bits as surrogate pairs
/// (an escape's value below that is one unit, as gcc takes it).
fn utf16(values: &[u32]) -> Vec<u32> {
    let mut units = Vec::new();
    for value in values {
        match char::from_u32(*value).filter(|c| u32::from(*c) > 0xffff) {
            Some(c) => {
                let mut pair = [0u16; 2];
                units.extend(c.encode_utf16(&mut pair).iter().map(|u| u32::from(*u)));
            }
            None => units.push(value & 0xffff),
        }
    }
    units
}

/// The bytes of a narrow string literal, NUL included.
pub(crate) fn string_bytes(pieces: &[String]) -> Result<Vec<u8>, String> {
    let literal = string_literal(pieces)?;
    if literal.unit != IntType::CHAR {
        return Err("unsupported: a wide string literal here".into());
    }
    Ok(literal.bytes)
}

fn mask(bits: u16) -> u128 {
    if bits >= 128 {
        u128::MAX
    } else {
        (1u128 << bits) - 1
    }
}

/// Converts the raw bits of a value of type `from` to type `to`.
pub(crate) fn convert(from: IntType, to: IntType, raw: u128) -> u128 {
    let value = from.value_of(raw);
    if to.is_bool {
        u128::from(value != 0)
    } else {
        (value as u128) & mask(to.bits)
    }
}

/// Folds a unary operator on a constant of type `ty`. `!` yields an `int`.
/// `None` where C has no value (leading or trailing zeros of 0).
pub(crate) fn fold_unary(op: UnOp, ty: IntType, raw: u128) -> Option<u128> {
    let value = raw & mask(ty.bits);
    // Zeros are counted in the type's width, not in the u128 holding it.
    let unused_bits = 128 - u32::from(ty.bits);
    Some(match op {
        UnOp::Neg => raw.wrapping_neg() & mask(ty.bits),
        UnOp::Not => !raw & mask(ty.bits),
        UnOp::LogicalNot => u128::from(value == 0),
        UnOp::LeadingZeros if value != 0 => u128::from(value.leading_zeros() - unused_bits),
        UnOp::TrailingZeros if value != 0 => u128::from(value.trailing_zeros()),
        UnOp::LeadingZeros | UnOp::TrailingZeros => return None,
        UnOp::CountOnes => u128::from(value.count_ones()),
        UnOp::SignBit => return None,
    })
}

/// Folds a binary operator on constants. Arithmetic operands are both of
/// type `ty`; for shifts `ty` is the left operand's type and `b` the count
/// of type `b_ty`. Comparisons yield `int` 0/1. `None` where C has no value
/// (division by zero, shift count out of range).
pub(crate) fn fold_binary(op: BinOp, ty: IntType, a: u128, b_ty: IntType, b: u128) -> Option<u128> {
    let m = mask(ty.bits);
    let (sa, sb) = (ty.value_of(a), ty.value_of(b));
    let cmp = |ord: std::cmp::Ordering| {
        let ord_of = |x: i128, y: i128| x.cmp(&y);
        u128::from(ord_of(sa, sb) == ord)
    };
    let result = match op {
        BinOp::Add => a.wrapping_add(b) & m,
        BinOp::Sub => a.wrapping_sub(b) & m,
        BinOp::Mul => (sa.wrapping_mul(sb) as u128) & m,
        BinOp::Div | BinOp::Rem => {
            if sb == 0 {
                return None;
            }
            let r = if op == BinOp::Div {
                sa.wrapping_div(sb)
            } else {
                sa.wrapping_rem(sb)
            };
            (r as u128) & m
        }
        BinOp::Shl | BinOp::Shr => {
            let count = b_ty.value_of(b);
            if count < 0 || count >= i128::from(ty.bits) {
                return None;
            }
            if op == BinOp::Shl {
                (a << count) & m
            } else {
                (sa >> count) as u128 & m
            }
        }
        BinOp::BitAnd => a & b & m,
        BinOp::BitOr => (a | b) & m,
        BinOp::BitXor => (a ^ b) & m,
        BinOp::Eq => u128::from(sa == sb),
        BinOp::Ne => u128::from(sa != sb),
        BinOp::MulOverflows => {
            let (min, max) = ty.range();
            u128::from(sa.checked_mul(sb).is_none_or(|p| p < min || p > max))
        }
        BinOp::Lt => cmp(std::cmp::Ordering::Less),
        BinOp::Gt => cmp(std::cmp::Ordering::Greater),
        BinOp::Le => u128::from(sa <= sb),
        BinOp::Ge => u128::from(sa >= sb),
    };
    Some(result)
}

#[cfg(test)]
mod tests {
    use super::*;
    use lang_c::ast::IntegerSuffix;

    fn lit_for(
        model: DataModel,
        number: &str,
        base: IntegerBase,
        unsigned: bool,
        size: IntegerSize,
    ) -> (IntType, u128) {
        let suffix = IntegerSuffix {
            size,
            unsigned,
            imaginary: false,
        };
        let integer = Integer {
            base,
            number: number.into(),
            suffix,
        };
        literal(&integer, model).unwrap()
    }

    fn lit(number: &str, base: IntegerBase, unsigned: bool, size: IntegerSize) -> (IntType, u128) {
        lit_for(DataModel::Lp64, number, base, unsigned, size)
    }

    #[test]
    fn literal_types_under_ilp32_rank_long_as_32_bits() {
        use IntegerBase::*;
        use IntegerSize::*;
        let lit = |n, base, unsigned, size| lit_for(DataModel::Ilp32, n, base, unsigned, size).0;
        assert_eq!(lit("2147483648", Decimal, false, Int), IntType::LONG_LONG);
        assert_eq!(lit("80000000", Hexadecimal, false, Long), IntType::UINT);
        assert_eq!(lit("1", Decimal, false, Long), IntType::INT);
        assert_eq!(lit("4294967295", Decimal, true, Long), IntType::UINT);
        assert_eq!(lit("4294967296", Decimal, true, Long), IntType::ULONG_LONG);
        assert_eq!(lit("1", Decimal, false, LongLong), IntType::LONG_LONG);
    }

    #[test]
    fn literal_types_follow_base_and_suffix() {
        use IntegerBase::*;
        use IntegerSize::*;
        assert_eq!(lit("2147483647", Decimal, false, Int).0, IntType::INT);
        assert_eq!(lit("2147483648", Decimal, false, Int).0, IntType::LONG_LONG);
        assert_eq!(lit("80000000", Hexadecimal, false, Int).0, IntType::UINT);
        assert_eq!(
            lit("100000000", Hexadecimal, false, Int).0,
            IntType::LONG_LONG
        );
        assert_eq!(
            lit("8000000000000000", Hexadecimal, false, Int).0,
            IntType::ULONG_LONG
        );
        assert_eq!(
            lit("9223372036854775808", Decimal, false, Int).0,
            IntType::ULONG_LONG
        );
        assert_eq!(lit("1", Decimal, true, Int).0, IntType::UINT);
        assert_eq!(lit("1", Decimal, false, Long).0, IntType::LONG_LONG);
        assert_eq!(lit("1", Decimal, true, LongLong).0, IntType::ULONG_LONG);
        assert_eq!(lit("17", Octal, false, Int), (IntType::INT, 15));
    }

    #[test]
    fn character_constants_are_int_with_signed_char_value() {
        assert_eq!(char_constant("'a'").unwrap(), (IntType::INT, 97));
        assert_eq!(char_constant("'\\xff'").unwrap(), (IntType::INT, -1));
        assert_eq!(char_constant("'\\0'").unwrap(), (IntType::INT, 0));
        assert_eq!(char_constant("'\\377'").unwrap(), (IntType::INT, -1));
        assert_eq!(char_constant("'ab'").unwrap(), (IntType::INT, 0x6162));
        assert_eq!(char_constant("'\\n'").unwrap(), (IntType::INT, 10));
    }

    #[test]
    fn strings_concatenate_and_end_with_nul() {
        let pieces = vec!["\"a\\tb\"".to_string(), "\"\\x41\\101\"".to_string()];
        assert_eq!(string_bytes(&pieces).unwrap(), b"a\tbAA\0".to_vec());
        assert!(string_bytes(&["L\"x\"".to_string()]).is_err());
    }

    #[test]
    fn wide_strings_are_stored_in_their_units() {
        let units = |pieces: &[&str]| {
            let pieces: Vec<String> = pieces.iter().map(|p| p.to_string()).collect();
            let literal = string_literal(&pieces).expect("a valid literal");
            (literal.unit, literal.units().collect::<Vec<u128>>())
        };
        // A plain piece takes the wide prefix of the other; `é` is one unit.
        assert_eq!(
            units(&["L\"h\u{e9}\"", "\"!\""]),
            (IntType::INT, vec![0x68, 0xe9, 0x21, 0])
        );
        assert_eq!(units(&["U\"\\x1F600\""]), (IntType::UINT, vec![0x1f600, 0]));
        // Beyond 16 bits, a char16_t string holds a surrogate pair.
        assert_eq!(
            units(&["u\"\u{1F600}\""]),
            (IntType::USHORT, vec![0xd83d, 0xde00, 0])
        );
        let bytes = string_literal(&["L\"a\"".to_string()])
            .expect("valid")
            .bytes;
        assert_eq!(bytes, vec![0x61, 0, 0, 0, 0, 0, 0, 0]);
        assert!(string_literal(&["L\"a\"".to_string(), "u\"b\"".to_string()]).is_err());
    }

    #[test]
    fn promotions_and_usual_arithmetic_conversions() {
        assert_eq!(promote(IntType::UCHAR), IntType::INT);
        assert_eq!(promote(IntType::BOOL), IntType::INT);
        assert_eq!(promote(IntType::UINT), IntType::UINT);
        assert_eq!(usual_arithmetic(IntType::INT, IntType::UINT), IntType::UINT);
        assert_eq!(
            usual_arithmetic(IntType::LONG_LONG, IntType::UINT),
            IntType::LONG_LONG
        );
        assert_eq!(
            usual_arithmetic(IntType::ULONG_LONG, IntType::LONG_LONG),
            IntType::ULONG_LONG
        );
        assert_eq!(
            usual_arithmetic(IntType::SHORT, IntType::USHORT),
            IntType::INT
        );
        assert_eq!(
            usual_arithmetic(IntType::CHAR, IntType::LONG_LONG),
            IntType::LONG_LONG
        );
    }

    #[test]
    fn folding_wraps_like_the_machine() {
        let (i, u) = (IntType::INT, IntType::UINT);
        assert_eq!(
            fold_binary(BinOp::Add, i, 0x7fff_ffff, i, 1),
            Some(0x8000_0000)
        );
        assert_eq!(
            fold_binary(BinOp::Div, i, (-7i128) as u128 & 0xffff_ffff, i, 2),
            Some((-3i128) as u128 & 0xffff_ffff)
        );
        assert_eq!(fold_binary(BinOp::Lt, u, 0xffff_ffff, u, 1), Some(0));
        assert_eq!(fold_binary(BinOp::Lt, i, 0xffff_ffff, i, 1), Some(1));
        assert_eq!(
            fold_binary(BinOp::Shr, i, 0x8000_0000, i, 31),
            Some(0xffff_ffff)
        );
        assert_eq!(fold_binary(BinOp::Shl, i, 1, i, 32), None);
        assert_eq!(fold_binary(BinOp::Rem, i, 1, i, 0), None);
        assert_eq!(convert(IntType::INT, IntType::UCHAR, 0x1ff), 0xff);
        assert_eq!(
            convert(IntType::CHAR, IntType::LONG_LONG, 0xff),
            u128::from(u64::MAX)
        );
        assert_eq!(convert(IntType::INT, IntType::BOOL, 4), 1);
    }
}
