//! Helpers for engine tests over small C sources (no `#include`: the text is
//! compiled without the preprocessor).

#![allow(dead_code)]

use engine::EngineConfig;
use ir::Program;
use testcase::{FunctionReport, TestCase, Value};

pub fn compile(src: &str) -> Program {
    let out = front::compile_preprocessed(src.to_string(), "test.c", ir::DataModel::Lp64)
        .expect("test source compiles");
    assert!(
        out.excluded.is_empty(),
        "excluded functions: {:?}",
        out.excluded
    );
    out.program
}

/// Compiles `tests/<dir>/<file>` (preprocessed: such files carry includes and
/// comments) and runs the engine on `func`.
pub fn run_file(
    dir: &str,
    file: &str,
    func: &str,
    config: &EngineConfig,
) -> (Program, FunctionReport) {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests")
        .join(dir)
        .join(file);
    let out = front::compile(&path, &front::FrontConfig::default()).expect("test source compiles");
    let id = out.program.function_by_name(func).expect("function exists");
    let mut reports = engine::generate(&out.program, &[id], config);
    let report = reports.pop().expect("one report");
    (out.program, report)
}

/// [`run_file`] on `tests/corpus/<dir>/<file>` of the repository.
pub fn run_corpus(
    dir: &str,
    file: &str,
    func: &str,
    config: &EngineConfig,
) -> (Program, FunctionReport) {
    run_file(&format!("../../../tests/corpus/{dir}"), file, func, config)
}

pub fn config() -> EngineConfig {
    EngineConfig {
        max_time: std::time::Duration::from_secs(20),
        ..EngineConfig::default()
    }
}

/// Compiles `src` and runs the engine on `func`.
pub fn run_with(src: &str, func: &str, config: &EngineConfig) -> (Program, FunctionReport) {
    let program = compile(src);
    let id = program.function_by_name(func).expect("function exists");
    let mut reports = engine::generate(&program, &[id], config);
    let report = reports.pop().expect("one report");
    (program, report)
}

pub fn run(src: &str, func: &str) -> (Program, FunctionReport) {
    run_with(src, func, &config())
}

/// The signed value of an integer.
pub fn int(v: &Value) -> i128 {
    match v {
        Value::Int { ty, bits } => ty.value_of(*bits),
        other => panic!("not an integer: {other:?}"),
    }
}

pub fn arg(t: &TestCase, i: usize) -> i128 {
    int(&t.inputs.args[i])
}

pub fn ret(t: &TestCase) -> i128 {
    int(t.ret.as_ref().expect("a return value"))
}

/// The first test whose function returned `value`.
pub fn test_returning(report: &FunctionReport, value: i128) -> &TestCase {
    report
        .tests
        .iter()
        .find(|t| ret(t) == value)
        .unwrap_or_else(|| panic!("no test returns {value}: {:#?}", report.tests))
}

pub fn assert_all_covered(report: &FunctionReport) {
    assert!(
        report.uncovered.is_empty(),
        "uncovered: {:?}",
        report.uncovered
    );
}

/// The string that pointer argument `i` of a test points to, up to its NUL.
pub fn string_arg(t: &TestCase, i: usize) -> std::ffi::CString {
    let Value::Pointer { object, offset } = t.inputs.args[i] else {
        panic!("argument {i} is not a string: {:?}", t.inputs.args[i])
    };
    let bytes: Vec<u8> = t.inputs.objects[object.0 as usize]
        .init
        .iter()
        .skip(offset as usize)
        .map(|v| int(v) as u8)
        .take_while(|b| *b != 0)
        .collect();
    std::ffi::CString::new(bytes).expect("no NUL inside")
}
