//! From a Z3 model and a final path state to plain test data: the inputs to
//! build (seed 000's allocate / assign / link), the return value and checks,
//! and the output heap those checks reach.

mod stream;

use crate::config::EngineConfig;
use crate::memory::{initial_cells, zero_cells};
use crate::solver::InputSymbol;
use crate::stable_hash::StableHashMap;
use crate::state::{is_stream_type, Build, ObjKind, State, StreamRole, Written};
use crate::value::{
    bit_field_get, cell_byte, cells_to_int, cells_to_ptr, Cell, LazyIdx, ObjIdx, PtrVal, SymVal,
    Target, Word,
};
use ir::{FuncId, GlobalId, Goal, IntType, Layout, Program, Type};
use std::cell::RefCell;
use testcase::{
    AllocId, AllocatedObject, ApiCall, Check, Construction, EnvironmentVariable, InputObject,
    Inputs, ObjectId, Root, Step, StreamId, Stub, StubCall, StubPointer, StubWrite, TestCase,
    Value,
};
use z3::ast::{Ast, Bool, BV};
use z3::Model;

/// The flexible array member that ends a struct (`int8_t contents[];`): an
/// input of such a struct is one struct whose member holds the bytes after
/// its header, as the code allocates it, not an array of structs.
struct FlexibleMember {
    field: usize,
    elem: Type,
    offset: u64,
    elem_size: u64,
}

impl FlexibleMember {
    /// How many elements of the member `object_bytes` bytes hold.
    fn count(&self, object_bytes: u64) -> u64 {
        object_bytes.saturating_sub(self.offset) / self.elem_size
    }

    /// The bytes of element `k` of the member.
    fn element(&self, k: u64) -> std::ops::Range<usize> {
        let at = (self.offset + k * self.elem_size) as usize;
        at..at + self.elem_size as usize
    }
}

fn flexible_member(program: &Program, ty: &Type) -> Option<FlexibleMember> {
    let (field, member) = program.flexible_member(ty)?;
    let Type::Array(elem, _) = &member.ty else {
        return None;
    };
    let elem_size = program.size_of(elem);
    (elem_size > 0).then(|| FlexibleMember {
        field,
        elem: (**elem).clone(),
        offset: member.offset,
        elem_size,
    })
}

/// The most bytes a test allocates for a buffer to honour the capacity its
/// arguments claim (see [`Solved::provided_lengths`]).
const MAX_PROVIDED_BYTES: i128 = 1 << 20;

/// Solved view of one path: which state objects are test inputs and how long,
/// and which allocated objects the output reaches.
struct Solved<'a> {
    program: &'a Program,
    st: &'a State,
    values: &'a Valuation<'a>,
    /// The function under test.
    func: FuncId,
    /// Output identity and chosen length of each input object of the state.
    inputs: Vec<Option<(ObjectId, u64)>>,
    /// The objects that untouched pointer parameters point to (see
    /// [`untouched_params`]), numbered after the input objects.
    untouched: Vec<(LazyIdx, ObjectId)>,
    /// The stream inputs: each state object that is one, then the streams
    /// untouched `FILE *` parameters point to.
    streams: Vec<(StreamSource, StreamId)>,
    /// Grows while checks are made: a pointer check meeting a live allocated
    /// object not yet numbered gives it the next [`AllocId`].
    heap: RefCell<OutputHeap>,
}

/// Where a stream input comes from.
#[derive(Clone, Copy, PartialEq, Eq)]
enum StreamSource {
    Object(ObjIdx),
    Untouched(LazyIdx),
}

/// The allocated objects reached so far, in order of first reach.
#[derive(Default)]
struct OutputHeap {
    ids: StableHashMap<ObjIdx, AllocId>,
    objects: Vec<(ObjIdx, AllocatedObject)>,
}

pub fn inputs(program: &Program, st: &State, model: &Model, func: FuncId) -> Inputs {
    Solved::new(program, st, &Valuation::of(model), func).inputs()
}

/// The test of a completed path: inputs, return value, checks of the output
/// state and the output heap.
///
/// Check order: the return value's members, the written scalars of each input
/// object (by [`ObjectId`]; none for the ones the function freed), of each
/// global, then of each allocated object by [`AllocId`]. Allocated objects are
/// numbered as those checks first point to them (the returned pointer first),
/// so the output heap is walked breadth-first and a pointer check reaching an
/// object always comes before the checks rooted at it.
pub fn test_case(
    program: &Program,
    config: &EngineConfig,
    st: &State,
    values: &Valuation,
    func: FuncId,
    new_goals: Vec<Goal>,
    path_goals: Vec<Goal>,
) -> TestCase {
    let solved = Solved::new(program, st, values, func);
    let inputs = solved.inputs();
    let ret_ty = &program.function(func).sig.ret;
    let mut inputs = inputs;
    // Built inputs come first in the output heap, named as the parameters.
    let param_names = &program.function(func).body;
    for construction in inputs.constructions.iter_mut() {
        let param = construction.param as usize;
        let Some(build) = st.builds.iter().find(|b| b.param == param) else {
            continue;
        };
        let SymVal::Ptr(built) = &st.params[build.param] else {
            continue;
        };
        let name = param_names
            .as_ref()
            .and_then(|b| b.locals.get(build.param))
            .map(|l| l.name.clone())
            .unwrap_or_else(|| format!("arg{}", build.param));
        construction.object = solved.reach_named(built, &Type::Struct(build.ty), name);
        for (k, call) in build.calls.iter().enumerate() {
            let (Some(SymVal::Ptr(part)), Some(pointee)) =
                (&call.part, program.function(call.func).sig.ret.pointee())
            else {
                continue;
            };
            if let Some(object) = solved.reach_named(part, pointee, part_name(program, build, k)) {
                construction.parts.push((k as u32, object));
            }
        }
    }
    let mut checks = Vec::new();
    let ret_written = st.ret_written.as_ref().map(|bytes| solved.written(bytes));
    match (&st.ret, ret_ty) {
        (Some(SymVal::Ptr(p)), Type::Pointer(pointee)) => {
            solved.reach(p, pointee, || "result".to_string());
        }
        (Some(SymVal::Bytes(cells)), Type::Struct(_)) => {
            solved.leaf_checks(
                Root::Return,
                vec![],
                ret_ty,
                cells,
                Marks::written(ret_written.as_deref()),
                &mut checks,
            );
        }
        _ => {}
    }
    let ret = (st.ret.as_ref())
        .map(|v| solved.sym_value(v, ret_ty))
        .map(|v| match &ret_written {
            Some(written) => without_unwritten(program, v, ret_ty, written),
            None => v,
        });
    let mut freed_inputs = Vec::new();
    for (idx, object) in st.objects.iter().enumerate() {
        let Some((id, len)) = solved.inputs[idx] else {
            continue;
        };
        let ObjKind::Input { elem, freed, .. } = &object.kind else {
            continue;
        };
        if *freed {
            freed_inputs.push(id);
            continue;
        }
        solved.element_checks(Root::Object(id), elem, len, idx as ObjIdx, &mut checks);
    }
    for (g, global) in program.globals.iter().enumerate() {
        if global.is_const {
            continue;
        }
        let id = GlobalId(g as u32);
        match st.globals[g] {
            Some(obj) => {
                let object = st.object(obj);
                let written =
                    (!config.check_all_globals).then(|| solved.written(object.written.iter()));
                solved.leaf_checks(
                    Root::Global(id),
                    vec![],
                    &global.ty,
                    &object.cells.to_vec(),
                    Marks::written(written.as_deref()),
                    &mut checks,
                );
            }
            None if config.check_all_globals && program.size_of(&global.ty) > 0 => {
                let cells = initial_cells(program, id);
                solved.leaf_checks(
                    Root::Global(id),
                    vec![],
                    &global.ty,
                    &cells,
                    Marks::default(),
                    &mut checks,
                );
            }
            None => {}
        }
    }
    // Checking an allocated object may reach (and number) further ones.
    let mut next = 0;
    while let Some((obj, elem, len)) = solved.allocated(next) {
        let root = Root::Allocated(AllocId(next as u32));
        solved.element_checks(root, &elem, len, obj, &mut checks);
        next += 1;
    }
    let stub_calls = st
        .stub_calls
        .iter()
        .map(|call| StubCall {
            func: call.func,
            args: call
                .args
                .iter()
                .zip(&program.function(call.func).sig.params)
                .map(|(value, ty)| {
                    let checked = matches!(ty, Type::Int(_) | Type::Float(_));
                    checked.then(|| solved.sym_value(value, ty))
                })
                .collect(),
        })
        .collect();
    let allocated = solved
        .heap
        .into_inner()
        .objects
        .into_iter()
        .map(|(_, object)| object)
        .collect();
    // Nothing of the test runs after `exit`: it checks only the status.
    let exits = (st.exit_status.as_ref()).map(|status| values.bits(status) as u8);
    let (ret, mut checks, allocated, freed_inputs) = match exits {
        Some(_) => (None, Vec::new(), Vec::new(), Vec::new()),
        None => (ret, checks, allocated, freed_inputs),
    };
    let unchecked = testcase::bound_checks(&mut checks);
    TestCase {
        func,
        inputs,
        ret,
        exits,
        checks,
        unchecked,
        allocated,
        freed_inputs,
        new_goals,
        path_goals,
        boundaries: Vec::new(),
        stub_calls,
        native_calls: st
            .native_calls
            .iter()
            .map(|call| testcase::NativeCall {
                function: program.function(call.func).name.clone(),
                concretised: call.fixed.clone(),
            })
            .collect(),
    }
}

/// `value`, of type `ty`, with the members none of whose bytes were
/// written (`written[k]` for byte k) made unknown: indeterminate, never
/// checked.
fn without_unwritten(program: &Program, value: Value, ty: &Type, written: &[bool]) -> Value {
    let size = (program.size_of(ty) as usize).min(written.len());
    if !written[..size].iter().any(|&b| b) {
        return Value::Unknown;
    }
    match (ty, value) {
        (Type::Struct(id), Value::Struct(members)) if !program.struct_def(*id).is_union => {
            let def = program.struct_def(*id);
            let members = (def.fields.iter().zip(members))
                .map(|(field, member)| match field.bits {
                    Some(_) => member,
                    None => {
                        let at = (field.offset as usize).min(written.len());
                        without_unwritten(program, member, &field.ty, &written[at..])
                    }
                })
                .collect();
            Value::Struct(members)
        }
        (Type::Array(elem, _), Value::Array(items)) => {
            let esz = program.size_of(elem) as usize;
            let items = (items.into_iter().enumerate())
                .map(|(k, item)| {
                    let at = (k * esz).min(written.len());
                    without_unwritten(program, item, elem, &written[at..])
                })
                .collect();
            Value::Array(items)
        }
        (_, value) => value,
    }
}

impl<'a> Solved<'a> {
    fn new(program: &'a Program, st: &'a State, values: &'a Valuation<'a>, func: FuncId) -> Self {
        let mut inputs = vec![None; st.objects.len()];
        let mut next = 0u32;
        for (idx, object) in st.objects.iter().enumerate() {
            if let ObjKind::Input {
                len,
                is_string,
                elem,
                ..
            } = &object.kind
            {
                let chosen = values.term(len) as u64;
                // An object only ever used at its first element needs no more.
                let len = if object.indexed || *is_string {
                    let elem_size = program.size_of(elem).max(1);
                    let built = object.capacity() / elem_size;
                    // A length no model chose (a candidate's array): as far
                    // as the path reached.
                    let reached = match (len.as_u64(), object.reached) {
                        (Some(_), Some(end)) => end.div_ceil(elem_size),
                        _ => built,
                    };
                    chosen.clamp(1, built.min(reached).max(1))
                } else {
                    1
                };
                inputs[idx] = Some((ObjectId(next), len));
                next += 1;
            }
        }
        let (untouched_streams, untouched): (Vec<LazyIdx>, Vec<LazyIdx>) =
            untouched_params(program, st, func)
                .into_iter()
                .partition(|lazy| {
                    let pointee = st.lazies[*lazy as usize].ty.pointee().cloned();
                    pointee.is_some_and(|ty| is_stream_type(program, &ty))
                });
        let untouched = untouched
            .into_iter()
            .zip(next..)
            .map(|(lazy, id)| (lazy, ObjectId(id)))
            .collect();
        let stream_objects = st.objects.iter().enumerate().filter_map(|(idx, object)| {
            let ObjKind::Stream(stream) = &object.kind else {
                return None;
            };
            let input = !matches!(stream.role, StreamRole::Standard);
            input.then_some(StreamSource::Object(idx as ObjIdx))
        });
        let streams = stream_objects
            .chain(untouched_streams.into_iter().map(StreamSource::Untouched))
            .zip(0..)
            .map(|(source, id)| (source, StreamId(id)))
            .collect();
        Solved {
            program,
            st,
            values,
            func,
            inputs,
            untouched,
            streams,
            heap: RefCell::default(),
        }
    }

    /// The stream input a pointer's `target` designates, if one.
    fn stream_id(&self, target: &Target) -> Option<StreamId> {
        let source = match self.resolved(target) {
            Target::Object(obj) => StreamSource::Object(obj),
            _ => {
                let mut target = target.clone();
                while let Target::Lazy(l) = target {
                    match &self.st.lazies[l as usize].resolution {
                        Some(next) => target = next.clone(),
                        None => break,
                    }
                }
                let Target::Lazy(lazy) = target else {
                    return None;
                };
                StreamSource::Untouched(lazy)
            }
        };
        self.streams
            .iter()
            .find(|(s, _)| *s == source)
            .map(|(_, id)| *id)
    }

    /// Every stream input, as the driver opens it.
    fn input_streams(&self) -> Vec<testcase::InputStream> {
        self.streams
            .iter()
            .filter_map(|(source, _)| match source {
                StreamSource::Object(obj) => match &self.st.object(*obj).kind {
                    ObjKind::Stream(s) => Some(stream::input_stream(self.values, s)),
                    _ => None,
                },
                StreamSource::Untouched(lazy) => Some(stream::untouched_stream(
                    &self.st.lazies[*lazy as usize].path,
                )),
            })
            .collect()
    }

    /// Whether input object `idx` is one element only used as such (named `*p`).
    fn single_input(&self, idx: usize) -> bool {
        matches!(self.inputs[idx], Some((_, 1))) && !self.st.objects[idx].indexed
    }

    /// A check for every written scalar of each of the `len` elements of `elem`
    /// of state object `obj`, rooted at `root` with `Step::Index(element)`.
    fn element_checks(&self, root: Root, elem: &Type, len: u64, obj: ObjIdx, out: &mut Vec<Check>) {
        let object = self.st.object(obj);
        let esz = self.program.size_of(elem) as usize;
        let written = self.written(object.written.iter());
        let unchanged = self.st.unchanged_since_built(obj);
        let marks = Marks {
            written: Some(&written),
            unchanged: unchanged.as_deref(),
        };
        if let Some(flexible) = flexible_member(self.program, elem) {
            let header = vec![Step::Index(0)];
            let cells = &object.cells.to_vec()[..];
            self.leaf_checks(root.clone(), header.clone(), elem, cells, marks, out);
            for k in 0..flexible.count(len * esz as u64) {
                let bytes = flexible.element(k);
                let mut path = header.clone();
                path.extend([Step::Field(flexible.field as u32), Step::Index(k)]);
                let cells = &cells[bytes.clone()];
                self.leaf_checks(
                    root.clone(),
                    path,
                    &flexible.elem,
                    cells,
                    marks.from(bytes.start),
                    out,
                );
            }
            return;
        }
        for i in 0..len as usize {
            let range = i * esz..(i + 1) * esz;
            let Some(cells) = object.cells.get_range(range.clone()) else {
                break;
            };
            let path = vec![Step::Index(i as u64)];
            self.leaf_checks(
                root.clone(),
                path,
                elem,
                &cells,
                marks.from(range.start),
                out,
            );
        }
    }

    /// Which of these bytes the path wrote with the test's inputs.
    fn written<'w>(&self, bytes: impl IntoIterator<Item = &'w Written>) -> Vec<bool> {
        bytes
            .into_iter()
            .map(|w| match w {
                Written::No | Written::Unseen => false,
                Written::Yes => true,
                Written::If(cond) => self.values.holds(cond).unwrap_or(true),
            })
            .collect()
    }

    /// Allocated object number `n`: its state object, element type and length.
    fn allocated(&self, n: usize) -> Option<(ObjIdx, Type, u64)> {
        let heap = self.heap.borrow();
        heap.objects
            .get(n)
            .map(|(obj, a)| (*obj, a.elem.clone(), a.len))
    }

    /// Numbers the live allocated object `p` points to, if new: `name` is the
    /// access path of `p`, `pointee` the type `p` points to.
    fn reach(&self, p: &PtrVal, pointee: &Type, name: impl FnOnce() -> String) {
        let Target::Object(obj) = self.resolved(&p.target) else {
            return;
        };
        let object = self.st.object(obj);
        let ObjKind::Heap {
            freed: false, size, ..
        } = &object.kind
        else {
            return;
        };
        if self.heap.borrow().ids.contains_key(&obj) {
            return;
        }
        // `void *` and pointers to incomplete types see bytes.
        let elem = match pointee {
            Type::Void | Type::Function(_) => Type::Int(IntType::UCHAR),
            _ if self.program.size_of(pointee) == 0 => Type::Int(IntType::UCHAR),
            _ => pointee.clone(),
        };
        let bytes = (self.values.bits(size) as u64).min(object.capacity());
        let len = (bytes / self.program.size_of(&elem)).max(1);
        // Named before the table is borrowed: naming reads it.
        let name = name();
        let mut heap = self.heap.borrow_mut();
        let id = AllocId(heap.objects.len() as u32);
        heap.ids.insert(obj, id);
        heap.objects
            .push((obj, AllocatedObject { name, elem, len }));
    }

    /// [`Self::reach`], giving the number of the object `p` points to.
    fn reach_named(&self, p: &PtrVal, pointee: &Type, name: String) -> Option<AllocId> {
        self.reach(p, pointee, || name);
        let Target::Object(obj) = self.resolved(&p.target) else {
            return None;
        };
        self.heap.borrow().ids.get(&obj).copied()
    }

    /// The object an untouched pointer parameter's `target` is in the test.
    fn untouched_object(&self, target: &Target) -> Option<ObjectId> {
        let mut target = target.clone();
        while let Target::Lazy(l) = target {
            match &self.st.lazies[l as usize].resolution {
                Some(next) => target = next.clone(),
                None => {
                    return self
                        .untouched
                        .iter()
                        .find(|(lazy, _)| *lazy == l)
                        .map(|(_, id)| *id)
                }
            }
        }
        None
    }

    /// `target` with decided lazy pointers followed.
    fn resolved(&self, target: &Target) -> Target {
        let mut target = target.clone();
        while let Target::Lazy(l) = target {
            target = self.st.lazies[l as usize]
                .resolution
                .clone()
                .unwrap_or(Target::Null);
        }
        target
    }

    /// The C expression of the scalar at `path` from `root`, e.g.
    /// `result->next`, `(*head)->next`, `g.list`, `a[2].key`.
    fn access_name(&self, root: &Root, path: &[Step]) -> String {
        let program = self.program;
        // The root expression, its type, and the steps left to apply.
        let (mut access, mut ty, steps) = match (root, path.split_first()) {
            (Root::Return, _) => {
                let ret = &program.function(self.func).sig.ret;
                (Access::Plain("result".to_string()), ret.clone(), path)
            }
            (Root::Global(id), _) => {
                let global = program.global(*id);
                (Access::Plain(global.name.clone()), global.ty.clone(), path)
            }
            (Root::Object(id), Some((Step::Index(i), rest))) => {
                let Some(idx) = self
                    .inputs
                    .iter()
                    .position(|o| matches!(o, Some((oid, _)) if oid == id))
                else {
                    return String::new();
                };
                let ObjKind::Input { origin, elem, .. } = &self.st.objects[idx].kind else {
                    return String::new();
                };
                let pointer = &self.st.lazies[*origin as usize].path;
                let single = self.single_input(idx);
                (Access::element(pointer, single, *i), elem.clone(), rest)
            }
            (Root::Allocated(id), Some((Step::Index(i), rest))) => {
                let heap = self.heap.borrow();
                let Some((_, object)) = heap.objects.get(id.0 as usize) else {
                    return String::new();
                };
                let access = Access::element(&object.name, object.len == 1, *i);
                (access, object.elem.clone(), rest)
            }
            _ => return String::new(),
        };
        for step in steps {
            match (step, &ty) {
                (Step::Field(n), Type::Struct(sid)) => {
                    let Some(field) = program.struct_def(*sid).fields.get(*n as usize) else {
                        break;
                    };
                    access = access.member(&field.name);
                    ty = field.ty.clone();
                }
                (Step::Index(i), Type::Array(elem, _)) => {
                    access = access.index(*i);
                    ty = elem.as_ref().clone();
                }
                _ => break,
            }
        }
        access.text()
    }

    fn inputs(&self) -> Inputs {
        let program = self.program;
        let st = self.st;
        let mut out = Inputs {
            fresh_statics: st.fresh_statics.clone(),
            ..Inputs::default()
        };
        let params = &program.function(self.func).sig.params;
        let extra_args = st.va_args.iter().map(|(v, ty)| (v, ty));
        out.args = st
            .params
            .iter()
            .zip(params)
            .chain(extra_args)
            .map(|(v, ty)| self.sym_value(v, ty))
            .collect();
        out.earlier_calls = st
            .earlier_calls
            .iter()
            .map(|args| ApiCall {
                func: self.func,
                args: args
                    .iter()
                    .zip(params)
                    .map(|(v, ty)| self.sym_value(v, ty))
                    .collect(),
                part: None,
                initialises: None,
            })
            .collect();
        // A build without calls gave NULL.
        for build in st
            .builds
            .iter()
            .filter(|b| !b.calls.is_empty() || b.member.is_some())
        {
            let param = build.param as u32;
            out.args[build.param] = Value::Constructed { param };
            let calls = build
                .calls
                .iter()
                .enumerate()
                .map(|(k, call)| {
                    let types = &program.function(call.func).sig.params;
                    let args = call
                        .args
                        .iter()
                        .zip(types)
                        .enumerate()
                        .map(|(i, (v, ty))| {
                            let part = call.part_args.iter().find(|(arg, _)| *arg == i);
                            let sets_up = k == 0 && call.initialises.is_some();
                            match (k, i, part) {
                                (_, _, Some(&(_, made_by))) => Value::Part {
                                    param,
                                    call: made_by as u32,
                                },
                                // An initialiser's storage, when it makes a part.
                                (_, 0, _) if call.initialises.is_some() && call.part.is_some() => {
                                    Value::Part {
                                        param,
                                        call: k as u32,
                                    }
                                }
                                (1.., 0, _) if call.part.is_none() => Value::Constructed { param },
                                (0, 0, _) if sets_up => Value::Constructed { param },
                                _ if ty.is_string() => self.sym_value(v, ty),
                                // A scratch variable the call writes its status to.
                                _ if ty.pointee().is_some() => Value::Unknown,
                                _ => self.sym_value(v, ty),
                            }
                        })
                        .collect();
                    ApiCall {
                        func: call.func,
                        args,
                        part: call.part.as_ref().map(|_| part_name(program, build, k)),
                        initialises: call.initialises,
                    }
                })
                .collect();
            out.constructions.push(Construction {
                param,
                calls,
                object: None,
                member_of: build
                    .member
                    .clone()
                    .flatten()
                    .map(|(root, path)| (root as u32, path)),
                parts: Vec::new(),
            });
        }
        for slot in &st.globals {
            let Some(obj) = slot else { continue };
            let object = st.object(*obj);
            if let ObjKind::Global { id, is_input: true } = object.kind {
                out.globals.push((
                    id,
                    self.cells_value(&object.initial.to_vec(), &program.global(id).ty),
                ));
            }
        }
        let value_ty = EnvironmentVariable::value_type();
        for (name, obj) in &st.environment {
            out.environment.push(EnvironmentVariable {
                name: name.clone(),
                value: self.cells_value(&st.object(*obj).initial.to_vec(), &value_ty),
            });
        }
        let provided = self.provided_lengths(&out.args);
        for (idx, object) in st.objects.iter().enumerate() {
            let (Some((id, len)), ObjKind::Input { origin, elem, .. }) =
                (self.inputs[idx], &object.kind)
            else {
                continue;
            };
            let esz = program.size_of(elem) as usize;
            let chosen = len;
            let len = provided
                .iter()
                .filter(|(object, _)| *object == id)
                .map(|(_, bytes)| bytes.div_ceil(esz as u64))
                .fold(chosen, u64::max);
            let path = &st.lazies[*origin as usize].path;
            if let Some(flexible) = flexible_member(program, elem) {
                // One struct, its flexible array member holding the bytes after.
                let count = flexible.count(len * esz as u64);
                let mut bytes = object.initial.to_vec();
                bytes.resize(len as usize * esz, Cell::zero());
                let elements: Vec<Value> = (0..count)
                    .map(|k| self.cells_value(&bytes[flexible.element(k)], &flexible.elem))
                    .collect();
                // The array may hold what the path read where the members
                // before it hold nothing it did (a header it never looked at).
                let fields = match elem {
                    Type::Struct(id) => program.struct_def(*id).fields.len(),
                    _ => 0,
                };
                let header = match self.cells_value(&bytes, elem) {
                    Value::Struct(mut members) => {
                        members[flexible.field] = Value::Array(elements);
                        Value::Struct(members)
                    }
                    _ if elements.iter().any(|e| *e != Value::Unknown) => {
                        let mut members = vec![Value::Unknown; fields];
                        members[flexible.field] = Value::Array(elements);
                        Value::Struct(members)
                    }
                    unknown => unknown,
                };
                out.objects.push(InputObject {
                    name: format!("*{path}"),
                    elem: elem.clone(),
                    len: 1,
                    init: vec![header],
                    flexible_len: count,
                });
                continue;
            }
            let mut init: Vec<Value> = (0..chosen as usize)
                .map(|i| {
                    let element = object.initial.get_range(i * esz..(i + 1) * esz);
                    self.cells_value(&element.expect("an element of the object"), elem)
                })
                .collect();
            // Elements past the path's reads: zero, as calloc gives them.
            let zero = self.cells_value(&zero_cells(esz as u64), elem);
            init.resize(len as usize, zero);
            let name = if len == 1 && self.single_input(idx) {
                format!("*{path}")
            } else {
                path.to_string()
            };
            out.objects.push(InputObject {
                name,
                elem: elem.clone(),
                len,
                init,
                flexible_len: 0,
            });
        }
        self.untouched_objects(&mut out);
        out.streams = self.input_streams();
        out.failing_allocations = st.failing_allocations.clone();
        for (k, call) in st.stub_calls.iter().enumerate() {
            let func = call.func;
            let at = match out.stubs.iter().position(|s| s.func == func) {
                Some(at) => at,
                None if call.result.is_none() && call.writes.is_empty() => continue,
                None => {
                    out.stubs.push(Stub {
                        func,
                        returns: Vec::new(),
                        writes: Vec::new(),
                    });
                    out.stubs.len() - 1
                }
            };
            // The call's number among the calls of its function.
            let number = st.stub_calls[..k].iter().filter(|c| c.func == func).count();
            for (arg, cells) in &call.writes {
                let bytes = cells
                    .iter()
                    .map(|cell| cell_byte(cell).map_or(0, |b| self.values.bits(&b) as u8))
                    .collect();
                let pointers = (cells.iter().enumerate())
                    .filter_map(|(k, cell)| match cell {
                        Cell::Ptr { ptr, idx: 0 } => Some(StubPointer {
                            offset: k as u64,
                            value: self.ptr_value(ptr),
                        }),
                        _ => None,
                    })
                    .filter(|p| !matches!(p.value, Value::Null | Value::Unknown))
                    .collect();
                out.stubs[at].writes.push(StubWrite {
                    call: number,
                    arg: *arg,
                    bytes,
                    pointers,
                });
            }
            if let Some(value) = &call.result {
                let v = self.sym_value(value, &program.function(func).sig.ret);
                out.stubs[at].returns.push(v);
                out.stub_order.push(func);
            }
        }
        out
    }

    /// The bytes each input object must hold for the capacities the test's
    /// arguments claim (`copy(buf, 16)` needs 16 bytes at `buf`): the path
    /// never reads past what it chose, but a caller provides what it claims.
    /// A claim beyond [`MAX_PROVIDED_BYTES`] is left as chosen.
    fn provided_lengths(&self, args: &[Value]) -> Vec<(ObjectId, u64)> {
        let program = self.program;
        let params = &program.function(self.func).sig.params;
        let mut provided = Vec::new();
        for capacity in ir::capacities(program, self.func) {
            let Some(pointee) = params[capacity.pointer].pointee() else {
                continue;
            };
            let (Value::Pointer { object, offset }, Value::Int { ty, bits }) =
                (&args[capacity.pointer], &args[capacity.count])
            else {
                continue;
            };
            let count = crate::value::sign_extend(*bits, ty.bits.into(), ty.signed);
            let unit = if capacity.in_bytes {
                1
            } else {
                program.size_of(pointee).max(1)
            };
            let bytes = i128::from(*offset) + count.saturating_mul(i128::from(unit));
            if count > 0 && bytes <= MAX_PROVIDED_BYTES {
                provided.push((*object, bytes as u64));
            }
        }
        provided
    }

    /// The zeroed objects untouched pointer parameters point to.
    fn untouched_objects(&self, out: &mut Inputs) {
        for (lazy, _) in &self.untouched {
            let lazy = &self.st.lazies[*lazy as usize];
            let Some(pointee) = lazy.ty.pointee() else {
                continue;
            };
            let zero = vec![Cell::zero(); self.program.size_of(pointee) as usize];
            out.objects.push(InputObject {
                name: format!("*{}", lazy.path),
                elem: pointee.clone(),
                len: 1,
                init: vec![self.cells_value(&zero, pointee)],
                flexible_len: 0,
            });
        }
    }

    fn sym_value(&self, v: &SymVal, ty: &Type) -> Value {
        match v {
            SymVal::Int(bv) => int_value(self.values, bv, ty),
            SymVal::Ptr(p) => self.ptr_value(p),
            SymVal::Bytes(cells) => self.cells_value(cells, ty),
        }
    }

    /// A pointer as test data: allocated objects must have been reached (see
    /// [`Self::reach`]); pointers to freed or stack memory are unknown.
    fn ptr_value(&self, p: &PtrVal) -> Value {
        let offset = self.values.bits(&p.offset) as u64;
        if let Some(stream) = self.stream_id(&p.target) {
            return Value::Stream(stream);
        }
        if let Some(object) = self.untouched_object(&p.target) {
            return Value::Pointer { object, offset };
        }
        match self.resolved(&p.target) {
            Target::Null if offset == 0 => Value::Null,
            Target::Object(o) => match self.inputs.get(o as usize).copied().flatten() {
                Some((object, _)) => Value::Pointer { object, offset },
                None => match self.heap.borrow().ids.get(&o) {
                    Some(&object) => Value::Allocated { object, offset },
                    None => Value::Unknown,
                },
            },
            Target::Global(global) => Value::GlobalPointer { global, offset },
            Target::Func(f) => Value::Func(f),
            _ => Value::Unknown,
        }
    }

    /// The value of type `ty` held by `cells`.
    fn cells_value(&self, cells: &[Cell], ty: &Type) -> Value {
        let program = self.program;
        match ty {
            Type::Int(_) | Type::Float(_) => cells_to_int(cells)
                .map(|bv| int_value(self.values, &bv, ty))
                .unwrap_or(Value::Unknown),
            Type::Pointer(_) => cells_to_ptr(cells)
                .map(|p| self.ptr_value(&p))
                .unwrap_or(Value::Unknown),
            Type::Struct(id) => {
                let def = program.struct_def(*id);
                let fields = def
                    .fields
                    .iter()
                    .map(|f| self.field_value(cells, f))
                    .collect();
                known_parts(fields, Value::Struct)
            }
            Type::Array(elem, Some(n)) => {
                let esz = program.size_of(elem) as usize;
                let items = (0..*n as usize)
                    .map(|i| match cells.get(i * esz..(i + 1) * esz) {
                        Some(part) => self.cells_value(part, elem),
                        None => Value::Unknown,
                    })
                    .collect();
                known_parts(items, Value::Array)
            }
            _ => Value::Unknown,
        }
    }

    /// The value of member `field` of the struct or union held by `cells`.
    fn field_value(&self, cells: &[Cell], field: &ir::Field) -> Value {
        let Some(part) = cells.get(field_bytes(self.program, field)) else {
            return Value::Unknown;
        };
        match (field.bits, &field.ty) {
            (Some(bits), Type::Int(declared)) => cells_to_int(part)
                .map(|storage| {
                    let value =
                        bit_field_get(&storage, bits, declared.bits.into(), declared.signed);
                    int_value(self.values, &value, &field.ty)
                })
                .unwrap_or(Value::Unknown),
            _ => self.cells_value(part, &field.ty),
        }
    }

    /// Marks in `out`, from byte `at`, the bytes of member `field` of
    /// the struct in `cells` a check reads.
    fn field_readable_bytes(&self, field: &ir::Field, cells: &[Cell], at: usize, out: &mut [bool]) {
        let offset = field.offset as usize;
        if field.bits.is_none() {
            if let Some(part) = cells.get(offset..) {
                self.readable_bytes(&field.ty, part, at + offset, out);
            }
        } else if self.field_value(cells, field) != Value::Unknown {
            for k in field_bytes(self.program, field) {
                if let Some(slot) = out.get_mut(at + k) {
                    *slot = true;
                }
            }
        }
    }

    /// The members through which a union's written bytes are checked: the
    /// first member that reads every written byte some member can read, else
    /// all of them (each check then covers what it can).
    fn union_members_to_check(
        &self,
        def: &ir::StructDef,
        cells: &[Cell],
        written: Option<&[bool]>,
    ) -> Vec<usize> {
        let readable_by = |f: &ir::Field| {
            let mut readable = vec![false; cells.len()];
            self.field_readable_bytes(f, cells, 0, &mut readable);
            readable
        };
        let by_member: Vec<Vec<bool>> = def.fields.iter().map(readable_by).collect();
        let to_check: Vec<bool> = (0..cells.len())
            .map(|k| {
                written.is_none_or(|w| w.get(k).copied().unwrap_or(false))
                    && by_member.iter().any(|r| r[k])
            })
            .collect();
        let covering = by_member
            .iter()
            .position(|r| to_check.iter().zip(r).all(|(need, has)| !need || *has));
        match covering {
            Some(n) => vec![n],
            None => (0..def.fields.len()).collect(),
        }
    }

    /// Marks in `out`, from byte `at`, the bytes of `cells` a check of type
    /// `ty` reads: those of its scalars with a known value.
    fn readable_bytes(&self, ty: &Type, cells: &[Cell], at: usize, out: &mut [bool]) {
        let program = self.program;
        let size = program.size_of(ty) as usize;
        let Some(cells) = cells.get(..size) else {
            return;
        };
        match ty {
            Type::Int(_) | Type::Float(_) | Type::Pointer(_)
                if self.cells_value(cells, ty) != Value::Unknown =>
            {
                for slot in out.iter_mut().skip(at).take(size) {
                    *slot = true;
                }
            }
            Type::Struct(id) => {
                for f in &program.struct_def(*id).fields {
                    self.field_readable_bytes(f, cells, at, out);
                }
            }
            Type::Array(elem, Some(len)) => {
                let esz = program.size_of(elem) as usize;
                for i in 0..*len as usize {
                    self.readable_bytes(elem, &cells[i * esz..], at + i * esz, out);
                }
            }
            _ => {}
        }
    }

    /// A check for every scalar of `ty` in `cells` that was written (all when
    /// `written` is `None`). A union is checked through the member that reads
    /// all its written bytes (see [`Self::union_members_to_check`]); `long double`s are skipped.
    fn leaf_checks(
        &self,
        root: Root,
        path: Vec<Step>,
        ty: &Type,
        cells: &[Cell],
        marks: Marks,
        out: &mut Vec<Check>,
    ) {
        let program = self.program;
        let size = program.size_of(ty) as usize;
        if cells.len() < size || marks.none_written(0..size) {
            return;
        }
        match ty {
            Type::Int(_) | Type::Float(_) | Type::Pointer(_) => {
                if let (Type::Pointer(pointee), Ok(p)) = (ty, cells_to_ptr(&cells[..size])) {
                    self.reach(&p, pointee, || self.access_name(&root, &path));
                }
                let expected = self.cells_value(&cells[..size], ty);
                // What the call left is not checked, but for a pointer to
                // an allocated object: the check names it, and the test frees it.
                let names_an_object = matches!(expected, Value::Allocated { .. });
                if marks.all_unchanged(0..size) && !names_an_object {
                    return;
                }
                if expected != Value::Unknown {
                    out.push(Check {
                        root,
                        path,
                        ty: ty.clone(),
                        expected,
                    });
                }
            }
            Type::Struct(id) => {
                let def = program.struct_def(*id);
                let members = if def.is_union {
                    self.union_members_to_check(def, &cells[..size], marks.written)
                } else {
                    (0..def.fields.len()).collect()
                };
                for n in members {
                    let f = &def.fields[n];
                    // Tests check what the code's users see, not the C library's insides.
                    if f.is_reserved() {
                        continue;
                    }
                    let at = f.offset as usize;
                    let mut p = path.clone();
                    p.push(Step::Field(n as u32));
                    if f.bits.is_some() {
                        let bytes = field_bytes(program, f);
                        let touched = !marks.none_written(bytes.clone())
                            && !marks.all_unchanged(bytes.clone());
                        let expected = self.field_value(&cells[..size], f);
                        if touched && expected != Value::Unknown {
                            out.push(Check {
                                root: root.clone(),
                                path: p,
                                ty: f.ty.clone(),
                                expected,
                            });
                        }
                        continue;
                    }
                    self.leaf_checks(root.clone(), p, &f.ty, &cells[at..], marks.from(at), out);
                }
            }
            Type::Array(elem, Some(len)) => {
                let esz = program.size_of(elem) as usize;
                for i in 0..*len as usize {
                    let at = i * esz;
                    let mut p = path.clone();
                    p.push(Step::Index(i as u64));
                    self.leaf_checks(root.clone(), p, elem, &cells[at..], marks.from(at), out);
                }
            }
            _ => {}
        }
    }
}

/// Which bytes of a value its test may check: those the path wrote
/// (`written`, every byte when `None`), and of an object the builds made,
/// those the call under test changed (`unchanged`: the bytes it left).
#[derive(Clone, Copy, Default)]
struct Marks<'m> {
    written: Option<&'m [bool]>,
    unchanged: Option<&'m [bool]>,
}

impl<'m> Marks<'m> {
    fn written(written: Option<&'m [bool]>) -> Self {
        Marks {
            written,
            unchanged: None,
        }
    }

    /// The marks of the bytes from `at` on.
    fn from(self, at: usize) -> Self {
        Marks {
            written: self.written.map(|w| &w[at.min(w.len())..]),
            unchanged: self.unchanged.map(|u| &u[at.min(u.len())..]),
        }
    }

    /// Whether the path wrote none of these bytes.
    fn none_written(&self, bytes: std::ops::Range<usize>) -> bool {
        self.written
            .is_some_and(|w| !bytes.into_iter().any(|k| w.get(k) == Some(&true)))
    }

    /// Whether the call under test left all of these bytes of a built object.
    fn all_unchanged(&self, bytes: std::ops::Range<usize>) -> bool {
        self.unchanged
            .is_some_and(|u| bytes.into_iter().all(|k| u.get(k) == Some(&true)))
    }
}

/// A C expression under construction. `*p` stays apart so that a member of
/// it reads `p->m`.
enum Access {
    Plain(String),
    /// `*p`, holding `p` ready to be an operand.
    Deref(String),
}

impl Access {
    /// Element `i` of the object pointer `p` points to: `*p` when the object
    /// is one element used as such, else `p[i]`.
    fn element(pointer: &str, single: bool, i: u64) -> Access {
        if single {
            Access::Deref(operand(pointer))
        } else {
            Access::Plain(format!("{}[{i}]", operand(pointer)))
        }
    }

    fn member(self, name: &str) -> Access {
        match self {
            Access::Deref(p) => Access::Plain(format!("{p}->{name}")),
            Access::Plain(e) => Access::Plain(format!("{}.{name}", operand(&e))),
        }
    }

    fn index(self, i: u64) -> Access {
        let base = match self {
            Access::Deref(p) => format!("(*{p})"),
            Access::Plain(e) => operand(&e),
        };
        Access::Plain(format!("{base}[{i}]"))
    }

    fn text(self) -> String {
        match self {
            Access::Deref(p) => format!("*{p}"),
            Access::Plain(e) => e,
        }
    }
}

/// `e` ready to take a postfix operator: parenthesized when it is a prefix expression.
fn operand(e: &str) -> String {
    if e.starts_with('*') || e.starts_with('&') {
        format!("({e})")
    } else {
        e.to_string()
    }
}

/// The model's value of a number of type `ty` (`long double` is unknown).
/// The bytes of its struct a member occupies (a bit-field: those holding its bits).
fn field_bytes(program: &Program, field: &ir::Field) -> std::ops::Range<usize> {
    let size = match field.bits {
        Some(bits) => bits.storage_bytes(),
        None => program.size_of(&field.ty),
    };
    field.offset as usize..(field.offset + size) as usize
}

fn int_value(values: &Valuation, bv: &Word, ty: &Type) -> Value {
    match (ty, ty.as_ieee_float()) {
        (Type::Int(it), _) => Value::Int {
            ty: *it,
            bits: values.bits(bv),
        },
        (_, Some(kind)) => Value::Float {
            kind,
            bits: values.bits(bv) as u64,
        },
        _ => Value::Unknown,
    }
}

/// The values of a test: the solver's model, except that whole integer
/// variables the path never constrains (any value of theirs takes the same
/// path) get small distinct nonzero values instead of the model's 0: a test
/// on 0 cannot tell `x * 2` from `x / 2`, nor `x >> 3` from `x >> 4`.
pub struct Valuation<'a> {
    model: &'a Model,
    chosen: Vec<(BV, BV)>,
}

/// The values free variables take, in order: small, distinct, nonzero;
/// characters are letters.
const FREE_VALUES: [u64; 8] = [7, 3, 13, 5, 29, 11, 2, 19];
const FREE_CHARACTERS: &[u8] = b"abcdefgh";

impl<'a> Valuation<'a> {
    /// The model with the free variables `free` (see [`Valuation`]).
    pub fn new(model: &'a Model, free: &[&InputSymbol]) -> Self {
        let chosen = free
            .iter()
            .enumerate()
            .map(|(k, input)| {
                let bits = input.value.get_size();
                let value = match bits {
                    8 => u64::from(FREE_CHARACTERS[k % FREE_CHARACTERS.len()]),
                    _ => FREE_VALUES[k % FREE_VALUES.len()],
                };
                (input.value.clone(), BV::from_u64(value, bits))
            })
            .collect();
        Valuation { model, chosen }
    }

    /// These values with each of `symbols` 0 instead.
    pub fn with_zeros(mut self, symbols: Vec<BV>) -> Self {
        for symbol in symbols {
            let zero = BV::from_u64(0, symbol.get_size());
            self.chosen.push((symbol, zero));
        }
        self
    }

    /// The model as it is.
    pub fn of(model: &'a Model) -> Self {
        Valuation {
            model,
            chosen: Vec::new(),
        }
    }

    fn pairs(&self) -> Vec<(&BV, &BV)> {
        self.chosen.iter().map(|(from, to)| (from, to)).collect()
    }

    /// The value of a word (unconstrained parts are 0).
    pub fn bits(&self, word: &Word) -> u128 {
        match word {
            Word::Known { bits, .. } => *bits,
            Word::Term(term) => self.term(term),
        }
    }

    /// The value of a bit-vector term (unconstrained parts are 0).
    pub fn term(&self, term: &BV) -> u128 {
        eval_term(self.model, &term.substitute(&self.pairs()))
    }

    pub fn holds(&self, cond: &Bool) -> Option<bool> {
        self.model
            .eval(&cond.substitute(&self.pairs()), true)
            .and_then(|b| b.as_bool())
    }
}

/// A struct or array value of `parts`, or unknown when no part is known
/// (no path read any of it): a large input the path barely used stays small.
fn known_parts(parts: Vec<Value>, whole: fn(Vec<Value>) -> Value) -> Value {
    match parts.iter().all(|p| *p == Value::Unknown) {
        true => Value::Unknown,
        false => whole(parts),
    }
}

/// The input bytes a stub wrote through a `char *` or `void *` (one
/// symbol each) after the first that `values` makes 0: the string's end.
pub fn past_string_ends(st: &State, values: &Valuation) -> Vec<BV> {
    let mut past = Vec::new();
    for (_, cells) in st.stub_calls.iter().flat_map(|call| &call.writes) {
        let bytes: Vec<&BV> = cells
            .iter()
            .filter_map(|cell| match cell {
                Cell::Byte {
                    src: Word::Term(term),
                    idx: 0,
                } if term.get_size() == 8 => Some(term),
                _ => None,
            })
            .collect();
        // Typed writes (members) are left as they are.
        if bytes.len() != cells.len() {
            continue;
        }
        if let Some(end) = bytes.iter().position(|b| values.term(b) == 0) {
            past.extend(bytes[end + 1..].iter().map(|b| (*b).clone()));
        }
    }
    past
}

/// The model's value of a word (unconstrained parts are 0).
pub fn eval_bits(model: &Model, word: &Word) -> u128 {
    match word {
        Word::Known { bits, .. } => *bits,
        Word::Term(term) => eval_term(model, term),
    }
}

/// The model's value of a bit-vector term (unconstrained parts are 0).
pub fn eval_term(model: &Model, term: &BV) -> u128 {
    model
        .eval(term, true)
        .and_then(|v| crate::value::concrete_term(&v))
        .unwrap_or(0)
}

/// The name of the part call `call` of `build` makes: the parameter of the
/// later call it is passed to (`item`).
fn part_name(program: &Program, build: &Build, call: usize) -> String {
    build
        .calls
        .iter()
        .find_map(|later| {
            let (arg, _) = later
                .part_args
                .iter()
                .find(|(_, made_by)| *made_by == call)?;
            let body = program.function(later.func).body.as_ref()?;
            Some(body.locals.get(*arg)?.name.clone())
        })
        .unwrap_or_else(|| "part".to_string())
}

/// The lazy pointers of the parameters a path never dereferenced nor
/// compared, which in the test point to a zeroed object of their type, not
/// NULL, unless the function itself tests them against NULL: a caller
/// passes such a function a valid pointer (`int *length` of a parser that
/// stops before writing it).
fn untouched_params(program: &Program, st: &State, func: FuncId) -> Vec<LazyIdx> {
    let params = &program.function(func).sig.params;
    let mut found = Vec::new();
    for (param, (value, ty)) in st.params.iter().zip(params).enumerate() {
        let (SymVal::Ptr(p), Some(pointee)) = (value, ty.pointee()) else {
            continue;
        };
        let Target::Lazy(lazy) = p.target else {
            continue;
        };
        let sized =
            !matches!(pointee, Type::Function(_) | Type::Void) && program.size_of(pointee) > 0;
        let built = st.builds.iter().any(|b| b.param == param);
        if st.lazies[lazy as usize].resolution.is_none()
            && sized
            && !built
            && !ir::checks_null(program, func, param)
        {
            found.push(lazy);
        }
    }
    found
}
