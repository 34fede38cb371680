//! `FILE *` inputs against glibc: each test runs the engine on a small
//! function over stream calls, then makes the stream the driver would
//! (`fmemopen` over the contents, or an unbuffered `fopencookie` sink that
//! takes at most the test's room), repeats the function's calls on it with
//! glibc, and requires what the engine predicted: the result, the bytes
//! written, the flags and how far it read.

mod common;

use common::*;
use std::ffi::{c_char, c_int, c_long, c_void, CStr};
use testcase::{FindingKind, InputStream, StreamAfter, StreamMode, TestCase, Uncovered, Value};

#[repr(C)]
struct File {
    _private: [u8; 0],
}

/// glibc's `cookie_io_functions_t`.
#[repr(C)]
struct CookieFunctions {
    read: *const c_void,
    write: extern "C" fn(*mut c_void, *const c_char, usize) -> isize,
    seek: *const c_void,
    close: *const c_void,
}

extern "C" {
    fn fmemopen(buf: *mut c_void, size: usize, mode: *const c_char) -> *mut File;
    fn fopencookie(cookie: *mut c_void, mode: *const c_char, io: CookieFunctions) -> *mut File;
    fn setvbuf(f: *mut File, buf: *mut c_char, mode: c_int, size: usize) -> c_int;
    fn fclose(f: *mut File) -> c_int;
    fn feof(f: *mut File) -> c_int;
    fn ferror(f: *mut File) -> c_int;
    fn ftell(f: *mut File) -> c_long;
    fn fgetc(f: *mut File) -> c_int;
    fn ungetc(c: c_int, f: *mut File) -> c_int;
    fn fgets(s: *mut c_char, n: c_int, f: *mut File) -> *mut c_char;
    fn fread(p: *mut c_void, size: usize, n: usize, f: *mut File) -> usize;
    fn getline(line: *mut *mut c_char, n: *mut usize, f: *mut File) -> isize;
    fn fputc(c: c_int, f: *mut File) -> c_int;
    fn fputs(s: *const c_char, f: *mut File) -> c_int;
    fn fprintf(f: *mut File, format: *const c_char, ...) -> c_int;
    fn fscanf(f: *mut File, format: *const c_char, ...) -> c_int;
    fn fwrite(p: *const c_void, size: usize, n: usize, f: *mut File) -> usize;
    fn free(p: *mut c_void);
    fn __errno_location() -> *mut c_int;
}

const EOF: c_int = -1;
const UNBUFFERED: c_int = 2;

/// The declarations the sources need (they are compiled unpreprocessed).
const STDIO: &str = r#"
typedef unsigned long size_t;
typedef long ssize_t;
typedef struct _IO_FILE FILE;
int fgetc(FILE *f);
int getc(FILE *f);
int ungetc(int c, FILE *f);
char *fgets(char *s, int n, FILE *f);
size_t fread(void *p, size_t size, size_t n, FILE *f);
ssize_t getline(char **line, size_t *n, FILE *f);
int fputc(int c, FILE *f);
int fputs(const char *s, FILE *f);
int fprintf(FILE *f, const char *format, ...);
int fscanf(FILE *f, const char *format, ...);
size_t fwrite(const void *p, size_t size, size_t n, FILE *f);
int fclose(FILE *f);
int feof(FILE *f);
int ferror(FILE *f);
int fseek(FILE *f, long offset, int whence);
void free(void *p);
extern FILE *stdout;
"#;

fn source(functions: &str) -> String {
    format!("{STDIO}{functions}")
}

/// The test's stream `i`.
fn stream(t: &TestCase, i: usize) -> &InputStream {
    &t.inputs.streams[i]
}

/// A stream over the contents of a stream read, as the driver opens it;
/// the contents live as long as the returned buffer.
fn open_read(s: &InputStream) -> (*mut File, Vec<u8>) {
    let StreamMode::Read { contents } = &s.mode else {
        panic!("not a stream read: {s:?}")
    };
    let mut bytes = contents.clone();
    bytes.push(0);
    // SAFETY: the buffer outlives the stream (closed before it is dropped).
    let f = unsafe { fmemopen(bytes.as_mut_ptr().cast(), contents.len(), c"r".as_ptr()) };
    assert!(!f.is_null());
    (f, bytes)
}

/// What the engine says a stream read is after the call, against glibc's stream.
fn assert_read_state(s: &InputStream, f: *mut File, what: &str) {
    let StreamAfter::Open { eof, position, .. } = &s.after else {
        panic!("{what}: closed")
    };
    // SAFETY: an open stream.
    unsafe {
        assert_eq!(feof(f) != 0, *eof, "{what}: end of file");
        if let Some(position) = position {
            assert_eq!(ftell(f) as u64, *position, "{what}: position");
        }
        fclose(f);
    }
}

/// The drivers' sink: keeps what it takes, takes at most `room` bytes.
struct Sink {
    bytes: Vec<u8>,
    room: usize,
}

extern "C" fn sink_write(cookie: *mut c_void, bytes: *const c_char, size: usize) -> isize {
    // SAFETY: the cookie is the `Sink` the stream was opened with, and
    // glibc passes `size` readable bytes.
    let sink = unsafe { &mut *cookie.cast::<Sink>() };
    if sink.room == 0 {
        // SAFETY: errno is this thread's.
        unsafe { *__errno_location() = 28 };
        return -1;
    }
    let taken = size.min(sink.room);
    sink.bytes
        .extend_from_slice(unsafe { std::slice::from_raw_parts(bytes.cast::<u8>(), taken) });
    sink.room -= taken;
    taken as isize
}

/// A sink stream with the room of the test's stream written.
fn open_sink(s: &InputStream) -> (*mut File, Box<Sink>) {
    let StreamMode::Write { room, .. } = &s.mode else {
        panic!("not a stream written: {s:?}")
    };
    let mut sink = Box::new(Sink {
        bytes: Vec::new(),
        room: room.map_or(usize::MAX, |r| r as usize),
    });
    let io = CookieFunctions {
        read: std::ptr::null(),
        write: sink_write,
        seek: std::ptr::null(),
        close: std::ptr::null(),
    };
    let cookie: *mut Sink = &mut *sink;
    // SAFETY: the sink outlives the stream (closed before it is dropped).
    let f = unsafe { fopencookie(cookie.cast(), c"w".as_ptr(), io) };
    assert!(!f.is_null());
    // SAFETY: a fresh stream, before any I/O.
    unsafe { setvbuf(f, std::ptr::null_mut(), UNBUFFERED, 0) };
    (f, sink)
}

/// What the engine says a stream written holds after the call, against the sink.
fn assert_written(s: &InputStream, f: *mut File, sink: &Sink, what: &str) {
    let StreamMode::Write { written, .. } = &s.mode else {
        panic!("{what}: not written")
    };
    assert_eq!(written.as_deref(), Some(&sink.bytes[..]), "{what}: bytes");
    if let StreamAfter::Open { error, .. } = &s.after {
        // SAFETY: an open stream.
        assert_eq!(unsafe { ferror(f) } != 0, *error, "{what}: error flag");
    }
    // SAFETY: an open stream.
    unsafe { fclose(f) };
}

#[test]
fn characters_read_are_glibc_s() {
    let src = source(
        r#"
int chars(FILE *in) {
    int a = fgetc(in);
    if (a == -1) return -1;
    int b = getc(in);
    if (b == -1) return 1;
    if (b == '\n') return 2;
    return 3;
}
int back(FILE *in, int c) {
    int a = fgetc(in);
    int u = ungetc(c, in);
    int b = fgetc(in);
    int d = fgetc(in);
    if (u == -1) return b == -1 ? -2 : -1;
    if (d == -1) return 2 * b + (a == -1);
    return 2 * b + 1000;
}
"#,
    );
    let (_, report) = run(&src, "chars");
    assert_all_covered(&report);
    for t in &report.tests {
        let (f, _contents) = open_read(stream(t, 0));
        // SAFETY: an open stream.
        let expected = unsafe {
            let a = fgetc(f);
            let b = if a == EOF { EOF } else { fgetc(f) };
            match (a, b) {
                (EOF, _) => -1,
                (_, EOF) => 1,
                (_, 10) => 2,
                _ => 3,
            }
        };
        assert_eq!(ret(t), expected, "{:?}", stream(t, 0));
        assert_read_state(stream(t, 0), f, "chars");
    }
    let (_, report) = run(&src, "back");
    assert_all_covered(&report);
    for t in &report.tests {
        let (f, _contents) = open_read(stream(t, 0));
        let c = arg(t, 1) as c_int;
        // SAFETY: an open stream.
        let expected = unsafe {
            let a = fgetc(f);
            let u = ungetc(c, f);
            let b = fgetc(f);
            let d = fgetc(f);
            i128::from(match u {
                EOF if b == EOF => -2,
                EOF => -1,
                _ if d == EOF => 2 * b + c_int::from(a == EOF),
                _ => 2 * b + 1000,
            })
        };
        assert_eq!(ret(t), expected, "c {c}, {:?}", stream(t, 0));
        assert_read_state(stream(t, 0), f, "back");
    }
}

#[test]
fn lines_and_blocks_read_are_glibc_s() {
    let src = source(
        r#"
int line(FILE *in) {
    char buf[8];
    char *r = fgets(buf, 5, in);
    if (!r) return -1;
    int len = 0;
    while (buf[len]) len++;
    if (len > 0 && buf[len - 1] == '\n') return 100 + len;
    return len;
}
long block(FILE *in) {
    unsigned char buf[8];
    size_t got = fread(buf, 2, 3, in);
    if (got == 3) return 300 + buf[0];
    return (long)got;
}
long first(FILE *in) {
    char *text = 0;
    size_t cap = 0;
    ssize_t n = getline(&text, &cap, in);
    long r = n;
    if (n > 1 && text[n - 1] == '\n') r += 100;
    free(text);
    return r + (long)cap * 1000;
}
"#,
    );
    let (_, report) = run(&src, "line");
    assert_all_covered(&report);
    for t in &report.tests {
        let (f, _contents) = open_read(stream(t, 0));
        let mut buf = [0 as c_char; 8];
        // SAFETY: the buffer holds 8 bytes, at least 5.
        let expected = unsafe {
            if fgets(buf.as_mut_ptr(), 5, f).is_null() {
                -1
            } else {
                let line = CStr::from_ptr(buf.as_ptr()).to_bytes();
                match line.last() {
                    Some(b'\n') => 100 + line.len() as i128,
                    _ => line.len() as i128,
                }
            }
        };
        assert_eq!(ret(t), expected, "{:?}", stream(t, 0));
        assert_read_state(stream(t, 0), f, "line");
    }
    let (_, report) = run(&src, "block");
    assert_all_covered(&report);
    for t in &report.tests {
        let (f, _contents) = open_read(stream(t, 0));
        let mut buf = [0u8; 8];
        // SAFETY: the buffer holds 8 bytes, at least 3 items of 2.
        let got = unsafe { fread(buf.as_mut_ptr().cast(), 2, 3, f) };
        let expected = if got == 3 {
            300 + i128::from(buf[0])
        } else {
            got as i128
        };
        assert_eq!(ret(t), expected, "{:?}", stream(t, 0));
        assert_read_state(stream(t, 0), f, "block");
    }
    let (_, report) = run(&src, "first");
    assert_all_covered(&report);
    for t in &report.tests {
        let (f, _contents) = open_read(stream(t, 0));
        let (mut text, mut cap) = (std::ptr::null_mut::<c_char>(), 0usize);
        // SAFETY: getline allocates the line, which is freed here.
        let expected = unsafe {
            let n = getline(&mut text, &mut cap, f);
            let newline = n > 1 && *text.offset(n - 1) == b'\n' as c_char;
            free(text.cast());
            n as i128 + if newline { 100 } else { 0 } + cap as i128 * 1000
        };
        assert_eq!(ret(t), expected, "{:?}", stream(t, 0));
        assert_read_state(stream(t, 0), f, "first");
    }
}

#[test]
fn writes_are_glibc_s_on_a_sink_with_the_test_s_room() {
    let src = source(
        r#"
int quoted(FILE *out, const char *s) {
    if (fputc('"', out) == -1) return -1;
    if (fputs(s, out) == -1) return -2;
    if (fputc('"', out) == -1) return -3;
    return 0;
}
int printed(FILE *out, int x) {
    int n = fprintf(out, "<%d>", x);
    if (n < 0) return -1;
    return n;
}
long raw(FILE *out, int a) {
    int v[2] = {a, 7};
    size_t n = fwrite(v, 2, 3, out);
    if (n == 0) return 0;
    if (n == 1) return 1;
    if (n == 2) return 2;
    return 3;
}
"#,
    );
    let (_, report) = run(&src, "quoted");
    assert_all_covered(&report);
    for t in &report.tests {
        let (f, sink) = open_sink(stream(t, 0));
        let s = string_arg(t, 1);
        // SAFETY: an open stream and a NUL-terminated string.
        let expected = unsafe {
            if fputc(b'"'.into(), f) == EOF {
                -1
            } else if fputs(s.as_ptr().cast(), f) == EOF {
                -2
            } else if fputc(b'"'.into(), f) == EOF {
                -3
            } else {
                0
            }
        };
        assert_eq!(ret(t), expected, "{s:?} {:?}", stream(t, 0));
        assert_written(stream(t, 0), f, &sink, "quoted");
    }
    let patient = engine::EngineConfig {
        max_time: std::time::Duration::from_secs(60),
        ..config()
    };
    let (_, report) = run_with(&src, "printed", &patient);
    assert_all_covered(&report);
    for t in &report.tests {
        let (f, sink) = open_sink(stream(t, 0));
        let x = arg(t, 1) as c_int;
        // SAFETY: an open stream; the argument matches the format.
        let n = unsafe { fprintf(f, c"<%d>".as_ptr(), x) };
        assert_eq!(ret(t), i128::from(n.max(-1)), "x {x}, {:?}", stream(t, 0));
        assert_written(stream(t, 0), f, &sink, "printed");
    }
    let (_, report) = run(&src, "raw");
    assert_all_covered(&report);
    for t in &report.tests {
        let (f, sink) = open_sink(stream(t, 0));
        let v = [arg(t, 1) as c_int, 7];
        // SAFETY: an open stream; `v` holds 8 bytes.
        let n = unsafe { fwrite(v.as_ptr().cast(), 2, 3, f) };
        assert_eq!(ret(t), n as i128, "{v:?} {:?}", stream(t, 0));
        assert_written(stream(t, 0), f, &sink, "raw");
    }
}

#[test]
fn a_stream_is_an_input_of_its_own_never_a_made_up_file() {
    let src = source(
        r#"
int guarded(FILE *in) {
    if (!in) return -2;
    return fgetc(in) == -1;
}
int trusting(FILE *in) {
    return fgetc(in) == -1;
}
int says(int x) {
    if (fprintf(stdout, "%d", x) < 0) return -1;
    return x > 2;
}
"#,
    );
    let (program, report) = run(&src, "guarded");
    assert_all_covered(&report);
    let nulls = report
        .tests
        .iter()
        .filter(|t| t.inputs.args[0] == Value::Null)
        .count();
    assert_eq!(nulls, 1, "NULL where the function tests for it");
    let (_, trusting) = run(&src, "trusting");
    assert_all_covered(&trusting);
    for t in report.tests.iter().chain(&trusting.tests) {
        assert!(t.inputs.objects.is_empty(), "no FILE object: {t:?}");
    }
    assert!(trusting
        .tests
        .iter()
        .all(|t| matches!(t.inputs.args[0], Value::Stream(_))));
    // Writes to stdout keep printf's model: no stream input.
    let (_, report) = run(&src, "says");
    assert!(report.tests.iter().all(|t| t.inputs.streams.is_empty()));
    assert!(program.function_by_name("says").is_some());
}

#[test]
fn a_stream_the_function_closes_is_closed_and_a_later_use_is_a_finding() {
    let src = source(
        r#"
int done(FILE *out) {
    if (fputs("x", out) == -1) return -1;
    return fclose(out);
}
int late(FILE *out) {
    fclose(out);
    return fputc('x', out);
}
int twice(FILE *out) {
    fclose(out);
    return fclose(out);
}
"#,
    );
    let (_, report) = run(&src, "done");
    assert_all_covered(&report);
    let closed = report
        .tests
        .iter()
        .filter(|t| stream(t, 0).after == StreamAfter::Closed)
        .count();
    assert_eq!(closed, 1, "{:?}", report.tests);
    for (function, kind) in [
        ("late", FindingKind::UseAfterFree),
        ("twice", FindingKind::DoubleFree),
    ] {
        let (_, report) = run(&src, function);
        assert!(
            report.findings.iter().any(|f| f.kind == kind),
            "{function}: {:?}",
            report.findings
        );
    }
}

#[test]
fn what_is_not_modelled_stops_the_path_with_its_reason() {
    let src = source(
        r#"
int seeks(FILE *in) {
    if (fseek(in, 2, 0) != 0) return -1;
    return 0;
}
int both(FILE *f) {
    int c = fgetc(f);
    if (fputc('x', f) == -1) return -1;
    return c;
}
"#,
    );
    for (function, reason) in [
        ("seeks", "positioning a stream is not modelled"),
        ("both", "a stream both read and written"),
    ] {
        let (_, report) = run(&src, function);
        assert!(
            report
                .uncovered
                .iter()
                .any(|(_, why)| matches!(why, Uncovered::Unsupported(r) if r.contains(reason))),
            "{function}: {:?}",
            report.uncovered
        );
    }
}

/// `fscanf`: what it returns, assigns, and leaves of the stream (flags,
/// position) as glibc does on the test's contents; after a scan that
/// stopped early the stream is not read on, and nothing of it is claimed.
#[test]
fn fscanf_reads_as_glibc_does() {
    let src = source(
        r#"
int pair(FILE *f, int *a, int *b) {
    int n = fscanf(f, "%d,%d ", a, b);
    if (n == 2 && *a > *b)
        return 3;
    return n;
}
int then_char(FILE *f) {
    int a;
    if (fscanf(f, "%d", &a) != 1) {
        if (fgetc(f) == 'x')
            return 5;
        return -1;
    }
    return fgetc(f);
}
"#,
    );
    let (_, report) = run(&src, "pair");
    assert!(report.tests.len() >= 4, "{:?}", report.tests);
    for t in &report.tests {
        let (f, _bytes) = open_read(stream(t, 0));
        let (mut a, mut b) = (0 as c_int, 0 as c_int);
        // SAFETY: an open stream and two ints.
        let n = unsafe {
            fscanf(
                f,
                c"%d,%d ".as_ptr(),
                &mut a as *mut c_int,
                &mut b as *mut c_int,
            )
        };
        let expected = if n == 2 && a > b { 3 } else { n };
        assert_eq!(ret(t), i128::from(expected), "{t:?}");
        match &stream(t, 0).after {
            StreamAfter::Scanned => assert_ne!(n, 2, "{t:?}"),
            _ => assert_read_state(stream(t, 0), f, "pair"),
        }
    }
    let (_, report) = run(&src, "then_char");
    for t in &report.tests {
        let (f, _bytes) = open_read(stream(t, 0));
        let mut a = 0 as c_int;
        // SAFETY: an open stream and an int.
        let n = unsafe { fscanf(f, c"%d".as_ptr(), &mut a as *mut c_int) };
        assert_eq!(n, 1, "a test only where the scan matched: {t:?}");
        // SAFETY: an open stream.
        assert_eq!(ret(t), i128::from(unsafe { fgetc(f) }), "{t:?}");
        assert_read_state(stream(t, 0), f, "then_char");
    }
    // A read after a scan that stopped early is cut, not disproved.
    assert!(
        (report.uncovered.iter())
            .any(|(_, why)| *why == Uncovered::Budget(testcase::Bound::ScannedStream)),
        "{:?}",
        report.uncovered
    );
}
