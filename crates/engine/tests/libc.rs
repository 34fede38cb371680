//! The C library models against the C library itself: each test runs the
//! engine on a small function over a libc call, then calls glibc (linked in
//! every test binary) on each test's inputs and requires the value the
//! engine predicted.

mod common;

use common::*;
use std::ffi::{c_char, c_int, c_long, c_uint, c_ulong, CString};
use testcase::{FindingKind, TestCase, Uncovered, Value};

extern "C" {
    fn strtol(s: *const c_char, end: *mut *mut c_char, base: c_int) -> c_long;
    fn strtoul(s: *const c_char, end: *mut *mut c_char, base: c_int) -> c_ulong;
    fn atoi(s: *const c_char) -> c_int;
    fn snprintf(buf: *mut c_char, n: usize, format: *const c_char, ...) -> c_int;
    fn sscanf(s: *const c_char, format: *const c_char, ...) -> c_int;
    fn strcmp(a: *const c_char, b: *const c_char) -> c_int;
    fn strncmp(a: *const c_char, b: *const c_char, n: usize) -> c_int;
    fn strcasecmp(a: *const c_char, b: *const c_char) -> c_int;
    fn strncasecmp(a: *const c_char, b: *const c_char, n: usize) -> c_int;
    fn strstr(haystack: *const c_char, needle: *const c_char) -> *mut c_char;
    fn strrchr(s: *const c_char, c: c_int) -> *mut c_char;
    fn strnlen(s: *const c_char, n: usize) -> usize;
    fn strcpy(d: *mut c_char, s: *const c_char) -> *mut c_char;
    fn strcat(d: *mut c_char, s: *const c_char) -> *mut c_char;
    fn strncpy(d: *mut c_char, s: *const c_char, n: usize) -> *mut c_char;
    fn strncat(d: *mut c_char, s: *const c_char, n: usize) -> *mut c_char;
    fn __errno_location() -> *mut c_int;
    fn ispunct(c: c_int) -> c_int;
    fn isprint(c: c_int) -> c_int;
    fn isgraph(c: c_int) -> c_int;
    fn iscntrl(c: c_int) -> c_int;
    fn isblank(c: c_int) -> c_int;
    fn tolower(c: c_int) -> c_int;
}

/// Where `p`, found by a search in `s`, points in it; -1 for NULL.
fn position(p: *const c_char, s: &CString) -> i128 {
    if p.is_null() {
        return -1;
    }
    // SAFETY: a search result points into the string searched.
    unsafe { p.offset_from(s.as_ptr()) as i128 }
}

/// The same hash the C sources compute over a buffer: `h = h * 31 + byte`.
fn hash(start: u32, bytes: &[u8]) -> u32 {
    bytes.iter().fold(start, |h, b| {
        h.wrapping_mul(31).wrapping_add(*b as i8 as i32 as u32)
    })
}

fn long_strings() -> engine::EngineConfig {
    engine::EngineConfig {
        max_array: 24,
        max_time: std::time::Duration::from_secs(40),
        ..config()
    }
}

const STRTOL: &str = r#"
long strtol(const char *s, char **end, int base);
unsigned long strtoul(const char *s, char **end, int base);
int atoi(const char *s);
int *__errno_location(void);
static int base_of(int choice) {
    return choice == 0 ? 0 : choice == 1 ? 16 : choice == 2 ? 8 : 10;
}
long value(const char *s, int choice) {
    long v = strtol(s, 0, base_of(choice));
    if (v > 100) return v;
    if (v < -100) return v;
    if (v == 0) return v;
    return v;
}
long used(const char *s, int choice) {
    char *end;
    strtol(s, &end, base_of(choice));
    if (end == s) return -1;
    if (end - s > 3) return end - s;
    return end - s;
}
int range_error(const char *s, int choice) {
    *__errno_location() = 0;
    long v = strtol(s, 0, base_of(choice));
    if (*__errno_location() == 34) return v < 0 ? -1 : 1;
    return 0;
}
unsigned long unsigned_value(const char *s) {
    unsigned long v = strtoul(s, 0, 10);
    if (v > 1000) return v;
    return v;
}
int to_int(const char *s) {
    int v = atoi(s);
    if (v < 0) return v;
    if (v > 99) return v;
    return v;
}
"#;

/// glibc's strtol on the test's string, in the base `choice` selects.
fn glibc_strtol(t: &TestCase) -> (c_long, isize, c_int) {
    let s = string_arg(t, 0);
    let base = match arg(t, 1) {
        0 => 0,
        1 => 16,
        2 => 8,
        _ => 10,
    };
    let mut end = std::ptr::null_mut();
    // SAFETY: `s` is a NUL-terminated string and `end` a valid pointer.
    unsafe {
        *__errno_location() = 0;
        let v = strtol(s.as_ptr(), &mut end, base);
        (v, end.offset_from(s.as_ptr()), *__errno_location())
    }
}

#[test]
fn strtol_value_and_end_are_glibc_s_in_every_base() {
    for (function, pick) in [("value", 0), ("used", 1)] {
        let (_, report) = run(STRTOL, function);
        assert_all_covered(&report);
        for t in &report.tests {
            let (v, used, _) = glibc_strtol(t);
            let expected = if pick == 0 {
                i128::from(v)
            } else if used == 0 {
                -1
            } else {
                used as i128
            };
            assert_eq!(
                ret(t),
                expected,
                "{function}({:?}, {})",
                string_arg(t, 0),
                arg(t, 1)
            );
        }
    }
}

#[test]
fn strtol_clamps_and_sets_erange_like_glibc() {
    let (_, report) = run_with(STRTOL, "range_error", &long_strings());
    assert_all_covered(&report);
    for t in &report.tests {
        let (v, _, errno) = glibc_strtol(t);
        let expected = match (errno, v < 0) {
            (34, true) => -1,
            (34, false) => 1,
            _ => 0,
        };
        assert_eq!(ret(t), expected, "strtol({:?})", string_arg(t, 0));
    }
}

#[test]
fn strtoul_and_atoi_are_glibc_s() {
    let (_, report) = run(STRTOL, "unsigned_value");
    assert_all_covered(&report);
    for t in &report.tests {
        let s = string_arg(t, 0);
        // SAFETY: a NUL-terminated string.
        let v = unsafe { strtoul(s.as_ptr(), std::ptr::null_mut(), 10) };
        assert_eq!(ret(t) as u64, v, "strtoul({s:?})");
    }
    let (_, report) = run(STRTOL, "to_int");
    assert_all_covered(&report);
    for t in &report.tests {
        let s = string_arg(t, 0);
        // SAFETY: a NUL-terminated string.
        let v = unsafe { atoi(s.as_ptr()) };
        assert_eq!(ret(t), i128::from(v), "atoi({s:?})");
    }
}

#[test]
fn snprintf_writes_and_returns_what_glibc_does() {
    let src = r#"
typedef unsigned long size_t;
int snprintf(char *buf, size_t n, const char *format, ...);
unsigned format(int x, unsigned u, char c) {
    char b[40] = {0};
    int n = snprintf(b, sizeof b, "%5d|%-4u|%x|%c|%+03d%%", x, u, u, c, x);
    unsigned h = (unsigned)n;
    for (int i = 0; i < 40; i++) h = h * 31 + b[i];
    if (x < 0) return h;
    if (u > 100000) return h;
    return h;
}
unsigned truncated(int x) {
    char b[6] = {0};
    int n = snprintf(b, sizeof b, "%d", x);
    unsigned h = (unsigned)n;
    for (int i = 0; i < 6; i++) h = h * 31 + b[i];
    if (n > 5) return h;
    return h;
}
"#;
    // About 10 s of search on a loaded machine: a budget to spare.
    let patient = engine::EngineConfig {
        max_time: std::time::Duration::from_secs(60),
        ..config()
    };
    let (_, report) = run_with(src, "format", &patient);
    assert_all_covered(&report);
    for t in &report.tests {
        let (x, u, c) = (arg(t, 0) as c_int, arg(t, 1) as c_uint, arg(t, 2) as c_int);
        let mut b = [0u8; 40];
        let format = c"%5d|%-4u|%x|%c|%+03d%%";
        // SAFETY: the buffer holds 40 bytes; the arguments match the format.
        let n = unsafe { snprintf(b.as_mut_ptr().cast(), 40, format.as_ptr(), x, u, u, c, x) };
        assert_eq!(ret(t) as u32, hash(n as u32, &b), "x {x} u {u} c {c}");
    }
    let (_, report) = run(src, "truncated");
    assert_all_covered(&report);
    for t in &report.tests {
        let x = arg(t, 0) as c_int;
        let mut b = [0u8; 6];
        // SAFETY: the buffer holds 6 bytes.
        let n = unsafe { snprintf(b.as_mut_ptr().cast(), 6, c"%d".as_ptr(), x) };
        assert_eq!(ret(t) as u32, hash(n as u32, &b), "x {x}");
    }
}

#[test]
fn sscanf_counts_and_assigns_as_glibc_does() {
    let src = r#"
int sscanf(const char *s, const char *format, ...);
unsigned scan(const char *s) {
    int a = -1;
    unsigned x = 7;
    char w[5] = {0};
    int n = sscanf(s, "%d %3s %x", &a, w, &x);
    unsigned h = (unsigned)n * 31 + (unsigned)a;
    h = h * 31 + x;
    for (int i = 0; i < 5; i++) h = h * 31 + w[i];
    if (n == 3) return h;
    if (n == 2) return h;
    if (n == 1) return h;
    if (n == 0) return h;
    return h;
}
unsigned pair(const char *s) {
    char key[6] = {0};
    int v = -1;
    int n = sscanf(s, "%5[^=]=%d", key, &v);
    unsigned h = (unsigned)n * 31 + (unsigned)v;
    for (int i = 0; i < 6; i++) h = h * 31 + key[i];
    if (n == 2) return h;
    if (n == 1) return h;
    return h;
}
"#;
    let (_, report) = run(src, "pair");
    assert_all_covered(&report);
    for t in &report.tests {
        let s = string_arg(t, 0);
        let (mut key, mut v) = ([0u8; 6], -1 as c_int);
        // SAFETY: `%5[^=]` writes at most 6 bytes; `%d` an int.
        let n = unsafe {
            sscanf(
                s.as_ptr(),
                c"%5[^=]=%d".as_ptr(),
                key.as_mut_ptr(),
                &mut v as *mut c_int,
            )
        };
        let h = (n as u32).wrapping_mul(31).wrapping_add(v as u32);
        assert_eq!(ret(t) as u32, hash(h, &key), "sscanf({s:?})");
    }
    let (_, report) = run(src, "scan");
    assert_all_covered(&report);
    for t in &report.tests {
        let s = string_arg(t, 0);
        let (mut a, mut x, mut w) = (-1 as c_int, 7 as c_uint, [0u8; 5]);
        // SAFETY: the targets match the conversions; `%3s` writes at most 4 bytes.
        let n = unsafe {
            sscanf(
                s.as_ptr(),
                c"%d %3s %x".as_ptr(),
                &mut a as *mut c_int,
                w.as_mut_ptr(),
                &mut x as *mut c_uint,
            )
        };
        let h = (n as u32)
            .wrapping_mul(31)
            .wrapping_add(a as u32)
            .wrapping_mul(31)
            .wrapping_add(x);
        assert_eq!(ret(t) as u32, hash(h, &w), "sscanf({s:?})");
    }
}

#[test]
fn string_searches_and_comparisons_are_glibc_s() {
    let src = r#"
typedef unsigned long size_t;
char *strstr(const char *h, const char *n);
char *strrchr(const char *s, int c);
int strcasecmp(const char *a, const char *b);
int strncasecmp(const char *a, const char *b, size_t n);
size_t strnlen(const char *s, size_t n);
long find(const char *h, const char *n) {
    const char *p = strstr(h, n);
    if (p == 0) return -1;
    if (p == h) return 0;
    return p - h;
}
long last(const char *s, int c) {
    const char *p = strrchr(s, c);
    if (p == 0) return -1;
    if (*p == 0) return 100;
    return p - s;
}
int compare(const char *a, const char *b) {
    int r = strcasecmp(a, b) * 1000 + strncasecmp(a, b, 3);
    if (r > 0) return r;
    if (r < 0) return r;
    return r;
}
long length(const char *s, size_t n) {
    size_t k = strnlen(s, n);
    if (k == n) return -1;
    return (long)k;
}
"#;
    let (_, report) = run(src, "find");
    assert_all_covered(&report);
    for t in &report.tests {
        let (h, n) = (string_arg(t, 0), string_arg(t, 1));
        // SAFETY: NUL-terminated strings.
        let p = unsafe { strstr(h.as_ptr(), n.as_ptr()) };
        assert_eq!(ret(t), position(p, &h), "strstr({h:?}, {n:?})");
    }
    let (_, report) = run(src, "last");
    assert_all_covered(&report);
    for t in &report.tests {
        let (s, c) = (string_arg(t, 0), arg(t, 1) as c_int);
        // SAFETY: a NUL-terminated string.
        let p = unsafe { strrchr(s.as_ptr(), c) };
        let expected = match position(p, &s) {
            at if at >= 0 && c as u8 == 0 => 100,
            at => at,
        };
        assert_eq!(ret(t), expected, "strrchr({s:?}, {c})");
    }
    let (_, report) = run(src, "compare");
    assert_all_covered(&report);
    for t in &report.tests {
        let (a, b) = (string_arg(t, 0), string_arg(t, 1));
        // SAFETY: NUL-terminated strings.
        let r = unsafe {
            strcasecmp(a.as_ptr(), b.as_ptr()) * 1000 + strncasecmp(a.as_ptr(), b.as_ptr(), 3)
        };
        assert_eq!(ret(t), i128::from(r), "strcasecmp({a:?}, {b:?})");
    }
    let (_, report) = run(src, "length");
    assert_all_covered(&report);
    for t in &report.tests {
        let (s, n) = (string_arg(t, 0), arg(t, 1) as usize);
        // SAFETY: a NUL-terminated string.
        let k = unsafe { strnlen(s.as_ptr(), n) };
        let expected = if k == n { -1 } else { k as i128 };
        assert_eq!(ret(t), expected, "strnlen({s:?}, {n})");
    }
}

/// A keyword longer than `max_array` (8 by default): the input string has
/// room for the longest literal the code compares strings with, so the
/// test that equals it exists.
#[test]
fn an_input_string_holds_the_literal_it_is_compared_with() {
    let src = r#"
typedef unsigned long size_t;
int strcmp(const char *a, const char *b);
int strncmp(const char *a, const char *b, size_t n);
int keyword(const char *word) {
    if (strcmp(word, "nameserver") == 0) return 1;
    if (strncmp(word, "search-domain", 13) == 0) return 2;
    return 0;
}
"#;
    let (_, report) = run(src, "keyword");
    assert_all_covered(&report);
    let words: Vec<CString> = report.tests.iter().map(|t| string_arg(t, 0)).collect();
    assert!(
        words.iter().any(|w| w.as_bytes() == b"nameserver"),
        "{words:?}"
    );
    assert!(
        words
            .iter()
            .any(|w| w.as_bytes().starts_with(b"search-domain")),
        "{words:?}"
    );
    for t in &report.tests {
        let w = string_arg(t, 0);
        // SAFETY: NUL-terminated strings.
        let expected = unsafe {
            if strcmp(w.as_ptr(), c"nameserver".as_ptr()) == 0 {
                1
            } else if strncmp(w.as_ptr(), c"search-domain".as_ptr(), 13) == 0 {
                2
            } else {
                0
            }
        };
        assert_eq!(ret(t), expected, "{w:?}");
    }
}

#[test]
fn string_copies_write_what_glibc_writes() {
    let src = r#"
typedef unsigned long size_t;
char *strcpy(char *d, const char *s);
char *strcat(char *d, const char *s);
char *strncpy(char *d, const char *s, size_t n);
char *strncat(char *d, const char *s, size_t n);
void *memset(void *d, int c, size_t n);
unsigned copies(const char *a, const char *b) {
    char x[20], y[8], z[12] = "ab";
    memset(x, 'x', sizeof x);
    memset(y, 'y', sizeof y);
    strcpy(x, a);
    strcat(x, b);
    strncpy(y, b, 5);
    strncat(z, a, 2);
    strncat(z, b, 3);
    unsigned h = 0;
    for (int i = 0; i < 20; i++) h = h * 31 + x[i];
    for (int i = 0; i < 8; i++) h = h * 31 + y[i];
    for (int i = 0; i < 12; i++) h = h * 31 + z[i];
    if (a[0] == 0) return h;
    if (b[0] == 'q') return h;
    return h;
}
"#;
    let (_, report) = run(src, "copies");
    assert_all_covered(&report);
    for t in &report.tests {
        let (a, b) = (string_arg(t, 0), string_arg(t, 1));
        let (mut x, mut y, mut z) = ([b'x'; 20], [b'y'; 8], [0u8; 12]);
        z[..2].copy_from_slice(b"ab");
        // SAFETY: the buffers hold what the engine found the C code writes
        // (a and b have at most 7 characters each).
        unsafe {
            strcpy(x.as_mut_ptr().cast(), a.as_ptr());
            strcat(x.as_mut_ptr().cast(), b.as_ptr());
            strncpy(y.as_mut_ptr().cast(), b.as_ptr(), 5);
            strncat(z.as_mut_ptr().cast(), a.as_ptr(), 2);
            strncat(z.as_mut_ptr().cast(), b.as_ptr(), 3);
        }
        let h = hash(hash(hash(0, &x), &y), &z);
        assert_eq!(ret(t) as u32, h, "a {a:?} b {b:?}");
    }
}

#[test]
fn ctype_classes_and_case_match_glibc_s_c_locale() {
    let src = r#"
int ispunct(int c); int isprint(int c); int isgraph(int c);
int iscntrl(int c); int isblank(int c); int tolower(int c);
int classes(int c) {
    if (c < -128 || c > 255) return 0;
    int r = 0;
    if (ispunct(c)) r += 1;
    if (isprint(c)) r += 2;
    if (isgraph(c)) r += 4;
    if (iscntrl(c)) r += 8;
    if (isblank(c)) r += 16;
    return r * 1000 + tolower(c);
}
"#;
    let (_, report) = run(src, "classes");
    assert_all_covered(&report);
    for t in &report.tests {
        let c = arg(t, 0) as c_int;
        if !(-128..=255).contains(&c) {
            continue;
        }
        // SAFETY: `c` is in the range the classification functions accept.
        let expected = unsafe {
            let r = i32::from(ispunct(c) != 0)
                + 2 * i32::from(isprint(c) != 0)
                + 4 * i32::from(isgraph(c) != 0)
                + 8 * i32::from(iscntrl(c) != 0)
                + 16 * i32::from(isblank(c) != 0);
            r * 1000 + tolower(c)
        };
        assert_eq!(ret(t), i128::from(expected), "c = {c}");
    }
}

#[test]
fn errno_is_one_object_per_path() {
    let src = r#"
int *__errno_location(void);
long strtol(const char *s, char **end, int base);
int f(const char *s) {
    int *e = __errno_location();
    *e = 5;
    if (*__errno_location() != 5) return -1;
    *e = 0;
    strtol(s, 0, 10);
    return *e;
}
"#;
    let (_, report) = run(src, "f");
    assert!(
        report
            .uncovered
            .iter()
            .all(|(_, why)| *why == Uncovered::Infeasible),
        "{:?}",
        report.uncovered
    );
    assert!(
        report.tests.iter().all(|t| ret(t) == 0),
        "no overflow in 7 characters"
    );
}

#[test]
fn scans_limited_to_a_whole_object_stop_at_its_end() {
    let src = r#"
int memcmp(const void *a, const void *b, unsigned long n);
unsigned long strnlen(const char *s, unsigned long n);
void *memchr(const void *s, int c, unsigned long n);
int f(int a, int b, char c) {
    char word[4] = {'a', 'b', 'c', 'd'};
    int r = (int)strnlen(word, sizeof word) * 10;
    if (memchr(word, c, sizeof word) != 0)
        r += 2;
    if (memcmp(&a, &b, sizeof a) == 0)
        r += 1;
    return r;
}
"#;
    let (_, report) = run(src, "f");
    assert!(report.findings.is_empty(), "{:?}", report.findings);
    assert_all_covered(&report);
    for t in &report.tests {
        let found = b"abcd".contains(&(arg(t, 2) as u8));
        let expected = 40 + 2 * i128::from(found) + i128::from(arg(t, 0) == arg(t, 1));
        assert_eq!(ret(t), expected, "{:?}", t.inputs);
    }
}

/// memcmp may read all `n` bytes of both blocks before it compares
/// (AddressSanitizer says so of `memcmp(p, q, -9)`): a difference in the
/// first byte does not make a longer `n` safe. libsoup's `find_boundary`
/// got tests with a negative length that failed under the sanitizers.
#[test]
fn memcmp_reads_all_it_is_given() {
    let src = r#"
int memcmp(const void *a, const void *b, unsigned long n);
int f(int n) {
    char word[4] = {'a', 'b', 'c', 'd'};
    char other[4] = {'x', 'b', 'c', 'd'};
    if (memcmp(word, other, n) == 0)
        return 1;
    return 0;
}
"#;
    let (_, report) = run(src, "f");
    assert_out_of_bounds(&report);
    for t in &report.tests {
        let n = arg(t, 0);
        assert!((0..=4).contains(&n), "memcmp of {n} bytes of 4");
        assert_eq!(ret(t), i128::from(n == 0), "{:?}", t.inputs);
    }
}

fn assert_out_of_bounds(report: &testcase::FunctionReport) {
    let kinds: Vec<FindingKind> = report.findings.iter().map(|f| f.kind).collect();
    assert!(kinds.contains(&FindingKind::OutOfBounds), "{kinds:?}");
}

#[test]
fn copying_past_a_buffer_is_a_finding() {
    let src = r#"
char *strcpy(char *d, const char *s);
int f(const char *s) {
    char small[4];
    strcpy(small, s);
    return small[0];
}
"#;
    let (_, report) = run(src, "f");
    assert_out_of_bounds(&report);
}

#[test]
fn an_unmodelled_system_function_stops_the_path_with_its_name() {
    let src = r#"
# 1 "test.c"
# 1 "/usr/include/stdlib.h" 1
long mrand48(void);
# 3 "test.c" 2
int f(void) {
    if (mrand48() == 3) return 1;
    return 0;
}
int helper(void);
int g(void) {
    if (helper() == 3) return 1;
    return 0;
}
"#;
    let (_, report) = run(src, "f");
    assert!(report.tests.is_empty());
    for (_, why) in &report.uncovered {
        assert_eq!(
            *why,
            Uncovered::Unsupported(
                "no model of `mrand48` from <stdlib.h>, and it does not run natively: it keeps state between calls".into()
            )
        );
    }
    let (_, report) = run(src, "g");
    assert_all_covered(&report);
}

#[test]
fn a_symbolic_base_is_concretised_by_name() {
    let src = r#"
long strtol(const char *s, char **end, int base);
int fixed(const char *s, int base) {
    if (base != 10 && base != 16) return 0;
    long v = strtol(s, 0, base);
    if (base == 16 && v == 255) return 2;
    if (base == 10 && v == 255) return 1;
    return 3;
}
int free_base(const char *s, int base) {
    long v = strtol(s, 0, base);
    if (base == 36 && v == 35) return 2;
    return 3;
}
"#;
    // A base the path fixed already is no concretisation.
    let (_, report) = run(src, "fixed");
    assert_all_covered(&report);
    let (_, report) = run(src, "free_base");
    let concretised = Uncovered::Budget(testcase::Bound::Concretised);
    assert!(!report.uncovered.is_empty());
    assert!(
        report.uncovered.iter().all(|(_, why)| *why == concretised),
        "{:?}",
        report.uncovered
    );
}

#[test]
fn copies_between_overlapping_bytes_are_findings_only_in_the_function_s_own_objects() {
    let src = r#"
void *memcpy(void *d, const void *s, unsigned long n);
int copy_prefix(char *dst, const char *src, unsigned long n) {
    if (n > 3)
        return -1;
    memcpy(dst, src, n);
    return n == 0 ? 0 : dst[0];
}
int slide(int k) {
    char buf[8] = "abcdefg";
    if (k < 0 || k > 4)
        return -1;
    memcpy(buf, buf + k, 4);
    return buf[0];
}
"#;
    let (_, report) = run(src, "copy_prefix");
    assert!(report.findings.is_empty(), "{:?}", report.findings);
    assert_all_covered(&report);
    for t in &report.tests {
        let (Value::Pointer { object: d, .. }, Value::Pointer { object: s, .. }) =
            (&t.inputs.args[0], &t.inputs.args[1])
        else {
            continue;
        };
        assert!(d != s || arg(t, 2) == 0, "{t:#?}");
    }
    let (_, report) = run(src, "slide");
    let overlaps: Vec<_> = report
        .findings
        .iter()
        .filter(|f| f.kind == FindingKind::OverlappingCopy)
        .collect();
    assert_eq!(overlaps.len(), 1, "{:?}", report.findings);
}

#[test]
fn unsigned_inputs_are_small_rather_than_wrapped_around() {
    let src = r#"
int fits(unsigned long len, unsigned long add, unsigned long cap) {
    if (len + add >= cap)
        return -1;
    return 0;
}
"#;
    let (_, report) = run(src, "fits");
    let fitting = test_returning(&report, 0);
    assert!((1..=100).contains(&arg(fitting, 2)), "{fitting:#?}");
}

/// `strtol` overflows only on more digits than a `max_array` of 2 holds,
/// even when the search runs again with strings eight times as long: the
/// overflow arm is cut by that bound, never claimed infeasible, and a
/// larger bound reaches it.
#[test]
fn an_overflow_needing_a_longer_string_is_cut_not_infeasible() {
    let src = r#"
int *__errno_location(void);
long strtol(const char *s, char **end, int base);
int parse(const char *s) {
    *__errno_location() = 0;
    long v = strtol(s, 0, 10);
    if (*__errno_location() == 34)
        return -1;
    return v > 100;
}
"#;
    let short = engine::EngineConfig {
        max_array: 2,
        ..config()
    };
    let (program, report) = run_with(src, "parse", &short);
    let reasons: Vec<String> = report
        .uncovered
        .iter()
        .map(|(goal, why)| format!("{}: {why:?}", ir::goal_key(&program, *goal)))
        .collect();
    assert_eq!(reasons.len(), 1, "{reasons:?}");
    assert!(
        matches!(&report.uncovered[0].1, Uncovered::Budget(bound) if *bound == testcase::Bound::MaxArray),
        "{reasons:?}"
    );
    let longer = engine::EngineConfig {
        max_array: 24,
        ..config()
    };
    let (_, report) = run_with(src, "parse", &longer);
    assert!(
        report.tests.iter().any(|t| ret(t) == -1),
        "an overflowing string"
    );
}

#[test]
fn a_comparison_returns_what_every_c_library_returns() {
    // glibc's strcmp returns the bytes' difference, AddressSanitizer's 1
    // or -1: a test expecting 8 fails under the sanitizers.
    let src = r#"
int strcmp(const char *a, const char *b);
int order(const char *a, const char *b)
{
    if (a[0] != 'x')
        return 2;
    int r = strcmp(a, b);
    if (r < 0)
        return r;
    if (r > 0)
        return r;
    return 0;
}
"#;
    let (_, report) = run(src, "order");
    assert_all_covered(&report);
    for t in &report.tests {
        let (a, b) = (string_arg(t, 0), string_arg(t, 1));
        if ret(t) == 2 {
            continue;
        }
        assert!((-1..=1).contains(&ret(t)), "strcmp({a:?}, {b:?}): {t:?}");
        // SAFETY: two NUL-terminated strings.
        let glibc = unsafe { strcmp(a.as_ptr(), b.as_ptr()) };
        assert_eq!(ret(t), i128::from(glibc), "strcmp({a:?}, {b:?})");
    }
}

/// A copy of a string's length to a place the input chooses in a 4 KiB
/// block: symbolically each byte written is a case over the whole block
/// (a library's file list built this way took 14 GB). A candidate's run
/// copies at its own place, and the symbolic search says what it left.
#[test]
fn a_copy_to_a_chosen_place_in_a_large_block_is_tested() {
    let src = r#"
typedef unsigned long size_t;
char *strcpy(char *, const char *);
void *calloc(size_t, size_t);
int place_name(const char *name, unsigned at) {
    char *block = calloc(4096, 1);
    if (block == 0) return -1;
    if (at > 4000) return -2;
    strcpy(block + at, name);
    return block[at] == 'x';
}
"#;
    let (_, report) = run(src, "place_name");
    let copied = test_returning(&report, 1);
    assert_eq!(string_arg(copied, 0).as_bytes().first(), Some(&b'x'));
    assert!(arg(copied, 1) <= 4000);
    test_returning(&report, 0);
    for (_, why) in &report.uncovered {
        assert!(
            !matches!(why, Uncovered::Infeasible),
            "{:?}",
            report.uncovered
        );
    }
}
