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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn searches_start_from_these_bounds() {
        let config = crate::EngineConfig::default();
        assert_eq!(config.max_waiting_states, MAX_WAITING_STATES);
    }
}
