//! Engine: symbolic execution of the IR over Z3 bit-vectors with a lazy input heap.
//!
//! Architecture invariant: the only crate that knows Z3; its output
//! (the `testcase` crate) is plain solved data.
//!
//! Map, in dependency order (each module uses only those above it):
//! - `value`: words (known numbers or Z3 terms), conditions and byte cells;
//!   `solver`: the chain of solver layers over Z3; `state`: one path's state
//!   (frames, copy-on-write memory objects, lazy input pointers, path
//!   condition); `memory`: byte-precise reads and writes of one object;
//!   `extract`: models to plain tests; `native`: a C library function run
//!   on copies of memory in a sandboxed child (bytes and addresses only).
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
//!   reads) are 0 in the test; pointers never decided are NULL, but for a
//!   parameter the function never tests against NULL (`ir::checks_null`):
//!   it points to a zeroed object of its type, as a caller would pass.
//! - Every input object is an array of its pointee type whose length
//!   (1..=`max_array`) the solver picks; arrays of `char` end with a NUL.
//!   A path reading past an input array asks for a longer one (no finding);
//!   past other objects it is an out-of-bounds finding.
//! - A path ends without a test at a certain fault, `exit` or `abort`; a
//!   possible fault is reported once per site and the path goes on without it.
//! - Using a scalar of a local or of `malloc`ed bytes before anything wrote
//!   it is a finding (parameters, inputs and `calloc`ed bytes are written;
//!   copying a whole struct is no use). A write at a symbolic offset writes
//!   each byte under the condition that it reaches it (`state::Written`).
//! - A C library function runs its model, exact as glibc behaves in the C
//!   locale (`exec/libc`); one a system header declares without a model
//!   stops the path (`unsupported`); any other function without a body is a
//!   stub whose results are test inputs. `errno` is 0 when the call starts.
//! - Checks of an input object start with `Step::Index(element)`.

mod boundary;
mod bounds;
mod cheap;
mod config;
mod coverage;
mod dependencies;
mod distance;
mod exec;
mod explore;
mod extract;
mod memory;
mod native;
pub mod path;
pub mod reach;
mod searchers;
mod solver;
mod stable_hash;
mod state;
mod trees;
mod value;

pub use cheap::{constants, float_constants};
pub use config::{
    AllocationFailure, EngineConfig, GoalScope, GoalSelection, HardGoalStrategy, InputMode,
    InvariantSpec, SearchOrder,
};
pub use dependencies::Dependencies;
pub use exec::{defines_type, resolve_invariants};
pub use explore::Obstacle;

use exec::ProgramFacts;

use std::collections::BTreeMap;
use std::num::NonZeroUsize;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{mpsc, OnceLock};

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
    let facts = ProgramFacts::new(program, config);
    funcs
        .iter()
        .map(|func| explore_function(program, &facts, *func, config))
        .collect()
}

/// Generates tests for every function of `work` (a program and one of its
/// functions each), exploring up to `jobs` of them at once, and hands each
/// report to `done` with its index in `work`, in the order of `work`, as
/// soon as it and those before it are ready. Since each function has a
/// fresh Z3 context and thread of its own, the reports are those of
/// [`generate`] whatever `jobs` is, unless a time budget cuts a search
/// that has fewer cores than it would alone.
///
/// Once `config.cancel` is set or `done` fails, no function starts: those
/// running finish (a cancelled search stops at once), and the reports
/// handed on are those of a prefix of `work`. The first error of `done`
/// is returned.
pub fn generate_each<E>(
    work: &[(&ir::Program, ir::FuncId)],
    config: &EngineConfig,
    jobs: NonZeroUsize,
    mut done: impl FnMut(usize, testcase::FunctionReport) -> Result<(), E>,
) -> Result<(), E> {
    let next = AtomicUsize::new(0);
    let failed = AtomicBool::new(false);
    let stopped = || {
        failed.load(Ordering::SeqCst)
            || config
                .cancel
                .as_ref()
                .is_some_and(|cancel| cancel.load(Ordering::SeqCst))
    };
    // The facts of each program of `work`, made by the first worker that
    // needs them (several files' at once, on as many workers).
    let mut programs: Vec<&ir::Program> = Vec::new();
    let program_of: Vec<usize> = work
        .iter()
        .map(
            |(program, _)| match programs.iter().position(|p| std::ptr::eq(*p, *program)) {
                Some(known) => known,
                None => {
                    programs.push(program);
                    programs.len() - 1
                }
            },
        )
        .collect();
    let facts: Vec<OnceLock<ProgramFacts>> = programs.iter().map(|_| OnceLock::new()).collect();
    let (reports, finished) = mpsc::channel();
    std::thread::scope(|scope| {
        for _ in 0..jobs.get().min(work.len()) {
            let reports = reports.clone();
            let (next, stopped, facts, program_of) = (&next, &stopped, &facts, &program_of);
            scope.spawn(move || {
                while !stopped() {
                    let n = next.fetch_add(1, Ordering::SeqCst);
                    let Some((program, func)) = work.get(n) else {
                        return;
                    };
                    let program_facts =
                        facts[program_of[n]].get_or_init(|| ProgramFacts::new(program, config));
                    let report = explore_function(program, program_facts, *func, config);
                    if reports.send((n, report)).is_err() {
                        return;
                    }
                }
            });
        }
        // Only the workers' senders remain: the loop ends when they all have.
        drop(reports);
        // Reports that came before one still running, by index.
        let mut waiting = BTreeMap::new();
        let mut handed = 0;
        let mut outcome = Ok(());
        for (n, report) in finished {
            waiting.insert(n, report);
            while let Some(report) = waiting.remove(&handed) {
                if outcome.is_ok() {
                    outcome = done(handed, report);
                    failed.store(outcome.is_err(), Ordering::SeqCst);
                }
                handed += 1;
            }
        }
        outcome
    })
}

/// One function's exploration on a thread of its own.
fn explore_function(
    program: &ir::Program,
    facts: &ProgramFacts,
    func: ir::FuncId,
    config: &EngineConfig,
) -> testcase::FunctionReport {
    explore::on_own_thread(|| coverage::explore(program, facts, func, config))
        .unwrap_or_else(|why| coverage::failed(program, func, &why))
}

/// C sources compiled for the engine's unit tests.
#[cfg(test)]
mod test_programs {
    use ir::{FuncId, Program};

    /// Compiles `source`, written to a temporary file named after `test`.
    pub fn program(test: &str, source: &str) -> Program {
        let path = std::env::temp_dir().join(format!("cairn-{}-{test}.c", std::process::id()));
        std::fs::write(&path, source).expect("write test source");
        let out = front::compile(&path, &front::FrontConfig::default()).expect("source compiles");
        let _ = std::fs::remove_file(&path);
        out.program
    }

    /// A program with nothing in it, for units that need one only for its layout.
    pub fn empty_program() -> Program {
        Program {
            ..Default::default()
        }
    }

    /// The program of `source` and its function `name`.
    pub fn compile(test: &str, source: &str, name: &str) -> (Program, FuncId) {
        let program = program(test, source);
        let func = program.function_by_name(name).expect("function exists");
        (program, func)
    }
}
