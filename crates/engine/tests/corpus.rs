//! The engine over the repository's corpus (tests/corpus/scalar): every goal
//! is covered or proven infeasible, within the default budgets.

mod common;

use engine::testcase::Uncovered;
use std::path::Path;

#[test]
fn corpus_goals_are_covered_or_infeasible() {
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
        let funcs: Vec<ir::FuncId> = (0..program.functions.len() as u32)
            .map(ir::FuncId)
            .filter(|f| program.function(*f).body.is_some())
            .collect();
        for report in engine::generate(&program, &funcs, &common::config()) {
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
                if *why != Uncovered::Infeasible {
                    problems.push(format!("{key}: {why:?}"));
                }
            }
        }
    }
    assert!(problems.is_empty(), "{problems:#?}");
}
