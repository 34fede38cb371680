//! Which functions set up a struct on their caller's storage, and what
//! they return when they succeed, on IR built by the real front end.

use ir::{initialiser, Program, Success};
use std::path::Path;

fn program() -> Program {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/inputs/initialisers.c");
    match front::compile(&path, &front::FrontConfig::default()) {
        Ok(out) => out.program,
        Err(d) => panic!("{}: {d:?}", path.display()),
    }
}

fn sets_up(program: &Program, name: &str) -> bool {
    let func = program.function_by_name(name).expect("function");
    initialiser::sets_up(program, func, 0)
}

fn success(program: &Program, name: &str) -> Success {
    let func = program.function_by_name(name).expect("function");
    initialiser::success(program, func)
}

#[test]
fn a_function_writing_every_member_before_reading_it_sets_the_struct_up() {
    let program = program();
    for name in [
        "tok_init",
        "tok_start",
        "tok_reset",
        "tok_clear",
        "buf_init",
    ] {
        assert!(sets_up(&program, name), "{name}");
    }
}

#[test]
fn setters_and_functions_reading_the_old_contents_set_nothing_up() {
    let program = program();
    for name in ["tok_set_line", "tok_advance", "pair_init_wide"] {
        assert!(!sets_up(&program, name), "{name}");
    }
}

#[test]
fn success_is_what_the_set_up_returns_at_its_end() {
    let program = program();
    assert_eq!(success(&program, "tok_init"), Success::Void);
    assert_eq!(success(&program, "buf_init"), Success::Is(0));
    assert_eq!(success(&program, "buf_ready"), Success::Is(1));
    assert_eq!(success(&program, "buf_open"), Success::NonNegative);
    assert_eq!(success(&program, "buf_make"), Success::NonZero);
    // A computed result and no negative constant: 0, as most C says success.
    assert_eq!(success(&program, "tok_reset"), Success::Is(0));
}
