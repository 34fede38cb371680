//! End-to-end: old-style (K&R) definitions through the real binary, on a
//! small run-length coder written the way 1990s compression code was
//! (`register` locals, `unsigned char` buffers, a `float` and a `char`
//! parameter, a parameter declared nowhere, a function declared `f()` and
//! defined elsewhere). Without a prototype gcc's callee receives its
//! parameters promoted: the driver calls each such function through a
//! pointer to the types it receives, every test passes and gcov measures
//! every branch cairn claims, under LP64 and ILP32.

mod common;

use common::gen_checked_with;

const SOURCE: &str = r#"/* A tiny run-length coder written the way 1990s compression code was:
 * old-style definitions, register locals, unsigned char buffers. */

typedef unsigned char uch;
typedef unsigned long ulg;

#define ESC 0xf5
#define MAX_RUN 255

/* How many bytes from buf[0] on repeat it, at most max. */
int run_length(buf, len, max)
    uch *buf;
    unsigned len;
    int max;
{
    register unsigned n;

    if (len == 0)
        return 0;
    for (n = 1; n < len && (int)n < max; n++)
        if (buf[n] != buf[0])
            break;
    return (int)n;
}

/* Writes one run of `count` bytes `c`; returns the bytes written. */
static int put_run(out, c, count)
    uch *out;
    char c;
    int count;
{
    register uch *p = out;

    if (count > 3 || (uch)c == ESC) {
        *p++ = ESC;
        *p++ = (uch)count;
        *p++ = (uch)c;
    } else {
        while (count-- > 0)
            *p++ = (uch)c;
    }
    return (int)(p - out);
}

/* Adler-style checksum of len bytes; `sum` carries an earlier one. */
ulg checksum(sum, buf, len)
    ulg sum;
    register uch *buf;
    unsigned len;
{
    register ulg a = sum & 0xffff, b = (sum >> 16) & 0xffff;

    while (len-- > 0) {
        a = (a + *buf++) % 65521;
        b = (b + a) % 65521;
    }
    return (b << 16) | a;
}

/* The packing level for a measured ratio; mode 'f' asks for speed. */
int pack_level(ratio, mode)
    float ratio;
    char mode;
{
    if (mode == 'f')
        return ratio > 0.75f ? 1 : 2;
    if (ratio < 0.25f)
        return 9;
    return 6;
}

/* Bits needed for v, at most limit (declared nowhere: an int). */
int bits_for(v, limit)
    unsigned v;
{
    if (v == 0 || limit <= 0)
        return 0;
    return 1 + bits_for(v >> 1, limit - 1);
}

int put_byte();   /* the output stream, defined elsewhere */

/* Writes a run through put_byte; -1 at its first failure. */
int flush_run(c, count)
    char c;
    int count;
{
    while (count-- > 0)
        if (put_byte(c) < 0)
            return -1;
    return 0;
}

/* Encodes up to len bytes of in into out (3 bytes a run at most). */
int squeeze(out, in, len)
    uch *out, *in;
    unsigned len;
{
    register unsigned done = 0;
    register int written = 0;

    while (done < len) {
        int run = run_length(in + done, len - done, MAX_RUN);
        written += put_run(out + written, in[done], run);
        done += run;
    }
    return written;
}
"#;

/// The report row of `function` in `stdout`.
fn row<'s>(stdout: &'s str, function: &str) -> &'s str {
    stdout
        .lines()
        .find(|l| l.split_whitespace().next() == Some(function))
        .unwrap_or_else(|| panic!("no row for {function}:\n{stdout}"))
}

/// Whether every function but `except` has tests in `gen`'s report.
fn all_tested(stdout: &str, except: &str) -> bool {
    let functions = [
        "run_length",
        "put_run",
        "checksum",
        "pack_level",
        "bits_for",
        "squeeze",
    ];
    functions.iter().filter(|f| **f != except).all(|f| {
        let tests = row(stdout, f).split_whitespace().nth(1);
        tests
            .and_then(|n| n.parse::<u32>().ok())
            .is_some_and(|n| n > 0)
    })
}

#[test]
fn old_style_definitions_are_tested_and_measured() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (stdout, stderr, out_dir) = gen_checked_with(dir.path(), "squeeze.c", SOURCE, &[]);
    assert!(!stderr.contains("unsupported"), "{stderr}");
    assert!(all_tested(&stdout, ""), "{stdout}");
    // The `float` arrives as a `double` and the `char` as an `int`.
    assert!(row(&stdout, "pack_level").contains("6/6"), "{stdout}");
    let driver = std::fs::read_to_string(out_dir.join("squeeze_test.c")).expect("driver");
    for callee in [
        "((int (*)(double, int))pack_level)(",
        "((int (*)(unsigned char *, int, int))put_run)(",
        "((unsigned long (*)(unsigned long, unsigned char *, unsigned int))checksum)(",
        // Declared `put_byte()`: its stub takes what its call passes.
        "static int cairn_stub_put_byte(int arg1)",
    ] {
        assert!(driver.contains(callee), "{callee} in:\n{driver}");
    }
}

#[test]
fn old_style_definitions_under_ilp32() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (stdout, stderr, _) =
        gen_checked_with(dir.path(), "squeeze.c", SOURCE, &["--data-model", "ilp32"]);
    // Only the function computing in floating point, which ILP32 lacks.
    let unsupported: Vec<&str> = stderr
        .lines()
        .filter(|l| l.contains("unsupported"))
        .collect();
    assert!(
        unsupported.iter().all(|l| l.contains("floating point")),
        "{stderr}"
    );
    assert!(all_tested(&stdout, "pack_level"), "{stdout}");
}
