//! Inputs: fresh symbols for parameters and input objects named by access
//! path, lazy materialization of input pointers, globals and string literals.

use super::api::{self, Apis};
use super::invariant::{self, Invariant};
use super::Machine;
use super::{unsupported, Exec, Stop};
use crate::config::EngineConfig;
use crate::memory::{self, initial_cells, zero_cells};
use crate::state::{
    is_standard_stream, is_stream_type, ChunkedVec, DeferredInput, Frame, NativeInputs, ObjKind,
    Object, ReturnTo, State, StateId, Written,
};
use crate::value::{
    bit_field_put, bv_u, cell_byte, cells_to_int, int_cells, ptr_cells, value_cells, Cell, Cond,
    LazyIdx, ObjIdx, PtrVal, SymVal, Target, Word,
};
use ir::{FuncId, GlobalId, IntType, Layout, Program, StringId, StructId, Type};
use std::collections::BTreeSet;
use testcase::Bound;
use z3::ast::{Bool, BV};

/// Fresh contents for a value of type `ty` reached by access path `path`.
/// `sep` joins the first level of member names (`->` for the first element
/// of a pointed-to struct, `.` otherwise). Pointers become lazy inputs.
pub fn fresh_cells(
    program: &Program,
    st: &mut State,
    ty: &Type,
    path: &str,
    sep: &str,
) -> Vec<Cell> {
    let size = program.size_of(ty) as usize;
    let mut cells = vec![Cell::Deferred; size];
    make_deferred(program, st, (ty, path, sep), 0..size, &mut cells);
    cells
}

/// Makes fresh contents for the `Cell::Deferred` bytes of `want` in
/// `cells`, the bytes of a value of `ty` named `path` (see [`fresh_cells`]):
/// each scalar, pointer or union byte that overlaps `want` becomes one
/// fresh input (its bytes already written keep their value), and padding
/// becomes 0.
fn make_deferred(
    program: &Program,
    st: &mut State,
    named: (&Type, &str, &str),
    want: std::ops::Range<usize>,
    cells: &mut [Cell],
) {
    let want = want.start..want.end.min(cells.len());
    if !cells[want.clone()].iter().any(Cell::is_deferred) {
        return;
    }
    make_value(program, st, named, 0, &want, cells);
    for cell in &mut cells[want] {
        if cell.is_deferred() {
            *cell = Cell::zero();
        }
    }
}

/// [`make_deferred`] for the value of `ty` at byte `at` of `cells`.
fn make_value(
    program: &Program,
    st: &mut State,
    (ty, path, sep): (&Type, &str, &str),
    at: usize,
    want: &std::ops::Range<usize>,
    cells: &mut [Cell],
) {
    let size = program.size_of(ty) as usize;
    let here = at..(at + size).min(cells.len());
    if here.start >= want.end
        || here.end <= want.start
        || !cells[here.clone()].iter().any(Cell::is_deferred)
    {
        return;
    }
    let fill = |cells: &mut [Cell], made: Vec<Cell>| {
        for (slot, cell) in cells[here.clone()].iter_mut().zip(made) {
            if slot.is_deferred() {
                *slot = cell;
            }
        }
    };
    match ty {
        // Integers, floats and doubles: one named number.
        _ if let Some(value) = st.fresh_scalar(path, ty) => fill(cells, int_cells(&value)),
        Type::Pointer(_) => {
            let lazy = st.add_lazy(path.to_string(), ty.clone());
            let pointer = ptr_cells(
                PtrVal::to(Target::Lazy(lazy)),
                program.data_model.pointer_bytes(),
            );
            fill(cells, pointer);
        }
        Type::Array(elem, Some(n)) => {
            let esz = program.size_of(elem) as usize;
            if esz == 0 {
                return;
            }
            let first = want.start.saturating_sub(at) / esz;
            let last = (want.end - at).div_ceil(esz).min(*n as usize);
            for i in first..last {
                let name = format!("{path}[{i}]");
                make_value(program, st, (elem, &name, "."), at + i * esz, want, cells);
            }
        }
        Type::Struct(id) if !program.struct_def(*id).is_union => {
            let def = program.struct_def(*id);
            // Bit-fields share bytes: all of them are made together (each
            // putting its bits into what is there), while all their bytes
            // are still to make, lest one be left 0.
            let storage_of = |f: &ir::Field| {
                f.bits.map(|bits| {
                    let start = at + f.offset as usize;
                    start..start + bits.storage_bytes() as usize
                })
            };
            let storages: Vec<_> = def.fields.iter().filter_map(storage_of).collect();
            let make_bits = storages
                .iter()
                .any(|r| r.start < want.end && r.end > want.start)
                && storages.iter().all(|r| {
                    cells
                        .get(r.clone())
                        .is_some_and(|bytes| bytes.iter().all(Cell::is_deferred))
                });
            if make_bits {
                for range in &storages {
                    cells[range.clone()].fill(Cell::zero());
                }
            }
            for field in &def.fields {
                let start = at + field.offset as usize;
                let end = start + program.size_of(&field.ty) as usize;
                if field.bits.is_none() && (start >= want.end || end <= want.start) {
                    continue;
                }
                let member = format!("{path}{sep}{}", field.name);
                match (field.bits, storage_of(field)) {
                    (Some(bits), Some(storage)) if make_bits => {
                        let value =
                            st.fresh_input(&member, bits.width.into(), !field.ty.is_unsigned_int());
                        if let Ok(old) = cells_to_int(&cells[storage.clone()]) {
                            let updated = int_cells(&bit_field_put(&old, bits, &value));
                            for (slot, cell) in cells[storage].iter_mut().zip(updated) {
                                *slot = cell;
                            }
                        }
                    }
                    (Some(_), _) => {}
                    (None, _) => {
                        make_value(program, st, (&field.ty, &member, "."), start, want, cells)
                    }
                }
            }
        }
        // Unions and anything else: exact but anonymous bytes.
        _ => {
            let from = here.start.max(want.start);
            let bytes = &mut cells[from..here.end.min(want.end)];
            for (k, cell) in (from..).zip(bytes) {
                if cell.is_deferred() {
                    *cell = Cell::Byte {
                        src: st.fresh_input(&format!("{path}.byte{}", k - at), 8, false),
                        idx: 0,
                    };
                }
            }
        }
    }
}

/// The state at the entry of `func`, parameters as fresh inputs; an input
/// of a type with a declared invariant first goes through its predicate.
pub(super) fn initial_state(
    program: &Program,
    func: FuncId,
    invariants: &[Invariant],
    apis: &Apis,
    id: StateId,
    native_inputs: Option<NativeInputs>,
) -> Exec<State> {
    let f = program.function(func);
    let Some(body) = &f.body else {
        return unsupported("a function without a body");
    };
    let forwarded = f
        .sig
        .params
        .iter()
        .filter(|ty| program.is_va_list_pointer(ty));
    if forwarded.count() > 1 {
        return unsupported("more than one `va_list` parameter");
    }
    let mut st = State::new(program, id);
    st.native_inputs = native_inputs;
    let mut params = Vec::new();
    for (i, ty) in f.sig.params.iter().enumerate() {
        let name = body
            .locals
            .get(i)
            .map(|l| l.name.clone())
            .unwrap_or_else(|| format!("arg{i}"));
        if let Some(node) = member_type(program, apis, &f.sig.params, i) {
            st.builds.push(api::new_member(i, node));
            params.push(api::placeholder());
            continue;
        }
        // What the function sets up itself gets storage, not a built value.
        if let Some(api) = apis.for_pointer(ty).filter(|_| !apis.sets_up(func, i)) {
            let mut build = api::new_build(i, api);
            build.may_be_member = !apis.adopts(func, i)
                && f.sig.params[..i]
                    .iter()
                    .any(|earlier| apis.for_pointer(earlier).is_some_and(|e| e.ty == api.ty));
            st.builds.push(build);
            params.push(api::placeholder());
            continue;
        }
        if program.is_va_list_pointer(ty) {
            params.push(forwarded_va_list(program, &mut st, ty));
            continue;
        }
        params.push(fresh_value(program, &mut st, name, ty));
    }
    st.params = params.clone();
    push_frame(program, &mut st, func, &params, ReturnTo::Nowhere)?;
    if f.va_area().is_some() {
        // Pushed by `push_frame` after the locals, empty: no extra argument yet.
        st.va_area = st.frame().locals.last().copied();
    }
    st.enter_block(ir::BlockId(0));
    // A value built through the API is valid by construction (and its
    // pointer is not known yet): only free-form inputs are assumed valid.
    for (param, (value, ty)) in params.iter().zip(&f.sig.params).enumerate() {
        if st.builds.iter().any(|b| b.param == param) {
            continue;
        }
        if invariant::of_pointee(invariants, func, ty).is_some() {
            st.checks_through.push(param);
        }
        if let Some(inv) = invariant::of_input(invariants, func, ty) {
            push_frame(
                program,
                &mut st,
                inv.predicate,
                std::slice::from_ref(value),
                ReturnTo::Assumption,
            )?;
            st.enter_block(ir::BlockId(0));
        }
    }
    // The builds run one after the other before the call, the first one
    // first; each build's calls are chosen as the one before returns.
    st.build_step = api::first_step(&st, 0);
    Ok(st)
}

/// A `va_list` parameter of the function under test: the driver makes it
/// in a variadic wrapper, so it points to a tag whose cursor starts an
/// argument area of inputs, as a variadic function's own does.
fn forwarded_va_list(program: &Program, st: &mut State, ty: &Type) -> SymVal {
    let area = st.add_object(Object::new(ObjKind::Stack, Vec::new()));
    st.va_area = Some(area);
    let tag_size = ty.pointee().map_or(0, |tag| program.size_of(tag));
    let mut tag = Object::new(ObjKind::Stack, zero_cells(tag_size));
    let cursor = match ty.pointee() {
        Some(Type::Struct(id)) => program.structs[id.0 as usize]
            .fields
            .get(ir::VA_LIST_CURSOR as usize)
            .map(|field| field.offset),
        _ => None,
    };
    if let Some(cursor) = cursor {
        let start = ptr_cells(
            PtrVal::to(Target::Object(area)),
            program.data_model.pointer_bytes(),
        );
        for (i, cell) in start.into_iter().enumerate() {
            tag.cells[cursor as usize + i] = cell;
        }
    }
    tag.written.fill(Written::Yes);
    SymVal::Ptr(PtrVal::to(Target::Object(st.add_object(tag))))
}

/// A fresh input of type `ty` named `name`: a symbol for a scalar, a lazy
/// pointer, fresh cells for a struct.
pub(super) fn fresh_value(program: &Program, st: &mut State, name: String, ty: &Type) -> SymVal {
    match ty {
        Type::Int(it) if !it.is_bool => {
            SymVal::Int(st.fresh_variable(&name, u32::from(it.bits), it.signed))
        }
        _ if let Some(value) = st.fresh_scalar(&name, ty) => SymVal::Int(value),
        Type::Pointer(_) => SymVal::Ptr(PtrVal::to(Target::Lazy(st.add_lazy(name, ty.clone())))),
        other => SymVal::Bytes(std::rc::Rc::new(fresh_cells(
            program, st, other, &name, ".",
        ))),
    }
}

/// `value` in argument-area slots: padded to a multiple of `ir::VA_SLOT`
/// with bytes never written (reading an `int` as a `long` reads them).
pub(super) fn slot_cells(value: &SymVal, pointer_bytes: u64) -> (Vec<Cell>, Vec<Written>) {
    let mut cells = value_cells(value, pointer_bytes);
    let used = cells.len();
    let padded = (used as u64).next_multiple_of(ir::VA_SLOT) as usize;
    cells.resize(padded, Cell::zero());
    let mut written = vec![Written::Yes; used];
    written.resize(padded, Written::No);
    (cells, written)
}

/// Pushes a frame for `func` with `args`: a stack object per local,
/// parameters written; for a variadic function one more object after them,
/// its argument area holding the extra arguments, which dies with the
/// frame. The caller enters its first block.
pub(super) fn push_frame(
    program: &Program,
    st: &mut State,
    func: FuncId,
    args: &[SymVal],
    returns: ReturnTo,
) -> Exec<()> {
    let Some(body) = &program.function(func).body else {
        return unsupported("a function without a body");
    };
    let pointer_bytes = program.data_model.pointer_bytes();
    let mut locals = Vec::with_capacity(body.locals.len());
    for local in &body.locals {
        let size = program.size_of(&local.ty);
        locals.push(st.add_object(Object::new(ObjKind::Stack, zero_cells(size))));
    }
    for (i, arg) in args
        .iter()
        .enumerate()
        .take(program.function(func).sig.params.len())
    {
        let param = st.object_mut(locals[i]);
        param.set_start(arg, pointer_bytes);
        // Initialized by the call, but for bytes of a struct copied from
        // where they were never written: only other locals start indeterminate.
        param.written.fill(Written::Yes);
        for k in 0..param.capacity() as usize {
            if param.cells[k].is_indeterminate() {
                param.written[k] = Written::No;
            }
        }
    }
    if let Some(area_local) = program.function(func).va_area() {
        let params = program.function(func).sig.params.len();
        let (mut cells, mut written) = (Vec::new(), Vec::new());
        for extra in args.get(params..).unwrap_or_default() {
            let (slot, slot_written) = slot_cells(extra, pointer_bytes);
            cells.extend(slot);
            written.extend(slot_written);
        }
        let mut area = Object::new(ObjKind::Stack, cells);
        area.written = ChunkedVec::from_vec(written);
        let area = st.add_object(area);
        locals.push(area);
        let pointer = st.object_mut(locals[area_local.index()]);
        pointer.set_start(
            &SymVal::Ptr(PtrVal::to(Target::Object(area))),
            pointer_bytes,
        );
        pointer.written.fill(Written::Yes);
    }
    st.frames.push(Frame {
        func,
        block: ir::BlockId(0),
        stmt: 0,
        locals,
        visits: vec![0; body.blocks.len()],
        deciding_visits: vec![0; body.blocks.len()],
        knowledge_at_visit: vec![0; body.blocks.len()],
        returns,
        concrete_call: false,
    });
    Ok(())
}

/// The node type of parameter `param` when another parameter is built
/// through the API as a structure that holds such nodes (`pos` of
/// `insert_after(l, pos, v)`): the test takes it from that structure.
fn member_type(program: &Program, apis: &Apis, params: &[Type], param: usize) -> Option<StructId> {
    let Some(Type::Struct(node)) = params[param].pointee() else {
        return None;
    };
    let held = params.iter().enumerate().any(|(other, ty)| {
        other != param
            && apis
                .for_pointer(ty)
                .is_some_and(|api| api.ty != *node && api::holds(program, api.ty, *node))
    });
    held.then_some(*node)
}

/// A function's `static` holding numbers only, which every test starts
/// from its initializer (see `fresh_static`).
fn starts_fresh(global: &ir::Global) -> bool {
    let mut ty = &global.ty;
    while let Type::Array(elem, _) = ty {
        ty = elem;
    }
    global.is_function_static() && ty.scalar_bits().is_some()
}

/// The statics that start fresh (see `starts_fresh`) written by `func` or
/// the functions it calls: what earlier calls of it may change.
fn statics_written(program: &Program, func: FuncId) -> BTreeSet<GlobalId> {
    let mut written = BTreeSet::new();
    let mut seen = vec![func];
    let mut pending = vec![func];
    while let Some(next) = pending.pop() {
        let Some(body) = &program.function(next).body else {
            continue;
        };
        ir::walk::operands(body, |operand| match operand {
            ir::walk::Operand::Assigned(place) => {
                if let ir::PlaceBase::Global(g) = place.base {
                    if starts_fresh(program.global(g)) {
                        written.insert(g);
                    }
                }
            }
            ir::walk::Operand::Called(callee) if !seen.contains(&callee) => {
                seen.push(callee);
                pending.push(callee);
            }
            _ => {}
        });
    }
    written
}

/// Whether a test may call `func` before the call it checks, to reach
/// other values of its static variables: it writes some, and takes only
/// integers, which the driver writes as literals. Not `main`, which a
/// process runs once.
pub(super) fn may_call_earlier(program: &Program, func: FuncId) -> bool {
    let function = program.function(func);
    let sig = &function.sig;
    function.name != "main"
        && !sig.variadic
        && sig.params.iter().all(|ty| matches!(ty, Type::Int(_)))
        && !statics_written(program, func).is_empty()
}

/// Does the test choose this global's initial value? In the unit-test view
/// a global the file defines is an input when code may have changed it:
/// the file's own code writes it, or other files can (it is not `static`);
/// never when it holds a function pointer, since a test may not give a hook
/// a value the program cannot store. One the file only declares has no
/// other value.
pub fn global_is_input(
    program: &Program,
    config: &EngineConfig,
    state: &BTreeSet<GlobalId>,
    id: GlobalId,
) -> bool {
    let g = program.global(id);
    if g.is_const {
        return false;
    }
    if g.is_extern && g.init.is_none() {
        return true;
    }
    config.globals_as_inputs
        && (state.contains(&id) || !g.is_static)
        && !holds_function_pointer(program, &g.ty)
}

/// An extern global of another library's header that holds a function
/// pointer (libxml2's `xmlFree`): that library gives it its value (never
/// NULL), which no test can choose for it.
fn another_librarys_hook(program: &Program, global: &ir::Global) -> bool {
    declared_by_a_header(program, global)
        && holds_function_pointer(program, &global.ty)
        && !testcase::c_library::provides(&global.name)
}

/// The start of a global of the C library's own state the program
/// declares from its headers (getopt's `optind`), which no test sets.
fn library_state_start(program: &Program, global: &ir::Global) -> Option<i64> {
    declared_by_a_header(program, global)
        .then(|| testcase::c_library::state_global_start(&global.name))
        .flatten()
}

/// An extern global a system header declares: a library's, not the file's.
fn declared_by_a_header(program: &Program, global: &ir::Global) -> bool {
    global.is_extern && global.init.is_none() && program.in_system_header(global.span)
}

fn holds_function_pointer(program: &Program, ty: &Type) -> bool {
    match ty {
        Type::Pointer(to) => matches!(**to, Type::Function(_)),
        Type::Array(elem, _) => holds_function_pointer(program, elem),
        Type::Struct(id) => program
            .struct_def(*id)
            .fields
            .iter()
            .any(|f| holds_function_pointer(program, &f.ty)),
        _ => false,
    }
}

/// The bound on a function's `static` starting from its initializer:
/// the earlier calls a test makes when they may change it, else the
/// start itself.
fn static_bound(changed_by_earlier_calls: bool) -> Bound {
    match changed_by_earlier_calls {
        true => Bound::EarlierCalls,
        false => Bound::StaticStart,
    }
}

impl Machine<'_, '_> {
    pub fn global_object(&mut self, st: &mut State, id: GlobalId) -> Exec<ObjIdx> {
        if let Some(obj) = st.globals[id.index()] {
            return Ok(obj);
        }
        let global = self.program.global(id);
        if self.program.size_of(&global.ty) == 0 {
            return unsupported(format!("global `{}` of unknown size", global.name));
        }
        if is_standard_stream(self.program, id) {
            // The process's own stream, never an input.
            let stream = self.standard_stream(st, &global.name);
            let cells = ptr_cells(
                PtrVal::to(Target::Object(stream)),
                self.program.data_model.pointer_bytes(),
            );
            let kind = ObjKind::Global {
                id,
                is_input: false,
            };
            let obj = st.add_object(Object::new(kind, cells));
            st.globals[id.index()] = Some(obj);
            return Ok(obj);
        }
        if another_librarys_hook(self.program, global) {
            return unsupported(format!(
                "reads `{}`, a function pointer another library sets, which the tests do not link",
                global.name
            ));
        }
        if let Some(start) = library_state_start(self.program, global) {
            return self.library_state(st, id, start);
        }
        let mut is_input = global_is_input(self.program, self.config, self.state_globals, id);
        if is_input && global.is_function_static() && !starts_fresh(global) {
            // A function's `static` holding pointers: no driver can set it
            // either, so it starts from its initializer, and what another
            // value would reach from its first use is cut, not disproved.
            is_input = false;
            let bound = static_bound(may_call_earlier(self.program, self.root));
            self.note_cut(st, bound);
        }
        if is_input && self.program.size_of(&global.ty) > crate::bounds::INPUT_OBJECT_BYTES {
            return unsupported(format!(
                "global `{}` of {} bytes, larger than cairn builds an input ({} KiB)",
                global.name,
                self.program.size_of(&global.ty),
                crate::bounds::INPUT_OBJECT_BYTES >> 10
            ));
        }
        if is_input && starts_fresh(global) {
            return self.fresh_static(st, id);
        }
        let kind = ObjKind::Global { id, is_input };
        let object = match is_input {
            true => {
                let deferred = DeferredInput {
                    elem: global.ty.clone(),
                    first: (global.name.clone(), "."),
                    operand: global.name.clone(),
                    links: false,
                };
                Object::deferred(kind, deferred, self.program.size_of(&global.ty))
            }
            false => Object::new(kind, initial_cells(self.program, id)),
        };
        let obj = st.add_object(object);
        st.globals[id.index()] = Some(obj);
        Ok(obj)
    }

    /// A function's `static` of numbers: no driver can set it, and each test
    /// runs in a process of its own, so it starts from its initializer. It
    /// is symbolic, bound to that value, so that an arm only another value
    /// reaches is not reached within bounds, not infeasible: the bound is
    /// the number of earlier calls when the test may make them (see
    /// `BuildStep::CallAgain`), else the start itself.
    fn fresh_static(&mut self, st: &mut State, id: GlobalId) -> Exec<ObjIdx> {
        let bound = static_bound(
            may_call_earlier(self.program, self.root)
                && statics_written(self.program, self.root).contains(&id),
        );
        let global = self.program.global(id);
        let cells = fresh_cells(self.program, st, &global.ty, &global.name, ".");
        let initial = initial_cells(self.program, id);
        let mut same = Vec::with_capacity(cells.len());
        for (now, start) in cells.iter().zip(&initial) {
            same.push(cell_byte(now)?.eq(cell_byte(start)?));
        }
        self.assume_limit(st, &Cond::and(&same), bound)?;
        st.fresh_statics.push(id);
        let obj = st.add_object(Object::new(
            ObjKind::Global {
                id,
                is_input: false,
            },
            cells,
        ));
        st.globals[id.index()] = Some(obj);
        Ok(obj)
    }

    /// A global of the C library's own state (getopt's `optind`): symbolic,
    /// bound to the value it starts with in the test's fresh process, so
    /// that what another value would reach is cut, not infeasible.
    fn library_state(&mut self, st: &mut State, id: GlobalId, start: i64) -> Exec<ObjIdx> {
        let global = self.program.global(id);
        let kind = ObjKind::Global {
            id,
            is_input: false,
        };
        let obj = self.library_state_object(st, &global.name, &global.ty, start, kind)?;
        st.globals[id.index()] = Some(obj);
        Ok(obj)
    }

    /// The object of the C library's global `name` of type `ty`, holding
    /// `start` under the `library_start` bound.
    pub(super) fn library_state_object(
        &mut self,
        st: &mut State,
        name: &str,
        ty: &Type,
        start: i64,
        kind: ObjKind,
    ) -> Exec<ObjIdx> {
        let cells = match ty {
            ty if let Some(bits) = ty.scalar_bits() => {
                let value = Word::Term(BV::new_const(st.symbol_name(name), bits));
                let mask = u128::MAX >> (128 - bits);
                let started = value.eq(Word::known(start as u128 & mask, bits));
                self.assume_limit(st, &started, Bound::LibraryStart)?;
                int_cells(&value)
            }
            Type::Pointer(_) if start == 0 => {
                self.note_cut(st, Bound::LibraryStart);
                ptr_cells(
                    PtrVal::to(Target::Null),
                    self.program.data_model.pointer_bytes(),
                )
            }
            _ => return unsupported(format!("the C library's `{name}`")),
        };
        Ok(st.add_object(Object::new(kind, cells)))
    }

    pub fn string_object(&mut self, st: &mut State, id: StringId) -> ObjIdx {
        if let Some(obj) = st.strings[id.index()] {
            return obj;
        }
        let bytes = &self.program.strings[id.index()];
        let cells = bytes
            .iter()
            .map(|b| Cell::Byte {
                src: Word::known(u128::from(*b), 8),
                idx: 0,
            })
            .collect();
        let obj = st.add_object(Object::new(ObjKind::Str, cells));
        st.strings[id.index()] = Some(obj);
        obj
    }

    /// The element type of the input object a lazy pointer designates
    /// (bytes for `void *`, and for an opaque handle: see `opaque_pointee`).
    pub fn pointee_elem(&self, st: &State, lazy: LazyIdx) -> Exec<Type> {
        match st.lazies[lazy as usize].ty.pointee() {
            Some(Type::Void) | None => Ok(Type::Int(IntType::UCHAR)),
            Some(Type::Function(_)) => unsupported("data access through a function pointer"),
            _ if self.opaque_pointee(st, lazy).is_some() => Ok(Type::Int(IntType::UCHAR)),
            Some(t) => Ok(t.clone()),
        }
    }

    /// The struct a lazy pointer designates when the file leaves it
    /// incomplete (`struct ctx;`, defined in another file): code that
    /// cannot look inside only passes such a handle on, so the test gives
    /// it plain bytes to point to.
    pub fn opaque_pointee(&self, st: &State, lazy: LazyIdx) -> Option<Type> {
        let pointee = st.lazies[lazy as usize].ty.pointee()?;
        let incomplete = matches!(pointee, Type::Struct(_)) && self.program.size_of(pointee) == 0;
        // A `FILE *` is a stream, whatever the headers say of `FILE`.
        (incomplete && !is_stream_type(self.program, pointee)).then(|| pointee.clone())
    }

    /// Makes the deferred bytes of input object `obj` that a read of `n`
    /// bytes at `off` reaches (all of them at a symbolic offset): each
    /// member they overlap gets its fresh contents, as at the start.
    pub(super) fn make_bytes(&mut self, st: &mut State, obj: ObjIdx, off: &Word, n: u64) {
        let object = st.object(obj);
        let Some(input) = object.deferred.clone() else {
            return;
        };
        let size = object.cells.len() as u64;
        let want = match crate::memory::concrete_offset(off) {
            Some(at) => at.min(size)..at.saturating_add(n).min(size),
            None => 0..size,
        };
        if !(object.cells)
            .iter_range(want.start as usize..want.end as usize)
            .any(Cell::is_deferred)
        {
            return;
        }
        let esz = self.program.size_of(&input.elem).max(1);
        let first_lazy = st.lazies.len();
        for i in want.start / esz..want.end.div_ceil(esz) {
            let element = (i * esz) as usize..((i + 1) * esz).min(size) as usize;
            let mut cells: Vec<Cell> = st
                .object(obj)
                .cells
                .iter_range(element.clone())
                .cloned()
                .collect();
            let (path, sep) = input.element_path(i);
            let local =
                want.start.saturating_sub(i * esz) as usize..(want.end - i * esz).min(esz) as usize;
            make_deferred(
                self.program,
                st,
                (&input.elem, &path, sep),
                local,
                &mut cells,
            );
            let object = st.object_mut(obj);
            for (k, cell) in element.zip(cells) {
                // Bytes never made were never written: their start is this.
                if object.cells[k].is_deferred() && !cell.is_deferred() {
                    object.initial[k] = cell.clone();
                    object.cells[k] = cell;
                }
            }
        }
        if input.links {
            for member in &mut st.lazies[first_lazy..] {
                member.link = true;
            }
        }
    }

    /// Sees what `ptr` points to as `to`, the struct a cast converts it to,
    /// when `to` extends the input's element type (begins with it, or with
    /// the same tag member: a tree node of one kind, `struct sockaddr_in6`
    /// for a `struct sockaddr`) and the path has used nothing past the
    /// first element yet: the input becomes an array of `to`, so the
    /// members only the extension has are inputs the test sets (it
    /// allocates the larger struct), not bytes of a next element.
    pub(super) fn view_as_extension(&mut self, st: &mut State, ptr: &PtrVal, to: &Type) {
        if memory::concrete_offset(&ptr.offset) != Some(0) {
            return;
        }
        let Some(name) = extension_name(self.program, to) else {
            return;
        };
        match self.resolved(st, &ptr.target) {
            Target::Lazy(lazy) => {
                let pointer = &st.lazies[lazy as usize];
                let extends = pointer
                    .ty
                    .pointee()
                    .is_some_and(|from| extends(self.program, to, from));
                if extends {
                    let path = format!("(({name} *){})", pointer.path);
                    let pointer = &mut st.lazies[lazy as usize];
                    pointer.ty = std::rc::Rc::new(Type::ptr(to.clone()));
                    pointer.path = path.into();
                }
            }
            Target::Object(obj) => self.view_object_as(st, obj, to, &name),
            _ => {}
        }
    }

    /// [`Machine::view_as_extension`] of the materialized input `obj`.
    fn view_object_as(&mut self, st: &mut State, obj: ObjIdx, to: &Type, name: &str) {
        let object = st.object(obj);
        let ObjKind::Input {
            elem,
            is_string: false,
            freed: false,
            ..
        } = &object.kind
        else {
            return;
        };
        let Some(deferred) = &object.deferred else {
            return;
        };
        if object.indexed || !extends(self.program, to, elem) {
            return;
        }
        let from_size = self.program.size_of(elem) as usize;
        let to_size = self.program.size_of(to);
        let elements =
            (object.capacity() / from_size as u64).min(crate::bounds::INPUT_OBJECT_BYTES / to_size);
        if elements == 0
            || !object
                .cells
                .iter_range(from_size..object.cells.len())
                .all(Cell::is_deferred)
        {
            return;
        }
        let operand = format!("(({name} *){})", deferred.operand);
        let view = DeferredInput {
            elem: to.clone(),
            first: (operand.clone(), "->"),
            operand,
            links: self.program.is_linked(to),
        };
        let size = (elements * to_size) as usize;
        let grown = |from: &ChunkedVec<Cell>| {
            let mut cells = from.to_vec();
            cells.truncate(from_size);
            cells.resize(size, Cell::Deferred);
            ChunkedVec::from_vec(cells)
        };
        let object = st.object_mut(obj);
        object.cells = grown(&object.cells);
        object.initial = grown(&object.initial);
        let mut written = object.written.to_vec();
        written.truncate(from_size);
        written.resize(size, Written::No);
        object.written = ChunkedVec::from_vec(written);
        object.deferred = Some(std::rc::Rc::new(view));
        if let ObjKind::Input { elem, .. } = &mut object.kind {
            *elem = to.clone();
        }
    }

    /// Creates the input object an unresolved lazy pointer points to: an array
    /// of its pointee type whose length (1..=max_array) the solver chooses,
    /// NUL-terminated for character types. At most `max_nodes` per path.
    pub fn materialize(&mut self, st: &mut State, lazy: LazyIdx) -> Exec<ObjIdx> {
        if st.input_objects() >= self.config.max_nodes as usize {
            return Err(Stop::Budget(Bound::MaxNodes));
        }
        let lazy_ptr = st.lazies[lazy as usize].clone();
        let elem = self.pointee_elem(st, lazy)?;
        if is_stream_type(self.program, &elem) {
            return Ok(self.new_stream(st, lazy));
        }
        let esz = self.program.size_of(&elem);
        if esz == 0 {
            return unsupported(format!("pointer `{}` to an incomplete type", lazy_ptr.path));
        }
        let fits = crate::bounds::INPUT_OBJECT_BYTES / esz;
        if fits == 0 {
            return unsupported(format!(
                "`*{}` of {esz} bytes, larger than cairn builds an input ({} KiB)",
                lazy_ptr.path,
                crate::bounds::INPUT_OBJECT_BYTES >> 10
            ));
        }
        let is_string = matches!(elem, Type::Int(it) if it.bits == 8 && !it.is_bool);
        // A string's length stays the search's: it places the terminating
        // NUL, and a longer random string reaches little more.
        let mut max = match is_string {
            true => self.max_string,
            false => self.max_elements.max(1),
        };
        if max > fits {
            self.note_cut(st, Bound::MaxArray);
            max = fits;
        }
        let path = &lazy_ptr.path;
        // `*head` needs parentheses before a postfix operator: `(*head)->next`.
        let operand = if path.starts_with('*') {
            format!("({path})")
        } else {
            path.to_string()
        };
        let first = match &elem {
            Type::Struct(_) => (operand.clone(), "->"),
            _ => (format!("*{path}"), "."),
        };
        let deferred = DeferredInput {
            elem: elem.clone(),
            first,
            operand,
            links: self.program.is_linked(&elem),
        };
        // A string's bytes are all made now: its length places its NUL.
        let cells = match is_string {
            true => {
                let mut cells = Vec::with_capacity((esz * max) as usize);
                for i in 0..max {
                    let (name, sep) = deferred.element_path(i);
                    cells.extend(fresh_cells(self.program, st, &elem, &name, sep));
                }
                Some(cells)
            }
            false => None,
        };
        // A candidate's array (concrete mode) is as long as it may be, and
        // the test builds the part its path reached: a sampled length would
        // mostly be too short for a loop over a whole buffer.
        let len = match self.solver.in_concrete_mode() && !is_string {
            true => bv_u(u128::from(max), 64),
            false => BV::new_const(st.symbol_name(&format!("len({path})")), 64),
        };
        self.assume(st, &Cond::from(len.bvuge(bv_u(1, 64))))?;
        let within_max = Cond::from(len.bvule(bv_u(u128::from(max), 64)));
        self.assume_limit(st, &within_max, Bound::MaxArray)?;
        if let Some(cells) = &cells {
            let mut terminated = Vec::new();
            for k in 0..max {
                let byte = crate::value::cell_byte(&cells[k as usize])?;
                terminated.push(
                    len.eq(bv_u(u128::from(k + 1), 64))
                        .implies(byte.term().eq(bv_u(0, 8))),
                );
            }
            self.assume(st, &Cond::from(Bool::and(&terminated)))?;
        }
        let kind = ObjKind::Input {
            origin: lazy,
            elem,
            len,
            is_string,
            freed: false,
            vouched: st.checking_invariant(),
        };
        let object = match cells {
            Some(cells) => Object::new(kind, cells),
            None => Object::deferred(kind, deferred, esz * max),
        };
        let obj = st.add_object(object);
        st.lazies[lazy as usize].resolution = Some(Target::Object(obj));
        Ok(obj)
    }
}

/// How C names `to` when it is a struct an input may be seen as (see
/// [`Machine::view_as_extension`]).
fn extension_name(program: &Program, to: &Type) -> Option<String> {
    let Type::Struct(id) = to else {
        return None;
    };
    let def = program.struct_def(*id);
    (def.complete && !def.is_union).then(|| def.c_name())?
}

/// Whether struct `to` extends struct `from`: it is larger and begins with
/// `from` (its first member, or that member's first member...), or both
/// begin with a member of the same integer type (the tag of a family of
/// structs).
fn extends(program: &Program, to: &Type, from: &Type) -> bool {
    let (Type::Struct(to_id), Type::Struct(from_id)) = (to, from) else {
        return false;
    };
    let (to_def, from_def) = (program.struct_def(*to_id), program.struct_def(*from_id));
    if from_def.is_union || !from_def.complete || to_def.size <= from_def.size {
        return false;
    }
    let head = |def: &ir::StructDef| {
        def.fields
            .first()
            .filter(|field| field.offset == 0 && field.bits.is_none())
            .map(|field| field.ty.clone())
    };
    let mut inner = head(to_def);
    while let Some(ty) = inner {
        if ty == *from {
            return true;
        }
        inner = match &ty {
            Type::Struct(id) => head(program.struct_def(*id)),
            _ => None,
        };
    }
    matches!((head(to_def), head(from_def)), (Some(a @ Type::Int(_)), Some(b)) if a == b)
}
