//! Differential test of the lowering of memory, control flow, calls, GCC
//! builtins (atomic ones too), floating point, old-style definitions and
//! cleanup attributes: `tests/programs/memory.c`, `floats.c`,
//! `old_style.c`, `atomics.c` and `cleanup.c` are
//! compiled and run by the system compiler, and the same functions are run
//! on the IR by a small byte-level interpreter written here; every function
//! must return the same value.

mod common;

use common::{int_of, make_int, Machine, Value};
use ir::IntType;

/// Calls of `t_control` use these arguments.
const CONTROL_ARGS: std::ops::Range<i64> = 0..8;

#[test]
fn memory_programs_run_like_the_system_compiler() {
    runs_like_the_system_compiler("memory.c");
}

#[test]
fn floating_programs_run_like_the_system_compiler() {
    runs_like_the_system_compiler("floats.c");
}

#[test]
fn old_style_definitions_run_like_the_system_compiler() {
    runs_like_the_system_compiler("old_style.c");
}

#[test]
fn cleanups_run_like_the_system_compiler() {
    runs_like_the_system_compiler("cleanup.c");
}

#[test]
fn atomic_builtins_run_like_the_system_compiler() {
    runs_like_the_system_compiler("atomics.c");
}

/// Runs every `t_` function of `tests/programs/NAME` natively and on the IR.
fn runs_like_the_system_compiler(name: &str) {
    let path = format!("{}/tests/programs/{name}", env!("CARGO_MANIFEST_DIR"));
    let source = std::fs::read_to_string(path).expect("program exists");
    let tests: Vec<String> = source
        .lines()
        .filter(|l| !l.starts_with(char::is_whitespace) && l.ends_with('{'))
        .filter_map(|l| {
            l.split_once(" t_")
                .and_then(|(_, r)| r.split('(').next())
                .map(|n| format!("t_{n}"))
        })
        .collect();
    let mut calls: Vec<(String, Vec<i64>)> = Vec::new();
    for t in &tests {
        if t == "t_control" {
            calls.extend(CONTROL_ARGS.map(|n| (t.clone(), vec![n])));
        } else {
            calls.push((t.clone(), vec![]));
        }
    }
    let mut main = String::from("#include <stdio.h>\nint main(void) {\n");
    for (name, args) in &calls {
        let args: Vec<String> = args.iter().map(|a| a.to_string()).collect();
        main.push_str(&format!(
            "    printf(\"%lld\\n\", (long long){name}({}));\n",
            args.join(", ")
        ));
    }
    main.push_str("    return 0;\n}\n");

    let dir = tempfile::tempdir().expect("temporary directory");
    let src = dir.path().join(name);
    std::fs::write(&src, format!("{source}{main}")).expect("write program");
    let bin = dir.path().join("program");
    let built = std::process::Command::new("cc")
        .args(["-O0", "-w", "-o"])
        .arg(&bin)
        .arg(&src)
        .arg("-lm")
        .status();
    if !built.is_ok_and(|s| s.success()) {
        eprintln!("note: no working cc; skipping the execution comparison");
        return;
    }
    let output = std::process::Command::new(&bin)
        .output()
        .expect("program runs");
    let native: Vec<i64> = String::from_utf8_lossy(&output.stdout)
        .lines()
        .map(|l| l.parse().expect("number"))
        .collect();
    assert_eq!(native.len(), calls.len());

    let out = front::compile(&src, &front::FrontConfig::default()).expect("compiles");
    assert!(out.excluded.is_empty(), "{:?}", out.excluded);
    // One machine for the whole run: globals and statics carry over between calls, as natively.
    let mut machine = Machine::new(&out.program, 10_000_000);
    for ((name, args), expected) in calls.iter().zip(native) {
        let id = out.program.function_by_name(name).expect("function exists");
        let args: Vec<Value> = args
            .iter()
            .map(|a| make_int(IntType::INT, i128::from(*a)))
            .collect();
        let result = machine.call(id, args).expect("returns a value");
        assert_eq!(int_of(&result).1 as i64, expected, "{name}");
    }
}
