//! Decisions lowered for MC/DC: each ends in a switch on its test vector,
//! the vectors follow the short-circuits, and the decisions clang leaves
//! out (a boolean expression inside a condition) are lowered as usual.

use ir::{BranchKind, Terminator};

fn lowered(source: &str) -> ir::Program {
    let dir = tempfile::tempdir().expect("temp dir");
    let file = dir.path().join("d.c");
    std::fs::write(&file, source).expect("write source");
    let config = front::FrontConfig {
        mcdc: true,
        ..front::FrontConfig::default()
    };
    front::compile(&file, &config).expect("lowers").program
}

fn spelled(decision: &ir::decisions::Decision) -> Vec<String> {
    (0..decision.vectors.len())
        .map(|n| decision.spell(n))
        .collect()
}

#[test]
fn a_decision_ends_in_a_switch_with_an_arm_per_vector() {
    let program = lowered(
        "int f(int a, int b, int c) {\n  if ((a > 0 && b > 0) || c > 0)\n    return 1;\n  return 0;\n}\n",
    );
    let body = program.functions[0].body.as_ref().expect("body");
    let [decision] = body.decisions.as_slice() else {
        panic!("{:?}", body.decisions);
    };
    assert_eq!(decision.text, "(a > 0 && b > 0) || c > 0");
    // clang places the decision at its first character, the condition at
    // `a`, inside the parenthesis.
    assert_eq!((decision.span.line, decision.span.col), (2, 7));
    assert_eq!(
        (
            decision.conditions[0].span.line,
            decision.conditions[0].span.col
        ),
        (2, 8)
    );
    assert_eq!(
        spelled(decision),
        [
            "{T T -} = T",
            "{T F T} = T",
            "{T F F} = F",
            "{F - T} = T",
            "{F - F} = F"
        ]
    );
    let site = &body.branches[decision.site.index()];
    assert_eq!(site.kind, BranchKind::Vector);
    let switch = body.blocks.iter().find_map(|b| match &b.term {
        Terminator::Switch { site, cases, .. } if *site == decision.site => Some(cases.len()),
        _ => None,
    });
    assert_eq!(switch, Some(4), "four cases and the default");
}

#[test]
fn decisions_clang_leaves_out_are_not_measured() {
    let program = lowered(
        "int g(int x) { return x; }\n\
         int f(int a, int b, int c) {\n  if (g(a && b) || c) return 1;\n  if (!(a && b) || c) return 2;\n  return a || b;\n}\n",
    );
    let f = program.function_by_name("f").expect("f");
    let body = program.function(f).body.as_ref().expect("body");
    let texts: Vec<&str> = body.decisions.iter().map(|d| d.text.as_str()).collect();
    assert_eq!(texts, ["a || b"]);
}

#[test]
fn a_decision_of_too_many_ways_is_left_out_with_a_warning() {
    // Six pairs: 127 ways (each pair leads on two ways, or ends false).
    let source = "int f(int a, int b, int c, int d, int e, int g,\n\
                  int h, int i, int j, int k, int l, int m) {\n\
                  return (a || b) && (c || d) && (e || g) && (h || i) && (j || k) && (l || m);\n}\n";
    let dir = tempfile::tempdir().expect("temp dir");
    let file = dir.path().join("d.c");
    std::fs::write(&file, source).expect("write source");
    let config = front::FrontConfig {
        mcdc: true,
        ..front::FrontConfig::default()
    };
    let out = front::compile(&file, &config).expect("lowers");
    let body = out.program.functions[0].body.as_ref().expect("body");
    assert!(body.decisions.is_empty(), "{:?}", body.decisions);
    let warned = out
        .diagnostics
        .iter()
        .any(|d| d.message.contains("127 ways") && d.message.contains("left out of MC/DC"));
    assert!(warned, "{:?}", out.diagnostics);
}
