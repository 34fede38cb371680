//! Graphviz text of a heap graph: HTML-like table labels with one port per
//! row, so arrows leave from the pointer's row; back edges dashed and red and
//! left out of ranking (`constraint=false`).

use super::{HeapGraph, NodeKind};
use crate::xml::text as escape;
use std::fmt::Write;

pub fn render(graph: &HeapGraph) -> String {
    let mut incoming = vec![0usize; graph.nodes.len()];
    for e in &graph.edges {
        incoming[e.to] += 1;
    }
    let mut out = String::from(
        "digraph heap {\n  rankdir=LR;\n  node [shape=plaintext, fontname=\"monospace\", fontsize=11];\n  \
         edge [color=\"#1a5fb4\", fontname=\"monospace\", fontsize=9];\n",
    );
    for (n, node) in graph.nodes.iter().enumerate() {
        let fill = match node.kind {
            NodeKind::Root => "#e8f0fe",
            NodeKind::Object(_) if incoming[n] > 1 => "#fff4cc",
            NodeKind::Object(_) => "#ffffff",
        };
        let _ = write!(
            out,
            "  n{n} [label=<<table border=\"0\" cellborder=\"1\" cellspacing=\"0\" bgcolor=\"{fill}\">\
             <tr><td colspan=\"2\" port=\"h\"><b>{}</b> : {}</td></tr>",
            escape(&node.name),
            escape(&node.type_name)
        );
        for (r, row) in node.rows.iter().enumerate() {
            let value = if row.is_null {
                format!(
                    "<font color=\"#888888\"><i>{}</i></font>",
                    escape(&row.value)
                )
            } else {
                escape(&row.value)
            };
            let _ = write!(
                out,
                "<tr><td align=\"left\">{}</td><td align=\"left\" port=\"r{r}\">{value}</td></tr>",
                escape(row.label())
            );
        }
        out.push_str("</table>>];\n");
    }
    for e in &graph.edges {
        let mut attributes = Vec::new();
        if let Some(place) = &e.target {
            attributes.push(format!("label=\"{}\"", escape(place)));
        }
        if e.back {
            attributes.push("color=\"#c01c28\", style=dashed, constraint=false".to_string());
        }
        let attributes = if attributes.is_empty() {
            String::new()
        } else {
            format!(" [{}]", attributes.join(", "))
        };
        let _ = writeln!(
            out,
            "  n{}:r{}:e -> n{}:h:w{attributes};",
            e.from, e.row, e.to
        );
    }
    out.push_str("}\n");
    out
}
