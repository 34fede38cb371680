//! Variable-length arrays (C99) and `alloca`. A local `T a[n]` becomes a
//! pointer local `a` set by a call of `__builtin_alloca(n * sizeof(T))`,
//! which the engine models as a block of the frame sized at run time; the
//! length is evaluated once, at the declaration, as C says, and kept with
//! the byte size for `sizeof a`. `a` then reads as the pointer it decays
//! to everywhere but in `sizeof` and `&a`, which is refused rather than
//! given the pointer's address. A length in a parameter's array type is no
//! part of the parameter's type (it decays to a pointer), so it is ignored.
//! An array of them (`int m[n][k]`, any of its lengths not constant) is one
//! block of its innermost elements, indexed row-major with strides kept at
//! the declaration: `m[i][j]` is element `i * k + j`, and `m[i]` reads as
//! the pointer to its row's first element. A row is no value of its own
//! otherwise (`&m[i]`, `m` alone): that is refused.

use super::expr::{deref_place, int_const, make_binary, make_cast, Val};
use super::{FuncDecl, Lowerer, Symbol, R};
use ir::{BinOp, Expr, FnSig, IntType, Layout, LocalId, Place, StmtKind, Type};
use lang_c::ast::{BinaryOperator, Expression, Initializer};
use lang_c::span::Node;

/// Where an array length that is not a constant may be written.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) enum VariableLength {
    /// Anywhere a type must be complete at translation time.
    #[default]
    Refused,
    /// In a parameter's declarator: the array decays to a pointer.
    Parameter,
    /// In the declarator of an automatic local.
    Local,
}

/// A local variable-length array, as [`Symbol::VariableArray`] binds it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct VariableArray {
    /// The local holding the address of the first element.
    pub pointer: LocalId,
    /// The innermost element type, which has a constant size.
    pub elem: Type,
    /// The local holding its size in bytes, for `sizeof`.
    pub bytes: LocalId,
    /// Per dimension, outermost first, how many elements one step of its
    /// index moves (`size_t`): `[k, 1]` for `m[n][k]`, `[1]` for `a[n]`.
    pub strides: Vec<Expr>,
}

/// The name the engine models and system headers spell `alloca` as.
const STACK_ALLOCATOR: &str = "__builtin_alloca";

impl Lowerer<'_> {
    /// The type of an array whose length `length` is no constant: an
    /// array of unknown length, after (for a local) evaluating the length.
    pub(super) fn variable_length(
        &mut self,
        elem: &Type,
        length: Option<&Node<Expression>>,
        at: usize,
    ) -> R<Option<u64>> {
        match (self.variable_length, length) {
            (VariableLength::Parameter, _) => Ok(None),
            // An element type left incomplete by an inner variable length
            // is sized at the declaration.
            (VariableLength::Local, Some(length))
                if !self.pending_lengths.is_empty() || !self.is_incomplete(elem) =>
            {
                let count = self.rvalue(length)?;
                let count = self.convert(count, &Type::Int(self.size_type()), length.span.start)?;
                let count = self.snapshot(count, at)?;
                self.pending_lengths.push(count);
                Ok(None)
            }
            _ => self.unsupported(at, "variable-length array"),
        }
    }

    /// Declares the local `name`, an array whose lengths the declarator
    /// evaluated (`lengths`, innermost first), by allocating it on the stack.
    pub(super) fn variable_length_array(
        &mut self,
        name: String,
        ty: &Type,
        mut lengths: Vec<Expr>,
        initializer: Option<&Node<Initializer>>,
        at: usize,
    ) -> R<()> {
        let size_type = Type::Int(self.size_type());
        // Dimensions, outermost first, down to the first element of a
        // constant size.
        let mut counts = Vec::new();
        let mut elem = ty;
        while let Type::Array(inner, length) = elem {
            if !has_variable_length(elem) {
                break;
            }
            counts.push(match length {
                Some(n) => Expr::int(self.size_type(), i128::from(*n)),
                None => match lengths.pop() {
                    Some(count) => count,
                    None => return self.unsupported(at, "this form of variable-length array"),
                },
            });
            elem = inner;
        }
        if counts.is_empty() || !lengths.is_empty() {
            return self.unsupported(at, "this form of variable-length array");
        }
        if initializer.is_some() {
            return self.error(at, "a variable-length array cannot be initialized");
        }
        let elem = elem.clone();
        let mut strides = vec![Expr::int(self.size_type(), 1)];
        for count in counts[1..].iter().rev() {
            strides.insert(0, product(count.clone(), strides[0].clone()));
        }
        let elements = product(counts[0].clone(), strides[0].clone());
        let size = Expr::int(self.size_type(), i128::from(self.program.size_of(&elem)));
        let bytes = self.temp(size_type.clone(), at)?;
        let product = product(elements, size);
        self.assign_stmt(Place::local(bytes), product, at)?;
        let span = self.span(at);
        let pointer = self
            .builder(at)?
            .new_local(&name, Type::ptr(elem.clone()), span);
        let bytes_value = Expr::load(Place::local(bytes), size_type);
        let block = self.allocate_on_stack(bytes_value, at)?;
        let first = make_cast(block, &Type::ptr(elem.clone()));
        self.assign_stmt(Place::local(pointer), first, at)?;
        self.bind(
            &name,
            Symbol::VariableArray(VariableArray {
                pointer,
                elem,
                bytes,
                strides,
            }),
        );
        Ok(())
    }

    /// `m[i]...[j]`, indices outermost first, of a variable-length array of
    /// arrays: the element, or the first element of the row the indices
    /// leave. `None` when `lhs[rhs]` indexes no such array.
    pub(super) fn variable_array_index(
        &mut self,
        lhs: &Node<Expression>,
        rhs: &Node<Expression>,
        at: usize,
    ) -> R<Option<Val>> {
        let Some((array, indices)) = self.variable_array_indices(lhs, rhs) else {
            return Ok(None);
        };
        if indices.len() > array.strides.len() {
            return self.unsupported(
                at,
                "an index into an element of a variable-length array of arrays",
            );
        }
        let long = Type::Int(IntType::LONG_LONG);
        let mut offset: Option<Expr> = None;
        for (index, stride) in indices.iter().zip(&array.strides) {
            let index = self.rvalue(index)?;
            self.require_int(&index, at)?;
            let step = product(make_cast(index, &long), make_cast(stride.clone(), &long));
            offset = Some(match offset {
                Some(sum) => make_binary(BinOp::Add, sum, step, long.clone()),
                None => step,
            });
        }
        let offset = offset.unwrap_or_else(|| Expr::int(IntType::LONG_LONG, 0));
        let first = Expr::load(Place::local(array.pointer), Type::ptr(array.elem.clone()));
        let address = self.ptr_add(first, offset, false);
        Ok(Some(if indices.len() == array.strides.len() {
            Val::Place(deref_place(address), array.elem)
        } else if indices.len() + 1 == array.strides.len() {
            Val::Value(address)
        } else {
            return self.unsupported(
                at,
                "a row of a variable-length array of arrays used as a value",
            );
        }))
    }

    /// The size in bytes of `m[i]...`, a row of a variable-length array of
    /// arrays, if `e` is one.
    pub(super) fn variable_row_bytes(&mut self, e: &Node<Expression>) -> Option<Expr> {
        let Expression::BinaryOperator(b) = &e.node else {
            return None;
        };
        if b.node.operator.node != BinaryOperator::Index {
            return None;
        }
        let (array, indices) = self.variable_array_indices(&b.node.lhs, &b.node.rhs)?;
        let stride = array.strides.get(indices.len() - 1)?.clone();
        let size = Expr::int(
            self.size_type(),
            i128::from(self.program.size_of(&array.elem)),
        );
        Some(product(stride, size))
    }

    /// The variable-length array of arrays `lhs[rhs]` indexes, with its
    /// indices outermost first (`m[i][j]`: `m`, `[i, j]`).
    fn variable_array_indices<'e>(
        &self,
        lhs: &'e Node<Expression>,
        rhs: &'e Node<Expression>,
    ) -> Option<(VariableArray, Vec<&'e Node<Expression>>)> {
        let mut indices = vec![rhs];
        let mut base = lhs;
        while let Expression::BinaryOperator(b) = &base.node {
            if b.node.operator.node != BinaryOperator::Index {
                break;
            }
            indices.push(&b.node.rhs);
            base = &b.node.lhs;
        }
        let array = self.variable_array(base).filter(|a| a.strides.len() > 1)?;
        indices.reverse();
        Some((array, indices))
    }

    /// Refuses a pointer to variable-length arrays (`int (*rows)[n]`, a
    /// parameter `int m[n][k]`) where its rows' size would be needed.
    pub(super) fn refuse_variable_pointee(&self, p: &Expr, at: usize) -> R<()> {
        match p.ty.pointee() {
            Some(row) if has_variable_length(row) => {
                self.unsupported(at, "a pointer to variable-length arrays")
            }
            _ => Ok(()),
        }
    }

    /// The variable-length array `e` names, if it is one (in parentheses too).
    pub(super) fn variable_array(&self, e: &Node<Expression>) -> Option<VariableArray> {
        match &e.node {
            Expression::Identifier(id) => match self.lookup(&id.node.name) {
                Some(Symbol::VariableArray(array)) => Some(array.clone()),
                _ => None,
            },
            _ => None,
        }
    }

    /// `__builtin_alloca(size)` (what `<alloca.h>` makes of `alloca`) with
    /// no declaration in scope; `None` for any other name.
    pub(super) fn alloca_builtin(
        &mut self,
        name: &str,
        args: &[Node<Expression>],
        at: usize,
    ) -> Option<R<Val>> {
        if name != STACK_ALLOCATOR {
            return None;
        }
        let [size] = args else {
            return Some(self.error(at, format!("`{name}` takes one argument")));
        };
        Some((|| {
            let size = self.rvalue(size)?;
            let size = self.convert(size, &Type::Int(self.size_type()), at)?;
            Ok(Val::Value(self.allocate_on_stack(size, at)?))
        })())
    }

    /// `__builtin_alloca(bytes)`, the allocator declared as the compiler
    /// declares it (in no file of the program, so no driver stubs it).
    fn allocate_on_stack(&mut self, bytes: Expr, at: usize) -> R<Expr> {
        let declared = self
            .funcs
            .iter()
            .position(|f| f.function.name == STACK_ALLOCATOR);
        let index = match declared {
            Some(index) => index,
            None => {
                let sig = FnSig {
                    ret: Type::ptr(Type::Void),
                    params: vec![Type::Int(self.size_type())],
                    variadic: false,
                };
                let function = self.built_in_function(STACK_ALLOCATOR, sig);
                self.funcs.push(FuncDecl::built_in(function));
                self.funcs.len() - 1
            }
        };
        let Some(callee) = self.func_id(index) else {
            return self.error(at, format!("`{STACK_ALLOCATOR}` cannot be declared"));
        };
        let block = self.temp(Type::ptr(Type::Void), at)?;
        self.emit(
            StmtKind::Call {
                dest: Some(Place::local(block)),
                callee: ir::Callee::Direct(callee),
                args: vec![bytes],
            },
            at,
        )?;
        Ok(Expr::load(Place::local(block), Type::ptr(Type::Void)))
    }
}

/// Whether an array type has a length that is no constant, at any depth.
fn has_variable_length(ty: &Type) -> bool {
    match ty {
        Type::Array(_, None) => true,
        Type::Array(inner, Some(_)) => has_variable_length(inner),
        _ => false,
    }
}

/// `a * b` in `a`'s type, with a factor of 1 left out.
fn product(a: Expr, b: Expr) -> Expr {
    match (int_const(&a), int_const(&b)) {
        (_, Some((_, 1))) => a,
        (Some((_, 1)), _) => make_cast(b, &a.ty),
        _ => {
            let ty = a.ty.clone();
            make_binary(BinOp::Mul, a, b, ty)
        }
    }
}
