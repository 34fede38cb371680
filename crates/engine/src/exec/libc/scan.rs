//! `sscanf` with a format constant on the path: the input is read
//! directive by directive from a symbolic position, each way of stopping
//! early an outcome; then the call takes one outcome (how many conversions
//! it assigned) and writes those assignments.

use super::format::{directives, terminated, Directive, Spec};
use super::number::Syntax;
use super::stream::{stream as stream_of, stream_mut};
use super::{
    is_char, returns_int, Args, CharClass, Fill, Model, OwnOverlap, Range, Source, ERANGE,
};
use crate::exec::place::Loc;
use crate::exec::{unsupported, Exec, Machine};
use crate::memory;
use crate::state::{ObjKind, Object, State, StreamRole, Written};
use crate::value::{int_cells, resize, Cell, Cond, ObjIdx, PtrVal, SymVal, Target, Word};
use ir::{IntType, Type};
use testcase::Bound;

/// The characters of a scanf `%[...]`: its members, or (`^`) all others.
pub(super) struct ScanSet {
    negated: bool,
    /// Inclusive ranges (a single character is a range of one).
    ranges: Vec<(u8, u8)>,
}

impl ScanSet {
    /// Parses what follows `%[` up to its `]` as glibc does (a `]` or `-`
    /// first is a member; `a-z` a range unless at an end or descending);
    /// gives the rest of the format too.
    pub(super) fn parse(format: &[u8]) -> Result<(ScanSet, &[u8]), String> {
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

    fn contains(&self, c: &Word) -> Cond {
        let member = Cond::or(
            &self
                .ranges
                .iter()
                .map(|&(lo, hi)| {
                    Cond::and(&[
                        c.bvuge(Word::known(u128::from(lo), 8)),
                        c.bvule(Word::known(u128::from(hi), 8)),
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

/// What a scanf conversion assigns.
enum Assignment {
    Int {
        value: Word,
        signed: bool,
    },
    /// `count` characters of `bytes` (a string's NUL included); `field`,
    /// the most a conversion with a width may write, must fit too (the
    /// sanitizers check the whole field, whatever the input).
    Chars {
        bytes: Vec<Word>,
        count: Word,
        field: Option<u64>,
    },
}

/// scanf's progress through its input: where it is, whether every
/// directive so far matched, and the outcomes of stopping earlier.
struct Scanning {
    at: Word,
    matching: Cond,
    assigned: i32,
    /// Each way of stopping early, with the value sscanf then returns.
    outcomes: Vec<(Cond, i32)>,
}

/// How a scan ended: the value it returns, and whether it matched the
/// whole format (a stream then stands where the scan did).
#[derive(Clone, Copy, PartialEq, Eq)]
struct Ending {
    returns: i32,
    complete: bool,
}

impl Scanning {
    fn new() -> Scanning {
        Scanning {
            at: Word::known(0, 64),
            matching: Cond::Known(true),
            assigned: 0,
            outcomes: Vec::new(),
        }
    }

    /// Stops where `cond` holds: an input failure (the input ended: EOF
    /// when nothing was assigned yet) or a matching failure.
    fn fails_if(&mut self, cond: Cond, input_ended: bool) {
        let returns = if input_ended && self.assigned == 0 {
            -1
        } else {
            self.assigned
        };
        self.outcomes
            .push((Cond::and(&[self.matching.clone(), cond.clone()]), returns));
        self.matching = Cond::and(&[self.matching.clone(), cond.not()]);
    }

    /// Every way the call may end, one per value it returns and whether
    /// it matched the whole format.
    fn outcomes(self) -> Vec<(Cond, Ending)> {
        let complete = Ending {
            returns: self.assigned,
            complete: true,
        };
        let mut merged: Vec<(Vec<Cond>, Ending)> = vec![(vec![self.matching], complete)];
        for (cond, returns) in self.outcomes {
            let early = Ending {
                returns,
                complete: false,
            };
            match merged.iter_mut().find(|(_, e)| *e == early) {
                Some((conds, _)) => conds.push(cond),
                None => merged.push((vec![cond], early)),
            }
        }
        merged
            .into_iter()
            .map(|(conds, ending)| (Cond::or(&conds), ending))
            .collect()
    }
}

impl Machine<'_, '_> {
    /// `sscanf(input, format, ...)`: conversions `%d %i %u %o %x %s %c %[`
    /// (widths, `*`, length modifiers), white space and ordinary characters.
    pub(super) fn sscanf(&mut self, st: &mut State, args: &Args) -> Exec<Model> {
        let input = args.ptr(0)?;
        let (directives, targets) = self.scan_directives(st, args, 1)?;
        // glibc measures the input string first.
        let input_len = self.string_length(st, &input, None)?;
        let src = self.source(st, &input)?;
        let read = Range {
            obj: src.obj,
            start: input.offset.clone(),
            len: input_len.bvadd(Word::known(1, 64)),
        };
        let (ending, _) = self.scan_input(st, &src, &read, &directives, targets)?;
        returns_int(Word::known(u128::from(ending.returns as u32), 32))
    }

    /// `fscanf(fp, format, ...)` on a stream read over input bytes: the
    /// format is matched against the contents left as `sscanf` matches a
    /// string, the contents ending where the stream does (they hold no NUL
    /// byte, under `Bound::ScannedStream`). Matched whole, the stream
    /// stands where the scan stopped (at its end, having looked past a
    /// conversion or trailing white space there, with the end-of-file
    /// flag set); stopped early, where glibc leaves it is not modelled and
    /// no read follows.
    pub(super) fn fscanf(&mut self, st: &mut State, args: &Args, stream: ObjIdx) -> Exec<Model> {
        let (directives, targets) = self.scan_directives(st, args, 1)?;
        let StreamRole::Read(reading) = &stream_of(st, stream)?.role else {
            return unsupported("a read of a stream not opened for reading");
        };
        if !reading.pushed_back.is_empty() {
            return unsupported("`fscanf` after `ungetc`");
        }
        let consumed = reading.consumed;
        let rest: Vec<Word> = reading.contents[consumed as usize..].to_vec();
        // Where the contents end, decided first: the scan reads a string
        // of that length, which holds no NUL byte.
        let left = reading.len.bvsub(Word::known(u128::from(consumed), 64));
        let lengths: Vec<(Cond, usize)> = (0..=rest.len())
            .map(|k| (left.eq(Word::known(k as u128, 64)), k))
            .collect();
        let length = self.choose(st, lengths)?;
        let no_nul: Vec<Cond> = (rest[..length].iter())
            .map(|byte| is_char(byte, 0).not())
            .collect();
        self.assume_limit(st, &Cond::and(&no_nul), Bound::ScannedStream)?;
        if let StreamRole::Read(reading) = &mut stream_mut(st, stream)?.role {
            reading.examined = reading.examined.max(consumed + length as u64);
        }
        let mut cells: Vec<Cell> = rest[..length].iter().flat_map(int_cells).collect();
        cells.push(Cell::zero());
        let mut text = Object::new(ObjKind::Stack, cells);
        text.written.fill(Written::Yes);
        let text = st.add_object(text);
        let src = Source {
            obj: text,
            ptr: PtrVal::to(Target::Object(text)),
        };
        let read = Range {
            obj: text,
            start: Word::known(0, 64),
            len: Word::known(length as u128 + 1, 64),
        };
        let peeks_last = directives.last().is_some_and(looks_past);
        let (ending, at) = self.scan_input(st, &src, &read, &directives, targets)?;
        if !ending.complete {
            stream_mut(st, stream)?.scan_stopped = true;
            return returns_int(Word::known(u128::from(ending.returns as u32), 32));
        }
        let stops: Vec<(Cond, u64)> = (0..=length as u64)
            .map(|k| (at.eq(Word::known(u128::from(k), 64)), k))
            .collect();
        let taken = self.choose(st, stops)?;
        let at_end = peeks_last && taken == length as u64;
        // A field of the most characters its width allows, at the end:
        // whether glibc looked past it (and met the end) is not modelled.
        let full_field_at_end = at_end
            && matches!(directives.last(), Some(Directive::Conversion(spec)) if spec.width.is_some());
        let s = stream_mut(st, stream)?;
        if full_field_at_end {
            s.scan_stopped = true;
        }
        s.eof |= at_end;
        if let StreamRole::Read(reading) = &mut s.role {
            reading.consumed += taken;
        }
        returns_int(Word::known(u128::from(ending.returns as u32), 32))
    }

    /// The directives of the format at argument `format` and the pointers
    /// its conversions assign through, which follow it.
    fn scan_directives(
        &mut self,
        st: &mut State,
        args: &Args,
        format: usize,
    ) -> Exec<(Vec<Directive>, Vec<PtrVal>)> {
        let text = self.constant_string(st, &args.ptr(format)?, "a format string")?;
        let directives = directives(&text, self.program.data_model).or_else(unsupported)?;
        // Where conversions assign, first: an undecided pointer forks before anything changed.
        let mut targets = Vec::new();
        for d in &directives {
            if let Directive::Conversion(spec) = d {
                if !spec.star && spec.conversion != b'%' {
                    let target = args.ptr(format + 1 + targets.len())?;
                    self.source(st, &target)?;
                    targets.push(target);
                }
            }
        }
        Ok((directives, targets))
    }

    /// Matches `directives` against the string at `src` (`read`, its bytes
    /// with the NUL), assigns through `targets` what the conversions read,
    /// and gives how the scan ended and where it stopped when it matched
    /// the whole format (trailing white space skipped).
    fn scan_input(
        &mut self,
        st: &mut State,
        src: &Source,
        read: &Range,
        directives: &[Directive],
        targets: Vec<PtrVal>,
    ) -> Exec<(Ending, Word)> {
        let mut scan = Scanning::new();
        let mut assignments = Vec::new();
        let mut range_errors = Vec::new();
        let mut skip_spaces = false;
        for d in directives {
            match d {
                Directive::Char(c) if CharClass::Space.contains(*c) => {
                    skip_spaces = true;
                    continue;
                }
                Directive::Char(c) => self.scan_char(st, src, &mut scan, *c, skip_spaces)?,
                Directive::Conversion(spec) => {
                    let (assignment, out_of_range) =
                        self.scan_conversion(st, src, &mut scan, spec, skip_spaces)?;
                    range_errors.extend(out_of_range);
                    if let (Some(assignment), false) = (assignment, spec.star) {
                        assignments.push(assignment);
                        scan.assigned += 1;
                    }
                }
            }
            skip_spaces = false;
        }
        if skip_spaces {
            scan.at = self.skip_spaces(st, src, &scan.at)?;
        }
        let at = scan.at.clone();
        let ending = self.choose(st, scan.outcomes())?;
        self.set_errno_if(st, &Cond::or(&range_errors), ERANGE)?;
        let done = usize::try_from(ending.returns).unwrap_or(0);
        for (assignment, target) in assignments.into_iter().zip(targets).take(done) {
            self.assign(st, assignment, &target, read)?;
        }
        Ok((ending, at))
    }

    /// The longest run of at most `most` characters from `start` that are
    /// `wanted` (never the terminating NUL): its bytes (one more, read past it)
    /// and its length.
    fn word(
        &self,
        st: &State,
        src: &Source,
        start: &Word,
        most: u64,
        wanted: impl Fn(&Word) -> Cond,
    ) -> Exec<(Vec<Word>, Word)> {
        let mut bytes = Vec::new();
        let mut ends = Vec::new();
        for j in 0..=most {
            self.keep_going()?;
            let byte = src.byte(st, &start.bvadd(Word::known(u128::from(j), 64)))?;
            ends.push(Cond::or(&[is_char(&byte, 0), wanted(&byte).not()]));
            bytes.push(byte);
        }
        let mut len = Word::known(u128::from(most), 64);
        for (j, end) in ends.into_iter().enumerate().take(most as usize).rev() {
            len = end.ite(&Word::known(j as u128, 64), &len);
        }
        Ok((bytes, len))
    }

    /// Reads one conversion at the scan's position: what it would assign,
    /// and for an integer when it is out of range (`ERANGE`).
    fn scan_conversion(
        &mut self,
        st: &mut State,
        src: &Source,
        scan: &mut Scanning,
        spec: &Spec,
        skip_spaces: bool,
    ) -> Exec<(Option<Assignment>, Option<Cond>)> {
        match spec.conversion {
            b'%' => {
                self.scan_char(st, src, scan, b'%', true)?;
                Ok((None, None))
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
                let number = self.read_integer(st, src, &scan.at, &syntax)?;
                scan.fails_if(number.empty.clone(), true);
                scan.fails_if(number.converted.not(), false);
                let signed = matches!(spec.conversion, b'd' | b'i');
                // glibc converts with strtoll for `ll`, else strtol (32
                // bits under ILP32), then stores the result's low bits.
                let long = u32::from(self.program.data_model.long().bits);
                let width = if spec.bits > long { spec.bits } else { long };
                let (value, out_of_range) = number.value(signed, width);
                let range_error = Cond::and(&[scan.matching.clone(), out_of_range]);
                scan.at = number.end;
                let value = resize(&value, spec.bits, signed);
                Ok((Some(Assignment::Int { value, signed }), Some(range_error)))
            }
            b's' | b'[' => {
                // `%s` skips white space and reads up to the next; a
                // scanset reads its members, and at least one.
                let start = if spec.conversion == b's' || skip_spaces {
                    self.skip_spaces(st, src, &scan.at)?
                } else {
                    scan.at.clone()
                };
                scan.fails_if(is_char(&src.byte(st, &start)?, 0), true);
                let most = spec.width.unwrap_or(st.object(src.obj).capacity()).max(1);
                let (bytes, len) = match &spec.set {
                    Some(set) => self.word(st, src, &start, most, |b| set.contains(b))?,
                    None => {
                        self.word(st, src, &start, most, |b| CharClass::Space.holds(b).not())?
                    }
                };
                scan.fails_if(len.eq(Word::known(0, 64)), false);
                scan.at = start.bvadd(&len);
                let chars = Assignment::Chars {
                    bytes: terminated(bytes, &len),
                    count: len.bvadd(Word::known(1, 64)),
                    field: spec.width.map(|w| w + 1),
                };
                Ok((Some(chars), None))
            }
            b'c' => {
                let start = if skip_spaces {
                    self.skip_spaces(st, src, &scan.at)?
                } else {
                    scan.at.clone()
                };
                // glibc keeps the characters before the input's end, at most the width.
                let width = spec.width.unwrap_or(1).max(1);
                let mut bytes = Vec::new();
                for j in 0..width {
                    bytes.push(src.byte(st, &start.bvadd(Word::known(u128::from(j), 64)))?);
                }
                let mut count = Word::known(u128::from(width), 64);
                for (j, byte) in bytes.iter().enumerate().rev() {
                    count = is_char(byte, 0).ite(&Word::known(j as u128, 64), &count);
                }
                scan.fails_if(count.eq(Word::known(0, 64)), true);
                scan.at = start.bvadd(&count);
                let chars = Assignment::Chars {
                    bytes,
                    count,
                    field: Some(width),
                };
                Ok((Some(chars), None))
            }
            c => unsupported(format!("the scanf conversion `%{}`", c as char)),
        }
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
        scan.fails_if(here.eq(Word::known(u128::from(c), 8)).not(), false);
        scan.at = scan.at.bvadd(Word::known(1, 64));
        Ok(())
    }

    /// Writes what a conversion assigned where its argument points, apart
    /// from the input it read (`restrict`).
    fn assign(
        &mut self,
        st: &mut State,
        assignment: Assignment,
        target: &PtrVal,
        read: &Range,
    ) -> Exec<()> {
        let obj = self.deref(st, target)?;
        let len = match &assignment {
            Assignment::Int { value, .. } => Word::known(u128::from(value.get_size() / 8), 64),
            Assignment::Chars { count, .. } => count.clone(),
        };
        let written = Range {
            obj,
            start: target.offset.clone(),
            len,
        };
        self.require_apart(st, &written, read, OwnOverlap::Assumed)?;
        match assignment {
            Assignment::Int { value, signed } => {
                let loc = Loc {
                    obj,
                    off: target.offset.clone(),
                    ty: Type::Int(IntType::new(value.get_size() as u16, signed)),
                    bits: None,
                };
                self.store(st, &loc, &SymVal::Int(value))
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
                self.copy_bytes(st, target, &Fill::Bytes(bytes), &count)
            }
        }
    }
}

/// Whether scanf looks at the character after what directive `d` matched
/// (a number or word ends at the first that does not belong; white space
/// at the first that is not), so that at the input's end it meets the end.
fn looks_past(d: &Directive) -> bool {
    match d {
        Directive::Char(c) => CharClass::Space.contains(*c),
        Directive::Conversion(spec) => !matches!(spec.conversion, b'c' | b'%'),
    }
}
