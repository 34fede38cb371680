//! Branch goals: each direction of each condition, as gcc's coverage counts them.

use crate::program::{BlockId, BranchId, BranchKind, FuncId, Program, Span, Terminator};
use std::collections::HashMap;
use std::fmt;

/// One direction of a condition.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
pub enum Arm {
    True,
    False,
    /// The `n`-th case of a switch (in source order) whose target no earlier case shares.
    Case(u32),
    Default,
}

#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
pub struct Goal {
    pub func: FuncId,
    pub site: BranchId,
    pub arm: Arm,
}

/// A goal with what a person needs to read it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GoalInfo {
    pub goal: Goal,
    pub span: Span,
    pub kind: BranchKind,
    /// Condition text with the direction, e.g. `a > b: true`, `c == 'x': case 'x'`.
    pub label: String,
    pub target: BlockId,
}

impl fmt::Display for Arm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Arm::True => write!(f, "T"),
            Arm::False => write!(f, "F"),
            Arm::Case(n) => write!(f, "C{n}"),
            Arm::Default => write!(f, "D"),
        }
    }
}

/// Stable identity `function:line:col:arm` used in JSON, reports and drivers.
pub fn goal_key(program: &Program, goal: Goal) -> String {
    let f = program.function(goal.func);
    let span = f
        .body
        .as_ref()
        .map(|b| b.branches[goal.site.index()].span)
        .unwrap_or_default();
    format!("{}:{}:{}:{}", f.name, span.line, span.col, goal.arm)
}

/// The functions whose goals a whole program's run counts: `root` first,
/// then every other function the program defines outside system headers
/// (all of the program's own branches, as a coverage tool over its file
/// counts them, whether a call reaches them or not).
pub fn program_functions(program: &Program, root: FuncId) -> Vec<FuncId> {
    let others = (0..program.functions.len() as u32)
        .map(FuncId)
        .filter(|&f| {
            let function = program.function(f);
            f != root && function.body.is_some() && !program.in_system_header(function.span)
        });
    std::iter::once(root).chain(others).collect()
}

/// What a person needs to read each goal of `goals` (of any functions).
pub fn goal_infos(program: &Program, goals: &[Goal]) -> HashMap<Goal, GoalInfo> {
    let mut funcs: Vec<FuncId> = goals.iter().map(|g| g.func).collect();
    funcs.sort();
    funcs.dedup();
    funcs
        .into_iter()
        .flat_map(|f| function_goals(program, f))
        .map(|info| (info.goal, info))
        .collect()
}

/// Every goal of one function, in block order (deterministic).
pub fn function_goals(program: &Program, func: FuncId) -> Vec<GoalInfo> {
    let Some(body) = &program.function(func).body else {
        return vec![];
    };
    let mut out = Vec::new();
    for block in &body.blocks {
        match &block.term {
            Terminator::Branch {
                then_bb,
                else_bb,
                site,
                ..
            } => {
                let s = &body.branches[site.index()];
                for (arm, target, word) in [
                    (Arm::True, *then_bb, "true"),
                    (Arm::False, *else_bb, "false"),
                ] {
                    out.push(info(
                        func,
                        *site,
                        arm,
                        s.span,
                        s.kind,
                        format!("{}: {word}", s.text),
                        target,
                    ));
                }
            }
            Terminator::Switch {
                cases,
                default,
                site,
                ..
            } => {
                let s = &body.branches[site.index()];
                let decision = body.decisions.iter().find(|d| d.site == *site);
                // A decision's vector reads as its conditions' values.
                let label = |arm: Arm, spelled: String| match decision
                    .and_then(|d| Some(d.spell(d.vector_of(arm)?)))
                {
                    Some(vector) => format!("{}: {vector}", s.text),
                    None => format!("{}: {spelled}", s.text),
                };
                let mut seen: Vec<BlockId> = Vec::new();
                for (n, (value, target)) in cases.iter().enumerate() {
                    if seen.contains(target) {
                        continue;
                    }
                    seen.push(*target);
                    let arm = Arm::Case(n as u32);
                    out.push(info(
                        func,
                        *site,
                        arm,
                        s.span,
                        s.kind,
                        label(arm, format!("case {value}")),
                        *target,
                    ));
                }
                out.push(info(
                    func,
                    *site,
                    Arm::Default,
                    s.span,
                    s.kind,
                    label(Arm::Default, "default".to_string()),
                    *default,
                ));
            }
            _ => {}
        }
    }
    out
}

fn info(
    func: FuncId,
    site: BranchId,
    arm: Arm,
    span: Span,
    kind: BranchKind,
    label: String,
    target: BlockId,
) -> GoalInfo {
    GoalInfo {
        goal: Goal { func, site, arm },
        span,
        kind,
        label,
        target,
    }
}
