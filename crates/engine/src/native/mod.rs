//! Native calls: a C library function the engine has no model of, run on
//! concrete values in a child process of its own, as KLEE runs external
//! calls. This module knows bytes and addresses only (no Z3, no path
//! state): `exec` turns a path's values into a [`Call`] and applies the
//! [`Effects`] to its memory.
//!
//! What may run natively is decided in one place, [`policy`]'s table of the
//! functions refused by what they do; the child's system-call filter
//! (`sandbox`) stops any other function that reaches outside its memory.
//! A call runs on copies of the objects its pointers point into, each in a
//! buffer followed by an inaccessible page. Bytes the path never wrote get
//! a filler, another in each of three runs: a result that differs between
//! them depends on indeterminate memory and is refused (a heuristic: a
//! result that only other garbage would change goes unnoticed).

mod policy;
mod sandbox;

use crate::stable_hash::StableHashMap;
pub use policy::{reads_environment, refusal};

/// How the callee's result comes back (the x86-64 System V classes).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Returns {
    Nothing,
    /// In `rax`.
    Integer,
    /// In `rax` and `rdx` (a struct of up to 16 bytes of integers).
    TwoIntegers,
    /// In `xmm0` (a `float` in its low 32 bits).
    Float,
    /// A pointer into the buffers, or NULL.
    Pointer,
    /// A `char *`: into the buffers, NULL, or the library's own storage,
    /// whose string (up to its NUL) is copied.
    String,
}

/// Where a pointer passed to or returned by the call points.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Address {
    /// A number, NULL when 0 (a pointer into no object).
    Number(u64),
    /// `offset` bytes into buffer `buffer` (at most its length).
    Into { buffer: usize, offset: usize },
}

/// A copy of an object the call may read and write.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Buffer {
    pub bytes: Vec<u8>,
    /// The bytes no one wrote yet (indeterminate memory).
    pub unset: Vec<bool>,
    /// Pointers stored in it: 8 bytes at each offset.
    pub pointers: Vec<(usize, Address)>,
    /// What the call writes at offsets that are multiples of 8 is read back
    /// as pointers (a `char **` out-parameter).
    pub holds_pointers: bool,
    /// A string literal: writing into it crashes the call.
    pub read_only: bool,
}

/// One call: the function, the argument registers and the memory it sees.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Call {
    pub symbol: String,
    /// The integer argument registers (`rdi`, `rsi`, `rdx`, `rcx`, `r8`,
    /// `r9`), at most 6.
    pub integers: Vec<Address>,
    /// The bits of the floating arguments (`xmm0` to `xmm7`), at most 8.
    pub floats: Vec<u64>,
    pub returns: Returns,
    pub buffers: Vec<Buffer>,
    /// `errno` when the call starts.
    pub errno: i32,
}

/// What the call did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Effects {
    pub result: Returned,
    /// Per buffer, the bytes and pointers the call wrote.
    pub writes: Vec<Vec<Write>>,
    pub errno: i32,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Returned {
    Nothing,
    /// `rax`; its low bits when the type is narrower.
    Integer(u64),
    TwoIntegers(u64, u64),
    /// The bits of `xmm0`.
    Float(u64),
    Pointer(Address),
    /// A string of the library's own storage, its NUL included.
    Storage(Vec<u8>),
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Write {
    Byte { at: usize, value: u8 },
    Pointer { at: usize, to: Address },
}

/// Why a native call gave no result the engine can use.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Failure {
    /// The symbol is in neither libc nor libm.
    NotInLibrary,
    /// The child died of this signal (a crash, or its CPU limit).
    Signal(i32),
    /// It made a system call other than for memory (its number).
    SystemCall(i64),
    /// It ended the process itself with this status.
    Exited(i32),
    TimedOut,
    /// Its result or writes differ with what indeterminate bytes hold.
    ReadsUnset,
    /// It returned or stored a pointer to memory of its own.
    OwnMemory,
    /// It returned a string longer than [`sandbox::STRING_LIMIT`].
    LongString,
    /// The child could not be set up (named).
    Sandbox(&'static str),
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Failure::NotInLibrary => write!(f, "it is not in the C library (libc, libm)"),
            Failure::Signal(signal) => {
                write!(f, "run natively, it was killed by {}", signal_name(*signal))
            }
            Failure::SystemCall(number) => write!(
                f,
                "run natively, it made the system call `{}`",
                sandbox::system_call_name(*number)
            ),
            Failure::Exited(status) => write!(f, "run natively, it exited with status {status}"),
            Failure::TimedOut => write!(
                f,
                "run natively, it did not return within {} s",
                sandbox::TIME_LIMIT.as_secs()
            ),
            Failure::ReadsUnset => write!(f, "run natively, it reads memory never written"),
            Failure::OwnMemory => write!(
                f,
                "run natively, it returned a pointer to memory of its own"
            ),
            Failure::LongString => write!(
                f,
                "run natively, it returned a string longer than {} bytes",
                sandbox::STRING_LIMIT
            ),
            Failure::Sandbox(what) => write!(f, "native calls are unavailable: {what}"),
        }
    }
}

fn signal_name(signal: i32) -> String {
    let name = match signal {
        libc::SIGSEGV => "SIGSEGV (segmentation fault)",
        libc::SIGBUS => "SIGBUS (bus error)",
        libc::SIGABRT => "SIGABRT (abort)",
        libc::SIGFPE => "SIGFPE (arithmetic error)",
        libc::SIGILL => "SIGILL (illegal instruction)",
        libc::SIGXCPU => "SIGXCPU (its CPU time limit)",
        libc::SIGKILL => "SIGKILL",
        libc::SIGSYS => "SIGSYS (a system call)",
        other => return format!("signal {other}"),
    };
    name.to_string()
}

/// The fillers of indeterminate bytes, one run each: the end of a string,
/// a byte no text has, and a digit (a number parsed from garbage).
const FILLERS: [u8; 3] = [0x00, 0xff, b'7'];

/// Results of the calls run so far, by call: a path often makes the same
/// call again, and the forks of a path share its earlier calls.
#[derive(Default)]
pub struct Memo {
    results: StableHashMap<Call, Result<Effects, Failure>>,
}

impl Memo {
    pub fn run(&mut self, call: &Call) -> Result<Effects, Failure> {
        if let Some(known) = self.results.get(call) {
            return known.clone();
        }
        let result = run(call);
        self.results.insert(call.clone(), result.clone());
        result
    }
}

/// Runs `call` in a child process (twice when some byte it sees is
/// indeterminate) and reads what it did.
fn run(call: &Call) -> Result<Effects, Failure> {
    let function = testcase::c_library::address(&call.symbol).ok_or(Failure::NotInLibrary)?;
    let unset = call.buffers.iter().any(|b| b.unset.contains(&true));
    let fillers = if unset { &FILLERS[..] } else { &FILLERS[..1] };
    let runs = sandbox::execute(function, call, fillers)?;
    let Some(first) = runs.first() else {
        return Err(Failure::Sandbox("no run"));
    };
    for other in &runs[1..] {
        let same = first.result_registers(call.returns) == other.result_registers(call.returns)
            && first.errno == other.errno
            && first.string == other.string;
        if !same {
            return Err(Failure::ReadsUnset);
        }
    }
    let mut writes = Vec::with_capacity(call.buffers.len());
    for (index, buffer) in call.buffers.iter().enumerate() {
        writes.push(buffer_writes(&runs, buffer, index)?);
    }
    Ok(Effects {
        result: result(call.returns, first)?,
        writes,
        errno: first.errno,
    })
}

/// What the call wrote into buffer `index`: the bytes that changed (an
/// indeterminate byte: that some run changed from its filler, to the same
/// value in every run), and as pointers the changed slots of a buffer
/// holding pointers. Bytes that differ between the runs depend on
/// indeterminate memory.
fn buffer_writes(
    runs: &[sandbox::Run],
    buffer: &Buffer,
    index: usize,
) -> Result<Vec<Write>, Failure> {
    let first = &runs[0];
    let after = &first.after[index];
    let mut changed = vec![false; after.len()];
    for (at, slot) in changed.iter_mut().enumerate() {
        if runs.iter().any(|run| run.after[index][at] != after[at]) {
            let untouched = buffer.unset[at]
                && runs
                    .iter()
                    .zip(FILLERS)
                    .all(|(run, filler)| run.after[index][at] == filler);
            if !untouched {
                return Err(Failure::ReadsUnset);
            }
            continue;
        }
        // The same in every run: written, unless it was set and is as it was.
        *slot = buffer.unset[at] || after[at] != first.before[index][at];
    }
    let pointer_slot = |at: usize| {
        at.is_multiple_of(8) && at + 8 <= after.len() && {
            buffer.holds_pointers || buffer.pointers.iter().any(|(p, _)| *p == at)
        }
    };
    let mut writes = Vec::new();
    let mut at = 0;
    while at < after.len() {
        if pointer_slot(at) && changed[at..at + 8].contains(&true) {
            let bytes: [u8; 8] = after[at..at + 8].try_into().unwrap_or_default();
            let to = first.address_of(u64::from_le_bytes(bytes));
            if matches!(to, Address::Number(n) if n != 0) {
                return Err(Failure::OwnMemory);
            }
            writes.push(Write::Pointer { at, to });
            at += 8;
            continue;
        }
        if changed[at] {
            writes.push(Write::Byte {
                at,
                value: after[at],
            });
        }
        at += 1;
    }
    Ok(writes)
}

/// The call's result as its type reads it.
fn result(returns: Returns, run: &sandbox::Run) -> Result<Returned, Failure> {
    Ok(match returns {
        Returns::Nothing => Returned::Nothing,
        Returns::Integer => Returned::Integer(run.rax),
        Returns::TwoIntegers => Returned::TwoIntegers(run.rax, run.rdx),
        Returns::Float => Returned::Float(run.xmm0),
        Returns::Pointer | Returns::String => match (run.address_of(run.rax), &run.string) {
            (Address::Number(0), _) => Returned::Pointer(Address::Number(0)),
            (to @ Address::Into { .. }, _) => Returned::Pointer(to),
            // Static storage of the library, as `strerror`'s messages;
            // a string it allocated would be the driver's to free.
            (_, Some(Some(string))) if sandbox::in_library(run.rax) => {
                Returned::Storage(string.clone())
            }
            (_, Some(Some(_))) => return Err(Failure::OwnMemory),
            (_, Some(None)) => return Err(Failure::LongString),
            (_, None) => return Err(Failure::OwnMemory),
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn buffer(bytes: &[u8]) -> Buffer {
        Buffer {
            bytes: bytes.to_vec(),
            unset: vec![false; bytes.len()],
            pointers: Vec::new(),
            holds_pointers: false,
            read_only: false,
        }
    }

    fn call(symbol: &str, integers: Vec<Address>, returns: Returns, buffers: Vec<Buffer>) -> Call {
        Call {
            symbol: symbol.to_string(),
            integers,
            floats: Vec::new(),
            returns,
            buffers,
            errno: 0,
        }
    }

    fn into(buffer: usize, offset: usize) -> Address {
        Address::Into { buffer, offset }
    }

    #[test]
    fn a_pure_function_reads_its_buffer() {
        let strspn = call(
            "strspn",
            vec![into(0, 0), into(1, 0)],
            Returns::Integer,
            vec![buffer(b"aab,c\0"), buffer(b"ab\0")],
        );
        let effects = run(&strspn).expect("strspn runs");
        assert_eq!(effects.result, Returned::Integer(3));
        assert!(effects.writes.iter().all(Vec::is_empty));
    }

    #[test]
    fn doubles_go_in_and_out_of_the_vector_registers() {
        let mut ldexp = call(
            "ldexp",
            vec![Address::Number(3)],
            Returns::Float,
            Vec::new(),
        );
        ldexp.floats = vec![1.5f64.to_bits()];
        let effects = run(&ldexp).expect("ldexp runs");
        assert_eq!(effects.result, Returned::Float(12.0f64.to_bits()));
    }

    #[test]
    fn writes_come_back_as_bytes_and_pointers() {
        // strtod("2.5x", &end): end points at the `x`, errno untouched.
        let mut end = buffer(&[0; 8]);
        end.unset = vec![true; 8];
        end.holds_pointers = true;
        let strtod = call(
            "strtod",
            vec![into(0, 0), into(1, 0)],
            Returns::Float,
            vec![buffer(b"2.5x\0"), end],
        );
        let effects = run(&strtod).expect("strtod runs");
        assert_eq!(effects.result, Returned::Float(2.5f64.to_bits()));
        assert_eq!(
            effects.writes[1],
            vec![Write::Pointer {
                at: 0,
                to: into(0, 3)
            }]
        );
        assert_eq!(effects.errno, 0);
        let mut out = buffer(&[0; 16]);
        out.unset = vec![true; 16];
        let inet_ntop = call(
            "inet_ntop",
            vec![
                Address::Number(libc::AF_INET as u64),
                into(0, 0),
                into(1, 0),
                Address::Number(16),
            ],
            Returns::String,
            vec![buffer(&[10, 0, 0, 1]), out],
        );
        let effects = run(&inet_ntop).expect("inet_ntop runs");
        assert_eq!(effects.result, Returned::Pointer(into(1, 0)));
        let written: Vec<u8> = effects.writes[1]
            .iter()
            .filter_map(|w| match w {
                Write::Byte { value, .. } => Some(*value),
                Write::Pointer { .. } => None,
            })
            .collect();
        assert_eq!(written, b"10.0.0.1\0");
    }

    #[test]
    fn a_string_of_the_library_comes_back_whole() {
        let strerror = call(
            "strerror",
            vec![Address::Number(libc::ENOENT as u64)],
            Returns::String,
            Vec::new(),
        );
        let effects = run(&strerror).expect("strerror runs");
        assert_eq!(
            effects.result,
            Returned::Storage(b"No such file or directory\0".to_vec())
        );
    }

    #[test]
    fn what_fails_natively_is_named_and_cairn_goes_on() {
        let strlen_of_nowhere = call(
            "strlen",
            vec![Address::Number(16)],
            Returns::Integer,
            vec![],
        );
        assert_eq!(run(&strlen_of_nowhere), Err(Failure::Signal(libc::SIGSEGV)));
        // Past the end of its buffer, the next page is inaccessible.
        let unterminated = call(
            "strlen",
            vec![into(0, 0)],
            Returns::Integer,
            vec![buffer(&[b'a'; 4096])],
        );
        assert_eq!(run(&unterminated), Err(Failure::Signal(libc::SIGSEGV)));
        let getpid = call("getpid", vec![], Returns::Integer, vec![]);
        assert!(matches!(run(&getpid), Err(Failure::SystemCall(39))));
        let nowhere = call("deflate", vec![], Returns::Integer, vec![]);
        assert_eq!(run(&nowhere), Err(Failure::NotInLibrary));
    }

    #[test]
    fn a_call_that_does_not_return_is_killed_at_the_time_limit() {
        // A semaphore at 0: `sem_wait` waits on its futex for ever.
        let sem_wait = call(
            "sem_wait",
            vec![into(0, 0)],
            Returns::Integer,
            vec![buffer(&[0; 32])],
        );
        assert_eq!(run(&sem_wait), Err(Failure::TimedOut));
    }

    #[test]
    fn a_string_the_call_allocated_is_refused() {
        // `strerror` of an unknown code formats into a buffer it allocates.
        let strerror = call(
            "strerror",
            vec![Address::Number(100_000)],
            Returns::String,
            Vec::new(),
        );
        assert_eq!(run(&strerror), Err(Failure::OwnMemory));
    }

    #[test]
    fn a_result_that_depends_on_indeterminate_bytes_is_refused() {
        // "a??\0": 1 with the bytes 0x00, 3 with 0xff.
        let mut garbage = buffer(&[b'a', 0, 0, 0]);
        garbage.unset = vec![false, true, true, false];
        let strlen = call("strlen", vec![into(0, 0)], Returns::Integer, vec![garbage]);
        assert_eq!(run(&strlen), Err(Failure::ReadsUnset));
        let mut fresh = buffer(&[0; 8]);
        fresh.unset = vec![true; 8];
        let memset_like = call(
            "explicit_bzero",
            vec![into(0, 0), Address::Number(8)],
            Returns::Nothing,
            vec![fresh],
        );
        let effects = run(&memset_like).expect("explicit_bzero runs");
        assert_eq!(effects.writes[0].len(), 8);
    }
}
