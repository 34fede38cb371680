//! `<ctype.h>` in the C locale: the classes of a character, and the case
//! conversions, as glibc's tables answer them.

use crate::value::{cond_value, Cond, Word};

/// `toupper` or `tolower` (`name`) of the `int` `c`.
pub(super) fn change_case(name: &str, c: &Word) -> Word {
    let converted = if name == "toupper" {
        to_upper(c)
    } else {
        to_lower(c)
    };
    // glibc's table gives a negative `char` (not EOF) its unsigned value.
    let negative_char = Cond::and(&[
        c.bvsge(Word::known((-128i32) as u32 as u128, 32)),
        c.bvsle(Word::known((-2i32) as u32 as u128, 32)),
    ]);
    negative_char.ite(&c.bvadd(Word::known(256, 32)), &converted)
}

/// A character class of `<ctype.h>` in the C locale.
#[derive(Clone, Copy)]
pub(super) enum CharClass {
    Upper,
    Lower,
    Alpha,
    Digit,
    Xdigit,
    Space,
    Print,
    Graph,
    Blank,
    Cntrl,
    Punct,
    Alnum,
}

impl CharClass {
    pub(super) fn named(name: &str) -> Option<CharClass> {
        Some(match name {
            "isupper" => CharClass::Upper,
            "islower" => CharClass::Lower,
            "isalpha" => CharClass::Alpha,
            "isdigit" => CharClass::Digit,
            "isxdigit" => CharClass::Xdigit,
            "isspace" => CharClass::Space,
            "isprint" => CharClass::Print,
            "isgraph" => CharClass::Graph,
            "isblank" => CharClass::Blank,
            "iscntrl" => CharClass::Cntrl,
            "ispunct" => CharClass::Punct,
            "isalnum" => CharClass::Alnum,
            _ => return None,
        })
    }

    /// The bit glibc's classification functions return for the class
    /// (`_ISbit` of `<ctype.h>` on a little-endian machine).
    pub(super) fn bit(self) -> u128 {
        let bit = match self {
            CharClass::Upper => 0,
            CharClass::Lower => 1,
            CharClass::Alpha => 2,
            CharClass::Digit => 3,
            CharClass::Xdigit => 4,
            CharClass::Space => 5,
            CharClass::Print => 6,
            CharClass::Graph => 7,
            CharClass::Blank => 8,
            CharClass::Cntrl => 9,
            CharClass::Punct => 10,
            CharClass::Alnum => 11,
        };
        if bit < 8 {
            (1 << bit) << 8
        } else {
            (1 << bit) >> 8
        }
    }

    /// Whether the character `c` is in the class.
    pub(super) fn contains(self, c: u8) -> bool {
        cond_value(&self.holds(&Word::known(u128::from(c), 8))) == Some(true)
    }

    /// Whether `c` (a character of any width, as a signed value) is in the class.
    pub(super) fn holds(self, c: &Word) -> Cond {
        let upper = || between(c, b'A', b'Z');
        let lower = || between(c, b'a', b'z');
        let digit = || between(c, b'0', b'9');
        let alnum = || Cond::or(&[upper(), lower(), digit()]);
        let graph = || between(c, b'!', b'~');
        match self {
            CharClass::Upper => upper(),
            CharClass::Lower => lower(),
            CharClass::Alpha => Cond::or(&[upper(), lower()]),
            CharClass::Digit => digit(),
            CharClass::Xdigit => {
                Cond::or(&[digit(), between(c, b'a', b'f'), between(c, b'A', b'F')])
            }
            CharClass::Space => Cond::or(&[is_char(c, b' '), between(c, 9, 13)]),
            CharClass::Print => between(c, b' ', b'~'),
            CharClass::Graph => graph(),
            CharClass::Blank => Cond::or(&[is_char(c, b' '), is_char(c, b'\t')]),
            CharClass::Cntrl => Cond::or(&[between(c, 0, 31), is_char(c, 127)]),
            CharClass::Punct => Cond::and(&[graph(), alnum().not()]),
            CharClass::Alnum => alnum(),
        }
    }
}

/// `lo <= c <= hi`, `c` a signed character or `int`.
fn between(c: &Word, lo: u8, hi: u8) -> Cond {
    let bits = c.get_size();
    Cond::and(&[
        c.bvsge(Word::known(lo.into(), bits)),
        c.bvsle(Word::known(hi.into(), bits)),
    ])
}

pub(super) fn is_char(c: &Word, ch: u8) -> Cond {
    c.eq(Word::known(ch.into(), c.get_size()))
}

fn to_upper(c: &Word) -> Word {
    let bits = c.get_size();
    between(c, b'a', b'z').ite(&c.bvsub(Word::known(32, bits)), c)
}

pub(super) fn to_lower(c: &Word) -> Word {
    let bits = c.get_size();
    between(c, b'A', b'Z').ite(&c.bvadd(Word::known(32, bits)), c)
}
