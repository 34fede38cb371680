//! Streams: the `FILE *` functions on input streams, exact for glibc on
//! the streams the drivers open: `fmemopen` over the contents for reading,
//! and for writing an unbuffered sink that keeps what it takes and takes
//! at most a number of bytes the test chooses (see `emit`'s `streams`). A
//! stream becomes what the path first does with it. Read, it holds input
//! bytes (up to `Executor::max_string`: `max_array`, or enough for a
//! literal the code compares strings with; then end of file), and each
//! read forks on where the contents end. Written, each write forks on the room left: it
//! fits; there is none (`EOF`, the error flag, `errno` `ENOSPC`); or too
//! little, and the write takes what fits and sets the error flag (glibc's
//! short write). `stdin`, `stdout` and `stderr` are the process's own:
//! writes to them return an unconstrained result, as `printf` does; `stdin`
//! read is a stream read like any other, which the test sets `stdin` to.
//!
//! [`STREAM_FUNCTIONS`] is the one list of the functions modelled here,
//! and of those that stop the path with a reason.

use super::{output_only, returns, returns_int, Args, Fill, Model, EBADF};
use crate::exec::place::Loc;
use crate::exec::{unsupported, Exec, Machine, Stop};
use crate::memory;
use crate::state::{ObjKind, Object, Piece, Reading, State, Stream, StreamRole, Writing, Written};
use crate::value::{cell_byte, cond_value, Cond, LazyIdx, ObjIdx, PtrVal, SymVal, Target, Word};
use ir::{IntType, Program, Type};
use std::rc::Rc;
use testcase::Bound;
use testcase::FindingKind;
use z3::ast::BV;

/// What a stream function does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Operation {
    /// `fgetc(fp)`: one character, or `EOF`.
    GetChar,
    /// `fgets(s, n, fp)`: a line of at most `n - 1` characters and a NUL.
    GetString,
    /// `fread(p, size, n, fp)`: up to `n` items of `size` bytes.
    Read,
    /// `getline(&line, &n, fp)`: a line into a buffer it allocates.
    GetLine,
    /// `getdelim(&line, &n, delim, fp)`: `getline` up to `delim`.
    GetDelimited,
    /// `ungetc(c, fp)`: pushes a character back.
    UngetChar,
    /// `fputc(c, fp)`.
    PutChar,
    /// `fputs(s, fp)`.
    PutString,
    /// `fprintf(fp, format, ...)`.
    Print,
    /// `vfprintf(fp, format, ap)`.
    PrintArguments,
    /// `fscanf(fp, format, ...)`.
    ScanFormatted,
    /// `fwrite(p, size, n, fp)`.
    Write,
    Flush,
    Close,
    EndOfFile,
    Error,
    ClearErrors,
    /// `fileno(fp)`: a standard stream's descriptor; the streams a test
    /// makes (`fmemopen`, a sink) have none: -1 with `EBADF`.
    Descriptor,
    /// Not modelled: the path stops, saying why.
    Unmodelled(&'static str),
}

impl Operation {
    /// Whether it takes bytes from the stream (pushing one back does not).
    fn reads(self) -> bool {
        matches!(
            self,
            Operation::GetChar
                | Operation::GetString
                | Operation::Read
                | Operation::GetLine
                | Operation::GetDelimited
                | Operation::ScanFormatted
        )
    }

    /// Whether it writes to the stream (or flushes what was written).
    fn writes(self) -> bool {
        matches!(
            self,
            Operation::PutChar
                | Operation::PutString
                | Operation::Print
                | Operation::PrintArguments
                | Operation::Write
                | Operation::Flush
        )
    }
}

/// A stream function: its name, which argument is the stream, what it does.
#[derive(Clone, Copy, Debug)]
pub(super) struct StreamFunction {
    pub name: &'static str,
    pub stream: usize,
    pub operation: Operation,
}

const fn function(name: &'static str, stream: usize, operation: Operation) -> StreamFunction {
    StreamFunction {
        name,
        stream,
        operation,
    }
}

const POSITIONING: &str = "positioning a stream is not modelled";
const BUFFERING: &str = "a stream's buffering is not modelled";
const FORMATTED_INPUT: &str = "reading a stream with a format and a `va_list` is not modelled";

/// Every stream function the engine knows, with the argument that is the
/// stream (a unit test checks each against glibc's `<stdio.h>`).
pub(super) const STREAM_FUNCTIONS: &[StreamFunction] = &[
    function("fgetc", 0, Operation::GetChar),
    function("getc", 0, Operation::GetChar),
    function("fgetc_unlocked", 0, Operation::GetChar),
    function("getc_unlocked", 0, Operation::GetChar),
    function("fgets", 2, Operation::GetString),
    function("fgets_unlocked", 2, Operation::GetString),
    function("fread", 3, Operation::Read),
    function("fread_unlocked", 3, Operation::Read),
    function("getline", 2, Operation::GetLine),
    function("getdelim", 3, Operation::GetDelimited),
    function("ungetc", 1, Operation::UngetChar),
    function("fputc", 1, Operation::PutChar),
    function("putc", 1, Operation::PutChar),
    function("fputc_unlocked", 1, Operation::PutChar),
    function("putc_unlocked", 1, Operation::PutChar),
    function("fputs", 1, Operation::PutString),
    function("fputs_unlocked", 1, Operation::PutString),
    function("fprintf", 0, Operation::Print),
    function("vfprintf", 0, Operation::PrintArguments),
    function("fwrite", 3, Operation::Write),
    function("fwrite_unlocked", 3, Operation::Write),
    function("fflush", 0, Operation::Flush),
    function("fflush_unlocked", 0, Operation::Flush),
    function("fclose", 0, Operation::Close),
    function("feof", 0, Operation::EndOfFile),
    function("feof_unlocked", 0, Operation::EndOfFile),
    function("ferror", 0, Operation::Error),
    function("ferror_unlocked", 0, Operation::Error),
    function("clearerr", 0, Operation::ClearErrors),
    function("clearerr_unlocked", 0, Operation::ClearErrors),
    function("fseek", 0, Operation::Unmodelled(POSITIONING)),
    function("fseeko", 0, Operation::Unmodelled(POSITIONING)),
    function("ftell", 0, Operation::Unmodelled(POSITIONING)),
    function("ftello", 0, Operation::Unmodelled(POSITIONING)),
    function("rewind", 0, Operation::Unmodelled(POSITIONING)),
    function("fgetpos", 0, Operation::Unmodelled(POSITIONING)),
    function("fsetpos", 0, Operation::Unmodelled(POSITIONING)),
    function("fileno", 0, Operation::Descriptor),
    function("fileno_unlocked", 0, Operation::Descriptor),
    function("setvbuf", 0, Operation::Unmodelled(BUFFERING)),
    function("setbuf", 0, Operation::Unmodelled(BUFFERING)),
    function("fscanf", 0, Operation::ScanFormatted),
    function("vfscanf", 0, Operation::Unmodelled(FORMATTED_INPUT)),
];

/// The stream function named `name`, if it is one.
pub(super) fn stream_function(name: &str) -> Option<&'static StreamFunction> {
    STREAM_FUNCTIONS.iter().find(|f| f.name == name)
}

/// `EOF`, as an `int`.
const EOF: u128 = 0xffff_ffff;
/// The `errno` of a write that finds no room (the sink's, as a full disk's).
const ENOSPC: u128 = 28;
/// The buffer `getline` allocates when given none (glibc's first size).
const GETLINE_BUFFER: u64 = 120;
/// Most bytes one `fread` or `fwrite` moves.
const MOST_BYTES: u64 = 1 << 16;

/// How a read ends: `count` bytes taken, and whether the contents ended
/// before it had all it wanted (the end-of-file flag).
#[derive(Clone, Copy)]
struct ReadEnd {
    count: u64,
    at_end: bool,
}

/// The stream of object `obj`.
pub(super) fn stream(st: &State, obj: ObjIdx) -> Exec<&Stream> {
    match &st.object(obj).kind {
        ObjKind::Stream(stream) => Ok(stream),
        _ => unsupported("a `FILE *` that points to something other than a stream"),
    }
}

pub(super) fn stream_mut(st: &mut State, obj: ObjIdx) -> Exec<&mut Stream> {
    match &mut st.object_mut(obj).kind {
        ObjKind::Stream(stream) => Ok(stream),
        _ => unsupported("a `FILE *` that points to something other than a stream"),
    }
}

fn null() -> SymVal {
    SymVal::Ptr(PtrVal::to(Target::Null))
}

fn byte_word(b: u8) -> Word {
    Word::known(u128::from(b), 8)
}

impl Machine<'_, '_> {
    /// The stream input an undecided `FILE *` designates when first used
    /// (see `Machine::materialize`).
    pub fn new_stream(&mut self, st: &mut State, lazy: LazyIdx) -> ObjIdx {
        let name = st.lazies[lazy as usize].path.clone();
        let stream = Stream::new(name, StreamRole::Unused);
        let obj = st.add_object(Object::new(ObjKind::Stream(Box::new(stream)), Vec::new()));
        st.lazies[lazy as usize].resolution = Some(Target::Object(obj));
        obj
    }

    /// A standard stream's object, which its global points to.
    pub fn standard_stream(&mut self, st: &mut State, name: &str) -> ObjIdx {
        let stream = Stream::new(Rc::from(name), StreamRole::Standard);
        st.add_object(Object::new(ObjKind::Stream(Box::new(stream)), Vec::new()))
    }

    pub(super) fn stream_call(
        &mut self,
        st: &mut State,
        function: &StreamFunction,
        args: &Args,
    ) -> Exec<Model> {
        let operation = function.operation;
        if let Operation::Unmodelled(why) = operation {
            return unsupported(format!("`{}`: {why}", function.name));
        }
        let fp = args.ptr(function.stream)?;
        // `fflush(NULL)` flushes every stream, the standard ones too.
        if operation == Operation::Flush && self.resolved(st, &fp.target) == Target::Null {
            return output_only(st, function.name);
        }
        let obj = self.deref(st, &fp)?;
        if Self::concrete_u64(&fp.offset) != Some(0) {
            return unsupported("a `FILE *` that points inside a stream");
        }
        let current = stream(st, obj)?;
        if current.closed {
            let (kind, what) = match operation {
                Operation::Close => (FindingKind::DoubleFree, "closed again"),
                _ => (FindingKind::UseAfterFree, "used after `fclose`"),
            };
            let message = format!("stream `{}` {what}", current.name);
            return self.fault(st, kind, &message);
        }
        let reads_stdin = current.is_unread_standard_input() && operation.reads();
        if matches!(current.role, StreamRole::Standard) && !operation.writes() && !reads_stdin {
            return standard_stream_call(function, &current.name.clone());
        }
        if current.scan_stopped && !matches!(operation, Operation::Close) {
            return Err(Stop::Budget(Bound::ScannedStream));
        }
        let (eof, error) = (current.eof, current.error);
        match operation {
            Operation::ScanFormatted => {
                self.reading(st, obj)?;
                self.fscanf(st, args, obj)
            }
            Operation::GetChar => {
                self.reading(st, obj)?;
                let bytes = self.take_bytes(st, obj, Some(1), None)?;
                returns_int(match bytes.first() {
                    Some(byte) => byte.zero_ext(24),
                    None => Word::known(EOF, 32),
                })
            }
            Operation::GetString => self.fgets(st, args, obj),
            Operation::Read => self.fread(st, args, obj),
            Operation::GetLine => self.getdelim(st, args, obj, b'\n'),
            Operation::GetDelimited => {
                let delimiter = self.concretise(st, &args.int(2)?)?;
                self.getdelim(st, args, obj, delimiter as u8)
            }
            Operation::UngetChar => self.ungetc(st, args, obj),
            Operation::PutChar => {
                let c = args.int(0)?.extract(7, 0);
                self.writing(st, obj)?;
                let written = (vec![c.clone()], &Word::known(1, 64));
                self.put(st, obj, written, |put| match put {
                    Put::Fits => c.zero_ext(24),
                    Put::NoRoom | Put::Short(_) => Word::known(EOF, 32),
                })
            }
            Operation::PutString => self.fputs(st, args, obj),
            Operation::Print | Operation::PrintArguments => self.fprintf(st, args, obj, operation),
            Operation::Write => self.fwrite(st, args, obj),
            Operation::Flush => returns_int(Word::known(0, 32)),
            Operation::Close => {
                stream_mut(st, obj)?.closed = true;
                returns_int(Word::known(0, 32))
            }
            Operation::EndOfFile => returns_int(Word::known(u128::from(eof), 32)),
            Operation::Error => returns_int(Word::known(u128::from(error), 32)),
            Operation::ClearErrors => {
                let stream = stream_mut(st, obj)?;
                stream.eof = false;
                stream.error = false;
                Ok(Model::Returns(None))
            }
            Operation::Descriptor => {
                self.set_errno_if(st, &Cond::from(true), EBADF)?;
                returns_int(Word::known(u128::MAX, 32))
            }
            Operation::Unmodelled(why) => unsupported(why),
        }
    }

    /// Makes the stream one read, on its first use: its contents become
    /// input bytes.
    fn reading(&mut self, st: &mut State, obj: ObjIdx) -> Exec<()> {
        let current = stream(st, obj)?;
        match &current.role {
            StreamRole::Read(_) => return Ok(()),
            StreamRole::Unused => {}
            StreamRole::Standard if current.is_unread_standard_input() => {}
            _ => return unsupported("a stream both written and read"),
        }
        let name = current.name.clone();
        let most = self.max_string;
        let contents = (0..most)
            .map(|k| st.fresh_input(&format!("contents({name})[{k}]"), 8, false))
            .collect();
        let len = Word::Term(BV::new_const(st.symbol_name(&format!("len({name})")), 64));
        self.assume_limit(
            st,
            &len.bvule(Word::known(u128::from(most), 64)),
            Bound::MaxArray,
        )?;
        let stream = stream_mut(st, obj)?;
        stream.standard_input = stream.is_unread_standard_input();
        stream.role = StreamRole::Read(Reading {
            contents,
            len,
            consumed: 0,
            pushed_back: Vec::new(),
            examined: 0,
        });
        Ok(())
    }

    /// Makes the stream one written, on its first use: the room it has
    /// becomes an input.
    fn writing(&mut self, st: &mut State, obj: ObjIdx) -> Exec<()> {
        let current = stream(st, obj)?;
        match &current.role {
            StreamRole::Write(_) | StreamRole::Standard => return Ok(()),
            StreamRole::Unused => {}
            _ => return unsupported("a stream both read and written"),
        }
        let room = st.fresh_input(&format!("room({})", current.name), 64, false);
        stream_mut(st, obj)?.role = StreamRole::Write(Writing {
            room,
            taken: Word::known(0, 64),
            filled: false,
            written: Some(Vec::new()),
        });
        Ok(())
    }

    /// A write of the first `n` (64 bits) of `bytes`, the call returning
    /// `result` of how it met the room the stream had left; the stream
    /// takes what fits. Until a write fills it, the room is bounded only by
    /// the failure the path meets, so a write that fits constrains nothing
    /// (no query over a formatted number's digits): it fits, finds no room
    /// (the room is what was taken) or finds too little (the room lies
    /// within this write). Once filled, a write fits only when empty. Where
    /// several may hold, the path forks and each child finishes the call
    /// (running it again would make new symbols for those digits).
    fn put(
        &mut self,
        st: &mut State,
        obj: ObjIdx,
        (bytes, n): (Vec<Word>, &Word),
        result: impl Fn(&Put) -> Word,
    ) -> Exec<Model> {
        let writing = match &stream(st, obj)?.role {
            StreamRole::Write(writing) => writing,
            // The test's standard output and error take every write (the
            // driver's runner reads them), so it succeeds as it would there.
            StreamRole::Standard => return returns_int(result(&Put::Fits)),
            _ => return unsupported("a write to a stream not opened for writing"),
        };
        let zero = Word::known(0, 64);
        let empty = n.eq(&zero);
        // Each way the write may go: when it may, and what it then assumes.
        let mut ways = Vec::new();
        if writing.filled {
            ways.push((empty.clone(), empty.clone(), Put::Fits));
            ways.push((empty.not(), empty.not(), Put::NoRoom));
        } else {
            let (room, taken) = (&writing.room, &writing.taken);
            ways.push((Cond::Known(true), Cond::Known(true), Put::Fits));
            let none_left = Cond::and(&[empty.not(), room.eq(taken)]);
            ways.push((empty.not(), none_left, Put::NoRoom));
            // A write of one byte fits or finds no room.
            if Self::concrete_u64(n).is_none_or(|n| n > 1) {
                let within = Cond::and(&[room.bvugt(taken), room.bvult(taken.bvadd(n))]);
                let short = Put::Short(room.bvsub(taken));
                ways.push((n.bvugt(Word::known(1, 64)), within, short));
            }
        }
        let mut feasible = Vec::new();
        for (may, assumed, put) in ways {
            if cond_value(&may) == Some(true) || (cond_value(&may).is_none() && self.may(st, &may))
            {
                feasible.push((assumed, put));
            }
        }
        if feasible.len() <= 1 {
            let Some((assumed, put)) = feasible.pop() else {
                return Err(Stop::Dead);
            };
            self.assume(st, &assumed)?;
            self.take(st, obj, bytes, n, &put)?;
            return returns_int(result(&put));
        }
        let mut outcomes = Vec::new();
        for (assumed, put) in feasible {
            let mut child = self.fork(st);
            self.assume(&mut child, &assumed)?;
            self.take(&mut child, obj, bytes.clone(), n, &put)?;
            outcomes.push((child, SymVal::Int(result(&put))));
        }
        Err(Stop::Fork(self.finish_calls(outcomes)?))
    }

    /// What a write of the first `n` of `bytes` leaves in the stream, as
    /// `put` found room for it.
    fn take(
        &mut self,
        st: &mut State,
        obj: ObjIdx,
        bytes: Vec<Word>,
        n: &Word,
        put: &Put,
    ) -> Exec<()> {
        let (taken, error) = match put {
            Put::Fits => (n.clone(), false),
            Put::NoRoom => {
                self.set_errno_if(st, &Cond::Known(true), ENOSPC)?;
                (Word::known(0, 64), true)
            }
            Put::Short(left) => (left.clone(), true),
        };
        let stream = stream_mut(st, obj)?;
        stream.error |= error;
        if let StreamRole::Write(writing) = &mut stream.role {
            writing.taken = writing.taken.bvadd(&taken);
            writing.filled |= error;
            if let Some(pieces) = &mut writing.written {
                pieces.push(Piece { bytes, len: taken });
            }
        }
        Ok(())
    }

    /// Reads up to `most` bytes (`None`: no limit), stopping after the
    /// byte `until` when given (`fgets`'s newline): pushed-back characters
    /// first, then the contents. The path forks over how the read ends
    /// (each child runs the call again); the bytes read are returned and
    /// the stream moves past them, its end-of-file flag set when the
    /// contents ended first. A read the contents' bound (`max_array`)
    /// stops is only cut by it.
    fn take_bytes(
        &mut self,
        st: &mut State,
        obj: ObjIdx,
        most: Option<u64>,
        until: Option<u8>,
    ) -> Exec<Vec<Word>> {
        let StreamRole::Read(reading) = &stream(st, obj)?.role else {
            return unsupported("a read of a stream not opened for reading");
        };
        let reading = reading.clone();
        let pushed = reading.pushed_back.len() as u64;
        let byte = |i: u64| -> Word {
            if i < pushed {
                reading.pushed_back[(pushed - 1 - i) as usize].clone()
            } else {
                reading.contents[(reading.consumed + i - pushed) as usize].clone()
            }
        };
        // The contents hold byte `i` of this read (pushed-back ones always).
        let holds = |i: u64| -> Cond {
            match i.checked_sub(pushed) {
                None => Cond::Known(true),
                Some(k) => reading
                    .len
                    .bvugt(Word::known(u128::from(reading.consumed + k), 64)),
            }
        };
        let reachable = pushed + reading.contents.len() as u64 - reading.consumed;
        let mut alternatives = Vec::new();
        // No byte read so far was `until`.
        let mut clean = Vec::new();
        let mut k = 0;
        loop {
            let holds_k = match k {
                0 => Cond::Known(true),
                _ => holds(k - 1),
            };
            if most == Some(k) {
                let whole = ReadEnd {
                    count: k,
                    at_end: false,
                };
                alternatives.push((Cond::and(&[Cond::and(&clean), holds_k]), whole));
                break;
            }
            let at_end = ReadEnd {
                count: k,
                at_end: true,
            };
            let ends = Cond::and(&[Cond::and(&clean), holds_k, holds(k).not()]);
            alternatives.push((ends, at_end));
            if k == reachable {
                // More would need contents longer than the bound allows.
                st.scan_capped = true;
                break;
            }
            if let Some(stop) = until {
                let is_stop = byte(k).eq(byte_word(stop));
                let through = ReadEnd {
                    count: k + 1,
                    at_end: false,
                };
                let stops = Cond::and(&[Cond::and(&clean), holds(k), is_stop.clone()]);
                alternatives.push((stops, through));
                clean.push(is_stop.not());
            }
            k += 1;
        }
        let end = self.choose(st, alternatives)?;
        let bytes: Vec<Word> = (0..end.count).map(byte).collect();
        let from_pushed = end.count.min(pushed);
        let stream = stream_mut(st, obj)?;
        if end.at_end {
            stream.eof = true;
        }
        if let StreamRole::Read(reading) = &mut stream.role {
            let left = reading.pushed_back.len() - from_pushed as usize;
            reading.pushed_back.truncate(left);
            reading.consumed += end.count - from_pushed;
        }
        Ok(bytes)
    }

    /// `fgets(s, n, fp)`: at most `n - 1` characters, through a newline,
    /// and a NUL; NULL when the contents ended before any (or `n <= 0`,
    /// which reads nothing; `n == 1` stores only the NUL).
    fn fgets(&mut self, st: &mut State, args: &Args, obj: ObjIdx) -> Exec<Model> {
        let dst = args.ptr(0)?;
        let n = self.concretise(st, &args.int(1)?)?;
        let n = i64::from(n as u32 as i32);
        if n <= 0 {
            return returns(null());
        }
        // The destination first: an undecided pointer forks before the read.
        self.source(st, &dst)?;
        let bytes = match n {
            1 => Vec::new(),
            _ => {
                self.reading(st, obj)?;
                let bytes = self.take_bytes(st, obj, Some(n as u64 - 1), Some(b'\n'))?;
                if bytes.is_empty() {
                    return returns(null());
                }
                bytes
            }
        };
        self.store_terminated(st, &dst, bytes)?;
        returns(SymVal::Ptr(dst))
    }

    /// Writes `bytes` and a NUL at `dst`.
    fn store_terminated(&mut self, st: &mut State, dst: &PtrVal, mut bytes: Vec<Word>) -> Exec<()> {
        bytes.push(byte_word(0));
        let count = Word::known(bytes.len() as u128, 64);
        self.copy_bytes(st, dst, &Fill::Bytes(bytes), &count)
    }

    /// `fread(p, size, n, fp)`: the items read in full; the bytes of a
    /// last partial one are stored too, as glibc does.
    fn fread(&mut self, st: &mut State, args: &Args, obj: ObjIdx) -> Exec<Model> {
        let dst = args.ptr(0)?;
        let (size, total) = self.item_bytes(st, args)?;
        if total == 0 {
            return returns_int(Word::known(0, 64));
        }
        self.source(st, &dst)?;
        self.reading(st, obj)?;
        let bytes = self.take_bytes(st, obj, Some(total), None)?;
        let count = bytes.len() as u64;
        if count > 0 {
            let n = Word::known(u128::from(count), 64);
            self.copy_bytes(st, &dst, &Fill::Bytes(bytes), &n)?;
        }
        returns_int(Word::known(u128::from(count / size), 64))
    }

    /// The item size and the bytes of `fread` and `fwrite` (arguments 1
    /// and 2), fixed to the values the path takes.
    fn item_bytes(&mut self, st: &mut State, args: &Args) -> Exec<(u64, u64)> {
        let size = self.concretise(st, &args.size(1)?)? as u64;
        let count = self.concretise(st, &args.size(2)?)? as u64;
        match size.checked_mul(count) {
            Some(total) if total <= MOST_BYTES => Ok((size, total)),
            _ => unsupported(format!("`{}` of more than {MOST_BYTES} bytes", args.name)),
        }
    }

    /// `getline(&line, &n, fp)` and `getdelim(&line, &n, delim, fp)`:
    /// through the delimiter or the end of the contents, into `*line`,
    /// which glibc allocates (120 bytes, `*n` set) when it is NULL or `*n`
    /// is 0, even when it then reads nothing. The count, or -1 when the
    /// contents ended first (`EINVAL` without `line` or `n`).
    fn getdelim(&mut self, st: &mut State, args: &Args, obj: ObjIdx, delimiter: u8) -> Exec<Model> {
        let failed = Word::known(u128::from(u64::MAX), 64);
        let (line_ptr, size_ptr) = (args.ptr(0)?, args.ptr(1)?);
        let (Some(line_obj), Some(size_obj)) = (
            self.optional_target(st, &line_ptr)?,
            self.optional_target(st, &size_ptr)?,
        ) else {
            self.set_errno_if(st, &Cond::Known(true), super::EINVAL)?;
            return returns_int(failed);
        };
        let line_loc = Loc {
            obj: line_obj,
            off: line_ptr.offset.clone(),
            ty: Type::ptr(Type::Int(IntType::CHAR)),
            bits: None,
        };
        let size_loc = Loc {
            obj: size_obj,
            off: size_ptr.offset.clone(),
            ty: Type::Int(self.program.data_model.ulong()),
            bits: None,
        };
        let SymVal::Ptr(line) = self.load(st, &line_loc)? else {
            return unsupported("a `getline` buffer that is not a pointer");
        };
        let SymVal::Int(size) = self.load(st, &size_loc)? else {
            return unsupported("a `getline` size that is not a number");
        };
        let buffer = self.optional_target(st, &line)?;
        let size = self.concretise(st, &size)? as u64;
        self.reading(st, obj)?;
        let StreamRole::Read(reading) = &stream(st, obj)?.role else {
            return unsupported("a read of a stream not opened for reading");
        };
        let reachable = (reading.pushed_back.len() + reading.contents.len()) as u64;
        let allocates = buffer.is_none() || size == 0;
        if !allocates && size <= reachable {
            return unsupported("`getline` growing the caller's buffer");
        }
        let bytes = self.take_bytes(st, obj, None, Some(delimiter))?;
        let dst = if allocates {
            let size = Word::known(u128::from(GETLINE_BUFFER), 64);
            let fresh = PtrVal::to(Target::Object(self.new_heap_object(st, &size, false)?));
            self.store(st, &line_loc, &SymVal::Ptr(fresh.clone()))?;
            self.store(st, &size_loc, &SymVal::Int(size))?;
            fresh
        } else {
            line
        };
        if bytes.is_empty() {
            return returns_int(failed);
        }
        let count = Word::known(bytes.len() as u128, 64);
        self.store_terminated(st, &dst, bytes)?;
        returns_int(count)
    }

    /// `ungetc(c, fp)`: `c` as an `unsigned char`, read first by the next
    /// read, the end-of-file flag cleared; `EOF` pushes nothing back.
    fn ungetc(&mut self, st: &mut State, args: &Args, obj: ObjIdx) -> Exec<Model> {
        let c = args.int(0)?;
        let is_eof = c.eq(Word::known(EOF, 32));
        if self.choose(st, vec![(is_eof.clone(), true), (is_eof.not(), false)])? {
            return returns_int(Word::known(EOF, 32));
        }
        self.reading(st, obj)?;
        let byte = c.extract(7, 0);
        let stream = stream_mut(st, obj)?;
        stream.eof = false;
        if let StreamRole::Read(reading) = &mut stream.role {
            reading.pushed_back.push(byte.clone());
        }
        returns_int(byte.zero_ext(24))
    }

    /// `fputs(s, fp)`: 1 (glibc's success), or `EOF` when the string
    /// did not fit.
    fn fputs(&mut self, st: &mut State, args: &Args, obj: ObjIdx) -> Exec<Model> {
        let s = args.ptr(0)?;
        self.writing(st, obj)?;
        let len = self.string_length(st, &s, None)?;
        let bytes = self.string_bytes(st, &s)?;
        self.put(st, obj, (bytes, &len), |put| match put {
            Put::Fits => Word::known(1, 32),
            Put::NoRoom | Put::Short(_) => Word::known(EOF, 32),
        })
    }

    /// The bytes of the string at `s` as far as its object goes.
    fn string_bytes(&mut self, st: &mut State, s: &PtrVal) -> Exec<Vec<Word>> {
        let src = self.source(st, s)?;
        let mut bytes = Vec::new();
        for k in 0..st.object(src.obj).capacity() {
            self.keep_going()?;
            bytes.push(src.byte(st, &Word::known(u128::from(k), 64))?);
        }
        Ok(bytes)
    }

    /// `fprintf(fp, format, ...)` and `vfprintf(fp, format, ap)`: the
    /// characters written, or -1 when they did not fit (glibc writes the
    /// whole text at once to an unbuffered stream).
    fn fprintf(
        &mut self,
        st: &mut State,
        args: &Args,
        obj: ObjIdx,
        operation: Operation,
    ) -> Exec<Model> {
        self.writing(st, obj)?;
        let format = self.constant_string(st, &args.ptr(1)?, "a format string")?;
        let values = match operation {
            Operation::PrintArguments => self.va_list_arguments(st, &args.ptr(2)?, &format)?,
            _ => args.values.get(2..).unwrap_or_default().to_vec(),
        };
        let text = self.format_text(st, &format, &values, &mut Vec::new())?;
        let len = text.len.extract(31, 0);
        self.put(st, obj, (text.bytes, &text.len), |put| match put {
            Put::Fits => len.clone(),
            Put::NoRoom | Put::Short(_) => Word::known(EOF, 32),
        })
    }

    /// The arguments a printf format reads from the `va_list` at `ap`
    /// (its cursor's slots, in order), each of the type its conversion
    /// takes.
    pub(super) fn va_list_arguments(
        &mut self,
        st: &mut State,
        ap: &PtrVal,
        format: &[u8],
    ) -> Exec<Vec<SymVal>> {
        let Some(cursor_offset) = va_list_cursor_offset(self.program) else {
            return unsupported("a `va_list` of an unknown layout");
        };
        let tag = self.deref(st, ap)?;
        let cursor_loc = Loc {
            obj: tag,
            off: ap.offset.bvadd(Word::known(u128::from(cursor_offset), 64)),
            ty: Type::ptr(Type::Void),
            bits: None,
        };
        let SymVal::Ptr(cursor) = self.load(st, &cursor_loc)? else {
            return unsupported("a `va_list` whose cursor is not a pointer");
        };
        let directives =
            super::format::directives(format, self.program.data_model).or_else(unsupported)?;
        let mut values = Vec::new();
        for spec in directives.iter().filter_map(|d| match d {
            super::format::Directive::Conversion(spec) if spec.conversion != b'%' => Some(spec),
            _ => None,
        }) {
            // Promoted to `int` at least, as `...` passes them.
            let bits = spec.bits.max(32) as u16;
            let ty = match spec.conversion {
                b's' => Type::ptr(Type::Int(IntType::CHAR)),
                b'd' | b'i' | b'c' => Type::Int(IntType::new(bits, true)),
                _ => Type::Int(IntType::new(bits, false)),
            };
            let slot = values.len() as u64 * ir::VA_SLOT;
            let area = self.deref(st, &cursor)?;
            let loc = Loc {
                obj: area,
                off: cursor.offset.bvadd(Word::known(u128::from(slot), 64)),
                ty,
                bits: None,
            };
            values.push(self.load(st, &loc)?);
        }
        Ok(values)
    }

    /// `fwrite(p, size, n, fp)`: `n` when all fit, else the items that
    /// did; glibc says `n` too when not a byte fit (it takes the failed
    /// write for a buffer it could not flush).
    fn fwrite(&mut self, st: &mut State, args: &Args, obj: ObjIdx) -> Exec<Model> {
        let src = args.ptr(0)?;
        let (size, total) = self.item_bytes(st, args)?;
        if total == 0 {
            return returns_int(Word::known(0, 64));
        }
        self.writing(st, obj)?;
        let from = self.source(st, &src)?.obj;
        self.note_extent(st, from, &src.offset, Some(total));
        let inside = memory::in_bounds(self.program, st.object(from), &src.offset, total);
        self.bounds_fault(st, &[from], &inside.not(), "read past the end of an object")?;
        let object = st.object(from);
        let determinate = matches!(object.kind, ObjKind::Input { .. } | ObjKind::Str)
            || memory::concrete_offset(&src.offset).is_some_and(|at| {
                object
                    .written
                    .get_range(at as usize..(at + total) as usize)
                    .is_some_and(|w| w.iter().all(|w| matches!(w, Written::Yes)))
            });
        let cells = memory::read(object, &src.offset, total)?;
        let bytes: Option<Vec<Word>> = cells.iter().map(|c| cell_byte(c).ok()).collect();
        let known = bytes.filter(|_| determinate);
        if known.is_none() {
            // Indeterminate bytes (padding, memory never written) or a
            // pointer's: written, but not known to the test.
            if let StreamRole::Write(writing) = &mut stream_mut(st, obj)?.role {
                writing.written = None;
            }
        }
        let n = Word::known(u128::from(total), 64);
        let size = Word::known(u128::from(size), 64);
        self.put(st, obj, (known.unwrap_or_default(), &n), |put| match put {
            Put::Fits | Put::NoRoom => n.bvudiv(&size),
            Put::Short(left) => left.bvudiv(&size),
        })
    }
}

/// A call on `stdin`, `stdout` or `stderr`: writes and flushes keep the
/// output-only model of `printf`.
fn standard_stream_call(function: &StreamFunction, name: &str) -> Exec<Model> {
    match function.operation {
        Operation::Descriptor => {
            let descriptor = ["stdin", "stdout", "stderr"]
                .iter()
                .position(|n| *n == name);
            match descriptor {
                Some(fd) => returns_int(Word::known(fd as u128, 32)),
                None => unsupported(format!("the descriptor of `{name}`")),
            }
        }
        Operation::Close => unsupported(format!("closing `{name}`")),
        Operation::EndOfFile | Operation::Error | Operation::ClearErrors => {
            unsupported(format!("the flags of `{name}`"))
        }
        _ => unsupported(format!("reading `{name}`")),
    }
}

/// How a write met the room its stream had left.
#[derive(Clone)]
enum Put {
    Fits,
    /// None: nothing written.
    NoRoom,
    /// Less than the write: that much written (64 bits).
    Short(Word),
}

/// The offset of a `va_list` tag's cursor (see `ir::VA_LIST_CURSOR`).
fn va_list_cursor_offset(program: &Program) -> Option<u64> {
    let tag = program.structs.iter().find(|s| s.name == ir::VA_LIST_TAG)?;
    Some(tag.fields.get(ir::VA_LIST_CURSOR as usize)?.offset)
}

#[cfg(test)]
mod tests {
    use super::STREAM_FUNCTIONS;
    use crate::state::is_stream_type;

    /// Each function of the table as glibc's `<stdio.h>` declares it: the
    /// argument the table names is its one `FILE *`.
    #[test]
    fn the_table_names_the_stream_argument_glibc_declares() {
        let mut text =
            "#define _GNU_SOURCE\n#include <stdio.h>\nvoid uses(void)\n{\n    void (*f)(void);\n"
                .to_string();
        for function in STREAM_FUNCTIONS {
            text += &format!("    f = (void (*)(void)){};\n", function.name);
        }
        text += "    (void)f;\n}\n";
        let dir = tempfile::tempdir().expect("a temporary directory");
        let path = dir.path().join("uses.c");
        std::fs::write(&path, text).expect("written");
        let program = front::compile(&path, &front::FrontConfig::default())
            .expect("<stdio.h> compiles")
            .program;
        for (k, function) in STREAM_FUNCTIONS.iter().enumerate() {
            let named = STREAM_FUNCTIONS.iter().filter(|f| f.name == function.name);
            assert_eq!(named.count(), 1, "`{}` listed twice", function.name);
            let id = program
                .function_by_name(function.name)
                .unwrap_or_else(|| panic!("`{}` is not in <stdio.h>", function.name));
            let streams: Vec<usize> = program
                .function(id)
                .sig
                .params
                .iter()
                .enumerate()
                .filter(|(_, ty)| ty.pointee().is_some_and(|t| is_stream_type(&program, t)))
                .map(|(i, _)| i)
                .collect();
            assert_eq!(streams, [function.stream], "entry {k}, `{}`", function.name);
        }
    }
}
