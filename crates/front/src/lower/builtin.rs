//! GCC builtins real code calls, lowered to IR expressions and statements
//! with gcc's exact meaning, and no branch (gcc's coverage counts none).

use super::expr::{deref_place, make_binary, make_cast, make_unary, Val};
use super::{Lowerer, R};
use ir::{BinOp, DataModel, Expr, IntType, StmtKind, Type, UnOp};
use lang_c::ast::Expression;
use lang_c::span::Node;

/// An arithmetic builtin that reports overflow.
#[derive(Clone, Copy)]
struct Overflow {
    op: BinOp,
    /// The operand and result type of a typed variant (`__builtin_saddl_overflow`).
    typed: Option<IntType>,
    /// `__builtin_add_overflow_p`: the result's type is the third argument's, nothing is stored.
    predicate: bool,
}

/// `add`, `sub` or `mul` from the middle of an overflow builtin's name.
fn arithmetic(word: &str) -> Option<BinOp> {
    match word {
        "add" => Some(BinOp::Add),
        "sub" => Some(BinOp::Sub),
        "mul" => Some(BinOp::Mul),
        _ => None,
    }
}

/// The type a `l`/`ll` suffix names: `int`, `long` or `long long`.
fn suffixed(suffix: &str, signed: bool, model: DataModel) -> Option<IntType> {
    let ty = match suffix {
        "" => IntType::INT,
        "l" => model.long(),
        "ll" => IntType::LONG_LONG,
        _ => return None,
    };
    Some(IntType::new(ty.bits, signed))
}

fn overflow_builtin(name: &str, model: DataModel) -> Option<Overflow> {
    let rest = name.strip_prefix("__builtin_")?;
    if let Some(op) = rest.strip_suffix("_overflow_p").and_then(arithmetic) {
        return Some(Overflow {
            op,
            typed: None,
            predicate: true,
        });
    }
    let rest = rest.strip_suffix("_overflow")?;
    if let Some(op) = arithmetic(rest) {
        return Some(Overflow {
            op,
            typed: None,
            predicate: false,
        });
    }
    let (signed, rest) = match rest.split_at_checked(1)? {
        ("s", rest) => (true, rest),
        ("u", rest) => (false, rest),
        _ => return None,
    };
    let (op, suffix) = rest.split_at_checked(3)?;
    Some(Overflow {
        op: arithmetic(op)?,
        typed: Some(suffixed(suffix, signed, model)?),
        predicate: false,
    })
}

/// A bit-counting builtin: its operation and the operand type its suffix names.
#[derive(Clone, Copy, PartialEq, Eq)]
enum BitCount {
    LeadingZeros,
    TrailingZeros,
    Ones,
    Parity,
    /// One plus the index of the least significant one bit, 0 for 0.
    FirstSet,
    ByteSwap,
}

fn bit_builtin(name: &str, model: DataModel) -> Option<(BitCount, IntType)> {
    let rest = name.strip_prefix("__builtin_")?;
    if let Some(bits) = rest.strip_prefix("bswap") {
        let bits = bits.parse().ok().filter(|b| matches!(b, 16 | 32 | 64))?;
        return Some((BitCount::ByteSwap, IntType::new(bits, false)));
    }
    let (kind, suffix, signed) = [
        ("clz", BitCount::LeadingZeros, false),
        ("ctz", BitCount::TrailingZeros, false),
        ("popcount", BitCount::Ones, false),
        ("parity", BitCount::Parity, false),
        ("ffs", BitCount::FirstSet, true),
    ]
    .into_iter()
    .find_map(|(word, kind, signed)| Some((kind, rest.strip_prefix(word)?, signed)))?;
    Some((kind, suffixed(suffix, signed, model)?))
}

impl Lowerer<'_> {
    /// The call of builtin `name` lowered, or `None` when it is no builtin
    /// this module knows.
    pub(super) fn builtin(
        &mut self,
        name: &str,
        args: &[Node<Expression>],
        at: usize,
    ) -> Option<R<Val>> {
        let model = self.program.data_model;
        if let Some(overflow) = overflow_builtin(name, model) {
            return Some(self.overflow(name, overflow, args, at));
        }
        if let Some((kind, ty)) = bit_builtin(name, model) {
            return Some(self.bit_count(name, kind, ty, args, at));
        }
        self.float_builtin(name, args, at)
    }

    pub(super) fn arguments<'n>(
        &self,
        name: &str,
        args: &'n [Node<Expression>],
        count: usize,
        at: usize,
    ) -> R<&'n [Node<Expression>]> {
        if args.len() == count {
            Ok(args)
        } else {
            self.error(
                at,
                format!("`{name}` takes {count} arguments, got {}", args.len()),
            )
        }
    }

    fn integer_argument(&mut self, e: &Node<Expression>) -> R<Expr> {
        let v = self.rvalue(e)?;
        match v.ty {
            Type::Int(t) if !t.is_bool => Ok(v),
            _ => self.error(e.span.start, "builtin argument must have integer type"),
        }
    }

    /// `__builtin_add_overflow(a, b, &r)` and its kin: `r` gets the result
    /// wrapped to its type, and the call is whether the infinitely precise
    /// result does not fit. Computed in an unsigned type one or two bits
    /// wider than any of the three types: every exact sum or difference has
    /// distinct bits there, as every value of `r`'s type does, so `r` read
    /// back equals the wide result exactly when it fits. A product can need
    /// twice the width, which the solver handles slowly: `MulOverflows`
    /// first says whether it fits the wide type (signed) at all. (The wide
    /// value is never stored: memory holds whole bytes.)
    fn overflow(
        &mut self,
        name: &str,
        overflow: Overflow,
        args: &[Node<Expression>],
        at: usize,
    ) -> R<Val> {
        let args = self.arguments(name, args, 3, at)?;
        let mut a = self.integer_argument(&args[0])?;
        let mut b = self.integer_argument(&args[1])?;
        let (result_type, destination) = if overflow.predicate {
            let ty = self.type_of_expr(&args[2])?;
            self.discard(&args[2])?;
            (ty, None)
        } else {
            let pointer = self.rvalue(&args[2])?;
            let Some(pointee) = pointer.ty.pointee().cloned() else {
                return self.error(args[2].span.start, "third argument must be a pointer");
            };
            (pointee, Some(deref_place(pointer)))
        };
        let result_type = match (overflow.typed, result_type) {
            (Some(t), Type::Int(r)) if r.bits == t.bits && r.signed == t.signed => t,
            (None, Type::Int(r)) if !r.is_bool => r,
            _ => {
                return self.error(
                    args[2].span.start,
                    "the result must be an integer of the builtin's type",
                )
            }
        };
        if let Some(t) = overflow.typed {
            a = make_cast(a, &Type::Int(t));
            b = make_cast(b, &Type::Int(t));
        }
        let (ta, tb) = (a.ty.as_int(), b.ty.as_int());
        let widest = [ta, tb, Some(result_type)]
            .into_iter()
            .flatten()
            .map(|t| t.bits)
            .max()
            .unwrap_or(64);
        let bits = widest + if overflow.op == BinOp::Mul { 1 } else { 2 };
        let wide = Type::Int(IntType::new(bits, false));
        let signed_wide = Type::Int(IntType::new(bits, true));
        let int = Type::Int(IntType::INT);
        let (a, b) = (make_cast(a, &signed_wide), make_cast(b, &signed_wide));
        let outside_wide = (overflow.op == BinOp::Mul)
            .then(|| make_binary(BinOp::MulOverflows, a.clone(), b.clone(), int.clone()));
        let exact = make_binary(
            overflow.op,
            make_cast(a, &wide),
            make_cast(b, &wide),
            wide.clone(),
        );
        let wrapped = make_cast(exact.clone(), &Type::Int(result_type));
        if let Some(place) = destination {
            self.emit(StmtKind::Assign(place, wrapped.clone()), at)?;
        }
        let mut overflows = make_binary(BinOp::Ne, make_cast(wrapped, &wide), exact, int.clone());
        if let Some(outside) = outside_wide {
            overflows = make_binary(BinOp::BitOr, outside, overflows, int);
        }
        Ok(Val::Value(make_cast(overflows, &Type::Int(IntType::BOOL))))
    }

    /// `__builtin_clz` and the other bit counts (`int` results), and
    /// `__builtin_bswap16/32/64` (results of the operand's type).
    fn bit_count(
        &mut self,
        name: &str,
        kind: BitCount,
        operand: IntType,
        args: &[Node<Expression>],
        at: usize,
    ) -> R<Val> {
        let args = self.arguments(name, args, 1, at)?;
        let x = self.integer_argument(&args[0])?;
        let bits = IntType::new(operand.bits, false);
        let x = make_cast(make_cast(x, &Type::Int(operand)), &Type::Int(bits));
        let int = Type::Int(IntType::INT);
        let count = |op: UnOp, e: Expr| make_cast(make_unary(op, e, bits), &int);
        let value = match kind {
            BitCount::LeadingZeros => count(UnOp::LeadingZeros, x),
            BitCount::TrailingZeros => count(UnOp::TrailingZeros, x),
            BitCount::Ones => count(UnOp::CountOnes, x),
            BitCount::Parity => make_binary(
                BinOp::BitAnd,
                count(UnOp::CountOnes, x),
                Expr::int(IntType::INT, 1),
                int,
            ),
            BitCount::FirstSet => {
                // `x ^ (x - 1)` has the lowest one bit and those below it
                // set (all bits for 0, which the `x != 0` factor zeroes).
                let unsigned = Type::Int(bits);
                let below =
                    make_binary(BinOp::Sub, x.clone(), Expr::int(bits, 1), unsigned.clone());
                let mask = make_binary(BinOp::BitXor, x.clone(), below, unsigned.clone());
                let nonzero = make_binary(BinOp::Ne, x, Expr::int(bits, 0), int.clone());
                let ones = make_unary(UnOp::CountOnes, mask, bits);
                let first = make_binary(BinOp::Mul, ones, make_cast(nonzero, &unsigned), unsigned);
                make_cast(first, &int)
            }
            BitCount::ByteSwap => byte_swap(x, bits),
        };
        Ok(Val::Value(value))
    }
}

/// The bytes of `x` (unsigned, of type `ty`) in reverse order, computed in
/// `ty` promoted (shifts have their promoted left operand's type).
fn byte_swap(x: Expr, ty: IntType) -> Expr {
    let bytes = ty.bits / 8;
    let work = Type::Int(if ty.bits < 32 { IntType::UINT } else { ty });
    let x = make_cast(x, &work);
    let shift = |e: Expr, op: BinOp, by: u16| {
        make_binary(
            op,
            e,
            Expr::int(IntType::INT, i128::from(by * 8)),
            work.clone(),
        )
    };
    let swapped = (0..bytes)
        .map(|i| {
            let low = shift(x.clone(), BinOp::Shr, i);
            let byte = make_binary(
                BinOp::BitAnd,
                low,
                Expr::int(work.as_int().unwrap_or(ty), 0xff),
                work.clone(),
            );
            shift(byte, BinOp::Shl, bytes - 1 - i)
        })
        .reduce(|all, byte| make_binary(BinOp::BitOr, all, byte, work.clone()))
        .unwrap_or_else(|| x.clone());
    make_cast(swapped, &Type::Int(ty))
}

#[cfg(test)]
mod tests {
    use super::*;

    const LP64: DataModel = DataModel::Lp64;

    #[test]
    fn overflow_names_give_operation_and_type() {
        let typed = |n| overflow_builtin(n, LP64).and_then(|o| o.typed);
        assert_eq!(typed("__builtin_saddl_overflow"), Some(IntType::LONG_LONG));
        let typed_ilp32 = |n| overflow_builtin(n, DataModel::Ilp32).and_then(|o| o.typed);
        assert_eq!(typed_ilp32("__builtin_saddl_overflow"), Some(IntType::INT));
        assert_eq!(
            typed_ilp32("__builtin_saddll_overflow"),
            Some(IntType::LONG_LONG)
        );
        assert_eq!(typed("__builtin_umul_overflow"), Some(IntType::UINT));
        assert_eq!(
            typed("__builtin_usubll_overflow"),
            Some(IntType::ULONG_LONG)
        );
        assert!(overflow_builtin("__builtin_mul_overflow", LP64).is_some_and(|o| o.typed.is_none()));
        assert!(overflow_builtin("__builtin_add_overflow_p", LP64).is_some_and(|o| o.predicate));
        assert!(overflow_builtin("__builtin_sdiv_overflow", LP64).is_none());
        assert!(overflow_builtin("__builtin_saddq_overflow", LP64).is_none());
    }

    #[test]
    fn bit_names_give_operation_and_operand_type() {
        assert!(
            bit_builtin("__builtin_clzll", LP64)
                == Some((BitCount::LeadingZeros, IntType::ULONG_LONG))
        );
        assert!(
            bit_builtin("__builtin_ffsl", LP64) == Some((BitCount::FirstSet, IntType::LONG_LONG))
        );
        assert!(bit_builtin("__builtin_parity", LP64) == Some((BitCount::Parity, IntType::UINT)));
        assert!(
            bit_builtin("__builtin_bswap16", LP64) == Some((BitCount::ByteSwap, IntType::USHORT))
        );
        assert!(bit_builtin("__builtin_bswap8", LP64).is_none());
        assert!(bit_builtin("__builtin_clzx", LP64).is_none());
    }
}
