//! Inputs built through the code's own API. Where the file defines a
//! public (not `static`) function that creates a struct (returns a fresh
//! `T *` from integer or string arguments) or sets one up on its caller's
//! storage (an initialiser: takes the `T *` first, then such arguments, and
//! writes the struct before reading it, see `ir::initialiser`), a `T *`
//! parameter of the function under test is not a free-form shape: the test
//! calls that constructor (an initialiser on a fresh heap object), then a
//! short, solver-chosen sequence of the file's functions that add to a `T`
//! (take the `T *` first, then integers, and may allocate), all with
//! symbolic arguments, executed like the rest. The driver makes the same
//! calls, so the input is one the library itself can hold.

use super::input::push_frame;
use super::{Exec, Stop};
use crate::memory::zero_cells;
use crate::state::{Build, BuildCall, BuildStep, ObjKind, Object, ReturnTo, State};
use crate::value::{cells_to_ptr, LazyIdx, ObjIdx, PtrVal, SymVal, Target};
use ir::{Callee, Expr, FuncId, Layout, PlaceBase, Program, StmtKind, StructId, Success, Type};
use std::collections::{BTreeMap, BTreeSet};

/// How a struct type's values are built through the API.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Api {
    pub ty: StructId,
    pub constructors: Vec<FuncId>,
    pub adders: Vec<FuncId>,
}

/// The functions every API-built input may call, per type.
#[derive(Clone, Debug)]
pub struct Apis {
    by_type: Vec<Api>,
    /// Per function, the parameters it adopts (see [`adopted_params`]).
    adopted: Vec<BTreeSet<usize>>,
    /// The constructors that are initialisers, with what they return on
    /// success.
    initialisers: BTreeMap<FuncId, Success>,
    /// Every function, public or not, that sets up what its first parameter
    /// points to (`ir::initialiser::sets_up`).
    setting_up: BTreeSet<FuncId>,
}

/// Words in a function's name that say it sets up its first argument: they
/// only rank initialisers, what makes one is what it does.
const INITIALISER_WORDS: [&str; 5] = ["init", "create", "open", "reset", "clear"];

impl Apis {
    /// No construction API: every struct input is a free-form shape.
    pub const NONE: Apis = Apis {
        by_type: Vec::new(),
        adopted: Vec::new(),
        initialisers: BTreeMap::new(),
        setting_up: BTreeSet::new(),
    };

    /// The construction APIs of `program`, leaving out the declared
    /// invariants' predicates. The function under test may build its own
    /// input too, as a person grows a tree by inserts before testing one.
    pub fn find(program: &Program, excluded: &[FuncId]) -> Apis {
        let allocating = allocating_functions(program);
        let adopted = adopted_params(program);
        // The API is what other files can call: a `static` helper may
        // assume what only its callers in the file guarantee.
        let public: Vec<(FuncId, &ir::Function)> = program
            .functions
            .iter()
            .enumerate()
            .map(|(i, f)| (FuncId(i as u32), f))
            .filter(|(func, f)| {
                f.body.is_some() && !f.is_static && !excluded.contains(func) && !f.sig.variadic
            })
            .collect();
        let mut by_type: Vec<Api> = Vec::new();
        for (func, function) in &public {
            if let Some(ty) = struct_pointee(&function.sig.ret) {
                if function.sig.params.iter().all(is_plain_argument) {
                    entry(&mut by_type, ty).constructors.push(*func);
                }
            }
        }
        let setting_up: BTreeSet<FuncId> = (0..program.functions.len() as u32)
            .map(FuncId)
            .filter(|&func| ir::initialiser::sets_up(program, func, 0))
            .collect();
        // Initialisers come after the constructors that return a new
        // `T *`, those whose names say so first.
        let mut initialisers: Vec<(StructId, FuncId)> = public
            .iter()
            .filter(|(func, function)| {
                let returns_status = matches!(function.sig.ret, Type::Void | Type::Int(_));
                let plain_rest = function.sig.params.iter().skip(1).all(is_plain_argument);
                returns_status && plain_rest && setting_up.contains(func)
            })
            .filter_map(|(func, function)| Some((struct_pointee(&function.sig.params[0])?, *func)))
            .collect();
        initialisers.sort_by_key(|(_, func)| {
            let name = program.function(*func).name.to_ascii_lowercase();
            !INITIALISER_WORDS.iter().any(|word| name.contains(word))
        });
        for (ty, func) in &initialisers {
            entry(&mut by_type, *ty).constructors.push(*func);
        }
        let initialisers = initialisers
            .into_iter()
            .map(|(_, func)| (func, ir::initialiser::success(program, func)))
            .collect();
        // An adder's struct arguments are made by their own constructors.
        let constructible: Vec<StructId> = by_type.iter().map(|api| api.ty).collect();
        for (func, function) in &public {
            let Some((first, rest)) = function.sig.params.split_first() else {
                continue;
            };
            let Some(ty) = struct_pointee(first) else {
                continue;
            };
            let argument = |t: &Type| {
                is_plain_argument(t)
                    || struct_pointee(t).is_some_and(|s| constructible.contains(&s))
            };
            let constructor = by_type.iter().any(|api| api.constructors.contains(func));
            // It adds when it allocates, or links in the values it is
            // given: one that takes a value to find it (detach, lookup)
            // would only be misused on a value made apart.
            let parts: Vec<usize> = (1..function.sig.params.len())
                .filter(|&i| struct_pointee(&function.sig.params[i]).is_some())
                .collect();
            let adds = if parts.is_empty() {
                allocating.contains(func)
            } else {
                parts.iter().all(|i| adopted[func.0 as usize].contains(i))
            };
            if !constructor && rest.iter().all(argument) && adds {
                entry(&mut by_type, ty).adders.push(*func);
            }
        }
        by_type.retain(|api| !api.constructors.is_empty());
        Apis {
            by_type,
            adopted,
            initialisers,
            setting_up,
        }
    }

    /// What initialiser `func` returns on success; `None` for a function
    /// that is no initialiser.
    pub fn initialiser(&self, func: FuncId) -> Option<Success> {
        self.initialisers.get(&func).copied()
    }

    /// Whether `func` sets up what its parameter `param` points to: the
    /// test gives it storage, not a value built through the API.
    pub fn sets_up(&self, func: FuncId, param: usize) -> bool {
        param == 0 && self.setting_up.contains(&func)
    }

    /// Whether `func` stores parameter `param` itself into memory.
    pub fn adopts(&self, func: FuncId, param: usize) -> bool {
        self.adopted
            .get(func.0 as usize)
            .is_some_and(|params| params.contains(&param))
    }

    /// How to build a value `ty` points to, if the API can.
    pub fn for_pointer(&self, ty: &Type) -> Option<&Api> {
        self.for_struct(struct_pointee(ty)?)
    }

    /// Every constructor and adder, of any type.
    pub fn functions(&self) -> impl Iterator<Item = FuncId> + '_ {
        self.by_type
            .iter()
            .flat_map(|api| api.constructors.iter().chain(&api.adders).copied())
    }

    pub fn for_struct(&self, ty: StructId) -> Option<&Api> {
        self.by_type.iter().find(|api| api.ty == ty)
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

/// An argument a construction call can be given: an integer or a string
/// the solver chooses, or a pointer to an integer the call may write its
/// status to (the driver passes a scratch variable).
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

/// Per function, the pointer parameters whose value it stores into memory
/// (`list->head = node`) itself or through the functions it calls: what
/// it adopts, as opposed to what it only reads or looks for.
fn adopted_params(program: &Program) -> Vec<BTreeSet<usize>> {
    let mut adopted = vec![BTreeSet::new(); program.functions.len()];
    loop {
        let mut changed = false;
        for (f, function) in program.functions.iter().enumerate() {
            let params = function.sig.params.len();
            let param_of = |e: &Expr| ir::params::param_read(e, params);
            let mut found = Vec::new();
            for block in function.body.iter().flat_map(|b| &b.blocks) {
                for stmt in &block.stmts {
                    match &stmt.kind {
                        StmtKind::Assign(place, value) => {
                            if !matches!(place.base, PlaceBase::Local(_)) {
                                found.extend(param_of(value));
                            }
                        }
                        StmtKind::Call {
                            callee: Callee::Direct(g),
                            args,
                            ..
                        } => {
                            for (j, arg) in args.iter().enumerate() {
                                if adopted[g.0 as usize].contains(&j) {
                                    found.extend(param_of(arg));
                                }
                            }
                        }
                        StmtKind::Call { .. } => {}
                    }
                }
            }
            for p in found {
                changed |= adopted[f].insert(p);
            }
        }
        if !changed {
            return adopted;
        }
    }
}

/// The value an API-built parameter starts as, until its constructor returns.
pub fn placeholder() -> SymVal {
    SymVal::Ptr(PtrVal::to(Target::Null))
}

/// Whether `st` is still building inputs (a construction call, or a call
/// of the function under test before the checked one, is running).
pub fn building(st: &State) -> bool {
    constructing(st)
        || st
            .frames
            .iter()
            .any(|f| matches!(f.returns, ReturnTo::EarlierCall { .. }))
}

/// Whether a construction call is running: what it allocates is the
/// test's. (What an earlier call of the function under test loses is a
/// leak of that function, and the driver makes those calls outside its
/// `cairn_building_inputs` bracket.)
pub fn constructing(st: &State) -> bool {
    st.frames.iter().any(|f| {
        matches!(
            f.returns,
            ReturnTo::Construction { .. } | ReturnTo::Part { .. }
        )
    })
}

/// The struct types of the arguments of adder `func` after the first,
/// which constructors make before the call, in order.
pub fn part_types(program: &Program, func: FuncId) -> Vec<StructId> {
    let params = &program.function(func).sig.params;
    params.iter().skip(1).filter_map(struct_pointee).collect()
}

/// Pushes the frame of construction call `func` of `build`. `built` (the
/// pointer the constructor returned, for the calls that add to it, or the
/// storage an initialiser sets up) is the first argument; `parts` go to the
/// struct arguments after it, made by the calls just before this one;
/// integer arguments are fresh inputs, strings lazy input pointers, which
/// it returns for the caller to make non-NULL strings. The caller enters
/// its first block.
pub fn push_call(
    program: &Program,
    st: &mut State,
    build: usize,
    func: FuncId,
    built: Option<SymVal>,
    parts: Vec<SymVal>,
    returns: ReturnTo,
) -> Exec<Vec<LazyIdx>> {
    let function = program.function(func);
    let made_by = st.builds[build].calls.len() - parts.len();
    let mut parts = parts.into_iter().enumerate();
    let mut part_args = Vec::new();
    let mut strings = Vec::new();
    let mut args: Vec<SymVal> = built.into_iter().collect();
    for (i, ty) in function.sig.params.iter().enumerate().skip(args.len()) {
        let name = format!("{}()#{}", function.name, st.builds[build].calls.len());
        let value = match ty {
            Type::Int(it) => SymVal::Int(st.fresh_input(&name, u32::from(it.bits), it.signed)),
            _ if struct_pointee(ty).is_some() => {
                let (k, part) = parts.next().ok_or(Stop::Dead)?;
                part_args.push((args.len(), made_by + k));
                part
            }
            _ if ty.is_string() => {
                let lazy = st.add_lazy(string_path(program, st, func, i), ty.clone());
                strings.push(lazy);
                SymVal::Ptr(PtrVal::to(Target::Lazy(lazy)))
            }
            _ => {
                let size = program.size_of(ty.pointee().unwrap_or(&Type::Void)).max(1);
                let scratch = st.add_object(Object::new(ObjKind::Stack, zero_cells(size)));
                SymVal::Ptr(PtrVal::to(Target::Object(scratch)))
            }
        };
        args.push(value);
    }
    st.builds[build].calls.push(BuildCall {
        func,
        args: args.clone(),
        part: None,
        part_args,
        changes_before: st.memory_changes,
        initialises: None,
    });
    push_frame(program, st, func, &args, returns)?;
    Ok(strings)
}

/// The access path of string argument `param` of construction call `func`
/// (`tok_init.src`, then `tok_init.src#2` for the next such call): the
/// name of its input object.
fn string_path(program: &Program, st: &State, func: FuncId, param: usize) -> String {
    let function = program.function(func);
    let local = function.body.as_ref().and_then(|b| b.locals.get(param));
    let base = format!(
        "{}.{}",
        function.name,
        local.map_or_else(|| format!("arg{param}"), |l| l.name.clone())
    );
    let earlier = st
        .lazies
        .iter()
        .filter(|lazy| lazy.path.split('#').next() == Some(base.as_str()))
        .count();
    match earlier {
        0 => base,
        n => format!("{base}#{}", n + 1),
    }
}

/// A new build of parameter `param` with `api`.
pub fn new_build(param: usize, api: &Api) -> Build {
    Build {
        param,
        ty: api.ty,
        calls: Vec::new(),
        member: None,
        may_be_member: false,
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
        may_be_member: false,
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
        // A structure is not a member of itself.
        if ty == want && !path.is_empty() {
            found.push((obj, (root, path.clone())));
        }
        let cells = &st.object(obj).cells;
        for field in &program.struct_def(ty).fields {
            let Some(Type::Struct(next)) = field.ty.pointee() else {
                continue;
            };
            let at = field.offset as usize;
            let pointer_bytes = program.data_model.pointer_bytes() as usize;
            let Some(slot) = cells.get_range(at..at + pointer_bytes) else {
                continue;
            };
            if let Ok(ptr) = cells_to_ptr(&slot) {
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

/// The step that starts the first build from `from` on that makes a value
/// of its own (not a member of another), if any is left.
pub fn first_step(st: &State, from: usize) -> Option<BuildStep> {
    (from..st.builds.len())
        .find(|&build| st.builds[build].member.is_none())
        .map(|build| BuildStep::Construct { build })
}
