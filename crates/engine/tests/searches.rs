//! The coverage search's orders (`SearchOrder`) and the loop's cancellation,
//! on functions of the repository's corpus.

use engine::{EngineConfig, SearchOrder};
use std::path::Path;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;
use testcase::{FunctionReport, Uncovered};

fn explore(file: &str, function: &str, config: &EngineConfig) -> FunctionReport {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests/corpus")
        .join(file);
    let out = front::compile(&path, &front::FrontConfig::default()).expect("corpus file compiles");
    let func = out
        .program
        .function_by_name(function)
        .expect("function exists");
    engine::generate(&out.program, &[func], config)
        .pop()
        .expect("one report")
}

fn with(search: SearchOrder, seed: u64) -> EngineConfig {
    EngineConfig {
        max_time: Duration::from_secs(30),
        search,
        seed,
        ..EngineConfig::default()
    }
}

#[test]
fn a_random_search_is_reproducible_by_its_seed_and_covers_a_small_function() {
    let first = explore(
        "scalar/triangle.c",
        "classify_triangle",
        &with(SearchOrder::Random, 5),
    );
    assert!(first.uncovered.is_empty(), "{:?}", first.uncovered);
    let again = explore(
        "scalar/triangle.c",
        "classify_triangle",
        &with(SearchOrder::Random, 5),
    );
    assert_eq!(first.tests, again.tests);
}

#[test]
fn the_coverage_order_taking_turns_with_the_random_one_covers_a_linked_structure() {
    let config = EngineConfig {
        allocation_failure: engine::AllocationFailure::Tested,
        ..with(SearchOrder::CoverageAndRandom, 1)
    };
    let report = explore("heap/slist.c", "list_insert_sorted", &config);
    assert!(report.uncovered.is_empty(), "{:?}", report.uncovered);
    assert!(!report.tests.is_empty());
}

#[test]
fn a_cancelled_search_stops_and_names_the_interruption() {
    let config = EngineConfig {
        cancel: Some(Arc::new(AtomicBool::new(true))),
        ..EngineConfig::default()
    };
    let report = explore("scalar/lexer.c", "count_tokens", &config);
    assert!(report.tests.is_empty());
    assert!(!report.uncovered.is_empty());
    for (goal, why) in &report.uncovered {
        assert_eq!(
            *why,
            Uncovered::Budget(testcase::Bound::Interrupted),
            "{goal:?}"
        );
    }
}
