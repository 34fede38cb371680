//! No panics on broken input: every golden input without directives is
//! mutated token by token (deleted, or replaced by a token of another kind)
//! and each mutant must give valid IR or a diagnostic, never a panic.

use std::path::Path;

const REPLACEMENTS: [&str; 4] = ["0", "p->q", "(void *)0", "1.5"];

/// Byte ranges of identifier and number tokens.
fn word_tokens(text: &str) -> Vec<(usize, usize)> {
    let bytes = text.as_bytes();
    let mut tokens = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_' {
            let start = i;
            while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
                i += 1;
            }
            tokens.push((start, i));
        } else {
            i += 1;
        }
    }
    tokens
}

#[test]
fn mutated_inputs_never_panic() {
    let inputs = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/inputs");
    let mut mutants = 0;
    for entry in std::fs::read_dir(&inputs).expect("inputs exist").flatten() {
        let text = std::fs::read_to_string(entry.path()).expect("readable input");
        if text.contains('#') {
            continue; // needs the preprocessor
        }
        for (k, (start, end)) in word_tokens(&text).into_iter().enumerate() {
            let replacement = if k % 2 == 0 {
                ""
            } else {
                REPLACEMENTS[(k / 2) % REPLACEMENTS.len()]
            };
            let mutant = format!("{}{}{}", &text[..start], replacement, &text[end..]);
            mutants += 1;
            if let Err(d) = front::compile_preprocessed(mutant, "mutant.c", ir::DataModel::Lp64) {
                assert!(
                    !d.message.contains("internal error"),
                    "{}: token {k}: {d}",
                    entry.path().display()
                );
            }
        }
    }
    assert!(mutants > 100, "only {mutants} mutants");
}
