//! Keeping the tests of unchanged functions: a rerun of `gen` into the same
//! output directory explores again only the functions whose exploration
//! could give something else, and takes the others' reports from the run
//! record of the last run.
//!
//! A function's key is a hash of all its exploration may depend on: the
//! build of cairn, the engine configuration and the source's flags, the
//! whole-program facts the engine derives, the struct layouts, the globals
//! and every function's name and type (so that the ids a report holds mean the same), and the
//! code of each function the exploration may run, with its lines counted
//! from the function's own line and the string literals it reads spelled
//! out. Code added or removed above a function moves it without changing
//! its key; a finding's line is then moved with it.

use crate::journal::Entry;
use crate::record::{fnv1a, fnv1a_more, RunRecord};
use serde::{Deserialize, Serialize};
use std::fmt::Write;

/// Which build of cairn runs: a report of another build (an upgrade, a
/// rebuild) is never reused, since its engine may find other tests. The
/// executable's size and modification time, read once; `None` when they
/// cannot be read, and then nothing is reused.
pub fn build_identity() -> Option<String> {
    let metadata = std::env::current_exe().ok()?.metadata().ok()?;
    let modified = metadata
        .modified()
        .ok()?
        .duration_since(std::time::UNIX_EPOCH)
        .ok()?;
    Some(format!(
        "cairn {} ({} bytes, built {}.{:09})",
        env!("CARGO_PKG_VERSION"),
        metadata.len(),
        modified.as_secs(),
        modified.subsec_nanos()
    ))
}

/// What a run record keeps of a function whose report may be reused.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq, Eq)]
pub struct Reusable {
    pub function: String,
    /// The hash of all the function's exploration depends on.
    pub key: String,
    /// Where each function the exploration may run began in the source,
    /// to move the lines of findings with their code.
    pub lines: Vec<FunctionLine>,
}

#[derive(Serialize, Deserialize, Debug, Clone, PartialEq, Eq)]
pub struct FunctionLine {
    pub function: String,
    pub file: u32,
    pub line: u32,
}

/// The reusable reports of the last run, by function: those its record
/// lists, and those of the journal a stopped run left.
pub struct Earlier {
    keys: std::collections::HashMap<String, Reusable>,
    reports: std::collections::HashMap<ir::FuncId, testcase::FunctionReport>,
}

impl Earlier {
    /// A journal's entries are newer than the record beside it.
    pub fn new(record: Option<RunRecord>, journal: Vec<Entry>) -> Earlier {
        let (keys, reports) = record
            .map(|record| (record.reusable, record.reports))
            .unwrap_or_default();
        let mut earlier = Earlier {
            keys: keys.into_iter().map(|k| (k.function.clone(), k)).collect(),
            reports: reports.into_iter().map(|r| (r.func, r)).collect(),
        };
        for entry in journal {
            earlier.keys.insert(entry.key.function.clone(), entry.key);
            earlier.reports.insert(entry.report.func, entry.report);
        }
        earlier
    }
}

/// The keys of the functions of one program under one configuration.
pub struct Keys<'p> {
    program: &'p ir::Program,
    dependencies: engine::Dependencies,
    /// The hash and length of what every key of the program includes
    /// (hashed once: it grows with the program).
    common: (u64, usize),
    /// Each function's part of a key, made once: construction functions
    /// are dependencies of most functions of a file.
    function_texts: Vec<std::cell::OnceCell<String>>,
}

impl<'p> Keys<'p> {
    /// `settings`: the configuration and source flags as text.
    pub fn new(
        program: &'p ir::Program,
        config: &engine::EngineConfig,
        settings: &str,
    ) -> Keys<'p> {
        let dependencies = engine::Dependencies::new(program, config);
        let mut common = format!("{settings}\n{}\n", dependencies.facts());
        common.push_str(&ir::print::print_layouts_and_globals(program));
        for (i, function) in program.functions.iter().enumerate() {
            let _ = writeln!(
                common,
                "{} {}{} {}",
                ir::FuncId(i as u32),
                if function.is_static { "static " } else { "" },
                function.name,
                ir::print::TypeName(program, &ir::Type::Function(Box::new(function.sig.clone())))
            );
        }
        Keys {
            program,
            dependencies,
            common: (fnv1a(common.as_bytes()), common.len()),
            function_texts: vec![std::cell::OnceCell::new(); program.functions.len()],
        }
    }

    /// The key of `func`, with where its dependencies begin.
    pub fn of(&self, func: ir::FuncId) -> Reusable {
        let mut text = format!("testing {func}\n");
        let mut lines = Vec::new();
        for dependency in self.dependencies.functions(self.program, func) {
            let function = self.program.function(dependency);
            text.push_str(self.function_text(dependency));
            lines.push(FunctionLine {
                function: function.name.clone(),
                file: function.span.file,
                line: function.span.line,
            });
        }
        Reusable {
            function: self.program.function(func).name.clone(),
            key: format!(
                "{:016x}-{:x}",
                fnv1a_more(self.common.0, text.as_bytes()),
                self.common.1 + text.len()
            ),
            lines,
        }
    }

    /// A function's IR with its lines counted from its start, and the
    /// string literals it reads spelled out.
    fn function_text(&self, func: ir::FuncId) -> &str {
        self.function_texts[func.index()].get_or_init(|| {
            let mut text = ir::print::print_function_in_place(self.program, func);
            if let Some(body) = &self.program.function(func).body {
                for string in ir::walk::references(body).strings {
                    let bytes = &self.program.strings[string.index()];
                    let _ = writeln!(text, "{string} = {}", ir::print::escape_bytes(bytes));
                }
            }
            text
        })
    }

    /// `earlier`'s report of the function `now` describes, if its key is
    /// the same, with its findings and its tests' boundaries moved to the
    /// lines their code is on now.
    pub fn reuse(&self, now: &Reusable, earlier: &Earlier) -> Option<testcase::FunctionReport> {
        let then = earlier
            .keys
            .get(&now.function)
            .filter(|then| then.key == now.key)?;
        // Equal keys: the functions have the same names and ids as then.
        let func = self.program.function_by_name(&now.function)?;
        let mut report = earlier.reports.get(&func)?.clone();
        for finding in &mut report.findings {
            finding.span = self.moved(finding.span, then)?;
        }
        for boundary in report.tests.iter_mut().flat_map(|t| &mut t.boundaries) {
            boundary.span = self.moved(boundary.span, then)?;
        }
        Some(report)
    }

    /// `span`, of the code as it was when `then` was recorded, where that
    /// code is now; `None` if it is in none of the functions `then` lists.
    fn moved(&self, span: ir::Span, then: &Reusable) -> Option<ir::Span> {
        then.lines.iter().find_map(|was| {
            let func = self.program.function_by_name(&was.function)?;
            let function = self.program.function(func);
            let length = lines_spanned(function);
            let inside =
                span.file == was.file && span.line >= was.line && span.line <= was.line + length;
            inside.then(|| ir::Span {
                line: span.line - was.line + function.span.line,
                ..span
            })
        })
    }
}

/// How many lines past its first the code of `function` reaches in its file.
fn lines_spanned(function: &ir::Function) -> u32 {
    let Some(body) = &function.body else {
        return 0;
    };
    body.blocks
        .iter()
        .flat_map(|block| {
            block
                .stmts
                .iter()
                .map(|stmt| stmt.span)
                .chain(std::iter::once(block.term_span))
        })
        .filter(|span| span.file == function.span.file)
        .map(|span| span.line.saturating_sub(function.span.line))
        .max()
        .unwrap_or(0)
}
