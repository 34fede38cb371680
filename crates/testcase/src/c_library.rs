//! What the C library a driver links provides: the functions of glibc's
//! `libc.so.6` and `libm.so.6`, as `cc FILE_test.c -lm` links them. Such a
//! function without a body in the source is the real one in every test (the
//! engine models it or must refuse the path); any other function without a
//! body (another file's, a third-party library's such as GLib's, which the
//! driver does not link) is a stub the driver defines and each test scripts.

use std::ffi::CString;
use std::sync::OnceLock;

/// Whether the C library the drivers link exports a function `name`.
pub fn provides(name: &str) -> bool {
    address(name).is_some()
}

/// The address of the C library's function `name` in this process (libc
/// first, then libm), the code a native call runs.
pub fn address(name: &str) -> Option<usize> {
    let symbol = CString::new(name).ok()?;
    libraries().iter().find_map(|&handle| {
        // SAFETY: `handle` came from dlopen and is never closed; `symbol`
        // is a NUL-terminated name. dlsym only looks the name up.
        let found = unsafe { libc::dlsym(handle as *mut libc::c_void, symbol.as_ptr()) };
        (!found.is_null()).then_some(found as usize)
    })
}

/// The handles of libc and libm, opened once (kept as addresses: a raw
/// pointer is not `Sync`).
fn libraries() -> &'static [usize] {
    static HANDLES: OnceLock<Vec<usize>> = OnceLock::new();
    HANDLES.get_or_init(|| {
        ["libc.so.6", "libm.so.6"]
            .iter()
            .filter_map(|name| {
                let name = CString::new(*name).ok()?;
                // SAFETY: dlopen of a system library by name; it stays open.
                let handle = unsafe { libc::dlopen(name.as_ptr(), libc::RTLD_LAZY) };
                (!handle.is_null()).then_some(handle as usize)
            })
            .collect()
    })
}

/// The C library's own globals that programs read and its functions change
/// (getopt's), with the value each holds when a process starts (0 is NULL
/// for `optarg`). Every test runs in a fresh process, so they start so
/// there, and no test sets them.
const STATE_GLOBALS: &[(&str, i64)] = &[
    ("optind", 1),
    ("opterr", 1),
    ("optopt", b'?' as i64),
    ("optarg", 0),
];

/// The value the C library's global `name` holds when a process starts,
/// for one of its own state (see [`STATE_GLOBALS`]).
pub fn state_global_start(name: &str) -> Option<i64> {
    STATE_GLOBALS
        .iter()
        .find(|(global, _)| *global == name)
        .map(|(_, start)| *start)
}

/// What a C library function the drivers mock may return.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MockResult {
    /// 0 on success, -1 on failure.
    Status,
    /// A number 0 or more (a new descriptor, a file offset, processor
    /// time), or -1.
    NonNegative,
    /// A number of bytes up to parameter `count` (from 0), or -1.
    UpTo { count: usize },
    /// A number of ready descriptors (0 or more), or -1.
    Ready,
    /// A stream the test opens over contents it chooses (or a sink), or
    /// NULL: what `fopen` returns.
    Stream,
    /// An id of the process or of its user or group: any value (a process
    /// id, signed, above 0). Tests run as whichever user runs them.
    Id,
    /// The time in seconds (0 or more), also stored through the pointer
    /// argument when it is not NULL: what `time` returns.
    Time,
    /// A pseudo-random number from 0 to 2^31 - 1 (glibc's `RAND_MAX`):
    /// each test chooses the sequence, as if it had chosen the seed.
    Random,
    /// Nothing: seeding the generator, which the mocks of [`Random`]
    /// replace.
    ///
    /// [`Random`]: MockResult::Random
    Seed,
    /// A string the test builds, or NULL: the locale or message domain
    /// `setlocale` and `textdomain` say is in force (a test runs in the
    /// "C" locale, which the mock leaves as it is), a terminal's name.
    Name,
    /// 1 or 0: whether a descriptor is a terminal. A test runs with its
    /// output wherever its runner sends it.
    Truth,
}

/// The argument a variadic mocked function may take after its named ones,
/// which the driver passes on to the C library's own outside a test (gcov
/// opens its counters files with `open(name, flags, mode)`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Trailing {
    /// `open`'s `mode_t`, given only with `O_CREAT` or `O_TMPFILE` in the
    /// flags (the argument before it).
    ModeWhenCreating,
    /// `fcntl`'s and `ioctl`'s: an `int` or a pointer, read as a pointer
    /// (as glibc reads it).
    Word,
}

/// C library functions on files, descriptors, sockets, signals, the clock,
/// the user and the process that the drivers mock: no test can hand the
/// code a descriptor in the state a path needs (a socket with data
/// waiting, a file that fails to sync, a configuration file with chosen
/// contents), nor run as root and as another user, so while a test runs,
/// the driver's definition of each returns what the test scripts, within
/// what the real function may return, and writes what the test scripts
/// through its pointers that are not `const` (`read` at most `count`
/// bytes; `fopen` returns a stream over chosen contents; `time` stores the
/// time it returns); outside a test it is the C library's own. A variadic
/// one takes at most one more argument ([`trailing`]), which the driver
/// passes on; none returns a value the test would have to keep consistent
/// with its arguments (`getcwd` returns its buffer, `dup2` its second
/// argument).
pub const MOCKED: &[(&str, MockResult)] = &[
    ("open", MockResult::NonNegative),
    ("open64", MockResult::NonNegative),
    ("openat", MockResult::NonNegative),
    ("openat64", MockResult::NonNegative),
    ("creat", MockResult::NonNegative),
    ("creat64", MockResult::NonNegative),
    ("fcntl", MockResult::NonNegative),
    ("fcntl64", MockResult::NonNegative),
    ("ioctl", MockResult::NonNegative),
    ("fopen", MockResult::Stream),
    ("fopen64", MockResult::Stream),
    ("fdopen", MockResult::Stream),
    ("read", MockResult::UpTo { count: 2 }),
    ("write", MockResult::UpTo { count: 2 }),
    ("pread", MockResult::UpTo { count: 2 }),
    ("pwrite", MockResult::UpTo { count: 2 }),
    ("recv", MockResult::UpTo { count: 2 }),
    ("send", MockResult::UpTo { count: 2 }),
    ("recvfrom", MockResult::UpTo { count: 2 }),
    ("sendto", MockResult::UpTo { count: 2 }),
    ("close", MockResult::Status),
    ("fsync", MockResult::Status),
    ("fdatasync", MockResult::Status),
    ("ftruncate", MockResult::Status),
    ("stat", MockResult::Status),
    ("fstat", MockResult::Status),
    ("lstat", MockResult::Status),
    ("access", MockResult::Status),
    ("unlink", MockResult::Status),
    ("rmdir", MockResult::Status),
    ("mkdir", MockResult::Status),
    ("rename", MockResult::Status),
    ("chmod", MockResult::Status),
    ("fchmod", MockResult::Status),
    ("pipe", MockResult::Status),
    ("connect", MockResult::Status),
    ("bind", MockResult::Status),
    ("listen", MockResult::Status),
    ("shutdown", MockResult::Status),
    ("setsockopt", MockResult::Status),
    ("getsockopt", MockResult::Status),
    ("getsockname", MockResult::Status),
    ("getpeername", MockResult::Status),
    ("socket", MockResult::NonNegative),
    ("accept", MockResult::NonNegative),
    ("dup", MockResult::NonNegative),
    ("select", MockResult::Ready),
    ("poll", MockResult::Ready),
    ("gettimeofday", MockResult::Status),
    ("clock_gettime", MockResult::Status),
    ("gethostname", MockResult::Status),
    ("uname", MockResult::Status),
    ("sigaction", MockResult::Status),
    ("sigprocmask", MockResult::Status),
    ("getrlimit", MockResult::Status),
    ("setrlimit", MockResult::Status),
    ("chdir", MockResult::Status),
    ("fchdir", MockResult::Status),
    ("statfs", MockResult::Status),
    ("fstatfs", MockResult::Status),
    ("statvfs", MockResult::Status),
    ("fstatvfs", MockResult::Status),
    ("truncate", MockResult::Status),
    ("unlinkat", MockResult::Status),
    ("remove", MockResult::Status),
    ("renameat", MockResult::Status),
    ("link", MockResult::Status),
    ("symlink", MockResult::Status),
    ("chown", MockResult::Status),
    ("fchown", MockResult::Status),
    ("lchown", MockResult::Status),
    ("utime", MockResult::Status),
    ("utimes", MockResult::Status),
    ("faccessat", MockResult::Status),
    ("setuid", MockResult::Status),
    ("setgid", MockResult::Status),
    ("seteuid", MockResult::Status),
    ("setegid", MockResult::Status),
    ("setpgid", MockResult::Status),
    ("chroot", MockResult::Status),
    ("kill", MockResult::Status),
    ("killpg", MockResult::Status),
    ("usleep", MockResult::Status),
    ("nanosleep", MockResult::Status),
    ("lseek", MockResult::NonNegative),
    ("clock", MockResult::NonNegative),
    ("sysconf", MockResult::NonNegative),
    ("getuid", MockResult::Id),
    ("geteuid", MockResult::Id),
    ("getgid", MockResult::Id),
    ("getegid", MockResult::Id),
    ("getpid", MockResult::Id),
    ("getppid", MockResult::Id),
    ("time", MockResult::Time),
    ("rand", MockResult::Random),
    ("random", MockResult::Random),
    ("lrand48", MockResult::Random),
    ("srand", MockResult::Seed),
    ("srandom", MockResult::Seed),
    ("srand48", MockResult::Seed),
    ("isatty", MockResult::Truth),
    ("ttyname", MockResult::Name),
    ("setlocale", MockResult::Name),
    ("bindtextdomain", MockResult::Name),
    ("textdomain", MockResult::Name),
    ("bind_textdomain_codeset", MockResult::Name),
    ("umask", MockResult::NonNegative),
    ("tcgetattr", MockResult::Status),
    ("tcsetattr", MockResult::Status),
];

/// What a variadic mocked function takes after its named arguments.
pub fn trailing(name: &str) -> Option<Trailing> {
    match name {
        "open" | "open64" | "openat" | "openat64" => Some(Trailing::ModeWhenCreating),
        "fcntl" | "fcntl64" | "ioctl" => Some(Trailing::Word),
        _ => None,
    }
}

/// How the drivers mock the C library's `name`, if they do.
pub fn mocked(name: &str) -> Option<MockResult> {
    MOCKED.iter().find(|(n, _)| *n == name).map(|(_, r)| *r)
}

/// Whether the driver defines `func` as a stub: no body in the source (nor
/// one cairn could not read), not a compiler builtin, not from the C
/// library.
pub fn is_stubbed(program: &ir::Program, func: ir::FuncId) -> bool {
    let f = program.function(func);
    f.body.is_none()
        && !program.excluded_definitions.contains(&f.name)
        && !program.file_name(f.span).starts_with('<')
        && !f.name.starts_with("__builtin_")
        && !provides(&f.name)
}

/// The parameters (from 0) of a C library function that GCC's built-in
/// declaration of it says are never NULL where glibc's header does not:
/// GCC gives every pointer parameter of these the `nonnull` attribute, and
/// UBSan checks it at each call (`fwrite(NULL, 0, n, f)` ends a sanitized
/// test).
pub fn builtin_nonnull(name: &str) -> &'static [usize] {
    match name {
        "fwrite" | "fwrite_unlocked" => &[0, 3],
        "fputs" | "fputs_unlocked" => &[0, 1],
        "puts" => &[0],
        "fputc" | "putc" | "fputc_unlocked" | "putc_unlocked" => &[1],
        _ => &[],
    }
}

#[cfg(test)]
mod tests {
    use super::{mocked, provides, trailing, MOCKED};

    #[test]
    fn every_mocked_function_is_the_c_librarys() {
        for (name, _) in MOCKED {
            assert!(provides(name), "{name}");
        }
    }

    #[test]
    fn every_function_with_trailing_arguments_is_mocked() {
        for name in [
            "open", "open64", "openat", "openat64", "fcntl", "fcntl64", "ioctl",
        ] {
            assert!(trailing(name).is_some(), "{name}");
            assert!(mocked(name).is_some(), "{name}");
        }
        assert_eq!(trailing("read"), None);
    }

    #[test]
    fn the_c_library_and_libm_are_known_and_other_libraries_are_not() {
        for name in [
            "strlen",
            "fprintf",
            "malloc_usable_size",
            "getenv",
            "sqrt",
            "lround",
        ] {
            assert!(provides(name), "{name}");
        }
        for name in [
            "g_object_unref",
            "json_parse",
            "Z3_mk_context",
            "not a name",
            "nul\0",
        ] {
            assert!(!provides(name), "{name}");
        }
    }
}
