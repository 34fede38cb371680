//! Builds the `<stem>.tests.json` model (schema: `testcase::json`) from the
//! engine's reports and the driver's names.

use crate::driver::EmittedTest;
use crate::unit::Unit;
use ir::{FloatKind, Goal, Type};
use serde_json::Value as Json;
use std::collections::BTreeSet;
use testcase::json::{
    AllocatedJson, CheckJson, ConstructionJson, FindingJson, FunctionJson, GoalJson, InputsJson,
    NamedValue, ObjectJson, StatsJson, StreamJson, StubJson, TestJson,
};
use testcase::{
    AllocId, AllocatedObject, FunctionReport, InputStream, Inputs, Root, Step, StreamAfter,
    StreamMode, TestCase, Uncovered, Value,
};

/// Builds the entries of one report: its function's, with the tests and
/// findings, then, where the report counts other functions' goals (a
/// whole program's run covers its callees' branches), one for each of
/// those functions with its goals alone. `file_path` maps a source file
/// index to the path written in the JSON.
pub fn function_json(
    unit: &Unit,
    report: &FunctionReport,
    tests: &[EmittedTest],
    reproducers: &[Option<u32>],
    file_path: &dyn Fn(u32) -> String,
) -> Vec<FunctionJson> {
    let program = unit.program;
    let f = program.function(report.func);
    let written: Vec<_> = report
        .tests
        .iter()
        .zip(tests)
        .filter(|(_, e)| e.skipped.is_none())
        .collect();
    let covered: BTreeSet<Goal> = written
        .iter()
        .flat_map(|(t, _)| t.path_goals.iter().chain(&t.new_goals))
        .copied()
        .collect();
    let key = |g: &Goal| ir::goal_key(program, *g);
    // A decision's vectors are reported per decision, not as branches.
    let branch = |g: &&Goal| !program.is_vector_goal(**g);
    let goals_of = |func: ir::FuncId| -> Vec<GoalJson> {
        ir::function_goals(program, func)
            .into_iter()
            .filter(|info| info.kind != ir::BranchKind::Vector)
            .map(|info| {
                let is_covered = covered.contains(&info.goal);
                let reason = if is_covered {
                    None
                } else {
                    Some(
                        report
                            .uncovered
                            .iter()
                            .find(|(g, _)| *g == info.goal)
                            .map(|(_, why)| uncovered_text(why))
                            .unwrap_or_else(|| "not reached by any written test".to_string()),
                    )
                };
                GoalJson {
                    key: key(&info.goal),
                    file: file_path(info.span.file),
                    line: info.span.line,
                    col: info.span.col,
                    label: info.label,
                    site: info.goal.site.0,
                    target: edge_target(program, func, info.target).0,
                    covered: is_covered,
                    reason,
                }
            })
            .collect()
    };
    let mut others: Vec<ir::FuncId> = Vec::new();
    for goal in &report.goals {
        if goal.func != report.func && !others.contains(&goal.func) {
            others.push(goal.func);
        }
    }
    let goals = goals_of(report.func);
    let tests = report
        .tests
        .iter()
        .zip(tests)
        .map(|(test, emitted)| TestJson {
            name: emitted.name.clone(),
            skipped: emitted.skipped.clone(),
            inputs: inputs_json(
                unit,
                report.func,
                &test.inputs,
                (&emitted.object_names, &emitted.stream_names),
            ),
            expected_return: test
                .ret
                .as_ref()
                .map(|v| value_json(unit, &test.inputs, &test.allocated, &f.sig.ret, v)),
            checks: emitted
                .checks
                .iter()
                .map(|(lvalue, check)| CheckJson {
                    lvalue: lvalue.clone(),
                    expected: value_json(
                        unit,
                        &test.inputs,
                        &test.allocated,
                        &check.ty,
                        &check.expected,
                    ),
                })
                .collect(),
            unchecked: test.unchecked,
            allocated: allocated_json(unit, test, &emitted.allocated_names),
            freed_inputs: test
                .freed_inputs
                .iter()
                .filter_map(|o| test.inputs.objects.get(o.0 as usize))
                .map(|o| o.name.clone())
                .collect(),
            covers: test.new_goals.iter().filter(branch).map(key).collect(),
            path_goals: test.path_goals.iter().filter(branch).map(key).collect(),
            native_calls: test.native_calls.clone(),
        })
        .collect();
    let findings = report
        .findings
        .iter()
        .zip(reproducers)
        .map(|(finding, number)| FindingJson {
            kind: finding.kind,
            location: format!(
                "{}:{}:{}",
                file_path(finding.span.file),
                finding.span.line,
                finding.span.col
            ),
            line: finding.span.line,
            col: finding.span.col,
            message: finding.message.clone(),
            inputs: inputs_json(unit, report.func, &finding.inputs, (&[], &[])),
            unvouched_inputs: finding.unvouched_inputs.clone(),
            reproducer: *number,
            path_goals: finding.path_goals.iter().map(key).collect(),
            not_confirmed: finding.not_confirmed.clone(),
        })
        .collect();
    let own = FunctionJson {
        name: f.name.clone(),
        file: file_path(f.span.file),
        line: f.span.line,
        goals,
        tests,
        findings,
        stats: StatsJson {
            paths: report.stats.paths,
            solver_calls: report.stats.solver_calls,
            statements: report.stats.statements,
            elapsed_ms: millis(report.stats.elapsed),
            solver_questions: report.stats.solver.asked,
            answered_by_cache: report.stats.solver.from_cache,
            answered_by_last_model: report.stats.solver.from_last_model,
            answered_by_guesses: report.stats.solver.from_guesses,
            priced_out: report.stats.solver.priced_out,
            solver_ms: millis(report.stats.solver.z3_time),
            cheap_candidates: report.stats.cheap.candidates,
            cheap_tests: report.stats.cheap.tests,
            cheap_goals: report.stats.cheap.goals,
        },
        dropped_tests: report.dropped_tests.clone(),
        untested: report.untested.as_ref().map(uncovered_text),
        decisions: crate::decisions::decisions_json(program, report, &written, file_path),
    };
    let callees = others.into_iter().map(|func| {
        let callee = program.function(func);
        FunctionJson {
            name: callee.name.clone(),
            file: file_path(callee.span.file),
            line: callee.span.line,
            goals: goals_of(func),
            tests: Vec::new(),
            findings: Vec::new(),
            stats: StatsJson::default(),
            dropped_tests: Vec::new(),
            untested: None,
            decisions: Vec::new(),
        }
    });
    std::iter::once(own).chain(callees).collect()
}

/// The block an edge really leads to: empty blocks that only jump on are
/// skipped, so `case 1: case 3: ...` labels sharing code are one target, as
/// gcc's arcs are.
fn edge_target(program: &ir::Program, func: ir::FuncId, start: ir::BlockId) -> ir::BlockId {
    let Some(body) = &program.function(func).body else {
        return start;
    };
    let mut block = start;
    // Bounded: a cycle of empty blocks (`for (;;);`) must not hang us.
    for _ in 0..body.blocks.len() {
        match body.blocks.get(block.index()) {
            Some(b) if b.stmts.is_empty() => match b.term {
                ir::Terminator::Goto(next) => block = next,
                _ => break,
            },
            _ => break,
        }
    }
    block
}

pub(crate) fn uncovered_text(why: &Uncovered) -> String {
    match why {
        Uncovered::Infeasible => "infeasible".to_string(),
        Uncovered::Budget(bound) => format!("not reached within bounds: {}", bound.explained()),
        Uncovered::Unsupported(what) => format!("unsupported: {what}"),
        Uncovered::Refuted(why) => format!("its test was left out: {why}"),
        Uncovered::NotSought => {
            "not sought: other tests show every condition of its decision independent".to_string()
        }
    }
}

/// The inputs of a test as JSON, with the C names the driver gave its
/// objects and streams (none for a finding's).
fn inputs_json(
    unit: &Unit,
    func: ir::FuncId,
    inputs: &Inputs,
    (object_names, stream_names): (&[String], &[String]),
) -> InputsJson {
    let program = unit.program;
    let f = program.function(func);
    let param_name = |i: usize| crate::shapes::param_name(f, i);
    let value_type = testcase::EnvironmentVariable::value_type();
    InputsJson {
        args: f
            .sig
            .params
            .iter()
            .zip(&inputs.args)
            .enumerate()
            .map(|(i, (ty, v))| NamedValue {
                name: param_name(i),
                value: value_json(unit, inputs, &[], ty, v),
            })
            .collect(),
        globals: inputs
            .globals
            .iter()
            .map(|(g, v)| {
                let global = program.global(*g);
                NamedValue {
                    name: global.name.clone(),
                    value: value_json(unit, inputs, &[], &global.ty, v),
                }
            })
            .collect(),
        objects: inputs
            .objects
            .iter()
            .enumerate()
            .map(|(i, o)| ObjectJson {
                name: o.name.clone(),
                c_name: object_names.get(i).filter(|n| !n.is_empty()).cloned(),
                elem_type: crate::ctype::type_name(program, &o.elem).unwrap_or_else(|e| e.0),
                len: o.len,
                flexible_len: o.flexible_len,
                init: o
                    .init
                    .iter()
                    .map(|v| value_json(unit, inputs, &[], &o.elem, v))
                    .collect(),
            })
            .collect(),
        stubs: inputs
            .stubs
            .iter()
            .map(|s| {
                let callee = program.function(s.func);
                StubJson {
                    function: callee.name.clone(),
                    returns: s
                        .returns
                        .iter()
                        .map(|v| value_json(unit, inputs, &[], &callee.sig.ret, v))
                        .collect(),
                    writes: s.writes.clone(),
                }
            })
            .collect(),
        edges: crate::shapes::HeapGraph::build(program, func, inputs).json_edges(),
        failing_allocations: inputs.failing_allocations.clone(),
        constructions: inputs
            .constructions
            .iter()
            .map(|c| ConstructionJson {
                param: param_name(c.param as usize),
                calls: c
                    .calls
                    .iter()
                    .map(|call| {
                        let text =
                            crate::inputs::api_call_text(unit, f, call, &Default::default(), &[])
                                .unwrap_or_else(|e| e);
                        match &call.part {
                            Some(part) => format!("{part} = {text}"),
                            None => text,
                        }
                    })
                    .collect(),
                member_of: c
                    .member_of
                    .as_ref()
                    .map(|(root, path)| format!("{}{path}", param_name(*root as usize))),
            })
            .collect(),
        earlier_calls: inputs
            .earlier_calls
            .iter()
            .map(|call| {
                crate::inputs::api_call_text(unit, f, call, &Default::default(), &[])
                    .unwrap_or_else(|e| e)
            })
            .collect(),
        streams: inputs
            .streams
            .iter()
            .enumerate()
            .map(|(i, stream)| stream_json(stream, stream_names.get(i).cloned()))
            .collect(),
        environment: inputs
            .environment
            .iter()
            .map(|variable| NamedValue {
                name: variable.name.clone(),
                value: value_json(unit, inputs, &[], &value_type, &variable.value),
            })
            .collect(),
    }
}

fn stream_json(stream: &InputStream, c_name: Option<String>) -> StreamJson {
    let (mode, contents, room, written) = match &stream.mode {
        StreamMode::Read { contents } => ("read", Some(bytes_text(contents)), None, None),
        StreamMode::Write { room, written } => {
            ("write", None, *room, written.as_deref().map(bytes_text))
        }
    };
    let (closed_by_call, eof, error, position) = match &stream.after {
        StreamAfter::Closed => (true, None, None, None),
        StreamAfter::Scanned => (false, None, None, None),
        StreamAfter::Open {
            eof,
            error,
            position,
        } => (false, Some(*eof), Some(*error), *position),
    };
    StreamJson {
        name: stream.name.clone(),
        c_name,
        mode: mode.to_string(),
        contents,
        room,
        written,
        closed_by_call,
        eof,
        error,
        position,
    }
}

/// Bytes as text (see `testcase::json::StreamJson`): printable ASCII as it
/// is, a backslash doubled, any other byte as `\xNN`.
fn bytes_text(bytes: &[u8]) -> String {
    let mut text = String::with_capacity(bytes.len());
    for &b in bytes {
        match b {
            b'\\' => text.push_str("\\\\"),
            0x20..=0x7e => text.push(b as char),
            other => text.push_str(&format!("\\x{other:02x}")),
        }
    }
    text
}

/// The output heap of a test with the values its checks predict.
fn allocated_json(unit: &Unit, test: &TestCase, c_names: &[String]) -> Vec<AllocatedJson> {
    test.allocated
        .iter()
        .enumerate()
        .map(|(i, object)| {
            let mut values = vec![Value::Unknown; object.len as usize];
            for check in &test.checks {
                if check.root != Root::Allocated(AllocId(i as u32)) {
                    continue;
                }
                if let Some((Step::Index(k), rest)) = check.path.split_first() {
                    if let Some(element) = values.get_mut(*k as usize) {
                        place(unit.program, element, &object.elem, rest, &check.expected);
                    }
                }
            }
            AllocatedJson {
                name: object.name.clone(),
                c_name: c_names.get(i).filter(|n| !n.is_empty()).cloned(),
                elem_type: crate::ctype::type_name(unit.program, &object.elem)
                    .unwrap_or_else(|e| e.0),
                len: object.len,
                values: values
                    .iter()
                    .map(|v| value_json(unit, &test.inputs, &test.allocated, &object.elem, v))
                    .collect(),
            }
        })
        .collect()
}

/// Sets the part of `value` (of type `ty`) that `path` leads to, opening
/// unknown structs and arrays one level at a time.
fn place(program: &ir::Program, value: &mut Value, ty: &Type, path: &[Step], scalar: &Value) {
    let Some((step, rest)) = path.split_first() else {
        *value = scalar.clone();
        return;
    };
    match (step, ty) {
        (Step::Field(n), Type::Struct(id)) => {
            let Some(def) = program.structs.get(id.0 as usize) else {
                return;
            };
            let fields = &def.fields;
            if !matches!(value, Value::Struct(_)) {
                *value = Value::Struct(vec![Value::Unknown; fields.len()]);
            }
            if let (Value::Struct(members), Some(field)) = (value, fields.get(*n as usize)) {
                if let Some(member) = members.get_mut(*n as usize) {
                    place(program, member, &field.ty, rest, scalar);
                }
            }
        }
        (Step::Index(k), Type::Array(elem, Some(len))) => {
            if !matches!(value, Value::Array(_)) {
                *value = Value::Array(vec![Value::Unknown; *len as usize]);
            }
            if let Value::Array(items) = value {
                if let Some(item) = items.get_mut(*k as usize) {
                    place(program, item, elem, rest, scalar);
                }
            }
        }
        // A path that does not fit the type: nothing to show.
        _ => {}
    }
}

/// A value as JSON: integers as numbers, floats and doubles exactly as
/// `{"double": "0x1.8p+1"}` (a hexadecimal literal, `inf`, `-inf`, or
/// `nan(0xPAYLOAD)` with `-` and `s` for sign and signalling), NULL as `null`, pointers as
/// `{"object": path, "offset": bytes}` / `{"allocated": path, "offset": bytes}`
/// / `{"global": name, "offset": bytes}`, functions as `{"function": name}`,
/// structs as objects by member name, arrays as lists, unknown values as the
/// string `"unknown"`. `allocated` is the test's output heap.
pub fn value_json(
    unit: &Unit,
    inputs: &Inputs,
    allocated: &[AllocatedObject],
    ty: &Type,
    value: &Value,
) -> Json {
    let program = unit.program;
    match value {
        Value::Int { ty: it, bits } => {
            let v = it.value_of(*bits);
            i64::try_from(v)
                .map(Json::from)
                .or_else(|_| u64::try_from(v).map(Json::from))
                .unwrap_or_else(|_| Json::String(it.decimal(*bits)))
        }
        Value::Float { kind, bits } => {
            let name = if *kind == FloatKind::F32 {
                "float"
            } else {
                "double"
            };
            serde_json::json!({ name: ir::float::text(*kind, *bits) })
        }
        Value::Null => Json::Null,
        Value::Pointer { object, offset } => {
            let name = inputs
                .objects
                .get(object.0 as usize)
                .map(|o| o.name.clone())
                .unwrap_or_default();
            serde_json::json!({ "object": name, "offset": offset })
        }
        Value::Allocated { object, offset } => {
            let name = allocated
                .get(object.0 as usize)
                .map(|o| o.name.clone())
                .unwrap_or_default();
            serde_json::json!({ "allocated": name, "offset": offset })
        }
        Value::GlobalPointer { global, offset } => {
            serde_json::json!({ "global": program.global(*global).name, "offset": offset })
        }
        Value::Func(f) => serde_json::json!({ "function": program.function(*f).name }),
        Value::Constructed { param } => serde_json::json!({ "constructed_param": param }),
        Value::Part { param, call } => {
            serde_json::json!({ "constructed_param": param, "part_of_call": call })
        }
        Value::Stream(id) => {
            let name = inputs
                .streams
                .get(id.0 as usize)
                .map(|s| s.name.clone())
                .unwrap_or_default();
            serde_json::json!({ "stream": name })
        }
        Value::Struct(members) => {
            let mut map = serde_json::Map::new();
            for (name, member_ty, member) in crate::unit::named_members(program, ty, members) {
                map.insert(
                    name,
                    value_json(unit, inputs, allocated, &member_ty, member),
                );
            }
            Json::Object(map)
        }
        Value::Array(items) => {
            let elem = match ty {
                Type::Array(elem, _) => (**elem).clone(),
                _ => Type::Void,
            };
            Json::Array(
                items
                    .iter()
                    .map(|v| value_json(unit, inputs, allocated, &elem, v))
                    .collect(),
            )
        }
        Value::Unknown => Json::String("unknown".to_string()),
    }
}

fn millis(duration: std::time::Duration) -> u64 {
    u64::try_from(duration.as_millis()).unwrap_or(u64::MAX)
}
