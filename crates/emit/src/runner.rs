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
//!
//! The runner reaches the C library whatever the project defines: its system
//! calls go through `syscall()`, it prints without stdio, and the few
//! functions it calls by name are `#undef`ed after the source
//! ([`crate::support::LIBRARY_CALLS`]) or, when the source defines them, called
//! by glibc's other name ([`GLIBC_DOORS`]).

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
/// `tests`: each test's name and the status its call ends the process
/// with by `exit`, if it does; `mocks`: whether the driver mocks C library
/// functions while a test runs.
pub fn write_main(
    out: &mut CodeWriter,
    program: &ir::Program,
    tests: &[(String, Option<u8>)],
    mocks: bool,
) {
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
    out.text(OWN_LIBRARY_CALLS);
    for door in GLIBC_DOORS {
        door.write(out, program);
    }
    out.text(SYSTEM_CALLS);
    out.line("/* Ends the mocks of C library functions: gcov writes its counters through the real ones. */");
    out.line("static void cairn_stop_mocking(void)");
    out.open("{");
    if mocks {
        out.line(&format!("{} = 0;", crate::support::MOCKING));
    }
    out.close("}");
    out.blank();
    out.text(RUN_IN_CHILD);
    out.blank();
    out.line("static const struct cairn_test cairn_tests[] = {");
    for (name, exits) in tests {
        let status = exits.map_or(-1, i32::from);
        out.line(&format!("    {{ \"{name}\", {name}, {status} }},"));
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
    "stdarg.h",
    "sys/syscall.h",
    "sys/wait.h",
    "time.h",
    "unistd.h",
];

/// Why the runner avoids the C library's names, before its code.
const OWN_LIBRARY_CALLS: &str = r#"
/* The runner's own calls of the C library. The code under test may define C
 * library functions itself (an interposition library such as dante defines
 * read, write, printf, fflush...) or rename them with macros (#define close(n)
 * closen(n)): a call by name would then run the project's code, or a stub of
 * it, in the runner. So the runner makes the system calls it needs itself,
 * through syscall(), prints without stdio and reads the environment from
 * environ. The few C library functions it still calls by name (#undef'd after
 * the source's #include) are exit (gcov and LeakSanitizer work at exit),
 * on_exit (for a test whose call exits), setvbuf, and fork, fflush and sigaction, for which it calls glibc's other
 * name (__fork, _IO_fflush, __sigaction) when the source defines them.
 * fork is no raw clone: glibc's fork runs the fork handlers and keeps its own
 * state right in the child (and gcc --coverage turns a call of fork into
 * __gcov_fork, which resets the child's counters). */
"#;

/// A C library function the runner calls by name unless the source
/// defines one of that name itself, then by glibc's other name for it.
struct GlibcDoor {
    /// The runner's name for it.
    runner: &'static str,
    /// The C library's name.
    name: &'static str,
    /// glibc's other exported name for the same function.
    glibc: &'static str,
    /// `RESULT NAME(PARAMETERS)` of the runner's function.
    head: &'static str,
    /// The arguments it passes on.
    arguments: &'static str,
    /// The declaration of the glibc name.
    declaration: &'static str,
}

impl GlibcDoor {
    fn write(&self, out: &mut CodeWriter, program: &ir::Program) {
        let defined = program
            .function_by_name(self.name)
            .is_some_and(|f| program.function(f).body.is_some());
        let callee = if defined {
            out.line(&format!(
                "/* The source defines {} itself: glibc's other name of it. */",
                self.name
            ));
            out.line(self.declaration);
            self.glibc
        } else {
            self.name
        };
        out.line(&format!(
            "static {}",
            self.head.replace("NAME", self.runner)
        ));
        out.open("{");
        out.line(&format!("return {callee}({});", self.arguments));
        out.close("}");
        out.blank();
    }
}

/// The runner's `cairn_flush`, alone (for the findings' `main`).
pub(crate) fn write_flush(out: &mut CodeWriter, program: &ir::Program) {
    for door in GLIBC_DOORS.iter().filter(|d| d.name == "fflush") {
        door.write(out, program);
    }
}

const GLIBC_DOORS: &[GlibcDoor] = &[
    GlibcDoor {
        runner: "cairn_fork",
        name: "fork",
        glibc: "__fork",
        head: "pid_t NAME(void)",
        arguments: "",
        declaration: "extern pid_t __fork(void);",
    },
    GlibcDoor {
        runner: "cairn_flush",
        name: "fflush",
        glibc: "_IO_fflush",
        head: "int NAME(FILE *stream)",
        arguments: "stream",
        declaration: "extern int _IO_fflush(FILE *stream);",
    },
    GlibcDoor {
        runner: "cairn_sigaction",
        name: "sigaction",
        glibc: "__sigaction",
        head: "int NAME(int signal_number, const struct sigaction *action, struct sigaction *old)",
        arguments: "signal_number, action, old",
        declaration: "extern int __sigaction(int signal_number, const struct sigaction *action, struct sigaction *old);",
    },
];

/// The system calls the runner makes, and its output without stdio.
const SYSTEM_CALLS: &str = r#"extern long syscall(long number, ...);
extern char **environ;

static long cairn_read(int fd, void *buffer, size_t size)
{
    return syscall(SYS_read, (long)fd, (long)buffer, (long)size);
}

/* Writes all of it, unless the file descriptor fails. */
static void cairn_write(int fd, const char *text, size_t size)
{
    while (size > 0) {
        long written = syscall(SYS_write, (long)fd, (long)text, (long)size);
        if (written < 0 && errno == EINTR)
            continue;
        if (written <= 0)
            return;
        text += written;
        size -= (size_t)written;
    }
}

static void cairn_close(int fd)
{
    syscall(SYS_close, (long)fd);
}

static int cairn_pipe(int ends[2])
{
    return (int)syscall(SYS_pipe, (long)ends);
}

static void cairn_move_fd(int from, int to)
{
    syscall(SYS_dup2, (long)from, (long)to);
}

static int cairn_poll(struct pollfd *descriptor, int milliseconds)
{
    return (int)syscall(SYS_poll, (long)descriptor, 1L, (long)milliseconds);
}

static void cairn_kill(pid_t process, int signal_number)
{
    syscall(SYS_kill, (long)process, (long)signal_number);
}

static long cairn_wait(pid_t child, int *status)
{
    return syscall(SYS_wait4, (long)child, (long)status, 0L, 0L);
}

static void cairn_alarm(unsigned seconds)
{
    syscall(SYS_alarm, (long)seconds);
}

__attribute__((__unused__)) static void cairn_signal_alternate_stack(const void *stack)
{
    syscall(SYS_sigaltstack, (long)stack, 0L);
}

static double cairn_seconds(void)
{
    /* The kernel's timespec: two longs, on x86-64 as on i386. */
    struct {
        long seconds;
        long nanoseconds;
    } now = { 0, 0 };
#ifndef CLOCK_MONOTONIC /* not declared under POSIX.1-1990 (_POSIX_SOURCE): Linux's */
#define CLOCK_MONOTONIC 1
#endif
    syscall(SYS_clock_gettime, (long)CLOCK_MONOTONIC, (long)&now);
    return (double)now.seconds + (double)now.nanoseconds / 1e9;
}

static size_t cairn_length(const char *text)
{
    size_t length = 0;
    while (text[length] != '\0')
        length++;
    return length;
}

static int cairn_same_text(const char *a, const char *b)
{
    while (*a != '\0' && *a == *b) {
        a++;
        b++;
    }
    return *a == *b;
}

/* The value of an environment variable, or NULL. */
static const char *cairn_environment(const char *name)
{
    char **variable;
    size_t length = cairn_length(name);
    for (variable = environ; variable != NULL && *variable != NULL; variable++) {
        const char *entry = *variable;
        size_t i = 0;
        while (i < length && entry[i] == name[i])
            i++;
        if (i == length && entry[i] == '=')
            return entry + length + 1;
    }
    return NULL;
}

/* `number` in decimal, in `text` (at least 24 bytes). */
static const char *cairn_decimal(long long number, char *text)
{
    unsigned long long magnitude = number < 0 ? 0ULL - (unsigned long long)number : (unsigned long long)number;
    char *digit = text + 23;
    *digit = '\0';
    do {
        *--digit = (char)('0' + magnitude % 10);
        magnitude /= 10;
    } while (magnitude > 0);
    if (number < 0)
        *--digit = '-';
    return digit;
}

/* `seconds` with six decimals, in `text` (at least 32 bytes). */
static const char *cairn_seconds_text(double seconds, char *text)
{
    long long microseconds = (long long)(seconds * 1e6 + 0.5);
    long long fraction = microseconds % 1000000;
    const char *whole = cairn_decimal(microseconds / 1000000, text);
    int i;
    /* The fraction replaces the whole number's terminator: "W.FFFFFF". */
    text[23] = '.';
    for (i = 6; i >= 1; i--) {
        text[23 + i] = (char)('0' + fraction % 10);
        fraction /= 10;
    }
    text[30] = '\0';
    return whole;
}

/* Prints its arguments, strings ending with NULL, with one write. */
static void cairn_say(const char *first, ...)
{
    char line[1024];
    size_t length = 0;
    const char *part;
    va_list parts;
    va_start(parts, first);
    for (part = first; part != NULL; part = va_arg(parts, const char *)) {
        while (*part != '\0' && length < sizeof line)
            line[length++] = *part++;
    }
    va_end(parts);
    cairn_write(STDOUT_FILENO, line, length);
}
"#;

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

/// The runner itself, after the limits' `#define`s and the system calls.
const RUN_IN_CHILD: &str = r#"/* How a test's process exits when the test returns; any other ending is a failure too. */
#define CAIRN_PASSED 0
#define CAIRN_CHECKS_FAILED 3

struct cairn_test {
    const char *name;
    int (*run)(void);
    /* The status its call ends the process with by exit(), or -1: it returns. */
    int exits_with;
};

/* Writes the coverage counters, as at exit; NULL when built without --coverage. */
extern void __gcov_exit(void) __attribute__((__weak__));

static void cairn_write_coverage_and_die(int signal_number)
{
    cairn_stop_mocking();
    __gcov_exit();
    /* SA_RESETHAND restored the default action: the process dies of it */
    cairn_kill((pid_t)syscall(SYS_getpid), signal_number);
}

/* A test that dies of a signal still writes its coverage counters. */
static void cairn_write_coverage_on_fatal_signals(void)
{
    static char handler_stack[1 << 16]; /* the handler runs even when the stack overflowed */
    static struct sigaction action; /* static: all zero, no signal blocked */
    const int fatal[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGTRAP, SIGSYS, SIGALRM, SIGXFSZ };
    size_t i;
    if (__gcov_exit == NULL)
        return;
    action.sa_handler = cairn_write_coverage_and_die;
#ifndef SA_RESETHAND /* not declared when the source asks for strict POSIX: Linux's */
#define SA_RESETHAND 0x80000000
#endif
    action.sa_flags = SA_RESETHAND;
#ifdef SA_ONSTACK /* not declared when the source asks for strict POSIX */
    {
        static stack_t stack;
        stack.ss_sp = handler_stack;
        stack.ss_size = sizeof handler_stack;
        cairn_signal_alternate_stack(&stack);
        action.sa_flags |= SA_ONSTACK;
    }
#else
    (void)handler_stack;
#endif
    for (i = 0; i < sizeof fatal / sizeof fatal[0]; i++)
        cairn_sigaction(fatal[i], &action, NULL);
}

/* For a test whose call ends the process by exit(): the process ends with the
 * code's status, its output flushed and its coverage counters written, without
 * the leak check of a process whose test never returned. */
extern int on_exit(void (*handler)(int, void *), void *argument);
static void cairn_exited(int status, void *cairn_unused)
{
    (void)cairn_unused;
    cairn_stop_mocking();
    cairn_flush(NULL);
    if (__gcov_exit != NULL)
        __gcov_exit();
    syscall(SYS_exit_group, (long)status);
}

/* The child: its output into the pipe, the test under an alarm, then exit()
 * (not _exit: gcov writes its counters and LeakSanitizer looks for leaks at exit). */
static void cairn_child(const struct cairn_test *test, int output)
{
    int failed;
    cairn_move_fd(output, STDOUT_FILENO);
    cairn_close(output);
    cairn_write_coverage_on_fatal_signals();
    if (test->exits_with >= 0)
        on_exit(cairn_exited, NULL);
    cairn_alarm(CAIRN_TEST_TIMEOUT);
    failed = test->run() != 0;
    if (test->exits_with >= 0) /* it returned: any status but the one expected */
        exit(test->exits_with == CAIRN_CHECKS_FAILED ? CAIRN_CHECKS_FAILED + 1 : CAIRN_CHECKS_FAILED);
    exit(failed ? CAIRN_CHECKS_FAILED : CAIRN_PASSED);
}

/* Why the parent stopped a child, if it did. */
enum cairn_stop { CAIRN_NOT_STOPPED, CAIRN_TOO_MUCH_OUTPUT, CAIRN_TOO_SLOW };

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
        struct pollfd readable;
        long count;
        if (cairn_seconds() >= deadline) {
            cairn_kill(child, SIGKILL);
            stop = CAIRN_TOO_SLOW;
            break;
        }
        readable.fd = output;
        readable.events = POLLIN;
        readable.revents = 0;
        if (cairn_poll(&readable, 1000) <= 0)
            continue;
        count = cairn_read(output, buffer, sizeof buffer);
        if (count < 0 && errno == EINTR)
            continue;
        if (count <= 0)
            break;
        if (stop == CAIRN_NOT_STOPPED && printed + count > CAIRN_TEST_OUTPUT_LIMIT) {
            cairn_kill(child, SIGXFSZ);
            stop = CAIRN_TOO_MUCH_OUTPUT;
        }
        if (stop == CAIRN_NOT_STOPPED) {
            cairn_write(STDOUT_FILENO, buffer, (size_t)count);
            printed += count;
            line_open = buffer[count - 1] != '\n';
        }
    }
    if (line_open)
        cairn_say("\n", NULL); /* the verdict starts a line of its own */
    return stop;
}

static const char *cairn_signal_name(int signal_number)
{
    static char other[24];
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
    return cairn_decimal(signal_number, other);
}

/* How a test ended, as the parent saw it. */
enum cairn_ending { CAIRN_ENDED_PASSED, CAIRN_ENDED_FAILED, CAIRN_ENDED_TIMED_OUT };

/* Prints why a test failed, if it did. */
static enum cairn_ending cairn_verdict(const struct cairn_test *ran, int status, enum cairn_stop stop)
{
    const char *test = ran->name;
    char number[24];
    char expected[24];
    if (stop == CAIRN_TOO_MUCH_OUTPUT) {
        cairn_say("FAIL ", test, ": printed more than ", cairn_decimal(CAIRN_TEST_OUTPUT_LIMIT, number),
                  " bytes, so it was stopped\n", NULL);
    } else if (stop == CAIRN_TOO_SLOW || (WIFSIGNALED(status) && WTERMSIG(status) == SIGALRM)) {
        cairn_say("FAIL ", test, ": did not finish within ", cairn_decimal(CAIRN_TEST_TIMEOUT, number), " s\n", NULL);
        return CAIRN_ENDED_TIMED_OUT;
    } else if (WIFSIGNALED(status)) {
        cairn_say("FAIL ", test, ": killed by signal ", cairn_signal_name(WTERMSIG(status)), "\n", NULL);
    } else if (ran->exits_with >= 0) {
        if (WEXITSTATUS(status) == ran->exits_with)
            return CAIRN_ENDED_PASSED;
        cairn_say("FAIL ", test, ": exited with status ", cairn_decimal(WEXITSTATUS(status), number),
                  ", where the call ends the process with exit status ", cairn_decimal(ran->exits_with, expected),
                  "\n", NULL);
    } else if (WEXITSTATUS(status) == CAIRN_PASSED) {
        return CAIRN_ENDED_PASSED;
    } else if (WEXITSTATUS(status) != CAIRN_CHECKS_FAILED) {
        cairn_say("FAIL ", test, ": exited with status ", cairn_decimal(WEXITSTATUS(status), number),
                  " (see standard error: a sanitizer's report, or exit() in the code under test)\n", NULL);
    }
    return CAIRN_ENDED_FAILED;
}

/* For test reports: passed, failed (a check failed) or error (the test
 * crashed, was stopped or exited by itself). */
static const char *cairn_outcome(const struct cairn_test *test, int status, enum cairn_stop stop)
{
    if (stop != CAIRN_NOT_STOPPED || !WIFEXITED(status))
        return "error";
    if (test->exits_with >= 0)
        return WEXITSTATUS(status) == test->exits_with ? "passed" : "failed";
    if (WEXITSTATUS(status) == CAIRN_PASSED)
        return "passed";
    return WEXITSTATUS(status) == CAIRN_CHECKS_FAILED ? "failed" : "error";
}

/* With CAIRN_REPORT_RESULTS in the environment (cairn check sets it), a
 * "RESULT TEST: OUTCOME in SECONDS s" line for test reports. */
static void cairn_report_result(const char *test, const char *outcome, double seconds)
{
    char text[32];
    if (cairn_environment("CAIRN_REPORT_RESULTS") != NULL)
        cairn_say("RESULT ", test, ": ", outcome, " in ", cairn_seconds_text(seconds, text), " s\n", NULL);
}

/* Runs a test in a child process. */
static enum cairn_ending cairn_run_in_child(const struct cairn_test *test)
{
    const double started = cairn_seconds();
    int pipe_ends[2];
    char number[24];
    pid_t child;
    enum cairn_stop stop;
    enum cairn_ending ending;
    int status = 0;
    if (cairn_pipe(pipe_ends) != 0) {
        cairn_say("FAIL ", test->name, ": cannot make a pipe (errno ", cairn_decimal(errno, number), ")\n", NULL);
        cairn_report_result(test->name, "error", cairn_seconds() - started);
        return CAIRN_ENDED_FAILED;
    }
    child = cairn_fork();
    if (child < 0) {
        cairn_say("FAIL ", test->name, ": cannot start a process (errno ", cairn_decimal(errno, number), ")\n", NULL);
        cairn_close(pipe_ends[0]);
        cairn_close(pipe_ends[1]);
        cairn_report_result(test->name, "error", cairn_seconds() - started);
        return CAIRN_ENDED_FAILED;
    }
    if (child == 0) {
        cairn_close(pipe_ends[0]);
        cairn_child(test, pipe_ends[1]);
    }
    cairn_close(pipe_ends[1]);
    stop = cairn_copy_output(child, pipe_ends[0]);
    cairn_close(pipe_ends[0]);
    while (cairn_wait(child, &status) < 0 && errno == EINTR)
        ;
    ending = cairn_verdict(test, status, stop);
    cairn_report_result(test->name, cairn_outcome(test, status, stop), cairn_seconds() - started);
    return ending;
}

/* Runs the named test in this process, without limits (for a debugger). */
static int cairn_run_alone(const struct cairn_test *tests, size_t count, const char *name)
{
    size_t i;
    for (i = 0; i < count; i++) {
        if (cairn_same_text(tests[i].name, name)) {
            int failed = tests[i].run() != 0;
            cairn_flush(stdout);
            cairn_say(failed ? "0 passed, 1 failed\n" : "1 passed, 0 failed\n", NULL);
            return failed;
        }
    }
    cairn_say("no test named ", name, "; the tests are:\n", NULL);
    for (i = 0; i < count; i++)
        cairn_say("  ", tests[i].name, "\n", NULL);
    return 2;
}

/* CAIRN_STOP_AFTER_TIMEOUTS=N in the environment (cairn gen sets it when it
 * runs the tests it wrote): once N tests in a row did not finish in time,
 * the others are not run, each with a FAIL line that says so. 0: no limit. */
static long cairn_stop_after_timeouts(void)
{
    const char *text = cairn_environment("CAIRN_STOP_AFTER_TIMEOUTS");
    long number = 0;
    while (text != NULL && *text >= '0' && *text <= '9' && number < 1000000)
        number = number * 10 + (*text++ - '0');
    return number;
}

static void cairn_not_run(const char *test, long timeouts)
{
    char number[24];
    char limit[24];
    cairn_say("FAIL ", test, ": not run: the run stopped after tests did not finish within ",
              cairn_decimal(CAIRN_TEST_TIMEOUT, limit), " s, ", cairn_decimal(timeouts, number),
              " in a row (CAIRN_STOP_AFTER_TIMEOUTS)\n", NULL);
    cairn_report_result(test, "not-run", 0.0);
}"#;

const MAIN: &str = r#"int main(int argc, char **argv)
{
    const size_t count = sizeof cairn_tests / sizeof cairn_tests[0];
    const long stop_after = cairn_stop_after_timeouts();
    long timeouts_in_a_row = 0;
    long passed = 0;
    long failed = 0;
    char passed_text[24];
    char failed_text[24];
    size_t i;
    setvbuf(stdout, NULL, _IOLBF, 0); /* a test that crashes keeps every whole line it printed */
    cairn_flush(stdout); /* what the source's constructors printed: once, not again in each child */
    /* ./PROGRAM TEST runs that test alone, in this process: for a debugger. */
    if (argc > 1)
        return cairn_run_alone(cairn_tests, count, argv[1]);
    /* Each test in a child process: a crash, a hang or endless output fails that test alone. */
    for (i = 0; i < count; i++) {
        if (stop_after > 0 && timeouts_in_a_row >= stop_after) {
            cairn_not_run(cairn_tests[i].name, timeouts_in_a_row);
            failed++;
            continue;
        }
        switch (cairn_run_in_child(&cairn_tests[i])) {
        case CAIRN_ENDED_PASSED:
            passed++;
            timeouts_in_a_row = 0;
            break;
        case CAIRN_ENDED_FAILED:
            failed++;
            timeouts_in_a_row = 0;
            break;
        case CAIRN_ENDED_TIMED_OUT:
            failed++;
            timeouts_in_a_row++;
            break;
        }
    }
    cairn_say(cairn_decimal(passed, passed_text), " passed, ", cairn_decimal(failed, failed_text), " failed\n", NULL);
    return failed == 0 ? 0 : 1;
}
"#;

#[cfg(test)]
mod tests {
    use super::*;

    fn runner_texts() -> [&'static str; 4] {
        [HALT_ON_FIRST_UNDEFINED, SYSTEM_CALLS, RUN_IN_CHILD, MAIN]
    }

    /// The runner calls the C library by name only where it must, and those
    /// names are `#undef`ed after the source (`support::LIBRARY_CALLS`).
    #[test]
    fn the_runner_calls_few_library_functions_by_name() {
        let mut called = std::collections::BTreeSet::new();
        for text in runner_texts() {
            called.extend(crate::support::library_names_called(text, &["run", "main"]));
        }
        let doors: Vec<&str> = GLIBC_DOORS.iter().map(|d| d.name).collect();
        for name in &called {
            assert!(
                crate::support::LIBRARY_CALLS.contains(&name.as_str()),
                "{name} is not #undef'd"
            );
        }
        let by_name: Vec<&str> = called.iter().map(String::as_str).collect();
        assert_eq!(
            by_name,
            ["exit", "on_exit", "setvbuf", "syscall"],
            "{doors:?} go through doors"
        );
        for door in GLIBC_DOORS {
            assert!(
                crate::support::LIBRARY_CALLS.contains(&door.name),
                "{}",
                door.name
            );
        }
    }

    /// Old code is built with `-std=gnu89`: no declaration in a `for`.
    #[test]
    fn runner_declares_no_variable_in_a_for() {
        for text in runner_texts() {
            for line in text.lines() {
                let rest = line.trim_start().strip_prefix("for (").unwrap_or("");
                assert!(
                    !["int ", "size_t ", "long ", "char ", "const "]
                        .iter()
                        .any(|t| rest.starts_with(t)),
                    "{line}"
                );
            }
        }
    }
}
