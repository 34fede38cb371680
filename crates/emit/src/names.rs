//! Identifiers for generated C: readable, and never clashing with a name of
//! the source under test (a local that shadows a checked global would make
//! the driver check the wrong variable).

use std::collections::HashSet;

/// Names already taken in one C scope: those of an enclosing scope, shared,
/// and those taken in this one.
#[derive(Clone, Debug)]
pub struct NameScope<'a> {
    reserved: &'a HashSet<String>,
    taken: HashSet<String>,
}

impl<'a> NameScope<'a> {
    pub fn new(reserved: &'a HashSet<String>) -> Self {
        NameScope {
            reserved,
            taken: HashSet::new(),
        }
    }

    /// `wanted`, or `wanted_2`, `wanted_3`... whichever is free; it is then taken.
    pub fn fresh(&mut self, wanted: &str) -> String {
        let mut candidate = wanted.to_string();
        let mut n = 2;
        while self.reserved.contains(&candidate) || self.taken.contains(&candidate) {
            candidate = format!("{wanted}_{n}");
            n += 1;
        }
        self.taken.insert(candidate.clone());
        candidate
    }
}

/// A C identifier made from an access path: `*out` -> `out`,
/// `list->next->key` -> `list_next_key`, `a[2]` -> `a_2`.
pub fn identifier_from_path(path: &str) -> String {
    let mut out = String::with_capacity(path.len());
    for c in path.chars() {
        if c.is_ascii_alphanumeric() || c == '_' {
            out.push(c);
        } else if !out.ends_with('_') {
            out.push('_');
        }
    }
    let trimmed = out.trim_matches('_');
    match trimmed.chars().next() {
        None => "obj".to_string(),
        Some(c) if c.is_ascii_digit() => format!("obj_{trimmed}"),
        Some(_) => trimmed.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_become_identifiers() {
        assert_eq!(identifier_from_path("*out"), "out");
        assert_eq!(identifier_from_path("list->next->key"), "list_next_key");
        assert_eq!(identifier_from_path("*(*pp)"), "pp");
        assert_eq!(identifier_from_path("a[2]"), "a_2");
        assert_eq!(identifier_from_path("**"), "obj");
        assert_eq!(identifier_from_path("0x"), "obj_0x");
    }

    #[test]
    fn fresh_names_avoid_reserved_ones() {
        let reserved = HashSet::from(["result".to_string()]);
        let mut scope = NameScope::new(&reserved);
        assert_eq!(scope.fresh("result"), "result_2");
        assert_eq!(scope.fresh("result"), "result_3");
        assert_eq!(scope.fresh("a_in"), "a_in");
        assert_eq!(scope.fresh("a_in"), "a_in_2");
    }
}
