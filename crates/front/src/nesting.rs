//! A cheap upper bound of how deeply the parser will recurse on a text.
//!
//! lang-c's parser recurses on nesting and a stack overflow aborts the
//! process (it cannot be caught), so texts nested deeper than any real
//! program are refused before parsing.

/// Largest accepted estimate; the parser's worker stack holds several times more.
pub(crate) const MAX_NESTING_ESTIMATE: usize = 8000;

/// Returns the offset where the estimate first exceeds `limit`, if it does.
///
/// The estimate adds, at every point: bracket depth, control keywords since
/// the last `;` or brace (`if (a) if (b) ...`), `else` branches chained at the
/// current brace depth, and the length of a run of prefix operators.
pub(crate) fn too_deep(text: &str, limit: usize) -> Option<usize> {
    let bytes = text.as_bytes();
    let mut i = 0;
    let mut brackets = 0usize;
    let mut keywords = 0usize;
    let mut prefix_run = 0usize;
    // `else` count per open brace level.
    let mut elses: Vec<usize> = vec![0];
    let mut at_line_start = true;
    while let Some(&c) = bytes.get(i) {
        let start = i;
        i += 1;
        match c {
            b'\n' => {
                at_line_start = true;
                continue;
            }
            b'#' if at_line_start => {
                while bytes.get(i).is_some_and(|&b| b != b'\n') {
                    i += 1;
                }
                continue;
            }
            b'"' | b'\'' => {
                while let Some(&b) = bytes.get(i) {
                    i += 1;
                    if b == b'\\' {
                        i += 1;
                    } else if b == c || b == b'\n' {
                        break;
                    }
                }
                prefix_run = 0;
            }
            b'(' | b'[' => {
                brackets += 1;
                prefix_run = 0;
            }
            b')' | b']' => {
                brackets = brackets.saturating_sub(1);
                prefix_run = 0;
            }
            b'{' => {
                brackets += 1;
                keywords = 0;
                elses.push(0);
                prefix_run = 0;
            }
            b'}' => {
                brackets = brackets.saturating_sub(1);
                keywords = 0;
                if elses.len() > 1 {
                    elses.pop();
                }
                prefix_run = 0;
            }
            b';' => {
                keywords = 0;
                prefix_run = 0;
            }
            b'-' | b'+' | b'!' | b'~' | b'*' | b'&' => prefix_run += 1,
            c if c.is_ascii_alphabetic() || c == b'_' => {
                while bytes
                    .get(i)
                    .is_some_and(|b| b.is_ascii_alphanumeric() || *b == b'_')
                {
                    i += 1;
                }
                match text.get(start..i).unwrap_or("") {
                    "if" | "while" | "for" | "switch" | "do" | "case" | "default" => keywords += 1,
                    "else" => {
                        if let Some(count) = elses.last_mut() {
                            *count += 1;
                        }
                    }
                    _ => {}
                }
                prefix_run = 0;
            }
            c if c.is_ascii_whitespace() => {}
            _ => prefix_run = 0,
        }
        at_line_start = false;
        let estimate = brackets + keywords + prefix_run + elses.last().copied().unwrap_or(0);
        if estimate > limit {
            return Some(start);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ordinary_code_is_shallow() {
        let code = "# 1 \"x.c\"\nint f(int x) { if (x) { return -(x + 1); } else if (x > 2) return 0; return '(' ; }\n";
        assert_eq!(too_deep(code, 10), None);
    }

    #[test]
    fn deep_brackets_prefix_runs_and_statement_chains_are_caught() {
        let parens = format!("int y = {}1{};", "(".repeat(50), ")".repeat(50));
        assert!(too_deep(&parens, 40).is_some());
        let negations = format!("int y = {}1;", "- ".repeat(50));
        assert!(too_deep(&negations, 40).is_some());
        let ifs = format!("void f(int x) {{ {} x++; }}", "if (x) ".repeat(50));
        assert!(too_deep(&ifs, 40).is_some());
        let chain: String = (0..50)
            .map(|i| format!("else if (x == {i}) return {i}; "))
            .collect();
        assert!(too_deep(&format!("int f(int x) {{ if (x) return 0; {chain} }}"), 40).is_some());
    }
}
