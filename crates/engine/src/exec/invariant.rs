//! Declared invariants: a C predicate the user names for a struct type
//! (`--invariant 'struct list=list_is_valid'`). Every input of that type
//! passed to the function under test is assumed to satisfy it: the
//! predicate runs on the input before the function, and the paths on which
//! it returns 0 are dropped, so the shapes it rejects never reach a test
//! or a finding.

use crate::config::InvariantSpec;
use ir::{FuncId, Layout, Program, StructId, Type};

/// A resolved invariant: inputs pointing to `ty` must satisfy `predicate`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Invariant {
    pub ty: StructId,
    pub predicate: FuncId,
}

/// The struct a type name designates: `struct TAG`, `union TAG`, a tag or
/// the typedef of an untagged struct.
fn struct_named(program: &Program, name: &str) -> Option<StructId> {
    let words: Vec<&str> = name.split_whitespace().collect();
    let (want_union, tag) = match words.as_slice() {
        ["struct", tag] => (Some(false), *tag),
        ["union", tag] => (Some(true), *tag),
        [tag] => (None, *tag),
        _ => return None,
    };
    (0..program.structs.len() as u32).map(StructId).find(|id| {
        let def = program.struct_def(*id);
        def.complete
            && want_union.is_none_or(|u| u == def.is_union)
            && (def.name == tag || def.typedef_name.as_deref() == Some(tag))
    })
}

/// Resolves `specs` against `program`. A spec whose type the program does
/// not define is skipped (a run over several files names types of each);
/// one whose type exists but whose predicate is missing or does not take
/// a pointer to it and return an integer is an error.
pub fn resolve(program: &Program, specs: &[InvariantSpec]) -> Result<Vec<Invariant>, String> {
    let mut out = Vec::new();
    for spec in specs {
        let Some(ty) = struct_named(program, &spec.type_name) else {
            continue;
        };
        let Some(predicate) = program.function_by_name(&spec.predicate) else {
            return Err(format!(
                "the invariant of `{}` names `{}`, which the file does not define",
                spec.type_name, spec.predicate
            ));
        };
        let f = program.function(predicate);
        let takes_pointer = matches!(f.sig.params.as_slice(),
            [Type::Pointer(to)] if **to == Type::Struct(ty));
        if f.body.is_none() || !takes_pointer || f.sig.ret.as_int().is_none() {
            return Err(format!(
                "the invariant `{}` of `{}` must be a function defined in the file that takes \
                 one pointer to `{}` and returns an integer (non-zero: valid)",
                spec.predicate, spec.type_name, spec.type_name
            ));
        }
        out.push(Invariant { ty, predicate });
    }
    Ok(out)
}

/// The invariant that inputs of type `ty` (a pointer to the struct) of the
/// function `under_test` satisfy; none for the predicate's own parameter.
pub fn of_input<'i>(
    invariants: &'i [Invariant],
    under_test: FuncId,
    ty: &Type,
) -> Option<&'i Invariant> {
    invariants
        .iter()
        .find(|inv| inv.predicate != under_test && ty.pointee() == Some(&Type::Struct(inv.ty)))
}

/// The invariant of what a `T **` input points to, a `T *` (the list head
/// a function may replace through `struct node **head`).
pub fn of_pointee<'i>(
    invariants: &'i [Invariant],
    under_test: FuncId,
    ty: &Type,
) -> Option<&'i Invariant> {
    let pointee = ty.pointee().filter(|p| p.pointee().is_some())?;
    of_input(invariants, under_test, pointee)
}

/// Does `program` define the type `spec` names?
pub fn defines_type(program: &Program, spec: &InvariantSpec) -> bool {
    struct_named(program, &spec.type_name).is_some()
}
