//! `cairn merge`: the output directories of the shards of one run
//! (`gen --shard K/N`) written as one, as the whole run would have written
//! it: the same drivers, tests.json and summary.

use crate::cli::MergeArgs;
use crate::gen::{emit_config, prepare_out, print_summaries, write_file};
use crate::record::{RunRecord, Shard};
use crate::{load, Outcome, UsageError};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// One source file and what the shards found for it.
struct Source {
    /// The first record of the file (a shard's), which the others must match.
    head: RunRecord<()>,
    /// Where `head` was read, for messages.
    first: PathBuf,
    /// Every shard's reports, with the record each came from.
    reports: Vec<(PathBuf, testcase::FunctionReport)>,
}

pub fn run(args: &MergeArgs) -> Result<Outcome, UsageError> {
    // Read everything before writing anything: a bad or mismatched shard
    // leaves the output directory as it was.
    let mut sources: Vec<Source> = Vec::new();
    for out in &args.outs {
        if !out.is_dir() {
            return Err(UsageError(format!(
                "{}: not a directory written by `cairn gen`",
                out.display()
            )));
        }
        for (path, record) in RunRecord::read_all(out)? {
            let head = record.with_reports(());
            let reports: Vec<_> = record
                .reports
                .into_iter()
                .map(|r| (path.clone(), r))
                .collect();
            match sources.iter_mut().find(|s| s.head.source == head.source) {
                Some(source) => {
                    agree(&source.head, &source.first, &head, &path)?;
                    source.reports.extend(reports);
                    // So that a rerun of the whole may reuse every shard's work.
                    source.head.reusable.extend(head.reusable);
                }
                None => sources.push(Source {
                    head,
                    first: path,
                    reports,
                }),
            }
        }
    }
    if sources.is_empty() {
        return Err(UsageError(
            "no run records in these directories: nothing to merge".into(),
        ));
    }
    sources.sort_by_key(|s| s.head.position);
    let mut merged = Vec::with_capacity(sources.len());
    for source in sources {
        merged.push(in_run_order(source)?);
    }
    prepare_out(&args.out)?;
    let mut summaries = Vec::with_capacity(merged.len());
    for file in &merged {
        let config = emit_config(&args.out, &file.record)?;
        summaries.push(write_file(
            &file.output.program,
            &file.reports,
            &config,
            &file.record,
        )?);
    }
    print_summaries(&summaries, args.json, args.findings);
    Ok(Outcome::Success)
}

/// Whether two records of one source come from shards of the same run.
fn agree(
    first: &RunRecord<()>,
    first_path: &Path,
    other: &RunRecord<()>,
    other_path: &Path,
) -> Result<(), UsageError> {
    let differs = if first.program != other.program || first.flags != other.flags {
        "the source or its flags differ"
    } else if first.config != other.config || first.framework != other.framework {
        "they were made with different options"
    } else if first.functions != other.functions || first.position != other.position {
        "they test different functions"
    } else if first.shard.count != other.shard.count {
        "they split the functions into different numbers of shards"
    } else {
        return Ok(());
    };
    Err(UsageError(format!(
        "{} and {} are not shards of one run of {}: {differs}",
        first_path.display(),
        other_path.display(),
        first.source.display()
    )))
}

/// A source file as the whole run would have left it.
struct Merged {
    output: front::FrontOutput,
    /// Every function's report, in the order of the whole run.
    reports: Vec<testcase::FunctionReport>,
    record: RunRecord<()>,
}

/// The source read again and its reports in the order of the whole run,
/// each function once.
fn in_run_order(source: Source) -> Result<Merged, UsageError> {
    let head = source.head;
    let output = load(&head.source, &head.flags.to_args())?;
    if crate::record::fingerprint(&output.program) != head.program {
        return Err(UsageError(format!(
            "{}: the file changed since the shards ran ({}); run them again",
            head.source.display(),
            source.first.display()
        )));
    }
    let mut by_name: BTreeMap<&str, (PathBuf, testcase::FunctionReport)> = BTreeMap::new();
    for (path, report) in source.reports {
        let name = output
            .program
            .functions
            .get(report.func.index())
            .map(|f| f.name.as_str())
            .ok_or_else(|| UsageError(format!("{}: a report of no function", path.display())))?;
        if let Some((earlier, _)) = by_name.get(name) {
            return Err(UsageError(format!(
                "{} and {} both test {name}(): the same shard given twice?",
                earlier.display(),
                path.display()
            )));
        }
        by_name.insert(name, (path, report));
    }
    let missing: Vec<&str> = head
        .functions
        .iter()
        .map(String::as_str)
        .filter(|name| !by_name.contains_key(name))
        .collect();
    if !missing.is_empty() {
        return Err(UsageError(format!(
            "{}: no shard tested {} of its {} functions ({}): is one of the {} shards missing, or was it interrupted?",
            head.source.display(),
            missing.len(),
            head.functions.len(),
            missing.join(", "),
            head.shard.count
        )));
    }
    let reports: Vec<testcase::FunctionReport> = head
        .functions
        .iter()
        .filter_map(|name| by_name.remove(name.as_str()).map(|(_, report)| report))
        .collect();
    let mut record = RunRecord {
        shard: Shard::WHOLE,
        ..head
    };
    let position = |name: &str| record.functions.iter().position(|f| f == name);
    let mut reusable = std::mem::take(&mut record.reusable);
    reusable.sort_by_key(|entry| position(&entry.function));
    record.reusable = reusable;
    Ok(Merged {
        output,
        reports,
        record,
    })
}
