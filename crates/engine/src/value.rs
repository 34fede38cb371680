//! Values: words (known numbers or Z3 bit-vectors) for integers, (target,
//! offset) pairs for pointers, and byte cells for memory contents and aggregates.

use crate::bounds::MEMO_ENTRIES;
use crate::stable_hash::StableHashMap;
use ir::{FloatKind, FuncId, GlobalId, StringId};
use std::cell::RefCell;
use std::rc::Rc;
use z3::ast::{Ast, Bool, Dynamic, Float, BV};
use z3::Sort;

mod word;
pub use word::{bv_u, Cond, Substitute, Word};

/// Index of a memory object in a path state's `objects`.
pub type ObjIdx = u32;
/// Index of a lazily materialized input pointer in a path state's `lazies`.
pub type LazyIdx = u32;

/// What a pointer points into. Globals and string literals are named by their
/// program identity so that initializers may refer to each other freely.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Target {
    Null,
    /// A stack, input or allocated object.
    Object(ObjIdx),
    Global(GlobalId),
    Str(StringId),
    Func(FuncId),
    /// An input pointer whose target is not decided yet (seed 001's TOP).
    Lazy(LazyIdx),
}

#[derive(Clone, Debug)]
pub struct PtrVal {
    pub target: Target,
    /// Byte offset from the start of the target, 64 bits.
    pub offset: Word,
}

impl PtrVal {
    pub fn to(target: Target) -> PtrVal {
        PtrVal {
            target,
            offset: Word::known(0, 64),
        }
    }
}

/// One byte of memory.
#[derive(Clone, Debug)]
pub enum Cell {
    /// Byte `idx` (little-endian) of `src`, whose width is a multiple of 8.
    /// Keeping whole values lets a read of the same bytes get `src` back unchanged.
    Byte { src: Word, idx: u32 },
    /// Byte `idx` of a stored pointer.
    Ptr { ptr: Rc<PtrVal>, idx: u32 },
    /// A byte of an input object the path has not read yet: its fresh
    /// contents are made on the first read (`Machine::build_inputs`), so
    /// that a large struct costs only the members a path uses.
    Deferred,
}

impl Cell {
    /// Whether both bytes are the same byte of the same value (a byte
    /// rewritten with what it held is the same).
    pub fn same_as(&self, other: &Cell) -> bool {
        match (self, other) {
            (Cell::Byte { src, idx }, Cell::Byte { src: s, idx: i }) => idx == i && src == s,
            (Cell::Ptr { ptr, idx }, Cell::Ptr { ptr: p, idx: i }) => {
                idx == i && Rc::ptr_eq(ptr, p)
            }
            (Cell::Deferred, Cell::Deferred) => true,
            _ => false,
        }
    }

    /// Whether the byte is an input byte not made yet (see `Deferred`).
    pub fn is_deferred(&self) -> bool {
        matches!(self, Cell::Deferred)
    }

    pub fn zero() -> Cell {
        Cell::Byte {
            src: Word::known(0, 8),
            idx: 0,
        }
    }

    /// The byte a copy of a struct or array carries where its source was
    /// never written (see `Machine::load`): stored, it leaves its new place
    /// unwritten too (`memory::write`, a callee's parameter), so that using
    /// a member the copy never got is the uninitialised read it is in the
    /// source, not a value the engine makes up.
    pub fn indeterminate() -> Cell {
        Cell::Byte {
            src: INDETERMINATE_BYTE.with(|byte| Word::Term(byte.clone())),
            idx: 0,
        }
    }

    pub fn is_indeterminate(&self) -> bool {
        match self {
            Cell::Byte {
                src: Word::Term(term),
                idx: 0,
            } => INDETERMINATE_BYTE.with(|byte| term.get_z3_ast() == byte.get_z3_ast()),
            _ => false,
        }
    }
}

/// The value of an expression.
#[derive(Clone, Debug)]
pub enum SymVal {
    Int(Word),
    Ptr(PtrVal),
    /// A struct, union or array value as its exact bytes.
    Bytes(Rc<Vec<Cell>>),
}

/// Something the engine does not model, named in the user's words
/// (e.g. `floating point`): the path stops there and says why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unsupported(pub String);

/// The result of an operation on values that may meet an unmodelled case.
pub type Modelled<T> = Result<T, Unsupported>;

pub fn unsupported<T>(what: impl Into<String>) -> Modelled<T> {
    Err(Unsupported(what.into()))
}

/// Z3's sort of a `float` (binary32) or `double` (binary64).
pub fn float_sort(kind: FloatKind) -> Sort {
    match kind {
        FloatKind::F32 => Sort::float32(),
        _ => Sort::double(),
    }
}

/// The IEEE value of the bits `bits` of a `float` or `double`.
pub fn ieee_value(bits: &BV, kind: FloatKind) -> Float {
    if let Some(known) = FLOAT_OF_BITS.with(|m| m.borrow().get(bits).cloned()) {
        return known;
    }
    // A value of the type has its width; resizing only guards a malformed input.
    let width = if kind == FloatKind::F32 { 32 } else { 64 };
    let bits = &resize(&Word::Term(bits.clone()), width, false).term();
    let context = bits.get_ctx();
    let sort = float_sort(kind);
    // SAFETY: the context, term and sort are live; the bit-vector has the
    // sort's width.
    unsafe {
        Float::wrap(
            context,
            z3_sys::Z3_mk_fpa_to_fp_bv(
                context.get_z3_context(),
                bits.get_z3_ast(),
                sort.get_z3_sort(),
            )
            .expect("Z3 builds a conversion of well-sorted terms"),
        )
    }
}

thread_local! {
    /// Memo of [`concrete`] and [`bool_value`]: Z3's `simplify` is not cached and
    /// dominated exploration time. Each exploration runs on its own thread, so
    /// the memo lives exactly as long as the terms of one function.
    static SIMPLIFIED_BV: RefCell<StableHashMap<BV, Option<u128>>> = RefCell::new(StableHashMap::default());
    static SIMPLIFIED_BOOL: RefCell<StableHashMap<Bool, Option<bool>>> = RefCell::new(StableHashMap::default());
    /// The floating value each computed `float` or `double` bit-vector
    /// encodes ([`computed_bits`]), so that the next operation reads it
    /// directly instead of converting the bits back: `to_fp(to_ieee_bv(x))`
    /// chains made Z3 take seconds on a few operations.
    static FLOAT_OF_BITS: RefCell<StableHashMap<BV, Float>> = RefCell::new(StableHashMap::default());
    /// The symbol of [`Cell::indeterminate`]: no input, never solved for.
    static INDETERMINATE_BYTE: BV = BV::new_const("indeterminate byte", 8);
    /// Memo of [`symbols_of`], by the term's address.
    static SYMBOLS_OF: RefCell<StableHashMap<usize, KnownSymbols>> =
        RefCell::new(StableHashMap::default());
}

/// Adds `key` to a memo, emptied first when it holds
/// [`MEMO_ENTRIES`]: a memo only saves work, and each entry keeps its
/// term alive, so an unbounded one grows with every term a search makes.
fn remember<K: std::hash::Hash + Eq, V>(
    memo: &'static std::thread::LocalKey<RefCell<StableHashMap<K, V>>>,
    key: K,
    value: V,
) {
    memo.with(|m| {
        let mut m = m.borrow_mut();
        if m.len() >= MEMO_ENTRIES {
            m.clear();
        }
        m.insert(key, value);
    });
}

/// The symbols of a term, which is kept so that no other term takes its address.
struct KnownSymbols {
    _term: Dynamic,
    symbols: Rc<[usize]>,
}

/// The address Z3 gives `term`: terms are shared, so two live terms are
/// the same term exactly when their addresses are equal.
pub fn address<T: Ast>(term: &T) -> usize {
    term.get_z3_ast().as_ptr() as usize
}

/// The symbols (uninterpreted constants) `term` mentions, by address.
pub fn symbols_of(term: &Dynamic) -> Rc<[usize]> {
    let key = address(term);
    if let Some(known) = SYMBOLS_OF.with(|m| m.borrow().get(&key).map(|k| k.symbols.clone())) {
        return known;
    }
    let symbols: Rc<[usize]> = symbol_terms(term).iter().map(address).collect();
    let known = KnownSymbols {
        _term: term.clone(),
        symbols: symbols.clone(),
    };
    remember(&SYMBOLS_OF, key, known);
    symbols
}

/// The symbols `term` mentions, each once, in no set order.
pub fn symbol_terms(term: &Dynamic) -> Vec<Dynamic> {
    let mut symbols = Vec::new();
    let mut seen = crate::stable_hash::StableHashSet::default();
    let mut stack = vec![term.clone()];
    while let Some(t) = stack.pop() {
        if !seen.insert(address(&t)) {
            continue;
        }
        if t.is_const() {
            // Numerals are constants too; symbols of values are bit-vectors.
            if t.kind() == z3::AstKind::App && t.as_bv().is_some() {
                symbols.push(t);
            }
            continue;
        }
        stack.extend(t.children());
    }
    symbols
}

/// Records that `bits` encodes `value` (any NaN encoding for a NaN, which
/// SMT-LIB's floating-point theory has only one of) and returns `bits`.
pub fn computed_bits(bits: BV, value: &Float) -> Word {
    FLOAT_OF_BITS.with(|m| m.borrow_mut().insert(bits.clone(), value.clone()));
    Word::from(bits)
}

/// The numeric value of `v` when it is known or its term simplifies to a constant.
pub fn concrete(v: &Word) -> Option<u128> {
    match v {
        Word::Known { bits, .. } => Some(*bits),
        Word::Term(term) => concrete_term(term),
    }
}

/// The numeric value of `v` when it simplifies to a constant.
pub fn concrete_term(v: &BV) -> Option<u128> {
    let bits = v.get_size();
    if bits <= 64 {
        if let Some(n) = v.as_u64() {
            return Some(u128::from(n));
        }
    }
    if let Some(known) = SIMPLIFIED_BV.with(|m| m.borrow().get(v).copied()) {
        return known;
    }
    let s = v.simplify();
    let value = if bits <= 64 {
        s.as_u64().map(u128::from)
    } else {
        let high = s.extract(bits - 1, 64).simplify().as_u64();
        let low = s.extract(63, 0).simplify().as_u64();
        high.zip(low)
            .map(|(h, l)| (u128::from(h) << 64) | u128::from(l))
    };
    remember(&SIMPLIFIED_BV, v.clone(), value);
    value
}

/// The truth value of `c` when it is known or its term simplifies to a constant.
pub fn cond_value(c: &Cond) -> Option<bool> {
    match c {
        Cond::Known(known) => Some(*known),
        Cond::Term(term) => bool_value(term),
    }
}

/// The truth value of `b` when it simplifies to a constant.
pub fn bool_value(b: &Bool) -> Option<bool> {
    if let Some(known) = b.as_bool() {
        return Some(known);
    }
    if let Some(known) = SIMPLIFIED_BOOL.with(|m| m.borrow().get(b).copied()) {
        return known;
    }
    let value = b.simplify().as_bool();
    remember(&SIMPLIFIED_BOOL, b.clone(), value);
    value
}

/// C truth value `b ? 1 : 0` in `bits` bits.
pub fn bool_to_bv(b: &Cond, bits: u32) -> Word {
    b.ite(&Word::known(1, bits), &Word::known(0, bits))
}

pub fn is_nonzero(v: &Word) -> Cond {
    v.eq(Word::known(0, v.get_size())).not()
}

/// Resizes an integer: truncation, or sign/zero extension by the source signedness.
pub fn resize(v: &Word, to_bits: u32, source_signed: bool) -> Word {
    let from = v.get_size();
    if to_bits == from {
        v.clone()
    } else if to_bits < from {
        v.extract(to_bits - 1, 0)
    } else if source_signed {
        v.sign_ext(to_bits - from)
    } else {
        v.zero_ext(to_bits - from)
    }
}

/// A bit-field's value read from the integer of its storage bytes (see
/// [`ir::BitField`]), sign- or zero-extended to `to_bits`.
pub fn bit_field_get(storage: &Word, bits: ir::BitField, to_bits: u32, signed: bool) -> Word {
    let low = u32::from(bits.shift);
    let field = storage.extract(low + u32::from(bits.width) - 1, low);
    resize(&field, to_bits, signed)
}

/// The integer of a bit-field's storage bytes with the field's bits
/// replaced by the low bits of `value`: the other bits are kept.
pub fn bit_field_put(storage: &Word, bits: ir::BitField, value: &Word) -> Word {
    let low = u32::from(bits.shift);
    let high = low + u32::from(bits.width);
    let mut result = resize(value, u32::from(bits.width), false);
    if low > 0 {
        result = result.concat(storage.extract(low - 1, 0));
    }
    if high < storage.get_size() {
        result = storage
            .extract(storage.get_size() - 1, high)
            .concat(&result);
    }
    result
}

/// The cells of an integer value, least significant byte first.
pub fn int_cells(v: &Word) -> Vec<Cell> {
    (0..v.get_size() / 8)
        .map(|idx| Cell::Byte {
            src: v.clone(),
            idx,
        })
        .collect()
}

/// The cells of a pointer stored in `bytes` bytes (the data model's size).
pub fn ptr_cells(p: PtrVal, bytes: u64) -> Vec<Cell> {
    let shared = Rc::new(p);
    (0..bytes as u32)
        .map(|idx| Cell::Ptr {
            ptr: shared.clone(),
            idx,
        })
        .collect()
}

/// The cells of any value; a pointer takes `pointer_bytes`.
pub fn value_cells(v: &SymVal, pointer_bytes: u64) -> Vec<Cell> {
    match v {
        SymVal::Int(bv) => int_cells(bv),
        SymVal::Ptr(p) => ptr_cells(p.clone(), pointer_bytes),
        SymVal::Bytes(cells) => cells.as_ref().clone(),
    }
}

/// The 8-bit term of one cell; pointer bytes are numeric only for NULL.
pub fn cell_byte(cell: &Cell) -> Modelled<Word> {
    match cell {
        Cell::Byte { src, idx } => {
            if src.get_size() == 8 {
                Ok(src.clone())
            } else {
                Ok(src.extract(idx * 8 + 7, idx * 8))
            }
        }
        Cell::Ptr { ptr, idx } => match ptr.target {
            Target::Null => Ok(ptr.offset.extract(idx * 8 + 7, idx * 8)),
            _ => unsupported("the bytes of a pointer read as an integer"),
        },
        // Every read builds the bytes first; one that did not is cairn's slip.
        Cell::Deferred => unsupported("an input byte read before it was made"),
    }
}

/// Reassembles an integer from little-endian cells, returning a whole stored
/// value unchanged when the cells are exactly its bytes.
pub fn cells_to_int(cells: &[Cell]) -> Modelled<Word> {
    if let Some(Cell::Byte { src, .. }) = cells.first() {
        let whole = src.get_size() as usize == cells.len() * 8
            && cells.iter().enumerate().all(|(i, c)| match c {
                Cell::Byte { src: s, idx } => *idx as usize == i && s == src,
                Cell::Ptr { .. } | Cell::Deferred => false,
            });
        if whole {
            return Ok(src.clone());
        }
    }
    let mut acc: Option<Word> = None;
    for cell in cells.iter().rev() {
        let byte = cell_byte(cell)?;
        acc = Some(match acc {
            None => byte,
            Some(high) => high.concat(&byte),
        });
    }
    acc.ok_or_else(|| Unsupported("a read of zero bytes".into()))
}

/// Reassembles a pointer from the cells of a pointer-sized read: the bytes
/// of one stored pointer, or numeric bytes (an integer, NULL when 0), whose
/// offset is widened to 64 bits as an unsigned address.
pub fn cells_to_ptr(cells: &[Cell]) -> Modelled<PtrVal> {
    if let Some(Cell::Ptr { ptr, .. }) = cells.first() {
        let whole = cells.iter().enumerate().all(|(i, c)| match c {
            Cell::Ptr { ptr: p, idx } => *idx as usize == i && Rc::ptr_eq(p, ptr),
            Cell::Byte { .. } | Cell::Deferred => false,
        });
        if whole {
            return Ok(ptr.as_ref().clone());
        }
    }
    let bits = cells_to_int(cells)?;
    Ok(PtrVal {
        target: Target::Null,
        offset: resize(&bits, 64, false),
    })
}

/// An upper bound on the bits `v` needs as a signed number: exact for
/// constants, the source width for sign/zero extensions, else its width.
/// Lets overflow checks skip operations that cannot overflow (e.g. products
/// of values widened from `int` to `long long`), which the solver finds hard.
pub fn signed_bits(v: &Word) -> u32 {
    let width = v.get_size();
    if let Some(n) = concrete(v) {
        let value = if width < 128 && (n >> (width - 1)) & 1 == 1 {
            !n & ((1u128 << width) - 1)
        } else {
            n
        };
        return 129 - value.leading_zeros().min(128);
    }
    let Word::Term(v) = v else {
        return width;
    };
    let Ok(decl) = v.safe_decl() else {
        return width;
    };
    let child = v.nth_child(0).and_then(|c| c.as_bv()).map(|c| c.get_size());
    match (decl.kind(), child) {
        (z3::DeclKind::SignExt, Some(bits)) => bits,
        (z3::DeclKind::ZeroExt, Some(bits)) => bits + 1,
        _ => width,
    }
}

/// The input symbol `cond` pins to a number (`x == 5`, also as `!(x != 5)`
/// or C's `(x == 5 ? 1 : 0) != 0`) with that number: a path that assumes it
/// may read the symbol as the number from then on (see `State::fixed`).
pub fn pinned_symbol(cond: &Bool) -> Option<(BV, BV)> {
    pinned_by(&Dynamic::from_ast(cond), true)
}

/// [`pinned_symbol`] of `term` when `holds`, of its negation otherwise.
fn pinned_by(term: &Dynamic, holds: bool) -> Option<(BV, BV)> {
    use z3::DeclKind as K;
    let kind = |t: &Dynamic| t.safe_decl().ok().map(|d| d.kind());
    let child = |t: &Dynamic, n: usize| t.nth_child(n);
    match kind(term)? {
        K::Not => pinned_by(&child(term, 0)?, !holds),
        K::Eq => {
            let (a, b) = (child(term, 0)?.as_bv()?, child(term, 1)?.as_bv()?);
            let (other, number) = match (concrete_term(&a), concrete_term(&b)) {
                (None, Some(n)) => (a, n),
                (Some(n), None) => (b, n),
                _ => return None,
            };
            if other.is_const() {
                return holds.then(|| {
                    let value = bv_u(number, other.get_size());
                    (other, value)
                });
            }
            // `(c ? t : e) == number` with `t`, `e` numbers: `c` or `!c`.
            let other = Dynamic::from_ast(&other);
            if kind(&other)? != K::Ite {
                return None;
            }
            let then = concrete_term(&child(&other, 1)?.as_bv()?)?;
            let otherwise = concrete_term(&child(&other, 2)?.as_bv()?)?;
            match (then == number, otherwise == number) {
                (true, false) => pinned_by(&child(&other, 0)?, holds),
                (false, true) => pinned_by(&child(&other, 0)?, !holds),
                _ => None,
            }
        }
        _ => None,
    }
}

/// `bits` of an integer `width` bits wide as a number, negative when
/// `signed` and its top bit is set.
pub fn sign_extend(bits: u128, width: u32, signed: bool) -> i128 {
    if !signed || width == 0 || width >= 128 {
        return bits as i128;
    }
    let shift = 128 - width;
    ((bits << shift) as i128) >> shift
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_symbols_of_a_term_are_its_bit_vector_constants() {
        let (key, len) = (BV::new_const("key", 32), BV::new_const("len", 32));
        let chosen = key.eq(bv_u(3, 32)).ite(&len, &bv_u(1, 32));
        let symbols = symbols_of(&Dynamic::from_ast(&chosen.bvadd(&key)));
        let mut expected = [address(&key), address(&len)];
        let mut found = symbols.to_vec();
        expected.sort_unstable();
        found.sort_unstable();
        assert_eq!(found, expected);
        assert!(symbols_of(&Dynamic::from_ast(&bv_u(7, 32))).is_empty());
    }

    #[test]
    fn an_equality_the_path_assumes_pins_its_symbol_in_any_spelling() {
        let key = BV::new_const("key", 32);
        let three = bv_u(3, 32);
        let pinned = Some((key.clone(), three.clone()));
        assert_eq!(pinned_symbol(&key.eq(&three)), pinned);
        assert_eq!(pinned_symbol(&key.eq(&three).not().not()), pinned);
        // C's `(key != 3) == 0`, as a branch condition reads.
        let differs = key.eq(&three).not().ite(&bv_u(1, 32), &bv_u(0, 32));
        assert_eq!(pinned_symbol(&differs.eq(bv_u(0, 32))), pinned);
        assert_eq!(pinned_symbol(&differs.eq(bv_u(1, 32))), None);
        assert_eq!(pinned_symbol(&key.eq(&three).not()), None);
        assert_eq!(pinned_symbol(&key.bvmul(&key).eq(&three)), None);
    }

    #[test]
    fn signed_products_fit_exactly_when_the_product_is_in_range() {
        // Made in at most 128 bits, then sign-extended to `bits`.
        let fits = |x: i128, y: i128, bits: u32| {
            let narrow = bits.min(128);
            let value = |v: i128| resize(&Word::known(v as u128, narrow), bits, true);
            let symbolic = |v: i128| Word::Term(value(v).term());
            let native = cond_value(&value(x).signed_mul_fits(&value(y)));
            let by_z3 = cond_value(&symbolic(x).signed_mul_fits(&symbolic(y)));
            assert_eq!(native, by_z3, "{x} * {y} in {bits} bits");
            by_z3
        };
        // 3 bits hold -4..=3.
        assert_eq!(fits(-1, 3, 3), Some(true));
        assert_eq!(fits(-2, 2, 3), Some(true));
        assert_eq!(fits(-4, 1, 3), Some(true));
        assert_eq!(fits(-4, -1, 3), Some(false));
        assert_eq!(fits(2, 2, 3), Some(false));
        assert_eq!(fits(-3, -1, 3), Some(true));
        assert_eq!(fits(0, -4, 3), Some(true));
        // gnu.c's scaled_offset: -1 * 4294967295 in 65 bits.
        assert_eq!(fits(-1, 4_294_967_295, 65), Some(true));
        assert_eq!(fits(i128::from(i64::MIN), 2, 64), Some(false));
        assert_eq!(fits(-(1 << 100), 1 << 27, 129), Some(true));
        assert_eq!(fits(1 << 100, 1 << 28, 129), Some(false));
    }

    #[test]
    fn resize_truncates_and_extends_by_source_signedness() {
        let minus_two = Word::known(0xfe, 8);
        assert_eq!(concrete(&resize(&minus_two, 32, true)), Some(0xffff_fffe));
        assert_eq!(concrete(&resize(&minus_two, 32, false)), Some(0xfe));
        assert_eq!(
            concrete(&resize(&Word::known(0x1234_5678, 32), 16, true)),
            Some(0x5678)
        );
    }

    #[test]
    fn wide_constants_round_trip() {
        let v = (1u128 << 100) | 0xabc;
        assert_eq!(concrete_term(&bv_u(v, 128)), Some(v));
    }

    #[test]
    fn signed_bits_bounds_operands() {
        assert_eq!(signed_bits(&Word::known(0, 32)), 1);
        assert_eq!(signed_bits(&Word::known(127, 32)), 8);
        assert_eq!(
            signed_bits(&Word::known(0xffff_ff80, 32)),
            8,
            "-128 needs 8 bits"
        );
        let x = Word::Term(BV::new_const("x", 32));
        assert_eq!(signed_bits(&x.sign_ext(32)), 32);
        assert_eq!(signed_bits(&x.zero_ext(32)), 33);
        assert_eq!(signed_bits(&x), 32);
    }

    #[test]
    fn a_32_bit_pointer_comes_back_whole_or_as_an_unsigned_address() {
        let p = PtrVal {
            target: Target::Null,
            offset: Word::known(0xffff_fff0, 64),
        };
        let cells = ptr_cells(p, 4);
        assert_eq!(cells.len(), 4);
        let back = cells_to_ptr(&cells).unwrap();
        assert_eq!(concrete(&back.offset), Some(0xffff_fff0));
        let numeric = cells_to_ptr(&int_cells(&Word::known(0x8000_0000, 32))).unwrap();
        assert_eq!(concrete(&numeric.offset), Some(0x8000_0000));
    }

    #[test]
    fn whole_values_come_back_from_their_cells() {
        let x = Word::Term(BV::new_const("y", 32));
        let cells = int_cells(&x);
        assert!(cells_to_int(&cells).unwrap() == x);
        let p = PtrVal::to(Target::Null);
        assert!(matches!(
            cells_to_ptr(&ptr_cells(p, 8)).unwrap().target,
            Target::Null
        ));
        assert!(matches!(
            cells_to_ptr(&int_cells(&Word::known(0, 64)))
                .unwrap()
                .target,
            Target::Null
        ));
    }
}
