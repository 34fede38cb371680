//! Shape pictures of hand-built input heaps: a NULL-terminated list, a
//! circular list, a doubly linked list, a tree sharing a node, a struct with a
//! `char *name` string and an array of node pointers. Each graph is checked
//! node by node and edge by edge, and its SVG must parse as XML and name
//! every node; `write_outputs` must draw exactly the written tests that have
//! input objects.

use emit::shapes::{HeapGraph, NodeKind, POINTER_MARK};
use emit::{write_outputs, EmitConfig};
use ir::*;
use quick_xml::events::Event;
use testcase::{InputObject, Inputs, ObjectId, Value};

const NODE: StructId = StructId(0);
const DNODE: StructId = StructId(1);
const PERSON: StructId = StructId(2);

fn int() -> Type {
    Type::Int(IntType::INT)
}

fn int_value(v: i64) -> Value {
    Value::Int {
        ty: IntType::INT,
        bits: v as u128,
    }
}

fn to(object: u32) -> Value {
    Value::Pointer {
        object: ObjectId(object),
        offset: 0,
    }
}

fn span() -> Span {
    Span {
        file: 0,
        line: 1,
        col: 1,
    }
}

/// `struct node { int key; struct node *next; }` (also a binary tree's
/// `left`/`right` in `struct dnode`), and `struct person { char *name; int age; }`.
fn program() -> Program {
    let mut program = Program {
        files: vec!["heap.c".into()],
        ..Default::default()
    };
    let node_ptr = Type::ptr(Type::Struct(NODE));
    let dnode_ptr = Type::ptr(Type::Struct(DNODE));
    let char_ptr = Type::ptr(Type::Int(IntType::CHAR));
    for (name, members) in [
        ("node", vec![("key", int()), ("next", node_ptr.clone())]),
        (
            "dnode",
            vec![
                ("key", int()),
                ("left", dnode_ptr.clone()),
                ("right", dnode_ptr.clone()),
            ],
        ),
        ("person", vec![("name", char_ptr), ("age", int())]),
    ] {
        let members = members
            .into_iter()
            .map(|(n, t)| (n.to_string(), t))
            .collect();
        let (fields, size, align) = program.lay_out(members, false);
        program.structs.push(StructDef {
            name: name.into(),
            typedef_name: None,
            is_union: false,
            fields,
            size,
            align,
            complete: true,
        });
    }
    for (name, params) in [
        ("walk", vec![("list", node_ptr.clone())]),
        ("walk2", vec![("l", dnode_ptr.clone())]),
        ("greet", vec![("p", Type::ptr(Type::Struct(PERSON)))]),
        (
            "pick",
            vec![
                ("v", Type::ptr(node_ptr.clone())),
                ("cursor", Type::ptr(node_ptr.clone())),
            ],
        ),
    ] {
        program.functions.push(Function {
            name: name.into(),
            sig: FnSig {
                ret: int(),
                params: params.iter().map(|p| p.1.clone()).collect(),
                variadic: false,
            },
            prototyped: true,
            nonnull: Vec::new(),
            const_pointee: Vec::new(),
            is_static: false,
            span: span(),
            body: Some(Body {
                locals: params
                    .iter()
                    .map(|(n, t)| Local {
                        name: n.to_string(),
                        ty: t.clone(),
                        span: span(),
                    })
                    .collect(),
                blocks: vec![Block {
                    stmts: vec![],
                    term: Terminator::Return(Some(Expr::int(IntType::INT, 0))),
                    term_span: span(),
                }],
                branches: vec![],
                decisions: vec![],
            }),
        });
    }
    program
}

const WALK: FuncId = FuncId(0);
const WALK2: FuncId = FuncId(1);
const GREET: FuncId = FuncId(2);
const PICK: FuncId = FuncId(3);

fn object(name: &str, elem: Type, init: Vec<Value>) -> InputObject {
    InputObject {
        name: name.into(),
        elem,
        len: init.len() as u64,
        init,
        flexible_len: 0,
    }
}

fn node(name: &str, key: i64, next: Value) -> InputObject {
    object(
        name,
        Type::Struct(NODE),
        vec![Value::Struct(vec![int_value(key), next])],
    )
}

fn dnode(name: &str, key: i64, left: Value, right: Value) -> InputObject {
    object(
        name,
        Type::Struct(DNODE),
        vec![Value::Struct(vec![int_value(key), left, right])],
    )
}

fn inputs(args: Vec<Value>, objects: Vec<InputObject>) -> Inputs {
    Inputs {
        args,
        objects,
        ..Inputs::default()
    }
}

/// The input object named `name` (a root may share its name).
fn index(graph: &HeapGraph, name: &str) -> usize {
    graph
        .nodes
        .iter()
        .position(|n| n.name == name && n.kind != NodeKind::Root)
        .unwrap_or_else(|| panic!("no object {name}"))
}

/// Edges as (from node, from row label, to node, target place, back).
fn edges(graph: &HeapGraph) -> Vec<(String, String, String, Option<String>, bool)> {
    graph
        .edges
        .iter()
        .map(|e| {
            (
                graph.nodes[e.from].name.clone(),
                graph.nodes[e.from].rows[e.row].label().to_string(),
                graph.nodes[e.to].name.clone(),
                e.target.clone(),
                e.back,
            )
        })
        .collect()
}

fn edge(
    from: &str,
    row: &str,
    to: &str,
    back: bool,
) -> (String, String, String, Option<String>, bool) {
    (from.into(), row.into(), to.into(), None, back)
}

/// (label, value) of every row of the named node.
fn rows(graph: &HeapGraph, name: &str) -> Vec<(String, String)> {
    graph.nodes[index(graph, name)]
        .rows
        .iter()
        .map(|r| (r.label().to_string(), r.value.clone()))
        .collect()
}

fn row(label: &str, value: &str) -> (String, String) {
    (label.into(), value.into())
}

/// Parses the SVG as XML, checks the root element is `svg`, and returns all
/// the text it draws.
fn svg_text(svg: &str) -> String {
    let mut reader = quick_xml::Reader::from_str(svg);
    let mut root = None;
    let mut depth = 0usize;
    let mut text = String::new();
    loop {
        match reader.read_event() {
            Ok(Event::Start(e)) => {
                root.get_or_insert_with(|| e.name().as_ref().to_vec());
                depth += 1;
            }
            Ok(Event::End(_)) => depth -= 1,
            Ok(Event::Text(t)) => {
                text.push_str(&t.unescape().expect("text unescapes"));
                text.push('\n');
            }
            Ok(Event::Eof) => break,
            Ok(_) => {}
            Err(e) => panic!("SVG is not well-formed XML: {e}\n{svg}"),
        }
    }
    assert_eq!(depth, 0, "unclosed elements");
    assert_eq!(root.as_deref(), Some(&b"svg"[..]));
    text
}

fn assert_drawn(graph: &HeapGraph) {
    let text = svg_text(&graph.to_svg());
    for node in &graph.nodes {
        assert!(
            text.contains(&format!("{} : {}", node.name, node.type_name)),
            "{} missing from the SVG",
            node.name
        );
    }
    let dot = graph.to_dot();
    assert_eq!(dot.matches(" -> ").count(), graph.edges.len());
    let boxes = emit::shapes::lay_out(graph).boxes;
    for (i, a) in boxes.iter().enumerate() {
        for b in &boxes[i + 1..] {
            let apart = a.x + a.width <= b.x
                || b.x + b.width <= a.x
                || a.y + a.height <= b.y
                || b.y + b.height <= a.y;
            assert!(apart, "boxes overlap: {a:?} {b:?}");
        }
    }
}

#[test]
fn singly_linked_list_ends_in_a_null_marker() {
    let program = program();
    let graph = HeapGraph::build(
        &program,
        WALK,
        &inputs(
            vec![to(0)],
            vec![
                node("list", 1, to(1)),
                node("list->next", 2, to(2)),
                node("list->next->next", 3, Value::Null),
            ],
        ),
    );
    assert_eq!(graph.nodes.len(), 4);
    assert_eq!(graph.nodes[0].kind, NodeKind::Root);
    assert_eq!(graph.nodes[0].type_name, "struct node *");
    assert_eq!(
        edges(&graph),
        [
            edge("list", "", "list", false),
            edge("list", "next", "list->next", false),
            edge("list->next", "next", "list->next->next", false),
        ]
    );
    assert_eq!(
        rows(&graph, "list->next->next"),
        [row("key", "3"), row("next", "NULL")]
    );
    assert!(graph.nodes[3].rows[1].is_null);
    assert_eq!(rows(&graph, "list->next")[1].1, POINTER_MARK);
    let svg = graph.to_svg();
    assert!(svg_text(&svg).contains("NULL"));
    assert!(!svg.contains("class=\"back\""));
    let json: Vec<_> = graph
        .json_edges()
        .into_iter()
        .map(|e| (e.from, e.to, e.offset))
        .collect();
    assert_eq!(
        json[2],
        ("list->next.next".into(), "list->next->next".into(), 0)
    );
    assert_drawn(&graph);
}

#[test]
fn pointer_to_a_member_is_labelled_with_it() {
    let program = program();
    let graph = HeapGraph::build(
        &program,
        WALK,
        &inputs(
            vec![Value::Pointer {
                object: ObjectId(0),
                offset: 8,
            }],
            vec![node("list", 1, Value::Null)],
        ),
    );
    assert_eq!(graph.edges.len(), 1);
    assert_eq!(graph.edges[0].target.as_deref(), Some(".next"));
    assert_eq!(graph.json_edges()[0].offset, 8);
    let layout = emit::shapes::lay_out(&graph);
    let target = &layout.boxes[index(&graph, "list")];
    let svg = graph.to_svg();
    // The arrow ends at the `next` row, not at the header.
    assert!(svg.contains(&format!(
        " {:.1},{:.1}\" marker-end",
        target.x,
        target.row_center(1)
    )));
    assert_drawn(&graph);
}

#[test]
fn circular_list_has_one_back_edge() {
    let program = program();
    let graph = HeapGraph::build(
        &program,
        WALK,
        &inputs(
            vec![to(0)],
            vec![node("list", 1, to(1)), node("list->next", 2, to(0))],
        ),
    );
    assert_eq!(
        edges(&graph),
        [
            edge("list", "", "list", false),
            edge("list", "next", "list->next", false),
            edge("list->next", "next", "list", true),
        ]
    );
    assert!(graph
        .nodes
        .iter()
        .all(|n| n.rows.iter().all(|r| !r.is_null)));
    let svg = graph.to_svg();
    assert_eq!(svg.matches("class=\"back\"").count(), 1);
    assert!(graph.to_dot().contains("style=dashed"));
    assert_drawn(&graph);
}

#[test]
fn doubly_linked_back_pointers_are_cycle_edges() {
    let program = program();
    // left is `prev`, right is `next`.
    let graph = HeapGraph::build(
        &program,
        WALK2,
        &inputs(
            vec![to(0)],
            vec![
                dnode("l", 1, Value::Null, to(1)),
                dnode("l->right", 2, to(0), to(2)),
                dnode("l->right->right", 3, to(1), Value::Null),
            ],
        ),
    );
    assert_eq!(
        edges(&graph),
        [
            edge("l", "", "l", false),
            edge("l", "right", "l->right", false),
            edge("l->right", "left", "l", true),
            edge("l->right", "right", "l->right->right", false),
            edge("l->right->right", "left", "l->right", true),
        ]
    );
    let layout = emit::shapes::lay_out(&graph);
    let column = |name: &str| layout.boxes[index(&graph, name)].layer;
    assert!(column("l") < column("l->right") && column("l->right") < column("l->right->right"));
    assert_drawn(&graph);
}

#[test]
fn tree_sharing_a_node_draws_it_once_with_two_arrows_in() {
    let program = program();
    let graph = HeapGraph::build(
        &program,
        WALK2,
        &inputs(
            vec![to(0)],
            vec![
                dnode("l", 5, to(1), to(2)),
                dnode("l->left", 3, Value::Null, to(3)),
                dnode("l->right", 8, to(3), Value::Null),
                dnode("l->left->right", 4, Value::Null, Value::Null),
            ],
        ),
    );
    let shared = index(&graph, "l->left->right");
    let into_shared: Vec<_> = graph.edges.iter().filter(|e| e.to == shared).collect();
    assert_eq!(into_shared.len(), 2);
    assert!(graph.edges.iter().all(|e| !e.back), "a DAG has no cycle");
    assert_eq!(
        rows(&graph, "l->left->right"),
        [row("key", "4"), row("left", "NULL"), row("right", "NULL")]
    );
    let svg = graph.to_svg();
    assert!(svg.contains(&format!(
        "<g class=\"node\" id=\"node{shared}\">\n<rect class=\"box shared\""
    )));
    let layout = emit::shapes::lay_out(&graph);
    assert_eq!(layout.boxes[shared].layer, 3, "below both parents");
    assert_drawn(&graph);
}

#[test]
fn char_name_is_drawn_as_a_string_object() {
    let program = program();
    let chars = b"bob\0"
        .iter()
        .map(|&b| Value::Int {
            ty: IntType::CHAR,
            bits: u128::from(b),
        })
        .collect();
    let graph = HeapGraph::build(
        &program,
        GREET,
        &inputs(
            vec![to(0)],
            vec![
                object(
                    "p",
                    Type::Struct(PERSON),
                    vec![Value::Struct(vec![to(1), int_value(42)])],
                ),
                object("p->name", Type::Int(IntType::CHAR), chars),
            ],
        ),
    );
    assert_eq!(rows(&graph, "p->name"), [row("", "\"bob\"")]);
    assert_eq!(graph.nodes[index(&graph, "p->name")].type_name, "char[4]");
    assert_eq!(
        rows(&graph, "p"),
        [row("name", POINTER_MARK), row("age", "42")]
    );
    assert_eq!(edges(&graph)[1], edge("p", "name", "p->name", false));
    assert!(svg_text(&graph.to_svg()).contains("\"bob\""));
    assert_drawn(&graph);
}

#[test]
fn array_of_node_pointers_and_a_pointer_into_its_middle() {
    let program = program();
    let node_ptr = Type::ptr(Type::Struct(NODE));
    let graph = HeapGraph::build(
        &program,
        PICK,
        &inputs(
            vec![
                to(0),
                Value::Pointer {
                    object: ObjectId(0),
                    offset: 8,
                },
            ],
            vec![
                object("v", node_ptr, vec![to(1), Value::Null, to(2)]),
                node("v[0]", 7, Value::Null),
                node("v[2]", 9, to(1)),
            ],
        ),
    );
    assert_eq!(
        rows(&graph, "v"),
        [
            row("[0]", POINTER_MARK),
            row("[1]", "NULL"),
            row("[2]", POINTER_MARK)
        ]
    );
    let into_middle = graph
        .edges
        .iter()
        .find(|e| graph.nodes[e.from].name == "cursor")
        .expect("cursor's edge");
    assert_eq!(into_middle.target.as_deref(), Some("[1]"));
    assert_eq!(graph.nodes[into_middle.to].name, "v");
    assert!(graph.to_dot().contains("label=\"[1]\""));
    // v[2]->next shares v[0]: no cycle.
    assert_eq!(graph.edges.iter().filter(|e| e.back).count(), 0);
    assert_eq!(
        graph
            .json_edges()
            .iter()
            .map(|e| e.from.as_str())
            .collect::<Vec<_>>(),
        ["v", "cursor", "v[0]", "v[2]", "v[2].next"]
    );
    assert_drawn(&graph);
}

#[test]
fn fifty_node_cycle_lays_out_in_fifty_one_columns() {
    let program = program();
    let count = 50u32;
    let names: Vec<String> = (0..count)
        .map(|k| format!("list{}", "->next".repeat(k as usize)))
        .collect();
    // A circular list: the last node points back to the first.
    let objects = (0..count)
        .map(|k| node(&names[k as usize], i64::from(k), to((k + 1) % count)))
        .collect();
    let inputs = inputs(vec![to(0)], objects);
    let graph = HeapGraph::build(&program, WALK, &inputs);
    assert_eq!(graph.edges.iter().filter(|e| e.back).count(), 1);
    let layout = emit::shapes::lay_out(&graph);
    assert_eq!(layout.boxes.iter().map(|b| b.layer).max(), Some(50));
    assert_drawn(&graph);
}

#[test]
fn write_outputs_draws_the_written_tests_with_input_objects() {
    let program = emit::fixture::sample_program();
    let reports = emit::fixture::sample_reports(&program);
    let dir = tempfile::tempdir().expect("temporary directory");
    let source = dir.path().join("sample.c");
    std::fs::write(&source, emit::fixture::SAMPLE_C).expect("source written");
    let config = EmitConfig {
        out_dir: dir.path().join("out"),
        source,
        flags: Default::default(),
        framework: Default::default(),
        unresolved: Default::default(),
    };
    write_outputs(&program, &reports, &config).expect("outputs written");
    let json = std::fs::read_to_string(config.out_dir.join("sample.tests.json")).expect("json");
    let file: testcase::json::TestsFile = serde_json::from_str(&json).expect("json parses");
    let mut expected: Vec<String> = file
        .functions
        .iter()
        .flat_map(|f| &f.tests)
        .filter(|t| t.skipped.is_none() && !t.inputs.objects.is_empty())
        .map(|t| t.name.clone())
        .collect();
    assert!(
        !expected.is_empty(),
        "the sample has tests with input objects"
    );
    let shapes = config.out_dir.join("shapes");
    // A picture left by an earlier run under the name of a test that now has
    // no input objects goes away.
    let without_objects = file
        .functions
        .iter()
        .flat_map(|f| &f.tests)
        .find(|t| t.inputs.objects.is_empty())
        .expect("the sample has tests without input objects");
    let stale = shapes.join(format!("{}.svg", without_objects.name));
    std::fs::write(&stale, "<svg/>").expect("stale picture planted");
    write_outputs(&program, &reports, &config).expect("outputs written again");
    assert!(!stale.exists());
    let mut drawn = Vec::new();
    for entry in std::fs::read_dir(&shapes).expect("shapes directory") {
        let path = entry.expect("entry").path();
        if path.extension().is_some_and(|e| e == "svg") {
            let svg = std::fs::read_to_string(&path).expect("svg");
            svg_text(&svg);
            let stem = path.file_stem().and_then(|s| s.to_str()).expect("name");
            assert!(shapes.join(format!("{stem}.dot")).exists());
            drawn.push(stem.to_string());
        }
    }
    drawn.sort();
    expected.sort();
    assert_eq!(drawn, expected);
}
