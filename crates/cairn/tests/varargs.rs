//! End-to-end: variadic functions through the real binary. The driver
//! passes a variadic function's extra arguments at the types its path reads
//! (doubles exactly), calls a function taking a `va_list` through a
//! variadic wrapper, and gcc's build agrees with every prediction.

mod common;

use common::gen_checked;

const SOURCE: &str = r#"#include <stdarg.h>

int pick(int n, ...)
{
    va_list ap;
    va_start(ap, n);
    int a = va_arg(ap, int);
    double d = 0;
    if (n > 1)
        d = va_arg(ap, double);
    va_end(ap);
    if (a == 7 && d > 2.5)
        return 1;
    return 0;
}

static int first_positive(va_list ap)
{
    int v = va_arg(ap, int);
    if (v > 0)
        return v;
    return 0;
}
"#;

#[test]
fn extra_arguments_are_written_at_their_read_types_and_va_lists_through_a_wrapper() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (_, _, out_dir) = gen_checked(dir.path(), "pick.c", SOURCE);
    let driver = std::fs::read_to_string(out_dir.join("pick_test.c")).expect("driver");
    assert!(driver.contains(", (int)7, (double)0x"), "{driver}");
    assert!(
        driver.contains(
            "static __attribute__((__unused__)) int cairn_va_first_positive(int cairn_va_marker, ...)"
        ),
        "{driver}"
    );
    assert!(
        driver.contains("cairn_va_first_positive(0, (int)"),
        "{driver}"
    );
}

const LOGGER: &str = r#"#include <stdarg.h>
#include <stdio.h>

struct log { char line[16]; int dropped; };

static int log_put(struct log *l, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(l->line, sizeof l->line, fmt, ap);
    va_end(ap);
    if ((size_t)n >= sizeof l->line) {
        l->dropped++;
        return 1;
    }
    return 0;
}

int report(struct log *l, int code)
{
    if (log_put(l, "code %d", code) != 0)
        return -1;
    return l->line[5] == '-';
}
"#;

#[test]
fn formatting_through_a_va_list_is_followed_like_its_variadic_form() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (stdout, _, _) = gen_checked(dir.path(), "logger.c", LOGGER);
    // `vsnprintf` into the 16 bytes: a code of 10 or more digits with its
    // sign does not fit, a negative one starts with '-', else neither.
    assert!(common::covers(&stdout, "report", "4/4"), "{stdout}");
}
