//! What a search does within its budgets on code that is costly to solve or
//! to hold (issue 27): each asserts results, never times, since the machine
//! running the tests may be loaded.

mod common;

use common::*;

/// libkal's `kal_dv`: a floor division on 64 bits, whose queries multiply
/// a quotient (Z3 spent 855 ms on one limited to 5 ms).
const FLOOR_DIVISION: &str = r#"
long kal_dv(long a, long b) {
    long c;
    c = a / b;
    if (c <= 0) if (b * c > a) c--;
    return c;
}
"#;

/// `kal_dv` as C computes it.
fn floor_division(a: i128, b: i128) -> i128 {
    let c = a / b;
    if c <= 0 && b * c > a {
        c - 1
    } else {
        c
    }
}

#[test]
fn a_function_without_branches_gets_one_checked_test() {
    // libkal's `kal_md`: its own body has no branch; the one test's
    // path goes through `kal_dv`'s 64-bit quotient and product.
    let src = format!(
        "{FLOOR_DIVISION}\nlong kal_md(long a, long b) {{ return a - b * kal_dv(a, b); }}\n"
    );
    let (_, report) = run(&src, "kal_md");
    assert!(report.goals.is_empty());
    // The entry test, and maybe tests on the edges of `kal_dv`'s comparisons.
    assert!(!report.tests.is_empty(), "{:#?}", report.stats);
    for t in &report.tests {
        let (a, b) = (arg(t, 0), arg(t, 1));
        assert_ne!(b, 0, "{t:?}");
        assert_eq!(ret(t), a - b * floor_division(a, b), "{t:?}");
    }
}

#[test]
fn a_hard_64_bit_division_still_gets_tests_within_its_budget() {
    let config = engine::EngineConfig {
        max_time: std::time::Duration::from_secs(5),
        ..config()
    };
    let (_, report) = run_with(FLOOR_DIVISION, "kal_dv", &config);
    assert!(report.tests.len() >= 2, "{:#?}", report.tests);
    for t in &report.tests {
        let (a, b) = (arg(t, 0), arg(t, 1));
        assert_ne!(b, 0, "{t:?}");
        assert_eq!(ret(t), floor_division(a, b), "{t:?}");
    }
    let kinds: Vec<&str> = report.findings.iter().map(|f| f.kind.slug()).collect();
    assert!(kinds.contains(&"division-by-zero"), "{kinds:?}");
}

#[test]
fn a_search_at_its_state_bound_finishes_and_names_the_bound() {
    let src = r#"
int grade(int score, int bonus) {
    int g = 0;
    if (score > 90) g += 4;
    if (score > 50) g += 2;
    if (bonus > 0) g += 1;
    return g;
}
"#;
    let config = engine::EngineConfig {
        max_waiting_states: 1,
        // Candidates would cover the ways the bound left.
        cheap_inputs: false,
        ..config()
    };
    let (_, report) = run_with(src, "grade", &config);
    assert!(!report.tests.is_empty());
    assert!(!report.uncovered.is_empty());
    for (goal, reason) in &report.uncovered {
        let bound = testcase::Uncovered::Budget(testcase::Bound::MaxWaitingStates);
        assert_eq!(reason, &bound, "{goal:?}");
    }
    let explained = testcase::Bound::MaxWaitingStates.explained();
    assert!(explained.contains("at once"), "{explained}");
}

/// Connections with large inline buffers, as pgpool2's are: every byte of
/// an input is a named symbol, so an array of such structs is built with
/// fewer elements (cut by `max_array`), and a struct larger than an input
/// may be stops the path with the reason.
const LARGE_BUFFERS: &str = r#"
struct conn { int fd; char buf[200000]; };
struct huge { int fd; char buf[1000000]; };

int second_is_open(struct conn *c)
{
    if (c[1].fd > 0)
        return 1;
    return 0;
}

int huge_is_open(struct huge *h)
{
    if (h->fd > 0)
        return 1;
    return 0;
}
"#;

#[test]
fn inputs_with_large_buffers_are_bounded_and_say_so() {
    let (_, report) = run(LARGE_BUFFERS, "second_is_open");
    assert!(!report.uncovered.is_empty(), "{:#?}", report.tests);
    assert!(
        report
            .uncovered
            .iter()
            .all(|(_, why)| *why == testcase::Uncovered::Budget(testcase::Bound::MaxArray)),
        "{:#?}",
        report.uncovered
    );
    let (_, report) = run(LARGE_BUFFERS, "huge_is_open");
    assert!(
        report.tests.iter().all(|t| ret(t) != 1),
        "{:#?}",
        report.tests
    );
    assert!(
        report.uncovered.iter().any(|(_, why)| matches!(why,
            testcase::Uncovered::Unsupported(r) if r.contains("larger than cairn builds an input"))),
        "{:#?}",
        report.uncovered
    );
}

#[test]
fn a_candidate_passes_the_whole_buffer_a_loop_reads() {
    // libgsm's frames: 160 samples read at fixed indices, far beyond the
    // symbolic search's `max_array`; a candidate's values run them all.
    let src = r#"
int loud(const short *s) {
    int peak = 0;
    for (int k = 0; k < 160; k++)
        if (s[k] > peak) peak = s[k];
    if (peak > 1000) return 1;
    return 0;
}
"#;
    let (_, report) = run(src, "loud");
    // Random samples make a loud frame; a silent one (all 160 at most
    // 1000) is the symbolic search's, which `max_array` stops.
    assert!(
        report.tests.iter().any(|t| ret(t) == 1),
        "{:#?}",
        report.stats
    );
    for t in &report.tests {
        // The test builds as much of the buffer as the path read.
        let buffer = &t.inputs.objects[0];
        assert_eq!(buffer.len, 160, "{t:?}");
        let peak = buffer.init.iter().map(int).max().unwrap_or(0).max(0);
        assert_eq!(ret(t), i128::from(peak > 1000), "{t:?}");
    }
}
