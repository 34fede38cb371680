//! C statements that build one test's inputs in seed 000's three steps
//! (declare the input objects, assign their data, link the pointers), script
//! the stubs, and spell the call.

use crate::literal::{char_literal, comment_text, int_literal};
use crate::names::{identifier_from_path, NameScope};
use crate::unit::Unit;
use engine::testcase::{Inputs, ObjectId, Step, Value};
use ir::{FuncId, GlobalId, IntType, Layout, Type};

/// The code that sets up one call.
#[derive(Debug, Default)]
pub struct CallCode {
    pub declarations: Vec<String>,
    pub data: Vec<String>,
    pub links: Vec<String>,
    pub script: Vec<String>,
    /// `classify(3, 4, 5)`.
    pub call: String,
    pub objects: Objects,
}

/// The C names of a test's input objects.
#[derive(Debug, Default)]
pub struct Objects(Vec<ObjectName>);

/// Where [`InputWriter::assign`] puts scalar and pointer assignments.
struct Sink<'a> {
    data: &'a mut Vec<String>,
    links: &'a mut Vec<String>,
}

#[derive(Debug)]
struct ObjectName {
    c_name: String,
    /// Declared as a single variable (`int out_in;`) rather than an array.
    single: bool,
}

/// Writes the set-up of one call of `func` with `inputs`.
pub struct InputWriter<'u, 'p> {
    pub unit: &'u Unit<'p>,
    pub inputs: &'u Inputs,
}

impl<'u, 'p> InputWriter<'u, 'p> {
    pub fn write(&self, func: FuncId, scope: &mut NameScope) -> Result<CallCode, String> {
        let mut code = CallCode::default();
        self.declare_objects(scope, &mut code)?;
        let mut sink = Sink {
            data: &mut code.data,
            links: &mut code.links,
        };
        for (id, object) in self.inputs.objects.iter().enumerate() {
            let array = Type::Array(Box::new(object.elem.clone()), Some(object.len));
            if code.objects.0[id].single {
                let lvalue = code.objects.element(ObjectId(id as u32), 0);
                if let Some(value) = object.init.first() {
                    self.assign(&code.objects, &lvalue, &object.elem, value, true, &mut sink)?;
                }
            } else {
                let name = code.objects.0[id].c_name.clone();
                let value = Value::Array(object.init.clone());
                self.assign(&code.objects, &name, &array, &value, true, &mut sink)?;
            }
        }
        for (global, value) in &self.inputs.globals {
            let Some(name) = self.unit.global_name(*global) else {
                let g = self.unit.program.global(*global);
                return Err(format!(
                    "it sets `{}`, a function's `static` the driver cannot reach",
                    g.name
                ));
            };
            let ty = &self.unit.program.global(*global).ty;
            // Globals hold their initial values, not zeros: assign everything.
            self.assign(&code.objects, name, ty, value, false, &mut sink)?;
        }
        self.write_script(&mut code)?;
        code.call = self.call_text(func, scope, &mut code)?;
        Ok(code)
    }

    fn declare_objects(&self, scope: &mut NameScope, code: &mut CallCode) -> Result<(), String> {
        for object in &self.inputs.objects {
            let c_name = scope.fresh(&format!("{}_in", identifier_from_path(&object.name)));
            let single = object.len == 1;
            let declaration = if single {
                let zero = if matches!(object.elem, Type::Struct(_) | Type::Array(..)) {
                    "{0}"
                } else {
                    "0"
                };
                format!("{} = {zero};", self.unit.spell(&object.elem, &c_name)?)
            } else {
                let array = Type::Array(Box::new(object.elem.clone()), Some(object.len));
                let init = if object.len == 0 { "" } else { " = {0}" };
                format!("{}{init};", self.unit.spell(&array, &c_name)?)
            };
            // A one-character object is as likely a `char` out-parameter as an empty string.
            let about = if object.len > 1 && string_length(&object.elem, &object.init).is_some() {
                format!("{} = {}", object.name, string_text(&object.init))
            } else {
                object.name.clone()
            };
            code.declarations
                .push(format!("{declaration} /* {} */", comment_text(&about)));
            code.objects.0.push(ObjectName { c_name, single });
        }
        Ok(())
    }

    /// Assigns `value` to `lvalue` of type `ty`: scalars into the data step,
    /// pointers into the link step; unknown parts stay zero.
    fn assign(
        &self,
        objects: &Objects,
        lvalue: &str,
        ty: &Type,
        value: &Value,
        zeroed: bool,
        sink: &mut Sink,
    ) -> Result<(), String> {
        match (ty, value) {
            (_, Value::Unknown) => {}
            (Type::Struct(id), Value::Struct(members)) => {
                let def = self.unit.program.struct_def(*id);
                for (field, member) in def.fields.iter().zip(members) {
                    // A union holds one member: set the first the engine chose.
                    if def.is_union && matches!(member, Value::Unknown) {
                        continue;
                    }
                    let member_lvalue = member_lvalue(lvalue, &field.name);
                    self.assign(objects, &member_lvalue, &field.ty, member, zeroed, sink)?;
                    if def.is_union {
                        break;
                    }
                }
            }
            (Type::Array(elem, _), Value::Array(items)) => {
                let string = string_length(elem, items);
                for (k, item) in items.iter().enumerate() {
                    let element = format!("{lvalue}[{k}]");
                    match (string, elem.as_ref(), item) {
                        // Characters up to the terminator read as characters.
                        (Some(n), Type::Int(it), Value::Int { bits, .. }) if k <= n => {
                            sink.data
                                .push(format!("{element} = {};", char_literal(*it, *bits)));
                        }
                        // Elements of a plain array are all listed, zeros too, except
                        // zeros after a string's terminator.
                        (None, Type::Int(it), Value::Int { bits, .. }) => {
                            sink.data
                                .push(format!("{element} = {};", int_literal(*it, *bits)));
                        }
                        _ => self.assign(objects, &element, elem, item, zeroed, sink)?,
                    }
                }
            }
            // A zero where the declaration already put one says nothing.
            (Type::Int(_), Value::Int { bits: 0, .. }) if zeroed => {}
            (Type::Int(it), Value::Int { bits, .. }) => {
                sink.data
                    .push(format!("{lvalue} = {};", int_literal(*it, *bits)));
            }
            (Type::Pointer(_), _) => {
                if let Some(expr) = self.pointer_expr(value, ty, objects)? {
                    sink.links.push(format!("{lvalue} = {expr};"));
                }
            }
            (ty, value) => {
                return Err(format!(
                    "value {value:?} does not fit the type of `{lvalue}` ({ty:?})"
                ));
            }
        }
        Ok(())
    }

    /// A C expression for a pointer value of pointer type `ty`.
    pub fn pointer_expr(
        &self,
        value: &Value,
        ty: &Type,
        objects: &Objects,
    ) -> Result<Option<String>, String> {
        let pointee = ty.pointee().cloned().unwrap_or(Type::Void);
        Ok(Some(match value {
            Value::Unknown => return Ok(None),
            Value::Null => "NULL".to_string(),
            Value::Func(f) => self.unit.function_name(*f).to_string(),
            Value::Pointer { object, offset } => {
                let elem = self
                    .inputs
                    .objects
                    .get(object.0 as usize)
                    .map(|o| o.elem.clone())
                    .ok_or_else(|| format!("pointer to missing input object {}", object.0))?;
                let (base_ptr, natural) =
                    objects.object_pointer(*object, *offset, self.unit.program.size_of(&elem));
                self.cast_pointer(base_ptr, natural.then_some(&elem), *offset, &pointee)?
            }
            Value::GlobalPointer { global, offset } => {
                self.global_pointer(*global, *offset, &pointee)?
            }
            other => return Err(format!("value {other:?} is not a pointer")),
        }))
    }

    fn global_pointer(
        &self,
        global: GlobalId,
        offset: u64,
        pointee: &Type,
    ) -> Result<String, String> {
        let g = self.unit.program.global(global);
        let name = self
            .unit
            .global_name(global)
            .ok_or_else(|| format!("`{}` is out of reach", g.name))?;
        let (elem, is_array) = match &g.ty {
            Type::Array(elem, _) => ((**elem).clone(), true),
            other => (other.clone(), false),
        };
        let size = self.unit.program.size_of(&elem).max(1);
        if offset.is_multiple_of(size) {
            let k = offset / size;
            let base = match (is_array, k) {
                (true, 0) => name.to_string(),
                (true, k) => format!("&{name}[{k}]"),
                (false, 0) => format!("&{name}"),
                (false, k) => format!("&{name} + {k}"),
            };
            self.cast_pointer(base, Some(&elem), offset, pointee)
        } else {
            let base = if is_array {
                name.to_string()
            } else {
                format!("&{name}")
            };
            self.cast_pointer(base, None, offset, pointee)
        }
    }

    /// `base` points to an element of type `natural` (or, when `None`, is the
    /// start of an object `offset` bytes before the target); casts when the
    /// destination's pointee differs.
    fn cast_pointer(
        &self,
        base: String,
        natural: Option<&Type>,
        offset: u64,
        pointee: &Type,
    ) -> Result<String, String> {
        let target = self.unit.spell(&Type::ptr(pointee.clone()), "")?;
        Ok(match natural {
            Some(elem) if elem == pointee || *pointee == Type::Void => base,
            Some(_) => format!("({target})({base})"),
            None => format!("({target})((char *)({base}) + {offset})"),
        })
    }

    fn write_script(&self, code: &mut CallCode) -> Result<(), String> {
        for stub in &self.inputs.stubs {
            let f = self.unit.program.function(stub.func);
            let names = crate::support::StubNames::new(&f.name);
            let mut links = Vec::new();
            let mut sink = Sink {
                data: &mut code.script,
                links: &mut links,
            };
            for (k, value) in stub.returns.iter().enumerate() {
                let lvalue = format!("{}[{k}]", names.script);
                self.assign(&code.objects, &lvalue, &f.sig.ret, value, false, &mut sink)?;
            }
            code.script.append(&mut links);
            code.script
                .push(format!("{} = {};", names.length, stub.returns.len()));
        }
        Ok(())
    }

    fn call_text(
        &self,
        func: FuncId,
        scope: &mut NameScope,
        code: &mut CallCode,
    ) -> Result<String, String> {
        let f = self.unit.program.function(func);
        let (wanted, given) = (f.sig.params.len(), self.inputs.args.len());
        if given < wanted || (given > wanted && !f.sig.variadic) {
            return Err(format!(
                "{given} argument value(s) for {wanted} parameter(s)"
            ));
        }
        let mut args = Vec::with_capacity(self.inputs.args.len());
        for (i, (ty, value)) in f.sig.params.iter().zip(&self.inputs.args).enumerate() {
            let arg = match (ty, value) {
                (Type::Int(it), Value::Int { bits, .. }) => int_literal(*it, *bits),
                (Type::Pointer(_), v) => self
                    .pointer_expr(v, ty, &code.objects)?
                    .unwrap_or_else(|| "NULL".to_string()),
                (Type::Int(_) | Type::Float(_), Value::Unknown) => "0".to_string(),
                (Type::Struct(_), _) => {
                    let param = f
                        .body
                        .as_ref()
                        .and_then(|b| b.locals.get(i))
                        .map(|l| l.name.clone())
                        .filter(|n| !n.is_empty())
                        .unwrap_or_else(|| format!("arg{}", i + 1));
                    let name = scope.fresh(&format!("{param}_arg"));
                    code.declarations
                        .push(format!("{} = {{0}};", self.unit.spell(ty, &name)?));
                    let mut sink = Sink {
                        data: &mut code.data,
                        links: &mut code.links,
                    };
                    self.assign(&code.objects, &name, ty, value, true, &mut sink)?;
                    name
                }
                (ty, value) => {
                    return Err(format!(
                        "argument {} value {value:?} does not fit {ty:?}",
                        i + 1
                    ))
                }
            };
            args.push(arg);
        }
        // Arguments beyond the prototype (variadic): each at its own type.
        for value in &self.inputs.args[f.sig.params.len()..] {
            args.push(match value {
                Value::Int { ty, bits } => format!(
                    "({}){}",
                    crate::ctype::int_name(*ty),
                    int_literal(*ty, *bits)
                ),
                other => self
                    .pointer_expr(other, &Type::ptr(Type::Void), &code.objects)?
                    .unwrap_or_else(|| "0".to_string()),
            });
        }
        Ok(format!(
            "{}({})",
            self.unit.function_name(func),
            args.join(", ")
        ))
    }
}

impl Objects {
    pub fn name(&self, object: ObjectId) -> Option<&str> {
        self.0.get(object.0 as usize).map(|o| o.c_name.as_str())
    }

    /// Lvalue of element `k` of an input object.
    pub fn element(&self, object: ObjectId, k: u64) -> String {
        let o = &self.0[object.0 as usize];
        match (o.single, k) {
            (true, 0) => o.c_name.clone(),
            (true, k) => format!("(&{})[{k}]", o.c_name),
            (false, k) => format!("{}[{k}]", o.c_name),
        }
    }

    /// A pointer `offset` bytes into an object of elements of `elem_size`
    /// bytes, and whether it points at an element start (else it is the
    /// object's start and needs a byte offset).
    fn object_pointer(&self, object: ObjectId, offset: u64, elem_size: u64) -> (String, bool) {
        let o = &self.0[object.0 as usize];
        let elem_size = elem_size.max(1);
        if !offset.is_multiple_of(elem_size) {
            let start = if o.single {
                format!("&{}", o.c_name)
            } else {
                o.c_name.clone()
            };
            return (start, false);
        }
        let k = offset / elem_size;
        let text = match (o.single, k) {
            (true, 0) => format!("&{}", o.c_name),
            (true, k) => format!("&{} + {k}", o.c_name),
            (false, 0) => o.c_name.clone(),
            (false, k) => format!("&{}[{k}]", o.c_name),
        };
        (text, true)
    }

    /// The lvalue a check path reaches from an input object, and its type.
    pub fn object_lvalue(
        &self,
        unit: &Unit,
        inputs: &Inputs,
        object: ObjectId,
        path: &[Step],
    ) -> Result<String, String> {
        let elem = &inputs
            .objects
            .get(object.0 as usize)
            .ok_or("check of a missing input object")?
            .elem;
        let (k, rest) = match path.first() {
            Some(Step::Index(k)) => (*k, &path[1..]),
            _ => (0, path),
        };
        step_lvalue(unit, self.element(object, k), elem, rest)
    }
}

/// Follows `path` from `base` of type `ty` and returns the C lvalue.
pub fn step_lvalue(unit: &Unit, base: String, ty: &Type, path: &[Step]) -> Result<String, String> {
    let mut text = base;
    let mut ty = ty.clone();
    for step in path {
        ty = match (step, &ty) {
            (Step::Field(n), Type::Struct(id)) => {
                let field = unit
                    .program
                    .struct_def(*id)
                    .fields
                    .get(*n as usize)
                    .ok_or_else(|| format!("`{text}` has no member number {n}"))?;
                text = member_lvalue(&text, &field.name);
                field.ty.clone()
            }
            (Step::Index(k), Type::Array(elem, _)) => {
                text = format!("{text}[{k}]");
                (**elem).clone()
            }
            (step, ty) => return Err(format!("cannot apply {step:?} to `{text}` of type {ty:?}")),
        };
    }
    Ok(text)
}

/// `base.name`; an anonymous member's own members are reached directly.
fn member_lvalue(base: &str, name: &str) -> String {
    if name.is_empty() {
        base.to_string()
    } else {
        format!("{base}.{name}")
    }
}

/// For a `char`-sized array holding a C string (printable characters or
/// `\t`, `\n`, `\r`, then a NUL), the index of the NUL.
fn string_length(elem: &Type, values: &[Value]) -> Option<usize> {
    let Type::Int(IntType {
        bits: 8,
        is_bool: false,
        ..
    }) = elem
    else {
        return None;
    };
    let nul = values.iter().position(|v| byte_of(v) == Some(0))?;
    values[..nul]
        .iter()
        .all(|v| matches!(byte_of(v), Some(c) if (0x20..0x7f).contains(&c) || matches!(c, b'\t' | b'\n' | b'\r')))
        .then_some(nul)
}

fn byte_of(v: &Value) -> Option<u8> {
    match v {
        Value::Int { bits, .. } => Some(*bits as u8),
        _ => None,
    }
}

/// `"abc"` for the values of a string-like object.
fn string_text(values: &[Value]) -> String {
    let text: String = values
        .iter()
        .filter_map(byte_of)
        .take_while(|b| *b != 0)
        .map(char::from)
        .collect();
    format!("\"{}\"", crate::literal::escape_string(&text))
}
