//! Running the compiler, the driver and gcov with captured output and a time limit.

use std::fs::File;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

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
    /// Still running at the time limit; it was killed.
    TimedOut,
}

impl Ran {
    pub fn success(&self) -> bool {
        self.status == Ending::Exited(0)
    }
}

/// Runs `command` in `dir`, its output going to files in `dir` named after
/// `label` (no pipe can fill up and block it), killing it after `limit`.
pub fn run(command: &mut Command, dir: &Path, label: &str, limit: Duration) -> Result<Ran, String> {
    let out_path = dir.join(format!("{label}.stdout"));
    let err_path = dir.join(format!("{label}.stderr"));
    let stdout = File::create(&out_path).map_err(|e| format!("{}: {e}", out_path.display()))?;
    let stderr = File::create(&err_path).map_err(|e| format!("{}: {e}", err_path.display()))?;
    let program = command.get_program().to_string_lossy().into_owned();
    let mut child = command
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(stdout)
        .stderr(stderr)
        .spawn()
        .map_err(|e| format!("cannot run `{program}`: {e}"))?;
    let deadline = Instant::now() + limit;
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break ending(status),
            Ok(None) if Instant::now() >= deadline => {
                // Already exited between the two calls is fine: ignore errors.
                let _ = child.kill();
                let _ = child.wait();
                break Ending::TimedOut;
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(10)),
            Err(e) => return Err(format!("waiting for `{program}`: {e}")),
        }
    };
    Ok(Ran {
        status,
        stdout: read_lossy(&out_path),
        stderr: read_lossy(&err_path),
    })
}

fn ending(status: ExitStatus) -> Ending {
    use std::os::unix::process::ExitStatusExt;
    match (status.code(), status.signal()) {
        (Some(code), _) => Ending::Exited(code),
        (None, Some(signal)) => Ending::Signal(signal),
        (None, None) => Ending::Exited(-1),
    }
}

fn read_lossy(path: &Path) -> String {
    std::fs::read(path)
        .map(|b| String::from_utf8_lossy(&b).into_owned())
        .unwrap_or_default()
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
        let ran = run(
            Command::new("sh").args(["-c", "echo hi; exit 3"]),
            dir.path(),
            "a",
            Duration::from_secs(5),
        )
        .unwrap();
        assert_eq!(ran.status, Ending::Exited(3));
        assert_eq!(ran.stdout, "hi\n");
        let ran = run(
            Command::new("sh").args(["-c", "kill -SEGV $$"]),
            dir.path(),
            "b",
            Duration::from_secs(5),
        )
        .unwrap();
        assert_eq!(ran.status, Ending::Signal(11));
        let ran = run(
            Command::new("sleep").arg("5"),
            dir.path(),
            "c",
            Duration::from_millis(100),
        )
        .unwrap();
        assert_eq!(ran.status, Ending::TimedOut);
    }
}
