//! Test names that say what the test shows: the function, what it returned
//! and the condition the test decided last among those it newly covers
//! (`test_parse_date_returns_minus_1_when_month_is_13`), or for a test
//! that only sits at the edge of a comparison, that comparison
//! (`test_limit_returns_1_just_below_x_le_10`). Built from the
//! test case alone, so the same tests get the same names on every run; the
//! driver makes them unique (`_2`, `_3` in test order).

use ir::{Goal, GoalInfo, Type};
use std::collections::HashMap;
use testcase::{Boundary, TestCase, Value};

/// Names longer than this lose words of their condition first.
const LONGEST_NAME: usize = 60;

/// `test_<function>[_returns_<value>|_exits_<status>][_when_<condition>]`,
/// or with the NULL arguments when the test decides no new condition.
pub fn test_name(
    function: &ir::Function,
    test: &TestCase,
    goals: &HashMap<Goal, GoalInfo>,
) -> String {
    let base = format!("test_{}", function.name);
    let returns = test
        .ret
        .as_ref()
        .and_then(|value| returned_words(&function.sig.ret, value))
        .map(|words| format!("_returns_{words}"))
        .or_else(|| test.exits.map(|status| format!("_exits_{status}")))
        .unwrap_or_default();
    // A decision's vector is named by the branches that take it.
    let branch = |g: &&Goal| {
        goals
            .get(g)
            .is_some_and(|i| i.kind != ir::BranchKind::Vector)
    };
    let decisive = test
        .path_goals
        .iter()
        .rev()
        .filter(branch)
        .find(|g| test.new_goals.contains(g))
        .or(test.new_goals.iter().rev().find(branch))
        // A test for a vector alone: the last branch it takes.
        .or_else(|| match test.new_goals.is_empty() {
            true => None,
            false => test.path_goals.iter().rev().find(branch),
        })
        .and_then(|goal| goals.get(goal))
        .map(|info| format!("when_{}", condition_words(&info.label)));
    let detail = decisive
        .or_else(|| edge_words(test, goals))
        .or_else(|| null_arguments(function, test));
    let Some(detail) = detail else {
        return base + &returns;
    };
    let room = LONGEST_NAME.saturating_sub(base.len() + returns.len() + 1);
    match shorten(&detail, room) {
        Some(detail) => format!("{base}{returns}_{detail}"),
        None => base + &returns,
    }
}

/// The text of the condition at `boundary`'s place (`x <= 10`), when a
/// branch of the function is decided by it.
pub fn compared_text(boundary: &Boundary, goals: &HashMap<Goal, GoalInfo>) -> Option<String> {
    let info = goals
        .values()
        .filter(|info| info.span == boundary.span)
        .min_by_key(|info| info.goal)?;
    let (text, _) = info.label.rsplit_once(": ")?;
    Some(text.to_string())
}

/// `just_below_x_le_10`, `at_edge_of_x_le_10`, `just_above_x_le_10`: the
/// first comparison the test newly sits at the edge of, when a branch
/// says its text.
fn edge_words(test: &TestCase, goals: &HashMap<Goal, GoalInfo>) -> Option<String> {
    let boundary = test.boundaries.first()?;
    let text = compared_text(boundary, goals)?;
    let edge = match boundary.offset {
        0 => "at_edge_of",
        o if o < 0 => "just_below",
        _ => "just_above",
    };
    Some(format!("{edge}_{}", condition_words(&text)))
}

/// `0`, `minus_1`, `null`; nothing for values a name cannot say shortly.
fn returned_words(ty: &Type, value: &Value) -> Option<String> {
    match (ty, value) {
        (Type::Int(it), Value::Int { bits, .. }) => {
            let number = it.decimal(*bits);
            Some(match number.strip_prefix('-') {
                Some(magnitude) => format!("minus_{magnitude}"),
                None => number,
            })
        }
        (Type::Pointer(_), Value::Null) => Some("null".to_string()),
        _ => None,
    }
}

/// `with_null_s_and_out` when pointer arguments are NULL.
fn null_arguments(function: &ir::Function, test: &TestCase) -> Option<String> {
    let nulls: Vec<String> = test
        .inputs
        .args
        .iter()
        .enumerate()
        .filter(|(_, v)| matches!(v, Value::Null))
        .map(|(i, _)| crate::names::identifier_from_path(&crate::shapes::param_name(function, i)))
        .collect();
    (!nulls.is_empty()).then(|| format!("with_null_{}", nulls.join("_and_")))
}

/// The first words of `detail` (split at `_`) that fit in `room` characters.
fn shorten(detail: &str, room: usize) -> Option<String> {
    if detail.len() <= room {
        return Some(detail.to_string());
    }
    let mut kept = String::new();
    for word in detail.split('_') {
        let next = if kept.is_empty() {
            word.len()
        } else {
            kept.len() + 1 + word.len()
        };
        if next > room {
            break;
        }
        if !kept.is_empty() {
            kept.push('_');
        }
        kept.push_str(word);
    }
    // A cut comparison ends on its operand, not on its operator.
    while let Some((rest, last)) = kept.rsplit_once('_') {
        if !OPERATOR_WORDS.contains(&last) {
            break;
        }
        kept.truncate(rest.len());
    }
    // `when` alone says nothing.
    kept.contains('_').then_some(kept)
}

/// The words [`word_of`] gives operators.
const OPERATOR_WORDS: &[&str] = &[
    "is", "not", "lt", "le", "gt", "ge", "and", "or", "plus", "minus", "times", "div", "mod",
    "bitand", "bitor", "xor", "compl", "shl", "shr",
];

/// A goal label (`a > b: true`, `month: case 2`, `c: default`) as words
/// of an identifier: `a_gt_b`, `month_is_2`, `c_is_other`; a false arm
/// negates a comparison (`a_le_b`) or reads `not_...`.
fn condition_words(label: &str) -> String {
    let (text, arm) = label.rsplit_once(": ").unwrap_or((label, "true"));
    let mut tokens = tokens(text);
    match arm {
        "true" => {}
        "false" => negate(&mut tokens),
        "default" => tokens.extend(["is".to_string(), "other".to_string()]),
        case => {
            tokens.push("is".to_string());
            tokens.extend(self::tokens(case.strip_prefix("case ").unwrap_or(case)));
        }
    }
    let words: Vec<String> = tokens
        .iter()
        .map(|t| word_of(t))
        .filter(|w| !w.is_empty())
        .collect();
    if words.is_empty() {
        "condition".to_string()
    } else {
        words.join("_")
    }
}

/// Comparison operators and their negations.
const NEGATED: &[(&str, &str)] = &[
    ("==", "!="),
    ("!=", "=="),
    ("<", ">="),
    (">=", "<"),
    (">", "<="),
    ("<=", ">"),
];

/// The false arm: the one comparison outside parentheses turned round,
/// a leading `!` dropped, or `not` in front.
fn negate(tokens: &mut Vec<String>) {
    let mut depth = 0i32;
    let mut comparisons = Vec::new();
    for (i, t) in tokens.iter().enumerate() {
        match t.as_str() {
            "(" | "[" => depth += 1,
            ")" | "]" => depth -= 1,
            op if depth == 0 && NEGATED.iter().any(|(o, _)| *o == op) => comparisons.push(i),
            _ => {}
        }
    }
    if let [only] = comparisons[..] {
        if let Some((_, negated)) = NEGATED.iter().find(|(o, _)| *o == tokens[only]) {
            tokens[only] = negated.to_string();
            return;
        }
    }
    if tokens.first().map(String::as_str) == Some("!") {
        tokens.remove(0);
        return;
    }
    tokens.insert(0, "not".to_string());
}

/// C tokens, roughly: identifiers and numbers, character and string
/// literals, and operators of up to three characters.
fn tokens(text: &str) -> Vec<String> {
    const OPERATORS: &[&str] = &[
        "<<=", ">>=", "->", "==", "!=", "<=", ">=", "&&", "||", "<<", ">>", "++", "--",
    ];
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c.is_whitespace() {
            i += 1;
        } else if c.is_ascii_alphanumeric() || c == '_' {
            let start = i;
            while i < chars.len() && (chars[i].is_ascii_alphanumeric() || chars[i] == '_') {
                i += 1;
            }
            out.push(chars[start..i].iter().collect());
        } else if c == '\'' || c == '"' {
            let start = i;
            i += 1;
            while i < chars.len() && chars[i] != c {
                i += if chars[i] == '\\' { 2 } else { 1 };
            }
            i = (i + 1).min(chars.len());
            out.push(chars[start..i].iter().collect());
        } else {
            let rest: String = chars[i..].iter().take(3).collect();
            let op = OPERATORS
                .iter()
                .find(|op| rest.starts_with(*op))
                .map_or_else(|| c.to_string(), |op| op.to_string());
            i += op.chars().count();
            out.push(op);
        }
    }
    mark_unary(&mut out);
    out
}

/// `*`, `&` and `-` that start an operand are unary: `deref`, `addr` and
/// `neg` (a dereference or an address says nothing in a name).
fn mark_unary(tokens: &mut [String]) {
    let mut operand_before = false;
    for t in tokens.iter_mut() {
        let is_operand = t
            .chars()
            .next()
            .is_some_and(|c| c.is_ascii_alphanumeric() || c == '_' || c == '\'' || c == '"')
            || t == ")"
            || t == "]";
        if !operand_before {
            match t.as_str() {
                "*" => *t = "deref".to_string(),
                "&" => *t = "addr".to_string(),
                "-" => *t = "neg".to_string(),
                _ => {}
            }
        }
        operand_before = is_operand;
    }
}

/// One token as a word of an identifier (empty: left out).
fn word_of(token: &str) -> String {
    let word = match token {
        "==" => "is",
        "!=" => "is_not",
        "<" => "lt",
        "<=" => "le",
        ">" => "gt",
        ">=" => "ge",
        "!" => "not",
        "&&" => "and",
        "||" => "or",
        "+" => "plus",
        "-" => "minus",
        "neg" => "minus",
        "*" => "times",
        "/" => "div",
        "%" => "mod",
        "&" => "bitand",
        "|" => "bitor",
        "^" => "xor",
        "~" => "compl",
        "<<" => "shl",
        ">>" => "shr",
        "deref" | "addr" | "(" | ")" | "]" | "," | "->" | "." | "[" => "",
        t if t.starts_with('\'') => return char_word(t),
        t if t.starts_with('"') => "string",
        t if t.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') => {
            return t.trim_matches('_').to_ascii_lowercase()
        }
        _ => "",
    };
    word.to_string()
}

/// A character literal as a word: `'a'` -> `a`, `'\0'` -> `nul`.
fn char_word(literal: &str) -> String {
    let inner = literal.trim_matches('\'');
    let word = match inner {
        "\\0" => "nul",
        "\\n" => "newline",
        "\\t" => "tab",
        "\\r" => "return",
        " " => "space",
        "-" => "dash",
        "+" => "plus",
        "." => "dot",
        "," => "comma",
        ":" => "colon",
        ";" => "semicolon",
        "/" => "slash",
        "=" => "equals",
        "!" => "bang",
        "#" => "hash",
        "_" => "underscore",
        c if c.chars().all(|c| c.is_ascii_alphanumeric()) => return format!("char_{c}"),
        _ => "char",
    };
    word.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn conditions_read_as_words() {
        assert_eq!(condition_words("a > b: true"), "a_gt_b");
        assert_eq!(condition_words("a > b: false"), "a_le_b");
        assert_eq!(condition_words("month == 13: true"), "month_is_13");
        assert_eq!(condition_words("*s != '\\0': false"), "s_is_nul");
        assert_eq!(condition_words("*s == '!': true"), "s_is_bang");
        assert_eq!(condition_words("c == 'x': true"), "c_is_char_x");
        assert_eq!(condition_words("month: case 2"), "month_is_2");
        assert_eq!(condition_words("month: case -1"), "month_is_minus_1");
        assert_eq!(condition_words("kind: default"), "kind_is_other");
        assert_eq!(condition_words("p->next: false"), "not_p_next");
        assert_eq!(condition_words("!found: false"), "found");
        assert_eq!(condition_words("a[i] == key: true"), "a_i_is_key");
        assert_eq!(condition_words("x % 4 == 0: true"), "x_mod_4_is_0");
        assert_eq!(condition_words("n - 1 > -2: true"), "n_minus_1_gt_minus_2");
        assert_eq!(condition_words("(a & b) != 0: true"), "a_bitand_b_is_not_0");
        assert_eq!(
            condition_words("strcmp(s, \"x\") == 0: true"),
            "strcmp_s_string_is_0"
        );
        assert_eq!(condition_words("(): true"), "condition");
    }

    #[test]
    fn long_details_lose_their_last_words() {
        assert_eq!(shorten("when_a_gt_b", 40).as_deref(), Some("when_a_gt_b"));
        assert_eq!(shorten("when_a_gt_b", 9).as_deref(), Some("when_a"));
        assert_eq!(shorten("when_abcdef", 8), None);
        assert_eq!(
            shorten("when_digits_s_4_year_is_not_0", 27).as_deref(),
            Some("when_digits_s_4_year")
        );
    }
}
