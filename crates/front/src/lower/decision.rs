//! Decisions lowered for MC/DC (`ir::decisions`): a local numbers the
//! test vector each evaluation takes, and a switch on it ends the decision,
//! so that each vector is a goal of its own.
//!
//! Decisions are those clang instruments: a top-level `&&`/`||`
//! expression in any context. Like clang, a decision whose condition holds
//! another boolean expression (`f(a && b) || c`, `!(a && b) || c`) is not
//! measured, nor is the inner one.

use super::expr::make_binary;
use super::{Lowerer, R};
use ir::decisions::{Condition, Decision, Flow, Next, Shape, MAX_VECTORS};
use ir::{BinOp, BlockId, BranchKind, BranchSite, Expr, IntType, LocalId, Place, StmtKind};
use ir::{Terminator, Type};
use lang_c::ast::{BinaryOperator, Expression, UnaryOperator};
use lang_c::span::Node;

/// Where the lowering of a function is with respect to decisions.
#[derive(Clone, Debug)]
pub(super) enum DecisionState {
    /// A top-level `&&`/`||` starts a decision.
    Outside,
    /// Lowering the conditions of a decision.
    Open(OpenDecision),
    /// Inside a condition's own expression, or a decision not measured:
    /// no decision starts and no condition is counted.
    Quiet,
}

#[derive(Clone, Debug)]
pub(super) struct OpenDecision {
    flow: Flow,
    /// The number of the condition lowered next (source order).
    next_condition: usize,
    vector: LocalId,
    /// Where every evaluation ends: the switch on `vector`.
    end: BlockId,
}

fn is_and_or(e: &Expression) -> bool {
    matches!(e, Expression::BinaryOperator(b) if matches!(
        b.node.operator.node,
        BinaryOperator::LogicalAnd | BinaryOperator::LogicalOr
    ))
}

/// Whether the `(` that starts `text` is closed by its last character.
fn closes_at_end(text: &str) -> bool {
    let mut depth = 0usize;
    for (i, c) in text.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return i + 1 == text.len();
                }
            }
            _ => {}
        }
    }
    false
}

/// Whether `e` holds a `&&` or `||` anywhere.
fn holds_and_or(e: &Node<Expression>) -> bool {
    struct Finder(bool);
    impl<'ast> lang_c::visit::Visit<'ast> for Finder {
        fn visit_expression(&mut self, e: &'ast Expression, span: &'ast lang_c::span::Span) {
            self.0 |= is_and_or(e);
            lang_c::visit::visit_expression(self, e, span);
        }
    }
    let mut finder = Finder(false);
    lang_c::visit::Visit::visit_expression(&mut finder, &e.node, &e.span);
    finder.0
}

impl Lowerer<'_> {
    /// `span` without the parentheses around the whole of it: where clang
    /// places a decision or condition written `(a || b)`.
    fn unparenthesized(&self, mut span: lang_c::span::Span) -> lang_c::span::Span {
        loop {
            let raw = self.lines.original_text(span.start, span.end);
            // Offsets are only known where the text is the span's own.
            if raw.len() != span.end - span.start {
                return span;
            }
            let trimmed = raw.trim();
            let lead = raw.len() - raw.trim_start().len();
            if !(trimmed.starts_with('(') && closes_at_end(trimmed)) {
                return span;
            }
            let inner = &trimmed[1..trimmed.len() - 1];
            let inner_lead = inner.len() - inner.trim_start().len();
            let start = span.start + lead + 1 + inner_lead;
            span = lang_c::span::Span::span(start, start + inner.trim().len());
        }
    }

    /// Whether the `&&`/`||` expression being lowered as a condition
    /// starts a decision.
    pub(super) fn starts_decision(&mut self, at: usize) -> bool {
        self.mcdc
            && self
                .builder(at)
                .is_ok_and(|f| matches!(f.decision, DecisionState::Outside))
    }

    /// The shape of the decision `e`, with its conditions in source order;
    /// `None` when clang would not measure it. Follows `cond_branch`:
    /// a constant operand is one constant condition.
    fn decision_shape(
        &mut self,
        e: &Node<Expression>,
        conditions: &mut Vec<Condition>,
    ) -> Option<Shape> {
        if let Some(truth) = self.constant_truth(e) {
            return Some(self.decision_condition(e, Some(truth), conditions));
        }
        match &e.node {
            Expression::BinaryOperator(b) if is_and_or(&e.node) => {
                let lhs = self.decision_shape(&b.node.lhs, conditions)?;
                let rhs = self.decision_shape(&b.node.rhs, conditions)?;
                Some(if b.node.operator.node == BinaryOperator::LogicalAnd {
                    Shape::And(Box::new(lhs), Box::new(rhs))
                } else {
                    Shape::Or(Box::new(lhs), Box::new(rhs))
                })
            }
            Expression::Comma(_) => None,
            Expression::UnaryOperator(u)
                if u.node.operator.node == UnaryOperator::Negate && holds_and_or(e) =>
            {
                None
            }
            _ if holds_and_or(e) => None,
            _ => Some(self.decision_condition(e, None, conditions)),
        }
    }

    fn decision_condition(
        &self,
        e: &Node<Expression>,
        constant: Option<bool>,
        conditions: &mut Vec<Condition>,
    ) -> Shape {
        let inner = self.unparenthesized(e.span);
        conditions.push(Condition {
            span: self.span(inner.start),
            text: self.text(inner),
            constant,
        });
        Shape::Condition(conditions.len() - 1, constant)
    }

    /// Lowers the decision `e` (a `&&`/`||` expression) as a condition
    /// leading to `then_bb` or `else_bb`; `lower` lowers its operators.
    pub(super) fn lower_decision(
        &mut self,
        e: &Node<Expression>,
        then_bb: BlockId,
        else_bb: BlockId,
        lower: impl FnOnce(&mut Self) -> R<()>,
    ) -> R<()> {
        let at = e.span.start;
        let mut conditions = Vec::new();
        let shape = self.decision_shape(e, &mut conditions);
        let flow = shape.as_ref().map(Shape::flow);
        if let Some(ways) = flow.as_ref().map(|f| f.vectors.len()) {
            if ways > MAX_VECTORS && self.in_main_file(at) {
                let warning = self.diag(
                    crate::Severity::Warning,
                    at,
                    format!(
                        "a decision that can be evaluated {ways} ways (more than {MAX_VECTORS}) \
                         is left out of MC/DC: cairn aims at its branches only"
                    ),
                );
                self.diagnostics.push(warning);
            }
        }
        let Some(flow) = flow.filter(|f| f.vectors.len() <= MAX_VECTORS) else {
            self.builder(at)?.decision = DecisionState::Quiet;
            let lowered = lower(self);
            self.builder(at)?.decision = DecisionState::Outside;
            return lowered;
        };
        let inner = self.unparenthesized(e.span);
        let span = self.span(inner.start);
        let int = Type::Int(IntType::INT);
        let vector = self.temp(int.clone(), at)?;
        self.assign_stmt(Place::local(vector), Expr::int(IntType::INT, 0), at)?;
        let f = self.builder(at)?;
        let end = f.new_block();
        let vectors = flow.vectors.clone();
        f.decision = DecisionState::Open(OpenDecision {
            flow,
            next_condition: 0,
            vector,
            end,
        });
        let lowered = lower(self);
        let f = self.builder(at)?;
        f.decision = DecisionState::Outside;
        lowered?;
        let text = self.text(inner);
        let site = BranchSite {
            span,
            text: text.clone(),
            kind: BranchKind::Vector,
        };
        let f = self.builder(at)?;
        let site = f.add_branch(site);
        let arms: Vec<BlockId> = vectors
            .iter()
            .map(|v| {
                let arm = f.new_block();
                let outcome = if v.outcome { then_bb } else { else_bb };
                f.blocks[arm.index()].term = Some((Terminator::Goto(outcome), span));
                arm
            })
            .collect();
        let Some((&last, cases)) = arms.split_last() else {
            return Ok(());
        };
        f.current = end;
        f.terminate(
            Terminator::Switch {
                value: Expr::load(Place::local(vector), int),
                cases: cases
                    .iter()
                    .enumerate()
                    .map(|(n, &arm)| (n as i128, arm))
                    .collect(),
                default: last,
                site,
            },
            span,
        );
        f.decisions.push(Decision {
            span,
            text,
            conditions,
            vectors,
            site,
        });
        Ok(())
    }

    /// Lowers the expression of a condition `e` as `value` does, with no
    /// decision starting or counted inside it.
    pub(super) fn condition_value<T>(
        &mut self,
        at: usize,
        value: impl FnOnce(&mut Self) -> R<T>,
    ) -> R<T> {
        let f = self.builder(at)?;
        let saved = std::mem::replace(&mut f.decision, DecisionState::Quiet);
        let result = value(self);
        self.builder(at)?.decision = saved;
        result
    }

    /// Where the two outcomes of the next condition of an open decision go
    /// instead of `then_bb` and `else_bb`: through a block adding the
    /// outcome's weight to the vector number, and to the decision's end
    /// where the outcome decides. The targets unchanged outside a decision.
    pub(super) fn condition_targets(
        &mut self,
        then_bb: BlockId,
        else_bb: BlockId,
        at: usize,
    ) -> R<(BlockId, BlockId)> {
        let span = self.span(at);
        let f = self.builder(at)?;
        let DecisionState::Open(open) = &mut f.decision else {
            return Ok((then_bb, else_bb));
        };
        let c = open.next_condition;
        open.next_condition += 1;
        let (Some(next), Some(weight)) = (open.flow.next.get(c), open.flow.weight.get(c)) else {
            return Ok((then_bb, else_bb));
        };
        let (next, weight, vector, end) = (*next, *weight, open.vector, open.end);
        let mut targets = [then_bb, else_bb];
        for (k, target) in targets.iter_mut().enumerate() {
            let decides = matches!(next[k], Some(Next::Outcome(_)));
            if weight[k] == 0 && !decides {
                continue;
            }
            let edge = f.new_block();
            if weight[k] != 0 {
                let int = Type::Int(IntType::INT);
                let sum = make_binary(
                    BinOp::Add,
                    Expr::load(Place::local(vector), int.clone()),
                    Expr::int(IntType::INT, i128::from(weight[k])),
                    int,
                );
                f.blocks[edge.index()].stmts.push(ir::Stmt {
                    kind: StmtKind::Assign(Place::local(vector), sum),
                    span,
                });
            }
            let to = if decides { end } else { *target };
            f.blocks[edge.index()].term = Some((Terminator::Goto(to), span));
            *target = edge;
        }
        Ok((targets[0], targets[1]))
    }
}
