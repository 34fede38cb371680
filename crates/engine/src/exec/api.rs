//! Inputs built through the code's own API. Where the file defines a
//! public (not `static`) function that creates a struct (returns a fresh
//! `T *` from integer arguments), a `T *` parameter of the function under test is not a
//! free-form shape: the test calls that constructor, then a short,
//! solver-chosen sequence of the file's functions that add to a `T`
//! (take the `T *` first, then integers, and may allocate), all with
//! symbolic arguments, executed like the rest. The driver makes the same
//! calls, so the input is one the library itself can hold.

use super::input::push_frame;
use super::Exec;
use crate::memory::zero_cells;
use crate::state::{Build, ObjKind, Object, ReturnTo, State};
use crate::value::{cells_to_ptr, ObjIdx, PtrVal, SymVal, Target};
use ir::{Callee, FuncId, Layout, Program, StmtKind, StructId, Type};
use std::collections::BTreeSet;

/// How a struct type's values are built through the API.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Api {
    pub ty: StructId,
    pub constructors: Vec<FuncId>,
    pub adders: Vec<FuncId>,
}

/// The functions every API-built input may call, per type.
#[derive(Clone, Debug, Default)]
pub struct Apis {
    by_type: Vec<Api>,
}

impl Apis {
    /// The construction APIs of `program`, leaving out the declared
    /// invariants' predicates. The function under test may build its own
    /// input too, as a person grows a tree by inserts before testing one.
    pub fn find(program: &Program, excluded: &[FuncId]) -> Apis {
        let allocating = allocating_functions(program);
        let usable = |f: FuncId| !excluded.contains(&f);
        let mut by_type: Vec<Api> = Vec::new();
        for (i, function) in program.functions.iter().enumerate() {
            let func = FuncId(i as u32);
            // The API is what other files can call: a `static` helper may
            // assume what only its callers in the file guarantee.
            if function.body.is_none()
                || function.is_static
                || !usable(func)
                || function.sig.variadic
            {
                continue;
            }
            let params = &function.sig.params;
            if let Some(ty) = struct_pointee(&function.sig.ret) {
                if params.iter().all(is_plain_argument) {
                    entry(&mut by_type, ty).constructors.push(func);
                    continue;
                }
            }
            if let Some((first, rest)) = params.split_first() {
                if let Some(ty) = struct_pointee(first) {
                    if rest.iter().all(is_plain_argument) && allocating.contains(&func) {
                        entry(&mut by_type, ty).adders.push(func);
                    }
                }
            }
        }
        by_type.retain(|api| !api.constructors.is_empty());
        Apis { by_type }
    }

    /// How to build a value `ty` points to, if the API can.
    pub fn for_pointer(&self, ty: &Type) -> Option<&Api> {
        let pointee = struct_pointee(ty)?;
        self.by_type.iter().find(|api| api.ty == pointee)
    }
}

fn entry(by_type: &mut Vec<Api>, ty: StructId) -> &mut Api {
    let at = match by_type.iter().position(|api| api.ty == ty) {
        Some(at) => at,
        None => {
            by_type.push(Api {
                ty,
                constructors: Vec::new(),
                adders: Vec::new(),
            });
            by_type.len() - 1
        }
    };
    &mut by_type[at]
}

fn struct_pointee(ty: &Type) -> Option<StructId> {
    match ty.pointee() {
        Some(Type::Struct(id)) => Some(*id),
        _ => None,
    }
}

/// An argument a construction call can be given: an integer the solver
/// chooses, or a pointer to an integer the call may write its status to
/// (the driver passes a scratch variable).
fn is_plain_argument(ty: &Type) -> bool {
    matches!(ty, Type::Int(_)) || matches!(ty.pointee(), Some(Type::Int(_)))
}

/// Functions that may allocate: they call an allocator, a function through
/// a pointer (an allocation hook), or such a function.
fn allocating_functions(program: &Program) -> BTreeSet<FuncId> {
    const ALLOCATORS: &[&str] = &["malloc", "calloc", "realloc", "strdup", "strndup"];
    let calls: Vec<(Vec<FuncId>, bool)> = program
        .functions
        .iter()
        .map(|f| {
            let mut direct = Vec::new();
            let mut allocates = false;
            for block in f.body.iter().flat_map(|b| &b.blocks) {
                for stmt in &block.stmts {
                    if let StmtKind::Call { callee, .. } = &stmt.kind {
                        match callee {
                            Callee::Direct(g) => {
                                allocates |=
                                    ALLOCATORS.contains(&program.function(*g).name.as_str());
                                direct.push(*g);
                            }
                            Callee::Indirect(_) => allocates = true,
                        }
                    }
                }
            }
            (direct, allocates)
        })
        .collect();
    let mut allocating: BTreeSet<FuncId> = (0..calls.len())
        .filter(|&i| calls[i].1)
        .map(|i| FuncId(i as u32))
        .collect();
    loop {
        let before = allocating.len();
        for (i, (direct, _)) in calls.iter().enumerate() {
            if direct.iter().any(|g| allocating.contains(g)) {
                allocating.insert(FuncId(i as u32));
            }
        }
        if allocating.len() == before {
            return allocating;
        }
    }
}

/// The value an API-built parameter starts as, until its constructor returns.
pub fn placeholder() -> SymVal {
    SymVal::Ptr(PtrVal::to(Target::Null))
}

/// What the frame of one construction call returns to.
pub fn returns_to(build: usize) -> ReturnTo {
    ReturnTo::Construction { build }
}

/// Whether `st` is still building inputs (a construction call is running).
pub fn building(st: &State) -> bool {
    st.frames
        .iter()
        .any(|f| matches!(f.returns, ReturnTo::Construction { .. }))
}

/// Pushes the frame of construction call `func` of `build`, its integer
/// arguments fresh inputs, after `built` (the pointer the constructor
/// returned) for the calls that add to it. The caller enters its first block.
pub fn push_call(
    program: &Program,
    st: &mut State,
    build: usize,
    func: FuncId,
    built: Option<SymVal>,
) -> Exec<()> {
    let function = program.function(func);
    let mut args: Vec<SymVal> = built.into_iter().collect();
    for ty in &function.sig.params[args.len()..] {
        let name = format!("{}()#{}", function.name, st.builds[build].calls.len());
        args.push(match ty {
            Type::Int(it) => SymVal::Int(st.fresh_input(&name, u32::from(it.bits))),
            _ => {
                let size = program.size_of(ty.pointee().unwrap_or(&Type::Void)).max(1);
                let scratch = st.add_object(Object::new(ObjKind::Stack, zero_cells(size)));
                SymVal::Ptr(PtrVal::to(Target::Object(scratch)))
            }
        });
    }
    st.builds[build].calls.push((func, args.clone()));
    push_frame(program, st, func, &args, returns_to(build))
}

/// A new build of parameter `param` with `api`.
pub fn new_build(param: usize, api: &Api) -> Build {
    Build {
        param,
        ty: api.ty,
        calls: Vec::new(),
        member: None,
    }
}

/// A parameter pointing to a `ty` that another built parameter's structure
/// holds: it is chosen among that structure's nodes once it is built.
pub fn new_member(param: usize, ty: StructId) -> Build {
    Build {
        param,
        ty,
        calls: Vec::new(),
        member: Some(None),
    }
}

/// Can a `from` reach a `to` through pointer members (a list's nodes)?
pub fn holds(program: &Program, from: StructId, to: StructId) -> bool {
    let mut seen = vec![from];
    let mut pending = vec![from];
    while let Some(id) = pending.pop() {
        for field in &program.struct_def(id).fields {
            if let Some(Type::Struct(next)) = field.ty.pointee() {
                if *next == to {
                    return true;
                }
                if !seen.contains(next) {
                    seen.push(*next);
                    pending.push(*next);
                }
            }
        }
    }
    false
}

/// The live objects of type `want` the built parameters reach through
/// pointer members, each with the parameter and the members from it
/// (`->head->next`), nearest first.
pub fn reachable_nodes(
    program: &Program,
    st: &State,
    want: StructId,
) -> Vec<(ObjIdx, (usize, String))> {
    let mut found = Vec::new();
    let mut seen: Vec<ObjIdx> = Vec::new();
    let mut pending: std::collections::VecDeque<(ObjIdx, StructId, usize, String)> = st
        .builds
        .iter()
        .filter(|b| b.member.is_none())
        .filter_map(|b| {
            let obj = live_object(st, &st.params[b.param])?;
            Some((obj, b.ty, b.param, String::new()))
        })
        .collect();
    while let Some((obj, ty, root, path)) = pending.pop_front() {
        if seen.contains(&obj) {
            continue;
        }
        seen.push(obj);
        if ty == want {
            found.push((obj, (root, path.clone())));
        }
        let cells = &st.object(obj).cells;
        for field in &program.struct_def(ty).fields {
            let Some(Type::Struct(next)) = field.ty.pointee() else {
                continue;
            };
            let at = field.offset as usize;
            let Some(slot) = cells.get(at..at + 8) else {
                continue;
            };
            if let Ok(ptr) = cells_to_ptr(slot) {
                if let Some(target) = live_object(st, &SymVal::Ptr(ptr)) {
                    pending.push_back((target, *next, root, format!("{path}->{}", field.name)));
                }
            }
        }
    }
    found
}

/// The live heap object a pointer points to the start of.
fn live_object(st: &State, value: &SymVal) -> Option<ObjIdx> {
    let SymVal::Ptr(p) = value else {
        return None;
    };
    let Target::Object(obj) = p.target else {
        return None;
    };
    let at_start = crate::memory::concrete_offset(&p.offset) == Some(0);
    let live = matches!(st.object(obj).kind, ObjKind::Heap { freed: false, .. });
    (at_start && live).then_some(obj)
}
