//! `malloc`, `calloc`, `realloc` and `free` (seed 000's class II objects),
//! and the allocation `strdup` makes: allocations of a concrete or symbolic
//! size, which may also fail when the configuration lets them; use after
//! free, double free, invalid free, and reads of memory never written since
//! `malloc`. Input objects are heap objects too (the driver allocates them),
//! so the function may free them.

use super::api;
use super::libc::Model;
use super::Machine;
use super::{unsupported, Exec, Stop};
use crate::config::AllocationFailure;
use crate::memory::{self, zero_cells};
use crate::state::{ObjKind, Object, State, Written};
use crate::value::{
    cell_byte, cond_value, is_nonzero, Cell, Cond, ObjIdx, PtrVal, SymVal, Target, Word,
};
use ir::{Layout, Type};
use testcase::Bound;
use testcase::FindingKind;
use z3::ast::{Bool, BV};

/// Largest value a symbolic allocation size may take: the object's cells
/// cover it, and symbolic accesses split over every one of them.
const SYMBOLIC_ALLOCATION_LIMIT: u64 = 4096;
/// Largest concrete allocation modelled byte by byte.
const CONCRETE_ALLOCATION_LIMIT: u64 = 1 << 20;

impl Machine<'_, '_> {
    /// `malloc(size)`, or `calloc` when `zeroed` (`size` is the product).
    pub fn allocate(&mut self, st: &mut State, size: &Word, zeroed: bool) -> Exec<Model> {
        let failed = self.count_allocation(st);
        let allocated = self
            .new_heap_object(st, size, zeroed)
            .map(|obj| PtrVal::to(Target::Object(obj)));
        self.allocation_result(st, allocated, failed)
    }

    /// An allocation as `malloc(size)` makes (counted, and which may fail),
    /// whose new object `fill` writes when it succeeds (`strdup`).
    pub fn allocate_filled(
        &mut self,
        st: &mut State,
        size: &Word,
        fill: impl FnOnce(&mut Self, &mut State, PtrVal) -> Exec<()>,
    ) -> Exec<Model> {
        let failed = self.count_allocation(st);
        let allocated = match self.new_heap_object(st, size, false) {
            Ok(obj) => {
                let ptr = PtrVal::to(Target::Object(obj));
                fill(self, st, ptr.clone()).map(|()| ptr)
            }
            Err(stop) => Err(stop),
        };
        self.allocation_result(st, allocated, failed)
    }

    /// `realloc(ptr, size)`: `malloc` for NULL; otherwise a new object holding
    /// the old contents up to the smaller size, the old object freed, or as
    /// glibc does for a size of 0, the old object freed and NULL returned.
    /// A failing call returns NULL and leaves the old object alone.
    pub fn reallocate(&mut self, st: &mut State, ptr: &PtrVal, size: &Word) -> Exec<Model> {
        let old = match self.resolved(st, &ptr.target) {
            Target::Null => None,
            Target::Lazy(l) => return Err(self.decide(st, l)),
            Target::Object(obj) => {
                self.check_release(st, obj, &ptr.offset, "realloc")?;
                Some(obj)
            }
            _ => {
                return self.fault(
                    st,
                    FindingKind::InvalidFree,
                    "realloc of memory not from malloc",
                )
            }
        };
        let frees_only = match old {
            Some(_) => self.size_is_zero(st, size)?,
            None => false,
        };
        let failed = self.count_allocation(st);
        let moved = match old {
            Some(old) if frees_only => {
                mark_freed(st, old);
                Ok(PtrVal::to(Target::Null))
            }
            _ => self.new_heap_object(st, size, false).and_then(|obj| {
                if let Some(old) = old {
                    self.copy_contents(st, old, obj, size)?;
                    mark_freed(st, old);
                }
                Ok(PtrVal::to(Target::Object(obj)))
            }),
        };
        self.allocation_result(st, moved, failed)
    }

    /// Whether `size` is 0 on this path, forking (nonzero first) when both may hold.
    fn size_is_zero(&mut self, st: &State, size: &Word) -> Exec<bool> {
        let zero = size.eq(Word::known(0, 64));
        match (self.may(st, &zero.not()), self.may(st, &zero)) {
            (true, false) => Ok(false),
            (false, true) => Ok(true),
            (false, false) => Err(Stop::Dead),
            (true, true) => {
                let mut forks = Vec::new();
                for cond in [zero.not(), zero] {
                    let mut next = self.fork(st);
                    self.assume(&mut next, &cond)?;
                    forks.push(next);
                }
                Err(Stop::Fork(forks))
            }
        }
    }

    pub fn free(&mut self, st: &mut State, ptr: &PtrVal) -> Exec<Model> {
        match self.resolved(st, &ptr.target) {
            Target::Null => self.check_fault(
                st,
                FindingKind::InvalidFree,
                &is_nonzero(&ptr.offset),
                "free of an address not from malloc",
            )?,
            Target::Lazy(l) => return Err(self.decide(st, l)),
            Target::Object(obj) => {
                self.check_release(st, obj, &ptr.offset, "free")?;
                mark_freed(st, obj);
            }
            _ => {
                return self.fault(
                    st,
                    FindingKind::InvalidFree,
                    "free of memory not from malloc",
                )
            }
        }
        Ok(Model::Returns(None))
    }

    /// Faults of handing object `obj` (through a pointer `offset` bytes in)
    /// back to the allocator: freed already, not from the allocator, or not
    /// the start of its block.
    fn check_release(&mut self, st: &mut State, obj: ObjIdx, offset: &Word, by: &str) -> Exec<()> {
        match st.object(obj).kind {
            ObjKind::Heap { freed: true, .. } | ObjKind::Input { freed: true, .. } => {
                return self.freed_fault(
                    st,
                    obj,
                    FindingKind::DoubleFree,
                    &format!("{by} of memory freed before"),
                )
            }
            ObjKind::Heap { .. } | ObjKind::Input { .. } => {}
            _ => {
                return self.fault(
                    st,
                    FindingKind::InvalidFree,
                    &format!("{by} of memory not from malloc"),
                )
            }
        }
        let inside = is_nonzero(offset);
        self.check_fault(
            st,
            FindingKind::InvalidFree,
            &inside,
            &format!("{by} of a pointer inside a block"),
        )
    }

    /// Numbers an allocation call (from 0, in call order, callees included);
    /// when allocations may fail, also the state in which this one returns NULL.
    fn count_allocation(&mut self, st: &mut State) -> Option<State> {
        // Building an input is not the call under test: its allocations
        // succeed, and the driver makes them before it counts any.
        if api::building(st) {
            return None;
        }
        let number = st.allocations;
        st.allocations += 1;
        let may_fail = self.config.allocation_failure != AllocationFailure::Never;
        if !may_fail {
            self.note_cut(st, Bound::AllocMayFail);
        }
        may_fail.then(|| {
            let mut failed = self.fork(st);
            failed.failing_allocations.push(number);
            failed
        })
    }

    /// The call's result: the allocated pointer, forked with the failing
    /// state (success first) when there is one. A success the path cannot
    /// reach leaves the failure alone.
    fn allocation_result(
        &mut self,
        st: &mut State,
        allocated: Exec<PtrVal>,
        failed: Option<State>,
    ) -> Exec<Model> {
        let null = PtrVal::to(Target::Null);
        match (allocated, failed) {
            (Ok(ptr), None) => Ok(Model::Returns(Some(SymVal::Ptr(ptr)))),
            (Ok(ptr), Some(failed)) => {
                let outcomes = vec![(st.clone(), SymVal::Ptr(ptr)), (failed, SymVal::Ptr(null))];
                Err(Stop::Fork(self.finish_calls(outcomes)?))
            }
            (Err(stop @ (Stop::Dead | Stop::Budget(_))), Some(failed)) => {
                if let Stop::Budget(name) = stop {
                    self.note_cut(st, name);
                }
                *st = failed;
                Ok(Model::Returns(Some(SymVal::Ptr(null))))
            }
            (Err(stop), _) => Err(stop),
        }
    }

    /// A fresh heap object of `size` bytes, zero-filled or indeterminate.
    pub(super) fn new_heap_object(
        &mut self,
        st: &mut State,
        size: &Word,
        zeroed: bool,
    ) -> Exec<ObjIdx> {
        let kind = ObjKind::Heap {
            freed: false,
            size: size.clone(),
            for_inputs: api::constructing(st),
        };
        self.new_sized_object(st, size, zeroed, kind)
    }

    /// The storage an initialiser sets up for a test: a heap object of the
    /// struct `ty`, indeterminate as the driver's `malloc` leaves it.
    pub(super) fn storage(&mut self, st: &mut State, ty: ir::StructId) -> Exec<SymVal> {
        let size = Word::known(u128::from(self.program.size_of(&Type::Struct(ty))), 64);
        let kind = ObjKind::Heap {
            freed: false,
            size: size.clone(),
            for_inputs: true,
        };
        let obj = self.new_sized_object(st, &size, false, kind)?;
        Ok(SymVal::Ptr(PtrVal::to(Target::Object(obj))))
    }

    /// `__builtin_alloca(size)`, which a variable-length array is made
    /// with: a block of the calling frame that never fails, is never
    /// freed, and starts indeterminate.
    pub fn allocate_on_stack(&mut self, st: &mut State, size: &Word) -> Exec<Model> {
        let kind = ObjKind::StackBlock { size: size.clone() };
        let obj = self.new_sized_object(st, size, false, kind)?;
        Ok(Model::Returns(Some(SymVal::Ptr(PtrVal::to(
            Target::Object(obj),
        )))))
    }

    /// A fresh object of kind `kind` and `size` bytes, zero-filled or
    /// indeterminate.
    fn new_sized_object(
        &mut self,
        st: &mut State,
        size: &Word,
        zeroed: bool,
        kind: ObjKind,
    ) -> Exec<ObjIdx> {
        let capacity = self.allocation_capacity(st, size)?;
        let cells = if zeroed {
            zero_cells(capacity)
        } else {
            // Indeterminate contents: a path reading them gets a finding.
            let name = st.symbol_name("malloc");
            (0..capacity)
                .map(|_| Cell::Byte {
                    src: Word::Term(BV::new_const(name.clone(), 8)),
                    idx: 0,
                })
                .collect()
        };
        let mut object = Object::new(kind, cells);
        if zeroed {
            object.written.fill(Written::Yes);
        }
        Ok(st.add_object(object))
    }

    /// Bytes to model for an allocation of `size`: the size itself, or for
    /// a symbolic size the largest value it may take on this path. Sizes
    /// beyond [`SYMBOLIC_ALLOCATION_LIMIT`] are cut as a budget.
    fn allocation_capacity(&mut self, st: &mut State, size: &Word) -> Exec<u64> {
        // Building an input through the API, one size the path allows
        // stands for all: the search over sizes belongs to the call under test.
        if Self::concrete_u64(size).is_none() && api::building(st) {
            let model = self.solver.model(&st.path, None).ok_or(Stop::Dead)?;
            let chosen = crate::extract::eval_bits(&model, size);
            self.assume_limit(st, &size.eq(Word::known(chosen, 64)), Bound::BuildSizes)?;
            return self.allocation_capacity(st, &Word::known(chosen, 64));
        }
        if let Some(n) = Self::concrete_u64(size) {
            if n > CONCRETE_ALLOCATION_LIMIT {
                return unsupported("an allocation larger than 1 MiB");
            }
            return Ok(n);
        }
        let beyond = size.bvugt(Word::known(u128::from(SYMBOLIC_ALLOCATION_LIMIT), 64));
        if self.may(st, &beyond) {
            if !self.may(st, &beyond.not()) {
                return Err(Stop::Budget(Bound::SymbolicAllocationSize));
            }
            self.note_cut(st, Bound::SymbolicAllocationSize);
            self.assume(st, &beyond.not())?;
        }
        let (mut low, mut high) = (0, SYMBOLIC_ALLOCATION_LIMIT);
        while low < high {
            let mid = low + (high - low).div_ceil(2);
            if self.may(st, &size.bvuge(Word::known(u128::from(mid), 64))) {
                low = mid;
            } else {
                high = mid - 1;
            }
        }
        Ok(low)
    }

    /// Copies the first `min(size of from, new_size)` bytes of `from` into
    /// the fresh object `to`, with what they say about initialization.
    fn copy_contents(
        &mut self,
        st: &mut State,
        from: ObjIdx,
        to: ObjIdx,
        new_size: &Word,
    ) -> Exec<()> {
        let old_size = memory::size(self.program, st.object(from));
        let kept = if !self.may(st, &new_size.bvult(&old_size)) {
            old_size
        } else if !self.may(st, &old_size.bvult(new_size)) {
            new_size.clone()
        } else {
            new_size.bvult(&old_size).ite(new_size, &old_size)
        };
        self.make_bytes(st, from, &Word::known(0, 64), u64::MAX);
        self.make_bytes(st, to, &Word::known(0, 64), u64::MAX);
        let source = st.objects[from as usize].clone();
        let from_input = matches!(source.kind, ObjKind::Input { .. });
        let reach = source.capacity().min(st.object(to).capacity()) as usize;
        let kept_bytes = Self::concrete_u64(&kept);
        let target = st.object_mut(to);
        for k in 0..reach {
            let was_written = if from_input {
                Written::Yes
            } else {
                source.written[k].clone()
            };
            let (cell, written) = match kept_bytes {
                Some(n) if k as u64 >= n => break,
                Some(_) => (source.cells[k].clone(), was_written),
                // Symbolic: byte by byte, the old one where `k < kept`.
                None => {
                    let copied = Word::known(k as u128, 64).bvult(&kept);
                    let byte =
                        copied.ite(&cell_byte(&source.cells[k])?, &cell_byte(&target.cells[k])?);
                    let written = match was_written {
                        Written::Unseen => Written::Unseen,
                        _ => {
                            Written::No.or_if(Bool::and(&[copied.term(), was_written.condition()]))
                        }
                    };
                    (Cell::Byte { src: byte, idx: 0 }, written)
                }
            };
            target.cells[k] = cell;
            target.written[k] = written;
        }
        Ok(())
    }

    /// A use-after-free fault when `obj` was freed.
    pub fn check_live(&mut self, st: &State, obj: ObjIdx) -> Exec<()> {
        match st.object(obj).kind {
            ObjKind::Heap { freed: true, .. } | ObjKind::Input { freed: true, .. } => {
                self.freed_fault(st, obj, FindingKind::UseAfterFree, "access to freed memory")
            }
            ObjKind::Stream(_) => no_stream_bytes(st, obj),
            _ => Ok(()),
        }
    }

    /// The fault of using the freed object `obj` again. When `obj` is an
    /// input node on a cycle of the input structure, the path is left out
    /// instead: a function that frees the nodes it walks (delete, remove
    /// duplicates, free a list) comes back to a freed node only when its
    /// list is cyclic, against its precondition.
    fn freed_fault(
        &mut self,
        st: &State,
        obj: ObjIdx,
        kind: FindingKind,
        message: &str,
    ) -> Exec<()> {
        if matches!(st.object(obj).kind, ObjKind::Input { .. }) && self.on_input_cycle(st, obj) {
            return Err(Stop::Dead);
        }
        self.fault(st, kind, message)
    }

    /// Can input object `obj` reach itself through the pointers the input
    /// objects held when the function was called?
    fn on_input_cycle(&self, st: &State, obj: ObjIdx) -> bool {
        let successors = |o: ObjIdx| -> Vec<ObjIdx> {
            st.object(o)
                .initial
                .iter()
                .filter_map(|cell| match cell {
                    Cell::Ptr { ptr, idx: 0 } => match self.resolved(st, &ptr.target) {
                        Target::Object(t) if matches!(st.object(t).kind, ObjKind::Input { .. }) => {
                            Some(t)
                        }
                        _ => None,
                    },
                    _ => None,
                })
                .collect()
        };
        let mut seen = vec![false; st.objects.len()];
        let mut pending = successors(obj);
        while let Some(o) = pending.pop() {
            if o == obj {
                return true;
            }
            if !std::mem::replace(&mut seen[o as usize], true) {
                pending.extend(successors(o));
            }
        }
        false
    }

    /// Faults of an access to an object: after `free`, or reading a value
    /// from allocated bytes or a local never written (input, `calloc`ed
    /// bytes and parameters always are).
    pub fn check_memory_access(
        &mut self,
        st: &mut State,
        obj: ObjIdx,
        off: &Word,
        n: u64,
        access: Access,
    ) -> Exec<()> {
        self.check_live(st, obj)?;
        let what = match st.object(obj).kind {
            ObjKind::Heap { .. } => "read of allocated memory never written",
            ObjKind::Stack => "read of a local variable never written",
            ObjKind::StackBlock { .. } => "read of a variable-length array never written",
            _ => return Ok(()),
        };
        // A copy may hold bytes never written (they stay unwritten where
        // it goes: `Cell::indeterminate`), but not bytes a stub may have
        // filled, which no test sets.
        if access == Access::Write {
            return Ok(());
        }
        let Some(start) = memory::concrete_offset(off) else {
            self.no_stub_filled_bytes(st, obj, st.object(obj).written.iter())?;
            if access == Access::Copy {
                return Ok(());
            }
            return self.check_read_at_symbolic_offset(st, obj, off, n, what);
        };
        let range = start as usize..(start + n) as usize;
        let Some(written) = st.object(obj).written.get_range(range) else {
            return Ok(());
        };
        self.no_stub_filled_bytes(st, obj, written.iter())?;
        if access == Access::Copy {
            return Ok(());
        }
        if written
            .iter()
            .all(|w| matches!(w, Written::Yes | Written::Unseen))
        {
            return Ok(());
        }
        let message = what;
        let all_written = st.with_fixed(&Cond::from(Bool::and(
            &written.iter().map(Written::condition).collect::<Vec<_>>(),
        )));
        if cond_value(&all_written) == Some(true) {
            return Ok(());
        }
        // A read that is surely of such bytes ends the path at the finding;
        // a path no input takes (sampled inputs refute it) has none.
        if !self.may(st, &all_written) && self.may(st, &Cond::Known(true)) {
            return self.fault(st, FindingKind::UninitializedRead, message);
        }
        self.check_fault(
            st,
            FindingKind::UninitializedRead,
            &all_written.not(),
            message,
        )
    }
}

/// The largest object whose bytes a read at a symbolic offset is checked
/// against (each such read looks at every byte of it).
const CHECKED_SYMBOLIC_READ: u64 = 16 << 10;

/// The offsets at which `n` bytes of `written` all were written, as
/// inclusive ranges: a byte written only on some paths counts as written
/// (no finding is claimed that may not happen).
fn written_starts(written: impl Iterator<Item = bool>, n: u64) -> Vec<(u64, u64)> {
    let n = n.max(1);
    let mut ranges: Vec<(u64, u64)> = Vec::new();
    let mut run = 0u64;
    for (k, settled) in (0u64..).zip(written) {
        run = if settled { run + 1 } else { 0 };
        if run < n {
            continue;
        }
        let start = k + 1 - n;
        match ranges.last_mut() {
            Some(last) if last.1 + 1 == start => last.1 = start,
            _ => ranges.push((start, start)),
        }
    }
    ranges
}

impl Machine<'_, '_> {
    /// A read of `n` bytes at the symbolic offset `off` of `obj` (a local
    /// array indexed by an input) is an uninitialised read where `off` may
    /// fall on bytes never written; the path goes on with `off` where they
    /// all were.
    fn check_read_at_symbolic_offset(
        &mut self,
        st: &mut State,
        obj: ObjIdx,
        off: &Word,
        n: u64,
        message: &str,
    ) -> Exec<()> {
        let written = &st.object(obj).written;
        let unset = |w: &Written| matches!(w, Written::No);
        if written.len() as u64 > CHECKED_SYMBOLIC_READ || !written.iter().any(unset) {
            return Ok(());
        }
        let starts = written_starts(written.iter().map(|w| !unset(w)), n);
        let width = off.get_size();
        let valid = Cond::or(
            &(starts.iter())
                .map(|&(lo, hi)| {
                    Cond::and(&[
                        off.bvuge(Word::known(u128::from(lo), width)),
                        off.bvule(Word::known(u128::from(hi), width)),
                    ])
                })
                .collect::<Vec<_>>(),
        );
        if !self.may(st, &valid) && self.may(st, &Cond::Known(true)) {
            return self.fault(st, FindingKind::UninitializedRead, message);
        }
        self.check_fault(st, FindingKind::UninitializedRead, &valid.not(), message)
    }

    /// Stops a read of indeterminate bytes (`bytes` of object `obj`) that a
    /// function without a body may have filled beyond what its driver's
    /// stub writes (see `stub`), so the test would read garbage where the
    /// engine chose values.
    pub(super) fn no_stub_filled_bytes<'w>(
        &self,
        st: &State,
        obj: ObjIdx,
        mut bytes: impl Iterator<Item = &'w Written>,
    ) -> Exec<()> {
        let indeterminate = matches!(
            st.object(obj).kind,
            ObjKind::Heap { .. } | ObjKind::Stack | ObjKind::StackBlock { .. }
        );
        if !indeterminate {
            return Ok(());
        }
        match st.object(obj).filled_by_stub {
            Some(stub) if bytes.any(|w| matches!(w, Written::Unseen)) => unsupported(format!(
                "reads memory that `{}` (defined elsewhere, a stub in the tests) may have filled, which no test can set",
                self.program.function(stub).name
            )),
            _ => Ok(()),
        }
    }
}

/// Refuses an access to the bytes of a stream (`fp->_flags`): a `FILE`
/// is the C library's, and the drivers open real ones.
pub fn no_stream_bytes(st: &State, obj: ObjIdx) -> Exec<()> {
    match st.object(obj).kind {
        ObjKind::Stream(_) => unsupported("an access to the inside of a `FILE`"),
        _ => Ok(()),
    }
}

/// What a load or store does with the bytes it accesses.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Access {
    /// Uses their value as a scalar.
    Read,
    /// Copies them as part of a struct or array.
    Copy,
    Write,
}

/// Ends the life of a heap or input object.
fn mark_freed(st: &mut State, obj: ObjIdx) {
    if let ObjKind::Heap { freed, .. } | ObjKind::Input { freed, .. } = &mut st.object_mut(obj).kind
    {
        *freed = true;
    }
}

#[cfg(test)]
mod tests {
    use super::written_starts;

    #[test]
    fn a_read_may_start_where_all_its_bytes_were_written() {
        let written = |bits: &str| bits.chars().map(|c| c == '1').collect::<Vec<_>>();
        assert_eq!(
            written_starts(written("11110011").into_iter(), 2),
            vec![(0, 2), (6, 6)]
        );
        assert_eq!(written_starts(written("1011").into_iter(), 4), vec![]);
        assert_eq!(written_starts(written("0110").into_iter(), 1), vec![(1, 2)]);
    }
}
