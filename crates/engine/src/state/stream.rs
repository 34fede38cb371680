//! A `FILE *` input on one path: a stream the driver opens for real, which
//! becomes what the path first does with it (read it or write it), and
//! what the path read from it or wrote to it since.

use crate::value::Word;
use ir::{Layout, Program, Type};
use std::rc::Rc;

/// glibc's `FILE`: `struct _IO_FILE`.
const FILE_STRUCT: &str = "_IO_FILE";
/// The standard streams, globals `<stdio.h>` declares.
const STANDARD_STREAMS: [&str; 3] = [STANDARD_INPUT, "stdout", "stderr"];
/// The standard input, which a test replaces with a stream it reads.
const STANDARD_INPUT: &str = "stdin";

/// Whether `ty` is `FILE`, whose objects are streams, not data.
pub fn is_stream_type(program: &Program, ty: &Type) -> bool {
    matches!(ty, Type::Struct(id) if program.struct_def(*id).name == FILE_STRUCT)
}

/// Whether global `id` is `stdin`, `stdout` or `stderr`.
pub fn is_standard_stream(program: &Program, id: ir::GlobalId) -> bool {
    let global = program.global(id);
    STANDARD_STREAMS.contains(&global.name.as_str())
        && global.is_extern
        && global.init.is_none()
        && global
            .ty
            .pointee()
            .is_some_and(|t| is_stream_type(program, t))
}

#[derive(Clone, Debug)]
pub struct Stream {
    /// Access path of the pointer the function first used it through
    /// (`out`, `ctx->log`), or the name of a standard stream.
    pub name: Rc<str>,
    pub role: StreamRole,
    /// The end-of-file flag (`feof`): a read found no more bytes.
    pub eof: bool,
    /// The error flag (`ferror`): a write failed.
    pub error: bool,
    /// The function closed it (`fclose`): any later use is a finding.
    pub closed: bool,
    /// The process's standard input, read: the test sets `stdin` to it.
    pub standard_input: bool,
    /// A `fscanf` stopped early on it: how far it read then is not
    /// modelled, so no read follows (`Bound::ScannedStream`).
    pub scan_stopped: bool,
}

#[derive(Clone, Debug)]
pub enum StreamRole {
    /// Neither read nor written yet: the first read or write decides.
    Unused,
    Read(Reading),
    Write(Writing),
    /// `stdin`, `stdout` or `stderr`: the process's own stream, no input.
    Standard,
}

/// A stream opened for reading over input bytes.
#[derive(Clone, Debug)]
pub struct Reading {
    /// The bytes it may hold (`max_array` input symbols), of which the
    /// first `len` are its contents.
    pub contents: Vec<Word>,
    /// Its length (64 bits), at most `contents.len()`.
    pub len: Word,
    /// Bytes of `contents` read so far: each read forks on whether the
    /// contents go on, so this is known on every path.
    pub consumed: u64,
    /// Characters `ungetc` pushed back, the last one read first.
    pub pushed_back: Vec<Word>,
    /// Bytes of `contents` a read looked at, consumed or not (`fscanf`
    /// looks past what it matches): a test's stream holds them all.
    pub examined: u64,
}

/// A stream that takes writes, as the drivers' sink does: at most `room`
/// bytes, after which a write fails.
#[derive(Clone, Debug)]
pub struct Writing {
    /// How many bytes it takes (64 bits), an input constrained only by the
    /// write that fills it: until then any room takes what the path wrote.
    pub room: Word,
    /// How many it took so far (64 bits).
    pub taken: Word,
    /// A write found too little room: `room` is what was taken, and the
    /// test needs it as chosen.
    pub filled: bool,
    /// What was written, in order; `None` once bytes the test cannot know
    /// were written (padding, memory never set).
    pub written: Option<Vec<Piece>>,
}

/// Bytes a write added: the first `len` (64 bits) of `bytes`.
#[derive(Clone, Debug)]
pub struct Piece {
    pub bytes: Vec<Word>,
    pub len: Word,
}

impl Stream {
    pub fn new(name: Rc<str>, role: StreamRole) -> Stream {
        Stream {
            name,
            role,
            eof: false,
            error: false,
            closed: false,
            standard_input: false,
            scan_stopped: false,
        }
    }

    /// Whether it is `stdin`, not read yet: the first read makes it a
    /// stream the test chooses the contents of.
    pub fn is_unread_standard_input(&self) -> bool {
        matches!(self.role, StreamRole::Standard) && &*self.name == STANDARD_INPUT
    }
}
