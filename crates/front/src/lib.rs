//! Front end: C source -> system preprocessor -> lang-c AST -> typed IR.
//!
//! Architecture invariant: the only crate that knows lang-c; it never panics on
//! user input and reports what it cannot handle as diagnostics with file:line:col.

use std::path::PathBuf;

/// How to preprocess and parse one file.
#[derive(Clone, Debug, Default)]
pub struct FrontConfig {
    /// The C compiler used as preprocessor (`cc` when empty).
    pub cc: String,
    pub include_dirs: Vec<PathBuf>,
    /// `NAME` or `NAME=VALUE`.
    pub defines: Vec<String>,
    /// Directory holding a `compile_commands.json` to take flags from.
    pub compile_commands_dir: Option<PathBuf>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Severity {
    Error,
    Warning,
    /// A construct cairn does not support yet; the enclosing function is excluded.
    Unsupported,
}

/// A message tied to a source position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    pub severity: Severity,
    pub file: String,
    pub line: u32,
    pub col: u32,
    pub message: String,
}

impl std::fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let sev = match self.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Unsupported => "unsupported",
        };
        write!(f, "{}:{}:{}: {sev}: {}", self.file, self.line, self.col, self.message)
    }
}

/// The result of the front end on one file.
#[derive(Clone, Debug)]
pub struct FrontOutput {
    pub program: ir::Program,
    /// Functions left out of `program`'s bodies (declared only) and why.
    pub excluded: Vec<(String, Diagnostic)>,
    pub diagnostics: Vec<Diagnostic>,
}
