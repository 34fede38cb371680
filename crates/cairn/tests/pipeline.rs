//! The whole pipeline in-process on `emit`'s hand-built sample source: the
//! real front end and engine, then the driver measured by gcc and gcov.

use check::{check, CheckConfig};
use emit::fixture::SAMPLE_C;
use emit::{write_outputs, EmitConfig};

/// The whole pipeline on the sample: the real front end and engine instead
/// of the hand-built reports, then the driver measured by gcov.
#[test]
fn front_engine_emit_and_check_agree_on_the_sample() {
    let dir = tempfile::tempdir().expect("temp dir");
    let source = dir.path().join("sample.c");
    std::fs::write(&source, SAMPLE_C).expect("write sample.c");
    let front = front::compile(&source, &front::FrontConfig::default()).expect("front");
    let program = front.program;
    let names = [
        "classify",
        "order",
        "find",
        "sensor_level",
        "first_bang",
        "ratio",
    ];
    let funcs: Vec<ir::FuncId> = names
        .iter()
        .map(|n| program.function_by_name(n).expect(n))
        .collect();
    let reports = engine::generate(&program, &funcs, &engine::EngineConfig::default());
    let out = dir.path().join("out");
    let summary = write_outputs(
        &program,
        &reports,
        &EmitConfig {
            out_dir: out.clone(),
            source,
            flags: Default::default(),
            framework: Default::default(),
            unresolved: Default::default(),
        },
    )
    .expect("emit");
    assert!(summary.notes.is_empty(), "{:?}", summary.notes);
    let report = check(&out, &CheckConfig::default()).expect("check");
    assert!(report.ok(), "{}", report.table());
    for f in &report.files[0].functions {
        assert_eq!(
            f.predicted.covered, f.predicted.total,
            "{}: every goal is feasible",
            f.name
        );
        assert_eq!(
            f.measured_branches.map(|m| m.covered),
            Some(f.predicted.covered),
            "{}",
            f.name
        );
    }
    assert!(summary
        .findings
        .iter()
        .any(|f| f.kind == testcase::FindingKind::DivisionByZero && f.function == "ratio"));
}
