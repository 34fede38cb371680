//! End-to-end: floating point through the real binary. Tests need NaN,
//! infinities and -0 as inputs, write them exactly, and gcc's build of the
//! driver agrees with every predicted result and branch.

mod common;

use common::gen_checked;

const SOURCE: &str = r#"#include <math.h>

/* 1 NaN, 2 infinite, 3 negative zero, 4 tiny, 0 other. */
int kind(double x)
{
    if (x != x)
        return 1;
    if (isinf(x))
        return 2;
    if (x == 0.0 && signbit(x))
        return 3;
    if (fabs(x) < 0x1p-1000)
        return 4;
    return 0;
}

float halve(float f)
{
    return f / 2.0f;
}

int to_int(double d)
{
    return (int)d;
}

/* Only copies a long double: nothing to compute, nothing excluded. */
long double pass(long double x)
{
    long double copy = x;
    return copy;
}
"#;

#[test]
fn floating_inputs_and_results_round_trip_through_the_driver() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (stdout, stderr, out_dir) = gen_checked(dir.path(), "kinds.c", SOURCE);
    assert!(!stderr.contains("unsupported"), "{}", stderr);
    let row = |name: &str| {
        stdout
            .lines()
            .find(|l| l.trim_start().starts_with(name))
            .unwrap_or_default()
            .to_string()
    };
    assert!(
        row("kind").contains("10/10"),
        "every branch of kind:\n{stdout}"
    );
    assert!(!row("pass").is_empty(), "pass is not excluded:\n{stdout}");

    let driver = std::fs::read_to_string(out_dir.join("kinds_test.c")).expect("driver");
    assert!(driver.contains("__builtin_nan"), "a NaN input:\n{driver}");
    assert!(
        driver.contains("__builtin_inf"),
        "an infinite input:\n{driver}"
    );
    assert!(
        driver.contains("-0x0p+0"),
        "a negative zero input:\n{driver}"
    );
    assert!(
        driver.contains("cairn_expect_float("),
        "halve's result checked"
    );

    let json = std::fs::read_to_string(out_dir.join("kinds.tests.json")).expect("tests.json");
    assert!(
        json.contains("\"double\""),
        "doubles written by kind:\n{json}"
    );
    let findings = std::fs::read_to_string(out_dir.join("kinds_findings.c")).expect("findings");
    assert!(findings.contains("to_int"), "{findings}");
    assert!(
        stdout.contains("float-conversion-overflow in to_int"),
        "an out-of-range conversion is a finding:\n{stdout}"
    );
}
