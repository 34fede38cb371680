//! A parse error costs the top-level item it is in, not the file: the item
//! is cut out of the text (a function keeps its prototype, so its callers
//! are excluded by name rather than failing to compile) and parsing starts
//! again. The item's construct is named when it is one lang-c cannot parse
//! (computed goto, `__auto_type`); otherwise the parser's message is kept.

use crate::gnu::{blank, matching, tokens, Kind, Token};

/// Most items cut from one file before giving up on it (each cut reparses).
pub(crate) const MAX_CUTS: usize = 64;

/// An item cut out of the text.
pub(crate) struct Cut {
    /// The function it defines or declares, when it is one.
    pub function: Option<String>,
    /// `Some(construct)` when the item uses something known to be unparseable.
    pub construct: Option<&'static str>,
}

/// A top-level item: token indices of its first and last token and, for a
/// function definition, of the `{` opening its body.
struct Item {
    first: usize,
    last: usize,
    body: Option<usize>,
}

fn word<'t>(text: &'t str, toks: &[Token], i: usize) -> &'t str {
    toks.get(i)
        .and_then(|t| text.get(t.start..t.end))
        .unwrap_or("")
}

/// Words followed by `(` that are not the name of a declared function.
fn is_keyword_with_parens(w: &str) -> bool {
    matches!(
        w,
        "__attribute__"
            | "__attribute"
            | "__asm__"
            | "__asm"
            | "asm"
            | "__typeof__"
            | "__typeof"
            | "typeof"
            | "_Alignas"
            | "__declspec"
            | "sizeof"
            | "_Atomic"
    )
}

/// Words that may begin a declaration without naming its type (which is
/// then C89's implicit `int`).
fn is_specifier_without_type(w: &str) -> bool {
    matches!(
        w,
        "static"
            | "extern"
            | "register"
            | "auto"
            | "const"
            | "volatile"
            | "inline"
            | "__inline"
            | "__inline__"
            | "_Noreturn"
            | "__extension__"
    )
}

/// Words that name a type or begin one.
fn is_type_word(w: &str) -> bool {
    matches!(
        w,
        "void"
            | "char"
            | "short"
            | "int"
            | "long"
            | "float"
            | "double"
            | "signed"
            | "__signed__"
            | "unsigned"
            | "_Bool"
            | "_Complex"
            | "struct"
            | "union"
            | "enum"
    ) || is_keyword_with_parens(w)
}

/// The top-level items of the text, in order.
fn items(text: &str, toks: &[Token]) -> Vec<Item> {
    let mut out = Vec::new();
    let (mut first, mut depth) = (0usize, 0usize);
    let mut body = None;
    // Whether the last parenthesised group closed at depth 0 was an
    // attribute or asm label (then a `{` after it is no function body).
    let mut group_is_keyword = false;
    let mut group_keyword_open = false;
    // Inside the declaration list of an old-style definition (`int f(a)
    // int a; {...}`), whose `;` end no item; a word after `)` in an
    // initializer follows a cast instead.
    let mut parameter_declarations = false;
    let mut initializer = false;
    for i in 0..toks.len() {
        let w = word(text, toks, i);
        match w {
            "(" if depth == 0 => {
                group_keyword_open = is_keyword_with_parens(word(text, toks, i.wrapping_sub(1)));
                depth += 1;
            }
            "{" if depth == 0 => {
                let after_paren = word(text, toks, i.wrapping_sub(1)) == ")";
                if (after_paren && !group_is_keyword) || parameter_declarations {
                    body = Some(i);
                }
                parameter_declarations = false;
                depth += 1;
            }
            "(" | "[" | "{" => depth += 1,
            ")" | "]" | "}" => {
                depth = depth.saturating_sub(1);
                if depth == 0 && w == ")" {
                    group_is_keyword = group_keyword_open;
                    let next = i + 1;
                    parameter_declarations |= !group_is_keyword
                        && !initializer
                        && toks.get(next).is_some_and(|t| t.kind == Kind::Word)
                        && !is_keyword_with_parens(word(text, toks, next));
                }
                if depth == 0 && w == "}" && body.is_some() {
                    out.push(Item {
                        first,
                        last: i,
                        body: body.take(),
                    });
                    first = i + 1;
                }
            }
            "=" if depth == 0 => initializer = true,
            ";" if depth == 0 && parameter_declarations => {}
            ";" if depth == 0 => {
                out.push(Item {
                    first,
                    last: i,
                    body: None,
                });
                first = i + 1;
                body = None;
                initializer = false;
            }
            _ => {}
        }
    }
    if first < toks.len() {
        out.push(Item {
            first,
            last: toks.len() - 1,
            body,
        });
    }
    out
}

/// The name a function item declares: the first word followed by `(`
/// that is not a keyword taking parentheses.
fn function_name(text: &str, toks: &[Token], item: &Item) -> Option<String> {
    (item.first..item.last).find_map(|i| {
        let w = word(text, toks, i);
        let named = toks[i].kind == Kind::Word
            && word(text, toks, i + 1) == "("
            && !is_keyword_with_parens(w);
        named.then(|| w.to_string())
    })
}

/// Whether the declaration starting at token `start` names no type, as
/// `f(x) {...}`, `static g();` or `register n;` in the declaration list of
/// an old-style definition (C89's implicit `int`, which lang-c refuses).
fn lacks_type(text: &str, toks: &[Token], start: usize) -> bool {
    let mut i = start;
    while is_specifier_without_type(word(text, toks, i)) {
        i += 1;
    }
    let w = word(text, toks, i);
    if w == "*" {
        return i > start;
    }
    let declarator_name = toks.get(i).is_some_and(|t| t.kind == Kind::Word) && !is_type_word(w);
    declarator_name && matches!(word(text, toks, i + 1), "(" | ";" | "," | "[" | "=")
}

/// The first token of the declaration list of an old-style definition
/// (`int a;` in `int f(a) int a; {...}`), if the item is one.
fn parameter_declarations(text: &str, toks: &[Token], item: &Item) -> Option<usize> {
    let open = item.body?;
    let mut depth = 0usize;
    (item.first..open).find_map(|i| {
        match word(text, toks, i) {
            "(" => depth += 1,
            ")" => depth = depth.saturating_sub(1),
            _ => return None,
        }
        let next = i + 1;
        let starts_list = depth == 0
            && next < open
            && toks[next].kind == Kind::Word
            && !is_keyword_with_parens(word(text, toks, next));
        starts_list.then_some(next)
    })
}

/// A construct of the item lang-c is known not to parse.
fn construct(text: &str, toks: &[Token], item: &Item) -> Option<&'static str> {
    // Declarations start the item and follow a `)` or `;` before its body.
    let header_end = item.body.unwrap_or(item.last);
    let mut depth = 0usize;
    let mut starts = vec![item.first];
    for i in item.first..header_end {
        match word(text, toks, i) {
            "(" | "[" => depth += 1,
            ")" | "]" => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    starts.push(i + 1);
                }
            }
            ";" if depth == 0 => starts.push(i + 1),
            _ => {}
        }
    }
    if starts.iter().any(|&start| lacks_type(text, toks, start)) {
        return Some("implicit `int` (a declaration without a type)");
    }
    (item.first..=item.last).find_map(|i| {
        let w = word(text, toks, i);
        let next = word(text, toks, i + 1);
        let before = word(text, toks, i.wrapping_sub(1));
        // `&&` after an operand is the logical operator.
        let after_operand = i
            .checked_sub(1)
            .and_then(|j| toks.get(j))
            .is_some_and(|t| t.kind != Kind::Punct && before != "return")
            || matches!(before, ")" | "]");
        match w {
            "goto" if next == "*" => Some("computed goto"),
            // Tokens are single characters: `&&label` is `&`, `&`, a word.
            "&" if next == "&"
                && toks[i].end == toks[i + 1].start
                && !after_operand
                && toks.get(i + 2).is_some_and(|t| t.kind == Kind::Word) =>
            {
                Some("computed goto")
            }
            "__auto_type" => Some("__auto_type"),
            _ => None,
        }
    })
}

/// Cuts the item holding `offset` out of `text`; `None` when no item holds it.
pub(crate) fn cut(text: &mut String, offset: usize) -> Option<Cut> {
    let toks = tokens(text);
    let items = items(text, &toks);
    let item = items.iter().find(|item| {
        let end = toks[item.last].end;
        toks[item.first].start <= offset && offset < end.max(toks[item.first].start + 1)
    })?;
    let function = function_name(text, &toks, item);
    let construct = construct(text, &toks, item);
    let start = toks[item.first].start;
    let declarations = parameter_declarations(text, &toks, item);
    let (from, replacement) = match (item.body, declarations) {
        // The error is in the body: keep the prototype.
        (Some(open), _) if toks[open].start <= offset => {
            let close = matching(text, &toks, open);
            let from = toks[open].start;
            let mut r = blank(text, from, toks[close].end);
            r.replace_range(0..1, ";");
            (from, r)
        }
        // In the declaration list of an old-style definition: keep
        // `f(a, b);`, a declaration without a prototype.
        (Some(_), Some(list)) if toks[list].start <= offset => {
            let from = toks[list].start;
            let mut r = blank(text, from, toks[item.last].end);
            r.replace_range(0..1, ";");
            (from, r)
        }
        _ => (start, blank(text, start, toks[item.last].end)),
    };
    let end = from + replacement.len();
    text.replace_range(from..end, &replacement);
    Some(Cut {
        function,
        construct,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_function_body_that_does_not_parse_leaves_its_prototype() {
        let mut text =
            "int a(void) { return 1; }\nstatic int g(int x) { void *p = &&l; goto *p; l: return x; }\nint h(void);\n"
                .to_string();
        let offset = text.find("&&").unwrap();
        let cut = cut(&mut text, offset).expect("an item holds the offset");
        assert_eq!(cut.function.as_deref(), Some("g"));
        assert_eq!(cut.construct, Some("computed goto"));
        assert!(text.contains("static int g(int x) ;"), "{text}");
        assert!(text.contains("int a(void) { return 1; }"), "{text}");
        assert_eq!(text.lines().count(), 3);
    }

    #[test]
    fn a_label_address_alone_names_computed_goto() {
        let mut text = "int f(void) { void *p = &&l; l: return p != 0; }\n".to_string();
        let offset = text.find("&&").unwrap();
        let label = cut(&mut text, offset).expect("an item holds the offset");
        assert_eq!(label.construct, Some("computed goto"));
        let mut text = "int g(int a, int b) { return a && b + ; }\n".to_string();
        let offset = text.find(" ;").unwrap() + 1;
        let logical = cut(&mut text, offset).expect("an item holds the offset");
        assert_eq!(logical.construct, None, "`a && b` is the logical operator");
    }

    #[test]
    fn a_declaration_that_does_not_parse_is_blanked_whole() {
        let mut text = "struct s { int a; } x;\nweird thing here;\nint y;\n".to_string();
        let offset = text.find("thing").unwrap();
        let cut = cut(&mut text, offset).expect("an item holds the offset");
        assert_eq!(cut.function, None);
        assert_eq!(cut.construct, None);
        assert!(text.starts_with("struct s { int a; } x;\n"), "{text}");
        assert!(text.ends_with("\nint y;\n"), "{text}");
        assert!(!text.contains("weird"));
    }

    #[test]
    fn an_old_style_definition_is_one_item_that_keeps_its_head() {
        let text =
            "static char *p = (char *) q;\nint f(a, b) int a; register b; { return a; }\nint g;\n";
        let toks = tokens(text);
        let items = items(text, &toks);
        assert_eq!(
            items.len(),
            3,
            "a cast in an initializer starts no declaration list"
        );
        assert!(items[1].body.is_some());
        let mut text = text.to_string();
        let offset = text.find("b; {").unwrap();
        let cut = cut(&mut text, offset).expect("an item holds the offset");
        assert_eq!(cut.function.as_deref(), Some("f"));
        assert_eq!(
            cut.construct,
            Some("implicit `int` (a declaration without a type)")
        );
        assert!(text.contains("int f(a, b) ;"), "{text}");
        assert!(text.ends_with("\nint g;\n"), "{text}");
    }

    #[test]
    fn attributes_and_struct_bodies_are_no_function_bodies() {
        let text = "struct __attribute__((packed)) s { int a; } v;\nint f(void) { return 0; }\n";
        let toks = tokens(text);
        let items = items(text, &toks);
        assert_eq!(items.len(), 2);
        assert!(items[0].body.is_none());
        assert!(items[1].body.is_some());
    }
}
