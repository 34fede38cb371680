//! The run record: what `gen` found for one source file, saved beside its
//! outputs (`OUT/.cairn/<stem>.run.json`) in the engine's own terms, so that
//! `merge` can write the outputs of several shards as one run would have.

use crate::cache::Reusable;
use crate::cli::{DataModelChoice, SourceArgs};
use crate::UsageError;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// The record's format; a record of another format is refused, not guessed at.
pub const FORMAT: &str = "cairn-run/1";

/// The directory of the records inside an output directory.
pub const DIR: &str = ".cairn";

/// One source file's part of a `gen` run; `Reports` is `()` until they come.
#[derive(Serialize, Deserialize, Debug, Clone)]
pub struct RunRecord<Reports = Vec<testcase::FunctionReport>> {
    pub format: String,
    /// The source as given to `gen`.
    pub source: PathBuf,
    /// The directory of its outputs inside the output directory (empty
    /// but for the files of a project).
    pub out_subdir: PathBuf,
    /// Its place among the sources of the run (from 0), so that a merge
    /// lists them in the run's order.
    pub position: usize,
    /// How the source was read, so that `merge` reads it the same way.
    pub flags: SourceFlags,
    /// The IR's fingerprint ([`fingerprint`]): the function ids of the
    /// reports are only meaningful for this program.
    pub program: String,
    /// The engine configuration, as text: shards must agree on it.
    pub config: String,
    /// The test framework the drivers are written for.
    #[serde(default)]
    pub framework: testcase::json::Framework,
    /// Which share of the functions this run explored.
    pub shard: Shard,
    /// Every function of the file the whole run tests, in the order its
    /// outputs list them (whatever the shard).
    pub functions: Vec<String>,
    /// The engine's reports of this shard's functions, in that order.
    pub reports: Reports,
    /// The keys of the reports a later run may reuse (those of functions
    /// whose exploration ran to its end).
    #[serde(default)]
    pub reusable: Vec<Reusable>,
}

/// The preprocessing flags of a source, as `SourceArgs` gives them.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq, Eq)]
pub struct SourceFlags {
    pub include: Vec<PathBuf>,
    pub define: Vec<String>,
    pub cc: String,
    pub compile_commands: Option<PathBuf>,
    /// Records written before `--data-model` existed were LP64.
    #[serde(default)]
    pub data_model: DataModelChoice,
}

impl SourceFlags {
    pub fn of(source: &SourceArgs) -> SourceFlags {
        SourceFlags {
            include: source.include.clone(),
            define: source.define.clone(),
            cc: source.cc.clone(),
            compile_commands: source.compile_commands.clone(),
            data_model: source.data_model,
        }
    }

    pub fn to_args(&self) -> SourceArgs {
        SourceArgs {
            include: self.include.clone(),
            define: self.define.clone(),
            cc: self.cc.clone(),
            compile_commands: self.compile_commands.clone(),
            data_model: self.data_model,
        }
    }
}

/// Shard `index` (from 1) of `count`: the functions whose [`shard_key`]
/// falls to it. 1/1 is the whole run.
#[derive(Serialize, Deserialize, Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shard {
    pub index: u32,
    pub count: u32,
}

impl Shard {
    pub const WHOLE: Shard = Shard { index: 1, count: 1 };

    /// `K/N` as `--shard` takes it.
    pub fn parse(text: &str) -> Result<Shard, String> {
        let usage = || format!("a shard is K/N with 1 <= K <= N, e.g. 2/4; got `{text}`");
        let (k, n) = text.split_once('/').ok_or_else(usage)?;
        let (index, count) = (
            k.trim().parse::<u32>().map_err(|_| usage())?,
            n.trim().parse::<u32>().map_err(|_| usage())?,
        );
        if index == 0 || index > count {
            return Err(usage());
        }
        Ok(Shard { index, count })
    }

    /// Whether the function `name` of `source` is this shard's. By a hash
    /// of the two, so a function stays in its shard when others are added
    /// or removed, and the split depends on nothing else (not on -j).
    pub fn takes(&self, source: &Path, name: &str) -> bool {
        let key = format!("{}\0{name}", source.display());
        fnv1a(key.as_bytes()) % u64::from(self.count) == u64::from(self.index - 1)
    }
}

impl std::fmt::Display for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

/// 64-bit FNV-1a: a hash that is the same on every machine and release,
/// unlike the standard library's.
pub fn fnv1a(bytes: &[u8]) -> u64 {
    fnv1a_more(0xcbf2_9ce4_8422_2325, bytes)
}

/// The FNV-1a hash of some bytes followed by `bytes`, from the hash of the
/// former.
pub fn fnv1a_more(hash: u64, bytes: &[u8]) -> u64 {
    bytes.iter().fold(hash, |hash, byte| {
        (hash ^ u64::from(*byte)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// The fingerprint of a program: a hash of its IR text, every function's.
pub fn fingerprint(program: &ir::Program) -> String {
    let names: Vec<String> = program.functions.iter().map(|f| f.name.clone()).collect();
    format!(
        "{:016x}",
        fnv1a(ir::print::print_program(program, &names).as_bytes())
    )
}

/// The engine configuration as text, without what does not change the
/// tests (the cancel flag, where queries are dumped).
pub fn config_text(config: &engine::EngineConfig) -> String {
    let config = engine::EngineConfig {
        cancel: None,
        dump_queries: None,
        ..config.clone()
    };
    format!("{config:?}")
}

/// Where the record of the source with stem `stem` goes in `out`.
pub fn path(out: &Path, stem: &str) -> PathBuf {
    out.join(DIR).join(format!("{stem}.run.json"))
}

impl<Reports> RunRecord<Reports> {
    /// The same record with other reports.
    pub fn with_reports<Other>(&self, reports: Other) -> RunRecord<Other> {
        RunRecord {
            format: self.format.clone(),
            source: self.source.clone(),
            out_subdir: self.out_subdir.clone(),
            position: self.position,
            flags: self.flags.clone(),
            program: self.program.clone(),
            config: self.config.clone(),
            framework: self.framework,
            shard: self.shard,
            functions: self.functions.clone(),
            reports,
            reusable: self.reusable.clone(),
        }
    }
}

impl RunRecord<&[testcase::FunctionReport]> {
    /// Writes the record of the source with stem `stem` in `out`, whole or
    /// not at all.
    pub fn write(&self, out: &Path, stem: &str) -> Result<(), UsageError> {
        let path = path(out, stem);
        let dir = out.join(DIR);
        std::fs::create_dir_all(&dir)
            .map_err(|e| UsageError(format!("cannot create {}: {e}", dir.display())))?;
        let text = serde_json::to_string(self)
            .map_err(|e| UsageError(format!("{}: {e}", path.display())))?;
        emit::write_atomically(&path, &text).map_err(|e| UsageError(format!("cannot write {e}")))
    }
}

impl RunRecord {
    /// Every record in the output directory `out` and its subdirectories
    /// (a project's), by path (none where `gen` wrote nothing).
    pub fn read_all(out: &Path) -> Result<Vec<(PathBuf, RunRecord)>, UsageError> {
        let mut paths = Vec::new();
        let mut pending = vec![out.to_path_buf()];
        while let Some(dir) = pending.pop() {
            let entries = std::fs::read_dir(&dir)
                .map_err(|e| UsageError(format!("{}: {e}", dir.display())))?;
            for entry in entries {
                let path = entry
                    .map_err(|e| UsageError(format!("{}: {e}", dir.display())))?
                    .path();
                let in_records = path.parent().is_some_and(|p| p.ends_with(DIR));
                if path.is_dir() {
                    pending.push(path);
                } else if in_records && path.to_str().is_some_and(|p| p.ends_with(".run.json")) {
                    paths.push(path);
                }
            }
        }
        paths.sort();
        paths
            .into_iter()
            .map(|path| RunRecord::read(&path).map(|record| (path, record)))
            .collect()
    }

    /// The record at `path`.
    pub fn read(path: &Path) -> Result<RunRecord, UsageError> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| UsageError(format!("{}: {e}", path.display())))?;
        let record: RunRecord = serde_json::from_str(&text)
            .map_err(|e| UsageError(format!("{}: not a cairn run record: {e}", path.display())))?;
        if record.format != FORMAT {
            return Err(UsageError(format!(
                "{}: format `{}`, this cairn reads `{FORMAT}`",
                path.display(),
                record.format
            )));
        }
        Ok(record)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_parse_and_split_every_function_once() {
        assert_eq!(Shard::parse("2/3"), Ok(Shard { index: 2, count: 3 }));
        for bad in ["0/2", "3/2", "2", "a/b", "1/0"] {
            assert!(Shard::parse(bad).is_err(), "{bad}");
        }
        let shards: Vec<Shard> = (1..=3).map(|index| Shard { index, count: 3 }).collect();
        for n in 0..100 {
            let name = format!("f{n}");
            let takers = shards
                .iter()
                .filter(|s| s.takes(Path::new("a.c"), &name))
                .count();
            assert_eq!(takers, 1, "{name}");
        }
    }

    #[test]
    fn fnv1a_is_the_published_function() {
        assert_eq!(fnv1a(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a(b"a"), 0xaf63_dc4c_8601_ec8c);
    }
}
