//! What a report says of its function's decisions under MC/DC: for each
//! condition, the two written tests that show it independent, or why none
//! does (`ir::decisions` defines the pairs), for tests.json and the
//! driver's comments.

use crate::driver::EmittedTest;
use crate::json::uncovered_text;
use ir::Goal;
use std::collections::BTreeSet;
use std::fmt::Write;
use testcase::json::{ConditionJson, DecisionJson};
use testcase::{FunctionReport, TestCase, Uncovered};

/// Each decision of the report's function with the conditions the written
/// tests show independent, by which two tests, or why none does.
pub(crate) fn decisions_json(
    program: &ir::Program,
    report: &FunctionReport,
    written: &[(&TestCase, &EmittedTest)],
    file_path: &dyn Fn(u32) -> String,
) -> Vec<DecisionJson> {
    let Some(body) = &program.function(report.func).body else {
        return Vec::new();
    };
    body.decisions
        .iter()
        .map(|decision| {
            let goal = |n: usize| Goal {
                func: report.func,
                site: decision.site,
                arm: decision.arm_of(n),
            };
            // The first written test taking each vector.
            let taken_by: Vec<Option<&str>> = (0..decision.vectors.len())
                .map(|n| {
                    written
                        .iter()
                        .find(|(t, _)| {
                            t.path_goals.contains(&goal(n)) || t.new_goals.contains(&goal(n))
                        })
                        .map(|(_, e)| e.name.as_str())
                })
                .collect();
            let covered: Vec<usize> = (0..decision.vectors.len())
                .filter(|&n| taken_by[n].is_some())
                .collect();
            let not_taken = |n: usize| {
                let why = report
                    .uncovered
                    .iter()
                    .find(|(g, _)| *g == goal(n))
                    .map_or_else(
                        || "taken by no written test".to_string(),
                        |(_, why)| uncovered_text(why),
                    );
                format!("{} ({why})", decision.spell(n))
            };
            let conditions = decision
                .conditions
                .iter()
                .enumerate()
                .map(|(c, condition)| {
                    let pair = decision.independence_pair(c, &covered);
                    let shown_by = pair.and_then(|(a, b)| {
                        Some((taken_by[a]?.to_string(), taken_by[b]?.to_string()))
                    });
                    let all: Vec<usize> = (0..decision.vectors.len()).collect();
                    let pairs = decision.pairs_showing(c, &all);
                    let proved_infeasible = |n: usize| {
                        taken_by[n].is_none()
                            && report
                                .uncovered
                                .iter()
                                .any(|(g, why)| *g == goal(n) && *why == Uncovered::Infeasible)
                    };
                    let infeasible = shown_by.is_none()
                        && (condition.constant.is_some()
                            || pairs
                                .iter()
                                .all(|&(a, b)| proved_infeasible(a) || proved_infeasible(b)));
                    let reason = match (shown_by.is_some(), condition.constant) {
                        (true, _) => None,
                        (false, Some(value)) => {
                            Some(format!("it is the constant {}", u8::from(value)))
                        }
                        (false, None) => {
                            let missing: Vec<String> = pairs
                                .iter()
                                .flat_map(|&(a, b)| [a, b])
                                .filter(|&n| taken_by[n].is_none())
                                .collect::<BTreeSet<usize>>()
                                .into_iter()
                                .map(not_taken)
                                .collect();
                            Some(if missing.is_empty() {
                                "no two evaluations differ in it alone with different outcomes"
                                    .to_string()
                            } else {
                                format!("no test takes {}", missing.join(", "))
                            })
                        }
                    };
                    ConditionJson {
                        text: condition.text.clone(),
                        line: condition.span.line,
                        col: condition.span.col,
                        shown_by,
                        reason,
                        infeasible,
                    }
                })
                .collect();
            DecisionJson {
                file: file_path(decision.span.file),
                line: decision.span.line,
                col: decision.span.col,
                text: decision.text.clone(),
                vectors: decision.vectors.len() as u32,
                vectors_covered: covered.len() as u32,
                conditions,
            }
        })
        .collect()
}

/// The decisions of one function as a C comment: each condition with the
/// tests that show it independent, or why none does.
pub(crate) fn decisions_comment(function: &str, decisions: &[DecisionJson]) -> Option<String> {
    if decisions.is_empty() {
        return None;
    }
    let mut out =
        format!("/* MC/DC of {function}: the two tests that show each condition decide alone.\n");
    for decision in decisions {
        let _ = writeln!(
            out,
            " *   line {}: {}",
            decision.line,
            crate::literal::comment_text(&decision.text)
        );
        for condition in &decision.conditions {
            let text = crate::literal::comment_text(&condition.text);
            let how = match (&condition.shown_by, &condition.reason) {
                (Some((a, b)), _) if a == b => format!("{a}, evaluating it twice"),
                (Some((a, b)), _) => format!("{a} and {b}"),
                (None, Some(why)) => format!("not shown: {}", crate::literal::comment_text(why)),
                (None, None) => "not shown".to_string(),
            };
            let _ = writeln!(out, " *     {text}: {how}");
        }
    }
    out.push_str(" */");
    Some(out)
}
