//! Places: addresses, lazy pointer resolution, bounds-checked loads and stores.

use super::heap::{self, Access};
use super::input;
use super::Machine;
use super::{unsupported, Exec, Stop};
use crate::memory;
use crate::state::{ObjKind, Object, State, Written};
use crate::value::{
    bit_field_get, bit_field_put, bv_u, cells_to_int, cells_to_ptr, concrete, concrete_term,
    int_cells, is_nonzero, resize, signed_bits, value_cells, Cell, Cond, LazyIdx, ObjIdx, PtrVal,
    SymVal, Target, Word,
};
use ir::{BitField, Layout, Place, PlaceBase, Proj, Type};
use std::rc::Rc;
use testcase::Bound;
use testcase::FindingKind;
use z3::ast::{Bool, BV};

/// What glibc's `malloc` (and so every block a test allocates) aligns a
/// block to, on x86-64 and on i386 alike.
const ALLOCATION_ALIGNMENT: u64 = 16;

/// Most offsets one symbolic pointer access may fork into.
const MAX_PINNED_OFFSETS: usize = 64;
/// Objects with at most this many places for a value are small enough to
/// fork on the values of an index into them...
const SMALL_OBJECT_PLACES: u64 = 64;
/// ...when the index has at most this many.
const MAX_FIXED_CHOICES: usize = 16;

/// Does a value of this type contain a pointer?
fn has_pointer(program: &ir::Program, ty: &Type) -> bool {
    match ty {
        Type::Pointer(_) => true,
        Type::Array(elem, _) => has_pointer(program, elem),
        Type::Struct(id) => program
            .struct_def(*id)
            .fields
            .iter()
            .any(|f| has_pointer(program, &f.ty)),
        _ => false,
    }
}

/// Whether `cells`, read from `obj`, are some of the free bytes of an
/// input object (no pointer was ever stored there): a pointer made of them
/// is no value a caller can pass.
fn holds_input_bytes(st: &State, obj: ObjIdx, cells: &[Cell]) -> bool {
    matches!(st.object(obj).kind, ObjKind::Input { vouched: false, .. })
        && cells
            .iter()
            .any(|c| matches!(c, Cell::Byte { src, .. } if concrete(src).is_none()))
}

/// Whether an address is a constant (`(T *)0`, `(T *)16`), which the
/// compiler folds rather than computes.
fn constant_address(e: &ir::Expr) -> bool {
    match &e.kind {
        ir::ExprKind::Null | ir::ExprKind::Int(_) => true,
        ir::ExprKind::Cast(inner) => constant_address(inner),
        _ => false,
    }
}

/// A place whose object is known: `ty` at byte `off` of object `obj`, or
/// for a bit-field (`bits`) the field of declared type `ty` there.
pub struct Loc {
    pub obj: ObjIdx,
    pub off: Word,
    pub ty: Type,
    pub bits: Option<BitField>,
}

impl Machine<'_, '_> {
    /// The address of a place, without touching memory.
    pub fn place_addr(&mut self, st: &mut State, place: &Place) -> Exec<(PtrVal, Type)> {
        let (ptr, ty, _) = self.locate(st, place, true)?;
        Ok((ptr, ty))
    }

    /// The address and type of a place, and the bit-field it is, if one.
    /// `address_only`: nothing is read or written there (`&p->m`), so the
    /// members taken on the way are checked here, not by the access.
    fn locate(
        &mut self,
        st: &mut State,
        place: &Place,
        address_only: bool,
    ) -> Exec<(PtrVal, Type, Option<BitField>)> {
        // `&((T *)0)->m`, the old `offsetof`, is folded by the compiler.
        let folded = matches!(&place.base, PlaceBase::Deref(e) if constant_address(e));
        let member_of_pointer =
            address_only && matches!(place.base, PlaceBase::Deref(_)) && !folded;
        // The place so far ends where an object reached through a pointer
        // may end: a member array there may be a flexible one, into which
        // gcc checks no index (a declared object's size is known).
        let mut at_end = matches!(place.base, PlaceBase::Deref(_));
        let mut member = false;
        let (mut ptr, mut ty) = match &place.base {
            PlaceBase::Local(l) => {
                let frame = st.frames.len() - 1;
                let obj = st.local_object(frame, *l);
                let ty = self.body(st.frame().func)?.local(*l).ty.clone();
                (PtrVal::to(Target::Object(obj)), ty)
            }
            PlaceBase::Global(g) => (
                PtrVal::to(Target::Global(*g)),
                self.program.global(*g).ty.clone(),
            ),
            PlaceBase::Deref(e) => {
                let ty = match e.ty.pointee() {
                    Some(t) => t.clone(),
                    None => return unsupported("dereference of a non-pointer"),
                };
                match self.eval(st, e)? {
                    SymVal::Ptr(p) => {
                        self.type_untyped_input(st, &p, &ty);
                        if !folded && (!address_only || member_of_pointer) {
                            self.check_alignment(st, &p, &ty)?;
                        }
                        (p, ty)
                    }
                    _ => return unsupported("dereference of a non-pointer value"),
                }
            }
        };
        let mut bits = None;
        for proj in &place.proj {
            bits = None;
            match proj {
                Proj::Field {
                    index,
                    ty: field_ty,
                } => {
                    let Type::Struct(id) = ty else {
                        return unsupported("member of a non-struct");
                    };
                    let def = self.program.struct_def(id);
                    let Some(field) = def.fields.get(*index as usize) else {
                        return unsupported("member index out of range");
                    };
                    if member_of_pointer {
                        self.member_access(st, &ptr)?;
                    }
                    ptr.offset = ptr.offset.bvadd(Word::known(u128::from(field.offset), 64));
                    bits = field.bits;
                    at_end &= *index as usize + 1 == def.fields.len();
                    member = true;
                    ty = field_ty.clone();
                }
                Proj::Index { index, elem } => {
                    let i = self.eval_int(st, index)?;
                    let signed = index.ty.as_int().is_some_and(|t| t.signed);
                    let flexible = member && at_end;
                    if let (Type::Array(_, Some(len)), false, false) = (&ty, flexible, folded) {
                        self.check_index(st, &i, signed, *len, address_only)?;
                    }
                    member = false;
                    let scaled = self.scaled_index(st, &i, signed, self.program.size_of(elem))?;
                    ptr.offset = ptr.offset.bvadd(&scaled);
                    ty = elem.clone();
                }
            }
        }
        Ok((ptr, ty, bits))
    }

    /// An index into an array of `len` elements stays inside it, as the
    /// sanitizers check even where the element is not read: below `len`,
    /// or up to it for an address (one past the end).
    fn check_index(
        &mut self,
        st: &mut State,
        index: &Word,
        signed: bool,
        len: u64,
        address_only: bool,
    ) -> Exec<()> {
        // Unsigned: a negative index is far above any length.
        let index = resize(index, 64, signed);
        let len_word = Word::known(u128::from(len), 64);
        let outside = match address_only {
            true => index.bvugt(&len_word),
            false => index.bvuge(&len_word),
        };
        self.check_fault(
            st,
            FindingKind::OutOfBounds,
            &outside,
            &format!("array index out of bounds (an array of {len})"),
        )
    }

    /// An access through a pointer to `ty` needs an address `ty`'s alignment
    /// divides, as the sanitizers check (a record read at an odd offset of
    /// a buffer, `(struct hdr *)(buf + off)`). Only where the object's own
    /// alignment is known: the C library's allocations and the blocks a
    /// test allocates begin at multiples of [`ALLOCATION_ALIGNMENT`].
    fn check_alignment(&mut self, st: &mut State, p: &PtrVal, ty: &Type) -> Exec<()> {
        let align = self.program.align_of(ty);
        let Target::Object(obj) = self.resolved(st, &p.target) else {
            return Ok(());
        };
        let allocated = matches!(
            st.object(obj).kind,
            ObjKind::Heap { .. } | ObjKind::Input { .. } | ObjKind::StackBlock { .. }
        );
        if align <= 1 || align > ALLOCATION_ALIGNMENT || !allocated {
            return Ok(());
        }
        let low_bits = p.offset.bvand(Word::known(u128::from(align - 1), 64));
        let misaligned = low_bits.eq(Word::known(0, 64)).not();
        self.check_fault(
            st,
            FindingKind::MisalignedAccess,
            &misaligned,
            &format!(
                "an access at an address not a multiple of {align}, the alignment of its type"
            ),
        )
    }

    /// `p->m` needs `p` to point to an object even where nothing is read
    /// (`&p->m`: the sanitizers' "member access within null pointer"): an
    /// input pointer not yet decided is decided as a dereference decides
    /// it, NULL is a fault, and an address made of bytes no test can set
    /// is as unsupported as its dereference.
    fn member_access(&mut self, st: &mut State, ptr: &PtrVal) -> Exec<()> {
        let target = self.resolved(st, &ptr.target);
        match (target, memory::concrete_offset(&ptr.offset)) {
            (Target::Null, Some(0)) => self.fault(
                st,
                FindingKind::NullDereference,
                "member access within a NULL pointer",
            ),
            (Target::Lazy(_), _) | (Target::Null, None) => self.deref(st, ptr).map(drop),
            _ => Ok(()),
        }
    }

    /// An input `void *` not yet dereferenced, read first as a `T` (`*(struct
    /// ns **)a` in a `qsort` comparator, `struct ctx *c = data;` in a
    /// callback) points to `T`s: the test builds them, pointer members and
    /// all, rather than plain bytes whose pointers no test can set.
    fn type_untyped_input(&self, st: &mut State, p: &PtrVal, read_as: &Type) {
        let Target::Lazy(lazy) = self.resolved(st, &p.target) else {
            return;
        };
        let untyped = matches!(st.lazies[lazy as usize].ty.pointee(), Some(Type::Void));
        let typed = match read_as {
            Type::Void | Type::Function(_) => false,
            Type::Int(it) => it.bits > 8,
            ty => self.program.size_of(ty) > 0,
        };
        if untyped && typed && memory::concrete_offset(&p.offset) == Some(0) {
            st.lazies[lazy as usize].ty = Rc::new(Type::ptr(read_as.clone()));
        }
    }

    /// `index * size` as a 64-bit byte offset. A product that wraps around
    /// would address far outside any object; such paths are left out.
    pub fn scaled_index(
        &mut self,
        st: &mut State,
        index: &Word,
        signed: bool,
        size: u64,
    ) -> Exec<Word> {
        let wide = resize(index, 64, signed);
        let size = Word::known(u128::from(size), 64);
        // An index widened from 32 bits times a structure's size cannot
        // wrap: no 128-bit product for the solver to blast.
        let may_wrap = signed_bits(&wide) + signed_bits(&size) > 64;
        if index.get_size() >= 64 && concrete(index).is_none() && may_wrap {
            // Z3's own predicate, which also leaves out a negative index
            // (see `Word::signed_mul_fits`); the exact bound made two
            // explorations lose paths (heap_ops, memory tests): to look at.
            let (wide, size) = (wide.term(), size.term());
            let no_wrap = Bool::and(&[
                wide.bvmul_no_overflow(&size, true),
                wide.bvmul_no_underflow(&size),
            ]);
            self.assume(st, &Cond::Term(no_wrap))?;
        }
        Ok(wide.bvmul(&size))
    }

    pub fn place_loc(&mut self, st: &mut State, place: &Place) -> Exec<Loc> {
        let (ptr, ty, bits) = self.locate(st, place, false)?;
        let obj = self.deref(st, &ptr)?;
        Ok(Loc {
            obj,
            off: st.with_fixed(&ptr.offset),
            ty,
            bits,
        })
    }

    /// Where a `ty` at `ptr` lies, as a model reads or writes it.
    pub(super) fn loc_of(&mut self, st: &mut State, ptr: &PtrVal, ty: Type) -> Exec<Loc> {
        let obj = self.deref(st, ptr)?;
        Ok(Loc {
            obj,
            off: st.with_fixed(&ptr.offset),
            ty,
            bits: None,
        })
    }

    /// The target with lazy pointers followed (`Lazy` only when still undecided).
    pub fn resolved(&self, st: &State, target: &Target) -> Target {
        let mut t = target.clone();
        while let Target::Lazy(l) = t {
            match &st.lazies[l as usize].resolution {
                Some(r) => t = r.clone(),
                None => return Target::Lazy(l),
            }
        }
        t
    }

    /// The object a pointer designates, materializing an input object on first use.
    pub fn deref(&mut self, st: &mut State, ptr: &PtrVal) -> Exec<ObjIdx> {
        match self.resolved(st, &ptr.target) {
            Target::Object(o) => Ok(o),
            Target::Global(g) => self.global_object(st, g),
            Target::Str(s) => Ok(self.string_object(st, s)),
            Target::Lazy(l) => {
                self.report_null_link(st, l);
                self.dereferenced_lazy(st, l)
            }
            Target::Func(_) => unsupported("data access through a function pointer"),
            // An address made of an integer or of input bytes (no test can
            // make it point to an object): not necessarily NULL.
            Target::Null if memory::concrete_offset(&ptr.offset).is_none() => {
                unsupported("a pointer made of an integer or of bytes the test cannot set")
            }
            Target::Null => self.fault(
                st,
                FindingKind::NullDereference,
                "NULL pointer dereferenced",
            ),
        }
    }

    /// A link of an input linked structure (`head->next`) dereferenced before
    /// anything decided it may be NULL, the structure's natural end: a NULL
    /// dereference finding, reported with the link NULL. The path goes on
    /// with the link non-NULL. Other pointers (parameters, pointers to
    /// non-linked types) are the caller's precondition.
    fn report_null_link(&mut self, st: &State, lazy: LazyIdx) {
        let kind = FindingKind::NullDereference;
        let link = &st.lazies[lazy as usize];
        let linked = link.ty.pointee().is_some_and(|t| self.program.is_linked(t));
        if !link.link || !linked || self.reported.contains(&(kind, self.span)) {
            return;
        }
        // A possible fault the values do not hit: the run in full asks.
        if self.noting_faults.is_some() {
            return;
        }
        let message = format!("`{}` may be NULL (the end of the structure)", link.path);
        let mut null = st.clone();
        null.lazies[lazy as usize].resolution = Some(Target::Null);
        if let Some(model) = self.solver.readable_model(&null.path, &null.input_symbols) {
            self.record(&null, kind, &message, &model);
        }
    }

    /// Decides an undecided lazy pointer by forking (see [`Self::choices`]).
    pub fn decide(&mut self, st: &State, lazy: LazyIdx) -> Stop {
        self.choices(st, lazy, true)
    }

    /// Decides an undecided lazy pointer that may not be NULL (an argument
    /// of a parameter declared never NULL): what it may point to, as when
    /// dereferenced.
    pub fn decide_not_null(&mut self, st: &State, lazy: LazyIdx) -> Stop {
        self.choices(st, lazy, false)
    }

    /// The object an undecided lazy pointer designates when dereferenced:
    /// a fresh input object, or a fork when it may also alias one.
    fn dereferenced_lazy(&mut self, st: &mut State, lazy: LazyIdx) -> Exec<ObjIdx> {
        if self.alias_candidates(st, lazy)?.is_empty() {
            self.hooks.pointer_decided(st, lazy, self.span);
            return self.materialize(st, lazy);
        }
        Err(self.choices(st, lazy, false))
    }

    /// Forks over what an undecided lazy pointer may be: NULL (when
    /// `with_null`), an alias of each input object of its pointee type, and
    /// a fresh input object (within `max_nodes`). A function pointer may be
    /// each function of the file of its type, and its type's callback mock.
    fn choices(&mut self, st: &State, lazy: LazyIdx, with_null: bool) -> Stop {
        let mut choices = Vec::new();
        // A parameter declared never NULL: the driver may not pass NULL.
        let declared_nonnull = self.program.function(self.root).nonnull.iter().any(
            |&param| matches!(st.params.get(param), Some(SymVal::Ptr(p)) if p.target == Target::Lazy(lazy)),
        );
        if with_null && !declared_nonnull {
            let mut null = self.fork(st);
            null.lazies[lazy as usize].resolution = Some(Target::Null);
            choices.push(null);
        }
        let ty = st.lazies[lazy as usize].ty.clone();
        if let Some(Type::Function(sig)) = ty.pointee() {
            // The file's functions of its type, and the mock that stands
            // for another file's or another library's (a table of methods
            // filled elsewhere: the file's only function of the type may
            // be the one that calls through it).
            let defined = |f: &ir::Function| f.body.is_some() && f.sig == **sig;
            let mut targets: Vec<ir::FuncId> = (0..self.program.functions.len() as u32)
                .map(ir::FuncId)
                .filter(|&id| defined(self.program.function(id)))
                .collect();
            targets.extend(
                (self.program.callback_mocks.iter().copied())
                    .filter(|&id| self.program.function(id).sig == **sig),
            );
            for target in targets {
                let mut next = self.fork(st);
                next.lazies[lazy as usize].resolution = Some(Target::Func(target));
                choices.push(next);
            }
            return Stop::Fork(choices);
        }
        let aliases = match self.alias_candidates(st, lazy) {
            Ok(objects) => objects,
            Err(stop) => return stop,
        };
        // A buffer of scalars shared by two parameters is a corner case
        // callers rarely write; its own buffer comes first. Nodes alias
        // first: a shape with fewer nodes is the smaller input.
        let buffer = !matches!(ty.pointee(), Some(Type::Struct(_)));
        let mut aliased = Vec::new();
        if self.orders_pointers {
            for obj in self.inside_candidates(st, lazy, &aliases) {
                if let Some(inside) = self.pointing_inside(st, lazy, obj) {
                    choices.push(inside);
                }
            }
        }
        for obj in aliases {
            let mut next = self.fork(st);
            next.lazies[lazy as usize].resolution = Some(Target::Object(obj));
            if buffer {
                next.shared_buffers += 1;
            }
            aliased.push(next);
        }
        if !buffer {
            choices.append(&mut aliased);
        }
        let mut fresh = self.fork(st);
        match self.materialize(&mut fresh, lazy) {
            Ok(_) => choices.push(fresh),
            Err(Stop::Budget(name)) if !choices.is_empty() || !aliased.is_empty() => {
                self.note_cut(st, name)
            }
            Err(stop) => return stop,
        }
        choices.append(&mut aliased);
        for choice in &mut choices {
            self.hooks.pointer_decided(choice, lazy, self.span);
        }
        Stop::Fork(choices)
    }

    /// The input objects an undecided lazy pointer may point inside of (see
    /// [`Self::pointing_inside`]): those it may alias, and for a byte
    /// pointer any other input array too (the end of a record's bytes).
    fn inside_candidates(&self, st: &State, lazy: LazyIdx, aliases: &[ObjIdx]) -> Vec<ObjIdx> {
        if !st.lazies[lazy as usize].ty.points_to_bytes() || st.is_environment_value(lazy) {
            return aliases.to_vec();
        }
        let any_input = |o: &crate::state::Object| {
            matches!(&o.kind, ObjKind::Input { freed: false, origin, .. }
                if !st.is_environment_value(*origin))
        };
        (st.objects.iter().enumerate())
            .filter(|(i, o)| any_input(o) || aliases.contains(&(*i as ObjIdx)))
            .map(|(i, _)| i as ObjIdx)
            .collect()
    }

    /// A fork of `st` in which `lazy` points past the first element of the
    /// input array `obj`, up to one past its end, as an end pointer or a
    /// cursor does (`parse(p, end)`): a byte pointer into an array of
    /// another type at any of its bytes; `None` when no length allows it.
    fn pointing_inside(&mut self, st: &State, lazy: LazyIdx, obj: ObjIdx) -> Option<State> {
        let ObjKind::Input { elem, len, .. } = &st.object(obj).kind else {
            return None;
        };
        let by_bytes = *elem != self.pointee_elem(st, lazy).ok()?;
        let elem_size = Word::known(u128::from(self.program.size_of(elem)), 64);
        let (elem_size, len) = match by_bytes {
            true => (
                Word::known(1, 64),
                Word::from(len.clone()).bvmul(&elem_size),
            ),
            false => (elem_size, Word::from(len.clone())),
        };
        let mut next = self.fork(st);
        let index = Word::Term(BV::new_const(
            next.symbol_name(&format!("index({})", next.lazies[lazy as usize].path)),
            64,
        ));
        let within = Cond::and(&[index.bvuge(Word::known(1, 64)), index.bvule(&len)]);
        self.assume(&mut next, &within).ok()?;
        next.point_lazy_into(lazy, obj, &index.bvmul(&elem_size));
        Some(next)
    }

    /// Materialized input objects an undecided lazy pointer may alias: those
    /// whose element type is its pointee type. A link of a linked structure
    /// decided after the function freed a node does not lead back to it: such
    /// a cycle would make every loop that frees a list's nodes a use after
    /// free, against the precondition of such functions. Other pointers (two
    /// parameters) may still alias a freed object.
    fn alias_candidates(&self, st: &State, lazy: LazyIdx) -> Exec<Vec<ObjIdx>> {
        let elem = self.pointee_elem(st, lazy)?;
        let link = st.lazies[lazy as usize].link;
        // An opaque handle's bytes are only another handle of its type.
        let opaque = self.opaque_pointee(st, lazy);
        // Each environment variable's value is an entry of its own.
        if st.is_environment_value(lazy) {
            return Ok(Vec::new());
        }
        Ok(st
            .objects
            .iter()
            .enumerate()
            .filter(|(_, o)| match &o.kind {
                ObjKind::Input {
                    elem: e,
                    freed,
                    origin,
                    ..
                } => {
                    *e == elem
                        && !(link && *freed)
                        && self.opaque_pointee(st, *origin) == opaque
                        && !st.is_environment_value(*origin)
                }
                _ => false,
            })
            .map(|(i, _)| i as ObjIdx)
            .collect())
    }

    /// Checks that `n` bytes at `off` lie inside `obj` (a finding otherwise).
    fn check_access(&mut self, st: &mut State, obj: ObjIdx, off: &Word, n: u64) -> Exec<()> {
        heap::no_stream_bytes(st, obj)?;
        // A candidate's access is pinned where its values put it (`settle`).
        let candidate_place = || self.solver.concrete_value(&off.term());
        let place = match memory::concrete_offset(off).is_none().then(candidate_place) {
            Some(Some(at)) => Word::known(at, 64),
            _ => off.clone(),
        };
        let beyond_first = self.note_extent(st, obj, &place, Some(n));
        let inside = memory::in_bounds(self.program, st.object(obj), off, n);
        if beyond_first && matches!(st.object(obj).kind, ObjKind::Input { .. }) {
            self.note_capacity_cut(st, obj, off, &Word::known(u128::from(n), 64));
        }
        self.bounds_fault(st, &[obj], &inside.not(), "access outside its object")
    }

    /// Marks `obj` indexed when `n` bytes (a count not known: any) at `off`
    /// may reach past its first element: the driver then allocates it
    /// whole, a flexible array member's bytes included. True when they may.
    pub(super) fn note_extent(
        &self,
        st: &mut State,
        obj: ObjIdx,
        off: &Word,
        n: Option<u64>,
    ) -> bool {
        let object = st.object(obj);
        let elem_size = match &object.kind {
            ObjKind::Input { elem, .. } => self.program.size_of(elem),
            _ => object.capacity(),
        };
        // A negative offset wraps to a huge one: past the first too.
        let end = match (memory::concrete_offset(off), n) {
            (Some(o), Some(n)) => o.checked_add(n),
            _ => None,
        };
        let beyond_first = end.is_none_or(|end| end > elem_size);
        if beyond_first {
            st.object_mut(obj).note_reach(end);
        }
        beyond_first
    }

    /// Remembers when an input array longer than `max_array` would let this
    /// access go on: goals behind it are then cut by that budget, not infeasible.
    pub(super) fn note_capacity_cut(&mut self, st: &State, obj: ObjIdx, off: &Word, n: &Word) {
        let cap = Word::known(u128::from(st.object(obj).capacity()), 64);
        let end = off.bvadd(n);
        let beyond = Cond::and(&[off.bvsge(Word::known(0, 64)), end.bvsgt(&cap)]);
        if !self.has_cut(Bound::MaxArray) && self.may(st, &beyond) {
            self.note_cut(st, Bound::MaxArray);
        }
    }

    /// A library scan over `objects` that may still be going when it reads
    /// the last byte they can have (`at_last`): when one is an input, a
    /// longer input than `max_array` allows could take the path elsewhere,
    /// so an arm this path later finds infeasible is only cut by that bound
    /// (`strtol` needs more digits than 8 bytes hold to overflow).
    pub(super) fn note_scan_past_capacity(
        &mut self,
        st: &mut State,
        objects: &[ObjIdx],
        at_last: &Cond,
    ) {
        let input = objects
            .iter()
            .any(|o| matches!(st.object(*o).kind, ObjKind::Input { .. }));
        if input && !st.scan_capped && self.may(st, at_last) {
            st.scan_capped = true;
        }
    }

    /// Handles a possible access outside `objects`. The test chooses the length
    /// of input arrays, so when only inputs are involved a path that reads
    /// further asks for longer arrays instead of reporting a fault.
    pub fn bounds_fault(
        &mut self,
        st: &mut State,
        objects: &[ObjIdx],
        fault: &Cond,
        message: &str,
    ) -> Exec<()> {
        if objects
            .iter()
            .all(|o| matches!(st.object(*o).kind, ObjKind::Input { .. }))
        {
            return self.assume(st, &fault.not());
        }
        self.check_fault(st, FindingKind::OutOfBounds, fault, message)
    }

    pub fn load(&mut self, st: &mut State, loc: &Loc) -> Exec<SymVal> {
        if let (Some(bits), Type::Int(declared)) = (loc.bits, &loc.ty) {
            let storage = self.bit_field_storage(st, loc, bits, Access::Read)?;
            let value = bit_field_get(&storage, bits, declared.bits.into(), declared.signed);
            return Ok(SymVal::Int(value));
        }
        if st.va_area == Some(loc.obj) {
            self.choose_extra_argument(st, loc)?;
        }
        let n = self.program.size_of(&loc.ty);
        self.check_access(st, loc.obj, &loc.off, n)?;
        // Copying a whole struct or array with indeterminate bytes (padding,
        // members never set) is no fault in C: using a scalar of them is.
        let access = if matches!(loc.ty, Type::Struct(_) | Type::Array(..)) {
            Access::Copy
        } else {
            Access::Read
        };
        self.check_memory_access(st, loc.obj, &loc.off, n, access)?;
        let off = self.settle(st, loc, has_pointer(self.program, &loc.ty))?;
        st.read_input |= matches!(st.object(loc.obj).kind, ObjKind::Input { .. });
        self.make_bytes(st, loc.obj, &off, n);
        let cells = memory::read(st.object(loc.obj), &off, n)?;
        let cells = match access {
            Access::Copy => indeterminate_marked(st.object(loc.obj), &off, cells),
            _ => cells,
        };
        let forged = matches!(loc.ty, Type::Pointer(_)) && holds_input_bytes(st, loc.obj, &cells);
        let value = match &loc.ty {
            ty if let Some(bits) = ty.scalar_bits() => {
                SymVal::Int(resize(&cells_to_int(&cells)?, bits, false))
            }
            // No test can make an input's plain bytes (a union's, a buffer's)
            // point to an object, nor does a driver write a pointer member
            // of a union as bytes: what it holds there is NULL.
            // Kept as the bytes, so that a branch the bound decides says so.
            Type::Pointer(_) if forged => {
                let bytes = cells_to_ptr(&cells)?;
                let zero = Word::known(0, bytes.offset.get_size());
                self.assume_limit(st, &bytes.offset.eq(&zero), Bound::BytesPointers)?;
                SymVal::Ptr(bytes)
            }
            Type::Pointer(_) => SymVal::Ptr(cells_to_ptr(&cells)?),
            _ => SymVal::Bytes(Rc::new(cells.into_owned())),
        };
        if forged && !st.pointers_from_bytes.contains(&loc.obj) {
            st.pointers_from_bytes.push(loc.obj);
        }
        Ok(value)
    }

    /// The extra arguments of the function under test are inputs: the first
    /// read of a slot of its argument area (by `va_arg`, whose cursor only
    /// moves one slot at a time) adds one, of the type read, so a test
    /// passes as many as its path reads, at most `max_array`.
    fn choose_extra_argument(&mut self, st: &mut State, loc: &Loc) -> Exec<()> {
        let chosen = st.va_args.len() as u64;
        let Some(offset) = memory::concrete_offset(&loc.off) else {
            return unsupported("a read of the variadic arguments at a symbolic position");
        };
        let slot = offset / ir::VA_SLOT;
        if slot < chosen {
            return Ok(());
        }
        if slot > chosen || offset % ir::VA_SLOT != 0 {
            return unsupported("a read of the variadic arguments other than `va_arg`");
        }
        if slot >= self.config.max_array.max(1) {
            return Err(Stop::Budget(Bound::MaxArray));
        }
        let name = format!("va_arg{}", slot + 1);
        let value = input::fresh_value(self.program, st, name, &loc.ty);
        let (cells, written) = input::slot_cells(&value, self.program.data_model.pointer_bytes());
        let area = st.object_mut(loc.obj);
        area.cells.extend(cells);
        area.written.extend(written);
        st.va_args.push((value, loc.ty.clone()));
        Ok(())
    }

    pub fn store(&mut self, st: &mut State, loc: &Loc, value: &SymVal) -> Exec<()> {
        if let (Some(bits), SymVal::Int(v)) = (loc.bits, value) {
            // Only the field's bits change: read, replace them, write back.
            let storage = self.bit_field_storage(st, loc, bits, Access::Write)?;
            let updated = bit_field_put(&storage, bits, v);
            let off = self.settle(st, loc, false)?;
            return Ok(memory::write(
                st.object_mut(loc.obj),
                &off,
                &int_cells(&updated),
            )?);
        }
        let n = self.program.size_of(&loc.ty);
        self.check_access(st, loc.obj, &loc.off, n)?;
        self.check_memory_access(st, loc.obj, &loc.off, n, Access::Write)?;
        let mut cells = match (&loc.ty, value) {
            // A value of a bit-field's own width fills whole bytes.
            (Type::Int(it), SymVal::Int(v)) if it.bits % 8 != 0 => {
                int_cells(&resize(v, 8 * n as u32, it.signed))
            }
            _ => value_cells(value, self.program.data_model.pointer_bytes()),
        };
        if cells.len() as u64 != n {
            return unsupported("a store whose value and place sizes differ");
        }
        if let (Type::Int(it), SymVal::Int(v)) = (&loc.ty, value) {
            if it.is_bool {
                cells = crate::value::int_cells(&crate::value::bool_to_bv(&is_nonzero(v), 8));
            }
        }
        let has_pointer = cells.iter().any(|c| matches!(c, Cell::Ptr { .. }));
        let off = self.settle(st, loc, has_pointer)?;
        Ok(memory::write(st.object_mut(loc.obj), &off, &cells)?)
    }

    /// The integer made of the bytes holding a bit-field, checked for an
    /// access of kind `access`.
    fn bit_field_storage(
        &mut self,
        st: &mut State,
        loc: &Loc,
        bits: BitField,
        access: Access,
    ) -> Exec<Word> {
        let n = bits.storage_bytes();
        self.check_access(st, loc.obj, &loc.off, n)?;
        self.check_memory_access(st, loc.obj, &loc.off, n, access)?;
        let off = self.settle(st, loc, false)?;
        self.make_bytes(st, loc.obj, &off, n);
        let cells = memory::read(st.object(loc.obj), &off, n)?;
        Ok(cells_to_int(&cells)?)
    }

    /// The offset to access: itself, unless it is symbolic and pointers are
    /// involved (they cannot be merged into one term), in which case the path
    /// forks once per feasible offset, each fork remembering its choice.
    fn settle(&mut self, st: &mut State, loc: &Loc, moves_pointer: bool) -> Exec<Word> {
        if memory::concrete_offset(&loc.off).is_some() {
            return Ok(loc.off.clone());
        }
        if let Some((_, at)) = st.pinned.iter().find(|(term, _)| *term == loc.off) {
            return Ok(Word::known(u128::from(*at), 64));
        }
        // Bounds were checked at the symbolic place, before.
        if let Some(at) = self.fixed_by_candidate(st, &loc.off)? {
            st.pinned.push((loc.off.clone(), at as u64));
            return Ok(Word::known(at, 64));
        }
        self.fix_index_into_small_object(st, loc)?;
        // A read or write at a symbolic place is a case over every byte.
        self.make_bytes(st, loc.obj, &loc.off, u64::MAX);
        let holds_pointer = st
            .object(loc.obj)
            .cells
            .iter()
            .any(|c| matches!(c, Cell::Ptr { .. }));
        if !moves_pointer && !holds_pointer {
            return Ok(loc.off.clone());
        }
        let Some(choices) = self.feasible_values(st, &[loc.off.term()], MAX_PINNED_OFFSETS - 1)
        else {
            return unsupported("a pointer access at a symbolic offset with many possible values");
        };
        let offsets = choices
            .iter()
            .filter_map(|values| concrete_term(&values[0]).map(|v| v as u64));
        let mut forks = Vec::new();
        for at in offsets {
            let mut next = self.fork(st);
            self.assume(&mut next, &loc.off.eq(Word::known(u128::from(at), 64)))?;
            next.pinned.push((loc.off.clone(), at));
            forks.push(next);
        }
        Err(Stop::Fork(forks))
    }

    /// In concrete mode, the number the candidate's values make the
    /// symbolic `w`, which the path then assumes it is: a path at a
    /// symbolic place builds a case over every cell of the object (256 of
    /// a candidate's buffer, all of a block `calloc` made) into each later
    /// term and query, and the candidate's run takes one place anyway.
    /// `None` outside concrete mode and for a known `w`.
    pub(super) fn fixed_by_candidate(&mut self, st: &mut State, w: &Word) -> Exec<Option<u128>> {
        if concrete(w).is_some() {
            return Ok(None);
        }
        let Some(value) = self.solver.concrete_value(&w.term()) else {
            return Ok(None);
        };
        self.assume(st, &w.eq(Word::known(value, w.get_size())))?;
        Ok(Some(value))
    }

    /// `w`, or in concrete mode the number the candidate's values make it
    /// ([`Self::fixed_by_candidate`]).
    pub(super) fn candidate_word(&mut self, st: &mut State, w: &Word) -> Exec<Word> {
        Ok(match self.fixed_by_candidate(st, w)? {
            Some(value) => Word::known(value, w.get_size()),
            None => w.clone(),
        })
    }

    /// An access at a symbolic place in an object of few places (a 4x4
    /// grid, a short table) forks once per feasible value of the symbols
    /// the place depends on, when they have few: the rest of each path then
    /// runs on concrete values, with no solver call and no case split over
    /// the object's cells. Otherwise the access stays symbolic.
    fn fix_index_into_small_object(&mut self, st: &mut State, loc: &Loc) -> Exec<()> {
        let object = st.object(loc.obj);
        let n = self.program.size_of(&loc.ty).max(1);
        let small = object.capacity() / n <= SMALL_OBJECT_PLACES;
        if !small || st.unfixable.contains(&loc.off) {
            return Ok(());
        }
        let symbols = crate::solver::symbols_in(&loc.off.term());
        let Some(choices) = self.feasible_values(st, &symbols, MAX_FIXED_CHOICES) else {
            st.unfixable.push(loc.off.clone());
            return Ok(());
        };
        let mut forks = Vec::new();
        for values in choices {
            let mut next = self.fork(st);
            for (symbol, value) in symbols.iter().zip(values) {
                self.assume(&mut next, &Cond::from(symbol.eq(&value)))?;
                Rc::make_mut(&mut next.fixed).push((symbol.clone(), value));
            }
            forks.push(next);
        }
        Err(Stop::Fork(forks))
    }

    /// Every tuple of values `terms` may take together on this path, as
    /// numbers, one solver model each; `None` when there are more than
    /// `most`.
    fn feasible_values(&mut self, st: &State, terms: &[BV], most: usize) -> Option<Vec<Vec<BV>>> {
        let mut choices: Vec<Vec<BV>> = Vec::new();
        let mut excluded = Vec::new();
        while choices.len() <= most {
            let mut path = st.path.clone();
            if !excluded.is_empty() {
                path.push(self.solver.intern(&Bool::and(&excluded)));
            }
            let Some(model) = self.solver.model(&path, None) else {
                return Some(choices);
            };
            let values: Vec<BV> = terms
                .iter()
                .map(|t| bv_u(crate::extract::eval_term(&model, t), t.get_size()))
                .collect();
            let these: Vec<Bool> = terms.iter().zip(&values).map(|(t, v)| t.eq(v)).collect();
            excluded.push(Bool::and(&these).not());
            choices.push(values);
        }
        None
    }

    /// C truth of a scalar value (`!= 0`; for pointers `!= NULL`).
    pub fn truth(&mut self, st: &mut State, v: &SymVal) -> Exec<Cond> {
        match v {
            SymVal::Int(bv) => Ok(is_nonzero(bv)),
            SymVal::Ptr(p) => match self.resolved(st, &p.target) {
                Target::Null => Ok(is_nonzero(&p.offset)),
                Target::Lazy(l) => Err(self.decide(st, l)),
                _ => Ok(Cond::Known(true)),
            },
            SymVal::Bytes(_) => unsupported("an aggregate used as a condition"),
        }
    }

    /// A concrete length or count, when the value is one.
    pub fn concrete_u64(v: &Word) -> Option<u64> {
        concrete(v).and_then(|x| u64::try_from(x).ok())
    }
}

/// `cells`, copied from `off` of `object`, with each byte never written
/// there marked [`Cell::indeterminate`]: a struct some of whose members
/// were never set keeps them unset where it is copied to.
fn indeterminate_marked<'c>(
    object: &Object,
    off: &Word,
    cells: std::borrow::Cow<'c, [Cell]>,
) -> std::borrow::Cow<'c, [Cell]> {
    if !matches!(
        object.kind,
        ObjKind::Heap { .. } | ObjKind::Stack | ObjKind::StackBlock { .. }
    ) {
        return cells;
    }
    let Some(start) = memory::concrete_offset(off) else {
        return cells;
    };
    let start = start as usize;
    let Some(written) = object.written.get_range(start..start + cells.len()) else {
        return cells;
    };
    if !written.iter().any(|w| matches!(w, Written::No)) {
        return cells;
    }
    let mut marked = cells.into_owned();
    for (cell, w) in marked.iter_mut().zip(written.iter()) {
        if matches!(w, Written::No) {
            *cell = Cell::indeterminate();
        }
    }
    std::borrow::Cow::Owned(marked)
}
