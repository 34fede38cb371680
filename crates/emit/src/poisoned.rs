//! Names the source poisons (`#pragma GCC poison malloc free`): after the
//! pragma any use of them is a compile error, except inside a macro defined
//! before it. The driver defines one alias macro per poisoned name before
//! the source's `#include` and spells every later use through it.

/// The macro a driver names `name` through after the source poisoned it.
pub(crate) fn alias(name: &str) -> String {
    format!("cairn_poisoned_{name}")
}

/// `text` with each identifier token in `names` replaced by its [`alias`];
/// comments, string and character literals are kept as they are (the
/// preprocessor does not look into them).
pub(crate) fn spell_through_aliases(text: &str, names: &[String]) -> String {
    let bytes = text.as_bytes();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    let mut copied = 0;
    while i < bytes.len() {
        let end = match bytes[i] {
            b'/' if bytes.get(i + 1) == Some(&b'/') => line_end(text, i),
            b'/' if bytes.get(i + 1) == Some(&b'*') => text[i + 2..]
                .find("*/")
                .map_or(text.len(), |at| i + 2 + at + 2),
            quote @ (b'"' | b'\'') => literal_end(bytes, i, quote),
            b if b.is_ascii_alphabetic() || b == b'_' => {
                let end = bytes[i..]
                    .iter()
                    .position(|b| !(b.is_ascii_alphanumeric() || *b == b'_'))
                    .map_or(bytes.len(), |n| i + n);
                let word = &text[i..end];
                if names.iter().any(|n| n == word) {
                    out.push_str(&text[copied..i]);
                    out.push_str(&alias(word));
                    copied = end;
                }
                end
            }
            _ => i + 1,
        };
        i = end;
    }
    out.push_str(&text[copied..]);
    out
}

fn line_end(text: &str, from: usize) -> usize {
    text[from..].find('\n').map_or(text.len(), |at| from + at)
}

/// The index just past the literal opened by `quote` at `start`.
fn literal_end(bytes: &[u8], start: usize, quote: u8) -> usize {
    let mut i = start + 1;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' => i += 2,
            b'\n' => return i,
            b if b == quote => return i + 1,
            _ => i += 1,
        }
    }
    bytes.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_identifier_tokens_are_spelled_through_aliases() {
        let names = vec!["free".to_string(), "malloc".to_string()];
        let text = "p = malloc(4); /* malloc */ free(p); // free\nputs(\"free\\\" malloc\"); c = 'f'; freed(my_malloc);\n";
        assert_eq!(
            spell_through_aliases(text, &names),
            "p = cairn_poisoned_malloc(4); /* malloc */ cairn_poisoned_free(p); // free\nputs(\"free\\\" malloc\"); c = 'f'; freed(my_malloc);\n"
        );
    }
}
