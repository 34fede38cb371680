//! Text to integer: one reader of an integer's characters, as glibc's
//! `strtol` reads them, shared by the `strtol` and `atoi` families and by
//! `sscanf`'s integer conversions.

use super::{is_char, returns_int, Args, CharClass, Model, Source, EINVAL, ERANGE};
use crate::exec::{Exec, Machine};
use crate::state::State;
use crate::value::{cond_value, resize, Cond, PtrVal, SymVal, Word};
use ir::{IntType, Type};
use testcase::Bound;

/// How an integer is written: strtol's or scanf's rules.
pub(super) struct Syntax {
    /// 0 (decided by the number's start: `0x` for 16, `0` for 8, else 10) or 2..=36.
    pub base: u32,
    /// Most characters of the number, not counting leading white space (scanf's width).
    pub width: Option<u64>,
    /// strtol takes `0x` as a prefix only before a hexadecimal digit (else
    /// the number is the `0`); scanf consumes it anyway.
    pub prefix_needs_digit: bool,
}

/// An integer read from text.
pub(super) struct Integer {
    /// Index, from the source pointer, of the first character after the
    /// number (meaningful when `converted`).
    pub end: Word,
    /// At least one digit was read.
    pub converted: Cond,
    /// Only white space came before the terminating NUL (scanf's input failure).
    pub empty: Cond,
    pub negative: Cond,
    /// The digits' value, as wide as the digits read may need: a short
    /// number plainly fits, for the solver too. Past 64 bits it is 72 bits
    /// wide and stops growing at 2^64 (an overflow).
    magnitude: Word,
    /// A character the reader read lies outside the object.
    pub read_outside: Cond,
}

impl Integer {
    /// The value as strtol (`signed`) or strtoul returns it in `width` bits
    /// (the width of its `long` or `long long`), and whether it is out of
    /// range (clamped, `errno` set to `ERANGE`).
    pub fn value(&self, signed: bool, width: u32) -> (Word, Cond) {
        let bits = self.magnitude.get_size();
        let low = resize(&self.magnitude, width, false);
        let wrapped = self.negative.ite(&low.bvneg(), &low);
        let overflow = if bits > width {
            self.magnitude
                .extract(bits - 1, width)
                .eq(Word::known(0, bits - width))
                .not()
        } else {
            Cond::Known(false)
        };
        if !signed {
            return (
                overflow.ite(&Word::known(u128::MAX, width), &wrapped),
                overflow,
            );
        }
        // LONG_MIN's magnitude is 2^(width-1), LONG_MAX one less: the
        // limits and the clamped values have the same bits.
        let half = 1u128 << (width - 1);
        let limit = self
            .negative
            .ite(&Word::known(half, width), &Word::known(half - 1, width));
        if bits < width {
            return (wrapped, Cond::Known(false));
        }
        let out_of_range = self.magnitude.bvugt(resize(&limit, bits, false));
        (out_of_range.ite(&limit, &wrapped), out_of_range)
    }
}

/// The most characters (white space, sign, prefix and digits) the reader
/// follows: any 64-bit number fits (the longest, in octal, has 23), and
/// the solver's work grows fast with the characters it must consider.
const LONGEST_NUMBER: u64 = 24;

/// Where reading an integer is, before a character: at most one holds,
/// none when the number has ended.
struct Phase {
    /// In the leading white space (or at the first character).
    spaces: Cond,
    after_sign: Cond,
    /// At the `x` of a `0x` prefix.
    at_x: Cond,
    digits: Cond,
}

impl Phase {
    fn alive(&self) -> Cond {
        Cond::or(&[
            self.spaces.clone(),
            self.after_sign.clone(),
            self.at_x.clone(),
            self.digits.clone(),
        ])
    }
}

impl Machine<'_, '_> {
    /// Reads an integer from byte `start` of `src` as glibc's strtol does:
    /// white space, a sign, a `0x` prefix where the base allows one, then
    /// digits of the base. One pass over the bytes, the phase symbolic;
    /// base 0 is decided first (forking when the input may start either way).
    pub(super) fn read_integer(
        &mut self,
        st: &mut State,
        src: &Source,
        start: &Word,
        syntax: &Syntax,
    ) -> Exec<Integer> {
        let base = match syntax.base {
            0 => self.decide_base(st, src, start, syntax)?,
            b => b,
        };
        let room = |used: &Option<Word>, n: u64| match (syntax.width, used) {
            (Some(w), Some(used)) => used
                .bvadd(Word::known(u128::from(n), 64))
                .bvule(Word::known(u128::from(w), 64)),
            _ => Cond::Known(true),
        };
        let no = || Cond::Known(false);
        let mut phase = Phase {
            spaces: Cond::Known(true),
            after_sign: no(),
            at_x: no(),
            digits: no(),
        };
        let mut negative = no();
        let mut magnitude = Word::known(0, 1);
        let mut converted = no();
        let mut empty = no();
        // Characters of the number so far, counted for a width only.
        let mut used = syntax.width.map(|_| Word::known(0, 64));
        let mut outside = Vec::new();
        let mut stops = Vec::new();
        let capacity = st.object(src.obj).capacity();
        for j in 0..=capacity {
            self.keep_going()?;
            let alive = phase.alive();
            if cond_value(&alive) == Some(false) {
                break;
            }
            if j + 1 == capacity {
                self.note_scan_past_capacity(st, &[src.obj], &alive);
            }
            if j == LONGEST_NUMBER {
                if self.may(st, &alive) {
                    self.assume(st, &alive.not())?;
                    self.note_cut(st, Bound::LongNumber);
                }
                break;
            }
            let at = start.bvadd(Word::known(u128::from(j), 64));
            let c = src.byte(st, &at)?;
            outside.push(Cond::and(&[
                alive.clone(),
                src.inside(self.program, st, &at).not(),
            ]));
            let space = CharClass::Space.holds(&c);
            let first = Cond::and(&[phase.spaces.clone(), space.not()]);
            empty = Cond::or(&[empty, Cond::and(&[first.clone(), is_char(&c, 0)])]);
            let sign = Cond::and(&[
                first.clone(),
                Cond::or(&[is_char(&c, b'+'), is_char(&c, b'-')]),
                room(&used, 1),
            ]);
            negative = sign.ite_cond(&is_char(&c, b'-'), &negative);
            // Where a prefix or the first digit may stand.
            let slot = Cond::or(&[Cond::and(&[first, sign.not()]), phase.after_sign.clone()]);
            let prefix = if base == 16 {
                let (prefix, reads_outside) =
                    self.hex_prefix(st, src, &at, syntax, room(&used, 2))?;
                outside.push(Cond::and(&[slot.clone(), reads_outside]));
                Cond::and(&[slot.clone(), prefix])
            } else {
                no()
            };
            let in_digits = Cond::or(&[Cond::and(&[slot, prefix.not()]), phase.digits.clone()]);
            let value = digit_value(&c, base > 10);
            let digit = Cond::and(&[
                in_digits,
                value.bvult(Word::known(u128::from(base), 8)),
                room(&used, 1),
            ]);
            let next_magnitude = times_base_plus(&magnitude, base, &value, j + 1);
            let kept = resize(&magnitude, next_magnitude.get_size(), false);
            magnitude = digit.ite(&next_magnitude, &kept);
            converted = Cond::or(&[converted, digit.clone(), prefix.clone()]);
            if let Some(count) = &used {
                let consumed = Cond::or(&[
                    sign.clone(),
                    prefix.clone(),
                    phase.at_x.clone(),
                    digit.clone(),
                ]);
                used = Some(consumed.ite(&count.bvadd(Word::known(1, 64)), count));
            }
            phase = Phase {
                spaces: Cond::and(&[phase.spaces.clone(), space]),
                after_sign: sign,
                digits: Cond::or(&[phase.at_x.clone(), digit]),
                at_x: prefix,
            };
            stops.push((Cond::and(&[alive, phase.alive().not()]), at));
        }
        let mut end = start.clone();
        for (stop, at) in stops.into_iter().rev() {
            end = stop.ite(&at, &end);
        }
        Ok(Integer {
            end,
            converted,
            empty,
            negative,
            magnitude,
            read_outside: Cond::or(&outside),
        })
    }

    /// Whether a `0x` prefix starts at `at` (glibc reads the character
    /// after a `0` and, in strtol, the one after the `x`, which must be a
    /// hexadecimal digit there), and whether those reads may leave the
    /// object. `room`: the width leaves two characters.
    fn hex_prefix(
        &self,
        st: &State,
        src: &Source,
        at: &Word,
        syntax: &Syntax,
        room: Cond,
    ) -> Exec<(Cond, Cond)> {
        let zero = is_char(&src.byte(st, at)?, b'0');
        let next = at.bvadd(Word::known(1, 64));
        let mut outside = vec![Cond::and(&[
            zero.clone(),
            src.inside(self.program, st, &next).not(),
        ])];
        let x = is_char(&src.byte(st, &next)?.bvor(Word::known(0x20, 8)), b'x');
        let mut parts = vec![zero, x, room];
        if syntax.prefix_needs_digit {
            let after = at.bvadd(Word::known(2, 64));
            outside.push(Cond::and(&[
                Cond::and(&parts),
                src.inside(self.program, st, &after).not(),
            ]));
            parts.push(CharClass::Xdigit.holds(&src.byte(st, &after)?));
        }
        Ok((Cond::and(&parts), Cond::or(&outside)))
    }

    /// The base that base 0 stands for: 16 after a `0x` prefix, 8 after
    /// another `0`, else 10, read from the number's first characters. One
    /// reader per base keeps the terms small.
    fn decide_base(
        &mut self,
        st: &mut State,
        src: &Source,
        start: &Word,
        syntax: &Syntax,
    ) -> Exec<u32> {
        let room = |used: u64| match syntax.width {
            Some(w) => Cond::Known(used <= w),
            None => Cond::Known(true),
        };
        let mut spaces = Cond::Known(true);
        let mut after_sign = Cond::Known(false);
        let mut hex = Vec::new();
        let mut octal = Vec::new();
        let cap = st.object(src.obj).capacity();
        for j in 0..LONGEST_NUMBER.min(cap + 1) {
            let at = start.bvadd(Word::known(u128::from(j), 64));
            let c = src.byte(st, &at)?;
            let first = Cond::and(&[spaces.clone(), CharClass::Space.holds(&c).not()]);
            let sign = Cond::and(&[
                first.clone(),
                Cond::or(&[is_char(&c, b'+'), is_char(&c, b'-')]),
                room(1),
            ]);
            // The sign counts in a width; here `after_sign` means one was read.
            for (slot, used) in [(Cond::and(&[first, sign.not()]), 0), (after_sign, 1)] {
                let (prefix, _) = self.hex_prefix(st, src, &at, syntax, room(used + 2))?;
                let zero = Cond::and(&[is_char(&c, b'0'), room(used + 1), prefix.not()]);
                hex.push(Cond::and(&[slot.clone(), prefix]));
                octal.push(Cond::and(&[slot, zero]));
            }
            spaces = Cond::and(&[spaces, CharClass::Space.holds(&c)]);
            after_sign = sign;
        }
        let (hex, octal) = (Cond::or(&hex), Cond::or(&octal));
        let decimal = Cond::and(&[hex.not(), octal.not()]);
        self.choose(st, vec![(hex, 16), (octal, 8), (decimal, 10)])
    }

    /// `strtol`, `strtoll`, `strtoul`, `strtoull`: the value, `*endptr`
    /// (after the number, or the string when there is none) and `errno`
    /// (`ERANGE` when clamped, `EINVAL` for a base glibc refuses).
    pub(super) fn strtol(&mut self, st: &mut State, args: &Args) -> Exec<Model> {
        let (nptr, endptr) = (args.ptr(0)?, args.ptr(1)?);
        let base = self.concretise(st, &args.int(2)?)?;
        let base = match u32::try_from(base) {
            Ok(b @ (0 | 2..=36)) => b,
            _ => {
                self.set_errno_if(st, &Cond::Known(true), EINVAL)?;
                return returns_int(Word::known(0, 64));
            }
        };
        let end_object = self.optional_target(st, &endptr)?;
        let width = self.result_width(args.name);
        let unsigned = args.name.starts_with("strtou");
        let (value, number) = self.convert(st, &nptr, base, unsigned, width)?;
        if let Some(obj) = end_object {
            let end = number.converted.ite(&number.end, &Word::known(0, 64));
            let loc = crate::exec::place::Loc {
                obj,
                off: endptr.offset.clone(),
                ty: Type::ptr(Type::Int(IntType::CHAR)),
                bits: None,
            };
            let after = PtrVal {
                target: nptr.target.clone(),
                offset: nptr.offset.bvadd(&end),
            };
            self.store(st, &loc, &SymVal::Ptr(after))?;
        }
        returns_int(value)
    }

    /// `atoi`, `atol`, `atoll`: glibc's `strtol(nptr, NULL, 10)` (`strtoll`
    /// for `atoll`), `errno` included, converted to the result type.
    pub(super) fn atoi(&mut self, st: &mut State, args: &Args) -> Exec<Model> {
        let width = self.result_width(args.name);
        let (value, _) = self.convert(st, &args.ptr(0)?, 10, false, width)?;
        let bits = if args.name == "atoi" { 32 } else { width };
        returns_int(resize(&value, bits, true))
    }

    /// The width of the `long` (or, for a name ending in `ll`, `long long`)
    /// that a strtol-family function computes in.
    fn result_width(&self, name: &str) -> u32 {
        if name.ends_with("ll") {
            64
        } else {
            u32::from(self.program.data_model.long().bits)
        }
    }

    /// strtol's (or strtoul's) conversion of the string at `nptr`: the
    /// result in `width` bits, `errno` set, reading past the object a finding.
    fn convert(
        &mut self,
        st: &mut State,
        nptr: &PtrVal,
        base: u32,
        unsigned: bool,
        width: u32,
    ) -> Exec<(Word, Integer)> {
        let src = self.source(st, nptr)?;
        let syntax = Syntax {
            base,
            width: None,
            prefix_needs_digit: true,
        };
        let number = self.read_integer(st, &src, &Word::known(0, 64), &syntax)?;
        self.bounds_fault(
            st,
            &[src.obj],
            &number.read_outside,
            "read past the end of an object",
        )?;
        let (value, out_of_range) = number.value(!unsigned, width);
        self.set_errno_if(st, &out_of_range, ERANGE)?;
        Ok((value, number))
    }
}

/// The value of character `c` as a digit (letters from 10 when `letters`),
/// or 255 when it is none.
fn digit_value(c: &Word, letters: bool) -> Word {
    let decimal = c.bvsub(Word::known(u128::from(b'0'), 8));
    if !letters {
        return decimal;
    }
    let in_range = |lo: u8, hi: u8| {
        Cond::and(&[
            c.bvuge(Word::known(u128::from(lo), 8)),
            c.bvule(Word::known(u128::from(hi), 8)),
        ])
    };
    let from = |lo: u8| c.bvsub(Word::known(u128::from(lo - 10), 8));
    in_range(b'0', b'9').ite(
        &decimal,
        &in_range(b'a', b'z').ite(
            &from(b'a'),
            &in_range(b'A', b'Z').ite(&from(b'A'), &Word::known(255, 8)),
        ),
    )
}

/// `magnitude * base + digit` as wide as `digits` digits may need (see
/// [`Integer::magnitude`]).
fn times_base_plus(magnitude: &Word, base: u32, digit: &Word, digits: u64) -> Word {
    let bits = magnitude_bits(u64::from(base), digits);
    let wide = resize(magnitude, bits, false);
    let product = wide
        .bvmul(Word::known(u128::from(base), bits))
        .bvadd(resize(digit, bits, false));
    if bits <= 64 {
        return product;
    }
    // Past 2^64 the number has overflowed: it stays there.
    let overflowed = Word::known(1 << 64, bits);
    wide.bvuge(&overflowed).ite(&overflowed, &product)
}

/// The bits that hold every number of `digits` digits in base `b`, or 72
/// when some do not fit in 64 (room for 2^64 times 36 and a digit).
fn magnitude_bits(b: u64, digits: u64) -> u32 {
    let mut largest: u128 = 0;
    for _ in 0..digits {
        largest = largest * u128::from(b) + u128::from(b - 1);
        if largest > u128::from(u64::MAX) {
            return 72;
        }
    }
    (128 - largest.leading_zeros()).max(1)
}
