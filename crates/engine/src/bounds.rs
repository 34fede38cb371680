//! What one function's search may hold at once, in one place: with
//! `gen -j 2` two searches run side by side, and cairn keeps a library's
//! run under 2 GB resident (issue 27: a JSON library of 122 functions
//! peaked at 18 GB). A unit test checks that searches start from them.

/// Most path states waiting to run at once (`EngineConfig::max_waiting_states`).
/// Past it a fork goes on with as many of its ways as fit and leaves the
/// others, and the goals they lead to are reported as not reached within
/// this bound (`max_waiting_states`), never infeasible.
pub const MAX_WAITING_STATES: usize = 8_192;

/// Most bytes of one input object (an array of structs behind a pointer,
/// a global the test sets): each byte is a named symbol, so a structure
/// with a megabyte buffer inside would cost gigabytes. Past it an array
/// input gets fewer elements (the goals they would reach are cut by
/// `max_array`), and a single larger struct stops the path.
pub const INPUT_OBJECT_BYTES: u64 = 256 << 10;

/// Most bytes an input string or a read stream's contents are given to
/// hold a literal the code compares strings with, where `max_array` is
/// less (see `Executor::max_string`): each byte is a symbol, and a longer
/// string multiplies the paths of a loop over its characters.
pub const COMPARED_STRING_BYTES: u64 = 64;

/// Most bytes an input byte buffer is given to hold the largest struct the
/// code reads it as (`(struct hdr *)buf`), where `max_array` is less (see
/// `Executor::max_string`): a binary record's header and some data after it.
pub const RECORD_BYTES: u64 = 512;

/// Most states kept aside for the findings phase after the coverage search
/// (`coverage::hunt_findings`): states whose paths the search left unfinished.
pub const SET_ASIDE_STATES: usize = 4_096;

// A state set aside costs what a waiting one does: no more of them.
const _: () = assert!(SET_ASIDE_STATES <= MAX_WAITING_STATES);

/// Most entries of each memo of simplified terms and of their symbols
/// (`value`): past it the memo starts empty again (it only saves work, and
/// each entry keeps a term alive).
pub const MEMO_ENTRIES: usize = 1 << 18;

/// Most answers the solver's result cache keeps (`solver::cache`), each
/// keyed by the constraints asked: past it the cache starts empty again.
pub const CACHED_ANSWERS: usize = 1 << 18;

/// Resident memory of the whole run (every search of `gen -j N`
/// together) past which a search stops, naming [`Bound::MaxMemory`]: what it
/// covered stays, and the goals it leaves are not reached within this
/// bound. A net under the bounds above, which count states and entries,
/// not bytes: a state holding a 4 KiB block that copies of symbolic
/// length wrote under conditions weighs megabytes.
pub const RESIDENT_BYTES: u64 = 1_800 << 20;

/// Whether the process holds more than [`RESIDENT_BYTES`] resident (Linux's
/// `/proc/self/statm`; elsewhere never).
pub fn over_resident_bytes() -> bool {
    let Ok(statm) = std::fs::read_to_string("/proc/self/statm") else {
        return false;
    };
    let resident_pages = statm
        .split_whitespace()
        .nth(1)
        .and_then(|p| p.parse::<u64>().ok());
    // SAFETY: sysconf only reads a system constant.
    let page = unsafe { libc::sysconf(libc::_SC_PAGESIZE) };
    resident_pages.is_some_and(|pages| pages.saturating_mul(page.max(1) as u64) > RESIDENT_BYTES)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_small_process_is_within_the_memory_bound() {
        assert!(std::fs::read_to_string("/proc/self/statm").is_ok());
        assert!(!over_resident_bytes());
    }

    #[test]
    fn searches_start_from_these_bounds() {
        let config = crate::EngineConfig::default();
        assert_eq!(config.max_waiting_states, MAX_WAITING_STATES);
    }
}
