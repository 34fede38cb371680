//! Variable-length arrays (C99) and `alloca`. A local `T a[n]` becomes a
//! pointer local `a` set by a call of `__builtin_alloca(n * sizeof(T))`,
//! which the engine models as a block of the frame sized at run time; the
//! length is evaluated once, at the declaration, as C says, and kept with
//! the byte size for `sizeof a`. `a` then reads as the pointer it decays
//! to everywhere but in `sizeof` and `&a`, which is refused rather than
//! given the pointer's address. A length in a parameter's array type is no
//! part of the parameter's type (it decays to a pointer), so it is ignored.
//! Arrays of variable-length arrays (`int m[n][k]` with `k` not constant)
//! are refused.

use super::expr::{make_binary, make_cast, Val};
use super::{FuncDecl, Lowerer, Symbol, R};
use ir::{BinOp, Expr, FnSig, Function, Layout, LocalId, Place, Span, StmtKind, Type};
use lang_c::ast::{Expression, Initializer};
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
    pub elem: Type,
    /// The local holding its size in bytes, for `sizeof`.
    pub bytes: LocalId,
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
            (VariableLength::Local, Some(length))
                if self.pending_length.is_none() && !self.is_incomplete(elem) =>
            {
                let count = self.rvalue(length)?;
                let count = self.convert(count, &Type::Int(self.size_type()), length.span.start)?;
                let count = self.snapshot(count, at)?;
                self.pending_length = Some(count);
                Ok(None)
            }
            (VariableLength::Local, Some(_)) => {
                self.unsupported(at, "an array of variable-length arrays")
            }
            _ => self.unsupported(at, "variable-length array"),
        }
    }

    /// Declares the local `name`, an array whose length the declarator
    /// evaluated (`pending_length`), by allocating it on the stack.
    pub(super) fn variable_length_array(
        &mut self,
        name: String,
        ty: &Type,
        count: Expr,
        initializer: Option<&Node<Initializer>>,
        at: usize,
    ) -> R<()> {
        let Type::Array(elem, None) = ty else {
            return self.unsupported(at, "this form of variable-length array");
        };
        if initializer.is_some() {
            return self.error(at, "a variable-length array cannot be initialized");
        }
        let size = Expr::int(self.size_type(), i128::from(self.program.size_of(elem)));
        let bytes = self.temp(Type::Int(self.size_type()), at)?;
        let product = make_binary(BinOp::Mul, count, size, Type::Int(self.size_type()));
        self.assign_stmt(Place::local(bytes), product, at)?;
        let span = self.span(at);
        let pointer = self
            .builder(at)?
            .new_local(&name, Type::ptr((**elem).clone()), span);
        let bytes_value = Expr::load(Place::local(bytes), Type::Int(self.size_type()));
        let block = self.allocate_on_stack(bytes_value, at)?;
        let first = make_cast(block, &Type::ptr((**elem).clone()));
        self.assign_stmt(Place::local(pointer), first, at)?;
        self.bind(
            &name,
            Symbol::VariableArray(VariableArray {
                pointer,
                elem: (**elem).clone(),
                bytes,
            }),
        );
        Ok(())
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
                let function = Function {
                    name: STACK_ALLOCATOR.to_string(),
                    sig: FnSig {
                        ret: Type::ptr(Type::Void),
                        params: vec![Type::Int(self.size_type())],
                        variadic: false,
                    },
                    is_static: false,
                    span: Span {
                        file: self.built_in_file(),
                        line: 0,
                        col: 0,
                    },
                    body: None,
                };
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
