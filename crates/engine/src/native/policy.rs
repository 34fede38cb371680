//! Which C library functions may run natively: the one table of those that
//! may not, by what they do. A function runs natively only when it computes
//! on the memory it is given; these act on the world or on the process, or
//! give a result that the driver's own call would not repeat. The child's
//! system-call filter (`sandbox`) stops any function this table misses that
//! turns out to reach outside its memory, so the table is what keeps a test
//! honest (a result the driver's run repeats) more than what keeps cairn safe.

/// What a function does that keeps it from running natively.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// Files, directories and descriptors: the driver's run sees other ones.
    Files,
    /// Exits, forks, runs programs, signals, jumps or changes limits.
    Process,
    /// Changes the environment, the working directory or the locale.
    Environment,
    Threads,
    Network,
    /// Sleeps or waits for time to pass.
    Waits,
    /// Time, randomness, process and user ids: another run gives another value.
    NotRepeatable,
    /// Keeps state between calls, which a call in a process of its own loses.
    HiddenState,
    /// Manages the process's own memory.
    ProcessMemory,
}

impl Refusal {
    /// Why, in the user's words.
    pub fn describe(self) -> &'static str {
        match self {
            Refusal::Files => "it works on files or descriptors",
            Refusal::Process => "it acts on the process (exit, fork, exec, signals, jumps)",
            Refusal::Environment => {
                "it changes the environment, the working directory or the locale"
            }
            Refusal::Threads => "it works on threads",
            Refusal::Network => "it works on the network",
            Refusal::Waits => "it waits for time to pass",
            Refusal::NotRepeatable => "its result differs from run to run (time, randomness, ids)",
            Refusal::HiddenState => "it keeps state between calls",
            Refusal::ProcessMemory => {
                "it works on the process's own memory, which the test's process lays out otherwise"
            }
        }
    }
}

/// The functions refused, by name; a name ending in `*` stands for every
/// function it starts.
const REFUSED: &[(&str, Refusal)] = &[
    // Files and descriptors (functions taking a `FILE *` are refused by
    // their argument's type).
    ("open", Refusal::Files),
    ("open64", Refusal::Files),
    ("openat", Refusal::Files),
    ("creat", Refusal::Files),
    ("close", Refusal::Files),
    ("read", Refusal::Files),
    ("write", Refusal::Files),
    ("pread", Refusal::Files),
    ("pwrite", Refusal::Files),
    ("readv", Refusal::Files),
    ("writev", Refusal::Files),
    ("lseek", Refusal::Files),
    ("dup", Refusal::Files),
    ("dup2", Refusal::Files),
    ("dup3", Refusal::Files),
    ("pipe", Refusal::Files),
    ("pipe2", Refusal::Files),
    ("fcntl", Refusal::Files),
    ("ioctl", Refusal::Files),
    ("fsync", Refusal::Files),
    ("fdatasync", Refusal::Files),
    ("truncate", Refusal::Files),
    ("ftruncate", Refusal::Files),
    ("unlink", Refusal::Files),
    ("unlinkat", Refusal::Files),
    ("remove", Refusal::Files),
    ("rename", Refusal::Files),
    ("renameat", Refusal::Files),
    ("mkdir", Refusal::Files),
    ("rmdir", Refusal::Files),
    ("link", Refusal::Files),
    ("symlink", Refusal::Files),
    ("readlink", Refusal::Files),
    ("chmod", Refusal::Files),
    ("fchmod", Refusal::Files),
    ("chown", Refusal::Files),
    ("fchown", Refusal::Files),
    ("lchown", Refusal::Files),
    ("utime", Refusal::Files),
    ("utimes", Refusal::Files),
    ("stat", Refusal::Files),
    ("fstat", Refusal::Files),
    ("lstat", Refusal::Files),
    ("access", Refusal::Files),
    ("faccessat", Refusal::Files),
    ("opendir", Refusal::Files),
    ("fdopendir", Refusal::Files),
    ("readdir", Refusal::Files),
    ("closedir", Refusal::Files),
    ("scandir", Refusal::Files),
    ("glob", Refusal::Files),
    ("isatty", Refusal::Files),
    ("ttyname", Refusal::Files),
    ("mkstemp", Refusal::Files),
    ("mkostemp", Refusal::Files),
    ("mkdtemp", Refusal::Files),
    ("mktemp", Refusal::Files),
    ("tmpfile", Refusal::Files),
    ("tmpnam", Refusal::Files),
    ("tempnam", Refusal::Files),
    ("realpath", Refusal::Files),
    ("fopen", Refusal::Files),
    ("fopen64", Refusal::Files),
    ("fdopen", Refusal::Files),
    ("freopen", Refusal::Files),
    ("fmemopen", Refusal::Files),
    ("open_memstream", Refusal::Files),
    ("popen", Refusal::Files),
    ("getchar", Refusal::Files),
    ("gets", Refusal::Files),
    ("select", Refusal::Files),
    ("poll", Refusal::Files),
    ("epoll_*", Refusal::Files),
    ("sendfile", Refusal::Files),
    ("syslog", Refusal::Files),
    ("openlog", Refusal::Files),
    // The process.
    ("exit", Refusal::Process),
    ("_exit", Refusal::Process),
    ("_Exit", Refusal::Process),
    ("quick_exit", Refusal::Process),
    ("atexit", Refusal::Process),
    ("at_quick_exit", Refusal::Process),
    ("abort", Refusal::Process),
    ("fork", Refusal::Process),
    ("vfork", Refusal::Process),
    ("exec*", Refusal::Process),
    ("fexecve", Refusal::Process),
    ("clone", Refusal::Process),
    ("getcontext", Refusal::Process),
    ("setcontext", Refusal::Process),
    ("makecontext", Refusal::Process),
    ("swapcontext", Refusal::Process),
    ("posix_spawn*", Refusal::Process),
    ("system", Refusal::Process),
    ("wait", Refusal::Process),
    ("waitpid", Refusal::Process),
    ("waitid", Refusal::Process),
    ("wait3", Refusal::Process),
    ("wait4", Refusal::Process),
    ("kill", Refusal::Process),
    ("killpg", Refusal::Process),
    ("raise", Refusal::Process),
    ("signal", Refusal::Process),
    ("sigaction", Refusal::Process),
    ("sigprocmask", Refusal::Process),
    ("sigsuspend", Refusal::Process),
    ("sigwait", Refusal::Process),
    ("sigqueue", Refusal::Process),
    ("sigaltstack", Refusal::Process),
    ("sigsetjmp", Refusal::Process),
    ("siglongjmp", Refusal::Process),
    ("__sigsetjmp", Refusal::Process),
    ("setjmp", Refusal::Process),
    ("_setjmp", Refusal::Process),
    ("longjmp", Refusal::Process),
    ("_longjmp", Refusal::Process),
    ("getrlimit", Refusal::Process),
    ("setrlimit", Refusal::Process),
    ("prctl", Refusal::Process),
    ("ptrace", Refusal::Process),
    ("syscall", Refusal::Process),
    ("daemon", Refusal::Process),
    ("setuid", Refusal::Process),
    ("setgid", Refusal::Process),
    ("seteuid", Refusal::Process),
    ("setegid", Refusal::Process),
    ("setsid", Refusal::Process),
    ("setpgid", Refusal::Process),
    ("chroot", Refusal::Process),
    ("nice", Refusal::Process),
    ("sched_*", Refusal::Process),
    ("dl*", Refusal::Process),
    // The environment.
    ("setenv", Refusal::Environment),
    ("unsetenv", Refusal::Environment),
    ("putenv", Refusal::Environment),
    ("clearenv", Refusal::Environment),
    ("chdir", Refusal::Environment),
    ("fchdir", Refusal::Environment),
    ("umask", Refusal::Environment),
    ("setlocale", Refusal::Environment),
    ("uselocale", Refusal::Environment),
    ("tzset", Refusal::Environment),
    // Threads.
    ("pthread_*", Refusal::Threads),
    ("thrd_*", Refusal::Threads),
    ("mtx_*", Refusal::Threads),
    ("cnd_*", Refusal::Threads),
    ("tss_*", Refusal::Threads),
    ("call_once", Refusal::Threads),
    ("sem_*", Refusal::Threads),
    // The network.
    ("socket", Refusal::Network),
    ("socketpair", Refusal::Network),
    ("bind", Refusal::Network),
    ("listen", Refusal::Network),
    ("accept", Refusal::Network),
    ("accept4", Refusal::Network),
    ("connect", Refusal::Network),
    ("send", Refusal::Network),
    ("sendto", Refusal::Network),
    ("sendmsg", Refusal::Network),
    ("recv", Refusal::Network),
    ("recvfrom", Refusal::Network),
    ("recvmsg", Refusal::Network),
    ("shutdown", Refusal::Network),
    ("setsockopt", Refusal::Network),
    ("getsockopt", Refusal::Network),
    ("getpeername", Refusal::Network),
    ("getsockname", Refusal::Network),
    ("getaddrinfo", Refusal::Network),
    ("getnameinfo", Refusal::Network),
    ("gethostby*", Refusal::Network),
    ("getservby*", Refusal::Network),
    ("getprotoby*", Refusal::Network),
    // Waiting.
    ("sleep", Refusal::Waits),
    ("usleep", Refusal::Waits),
    ("nanosleep", Refusal::Waits),
    ("clock_nanosleep", Refusal::Waits),
    ("pause", Refusal::Waits),
    ("alarm", Refusal::Waits),
    ("setitimer", Refusal::Waits),
    // Results another run would not repeat.
    ("time", Refusal::NotRepeatable),
    ("clock", Refusal::NotRepeatable),
    ("clock_gettime", Refusal::NotRepeatable),
    ("gettimeofday", Refusal::NotRepeatable),
    ("times", Refusal::NotRepeatable),
    ("localtime", Refusal::NotRepeatable),
    ("localtime_r", Refusal::NotRepeatable),
    ("mktime", Refusal::NotRepeatable),
    ("getpid", Refusal::NotRepeatable),
    ("getppid", Refusal::NotRepeatable),
    ("gettid", Refusal::NotRepeatable),
    ("getuid", Refusal::NotRepeatable),
    ("geteuid", Refusal::NotRepeatable),
    ("getgid", Refusal::NotRepeatable),
    ("getegid", Refusal::NotRepeatable),
    ("getlogin", Refusal::NotRepeatable),
    ("gethostname", Refusal::NotRepeatable),
    ("uname", Refusal::NotRepeatable),
    ("getcwd", Refusal::NotRepeatable),
    ("getrusage", Refusal::NotRepeatable),
    ("sysconf", Refusal::NotRepeatable),
    ("getrandom", Refusal::NotRepeatable),
    ("getentropy", Refusal::NotRepeatable),
    ("arc4random*", Refusal::NotRepeatable),
    // State kept between calls.
    ("strtok", Refusal::HiddenState),
    ("rand", Refusal::HiddenState),
    ("srand", Refusal::HiddenState),
    ("random", Refusal::HiddenState),
    ("srandom", Refusal::HiddenState),
    ("initstate", Refusal::HiddenState),
    ("setstate", Refusal::HiddenState),
    ("drand48", Refusal::HiddenState),
    ("lrand48", Refusal::HiddenState),
    ("mrand48", Refusal::HiddenState),
    ("srand48", Refusal::HiddenState),
    ("seed48", Refusal::HiddenState),
    ("lcong48", Refusal::HiddenState),
    ("getopt", Refusal::HiddenState),
    ("getopt_long", Refusal::HiddenState),
    ("getopt_long_only", Refusal::HiddenState),
    ("mblen", Refusal::HiddenState),
    ("mbtowc", Refusal::HiddenState),
    ("wctomb", Refusal::HiddenState),
    // The process's memory.
    ("mmap", Refusal::ProcessMemory),
    ("munmap", Refusal::ProcessMemory),
    ("mprotect", Refusal::ProcessMemory),
    ("mremap", Refusal::ProcessMemory),
    ("madvise", Refusal::ProcessMemory),
    ("mlock", Refusal::ProcessMemory),
    ("munlock", Refusal::ProcessMemory),
    ("brk", Refusal::ProcessMemory),
    ("sbrk", Refusal::ProcessMemory),
    ("malloc_usable_size", Refusal::ProcessMemory),
    ("malloc_trim", Refusal::ProcessMemory),
    ("mallopt", Refusal::ProcessMemory),
    ("posix_memalign", Refusal::ProcessMemory),
    ("aligned_alloc", Refusal::ProcessMemory),
    ("memalign", Refusal::ProcessMemory),
    ("valloc", Refusal::ProcessMemory),
];

/// Functions that may run natively but read cairn's environment, which
/// the driver's run must share for its result to be the same: what they
/// return proves nothing about other environments. The message catalogue
/// lookups answer from the locale and the installed translations: a
/// program that calls `setlocale` gets other strings than a test does.
const READS_ENVIRONMENT: &[&str] = &[
    "getenv",
    "secure_getenv",
    "gettext",
    "dgettext",
    "dcgettext",
    "ngettext",
    "dngettext",
    "dcngettext",
];

/// Whether `name` reads the process's environment (see [`READS_ENVIRONMENT`]).
pub fn reads_environment(name: &str) -> bool {
    READS_ENVIRONMENT.contains(&name)
}

/// Why the C library function `name` may not run natively, or `None` when
/// it may (its arguments' types may still refuse it).
pub fn refusal(name: &str) -> Option<Refusal> {
    REFUSED.iter().find_map(|&(pattern, why)| {
        let matches = match pattern.strip_suffix('*') {
            Some(prefix) => name.starts_with(prefix),
            None => name == pattern,
        };
        matches.then_some(why)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_name_is_listed_once_and_no_prefix_hides_another_entry() {
        for (i, (pattern, _)) in REFUSED.iter().enumerate() {
            for (j, (other, _)) in REFUSED.iter().enumerate() {
                if i == j {
                    continue;
                }
                assert_ne!(pattern, other, "`{pattern}` is listed twice");
                if let Some(prefix) = pattern.strip_suffix('*') {
                    assert!(
                        !other.starts_with(prefix),
                        "`{other}` is already refused by `{pattern}`"
                    );
                }
            }
        }
    }

    #[test]
    fn what_acts_on_the_world_is_refused_and_what_computes_is_not() {
        let refused = [
            ("open", Refusal::Files),
            ("isatty", Refusal::Files),
            ("fopen", Refusal::Files),
            ("exit", Refusal::Process),
            ("execvp", Refusal::Process),
            ("sigaction", Refusal::Process),
            ("setjmp", Refusal::Process),
            ("swapcontext", Refusal::Process),
            ("setenv", Refusal::Environment),
            ("chdir", Refusal::Environment),
            ("pthread_create", Refusal::Threads),
            ("socket", Refusal::Network),
            ("usleep", Refusal::Waits),
            ("time", Refusal::NotRepeatable),
            ("gettimeofday", Refusal::NotRepeatable),
            ("clock", Refusal::NotRepeatable),
            ("getpid", Refusal::NotRepeatable),
            ("rand", Refusal::HiddenState),
            ("strtok", Refusal::HiddenState),
            ("malloc_usable_size", Refusal::ProcessMemory),
        ];
        for (name, why) in refused {
            assert_eq!(refusal(name), Some(why), "{name}");
        }
        let computing = [
            "strtod",
            "strerror",
            "getenv",
            "ntohl",
            "inet_pton",
            "inet_ntop",
            "qsort",
            "bsearch",
            "strspn",
            "strpbrk",
            "strtok_r",
            "regcomp",
            "iconv",
            "fabs",
            "frexp",
            "ldexp",
            "div",
            "rand_r",
        ];
        for name in computing {
            assert_eq!(refusal(name), None, "{name}");
        }
        for name in READS_ENVIRONMENT {
            assert_eq!(refusal(name), None, "{name}");
        }
        assert!(reads_environment("getenv") && !reads_environment("strerror"));
    }
}
