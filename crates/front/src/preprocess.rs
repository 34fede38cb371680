//! Running the system C preprocessor with flags from the config and, when
//! given, from the file's entry in a `compile_commands.json`.

use crate::linemap::parse_marker;
use crate::{Diagnostic, FrontConfig, Severity};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

fn file_error(path: &Path, message: String) -> Diagnostic {
    Diagnostic {
        severity: Severity::Error,
        file: path.display().to_string(),
        line: 0,
        col: 0,
        message,
    }
}

/// Preprocessed text, and the macros defined at its end.
pub(crate) struct Preprocessed {
    pub text: String,
    pub macros: BTreeSet<String>,
    /// What `#pragma GCC poison` forbids in the file or its own headers
    /// (the preprocessor obeys the pragma and prints nothing of it).
    pub poisoned: Vec<String>,
}

/// Runs `<cc> -E` on `path` and returns the preprocessed text.
pub(crate) fn preprocess(path: &Path, config: &FrontConfig) -> Result<Preprocessed, Diagnostic> {
    match std::fs::metadata(path) {
        Err(e) => return Err(file_error(path, crate::io_message(&e))),
        Ok(m) if !m.is_file() => return Err(file_error(path, "not a regular file".into())),
        Ok(_) => {}
    }
    let bytes = std::fs::read(path).map_err(|e| file_error(path, crate::io_message(&e)))?;
    let text = String::from_utf8_lossy(&bytes);
    let already_preprocessed = ir::preprocessed::is_preprocessed(path, &text);
    let (cc, mut cmd) = compiler(path, config, "-E")?;
    // The directives stay in the text, where the file has them.
    cmd.arg("-dD");
    let output = if already_preprocessed {
        // Read again as a source (its system headers included again), from
        // stdin: the markers then name `<stdin>`, which is the file.
        let source = ir::preprocessed::as_source(&text);
        cmd.args(["-x", "c", "-"]);
        with_stdin(&mut cmd, source.into_bytes())
    } else {
        cmd.arg(path);
        cmd.output()
    }
    .map_err(|e| {
        let why = crate::io_message(&e);
        file_error(path, format!("cannot run the preprocessor `{cc}`: {why}"))
    })?;
    if !output.status.success() {
        let stderr = String::from_utf8_lossy(&output.stderr);
        let first = stderr
            .lines()
            .find(|l| l.contains("error"))
            .unwrap_or(stderr.trim());
        return Err(preprocessor_error(path, first));
    }
    let printed = String::from_utf8_lossy(&output.stdout);
    if already_preprocessed {
        let name = path
            .display()
            .to_string()
            .replace('\\', "\\\\")
            .replace('"', "\\\"");
        let named = printed.replace("\"<stdin>\"", &format!("\"{name}\""));
        return Ok(without_directives(&named));
    }
    let mut preprocessed = without_directives(&printed);
    preprocessed.poisoned = poisoned_in_own_files(&printed);
    Ok(preprocessed)
}

/// The names poisoned in the files the line markers of `printed` name,
/// system headers left out. Read from the files as written: a pragma in a
/// branch the preprocessor skipped counts too, which costs nothing (a
/// driver naming a name through its alias gets the same name).
fn poisoned_in_own_files(printed: &str) -> Vec<String> {
    let files: BTreeSet<String> = printed
        .lines()
        .filter_map(parse_marker)
        .filter(|marker| !marker.system_header && !marker.file.starts_with('<'))
        .map(|marker| marker.file)
        .collect();
    let names: BTreeSet<String> = files
        .into_iter()
        .filter_map(|name| std::fs::read(name).ok())
        .flat_map(|bytes| crate::pragma::poisoned_names(&String::from_utf8_lossy(&bytes)))
        .collect();
    names.into_iter().collect()
}

impl Preprocessed {
    /// Whether any of `names` is an identifier of the main file's own
    /// lines (those outside every included file, `#line` renames and macro
    /// expansions included): a file defining a function spells its name
    /// there, even when a macro pastes it together.
    pub fn main_file_mentions(&self, names: &[String]) -> bool {
        let mut depth = 0usize;
        let mut in_main = false;
        for line in self.text.lines() {
            if let Some(marker) = parse_marker(line) {
                if marker.enters {
                    depth += 1;
                } else if marker.returns {
                    depth = depth.saturating_sub(1);
                }
                // `<built-in>` and `<command-line>` come before the file.
                in_main = depth == 0 && !marker.file.starts_with('<');
            } else if in_main
                && line
                    .split(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '$'))
                    .any(|word| names.iter().any(|name| name == word))
            {
                return true;
            }
        }
        false
    }
}

/// Runs `cmd` with `input` on its standard input.
fn with_stdin(cmd: &mut Command, input: Vec<u8>) -> std::io::Result<std::process::Output> {
    use std::io::Write;
    use std::process::Stdio;
    let mut child = cmd
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()?;
    let mut stdin = child.stdin.take().expect("stdin is piped");
    // Written by another thread: the child's output may fill its pipe first.
    let writer = std::thread::spawn(move || stdin.write_all(&input));
    let output = child.wait_with_output()?;
    writer.join().unwrap_or(Ok(()))?;
    Ok(output)
}

/// The text `-dD` printed with each `#define` and `#undef` line left empty
/// (every later line keeps its number), and the macros still defined at
/// its end.
fn without_directives(printed: &str) -> Preprocessed {
    let mut macros = BTreeSet::new();
    let mut text = String::with_capacity(printed.len());
    for line in printed.split_inclusive('\n') {
        if let Some(name) = directive_name(line, "define") {
            macros.insert(name.to_string());
        } else if let Some(name) = directive_name(line, "undef") {
            macros.remove(name);
        } else {
            text.push_str(line);
            continue;
        }
        if line.ends_with('\n') {
            text.push('\n');
        }
    }
    Preprocessed {
        text,
        macros,
        poisoned: Vec::new(),
    }
}

/// The macro a `#keyword NAME ...` line names.
fn directive_name<'l>(line: &'l str, keyword: &str) -> Option<&'l str> {
    let rest = line.strip_prefix('#')?.trim_start().strip_prefix(keyword)?;
    if !rest.starts_with([' ', '\t']) {
        return None;
    }
    let rest = rest.trim_start();
    let end = (rest.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))).unwrap_or(rest.len());
    (end > 0).then(|| &rest[..end])
}

/// The system compiler run on `path` with `mode` (`-E`, `-fsyntax-only`)
/// and the file's flags.
fn compiler(
    path: &Path,
    config: &FrontConfig,
    mode: &str,
) -> Result<(String, Command), Diagnostic> {
    let cc = if config.cc.is_empty() {
        "cc"
    } else {
        config.cc.as_str()
    };
    let mut cmd = Command::new(cc);
    cmd.arg(mode);
    // `<limits.h>`, `size_t` and `__SIZEOF_LONG__` must be the target's.
    cmd.arg(config.data_model.gcc_flag());
    // glibc's <ctype.h> macros index a locale table through
    // `__ctype_b_loc()`; without them `isdigit(c)` stays a call, which the
    // engine models for the C locale (the driver, built without this
    // define, gets the same answers from the table).
    cmd.arg("-D__NO_CTYPE");
    if let Some(dir) = &config.compile_commands_dir {
        for flag in flags_from_compile_commands(dir, path)? {
            cmd.args(flag.args());
        }
    }
    for dir in &config.include_dirs {
        cmd.arg(format!("-I{}", dir.display()));
    }
    for define in &config.defines {
        cmd.arg(format!("-D{define}"));
    }
    Ok((cc.to_string(), cmd))
}

/// Whether the system compiler takes the file: a construct the parser
/// cannot read is then an extension, not an error in the file.
pub(crate) fn compiler_accepts(path: &Path, config: &FrontConfig) -> bool {
    let Ok((_, mut cmd)) = compiler(path, config, "-fsyntax-only") else {
        return false;
    };
    cmd.arg(path);
    cmd.arg("-w");
    cmd.stderr(std::process::Stdio::null());
    cmd.status().is_ok_and(|status| status.success())
}

/// Turns `file.c:3:10: fatal error: x.h: No such file` into a positioned diagnostic.
fn preprocessor_error(path: &Path, line: &str) -> Diagnostic {
    let mut parts = line.splitn(4, ':');
    let (file, l, c, rest) = (parts.next(), parts.next(), parts.next(), parts.next());
    match (
        file,
        l.and_then(|l| l.trim().parse().ok()),
        c.and_then(|c| c.trim().parse().ok()),
        rest,
    ) {
        (Some(file), Some(line), Some(col), Some(rest)) => Diagnostic {
            severity: Severity::Error,
            file: file.to_string(),
            line,
            col,
            message: format!("preprocessor: {}", rest.trim()),
        },
        _ => file_error(path, format!("preprocessor failed: {}", line.trim())),
    }
}

/// The entries of `dir/compile_commands.json`.
fn compile_database(dir: &Path) -> Result<Vec<serde_json::Value>, Diagnostic> {
    let db_path = dir.join("compile_commands.json");
    let text = std::fs::read_to_string(&db_path)
        .map_err(|e| file_error(&db_path, crate::io_message(&e)))?;
    serde_json::from_str(&text).map_err(|e| file_error(&db_path, format!("invalid JSON: {e}")))
}

/// An entry's directory and its file resolved against it (canonical when
/// the file exists).
fn entry_file(entry: &serde_json::Value) -> Option<(PathBuf, PathBuf)> {
    let directory = PathBuf::from(
        entry
            .get("directory")
            .and_then(|d| d.as_str())
            .unwrap_or("."),
    );
    let file = directory.join(entry.get("file")?.as_str()?);
    let file = std::fs::canonicalize(&file).unwrap_or(file);
    Some((directory, file))
}

/// The C files `dir/compile_commands.json` compiles, each once, in its order.
pub fn compile_database_files(dir: &Path) -> Result<Vec<PathBuf>, Diagnostic> {
    let mut files: Vec<PathBuf> = Vec::new();
    let mut seen = std::collections::BTreeSet::new();
    for entry in &compile_database(dir)? {
        if let Some((_, file)) = entry_file(entry) {
            if file.extension().is_some_and(|e| e == "c") && seen.insert(file.clone()) {
                files.push(file);
            }
        }
    }
    Ok(files)
}

/// A flag of a compile command that changes the preprocessed text, with
/// relative paths resolved against the command's directory.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SourceFlag {
    /// `-I DIR`.
    IncludeDir(PathBuf),
    /// `-D NAME` or `-D NAME=VALUE`.
    Define(String),
    /// `-U NAME`.
    Undefine(String),
    /// `-include FILE` (`macros_only`: `-imacros FILE`), read before the source.
    ForcedInclude { file: PathBuf, macros_only: bool },
    /// Any other flag kept, as the compiler takes it: a search directory
    /// (`-iquote DIR`, `-isystem DIR`, `-idirafter DIR`, `--sysroot=DIR`),
    /// the dialect (`-std=gnu89`, `-ansi`, `-fsigned-char`...), a
    /// predefined macro's source (`-pthread`, `-fPIC`, `-fopenmp`,
    /// `-march=...`, `-mavx2`...).
    Other(Vec<String>),
}

impl SourceFlag {
    /// The flag's words on a compiler's command line.
    pub fn args(&self) -> Vec<String> {
        match self {
            SourceFlag::IncludeDir(dir) => vec![format!("-I{}", dir.display())],
            SourceFlag::Define(define) => vec![format!("-D{define}")],
            SourceFlag::Undefine(name) => vec![format!("-U{name}")],
            SourceFlag::ForcedInclude { file, macros_only } => {
                let flag = if *macros_only { "-imacros" } else { "-include" };
                vec![flag.to_string(), file.display().to_string()]
            }
            SourceFlag::Other(words) => words.clone(),
        }
    }
}

/// The flags of `file`'s entry in `dir/compile_commands.json` that change
/// its preprocessed text (see [`preprocessor_flags`]).
pub fn flags_from_compile_commands(dir: &Path, file: &Path) -> Result<Vec<SourceFlag>, Diagnostic> {
    let db_path = dir.join("compile_commands.json");
    let wanted = std::fs::canonicalize(file).unwrap_or_else(|_| file.to_path_buf());
    for entry in &compile_database(dir)? {
        let Some((directory, entry_path)) = entry_file(entry) else {
            continue;
        };
        if entry_path != wanted {
            continue;
        }
        let args: Vec<String> = match (entry.get("arguments"), entry.get("command")) {
            (Some(serde_json::Value::Array(a)), _) => a
                .iter()
                .filter_map(|v| v.as_str().map(String::from))
                .collect(),
            (_, Some(serde_json::Value::String(c))) => split_command(c),
            _ => Vec::new(),
        };
        return Ok(preprocessor_flags(&args, &directory));
    }
    Err(file_error(
        &db_path,
        format!("no entry for {}", file.display()),
    ))
}

/// Flags taking a value, joined (`-Idir`) or apart (`-I dir`), and whether
/// the value is a path.
const FLAGS_WITH_VALUE: &[(&str, bool)] = &[
    ("-I", true),
    ("-D", false),
    ("-U", false),
    ("-include", true),
    ("-imacros", true),
    ("-iquote", true),
    ("-isystem", true),
    ("-idirafter", true),
    ("-isysroot", true),
];

/// Flags without a value that change the preprocessed text: they choose
/// the dialect or predefine macros (`__CHAR_UNSIGNED__`, `_REENTRANT`,
/// `__PIC__`, `_OPENMP`, `__FAST_MATH__`, `__GNUC_GNU_INLINE__`...).
const DIALECT_FLAGS: &[&str] = &[
    "-ansi",
    "-pthread",
    "-nostdinc",
    "-undef",
    "-trigraphs",
    "-fsigned-char",
    "-funsigned-char",
    "-fno-signed-char",
    "-fno-unsigned-char",
    "-fshort-wchar",
    "-fopenmp",
    "-fPIC",
    "-fpic",
    "-fPIE",
    "-fpie",
    "-fno-PIC",
    "-fno-pic",
    "-fno-PIE",
    "-fno-pie",
    "-fgnu89-inline",
    "-fno-gnu89-inline",
    "-ffast-math",
    "-ffinite-math-only",
    "-fno-math-errno",
];

/// Flags with a joined value that change the preprocessed text.
const DIALECT_PREFIXES: &[&str] = &["-std=", "--sysroot="];

/// The flags of a compile command (`args[0]` is the compiler) that change
/// the preprocessed text, in their order. Left out on purpose: `-O` levels
/// (`__OPTIMIZE__` only selects the C library's optional inline versions
/// of functions the engine models, `__USE_EXTERN_INLINES` and
/// `_FORTIFY_SOURCE` wrappers) and `-m32`/`-m64`/`-mx32`, which the data
/// model decides (`FrontConfig::data_model`). Kept `-m` flags choose
/// instruction sets (`-mavx2` defines `__AVX2__`).
fn preprocessor_flags(args: &[String], directory: &Path) -> Vec<SourceFlag> {
    let resolve = |p: &str| -> PathBuf {
        let path = Path::new(p);
        if path.is_absolute() {
            path.to_path_buf()
        } else {
            directory.join(path)
        }
    };
    let mut out = Vec::new();
    let mut iter = args.iter().skip(1);
    while let Some(arg) = iter.next() {
        let with_value = FLAGS_WITH_VALUE
            .iter()
            .find(|(flag, _)| arg.starts_with(flag));
        if let Some(&(flag, is_path)) = with_value {
            let value = match &arg[flag.len()..] {
                "" => iter.next().cloned(),
                joined => Some(joined.to_string()),
            };
            let Some(value) = value else {
                continue;
            };
            out.push(match flag {
                "-I" => SourceFlag::IncludeDir(resolve(&value)),
                "-D" => SourceFlag::Define(value),
                "-U" => SourceFlag::Undefine(value),
                "-include" | "-imacros" => {
                    // gcc looks for it in the command's directory first, then
                    // along the `#include "..."` chain.
                    let in_directory = resolve(&value);
                    let file = match in_directory.exists() {
                        true => in_directory,
                        false => PathBuf::from(value),
                    };
                    SourceFlag::ForcedInclude {
                        file,
                        macros_only: flag == "-imacros",
                    }
                }
                _ if is_path => SourceFlag::Other(vec![
                    flag.to_string(),
                    resolve(&value).display().to_string(),
                ]),
                _ => SourceFlag::Other(vec![flag.to_string(), value]),
            });
            continue;
        }
        let data_model = matches!(arg.as_str(), "-m32" | "-m64" | "-mx32" | "-m16");
        let instruction_set = arg.starts_with("-m") && !data_model;
        if DIALECT_FLAGS.contains(&arg.as_str())
            || DIALECT_PREFIXES.iter().any(|p| arg.starts_with(p))
            || instruction_set
        {
            out.push(match arg.strip_prefix("--sysroot=") {
                Some(dir) => {
                    SourceFlag::Other(vec![format!("--sysroot={}", resolve(dir).display())])
                }
                None => SourceFlag::Other(vec![arg.clone()]),
            });
        }
    }
    out
}

/// Splits a shell command line (quotes and backslashes, no expansion).
fn split_command(command: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut quote: Option<char> = None;
    let mut chars = command.chars();
    while let Some(c) = chars.next() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some('"'), '\\') | (None, '\\') => {
                if let Some(next) = chars.next() {
                    word.push(next);
                }
                in_word = true;
            }
            (Some(_), c) => word.push(c),
            (None, '"') | (None, '\'') => {
                quote = Some(c);
                in_word = true;
            }
            (None, c) if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            (None, c) => {
                word.push(c);
                in_word = true;
            }
        }
    }
    if in_word {
        words.push(word);
    }
    words
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_main_file_mentions_names_outside_its_included_files() {
        let printed = "# 0 \"a.c\"\n# 0 \"<built-in>\"\nint predefined;\n# 1 \"a.h\" 1\nint declared(void);\n# 2 \"a.c\" 2\nint get_width(void) { return 0; }\n#line 7 \"grammar.y\"\nint parsed;\n";
        let preprocessed = without_directives(printed);
        let mentions = |name: &str| preprocessed.main_file_mentions(&[name.to_string()]);
        assert!(mentions("get_width") && mentions("parsed"));
        assert!(!mentions("declared") && !mentions("predefined") && !mentions("get"));
    }

    #[test]
    fn directives_leave_empty_lines_and_the_macros_defined_at_the_end() {
        let printed = "# 1 \"a.c\"\n#define encrypt client_encrypt\n#define  MAX(a, b) a\nint x;\n#undef MAX\n#pragma once\n#define\tLEN 3";
        let preprocessed = without_directives(printed);
        assert_eq!(
            preprocessed.text,
            "# 1 \"a.c\"\n\n\nint x;\n\n#pragma once\n"
        );
        let macros: Vec<&str> = preprocessed.macros.iter().map(String::as_str).collect();
        assert_eq!(macros, ["LEN", "encrypt"]);
    }

    #[test]
    fn splits_quoted_commands() {
        assert_eq!(
            split_command(r#"cc -DX="a b" 'c d' e\ f"#),
            vec!["cc", "-DX=a b", "c d", "e f"]
        );
    }

    #[test]
    fn keeps_the_flags_that_change_the_preprocessed_text() {
        let args: Vec<String> = [
            "cc",
            "-Iinc",
            "-I",
            "/abs",
            "-DA=1",
            "-O2",
            "-c",
            "-std=c99",
            "-isystem",
            "sys",
            "-UB",
            "-iquote",
            "../include",
            "-include",
            "absent.h",
            "-imacros",
            "/cfg.h",
            "-m64",
            "-mavx2",
            "-fPIC",
            "-g",
            "-Wall",
            "-pthread",
            "-o",
            "x.o",
            "x.c",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        let flags = preprocessor_flags(&args, Path::new("/proj"));
        let other =
            |words: &[&str]| SourceFlag::Other(words.iter().map(|w| w.to_string()).collect());
        assert_eq!(
            flags,
            vec![
                SourceFlag::IncludeDir("/proj/inc".into()),
                SourceFlag::IncludeDir("/abs".into()),
                SourceFlag::Define("A=1".into()),
                other(&["-std=c99"]),
                other(&["-isystem", "/proj/sys"]),
                SourceFlag::Undefine("B".into()),
                other(&["-iquote", "/proj/../include"]),
                SourceFlag::ForcedInclude {
                    file: "absent.h".into(),
                    macros_only: false
                },
                SourceFlag::ForcedInclude {
                    file: "/cfg.h".into(),
                    macros_only: true
                },
                other(&["-mavx2"]),
                other(&["-fPIC"]),
                other(&["-pthread"]),
            ]
        );
        let words: Vec<String> = flags.iter().flat_map(SourceFlag::args).collect();
        assert_eq!(words[..3], ["-I/proj/inc", "-I/abs", "-DA=1"]);
    }
}
