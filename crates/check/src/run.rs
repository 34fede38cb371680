//! Running the compiler, the drivers and gcov within limits (time for all;
//! output and memory for the generated programs), with captured output.

use std::fmt;
use std::fs::File;
use std::io::{Read, Seek, SeekFrom};
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

/// Largest file a generated program may write, its output included.
const PROGRAM_FILE_SIZE: u64 = 64 << 20;
/// Address space of a generated program run without sanitizers.
const PROGRAM_MEMORY: u64 = 4 << 30;
/// Of a generated program's output, what is kept: the start and the end
/// (where a driver's summary line is).
const KEPT_HEAD: u64 = 1 << 20;
const KEPT_TAIL: u64 = 64 << 10;

/// What one run may use.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    pub time: Duration,
    /// Largest file the process may write, its output included: past it the
    /// kernel stops it (SIGXFSZ), and only the start and end of its output
    /// are read. `None`: the output is read whole (gcov's JSON).
    pub file_size: Option<u64>,
    /// Largest address space. `None` for the compiler, gcov, and programs
    /// under ASan or valgrind, which reserve far more than they use.
    pub memory: Option<u64>,
}

impl Limits {
    /// The compiler and gcov: trusted, bounded in time only.
    pub fn tool(time: Duration) -> Self {
        Limits {
            time,
            file_size: None,
            memory: None,
        }
    }

    /// A generated program: a driver or a reproducer.
    pub fn program(time: Duration) -> Self {
        Limits {
            time,
            file_size: Some(PROGRAM_FILE_SIZE),
            memory: Some(PROGRAM_MEMORY),
        }
    }

    /// For ASan and valgrind, which reserve terabytes of address space.
    pub fn with_huge_address_space(self) -> Self {
        Limits {
            memory: None,
            ..self
        }
    }
}

/// How a finished (or stopped) process ended, with its output.
#[derive(Clone, Debug)]
pub struct Ran {
    pub status: Ending,
    pub stdout: String,
    pub stderr: String,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ending {
    Exited(i32),
    /// Killed by this signal (a crash: SIGSEGV, SIGABRT...).
    Signal(i32),
    /// Still running at this time limit; it was killed.
    TimedOut(Duration),
    /// Stopped by the kernel when a file it wrote, its output included,
    /// passed this many bytes.
    TooMuchOutput(u64),
}

/// A verb phrase: "the driver {ending}".
impl fmt::Display for Ending {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Ending::Exited(code) => write!(f, "exited with status {code}"),
            Ending::Signal(signal) => write!(f, "was killed by signal {}", signal_name(*signal)),
            Ending::TimedOut(limit) => {
                write!(f, "was stopped at its time limit of {} s", limit.as_secs())
            }
            Ending::TooMuchOutput(bytes) => write!(
                f,
                "was stopped when its output passed its limit of {} MiB",
                bytes >> 20
            ),
        }
    }
}

/// `SIGSEGV (segmentation fault)`, as the drivers name the signals.
pub fn signal_name(signal: i32) -> String {
    let name = match signal {
        libc::SIGSEGV => "SIGSEGV (segmentation fault)",
        libc::SIGBUS => "SIGBUS (bus error)",
        libc::SIGFPE => "SIGFPE (arithmetic error, such as a division by zero)",
        libc::SIGILL => "SIGILL (illegal instruction)",
        libc::SIGABRT => "SIGABRT (aborted)",
        libc::SIGTRAP => "SIGTRAP (trap)",
        libc::SIGSYS => "SIGSYS (bad system call)",
        libc::SIGKILL => "SIGKILL (killed)",
        libc::SIGTERM => "SIGTERM (terminated)",
        libc::SIGPIPE => "SIGPIPE (wrote to a closed pipe)",
        libc::SIGALRM => "SIGALRM (alarm clock)",
        libc::SIGXCPU => "SIGXCPU (CPU time limit exceeded)",
        libc::SIGXFSZ => "SIGXFSZ (file size limit exceeded)",
        other => return other.to_string(),
    };
    name.to_string()
}

impl Ran {
    pub fn success(&self) -> bool {
        self.status == Ending::Exited(0)
    }
}

/// Runs `command` in `dir` within `limits`, its output going to files in
/// `dir` named after `label` (no pipe can fill up and block it).
pub fn run(command: &mut Command, dir: &Path, label: &str, limits: Limits) -> Result<Ran, String> {
    let out_path = dir.join(format!("{label}.stdout"));
    let err_path = dir.join(format!("{label}.stderr"));
    let stdout = File::create(&out_path).map_err(|e| format!("{}: {e}", out_path.display()))?;
    let stderr = File::create(&err_path).map_err(|e| format!("{}: {e}", err_path.display()))?;
    let program = command.get_program().to_string_lossy().into_owned();
    limit_resources(command, limits);
    let mut child = command
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(stdout)
        .stderr(stderr)
        .spawn()
        .map_err(|e| format!("cannot run `{program}`: {e}"))?;
    let deadline = Instant::now() + limits.time;
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break ending(status, limits),
            Ok(None) if Instant::now() >= deadline => {
                // Already exited between the two calls is fine: ignore errors.
                let _ = child.kill();
                let _ = child.wait();
                break Ending::TimedOut(limits.time);
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(10)),
            Err(e) => return Err(format!("waiting for `{program}`: {e}")),
        }
    };
    let capped = limits.file_size.is_some();
    Ok(Ran {
        status,
        stdout: read_output(&out_path, capped),
        stderr: read_output(&err_path, capped),
    })
}

/// Sets the limits on file size, core dumps and memory in the child, before
/// it runs the program; only ever lowers them.
fn limit_resources(command: &mut Command, limits: Limits) {
    if limits.file_size.is_none() && limits.memory.is_none() {
        return;
    }
    let set = move || {
        if let Some(bytes) = limits.file_size {
            lower_limit(libc::RLIMIT_FSIZE, bytes)?;
            // A crash writes no core file beside the build.
            lower_limit(libc::RLIMIT_CORE, 0)?;
        }
        if let Some(bytes) = limits.memory {
            lower_limit(libc::RLIMIT_AS, bytes)?;
        }
        Ok(())
    };
    // SAFETY: the closure runs in the forked child before exec, where only
    // async-signal-safe calls are sound: it calls getrlimit and setrlimit
    // only, and allocates nothing.
    unsafe {
        command.pre_exec(set);
    }
}

/// Lowers the soft limit of `resource` to `value` (never above the hard limit).
fn lower_limit(resource: libc::__rlimit_resource_t, value: u64) -> std::io::Result<()> {
    let mut limit = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit and setrlimit only read or write the struct passed to them.
    if unsafe { libc::getrlimit(resource, &mut limit) } != 0 {
        return Err(std::io::Error::last_os_error());
    }
    limit.rlim_cur = limit.rlim_cur.min(value);
    // SAFETY: as above.
    if unsafe { libc::setrlimit(resource, &limit) } != 0 {
        return Err(std::io::Error::last_os_error());
    }
    Ok(())
}

fn ending(status: ExitStatus, limits: Limits) -> Ending {
    match (status.code(), status.signal(), limits.file_size) {
        (Some(code), _, _) => Ending::Exited(code),
        (None, Some(libc::SIGXFSZ), Some(bytes)) => Ending::TooMuchOutput(bytes),
        (None, Some(signal), _) => Ending::Signal(signal),
        (None, None, _) => Ending::Exited(-1),
    }
}

/// An output file as text: whole, or when `capped` and long, its first
/// [`KEPT_HEAD`] and last [`KEPT_TAIL`] bytes around a line saying how much
/// was cut.
fn read_output(path: &Path, capped: bool) -> String {
    let Ok(mut file) = File::open(path) else {
        return String::new();
    };
    let size = file.metadata().map(|m| m.len()).unwrap_or(0);
    let mut head = Vec::new();
    if !capped || size <= KEPT_HEAD + KEPT_TAIL {
        let _ = file.read_to_end(&mut head);
        return String::from_utf8_lossy(&head).into_owned();
    }
    let mut tail = Vec::new();
    let read = (&mut file).take(KEPT_HEAD).read_to_end(&mut head).is_ok()
        && file.seek(SeekFrom::Start(size - KEPT_TAIL)).is_ok()
        && file.read_to_end(&mut tail).is_ok();
    if !read {
        return String::from_utf8_lossy(&head).into_owned();
    }
    format!(
        "{}\n[cairn: {} bytes of output cut here]\n{}",
        String::from_utf8_lossy(&head),
        size - KEPT_HEAD - KEPT_TAIL,
        String::from_utf8_lossy(&tail)
    )
}

/// The gcov that matches a gcc: `gcc` -> `gcov`, `gcc-12` -> `gcov-12`,
/// `/usr/bin/x86_64-linux-gnu-gcc-12` -> `/usr/bin/x86_64-linux-gnu-gcov-12`.
pub fn gcov_for(cc: &str) -> String {
    let path = PathBuf::from(cc);
    let Some(name) = path.file_name().and_then(|n| n.to_str()) else {
        return "gcov".to_string();
    };
    let gcov_name = match name.rfind("gcc") {
        Some(at) => format!("{}gcov{}", &name[..at], &name[at + 3..]),
        None => "gcov".to_string(),
    };
    path.with_file_name(gcov_name)
        .to_string_lossy()
        .into_owned()
}

/// The first lines of a long text, for reports.
pub fn excerpt(text: &str, lines: usize) -> String {
    let mut out: Vec<&str> = text.lines().take(lines).collect();
    if text.lines().count() > lines {
        out.push("...");
    }
    out.join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gcov_matches_the_compiler() {
        assert_eq!(gcov_for("gcc"), "gcov");
        assert_eq!(gcov_for("gcc-12"), "gcov-12");
        assert_eq!(
            gcov_for("/usr/bin/x86_64-linux-gnu-gcc-12"),
            "/usr/bin/x86_64-linux-gnu-gcov-12"
        );
        assert_eq!(gcov_for("cc"), "gcov");
    }

    #[test]
    fn reports_exit_codes_signals_and_timeouts() {
        let dir = tempfile::tempdir().unwrap();
        let limits = Limits::tool(Duration::from_secs(5));
        let ran = run(
            Command::new("sh").args(["-c", "echo hi; exit 3"]),
            dir.path(),
            "a",
            limits,
        )
        .unwrap();
        assert_eq!(ran.status, Ending::Exited(3));
        assert_eq!(ran.stdout, "hi\n");
        let ran = run(
            Command::new("sh").args(["-c", "kill -SEGV $$"]),
            dir.path(),
            "b",
            limits,
        )
        .unwrap();
        assert_eq!(ran.status, Ending::Signal(11));
        assert_eq!(
            ran.status.to_string(),
            "was killed by signal SIGSEGV (segmentation fault)"
        );
        let quick = Duration::from_millis(100);
        let ran = run(
            Command::new("sleep").arg("5"),
            dir.path(),
            "c",
            Limits::tool(quick),
        )
        .unwrap();
        assert_eq!(ran.status, Ending::TimedOut(quick));
    }

    #[test]
    fn a_long_output_is_cut_in_the_middle() {
        let dir = tempfile::tempdir().unwrap();
        let ran = run(
            Command::new("sh").args(["-c", "yes | head -c 3000000; echo; echo the end"]),
            dir.path(),
            "long",
            Limits::program(Duration::from_secs(30)),
        )
        .unwrap();
        assert_eq!(ran.status, Ending::Exited(0));
        let cut = 3_000_000 + 1 + 8 - (KEPT_HEAD + KEPT_TAIL);
        assert!(
            ran.stdout
                .contains(&format!("\n[cairn: {cut} bytes of output cut here]\n")),
            "{}",
            excerpt(&ran.stdout, 3)
        );
        assert!(ran.stdout.ends_with("y\ny\n\nthe end\n"));
        assert!(ran.stdout.len() < (KEPT_HEAD + KEPT_TAIL + 100) as usize);
    }

    #[test]
    fn a_program_that_prints_without_end_is_stopped() {
        let dir = tempfile::tempdir().unwrap();
        let ran = run(
            &mut Command::new("yes"),
            dir.path(),
            "flood",
            Limits::program(Duration::from_secs(60)),
        )
        .unwrap();
        assert_eq!(ran.status, Ending::TooMuchOutput(PROGRAM_FILE_SIZE));
        assert_eq!(
            ran.status.to_string(),
            "was stopped when its output passed its limit of 64 MiB"
        );
        assert!(ran.stdout.contains("bytes of output cut here"));
    }

    #[test]
    fn a_generated_program_gets_limited_memory_unless_sanitized() {
        let dir = tempfile::tempdir().unwrap();
        let source = dir.path().join("big.c");
        std::fs::write(
            &source,
            "#include <stdio.h>\n#include <stdlib.h>\n\
             int main(void) { puts(malloc((size_t)5 << 30) ? \"got 5 GiB\" : \"no memory\"); return 0; }\n",
        )
        .unwrap();
        let binary = dir.path().join("big");
        let compiled = Command::new("gcc")
            .arg(&source)
            .arg("-o")
            .arg(&binary)
            .status()
            .unwrap();
        assert!(compiled.success());
        let limits = Limits::program(Duration::from_secs(30));
        let ran = run(&mut Command::new(&binary), dir.path(), "big", limits).unwrap();
        assert_eq!(ran.stdout, "no memory\n");
        let address_space = |limits| {
            let mut command = Command::new("sh");
            command.args(["-c", "ulimit -v"]);
            run(&mut command, dir.path(), "ulimit", limits)
                .unwrap()
                .stdout
        };
        assert_eq!(address_space(limits), format!("{}\n", PROGRAM_MEMORY >> 10));
        assert_ne!(
            address_space(limits.with_huge_address_space()),
            format!("{}\n", PROGRAM_MEMORY >> 10)
        );
    }
}
