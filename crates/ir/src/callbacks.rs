//! Callback mocks: a function pointer an input holds may point to a
//! function no file in view defines (another file's static callback, a
//! vtable filled elsewhere, an allocator hook). For each function-pointer
//! type the program stores, cairn adds one bodiless function of that type
//! that stands for any of them; the engine may store it where an input
//! holds such a pointer, and the driver defines it as a stub returning
//! what each test scripts.

use crate::{FnSig, FuncId, Function, Program, Span, Type};

/// The C name of the `k`-th callback mock (from 1).
fn mock_name(k: usize) -> String {
    format!("cairn_callback_{k}")
}

impl Program {
    /// Whether `func` is one of the callback mocks cairn added.
    pub fn is_callback_mock(&self, func: FuncId) -> bool {
        self.callback_mocks.contains(&func)
    }

    /// Adds a callback mock for each function-pointer type held by a
    /// struct member, a global or a parameter of a defined function.
    pub fn add_callback_mocks(&mut self) {
        let mut sigs: Vec<FnSig> = Vec::new();
        let held = (self.structs.iter())
            .flat_map(|s| s.fields.iter().map(|f| f.ty.clone()))
            .chain(self.globals.iter().map(|g| g.ty.clone()))
            .chain(
                (self.functions.iter())
                    .filter(|f| f.body.is_some())
                    .flat_map(|f| f.sig.params.clone()),
            )
            .collect::<Vec<Type>>();
        for ty in &held {
            collect_callback_types(ty, &mut sigs);
        }
        for (k, sig) in sigs.into_iter().enumerate() {
            let id = FuncId(self.functions.len() as u32);
            self.functions.push(Function {
                name: mock_name(k + 1),
                sig,
                prototyped: true,
                is_static: true,
                span: Span::default(),
                body: None,
                nonnull: Vec::new(),
                const_pointee: Vec::new(),
            });
            self.callback_mocks.push(id);
        }
    }
}

/// The function types `ty` holds pointers to, directly or in arrays, each
/// once; variadic ones are left out (a stub cannot read their arguments).
fn collect_callback_types(ty: &Type, out: &mut Vec<FnSig>) {
    match ty {
        Type::Pointer(to) => {
            if let Type::Function(sig) = &**to {
                if !sig.variadic && !out.contains(sig) {
                    out.push((**sig).clone());
                }
            }
        }
        Type::Array(elem, _) => collect_callback_types(elem, out),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use crate::{FnSig, Global, IntType, Program, Type};

    #[test]
    fn one_mock_per_function_pointer_type_held() {
        let int = Type::Int(IntType::INT);
        let sig = FnSig {
            ret: int.clone(),
            params: vec![int.clone()],
            variadic: false,
        };
        let callback = Type::ptr(Type::Function(Box::new(sig.clone())));
        let global = |name: &str, ty: Type| Global {
            name: name.into(),
            ty,
            init: None,
            is_static: false,
            is_extern: false,
            is_const: false,
            span: Default::default(),
        };
        let mut program = Program {
            files: vec!["t.c".into()],
            globals: vec![
                global("on_event", callback.clone()),
                global("table", Type::Array(Box::new(callback), Some(4))),
                global("count", int),
            ],
            ..Default::default()
        };
        program.add_callback_mocks();
        assert_eq!(program.callback_mocks.len(), 1);
        let mock = program.callback_mocks[0];
        assert!(program.is_callback_mock(mock));
        let f = program.function(mock);
        assert_eq!(
            (f.name.as_str(), &f.sig, f.body.is_none()),
            ("cairn_callback_1", &sig, true)
        );
    }
}
