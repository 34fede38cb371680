//! The executor: runs one path state statement by statement, forking at
//! branches and lazy choices, and reporting findings without stopping the run.
//!
//! It knows nothing of the searches that drive it: a search hands it a state
//! and a [`Hooks`] object, and gets back a [`Step`] (what the turn produced)
//! while the hooks hear, as they happen, the events a search may track per
//! state (forks, blocks entered, branch arms, pointer decisions).

mod api;
mod call;
mod expr;
mod float;
mod heap;
mod hooks;
mod input;
mod invariant;
mod libc;
mod native;
mod place;
mod stub;

use crate::config::{AllocationFailure, EngineConfig, GoalScope, InputMode};
use crate::extract;
use crate::solver::{ConstraintId, PathSolver};
use crate::state::{NativeInputs, ObjKind, State, StateId};
use crate::value::{concrete, cond_value, Cell, Cond, SymVal, Target, Unsupported, Word};
use ir::{Arm, BlockId, FuncId, Goal, Layout, Program, Span, StmtKind, Terminator};
use std::collections::BTreeSet;
use testcase::Bound;
use testcase::{Boundary, Finding, FindingKind, TestCase};
use z3::ast::Bool;

pub use hooks::{Hooks, NoHooks};

/// What in the inputs of the function under test nothing vouches for: the
/// struct types built freely (no declared invariant accepted them, the API
/// did not build them), as C spells them, pointers read out of an input's
/// plain bytes, a NULL callback the function never tests for NULL, the
/// bytes a stub wrote through pointers, and the arguments of a `static`
/// function (its callers in the file may never pass them). A finding on
/// such inputs may need a value the program can never hold.
fn unvouched_inputs(program: &Program, st: &State, root: FuncId) -> Vec<String> {
    let mut types = BTreeSet::new();
    let function = program.function(root);
    if function.is_static && !function.sig.params.is_empty() {
        types.insert(format!("the arguments of static {}()", function.name));
    }
    for &obj in &st.pointers_from_bytes {
        if let ObjKind::Input { origin, .. } = &st.object(obj).kind {
            let path = &st.lazies[*origin as usize].path;
            types.insert(format!("pointers read from the bytes of `*{path}`"));
        }
    }
    for object in &st.objects {
        if let ObjKind::Input {
            elem: ir::Type::Struct(id),
            vouched: false,
            ..
        } = &object.kind
        {
            let def = program.struct_def(*id);
            types.insert(def.c_name().unwrap_or_else(|| def.name.clone()));
        }
    }
    let name = |param: usize| {
        let local = function.body.as_ref().and_then(|b| b.locals.get(param));
        local.map_or("?", |l| l.name.as_str())
    };
    for (param, ty) in function.sig.params.iter().enumerate() {
        let callback = matches!(ty.pointee(), Some(ir::Type::Function(_)));
        if callback && is_null(st, &st.params[param]) && !ir::checks_null(program, root, param) {
            types.insert(format!(
                "`{}` NULL, which {}() never tests",
                name(param),
                function.name
            ));
        }
    }
    // A callback mock stands for any function of its type: the one the
    // program stores there may never return what the test scripts.
    for call in st
        .stub_calls
        .iter()
        .filter(|c| program.is_callback_mock(c.func))
    {
        types.insert(format!(
            "what {}() returns, standing for any function of its type",
            program.function(call.func).name
        ));
    }
    // A stub's writes are any bytes (a string without its NUL): the real
    // function may never write them. A pointer it stored that the path
    // never read (`*list = NULL` in a free function) chose nothing.
    let chosen = |cell: &Cell| match cell {
        Cell::Byte { src, .. } => concrete(src).is_none(),
        Cell::Ptr { ptr, .. } => match ptr.target {
            Target::Lazy(lazy) => st.lazies[lazy as usize].resolution.is_some(),
            _ => true,
        },
        Cell::Deferred => false,
    };
    let scripted = |call: &&std::rc::Rc<crate::state::CallWithoutBody>| {
        (call.writes.iter()).any(|(_, cells)| cells.iter().any(chosen))
    };
    for call in st.stub_calls.iter().filter(scripted) {
        types.insert(format!(
            "what {}() writes through its pointers",
            program.function(call.func).name
        ));
    }
    for build in st.builds.iter().filter(|b| b.member.is_none()) {
        if build.calls.is_empty() {
            types.insert(format!("`{}` NULL", name(build.param)));
        } else if build.may_be_member {
            // Made apart from the structure the function may look for it in.
            let structure = st
                .builds
                .iter()
                .find(|b| b.ty == build.ty && b.member.is_none())
                .map_or("?", |b| name(b.param));
            types.insert(format!(
                "`{}` built apart from `{structure}`",
                name(build.param)
            ));
        }
    }
    types.into_iter().collect()
}

/// Whether `value` is a NULL pointer (a lazy one decided NULL included).
fn is_null(st: &State, value: &SymVal) -> bool {
    let SymVal::Ptr(p) = value else {
        return false;
    };
    let mut target = &p.target;
    while let crate::value::Target::Lazy(l) = target {
        match &st.lazies[*l as usize].resolution {
            Some(next) => target = next,
            None => return false,
        }
    }
    matches!(target, crate::value::Target::Null) && crate::value::concrete(&p.offset) == Some(0)
}

use invariant::Invariant;
pub use invariant::{defines_type, resolve as resolve_invariants};

/// Statements run for one state before the search gets to choose again.
const STATEMENTS_PER_TURN: usize = 2_000;

/// Entries into one block that learn nothing new, per `max_iterations`:
/// loops over fixed tables (a CRC table of 256 entries, 8 bits each) run
/// to their end, and a loop spinning on a cyclic input still stops.
const CONCRETE_ITERATIONS_PER_BOUND: u32 = 64;

/// Why a path cannot go on from the statement being run (the executor's
/// internal control flow; a turn turns it into an [`Outcome`]).
#[derive(Debug)]
enum Stop {
    /// The path condition became unsatisfiable.
    Dead,
    /// The statement must be re-executed in each of these states (a lazy choice).
    Fork(Vec<State>),
    /// The path ended with a finding, `exit` or `abort`.
    Ended(PathEnd),
    /// Something the engine does not model; names it.
    Unsupported(String),
    /// A budget (named) cut the path.
    Budget(Bound),
}

impl From<Unsupported> for Stop {
    fn from(what: Unsupported) -> Stop {
        Stop::Unsupported(what.0)
    }
}

type Exec<T> = Result<T, Stop>;

fn unsupported<T>(what: impl Into<String>) -> Exec<T> {
    Err(Stop::Unsupported(what.into()))
}

/// What one turn of a state produced.
#[derive(Debug)]
pub struct Step {
    pub outcome: Outcome,
    /// The budgets that cut choices made during the turn (the path went on
    /// with the others), each where it first did, in the order they did.
    pub cuts: Vec<Cut>,
    /// Statements and terminators run.
    pub statements: u64,
}

/// A budget that cut a choice on a path, and where: the goals behind it
/// are those the path had passed and those reachable from there.
#[derive(Debug)]
pub struct Cut {
    pub bound: Bound,
    /// The function and block of each of the path's frames.
    pub at: Vec<(FuncId, BlockId)>,
    /// The goals the path had passed.
    pub passed: Vec<Goal>,
}

/// Where and how a path ended before its function returned.
#[derive(Debug)]
pub struct PathEnd {
    /// The goals it reached.
    pub reached: Vec<Goal>,
    /// The function and block of each of its frames when it ended: after
    /// a fault, the code may go on from there.
    pub at: Vec<(FuncId, BlockId)>,
    /// The program itself ended there (`exit`, `abort`): nothing runs after.
    pub program_ends: bool,
    /// It went wrong after an allocation failed, which the code need not
    /// survive: not a finding.
    pub after_failed_allocation: bool,
}

/// How a turn ended.
#[derive(Debug)]
pub enum Outcome {
    /// States still running: the same one, or its children after a fork.
    Running(Vec<State>),
    /// The function under test returned.
    Completed(Box<State>),
    /// The path ended without a test (a certain finding, `exit`, `abort`).
    Ended(PathEnd),
    /// The path condition became unsatisfiable.
    Infeasible,
    /// The path needs something the engine does not model (named).
    Unsupported(String),
    /// A budget (named, e.g. `max_nodes`) cut the path.
    Cut(Bound),
}

/// What persists between turns of one exploration: the program, the
/// solver, the findings so far.
pub struct Executor<'a> {
    pub program: &'a Program,
    pub config: &'a EngineConfig,
    pub solver: PathSolver,
    /// The function under test: its goals are the ones traced.
    pub root: FuncId,
    /// Most entries into one block of one call on a path (`config`'s, unless
    /// a search bounds its paths tighter).
    pub max_iterations: u32,
    /// Most elements of an input array that is not a string (`config`'s
    /// `max_array`, unless a phase of concrete candidates allows longer).
    pub max_elements: u64,
    /// Most bytes of an input string or of a read stream's contents:
    /// `max_array`, or room for the longest literal the code compares
    /// strings with and a byte either side (`strncmp(line, "nameserver",
    /// 10)` needs 10 where `max_array` is 8), up to
    /// [`crate::bounds::COMPARED_STRING_BYTES`], or room for the largest
    /// struct the code reads a byte buffer as and `max_array` bytes after
    /// it (`(struct hdr *)buf`), up to [`crate::bounds::RECORD_BYTES`].
    pub max_string: u64,
    pub findings: Vec<Finding>,
    /// The declared invariants of this program's input types.
    invariants: &'a [Invariant],
    /// The globals the program's code writes (see [`ir::written_globals`]).
    state_globals: &'a BTreeSet<ir::GlobalId>,
    /// How the code's own functions build struct inputs (empty for free-form
    /// inputs and for an invariant's predicate).
    apis: &'a api::Apis,
    reported: BTreeSet<(FindingKind, Span)>,
    next_state: u64,
    /// The function under test orders or subtracts pointers: an input
    /// pointer may then point into another input's buffer (an end pointer).
    orders_pointers: bool,
    /// Set for a screening run (a candidate input run natively, to learn
    /// whether it is worth running in full): a fault is neither asked of
    /// the solver nor reported, only noted here when it certainly happens.
    pub noting_faults: Option<bool>,
    /// The C library calls run natively so far, by their arguments.
    native: crate::native::Memo,
}

/// What every exploration of a program's functions needs to know of the
/// whole program. Made once per program and run, not once per function
/// explored: a run over a file stays linear in its functions.
#[derive(Debug)]
pub struct ProgramFacts {
    invariants: Vec<Invariant>,
    state_globals: BTreeSet<ir::GlobalId>,
    apis: api::Apis,
}

impl ProgramFacts {
    pub fn new(program: &Program, config: &EngineConfig) -> ProgramFacts {
        // The front end checked them (`invariant::resolve`) before the run.
        let invariants = invariant::resolve(program, &config.invariants).unwrap_or_default();
        let predicates: Vec<FuncId> = invariants.iter().map(|i| i.predicate).collect();
        let apis = match config.inputs {
            InputMode::Api => api::Apis::find(program, &predicates),
            InputMode::Free => api::Apis::NONE,
        };
        ProgramFacts {
            invariants,
            state_globals: ir::written_globals(program),
            apis,
        }
    }
}

impl ProgramFacts {
    /// The functions a test's input may be built or checked with, whatever
    /// the function under test: constructors, adders and invariants'
    /// predicates.
    pub fn input_functions(&self) -> impl Iterator<Item = FuncId> + '_ {
        self.apis
            .functions()
            .chain(self.invariants.iter().map(|i| i.predicate))
    }
}

/// The construction API of an invariant's predicate, which builds nothing.
static NO_APIS: api::Apis = api::Apis::NONE;

impl<'a> Executor<'a> {
    /// The executor of one exploration of `root`, its solver giving up at
    /// `deadline`; `facts` are those of `program` under `config`.
    pub fn new(
        program: &'a Program,
        facts: &'a ProgramFacts,
        config: &'a EngineConfig,
        root: FuncId,
        deadline: std::time::Instant,
    ) -> Self {
        // A declared invariant's predicate is tested on any shape: rejecting
        // the invalid ones is its job.
        let is_predicate = facts.invariants.iter().any(|i| i.predicate == root);
        Executor {
            program,
            config,
            solver: PathSolver::for_config(config, deadline),
            root,
            max_iterations: config.max_iterations,
            max_elements: config.max_array,
            max_string: max_string(program, root, config.max_array),
            findings: Vec::new(),
            invariants: &facts.invariants,
            state_globals: &facts.state_globals,
            apis: if is_predicate { &NO_APIS } else { &facts.apis },
            reported: BTreeSet::new(),
            next_state: 0,
            orders_pointers: ir::walk::orders_pointers(program, root),
            noting_faults: None,
            native: crate::native::Memo::default(),
        }
    }

    fn fresh_id(&mut self) -> StateId {
        self.next_state += 1;
        StateId(self.next_state)
    }

    /// The predicate of the declared invariant of what `ty` points to.
    fn invariant_of(&self, ty: &ir::Type) -> Option<FuncId> {
        invariant::of_input(self.invariants, self.root, ty).map(|inv| inv.predicate)
    }

    /// The predicate of the declared invariant of what the pointer `ty`
    /// points to points to (`T **`).
    fn invariant_through(&self, ty: &ir::Type) -> Option<FuncId> {
        invariant::of_pointee(self.invariants, self.root, ty).map(|inv| inv.predicate)
    }

    /// Whether tests may call the function before the call they check (see
    /// `BuildStep::CallAgain`).
    fn calls_earlier(&self) -> bool {
        input::may_call_earlier(self.program, self.root)
    }

    /// The state at the entry of the function under test, its parameters
    /// fresh inputs; the construct it cannot model otherwise.
    pub fn initial_state(&mut self) -> Result<State, String> {
        self.initial_state_of(None)
    }

    /// The state at the entry of the function under test, its input
    /// scalars `native`'s numbers (see [`State::native_inputs`]) or symbols.
    pub fn initial_state_of(&mut self, native: Option<NativeInputs>) -> Result<State, String> {
        let id = self.fresh_id();
        let program = self.program;
        match input::initial_state(program, self.root, self.invariants, self.apis, id, native) {
            Ok(mut state) => {
                if state.build_step.is_none() && self.calls_earlier() {
                    state.build_step = Some(crate::state::BuildStep::CallAgain);
                }
                self.run_without_arguments(&mut state);
                Ok(state)
            }
            Err(Stop::Unsupported(what)) => Err(what),
            Err(other) => Err(format!("the entry of the function ({other:?})")),
        }
    }

    /// A whole program's `main(argc, argv)` runs as the program is started
    /// with no arguments (as Test-Comp's harness starts it): `argc` is 1.
    fn run_without_arguments(&mut self, state: &mut State) {
        let main = self.program.function(self.root);
        if self.config.goal_scope != GoalScope::Program || main.name != "main" {
            return;
        }
        if let Some(SymVal::Int(argc)) = state.params.first() {
            let started = argc.eq(Word::known(1, argc.get_size()));
            if let Cond::Term(term) = started {
                let id = self.solver.intern(&term);
                state.path.push(id);
            }
        }
    }

    /// Runs `state` until it forks, ends, or has had its turn, telling
    /// `hooks` what happens on the way.
    pub fn turn(&mut self, state: State, hooks: &mut dyn Hooks) -> Step {
        let mut machine = Machine {
            ex: self,
            hooks,
            span: Span::default(),
            cuts: Vec::new(),
            statements: 0,
        };
        let mut outcome = match machine.run(state) {
            Ok(outcome) => outcome,
            Err(Stop::Fork(states)) => Outcome::Running(states),
            Err(Stop::Dead) => Outcome::Infeasible,
            Err(Stop::Ended(end)) => Outcome::Ended(end),
            Err(Stop::Unsupported(what)) => Outcome::Unsupported(what),
            Err(Stop::Budget(name)) => Outcome::Cut(name),
        };
        // Each fork's choice, numbered in the order the choices come.
        if let Outcome::Running(forks) = &mut outcome {
            if forks.len() > 1 {
                for (choice, st) in forks.iter_mut().enumerate() {
                    st.lineage = crate::stable_hash::mix(st.lineage, choice as u64);
                }
            }
        }
        Step {
            outcome,
            cuts: machine.cuts,
            statements: machine.statements,
        }
    }

    /// The value of `expr` in a scratch copy of `state` (no events reach
    /// any search); `None` when evaluating it would fork or stop the path.
    pub fn value_of(&mut self, state: &State, expr: &ir::Expr) -> Option<SymVal> {
        let mut scratch = state.clone();
        let mut machine = Machine {
            ex: self,
            hooks: &mut NoHooks,
            span: Span::default(),
            cuts: Vec::new(),
            statements: 0,
        };
        machine.eval(&mut scratch, expr).ok()
    }

    /// The test of a completed path, its inputs as readable as the solver
    /// finds them quickly; `None` when the path turns out infeasible.
    pub fn solve_test(&mut self, st: &State, new_goals: Vec<Goal>) -> Option<TestCase> {
        self.solve_test_on(st, new_goals, None, &[])
    }

    /// [`Self::solve_test`] with `assuming` added to the path condition
    /// (the test still takes the path); the test's `boundaries` are those
    /// of `candidates` whose condition its inputs meet.
    pub fn solve_test_on(
        &mut self,
        st: &State,
        new_goals: Vec<Goal>,
        assuming: Option<&Bool>,
        candidates: &[(Boundary, Bool)],
    ) -> Option<TestCase> {
        let mut path = st.path.clone();
        if let Some(condition) = assuming {
            path.push(self.solver.intern(condition));
        }
        let mut model = self.solver.readable_model(&path, &st.input_symbols)?;
        let mut free = self.solver.free_variables(&path, &st.input_symbols);
        // Comparison results of 1, 0 or -1 are the same in every C library.
        let agreed: Vec<Bool> = (st.comparisons.iter())
            .map(|c| {
                Cond::and(&[
                    c.bvsge(Word::known(0xFFFF_FFFF, 32)),
                    c.bvsle(Word::known(1, 32)),
                ])
                .term()
            })
            .collect();
        if !agreed.is_empty()
            && extract::Valuation::new(&model, &free).holds(&Bool::and(&agreed)) != Some(true)
        {
            let mut agreeing = path.clone();
            agreeing.push(self.solver.intern(&Bool::and(&agreed)));
            if let Some(better) = self.solver.readable_model(&agreeing, &st.input_symbols) {
                free = self.solver.free_variables(&agreeing, &st.input_symbols);
                model = better;
            }
        }
        let mut values = extract::Valuation::new(&model, &free);
        // A buffer a stub filled reads best as a string: zeros after its
        // first NUL, where the path allows them.
        let past_ends = extract::past_string_ends(st, &values);
        if !past_ends.is_empty() {
            let zeroed = extract::Valuation::new(&model, &free).with_zeros(past_ends);
            let conditions: Vec<Bool> = path.iter().map(|id| self.solver.constraint(*id)).collect();
            if zeroed.holds(&Bool::and(&conditions)) == Some(true) {
                values = zeroed;
            }
        }
        let mut test = extract::test_case(
            self.program,
            self.config,
            st,
            &values,
            self.root,
            new_goals,
            st.trace.clone(),
        );
        test.boundaries = candidates
            .iter()
            .filter(|(_, met)| values.holds(met) == Some(true))
            .map(|(goal, _)| *goal)
            .collect();
        Some(test)
    }
}

/// One turn in progress: the executor and the hooks of the search that runs it.
struct Machine<'t, 'a> {
    ex: &'t mut Executor<'a>,
    hooks: &'t mut dyn Hooks,
    /// Span of the statement being executed (for findings).
    span: Span,
    /// See [`Step::cuts`].
    cuts: Vec<Cut>,
    statements: u64,
}

impl<'a> std::ops::Deref for Machine<'_, 'a> {
    type Target = Executor<'a>;
    fn deref(&self) -> &Executor<'a> {
        self.ex
    }
}

impl<'a> std::ops::DerefMut for Machine<'_, 'a> {
    fn deref_mut(&mut self) -> &mut Executor<'a> {
        self.ex
    }
}

impl<'a> Machine<'_, 'a> {
    fn run(&mut self, mut state: State) -> Exec<Outcome> {
        for done in 0..STATEMENTS_PER_TURN {
            if state.frames.is_empty() {
                return Ok(Outcome::Completed(Box::new(state)));
            }
            // Past its deadline or cancelled, the solver answers nothing:
            // hand the state back to the loop, whose budget then stops the search.
            // Checked at every statement: one may take long (a scan of a
            // large buffer whose bytes are conditional).
            if done > 0 && self.solver.must_stop() {
                break;
            }
            self.statements += 1;
            let mut next = self.step(state)?;
            if next.len() != 1 {
                return Ok(Outcome::Running(next));
            }
            state = next.pop().expect("one successor");
        }
        if state.frames.is_empty() {
            return Ok(Outcome::Completed(Box::new(state)));
        }
        Ok(Outcome::Running(vec![state]))
    }

    /// A copy of `st` to continue on another choice: a new identity, whose
    /// history the hooks copy from `st`'s.
    fn fork(&mut self, st: &State) -> State {
        self.fork_owned(st.clone())
    }

    /// [`Self::fork`] of a state no longer needed as it is: no copy.
    fn fork_owned(&mut self, mut st: State) -> State {
        let parent = st.id;
        st.id = self.ex.fresh_id();
        self.hooks.forked(parent, st.id);
        st
    }

    /// Enters `block` in the top frame of `st`, telling the hooks first.
    fn enter_block(&mut self, st: &mut State, block: BlockId) {
        self.hooks.entering(st, block);
        st.enter_block(block);
    }

    fn step(&mut self, mut st: State) -> Exec<Vec<State>> {
        if let Some(next) = st.build_step.take() {
            return self.take_build_step(st, next);
        }
        if let Some(param) = st.checks_through.pop() {
            return self.assume_through(st, param);
        }
        if st.built_at_call.is_none() && !st.builds.is_empty() && st.frames.len() == 1 {
            st.note_built_at_call();
        }
        let frame = st.frame();
        let at = frame.block.index();
        let bound = self.max_iterations.max(1);
        if frame.stmt == 0
            && (frame.deciding_visits[at] > bound
                || frame.visits[at] > bound.saturating_mul(CONCRETE_ITERATIONS_PER_BOUND))
        {
            return Err(Stop::Budget(Bound::MaxIterations));
        }
        let body = self.body(frame.func)?;
        let block = body.block(frame.block);
        if frame.stmt < block.stmts.len() {
            let stmt = &block.stmts[frame.stmt];
            self.span = stmt.span;
            match &stmt.kind {
                StmtKind::Assign(place, value) => {
                    let v = self.eval(&mut st, value)?;
                    let loc = self.place_loc(&mut st, place)?;
                    self.store(&mut st, &loc, &v)?;
                    st.frame_mut().stmt += 1;
                }
                StmtKind::Call { dest, callee, args } => self.call(&mut st, dest, callee, args)?,
            }
            return Ok(vec![st]);
        }
        self.span = block.term_span;
        st.blocks_run += 1;
        match &block.term {
            // A block that only jumps to itself (`for (;;);`, `L: goto L;`)
            // never lets the program go on: it hangs there.
            Terminator::Goto(target) if *target == st.frame().block && block.stmts.is_empty() => {
                Err(self.end(&st, true))
            }
            Terminator::Goto(target) => {
                self.enter_block(&mut st, *target);
                Ok(vec![st])
            }
            Terminator::Branch {
                cond,
                then_bb,
                else_bb,
                site,
            } => {
                let v = self.eval(&mut st, cond)?;
                let c = self.truth(&mut st, &v)?;
                let site = *site;
                let arms = [
                    (c.clone(), *then_bb, Arm::True),
                    (c.not(), *else_bb, Arm::False),
                ];
                Ok(self.fork_arms(st, site, arms.to_vec()))
            }
            Terminator::Switch {
                value,
                cases,
                default,
                site,
            } => {
                let v = match self.eval(&mut st, value)? {
                    SymVal::Int(v) => v,
                    _ => return unsupported("switch on a non-integer"),
                };
                let bits = v.get_size();
                let signed = value.ty.as_int().is_some_and(|t| t.signed);
                self.note_case_ranges(&st, &v, signed, cases)?;
                let mut arms: Vec<(Cond, BlockId, Arm)> = Vec::new();
                let mut none_matches = Vec::new();
                for (n, (case, target)) in cases.iter().enumerate() {
                    let hit = v.eq(Word::known(*case as u128, bits));
                    none_matches.push(hit.not());
                    match arms.iter_mut().find(|a| a.1 == *target) {
                        Some(arm) => arm.0 = Cond::or(&[arm.0.clone(), hit]),
                        None => arms.push((hit, *target, Arm::Case(n as u32))),
                    }
                }
                arms.push((Cond::and(&none_matches), *default, Arm::Default));
                Ok(self.fork_arms(st, *site, arms))
            }
            Terminator::Return(value) => {
                let v = match value {
                    Some(e) => Some(self.eval(&mut st, e)?),
                    None => None,
                };
                if st.frames.len() == 1 {
                    st.ret_written = self.returned_bytes_written(&mut st, value.as_ref())?;
                }
                self.return_from(&mut st, v)?;
                Ok(vec![st])
            }
            // Only a function that should not have returned leads here.
            Terminator::Unreachable => Err(self.end(&st, false)),
        }
    }

    /// Which bytes of a struct the function under test returns from a
    /// variable were written (`out.size = 0; ... return out;` leaves the
    /// members it never set indeterminate: no test checks them).
    fn returned_bytes_written(
        &mut self,
        st: &mut State,
        value: Option<&ir::Expr>,
    ) -> Exec<Option<Vec<crate::state::Written>>> {
        let Some(ir::ExprKind::Load(place)) = value.map(|e| &e.kind) else {
            return Ok(None);
        };
        let Ok(loc) = self.place_loc(st, place) else {
            return Ok(None);
        };
        let (ir::Type::Struct(_), Some(start)) = (&loc.ty, concrete(&loc.off)) else {
            return Ok(None);
        };
        let start = start as usize;
        let size = self.program.size_of(&loc.ty) as usize;
        let object = st.object(loc.obj);
        Ok((object.written.get_range(start..start + size)).map(|w| w.into_owned()))
    }

    /// One successor per feasible arm the hooks want, each with its
    /// condition assumed and goal traced.
    fn fork_arms(
        &mut self,
        st: State,
        site: ir::BranchId,
        arms: Vec<(Cond, BlockId, Arm)>,
    ) -> Vec<State> {
        // Only the conditions of the function under test itself count, or,
        // for a whole program, those of every function its run enters.
        let func = st.frame().func;
        let in_scope = match self.config.goal_scope {
            GoalScope::Function => func == self.root,
            GoalScope::Program => true,
        };
        let traced = in_scope && self.runs_call_under_test(&st);
        let arms: Vec<(Cond, BlockId, Arm)> = arms
            .into_iter()
            .map(|(cond, target, arm)| (st.with_fixed(&cond), target, arm))
            .collect();
        let mut out = Vec::new();
        let mut parent = Some(st);
        for (i, (cond, target, arm)) in arms.iter().enumerate() {
            let Some(st) = parent.as_ref() else {
                break;
            };
            if !self.hooks.wants_arm(st, *target) || !self.arm_feasible(st, cond, *arm) {
                continue;
            }
            // Later arms known false need only the hooks of `st`: told now,
            // this arm takes the state itself instead of a copy.
            let later = &arms[i + 1..];
            let mut next = if later.iter().all(|(c, ..)| matches!(c, Cond::Known(false))) {
                for (cond, target, arm) in later {
                    if self.hooks.wants_arm(st, *target) {
                        self.arm_feasible(st, cond, *arm);
                    }
                }
                let Some(own) = parent.take() else {
                    break;
                };
                self.fork_owned(own)
            } else {
                self.fork(st)
            };
            let Ok(constraint) = self.assume_constraint(&mut next, cond) else {
                continue;
            };
            if !self.solver.defers_feasibility() {
                next.feasible_through = next.path.len();
            }
            self.hooks.arm_taken(&next, *arm, constraint);
            let goal = Goal {
                func,
                site,
                arm: *arm,
            };
            // Once per goal: a loop spinning on a cyclic input would grow it without bound.
            if traced && !next.trace.contains(&goal) {
                next.trace.push(goal);
            }
            self.enter_block(&mut next, *target);
            out.push(next);
        }
        out
    }

    /// Whether the arm of `cond` may be taken from `st`; when not, tells the
    /// hooks, and notes a bound that cut it.
    fn arm_feasible(&mut self, st: &State, cond: &Cond, arm: Arm) -> bool {
        let constant_false = cond_value(cond) == Some(false);
        if !constant_false && self.may(st, cond) {
            return true;
        }
        if !constant_false {
            self.note_limit_cut(st, cond);
        }
        // A scan cut at an input's last byte may have decided it.
        if st.scan_capped {
            self.note_cut(st, Bound::MaxArray);
        }
        self.hooks.arm_infeasible(st, arm, &cond.term());
        false
    }

    /// Whether `st` runs the call under test (or a function it calls),
    /// not calls that build its inputs or check their invariants, which the
    /// driver does not make (or makes before it).
    fn runs_call_under_test(&self, st: &State) -> bool {
        !api::building(st) && !st.checking_invariant()
    }

    fn body(&self, func: FuncId) -> Exec<&'a ir::Body> {
        match &self.program.function(func).body {
            Some(b) => Ok(b),
            None => unsupported("a function without a body"),
        }
    }

    /// Can `cond` hold on this path?
    fn may(&mut self, st: &State, cond: &Cond) -> bool {
        let cond = &st.with_fixed(cond);
        match cond_value(cond) {
            Some(known) => {
                known
                    && (st.feasible_through == st.path.len()
                        || self.solver.feasible(&st.path, None))
            }
            None => self.solver.feasible(&st.path, Some(&cond.term())),
        }
    }

    /// Adds `cond` to the path condition (without a solver call).
    fn assume(&mut self, st: &mut State, cond: &Cond) -> Exec<()> {
        self.assume_constraint(st, cond).map(|_| ())
    }

    /// [`Self::assume`], also giving the constraint added (`None` when
    /// `cond` is constant).
    fn assume_constraint(&mut self, st: &mut State, cond: &Cond) -> Exec<Option<ConstraintId>> {
        let cond = &st.with_fixed(cond);
        match cond_value(cond) {
            Some(true) => Ok(None),
            Some(false) => Err(Stop::Dead),
            None => {
                let term = cond.term();
                let id = self.solver.intern(&term);
                if !st.path.contains(&id) {
                    st.path.push(id);
                }
                // Later terms read the symbol as its number: a boundary of
                // a comparison the path decided by equality needs no query.
                if let Some(pinned) = crate::value::pinned_symbol(&term) {
                    std::rc::Rc::make_mut(&mut st.fixed).push(pinned);
                }
                Ok(Some(id))
            }
        }
    }

    /// Adds `cond`, a bound rather than the program's semantics, to the
    /// path condition (see [`State::limits`]).
    fn assume_limit(&mut self, st: &mut State, cond: &Cond, bound: Bound) -> Exec<()> {
        if let Some(id) = self.assume_constraint(st, cond)? {
            st.limits.push((id, bound));
        }
        Ok(())
    }

    /// When `cond` is infeasible here but would not be without the path's
    /// bounds, the bound cut this turn: goals behind it are not disproved.
    fn note_limit_cut(&mut self, st: &State, cond: &Cond) {
        let Some(&(_, bound)) = st.limits.first() else {
            return;
        };
        if self.has_cut(bound) {
            return;
        }
        let unbounded: Vec<ConstraintId> = st
            .path
            .iter()
            .filter(|c| !st.limits.iter().any(|(l, _)| l == *c))
            .copied()
            .collect();
        if self.solver.feasible(&unbounded, Some(&cond.term())) {
            self.note_cut(st, bound);
        }
    }

    /// Whether `bound` already cut a choice in this turn.
    fn has_cut(&self, bound: Bound) -> bool {
        self.cuts.iter().any(|c| c.bound == bound)
    }

    /// Notes that `bound` cuts a choice of `st` here, unless it already did
    /// earlier in this turn: what the path reaches from here, it reaches
    /// from there too.
    fn note_cut(&mut self, st: &State, bound: Bound) {
        if self.has_cut(bound) {
            return;
        }
        self.cuts.push(Cut {
            bound,
            at: st.frames.iter().map(|f| (f.func, f.block)).collect(),
            passed: st.trace.clone(),
        });
    }

    /// Reports a finding when `fault` can hold here (once per kind and site),
    /// then goes on assuming it does not.
    fn check_fault(
        &mut self,
        st: &mut State,
        kind: FindingKind,
        fault: &Cond,
        message: &str,
    ) -> Exec<()> {
        self.note_fault(st, kind, fault, message);
        self.assume(st, &fault.not())
    }

    /// Reports a finding when `fault` can hold here (once per kind and
    /// site), leaving the path as it is; true when it reported one.
    fn note_fault(&mut self, st: &State, kind: FindingKind, fault: &Cond, message: &str) -> bool {
        let fault = &st.with_fixed(fault);
        if cond_value(fault) == Some(false) || self.reported.contains(&(kind, self.span)) {
            return false;
        }
        if let Some(seen) = &mut self.noting_faults {
            *seen |= cond_value(fault) == Some(true);
            return false;
        }
        let mut path = st.path.clone();
        path.push(self.solver.intern(&fault.term()));
        match self.solver.readable_model(&path, &st.input_symbols) {
            Some(model) => self.record(st, kind, message, &model),
            None => false,
        }
    }

    /// Reports a fault that certainly happens on this path and ends it.
    fn fault<T>(&mut self, st: &State, kind: FindingKind, message: &str) -> Exec<T> {
        if !self.report(st, kind, message) {
            return Err(Stop::Dead);
        }
        Err(self.end(st, kind.ends_the_program()))
    }

    /// Reports a fault that certainly happens on this path (once per kind and
    /// site), leaving the path to go on; false when the path is infeasible.
    fn report(&mut self, st: &State, kind: FindingKind, message: &str) -> bool {
        if self.reported.contains(&(kind, self.span)) {
            return true;
        }
        if let Some(seen) = &mut self.noting_faults {
            *seen = true;
            return true;
        }
        match self.solver.readable_model(&st.path, &st.input_symbols) {
            Some(model) => {
                self.record(st, kind, message, &model);
                true
            }
            None => false,
        }
    }

    /// Whether what goes wrong on this path comes after a failed allocation
    /// the user did not ask to see handled: neither a finding nor a test.
    fn failure_unhandled(&self, st: &State) -> bool {
        self.config.allocation_failure == AllocationFailure::Handled
            && !st.failing_allocations.is_empty()
    }

    /// Ends the path here (no test: the driver could not run past this
    /// point); `program_ends` when nothing of the program runs after it.
    fn end(&mut self, st: &State, program_ends: bool) -> Stop {
        Stop::Ended(PathEnd {
            reached: st.trace.clone(),
            at: st.frames.iter().map(|f| (f.func, f.block)).collect(),
            program_ends,
            after_failed_allocation: self.failure_unhandled(st),
        })
    }

    /// Records a finding; false when it is not the code's.
    fn record(&mut self, st: &State, kind: FindingKind, message: &str, model: &z3::Model) -> bool {
        // A fault of a declared invariant on a shape it was checking is not
        // the code's: the shape is just not one the predicate accepts.
        if st.checking_invariant() || self.failure_unhandled(st) {
            return false;
        }
        let span = self.span;
        self.reported.insert((kind, span));
        let inputs = extract::inputs(self.program, st, model, self.root);
        let func = self.root;
        let unvouched_inputs = unvouched_inputs(self.program, st, self.root);
        self.findings.push(Finding {
            func,
            kind,
            span,
            message: message.to_string(),
            inputs,
            unvouched_inputs,
            broken_invariant: None,
            path_goals: st.trace.clone(),
            not_confirmed: None,
        });
        true
    }
}

/// See [`Executor::max_string`].
fn max_string(program: &Program, root: FuncId, max_array: u64) -> u64 {
    let literal = libc::longest_compared_literal(program, root);
    let room = match literal {
        0 => 0,
        n => (n + 2).min(crate::bounds::COMPARED_STRING_BYTES),
    };
    // A buffer read as a record holds one, and data after it as a header
    // announces (an EMF record's description, a packet's payload).
    let record = match ir::walk::largest_record_read_from_bytes(program, root) {
        0 => 0,
        n => (n + max_array).min(crate::bounds::RECORD_BYTES),
    };
    max_array.max(room).max(record).max(1)
}
