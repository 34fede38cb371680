//! Text to integer: one reader of an integer's characters, as glibc's
//! `strtol` reads them, shared by the `strtol` and `atoi` families and by
//! `sscanf`'s integer conversions.

use super::{is_char, returns_int, Args, CharClass, Model, Source, EINVAL, ERANGE};
use crate::exec::{Exec, Machine};
use crate::state::State;
use crate::value::{bool_value, bv_u, resize, PtrVal, SymVal};
use ir::{IntType, Type};
use z3::ast::{Bool, BV};

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
    pub end: BV,
    /// At least one digit was read.
    pub converted: Bool,
    /// Only white space came before the terminating NUL (scanf's input failure).
    pub empty: Bool,
    pub negative: Bool,
    /// The digits' value, modulo 2^64, and whether it exceeds 2^64 - 1.
    pub magnitude: BV,
    pub overflow: Bool,
    /// Digits read since the first nonzero one, and its most in the
    /// syntax's base: for the solver, a short number is plainly in range.
    significant: BV,
    fits_in_63_bits: u64,
    /// A character the reader read lies outside the object.
    pub read_outside: Bool,
}

impl Integer {
    /// The value as strtol (`signed`) or strtoul returns it in 64 bits, and
    /// whether it is out of range (clamped, `errno` set to `ERANGE`).
    pub fn value(&self, signed: bool) -> (BV, Bool) {
        let wrapped = self
            .negative
            .ite(&self.magnitude.bvneg(), &self.magnitude);
        if !signed {
            return (
                self.overflow.ite(&bv_u(u128::from(u64::MAX), 64), &wrapped),
                self.overflow.clone(),
            );
        }
        // LONG_MIN's magnitude is 2^63, LONG_MAX 2^63 - 1: the limits and
        // the clamped values have the same bits.
        let limit = self
            .negative
            .ite(&bv_u(1 << 63, 64), &bv_u((1 << 63) - 1, 64));
        let long = self
            .significant
            .bvugt(bv_u(u128::from(self.fits_in_63_bits), 8));
        let beyond = Bool::and(&[long, self.magnitude.bvugt(&limit)]);
        let out_of_range = Bool::or(&[self.overflow.clone(), beyond]);
        (out_of_range.ite(&limit, &wrapped), out_of_range)
    }
}

/// Phases of reading an integer.
const SPACES: u64 = 0;
const AFTER_SIGN: u64 = 1;
/// At the `x` of a `0x` prefix.
const PREFIX_X: u64 = 2;
const DIGITS: u64 = 3;
const DONE: u64 = 4;

impl Machine<'_, '_> {
    /// Reads an integer from byte `start` of `src` as glibc's strtol does:
    /// white space, a sign, a `0x` prefix where the base allows one, then
    /// digits of the base. One pass over the bytes, the phase symbolic.
    pub(super) fn read_integer(
        &mut self,
        st: &State,
        src: &Source,
        start: &BV,
        syntax: &Syntax,
    ) -> Exec<Integer> {
        let phase_is = |phase: &BV, p: u64| phase.eq(bv_u(u128::from(p), 3));
        let room = |used: &BV, n: u64| match syntax.width {
            Some(w) => used
                .bvadd(bv_u(u128::from(n), 64))
                .bvule(bv_u(u128::from(w), 64)),
            None => Bool::from_bool(true),
        };
        let prefix_allowed = syntax.base == 0 || syntax.base == 16;
        let letters = syntax.base == 0 || syntax.base > 10;
        let mut phase = bv_u(u128::from(SPACES), 3);
        let mut base = bv_u(u128::from(syntax.base), 8);
        let mut negative = Bool::from_bool(false);
        let mut magnitude = bv_u(0, 64);
        let mut significant = bv_u(0, 8);
        let mut overflow = Bool::from_bool(false);
        let mut converted = Bool::from_bool(false);
        let mut empty = Bool::from_bool(false);
        let mut used = bv_u(0, 64);
        let mut outside = Vec::new();
        let mut stops = Vec::new();
        for j in 0..=st.object(src.obj).capacity() {
            let alive = phase_is(&phase, DONE).not();
            if bool_value(&alive) == Some(false) {
                break;
            }
            let at = start.bvadd(bv_u(u128::from(j), 64));
            let c = src.byte(st, &at)?;
            outside.push(Bool::and(&[
                alive.clone(),
                src.inside(self.program, st, &at).not(),
            ]));
            let in_spaces = phase_is(&phase, SPACES);
            let space = CharClass::Space.holds(&c);
            let first = Bool::and(&[in_spaces.clone(), space.not()]);
            empty = Bool::or(&[empty, Bool::and(&[first.clone(), is_char(&c, 0)])]);
            let sign = Bool::and(&[
                first.clone(),
                Bool::or(&[is_char(&c, b'+'), is_char(&c, b'-')]),
                room(&used, 1),
            ]);
            negative = sign.ite(&is_char(&c, b'-'), &negative);
            // Where a prefix or the first digit may stand.
            let slot = Bool::or(&[
                Bool::and(&[first, sign.not()]),
                phase_is(&phase, AFTER_SIGN),
            ]);
            let zero = is_char(&c, b'0');
            let prefix = if prefix_allowed {
                // glibc looks at the next character after a `0` (and, in
                // strtol, at the one after an `x`).
                let looks = Bool::and(&[alive.clone(), slot.clone(), zero.clone()]);
                let next = at.bvadd(bv_u(1, 64));
                outside.push(Bool::and(&[
                    looks.clone(),
                    src.inside(self.program, st, &next).not(),
                ]));
                let x = is_char(&src.byte(st, &next)?.bvor(bv_u(0x20, 8)), b'x');
                let mut parts = vec![looks, x, room(&used, 2)];
                if syntax.prefix_needs_digit {
                    let after = at.bvadd(bv_u(2, 64));
                    outside.push(Bool::and(&[
                        Bool::and(&parts),
                        src.inside(self.program, st, &after).not(),
                    ]));
                    parts.push(CharClass::Xdigit.holds(&src.byte(st, &after)?));
                }
                Bool::and(&parts)
            } else {
                Bool::from_bool(false)
            };
            if syntax.base == 0 {
                let decided = prefix.ite(
                    &bv_u(16, 8),
                    &zero.ite(&bv_u(8, 8), &bv_u(10, 8)),
                );
                base = slot.ite(&decided, &base);
            }
            let in_digits = Bool::or(&[
                Bool::and(&[slot, prefix.not()]),
                phase_is(&phase, DIGITS),
            ]);
            let value = digit_value(&c, letters);
            let digit = Bool::and(&[in_digits, value.bvult(&base), room(&used, 1)]);
            let (next_magnitude, carry) =
                times_base_plus(&magnitude, &base, syntax.base, &value, &significant, j);
            magnitude = digit.ite(&next_magnitude, &magnitude);
            let counts = Bool::and(&[
                digit.clone(),
                Bool::or(&[
                    significant.eq(bv_u(0, 8)).not(),
                    value.eq(bv_u(0, 8)).not(),
                ]),
                significant.eq(bv_u(255, 8)).not(),
            ]);
            significant = counts.ite(&significant.bvadd(bv_u(1, 8)), &significant);
            overflow = Bool::or(&[overflow, Bool::and(&[digit.clone(), carry])]);
            converted = Bool::or(&[converted, digit.clone(), prefix.clone()]);
            let at_x = phase_is(&phase, PREFIX_X);
            let consumed = Bool::or(&[sign.clone(), prefix.clone(), at_x.clone(), digit.clone()]);
            used = consumed.ite(&used.bvadd(bv_u(1, 64)), &used);
            let to = |p: u64| bv_u(u128::from(p), 3);
            let next = Bool::and(&[in_spaces, space]).ite(
                &to(SPACES),
                &sign.ite(
                    &to(AFTER_SIGN),
                    &prefix.ite(
                        &to(PREFIX_X),
                        &Bool::or(&[at_x, digit]).ite(&to(DIGITS), &to(DONE)),
                    ),
                ),
            );
            let next = alive.ite(&next, &to(DONE));
            stops.push((Bool::and(&[alive, phase_is(&next, DONE)]), at));
            phase = next;
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
            overflow,
            read_outside: Bool::or(&outside),
            significant,
            fits_in_63_bits: match syntax.base {
                0 => digits_that_fit(16, 63),
                b => digits_that_fit(u64::from(b), 63),
            },
        })
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
                self.set_errno_if(st, &Bool::from_bool(true), EINVAL)?;
                return returns_int(bv_u(0, 64));
            }
        };
        let end_object = self.optional_target(st, &endptr)?;
        let (value, number) = self.convert(st, &nptr, base, args.name.starts_with("strtou"))?;
        if let Some(obj) = end_object {
            let end = number.converted.ite(&number.end, &bv_u(0, 64));
            let loc = crate::exec::place::Loc {
                obj,
                off: endptr.offset.clone(),
                ty: Type::ptr(Type::Int(IntType::CHAR)),
            };
            let after = PtrVal {
                target: nptr.target.clone(),
                offset: nptr.offset.bvadd(&end),
            };
            self.store(st, &loc, &SymVal::Ptr(after))?;
        }
        returns_int(value)
    }

    /// `atoi`, `atol`, `atoll`: glibc's `strtol(nptr, NULL, 10)`, `errno` included.
    pub(super) fn atoi(&mut self, st: &mut State, args: &Args) -> Exec<Model> {
        let (value, _) = self.convert(st, &args.ptr(0)?, 10, false)?;
        let bits = if args.name == "atoi" { 32 } else { 64 };
        returns_int(resize(&value, bits, true))
    }

    /// strtol's (or strtoul's) conversion of the string at `nptr`: the
    /// 64-bit result, `errno` set, reading past the object a finding.
    fn convert(
        &mut self,
        st: &mut State,
        nptr: &PtrVal,
        base: u32,
        unsigned: bool,
    ) -> Exec<(BV, Integer)> {
        let src = self.source(st, nptr)?;
        let syntax = Syntax {
            base,
            width: None,
            prefix_needs_digit: true,
        };
        let number = self.read_integer(st, &src, &bv_u(0, 64), &syntax)?;
        self.bounds_fault(
            st,
            &[src.obj],
            &number.read_outside,
            "read past the end of an object",
        )?;
        let (value, out_of_range) = number.value(!unsigned);
        self.set_errno_if(st, &out_of_range, ERANGE)?;
        Ok((value, number))
    }
}

/// The value of character `c` as a digit (letters from 10 when `letters`),
/// or 255 when it is none.
fn digit_value(c: &BV, letters: bool) -> BV {
    let decimal = c.bvsub(bv_u(u128::from(b'0'), 8));
    if !letters {
        return decimal;
    }
    let in_range = |lo: u8, hi: u8| {
        Bool::and(&[
            c.bvuge(bv_u(u128::from(lo), 8)),
            c.bvule(bv_u(u128::from(hi), 8)),
        ])
    };
    let from = |lo: u8| c.bvsub(bv_u(u128::from(lo - 10), 8));
    in_range(b'0', b'9').ite(
        &decimal,
        &in_range(b'a', b'z').ite(
            &from(b'a'),
            &in_range(b'A', b'Z').ite(&from(b'A'), &bv_u(255, 8)),
        ),
    )
}

/// `magnitude * base + digit` modulo 2^64, and whether the true value
/// exceeds 2^64 - 1. `fixed` is the syntax's base (when 0, `base` is 8, 10
/// or 16 by the prefix): multiplications stay by constants. `significant`
/// counts the digits read before, since the first nonzero one, at most
/// `step` (the character's index): a number with at most as many digits
/// as always fit cannot overflow, one with two more always does, and only
/// the one in between needs the comparison. Plain reasons the solver sees
/// at once, where a bound on a chain of products would be a proof.
fn times_base_plus(
    magnitude: &BV,
    base: &BV,
    fixed: u32,
    digit: &BV,
    significant: &BV,
    step: u64,
) -> (BV, Bool) {
    let by = |b: u32| {
        let b = u64::from(b);
        let product = magnitude
            .bvmul(bv_u(u128::from(b), 64))
            .bvadd(digit.zero_ext(56));
        let fit = digits_that_fit(b, 64);
        if step < fit {
            return (product, Bool::from_bool(false));
        }
        let (most, rest) = (u64::MAX / b, u64::MAX % b);
        let too_big = Bool::or(&[
            magnitude.bvugt(bv_u(u128::from(most), 64)),
            Bool::and(&[
                magnitude.eq(bv_u(u128::from(most), 64)),
                digit.bvugt(bv_u(u128::from(rest), 8)),
            ]),
        ]);
        let carry = Bool::or(&[
            significant.bvugt(bv_u(u128::from(fit), 8)),
            Bool::and(&[significant.eq(bv_u(u128::from(fit), 8)), too_big]),
        ]);
        (product, carry)
    };
    match fixed {
        0 => {
            let (hex, octal, decimal) = (by(16), by(8), by(10));
            let is_hex = base.eq(bv_u(16, 8));
            let is_octal = base.eq(bv_u(8, 8));
            (
                is_hex.ite(&hex.0, &is_octal.ite(&octal.0, &decimal.0)),
                is_hex.ite(&hex.1, &is_octal.ite(&octal.1, &decimal.1)),
            )
        }
        b => by(b),
    }
}

/// The most digits in base `b` of which every number fits in `bits` bits
/// (base 16 has the fewest of the bases a prefix may choose).
fn digits_that_fit(b: u64, bits: u32) -> u64 {
    let mut power: u128 = 1;
    let mut count = 0;
    while power * u128::from(b) <= 1 << bits {
        power *= u128::from(b);
        count += 1;
    }
    count
}
