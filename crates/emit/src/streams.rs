//! The streams of a test's `FILE *` inputs as C: opened for real before
//! the call, what the call left in them checked after it, and closed
//! unless the call closed them. A stream read is `fmemopen` over its
//! contents; a stream written is a sink (`SUPPORT`): unbuffered, it keeps
//! what it takes and takes at most the room the test gives it, after which
//! writes fail as on a full disk.

use crate::framework::Assertion;
use crate::literal::{bytes_literal, comment_text};
use crate::names::{identifier_from_path, NameScope};
use testcase::{InputStream, StreamAfter, StreamMode};

/// What the streams need, written once before the tests.
pub const SUPPORT: &str = r#"/* The streams of the tests' FILE * inputs. One read is fmemopen over its contents (POSIX 2008,
 * declared here in case the source's feature macros hide it). One written is a sink: unbuffered, so each
 * write meets the room left when it is made; it keeps the first bytes it takes, counts them all, and takes
 * at most `room` bytes: a write that finds no room fails with ENOSPC, one that finds too little takes what
 * fits, as on a full disk. */
#include <errno.h>
FILE *fmemopen(void *buffer, size_t size, const char *mode);

struct cairn_sink {
    char *bytes;
    size_t capacity;
    size_t size;
    size_t room;
};

/* fopencookie and its functions under names of their own: <stdio.h> declares them only with _GNU_SOURCE. */
struct cairn_stream_functions {
    long (*read)(void *cookie, char *bytes, size_t size);
    long (*write)(void *cookie, const char *bytes, size_t size);
    int (*seek)(void *cookie, long long *position, int whence);
    int (*close)(void *cookie);
};
extern FILE *cairn_fopencookie(void *cookie, const char *mode, struct cairn_stream_functions functions)
    __asm__("fopencookie");

static long cairn_sink_write(void *cookie, const char *bytes, size_t size)
{
    struct cairn_sink *sink = cookie;
    if (sink->room == 0) {
        errno = ENOSPC;
        return -1;
    }
    size_t taken = size < sink->room ? size : sink->room;
    size_t i;
    for (i = 0; i < taken && sink->size + i < sink->capacity; i++)
        sink->bytes[sink->size + i] = bytes[i];
    sink->size += taken;
    sink->room -= taken;
    return (long)taken;
}

static FILE *cairn_open_sink(struct cairn_sink *sink)
{
    struct cairn_stream_functions functions = { NULL, cairn_sink_write, NULL, NULL };
    FILE *stream = cairn_fopencookie(sink, "w", functions);
    if (stream != NULL)
        setvbuf(stream, NULL, _IONBF, 0);
    return stream;
}

/* The bytes a sink kept: the first it took, at most its capacity. */
static size_t cairn_sink_kept(const struct cairn_sink *sink)
{
    return sink->size < sink->capacity ? sink->size : sink->capacity;
}
"#;

/// The C names of one stream of a test.
#[derive(Clone, Debug)]
pub struct StreamNames {
    /// The `FILE *` variable.
    pub stream: String,
    /// What the checks after the call read: `feof`, `ferror`, `ftell`, the
    /// sink's bytes and how many it kept.
    eof: String,
    error: String,
    position: String,
    bytes: String,
    kept: String,
}

/// Opens `stream` (access path `stream.name`): the declarations, and its names.
pub fn open(stream: &InputStream, scope: &mut NameScope) -> (Vec<String>, StreamNames) {
    let base = identifier_from_path(&stream.name);
    let variable = scope.fresh(&format!("{base}_stream"));
    let name = comment_text(&stream.name);
    let mut lines = Vec::new();
    let (bytes, sink) = match &stream.mode {
        StreamMode::Read { contents } => {
            let bytes = scope.fresh(&format!("{base}_contents"));
            lines.push(format!("char {bytes}[] = {};", bytes_literal(contents)));
            lines.push(format!(
                "FILE *{variable} = fmemopen({bytes}, {}, \"r\"); /* {name}: reads these {} bytes, then end of file */",
                contents.len(),
                contents.len()
            ));
            if stream.standard_input {
                lines.push(format!(
                    "stdin = {variable}; /* what the code reads as its standard input */"
                ));
            }
            (bytes, None)
        }
        StreamMode::Write { room, written } => {
            let bytes = scope.fresh(&format!("{base}_bytes"));
            let sink = scope.fresh(&format!("{base}_sink"));
            // One byte more than the call should write shows a longer write.
            let capacity = written.as_ref().map_or(1, |w| w.len() + 1);
            let (room, takes) = match room {
                Some(n) => (
                    n.to_string(),
                    format!("takes {n} byte{}, then writes fail", plural(*n)),
                ),
                None => ("(size_t)-1".to_string(), "takes every write".to_string()),
            };
            lines.push(format!("char {bytes}[{capacity}];"));
            lines.push(format!(
                "struct cairn_sink {sink} = {{ {bytes}, sizeof {bytes}, 0, {room} }}; /* {name}: {takes} */"
            ));
            lines.push(format!("FILE *{variable} = cairn_open_sink(&{sink});"));
            (bytes, Some(sink))
        }
    };
    let names = StreamNames {
        eof: format!("feof({variable}) != 0"),
        error: format!("ferror({variable}) != 0"),
        position: format!("ftell({variable})"),
        kept: sink
            .as_ref()
            .map(|s| format!("cairn_sink_kept(&{s})"))
            .unwrap_or_default(),
        bytes,
        stream: variable,
    };
    (lines, names)
}

fn plural(n: u64) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

/// One check of a stream after the call: what it says, and the assertion.
pub struct StreamCheck<'a> {
    pub what: String,
    pub assertion: Assertion<'a>,
}

/// The checks of a stream after the call: the bytes written to it, and
/// while it is open its flags and, for one read, how far the call read.
pub fn checks<'a>(stream: &InputStream, names: &'a StreamNames) -> Vec<StreamCheck<'a>> {
    let name = &stream.name;
    let mut out = Vec::new();
    if let StreamMode::Write {
        written: Some(written),
        ..
    } = &stream.mode
    {
        out.push(StreamCheck {
            what: format!("what the call wrote to {name} is"),
            assertion: Assertion::Bytes {
                actual: &names.bytes,
                actual_size: &names.kept,
                expected: written.clone(),
            },
        });
    }
    let StreamAfter::Open {
        eof,
        error,
        position,
    } = &stream.after
    else {
        return out;
    };
    let flag = |set: &bool| if *set { "1" } else { "0" }.to_string();
    // Reads set only the end-of-file flag, writes only the error flag.
    let (what, actual, set) = match &stream.mode {
        StreamMode::Read { .. } => ("is at end of file", &names.eof, eof),
        StreamMode::Write { .. } => ("has its error flag set", &names.error, error),
    };
    out.push(StreamCheck {
        what: format!("whether {name} {what} (1: yes) is"),
        assertion: Assertion::Signed {
            actual,
            expected: flag(set),
        },
    });
    if let Some(position) = position {
        out.push(StreamCheck {
            what: format!("the bytes of {name} read (ftell) are"),
            assertion: Assertion::Signed {
                actual: &names.position,
                expected: position.to_string(),
            },
        });
    }
    out
}

/// Closes `stream` unless the call did (a sink keeps what it took).
pub fn close(stream: &InputStream, names: &StreamNames) -> Option<String> {
    (stream.after != StreamAfter::Closed).then(|| format!("fclose({});", names.stream))
}

/// The statement that closes a stream of a test that cannot run, if it
/// was opened.
pub fn release_unopened(names: &StreamNames) -> String {
    format!("if ({0} != NULL) fclose({0});", names.stream)
}
