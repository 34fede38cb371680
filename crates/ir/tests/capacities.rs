//! Which integer parameter gives a pointer parameter's capacity, on IR built
//! by the real front end: by name next to the pointers, or by a libc call
//! that takes both.

use ir::{Capacity, Program};
use std::path::Path;

fn program() -> Program {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/inputs/capacities.c");
    match front::compile(&path, &front::FrontConfig::default()) {
        Ok(out) => out.program,
        Err(d) => panic!("{}: {d:?}", path.display()),
    }
}

/// (pointer, count, in bytes) of each capacity of `name`.
fn capacities(program: &Program, name: &str) -> Vec<(usize, usize, bool)> {
    let func = program.function_by_name(name).expect("function");
    let mut found: Vec<_> = ir::capacities(program, func)
        .into_iter()
        .map(|c: Capacity| (c.pointer, c.count, c.in_bytes))
        .collect();
    found.sort_unstable();
    found
}

#[test]
fn a_count_named_as_a_length_gives_the_pointers_just_before_it_their_capacity() {
    let program = program();
    assert_eq!(capacities(&program, "copy_name"), [(0, 1, false)]);
    assert_eq!(
        capacities(&program, "copy_words"),
        [(0, 2, false), (1, 2, false)]
    );
    assert_eq!(capacities(&program, "clear"), [(0, 1, true)]);
}

#[test]
fn a_libc_call_taking_a_buffer_and_its_length_ties_them_in_bytes() {
    let program = program();
    assert_eq!(capacities(&program, "fill_bytes"), [(0, 2, true)]);
    assert_eq!(capacities(&program, "print_id"), [(0, 2, true)]);
}

#[test]
fn counts_of_list_nodes_and_plain_numbers_are_no_capacities() {
    let program = program();
    assert!(capacities(&program, "nth_key").is_empty());
    assert!(capacities(&program, "scale").is_empty());
}
