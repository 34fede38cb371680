//! From a Z3 model and a final path state to plain test data: the inputs to
//! build (seed 000's allocate / assign / link), the return value and checks.

use crate::exec::init_cells;
use crate::state::{ObjKind, State};
use crate::testcase::{Check, InputObject, Inputs, ObjectId, Root, Step, Stub, Value};
use crate::value::{cells_to_int, cells_to_ptr, Cell, PtrVal, SymVal, Target};
use crate::EngineConfig;
use ir::{GlobalId, Layout, Program, Type};
use z3::ast::BV;
use z3::Model;

/// Solved view of one path: which state objects are test inputs and how long.
struct Solved<'a> {
    program: &'a Program,
    st: &'a State,
    model: &'a Model,
    /// Output identity and chosen length of each input object of the state.
    inputs: Vec<Option<(ObjectId, u64)>>,
}

pub fn inputs(
    program: &Program,
    config: &EngineConfig,
    st: &State,
    model: &Model,
    func: ir::FuncId,
) -> Inputs {
    Solved::new(program, config, st, model).inputs(func)
}

/// The inputs, return value and output checks of a completed path.
pub fn test_case(
    program: &Program,
    config: &EngineConfig,
    st: &State,
    model: &Model,
    func: ir::FuncId,
) -> (Inputs, Option<Value>, Vec<Check>) {
    let solved = Solved::new(program, config, st, model);
    let inputs = solved.inputs(func);
    let ret_ty = &program.function(func).sig.ret;
    let ret = st.ret.as_ref().map(|v| solved.sym_value(v, ret_ty));
    let mut checks = Vec::new();
    if let (Some(SymVal::Bytes(cells)), Type::Struct(_)) = (&st.ret, ret_ty) {
        solved.leaf_checks(Root::Return, vec![], ret_ty, cells, None, &mut checks);
    }
    for (idx, object) in st.objects.iter().enumerate() {
        let Some((id, len)) = solved.inputs[idx] else {
            continue;
        };
        let ObjKind::Input { elem, .. } = &object.kind else {
            continue;
        };
        let esz = program.size_of(elem) as usize;
        for i in 0..len as usize {
            let range = i * esz..(i + 1) * esz;
            let cells = &object.cells[range.clone()];
            let written = &object.written[range];
            solved.leaf_checks(
                Root::Object(id),
                vec![Step::Index(i as u64)],
                elem,
                cells,
                Some(written),
                &mut checks,
            );
        }
    }
    for (g, global) in program.globals.iter().enumerate() {
        if global.is_const {
            continue;
        }
        let id = GlobalId(g as u32);
        match st.globals[g] {
            Some(obj) => {
                let object = st.object(obj);
                let written = if config.check_all_globals {
                    None
                } else {
                    Some(&object.written[..])
                };
                solved.leaf_checks(
                    Root::Global(id),
                    vec![],
                    &global.ty,
                    &object.cells,
                    written,
                    &mut checks,
                );
            }
            None if config.check_all_globals && program.size_of(&global.ty) > 0 => {
                let cells = init_cells(program, id);
                solved.leaf_checks(
                    Root::Global(id),
                    vec![],
                    &global.ty,
                    &cells,
                    None,
                    &mut checks,
                );
            }
            None => {}
        }
    }
    (inputs, ret, checks)
}

impl<'a> Solved<'a> {
    fn new(program: &'a Program, config: &EngineConfig, st: &'a State, model: &'a Model) -> Self {
        let mut inputs = vec![None; st.objects.len()];
        let mut next = 0u32;
        for (idx, object) in st.objects.iter().enumerate() {
            if let ObjKind::Input { len, is_string, .. } = &object.kind {
                let chosen = eval_bits(model, len) as u64;
                // An object only ever used at its first element needs no more.
                let len = if object.indexed || *is_string {
                    chosen.clamp(1, config.max_array.max(1))
                } else {
                    1
                };
                inputs[idx] = Some((ObjectId(next), len));
                next += 1;
            }
        }
        Solved {
            program,
            st,
            model,
            inputs,
        }
    }

    fn inputs(&self, func: ir::FuncId) -> Inputs {
        let program = self.program;
        let st = self.st;
        let mut out = Inputs::default();
        let params = &program.function(func).sig.params;
        out.args = st
            .params
            .iter()
            .zip(params)
            .map(|(v, ty)| self.sym_value(v, ty))
            .collect();
        for slot in &st.globals {
            let Some(obj) = slot else { continue };
            let object = st.object(*obj);
            if let ObjKind::Global { id, is_input: true } = object.kind {
                out.globals.push((
                    id,
                    self.cells_value(&object.initial, &program.global(id).ty),
                ));
            }
        }
        for (idx, object) in st.objects.iter().enumerate() {
            let (Some((_, len)), ObjKind::Input { origin, elem, .. }) =
                (self.inputs[idx], &object.kind)
            else {
                continue;
            };
            let esz = program.size_of(elem) as usize;
            let path = &st.lazies[*origin as usize].path;
            let single = len == 1 && !object.indexed;
            let name = if single {
                format!("*{path}")
            } else {
                path.clone()
            };
            let init = (0..len as usize)
                .map(|i| self.cells_value(&object.initial[i * esz..(i + 1) * esz], elem))
                .collect();
            out.objects.push(InputObject {
                name,
                elem: elem.clone(),
                len,
                init,
            });
        }
        out.failing_allocations = st.failing_allocations.clone();
        for (func, value) in &st.stub_calls {
            let ret_ty = &program.function(*func).sig.ret;
            let v = self.sym_value(value, ret_ty);
            match out.stubs.iter_mut().find(|s| s.func == *func) {
                Some(stub) => stub.returns.push(v),
                None => out.stubs.push(Stub {
                    func: *func,
                    returns: vec![v],
                }),
            }
        }
        out
    }

    fn sym_value(&self, v: &SymVal, ty: &Type) -> Value {
        match v {
            SymVal::Int(bv) => int_value(self.model, bv, ty),
            SymVal::Ptr(p) => self.ptr_value(p),
            SymVal::Bytes(cells) => self.cells_value(cells, ty),
        }
    }

    fn ptr_value(&self, p: &PtrVal) -> Value {
        let mut target = p.target.clone();
        while let Target::Lazy(l) = target {
            target = self.st.lazies[l as usize]
                .resolution
                .clone()
                .unwrap_or(Target::Null);
        }
        let offset = eval_bits(self.model, &p.offset) as u64;
        match target {
            Target::Null if offset == 0 => Value::Null,
            Target::Object(o) => match self.inputs.get(o as usize).copied().flatten() {
                Some((object, _)) => Value::Pointer { object, offset },
                None => Value::Unknown,
            },
            Target::Global(global) => Value::GlobalPointer { global, offset },
            Target::Func(f) => Value::Func(f),
            _ => Value::Unknown,
        }
    }

    /// The value of type `ty` held by `cells`.
    fn cells_value(&self, cells: &[Cell], ty: &Type) -> Value {
        let program = self.program;
        match ty {
            Type::Int(_) => cells_to_int(cells)
                .map(|bv| int_value(self.model, &bv, ty))
                .unwrap_or(Value::Unknown),
            Type::Pointer(_) => cells_to_ptr(cells)
                .map(|p| self.ptr_value(&p))
                .unwrap_or(Value::Unknown),
            Type::Struct(id) => {
                let def = program.struct_def(*id);
                let fields = def
                    .fields
                    .iter()
                    .map(|f| {
                        let size = program.size_of(&f.ty) as usize;
                        match cells.get(f.offset as usize..f.offset as usize + size) {
                            Some(part) => self.cells_value(part, &f.ty),
                            None => Value::Unknown,
                        }
                    })
                    .collect();
                Value::Struct(fields)
            }
            Type::Array(elem, Some(n)) => {
                let esz = program.size_of(elem) as usize;
                let items = (0..*n as usize)
                    .map(|i| match cells.get(i * esz..(i + 1) * esz) {
                        Some(part) => self.cells_value(part, elem),
                        None => Value::Unknown,
                    })
                    .collect();
                Value::Array(items)
            }
            _ => Value::Unknown,
        }
    }

    /// A check for every scalar of `ty` in `cells` that was written (all when
    /// `written` is `None`). Unions check their first member; floats are skipped.
    fn leaf_checks(
        &self,
        root: Root,
        path: Vec<Step>,
        ty: &Type,
        cells: &[Cell],
        written: Option<&[bool]>,
        out: &mut Vec<Check>,
    ) {
        let program = self.program;
        let size = program.size_of(ty) as usize;
        if cells.len() < size || written.is_some_and(|w| !w.iter().take(size).any(|b| *b)) {
            return;
        }
        match ty {
            Type::Int(_) | Type::Pointer(_) => {
                let expected = self.cells_value(&cells[..size], ty);
                if expected != Value::Unknown {
                    out.push(Check {
                        root,
                        path,
                        ty: ty.clone(),
                        expected,
                    });
                }
            }
            Type::Struct(id) => {
                let def = program.struct_def(*id);
                let members = if def.is_union {
                    &def.fields[..def.fields.len().min(1)]
                } else {
                    &def.fields[..]
                };
                for (n, f) in def.fields.iter().enumerate().take(members.len()) {
                    let at = f.offset as usize;
                    let mut p = path.clone();
                    p.push(Step::Field(n as u32));
                    self.leaf_checks(
                        root.clone(),
                        p,
                        &f.ty,
                        &cells[at..],
                        written.map(|w| &w[at..]),
                        out,
                    );
                }
            }
            Type::Array(elem, Some(len)) => {
                let esz = program.size_of(elem) as usize;
                for i in 0..*len as usize {
                    let at = i * esz;
                    let mut p = path.clone();
                    p.push(Step::Index(i as u64));
                    self.leaf_checks(
                        root.clone(),
                        p,
                        elem,
                        &cells[at..],
                        written.map(|w| &w[at..]),
                        out,
                    );
                }
            }
            _ => {}
        }
    }
}

fn int_value(model: &Model, bv: &BV, ty: &Type) -> Value {
    match ty {
        Type::Int(it) => Value::Int {
            ty: *it,
            bits: eval_bits(model, bv),
        },
        _ => Value::Unknown,
    }
}

/// The model's value of a bit-vector term (unconstrained parts are 0).
pub fn eval_bits(model: &Model, bv: &BV) -> u128 {
    model
        .eval(bv, true)
        .and_then(|v| crate::value::concrete(&v))
        .unwrap_or(0)
}
