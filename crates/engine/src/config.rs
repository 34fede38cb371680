//! The engine's configuration: budgets and choices, passed explicitly to
//! every exploration and never stored globally.

use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
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
    /// Whether an allocation may also return NULL.
    pub allocation_failure: AllocationFailure,
    /// Globals the function reads are inputs the test chooses (unit-test view);
    /// when false they start from their initializers (whole-program view, as for `main`).
    pub globals_as_inputs: bool,
    /// Check the final value of every non-const global, written or not
    /// (the csmith differential test compares them with native execution).
    pub check_all_globals: bool,
    /// Which goals the search steers toward; coverage is reported for all of them.
    pub goals: GoalSelection,
    /// Whose branches are goals: the function's own, or the whole program's.
    pub goal_scope: GoalScope,
    /// What the search does for goals the coverage search leaves uncovered.
    pub hard_goals: HardGoalStrategy,
    /// The order in which the coverage search runs waiting path states.
    pub search: SearchOrder,
    /// Seed of the random choices of [`SearchOrder::Random`] and
    /// [`SearchOrder::CoverageAndRandom`] and of the cheap phase's
    /// candidates: the same seed gives the same tests.
    pub seed: u64,
    /// Before the symbolic search (and for the goals it leaves after a
    /// query timed out), run concrete candidate inputs, no solver asked
    /// per branch, and keep those covering new goals as tests (`cheap`).
    pub cheap_inputs: bool,
    /// A path on which the function calls `exit` is a test that expects
    /// the process to end with that status (the driver runs each test in
    /// a process of its own); otherwise such a path makes no test.
    pub exit_tests: bool,
    /// Set from outside (e.g. on Ctrl-C) to stop the search at its next
    /// turn, keeping what it found.
    pub cancel: Option<Arc<AtomicBool>>,
    /// A directory to write every query sent to Z3 into, as a numbered
    /// SMT-LIB 2 file (to replay a slow one with the `z3` binary). It must
    /// exist and be writable.
    pub dump_queries: Option<PathBuf>,
    /// Predicates every input of a type is assumed to satisfy.
    pub invariants: Vec<InvariantSpec>,
    /// How pointer inputs to structs are made.
    pub inputs: InputMode,
    /// Most calls after the constructor that build one input through the
    /// code's API, and most calls of a function with statics before the
    /// call a test checks (see `state::BuildStep::CallAgain`).
    pub max_build_calls: u32,
    /// More tests on the paths found for branches, sitting on the boundary
    /// of each ordered integer comparison (sides one apart and equal).
    pub boundary_tests: bool,
    /// Boundary tests also where the path's own branch rules the edge out,
    /// asked with the rest of its conditions and run after the search
    /// (`boundary::Flip`).
    pub flipped_boundaries: bool,
    /// Most path states waiting to run at once ([`crate::bounds::MAX_WAITING_STATES`]).
    pub max_waiting_states: usize,
}

/// How a pointer input to a struct is made.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum InputMode {
    /// Through the code's own functions where the file has a constructor
    /// for the type, free-form shapes otherwise.
    #[default]
    Api,
    /// Always free-form shapes, whatever the API.
    Free,
}

/// A user's invariant: inputs of the struct `type_name` (`struct list`, a
/// tag or a typedef) satisfy the C function `predicate` (non-zero: valid).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InvariantSpec {
    pub type_name: String,
    pub predicate: String,
}

/// The order in which the coverage search runs waiting path states.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum SearchOrder {
    /// States closest to an uncovered goal first, loop iterations raised
    /// step by step, taking turns (by running time) with the deepest state.
    #[default]
    Coverage,
    /// A random waiting state each turn.
    Random,
    /// The coverage order taking turns (by running time) with the random one.
    CoverageAndRandom,
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

/// Whether the allocations of the code under test may fail.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum AllocationFailure {
    /// They succeed: the paths where one fails are cut (a bound).
    Never,
    /// Each may also return NULL, an input choice of the test, when the code
    /// goes on soundly: a path that faults or leaks after a failed
    /// allocation makes neither a test nor a finding (most code is not
    /// written to survive every allocation failing).
    #[default]
    Handled,
    /// Each may also return NULL, an input choice of the test; what faults
    /// or leaks after a failure is a finding.
    Tested,
    /// Each may also return NULL, explored so that what only a failure
    /// reaches is known, but no test makes one fail: a harness whose
    /// `malloc` a test cannot fail (Test-Comp's).
    Explored,
}

/// Whose branches are the goals of a function's search.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum GoalScope {
    /// The function's own: a unit test's view.
    #[default]
    Function,
    /// Every function the program defines, reached through the calls of
    /// the function searched (`main`): the view of a whole program's run.
    Program,
}

impl GoalScope {
    /// The functions whose goals count when `root` is searched, `root` first.
    pub fn functions(self, program: &ir::Program, root: ir::FuncId) -> Vec<ir::FuncId> {
        match self {
            GoalScope::Function => vec![root],
            GoalScope::Program => ir::program_functions(program, root),
        }
    }
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
            allocation_failure: AllocationFailure::Handled,
            globals_as_inputs: true,
            check_all_globals: false,
            goals: GoalSelection::All,
            goal_scope: GoalScope::Function,
            hard_goals: HardGoalStrategy::Off,
            search: SearchOrder::Coverage,
            seed: 0,
            cheap_inputs: true,
            exit_tests: true,
            cancel: None,
            dump_queries: None,
            invariants: Vec::new(),
            inputs: InputMode::default(),
            max_build_calls: 3,
            boundary_tests: true,
            flipped_boundaries: true,
            max_waiting_states: crate::bounds::MAX_WAITING_STATES,
        }
    }
}
