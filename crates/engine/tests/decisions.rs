//! MC/DC: a decision's test vectors are goals until the tests show every
//! one of its conditions independent; the vectors left then are not sought
//! (nor claimed infeasible).

use engine::EngineConfig;
use ir::decisions::Decision;
use ir::Goal;
use testcase::{FunctionReport, Uncovered};

fn run_mcdc(source: &str, func: &str) -> (ir::Program, FunctionReport) {
    let dir = tempfile::tempdir().expect("temp dir");
    let file = dir.path().join("d.c");
    std::fs::write(&file, source).expect("write source");
    let config = front::FrontConfig {
        mcdc: true,
        ..front::FrontConfig::default()
    };
    let program = front::compile(&file, &config).expect("lowers").program;
    let id = program.function_by_name(func).expect("function exists");
    let engine = EngineConfig {
        max_time: std::time::Duration::from_secs(20),
        ..EngineConfig::default()
    };
    let report = engine::generate(&program, &[id], &engine)
        .pop()
        .expect("one report");
    (program, report)
}

fn vector_goal(report: &FunctionReport, decision: &Decision, n: usize) -> Goal {
    Goal {
        func: report.func,
        site: decision.site,
        arm: decision.arm_of(n),
    }
}

#[test]
fn vectors_are_not_sought_once_every_condition_is_shown() {
    // 15 ways to evaluate it, of which a character takes 7: the other 8
    // need a character in two ranges at once.
    let (program, report) = run_mcdc(
        "int is_hex(char c) {\n  if ((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'))\n    return 1;\n  return 0;\n}\n",
        "is_hex",
    );
    let body = program.function(report.func).body.as_ref().expect("body");
    let [decision] = body.decisions.as_slice() else {
        panic!("one decision: {:?}", body.decisions)
    };
    assert_eq!(decision.vectors.len(), 15);
    let taken: Vec<usize> = (0..decision.vectors.len())
        .filter(|&n| {
            let goal = vector_goal(&report, decision, n);
            (report.tests.iter()).any(|t| t.path_goals.contains(&goal))
        })
        .collect();
    for c in 0..decision.conditions.len() {
        assert!(
            decision.independence_pair(c, &taken).is_some(),
            "condition {c} not shown by vectors {taken:?}"
        );
    }
    let left: Vec<&Uncovered> = (report.uncovered.iter())
        .filter(|(g, _)| program.is_vector_goal(*g))
        .map(|(_, why)| why)
        .collect();
    assert_eq!(left.len(), decision.vectors.len() - taken.len());
    assert!(!left.is_empty());
    // Not sought is not infeasible: some are, but the search did not show it.
    assert!(
        left.iter().all(|why| **why == Uncovered::NotSought),
        "{left:?}"
    );
    // Every branch of the source is still covered.
    let branches_left: Vec<_> = (report.uncovered.iter())
        .filter(|(g, _)| !program.is_vector_goal(*g))
        .collect();
    assert!(branches_left.is_empty(), "{branches_left:?}");
}
