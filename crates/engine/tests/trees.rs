//! The hard-goal phase (bounded execution trees, alternatives solved in one
//! disjunction). `max_paths: 1` stops the coverage search after its first
//! completed path, so the goals it leaves are the second phase's to cover.

mod common;

use common::*;
use engine::{EngineConfig, HardGoalStrategy};
use testcase::FunctionReport;

/// One symbolic path (sampled candidates would cover what the trees are for).
fn one_path(hard_goals: HardGoalStrategy) -> EngineConfig {
    EngineConfig {
        max_paths: 1,
        cheap_inputs: false,
        hard_goals,
        ..config()
    }
}

fn run_trees(file: &str, func: &str, hard_goals: HardGoalStrategy) -> FunctionReport {
    run_file("trees", file, func, &one_path(hard_goals)).1
}

#[test]
fn coverage_search_cut_after_one_path_leaves_goals() {
    let report = run_trees("loop.c", "sum_below", HardGoalStrategy::Off);
    assert_eq!(report.tests.len(), 1);
    assert!(!report.uncovered.is_empty());
}

#[test]
fn goal_behind_five_loop_iterations_is_covered_by_raising_the_bound() {
    let report = run_trees("loop.c", "sum_below", HardGoalStrategy::Trees);
    assert_all_covered(&report);
    // 0 + 1 + 2 + 3 + 4 == 10: only n == 5 returns 1.
    assert_eq!(arg(test_returning(&report, 1), 0), 5);
}

#[test]
fn infeasible_alternative_does_not_stop_the_goal() {
    let report = run_trees("alternatives.c", "pick", HardGoalStrategy::Trees);
    let found = test_returning(&report, 7);
    let (x, y) = (arg(found, 0), arg(found, 1));
    assert!(x <= 10, "x = {x}");
    assert_eq!((y * y) as i32, 49, "y = {y}");
    // Only the arm of `x < 5` under `x > 10` stays uncovered.
    assert_eq!(report.uncovered.len(), 1, "{:?}", report.uncovered);
}

#[test]
fn goal_needing_a_three_node_input_list_is_covered() {
    let report = run_trees("list.c", "has_three", HardGoalStrategy::Trees);
    assert_all_covered(&report);
    let three = test_returning(&report, 1);
    assert_eq!(three.inputs.objects.len(), 3, "{three:#?}");
}
