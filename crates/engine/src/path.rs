//! Path-oriented generation (seeds 000 and 001): one input whose run follows
//! a given sequence of source lines, or the conditions along that sequence
//! that contradict each other.
//!
//! Which lines count. The visited lines of a run are the lines of the
//! statements, conditions (branch and switch) and returns executed in the
//! outermost call of the function under test, in its own file; `goto`s the
//! front end adds at the end of blocks do not count, nor does code run in
//! callees or in recursive calls. Consecutive repetitions of one line are
//! one visit, so a loop written on one line is one visit however often it
//! runs, and a condition split into several branches (`a && b`) is one visit
//! of its line. A step `LINE:COL` also needs code starting at that column to
//! run during that visit (e.g. the second operand of `a && b`). A run follows
//! the spec when its visited lines start with the spec's steps, in order; a
//! spec that stops early (a prefix) is followed by any completion.
//!
//! Search. The search tracks every state's progress from the executor's
//! events (`Hooks::entering`); a branch arm that leaves the spec is not even
//! asked of the solver, and a state that leaves it otherwise is dropped.
//! States with the fewest input objects run first, then the furthest along.
//!
//! Explanation. An arm the spec asks for but the path cannot take is a dead
//! end ([`DeadEnd`]). When no run follows the spec and no bound cut the
//! search, every dead end gets the conditions that contradict there: for a
//! condition the solver refutes, the arms behind a minimal unsat core of the
//! path condition; for a condition the shape decides (pointers compared after
//! lazy decisions), the conditions at which the pointers it compares were
//! decided (NULL, an alias or a new object). The union over the dead ends is
//! the answer: under every choice of shape, those conditions contradict.

use crate::config::EngineConfig;
use crate::exec::{Executor, Hooks, ProgramFacts};
use crate::explore::{self, Budget, Objective, Obstacle, PerState, Searcher};
use crate::searchers::{BestFirst, Ties};
use crate::solver::ConstraintId;
use crate::state::{ObjKind, State, StateId};
use crate::value::{bool_value, LazyIdx, SymVal, Target};
use ir::{Arm, BlockId, Body, Expr, ExprKind, FuncId, PlaceBase, Program, Span, Terminator};
use std::cmp::Reverse;
use std::collections::BTreeSet;
use std::fmt;
use std::time::Instant;
use testcase::Bound;
use testcase::{FunctionReport, TestCase};
use z3::ast::Bool;

/// One step of a path: a source line, optionally with the column of code on it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Step {
    pub line: u32,
    pub col: Option<u32>,
}

impl fmt::Display for Step {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.col {
            Some(col) => write!(f, "{}:{col}", self.line),
            None => write!(f, "{}", self.line),
        }
    }
}

/// A spec that cannot be read or names no code of the function.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PathError(pub String);

impl fmt::Display for PathError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for PathError {}

/// Reads `LINE[:COL]` steps separated by commas and/or spaces.
pub fn parse_steps(spec: &str) -> Result<Vec<Step>, PathError> {
    let bad = |token: &str| {
        PathError(format!(
            "a path step is LINE or LINE:COL (positive numbers), got `{token}`"
        ))
    };
    let number = |text: &str, token: &str| match text.parse::<u32>() {
        Ok(n) if n > 0 => Ok(n),
        _ => Err(bad(token)),
    };
    let steps = spec
        .split(|c: char| c == ',' || c.is_whitespace())
        .filter(|token| !token.is_empty())
        .map(|token| match token.split_once(':') {
            Some((line, col)) => Ok(Step {
                line: number(line, token)?,
                col: Some(number(col, token)?),
            }),
            None => Ok(Step {
                line: number(token, token)?,
                col: None,
            }),
        })
        .collect::<Result<Vec<_>, _>>()?;
    if steps.is_empty() {
        return Err(PathError("the path names no line".into()));
    }
    Ok(steps)
}

/// The spec and what counts as a visit, shared by every state of one search.
#[derive(Debug)]
struct Follow {
    steps: Vec<Step>,
    /// Per block of the function under test: the `(line, col)` of each of
    /// its counted code positions, in execution order.
    positions: Vec<Vec<(u32, u32)>>,
}

/// Where a state left the spec.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Departure {
    /// Index of the step it did not follow.
    pub step: usize,
    /// The line visited instead (`None`: the run ended first).
    pub visited: Option<u32>,
}

/// How far one state has followed the spec.
#[derive(Clone, Debug, Default)]
struct Progress {
    /// Steps followed so far.
    matched: usize,
    /// The line of the current visit.
    line: Option<u32>,
    /// The last matched step names a column not yet run in this visit.
    column_pending: bool,
    departure: Option<Departure>,
}

impl Progress {
    pub fn departure(&self) -> Option<Departure> {
        self.departure
    }

    pub fn matched(&self) -> usize {
        self.matched
    }
}

impl Follow {
    pub fn new(program: &Program, func: FuncId, steps: Vec<Step>) -> Result<Follow, PathError> {
        let function = program.function(func);
        let Some(body) = &function.body else {
            return Err(PathError(format!("`{}` has no body", function.name)));
        };
        let positions = counted_positions(body, function.span.file);
        for step in &steps {
            let on_line = positions
                .iter()
                .flatten()
                .filter(|(line, _)| *line == step.line);
            let found = match step.col {
                None => on_line.count() > 0,
                Some(col) => on_line.into_iter().any(|(_, c)| *c == col),
            };
            if !found {
                let mut lines: Vec<u32> = positions.iter().flatten().map(|(l, _)| *l).collect();
                lines.sort_unstable();
                lines.dedup();
                let lines: Vec<String> = lines.iter().map(u32::to_string).collect();
                return Err(PathError(format!(
                    "step {step} names no code of `{}` (lines with code: {})",
                    function.name,
                    lines.join(" ")
                )));
            }
        }
        Ok(Follow { steps, positions })
    }

    /// Advances `progress` over the code of `block`, entered in the outermost call.
    pub fn enter(&self, progress: &mut Progress, block: BlockId) {
        let Some(positions) = self.positions.get(block.index()) else {
            return;
        };
        for &(line, col) in positions {
            self.visit(progress, line, col);
        }
    }

    fn visit(&self, progress: &mut Progress, line: u32, col: u32) {
        if progress.departure.is_some() {
            return;
        }
        if progress.line == Some(line) {
            let step = progress.matched.checked_sub(1).map(|i| self.steps[i]);
            if progress.column_pending && step.is_some_and(|s| s.col == Some(col)) {
                progress.column_pending = false;
            }
            return;
        }
        if progress.column_pending {
            progress.departure = Some(Departure {
                step: progress.matched - 1,
                visited: Some(line),
            });
            return;
        }
        progress.line = Some(line);
        let Some(step) = self.steps.get(progress.matched) else {
            return;
        };
        if step.line != line {
            progress.departure = Some(Departure {
                step: progress.matched,
                visited: Some(line),
            });
            return;
        }
        progress.matched += 1;
        progress.column_pending = step.col.is_some_and(|c| c != col);
    }

    /// Has a run that ended with `progress` followed the whole spec?
    fn followed(&self, progress: &Progress) -> bool {
        progress.departure.is_none()
            && progress.matched == self.steps.len()
            && !progress.column_pending
    }
}

/// Counted code positions of each block: statements, conditions and returns
/// in the function's own file (not the `goto`s closing blocks).
fn counted_positions(body: &Body, file: u32) -> Vec<Vec<(u32, u32)>> {
    body.blocks
        .iter()
        .map(|block| {
            let term = match block.term {
                Terminator::Branch { .. } | Terminator::Switch { .. } | Terminator::Return(_) => {
                    Some(block.term_span)
                }
                Terminator::Goto(_) | Terminator::Unreachable => None,
            };
            block
                .stmts
                .iter()
                .map(|s| s.span)
                .chain(term)
                .filter(|span| span.file == file && span.line > 0)
                .map(|span| (span.line, span.col))
                .collect()
        })
        .collect()
}

/// Why one step of a path holds.
#[derive(Clone, Debug)]
struct Origin {
    /// The condition (a branch's or switch's) or statement.
    pub span: Span,
    pub fact: Fact,
}

#[derive(Clone, Debug)]
enum Fact {
    /// The arm taken at a condition, with the constraint it added (none when
    /// the shape decided the condition).
    Arm(Arm, Option<ConstraintId>),
    /// A lazy input pointer was decided here (NULL, an alias or a new object).
    Decision(LazyIdx),
}

/// What a path-oriented search learns from the runs that cannot follow the spec.
#[derive(Debug, Default)]
struct DeadEnds {
    arms: Vec<DeadEnd>,
    /// The furthest step the code itself does not go on to (no condition
    /// decides it), with the lines it runs there instead (`None`: it ends).
    furthest: Option<(usize, BTreeSet<Option<u32>>)>,
}

impl DeadEnds {
    fn depart(&mut self, d: Departure) {
        match &mut self.furthest {
            Some((step, instead)) if *step == d.step => {
                instead.insert(d.visited);
            }
            Some((step, _)) if *step > d.step => {}
            _ => self.furthest = Some((d.step, BTreeSet::from([d.visited]))),
        }
    }
}

/// An arm the spec asks for that the path cannot take.
#[derive(Clone, Debug)]
struct DeadEnd {
    /// The state at the condition, before the fork.
    state: State,
    /// Why each step of its path holds.
    origins: Vec<Origin>,
    /// Steps of the spec it had followed.
    matched: usize,
    arm: Arm,
    cond: Bool,
}

/// The span of the condition ending the block `st` is in.
fn condition_span(program: &Program, st: &State) -> Option<Span> {
    let frame = st.frame();
    let body = program.function(frame.func).body.as_ref()?;
    Some(body.blocks.get(frame.block.index())?.term_span)
}

/// One condition of an explanation: the arm of a condition the path takes
/// (`arm`), or a statement (`arm == None`) that decided a pointer, with what
/// it decided (`decided`, e.g. `y points where x does`).
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Condition {
    pub span: Span,
    pub arm: Option<Arm>,
    pub decided: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The report's only test follows the spec.
    Followed,
    /// No run follows the spec: either these conditions along it contradict
    /// each other (in source order), or, when a run got further than any
    /// contradiction and the code itself went elsewhere, `leave` says where.
    Infeasible {
        conditions: Vec<Condition>,
        leave: Option<Leave>,
    },
    /// A bound, or a construct the engine does not model, stopped the
    /// search first.
    Stopped { by: Obstacle },
}

/// A step the code never goes on to, whatever the inputs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Leave {
    pub step: Step,
    /// The lines the code runs instead (in order).
    pub instead: Vec<u32>,
    /// Some runs end instead.
    pub ends: bool,
}

/// The answer of [`follow`]: its verdict and a report holding the test (if
/// any) under the same contract as [`crate::generate`]'s, for `emit`.
#[derive(Clone, Debug)]
pub struct PathOutcome {
    pub verdict: Verdict,
    pub report: FunctionReport,
}

/// Most dead ends explained (the furthest along first).
const MAX_EXPLAINED: usize = 64;

/// Searches for an input of `func` whose run follows `steps`. Runs on its
/// own thread (fresh Z3 context, deep stack).
pub fn follow(
    program: &Program,
    func: FuncId,
    steps: Vec<Step>,
    config: &EngineConfig,
) -> Result<PathOutcome, PathError> {
    let follow = Follow::new(program, func, steps)?;
    explore::on_own_thread(|| search(program, func, follow, config)).map_err(PathError)
}

/// The objective of following a spec.
struct Following<'f> {
    program: &'f Program,
    follow: &'f Follow,
    progress: PerState<Progress>,
    /// Why each step of each state's path holds.
    origins: PerState<Vec<Origin>>,
    dead_ends: DeadEnds,
    /// What cut the search first, if anything.
    cut: Option<Obstacle>,
    found: Option<TestCase>,
}

impl Following<'_> {
    /// How far `state` has followed the spec.
    fn matched(&self, state: &State) -> usize {
        self.progress.get_ref(state.id).map_or(0, Progress::matched)
    }
}

impl Hooks for Following<'_> {
    fn forked(&mut self, parent: StateId, child: StateId) {
        self.progress.forked(parent, child);
        self.origins.forked(parent, child);
    }

    fn entering(&mut self, state: &State, block: BlockId) {
        if state.frames.len() == 1 {
            self.follow.enter(self.progress.entry(state.id), block);
        }
    }

    /// An arm that would leave the spec is not asked of the solver; where it
    /// would leave is noted.
    fn wants_arm(&mut self, state: &State, block: BlockId) -> bool {
        if state.frames.len() != 1 {
            return true;
        }
        let mut progress = self.progress.get(state.id);
        self.follow.enter(&mut progress, block);
        match progress.departure {
            Some(d) => {
                self.dead_ends.depart(d);
                false
            }
            None => true,
        }
    }

    /// An arm the spec asks for (its completion is free once the whole spec
    /// is followed) that the path cannot take.
    fn arm_infeasible(&mut self, state: &State, arm: Arm, cond: &Bool) {
        let progress = self.progress.get(state.id);
        if state.frames.len() == 1 && !self.follow.followed(&progress) {
            self.dead_ends.arms.push(DeadEnd {
                state: state.clone(),
                origins: self.origins.get(state.id),
                matched: progress.matched,
                arm,
                cond: cond.clone(),
            });
        }
    }

    fn arm_taken(&mut self, state: &State, arm: Arm, constraint: Option<ConstraintId>) {
        if state.frames.len() != 1 {
            return;
        }
        if let Some(span) = condition_span(self.program, state) {
            self.origins.entry(state.id).push(Origin {
                span,
                fact: Fact::Arm(arm, constraint),
            });
        }
    }

    fn pointer_decided(&mut self, state: &State, lazy: LazyIdx, span: Span) {
        self.origins.entry(state.id).push(Origin {
            span,
            fact: Fact::Decision(lazy),
        });
    }
}

impl Objective for Following<'_> {
    /// A state that left the spec is dropped, noting where it left.
    fn admit(&mut self, state: &State) -> bool {
        match self
            .progress
            .get_ref(state.id)
            .and_then(Progress::departure)
        {
            Some(d) => {
                self.dead_ends.depart(d);
                false
            }
            None => true,
        }
    }

    fn completed(&mut self, exec: &mut Executor, state: State) -> bool {
        let progress = self.progress.get(state.id);
        if self.follow.followed(&progress) {
            self.found = exec.solve_test(&state, state.trace.clone());
        } else {
            self.dead_ends
                .depart(progress.departure.unwrap_or(Departure {
                    step: progress.matched,
                    visited: None,
                }));
        }
        self.found.is_some()
    }

    fn unsupported(&mut self, what: &str) {
        self.cut
            .get_or_insert_with(|| Obstacle::Unsupported(what.to_string()));
    }

    fn cut(&mut self, bound: Bound) {
        self.cut.get_or_insert(Obstacle::Bound(bound));
    }

    fn released(&mut self, state: StateId) {
        self.progress.release(state);
        self.origins.release(state);
    }

    fn done(&self) -> bool {
        self.found.is_some()
    }
}

/// Fewest input objects first, then furthest along the spec, then longest
/// (newest among equals).
fn following_order<'f>() -> impl Searcher<Following<'f>> {
    BestFirst::new(
        |state: &State, following: &Following| {
            Some((
                state.input_size(),
                Reverse(following.matched(state)),
                Reverse(state.blocks_run),
            ))
        },
        Ties::Newest,
        false,
    )
}

fn search(program: &Program, func: FuncId, follow: Follow, config: &EngineConfig) -> PathOutcome {
    let start = Instant::now();
    let deadline = start + config.max_time;
    let mut report = FunctionReport::empty(program, func);
    let facts = ProgramFacts::new(program, config);
    let mut exec = Executor::new(program, &facts, config, func, deadline);
    let mut following = Following {
        program,
        follow: &follow,
        progress: PerState::new(),
        origins: PerState::new(),
        dead_ends: DeadEnds::default(),
        cut: None,
        found: None,
    };
    let initial = match exec.initial_state() {
        Ok(st) => {
            // The entry block was entered before the search tracked the state.
            follow.enter(following.progress.entry(st.id), BlockId(0));
            vec![st]
        }
        Err(what) => {
            following.cut = Some(Obstacle::Unsupported(what.to_string()));
            Vec::new()
        }
    };
    let budget = Budget::until(deadline, config);
    let ending = explore::run(
        &mut exec,
        &mut following,
        &mut following_order(),
        &budget,
        initial,
    );
    if let Some(bound) = ending.stopped_by {
        following.cut.get_or_insert(Obstacle::Bound(bound));
    }
    let verdict = match (following.found, following.cut) {
        (Some(test), _) => {
            report.tests.push(test);
            Verdict::Followed
        }
        (None, Some(by)) => Verdict::Stopped { by },
        (None, None) if exec.solver.gave_up => Verdict::Stopped {
            by: Obstacle::Bound(Bound::SolverTimeout),
        },
        (None, None) => infeasibility(&mut exec, &follow, following.dead_ends),
    };
    report.stats = ending.stats(&exec, start);
    report.findings = exec.findings;
    PathOutcome { verdict, report }
}

/// Why no run follows the spec: the code's own departure when a run got
/// further than any contradicting condition, else the conditions.
fn infeasibility(exec: &mut Executor, follow: &Follow, dead_ends: DeadEnds) -> Verdict {
    let reach = dead_ends.arms.iter().map(|d| d.matched).max();
    if let Some((step, instead)) = dead_ends.furthest.clone() {
        if reach.is_none_or(|r| step > r) {
            let leave = Leave {
                step: follow.steps[step.min(follow.steps.len() - 1)],
                instead: instead.iter().flatten().copied().collect(),
                ends: instead.contains(&None),
            };
            return Verdict::Infeasible {
                conditions: Vec::new(),
                leave: Some(leave),
            };
        }
    }
    Verdict::Infeasible {
        conditions: explain(exec, dead_ends.arms),
        leave: None,
    }
}

/// The union of the contradicting conditions of the dead ends (see the module doc).
fn explain(exec: &mut Executor, mut dead_ends: Vec<DeadEnd>) -> Vec<Condition> {
    dead_ends.sort_by_key(|d| Reverse(d.matched));
    dead_ends.truncate(MAX_EXPLAINED);
    let mut conditions = BTreeSet::new();
    for dead in &dead_ends {
        conditions.extend(contradiction(exec, dead));
    }
    conditions.into_iter().collect()
}

/// The conditions that contradict at one dead end, the dead arm included.
fn contradiction(exec: &mut Executor, dead: &DeadEnd) -> Vec<Condition> {
    let st = &dead.state;
    let Some(span) = condition_span(exec.program, st) else {
        return Vec::new();
    };
    let mut conditions = vec![Condition {
        span,
        arm: Some(dead.arm),
        decided: None,
    }];
    if bool_value(&dead.cond).is_none() {
        let core = exec
            .solver
            .unsat_core(&st.path, &dead.cond)
            .unwrap_or_default();
        conditions.extend(dead.origins.iter().filter_map(|o| match o.fact {
            Fact::Arm(arm, Some(c)) if core.contains(&c) => Some(Condition {
                span: o.span,
                arm: Some(arm),
                decided: None,
            }),
            _ => None,
        }));
        return conditions;
    }
    // The shape decided the condition: name where its pointers were decided.
    let lazies = compared_lazies(exec, st);
    for (i, origin) in dead.origins.iter().enumerate() {
        let Fact::Decision(lazy) = origin.fact else {
            continue;
        };
        if lazies.contains(&lazy) {
            let arm = arm_taken_at(&dead.origins, i, origin.span, span, dead.arm);
            conditions.push(Condition {
                span: origin.span,
                arm,
                decided: arm.is_none().then(|| decision(st, lazy)).flatten(),
            });
        }
    }
    conditions
}

/// What the path decided about lazy pointer `lazy`, in words.
fn decision(st: &State, lazy: LazyIdx) -> Option<String> {
    let pointer = &st.lazies[lazy as usize];
    match pointer.resolution.as_ref()? {
        Target::Null => Some(format!("{} is NULL", pointer.path)),
        Target::Object(o) => match st.object(*o).kind {
            ObjKind::Input { origin, .. } if origin != lazy => Some(format!(
                "{} points where {} does",
                pointer.path, st.lazies[origin as usize].path
            )),
            _ => Some(format!("{} points to a new object", pointer.path)),
        },
        _ => None,
    }
}

/// The arm taken at the condition at `span` after origin `after` (a decision
/// made while evaluating it): `None` when `span` is a statement.
fn arm_taken_at(
    origins: &[Origin],
    after: usize,
    span: Span,
    dead_span: Span,
    dead_arm: Arm,
) -> Option<Arm> {
    let later = origins[after..].iter().find_map(|o| match o.fact {
        Fact::Arm(arm, _) if o.span == span => Some(arm),
        _ => None,
    });
    later.or((span == dead_span).then_some(dead_arm))
}

/// The lazy input pointers the condition of `st`'s current block compares,
/// with those that decided the objects they designate.
fn compared_lazies(exec: &mut Executor, st: &State) -> BTreeSet<LazyIdx> {
    let frame = st.frame();
    let Some(body) = &exec.program.function(frame.func).body else {
        return BTreeSet::new();
    };
    let cond = match &body.block(frame.block).term {
        Terminator::Branch { cond, .. } => cond,
        Terminator::Switch { value, .. } => value,
        _ => return BTreeSet::new(),
    };
    let mut pointers = Vec::new();
    pointer_operands(cond, &mut pointers);
    let mut lazies = BTreeSet::new();
    for e in pointers {
        let Some(SymVal::Ptr(p)) = exec.value_of(st, e) else {
            continue;
        };
        let mut target = p.target;
        while let Target::Lazy(l) = target {
            lazies.insert(l);
            target = st.lazies[l as usize]
                .resolution
                .clone()
                .unwrap_or(Target::Null);
        }
        if let Target::Object(o) = target {
            if let ObjKind::Input { origin, .. } = st.object(o).kind {
                lazies.insert(origin);
            }
        }
    }
    lazies
}

/// The outermost pointer-valued subexpressions of `e`, including the
/// pointers its loads go through (`*x == 1` reads through `x`).
fn pointer_operands<'e>(e: &'e Expr, out: &mut Vec<&'e Expr>) {
    if e.ty.pointee().is_some() {
        out.push(e);
        return;
    }
    match &e.kind {
        ExprKind::Unary(_, a) | ExprKind::Cast(a) => pointer_operands(a, out),
        ExprKind::Binary(_, a, b) | ExprKind::PtrDiff(a, b) | ExprKind::PtrAdd(a, b) => {
            pointer_operands(a, out);
            pointer_operands(b, out);
        }
        ExprKind::Load(place) | ExprKind::AddrOf(place) => {
            if let PlaceBase::Deref(base) = &place.base {
                pointer_operands(base, out);
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_programs::compile;

    fn run(test: &str, source: &str, name: &str, spec: &str) -> PathOutcome {
        let (program, func) = compile(test, source, name);
        let steps = parse_steps(spec).expect("spec parses");
        follow(&program, func, steps, &EngineConfig::default()).expect("spec names code")
    }

    /// Lines of the conditions of an infeasible verdict.
    fn condition_lines(outcome: &PathOutcome) -> Vec<(u32, Option<Arm>)> {
        match &outcome.verdict {
            Verdict::Infeasible { conditions, .. } => {
                conditions.iter().map(|c| (c.span.line, c.arm)).collect()
            }
            other => panic!("not infeasible: {other:?}"),
        }
    }

    const THREE: &str = "int f(int x, int y)\n{\n    int r = 0;\n    if (x > 10)\n        r = 1;\n    if (y < 0)\n        r += 2;\n    if (x < 5)\n        r += 4;\n    return r;\n}\n";

    #[test]
    fn steps_are_lines_or_line_columns_separated_by_commas_or_spaces() {
        let steps = parse_steps("3, 4:9  5,,6").expect("parses");
        assert_eq!(
            steps,
            vec![
                Step { line: 3, col: None },
                Step {
                    line: 4,
                    col: Some(9)
                },
                Step { line: 5, col: None },
                Step { line: 6, col: None },
            ]
        );
        assert!(parse_steps("3 x").is_err());
        assert!(parse_steps("0").is_err());
        assert!(parse_steps(" , ").is_err());
    }

    #[test]
    fn a_feasible_path_gets_a_test_whose_inputs_take_its_arms() {
        let outcome = run("feasible", THREE, "f", "3 4 5 6 8 10");
        assert_eq!(outcome.verdict, Verdict::Followed);
        let test = &outcome.report.tests[0];
        let arg = |n: usize| match &test.inputs.args[n] {
            testcase::Value::Int { bits, .. } => *bits as u32 as i32,
            other => panic!("not an int: {other:?}"),
        };
        assert!(arg(0) > 10, "x > 10");
        assert!(arg(1) >= 0, "y >= 0 (line 7 skipped)");
    }

    #[test]
    fn an_infeasible_path_names_only_the_conditions_that_contradict() {
        let outcome = run("infeasible", THREE, "f", "3 4 5 6 7 8 9");
        assert_eq!(
            condition_lines(&outcome),
            vec![(4, Some(Arm::True)), (8, Some(Arm::True))]
        );
    }

    #[test]
    fn a_prefix_is_completed_by_any_run() {
        let outcome = run("prefix", THREE, "f", "3 4 5");
        assert_eq!(outcome.verdict, Verdict::Followed);
    }

    #[test]
    fn a_spec_the_code_cannot_follow_says_where_it_leaves() {
        let outcome = run("departure", THREE, "f", "3 4 6 9");
        assert_eq!(
            outcome.verdict,
            Verdict::Infeasible {
                conditions: Vec::new(),
                leave: Some(Leave {
                    step: Step { line: 9, col: None },
                    instead: vec![7, 8],
                    ends: false,
                }),
            }
        );
    }

    #[test]
    fn a_line_without_code_is_an_error() {
        let (program, func) = compile("nocode", THREE, "f");
        let error = follow(
            &program,
            func,
            parse_steps("2").expect("parses"),
            &EngineConfig::default(),
        )
        .unwrap_err();
        assert!(error.0.contains("step 2"), "{error}");
    }

    #[test]
    fn a_column_step_needs_the_code_at_that_column_to_run() {
        let source = "int h(int a, int b)\n{\n    if (a > 0 && b > 0)\n        return 1;\n    return 0;\n}\n";
        let (program, func) = compile("column", source, "h");
        let second = ir::function_goals(&program, func)
            .into_iter()
            .map(|g| g.span.col)
            .max()
            .expect("two conditions");
        let spec = format!("3:{second} 5");
        let outcome = run("column", source, "h", &spec);
        assert_eq!(outcome.verdict, Verdict::Followed);
        let args = &outcome.report.tests[0].inputs.args;
        let a = match &args[0] {
            testcase::Value::Int { bits, .. } => *bits as u32 as i32,
            other => panic!("not an int: {other:?}"),
        };
        assert!(a > 0, "b > 0 is tested only when a > 0");
    }

    #[test]
    fn loop_iterations_are_written_out_and_counted() {
        let source = "int sum(int n)\n{\n    int s = 0;\n    for (int i = 0; i < n; i++)\n        s += i;\n    return s;\n}\n";
        let twice = run("twice", source, "sum", "3 4 5 4 5 4 6");
        assert_eq!(twice.verdict, Verdict::Followed);
        match &twice.report.tests[0].inputs.args[0] {
            testcase::Value::Int { bits, .. } => assert_eq!(*bits, 2),
            other => panic!("not an int: {other:?}"),
        }
    }

    #[test]
    fn pointer_facts_decided_by_the_shape_explain_an_infeasible_path() {
        let source = "int g(int **p, int **q)\n{\n    int r = 0;\n    if (p == q)\n        r = 1;\n    if (p != 0)\n        r += 2;\n    if (q == 0)\n        r += 4;\n    return r;\n}\n";
        let outcome = run("shape", source, "g", "3 4 5 6 7 8 9");
        assert_eq!(
            condition_lines(&outcome),
            vec![
                (4, Some(Arm::True)),
                (6, Some(Arm::True)),
                (8, Some(Arm::True))
            ]
        );
    }

    #[test]
    fn statements_that_decided_the_compared_pointers_are_named_with_the_decision() {
        let source = "int t(int *x, int *y)\n{\n    *x = 1;\n    *y = 2;\n    if (x == y) {\n        if (*x == 1)\n            return 1;\n    }\n    return 0;\n}\n";
        let outcome = run("decided", source, "t", "3 4 5 6 7");
        let Verdict::Infeasible { conditions, .. } = &outcome.verdict else {
            panic!("not infeasible: {:?}", outcome.verdict);
        };
        let at = |line: u32| {
            conditions
                .iter()
                .find(|c| c.span.line == line)
                .unwrap_or_else(|| panic!("no condition at line {line}: {conditions:?}"))
        };
        assert_eq!(at(4).arm, None);
        assert_eq!(at(4).decided.as_deref(), Some("y points to a new object"));
        assert_eq!(at(5).arm, Some(Arm::True));
        assert_eq!(at(6).arm, Some(Arm::True));
    }

    #[test]
    fn a_bound_that_cuts_the_search_is_named() {
        let source = "struct n { int v; struct n *next; };\nint len(struct n *p)\n{\n    int k = 0;\n    while (p) {\n        k++;\n        p = p->next;\n    }\n    return k;\n}\n";
        let (program, func) = compile("bound", source, "len");
        let config = EngineConfig {
            max_nodes: 2,
            ..EngineConfig::default()
        };
        let steps = parse_steps("4 5 6 7 5 6 7 5 6 7 5 9").expect("parses");
        let outcome = follow(&program, func, steps, &config).expect("spec names code");
        assert!(
            matches!(&outcome.verdict, Verdict::Stopped { by } if *by == Obstacle::Bound(Bound::MaxNodes)),
            "{:?}",
            outcome.verdict
        );
    }
}
