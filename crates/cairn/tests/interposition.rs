//! End-to-end: a library that defines C library functions itself (an
//! interposition library such as dante, a wrapper, a test double) or
//! renames them with macros. The driver's runner forks, reads pipes, polls
//! and prints: it must reach the C library, never the project's functions
//! of the same names, or it hangs and every test fails. `gen` runs what it
//! wrote within a bound even when the tests hang.

mod common;

use common::{arg, cairn, gen_checked_with, text};
use std::time::{Duration, Instant};

/// Every function the runner needs, broken on purpose: `poll` and `fflush`
/// never return, the others fail. `closen` has no body: a stub, which the
/// runner would call through the macros.
const INTERPOSES: &str = r#"
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static int writes;

ssize_t write(int fd, const void *buffer, size_t size)
{
    (void)fd;
    (void)buffer;
    (void)size;
    writes++;
    return -1;
}

ssize_t read(int fd, void *buffer, size_t size)
{
    (void)fd;
    (void)buffer;
    (void)size;
    return -1;
}

int poll(struct pollfd *descriptors, nfds_t count, int milliseconds)
{
    (void)descriptors;
    (void)count;
    (void)milliseconds;
    for (;;)
        ;
}

int close(int fd)
{
    (void)fd;
    return -1;
}

pid_t fork(void)
{
    return -1;
}

int fflush(FILE *stream)
{
    (void)stream;
    for (;;)
        ;
}

int closen(int fd);
#define kill(process, signal_number) closen(process)
#define pipe(ends) closen((ends)[0])
#define setvbuf(stream, buffer, mode, size) closen(mode)
#define exit(status) (void)closen(status)

int clamp(int x, int lo, int hi)
{
    if (x < lo)
        return lo;
    if (x > hi)
        return hi;
    return x;
}

int send_all(int fd, const char *text, int size)
{
    if (size <= 0)
        return 0;
    if (write(fd, text, (size_t)size) < 0)
        return -1;
    return size;
}
"#;

#[test]
fn a_project_defining_c_library_functions_does_not_stop_the_runner() {
    let dir = tempfile::tempdir().expect("temp dir");
    let started = Instant::now();
    let (stdout, stderr, out_dir) =
        gen_checked_with(dir.path(), "shim.c", INTERPOSES, &["--sanitize"]);
    // Nothing waited for a time limit.
    assert!(
        started.elapsed() < Duration::from_secs(90),
        "{:?}\n{stdout}{stderr}",
        started.elapsed()
    );
    assert!(
        stdout.contains("clamp") && stdout.contains("4/4"),
        "{stdout}"
    );
    let json = std::fs::read_to_string(out_dir.join("shim.tests.json")).expect("tests.json");
    assert!(!json.contains("did not finish"), "{json}");
    let driver = std::fs::read_to_string(out_dir.join("shim_test.c")).expect("driver");
    // The source defines fork: the runner calls glibc's other name for it.
    assert!(driver.contains("return __fork();"), "{driver}");
    let check = cairn(&["check", arg(&out_dir), "--sanitize"]);
    let report = text(&check.stdout);
    assert!(check.status.success(), "{report}");
    assert!(report.contains(" passed, 0 failed"), "{report}");
}

/// The real `printf("")` writes nothing and returns 0, so a test where
/// the engine, which leaves `printf`'s result free, has it return more
/// loops for ever: each of those tests outlives its time limit.
const HANGS: &str = r#"
#include <stdio.h>

int wait_print(int n)
{
    if (n > 5)
        return 2;
    while (printf("") == 0)
        ;
    return n;
}
"#;

/// `gen`'s run of a driver stops after two tests in a row did not finish:
/// the tests after them are left out unrun, with the reason, and what is
/// handed over passes `check`.
#[test]
fn tests_that_hang_cost_gen_two_time_limits_a_run() {
    let dir = tempfile::tempdir().expect("temp dir");
    let source = dir.path().join("hangs.c");
    std::fs::write(&source, HANGS).expect("write source");
    let out = dir.path().join("out");
    let started = Instant::now();
    let run = cairn(&["gen", arg(&source), "-o", arg(&out), "--max-time", "10"]);
    let stdout = text(&run.stdout);
    assert!(run.status.success(), "{stdout}{}", text(&run.stderr));
    // Two runs (gcov, sanitizers) of 2 time limits of 10 s, then one
    // round that runs only what passed, plus the search and the builds.
    let elapsed = started.elapsed();
    assert!(elapsed < Duration::from_secs(150), "{elapsed:?}");
    let json: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(out.join("hangs.tests.json")).expect("tests.json"),
    )
    .expect("JSON");
    let function = &json["functions"][0];
    let dropped = function["dropped_tests"].as_array().expect("dropped");
    let reasons: Vec<&str> = dropped
        .iter()
        .filter_map(|t| t["reason"].as_str())
        .collect();
    assert_eq!(reasons.len(), dropped.len(), "{function}");
    assert!(
        reasons
            .iter()
            .any(|r| r.starts_with("did not finish within 10 s")),
        "{reasons:?}"
    );
    if dropped.len() > 2 {
        assert!(
            reasons
                .iter()
                .any(|r| r.starts_with("not run: the run stopped")),
            "{reasons:?}"
        );
    }
    let check = cairn(&["check", arg(&out), "--sanitize"]);
    assert!(check.status.success(), "{}", text(&check.stdout));
}
