//! `malloc`, `calloc` and `free` (seed 000's class II objects): allocation of
//! a concrete size, use after free, double free, invalid free, and reads of
//! memory never written since `malloc`.

use super::libc::Model;
use super::Machine;
use crate::memory::{self, zero_cells};
use crate::state::{ObjKind, Object, State};
use crate::testcase::FindingKind;
use crate::value::{bv_u, unsupported, Cell, Exec, ObjIdx, PtrVal, SymVal, Target};
use z3::ast::BV;

impl Machine<'_> {
    /// Allocates `size` bytes; `zeroed` for `calloc`. Allocation always succeeds.
    pub fn allocate(&mut self, st: &mut State, size: &BV, zeroed: bool) -> Exec<Model> {
        let Some(n) = Self::concrete_u64(size) else {
            return unsupported("an allocation of a symbolic size");
        };
        let cells = if zeroed {
            zero_cells(n)
        } else {
            // Indeterminate contents: a path reading them gets a finding.
            let name = st.symbol_name("malloc");
            (0..n)
                .map(|_| Cell::Byte {
                    src: BV::new_const(name.clone(), 8),
                    idx: 0,
                })
                .collect()
        };
        let mut object = Object::new(
            ObjKind::Heap {
                freed: false,
                size: size.clone(),
            },
            cells,
        );
        if zeroed {
            object.written.fill(true);
        }
        let obj = st.add_object(object);
        Ok(Model::Returns(Some(SymVal::Ptr(PtrVal::to(
            Target::Object(obj),
        )))))
    }

    pub fn free(&mut self, st: &mut State, ptr: &PtrVal) -> Exec<Model> {
        match self.resolved(st, &ptr.target) {
            Target::Null => Ok(Model::Returns(None)),
            Target::Lazy(_) => unsupported("free of an input pointer"),
            Target::Object(obj) => match st.object(obj).kind {
                ObjKind::Heap { freed: true, .. } => {
                    self.fault(st, FindingKind::DoubleFree, "memory freed twice")
                }
                ObjKind::Heap { freed: false, .. } => {
                    let not_start = ptr.offset.eq(bv_u(0, 64)).not();
                    self.check_fault(
                        st,
                        FindingKind::InvalidFree,
                        &not_start,
                        "free of a pointer inside a block",
                    )?;
                    if let ObjKind::Heap { freed, .. } = &mut st.object_mut(obj).kind {
                        *freed = true;
                    }
                    Ok(Model::Returns(None))
                }
                _ => self.fault(
                    st,
                    FindingKind::InvalidFree,
                    "free of memory not from malloc",
                ),
            },
            _ => self.fault(
                st,
                FindingKind::InvalidFree,
                "free of memory not from malloc",
            ),
        }
    }

    /// Faults of an access to an allocated object: after `free`, or reading bytes never written.
    pub fn check_heap_access(
        &mut self,
        st: &mut State,
        obj: ObjIdx,
        off: &BV,
        n: u64,
        read: bool,
    ) -> Exec<()> {
        match st.object(obj).kind {
            ObjKind::Heap { freed: true, .. } => {
                self.fault(st, FindingKind::UseAfterFree, "access to freed memory")
            }
            ObjKind::Heap { freed: false, .. } if read => {
                let Some(start) = memory::concrete_offset(off) else {
                    return Ok(());
                };
                let written = &st.object(obj).written;
                let range = start as usize..(start + n) as usize;
                if written.get(range).is_some_and(|w| w.iter().all(|b| *b)) {
                    return Ok(());
                }
                self.fault(
                    st,
                    FindingKind::UninitializedRead,
                    "read of allocated memory never written",
                )
            }
            _ => Ok(()),
        }
    }
}
