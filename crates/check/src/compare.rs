//! Comparing the engine's coverage claims with what gcov measured.
//!
//! The rule: on every line, the edges the engine claims covered must not
//! outnumber the branches gcov saw taken. An edge is a (condition, target)
//! pair, so `case 4: default:` sharing a target counts once, as gcov counts it.
//!
//! gcc places some branches on another line than the condition's first
//! character: the right operand of a multi-line `&&`/`||` on the operator's
//! line, the left operand of an `if` on the `if` line, a multi-line `?:` on the
//! `?` line. Claims a line cannot hold are therefore matched with spare taken
//! branches up to [`NEARBY_LINES`] lines away.
//!
//! Even at -O0 gcc folds some conditions away (measured with gcc 12):
//! constant ones (`while (1)`, `for (;;)`, `if (1)`, `u < 0` for an unsigned
//! `u`, `a && 0`), min/max/abs-like `?:` (`x > y ? x : y`, `x < lo ? lo : x`,
//! `a < 0 ? -a : a`, `c ? 1 : 0`, `a == 0 ? 0 : a`) and range tests on one
//! variable (`c >= 'a' && c <= 'z'` becomes one unsigned comparison: 2
//! branches, not 4). So when a line has fewer gcov branches than cairn has
//! edges there, that many claims cannot be measured: they are reported as
//! notes, and only the remaining claims must fit the taken branches. A claim
//! on a line that never ran is always a failure.

use crate::gcov::FunctionCoverage;
use std::collections::{BTreeMap, BTreeSet};
use testcase::json::GoalJson;

/// How far (in lines) a claim may be matched with a taken branch.
pub const NEARBY_LINES: u32 = 3;

#[derive(Debug, Default, PartialEq, Eq)]
pub struct Comparison {
    /// Claims gcov contradicts: a failure of the engine's prediction.
    pub unmeasured_claims: Vec<LineNote>,
    /// Claims gcov cannot confirm either way.
    pub unmeasurable: Vec<LineNote>,
    /// Per line, branches gcov saw taken that no claim accounts for (the
    /// tests take more than the engine says).
    pub unpredicted: BTreeMap<u32, usize>,
}

/// What the comparison says about one line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LineNote {
    pub line: u32,
    pub message: String,
}

impl LineNote {
    fn new(line: u32, message: String) -> Self {
        LineNote { line, message }
    }
}

pub fn compare(goals: &[&GoalJson], measured: &FunctionCoverage) -> Comparison {
    // Per line: every edge cairn knows, the claimed ones, and their labels.
    let mut lines: BTreeMap<u32, LineClaims> = BTreeMap::new();
    for goal in goals {
        let entry = lines.entry(goal.line).or_default();
        entry.edges.insert((goal.site, goal.target));
        if goal.covered {
            entry.claimed.insert((goal.site, goal.target));
            entry.labels.push(goal.label.clone());
        }
    }
    let mut comparison = Comparison::default();
    let mut spare: BTreeMap<u32, usize> = measured
        .lines
        .iter()
        .map(|(line, cov)| (*line, cov.branches_taken))
        .collect();
    let mut leftover: BTreeMap<u32, usize> = BTreeMap::new();
    for (line, claims) in lines.iter().filter(|(_, c)| !c.claimed.is_empty()) {
        let cov = measured.lines.get(line).cloned().unwrap_or_default();
        let labels = claims.labels.join("; ");
        if measured.lines.get(line).is_some_and(|c| c.count == 0) {
            comparison.unmeasured_claims.push(LineNote::new(
                *line,
                format!("line {line}: the engine claims {labels} covered but the line never ran"),
            ));
            continue;
        }
        // Edges gcc folded away on this line: claims up to that many cannot be measured.
        let folded = claims.edges.len().saturating_sub(cov.branches);
        let unmeasurable = folded.min(claims.claimed.len());
        if unmeasurable > 0 {
            comparison.unmeasurable.push(LineNote::new(*line, format!(
                "line {line}: gcc counts {} branch(es) where cairn has {} edge(s) (conditions folded at -O0 or placed on another line); {unmeasurable} of the claims cannot be measured: {labels}",
                cov.branches,
                claims.edges.len()
            )));
        }
        let demand = claims.claimed.len() - unmeasurable;
        let available = spare.entry(*line).or_default();
        let used = demand.min(*available);
        *available -= used;
        if demand > used {
            leftover.insert(*line, demand - used);
        }
    }
    for (line, missing) in leftover.iter_mut() {
        for distance in 1..=NEARBY_LINES {
            for other in [line.saturating_sub(distance), line + distance] {
                if other == *line {
                    continue;
                }
                if let Some(available) = spare.get_mut(&other) {
                    let used = (*missing).min(*available);
                    *available -= used;
                    *missing -= used;
                }
            }
        }
    }
    for (line, missing) in leftover.into_iter().filter(|(_, m)| *m > 0) {
        let claims = &lines[&line];
        let cov = measured.lines.get(&line).cloned().unwrap_or_default();
        comparison.unmeasured_claims.push(LineNote::new(line, format!(
            "line {line}: the engine claims {} edge(s) covered ({}) but gcov saw {} of its {} branch(es) taken ({missing} too few)",
            claims.claimed.len(),
            claims.labels.join("; "),
            cov.branches_taken,
            cov.branches
        )));
    }
    comparison.unpredicted = spare.into_iter().filter(|(_, n)| *n > 0).collect();
    comparison
}

#[derive(Default)]
struct LineClaims {
    edges: BTreeSet<(u32, u32)>,
    claimed: BTreeSet<(u32, u32)>,
    labels: Vec<String>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gcov::LineCoverage;

    fn goal(line: u32, site: u32, target: u32, covered: bool) -> GoalJson {
        GoalJson {
            key: format!("f:{line}:1:{target}"),
            file: "t.c".into(),
            line,
            col: 1,
            label: format!("c{site}->{target}"),
            site,
            target,
            covered,
            reason: None,
        }
    }

    fn measured(lines: &[(u32, u64, usize, usize)]) -> FunctionCoverage {
        FunctionCoverage {
            lines: lines
                .iter()
                .map(|&(line, count, branches, branches_taken)| {
                    (
                        line,
                        LineCoverage {
                            count,
                            branches,
                            branches_taken,
                        },
                    )
                })
                .collect(),
        }
    }

    #[test]
    fn claims_within_taken_branches_pass() {
        let goals = [
            goal(3, 0, 1, true),
            goal(3, 0, 2, true),
            goal(5, 1, 3, true),
            goal(5, 1, 4, false),
        ];
        let refs: Vec<&GoalJson> = goals.iter().collect();
        let c = compare(&refs, &measured(&[(3, 2, 2, 2), (5, 2, 2, 1)]));
        assert_eq!(c, Comparison::default());
        // A branch taken where cairn claims none is unpredicted.
        let c = compare(&refs, &measured(&[(3, 2, 2, 2), (5, 2, 2, 2)]));
        assert_eq!(c.unpredicted, BTreeMap::from([(5, 1)]));
    }

    #[test]
    fn excess_claim_is_a_problem() {
        let goals = [goal(5, 1, 3, true), goal(5, 1, 4, true)];
        let refs: Vec<&GoalJson> = goals.iter().collect();
        let c = compare(&refs, &measured(&[(5, 2, 2, 1)]));
        assert_eq!(c.unmeasured_claims.len(), 1, "{c:?}");
        assert_eq!(c.unmeasured_claims[0].line, 5);
    }

    #[test]
    fn shared_target_counts_once_and_nearby_lines_absorb() {
        // case 4 and default share target 7: one edge.
        let goals = [
            goal(8, 2, 7, true),
            goal(8, 2, 7, true),
            goal(10, 3, 1, true),
        ];
        let refs: Vec<&GoalJson> = goals.iter().collect();
        // The edge taken for line 10 is recorded on line 9 (operator line).
        let c = compare(
            &refs,
            &measured(&[(8, 1, 3, 1), (9, 1, 2, 1), (10, 1, 2, 0)]),
        );
        assert_eq!(c, Comparison::default());
    }

    #[test]
    fn folded_and_never_run_lines_differ() {
        let goals = [goal(4, 0, 1, true), goal(20, 1, 2, true)];
        let refs: Vec<&GoalJson> = goals.iter().collect();
        let c = compare(&refs, &measured(&[(4, 3, 0, 0), (20, 0, 0, 0)]));
        assert_eq!(c.unmeasurable.len(), 1);
        assert_eq!(c.unmeasurable[0].line, 4);
        assert_eq!(c.unmeasured_claims.len(), 1);
        assert!(c.unmeasured_claims[0].message.contains("never ran"));
    }

    #[test]
    fn partly_folded_line_still_checks_the_rest() {
        // `x < lo ? lo : x > hi ? hi : x`: gcc folds the inner ?: into MIN,
        // keeping 2 of cairn's 4 edges. Claims beyond 2 + taken fail.
        let goals = [
            goal(7, 0, 1, true),
            goal(7, 0, 2, true),
            goal(7, 1, 3, true),
            goal(7, 1, 4, true),
        ];
        let refs: Vec<&GoalJson> = goals.iter().collect();
        let ok = compare(&refs, &measured(&[(7, 4, 2, 2)]));
        assert!(ok.unmeasured_claims.is_empty(), "{ok:?}");
        assert_eq!(ok.unmeasurable.len(), 1);
        let bad = compare(&refs, &measured(&[(7, 4, 2, 1)]));
        assert_eq!(bad.unmeasured_claims.len(), 1, "{bad:?}");
    }
}
