//! The printf and scanf families with a format constant on the path:
//! `sprintf` and `snprintf` build their output as a [`Text`] of symbolic
//! length, then write it; `sscanf` reads its input directive by directive
//! from a symbolic position, then takes one outcome (how many conversions
//! it assigned) and writes those.

use super::number::Syntax;
use super::{is_char, returns_int, Args, CharClass, Fill, Model, Range, Source, ERANGE};
use crate::exec::place::Loc;
use crate::exec::{unsupported, Exec, Machine};
use crate::memory;
use crate::state::State;
use crate::value::{bv_u, cell_byte, concrete, resize, PtrVal, SymVal, Target};
use ir::{IntType, Type};
use z3::ast::{Bool, BV};

/// One element of a format string.
enum Directive {
    /// An ordinary character (white space too: scanf gives it its own meaning).
    Char(u8),
    Conversion(Spec),
}

/// A conversion specification: `%[flags][width][.precision][length]conversion`.
struct Spec {
    /// `-`: pad on the right.
    left: bool,
    /// `0`: pad numbers with zeros after the sign.
    zeros: bool,
    /// `+` and ` `: the sign shown for a nonnegative number.
    plus: bool,
    blank: bool,
    /// `*`: scanf reads without assigning (printf's width argument is refused).
    star: bool,
    width: Option<u64>,
    precision: Option<u64>,
    /// Bits of the argument as the length modifier says (`hh` 8, `h` 16,
    /// none 32, `l`, `ll`, `z`, `j`, `t` 64).
    bits: u32,
    conversion: u8,
    /// scanf's `%[...]`: the characters it reads.
    set: Option<ScanSet>,
}

/// The characters of a scanf `%[...]`: its members, or (`^`) all others.
struct ScanSet {
    negated: bool,
    /// Inclusive ranges (a single character is a range of one).
    ranges: Vec<(u8, u8)>,
}

impl ScanSet {
    /// Parses what follows `%[` up to its `]` as glibc does (a `]` or `-`
    /// first is a member; `a-z` a range unless at an end or descending);
    /// gives the rest of the format too.
    fn parse(format: &[u8]) -> Result<(ScanSet, &[u8]), String> {
        let (negated, mut rest) = match format.strip_prefix(b"^") {
            Some(rest) => (true, rest),
            None => (false, format),
        };
        let mut ranges: Vec<(u8, u8)> = Vec::new();
        let mut first = true;
        loop {
            let Some((&c, tail)) = rest.split_first() else {
                return Err("a scanf `%[` without its `]`".into());
            };
            if c == b']' && !first {
                return Ok((ScanSet { negated, ranges }, tail));
            }
            // A range starts at the character before the `-`.
            match (c, tail, ranges.last()) {
                (b'-', [hi, ..], Some(&(_, lo))) if !first && *hi != b']' && lo <= *hi => {
                    ranges.push((lo, *hi));
                    rest = &tail[1..];
                }
                _ => {
                    ranges.push((c, c));
                    rest = tail;
                }
            }
            first = false;
        }
    }

    fn contains(&self, c: &BV) -> Bool {
        let member = Bool::or(
            &self
                .ranges
                .iter()
                .map(|&(lo, hi)| {
                    Bool::and(&[
                        c.bvuge(bv_u(u128::from(lo), 8)),
                        c.bvule(bv_u(u128::from(hi), 8)),
                    ])
                })
                .collect::<Vec<_>>(),
        );
        if self.negated {
            member.not()
        } else {
            member
        }
    }
}

/// Splits a format into directives; an error names what is not modelled.
fn directives(format: &[u8]) -> Result<Vec<Directive>, String> {
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
        let number = |rest: &mut &[u8]| {
            let digits = rest.iter().take_while(|c| c.is_ascii_digit()).count();
            let (text, tail) = rest.split_at(digits);
            *rest = tail;
            std::str::from_utf8(text).ok().and_then(|t| t.parse().ok())
        };
        spec.width = number(&mut rest);
        if let Some(tail) = rest.strip_prefix(b".") {
            rest = tail;
            spec.precision = Some(number(&mut rest).unwrap_or(0));
        }
        for (modifier, bits) in [
            (&b"hh"[..], 8),
            (b"h", 16),
            (b"ll", 64),
            (b"l", 64),
            (b"z", 64),
            (b"j", 64),
            (b"t", 64),
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
struct Text {
    bytes: Vec<BV>,
    len: BV,
}

impl Text {
    fn literal(s: &[u8]) -> Text {
        Text {
            bytes: s.iter().map(|b| bv_u(u128::from(*b), 8)).collect(),
            len: bv_u(s.len() as u128, 64),
        }
    }

    /// `count` times `byte`, at most `most`.
    fn repeat(byte: u8, count: &BV, most: u64) -> Text {
        let most = concrete(count).map_or(most, |n| (n as u64).min(most));
        Text {
            bytes: vec![bv_u(u128::from(byte), 8); most as usize],
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
                len: next.len.bvadd(bv_u(n as u128, 64)),
            };
        }
        let (own, more) = (self.bytes.len(), next.bytes.len());
        let mut bytes = Vec::with_capacity(own + more);
        for p in 0..own + more {
            // Byte `p` is `next`'s byte `p - len` once past this text.
            let mut from_next = bv_u(0, 8);
            for q in p.saturating_sub(own)..=p.min(more.saturating_sub(1)) {
                if q < more {
                    let here = self.len.eq(bv_u((p - q) as u128, 64));
                    from_next = here.ite(&next.bytes[q], &from_next);
                }
            }
            let mine = self.bytes.get(p).cloned().unwrap_or_else(|| bv_u(0, 8));
            let inside = bv_u(p as u128, 64).bvult(&self.len);
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
        let w = bv_u(u128::from(width), 64);
        let missing = self.len.bvult(&w).ite(&w.bvsub(&self.len), &bv_u(0, 64));
        let fill = Text::repeat(b' ', &missing, width);
        if left {
            self.then(&fill)
        } else {
            fill.then(&self)
        }
    }
}

/// What a scanf conversion assigns.
enum Assignment {
    Int {
        value: BV,
        signed: bool,
    },
    /// `count` characters of `bytes` (a string's NUL included); `field`,
    /// the most a conversion with a width may write, must fit too (the
    /// sanitizers check the whole field, whatever the input).
    Chars {
        bytes: Vec<BV>,
        count: BV,
        field: Option<u64>,
    },
}

/// scanf's progress through its input: where it is, whether every
/// directive so far matched, and the outcomes of stopping earlier.
struct Scanning {
    at: BV,
    matching: Bool,
    assigned: i32,
    /// Each way of stopping early, with the value sscanf then returns.
    outcomes: Vec<(Bool, i32)>,
}

impl Scanning {
    /// Stops where `cond` holds: an input failure (the input ended: EOF
    /// when nothing was assigned yet) or a matching failure.
    fn fails_if(&mut self, cond: Bool, input_ended: bool) {
        let returns = if input_ended && self.assigned == 0 {
            -1
        } else {
            self.assigned
        };
        self.outcomes
            .push((Bool::and(&[self.matching.clone(), cond.clone()]), returns));
        self.matching = Bool::and(&[self.matching.clone(), cond.not()]);
    }
}

impl Machine<'_, '_> {
    /// `sprintf(dst, format, ...)` and `snprintf(dst, n, format, ...)`
    /// (at most `n - 1` characters and a NUL): the text's length.
    pub(super) fn sprintf(&mut self, st: &mut State, args: &Args) -> Exec<Model> {
        let dst = args.ptr(0)?;
        let (limit, at) = match args.name {
            "snprintf" => (Some(args.size(1)?), 2),
            _ => (None, 1),
        };
        let format = self.constant_string(st, &args.ptr(at)?)?;
        let writes = limit
            .as_ref()
            .is_none_or(|n| concrete(n).is_none_or(|n| n != 0));
        // The destination first: an undecided pointer forks before the call changed anything.
        if writes {
            self.source(st, &dst)?;
        }
        let mut strings = Vec::new();
        let values = args.values.get(at + 1..).unwrap_or(&[]);
        let text = self.format_text(st, &format, values, &mut strings)?;
        if writes {
            let kept = match &limit {
                None => text.len.clone(),
                Some(n) => {
                    let last = n.bvsub(bv_u(1, 64));
                    text.len.bvult(n).ite(&text.len, &last)
                }
            };
            let mut bytes = text.bytes.clone();
            bytes.push(bv_u(0, 8));
            let bytes = terminated(bytes, &kept);
            let count = match &limit {
                Some(n) => n
                    .eq(bv_u(0, 64))
                    .ite(&bv_u(0, 64), &kept.bvadd(bv_u(1, 64))),
                None => kept.bvadd(bv_u(1, 64)),
            };
            let written = Range {
                obj: self.deref(st, &dst)?,
                start: dst.offset.clone(),
                len: count.clone(),
            };
            for read in &strings {
                self.assume_apart(st, &written, read)?;
            }
            self.copy_bytes(st, &dst, &Fill::Bytes(bytes), &count)?;
        }
        returns_int(text.len.extract(31, 0))
    }

    /// The output of a printf format over `values`; the strings it reads
    /// go to `strings`.
    fn format_text(
        &mut self,
        st: &mut State,
        format: &[u8],
        values: &[SymVal],
        strings: &mut Vec<Range>,
    ) -> Exec<Text> {
        let directives = directives(format).or_else(unsupported)?;
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
                        if self.resolved(st, &p.target) != Target::Null {
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
                    v.bvslt(bv_u(0, bits))
                } else {
                    Bool::from_bool(false)
                };
                let magnitude = negative.ite(&v.bvneg(), &v);
                let digits = self.digits(st, &magnitude, spec.conversion)?;
                // `+` and ` ` show a sign before a nonnegative signed number.
                let shown = if spec.plus { b'+' } else { b' ' };
                let shows_sign = signed && (spec.plus || spec.blank);
                let sign = Text {
                    bytes: vec![
                        negative.ite(&bv_u(u128::from(b'-'), 8), &bv_u(u128::from(shown), 8))
                    ],
                    len: negative.ite(&bv_u(1, 64), &bv_u(u128::from(shows_sign), 64)),
                };
                let width = spec.width.unwrap_or(0);
                if spec.zeros && !spec.left && width > 0 {
                    let body = sign.len.bvadd(&digits.len);
                    let w = bv_u(u128::from(width), 64);
                    let missing = body.bvult(&w).ite(&w.bvsub(&body), &bv_u(0, 64));
                    let zeros = Text::repeat(b'0', &missing, width);
                    return Ok(sign.then(&zeros).then(&digits));
                }
                Ok(sign.then(&digits).padded(spec.width, spec.left))
            }
            (b'c', SymVal::Int(v)) => Ok(Text {
                bytes: vec![v.extract(7, 0)],
                len: bv_u(1, 64),
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
                    let limit = spec.precision.map(|n| bv_u(u128::from(n), 64));
                    let len = self.string_length(st, p, limit)?;
                    let src = self.source(st, p)?;
                    strings.push(Range {
                        obj: src.obj,
                        start: p.offset.clone(),
                        len: len.bvadd(bv_u(1, 64)),
                    });
                    let most = st
                        .object(src.obj)
                        .capacity()
                        .min(spec.precision.unwrap_or(u64::MAX));
                    let mut bytes = Vec::new();
                    for k in 0..most {
                        bytes.push(src.byte(st, &bv_u(u128::from(k), 64))?);
                    }
                    Text { bytes, len }
                };
                Ok(text.padded(spec.width, spec.left))
            }
            (c, _) => unsupported(format!("the printf conversion `%{}`", c as char)),
        }
    }

    /// The digits of the unsigned `magnitude`, most significant first, in
    /// decimal (`d`, `i`, `u`) or hexadecimal (`x`, `X`). Symbolic decimal
    /// digits are new symbols tied to the value by one linear equation.
    fn digits(&mut self, st: &mut State, magnitude: &BV, conversion: u8) -> Exec<Text> {
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
        let digits: Vec<BV> = if hex {
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
            let digits: Vec<BV> = (0..count)
                .map(|_| BV::new_const(st.symbol_name("digit"), 8))
                .collect();
            // 72 bits hold 9 * 10^19 and any sum of such terms here.
            let mut sum = bv_u(0, 72);
            let mut power: u128 = 1;
            let mut small = Vec::new();
            for d in &digits {
                small.push(d.bvule(bv_u(9, 8)));
                sum = sum.bvadd(d.zero_ext(64).bvmul(bv_u(power, 72)));
                power *= 10;
            }
            small.push(magnitude.zero_ext(72 - bits).eq(&sum));
            self.assume(st, &Bool::and(&small))?;
            digits
        };
        let shown = |d: &BV| {
            if hex {
                d.bvult(bv_u(10, 8)).ite(
                    &d.bvadd(bv_u(u128::from(b'0'), 8)),
                    &d.bvadd(bv_u(u128::from(letter - 10), 8)),
                )
            } else {
                d.bvadd(bv_u(u128::from(b'0'), 8))
            }
        };
        let most = digits.len();
        let mut len = bv_u(1, 64);
        for (i, d) in digits.iter().enumerate().skip(1) {
            len = d.eq(bv_u(0, 8)).not().ite(&bv_u(i as u128 + 1, 64), &len);
        }
        // Byte `p` shows digit `len - 1 - p`.
        let bytes = (0..most)
            .map(|p| {
                let mut byte = bv_u(0, 8);
                for n in p + 1..=most {
                    byte = len
                        .eq(bv_u(n as u128, 64))
                        .ite(&shown(&digits[n - 1 - p]), &byte);
                }
                byte
            })
            .collect();
        Ok(Text { bytes, len })
    }

    /// `sscanf(input, format, ...)`: conversions `%d %i %u %o %x %s %c %[`
    /// (widths, `*`, length modifiers), white space and ordinary characters.
    pub(super) fn sscanf(&mut self, st: &mut State, args: &Args) -> Exec<Model> {
        let input = args.ptr(0)?;
        let format = self.constant_string(st, &args.ptr(1)?)?;
        let directives = directives(&format).or_else(unsupported)?;
        // Where conversions assign, first: an undecided pointer forks before anything changed.
        let mut targets = Vec::new();
        for d in &directives {
            if let Directive::Conversion(spec) = d {
                if !spec.star && spec.conversion != b'%' {
                    let target = args.ptr(2 + targets.len())?;
                    self.source(st, &target)?;
                    targets.push(target);
                }
            }
        }
        // glibc measures the input string first.
        let input_len = self.string_length(st, &input, None)?;
        let src = self.source(st, &input)?;
        let read = Range {
            obj: src.obj,
            start: input.offset.clone(),
            len: input_len.bvadd(bv_u(1, 64)),
        };
        let cap = st.object(src.obj).capacity();
        let mut scan = Scanning {
            at: bv_u(0, 64),
            matching: Bool::from_bool(true),
            assigned: 0,
            outcomes: Vec::new(),
        };
        let mut assignments = Vec::new();
        let mut range_errors = Vec::new();
        let mut skip_spaces = false;
        for d in &directives {
            let spec = match d {
                Directive::Char(c) if CharClass::Space.contains(*c) => {
                    skip_spaces = true;
                    continue;
                }
                Directive::Char(c) => {
                    self.scan_char(st, &src, &mut scan, *c, skip_spaces)?;
                    skip_spaces = false;
                    continue;
                }
                Directive::Conversion(spec) => spec,
            };
            let assignment = match spec.conversion {
                b'%' => {
                    self.scan_char(st, &src, &mut scan, b'%', true)?;
                    None
                }
                b'd' | b'i' | b'u' | b'o' | b'x' | b'X' => {
                    let base = match spec.conversion {
                        b'd' | b'u' => 10,
                        b'i' => 0,
                        b'o' => 8,
                        _ => 16,
                    };
                    let syntax = Syntax {
                        base,
                        width: spec.width,
                        prefix_needs_digit: false,
                    };
                    let number = self.read_integer(st, &src, &scan.at, &syntax)?;
                    scan.fails_if(number.empty.clone(), true);
                    scan.fails_if(number.converted.not(), false);
                    let signed = matches!(spec.conversion, b'd' | b'i');
                    let (value, out_of_range) = number.value(signed);
                    range_errors.push(Bool::and(&[scan.matching.clone(), out_of_range]));
                    scan.at = number.end;
                    Some(Assignment::Int {
                        value: resize(&value, spec.bits, signed),
                        signed,
                    })
                }
                b's' | b'[' => {
                    // `%s` skips white space and reads up to the next; a
                    // scanset reads its members, and at least one.
                    let start = if spec.conversion == b's' || skip_spaces {
                        self.skip_spaces(st, &src, &scan.at)?
                    } else {
                        scan.at.clone()
                    };
                    scan.fails_if(is_char(&src.byte(st, &start)?, 0), true);
                    let most = spec.width.unwrap_or(cap).max(1);
                    let (bytes, len) = match &spec.set {
                        Some(set) => word(st, &src, &start, most, |b| set.contains(b))?,
                        None => word(st, &src, &start, most, |b| CharClass::Space.holds(b).not())?,
                    };
                    scan.fails_if(len.eq(bv_u(0, 64)), false);
                    scan.at = start.bvadd(&len);
                    Some(Assignment::Chars {
                        bytes: terminated(bytes, &len),
                        count: len.bvadd(bv_u(1, 64)),
                        field: spec.width.map(|w| w + 1),
                    })
                }
                b'c' => {
                    let start = if skip_spaces {
                        self.skip_spaces(st, &src, &scan.at)?
                    } else {
                        scan.at.clone()
                    };
                    // glibc keeps the characters before the input's end, at most the width.
                    let width = spec.width.unwrap_or(1).max(1);
                    let mut bytes = Vec::new();
                    for j in 0..width {
                        bytes.push(src.byte(st, &start.bvadd(bv_u(u128::from(j), 64)))?);
                    }
                    let mut count = bv_u(u128::from(width), 64);
                    for (j, byte) in bytes.iter().enumerate().rev() {
                        count = is_char(byte, 0).ite(&bv_u(j as u128, 64), &count);
                    }
                    scan.fails_if(count.eq(bv_u(0, 64)), true);
                    scan.at = start.bvadd(&count);
                    Some(Assignment::Chars {
                        bytes,
                        count,
                        field: Some(width),
                    })
                }
                c => return unsupported(format!("the scanf conversion `%{}`", c as char)),
            };
            skip_spaces = false;
            if let (Some(assignment), false) = (assignment, spec.star) {
                assignments.push(assignment);
                scan.assigned += 1;
            }
        }
        let mut outcomes: Vec<(Vec<Bool>, i32)> = Vec::new();
        scan.outcomes.push((scan.matching, scan.assigned));
        for (cond, returns) in scan.outcomes {
            match outcomes.iter_mut().find(|(_, r)| *r == returns) {
                Some((conds, _)) => conds.push(cond),
                None => outcomes.push((vec![cond], returns)),
            }
        }
        let outcomes = outcomes
            .into_iter()
            .map(|(conds, returns)| (Bool::or(&conds), returns))
            .collect();
        let returned = self.choose(st, outcomes)?;
        self.set_errno_if(st, &Bool::or(&range_errors), ERANGE)?;
        let done = usize::try_from(returned).unwrap_or(0);
        for (assignment, target) in assignments.into_iter().zip(targets).take(done) {
            let obj = self.deref(st, &target)?;
            let len = match &assignment {
                Assignment::Int { value, .. } => bv_u(u128::from(value.get_size() / 8), 64),
                Assignment::Chars { count, .. } => count.clone(),
            };
            let written = Range {
                obj,
                start: target.offset.clone(),
                len,
            };
            self.assume_apart(st, &written, &read)?;
            match assignment {
                Assignment::Int { value, signed } => {
                    let loc = Loc {
                        obj,
                        off: target.offset.clone(),
                        ty: Type::Int(IntType::new(value.get_size() as u16, signed)),
                    };
                    self.store(st, &loc, &SymVal::Int(value))?;
                }
                Assignment::Chars {
                    bytes,
                    count,
                    field,
                } => {
                    if let Some(field) = field {
                        let inside =
                            memory::in_bounds(self.program, st.object(obj), &target.offset, field);
                        self.bounds_fault(
                            st,
                            &[obj],
                            &inside.not(),
                            "a scanf field wider than its buffer",
                        )?;
                    }
                    self.copy_bytes(st, &target, &Fill::Bytes(bytes), &count)?;
                }
            }
        }
        returns_int(bv_u(returned as u32 as u128, 32))
    }

    /// scanf's ordinary character `c` (after white space when `skip_spaces`).
    fn scan_char(
        &mut self,
        st: &State,
        src: &Source,
        scan: &mut Scanning,
        c: u8,
        skip_spaces: bool,
    ) -> Exec<()> {
        if skip_spaces {
            scan.at = self.skip_spaces(st, src, &scan.at)?;
        }
        let here = src.byte(st, &scan.at)?;
        scan.fails_if(is_char(&here, 0), true);
        scan.fails_if(here.eq(bv_u(u128::from(c), 8)).not(), false);
        scan.at = scan.at.bvadd(bv_u(1, 64));
        Ok(())
    }

    /// The bytes of a string constant on this path (a format), up to its NUL.
    fn constant_string(&mut self, st: &mut State, ptr: &PtrVal) -> Exec<Vec<u8>> {
        let src = self.source(st, ptr)?;
        let Some(start) = Self::concrete_u64(&ptr.offset) else {
            return unsupported("a format string that is not constant");
        };
        let mut bytes = Vec::new();
        for cell in st.object(src.obj).cells.iter().skip(start as usize) {
            match concrete(&cell_byte(cell)?) {
                Some(0) => return Ok(bytes),
                Some(b) => bytes.push(b as u8),
                None => return unsupported("a format string that is not constant"),
            }
        }
        unsupported("a format string without its terminating NUL")
    }
}

/// The longest run of at most `most` characters from `start` that are
/// `wanted` (never the terminating NUL): its bytes (one more, read past it)
/// and its length.
fn word(
    st: &State,
    src: &Source,
    start: &BV,
    most: u64,
    wanted: impl Fn(&BV) -> Bool,
) -> Exec<(Vec<BV>, BV)> {
    let mut bytes = Vec::new();
    let mut ends = Vec::new();
    for j in 0..=most {
        let byte = src.byte(st, &start.bvadd(bv_u(u128::from(j), 64)))?;
        ends.push(Bool::or(&[is_char(&byte, 0), wanted(&byte).not()]));
        bytes.push(byte);
    }
    let mut len = bv_u(u128::from(most), 64);
    for (j, end) in ends.into_iter().enumerate().take(most as usize).rev() {
        len = end.ite(&bv_u(j as u128, 64), &len);
    }
    Ok((bytes, len))
}

/// The first `len` of `bytes`, then NUL bytes.
fn terminated(bytes: Vec<BV>, len: &BV) -> Vec<BV> {
    bytes
        .into_iter()
        .enumerate()
        .map(|(p, byte)| bv_u(p as u128, 64).bvult(len).ite(&byte, &bv_u(0, 8)))
        .collect()
}
