//! A small layered layout, left to right: longest-path layers from the roots
//! over the graph without its back edges, barycentric ordering inside the
//! layers, then each box placed level with the boxes pointing at it.

use super::HeapGraph;

/// Monospace text metrics (12px font) and spacing, in SVG user units.
pub const CHAR_WIDTH: f64 = 7.2;
pub const ROW_HEIGHT: f64 = 18.0;
pub const PADDING: f64 = 6.0;
pub const MARGIN: f64 = 20.0;
const LAYER_GAP: f64 = 90.0;
const NODE_GAP: f64 = 24.0;
/// Vertical distance between the lanes that carry back edges under the graph.
pub const LANE_GAP: f64 = 14.0;
const ORDERING_SWEEPS: usize = 4;
/// How far an arrow leaves its row horizontally before bending.
pub const BEND: f64 = 40.0;

/// Where everything goes.
#[derive(Clone, Debug, PartialEq)]
pub struct Placement {
    pub boxes: Vec<NodeBox>,
    /// The y of the first back-edge lane; lane `k` is `LANE_GAP * k` lower.
    pub lanes_top: f64,
    pub width: f64,
    pub height: f64,
}

#[derive(Clone, Debug, PartialEq)]
pub struct NodeBox {
    pub layer: usize,
    pub x: f64,
    pub y: f64,
    pub width: f64,
    pub height: f64,
    /// Offset of the value column from `x`.
    pub value_x: f64,
}

impl NodeBox {
    /// Vertical centre of row `row` (the header is row -1).
    pub fn row_center(&self, row: usize) -> f64 {
        self.y + ROW_HEIGHT * (row as f64 + 1.5)
    }

    pub fn header_center(&self) -> f64 {
        self.y + ROW_HEIGHT * 0.5
    }
}

/// The header line of a box: `name : type`.
pub fn header_text(node: &super::HeapNode) -> String {
    format!("{} : {}", node.name, node.type_name)
}

fn text_width(text: &str) -> f64 {
    text.chars().count() as f64 * CHAR_WIDTH
}

/// Sizes each box to its text and places it.
pub fn lay_out(graph: &HeapGraph) -> Placement {
    let count = graph.nodes.len();
    let mut boxes: Vec<NodeBox> = graph
        .nodes
        .iter()
        .map(|node| {
            let labels = node
                .rows
                .iter()
                .map(|r| text_width(r.label()))
                .fold(0.0, f64::max);
            let values = node
                .rows
                .iter()
                .map(|r| text_width(&r.value))
                .fold(0.0, f64::max);
            let label_column = if labels > 0.0 {
                labels + 2.0 * PADDING
            } else {
                0.0
            };
            let body = label_column + values + 2.0 * PADDING;
            let header = text_width(&header_text(node)) + 2.0 * PADDING;
            NodeBox {
                layer: 0,
                x: 0.0,
                y: 0.0,
                width: body.max(header),
                height: ROW_HEIGHT * (node.rows.len() + 1) as f64,
                value_x: label_column,
            }
        })
        .collect();

    let forward: Vec<_> = graph.edges.iter().filter(|e| !e.back).collect();
    // Longest-path layering in topological order (forward edges form a DAG).
    let mut indegree = vec![0usize; count];
    for e in &forward {
        indegree[e.to] += 1;
    }
    let mut successors = vec![Vec::new(); count];
    let mut predecessors = vec![Vec::new(); count];
    for e in &forward {
        successors[e.from].push(*e);
        predecessors[e.to].push(*e);
    }
    let mut ready: Vec<usize> = (0..count).filter(|&n| indegree[n] == 0).rev().collect();
    let mut layer = vec![0usize; count];
    while let Some(n) = ready.pop() {
        for e in &successors[n] {
            layer[e.to] = layer[e.to].max(layer[n] + 1);
            indegree[e.to] -= 1;
            if indegree[e.to] == 0 {
                ready.push(e.to);
            }
        }
    }
    let layers_count = layer.iter().max().map_or(0, |m| m + 1);
    let mut layers: Vec<Vec<usize>> = vec![Vec::new(); layers_count];
    for (n, &l) in layer.iter().enumerate() {
        layers[l].push(n);
    }

    // Barycentric ordering: sort each layer by the mean position of its
    // neighbours in the layer swept from, down then up.
    let mut position = vec![0.0f64; count];
    let update = |layers: &Vec<Vec<usize>>, position: &mut Vec<f64>| {
        for members in layers {
            for (i, &n) in members.iter().enumerate() {
                position[n] = i as f64;
            }
        }
    };
    update(&layers, &mut position);
    for _ in 0..ORDERING_SWEEPS {
        for downward in [true, false] {
            let order: Vec<usize> = if downward {
                (1..layers_count).collect()
            } else {
                (0..layers_count.saturating_sub(1)).rev().collect()
            };
            for l in order {
                let key = |n: usize| {
                    // A row's position within its box breaks ties between
                    // targets of one box.
                    let neighbours: Vec<f64> = if downward {
                        predecessors[n]
                            .iter()
                            .map(|e| {
                                let rows = graph.nodes[e.from].rows.len() + 1;
                                position[e.from] + e.row as f64 / rows as f64
                            })
                            .collect()
                    } else {
                        successors[n].iter().map(|e| position[e.to]).collect()
                    };
                    if neighbours.is_empty() {
                        position[n]
                    } else {
                        neighbours.iter().sum::<f64>() / neighbours.len() as f64
                    }
                };
                let mut keyed: Vec<(f64, usize)> = layers[l].iter().map(|&n| (key(n), n)).collect();
                keyed.sort_by(|a, b| a.0.total_cmp(&b.0));
                layers[l] = keyed.into_iter().map(|(_, n)| n).collect();
                update(&layers, &mut position);
            }
        }
    }

    // Coordinates: layers are columns; a box sits level with the boxes that
    // point at it when the boxes above leave room (so a list is one straight
    // row rather than a staircase).
    let mut x = MARGIN;
    let mut bottom = MARGIN;
    for (l, members) in layers.iter().enumerate() {
        let mut next_free = MARGIN;
        for &n in members {
            // Predecessors sit in earlier layers, already placed.
            let sources: Vec<f64> = predecessors[n].iter().map(|e| boxes[e.from].y).collect();
            let wanted = if sources.is_empty() {
                next_free
            } else {
                sources.iter().sum::<f64>() / sources.len() as f64
            };
            let b = &mut boxes[n];
            b.layer = l;
            b.x = x;
            b.y = wanted.max(next_free);
            next_free = b.y + b.height + NODE_GAP;
            bottom = bottom.max(b.y + b.height);
        }
        x += members.iter().map(|&n| boxes[n].width).fold(0.0, f64::max) + LAYER_GAP;
    }
    let back_edges = graph.edges.iter().filter(|e| e.back).count();
    let lanes_top = bottom + 2.0 * LANE_GAP;
    let height = if back_edges == 0 {
        bottom + MARGIN
    } else {
        lanes_top + LANE_GAP * back_edges as f64 + MARGIN
    };
    Placement {
        boxes,
        lanes_top,
        // Back edges bend out right of the last column.
        width: x - LAYER_GAP + MARGIN + if back_edges == 0 { 0.0 } else { BEND },
        height,
    }
}
