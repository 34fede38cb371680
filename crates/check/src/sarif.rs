//! The findings as SARIF 2.1.0, the format code-scanning tools and IDEs
//! read: one run of the tool `cairn`, one rule per finding kind present,
//! one result per finding with its location, the path to it as a code flow
//! and, in its property bag, the reproducer command, whether its input is
//! vouched for and whether `check --sanitize` confirmed it.

use crate::report::{CheckReport, FileCheck, FindingReport};
use serde_json::{json, Value as Json};
use std::collections::BTreeSet;
use std::os::unix::ffi::OsStrExt;
use std::path::{Component, Path};
use testcase::FindingKind;

/// The base that relative artifact locations are relative to: the working
/// directory, given in `originalUriBaseIds`.
const BASE: &str = "SRCROOT";

/// The report's findings as a SARIF log. `cwd` is the directory file
/// locations are written relative to (those outside it are absolute file
/// URIs); `version` is cairn's.
pub fn sarif(report: &CheckReport, cwd: &Path, version: &str) -> String {
    let log = sarif_log(report, cwd, version);
    serde_json::to_string_pretty(&log).unwrap_or_else(|e| format!("{{\"error\": \"{e}\"}}"))
}

fn sarif_log(report: &CheckReport, cwd: &Path, version: &str) -> Json {
    let kinds: Vec<FindingKind> = report
        .files
        .iter()
        .flat_map(|f| &f.findings)
        .map(|f| f.kind)
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect();
    let rules: Vec<Json> = kinds
        .iter()
        .map(|kind| {
            json!({
                "id": kind.slug(),
                "shortDescription": { "text": kind.description() },
                "defaultConfiguration": { "level": "error" },
            })
        })
        .collect();
    let results: Vec<Json> = report
        .files
        .iter()
        .flat_map(|file| file.findings.iter().map(move |f| (file, f)))
        .map(|(file, finding)| result(file, finding, &kinds, cwd))
        .collect();
    json!({
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{
            "tool": { "driver": {
                "name": "cairn",
                "version": version,
                "rules": rules,
            }},
            "originalUriBaseIds": { BASE: { "uri": directory_uri(cwd) } },
            "results": results,
        }],
    })
}

fn result(file: &FileCheck, finding: &FindingReport, kinds: &[FindingKind], cwd: &Path) -> Json {
    let place = |path: &Path, line: u32, col: u32| {
        json!({
            "artifactLocation": artifact(path, cwd),
            "region": { "startLine": line.max(1), "startColumn": col.max(1) },
        })
    };
    let here = place(&finding.file, finding.line, finding.col);
    let message = format!(
        "{} in {}: {}",
        finding.kind.slug().replace('-', " "),
        finding.function,
        finding.message
    );
    let run = finding.reproducer.and_then(|n| file.reproducer_run(n));
    let mut result = json!({
        "ruleId": finding.kind.slug(),
        "ruleIndex": kinds.iter().position(|k| *k == finding.kind),
        // A finding on inputs nothing vouches for may need a value the
        // program never holds.
        "level": if finding.unvouched_inputs.is_empty() { "error" } else { "warning" },
        "message": { "text": message },
        "locations": [{
            "physicalLocation": here,
            "logicalLocations": [{ "name": finding.function, "kind": "function" }],
        }],
        "properties": {
            "function": finding.function,
            "inputsVouchedFor": finding.unvouched_inputs.is_empty(),
            "unvouchedInputs": finding.unvouched_inputs,
            "reproducer": finding.reproducer,
            "reproducerCommand": finding.reproducer_command,
            // null: `check` ran no reproducer (it does with --sanitize).
            "confirmed": run.map(|r| r.confirmed),
            "evidence": run.and_then(|r| r.evidence.clone()),
        },
    });
    if !finding.path.is_empty() {
        let steps = finding.path.iter().map(|step| {
            json!({ "location": {
                "physicalLocation": place(&step.file, step.line, step.col),
                "message": { "text": step.label },
            }})
        });
        let fault = json!({ "location": {
            "physicalLocation": here,
            "message": { "text": finding.message },
        }});
        result["codeFlows"] = json!([{
            "message": { "text": "the branches taken on the way, each the first time it is taken" },
            "threadFlows": [{ "locations": steps.chain([fault]).collect::<Vec<_>>() }],
        }]);
    }
    result
}

/// `path` relative to `cwd` under [`BASE`] when inside it, else as an
/// absolute file URI.
fn artifact(path: &Path, cwd: &Path) -> Json {
    match path.strip_prefix(cwd) {
        // Not `../` climbing back out of a path left unresolved.
        Ok(relative)
            if relative
                .components()
                .all(|c| matches!(c, Component::Normal(_))) =>
        {
            json!({ "uri": percent_encoded(relative), "uriBaseId": BASE })
        }
        _ => json!({ "uri": format!("file://{}", percent_encoded(path)) }),
    }
}

/// The absolute file URI of a directory, ending in `/` as a base URI must.
fn directory_uri(dir: &Path) -> String {
    let encoded = percent_encoded(dir);
    match encoded.ends_with('/') {
        true => format!("file://{encoded}"),
        false => format!("file://{encoded}/"),
    }
}

/// A path's bytes as a URI path: unreserved characters and `/` as they
/// are, every other byte as `%XX`.
fn percent_encoded(path: &Path) -> String {
    path.as_os_str()
        .as_bytes()
        .iter()
        .map(|&b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' | b'/' => {
                char::from(b).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::sample_file_check;
    use crate::sarif_validator::sarif_validator;

    fn log_for(out_dir: &Path, cwd: &Path) -> Json {
        let report = CheckReport {
            files: vec![sample_file_check(out_dir)],
        };
        serde_json::from_str(&sarif(&report, cwd, "9.9.9")).expect("SARIF is JSON")
    }

    #[test]
    fn the_log_is_valid_sarif_2_1_0() {
        let validator = sarif_validator();
        let log = log_for(Path::new("/work/out"), Path::new("/work"));
        let errors: Vec<String> = validator.iter_errors(&log).map(|e| e.to_string()).collect();
        assert!(errors.is_empty(), "{errors:#?}\n{log:#}");
        // The validator does reject a broken log.
        let mut broken = log.clone();
        broken["runs"][0]["results"][0]["level"] = json!("fatal");
        assert!(!validator.is_valid(&broken));
    }

    #[test]
    fn a_finding_is_a_result_with_its_rule_place_path_and_reproducer() {
        let log = log_for(Path::new("/work/out"), Path::new("/work/out"));
        let run = &log["runs"][0];
        assert_eq!(run["tool"]["driver"]["name"], "cairn");
        assert_eq!(run["tool"]["driver"]["version"], "9.9.9");
        assert_eq!(run["tool"]["driver"]["rules"][0]["id"], "division-by-zero");
        assert_eq!(
            run["tool"]["driver"]["rules"][0]["shortDescription"]["text"],
            FindingKind::DivisionByZero.description()
        );
        let result = &run["results"][0];
        assert_eq!(result["ruleId"], "division-by-zero");
        assert_eq!(result["ruleIndex"], 0);
        assert_eq!(result["level"], "error");
        assert_eq!(
            result["message"]["text"],
            "division by zero in ratio: divisor b is 0 <&>"
        );
        // `/work/out/../m.c` is outside the working directory `/work/out`.
        let place = &result["locations"][0]["physicalLocation"];
        assert_eq!(place["artifactLocation"]["uri"], "file:///work/out/../m.c");
        assert_eq!(place["region"]["startLine"], 11);
        assert_eq!(place["region"]["startColumn"], 14);
        let flow = &result["codeFlows"][0]["threadFlows"][0]["locations"];
        assert_eq!(flow[0]["location"]["message"]["text"], "b < 0: false");
        assert_eq!(
            flow[0]["location"]["physicalLocation"]["region"]["startLine"],
            10
        );
        assert_eq!(flow[1]["location"]["physicalLocation"], *place);
        let properties = &result["properties"];
        assert_eq!(properties["confirmed"], true);
        assert_eq!(properties["inputsVouchedFor"], true);
        assert_eq!(properties["reproducer"], 1);
        assert!(properties["reproducerCommand"]
            .as_str()
            .is_some_and(|c| c.ends_with("&& ./m_findings 1")));
    }

    #[test]
    fn paths_inside_the_working_directory_are_relative_and_encoded() {
        let cwd = Path::new("/w d");
        assert_eq!(
            artifact(Path::new("/w d/src/a b#.c"), cwd),
            json!({ "uri": "src/a%20b%23.c", "uriBaseId": BASE })
        );
        assert_eq!(
            artifact(Path::new("/elsewhere/x.c"), cwd),
            json!({ "uri": "file:///elsewhere/x.c" })
        );
        assert_eq!(directory_uri(cwd), "file:///w%20d/");
    }
}
