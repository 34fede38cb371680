//! The engine's module structure, checked on its source: the modules use
//! each other without a circle, and the executor's core knows nothing of
//! the searches that drive it (they talk through `exec::Hooks` and the
//! `explore` interfaces).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The executor's core and what it is built on.
const CORE: &[&str] = &["value", "solver", "state", "memory", "exec"];
/// The searches and their loop.
const SEARCH: &[&str] = &[
    "explore",
    "searchers",
    "boundary",
    "cheap",
    "coverage",
    "trees",
    "reach",
    "path",
];

fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("engine sources") {
        let path = entry.expect("directory entry").path();
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The top-level module a source file belongs to (`None` for the crate root).
fn module_of(src: &Path, file: &Path) -> Option<String> {
    let relative = file.strip_prefix(src).expect("under src");
    let first = relative.components().next()?.as_os_str().to_str()?;
    match first.strip_suffix(".rs") {
        Some("lib") => None,
        Some(stem) => Some(stem.to_string()),
        None => Some(first.to_string()),
    }
}

/// The top-level modules `text` names through `crate::`, outside comments.
fn used_modules(text: &str) -> BTreeSet<String> {
    let mut used = BTreeSet::new();
    for line in text.lines() {
        let code = line.split("//").next().unwrap_or_default();
        let mut rest = code;
        while let Some(at) = rest.find("crate::") {
            rest = &rest[at + "crate::".len()..];
            if let Some(group) = rest.strip_prefix('{') {
                // `crate::{a, b::c}`: the first segment of each item.
                let items = group.split('}').next().unwrap_or_default();
                used.extend(
                    items
                        .split(',')
                        .filter_map(|item| first_segment(item.trim())),
                );
            } else if let Some(name) = first_segment(rest) {
                used.insert(name);
            }
        }
    }
    used
}

fn first_segment(path: &str) -> Option<String> {
    let name: String = path
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
        .collect();
    let is_module = name.chars().next().is_some_and(|c| c.is_ascii_lowercase());
    is_module.then_some(name)
}

/// Which top-level module uses which others.
fn module_graph() -> BTreeMap<String, BTreeSet<String>> {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    sources(&src, &mut files);
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for file in files {
        let Some(module) = module_of(&src, &file) else {
            continue;
        };
        let text = std::fs::read_to_string(&file).expect("readable source");
        let used = used_modules(&text);
        let entry = graph.entry(module.clone()).or_default();
        entry.extend(used.into_iter().filter(|m| *m != module));
    }
    graph
}

/// A circle through `graph`, if any, as the modules along it.
fn find_circle(graph: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    fn visit(
        module: &str,
        graph: &BTreeMap<String, BTreeSet<String>>,
        done: &mut BTreeSet<String>,
        stack: &mut Vec<String>,
    ) -> Option<Vec<String>> {
        if let Some(at) = stack.iter().position(|m| m == module) {
            let mut circle = stack[at..].to_vec();
            circle.push(module.to_string());
            return Some(circle);
        }
        if done.contains(module) {
            return None;
        }
        stack.push(module.to_string());
        for next in graph.get(module).into_iter().flatten() {
            if let Some(circle) = visit(next, graph, done, stack) {
                return Some(circle);
            }
        }
        stack.pop();
        done.insert(module.to_string());
        None
    }
    let mut done = BTreeSet::new();
    graph
        .keys()
        .find_map(|m| visit(m, graph, &mut done, &mut Vec::new()))
}

#[test]
fn the_modules_use_each_other_without_a_circle() {
    let graph = module_graph();
    assert!(graph.contains_key("exec") && graph.contains_key("explore"));
    if let Some(circle) = find_circle(&graph) {
        panic!("engine modules in a circle: {}", circle.join(" -> "));
    }
}

#[test]
fn the_executor_core_knows_no_search() {
    let graph = module_graph();
    for core in CORE {
        let uses = graph.get(*core).cloned().unwrap_or_default();
        let searches: Vec<&String> = uses
            .iter()
            .filter(|m| SEARCH.contains(&m.as_str()))
            .collect();
        assert!(searches.is_empty(), "`{core}` uses {searches:?}");
    }
}

#[test]
fn the_checks_see_grouped_imports_and_skip_comments() {
    let text = "use crate::{state::State, value};\n// crate::path in a comment\nlet x = crate::reach::f(); // crate::trees\n";
    let used: Vec<String> = used_modules(text).into_iter().collect();
    assert_eq!(used, ["reach", "state", "value"]);
    let mut graph = BTreeMap::new();
    graph.insert("a".to_string(), BTreeSet::from(["b".to_string()]));
    graph.insert("b".to_string(), BTreeSet::from(["a".to_string()]));
    assert_eq!(
        find_circle(&graph),
        Some(vec!["a".into(), "b".into(), "a".into()])
    );
}
