//! The floating builtins `<math.h>` expands to under gcc (`INFINITY`,
//! `NAN`, `isnan`, `isinf`, `isfinite`, `isnormal`, `signbit`, `isgreater`
//! and its kin), lowered to comparisons with gcc's exact results and no
//! branch (gcc's coverage counts none in them).

use super::expr::{make_binary, make_unary, Val};
use super::{Lowerer, R};
use crate::cint;
use ir::{BinOp, Expr, ExprKind, FloatKind, IntType, Type, UnOp};
use lang_c::ast::Expression;
use lang_c::span::Node;

/// What a floating builtin computes.
#[derive(Clone, Copy, PartialEq, Eq)]
enum FloatBuiltin {
    Infinity(FloatKind),
    /// `__builtin_nan("payload")`, quiet.
    NaN(FloatKind),
    IsNan,
    IsInf,
    /// `isinf` as glibc spells it: 1 for +inf, -1 for -inf.
    IsInfSign,
    IsFinite,
    IsNormal,
    SignBit,
    /// `isgreater` and its kin: an ordered comparison (quiet in C, the same value).
    Ordered(BinOp),
    IsLessGreater,
    IsUnordered,
}

fn float_builtin(name: &str) -> Option<FloatBuiltin> {
    use FloatBuiltin::*;
    Some(match name.strip_prefix("__builtin_")? {
        "inf" | "huge_val" => Infinity(FloatKind::F64),
        "inff" | "huge_valf" => Infinity(FloatKind::F32),
        "nan" => NaN(FloatKind::F64),
        "nanf" => NaN(FloatKind::F32),
        "isnan" => IsNan,
        "isinf" => IsInf,
        "isinf_sign" => IsInfSign,
        "isfinite" | "finite" => IsFinite,
        "isnormal" => IsNormal,
        "signbit" | "signbitf" => SignBit,
        "isgreater" => Ordered(BinOp::Gt),
        "isgreaterequal" => Ordered(BinOp::Ge),
        "isless" => Ordered(BinOp::Lt),
        "islessequal" => Ordered(BinOp::Le),
        "islessgreater" => IsLessGreater,
        "isunordered" => IsUnordered,
        _ => return None,
    })
}

/// A constant of `kind` from the bits of a double (exact for the values used here).
fn constant(kind: FloatKind, value: f64) -> Expr {
    let bits = match kind {
        FloatKind::F32 => u64::from((value as f32).to_bits()),
        _ => value.to_bits(),
    };
    Expr {
        kind: ExprKind::Float(bits),
        ty: Type::Float(kind),
    }
}

/// The bits of the quiet NaN `__builtin_nan(payload)` gives: the payload
/// is a number (decimal, or hexadecimal with `0x`) or empty.
fn quiet_nan(kind: FloatKind, payload: &[u8]) -> Option<u64> {
    let text = std::str::from_utf8(payload).ok()?;
    let fraction = if text.is_empty() {
        0
    } else if let Some(hex) = text.strip_prefix("0x").or(text.strip_prefix("0X")) {
        u64::from_str_radix(hex, 16).ok()?
    } else {
        text.parse().ok()?
    };
    let (exponent_bits, fraction_bits) = ir::float::layout(kind);
    let exponent = ((1u64 << exponent_bits) - 1) << fraction_bits;
    let quiet = 1u64 << (fraction_bits - 1);
    Some(exponent | quiet | (fraction & (quiet - 1)))
}

impl Lowerer<'_> {
    /// The call of a floating builtin `name` lowered, or `None` when it is
    /// not one.
    pub(super) fn float_builtin(
        &mut self,
        name: &str,
        args: &[Node<Expression>],
        at: usize,
    ) -> Option<R<Val>> {
        let builtin = float_builtin(name)?;
        Some(self.lower_float_builtin(name, builtin, args, at))
    }

    fn lower_float_builtin(
        &mut self,
        name: &str,
        builtin: FloatBuiltin,
        args: &[Node<Expression>],
        at: usize,
    ) -> R<Val> {
        use FloatBuiltin::*;
        let int = Type::Int(IntType::INT);
        let compare = |op, a: &Expr, b: Expr| make_binary(op, a.clone(), b, int.clone());
        let both = |op, a: Expr, b: Expr| make_binary(op, a, b, int.clone());
        let value = match builtin {
            Infinity(kind) => {
                self.arguments(name, args, 0, at)?;
                constant(kind, f64::INFINITY)
            }
            NaN(kind) => {
                self.arguments(name, args, 1, at)?;
                let payload = match &args[0].node {
                    Expression::StringLiteral(s) => cint::string_bytes(&s.node).ok(),
                    _ => None,
                };
                // The literal's bytes end with their NUL.
                let bits = payload
                    .as_deref()
                    .and_then(|bytes| quiet_nan(kind, bytes.strip_suffix(&[0]).unwrap_or(bytes)));
                let Some(bits) = bits else {
                    return self.unsupported(at, &format!("`{name}` of a computed payload"));
                };
                Expr {
                    kind: ExprKind::Float(bits),
                    ty: Type::Float(kind),
                }
            }
            Ordered(_) | IsLessGreater | IsUnordered => {
                self.arguments(name, args, 2, at)?;
                let (a, b) = (self.rvalue(&args[0])?, self.rvalue(&args[1])?);
                let common = self.arith(BinOp::Sub, a.clone(), b.clone(), at)?.ty;
                let Some(kind) = common.as_ieee_float() else {
                    return self.floating_argument_expected(name, &common, at);
                };
                let a = self.convert(a, &Type::Float(kind), at)?;
                let b = self.convert(b, &Type::Float(kind), at)?;
                match builtin {
                    Ordered(op) => compare(op, &a, b),
                    IsLessGreater => both(
                        BinOp::BitOr,
                        compare(BinOp::Lt, &a, b.clone()),
                        compare(BinOp::Gt, &a, b),
                    ),
                    _ => both(
                        BinOp::BitOr,
                        compare(BinOp::Ne, &a, a.clone()),
                        compare(BinOp::Ne, &b, b.clone()),
                    ),
                }
            }
            IsNan | IsInf | IsInfSign | IsFinite | IsNormal | SignBit => {
                self.arguments(name, args, 1, at)?;
                let x = self.rvalue(&args[0])?;
                let Some(kind) = x.ty.as_ieee_float() else {
                    return self.floating_argument_expected(name, &x.ty, at);
                };
                let inf = || constant(kind, f64::INFINITY);
                let neg_inf = || constant(kind, f64::NEG_INFINITY);
                match builtin {
                    IsNan => compare(BinOp::Ne, &x, x.clone()),
                    IsInf => both(
                        BinOp::BitOr,
                        compare(BinOp::Eq, &x, inf()),
                        compare(BinOp::Eq, &x, neg_inf()),
                    ),
                    IsInfSign => both(
                        BinOp::Sub,
                        compare(BinOp::Eq, &x, inf()),
                        compare(BinOp::Eq, &x, neg_inf()),
                    ),
                    IsFinite => both(
                        BinOp::BitAnd,
                        compare(BinOp::Gt, &x, neg_inf()),
                        compare(BinOp::Lt, &x, inf()),
                    ),
                    IsNormal => {
                        let (min, max) = match kind {
                            FloatKind::F32 => (f64::from(f32::MIN_POSITIVE), f64::from(f32::MAX)),
                            _ => (f64::MIN_POSITIVE, f64::MAX),
                        };
                        let within = |low: f64, high: f64| {
                            both(
                                BinOp::BitAnd,
                                compare(BinOp::Ge, &x, constant(kind, low)),
                                compare(BinOp::Le, &x, constant(kind, high)),
                            )
                        };
                        both(BinOp::BitOr, within(min, max), within(-max, -min))
                    }
                    _ => make_unary(UnOp::SignBit, x, IntType::INT),
                }
            }
        };
        Ok(Val::Value(value))
    }

    fn floating_argument_expected<T>(&self, name: &str, argument: &Type, at: usize) -> R<T> {
        match argument {
            Type::Float(FloatKind::F80) => self.unsupported(at, "long double arithmetic"),
            _ => self.error(at, format!("`{name}` needs a float or double argument")),
        }
    }
}
