//! Byte-precise reads and writes of one memory object. Concrete offsets take a
//! fast path; a symbolic offset is exact: the read is a case split over every
//! offset the object allows, a write guards every byte it may touch.

use crate::state::{ObjKind, Object, Written};
use crate::value::{
    bv_u, cell_byte, cells_to_int, concrete, int_cells, ptr_cells, unsupported, Cell, Cond,
    Modelled, PtrVal, Target, Word,
};
use ir::{ConstValue, GlobalId, Init, Layout, Program, Type};
use std::borrow::Cow;
use z3::ast::{Ast, Bool, BV};

/// Largest object a symbolic offset may address: the case split grows with the size.
const SYMBOLIC_ACCESS_LIMIT: u64 = 64 << 10;

/// The offset as a concrete number, when it is one.
pub fn concrete_offset(off: &Word) -> Option<u64> {
    concrete(off).map(|v| v as u64)
}

/// The object's size in bytes (64 bits): symbolic for input arrays of a
/// length the test chooses and allocations of a symbolic size.
pub fn size(program: &ir::Program, object: &Object) -> Word {
    match &object.kind {
        ObjKind::Input { elem, len, .. } => {
            Word::from(len.clone()).bvmul(Word::known(u128::from(program.size_of(elem)), 64))
        }
        ObjKind::Heap { size, .. } | ObjKind::StackBlock { size } => size.clone(),
        _ => Word::known(u128::from(object.capacity()), 64),
    }
}

/// The bytes an access may use: `0 <= off` and `off + n <= size` (signed 64-bit).
pub fn in_bounds(program: &ir::Program, object: &Object, off: &Word, n: u64) -> Cond {
    if let (ObjKind::Input { elem, len, .. }, Some(o)) = (&object.kind, concrete_offset(off)) {
        // Needs `len` elements reaching byte `o + n`: a comparison, not a
        // 64-bit multiplication for the solver. Every input has one element.
        let esz = program.size_of(elem).max(1);
        return match o.checked_add(n).map(|end| end.div_ceil(esz)) {
            Some(elems) if (o as i64) >= 0 && elems <= 1 => Cond::Known(true),
            Some(elems) if (o as i64) >= 0 => Cond::from(len.bvuge(bv_u(u128::from(elems), 64))),
            _ => Cond::Known(false),
        };
    }
    let limit = size(program, object);
    if let (Some(o), Some(l)) = (concrete_offset(off), concrete(&limit)) {
        let ok = (o as i64) >= 0 && o.checked_add(n).is_some_and(|end| u128::from(end) <= l);
        return Cond::Known(ok);
    }
    let bytes = Word::known(u128::from(n), 64);
    Cond::and(&[
        off.bvsge(Word::known(0, 64)),
        off.bvsle(limit.bvsub(&bytes)),
        limit.bvsge(&bytes),
    ])
}

/// Reads `n` bytes at `off`: at a known offset, the object's own cells.
/// The caller has established that the access is in bounds.
pub fn read<'o>(object: &'o Object, off: &Word, n: u64) -> Modelled<Cow<'o, [Cell]>> {
    let cap = object.capacity();
    if let Some(o) = concrete_offset(off) {
        let end = o.saturating_add(n).min(cap);
        let start = o.min(end);
        let cells = object.cells_in(start..end);
        if cells.len() as u64 == n {
            return Ok(cells);
        }
        // Beyond the capacity only on an infeasible path; keep the length right.
        let mut cells = cells.into_owned();
        cells.resize(n as usize, Cell::zero());
        return Ok(Cow::Owned(cells));
    }
    if n > cap {
        return Ok(Cow::Owned(vec![Cell::zero(); n as usize]));
    }
    if cap > SYMBOLIC_ACCESS_LIMIT {
        return unsupported("a symbolic offset into an object larger than 64 KiB");
    }
    // Case split at the value level: whole stored values come back unchanged.
    let mut value: Option<Word> = None;
    for start in (0..=cap - n).rev() {
        let here = cells_to_int(&object.cells_in(start..start + n))?;
        value = Some(match value {
            None => here,
            Some(rest) => off.eq(Word::known(u128::from(start), 64)).ite(&here, &rest),
        });
    }
    Ok(Cow::Owned(value.map(|v| int_cells(&v)).unwrap_or_default()))
}

/// Writes `cells` at `off`. The caller has established that the access is in bounds.
pub fn write(object: &mut Object, off: &Word, cells: &[Cell]) -> Modelled<()> {
    write_when(object, off, cells, None)
}

/// Writes `cells` at `off` where `when` holds (always without it); each
/// byte is written under the condition that the write reaches it.
pub fn write_when(
    object: &mut Object,
    off: &Word,
    cells: &[Cell],
    when: Option<&Cond>,
) -> Modelled<()> {
    let cap = object.capacity() as usize;
    let n = cells.len();
    if let Some(o) = concrete_offset(off) {
        for (i, cell) in cells.iter().enumerate() {
            let at = o as usize + i;
            if at >= cap {
                continue;
            }
            match when {
                None => {
                    object.cells[at] = cell.clone();
                    object.written[at] = match cell.is_indeterminate() {
                        true => Written::No,
                        false => Written::Yes,
                    };
                }
                // What it held before stays where the byte copied was never written.
                Some(_) if cell.is_indeterminate() => {}
                Some(cond) => {
                    let byte = cond.ite(&cell_byte(cell)?, &cell_byte(&object.cells[at])?);
                    object.cells[at] = Cell::Byte { src: byte, idx: 0 };
                    object.written[at] = object.written[at].or_if(cond.term());
                }
            }
        }
        return Ok(());
    }
    if n > cap {
        return Ok(());
    }
    if cap > SYMBOLIC_ACCESS_LIMIT as usize {
        return unsupported("a symbolic offset into an object larger than 64 KiB");
    }
    let off = &off.term();
    let bytes: Vec<BV> = cells
        .iter()
        .map(|cell| cell_byte(cell).map(|byte| byte.term()))
        .collect::<Modelled<_>>()?;
    for k in 0..cap {
        let mut cell: Option<BV> = None;
        let mut reached = Vec::new();
        for (j, byte) in bytes.iter().enumerate() {
            if k < j || k - j > cap - n {
                continue;
            }
            let old = match cell.take() {
                Some(c) => c,
                None => cell_byte(&object.cells[k])?.term(),
            };
            let here = off.eq(bv_u((k - j) as u128, 64));
            // An earlier write at the same place is dead only when this
            // one surely happens there.
            let (here, old) = match when {
                Some(cond) => (Bool::and(&[cond.term(), here]), old),
                None => {
                    let old = without_writes_at(&here, &old, OVERWRITE_DEPTH);
                    (here, old)
                }
            };
            cell = Some(here.ite(byte, &old));
            reached.push(here);
        }
        if let Some(new) = cell {
            object.cells[k] = Cell::Byte {
                src: Word::Term(new),
                idx: 0,
            };
            object.written[k] = object.written[k].or_if(Bool::or(&reached));
        }
    }
    Ok(())
}

/// How many earlier symbolic writes to one byte [`without_writes_at`] looks through.
const OVERWRITE_DEPTH: u32 = 16;

/// The byte `old` with earlier writes under the same condition `here`
/// dropped: under `here` the new write wins, so in `ite(here, _, rest)` only
/// `rest` matters. A loop writing at one symbolic offset again and again
/// (e.g. over a cyclic input list) then keeps each byte's term small.
fn without_writes_at(here: &Bool, old: &BV, depth: u32) -> BV {
    let is_ite = old.safe_decl().is_ok_and(|d| d.kind() == z3::DeclKind::Ite);
    if depth == 0 || !is_ite {
        return old.clone();
    }
    let parts = (
        old.nth_child(0).and_then(|c| c.as_bool()),
        old.nth_child(1).and_then(|c| c.as_bv()),
        old.nth_child(2).and_then(|c| c.as_bv()),
    );
    let (Some(cond), Some(then), Some(rest)) = parts else {
        return old.clone();
    };
    let rest = without_writes_at(here, &rest, depth - 1);
    if cond == *here {
        rest
    } else {
        cond.ite(&then, &rest)
    }
}

/// Zero-filled cells for a fresh object of `size` bytes.
pub fn zero_cells(size: u64) -> Vec<Cell> {
    vec![Cell::zero(); size as usize]
}

/// The cells a global starts with from its initializer (zero where not covered).
pub fn initial_cells(program: &Program, id: GlobalId) -> Vec<Cell> {
    let global = program.global(id);
    let mut cells = zero_cells(program.size_of(&global.ty));
    let Some(Init::Fields(items)) = &global.init else {
        return cells;
    };
    let at = |target: Target, offset: i64| PtrVal {
        target,
        offset: Word::known(offset as u64 as u128, 64),
    };
    let pointer_bytes = program.data_model.pointer_bytes();
    for item in items {
        let value = match &item.value {
            ConstValue::Int(it, bits) => int_cells(&Word::known(*bits, u32::from(it.bits))),
            ConstValue::Float(kind, bits) => {
                let width = Type::Float(*kind).scalar_bits().unwrap_or(64);
                int_cells(&Word::known(u128::from(*bits), width))
            }
            ConstValue::Null => ptr_cells(PtrVal::to(Target::Null), pointer_bytes),
            ConstValue::GlobalAddr(g, off) => {
                ptr_cells(at(Target::Global(*g), *off), pointer_bytes)
            }
            ConstValue::FuncAddr(f) => ptr_cells(PtrVal::to(Target::Func(*f)), pointer_bytes),
            ConstValue::StrAddr(s, off) => ptr_cells(at(Target::Str(*s), *off), pointer_bytes),
        };
        for (k, cell) in value.into_iter().enumerate() {
            if let Some(slot) = cells.get_mut(item.offset as usize + k) {
                *slot = cell;
            }
        }
    }
    cells
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::value::{cells_to_int, concrete, int_cells};
    use z3::{SatResult, Solver};

    fn stack_object(values: &[u32]) -> Object {
        let cells = values
            .iter()
            .flat_map(|v| int_cells(&Word::known(u128::from(*v), 32)))
            .collect();
        Object::new(ObjKind::Stack, cells)
    }

    /// `premise` implies `conclusion`.
    fn implies(premise: &Cond, conclusion: &Cond) -> Cond {
        Cond::from(premise.term().implies(conclusion.term()))
    }

    /// Is `claim` true for every value of the free symbols?
    fn valid(claim: &Cond) -> bool {
        let solver = Solver::new();
        solver.assert(claim.term().not());
        solver.check() == SatResult::Unsat
    }

    #[test]
    fn concrete_reads_return_stored_values_unchanged() {
        let object = stack_object(&[7, 0xdead_beef]);
        let v = cells_to_int(&read(&object, &Word::known(4, 64), 4).unwrap()).unwrap();
        assert_eq!(concrete(&v), Some(0xdead_beef));
        let byte = cells_to_int(&read(&object, &Word::known(5, 64), 1).unwrap()).unwrap();
        assert_eq!(concrete(&byte), Some(0xbe));
    }

    #[test]
    fn symbolic_read_is_exact_for_every_index() {
        let object = stack_object(&[10, 20, 30]);
        let i = Word::Term(BV::new_const("i", 64));
        let off = i.bvmul(Word::known(4, 64));
        let v = cells_to_int(&read(&object, &off, 4).unwrap()).unwrap();
        for (k, expected) in [(0u128, 10u128), (1, 20), (2, 30)] {
            assert!(valid(&implies(
                &i.eq(Word::known(k, 64)),
                &v.eq(Word::known(expected, 32))
            )));
        }
    }

    #[test]
    fn symbolic_write_changes_exactly_the_chosen_element() {
        let mut object = stack_object(&[1, 2, 3]);
        let i = Word::Term(BV::new_const("j", 64));
        write(
            &mut object,
            &i.bvmul(Word::known(4, 64)),
            &int_cells(&Word::known(99, 32)),
        )
        .unwrap();
        assert_only_element_i_is(&object, &i, 99);
        for (k, written) in object.written.iter().enumerate() {
            let start = Word::known((k / 4 * 4) as u128, 64);
            assert!(valid(&Cond::from(
                written
                    .condition()
                    .eq(i.bvmul(Word::known(4, 64)).eq(&start).term())
            )));
        }
    }

    /// Element `i` of the object `[1, 2, 3]` of ints now holds `value`, and
    /// the others kept theirs, for every `i` whose offset stays in the object
    /// (the executor assumes that before writing).
    fn assert_only_element_i_is(object: &Object, i: &Word, value: u128) {
        let in_object = i.bvult(Word::known(3, 64));
        for k in 0..3u128 {
            let v = cells_to_int(&read(object, &Word::known(k * 4, 64), 4).unwrap()).unwrap();
            let chosen = i.eq(Word::known(k, 64));
            assert!(valid(&implies(&chosen, &v.eq(Word::known(value, 32)))));
            let other = Cond::and(&[in_object.clone(), chosen.not()]);
            assert!(valid(&implies(&other, &v.eq(Word::known(k + 1, 32)))));
        }
    }

    /// Nesting of if-then-else along the else branches of `v`.
    fn ite_depth(v: &BV) -> usize {
        match v.safe_decl() {
            Ok(d) if d.kind() == z3::DeclKind::Ite => {
                1 + v
                    .nth_child(2)
                    .and_then(|c| c.as_bv())
                    .map_or(0, |rest| ite_depth(&rest))
            }
            _ => 0,
        }
    }

    #[test]
    fn repeated_writes_at_one_symbolic_offset_stay_small_and_exact() {
        let mut object = stack_object(&[1, 2, 3]);
        let i = Word::Term(BV::new_const("k", 64));
        let off = i.bvmul(Word::known(4, 64));
        for v in 0..50u128 {
            write(&mut object, &off, &int_cells(&Word::known(v + 10, 32))).unwrap();
        }
        assert_only_element_i_is(&object, &i, 59);
        for cell in object.cells.iter() {
            let Cell::Byte { src, .. } = cell else {
                panic!("integer bytes")
            };
            let Word::Term(src) = src else {
                panic!("a term")
            };
            assert!(
                ite_depth(src) <= 4,
                "one choice per offset covering the byte"
            );
        }
    }

    #[test]
    fn bounds_of_a_concrete_object() {
        let program = crate::test_programs::empty_program();
        let object = stack_object(&[1, 2]);
        assert_eq!(
            in_bounds(&program, &object, &Word::known(4, 64), 4)
                .term()
                .as_bool(),
            Some(true)
        );
        assert_eq!(
            in_bounds(&program, &object, &Word::known(5, 64), 4)
                .term()
                .as_bool(),
            Some(false)
        );
        assert_eq!(
            in_bounds(&program, &object, &Word::known(u128::from(u64::MAX), 64), 1)
                .term()
                .as_bool(),
            Some(false)
        );
    }
}
