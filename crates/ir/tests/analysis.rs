//! Goal implications and unconstrained goals on IR built by the real front
//! end: hand-worked counts for small shapes, and an exhaustive check of every
//! implication against an independent path oracle on these shapes and the
//! scalar corpus.

use ir::{function_goals, FuncId, Goal, GoalImplications, Program, Terminator};
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

fn compile(path: &Path) -> Program {
    match front::compile(path, &front::FrontConfig::default()) {
        Ok(out) => out.program,
        Err(d) => panic!("{}: {d:?}", path.display()),
    }
}

fn shapes() -> Program {
    compile(&Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/inputs/goal_shapes.c"))
}

fn func(program: &Program, name: &str) -> FuncId {
    program
        .function_by_name(name)
        .unwrap_or_else(|| panic!("no function {name}"))
}

/// Labels (`condition: direction`) of the unconstrained goals of `name`.
fn unconstrained_labels(program: &Program, name: &str) -> Vec<String> {
    let f = func(program, name);
    let unconstrained = ir::unconstrained_goals(program, f);
    function_goals(program, f)
        .into_iter()
        .filter(|g| unconstrained.contains(&g.goal))
        .map(|g| g.label)
        .collect()
}

fn goal(program: &Program, name: &str, label: &str) -> Goal {
    let f = func(program, name);
    let matching: Vec<Goal> = function_goals(program, f)
        .into_iter()
        .filter(|g| g.label == label)
        .map(|g| g.goal)
        .collect();
    assert_eq!(matching.len(), 1, "{name}: goals labelled {label:?}");
    matching[0]
}

#[test]
fn hand_worked_counts() {
    let p = shapes();
    // (function, goals, unconstrained): see the comments in the cases below.
    // `case 2: case 3:` are two goals: the front keeps each label's block, so
    // case 2's edge falls through into case 3's block and neither implies the other.
    let expected = [
        ("else_if_chain", 6, 4),
        ("independent_ifs", 4, 4),
        ("nested_ifs", 4, 3),
        ("counted_loop", 2, 1),
        ("loop_with_if", 4, 2),
        ("do_while", 2, 1),
        ("both", 4, 3),
        ("either", 4, 3),
        ("switch_shared_case", 4, 4),
        ("switch_under_if", 5, 4),
        ("break_out", 2, 1),
        ("spin_forever", 2, 2),
        ("abort_branch", 4, 3),
        ("default_only_switch", 3, 2),
    ];
    for (name, goals, unconstrained) in expected {
        let f = func(&p, name);
        let counts = (
            function_goals(&p, f).len(),
            ir::unconstrained_goals(&p, f).len(),
        );
        assert_eq!(counts, (goals, unconstrained), "{name}");
    }
}

#[test]
fn else_if_chain_keeps_every_taken_branch_and_the_last_fall_through() {
    let p = shapes();
    // Each false edge is implied by the next condition's true edge.
    assert_eq!(
        unconstrained_labels(&p, "else_if_chain"),
        [
            "x < 0: true",
            "x == 0: true",
            "x < 10: true",
            "x < 10: false"
        ]
    );
    let imp = GoalImplications::new(&p, func(&p, "else_if_chain"));
    let first_false = goal(&p, "else_if_chain", "x < 0: false");
    let last_true = goal(&p, "else_if_chain", "x < 10: true");
    assert!(imp.dominates(first_false, last_true));
    assert!(!imp.post_dominates(first_false, last_true));
    assert!(imp.implies(last_true, first_false));
    assert!(!imp.implies(first_false, last_true));
}

#[test]
fn nested_condition_implies_its_guard() {
    let p = shapes();
    assert_eq!(
        unconstrained_labels(&p, "nested_ifs"),
        ["a > 0: false", "b > 0: true", "b > 0: false"]
    );
    let covered = [goal(&p, "nested_ifs", "b > 0: false")];
    let implied = ir::implied_goals(&p, func(&p, "nested_ifs"), &covered);
    let expected: BTreeSet<Goal> = [
        goal(&p, "nested_ifs", "a > 0: true"),
        goal(&p, "nested_ifs", "b > 0: false"),
    ]
    .into();
    assert_eq!(implied, expected);
}

#[test]
fn loop_exit_is_post_dominated_by_entering_the_body() {
    let p = shapes();
    // Every run that enters the body still leaves the loop later.
    assert_eq!(unconstrained_labels(&p, "counted_loop"), ["i < n: true"]);
    let imp = GoalImplications::new(&p, func(&p, "counted_loop"));
    let enter = goal(&p, "counted_loop", "i < n: true");
    let leave = goal(&p, "counted_loop", "i < n: false");
    assert!(imp.post_dominates(leave, enter));
    assert!(imp.implies(enter, leave));
    // Inside the loop both directions of the inner test stay: each implies the loop edges.
    assert_eq!(
        unconstrained_labels(&p, "loop_with_if"),
        ["i % 3 == 0: true", "i % 3 == 0: false"]
    );
    assert_eq!(unconstrained_labels(&p, "do_while"), ["n > 0: true"]);
}

#[test]
fn short_circuit_operands_are_separate_edges() {
    let p = shapes();
    assert_eq!(
        unconstrained_labels(&p, "both"),
        ["a: false", "b: true", "b: false"]
    );
    assert_eq!(
        unconstrained_labels(&p, "either"),
        ["a: true", "b: true", "b: false"]
    );
}

#[test]
fn switch_arms_imply_the_guard_around_them() {
    let p = shapes();
    let f = func(&p, "switch_under_if");
    let imp = GoalImplications::new(&p, f);
    let guard = goal(&p, "switch_under_if", "x > 0: true");
    for g in function_goals(&p, f) {
        if g.label.starts_with("k:") {
            assert!(imp.implies(g.goal, guard), "{}", g.label);
        }
    }
    assert!(!imp.unconstrained().contains(&guard));
}

#[test]
fn a_loop_without_exit_or_with_an_abort_claims_nothing_it_cannot_deliver() {
    let p = shapes();
    // No run of spin_forever ends, so neither direction implies the other.
    let f = func(&p, "spin_forever");
    let imp = GoalImplications::new(&p, f);
    let (down, up) = (
        goal(&p, "spin_forever", "x > 0: true"),
        goal(&p, "spin_forever", "x > 0: false"),
    );
    assert!(!imp.implies(down, up) && !imp.implies(up, down));
    // A trapping branch ends the run: it implies nothing after it.
    let trap = goal(&p, "abort_branch", "x < 0: true");
    let later = goal(&p, "abort_branch", "x > 100: false");
    let imp = GoalImplications::new(&p, func(&p, "abort_branch"));
    assert!(!imp.implies(trap, later));
    assert!(imp.unconstrained().contains(&trap));
}

#[test]
fn goals_implying_each_other_count_once() {
    let p = shapes();
    // Entering the `if` always takes the switch's only arm, and that arm is
    // only reached through the `if`: one class, named by its first goal.
    let imp = GoalImplications::new(&p, func(&p, "default_only_switch"));
    let (guard, arm) = (
        goal(&p, "default_only_switch", "a: true"),
        goal(&p, "default_only_switch", "k: default"),
    );
    assert!(imp.implies(guard, arm) && imp.implies(arm, guard));
    assert_eq!(
        unconstrained_labels(&p, "default_only_switch"),
        ["a: true", "a: false"]
    );
}

/// One function's CFG as edges `(from, to, goal)`, `to == None` for ending the
/// run; built from the terminators directly, not from the analysis' graph.
struct Cfg {
    edges: Vec<(usize, Option<usize>, Option<usize>)>,
    blocks: usize,
}

impl Cfg {
    fn new(program: &Program, f: FuncId) -> Cfg {
        let goals = function_goals(program, f);
        let body = program.function(f).body.as_ref().expect("defined function");
        let mut edges = Vec::new();
        for (b, block) in body.blocks.iter().enumerate() {
            match &block.term {
                Terminator::Goto(t) => edges.push((b, Some(t.index()), None)),
                Terminator::Branch { site, .. } | Terminator::Switch { site, .. } => {
                    for (i, g) in goals.iter().enumerate() {
                        if g.goal.site == *site {
                            edges.push((b, Some(g.target.index()), Some(i)));
                        }
                    }
                }
                Terminator::Return(_) | Terminator::Unreachable => edges.push((b, None, None)),
            }
        }
        // A run may also stop anywhere it can no longer end (it never finishes).
        let cfg = Cfg {
            edges,
            blocks: body.blocks.len(),
        };
        let can_end: Vec<bool> = (0..cfg.blocks).map(|b| cfg.can_end(b, None)).collect();
        let mut edges = cfg.edges;
        edges.extend(
            (0..cfg.blocks)
                .filter(|&b| !can_end[b])
                .map(|b| (b, None, None)),
        );
        Cfg { edges, ..cfg }
    }

    /// Whether a path from block `from` ends the run without taking edge `avoid`.
    fn can_end(&self, from: usize, avoid: Option<usize>) -> bool {
        self.search(from, avoid, |edge| edge.1.is_none())
    }

    fn search(
        &self,
        from: usize,
        avoid: Option<usize>,
        done: impl Fn(&(usize, Option<usize>, Option<usize>)) -> bool,
    ) -> bool {
        let mut seen = vec![false; self.blocks];
        let mut work = vec![from];
        seen[from] = true;
        while let Some(b) = work.pop() {
            for (i, edge) in self.edges.iter().enumerate() {
                if edge.0 != b || Some(i) == avoid {
                    continue;
                }
                if done(edge) {
                    return true;
                }
                if let Some(t) = edge.1 {
                    if !seen[t] {
                        seen[t] = true;
                        work.push(t);
                    }
                }
            }
        }
        false
    }

    fn edge_of_goal(&self, goal: usize) -> usize {
        self.edges
            .iter()
            .position(|e| e.2 == Some(goal))
            .expect("every goal is an edge")
    }

    /// Some run from the entry to its end takes goal `g`'s edge and not goal `h`'s.
    fn run_through_avoiding(&self, g: usize, h: usize) -> bool {
        let (g_edge, h_edge) = (self.edge_of_goal(g), self.edge_of_goal(h));
        let (source, target, _) = self.edges[g_edge];
        let to_source = source == 0 || self.search(0, Some(h_edge), |e| e.1 == Some(source));
        let from_target = match target {
            Some(t) => self.can_end(t, Some(h_edge)),
            None => true,
        };
        to_source && from_target
    }

    fn reachable(&self, g: usize) -> bool {
        let source = self.edges[self.edge_of_goal(g)].0;
        source == 0 || self.search(0, None, |e| e.1 == Some(source))
    }
}

/// Checks every goal pair of every defined function of `program` against the
/// path oracle, and that the unconstrained goals are exactly one per class of
/// goals no outside goal implies.
fn check_against_paths(program: &Program) -> (usize, usize) {
    let (mut total_goals, mut total_unconstrained) = (0, 0);
    for (i, function) in program.functions.iter().enumerate() {
        if function.body.is_none() {
            continue;
        }
        let f = FuncId(i as u32);
        let cfg = Cfg::new(program, f);
        let imp = GoalImplications::new(program, f);
        let goals = imp.goals().to_vec();
        let reachable: Vec<bool> = (0..goals.len()).map(|g| cfg.reachable(g)).collect();
        let implies = |g: usize, h: usize| g == h || !cfg.run_through_avoiding(g, h);
        for g in 0..goals.len() {
            assert_eq!(
                imp.is_reachable(goals[g]),
                reachable[g],
                "{}",
                function.name
            );
            if !reachable[g] {
                continue;
            }
            for h in 0..goals.len() {
                assert_eq!(
                    imp.implies(goals[g], goals[h]),
                    implies(g, h),
                    "{}: goal {g} implies goal {h}",
                    function.name
                );
            }
        }
        let unconstrained: Vec<usize> = imp
            .unconstrained()
            .iter()
            .map(|u| goals.iter().position(|g| g == u).expect("own goal"))
            .collect();
        // (a) Covering the unconstrained goals covers every reachable goal.
        for h in (0..goals.len()).filter(|&h| reachable[h]) {
            assert!(
                unconstrained.iter().any(|&u| reachable[u] && implies(u, h)),
                "{}: goal {h} not implied by an unconstrained goal",
                function.name
            );
        }
        // None of them is implied by another: dropping any one loses its class.
        for &u in &unconstrained {
            for &v in unconstrained.iter().filter(|&&v| v != u) {
                assert!(
                    !(reachable[v] && implies(v, u)),
                    "{}: unconstrained goal {u} implied by {v}",
                    function.name
                );
            }
        }
        total_goals += goals.len();
        total_unconstrained += unconstrained.len();
    }
    (total_goals, total_unconstrained)
}

#[test]
fn implications_match_the_path_oracle_on_the_shapes() {
    let (goals, unconstrained) = check_against_paths(&shapes());
    assert!(goals > unconstrained && unconstrained > 0);
}

fn corpus_files() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/corpus/scalar");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|path| path.extension().is_some_and(|ext| ext == "c"))
        .collect();
    files.sort();
    files
}

#[test]
fn implications_match_the_path_oracle_on_the_corpus() {
    let files = corpus_files();
    assert!(!files.is_empty());
    for file in files {
        let (goals, unconstrained) = check_against_paths(&compile(&file));
        assert!(unconstrained <= goals, "{}", file.display());
    }
}
