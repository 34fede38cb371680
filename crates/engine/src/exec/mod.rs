//! The executor: runs one path state statement by statement, forking at
//! branches and lazy choices, and reporting findings without stopping the run.

mod call;
mod expr;
mod heap;
mod input;
mod libc;
mod place;

use crate::solver::PathSolver;
use crate::state::State;
use crate::value::{bool_value, Exec, Stop, SymVal};
use crate::EngineConfig;
use ir::{Arm, BlockId, FuncId, Goal, Program, Span, StmtKind, Terminator};
use std::collections::BTreeSet;
use testcase::{Finding, FindingKind};
use z3::ast::Bool;

pub use input::{init_cells, initial_state};

/// Statements run for one state before the search gets to choose again.
const STATEMENTS_PER_TURN: usize = 2_000;

pub struct Machine<'a> {
    pub program: &'a Program,
    pub config: &'a EngineConfig,
    pub solver: PathSolver,
    /// The function under test: its goals are the ones traced.
    pub root: FuncId,
    pub findings: Vec<Finding>,
    reported: BTreeSet<(FindingKind, Span)>,
    /// Span of the statement being executed (for findings).
    span: Span,
    /// The budget (`max_array`, `max_nodes`) that cut a choice during the last turn.
    pub budget_cut: Option<&'static str>,
    /// Goals of the last path that ended early (finding, `exit`, `abort`).
    pub ended_trace: Vec<Goal>,
    /// Statements and terminators run so far (the search shares time by it).
    pub statements: u64,
    /// Arms a followed path needed but could not take (path-oriented search).
    pub dead_ends: crate::path::DeadEnds,
}

/// What one turn of a state produced.
pub enum Turn {
    /// States still running (one, or several after a fork).
    Running(Vec<State>),
    /// The function under test returned.
    Completed(Box<State>),
}

impl<'a> Machine<'a> {
    pub fn new(
        program: &'a Program,
        config: &'a EngineConfig,
        solver: PathSolver,
        root: FuncId,
    ) -> Self {
        Machine {
            program,
            config,
            solver,
            root,
            findings: Vec::new(),
            reported: BTreeSet::new(),
            budget_cut: None,
            ended_trace: Vec::new(),
            statements: 0,
            span: Span::default(),
            dead_ends: Default::default(),
        }
    }

    /// Runs `state` until it forks, completes, or has had its turn.
    pub fn turn(&mut self, mut state: State) -> Exec<Turn> {
        for done in 0..STATEMENTS_PER_TURN {
            if state.frames.is_empty() {
                return Ok(Turn::Completed(Box::new(state)));
            }
            if done % 64 == 63 && self.solver.past_deadline() {
                break;
            }
            self.statements += 1;
            let mut next = self.step(state)?;
            if next.len() != 1 {
                return Ok(Turn::Running(next));
            }
            state = next.pop().expect("one successor");
        }
        if state.frames.is_empty() {
            return Ok(Turn::Completed(Box::new(state)));
        }
        Ok(Turn::Running(vec![state]))
    }

    fn step(&mut self, mut st: State) -> Exec<Vec<State>> {
        let frame = st.frame();
        if frame.stmt == 0 && frame.visits[frame.block.index()] > self.config.max_iterations.max(1)
        {
            return Err(Stop::Budget("max_iterations"));
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
            Terminator::Goto(target) => {
                st.enter_block(*target);
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
                    _ => return crate::value::unsupported("switch on a non-integer"),
                };
                let bits = v.get_size();
                let mut arms: Vec<(Bool, BlockId, Arm)> = Vec::new();
                let mut none_matches = Vec::new();
                for (n, (case, target)) in cases.iter().enumerate() {
                    let hit = v.eq(crate::value::bv_u(*case as u128, bits));
                    none_matches.push(hit.not());
                    match arms.iter_mut().find(|a| a.1 == *target) {
                        Some(arm) => arm.0 = Bool::or(&[arm.0.clone(), hit]),
                        None => arms.push((hit, *target, Arm::Case(n as u32))),
                    }
                }
                arms.push((Bool::and(&none_matches), *default, Arm::Default));
                Ok(self.fork_arms(st, *site, arms))
            }
            Terminator::Return(value) => {
                let v = match value {
                    Some(e) => Some(self.eval(&mut st, e)?),
                    None => None,
                };
                self.return_from(&mut st, v)?;
                Ok(vec![st])
            }
            Terminator::Unreachable => Err(self.end(&st)),
        }
    }

    /// One successor per feasible arm, each with its condition assumed and goal traced.
    fn fork_arms(
        &mut self,
        st: State,
        site: ir::BranchId,
        arms: Vec<(Bool, BlockId, Arm)>,
    ) -> Vec<State> {
        let traced = st.frame().func == self.root;
        let mut out = Vec::new();
        for (cond, target, arm) in arms {
            if !crate::path::stays_on(self, &st, target) {
                continue;
            }
            if bool_value(&cond) == Some(false) || !self.may(&st, &cond) {
                crate::path::note_dead_end(self, &st, arm, &cond);
                continue;
            }
            let mut next = st.clone();
            if self.assume(&mut next, &cond).is_err() {
                continue;
            }
            crate::path::note_arm(self, &mut next, arm, &cond);
            let goal = Goal {
                func: self.root,
                site,
                arm,
            };
            // Once per goal: a loop spinning on a cyclic input would grow it without bound.
            if traced && !next.trace.contains(&goal) {
                next.trace.push(goal);
            }
            next.enter_block(target);
            out.push(next);
        }
        out
    }

    fn body(&self, func: FuncId) -> Exec<&'a ir::Body> {
        match &self.program.function(func).body {
            Some(b) => Ok(b),
            None => crate::value::unsupported("a function without a body"),
        }
    }

    /// Can `cond` hold on this path?
    pub fn may(&mut self, st: &State, cond: &Bool) -> bool {
        match bool_value(cond) {
            Some(known) => known && self.solver.feasible(&st.path, None),
            None => self.solver.feasible(&st.path, Some(cond)),
        }
    }

    /// Adds `cond` to the path condition (without a solver call).
    pub fn assume(&mut self, st: &mut State, cond: &Bool) -> Exec<()> {
        match bool_value(cond) {
            Some(true) => Ok(()),
            Some(false) => Err(Stop::Dead),
            None => {
                let id = self.solver.intern(cond);
                if !st.path.contains(&id) {
                    st.path.push(id);
                }
                Ok(())
            }
        }
    }

    /// Reports a finding when `fault` can hold here (once per kind and site),
    /// then goes on assuming it does not.
    pub fn check_fault(
        &mut self,
        st: &mut State,
        kind: FindingKind,
        fault: &Bool,
        message: &str,
    ) -> Exec<()> {
        if bool_value(fault) == Some(false) {
            return Ok(());
        }
        if !self.reported.contains(&(kind, self.span)) {
            let mut path = st.path.clone();
            path.push(self.solver.intern(fault));
            if let Some(model) = self.solver.readable_model(&path, &st.input_symbols) {
                self.record(st, kind, message, &model);
            }
        }
        self.assume(st, &fault.not())
    }

    /// Reports a fault that certainly happens on this path and ends it.
    pub fn fault<T>(&mut self, st: &State, kind: FindingKind, message: &str) -> Exec<T> {
        if !self.report(st, kind, message) {
            return Err(Stop::Dead);
        }
        Err(self.end(st))
    }

    /// Reports a fault that certainly happens on this path (once per kind and
    /// site), leaving the path to go on; false when the path is infeasible.
    pub fn report(&mut self, st: &State, kind: FindingKind, message: &str) -> bool {
        if self.reported.contains(&(kind, self.span)) {
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

    /// Ends the path here (no test: the driver could not run past this point).
    pub fn end(&mut self, st: &State) -> Stop {
        self.ended_trace = st.trace.clone();
        Stop::Ended
    }

    fn record(&mut self, st: &State, kind: FindingKind, message: &str, model: &z3::Model) {
        self.reported.insert((kind, self.span));
        let inputs = crate::extract::inputs(self.program, self.config, st, model, self.root);
        self.findings.push(Finding {
            func: self.root,
            kind,
            span: self.span,
            message: message.to_string(),
            inputs,
        });
    }
}
