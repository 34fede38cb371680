//! Decisions, for modified condition/decision coverage (MC/DC).
//!
//! A decision is a boolean expression of two or more conditions joined by
//! `&&` and `||`, as clang's MC/DC instrumentation counts them. Evaluated
//! with short-circuits, it takes one of a few paths through its
//! conditions: each path is a *test vector* (the value of each condition it
//! evaluated, the others unevaluated, and the outcome). Every evaluation's
//! vector is numbered as Ball and Larus number a graph's paths, so the
//! number is a sum of one weight per condition outcome; under MC/DC the
//! front end adds that sum to a local and ends the decision with a switch
//! on it (a branch site of kind [`crate::BranchKind::Vector`]), so that
//! each vector is a goal the search covers or proves infeasible like any
//! branch.
//!
//! A condition is shown independent by two covered vectors whose outcomes
//! differ and that differ in that condition alone among the conditions
//! both evaluated: the form llvm-cov measures (unique cause, where short
//! circuits mask the conditions an evaluation skipped).

use crate::goals::Arm;
use crate::program::{BranchId, Span};

/// The most vectors a decision may have for each to be a goal: 6
/// conditions as `(a || b) && (c || d) && (e || f)` have 27.
pub const MAX_VECTORS: usize = 64;

/// The structure of a decision: its conditions numbered in source order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Shape {
    /// The `n`-th condition; `Some(value)` when it is a constant.
    Condition(usize, Option<bool>),
    And(Box<Shape>, Box<Shape>),
    Or(Box<Shape>, Box<Shape>),
}

/// Where an outcome of a condition leads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Next {
    Condition(usize),
    Outcome(bool),
}

/// One condition of a decision.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Condition {
    pub span: Span,
    pub text: String,
    /// The value of a condition the compiler folds (`DEBUG` defined as 1).
    pub constant: Option<bool>,
}

/// One way an evaluation of a decision goes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Vector {
    /// Per condition, its value, or `None` when the evaluation skipped it.
    pub values: Vec<Option<bool>>,
    pub outcome: bool,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Decision {
    pub span: Span,
    pub text: String,
    pub conditions: Vec<Condition>,
    /// Indexed by vector number (see [`Decision::arm_of`]).
    pub vectors: Vec<Vector>,
    /// The switch on the vector number that ends each evaluation.
    pub site: BranchId,
}

/// How a decision's conditions lead to each other, and the vector weights.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Flow {
    /// Per condition: where its true and its false outcome lead (`None`
    /// for the outcome a constant condition never has).
    pub next: Vec<[Option<Next>; 2]>,
    /// Per condition: what its true and false outcome add to the vector number.
    pub weight: Vec<[u32; 2]>,
    pub vectors: Vec<Vector>,
}

impl Shape {
    pub fn conditions(&self) -> usize {
        match self {
            Shape::Condition(..) => 1,
            Shape::And(a, b) | Shape::Or(a, b) => a.conditions() + b.conditions(),
        }
    }

    fn first(&self) -> usize {
        match self {
            Shape::Condition(n, _) => *n,
            Shape::And(a, _) | Shape::Or(a, _) => a.first(),
        }
    }

    /// Fills `next` for the conditions of `self`, whose value leads to
    /// `on_true` or `on_false`.
    fn link(&self, on_true: Next, on_false: Next, next: &mut [[Option<Next>; 2]]) {
        match self {
            Shape::Condition(n, constant) => {
                next[*n] = [
                    (*constant != Some(false)).then_some(on_true),
                    (*constant != Some(true)).then_some(on_false),
                ];
            }
            Shape::And(a, b) => {
                a.link(Next::Condition(b.first()), on_false, next);
                b.link(on_true, on_false, next);
            }
            Shape::Or(a, b) => {
                a.link(on_true, Next::Condition(b.first()), next);
                b.link(on_true, on_false, next);
            }
        }
    }

    /// The flow of a decision of this shape, with its vectors numbered.
    pub fn flow(&self) -> Flow {
        let n = self.conditions();
        let mut next = vec![[None, None]; n];
        self.link(Next::Outcome(true), Next::Outcome(false), &mut next);
        // Conditions only lead to later ones: count paths from the last.
        let mut paths = vec![0u32; n];
        let count = |to: Option<Next>, paths: &[u32]| match to {
            None => 0,
            Some(Next::Outcome(_)) => 1,
            Some(Next::Condition(c)) => paths[c],
        };
        for c in (0..n).rev() {
            paths[c] = count(next[c][0], &paths) + count(next[c][1], &paths);
        }
        let weight: Vec<[u32; 2]> = (0..n).map(|c| [0, count(next[c][0], &paths)]).collect();
        let mut vectors = Vec::new();
        let mut values = vec![None; n];
        walk(&next, self.first(), &mut values, &mut vectors);
        Flow {
            next,
            weight,
            vectors,
        }
    }
}

/// Appends every vector from condition `c` on, true before false (the
/// order of their numbers).
fn walk(
    next: &[[Option<Next>; 2]],
    c: usize,
    values: &mut Vec<Option<bool>>,
    out: &mut Vec<Vector>,
) {
    for (value, to) in [(true, next[c][0]), (false, next[c][1])] {
        let Some(to) = to else { continue };
        values[c] = Some(value);
        match to {
            Next::Outcome(outcome) => out.push(Vector {
                values: values.clone(),
                outcome,
            }),
            Next::Condition(d) => walk(next, d, values, out),
        }
        values[c] = None;
    }
}

impl Decision {
    /// The switch arm that vector `n` takes: cases `0..last`, and the
    /// last vector the default.
    pub fn arm_of(&self, n: usize) -> Arm {
        if n + 1 == self.vectors.len() {
            Arm::Default
        } else {
            Arm::Case(n as u32)
        }
    }

    /// The vector the switch arm `arm` stands for.
    pub fn vector_of(&self, arm: Arm) -> Option<usize> {
        match arm {
            Arm::Case(n) if (n as usize) + 1 < self.vectors.len() => Some(n as usize),
            Arm::Default => self.vectors.len().checked_sub(1),
            _ => None,
        }
    }

    /// Whether vectors `a` and `b` show condition `c` independent.
    pub fn shows_independent(&self, c: usize, a: usize, b: usize) -> bool {
        let (a, b) = (&self.vectors[a], &self.vectors[b]);
        if a.outcome == b.outcome {
            return false;
        }
        let differing: Vec<usize> = (0..self.conditions.len())
            .filter(|&k| matches!((a.values[k], b.values[k]), (Some(x), Some(y)) if x != y))
            .collect();
        differing == [c]
    }

    /// The pairs of vectors among `vectors` (ascending) that show
    /// condition `c` independent.
    pub fn pairs_showing(&self, c: usize, vectors: &[usize]) -> Vec<(usize, usize)> {
        let mut pairs = Vec::new();
        for (i, &a) in vectors.iter().enumerate() {
            for &b in &vectors[i + 1..] {
                if self.shows_independent(c, a, b) {
                    pairs.push((a, b));
                }
            }
        }
        pairs
    }

    /// The first pair of vectors among `vectors` that shows condition `c`
    /// independent.
    pub fn independence_pair(&self, c: usize, vectors: &[usize]) -> Option<(usize, usize)> {
        self.pairs_showing(c, vectors).first().copied()
    }

    /// Vector `n` as a person reads it: `a > 0 && b: true, false -> false`
    /// with `-` for a condition the evaluation skipped.
    pub fn spell(&self, n: usize) -> String {
        let v = &self.vectors[n];
        let values: Vec<&str> = v
            .values
            .iter()
            .map(|x| match x {
                Some(true) => "T",
                Some(false) => "F",
                None => "-",
            })
            .collect();
        format!(
            "{{{}}} = {}",
            values.join(" "),
            if v.outcome { "T" } else { "F" }
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn c(n: usize) -> Box<Shape> {
        Box::new(Shape::Condition(n, None))
    }

    fn spelled(v: &Vector) -> String {
        let values: String = v
            .values
            .iter()
            .map(|x| match x {
                Some(true) => 'T',
                Some(false) => 'F',
                None => '-',
            })
            .collect();
        format!("{values}={}", if v.outcome { 'T' } else { 'F' })
    }

    fn decision(shape: &Shape) -> Decision {
        let flow = shape.flow();
        Decision {
            span: Span::default(),
            text: String::new(),
            conditions: vec![
                Condition {
                    span: Span::default(),
                    text: String::new(),
                    constant: None,
                };
                shape.conditions()
            ],
            vectors: flow.vectors,
            site: BranchId(0),
        }
    }

    #[test]
    fn vectors_follow_the_short_circuits_and_number_the_paths() {
        // (a && b) || c
        let shape = Shape::Or(Box::new(Shape::And(c(0), c(1))), c(2));
        let flow = shape.flow();
        let spelled: Vec<String> = flow.vectors.iter().map(spelled).collect();
        assert_eq!(spelled, ["TT-=T", "TFT=T", "TFF=F", "F-T=T", "F-F=F"]);
        // Each path's weights sum to its number.
        for (n, v) in flow.vectors.iter().enumerate() {
            let sum: u32 = v
                .values
                .iter()
                .enumerate()
                .filter_map(|(k, x)| x.map(|x| flow.weight[k][usize::from(!x)]))
                .sum();
            assert_eq!(sum as usize, n, "{}", spelled[n]);
        }
    }

    #[test]
    fn a_constant_condition_has_one_outcome() {
        // a && 1
        let shape = Shape::And(c(0), Box::new(Shape::Condition(1, Some(true))));
        let spelled: Vec<String> = shape.flow().vectors.iter().map(spelled).collect();
        assert_eq!(spelled, ["TT=T", "F-=F"]);
    }

    #[test]
    fn independence_needs_the_outcome_and_that_condition_alone_to_differ() {
        // a && b && c: F--, TF-, TTF, TTT
        let d = decision(&Shape::And(Box::new(Shape::And(c(0), c(1))), c(2)));
        let spelled: Vec<String> = d.vectors.iter().map(spelled).collect();
        assert_eq!(spelled, ["TTT=T", "TTF=F", "TF-=F", "F--=F"]);
        assert_eq!(d.independence_pair(0, &[0, 1, 2, 3]), Some((0, 3)));
        assert_eq!(d.independence_pair(1, &[0, 1, 2, 3]), Some((0, 2)));
        assert_eq!(d.independence_pair(2, &[0, 1, 2, 3]), Some((0, 1)));
        // TTF and F-- have the same outcome; TF- and TTF too.
        assert_eq!(d.independence_pair(0, &[1, 3]), None);
        assert_eq!(d.independence_pair(1, &[1, 2]), None);
        assert_eq!(d.arm_of(3), Arm::Default);
        assert_eq!(d.vector_of(Arm::Case(2)), Some(2));
        assert_eq!(d.vector_of(Arm::Default), Some(3));
    }
}
