//! Facts about the translation unit under test that every generated file needs:
//! which names are taken, how to spell a function or global from outside it,
//! and which bodiless functions and extern globals the driver must define.

use crate::ctype::{self, is_identifier};
use ir::walk::{self, Operand};
use ir::{Expr, ExprKind, FuncId, GlobalId, PlaceBase, Program, Type};
use std::collections::{BTreeMap, BTreeSet, HashSet};
use testcase::{Inputs, StubCall, Value, RENAMED_MAIN};

/// The members of a struct value with the name a reader sees (`#n` for an
/// anonymous member) and their types (`void` where the type has no such member).
pub fn named_members<'v>(
    program: &ir::Program,
    ty: &ir::Type,
    members: &'v [Value],
) -> Vec<(String, ir::Type, &'v Value)> {
    let fields: &[ir::Field] = match ty {
        ir::Type::Struct(id) => &program.structs[id.0 as usize].fields,
        _ => &[],
    };
    members
        .iter()
        .enumerate()
        .map(|(n, member)| {
            let field = fields.get(n);
            let name = field
                .map(|f| f.name.clone())
                .filter(|name| !name.is_empty())
                .unwrap_or_else(|| format!("#{n}"));
            let member_ty = field.map(|f| f.ty.clone()).unwrap_or(ir::Type::Void);
            (name, member_ty, member)
        })
        .collect()
}

/// Library functions the generated files call themselves; a stub with one of
/// these names would replace them for the driver too.
const DRIVER_LIBRARY: &[&str] = &["printf", "fflush", "memcpy", "strtol", "fprintf", "puts"];

pub struct Unit<'a> {
    pub program: &'a Program,
    /// The source defines `main`, which the drivers rename.
    pub renames_main: bool,
    /// The code reads or writes `errno` (glibc's `*__errno_location()`):
    /// the drivers set it to 0 before each call, as the engine assumes.
    pub uses_errno: bool,
    /// The code calls `malloc` or `realloc`, whose new bytes the drivers fill.
    pub allocates_uninitialized: bool,
    /// The code calls `free` and not `realloc`: the drivers check which
    /// input objects the call freed (a `realloc` may release a block
    /// without calling `free`, or keep it where it was).
    pub tracks_frees: bool,
    /// Every file-scope identifier of the source: generated locals must not
    /// shadow them. Made once: every test's scope starts from it.
    pub reserved_names: HashSet<String>,
    /// Symbols the linker found undefined in an earlier build of the
    /// drivers ([`crate::EmitConfig::unresolved`]).
    pub unresolved: crate::Unresolved,
}

/// A bodiless function some test scripts, and the longest script it needs.
#[derive(Clone, Debug)]
pub struct StubPlan {
    pub func: FuncId,
    pub capacity: usize,
    /// The parameters (from 0) some test scripts writes through.
    pub written_args: Vec<usize>,
}

impl<'a> Unit<'a> {
    pub fn new(program: &'a Program) -> Self {
        // The source's `main`, read or not, makes way for the driver's.
        let renames_main = program
            .function_by_name("main")
            .is_some_and(|f| program.function(f).body.is_some())
            || program.excluded_definitions.iter().any(|f| f == "main");
        let used = uses(program).functions;
        let calls = |name: &str| used.iter().any(|f| program.function(*f).name == name);
        let mut reserved_names: HashSet<String> =
            program.functions.iter().map(|f| f.name.clone()).collect();
        reserved_names.extend(program.globals.iter().map(|g| g.name.clone()));
        reserved_names.extend(
            program
                .structs
                .iter()
                .filter_map(|s| s.typedef_name.clone()),
        );
        reserved_names.insert(RENAMED_MAIN.to_string());
        Unit {
            program,
            renames_main,
            uses_errno: calls("__errno_location"),
            allocates_uninitialized: calls("malloc") || calls("realloc"),
            tracks_frees: calls("free") && !calls("realloc"),
            reserved_names,
            unresolved: crate::Unresolved::default(),
        }
    }

    /// Whether the source defines a function of this name (with a body).
    pub fn defines_function(&self, name: &str) -> bool {
        self.program
            .function_by_name(name)
            .is_some_and(|f| self.program.function(f).body.is_some())
    }

    /// How the drivers call this function.
    pub fn function_name(&self, f: FuncId) -> &str {
        let name = self.program.function(f).name.as_str();
        if self.renames_main && name == "main" {
            RENAMED_MAIN
        } else {
            name
        }
    }

    /// The function a driver's call names: `f`, or, when C sees `f`
    /// without a prototype and it takes parameters, `f` cast to a pointer
    /// to the function type its body receives (`((long (*)(long, double))f)`),
    /// so that each argument converts to its parameter's type as under a
    /// prototype. A plain call would pass `-1` as an `int` to a `long`
    /// parameter, and the callee would read bits the call never set.
    pub fn callee(&self, f: FuncId) -> Result<String, String> {
        let function = self.program.function(f);
        let name = self.function_name(f);
        if function.prototyped || function.sig.params.is_empty() {
            return Ok(name.to_string());
        }
        let pointer = Type::ptr(Type::Function(Box::new(function.sig.clone())));
        Ok(format!("(({}){name})", self.spell(&pointer, "")?))
    }

    /// How the drivers name this global, or `None` for a function's `static`
    /// local, which code outside the function cannot reach. One declared
    /// only inside a function body is out of sight at file scope: the
    /// driver defines it under another name (`extern_definitions`).
    pub fn global_name(&self, g: GlobalId) -> Option<String> {
        let name = self.program.global(g).name.as_str();
        if self
            .program
            .declared_in_blocks_only
            .iter()
            .any(|n| n == name)
        {
            return Some(format!("cairn_defined_{name}"));
        }
        is_identifier(name).then(|| name.to_string())
    }

    /// Extern globals the code uses but nothing defines, the C library's
    /// own aside (`stdin`, `optind`): the driver defines them, since it
    /// links neither the project's other files nor other libraries (whose
    /// headers declare hooks such as libxml2's `xmlFree`).
    pub fn extern_definitions(&self) -> BTreeSet<GlobalId> {
        let mut used = uses(self.program).globals;
        let program = self.program;
        let named = program.globals.iter().enumerate();
        used.extend(named.filter_map(|(index, global)| {
            let excluded_code_reads = program.used_by_excluded.contains(&global.name);
            excluded_code_reads.then_some(GlobalId(index as u32))
        }));
        used.into_iter()
            .filter(|g| {
                let global = self.program.global(*g);
                global.is_extern
                    && self.global_name(*g).is_some()
                    && !(self.program.in_system_header(global.span)
                        && testcase::c_library::provides(&global.name))
            })
            .collect()
    }
    /// The stubs a set of inputs needs, with the longest script of each:
    /// the functions the tests script, and every other bodiless function the
    /// code uses that no system header declares and that is not the C
    /// library's (else the driver would not link; such a stub returns zero). Functions the drivers themselves call
    /// are left out (and reported).
    pub fn stub_plans<'i>(
        &self,
        inputs: impl Iterator<Item = &'i Inputs>,
        calls: impl Iterator<Item = &'i [StubCall]>,
    ) -> (Vec<StubPlan>, Vec<String>) {
        let mut capacity: BTreeMap<FuncId, usize> = BTreeMap::new();
        let mut written: BTreeMap<FuncId, BTreeSet<usize>> = BTreeMap::new();
        for func in uses(self.program).functions {
            if testcase::c_library::is_stubbed(self.program, func) {
                capacity.insert(func, 0);
            }
        }
        // The driver compiles the whole source, so code cairn could not
        // read (an excluded function, an initializer) may name any function
        // the project's own files declare: each gets a stub, where C can
        // spell one.
        for (index, f) in self.program.functions.iter().enumerate() {
            let func = FuncId(index as u32);
            let spellable = !f.sig.variadic
                && self.spell(&f.sig.ret, "r").is_ok()
                && f.sig.params.iter().all(|p| self.spell(p, "p").is_ok());
            let excluded_code_calls = self.program.used_by_excluded.contains(&f.name);
            let own = (!self.program.in_system_header(f.span) || excluded_code_calls)
                && testcase::c_library::is_stubbed(self.program, func);
            if !f.is_static && spellable && (own || self.unresolved.symbols.contains(&f.name)) {
                capacity.entry(func).or_insert(0);
            }
        }
        for input in inputs {
            // A callback mock a test stores gets its stub, called or not.
            for func in input.functions_given() {
                if self.program.is_callback_mock(func) {
                    capacity.entry(func).or_insert(0);
                }
            }
            for stub in &input.stubs {
                let calls = stub.writes.iter().map(|w| w.call + 1);
                let entry = capacity.entry(stub.func).or_default();
                *entry = calls.fold((*entry).max(stub.returns.len()), usize::max);
                let args = stub.writes.iter().map(|w| w.arg);
                written.entry(stub.func).or_default().extend(args);
            }
        }
        for made in calls {
            for call in made {
                let count = made.iter().filter(|c| c.func == call.func).count();
                let entry = capacity.entry(call.func).or_default();
                *entry = (*entry).max(count);
            }
        }
        let mut notes = Vec::new();
        let plans = capacity
            .into_iter()
            .filter(|(func, _)| {
                let f = self.program.function(*func);
                let usable = f.body.is_none() && !DRIVER_LIBRARY.contains(&f.name.as_str());
                if !usable {
                    notes.push(format!(
                        "no stub for `{}`: {}",
                        f.name,
                        if f.body.is_some() {
                            "it has a body"
                        } else {
                            "the driver itself calls it"
                        }
                    ));
                }
                usable
            })
            .map(|(func, capacity)| StubPlan {
                func,
                capacity: capacity.max(1),
                written_args: written
                    .get(&func)
                    .map(|args| args.iter().copied().collect())
                    .unwrap_or_default(),
            })
            .collect();
        (plans, notes)
    }

    /// The functions `func` may call, directly or through others, and
    /// every function whose address any of them takes.
    pub fn callees(&self, func: FuncId) -> BTreeSet<FuncId> {
        let mut reached = BTreeSet::new();
        let mut pending = vec![func];
        while let Some(next) = pending.pop() {
            let Some(body) = &self.program.function(next).body else {
                continue;
            };
            let mut found = Vec::new();
            walk::operands(body, |operand| match operand {
                Operand::Called(f) => found.push(f),
                Operand::Evaluated(e) => walk::subexpressions(e, &mut |e: &Expr| {
                    if let ExprKind::FuncAddr(f) = e.kind {
                        found.push(f);
                    }
                }),
                Operand::Assigned(_) => {}
            });
            for f in found {
                if reached.insert(f) {
                    pending.push(f);
                }
            }
        }
        reached
    }

    /// Length to give an extern array declared without one: the longest value a test assigns.
    pub fn extern_array_len<'i>(
        &self,
        g: GlobalId,
        inputs: impl Iterator<Item = &'i Inputs>,
    ) -> u64 {
        inputs
            .flat_map(|i| i.globals.iter())
            .filter(|(id, _)| *id == g)
            .map(|(_, v)| match v {
                Value::Array(items) => items.len() as u64,
                _ => 1,
            })
            .max()
            .unwrap_or(1)
            .max(1)
    }

    pub fn spell(&self, ty: &Type, name: &str) -> Result<String, String> {
        ctype::declare(self.program, ty, name).map_err(|e| e.to_string())
    }

    /// A type as C spells it, for messages (`a type C cannot spell` when
    /// it cannot be).
    pub fn type_words(&self, ty: &Type) -> String {
        self.spell(ty, "")
            .map(|t| t.trim().to_string())
            .unwrap_or_else(|_| "a type C cannot spell".to_string())
    }

    /// See [`ctype::declare_read_only`].
    pub fn spell_read_only(&self, ty: &Type, name: &str) -> Result<String, String> {
        ctype::declare_read_only(self.program, ty, name).map_err(|e| e.to_string())
    }
}

/// Globals and functions that function bodies or initializers refer to.
#[derive(Default)]
struct Uses {
    globals: BTreeSet<GlobalId>,
    functions: BTreeSet<FuncId>,
}

fn uses(program: &Program) -> Uses {
    let mut used = Uses::default();
    for global in &program.globals {
        if let Some(ir::Init::Fields(items)) = &global.init {
            for item in items {
                match item.value {
                    ir::ConstValue::GlobalAddr(g, _) => {
                        used.globals.insert(g);
                    }
                    ir::ConstValue::FuncAddr(f) => {
                        used.functions.insert(f);
                    }
                    _ => {}
                }
            }
        }
    }
    let Uses { globals, functions } = &mut used;
    let mut refers = |e: &Expr| match &e.kind {
        ExprKind::Load(place) | ExprKind::AddrOf(place) => {
            if let PlaceBase::Global(g) = place.base {
                globals.insert(g);
            }
        }
        ExprKind::FuncAddr(f) => {
            functions.insert(*f);
        }
        _ => {}
    };
    let mut assigned = Vec::new();
    let mut called = Vec::new();
    for body in program.functions.iter().filter_map(|f| f.body.as_ref()) {
        walk::operands(body, |operand| match operand {
            Operand::Assigned(place) => {
                if let PlaceBase::Global(g) = place.base {
                    assigned.push(g);
                }
                walk::place_expressions(place, &mut refers);
            }
            Operand::Called(f) => called.push(f),
            Operand::Evaluated(e) => walk::subexpressions(e, &mut refers),
        });
    }
    used.globals.extend(assigned);
    used.functions.extend(called);
    used
}

#[cfg(test)]
mod tests {
    use super::*;
    use ir::{FloatKind, FnSig, Function, IntType, Span};

    #[test]
    fn a_function_without_a_prototype_is_called_through_a_prototyped_pointer() {
        let function = |name: &str, prototyped: bool, params: Vec<Type>| Function {
            name: name.to_string(),
            sig: FnSig {
                ret: Type::Int(IntType::INT),
                params,
                variadic: false,
            },
            prototyped,
            is_static: false,
            span: Span::default(),
            body: None,
            nonnull: Vec::new(),
            const_pointee: Vec::new(),
        };
        let wide = Type::Int(IntType::LONG_LONG);
        let program = Program {
            files: vec!["t.c".to_string()],
            functions: vec![
                function(
                    "old",
                    false,
                    vec![wide.clone(), Type::Float(FloatKind::F64)],
                ),
                function("new", true, vec![wide]),
                function("empty", false, Vec::new()),
            ],
            ..Default::default()
        };
        let unit = Unit::new(&program);
        let callees: Vec<String> = (0..3)
            .map(|f| unit.callee(FuncId(f)).expect("spellable"))
            .collect();
        assert_eq!(callees, ["((int (*)(long, double))old)", "new", "empty"]);
    }
}
