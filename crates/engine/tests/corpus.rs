//! The engine over the repository's corpus (tests/corpus/scalar): every goal
//! is covered, except branches the corpus marks `/* infeasible: ... */`, and
//! nothing is unsupported.

mod common;

use std::path::Path;
use testcase::Uncovered;

#[test]
fn corpus_goals_are_covered_unless_marked_infeasible() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/corpus/scalar");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("corpus directory")
        .flatten()
        .map(|e| e.path())
        .collect();
    files.sort();
    let mut problems = Vec::new();
    for file in files
        .iter()
        .filter(|f| f.extension().is_some_and(|e| e == "c"))
    {
        let out =
            front::compile(file, &front::FrontConfig::default()).expect("corpus file compiles");
        let program = out.program;
        let source = std::fs::read_to_string(file).expect("corpus file reads");
        let lines: Vec<&str> = source.lines().collect();
        let funcs: Vec<ir::FuncId> = (0..program.functions.len() as u32)
            .map(ir::FuncId)
            .filter(|f| program.function(*f).body.is_some())
            .collect();
        for report in engine::generate(&program, &funcs, &corpus_config()) {
            let name = &program.function(report.func).name;
            eprintln!(
                "{}: {name}: {} tests, {}/{} goals, {} findings, {} paths, {} solver calls, {:?}",
                file.file_name()
                    .map(|n| n.to_string_lossy().into_owned())
                    .unwrap_or_default(),
                report.tests.len(),
                report.goals.len() - report.uncovered.len(),
                report.goals.len(),
                report.findings.len(),
                report.stats.paths,
                report.stats.solver_calls,
                report.stats.elapsed
            );
            for (goal, why) in &report.uncovered {
                let key = ir::goal_key(&program, *goal);
                eprintln!("    uncovered {key}: {why:?}");
                let span = program
                    .function(goal.func)
                    .body
                    .as_ref()
                    .map(|b| b.branches[goal.site.index()].span);
                let marked = span
                    .and_then(|s| lines.get(s.line as usize - 1))
                    .is_some_and(|l| l.contains("infeasible"));
                if !marked || matches!(why, Uncovered::Unsupported(_)) {
                    problems.push(format!("{key}: {why:?}"));
                }
            }
        }
    }
    assert!(problems.is_empty(), "{problems:#?}");
}

/// A budget per function that proves or covers everything the corpus
/// expects, generous as scripts/corpus-check.sh's: at the default 10 s,
/// libc.c's `parse_record` (strtol over an input string, about 100 ms a
/// query) covers its last goal at 9.4 to 10.1 s on a quiet machine, and
/// the test would time the machine rather than check coverage. A function
/// that covers everything stops early; only a miss costs the whole budget.
fn corpus_config() -> engine::EngineConfig {
    engine::EngineConfig {
        max_time: std::time::Duration::from_secs(60),
        ..engine::EngineConfig::default()
    }
}
