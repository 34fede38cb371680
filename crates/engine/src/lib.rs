//! Engine: symbolic execution of the IR over Z3 bit-vectors with a lazy input heap.
//!
//! Architecture invariant: the only crate that knows Z3; its output
//! (the `testcase` crate) is plain solved data.
//!
//! Map: [`value`] (symbolic terms and byte cells), [`memory`] (byte-precise
//! objects, exact symbolic offsets), [`state`] (per-path state, copy-on-write
//! objects, lazy input pointers), `exec` (statements, expressions, calls,
//! library models, heap, inputs), [`solver`] (a chain of layers over Z3:
//! slicing, caching, model reuse, time limits, query dump),
//! `search` (coverage-directed exploration), `trees` (bounded execution
//! trees for hard goals), `extract` (models to tests).
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
//! - Checks of an input object start with `Step::Index(element)`.

mod distance;
mod exec;
mod extract;
pub mod memory;
pub mod path;
pub mod reach;
mod search;
pub mod solver;
pub mod state;
mod trees;
pub mod value;

use std::path::PathBuf;
use std::time::Duration;

/// Budgets and choices for one run; passed explicitly, never stored globally.
#[derive(Clone, Debug)]
pub struct EngineConfig {
    /// Wall-clock budget per function.
    pub max_time: Duration,
    /// Completed paths per function.
    pub max_paths: u64,
    /// Largest input array or string length the search may choose.
    pub max_array: u64,
    /// Most input objects (nodes of input structures, arrays) one test may build.
    pub max_nodes: u32,
    /// Deepest call chain (bounds recursion).
    pub max_depth: u32,
    /// Most entries into one block of one call on a path (bounds loops,
    /// e.g. a traversal of a cyclic input list).
    pub max_iterations: u32,
    /// Each allocation may also return NULL (an input choice of the test).
    pub allocation_may_fail: bool,
    /// Globals the function reads are inputs the test chooses (unit-test view);
    /// when false they start from their initializers (whole-program view, as for `main`).
    pub globals_as_inputs: bool,
    /// Check the final value of every non-const global, written or not
    /// (the csmith differential test compares them with native execution).
    pub check_all_globals: bool,
    /// Which goals the search steers toward; coverage is reported for all of them.
    pub goals: GoalSelection,
    /// What the search does for goals the coverage search leaves uncovered.
    pub hard_goals: HardGoalStrategy,
    /// A directory to write every query sent to Z3 into, as a numbered
    /// SMT-LIB 2 file (to replay a slow one with the `z3` binary). It must
    /// exist and be writable.
    pub dump_queries: Option<PathBuf>,
}

/// A second phase for the goals the coverage search does not cover.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum HardGoalStrategy {
    /// None: the coverage search has the whole time budget.
    #[default]
    Off,
    /// Once the coverage search has made no test for a quarter of the
    /// budget, the rest goes to bounded execution trees (seed 003), the loop
    /// bound raised 0, 1, 2, ..., each goal's alternative paths asked in one
    /// disjunction (PBCC).
    Trees,
}

/// The goals a search targets.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum GoalSelection {
    /// Both directions of every condition.
    #[default]
    All,
    /// Only the unconstrained goals (seed 003): covering them covers every
    /// goal the others imply, with fewer targets to steer toward.
    Unconstrained,
}

impl Default for EngineConfig {
    fn default() -> Self {
        EngineConfig {
            max_time: Duration::from_secs(10),
            max_paths: 10_000,
            max_array: 8,
            max_nodes: 8,
            max_depth: 8,
            max_iterations: 1000,
            allocation_may_fail: false,
            globals_as_inputs: true,
            check_all_globals: false,
            goals: GoalSelection::All,
            hard_goals: HardGoalStrategy::Off,
            dump_queries: None,
        }
    }
}

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
        .map(|f| explore_isolated(program, *f, config))
        .collect()
}

/// Stack for one exploration: expression evaluation recurses on nesting depth.
const EXPLORER_STACK: usize = 64 << 20;

fn explore_isolated(
    program: &ir::Program,
    func: ir::FuncId,
    config: &EngineConfig,
) -> testcase::FunctionReport {
    let outcome = std::thread::scope(|scope| {
        std::thread::Builder::new()
            .name("cairn-engine".into())
            .stack_size(EXPLORER_STACK)
            .spawn_scoped(scope, || search::explore(program, func, config))
            .map(|handle| handle.join())
    });
    match outcome {
        Ok(Ok(report)) => report,
        Ok(Err(_)) => search::failed(program, func, "internal error in the engine"),
        Err(e) => search::failed(
            program,
            func,
            &format!("cannot start the engine thread: {e}"),
        ),
    }
}
