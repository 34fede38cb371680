//! C library functions without a model run natively on the path's values
//! (`engine::native`): their results, what they write and the static
//! storage they return come back into the path; the test records the calls
//! and the inputs they fixed; what acts on the world, or crashes, stops the
//! path with its reason and nothing else.

mod common;

use common::*;
use std::ffi::c_char;
use testcase::{FunctionReport, NativeCall, Uncovered};

/// Declarations as the system headers give them (a function a system
/// header declares without a model runs natively).
const HEADERS: &str = r#"
# 1 "test.c"
# 1 "/usr/include/string.h" 1
unsigned long strspn(const char *s, const char *accept);
char *stpcpy(char *dst, const char *src);
char *strerror(int code);
unsigned long strlen(const char *s);
# 1 "/usr/include/stdlib.h" 1
double strtod(const char *s, char **end);
int mblen(const char *s, unsigned long n);
void qsort(void *base, unsigned long n, unsigned long size, int (*compare)(const void *, const void *));
# 1 "/usr/include/time.h" 1
long time(long *t);
struct tm;
struct tm *localtime(const long *t);
# 1 "/usr/include/stdio.h" 1
typedef struct _IO_FILE FILE;
unsigned long __fpending(FILE *stream);
# 1 "/usr/include/arpa/inet.h" 1
unsigned int ntohl(unsigned int x);
# 1 "/usr/include/libintl.h" 1
char *gettext(const char *msgid);
# 22 "test.c" 2
"#;

extern "C" {
    fn strspn(s: *const c_char, accept: *const c_char) -> usize;
}

fn run_native(code: &str, func: &str) -> FunctionReport {
    run(&format!("{HEADERS}{code}"), func).1
}

fn native(function: &str, concretised: &[&str]) -> NativeCall {
    NativeCall {
        function: function.to_string(),
        concretised: concretised.iter().map(|s| s.to_string()).collect(),
    }
}

/// The reasons the goals of `report` were left.
fn reasons(report: &FunctionReport) -> Vec<&Uncovered> {
    report.uncovered.iter().map(|(_, why)| why).collect()
}

#[test]
fn a_pure_function_runs_on_the_bytes_of_a_buffer() {
    let report = run_native(
        r#"int leading(void) {
            char text[] = "123ab";
            unsigned long n = strspn(text, "0123456789");
            if (n == 3) return 1;
            return 0;
        }"#,
        "leading",
    );
    assert_eq!(report.tests.len(), 1);
    let test = &report.tests[0];
    assert_eq!(ret(test), 1);
    assert_eq!(test.native_calls, vec![native("strspn", &[])]);
}

#[test]
fn an_input_buffer_is_concretised_and_the_test_says_so() {
    let report = run_native(
        r#"int digits(const char *s) {
            unsigned long n = strspn(s, "0123456789");
            if (n == 0) return -1;
            if (n > 2) return 2;
            return (int)n;
        }"#,
        "digits",
    );
    assert!(!report.tests.is_empty());
    for test in &report.tests {
        let s = string_arg(test, 0);
        let digits = c"0123456789";
        // SAFETY: both are NUL-terminated strings.
        let n = unsafe { strspn(s.as_ptr(), digits.as_ptr()) };
        let expected = match n {
            0 => -1,
            n if n > 2 => 2,
            n => n as i128,
        };
        assert_eq!(ret(test), expected, "{s:?}");
        let [call] = &test.native_calls[..] else {
            panic!("one native call: {:?}", test.native_calls)
        };
        assert_eq!(call.function, "strspn");
        assert!(
            call.concretised.iter().any(|input| input.starts_with("s[")),
            "{:?}",
            call.concretised
        );
    }
    // The input takes the literal's bytes on one path, others on another.
    test_returning(&report, -1);
    test_returning(&report, 2);
    // Other strings are not explored from a fixed one: never infeasible.
    for why in reasons(&report) {
        assert_ne!(*why, Uncovered::Infeasible);
    }
}

#[test]
fn an_integer_argument_is_fixed_to_a_value_the_path_allows() {
    let report = run_native(
        r#"int swapped_one(unsigned x) {
            if (x > 100) return -1;
            if (ntohl(x) == 0x01000000u) return 1;
            return 0;
        }"#,
        "swapped_one",
    );
    for test in &report.tests {
        let x = arg(test, 0) as u32;
        let expected = match x {
            x if x > 100 => -1,
            x if x.swap_bytes() == 0x0100_0000 => 1,
            _ => 0,
        };
        assert_eq!(ret(test), expected, "x = {x}");
        if x <= 100 {
            assert_eq!(test.native_calls, vec![native("ntohl", &["x"])]);
        }
    }
    for why in reasons(&report) {
        assert_ne!(*why, Uncovered::Infeasible);
    }
}

#[test]
fn what_the_call_writes_comes_back_into_memory() {
    let report = run_native(
        r#"int copied(void) {
            char buf[8];
            char *end = stpcpy(buf, "abc");
            if (end - buf != 3) return -1;
            if (buf[1] != 'b') return -2;
            return buf[3] + 10;
        }"#,
        "copied",
    );
    assert!(report.findings.is_empty(), "{:?}", report.findings);
    assert_eq!(report.tests.len(), 1, "{:?}", report.uncovered);
    assert_eq!(ret(&report.tests[0]), 10);
    let report = run_native(
        r#"int parsed(void) {
            char *end;
            double d = strtod("2.5x", &end);
            if (*end != 'x') return -1;
            return (int)(d * 2);
        }"#,
        "parsed",
    );
    assert_eq!(report.tests.len(), 1, "{:?}", report.uncovered);
    assert_eq!(ret(&report.tests[0]), 5);
}

/// `gettext` hands back its argument when it has no translation: the
/// pointer it returns is the literal's or the global's own, equal to it.
/// Before, it pointed to a copy: the test expected 1 and the run gave 2,
/// and `t == m` was claimed infeasible.
#[test]
fn a_pointer_returned_into_a_literal_or_a_global_is_equal_to_it() {
    for (code, func) in [
        (
            r#"int translated(void) {
                const char *m = "hello";
                const char *t = gettext(m);
                return t != m ? 1 : 2;
            }"#,
            "translated",
        ),
        (
            r#"static char name[] = "world";
            int named(void) {
                return gettext(name) != name ? 1 : 2;
            }"#,
            "named",
        ),
    ] {
        let report = run_native(code, func);
        assert_eq!(report.tests.len(), 1, "{:?}", report.uncovered);
        assert_eq!(ret(&report.tests[0]), 2, "{func}");
        // Another locale may translate it: not a proof.
        let why = reasons(&report);
        assert!(
            matches!(why[..], [Uncovered::Budget(testcase::Bound::Environment)]),
            "{func}: {why:?}"
        );
    }
}

#[test]
fn static_storage_returned_is_a_new_read_only_string() {
    let report = run_native(
        r#"int message(int code) {
            const char *m;
            if (code != 2) return -1;
            m = strerror(code);
            if (m[0] == 'N' && strlen(m) == 25) return 1;
            return 0;
        }"#,
        "message",
    );
    let test = test_returning(&report, 1);
    assert_eq!(test.native_calls, vec![native("strerror", &[])]);
}

#[test]
fn a_function_that_acts_on_the_world_stops_the_path_with_its_reason() {
    let cases = [
        (
            "int f(void) { if (mblen(\"a\", 1) == 1) return 1; return 0; }",
            "no model of `mblen` from <stdlib.h>, and it does not run natively: it keeps state between calls",
        ),
        (
            "int f(long t) { if (localtime(&t) != 0) return 1; return 0; }",
            "no model of `localtime` from <time.h>, and it does not run natively: its result differs from run to run (time, randomness, ids)",
        ),
        (
            "int f(FILE *stream) { if (__fpending(stream)) return 1; return 0; }",
            "no model of `__fpending` from <stdio.h>, and it does not run natively: it takes a stream (`FILE *`)",
        ),
        (
            "int less(const void *a, const void *b) { return *(const int *)a - *(const int *)b; }\n\
             int f(int *v) { qsort(v, 2, sizeof *v, less); if (v[0] > v[1]) return 1; return 0; }",
            "no model of `qsort` from <stdlib.h>, and it does not run natively: it takes a function pointer (a callback into the code under test)",
        ),
    ];
    for (code, reason) in cases {
        let report = run_native(code, "f");
        assert!(report.tests.is_empty(), "{code}");
        assert!(!report.uncovered.is_empty());
        for why in reasons(&report) {
            assert_eq!(*why, Uncovered::Unsupported(reason.to_string()), "{code}");
        }
    }
}

#[test]
fn a_call_that_crashes_natively_is_refused_and_cairn_goes_on() {
    let report = run_native(
        r#"int f(void) {
            if (strspn((const char *)16, "a") == 1) return 1;
            return 0;
        }"#,
        "f",
    );
    assert!(report.tests.is_empty());
    for why in reasons(&report) {
        assert_eq!(
            *why,
            Uncovered::Unsupported(
                "no model of `strspn` from <string.h>, and it does not run natively: \
                 run natively, it was killed by SIGSEGV (segmentation fault)"
                    .to_string()
            )
        );
    }
    // Reading what was never written: the result depends on garbage.
    let report = run_native(
        r#"int g(void) {
            char text[4];
            text[0] = '1';
            text[3] = 0;
            if (strspn(text, "0123456789") == 1) return 1;
            return 0;
        }"#,
        "g",
    );
    assert!(report.tests.is_empty());
    for why in reasons(&report) {
        assert_eq!(
            *why,
            Uncovered::Unsupported(
                "no model of `strspn` from <string.h>, and it does not run natively: \
                 run natively, it reads memory never written"
                    .to_string()
            )
        );
    }
}
