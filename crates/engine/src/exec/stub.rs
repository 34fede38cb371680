//! What a call of a function without a body writes through its pointer
//! arguments. The driver's stub is a mock: at each call it writes what the
//! test scripts, so the engine chooses those bytes as inputs. Through an
//! argument that points into an object the path knows, at a known offset,
//! the call writes fresh inputs: for a `char *`, `unsigned char *` or
//! `void *`, bytes from there to the end of the object (where it holds no
//! pointer); for a pointer to numbers, numbers from there to the end of
//! the object (an array the call fills); for another `T *`, a fresh `T`, whose pointer members are
//! input pointers like an argument's (the test builds what they point to
//! and the stub stores their addresses), where it fills an output. The rest of what the argument
//! reaches, and everything an argument the engine cannot script reaches,
//! is `Written::Unseen`, as the real function may fill it (a read of
//! indeterminate bytes of it stops the path, and the goals left are cut by
//! `stub_effects`). A parameter declared pointing to `const` is never
//! written through; a callback mock (see `ir::callbacks`) scripts no
//! writes.

use super::input::fresh_cells;
use super::{Exec, Machine};
use crate::state::{ObjKind, State, Written};
use crate::value::{concrete, Cell, ObjIdx, PtrVal, SymVal, Target};
use ir::{FuncId, Layout, Program, Type};
use testcase::c_library::{self, MockResult, Trailing};
use testcase::Bound;

/// The most bytes one argument of one call is written with: a larger
/// region (a `char buf[8192]`) is left unseen, as before stubs wrote.
pub const MAX_STUB_WRITE: u64 = 1024;

/// The most bytes a mocked read returns at one call, where `max_string` is
/// less: a short read, as the real one may return (see
/// [`Machine::read_at_most`]). Each byte is a symbol, and a longer read's
/// result places a NUL or an index anywhere in the buffer, whose every
/// byte then becomes a choice (a 2 KB configuration file split with
/// `strchr` took minutes a path).
pub const MOCKED_READ_BYTES: u64 = 64;

/// The bytes one call writes through one argument.
struct Region {
    obj: ObjIdx,
    start: u64,
    end: u64,
    /// The type the bytes are written as (named members), or `None` for
    /// plain bytes.
    typed: Option<Type>,
    /// Whether the bytes are all the argument designates (the one member,
    /// or the rest of the array, of its type): the call writes no others.
    designated: bool,
}

impl Machine<'_, '_> {
    /// The most bytes a mocked call of `func` returns that reads into
    /// argument `count - 1` at most argument `count`'s bytes (`read(fd,
    /// buf, count)`), whatever `count` asks: [`MOCKED_READ_BYTES`], or
    /// `max_string` if more. `None` where it fills nothing (`write`).
    pub(super) fn read_at_most(&self, func: FuncId, count: usize) -> Option<u64> {
        let function = self.program.function(func);
        let fills = count > 0 && !function.const_pointee.contains(&(count - 1));
        fills.then_some(MOCKED_READ_BYTES.max(self.max_string))
    }

    /// Writes what the call of `func` (a stub) with `values` writes through
    /// its pointer arguments, and returns each write, argument number and
    /// bytes, for the test to script.
    pub(super) fn stub_writes(
        &mut self,
        st: &mut State,
        func: FuncId,
        values: &[SymVal],
        mock: Option<MockResult>,
    ) -> Exec<Vec<(usize, Vec<Cell>)>> {
        let function = self.program.function(func);
        let call = st.stub_calls.iter().filter(|c| c.func == func).count();
        // A mocked `read` fills at most the `count` bytes it is asked for,
        // and at most what a read returns: (buffer argument, bytes).
        let (buffer, count) = match mock {
            Some(MockResult::UpTo { count: at }) => match values.get(at) {
                Some(SymVal::Int(n)) => (
                    at.checked_sub(1),
                    concrete(&st.with_fixed(n))
                        .and_then(|n| u64::try_from(n).ok())
                        .map(|n| n.min(self.read_at_most(func, at).unwrap_or(u64::MAX))),
                ),
                _ => (None, None),
            },
            _ => (None, None),
        };
        let mut writes = Vec::new();
        let mut unseen = false;
        for (i, value) in values.iter().enumerate() {
            let SymVal::Ptr(p) = value else {
                continue;
            };
            if function.const_pointee.contains(&i) {
                continue;
            }
            // The bytes a read is asked for, through its buffer.
            let asked = count.filter(|_| buffer == Some(i));
            let target = self.resolved(st, &p.target);
            if matches!(target, Target::Null | Target::Func(_) | Target::Str(_)) {
                continue;
            }
            // Another file's global of a type this one leaves incomplete
            // (`extern struct ctx default_ctx;`): this file cannot read what
            // the call writes there.
            if let Target::Global(g) = target {
                if self.program.size_of(&self.program.global(g).ty) == 0 {
                    continue;
                }
            }
            // A callback mock's type says nothing of `const` (the IR keeps
            // no qualifiers): it writes nothing a test scripts.
            let region = match self.program.is_callback_mock(func) {
                true => None,
                false => self.stub_region(st, func, i, p, asked)?,
            };
            let obj = match (&region, target) {
                (Some(r), _) => Some(r.obj),
                (None, Target::Object(obj)) => Some(obj),
                (None, Target::Global(g)) if !self.program.global(g).is_const => {
                    Some(self.global_object(st, g)?)
                }
                _ => None,
            };
            // Whether the call may write what no test scripts.
            let mut beyond = true;
            if let Some(Region {
                obj,
                start,
                end,
                typed,
                designated,
            }) = region
            {
                // A read writes only within the bytes it is asked for.
                beyond = match asked {
                    Some(n) => end - start < n,
                    None => !designated && (start > 0 || end < st.object(obj).capacity()),
                };
                let path = format!("{}()#{call}.arg{}", function.name, i + 1);
                let cells = match typed {
                    Some(ty) => fresh_cells(self.program, st, &ty, &path, "->"),
                    None => (start..end)
                        .map(|k| Cell::Byte {
                            src: st.fresh_input(&format!("{path}[{}]", k - start), 8, false),
                            idx: 0,
                        })
                        .collect(),
                };
                // The test's array holds what its mock writes.
                let at = crate::value::Word::known(u128::from(start), 64);
                self.note_extent(st, obj, &at, Some(end - start));
                let object = st.object_mut(obj);
                for (k, cell) in (start as usize..).zip(&cells) {
                    object.cells[k] = cell.clone();
                    object.written[k] = Written::Yes;
                }
                writes.push((i, cells));
            }
            // The real function may write the rest (an input pointer not
            // decided yet: what it reaches), where the tests keep what was
            // there: a goal behind it is cut, not disproved.
            unseen |= beyond;
            // Bytes it may fill: no test checks them, and a read of them
            // stops the path where they were indeterminate.
            if let (Some(obj), true) = (obj, beyond) {
                let object = st.object_mut(obj);
                let settled = |w: &Written| matches!(w, Written::Yes | Written::Unseen);
                object.written.change_where(
                    |bytes| !bytes.iter().all(settled),
                    |bytes| {
                        for byte in bytes.iter_mut().filter(|w| !settled(w)) {
                            *byte = Written::Unseen;
                        }
                    },
                );
                if object.written.iter().any(|w| !matches!(w, Written::Yes)) {
                    object.filled_by_stub.get_or_insert(func);
                }
            }
        }
        if unseen {
            self.note_cut(st, Bound::StubEffects);
        }
        Ok(writes)
    }

    /// The bytes argument `i` of a call of `func`, the pointer `p`, is
    /// written with, if the call can script them (see the module's doc).
    fn stub_region(
        &mut self,
        st: &mut State,
        func: FuncId,
        i: usize,
        p: &PtrVal,
        count: Option<u64>,
    ) -> Exec<Option<Region>> {
        let program = self.program;
        let sig = &program.function(func).sig;
        // An extra argument of a variadic function has no declared type,
        // but for the word a mock passes on (`ioctl`'s): memory it fills.
        let trailing_word = i == sig.params.len()
            && c_library::trailing(&program.function(func).name) == Some(Trailing::Word);
        let Some(pointee) =
            (sig.params.get(i).and_then(Type::pointee)).or(trailing_word.then_some(&Type::Void))
        else {
            return Ok(None);
        };
        let obj = match self.resolved(st, &p.target) {
            Target::Object(obj) => obj,
            Target::Global(g) if !program.global(g).is_const => self.global_object(st, g)?,
            _ => return Ok(None),
        };
        let Some(start) = concrete(&st.with_fixed(&p.offset)).and_then(|x| u64::try_from(x).ok())
        else {
            return Ok(None);
        };
        let object = st.object(obj);
        let end_of_object = match &object.kind {
            ObjKind::Stack => Some(object.capacity()),
            ObjKind::Global { id, .. } if !program.global(*id).is_const => Some(object.capacity()),
            ObjKind::Heap {
                freed: false, size, ..
            }
            | ObjKind::StackBlock { size } => Self::concrete_u64(&st.with_fixed(size)),
            // Its first element always exists; the others only for the
            // length the solver chooses.
            ObjKind::Input {
                freed: false,
                elem,
                len,
                ..
            } => {
                let len =
                    Self::concrete_u64(&st.with_fixed(&crate::value::Word::from(len.clone())));
                Some(program.size_of(elem) * len.unwrap_or(1))
            }
            _ => None,
        };
        let Some(end_of_object) = end_of_object.map(|end| end.min(object.capacity())) else {
            return Ok(None);
        };
        let bytes_like = match pointee {
            Type::Void => true,
            Type::Int(it) => it.bits == 8 && !it.is_bool,
            _ => false,
        };
        // An array of numbers is an output filled element by element
        // (`convolve(x, h, y, n)` writes `n` of `y`'s `short`s).
        let numbers = !bytes_like && matches!(pointee, Type::Int(_) | Type::Float(_));
        let size = program.size_of(pointee);
        let mut designated = false;
        let end = match bytes_like {
            true => count.map_or(end_of_object, |n| {
                end_of_object.min(start.saturating_add(n))
            }),
            false if size == 0 => return Ok(None),
            false if numbers => {
                // The rest of the array the pointer is into, or the one
                // member it designates (`&globals.size`): not the members
                // after it.
                let run = self
                    .object_type(st, obj)
                    .and_then(|ty| numbers_at(program, &ty, start, size));
                designated = run.is_some_and(|(run, at_start)| at_start && run <= MAX_STUB_WRITE);
                let room = run
                    .map(|(run, _)| run)
                    .unwrap_or(end_of_object - start.min(end_of_object))
                    .min(end_of_object.saturating_sub(start))
                    .min(MAX_STUB_WRITE);
                start + room / size * size
            }
            false => (start + size).min(end_of_object),
        };
        if start >= end || end - start > MAX_STUB_WRITE {
            return Ok(None);
        }
        let typed = match (bytes_like, numbers) {
            (true, _) => None,
            (false, true) => Some(Type::Array(
                Box::new(pointee.clone()),
                Some((end - start) / size),
            )),
            (false, false) => (end - start == size).then(|| pointee.clone()),
        };
        // A typed write puts a fresh input pointer in each pointer member;
        // plain bytes hold none.
        let mut pointers = Vec::new();
        if let Some(ty) = &typed {
            if !pointer_offsets(program, ty, 0, &mut pointers) {
                return Ok(None);
            }
        }
        // Pointers are written into an output (bytes the path never wrote:
        // `struct rr rr; next(&p, &rr)`), not over a state the path keeps
        // (a bit reader each call advances), where fresh pointers at every
        // call would multiply what the path holds and decides.
        let fills_an_output = (start..end).any(|k| {
            matches!(
                object.written.get(k as usize),
                Some(Written::No | Written::Unseen)
            )
        });
        if !pointers.is_empty() && !fills_an_output {
            return Ok(None);
        }
        let pointer_bytes = program.data_model.pointer_bytes();
        let in_pointer = |k: u64| {
            pointers
                .iter()
                .any(|&p| (p..p + pointer_bytes).contains(&k))
        };
        // What the path put there agrees: pointers only where the type has them.
        let stored_elsewhere = (start..end).any(|k| {
            matches!(object.cells[k as usize], Cell::Ptr { .. }) && !in_pointer(k - start)
        });
        if stored_elsewhere {
            return Ok(None);
        }
        if let Some(ty) = self.object_type(st, obj) {
            let mut from = start;
            for &p in &pointers {
                let (at, after) = (start + p, start + p + pointer_bytes);
                if holds_pointer(program, &ty, from, at) || !holds_pointer(program, &ty, at, after)
                {
                    return Ok(None);
                }
                from = after;
            }
            if holds_pointer(program, &ty, from, end) {
                return Ok(None);
            }
        }
        if typed.is_none() && holds_pointer(program, pointee, 0, end - start) {
            return Ok(None);
        }
        Ok(Some(Region {
            obj,
            start,
            end,
            typed,
            designated,
        }))
    }

    /// The type of what object `obj` holds, where the path knows it: a
    /// local's, a global's, an input's array of elements.
    fn object_type(&self, st: &State, obj: ObjIdx) -> Option<Type> {
        let object = st.object(obj);
        match &object.kind {
            ObjKind::Stack => st.frames.iter().find_map(|frame| {
                let body = self.program.function(frame.func).body.as_ref()?;
                let local = frame.locals.iter().position(|&o| o == obj)?;
                Some(body.locals.get(local)?.ty.clone())
            }),
            ObjKind::Global { id, .. } => Some(self.program.global(*id).ty.clone()),
            ObjKind::Input { elem, .. } => {
                let esz = self.program.size_of(elem).max(1);
                Some(Type::Array(
                    Box::new(elem.clone()),
                    Some(object.capacity() / esz),
                ))
            }
            _ => None,
        }
    }
}

/// The bytes from `offset` to the end of the numbers of `size` bytes that
/// `ty` holds from there (the rest of an array of them, or the one number
/// a member is), and whether `offset` is where they start (a callee may
/// not reach before). `None` where `ty` holds none there, or a union may.
fn numbers_at(program: &Program, ty: &Type, offset: u64, size: u64) -> Option<(u64, bool)> {
    let is_number = |ty: &Type| matches!(ty, Type::Int(_) | Type::Float(_));
    match ty {
        _ if is_number(ty) => (offset == 0 && program.size_of(ty) == size).then_some((size, true)),
        Type::Array(elem, count) => {
            let esz = program.size_of(elem);
            let count = (*count)?;
            let (k, within) = (offset.checked_div(esz)?, offset % esz);
            if k >= count {
                return None;
            }
            match is_number(elem) {
                true => (within == 0 && esz == size).then(|| ((count - k) * esz, k == 0)),
                false => numbers_at(program, elem, within, size),
            }
        }
        Type::Struct(id) => {
            let def = program.struct_def(*id);
            if def.is_union {
                return None;
            }
            let field = def.fields.iter().find(|f| {
                f.bits.is_none() && (f.offset..f.offset + program.size_of(&f.ty)).contains(&offset)
            })?;
            numbers_at(program, &field.ty, offset - field.offset, size)
        }
        _ => None,
    }
}

/// Adds to `out` where a value of type `ty` placed at `at` holds data
/// pointers; false when it holds one a stub cannot script (a function
/// pointer, one inside a union).
fn pointer_offsets(program: &Program, ty: &Type, at: u64, out: &mut Vec<u64>) -> bool {
    match ty {
        Type::Pointer(pointee) if matches!(**pointee, Type::Function(_)) => false,
        Type::Pointer(_) => {
            out.push(at);
            true
        }
        Type::Array(elem, Some(n)) => {
            let esz = program.size_of(elem);
            (0..*n).all(|k| pointer_offsets(program, elem, at + k * esz, out))
        }
        Type::Struct(id) => {
            let def = program.struct_def(*id);
            if def.is_union {
                return !holds_pointer(program, ty, 0, program.size_of(ty));
            }
            (def.fields.iter().filter(|f| f.bits.is_none()))
                .all(|f| pointer_offsets(program, &f.ty, at + f.offset, out))
        }
        _ => true,
    }
}

/// Whether bytes `from..to` of a value of type `ty` hold a pointer, or
/// part of one.
pub fn holds_pointer(program: &Program, ty: &Type, from: u64, to: u64) -> bool {
    let size = program.size_of(ty);
    match ty {
        Type::Int(_) | Type::Float(_) | Type::Void => false,
        Type::Pointer(_) | Type::Function(_) => from < to && from < size,
        Type::Array(elem, n) => {
            let esz = program.size_of(elem);
            if esz == 0 || from >= to {
                return false;
            }
            let count = n.unwrap_or(u64::MAX);
            let first = from / esz;
            let last = ((to - 1) / esz).min(count.saturating_sub(1));
            if first > last {
                return false;
            }
            // The elements between the first and the last are all alike.
            let mut elements = vec![first, last];
            if first + 1 < last {
                elements.push(first + 1);
            }
            elements.into_iter().any(|k| {
                let at = k * esz;
                holds_pointer(program, elem, from.saturating_sub(at), (to - at).min(esz))
            })
        }
        Type::Struct(id) => program.struct_def(*id).fields.iter().any(|field| {
            if field.bits.is_some() {
                return false;
            }
            let at = field.offset;
            to > at && holds_pointer(program, &field.ty, from.saturating_sub(at), to - at)
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::holds_pointer;
    use ir::{IntType, Type};

    #[test]
    fn pointers_are_found_only_where_they_lie() {
        let program = ir::Program {
            files: vec!["t.c".into()],
            ..Default::default()
        };
        let int = Type::Int(IntType::INT);
        let ptr = Type::ptr(int.clone());
        let mixed = Type::Array(Box::new(ptr.clone()), Some(4));
        assert!(!holds_pointer(&program, &int, 0, 4));
        assert!(holds_pointer(&program, &ptr, 0, 8));
        assert!(holds_pointer(&program, &mixed, 9, 10));
        assert!(!holds_pointer(&program, &mixed, 32, 40));
        let ints = Type::Array(Box::new(int), Some(100));
        assert!(!holds_pointer(&program, &ints, 0, 400));
    }
}
