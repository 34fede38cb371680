//! Shape pictures: the input heap of a test as a graph, drawn as DOT and as
//! standalone SVG (laid out here, no Graphviz needed). `tests.json` lists the
//! same graph's edges (see [`HeapGraph::json_edges`]), so the picture and the
//! JSON never disagree.
//!
//! One node per input object (named by access path, one row per struct
//! member or array element) and one root node per argument or global holding
//! a pointer. A pointer row to an input object is an edge; a NULL row shows a
//! `NULL` marker instead. Edges that close a cycle (found by depth-first
//! search from the roots) are marked `back` and drawn curved under the graph.

mod dot;
mod layout;
mod svg;

use crate::driver::EmittedTest;
use crate::EmitError;
use ir::{FuncId, Layout, Program, Type};
use std::path::Path;
use testcase::json::EdgeJson;
use testcase::{FunctionReport, Inputs, ObjectId, Value};

pub use layout::{lay_out, Placement};

/// The value shown in a row holding a pointer to an input object (the
/// arrow's tail).
pub const POINTER_MARK: &str = "\u{2022}";

/// The input heap of one test.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HeapGraph {
    /// Roots first (arguments, then globals), then one node per input object
    /// in object order.
    pub nodes: Vec<HeapNode>,
    pub edges: Vec<HeapEdge>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HeapNode {
    /// Parameter or global name for a root, access path for an object.
    pub name: String,
    pub kind: NodeKind,
    /// C type: the parameter's or global's type, or `elem[len]` for an object.
    pub type_name: String,
    pub rows: Vec<Row>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NodeKind {
    Root,
    Object(ObjectId),
}

/// One member or element of a node.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Row {
    /// C suffix after the node's name: `.next`, `[2].key`, or empty for a
    /// scalar object or a pointer root.
    pub path: String,
    /// The value as C would print it; `NULL` for a null pointer,
    /// [`POINTER_MARK`] where an edge into an input object starts.
    pub value: String,
    pub is_null: bool,
}

impl Row {
    /// The row's label inside its box: the member path without a leading dot.
    pub fn label(&self) -> &str {
        self.path.strip_prefix('.').unwrap_or(&self.path)
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HeapEdge {
    pub from: usize,
    /// Row of `from` holding the pointer.
    pub row: usize,
    pub to: usize,
    /// Bytes into the target object.
    pub offset: u64,
    /// The element or member pointed at when that is not the object's start
    /// (`[2]`, `.next`).
    pub target: Option<String>,
    /// Closes a cycle.
    pub back: bool,
}

impl HeapGraph {
    /// The graph of `inputs` for a test of `func`.
    pub fn build(program: &Program, func: FuncId, inputs: &Inputs) -> HeapGraph {
        let f = program.function(func);
        let mut builder = Builder {
            program,
            nodes: Vec::new(),
            pointers: Vec::new(),
        };
        for (i, (ty, value)) in f.sig.params.iter().zip(&inputs.args).enumerate() {
            builder.root(param_name(f, i), ty, value);
        }
        for (g, value) in &inputs.globals {
            let global = program.global(*g);
            builder.root(global.name.clone(), &global.ty, value);
        }
        let first_object = builder.nodes.len();
        for (k, object) in inputs.objects.iter().enumerate() {
            builder.object(ObjectId(k as u32), object);
        }
        let edges = builder
            .pointers
            .iter()
            .filter_map(|p| {
                let object = inputs.objects.get(p.object.0 as usize)?;
                Some(HeapEdge {
                    from: p.node,
                    row: p.row,
                    to: first_object + p.object.0 as usize,
                    offset: p.offset,
                    target: (p.offset != 0)
                        .then(|| place_in(program, &object.elem, object.len, p.offset)),
                    back: false,
                })
            })
            .collect();
        let mut graph = HeapGraph {
            nodes: builder.nodes,
            edges,
        };
        graph.mark_back_edges();
        graph
    }

    /// The edges as `tests.json` lists them: where the pointer is stored
    /// (`n`, `*n.next`, `a[2]`), the object it points into, and the offset.
    pub fn json_edges(&self) -> Vec<EdgeJson> {
        self.edges
            .iter()
            .map(|e| {
                let from = &self.nodes[e.from];
                EdgeJson {
                    from: format!("{}{}", from.name, from.rows[e.row].path),
                    to: self.nodes[e.to].name.clone(),
                    offset: e.offset,
                }
            })
            .collect()
    }

    /// Graphviz text of the picture.
    pub fn to_dot(&self) -> String {
        dot::render(self)
    }

    /// Standalone SVG of the picture.
    pub fn to_svg(&self) -> String {
        svg::render(self, &lay_out(self))
    }

    /// Depth-first search from the roots, then from objects no root reaches:
    /// an edge to a node still on the search stack closes a cycle.
    fn mark_back_edges(&mut self) {
        #[derive(Clone, Copy, PartialEq)]
        enum State {
            New,
            OnStack,
            Done,
        }
        let mut outgoing = vec![Vec::new(); self.nodes.len()];
        for (i, e) in self.edges.iter().enumerate() {
            outgoing[e.from].push(i);
        }
        let mut state = vec![State::New; self.nodes.len()];
        let mut back = vec![false; self.edges.len()];
        for start in 0..self.nodes.len() {
            if state[start] != State::New {
                continue;
            }
            // Explicit stack of (node, next outgoing edge) so deep lists
            // cannot overflow the call stack.
            let mut stack = vec![(start, 0usize)];
            state[start] = State::OnStack;
            while let Some((node, next)) = stack.last_mut() {
                let node = *node;
                match outgoing[node].get(*next) {
                    Some(&edge) => {
                        *next += 1;
                        let to = self.edges[edge].to;
                        match state[to] {
                            State::New => {
                                state[to] = State::OnStack;
                                stack.push((to, 0));
                            }
                            State::OnStack => back[edge] = true,
                            State::Done => {}
                        }
                    }
                    None => {
                        state[node] = State::Done;
                        stack.pop();
                    }
                }
            }
        }
        for (edge, is_back) in self.edges.iter_mut().zip(back) {
            edge.back = is_back;
        }
    }
}

/// The name of parameter `i` of `f` as the user sees it (`argN` when unnamed).
pub(crate) fn param_name(f: &ir::Function, i: usize) -> String {
    f.body
        .as_ref()
        .and_then(|b| b.locals.get(i))
        .map(|l| l.name.clone())
        .filter(|n| !n.is_empty())
        .unwrap_or_else(|| format!("arg{}", i + 1))
}

/// Writes `dir/<test>.dot` and `dir/<test>.svg` for every test written to
/// the driver that has input objects, and removes the pictures a previous run
/// left under the names of the other tests; `tests` are the driver's tests,
/// per report. Returns how many pictures were written.
pub(crate) fn write_pictures(
    program: &Program,
    reports: &[FunctionReport],
    tests: &[Vec<EmittedTest>],
    dir: &Path,
) -> Result<usize, EmitError> {
    let fail = |path: &Path, e: std::io::Error| EmitError {
        path: path.to_path_buf(),
        message: e.to_string(),
    };
    let mut written = 0;
    for (report, emitted) in reports.iter().zip(tests) {
        for (test, emitted) in report.tests.iter().zip(emitted) {
            let dot = dir.join(format!("{}.dot", emitted.name));
            let svg = dir.join(format!("{}.svg", emitted.name));
            if emitted.skipped.is_some() || test.inputs.objects.is_empty() {
                for stale in [&dot, &svg] {
                    match std::fs::remove_file(stale) {
                        Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
                            return Err(fail(stale, e))
                        }
                        _ => {}
                    }
                }
                continue;
            }
            if written == 0 {
                std::fs::create_dir_all(dir).map_err(|e| fail(dir, e))?;
            }
            let graph = HeapGraph::build(program, report.func, &test.inputs);
            crate::write_atomically(&dot, graph.to_dot())?;
            crate::write_atomically(&svg, graph.to_svg())?;
            written += 1;
        }
    }
    Ok(written)
}

/// A pointer found while flattening values, before its edge is made.
struct Pointer {
    node: usize,
    row: usize,
    object: ObjectId,
    offset: u64,
}

struct Builder<'a> {
    program: &'a Program,
    nodes: Vec<HeapNode>,
    pointers: Vec<Pointer>,
}

impl Builder<'_> {
    /// A root node for an argument or global that holds a pointer.
    fn root(&mut self, name: String, ty: &Type, value: &Value) {
        if !holds_pointer(value) {
            return;
        }
        let type_name = crate::ctype::type_name(self.program, ty).unwrap_or_else(|e| e.0);
        self.nodes.push(HeapNode {
            name,
            kind: NodeKind::Root,
            type_name,
            rows: vec![],
        });
        self.rows(ty, value, String::new());
    }

    fn object(&mut self, id: ObjectId, object: &testcase::InputObject) {
        let elem_name = crate::ctype::type_name(self.program, &object.elem).unwrap_or_else(|e| e.0);
        self.nodes.push(HeapNode {
            name: object.name.clone(),
            kind: NodeKind::Object(id),
            type_name: if object.len == 1 {
                elem_name
            } else {
                format!("{elem_name}[{}]", object.len)
            },
            rows: vec![],
        });
        let is_string = object.len > 1 && is_char(&object.elem);
        if let (true, Some(text)) = (is_string, string_text(&object.init)) {
            self.push_row(String::new(), text, false);
            return;
        }
        for (k, value) in object.init.iter().enumerate() {
            let path = if object.len == 1 {
                String::new()
            } else {
                format!("[{k}]")
            };
            self.rows(&object.elem, value, path);
        }
    }

    /// Flattens `value` of type `ty` into rows of the last node.
    fn rows(&mut self, ty: &Type, value: &Value, path: String) {
        match value {
            Value::Struct(members) => {
                for (name, member_ty, member) in
                    crate::unit::named_members(self.program, ty, members)
                {
                    self.rows(&member_ty, member, format!("{path}.{name}"));
                }
            }
            Value::Array(items) => {
                let elem = match ty {
                    Type::Array(elem, _) => (**elem).clone(),
                    _ => Type::Void,
                };
                match (is_char(&elem), string_text(items)) {
                    (true, Some(text)) => {
                        self.push_row(path, text, false);
                    }
                    _ => {
                        for (k, item) in items.iter().enumerate() {
                            self.rows(&elem, item, format!("{path}[{k}]"));
                        }
                    }
                }
            }
            Value::Pointer { object, offset } => {
                let row = self.push_row(path, POINTER_MARK.to_string(), false);
                self.pointers.push(Pointer {
                    node: self.nodes.len() - 1,
                    row,
                    object: *object,
                    offset: *offset,
                });
            }
            Value::Null => {
                self.push_row(path, "NULL".to_string(), true);
            }
            scalar => {
                let text = scalar_text(self.program, ty, scalar);
                self.push_row(path, text, false);
            }
        }
    }

    /// Appends a row to the last node; returns its index.
    fn push_row(&mut self, path: String, value: String, is_null: bool) -> usize {
        let Some(node) = self.nodes.last_mut() else {
            return 0;
        };
        node.rows.push(Row {
            path,
            value,
            is_null,
        });
        node.rows.len() - 1
    }
}

fn holds_pointer(value: &Value) -> bool {
    match value {
        Value::Null | Value::Pointer { .. } => true,
        Value::Struct(items) | Value::Array(items) => items.iter().any(holds_pointer),
        _ => false,
    }
}

fn is_char(ty: &Type) -> bool {
    matches!(ty, Type::Int(it) if it.bits == 8 && !it.is_bool)
}

/// A scalar as C would print it: integers in decimal (characters quoted when
/// printable), a global's address as `&name`, a function by name, `?` for a
/// value the engine does not know.
fn scalar_text(program: &Program, ty: &Type, value: &Value) -> String {
    match value {
        Value::Int { ty: it, bits } => {
            let v = it.value_of(*bits);
            match u8::try_from(v) {
                Ok(byte) if is_char(ty) && (b' '..=b'~').contains(&byte) => char_literal(byte),
                _ => v.to_string(),
            }
        }
        Value::GlobalPointer { global, offset } => {
            let name = &program.global(*global).name;
            if *offset == 0 {
                format!("&{name}")
            } else {
                format!("(char *)&{name} + {offset}")
            }
        }
        Value::Func(f) => program.function(*f).name.clone(),
        _ => "?".to_string(),
    }
}

fn char_literal(byte: u8) -> String {
    match byte {
        b'\'' => "'\\''".to_string(),
        b'\\' => "'\\\\'".to_string(),
        _ => format!("'{}'", byte as char),
    }
}

/// Longest string shown whole; longer ones are cut with `...`.
const STRING_SHOWN: usize = 40;

/// Character elements as a C string literal (`"abc"` when they end at the
/// first NUL, otherwise with `\0` escapes), `None` when one is not a known
/// integer.
fn string_text(items: &[Value]) -> Option<String> {
    let bytes = items
        .iter()
        .map(|v| match v {
            Value::Int { ty, bits } => u8::try_from(ty.value_of(*bits) & 0xff).ok(),
            _ => None,
        })
        .collect::<Option<Vec<u8>>>()?;
    let shown = match bytes.iter().position(|&b| b == 0) {
        Some(end) if bytes[end..].iter().all(|&b| b == 0) => &bytes[..end],
        _ => &bytes[..],
    };
    let mut text = String::from("\"");
    for &b in shown.iter().take(STRING_SHOWN) {
        match b {
            b'"' => text.push_str("\\\""),
            b'\\' => text.push_str("\\\\"),
            b'\n' => text.push_str("\\n"),
            b'\t' => text.push_str("\\t"),
            0 => text.push_str("\\0"),
            b' '..=b'~' => text.push(b as char),
            _ => text.push_str(&format!("\\x{b:02x}")),
        }
    }
    if shown.len() > STRING_SHOWN {
        text.push_str("...");
    }
    text.push('"');
    Some(text)
}

/// The element or member `offset` bytes into an object of `len` elements of
/// `elem`: `[2]`, `.next`, `[1].key`; bytes inside a scalar as `+n`.
fn place_in(program: &Program, elem: &Type, len: u64, offset: u64) -> String {
    let size = program.size_of(elem).max(1);
    let mut place = if len == 1 && offset < size {
        String::new()
    } else {
        format!("[{}]", offset / size)
    };
    let mut ty = elem.clone();
    let mut inner = offset % size;
    // Each step moves into a strictly smaller type, so this ends.
    while inner > 0 {
        let step = match &ty {
            Type::Struct(id) => program
                .struct_def(*id)
                .fields
                .iter()
                .filter(|f| f.offset <= inner)
                .max_by_key(|f| f.offset)
                .map(|f| {
                    let name = if f.name.is_empty() { "#" } else { &f.name };
                    (format!(".{name}"), f.ty.clone(), inner - f.offset)
                }),
            Type::Array(item, _) => {
                let item_size = program.size_of(item).max(1);
                Some((
                    format!("[{}]", inner / item_size),
                    (**item).clone(),
                    inner % item_size,
                ))
            }
            _ => None,
        };
        let Some((text, member_ty, rest)) = step else {
            place.push_str(&format!("+{inner}"));
            break;
        };
        place.push_str(&text);
        ty = member_ty;
        inner = rest;
    }
    place
}

#[cfg(test)]
mod tests {
    use super::*;
    use ir::IntType;

    #[test]
    fn strings_print_as_c_literals() {
        let chars = |s: &[u8]| {
            s.iter()
                .map(|&b| Value::Int {
                    ty: IntType::CHAR,
                    bits: u128::from(b),
                })
                .collect::<Vec<_>>()
        };
        assert_eq!(string_text(&chars(b"ab\0\0")).as_deref(), Some("\"ab\""));
        assert_eq!(
            string_text(&chars(b"a\0b\"")).as_deref(),
            Some("\"a\\0b\\\"\"")
        );
        assert_eq!(string_text(&[Value::Unknown]), None);
    }
}
