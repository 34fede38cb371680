//! The end of a test driver: the table of its tests and `main`, which runs
//! each test in a child process of its own ([`RUN_IN_CHILD`]), or one test
//! alone in-process when named on the command line (for a debugger).
//!
//! The parent never runs a test, so every test starts from the program's
//! initial state (globals, static locals, stub scripts). The child writes
//! into a pipe that the parent copies to its own output, counting; it runs
//! under an alarm, and exits with `exit` (not `_exit`) so that gcov writes
//! its counters and LeakSanitizer looks for leaks. gcc's `--coverage` turns
//! `fork` into `__gcov_fork`, which zeroes the child's counters: each count
//! is written once, by the process that made it. A child dying of a signal
//! writes its counters first through `__gcov_exit`, libgcov's writing at
//! exit, which every `--coverage` program links (its documented
//! `__gcov_dump` is linked only when something else needs it, so a weak
//! reference to it stays NULL).

use crate::CodeWriter;

/// Default time limit of one test, in seconds (`-DCAIRN_TEST_TIMEOUT=N`).
const TEST_TIMEOUT_SECONDS: u64 = 10;
/// Default limit of what one test may print, in bytes (`-DCAIRN_TEST_OUTPUT_LIMIT=N`).
const TEST_OUTPUT_LIMIT_BYTES: u64 = 1 << 20;

/// How the header comment of a driver tells how its tests run.
pub fn describe(out: &mut CodeWriter, binary: &str) {
    out.line(&format!(
        " * Each test runs in a child process of its own, at most {TEST_TIMEOUT_SECONDS} s and {} MiB of output",
        TEST_OUTPUT_LIMIT_BYTES >> 20
    ));
    out.line(" * (-DCAIRN_TEST_TIMEOUT=SECONDS, -DCAIRN_TEST_OUTPUT_LIMIT=BYTES): a test that crashes, hangs or");
    out.line(" * prints without end fails alone. Prints one FAIL line per failed check or test and ends with");
    out.line(" * \"N passed, N failed\"; exits 0 only when all pass.");
    out.line(&format!(
        " * ./{binary} TEST runs that test alone in this process, without limits: gdb --args ./{binary} TEST */"
    ));
}

/// The test table and `main`.
pub fn write_main(out: &mut CodeWriter, program: &ir::Program, tests: &[String]) {
    if tests.is_empty() {
        out.line("int main(void)");
        out.open("{");
        out.line("printf(\"0 passed, 0 failed\\n\");");
        out.line("return 0;");
        out.close("}");
        return;
    }
    out.line("/* Running the tests: each in a child process of its own, so that a test that");
    out.line(" * crashes, hangs or prints without end fails alone and the others still run. */");
    crate::support::library_headers(out, program, RUNNER_HEADERS);
    out.blank();
    for (name, value, unit) in [
        ("CAIRN_TEST_TIMEOUT", TEST_TIMEOUT_SECONDS, "seconds"),
        ("CAIRN_TEST_OUTPUT_LIMIT", TEST_OUTPUT_LIMIT_BYTES, "bytes"),
    ] {
        out.line(&format!("#ifndef {name}"));
        out.line(&format!("#define {name} {value} /* {unit} */"));
        out.line("#endif");
    }
    out.text(HALT_ON_FIRST_UNDEFINED);
    out.text(RUN_IN_CHILD);
    out.blank();
    out.line("static const struct cairn_test cairn_tests[] = {");
    for name in tests {
        out.line(&format!("    {{ \"{name}\", {name} }},"));
    }
    out.line("};");
    out.blank();
    out.text(MAIN);
}

/// The runner's headers, before the limits' `#define`s.
const RUNNER_HEADERS: &[&str] = &[
    "errno.h",
    "poll.h",
    "signal.h",
    "sys/wait.h",
    "time.h",
    "unistd.h",
];

/// Built with -fsanitize=undefined, the first error ends the process: a
/// test then fails, and a reproducer stops where it confirmed its finding
/// instead of running on with the broken value (a sum over a cyclic list).
pub(crate) const HALT_ON_FIRST_UNDEFINED: &str = r#"/* Built with -fsanitize=undefined, the first error ends the process
 * (UBSAN_OPTIONS overrides this). */
const char *__ubsan_default_options(void);
const char *__ubsan_default_options(void)
{
    return "halt_on_error=1";
}

"#;

/// The runner itself, after the limits' `#define`s.
const RUN_IN_CHILD: &str = r#"/* How a test's process exits when the test returns; any other ending is a failure too. */
#define CAIRN_PASSED 0
#define CAIRN_CHECKS_FAILED 3

struct cairn_test {
    const char *name;
    int (*run)(void);
};

/* Writes the coverage counters, as at exit; NULL when built without --coverage. */
extern void __gcov_exit(void) __attribute__((weak));

static void cairn_write_coverage_and_die(int signal_number)
{
    __gcov_exit();
    raise(signal_number); /* SA_RESETHAND restored the default action: the process dies of it */
}

/* A test that dies of a signal still writes its coverage counters. */
static void cairn_write_coverage_on_fatal_signals(void)
{
    static char handler_stack[1 << 16]; /* the handler runs even when the stack overflowed */
    const int fatal[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGTRAP, SIGSYS, SIGALRM, SIGXFSZ };
    if (__gcov_exit == NULL)
        return;
    int flags = SA_RESETHAND;
#ifdef SA_ONSTACK /* not declared when the source asks for strict POSIX */
    stack_t stack = { .ss_sp = handler_stack, .ss_size = sizeof handler_stack };
    sigaltstack(&stack, NULL);
    flags |= SA_ONSTACK;
#else
    (void)handler_stack;
#endif
    struct sigaction action = { .sa_handler = cairn_write_coverage_and_die, .sa_flags = flags };
    size_t i;
    for (i = 0; i < sizeof fatal / sizeof fatal[0]; i++)
        sigaction(fatal[i], &action, NULL);
}

/* The child: its output into the pipe, the test under an alarm, then exit()
 * (not _exit: gcov writes its counters and LeakSanitizer looks for leaks at exit). */
static void cairn_child(const struct cairn_test *test, int output)
{
    dup2(output, STDOUT_FILENO);
    close(output);
    cairn_write_coverage_on_fatal_signals();
    alarm(CAIRN_TEST_TIMEOUT);
    exit(test->run() == 0 ? CAIRN_PASSED : CAIRN_CHECKS_FAILED);
}

/* Why the parent stopped a child, if it did. */
enum cairn_stop { CAIRN_NOT_STOPPED, CAIRN_TOO_MUCH_OUTPUT, CAIRN_TOO_SLOW };

static double cairn_seconds(void)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)now.tv_sec + (double)now.tv_nsec / 1e9;
}

/* Copies what the child prints to the output until the child closes its end
 * of the pipe, normally by ending. A child past its output limit is stopped
 * with SIGXFSZ (it still writes its coverage); one still running well after
 * its alarm (it blocked SIGALRM) is killed. */
static enum cairn_stop cairn_copy_output(pid_t child, int output)
{
    enum cairn_stop stop = CAIRN_NOT_STOPPED;
    const double deadline = cairn_seconds() + CAIRN_TEST_TIMEOUT + 5;
    long long printed = 0;
    int line_open = 0;
    char buffer[4096];
    for (;;) {
        if (cairn_seconds() >= deadline) {
            kill(child, SIGKILL);
            stop = CAIRN_TOO_SLOW;
            break;
        }
        struct pollfd readable = { .fd = output, .events = POLLIN };
        if (poll(&readable, 1, 1000) <= 0)
            continue;
        ssize_t count = read(output, buffer, sizeof buffer);
        if (count < 0 && errno == EINTR)
            continue;
        if (count <= 0)
            break;
        if (stop == CAIRN_NOT_STOPPED && printed + count > CAIRN_TEST_OUTPUT_LIMIT) {
            kill(child, SIGXFSZ);
            stop = CAIRN_TOO_MUCH_OUTPUT;
        }
        if (stop == CAIRN_NOT_STOPPED) {
            fwrite(buffer, 1, (size_t)count, stdout);
            printed += count;
            line_open = buffer[count - 1] != '\n';
        }
    }
    if (line_open)
        putchar('\n'); /* the verdict starts a line of its own */
    return stop;
}

static const char *cairn_signal_name(int signal_number)
{
    static char other[32];
    switch (signal_number) {
    case SIGSEGV: return "SIGSEGV (segmentation fault)";
    case SIGBUS: return "SIGBUS (bus error)";
    case SIGFPE: return "SIGFPE (arithmetic error, such as a division by zero)";
    case SIGILL: return "SIGILL (illegal instruction)";
    case SIGABRT: return "SIGABRT (aborted)";
    case SIGTRAP: return "SIGTRAP (trap)";
    case SIGSYS: return "SIGSYS (bad system call)";
    case SIGKILL: return "SIGKILL (killed)";
    case SIGTERM: return "SIGTERM (terminated)";
    case SIGPIPE: return "SIGPIPE (wrote to a closed pipe)";
    case SIGXCPU: return "SIGXCPU (CPU time limit exceeded)";
    case SIGXFSZ: return "SIGXFSZ (file size limit exceeded)";
    }
    snprintf(other, sizeof other, "%d", signal_number);
    return other;
}

/* Prints why a test failed, if it did; returns 0 when it passed. */
static int cairn_verdict(const char *test, int status, enum cairn_stop stop)
{
    if (stop == CAIRN_TOO_MUCH_OUTPUT)
        printf("FAIL %s: printed more than %d bytes, so it was stopped\n", test, CAIRN_TEST_OUTPUT_LIMIT);
    else if (stop == CAIRN_TOO_SLOW || (WIFSIGNALED(status) && WTERMSIG(status) == SIGALRM))
        printf("FAIL %s: did not finish within %d s\n", test, CAIRN_TEST_TIMEOUT);
    else if (WIFSIGNALED(status))
        printf("FAIL %s: killed by signal %s\n", test, cairn_signal_name(WTERMSIG(status)));
    else if (WEXITSTATUS(status) == CAIRN_PASSED)
        return 0;
    else if (WEXITSTATUS(status) != CAIRN_CHECKS_FAILED)
        printf("FAIL %s: exited with status %d (see standard error: a sanitizer's report, or exit() in the code under test)\n",
               test, WEXITSTATUS(status));
    return 1;
}

/* For test reports: passed, failed (a check failed) or error (the test
 * crashed, was stopped or exited by itself). */
static const char *cairn_outcome(int status, enum cairn_stop stop)
{
    if (stop != CAIRN_NOT_STOPPED || !WIFEXITED(status))
        return "error";
    if (WEXITSTATUS(status) == CAIRN_PASSED)
        return "passed";
    return WEXITSTATUS(status) == CAIRN_CHECKS_FAILED ? "failed" : "error";
}

/* Runs a test in a child process; returns 0 when it passed. With
 * CAIRN_REPORT_RESULTS in the environment (cairn check sets it) it also
 * prints "RESULT TEST: OUTCOME in SECONDS s" for test reports. */
static int cairn_run_in_child(const struct cairn_test *test)
{
    const double started = cairn_seconds();
    int pipe_ends[2];
    fflush(stdout); /* or the child would print it again */
    if (pipe(pipe_ends) != 0) {
        printf("FAIL %s: cannot make a pipe: %s\n", test->name, strerror(errno));
        return 1;
    }
    pid_t child = fork();
    if (child < 0) {
        printf("FAIL %s: cannot start a process: %s\n", test->name, strerror(errno));
        close(pipe_ends[0]);
        close(pipe_ends[1]);
        return 1;
    }
    if (child == 0) {
        close(pipe_ends[0]);
        cairn_child(test, pipe_ends[1]);
    }
    close(pipe_ends[1]);
    enum cairn_stop stop = cairn_copy_output(child, pipe_ends[0]);
    close(pipe_ends[0]);
    int status = 0;
    while (waitpid(child, &status, 0) < 0 && errno == EINTR)
        ;
    const int failed = cairn_verdict(test->name, status, stop);
    if (getenv("CAIRN_REPORT_RESULTS") != NULL)
        printf("RESULT %s: %s in %.6f s\n", test->name, cairn_outcome(status, stop), cairn_seconds() - started);
    return failed;
}

/* Runs the named test in this process, without limits (for a debugger). */
static int cairn_run_alone(const struct cairn_test *tests, size_t count, const char *name)
{
    size_t i;
    for (i = 0; i < count; i++) {
        if (strcmp(tests[i].name, name) == 0) {
            int failed = tests[i].run() != 0;
            printf("%d passed, %d failed\n", !failed, failed);
            return failed;
        }
    }
    printf("no test named %s; the tests are:\n", name);
    for (i = 0; i < count; i++)
        printf("  %s\n", tests[i].name);
    return 2;
}"#;

const MAIN: &str = r#"int main(int argc, char **argv)
{
    const size_t count = sizeof cairn_tests / sizeof cairn_tests[0];
    setvbuf(stdout, NULL, _IOLBF, 0); /* a test that crashes keeps every whole line it printed */
    /* ./PROGRAM TEST runs that test alone, in this process: for a debugger. */
    if (argc > 1)
        return cairn_run_alone(cairn_tests, count, argv[1]);
    /* Each test in a child process: a crash, a hang or endless output fails that test alone. */
    int passed = 0;
    int failed = 0;
    size_t i;
    for (i = 0; i < count; i++) {
        if (cairn_run_in_child(&cairn_tests[i]) == 0)
            passed++;
        else
            failed++;
    }
    printf("%d passed, %d failed\n", passed, failed);
    return failed == 0 ? 0 : 1;
}
"#;
