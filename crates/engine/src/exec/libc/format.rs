//! Formats constant on the path, as the printf and scanf families read
//! them, and `sprintf` and `snprintf`: they build their output as a
//! [`Text`] of symbolic length, then write it.

use super::scan::ScanSet;
use super::{returns_int, Args, Fill, Model, OwnOverlap, Range};
use crate::exec::{unsupported, Exec, Machine};
use crate::state::State;
use crate::value::{cell_byte, concrete, resize, Cond, PtrVal, SymVal, Target, Word};
use ir::DataModel;
use z3::ast::BV;

/// One element of a format string.
pub(super) enum Directive {
    /// An ordinary character (white space too: scanf gives it its own meaning).
    Char(u8),
    Conversion(Spec),
}

/// A conversion specification: `%[flags][width][.precision][length]conversion`.
pub(super) struct Spec {
    /// `-`: pad on the right.
    pub left: bool,
    /// `0`: pad numbers with zeros after the sign.
    pub zeros: bool,
    /// `+` and ` `: the sign shown for a nonnegative number.
    pub plus: bool,
    pub blank: bool,
    /// `*`: scanf reads without assigning (printf's width argument is refused).
    pub star: bool,
    pub width: Option<u64>,
    pub precision: Option<u64>,
    /// Bits of the argument as the length modifier says (`hh` 8, `h` 16,
    /// none 32, `l`, `ll`, `z`, `j`, `t` 64).
    pub bits: u32,
    pub conversion: u8,
    /// scanf's `%[...]`: the characters it reads.
    pub set: Option<ScanSet>,
}

/// The widest field a format may ask for: each character is a term.
const WIDEST: u64 = 4096;

/// Splits a format into directives; an error names what is not modelled.
/// `l`, `z` and `t` name `long`, `size_t` and `ptrdiff_t`: `model`'s width.
pub(super) fn directives(format: &[u8], model: DataModel) -> Result<Vec<Directive>, String> {
    let long = u32::from(model.long().bits);
    let mut out = Vec::new();
    let mut rest = format;
    while let Some((&c, tail)) = rest.split_first() {
        rest = tail;
        if c != b'%' {
            out.push(Directive::Char(c));
            continue;
        }
        let mut spec = Spec {
            left: false,
            zeros: false,
            plus: false,
            blank: false,
            star: false,
            width: None,
            precision: None,
            bits: 32,
            conversion: 0,
            set: None,
        };
        while let Some((&flag, tail)) = rest.split_first() {
            match flag {
                b'-' => spec.left = true,
                b'0' => spec.zeros = true,
                b'+' => spec.plus = true,
                b' ' => spec.blank = true,
                b'*' => spec.star = true,
                _ => break,
            }
            rest = tail;
        }
        // A number too large for u64 is over the widest field anyway.
        let number = |rest: &mut &[u8]| {
            let digits = rest.iter().take_while(|c| c.is_ascii_digit()).count();
            let (text, tail) = rest.split_at(digits);
            *rest = tail;
            (digits > 0).then(|| {
                std::str::from_utf8(text)
                    .ok()
                    .and_then(|t| t.parse().ok())
                    .unwrap_or(u64::MAX)
            })
        };
        spec.width = number(&mut rest);
        if let Some(tail) = rest.strip_prefix(b".") {
            rest = tail;
            spec.precision = Some(number(&mut rest).unwrap_or(0));
        }
        if spec.width.max(spec.precision).is_some_and(|n| n > WIDEST) {
            return Err(format!("a format width or precision over {WIDEST}"));
        }
        for (modifier, bits) in [
            (&b"hh"[..], 8),
            (b"h", 16),
            (b"ll", 64),
            (b"l", long),
            (b"z", long),
            (b"j", 64),
            (b"t", long),
        ] {
            if let Some(tail) = rest.strip_prefix(modifier) {
                rest = tail;
                spec.bits = bits;
                break;
            }
        }
        let Some((&conversion, tail)) = rest.split_first() else {
            return Err("a format ending inside a conversion".into());
        };
        rest = tail;
        spec.conversion = conversion;
        if conversion == b'[' {
            let (set, tail) = ScanSet::parse(rest)?;
            spec.set = Some(set);
            rest = tail;
        }
        out.push(Directive::Conversion(spec));
    }
    Ok(out)
}

/// Characters whose number may be symbolic: `bytes[k]` for `k < len`
/// (64 bits); `bytes.len()` is the most there may be.
#[derive(Clone)]
pub(super) struct Text {
    pub bytes: Vec<Word>,
    pub len: Word,
}

/// Whether GCC makes a printf-family call with `format` a call that
/// dereferences its string, where NULL is not printed as "(null)":
/// `printf("%s\n", s)` becomes `puts(s)`, `fprintf(f, "%s", s)`
/// `fputs(s, f)`, `sprintf(d, "%s", s)` `strcpy(d, s)`.
pub(super) fn is_a_string_call(format: &[u8]) -> bool {
    matches!(format, b"%s" | b"%s\n")
}

impl Text {
    fn literal(s: &[u8]) -> Text {
        Text {
            bytes: s.iter().map(|b| Word::known(u128::from(*b), 8)).collect(),
            len: Word::known(s.len() as u128, 64),
        }
    }

    /// `count` times `byte`, at most `most`.
    fn repeat(byte: u8, count: &Word, most: u64) -> Text {
        let most = concrete(count).map_or(most, |n| (n as u64).min(most));
        Text {
            bytes: vec![Word::known(u128::from(byte), 8); most as usize],
            len: count.clone(),
        }
    }

    /// This text followed by `next`.
    fn then(&self, next: &Text) -> Text {
        if let Some(n) = concrete(&self.len) {
            let n = (n as usize).min(self.bytes.len());
            let mut bytes = self.bytes[..n].to_vec();
            bytes.extend(next.bytes.iter().cloned());
            return Text {
                bytes,
                len: next.len.bvadd(Word::known(n as u128, 64)),
            };
        }
        let (own, more) = (self.bytes.len(), next.bytes.len());
        let mut bytes = Vec::with_capacity(own + more);
        for p in 0..own + more {
            // Byte `p` is `next`'s byte `p - len` once past this text.
            let mut from_next = Word::known(0, 8);
            for q in p.saturating_sub(own)..=p.min(more.saturating_sub(1)) {
                if q < more {
                    let here = self.len.eq(Word::known((p - q) as u128, 64));
                    from_next = here.ite(&next.bytes[q], &from_next);
                }
            }
            let mine = self
                .bytes
                .get(p)
                .cloned()
                .unwrap_or_else(|| Word::known(0, 8));
            let inside = Word::known(p as u128, 64).bvult(&self.len);
            bytes.push(inside.ite(&mine, &from_next));
        }
        Text {
            bytes,
            len: self.len.bvadd(&next.len),
        }
    }

    /// Pads with `byte` up to `width` characters: after the text when
    /// `left`, else before it.
    fn padded(self, width: Option<u64>, left: bool) -> Text {
        let Some(width) = width else {
            return self;
        };
        let w = Word::known(u128::from(width), 64);
        let missing = self
            .len
            .bvult(&w)
            .ite(&w.bvsub(&self.len), &Word::known(0, 64));
        let fill = Text::repeat(b' ', &missing, width);
        if left {
            self.then(&fill)
        } else {
            fill.then(&self)
        }
    }
}

impl Machine<'_, '_> {
    /// `sprintf(dst, format, ...)` and `snprintf(dst, n, format, ...)`
    /// (at most `n - 1` characters and a NUL), and `vsprintf` and
    /// `vsnprintf` with a `va_list` for the `...`: the text's length.
    pub(super) fn sprintf(&mut self, st: &mut State, args: &Args) -> Exec<Model> {
        let dst = args.ptr(0)?;
        let (limit, at) = match args.name {
            "snprintf" | "vsnprintf" => (Some(args.size(1)?), 2),
            _ => (None, 1),
        };
        let format = self.constant_string(st, &args.ptr(at)?, "a format string")?;
        let writes = limit
            .as_ref()
            .is_none_or(|n| concrete(n).is_none_or(|n| n != 0));
        // The destination first: an undecided pointer forks before the call changed anything.
        if writes {
            self.source(st, &dst)?;
        }
        let mut strings = Vec::new();
        let values = match args.name {
            "vsprintf" | "vsnprintf" => self.va_list_arguments(st, &args.ptr(at + 1)?, &format)?,
            _ => args.values.get(at + 1..).unwrap_or(&[]).to_vec(),
        };
        let text = self.format_text(st, &format, &values, &mut strings)?;
        if writes {
            let kept = match &limit {
                None => text.len.clone(),
                Some(n) => {
                    let last = n.bvsub(Word::known(1, 64));
                    text.len.bvult(n).ite(&text.len, &last)
                }
            };
            let mut bytes = text.bytes.clone();
            bytes.push(Word::known(0, 8));
            let bytes = terminated(bytes, &kept);
            let count = match &limit {
                Some(n) => n
                    .eq(Word::known(0, 64))
                    .ite(&Word::known(0, 64), &kept.bvadd(Word::known(1, 64))),
                None => kept.bvadd(Word::known(1, 64)),
            };
            let written = Range {
                obj: self.deref(st, &dst)?,
                start: dst.offset.clone(),
                len: count.clone(),
            };
            for read in &strings {
                self.require_apart(st, &written, read, OwnOverlap::Assumed)?;
            }
            self.copy_bytes(st, &dst, &Fill::Bytes(bytes), &count)?;
        }
        returns_int(text.len.extract(31, 0))
    }

    /// The output of a printf format over `values`; the strings it reads
    /// go to `strings`.
    pub(super) fn format_text(
        &mut self,
        st: &mut State,
        format: &[u8],
        values: &[SymVal],
        strings: &mut Vec<Range>,
    ) -> Exec<Text> {
        let directives = directives(format, self.program.data_model).or_else(unsupported)?;
        let mut next = values.iter();
        let mut arguments = Vec::new();
        for d in &directives {
            if let Directive::Conversion(spec) = d {
                if spec.star {
                    return unsupported("a printf width or precision given as an argument");
                }
                if spec.conversion != b'%' {
                    let Some(value) = next.next() else {
                        return unsupported("a printf format with more conversions than arguments");
                    };
                    // Strings first: an undecided pointer forks before anything changed.
                    if let (b's', SymVal::Ptr(p)) = (spec.conversion, value) {
                        if is_a_string_call(format) || self.resolved(st, &p.target) != Target::Null
                        {
                            self.source(st, p)?;
                        }
                    }
                    arguments.push(value);
                }
            }
        }
        let mut arguments = arguments.into_iter();
        let mut text = Text::literal(b"");
        for d in &directives {
            let piece = match d {
                Directive::Char(c) => Text::literal(&[*c]),
                Directive::Conversion(spec) if spec.conversion == b'%' => Text::literal(b"%"),
                Directive::Conversion(spec) => {
                    let Some(value) = arguments.next() else {
                        return unsupported("a printf format with more conversions than arguments");
                    };
                    self.conversion_text(st, spec, value, strings)?
                }
            };
            text = text.then(&piece);
        }
        Ok(text)
    }

    /// The characters one printf conversion writes for `value`.
    fn conversion_text(
        &mut self,
        st: &mut State,
        spec: &Spec,
        value: &SymVal,
        strings: &mut Vec<Range>,
    ) -> Exec<Text> {
        match (spec.conversion, value) {
            (b'd' | b'i' | b'u' | b'x' | b'X', SymVal::Int(v)) => {
                if spec.precision.is_some() {
                    return unsupported("a precision on a printf integer conversion");
                }
                let signed = matches!(spec.conversion, b'd' | b'i');
                let v = resize(v, spec.bits, signed);
                let bits = spec.bits;
                let negative = if signed {
                    v.bvslt(Word::known(0, bits))
                } else {
                    Cond::Known(false)
                };
                let magnitude = negative.ite(&v.bvneg(), &v);
                let digits = self.digits(st, &magnitude, spec.conversion)?;
                // `+` and ` ` show a sign before a nonnegative signed number.
                let shown = if spec.plus { b'+' } else { b' ' };
                let shows_sign = signed && (spec.plus || spec.blank);
                let sign = Text {
                    bytes: vec![negative.ite(
                        &Word::known(u128::from(b'-'), 8),
                        &Word::known(u128::from(shown), 8),
                    )],
                    len: negative.ite(
                        &Word::known(1, 64),
                        &Word::known(u128::from(shows_sign), 64),
                    ),
                };
                let width = spec.width.unwrap_or(0);
                if spec.zeros && !spec.left && width > 0 {
                    let body = sign.len.bvadd(&digits.len);
                    let w = Word::known(u128::from(width), 64);
                    let missing = body.bvult(&w).ite(&w.bvsub(&body), &Word::known(0, 64));
                    let zeros = Text::repeat(b'0', &missing, width);
                    return Ok(sign.then(&zeros).then(&digits));
                }
                Ok(sign.then(&digits).padded(spec.width, spec.left))
            }
            (b'c', SymVal::Int(v)) => Ok(Text {
                bytes: vec![v.extract(7, 0)],
                len: Word::known(1, 64),
            }
            .padded(spec.width, spec.left)),
            (b's', SymVal::Ptr(p)) => {
                let text = if self.resolved(st, &p.target) == Target::Null {
                    // glibc prints "(null)" when it fits the precision.
                    match spec.precision {
                        Some(n) if n < 6 => Text::literal(b""),
                        _ => Text::literal(b"(null)"),
                    }
                } else {
                    let limit = spec.precision.map(|n| Word::known(u128::from(n), 64));
                    let len = self.string_length(st, p, limit)?;
                    let src = self.source(st, p)?;
                    strings.push(Range {
                        obj: src.obj,
                        start: p.offset.clone(),
                        len: len.bvadd(Word::known(1, 64)),
                    });
                    let most = st
                        .object(src.obj)
                        .capacity()
                        .min(spec.precision.unwrap_or(u64::MAX));
                    let mut bytes = Vec::new();
                    for k in 0..most {
                        bytes.push(src.byte(st, &Word::known(u128::from(k), 64))?);
                    }
                    Text { bytes, len }
                };
                Ok(text.padded(spec.width, spec.left))
            }
            (b'd' | b'i' | b'u' | b'x' | b'X' | b'c' | b's', _) => unsupported(format!(
                "a printf argument of another type than `%{}` takes",
                spec.conversion as char
            )),
            (c, _) => unsupported(format!("the printf conversion `%{}`", c as char)),
        }
    }

    /// The digits of the unsigned `magnitude`, most significant first, in
    /// decimal (`d`, `i`, `u`) or hexadecimal (`x`, `X`). Symbolic decimal
    /// digits are new symbols tied to the value by one linear equation.
    fn digits(&mut self, st: &mut State, magnitude: &Word, conversion: u8) -> Exec<Text> {
        let bits = magnitude.get_size();
        let hex = matches!(conversion, b'x' | b'X');
        let letter = if conversion == b'X' { b'A' } else { b'a' };
        if let Some(n) = concrete(magnitude) {
            let text = match conversion {
                b'x' => format!("{n:x}"),
                b'X' => format!("{n:X}"),
                _ => n.to_string(),
            };
            return Ok(Text::literal(text.as_bytes()));
        }
        // Least significant first.
        let digits: Vec<Word> = if hex {
            (0..bits / 4)
                .map(|i| magnitude.extract(4 * i + 3, 4 * i).zero_ext(4))
                .collect()
        } else {
            let count = match bits {
                8 => 3,
                16 => 5,
                32 => 10,
                _ => 20,
            };
            let digits: Vec<Word> = (0..count)
                .map(|_| Word::Term(BV::new_const(st.symbol_name("digit"), 8)))
                .collect();
            // 72 bits hold 9 * 10^19 and any sum of such terms here.
            let mut sum = Word::known(0, 72);
            let mut power: u128 = 1;
            let mut small = Vec::new();
            for d in &digits {
                small.push(d.bvule(Word::known(9, 8)));
                sum = sum.bvadd(d.zero_ext(64).bvmul(Word::known(power, 72)));
                power *= 10;
            }
            small.push(magnitude.zero_ext(72 - bits).eq(&sum));
            self.assume(st, &Cond::and(&small))?;
            digits
        };
        let shown = |d: &Word| {
            if hex {
                d.bvult(Word::known(10, 8)).ite(
                    &d.bvadd(Word::known(u128::from(b'0'), 8)),
                    &d.bvadd(Word::known(u128::from(letter - 10), 8)),
                )
            } else {
                d.bvadd(Word::known(u128::from(b'0'), 8))
            }
        };
        let most = digits.len();
        let mut len = Word::known(1, 64);
        for (i, d) in digits.iter().enumerate().skip(1) {
            len = d
                .eq(Word::known(0, 8))
                .not()
                .ite(&Word::known(i as u128 + 1, 64), &len);
        }
        // Byte `p` shows digit `len - 1 - p`.
        let bytes = (0..most)
            .map(|p| {
                let mut byte = Word::known(0, 8);
                for n in p + 1..=most {
                    byte = len
                        .eq(Word::known(n as u128, 64))
                        .ite(&shown(&digits[n - 1 - p]), &byte);
                }
                byte
            })
            .collect();
        Ok(Text { bytes, len })
    }

    /// The bytes of a string constant on this path (a format, an option
    /// string, a name), up to its NUL; `what` names it for the user.
    pub(super) fn constant_string(
        &mut self,
        st: &mut State,
        ptr: &PtrVal,
        what: &str,
    ) -> Exec<Vec<u8>> {
        let src = self.source(st, ptr)?;
        let not_constant = || unsupported(format!("{what} that is not constant"));
        let Some(start) = Self::concrete_u64(&ptr.offset) else {
            return not_constant();
        };
        let mut bytes = Vec::new();
        for cell in st.object(src.obj).cells.iter().skip(start as usize) {
            match concrete(&cell_byte(cell)?) {
                Some(0) => return Ok(bytes),
                Some(b) => bytes.push(b as u8),
                None => return not_constant(),
            }
        }
        unsupported(format!("{what} without its terminating NUL"))
    }
}

/// The first `len` of `bytes`, then NUL bytes.
pub(super) fn terminated(bytes: Vec<Word>, len: &Word) -> Vec<Word> {
    bytes
        .into_iter()
        .enumerate()
        .map(|(p, byte)| {
            Word::known(p as u128, 64)
                .bvult(len)
                .ite(&byte, &Word::known(0, 8))
        })
        .collect()
}
