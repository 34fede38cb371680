//! GCC's `__atomic_*` and `__sync_*` builtins (GLib's `g_atomic_*` and
//! `g_once_init_enter` expand to them).
//!
//! The engine runs one thread, so each builtin is the memory accesses it
//! performs, in order; memory orders are evaluated and otherwise ignored.
//! None has a branch (each is one instruction, and gcov counts no branch in
//! it): arithmetic wraps, computed in the unsigned type of the object's
//! width as the processor does, and a compare-and-exchange of an integer
//! chooses what it stores with masks. Arithmetic on a pointer object and a
//! compare-and-exchange of one are refused.

use super::expr::{deref_place, make_binary, make_cast, void_value, Val};
use super::{Lowerer, R};
use ir::{BinOp, Expr, IntType, Place, Type};
use lang_c::ast::Expression;
use lang_c::span::Node;

/// What an atomic builtin does to the object its first argument points to.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Atomic {
    /// `__atomic_load_n(p, order)`: `*p`.
    Load,
    /// `__atomic_load(p, ret, order)`: `*ret = *p`.
    LoadInto,
    /// `__atomic_store_n(p, v, order)`: `*p = v`.
    Store,
    /// `__atomic_store(p, &v, order)`: `*p = v`.
    StoreFrom,
    /// `__atomic_exchange_n(p, v, order)`, `__sync_lock_test_and_set(p, v)`:
    /// `*p = v`, giving the old value.
    Exchange,
    /// `__atomic_exchange(p, &v, ret, order)`: `*ret = *p; *p = v`.
    ExchangeInto,
    /// `*p = *p OP v`, giving the old value (`fetch_OP`) or the new one
    /// (`OP_fetch`); `nand` is `~(*p & v)`.
    Modify {
        op: BinOp,
        nand: bool,
        gives_new: bool,
    },
    /// `__atomic_compare_exchange_n(p, &expected, desired, weak, s, f)`
    /// (`by_pointer`: `__atomic_compare_exchange`, `desired` too through a
    /// pointer): whether `*p` equals `expected`; if so `*p = desired`,
    /// else `expected = *p`.
    CompareExchange { by_pointer: bool },
    /// `__sync_bool_compare_and_swap(p, old, new)` (`gives_old`:
    /// `__sync_val_compare_and_swap`, the old value instead).
    CompareAndSwap { gives_old: bool },
    /// `__atomic_test_and_set(p, order)`: the old byte is non-zero; it becomes 1.
    TestAndSet,
    /// `__atomic_clear(p, order)`, `__sync_lock_release(p)`: `*p = 0`.
    Clear,
    /// Fences: nothing to do in one thread.
    Fence,
}

impl Atomic {
    /// The builtin named `name` and how many arguments it takes (the
    /// `__sync_` ones accept more, a list of variables gcc ignores).
    fn named(name: &str) -> Option<(Atomic, usize)> {
        let modify = |op, nand, gives_new| Atomic::Modify {
            op,
            nand,
            gives_new,
        };
        let operation = |word: &str| match word {
            "add" => Some((BinOp::Add, false)),
            "sub" => Some((BinOp::Sub, false)),
            "and" => Some((BinOp::BitAnd, false)),
            "or" => Some((BinOp::BitOr, false)),
            "xor" => Some((BinOp::BitXor, false)),
            "nand" => Some((BinOp::BitAnd, true)),
            _ => None,
        };
        let found = match name {
            "__atomic_load_n" => (Atomic::Load, 2),
            "__atomic_load" => (Atomic::LoadInto, 3),
            "__atomic_store_n" => (Atomic::Store, 3),
            "__atomic_store" => (Atomic::StoreFrom, 3),
            "__atomic_exchange_n" => (Atomic::Exchange, 3),
            "__sync_lock_test_and_set" => (Atomic::Exchange, 2),
            "__atomic_exchange" => (Atomic::ExchangeInto, 4),
            "__atomic_compare_exchange_n" => (Atomic::CompareExchange { by_pointer: false }, 6),
            "__atomic_compare_exchange" => (Atomic::CompareExchange { by_pointer: true }, 6),
            "__sync_bool_compare_and_swap" => (Atomic::CompareAndSwap { gives_old: false }, 3),
            "__sync_val_compare_and_swap" => (Atomic::CompareAndSwap { gives_old: true }, 3),
            "__atomic_test_and_set" => (Atomic::TestAndSet, 2),
            "__atomic_clear" => (Atomic::Clear, 2),
            "__sync_lock_release" => (Atomic::Clear, 1),
            "__atomic_thread_fence" | "__atomic_signal_fence" => (Atomic::Fence, 1),
            "__sync_synchronize" => (Atomic::Fence, 0),
            _ => {
                let (word, gives_new, count) =
                    if let Some(word) = name.strip_prefix("__atomic_fetch_") {
                        (word, false, 3)
                    } else if let Some(word) = name.strip_prefix("__sync_fetch_and_") {
                        (word, false, 2)
                    } else if let Some(word) = name
                        .strip_prefix("__atomic_")
                        .and_then(|w| w.strip_suffix("_fetch"))
                    {
                        (word, true, 3)
                    } else {
                        let word = name
                            .strip_prefix("__sync_")
                            .and_then(|w| w.strip_suffix("_and_fetch"))?;
                        (word, true, 2)
                    };
                let (op, nand) = operation(word)?;
                (modify(op, nand, gives_new), count)
            }
        };
        Some(found)
    }

    /// Whether extra arguments are allowed (gcc ignores them).
    fn takes_more(name: &str) -> bool {
        name.starts_with("__sync_")
    }
}

impl Lowerer<'_> {
    /// Lowers a call of the atomic builtin `name`, or `None` when `name`
    /// is none.
    pub(super) fn atomic_builtin(
        &mut self,
        name: &str,
        args: &[Node<Expression>],
        at: usize,
    ) -> Option<R<Val>> {
        let (atomic, count) = Atomic::named(name)?;
        if args.len() < count || (args.len() > count && !Atomic::takes_more(name)) {
            return Some(self.error(
                at,
                format!("`{name}` takes {count} arguments, got {}", args.len()),
            ));
        }
        Some(self.atomic(name, atomic, args, count, at))
    }

    fn atomic(
        &mut self,
        name: &str,
        atomic: Atomic,
        args: &[Node<Expression>],
        count: usize,
        at: usize,
    ) -> R<Val> {
        let mut values = Vec::with_capacity(args.len());
        for arg in args {
            let value = self.rvalue(arg)?;
            values.push(self.snapshot(value, arg.span.start)?);
        }
        // Memory orders, the weak flag and `__sync_`'s variable lists.
        let (values, _) = values.split_at(count);
        if atomic == Atomic::Fence {
            return Ok(void_value());
        }
        let Some(object_type) = values[0].ty.pointee().cloned() else {
            return self.error(
                at,
                format!("the first argument of `{name}` must be a pointer"),
            );
        };
        if !matches!(object_type, Type::Int(_) | Type::Pointer(_)) {
            return self.unsupported(
                at,
                &format!("`{name}` on an object that is no integer or pointer"),
            );
        }
        let object = deref_place(values[0].clone());
        let old = self.snapshot(Expr::load(object.clone(), object_type.clone()), at)?;
        let through = |pointer: &Expr| deref_place(pointer.clone());
        let result = match atomic {
            Atomic::Load => Some(old),
            Atomic::LoadInto => {
                self.assign_stmt(through(&values[1]), old, at)?;
                None
            }
            Atomic::Store => {
                let value = self.convert(values[1].clone(), &object_type, at)?;
                self.assign_stmt(object, value, at)?;
                None
            }
            Atomic::StoreFrom => {
                let value = Expr::load(through(&values[1]), object_type.clone());
                self.assign_stmt(object, value, at)?;
                None
            }
            Atomic::Exchange => {
                let value = self.convert(values[1].clone(), &object_type, at)?;
                self.assign_stmt(object, value, at)?;
                Some(old)
            }
            Atomic::ExchangeInto => {
                let value =
                    self.snapshot(Expr::load(through(&values[1]), object_type.clone()), at)?;
                self.assign_stmt(through(&values[2]), old, at)?;
                self.assign_stmt(object, value, at)?;
                None
            }
            Atomic::Modify {
                op,
                nand,
                gives_new,
            } => {
                let Type::Int(t) = object_type else {
                    return self.unsupported(at, &format!("`{name}` on a pointer"));
                };
                let wrapping = Type::Int(IntType::new(t.bits, false));
                let operand = self.convert(values[1].clone(), &object_type, at)?;
                let mut new = make_binary(
                    op,
                    make_cast(old.clone(), &wrapping),
                    make_cast(operand, &wrapping),
                    wrapping.clone(),
                );
                if nand {
                    new = super::expr::make_unary(ir::UnOp::Not, new, IntType::new(t.bits, false));
                }
                let new = self.snapshot(make_cast(new, &object_type), at)?;
                self.assign_stmt(object, new.clone(), at)?;
                Some(if gives_new { new } else { old })
            }
            Atomic::CompareExchange { by_pointer } => {
                let expected_place = through(&values[1]);
                let expected = Expr::load(expected_place.clone(), object_type.clone());
                let expected = self.snapshot(expected, at)?;
                let desired = match by_pointer {
                    true => Expr::load(through(&values[2]), object_type.clone()),
                    false => self.convert(values[2].clone(), &object_type, at)?,
                };
                let desired = self.snapshot(desired, at)?;
                let equal =
                    self.swap_if_equal(name, object, &old, expected.clone(), desired, at)?;
                let seen = self.select(name, &equal, expected, old, at)?;
                self.assign_stmt(expected_place, seen, at)?;
                Some(make_cast(equal, &Type::Int(IntType::BOOL)))
            }
            Atomic::CompareAndSwap { gives_old } => {
                let expected = self.convert(values[1].clone(), &object_type, at)?;
                let desired = self.convert(values[2].clone(), &object_type, at)?;
                let equal = self.swap_if_equal(name, object, &old, expected, desired, at)?;
                Some(match gives_old {
                    true => old,
                    false => make_cast(equal, &Type::Int(IntType::BOOL)),
                })
            }
            Atomic::TestAndSet => {
                let byte = Type::Int(IntType::UCHAR);
                let flag = deref_place(make_cast(values[0].clone(), &Type::ptr(byte.clone())));
                let was = self.snapshot(Expr::load(flag.clone(), byte.clone()), at)?;
                self.assign_stmt(flag, Expr::int(IntType::UCHAR, 1), at)?;
                let set = make_binary(
                    BinOp::Ne,
                    was,
                    Expr::int(IntType::UCHAR, 0),
                    Type::Int(IntType::INT),
                );
                Some(make_cast(set, &Type::Int(IntType::BOOL)))
            }
            Atomic::Clear => {
                let zero = make_cast(Expr::int(IntType::INT, 0), &object_type);
                self.assign_stmt(object, zero, at)?;
                None
            }
            Atomic::Fence => None,
        };
        Ok(result.map_or_else(void_value, Val::Value))
    }

    /// `*object = old == expected ? desired : old` without a branch;
    /// gives `old == expected` (an `int`, snapshot).
    fn swap_if_equal(
        &mut self,
        name: &str,
        object: Place,
        old: &Expr,
        expected: Expr,
        desired: Expr,
        at: usize,
    ) -> R<Expr> {
        let int = Type::Int(IntType::INT);
        let equal = make_binary(BinOp::Eq, old.clone(), expected, int);
        let equal = self.snapshot(equal, at)?;
        let stored = self.select(name, &equal, desired, old.clone(), at)?;
        self.assign_stmt(object, stored, at)?;
        Ok(equal)
    }

    /// `condition ? a : b` for integers of one type, by masks.
    fn select(&mut self, name: &str, condition: &Expr, a: Expr, b: Expr, at: usize) -> R<Expr> {
        let Type::Int(t) = a.ty.clone() else {
            return self.unsupported(at, &format!("`{name}` on a pointer"));
        };
        let bits = Type::Int(IntType::new(t.bits, false));
        let unsigned = IntType::new(t.bits, false);
        let mask = make_binary(
            BinOp::Sub,
            Expr::int(unsigned, 0),
            make_cast(condition.clone(), &bits),
            bits.clone(),
        );
        let kept = make_binary(
            BinOp::BitAnd,
            make_cast(a, &bits),
            mask.clone(),
            bits.clone(),
        );
        let inverse = super::expr::make_unary(ir::UnOp::Not, mask, unsigned);
        let other = make_binary(BinOp::BitAnd, make_cast(b, &bits), inverse, bits.clone());
        let chosen = make_binary(BinOp::BitOr, kept, other, bits);
        Ok(make_cast(chosen, &Type::Int(t)))
    }
}
