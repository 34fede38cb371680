//! Engine: symbolic execution of the IR over Z3 bit-vectors with a lazy input heap.
//!
//! Architecture invariant: the only crate that knows Z3; its output
//! (the `testcase` crate) is plain solved data.
//!
//! Map, in dependency order (each module uses only those above it):
//! - `value`: symbolic terms and byte cells; `solver`: the chain of solver
//!   layers over Z3; `state`: one path's state (frames, copy-on-write memory
//!   objects, lazy input pointers, path condition); `memory`: byte-precise
//!   reads and writes of one object; `extract`: models to plain tests.
//! - `exec`: the executor (statements, expressions, calls, library models,
//!   heap, inputs); reports events to the search driving it through `Hooks`.
//! - `explore`: the one exploration loop, the `Searcher` (state order) and
//!   `Objective` (what a search is for) interfaces; `searchers`: general
//!   orders (best-first, random) and the interleaving combinator.
//! - The searches: `coverage` (tests for every goal; the default of
//!   [`generate`]), `trees` (bounded execution trees for its hard goals),
//!   [`reach`] (a line or branch K times), [`path`] (a path given as lines).
//!
//! Modelling decisions a reader of the tests should know:
//! - An input pointer is undecided until used. Dereferenced, the path forks
//!   over an alias of each input object already materialized with its pointee
//!   type and a fresh input object; compared (with NULL or another pointer)
//!   or tested, NULL is a choice too. Aliases give sharing, cycles and back
//!   pointers; `max_nodes` bounds the input objects; states with fewer input
//!   objects run first. A function pointer forks over the file's functions
//!   of its type. Aliases point at the start of an object.
//! - Input values the path condition never mentions (fields a path never
//!   reads) are 0 in the test; pointers never decided are NULL.
//! - Every input object is an array of its pointee type whose length
//!   (1..=`max_array`) the solver picks; arrays of `char` end with a NUL.
//!   A path reading past an input array asks for a longer one (no finding);
//!   past other objects it is an out-of-bounds finding.
//! - A path ends without a test at a certain fault, `exit` or `abort`; a
//!   possible fault is reported once per site and the path goes on without it.
//! - Uninitialized locals read as zero; `malloc`ed bytes never written are a finding.
//! - A C library function runs its model, exact as glibc behaves in the C
//!   locale (`exec/libc`); one a system header declares without a model
//!   stops the path (`unsupported`); any other function without a body is a
//!   stub whose results are test inputs. `errno` is 0 when the call starts.
//! - Checks of an input object start with `Step::Index(element)`.

mod config;
mod coverage;
mod distance;
mod exec;
mod explore;
mod extract;
mod memory;
pub mod path;
pub mod reach;
mod searchers;
mod solver;
mod state;
mod trees;
mod value;

pub use config::{
    EngineConfig, GoalSelection, HardGoalStrategy, InputMode, InvariantSpec, SearchOrder,
};
pub use exec::CONCRETISED;
pub use exec::{defines_type, resolve_invariants};

/// Generates tests for each of `funcs` (in order). Never panics on a function
/// it cannot handle: such goals are reported uncovered with the reason.
///
/// Each function is explored on its own thread, hence with a fresh Z3
/// context: its tests do not depend on which functions ran before it.
pub fn generate(
    program: &ir::Program,
    funcs: &[ir::FuncId],
    config: &EngineConfig,
) -> Vec<testcase::FunctionReport> {
    funcs
        .iter()
        .map(|func| {
            explore::on_own_thread(|| coverage::explore(program, *func, config))
                .unwrap_or_else(|why| coverage::failed(program, *func, &why))
        })
        .collect()
}
