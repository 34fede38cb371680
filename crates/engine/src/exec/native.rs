//! Calls of C library functions without a model, run natively (see
//! `crate::native`), as KLEE runs external calls: the arguments and the
//! bytes of the objects they point into are fixed to values the path allows
//! (one model of the path, whose equalities join the path condition: a
//! `Bound::Concretised` cut, so goals other values would reach are never called
//! infeasible), the call runs in a child process on copies of those
//! objects, and what it wrote, its `errno` and its result come back into
//! the path. The path records the call and the inputs it fixed
//! (`State::native_calls`), which its test names: the driver calls the real
//! function, which returns the same on the same bytes.

use super::call::header_name;
use super::{unsupported, Exec, Machine};
use crate::memory;
use crate::native::{self, Address, Buffer, Call, Returned, Returns, Write};
use crate::solver::PathSolver;
use crate::state::{is_stream_type, NativeCall, ObjKind, Object, State, Written};
use crate::value::{
    bv_u, cell_byte, cells_to_int, concrete, concrete_term, cond_value, int_cells, ptr_cells,
    symbol_terms, Cell, Cond, ObjIdx, PtrVal, SymVal, Target, Word,
};
use ir::{FloatKind, FnSig, FuncId, Layout, Program, Type};
use testcase::Bound;
use z3::ast::{Ast, Dynamic, BV};
use z3::Model;

/// Most bytes one native call is given, all buffers together.
const BYTES_LIMIT: usize = 1 << 20;
/// Argument registers of the x86-64 System V convention.
const INTEGER_REGISTERS: usize = 6;
const VECTOR_REGISTERS: usize = 8;

/// How a parameter travels.
#[derive(Clone, Copy)]
enum Passed {
    Integer {
        bits: u32,
        signed: bool,
    },
    Float,
    /// What it points into is copied; `holds_pointers`: a `T **`, whose
    /// slots the call may set.
    Pointer {
        holds_pointers: bool,
    },
    /// A struct of integers of up to 16 bytes, in one or two registers.
    SmallStruct {
        size: u64,
    },
}

impl Machine<'_, '_> {
    /// Runs `func`, a function of the C library a system header declares
    /// and no model covers, natively on `values`; its result.
    pub(super) fn native_call(
        &mut self,
        st: &mut State,
        func: FuncId,
        values: &[SymVal],
    ) -> Exec<Option<SymVal>> {
        let program = self.program;
        let function = program.function(func);
        let name = function.name.as_str();
        let refused = |why: &str| -> Exec<Option<SymVal>> {
            let header = header_name(program.file_name(function.span));
            unsupported(format!(
                "no model of `{name}` from {header}, and it does not run natively: {why}"
            ))
        };
        if let Some(refusal) = native::refusal(name) {
            return refused(refusal.describe());
        }
        let (passing, returns) = match passing(program, &function.sig) {
            Ok(plan) => plan,
            Err(why) => return refused(&why),
        };
        if values.len() != passing.len() {
            return refused("it is called with other arguments than it declares");
        }
        let objects = match self.pointed_objects(st, values)? {
            Ok(objects) => objects,
            Err(why) => return refused(why),
        };
        if let Some(echo) = self.echoes_a_literal(st, values) {
            self.choose(st, vec![(echo.clone(), ()), (echo.not(), ())])?;
        }
        let mut fixing = Fixing::default();
        let call = self.marshal(st, name, values, &passing, returns, &objects, &mut fixing);
        if fixing.no_model {
            return Err(super::Stop::Dead);
        }
        let call = match call {
            Ok(call) => call,
            Err(why) => return refused(&why),
        };
        let effects = match self.native.run(&call) {
            Ok(effects) => effects,
            Err(failure) => return refused(&failure.to_string()),
        };
        if native::reads_environment(name) {
            self.note_cut(st, Bound::Environment);
        }
        let fixed = self.fix(st, fixing)?;
        st.native_calls.push(NativeCall { func, fixed });
        for (buffer, writes) in effects.writes.iter().enumerate() {
            apply_writes(st, &objects, buffer, writes);
        }
        for &obj in &objects {
            if matches!(st.object(obj).kind, ObjKind::Input { .. }) {
                // Its chosen length is the one the call saw.
                st.object_mut(obj).note_reach(None);
            }
        }
        if effects.errno != call.errno {
            let errno = self.errno_object(st);
            let value = int_cells(&Word::known(u128::from(effects.errno as u32), 32));
            memory::write(st.object_mut(errno), &Word::known(0, 64), &value)?;
        }
        Ok(self.result(st, &function.sig.ret, effects.result, &objects))
    }

    /// The objects the pointer arguments point into, each once, in order;
    /// an undecided input pointer is dereferenced as a model's is (a fork
    /// over aliases runs the call again in each child). `Err` with the
    /// reason when one cannot be copied.
    fn pointed_objects(
        &mut self,
        st: &mut State,
        values: &[SymVal],
    ) -> Exec<Result<Vec<ObjIdx>, &'static str>> {
        let mut objects = Vec::new();
        for value in values {
            let SymVal::Ptr(p) = value else { continue };
            match self.resolved(st, &p.target) {
                Target::Null => {}
                Target::Func(_) => return Ok(Err("it is given a function pointer")),
                _ => {
                    let obj = self.deref(st, p)?;
                    self.check_live(st, obj)?;
                    // A stream's state lives in the engine, not in bytes.
                    if matches!(st.object(obj).kind, ObjKind::Stream(_)) {
                        return Ok(Err("it is given a stream (`FILE *`)"));
                    }
                    if !objects.contains(&obj) {
                        self.make_bytes(st, obj, &Word::known(0, 64), u64::MAX);
                        objects.push(obj);
                    }
                }
            }
        }
        Ok(Ok(objects))
    }

    /// That the first string input argument holds the string of the first
    /// literal handed to the same call (`strspn(s, "0123")`,
    /// `strverscmp(v, "1.10")`; as much of it as the input may hold): the
    /// path forks on it, so the input is concretised to the literal on one
    /// path and to other bytes on the other, and the branches on the result
    /// see a match and a miss.
    fn echoes_a_literal(&self, st: &State, values: &[SymVal]) -> Option<Cond> {
        let mut literal: Option<&[u8]> = None;
        let mut input = None;
        for value in values {
            let SymVal::Ptr(p) = value else { continue };
            let Some(offset) = concrete(&p.offset) else {
                continue;
            };
            match self.resolved(st, &p.target) {
                Target::Str(id) => {
                    let text = self.program.strings[id.index()].get(offset as usize..)?;
                    let end = text.iter().position(|b| *b == 0)?;
                    literal = literal.or(Some(&text[..end]));
                }
                Target::Object(obj) => match &st.object(obj).kind {
                    ObjKind::Input { elem, .. } if self.program.size_of(elem) == 1 => {
                        input = input.or(Some((obj, offset as usize)))
                    }
                    _ => {}
                },
                _ => {}
            }
        }
        let (text, (obj, at)) = (literal?, input?);
        let object = st.object(obj);
        let ObjKind::Input { len, .. } = &object.kind else {
            return None;
        };
        // As much of the literal as the input's longest array holds, and a NUL.
        let room = object.cells.len().checked_sub(at + 1)?;
        let mut bytes = text[..text.len().min(room)].to_vec();
        bytes.push(0);
        let cells = object.cells.get_range(at..at + bytes.len())?;
        let mut conds = Vec::with_capacity(bytes.len() + 1);
        let len = Word::from(len.clone());
        let end = Word::known((at + bytes.len()) as u128, len.get_size());
        conds.push(len.bvuge(&end));
        for (cell, byte) in cells.iter().zip(&bytes) {
            conds.push(cell_byte(cell).ok()?.eq(Word::known(u128::from(*byte), 8)));
        }
        Some(Cond::and(&conds))
    }

    /// The call as plain data, its values those of one model of the path
    /// (`fixing`'s).
    #[allow(clippy::too_many_arguments)]
    fn marshal(
        &mut self,
        st: &mut State,
        name: &str,
        values: &[SymVal],
        passing: &[Passed],
        returns: Returns,
        objects: &[ObjIdx],
        fixing: &mut Fixing,
    ) -> Result<Call, String> {
        let mut buffers = Vec::with_capacity(objects.len());
        let mut total = 0;
        for &obj in objects {
            let buffer = self.buffer(st, obj, objects, fixing)?;
            total += buffer.bytes.len();
            if total > BYTES_LIMIT {
                return Err("it is given more than 1 MiB of memory".to_string());
            }
            buffers.push(buffer);
        }
        let mut integers = Vec::new();
        let mut floats = Vec::new();
        for (value, passed) in values.iter().zip(passing) {
            match (passed, value) {
                (Passed::Integer { bits, signed }, SymVal::Int(v)) => {
                    let n = fixing.value(&mut self.ex.solver, st, v);
                    integers.push(Address::Number(extend(n, *bits, *signed)));
                }
                (Passed::Float, SymVal::Int(v)) => {
                    floats.push(fixing.value_read_as(&mut self.ex.solver, st, v, true) as u64)
                }
                (Passed::Pointer { holds_pointers }, SymVal::Ptr(p)) => {
                    let offset = fixing.value(&mut self.ex.solver, st, &p.offset) as u64;
                    let address = match self.resolved(st, &p.target) {
                        Target::Null => Address::Number(offset),
                        _ => {
                            let obj = self.deref(st, p).map_err(|_| "a pointer argument")?;
                            let buffer = objects.iter().position(|o| *o == obj).unwrap_or(0);
                            let offset = usize::try_from(offset).unwrap_or(usize::MAX);
                            if offset > buffers[buffer].bytes.len() {
                                return Err("it is given a pointer outside its object".to_string());
                            }
                            buffers[buffer].holds_pointers |= *holds_pointers;
                            Address::Into { buffer, offset }
                        }
                    };
                    integers.push(address);
                }
                (Passed::SmallStruct { size }, SymVal::Bytes(cells)) => {
                    let mut bytes = [0u8; 16];
                    for (slot, cell) in bytes.iter_mut().zip(cells.iter()).take(*size as usize) {
                        *slot = fixing
                            .byte(&mut self.ex.solver, st, cell)
                            .ok_or("it is given a structure holding a pointer")?;
                    }
                    let words = (*size as usize).div_ceil(8);
                    for word in bytes.chunks(8).take(words) {
                        let word = u64::from_le_bytes(word.try_into().unwrap_or_default());
                        integers.push(Address::Number(word));
                    }
                }
                _ => return Err("an argument of another kind than its parameter".to_string()),
            }
        }
        if integers.len() > INTEGER_REGISTERS || floats.len() > VECTOR_REGISTERS {
            return Err("it takes more arguments than the registers hold".to_string());
        }
        let errno = match st.errno {
            Some(obj) => {
                let cells =
                    memory::read(st.object(obj), &Word::known(0, 64), 4).map_err(|_| "errno")?;
                let value = cells_to_int(&cells).map_err(|_| "errno")?;
                fixing.value(&mut self.ex.solver, st, &value) as u32 as i32
            }
            None => 0,
        };
        Ok(Call {
            symbol: name.to_string(),
            integers,
            floats,
            returns,
            buffers,
            errno,
        })
    }

    /// The copy of object `obj` a native call sees: its bytes up to its
    /// size on this path (an input's chosen length, an allocation's size),
    /// the pointers it holds into the other `objects`.
    fn buffer(
        &mut self,
        st: &State,
        obj: ObjIdx,
        objects: &[ObjIdx],
        fixing: &mut Fixing,
    ) -> Result<Buffer, String> {
        let object = st.object(obj);
        let size = match &object.kind {
            ObjKind::Input { len, elem, .. } => {
                let len = Word::from(len.clone());
                let len = fixing.value(&mut self.ex.solver, st, &len) as u64;
                len.saturating_mul(self.program.size_of(elem))
            }
            ObjKind::Heap { size, .. } | ObjKind::StackBlock { size } => {
                fixing.value(&mut self.ex.solver, st, size) as u64
            }
            _ => object.capacity(),
        };
        let len = usize::try_from(size.min(object.capacity())).unwrap_or(0);
        let indeterminate = matches!(
            object.kind,
            ObjKind::Heap { .. } | ObjKind::Stack | ObjKind::StackBlock { .. }
        );
        let mut buffer = Buffer {
            bytes: vec![0; len],
            unset: vec![false; len],
            pointers: Vec::new(),
            holds_pointers: false,
            read_only: matches!(object.kind, ObjKind::Str),
        };
        let mut at = 0;
        while at < len {
            let unset = indeterminate
                && match &object.written[at] {
                    Written::Yes => false,
                    // A stub's effect is none in the driver: still garbage.
                    Written::No | Written::Unseen => true,
                    Written::If(cond) => {
                        !fixing.holds(&mut self.ex.solver, st, &Cond::from(cond.clone()))
                    }
                };
            match &object.cells[at] {
                _ if unset => buffer.unset[at] = true,
                Cell::Byte { .. } => {
                    let cell = &object.cells[at];
                    buffer.bytes[at] = fixing.byte(&mut self.ex.solver, st, cell).unwrap_or(0);
                }
                Cell::Ptr { ptr, idx: 0 } if at + 8 <= len => {
                    let whole = object.cells.iter_range(at..at + 8).enumerate().all(
                        |(i, c)| matches!(c, Cell::Ptr { ptr: p, idx } if *idx as usize == i && std::rc::Rc::ptr_eq(p, ptr)),
                    );
                    let to = match self.resolved(st, &ptr.target) {
                        Target::Null => {
                            let offset = fixing.value(&mut self.ex.solver, st, &ptr.offset);
                            Address::Number(offset as u64)
                        }
                        Target::Object(o) if objects.contains(&o) => Address::Into {
                            buffer: objects.iter().position(|x| *x == o).unwrap_or(0),
                            offset: fixing.value(&mut self.ex.solver, st, &ptr.offset) as usize,
                        },
                        _ => Address::Number(u64::MAX),
                    };
                    if !whole || to == Address::Number(u64::MAX) {
                        return Err("it is given memory holding pointers to other objects".into());
                    }
                    buffer.pointers.push((at, to));
                    at += 8;
                    continue;
                }
                Cell::Ptr { .. } => {
                    return Err("it is given memory holding part of a pointer".into());
                }
                Cell::Deferred => return Err("it is given input memory not yet made".into()),
            }
            at += 1;
        }
        Ok(buffer)
    }

    /// Adds the values `fixing` read to the path (naming the cut when other
    /// values were possible); the inputs they fix, by name.
    fn fix(&mut self, st: &mut State, fixing: Fixing) -> Exec<Vec<String>> {
        if fixing.equalities.is_empty() {
            return Ok(Vec::new());
        }
        if self.may(st, &Cond::and(&fixing.equalities).not()) {
            self.note_cut(st, Bound::Concretised);
        }
        // One by one: an equality of a symbol pins it for the rest of the path.
        for equality in &fixing.equalities {
            self.assume(st, equality)?;
        }
        Ok(input_names(fixing.symbols))
    }

    /// The call's result, of the declared type `ret`.
    fn result(
        &mut self,
        st: &mut State,
        ret: &Type,
        returned: Returned,
        objects: &[ObjIdx],
    ) -> Option<SymVal> {
        let bits = ret.scalar_bits().unwrap_or(64);
        let mask = |n: u64| u128::from(n) & ((1u128 << bits) - 1);
        Some(match returned {
            Returned::Nothing => return None,
            Returned::Integer(n) | Returned::Float(n) => SymVal::Int(Word::known(mask(n), bits)),
            Returned::TwoIntegers(low, high) => {
                let size = self.program.size_of(ret) as usize;
                let mut bytes = low.to_le_bytes().to_vec();
                bytes.extend(high.to_le_bytes());
                bytes.truncate(size);
                SymVal::Bytes(std::rc::Rc::new(known_cells(&bytes)))
            }
            Returned::Pointer(to) => SymVal::Ptr(pointer(to, objects)),
            Returned::Storage(string) => {
                let obj = st.add_object(Object::new(ObjKind::Str, known_cells(&string)));
                SymVal::Ptr(PtrVal::to(Target::Object(obj)))
            }
        })
    }
}

/// How each parameter of `sig` travels and how its result comes back; the
/// reason when a type cannot.
fn passing(program: &Program, sig: &FnSig) -> Result<(Vec<Passed>, Returns), String> {
    if sig.variadic {
        return Err("it takes a variable number of arguments".to_string());
    }
    let mut passing = Vec::with_capacity(sig.params.len());
    for ty in &sig.params {
        passing.push(match ty {
            Type::Int(it) if it.bits <= 64 => Passed::Integer {
                bits: u32::from(it.bits),
                signed: it.signed,
            },
            Type::Float(FloatKind::F32 | FloatKind::F64) => Passed::Float,
            Type::Pointer(pointee) => match pointee.as_ref() {
                Type::Function(_) => {
                    return Err(
                        "it takes a function pointer (a callback into the code under test)"
                            .to_string(),
                    )
                }
                Type::Pointer(_) => Passed::Pointer {
                    holds_pointers: true,
                },
                Type::Struct(_) if is_stream_type(program, pointee) => {
                    return Err("it takes a stream (`FILE *`)".to_string())
                }
                Type::Struct(id) => {
                    let def = program.struct_def(*id);
                    let name = def.c_name().unwrap_or_else(|| def.name.clone());
                    if !def.complete {
                        return Err(format!("it takes a pointer to `{name}`, an opaque type"));
                    }
                    if holds_pointers(program, pointee) {
                        return Err(format!(
                            "it takes a pointer to `{name}`, a structure holding pointers"
                        ));
                    }
                    Passed::Pointer {
                        holds_pointers: false,
                    }
                }
                _ => Passed::Pointer {
                    holds_pointers: false,
                },
            },
            Type::Struct(_) if small_integer_struct(program, ty) => Passed::SmallStruct {
                size: program.size_of(ty),
            },
            other => return Err(format!("it takes a parameter of type {}", type_name(other))),
        });
    }
    let returns = match &sig.ret {
        Type::Void => Returns::Nothing,
        Type::Int(it) if it.bits <= 64 => Returns::Integer,
        Type::Float(FloatKind::F32 | FloatKind::F64) => Returns::Float,
        Type::Pointer(pointee) if matches!(pointee.as_ref(), Type::Int(it) if it.bits == 8) => {
            Returns::String
        }
        Type::Pointer(_) => Returns::Pointer,
        ty @ Type::Struct(_) if small_integer_struct(program, ty) => Returns::TwoIntegers,
        other => return Err(format!("it returns a {}", type_name(other))),
    };
    Ok((passing, returns))
}

/// A struct of integers only, of at most 16 bytes: passed and returned in
/// integer registers.
fn small_integer_struct(program: &Program, ty: &Type) -> bool {
    fn integers_only(program: &Program, ty: &Type) -> bool {
        match ty {
            Type::Int(_) => true,
            Type::Array(elem, Some(_)) => integers_only(program, elem),
            Type::Struct(id) => {
                let def = program.struct_def(*id);
                def.complete && def.fields.iter().all(|f| integers_only(program, &f.ty))
            }
            _ => false,
        }
    }
    program.size_of(ty) <= 16 && integers_only(program, ty)
}

/// Whether a value of `ty` holds a pointer (or is of a type not complete).
fn holds_pointers(program: &Program, ty: &Type) -> bool {
    match ty {
        Type::Pointer(_) | Type::Function(_) => true,
        Type::Array(elem, _) => holds_pointers(program, elem),
        Type::Struct(id) => {
            let def = program.struct_def(*id);
            !def.complete || def.fields.iter().any(|f| holds_pointers(program, &f.ty))
        }
        _ => false,
    }
}

fn type_name(ty: &Type) -> &'static str {
    match ty {
        Type::Float(FloatKind::F80) => "`long double`",
        Type::Int(_) => "128-bit integer",
        Type::Struct(_) => "structure other than one of up to 16 bytes of integers",
        Type::Array(..) => "array",
        _ => "kind not passed in registers",
    }
}

/// `n`, an integer of `bits` bits, as its 64-bit register holds it.
fn extend(n: u128, bits: u32, signed: bool) -> u64 {
    let n = n as u64;
    if bits >= 64 {
        return n;
    }
    let shift = 64 - bits;
    match signed {
        true => (((n << shift) as i64) >> shift) as u64,
        false => n & ((1u64 << bits) - 1),
    }
}

fn known_cells(bytes: &[u8]) -> Vec<Cell> {
    bytes
        .iter()
        .map(|b| Cell::Byte {
            src: Word::known(u128::from(*b), 8),
            idx: 0,
        })
        .collect()
}

/// The pointer an address of a native call stands for.
fn pointer(to: Address, objects: &[ObjIdx]) -> PtrVal {
    match to {
        Address::Number(n) => PtrVal {
            target: Target::Null,
            offset: Word::known(u128::from(n), 64),
        },
        Address::Into { buffer, offset } => PtrVal {
            target: Target::Object(objects[buffer]),
            offset: Word::known(offset as u128, 64),
        },
    }
}

/// Stores what a native call wrote into the copy of `objects[buffer]`.
fn apply_writes(st: &mut State, objects: &[ObjIdx], buffer: usize, writes: &[Write]) {
    if writes.is_empty() {
        return;
    }
    let object = st.object_mut(objects[buffer]);
    for write in writes {
        let (at, cells) = match *write {
            Write::Byte { at, value } => (at, known_cells(&[value])),
            Write::Pointer { at, to } => (at, ptr_cells(pointer(to, objects), 8)),
        };
        // A concrete offset inside the object: the write cannot fail.
        let _ = memory::write(object, &Word::known(at as u128, 64), &cells);
    }
}

/// The values a native call reads, from one model of the path (asked for
/// when a value is not known already), with the equalities that fix them
/// and the symbols they mention.
#[derive(Default)]
struct Fixing {
    model: Option<Model>,
    /// The solver gave no model: the path is infeasible.
    no_model: bool,
    equalities: Vec<Cond>,
    symbols: Vec<String>,
}

impl Fixing {
    fn model(&mut self, solver: &mut PathSolver, st: &State) -> Option<&Model> {
        if self.model.is_none() && !self.no_model {
            self.model = solver.model(&st.path, None);
            self.no_model = self.model.is_none();
        }
        self.model.as_ref()
    }

    /// The value of `v` on this path, fixed.
    fn value(&mut self, solver: &mut PathSolver, st: &State, v: &Word) -> u128 {
        self.value_read_as(solver, st, v, false)
    }

    /// [`Self::value`] of a value the code reads as a `float` or `double`
    /// when `float`. A symbol the model leaves free takes the value the
    /// solver gives a free symbol, the candidate's own in concrete mode.
    fn value_read_as(
        &mut self,
        solver: &mut PathSolver,
        st: &State,
        v: &Word,
        float: bool,
    ) -> u128 {
        let v = st.with_fixed(v);
        let Word::Term(term) = &v else {
            return concrete(&v).unwrap_or(0);
        };
        let Some(model) = self.model(solver, st) else {
            return 0;
        };
        let Some(evaluated) = model.eval(term, false) else {
            return 0;
        };
        let free: Vec<(BV, BV)> = symbol_terms(&Dynamic::from_ast(&evaluated))
            .iter()
            .filter_map(Dynamic::as_bv)
            .map(|symbol| {
                let value = solver.value_of_free_symbol(&symbol, float);
                let value = bv_u(value, symbol.get_size());
                (symbol, value)
            })
            .collect();
        let pairs: Vec<(&BV, &BV)> = free.iter().map(|(s, v)| (s, v)).collect();
        let n = concrete_term(&evaluated.substitute(&pairs)).unwrap_or(0);
        let names = symbol_terms(&Dynamic::from_ast(term));
        self.symbols
            .extend(names.iter().map(|symbol| symbol.decl().name()));
        self.equalities.push(v.eq(Word::known(n, v.get_size())));
        n
    }

    /// Whether `cond` holds on this path, fixed.
    fn holds(&mut self, solver: &mut PathSolver, st: &State, cond: &Cond) -> bool {
        let cond = st.with_fixed(cond);
        let Cond::Term(term) = &cond else {
            return cond_value(&cond).unwrap_or(false);
        };
        let Some(model) = self.model(solver, st) else {
            return false;
        };
        let holds = model.eval(term, true).and_then(|b| b.as_bool());
        let holds = holds.unwrap_or(false);
        let names = symbol_terms(&Dynamic::from_ast(term));
        self.symbols
            .extend(names.iter().map(|symbol| symbol.decl().name()));
        self.equalities
            .push(if holds { cond.clone() } else { cond.not() });
        holds
    }

    /// The value of a byte cell, its whole source fixed (so that an `int`
    /// stored is pinned as one); `None` for a pointer's byte.
    fn byte(&mut self, solver: &mut PathSolver, st: &State, cell: &Cell) -> Option<u8> {
        let Cell::Byte { src, idx } = cell else {
            return None;
        };
        Some((self.value(solver, st, src) >> (8 * idx)) as u8)
    }
}

/// Symbol names (`s[1]#4`) as the inputs a reader knows: `#n` dropped,
/// each once, runs of elements joined (`s[0..3]`, `*s` being `s[0]`).
fn input_names(symbols: Vec<String>) -> Vec<String> {
    let mut elements: Vec<(String, u64)> = Vec::new();
    let mut others: Vec<String> = Vec::new();
    for symbol in symbols {
        let name = symbol.rsplit_once('#').map_or(symbol.as_str(), |(n, _)| n);
        let element = match name.strip_prefix('*') {
            Some(base) if !base.contains(['.', '-', '[', '*', '(']) => Some((base.to_string(), 0)),
            _ => name
                .strip_suffix(']')
                .and_then(|s| s.rsplit_once('['))
                .and_then(|(base, i)| Some((base.to_string(), i.parse().ok()?))),
        };
        match element {
            Some(element) => elements.push(element),
            None => others.push(name.to_string()),
        }
    }
    elements.sort();
    elements.dedup();
    let mut names = Vec::new();
    let mut i = 0;
    while i < elements.len() {
        let (base, first) = &elements[i];
        let mut last = *first;
        while i + 1 < elements.len() && elements[i + 1].0 == *base && elements[i + 1].1 == last + 1
        {
            last += 1;
            i += 1;
        }
        names.push(match last == *first {
            true => format!("{base}[{first}]"),
            false => format!("{base}[{first}..{last}]"),
        });
        i += 1;
    }
    others.sort();
    others.dedup();
    names.extend(others);
    names
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inputs_are_named_as_a_reader_knows_them() {
        let symbols = [
            "*s#3", "s[1]#4", "s[2]#5", "len(s)#9", "n#1", "n#1", "t[4]#7",
        ];
        let names = input_names(symbols.iter().map(|s| s.to_string()).collect());
        assert_eq!(names, ["s[0..2]", "t[4]", "len(s)", "n"]);
    }

    #[test]
    fn registers_hold_integers_extended_by_their_sign() {
        assert_eq!(extend(0xffff_fffe, 32, true), u64::MAX - 1);
        assert_eq!(extend(0xffff_fffe, 32, false), 0xffff_fffe);
        assert_eq!(extend(0x1ff, 8, false), 0xff);
    }
}
