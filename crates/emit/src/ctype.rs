//! Spelling IR types as C declarations.
//!
//! The IR keeps no qualifiers and does not distinguish `char` from `signed char`
//! or `long` from `int` or `long long` of its width; we print the spelling C
//! code most often uses (`char`, `int`, `long` for 64 bits under LP64, `long
//! long` under ILP32), which has the same size and layout.

use ir::{DataModel, FloatKind, IntType, Layout, Program, Type};
use std::fmt;

/// A type C cannot name from outside its declaration: an untagged struct that
/// no typedef names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unspellable(pub String);

impl fmt::Display for Unspellable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "type `{}` has no tag or typedef name that C code outside its declaration could use",
            self.0
        )
    }
}

/// `ty` declared as `name` (`int x`, `char *s`, `int (*cb)(int)`, `struct p a[3]`).
/// An empty `name` gives the type name alone, as in a cast.
pub fn declare(program: &Program, ty: &Type, name: &str) -> Result<String, Unspellable> {
    let mut declarator = name.to_string();
    let mut current = ty;
    // Walk from the outermost type constructor inwards, wrapping the declarator.
    loop {
        match current {
            Type::Pointer(inner) => {
                declarator = format!("*{declarator}");
                if matches!(**inner, Type::Array(..) | Type::Function(_)) {
                    declarator = format!("({declarator})");
                }
                current = inner;
            }
            Type::Array(elem, len) => {
                let len = len.map(|n| n.to_string()).unwrap_or_default();
                declarator = format!("{declarator}[{len}]");
                current = elem;
            }
            Type::Function(sig) => {
                let mut params = Vec::with_capacity(sig.params.len() + 1);
                for p in &sig.params {
                    params.push(declare(program, p, "")?);
                }
                if sig.variadic {
                    params.push("...".to_string());
                }
                if params.is_empty() {
                    params.push("void".to_string());
                }
                declarator = format!("{declarator}({})", params.join(", "));
                current = &sig.ret;
            }
            base => {
                let base = base_name(program, base)?;
                return Ok(if declarator.is_empty() {
                    base
                } else {
                    format!("{base} {declarator}")
                });
            }
        }
    }
}

/// A variable that holds a returned value and is only read: a returned
/// pointer gets a `const` pointee, so the declaration accepts the function's
/// result whatever qualifiers the source wrote (the IR keeps none).
pub fn declare_read_only(program: &Program, ty: &Type, name: &str) -> Result<String, Unspellable> {
    match ty {
        Type::Pointer(inner) if !matches!(**inner, Type::Function(_) | Type::Array(..)) => {
            declare(program, inner, &format!("const *{name}"))
        }
        _ => declare(program, ty, name),
    }
}

/// The type name alone, for casts and `sizeof`.
pub fn type_name(program: &Program, ty: &Type) -> Result<String, Unspellable> {
    declare(program, ty, "")
}

/// The name of a type that is not derived (derived types never reach here;
/// they would print as `void`).
fn base_name(program: &Program, ty: &Type) -> Result<String, Unspellable> {
    Ok(match ty {
        Type::Void | Type::Pointer(_) | Type::Array(..) | Type::Function(_) => "void".to_string(),
        Type::Int(it) => int_name(*it, program.data_model).to_string(),
        Type::Float(FloatKind::F32) => "float".to_string(),
        Type::Float(FloatKind::F64) => "double".to_string(),
        Type::Float(FloatKind::F80) => "long double".to_string(),
        Type::Struct(id) => {
            let def = program.struct_def(*id);
            def.c_name().ok_or_else(|| Unspellable(def.name.clone()))?
        }
    })
}

/// The usual C spelling of an integer type of this width and signedness.
pub fn int_name(it: IntType, model: DataModel) -> &'static str {
    match (it.is_bool, it.bits, it.signed) {
        (true, _, _) => "_Bool",
        (_, 8, true) => "char",
        (_, 8, false) => "unsigned char",
        (_, 16, true) => "short",
        (_, 16, false) => "unsigned short",
        (_, 32, true) => "int",
        (_, 32, false) => "unsigned int",
        (_, 128, true) => "__int128",
        (_, 128, false) => "unsigned __int128",
        (_, _, signed) => match (model, signed) {
            (DataModel::Lp64, true) => "long",
            (DataModel::Lp64, false) => "unsigned long",
            (DataModel::Ilp32, true) => "long long",
            (DataModel::Ilp32, false) => "unsigned long long",
        },
    }
}

pub fn is_identifier(s: &str) -> bool {
    let mut chars = s.chars();
    matches!(chars.next(), Some(c) if c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

#[cfg(test)]
mod tests {
    use super::*;
    use ir::{FnSig, StructDef, StructId};

    fn program_with_structs() -> Program {
        let def = |name: &str, typedef_name: Option<&str>| StructDef {
            name: name.to_string(),
            typedef_name: typedef_name.map(str::to_string),
            is_union: false,
            fields: vec![],
            size: 4,
            align: 4,
            complete: true,
        };
        Program {
            files: vec!["t.c".into()],
            structs: vec![
                def("point", None),
                def("anon.1", Some("pair_t")),
                def("anon.2", None),
            ],
            ..Default::default()
        }
    }

    #[test]
    fn declares_derived_types_inside_out() {
        let p = program_with_structs();
        let int = Type::Int(IntType::INT);
        let cases = [
            (Type::ptr(Type::Int(IntType::CHAR)), "s", "char *s"),
            (
                Type::ptr(Type::ptr(Type::Int(IntType::ULONG_LONG))),
                "pp",
                "unsigned long **pp",
            ),
            (
                Type::Array(Box::new(Type::Struct(StructId(0))), Some(3)),
                "a",
                "struct point a[3]",
            ),
            (
                Type::ptr(Type::Array(Box::new(int.clone()), Some(4))),
                "row",
                "int (*row)[4]",
            ),
            (
                Type::ptr(Type::Function(Box::new(FnSig {
                    ret: int.clone(),
                    params: vec![int.clone(), Type::ptr(Type::Struct(StructId(1)))],
                    variadic: false,
                }))),
                "cb",
                "int (*cb)(int, pair_t *)",
            ),
            (
                Type::ptr(Type::Function(Box::new(FnSig {
                    ret: Type::Void,
                    params: vec![],
                    variadic: false,
                }))),
                "",
                "void (*)(void)",
            ),
            (Type::Int(IntType::BOOL), "flag", "_Bool flag"),
        ];
        for (ty, name, want) in cases {
            assert_eq!(declare(&p, &ty, name).as_deref(), Ok(want));
        }
    }

    #[test]
    fn read_only_results_get_a_const_pointee() {
        let p = program_with_structs();
        let int = Type::Int(IntType::INT);
        let read_only = |ty: &Type| declare_read_only(&p, ty, "r").unwrap();
        assert_eq!(read_only(&Type::ptr(int.clone())), "int const *r");
        assert_eq!(
            read_only(&Type::ptr(Type::ptr(int.clone()))),
            "int *const *r"
        );
        assert_eq!(read_only(&int), "int r");
    }

    #[test]
    fn untagged_struct_without_typedef_is_unspellable() {
        let p = program_with_structs();
        assert!(declare(&p, &Type::ptr(Type::Struct(StructId(2))), "x").is_err());
    }
}
