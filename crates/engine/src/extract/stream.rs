//! The streams of a test: each stream input of a path as the driver opens
//! it, with what the call leaves in it.

use super::Valuation;
use crate::state::{Stream, StreamRole};
use testcase::{InputStream, StreamAfter, StreamMode};

/// Stream input `stream` of a completed path, its values from `values`.
///
/// A stream read holds exactly the bytes the path consumed: where the path
/// saw its end, its length is that; where it did not, any length from
/// there on takes the same path, and the shortest is the plainest test.
pub(super) fn input_stream(values: &Valuation, stream: &Stream) -> InputStream {
    let byte = |word| values.bits(word) as u8;
    let (mode, position) = match &stream.role {
        StreamRole::Read(reading) => {
            let held = reading.consumed.max(reading.examined) as usize;
            let contents = reading.contents[..held].iter().map(byte).collect();
            let position = reading.pushed_back.is_empty().then_some(reading.consumed);
            (StreamMode::Read { contents }, position)
        }
        StreamRole::Write(writing) => {
            let written = writing.written.as_ref().map(|pieces| {
                pieces
                    .iter()
                    .flat_map(|piece| {
                        let len = values.bits(&piece.len) as usize;
                        piece.bytes.iter().take(len).map(byte)
                    })
                    .collect()
            });
            // Room the path never ran out of: any takes what it wrote.
            let room = writing.filled.then(|| values.bits(&writing.room) as u64);
            (StreamMode::Write { room, written }, None)
        }
        // Neither read nor written: a stream that takes writes, and gets none.
        StreamRole::Unused | StreamRole::Standard => (
            StreamMode::Write {
                room: None,
                written: Some(Vec::new()),
            },
            None,
        ),
    };
    let after = if stream.closed {
        StreamAfter::Closed
    } else if stream.scan_stopped {
        StreamAfter::Scanned
    } else {
        StreamAfter::Open {
            eof: stream.eof,
            error: stream.error,
            position,
        }
    };
    InputStream {
        name: stream.name.to_string(),
        mode,
        after,
        standard_input: stream.standard_input,
    }
}

/// The stream an untouched `FILE *` parameter points to: one that takes
/// writes, and gets none.
pub(super) fn untouched_stream(name: &str) -> InputStream {
    InputStream {
        name: name.to_string(),
        mode: StreamMode::Write {
            room: None,
            written: Some(Vec::new()),
        },
        after: StreamAfter::Open {
            eof: false,
            error: false,
            position: None,
        },
        standard_input: false,
    }
}
