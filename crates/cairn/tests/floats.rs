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

/// Every float operation on edge values (zeros, a subnormal, extremes,
/// infinities, quiet and signalling NaNs) folded into a checksum of their
/// bits. No input decides them, so the engine computes them natively; the
/// driver then checks its predicted checksum against gcc's build.
const EDGES: &str = r#"#include <math.h>
#include <string.h>

static unsigned long long bits_of(double d)
{
    unsigned long long u;
    memcpy(&u, &d, sizeof u);
    return u;
}

static unsigned int float_bits(float f)
{
    unsigned int u;
    memcpy(&u, &f, sizeof u);
    return u;
}

static unsigned long long mix(unsigned long long h, unsigned long long v)
{
    return (h ^ v) * 1099511628211ull;
}

unsigned long long edges(void)
{
    double v[12] = {0.0, -0.0, 1.0, -2.5, 0.1, 1e308, 4.9e-324, INFINITY,
                    -INFINITY, NAN, 3.5, 2147483647.9};
    unsigned long long nans[2] = {0x7ff0000000000001ull, 0xfff4000020000000ull};
    memcpy(&v[9], &nans[1], sizeof v[9]);
    double signalling;
    memcpy(&signalling, &nans[0], sizeof signalling);
    unsigned long long h = 14695981039346656037ull;
    for (int i = 0; i < 12; i++) {
        double x = i == 11 ? signalling : v[i];
        for (int j = 0; j < 12; j++) {
            double y = v[j];
            h = mix(h, bits_of(x + y) ^ bits_of(x - y) ^ bits_of(x * y));
            h = mix(h, bits_of(x / y));
            h = mix(h, (x < y) + 2 * (x <= y) + 4 * (x == y) + 8 * (x != y) +
                           16 * (x > y) + 32 * (x >= y));
            h = mix(h, bits_of(fmin(x, y)) ^ bits_of(fmax(x, y)));
            h = mix(h, float_bits((float)x * (float)y) ^ float_bits((float)x / (float)y));
        }
        h = mix(h, bits_of(-x) ^ bits_of(fabs(x)) ^ bits_of(copysign(3.0, x)));
        h = mix(h, bits_of(floor(x)) ^ bits_of(ceil(x)) ^ bits_of(trunc(x)));
        h = mix(h, bits_of(round(x)) ^ bits_of(sqrt(x)) ^ float_bits(sqrtf((float)x)));
        h = mix(h, float_bits((float)x) ^ bits_of((double)(float)x));
        if (x > -2147483649.0 && x < 2147483648.0)
            h = mix(h, (unsigned long long)(int)x);
        h = mix(h, (_Bool)x);
        h = mix(h, bits_of((double)(long long)(h >> 3)) ^ float_bits((float)(h >> 1)));
        h = mix(h, bits_of((double)h));
    }
    return h;
}
"#;

#[test]
fn known_floats_compute_as_gcc_does() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (stdout, _, out_dir) = gen_checked(dir.path(), "edges.c", EDGES);
    let driver = std::fs::read_to_string(out_dir.join("edges_test.c")).expect("driver");
    assert!(
        driver.contains("\"edges() returned\""),
        "the checksum is predicted:\n{driver}"
    );
    assert!(stdout.contains("check passed"), "{stdout}");
}
