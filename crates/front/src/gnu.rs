//! GNU C spellings lang-c cannot parse, rewritten in the preprocessed text
//! into ones it can, before parsing. Every rewrite keeps the meaning visible
//! to the lowering (a marker it recognises, or text that means the same), and
//! [`Edits`] maps offsets in the rewritten text back to the original, so
//! diagnostics and branch spans still point at the user's source.
//!
//! - `a ?: b` becomes `a ? __cairn_omitted_operand : b`; the lowering
//!   evaluates `a` once and branches on it (one condition, as gcov counts).
//! - `__int128`, `__int128_t` and `__uint128_t` become `__typeof__` of a
//!   marker (after `unsigned` for the last), which the lowering reads as
//!   the 128-bit integer type (lang-c has no such keyword).
//! - `__float128` becomes `_Float128`, the keyword gcc reads it as.
//! - `__thread` becomes `_Thread_local`.
//! - A `$` in an identifier (`tmp_if_expr$2`, which gcc takes) becomes
//!   `__cairn_dollar_`.
//! - `__auto_type x = e` becomes `__typeof__((0, (e))) x = e`: the type of
//!   `e` after lvalue conversion and decay, as gcc deduces it (`e` is not
//!   evaluated inside `__typeof__`).
//! - A universal character name in a string or character literal
//!   (`"\u00e9"`, `L'\U0001F600'`) becomes the character itself, which
//!   the literal's decoding encodes as its prefix says (UTF-8 bytes, or
//!   the code point in UTF-16 or UTF-32 units); lang-c has no such escape.
//! - Attributes standing as a statement (`__attribute__((fallthrough));`) or
//!   after a label, and `__label__` declarations, are blanked: they mean
//!   nothing to the program's behaviour.
//! - `struct __attribute__((...)) [tag] { ... }`, which lang-c takes only
//!   without declarators, becomes `struct [tag] { ... } __attribute__((...))`
//!   (the same type attribute to gcc), so the attribute still reaches the
//!   lowering (which refuses packing and alignment).

/// The identifier standing for the omitted middle operand of `a ?: b`.
pub(crate) const OMITTED_OPERAND: &str = "__cairn_omitted_operand";
/// What a `$` in an identifier becomes (gcc takes `$` in identifiers,
/// as CIL's temporaries use it: `tmp_if_expr$2`).
pub(crate) const DOLLAR: &str = "__cairn_dollar_";
/// The identifier whose `__typeof__` stands for a 128-bit integer type.
pub(crate) const INT128_MARKER: &str = "__cairn_int128";

/// A piece of the rewritten text: copied from the original, or a replacement.
#[derive(Clone, Debug)]
struct Piece {
    new_start: usize,
    old_start: usize,
    old_len: usize,
    copied: bool,
}

/// Where each offset of the rewritten text came from.
#[derive(Clone, Debug, Default)]
pub(crate) struct Edits {
    pieces: Vec<Piece>,
}

impl Edits {
    /// The original offset of a rewritten one; inside a replacement, the
    /// start of what it replaced (or the matching byte of a blanked range).
    pub fn original(&self, offset: usize) -> usize {
        let index = self.pieces.partition_point(|p| p.new_start <= offset);
        let Some(piece) = index.checked_sub(1).and_then(|i| self.pieces.get(i)) else {
            return offset;
        };
        let within = offset - piece.new_start;
        if piece.copied {
            piece.old_start + within
        } else {
            piece.old_start + within.min(piece.old_len.saturating_sub(1))
        }
    }
}

/// The text to parse and the map back to the original.
pub(crate) struct Rewritten {
    pub text: String,
    pub edits: Edits,
}

/// A token of the preprocessed text, as far as the rewrites need one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    Word,
    Punct,
    /// String or character literal, number: never rewritten.
    Other,
}

#[derive(Clone, Copy, Debug)]
pub(crate) struct Token {
    pub start: usize,
    pub end: usize,
    pub kind: Kind,
}

/// Splits preprocessed text into tokens, skipping line markers and pragmas.
pub(crate) fn tokens(text: &str) -> Vec<Token> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    let mut line_start = true;
    while i < bytes.len() {
        let b = bytes[i];
        if b == b'\n' {
            line_start = true;
            i += 1;
            continue;
        }
        if b.is_ascii_whitespace() {
            i += 1;
            continue;
        }
        if line_start && b == b'#' {
            while i < bytes.len() && bytes[i] != b'\n' {
                i += 1;
            }
            continue;
        }
        line_start = false;
        let start = i;
        let kind = if b.is_ascii_alphabetic() || b == b'_' || b == b'$' {
            while i < bytes.len()
                && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_' || bytes[i] == b'$')
            {
                i += 1;
            }
            Kind::Word
        } else if b.is_ascii_digit() {
            while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'.') {
                i += 1;
            }
            Kind::Other
        } else if b == b'"' || b == b'\'' {
            i += 1;
            while i < bytes.len() && bytes[i] != b && bytes[i] != b'\n' {
                i += if bytes[i] == b'\\' { 2 } else { 1 };
            }
            i = (i + 1).min(bytes.len());
            Kind::Other
        } else {
            i += 1;
            Kind::Punct
        };
        out.push(Token {
            start,
            end: i,
            kind,
        });
    }
    out
}

/// One planned change: replace `start..end` of the original with `with`.
struct Change {
    start: usize,
    end: usize,
    with: String,
    /// Where `with` was copied from, when it is original text moved here.
    moved_from: Option<usize>,
}

/// The text from `start` to `end` with every character but newlines blanked.
pub(crate) fn blank(text: &str, start: usize, end: usize) -> String {
    text.get(start..end)
        .unwrap_or("")
        .chars()
        .map(|c| if c == '\n' { '\n' } else { ' ' })
        .collect()
}

/// Index of the token closing the bracket opened at `open` (or the last token).
/// The index of the `{` that the `}` at `close` ends, if any.
fn opening_brace(text: &str, toks: &[Token], close: usize) -> Option<usize> {
    let mut depth = 0usize;
    for i in (0..=close).rev() {
        match text.get(toks[i].start..toks[i].end) {
            Some("}") => depth += 1,
            Some("{") => {
                depth -= 1;
                if depth == 0 {
                    return Some(i);
                }
            }
            _ => {}
        }
    }
    None
}

pub(crate) fn matching(text: &str, toks: &[Token], open: usize) -> usize {
    let word = |t: &Token| text.get(t.start..t.end).unwrap_or("");
    let mut depth = 0usize;
    for (i, t) in toks.iter().enumerate().skip(open) {
        match word(t) {
            "(" | "[" | "{" => depth += 1,
            ")" | "]" | "}" => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return i;
                }
            }
            _ => {}
        }
    }
    toks.len().saturating_sub(1)
}

/// Rewrites the GNU spellings listed in the module doc.
pub(crate) fn rewrite(text: &str) -> Rewritten {
    let toks = tokens(text);
    let word = |i: usize| {
        toks.get(i)
            .and_then(|t| text.get(t.start..t.end))
            .unwrap_or("")
    };
    let is_attribute = |i: usize| matches!(word(i), "__attribute__" | "__attribute");
    let mut changes: Vec<Change> = Vec::new();
    let mut i = 0;
    while let Some(tok) = toks.get(i) {
        let here = word(i);
        match here {
            "?" if word(i + 1) == ":" => changes.push(Change {
                start: tok.end,
                end: tok.end,
                with: format!(" {OMITTED_OPERAND} "),
                moved_from: None,
            }),
            "__int128" | "__int128_t" | "__uint128_t" => {
                // `unsigned __int128` stays `unsigned __typeof__(...)`: one marker.
                let unsigned = if here == "__uint128_t" {
                    "unsigned "
                } else {
                    ""
                };
                changes.push(Change {
                    start: tok.start,
                    end: tok.end,
                    with: format!("{unsigned}__typeof__({INT128_MARKER})"),
                    moved_from: None,
                });
            }
            _ if tok.kind == Kind::Word && here.contains('$') => changes.push(Change {
                start: tok.start,
                end: tok.end,
                with: here.replace('$', DOLLAR),
                moved_from: None,
            }),
            "__float128" => changes.push(Change {
                start: tok.start,
                end: tok.end,
                with: "_Float128".to_string(),
                moved_from: None,
            }),
            _ if tok.kind == Kind::Other && (here.contains("\\u") || here.contains("\\U")) => {
                if let Some(with) = universal_characters(here) {
                    changes.push(Change {
                        start: tok.start,
                        end: tok.end,
                        with,
                        moved_from: None,
                    });
                }
            }
            "__auto_type"
                if toks.get(i + 1).is_some_and(|t| t.kind == Kind::Word) && word(i + 2) == "=" =>
            {
                // The initializer ends at the `;` (or `,`) outside brackets.
                let mut end = i + 3;
                while end < toks.len() && !matches!(word(end), ";" | ",") {
                    end = match word(end) {
                        "(" | "[" | "{" => matching(text, &toks, end) + 1,
                        _ => end + 1,
                    };
                }
                let initializer = match (
                    toks.get(i + 3),
                    end.checked_sub(1).and_then(|e| toks.get(e)),
                ) {
                    (Some(first), Some(last)) if end > i + 3 => text.get(first.start..last.end),
                    _ => None,
                };
                if let Some(initializer) = initializer {
                    changes.push(Change {
                        start: tok.start,
                        end: tok.end,
                        with: format!("__typeof__((0, ({initializer})))"),
                        moved_from: None,
                    });
                }
            }
            "__thread" => changes.push(Change {
                start: tok.start,
                end: tok.end,
                with: "_Thread_local".into(),
                moved_from: None,
            }),
            "__label__" => {
                let end = (i..toks.len())
                    .find(|&j| word(j) == ";")
                    .unwrap_or(toks.len() - 1);
                changes.push(Change {
                    start: tok.start,
                    end: toks[end].end,
                    with: blank(text, tok.start, toks[end].end),
                    moved_from: None,
                });
                i = end + 1;
                continue;
            }
            _ if is_attribute(i) && word(i + 1) == "(" => {
                let close = matching(text, &toks, i + 1);
                let before = i.checked_sub(1).map(word).unwrap_or("");
                let after = word(close + 1);
                let closes_type_body = before == "}"
                    && opening_brace(text, &toks, i - 1).is_some_and(|open| {
                        let keyword = |k: usize| matches!(word(k), "struct" | "union" | "enum");
                        open.checked_sub(1).is_some_and(keyword)
                            || open.checked_sub(2).is_some_and(keyword)
                    });
                let statement =
                    after == ";" && matches!(before, ";" | "{" | "}" | ":") && !closes_type_body;
                if statement {
                    changes.push(Change {
                        start: tok.start,
                        end: toks[close].end,
                        with: blank(text, tok.start, toks[close].end),
                        moved_from: None,
                    });
                } else if matches!(before, "struct" | "union") {
                    let tagged = toks.get(close + 1).is_some_and(|t| t.kind == Kind::Word);
                    let open = if tagged { close + 2 } else { close + 1 };
                    if word(open) == "{" {
                        let body_end = toks[matching(text, &toks, open)].end;
                        let attribute = text.get(tok.start..toks[close].end).unwrap_or("");
                        changes.push(Change {
                            start: tok.start,
                            end: toks[close].end,
                            with: blank(text, tok.start, toks[close].end),
                            moved_from: None,
                        });
                        changes.push(Change {
                            start: body_end,
                            end: body_end,
                            with: attribute.to_string(),
                            moved_from: Some(tok.start),
                        });
                    }
                }
                i = close + 1;
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    // A moved attribute lands after changes inside the struct's body.
    changes.sort_by_key(|c| c.start);
    apply(text, changes)
}

/// A string or character literal with each universal character name
/// (`\uXXXX`, `\UXXXXXXXX`) replaced by its character; `None` when it has
/// none, or one that names no character (a surrogate half), left to the
/// parser to refuse.
fn universal_characters(literal: &str) -> Option<String> {
    let mut out = String::with_capacity(literal.len());
    let mut rest = literal;
    let mut replaced = false;
    while let Some(backslash) = rest.find('\\') {
        out.push_str(&rest[..backslash]);
        let escape = &rest[backslash + 1..];
        let digits = match escape.chars().next() {
            Some('u') => 4,
            Some('U') => 8,
            Some(other) => {
                // Any other escape is kept whole, so `\\u` stays text.
                let len = 1 + other.len_utf8();
                out.push_str(&rest[backslash..backslash + len]);
                rest = &rest[backslash + len..];
                continue;
            }
            None => break,
        };
        let hex = escape.get(1..1 + digits)?;
        if !hex.chars().all(|c| c.is_ascii_hexdigit()) {
            return None;
        }
        let character = u32::from_str_radix(hex, 16).ok().and_then(char::from_u32)?;
        out.push(character);
        replaced = true;
        rest = &escape[1 + digits..];
    }
    out.push_str(rest);
    replaced.then_some(out)
}

/// Applies changes (in increasing, non-overlapping order) and records the pieces.
fn apply(text: &str, changes: Vec<Change>) -> Rewritten {
    let mut out = String::with_capacity(text.len() + changes.len() * 16);
    let mut pieces = Vec::new();
    let mut copied_from = 0;
    for change in changes {
        if change.start > copied_from {
            pieces.push(Piece {
                new_start: out.len(),
                old_start: copied_from,
                old_len: change.start - copied_from,
                copied: true,
            });
            out.push_str(text.get(copied_from..change.start).unwrap_or(""));
        }
        let same_length = change.with.len() == change.end - change.start;
        pieces.push(Piece {
            new_start: out.len(),
            old_start: change.moved_from.unwrap_or(change.start),
            old_len: change.end - change.start,
            copied: same_length || change.moved_from.is_some(),
        });
        out.push_str(&change.with);
        copied_from = change.end;
    }
    pieces.push(Piece {
        new_start: out.len(),
        old_start: copied_from,
        old_len: text.len().saturating_sub(copied_from),
        copied: true,
    });
    out.push_str(text.get(copied_from..).unwrap_or(""));
    Rewritten {
        text: out,
        edits: Edits { pieces },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn universal_character_names_become_their_characters() {
        assert_eq!(
            universal_characters(r#""caf\u00e9""#).as_deref(),
            Some("\"café\"")
        );
        assert_eq!(
            universal_characters(r"L'\U0001F600'").as_deref(),
            Some("L'😀'")
        );
        // An escaped backslash names nothing; a surrogate half is no character.
        assert_eq!(universal_characters(r#""\\u00e9""#), None);
        assert_eq!(universal_characters(r#""\ud800""#), None);
        assert_eq!(universal_characters(r#""\u00g9""#), None);
        let text = "const char *e = \"x\\u00e9\"; int n;\n";
        let r = rewrite(text);
        assert!(r.text.contains("\"xé\"; int n;"), "{}", r.text);
        let n = r.text.find("n;").expect("n");
        assert_eq!(r.edits.original(n), text.find("n;").expect("n"));
    }

    #[test]
    fn omitted_middle_operand_gets_a_marker_and_offsets_map_back() {
        let text = "int f(int a, int b) { return a ?: b; }\n";
        let r = rewrite(text);
        assert!(
            r.text.contains(&format!("a ? {OMITTED_OPERAND} : b")),
            "{}",
            r.text
        );
        let b = r.text.rfind('b').unwrap();
        assert_eq!(r.edits.original(b), text.rfind('b').unwrap());
        let marker = r.text.find(OMITTED_OPERAND).unwrap();
        assert_eq!(r.edits.original(marker), text.find(':').unwrap());
    }

    #[test]
    fn statement_attributes_are_blanked_and_keep_lines() {
        let text = "case 1: x++; __attribute__((fallthrough));\ncase 2: l: __attribute__((unused)); __label__ a, b;\n";
        let r = rewrite(text);
        assert!(!r.text.contains("__attribute__"), "{}", r.text);
        assert!(!r.text.contains("__label__"), "{}", r.text);
        assert_eq!(r.text.len(), text.len());
        assert_eq!(r.text.lines().count(), 2);
    }

    #[test]
    fn declaration_attributes_stay() {
        let text =
            "static int f(void) __attribute__((noreturn)); int x __attribute__((aligned(8)));";
        assert_eq!(rewrite(text).text, text);
    }

    #[test]
    fn attributes_ending_a_type_definition_stay() {
        let text = "struct s { int v; } __attribute__((packed));\nenum e { A } __attribute__((packed));\nvoid f(void) { if (1) { } __attribute__((unused)); }";
        let r = rewrite(text);
        assert_eq!(
            r.text.matches("__attribute__((packed))").count(),
            2,
            "{}",
            r.text
        );
        assert!(!r.text.contains("unused"), "{}", r.text);
    }

    #[test]
    fn struct_attributes_move_after_the_body() {
        let text = "struct __attribute__((packed)) { int v; } *p; struct __attribute__((aligned(8))) s { int w; } q;";
        let r = rewrite(text);
        assert!(
            r.text.contains("{ int v; }__attribute__((packed)) *p;"),
            "{}",
            r.text
        );
        assert!(
            r.text
                .contains("s { int w; }__attribute__((aligned(8))) q;"),
            "{}",
            r.text
        );
        let p = r.text.find("*p").unwrap();
        assert_eq!(r.edits.original(p), text.find("*p").unwrap());
    }

    #[test]
    fn strings_and_markers_are_left_alone() {
        let text = "# 1 \"a?:b.c\"\nchar *s = \"x ?: y __thread\";\n";
        assert_eq!(rewrite(text).text, text);
    }

    #[test]
    fn dollars_in_identifiers_are_respelled() {
        let r = rewrite("int tmp_if_expr$2 = 0; char *s = \"$\";");
        assert_eq!(
            r.text,
            format!("int tmp_if_expr{DOLLAR}2 = 0; char *s = \"$\";")
        );
    }

    #[test]
    fn int128_and_thread_are_respelled() {
        let r = rewrite("static __thread unsigned __int128 x; __uint128_t y;");
        assert_eq!(
            r.text,
            format!(
                "static _Thread_local unsigned __typeof__({INT128_MARKER}) x; unsigned __typeof__({INT128_MARKER}) y;"
            )
        );
    }
}
