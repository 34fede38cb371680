//! Expressions with bit-exact C semantics on x86 (LP64 or ILP32). Pointer
//! offsets are 64-bit in both data models; an ILP32 address is their low
//! 32 bits, cut where a pointer becomes an integer or is stored.

use super::float;
use super::Machine;
use super::{unsupported, Exec, Stop};
use crate::state::State;
use crate::value::{
    bool_to_bv, concrete, is_nonzero, resize, sign_extend, signed_bits, Cond, PtrVal, SymVal,
    Target, Word,
};
use ir::{BinOp, Expr, ExprKind, IntType, Layout, Span, Type, UnOp};
use testcase::FindingKind;

/// Farthest a pointer moved by a symbolic amount lies from the start of
/// its object: 1 TiB either way (16 MiB under ILP32). No object is
/// larger, and an address moved farther may wrap around the address
/// space, which is undefined (`-fsanitize=pointer-overflow` stops `ops +
/// nops` with a huge `nops`): no test takes such a path.
fn farthest_offset(data_model: ir::DataModel) -> u128 {
    match data_model.pointer_bytes() {
        4 => 1 << 24,
        _ => 1 << 40,
    }
}

fn within_address_space(offset: &Word, farthest: u128) -> Cond {
    let bits = offset.get_size();
    let low = Word::known(farthest.wrapping_neg() & (u128::MAX >> (128 - bits)), bits);
    Cond::and(&[offset.bvsge(low), offset.bvsle(Word::known(farthest, bits))])
}

impl Machine<'_, '_> {
    pub fn eval(&mut self, st: &mut State, e: &Expr) -> Exec<SymVal> {
        match &e.kind {
            ExprKind::Int(bits) => match &e.ty {
                Type::Int(it) => Ok(SymVal::Int(Word::known(*bits, u32::from(it.bits)))),
                Type::Pointer(_) => Ok(SymVal::Ptr(PtrVal {
                    target: Target::Null,
                    offset: Word::known(*bits, 64),
                })),
                _ => unsupported("an integer constant of non-integer type"),
            },
            ExprKind::Float(bits) => match e.ty.as_ieee_float() {
                Some(kind) => Ok(SymVal::Int(Word::known(
                    u128::from(*bits),
                    float::width(kind),
                ))),
                None => unsupported("a floating constant of a type other than float or double"),
            },
            ExprKind::Null => Ok(SymVal::Ptr(PtrVal::to(Target::Null))),
            ExprKind::Load(place) => {
                let loc = self.place_loc(st, place)?;
                self.load(st, &loc)
            }
            ExprKind::AddrOf(place) => Ok(SymVal::Ptr(self.place_addr(st, place)?.0)),
            ExprKind::FuncAddr(f) => Ok(SymVal::Ptr(PtrVal::to(Target::Func(*f)))),
            ExprKind::Str(s) => Ok(SymVal::Ptr(PtrVal::to(Target::Str(*s)))),
            ExprKind::Unary(op, a) => self.unary(st, *op, a, &e.ty),
            ExprKind::Binary(op, a, b) => self.binary(st, *op, a, b, &e.ty),
            ExprKind::PtrAdd(p, i) => {
                let mut ptr = self.eval_ptr(st, p)?;
                let index = self.eval_int(st, i)?;
                let signed = i.ty.as_int().is_none_or(|t| t.signed);
                let size = p.ty.pointee().map(|t| self.program.size_of(t)).unwrap_or(1);
                let delta = self.scaled_index(st, &index, signed, size)?;
                if concrete(&delta).is_none() {
                    if !matches!(self.resolved(st, &ptr.target), Target::Null) {
                        let farthest = farthest_offset(self.program.data_model);
                        let moved = ptr.offset.bvadd(&delta);
                        self.assume(st, &within_address_space(&moved, farthest))?;
                    } else if concrete(&ptr.offset) == Some(0) {
                        // Moving a null pointer is undefined (UBSan stops
                        // `NULL + n`): a test keeps it null.
                        self.assume(st, &delta.eq(Word::known(0, delta.get_size())))?;
                    }
                }
                ptr.offset = ptr.offset.bvadd(&delta);
                Ok(SymVal::Ptr(ptr))
            }
            ExprKind::PtrDiff(a, b) => {
                let pa = self.eval_ptr(st, a)?;
                let pb = self.eval_ptr(st, b)?;
                let (tb, ta) = self.decided_in_order(st, &pb, &pa)?;
                if ta != tb {
                    return unsupported("difference of pointers into different objects");
                }
                let size =
                    a.ty.pointee()
                        .map(|t| self.program.size_of(t))
                        .unwrap_or(1)
                        .max(1);
                let diff = pa
                    .offset
                    .bvsub(&pb.offset)
                    .bvsdiv(Word::known(u128::from(size), 64));
                let bits = e.ty.as_int().map(|t| u32::from(t.bits)).unwrap_or(64);
                Ok(SymVal::Int(resize(&diff, bits, true)))
            }
            ExprKind::Cast(a) => self.cast(st, a, &e.ty),
        }
    }

    pub fn eval_int(&mut self, st: &mut State, e: &Expr) -> Exec<Word> {
        match self.eval(st, e)? {
            SymVal::Int(v) => Ok(v),
            _ => unsupported("a non-integer where an integer is needed"),
        }
    }

    pub fn eval_ptr(&mut self, st: &mut State, e: &Expr) -> Exec<PtrVal> {
        match self.eval(st, e)? {
            SymVal::Ptr(p) => Ok(p),
            _ => unsupported("a non-pointer where a pointer is needed"),
        }
    }

    /// The pointer's target, forking first when it is an undecided input.
    fn decided(&mut self, st: &State, p: &PtrVal) -> Exec<Target> {
        match self.resolved(st, &p.target) {
            Target::Lazy(l) => Err(self.decide(st, l)),
            t => Ok(t),
        }
    }

    /// The targets of two pointers compared or subtracted, `low` expected
    /// not to lie beyond `high`. Two undecided inputs are decided `low`
    /// first, so that `high` may point into `low`'s buffer, at or after its
    /// start: `p < end` (or its negation `p >= end`), `end > p` and
    /// `end - p` can then go either way, whichever pointer the code read
    /// first. A bounds check written the other way round (`start > limit`
    /// returns early) needs `low` inside `high`'s buffer: so `high` may
    /// also be decided first, as a buffer of its own. A literal or a global
    /// is the object that holds it, if the path made one (a pointer a
    /// native call returned into it points to that).
    fn decided_in_order(
        &mut self,
        st: &State,
        low: &PtrVal,
        high: &PtrVal,
    ) -> Exec<(Target, Target)> {
        if let (Target::Lazy(low_lazy), Target::Lazy(high_lazy)) = (
            self.resolved(st, &low.target),
            self.resolved(st, &high.target),
        ) {
            let low_first = self.decide(st, low_lazy);
            let Stop::Fork(mut choices) = low_first else {
                return Err(low_first);
            };
            if let Stop::Fork(high_first) = self.decide(st, high_lazy) {
                let own_buffer = |next: &State| {
                    matches!(next.lazies[high_lazy as usize].resolution,
                        Some(Target::Object(obj)) if obj as usize >= st.objects.len())
                };
                choices.extend(high_first.into_iter().filter(own_buffer));
            }
            return Err(Stop::Fork(choices));
        }
        let object = |t: Target| match t {
            Target::Str(id) => st.strings[id.index()].map_or(t, Target::Object),
            Target::Global(g) => st.globals[g.index()].map_or(t, Target::Object),
            t => t,
        };
        Ok((
            object(self.decided(st, low)?),
            object(self.decided(st, high)?),
        ))
    }

    fn unary(&mut self, st: &mut State, op: UnOp, a: &Expr, ty: &Type) -> Exec<SymVal> {
        let v = self.eval(st, a)?;
        if op == UnOp::LogicalNot {
            let t = self.truth(st, &v)?;
            return Ok(SymVal::Int(bool_to_bv(&t.not(), int_bits(ty))));
        }
        let SymVal::Int(x) = v else {
            return unsupported("arithmetic on a non-integer");
        };
        if let Some(kind) = a.ty.as_ieee_float() {
            return match op {
                UnOp::Neg => Ok(SymVal::Int(float::negate(&x, kind))),
                UnOp::SignBit => Ok(SymVal::Int(float::sign_of(&x, kind))),
                _ => unsupported("this operation on a floating value"),
            };
        }
        if matches!(a.ty, Type::Float(_)) {
            return unsupported("long double arithmetic");
        }
        match op {
            UnOp::Neg => {
                if ty.as_int().is_some_and(|t| t.signed) {
                    let min = Word::known(1u128 << (x.get_size() - 1), x.get_size());
                    self.check_fault(
                        st,
                        FindingKind::SignedOverflow,
                        &x.eq(&min),
                        "negation of the minimum value",
                    )?;
                }
                Ok(SymVal::Int(x.bvneg()))
            }
            UnOp::Not => Ok(SymVal::Int(x.bvnot())),
            UnOp::LogicalNot => unreachable!("handled above"),
            UnOp::SignBit => unsupported("the sign bit of an integer"),
            UnOp::LeadingZeros | UnOp::TrailingZeros => {
                let width = x.get_size();
                let name = if op == UnOp::LeadingZeros {
                    "clz"
                } else {
                    "ctz"
                };
                self.check_fault(
                    st,
                    FindingKind::InvalidBuiltinArgument,
                    &x.eq(Word::known(0, width)),
                    &format!("{name} of 0 (undefined)"),
                )?;
                // The first one bit from the counted end decides; 0 has none
                // and gets `width`, never used since it is a finding above.
                let mut count = Word::known(u128::from(width), width);
                let positions: Vec<u32> = if op == UnOp::LeadingZeros {
                    (0..width).collect()
                } else {
                    (0..width).rev().collect()
                };
                for bit in positions {
                    let zeros = if op == UnOp::LeadingZeros {
                        width - 1 - bit
                    } else {
                        bit
                    };
                    let set = x.extract(bit, bit).eq(Word::known(1, 1));
                    count = set.ite(&Word::known(u128::from(zeros), width), &count);
                }
                Ok(SymVal::Int(count))
            }
            UnOp::CountOnes => {
                let width = x.get_size();
                let ones = (0..width)
                    .map(|bit| x.extract(bit, bit).zero_ext(width - 1))
                    .reduce(|sum, b| sum.bvadd(&b))
                    .unwrap_or_else(|| Word::known(0, width));
                Ok(SymVal::Int(ones))
            }
        }
    }

    fn binary(&mut self, st: &mut State, op: BinOp, a: &Expr, b: &Expr, ty: &Type) -> Exec<SymVal> {
        let va = self.eval(st, a)?;
        let vb = self.eval(st, b)?;
        if let Some(kind) = a.ty.as_ieee_float() {
            let (SymVal::Int(x), SymVal::Int(y)) = (&va, &vb) else {
                return unsupported("floating arithmetic on a non-number");
            };
            if op.is_predicate() {
                let Some(c) = float::compare(op, x, y, kind) else {
                    return unsupported("this floating comparison");
                };
                self.note_float_comparison(st, op, x, y, kind);
                return Ok(SymVal::Int(bool_to_bv(&c, int_bits(ty))));
            }
            return match float::arithmetic(op, x, y, kind) {
                Some(result) => Ok(SymVal::Int(result)),
                None => unsupported("this floating operation"),
            };
        }
        if op.is_predicate() {
            let c = match (&va, &vb) {
                (SymVal::Int(x), SymVal::Int(y)) => {
                    let signed = a.ty.as_int().is_some_and(|t| t.signed);
                    // Operands have one type already; resizing guards a malformed input.
                    let y = resize(y, x.get_size(), b.ty.as_int().is_some_and(|t| t.signed));
                    self.note_comparison(st, op, x, &y, signed);
                    compare_ints(op, x, &y, signed)
                }
                (SymVal::Ptr(p), SymVal::Ptr(q)) => self.compare_ptrs(st, op, p, q)?,
                (SymVal::Ptr(p), SymVal::Int(y)) | (SymVal::Int(y), SymVal::Ptr(p)) => {
                    let q = PtrVal {
                        target: Target::Null,
                        offset: resize(y, 64, false),
                    };
                    self.compare_ptrs(st, op, p, &q)?
                }
                _ => return unsupported("comparison of aggregates"),
            };
            return Ok(SymVal::Int(bool_to_bv(&c, int_bits(ty))));
        }
        let (SymVal::Int(x), SymVal::Int(y)) = (va, vb) else {
            return unsupported("integer arithmetic on pointers");
        };
        let it = ty.as_int().unwrap_or(IntType::INT);
        let rhs = b.ty.as_int().unwrap_or(it);
        let x = resize(
            &x,
            u32::from(it.bits),
            a.ty.as_int().is_some_and(|t| t.signed),
        );
        let y = match op {
            BinOp::Shl | BinOp::Shr => y,
            _ => resize(&y, u32::from(it.bits), rhs.signed),
        };
        self.arith(st, op, &x, &y, it, rhs)
    }

    /// Tells the hooks of a comparison of integers in the call under test
    /// whose sides depend on the inputs (boundary goals): ordered ones, and
    /// equalities too: `kind == 3` tested also with `kind` at 2 and 4
    /// tells it from a comparison with another constant or input.
    fn note_comparison(&mut self, st: &State, op: BinOp, x: &Word, y: &Word, signed: bool) {
        if !matches!(
            op,
            BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge | BinOp::Eq | BinOp::Ne
        ) || !self.runs_call_under_test(st)
        {
            return;
        }
        // One bit wider, the difference cannot wrap.
        let widen = |v: &Word| if signed { v.sign_ext(1) } else { v.zero_ext(1) };
        let difference = widen(x).bvsub(widen(y));
        self.note_difference(st, self.span, &difference);
    }

    /// Tells the hooks of a comparison at `place` whose sides differ by
    /// `difference`: when it depends on the inputs, or in a run whose
    /// inputs are numbers, when it is at an edge.
    fn note_difference(&mut self, st: &State, place: Span, difference: &Word) {
        let Some(bits) = concrete(difference) else {
            self.hooks.compared(st, place, &difference.term());
            return;
        };
        if st.native_inputs.is_some() {
            let offset = sign_extend(bits, difference.get_size(), true);
            if let Ok(offset @ -1..=1) = i8::try_from(offset) {
                self.hooks.at_edge(st, place, offset);
            }
        }
    }

    /// Tells the hooks of the edges of each case range (`case 200 ... 299`,
    /// lowered to one case per value): its first value, placed at the
    /// arm's code, and its last, placed at the switch. A test just below a
    /// range's first value also sits on the last value of a range ending
    /// there.
    pub(super) fn note_case_ranges(
        &mut self,
        st: &State,
        v: &Word,
        signed: bool,
        cases: &[(i128, ir::BlockId)],
    ) -> Exec<()> {
        let known = concrete(v).is_some() && st.native_inputs.is_none();
        if !self.runs_call_under_test(st) || known {
            return Ok(());
        }
        let body = self.body(st.frame().func)?;
        let bits = v.get_size();
        let widen = |w: &Word| if signed { w.sign_ext(1) } else { w.zero_ext(1) };
        let value_of = |c: i128| widen(&Word::known(c as u128, bits));
        let mut start = 0;
        while start < cases.len() {
            let (first, target) = cases[start];
            let mut end = start + 1;
            while end < cases.len()
                && cases[end].1 == target
                && cases[end - 1].0.checked_add(1) == Some(cases[end].0)
            {
                end += 1;
            }
            if end - start > 1 {
                let arm = &body.blocks[target.index()];
                let arm_place = arm.stmts.first().map_or(arm.term_span, |s| s.span);
                let last = cases[end - 1].0;
                for (place, edge) in [(arm_place, first), (self.span, last)] {
                    let difference = widen(v).bvsub(value_of(edge));
                    self.note_difference(st, place, &difference);
                }
            }
            start = end;
        }
        Ok(())
    }

    /// Tells the hooks of an ordered comparison of floating values in the
    /// call under test: its boundary is both sides equal, which tells `<`
    /// from `<=`. The difference given is 0 there and 2 elsewhere, so the
    /// offsets one less and one more, which mean nothing between doubles,
    /// are never met.
    fn note_float_comparison(
        &mut self,
        st: &State,
        op: BinOp,
        x: &Word,
        y: &Word,
        kind: ir::FloatKind,
    ) {
        if !matches!(op, BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge)
            || !self.runs_call_under_test(st)
        {
            return;
        }
        let Some(equal) = float::compare(BinOp::Eq, x, y, kind) else {
            return;
        };
        let apart = bool_to_bv(&equal.not(), 2);
        let difference = apart.bvadd(&apart);
        self.note_difference(st, self.span, &difference);
    }

    fn arith(
        &mut self,
        st: &mut State,
        op: BinOp,
        x: &Word,
        y: &Word,
        it: IntType,
        rhs: IntType,
    ) -> Exec<SymVal> {
        let bits = x.get_size();
        let zero = Word::known(0, bits);
        let signed = it.signed;
        let overflow = FindingKind::SignedOverflow;
        let result = match op {
            BinOp::Add => {
                if signed && may_overflow_sum(x, y) {
                    let ok = x.signed_add_fits(y);
                    self.check_fault(st, overflow, &ok.not(), "signed addition overflows")?;
                }
                x.bvadd(y)
            }
            BinOp::Sub => {
                if signed && may_overflow_sum(x, y) {
                    let ok = x.signed_sub_fits(y);
                    self.check_fault(st, overflow, &ok.not(), "signed subtraction overflows")?;
                }
                x.bvsub(y)
            }
            BinOp::Mul => {
                if signed && signed_bits(x) + signed_bits(y) > bits {
                    let ok = x.signed_mul_fits(y);
                    self.check_fault(st, overflow, &ok.not(), "signed multiplication overflows")?;
                }
                x.bvmul(y)
            }
            BinOp::Div | BinOp::Rem => {
                let what = if op == BinOp::Div {
                    "division"
                } else {
                    "remainder"
                };
                self.check_fault(
                    st,
                    FindingKind::DivisionByZero,
                    &y.eq(&zero),
                    &format!("{what} by zero"),
                )?;
                if signed {
                    let min = Word::known(1u128 << (bits - 1), bits);
                    let minus_one = Word::known(u128::MAX, bits);
                    let bad = Cond::and(&[x.eq(&min), y.eq(&minus_one)]);
                    self.check_fault(
                        st,
                        overflow,
                        &bad,
                        &format!("{what} of the minimum value by -1"),
                    )?;
                }
                match (op, signed) {
                    (BinOp::Div, true) => x.bvsdiv(y),
                    (BinOp::Div, false) => x.bvudiv(y),
                    (_, true) => x.bvsrem(y),
                    (_, false) => x.bvurem(y),
                }
            }
            BinOp::Shl | BinOp::Shr => {
                let amount_bits = y.get_size();
                let width = Word::known(u128::from(bits), amount_bits);
                let out_of_range = if rhs.signed {
                    Cond::or(&[y.bvslt(Word::known(0, amount_bits)), y.bvsge(&width)])
                } else {
                    y.bvuge(&width)
                };
                self.check_fault(
                    st,
                    FindingKind::ShiftOutOfRange,
                    &out_of_range,
                    "shift amount out of range",
                )?;
                let amount = resize(y, bits, false);
                if op == BinOp::Shl && signed {
                    // C11 6.5.7: a negative value shifted left, or one whose
                    // bits reach the sign bit, is undefined (UBSan's
                    // shift-base check: `1 << 31` ends a sanitized test).
                    let kept = Word::known(u128::from(bits - 1), bits).bvsub(&amount);
                    let bad = Cond::or(&[x.bvslt(&zero), x.bvlshr(&kept).eq(&zero).not()]);
                    self.check_fault(st, overflow, &bad, "signed left shift overflows")?;
                }
                match (op, signed) {
                    (BinOp::Shl, _) => x.bvshl(&amount),
                    (_, true) => x.bvashr(&amount),
                    (_, false) => x.bvlshr(&amount),
                }
            }
            BinOp::BitAnd => x.bvand(y),
            BinOp::BitOr => x.bvor(y),
            BinOp::BitXor => x.bvxor(y),
            _ => return unsupported("comparison as arithmetic"),
        };
        Ok(SymVal::Int(result))
    }

    fn compare_ptrs(&mut self, st: &mut State, op: BinOp, p: &PtrVal, q: &PtrVal) -> Exec<Cond> {
        // The strict order's smaller side first: `p < q` and `p >= q` put
        // `p` first, `p > q` and `p <= q` put `q` first.
        let (tp, tq) = match op {
            BinOp::Gt | BinOp::Le => {
                let (tq, tp) = self.decided_in_order(st, q, p)?;
                (tp, tq)
            }
            _ => self.decided_in_order(st, p, q)?,
        };
        // Offsets into one object order as its addresses do, a pointer
        // before its start (`args + n` with `n < 0`) too; a pointer made
        // of an integer is an address itself.
        if tp == tq {
            let signed = tp != Target::Null;
            return Ok(compare_ints(op, &p.offset, &q.offset, signed));
        }
        match op {
            BinOp::Eq => Ok(Cond::Known(false)),
            BinOp::Ne => Ok(Cond::Known(true)),
            _ => unsupported("ordering of pointers into different objects"),
        }
    }

    fn pointer_bits(&self) -> u32 {
        8 * self.program.data_model.pointer_bytes() as u32
    }

    fn cast(&mut self, st: &mut State, a: &Expr, to: &Type) -> Exec<SymVal> {
        let v = self.eval(st, a)?;
        if let (Some(from), SymVal::Int(x)) = (a.ty.as_ieee_float(), &v) {
            return match (to, to.as_ieee_float()) {
                (_, Some(to)) => Ok(SymVal::Int(float::convert(x, from, to))),
                (Type::Int(it), None) => {
                    let (converted, defined) = float::to_integer(x, from, *it);
                    self.check_fault(
                        st,
                        FindingKind::FloatConversionOverflow,
                        &defined.not(),
                        &format!(
                            "a floating value converted to {} is out of its range",
                            c_int_name(*it)
                        ),
                    )?;
                    Ok(SymVal::Int(converted))
                }
                _ => unsupported("this conversion of a floating value"),
            };
        }
        if let (Some(kind), SymVal::Int(x)) = (to.as_ieee_float(), &v) {
            let signed = a.ty.as_int().is_some_and(|t| t.signed);
            return Ok(SymVal::Int(float::from_integer(x, signed, kind)));
        }
        match (to, v) {
            (Type::Int(it), SymVal::Int(x)) if it.is_bool => {
                Ok(SymVal::Int(bool_to_bv(&is_nonzero(&x), 8)))
            }
            (Type::Int(it), SymVal::Int(x)) => {
                let signed = a.ty.as_int().is_some_and(|t| t.signed);
                Ok(SymVal::Int(resize(&x, u32::from(it.bits), signed)))
            }
            (Type::Int(it), SymVal::Ptr(p)) if it.is_bool => {
                let t = self.truth(st, &SymVal::Ptr(p))?;
                Ok(SymVal::Int(bool_to_bv(&t, 8)))
            }
            (Type::Int(it), SymVal::Ptr(p)) => match self.decided(st, &p)? {
                // The address has the pointer's width; gcc sign-extends it
                // into a wider integer (an i386 pointer into `long long`).
                Target::Null => {
                    let address = resize(&p.offset, self.pointer_bits(), false);
                    Ok(SymVal::Int(resize(&address, u32::from(it.bits), true)))
                }
                _ => unsupported("a pointer converted to an integer"),
            },
            (Type::Pointer(_), SymVal::Int(x)) => {
                // An address of the pointer's width, kept as a 64-bit offset.
                let signed = a.ty.as_int().is_some_and(|t| t.signed);
                let address = resize(&x, self.pointer_bits(), signed);
                Ok(SymVal::Ptr(PtrVal {
                    target: Target::Null,
                    offset: resize(&address, 64, false),
                }))
            }
            (Type::Pointer(pointee), SymVal::Ptr(p)) => {
                self.view_as_extension(st, &p, pointee);
                Ok(SymVal::Ptr(p))
            }
            (Type::Void, v) => Ok(v),
            (Type::Struct(_), v @ SymVal::Bytes(_)) => Ok(v),
            _ => unsupported("this conversion"),
        }
    }
}

/// The C name of an integer type, for messages.
fn c_int_name(it: IntType) -> String {
    let base = match (it.is_bool, it.bits) {
        (true, _) => return "_Bool".to_string(),
        (_, 8) => "char",
        (_, 16) => "short",
        (_, 32) => "int",
        _ => "long",
    };
    if it.signed {
        base.to_string()
    } else {
        format!("unsigned {base}")
    }
}

fn may_overflow_sum(x: &Word, y: &Word) -> bool {
    signed_bits(x).max(signed_bits(y)) + 1 > x.get_size()
}

fn int_bits(ty: &Type) -> u32 {
    ty.as_int().map(|t| u32::from(t.bits)).unwrap_or(32)
}

pub fn compare_ints(op: BinOp, x: &Word, y: &Word, signed: bool) -> Cond {
    match (op, signed) {
        (BinOp::Eq, _) => x.eq(y),
        (BinOp::Ne, _) => x.eq(y).not(),
        (BinOp::Lt, true) => x.bvslt(y),
        (BinOp::Lt, false) => x.bvult(y),
        (BinOp::Le, true) => x.bvsle(y),
        (BinOp::Le, false) => x.bvule(y),
        (BinOp::Gt, true) => x.bvsgt(y),
        (BinOp::Gt, false) => x.bvugt(y),
        (BinOp::Ge, true) => x.bvsge(y),
        (BinOp::Ge, false) => x.bvuge(y),
        (BinOp::MulOverflows, false) => x.unsigned_mul_fits(y).not(),
        (BinOp::MulOverflows, true) => x.signed_mul_fits(y).not(),
        _ => Cond::Known(false),
    }
}
