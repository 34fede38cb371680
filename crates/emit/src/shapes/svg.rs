//! Standalone SVG of a laid-out heap graph: boxes with a header (`name :
//! type`) and one row per member, arrows from pointer rows, `NULL` markers,
//! shared nodes shaded, back edges routed in lanes under the graph.

use super::layout::{
    header_text, NodeBox, Placement, BEND, CHAR_WIDTH, LANE_GAP, PADDING, ROW_HEIGHT,
};
use super::{HeapEdge, HeapGraph, NodeKind};
use crate::xml::text as escape;
use std::fmt::Write;

const STYLE: &str = "text { font-family: \"DejaVu Sans Mono\", Menlo, Consolas, \"Liberation Mono\", monospace; font-size: 12px; dominant-baseline: central; }
.header { font-weight: bold; }
.null { fill: #888888; font-style: italic; }
.box { fill: #ffffff; stroke: #333333; }
.root { fill: #e8f0fe; }
.shared { fill: #fff4cc; }
.rule { stroke: #bbbbbb; }
.edge { fill: none; stroke: #1a5fb4; stroke-width: 1.3; }
.back { fill: none; stroke: #c01c28; stroke-width: 1.3; stroke-dasharray: 5 3; }
.label { font-size: 10px; fill: #555555; }";

pub fn render(graph: &HeapGraph, placement: &Placement) -> String {
    let mut incoming = vec![0usize; graph.nodes.len()];
    for e in &graph.edges {
        incoming[e.to] += 1;
    }
    let mut out = String::new();
    let _ = writeln!(
        out,
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n\
         <svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w:.0}\" height=\"{h:.0}\" \
         viewBox=\"0 0 {w:.0} {h:.0}\">",
        w = placement.width,
        h = placement.height
    );
    out.push_str("<defs>\n");
    for (id, colour) in [("arrow", "#1a5fb4"), ("back-arrow", "#c01c28")] {
        let _ = writeln!(
            out,
            "<marker id=\"{id}\" markerWidth=\"8\" markerHeight=\"6\" refX=\"8\" refY=\"3\" \
             orient=\"auto\"><path d=\"M0,0 L8,3 L0,6 z\" fill=\"{colour}\"/></marker>"
        );
    }
    let _ = writeln!(out, "<style>\n{STYLE}\n</style>\n</defs>");
    for (n, node) in graph.nodes.iter().enumerate() {
        let b = &placement.boxes[n];
        let mut class = String::from("box");
        if node.kind == NodeKind::Root {
            class.push_str(" root");
        } else if incoming[n] > 1 {
            class.push_str(" shared");
        }
        let _ = writeln!(out, "<g class=\"node\" id=\"node{n}\">");
        let _ = writeln!(
            out,
            "<rect class=\"{class}\" x=\"{:.1}\" y=\"{:.1}\" width=\"{:.1}\" height=\"{:.1}\"/>",
            b.x, b.y, b.width, b.height
        );
        text(
            &mut out,
            "header",
            b.x + PADDING,
            b.header_center(),
            &header_text(node),
        );
        for (r, row) in node.rows.iter().enumerate() {
            let top = b.y + ROW_HEIGHT * (r + 1) as f64;
            let _ = writeln!(
                out,
                "<line class=\"rule\" x1=\"{:.1}\" y1=\"{top:.1}\" x2=\"{:.1}\" y2=\"{top:.1}\"/>",
                b.x,
                b.x + b.width
            );
            if !row.label().is_empty() {
                text(&mut out, "", b.x + PADDING, b.row_center(r), row.label());
            }
            let class = if row.is_null { "null" } else { "" };
            text(
                &mut out,
                class,
                b.x + b.value_x + PADDING,
                b.row_center(r),
                &row.value,
            );
        }
        out.push_str("</g>\n");
    }
    let mut lane = 0;
    for edge in &graph.edges {
        let lane_y = edge.back.then(|| {
            lane += 1;
            placement.lanes_top + LANE_GAP * (lane - 1) as f64
        });
        arrow(&mut out, graph, placement, edge, lane_y);
    }
    out.push_str("</svg>\n");
    out
}

/// An arrow from the right end of the pointer's row to the left side of its
/// target, at the targeted row when the pointer is into the middle. A back
/// edge goes down to its lane, left along it and up into the target.
fn arrow(
    out: &mut String,
    graph: &HeapGraph,
    placement: &Placement,
    edge: &HeapEdge,
    lane: Option<f64>,
) {
    let from = &placement.boxes[edge.from];
    let to = &placement.boxes[edge.to];
    let (x1, y1) = (from.x + from.width, from.row_center(edge.row));
    let (x2, y2) = (to.x, target_y(graph, to, edge));
    let (class, marker, path) = match lane {
        Some(lane) => (
            "back",
            "back-arrow",
            format!(
                "M{x1:.1},{y1:.1} C{:.1},{y1:.1} {:.1},{lane:.1} {x1:.1},{lane:.1} \
                 L{x2:.1},{lane:.1} C{:.1},{lane:.1} {:.1},{y2:.1} {x2:.1},{y2:.1}",
                x1 + BEND,
                x1 + BEND,
                x2 - BEND,
                x2 - BEND
            ),
        ),
        None => {
            let bend = ((x2 - x1) / 2.0).max(BEND);
            (
                "edge",
                "arrow",
                format!(
                    "M{x1:.1},{y1:.1} C{:.1},{y1:.1} {:.1},{y2:.1} {x2:.1},{y2:.1}",
                    x1 + bend,
                    x2 - bend
                ),
            )
        }
    };
    let _ = writeln!(
        out,
        "<path class=\"{class}\" d=\"{path}\" marker-end=\"url(#{marker})\"/>"
    );
    if let Some(place) = &edge.target {
        let x = x2 - 4.0 - place.chars().count() as f64 * CHAR_WIDTH * 10.0 / 12.0;
        text(out, "label", x, y2 - 8.0, place);
    }
}

/// The row an edge into the middle of an object points at, else the header.
fn target_y(graph: &HeapGraph, to: &NodeBox, edge: &HeapEdge) -> f64 {
    let node = &graph.nodes[edge.to];
    edge.target
        .as_deref()
        .and_then(|place| {
            node.rows.iter().position(|r| {
                r.path == place
                    || r.path
                        .strip_prefix(place)
                        .is_some_and(|rest| rest.starts_with(['.', '[']))
            })
        })
        .map_or(to.header_center(), |row| to.row_center(row))
}

fn text(out: &mut String, class: &str, x: f64, y: f64, content: &str) {
    let class = if class.is_empty() {
        String::new()
    } else {
        format!(" class=\"{class}\"")
    };
    let _ = writeln!(
        out,
        "<text{class} x=\"{x:.1}\" y=\"{y:.1}\" xml:space=\"preserve\">{}</text>",
        escape(content)
    );
}
