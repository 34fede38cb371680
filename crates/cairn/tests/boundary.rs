//! End-to-end: boundary tests through the real binary. A comparison gets
//! tests at each of its edges (its sides one apart and equal) beside the
//! tests of its branches, the driver passes and gcc's measure agrees with
//! every prediction; `--no-boundary-tests` writes the branch tests alone.

mod common;

use common::{arg, cairn, corpus, driver_catches, gen_checked, gen_outputs, text};

const SOURCE: &str = r#"int limit(int x)
{
    if (x <= 10)
        return 1;
    return 2;
}

/* At the edges of the type: left minus right must not wrap. */
int extreme(long a, unsigned long b)
{
    if (a < -9223372036854775807L)
        return 1;
    if (b >= 18446744073709551615UL)
        return 2;
    return 0;
}
"#;

#[test]
fn a_comparison_gets_a_test_at_each_of_its_edges() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (_, _, out_dir) = gen_checked(dir.path(), "limit.c", SOURCE);
    let driver = std::fs::read_to_string(out_dir.join("limit_test.c")).expect("driver");
    for call in ["limit(9)", "limit(10)", "limit(11)"] {
        assert!(
            driver.contains(&format!("int result = {call};")),
            "{call}\n{driver}"
        );
    }
    assert!(
        driver.contains("/* sits at the edge of limit.c:3:9 x <= 10 (both sides equal) */"),
        "{driver}"
    );
    assert!(
        driver.contains("test_limit_returns_1_at_edge_of_x_le_10"),
        "{driver}"
    );
    // At the lowest long and the highest unsigned long, one edge is out
    // of the type: the others are tested, and nothing wraps round.
    for call in [
        "extreme((-9223372036854775807LL - 1), ",
        "extreme(-9223372036854775807, ",
        "extreme(-9223372036854775806, ",
        ", 18446744073709551614ULL);",
        ", 18446744073709551615ULL);",
    ] {
        assert!(driver.contains(call), "{call}\n{driver}");
    }
}

#[test]
fn without_boundary_tests_only_branches_are_tested() {
    let dir = tempfile::tempdir().expect("temp dir");
    let src = dir.path().join("limit.c");
    std::fs::write(&src, SOURCE).expect("write source");
    let out_dir = dir.path().join("out");
    let out = cairn(&[
        "gen",
        arg(&src),
        "-o",
        arg(&out_dir),
        "-f",
        "limit",
        "--no-boundary-tests",
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    let driver = std::fs::read_to_string(out_dir.join("limit_test.c")).expect("driver");
    assert_eq!(driver.matches("int result = limit(").count(), 2, "{driver}");
    assert!(!driver.contains("sits at the edge"), "{driver}");
}

/// Tested at x = 1001 with y = 0, `x > 1000` is masked: `y < 2` returns -1
/// too. The edge needs y in range, as on the paths past the condition.
const CHAIN: &str = r#"int is_factorization(int x, int y, int z)
{
    if (x < 2 || x > 1000 || y < 2 || y > 1000)
        return -1;
    if (x * y == z)
        return 1;
    return 0;
}
"#;

#[test]
fn an_edge_inside_a_chain_is_tested_where_the_rest_lets_it_decide() {
    let dir = tempfile::tempdir().expect("temp dir");
    let source = dir.path().join("factor.c");
    std::fs::write(&source, CHAIN).expect("write source");
    let out_dir = dir.path().join("out");
    let out = cairn(&["gen", arg(&source), "-o", arg(&out_dir), "--check"]);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stdout));
    let condition = "if (x < 2 || x > 1000 || y < 2 || y > 1000)";
    for (was, mutant) in [
        ("x > 1000", "x > 1001"),
        ("x > 1000", "x >= 1000"),
        ("x < 2", "x <= 2"),
        ("y > 1000", "y > 1001"),
    ] {
        let changed = condition.replace(was, mutant);
        assert!(
            driver_catches(&out_dir, &source, (condition, &changed)),
            "{changed} passes every test"
        );
    }
}

/// Flipped boundaries ask hard, nonlinear questions with a solver of
/// their own: whichever model Z3 finds is the test, so it must find the
/// same one on every run (each run is a new process, with new hash seeds).
#[test]
fn flipped_boundaries_give_the_same_tests_on_every_run() {
    let dir = tempfile::tempdir().expect("temp dir");
    let source = corpus("scalar", "triangle.c");
    let run = |name: &str| {
        gen_outputs(
            &source,
            &dir.path().join(name),
            &["-f", "is_right_triangle"],
        )
    };
    let first = run("first");
    for again in ["second", "third"] {
        assert_eq!(first, run(again), "{again} run differs");
    }
}

#[test]
fn case_ranges_and_float_comparisons_are_tested_at_their_edges() {
    let dir = tempfile::tempdir().expect("temp dir");
    let source = r#"int band(int code)
{
    switch (code) {
    case 10 ... 19:
        return 1;
    case 40 ... 49:
        return 4;
    default:
        return 0;
    }
}

int below(double x, double low)
{
    if (x < low)
        return 1;
    return 0;
}
"#;
    let (_, _, out_dir) = gen_checked(dir.path(), "band.c", source);
    let driver = std::fs::read_to_string(out_dir.join("band_test.c")).expect("driver");
    // Each range's first and last value and the values next to them (the
    // last range's last edges share one place at the switch with the first's).
    for code in [9, 10, 19, 20, 39, 40, 49] {
        let call = format!("int result = band({code});");
        assert!(driver.contains(&call), "{call}\n{driver}");
    }
    assert!(
        driver.contains("(both sides equal) */") && driver.contains("below("),
        "{driver}"
    );
    let equal_sides = driver
        .lines()
        .filter(|l| l.contains("int result = below("))
        .any(|l| {
            let args = l.split_once("below(").map_or("", |(_, rest)| rest);
            let mut parts = args.trim_end_matches(");").split(", ");
            parts.next() == parts.next()
        });
    assert!(equal_sides, "a test with x == low\n{driver}");
}
