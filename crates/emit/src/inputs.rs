//! C statements that build one test's inputs in seed 000's three steps
//! (allocate every input object on the heap, assign their data, link the
//! pointers), script the stubs, and spell the call; and the C names of the
//! heap objects a test knows (its inputs, and the objects of the output heap
//! the driver names as its checks reach them).

use crate::ctype::is_identifier;
use crate::environment;
use crate::framework::Framework;
use crate::literal::{
    bytes_literal, char_literal, comment_text, escape_string, float_literal, int_literal,
};
use crate::names::{identifier_from_path, NameScope};
use crate::streams::{self, StreamNames};
use crate::unit::Unit;
use ir::Success;
use ir::{FuncId, GlobalId, IntType, Layout, Program, Type};
use testcase::{AllocId, ApiCall, EnvironmentVariable, Inputs, ObjectId, Step, StreamId, Value};

/// The code that sets up one call.
#[derive(Debug, Default)]
pub struct CallCode {
    pub declarations: Vec<String>,
    /// The streams of the `FILE *` inputs, opened.
    pub streams: Vec<String>,
    /// Lines that end the test when an input allocation failed (may be empty).
    pub allocation_check: Vec<String>,
    pub data: Vec<String>,
    pub links: Vec<String>,
    /// Calls of the code's own functions that build parameters.
    pub constructions: Vec<String>,
    /// Calls of the function under test before the checked one.
    pub earlier_calls: Vec<String>,
    pub script: Vec<String>,
    /// Whether `script` also says what stubs write through pointers.
    pub script_writes: bool,
    /// `classify(3, 4, 5)`.
    pub call: String,
    /// The call's arguments as C spells them.
    pub args: Vec<String>,
    pub objects: HeapNames,
}

/// How the set-up allocates the input objects.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Allocation {
    /// `T *x_in = calloc(n, sizeof *x_in);`, then one check that ends the
    /// test with the framework's failure when any of them is NULL (test
    /// drivers).
    Checked { framework: Framework },
    /// `T *x_in = cairn_input(n, sizeof *x_in);`, a helper that exits when
    /// memory runs out and keeps every input reachable from a global, so
    /// that LeakSanitizer reports only what the code under test lost
    /// (reproducers, which never free their inputs).
    Kept,
}

/// A heap object a test knows: an input object or a named object of the output heap.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HeapRef {
    Input(ObjectId),
    Allocated(AllocId),
}

/// The C names of a test's heap objects: each is a pointer variable to the
/// object's first element.
#[derive(Debug, Default)]
pub struct HeapNames {
    inputs: Vec<HeapObject>,
    /// The variable holding each parameter built through the API, by parameter.
    constructed: Vec<(u32, String)>,
    /// The variable holding each part a construction made, by parameter
    /// and call (see [`testcase::ApiCall::part`]).
    parts: Vec<((u32, u32), String)>,
    /// By allocation index; `None` until a check first reaches the object.
    allocated: Vec<Option<HeapObject>>,
    /// The streams of the test's `FILE *` inputs, by stream index.
    streams: Vec<StreamNames>,
}

#[derive(Clone, Debug)]
pub struct HeapObject {
    pub c_name: String,
    pub elem: Type,
    pub len: u64,
    /// The environment variable whose value it is (the value of an entry
    /// the test put in the environment), if any.
    pub environment: Option<String>,
}

impl HeapObject {
    /// The statement that frees it at the end of the test.
    pub fn release(&self) -> String {
        match &self.environment {
            Some(name) => environment::release(name, &self.c_name),
            None => format!("free({});", self.c_name),
        }
    }
}

/// Where [`InputWriter::assign`] puts scalar and pointer assignments.
struct Sink<'a> {
    data: &'a mut Vec<String>,
    links: &'a mut Vec<String>,
}

/// Writes the set-up of one call of `func` with `inputs`.
pub struct InputWriter<'u, 'p> {
    pub unit: &'u Unit<'p>,
    pub inputs: &'u Inputs,
    pub allocation: Allocation,
}

impl<'u, 'p> InputWriter<'u, 'p> {
    pub fn write(&self, func: FuncId, scope: &mut NameScope) -> Result<CallCode, String> {
        let mut code = CallCode::default();
        self.declare_objects(scope, &mut code)?;
        for stream in &self.inputs.streams {
            let (lines, names) = streams::open(stream, scope);
            code.streams.extend(lines);
            code.objects.streams.push(names);
        }
        if let Allocation::Checked { framework } = self.allocation {
            let on_failure = crate::framework::out_of_memory(framework);
            code.allocation_check =
                allocation_check(&code.objects.inputs, &code.objects.streams, on_failure);
        }
        let mut sink = Sink {
            data: &mut code.data,
            links: &mut code.links,
        };
        // The objects come from calloc: zeros need no assignment.
        for (id, object) in self.inputs.objects.iter().enumerate() {
            let input = HeapRef::Input(ObjectId(id as u32));
            if object.len == 1 {
                let lvalue = code.objects.element(input, 0)?;
                if let Some(value) = object.init.first() {
                    self.assign(&code.objects, &lvalue, &object.elem, value, true, &mut sink)?;
                }
            } else {
                let array = Type::Array(Box::new(object.elem.clone()), Some(object.len));
                let name = code.objects.inputs[id].c_name.clone();
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
            self.assign(&code.objects, &name, ty, value, false, &mut sink)?;
        }
        let value_ty = EnvironmentVariable::value_type();
        for variable in &self.inputs.environment {
            let line = match &variable.value {
                Value::Null => environment::unset(&variable.name),
                // The entry made for this very variable (another one's
                // value, aliased, is copied).
                &Value::Pointer { object, offset: 0 }
                    if environment::value_of(self.inputs, object) == Some(&variable.name) =>
                {
                    let c_name = &code.objects.inputs[object.0 as usize].c_name;
                    environment::put(&variable.name, c_name)
                }
                value => match self.pointer_expr(value, &value_ty, &code.objects)? {
                    Some(expr) => environment::set(&variable.name, &expr),
                    None => continue,
                },
            };
            sink.links.push(line);
        }
        self.write_constructions(func, scope, &mut code)?;
        for call in &self.inputs.earlier_calls {
            let under_test = self.unit.program.function(func);
            let text = api_call_text(self.unit, under_test, call, &code.objects, &[])?;
            code.earlier_calls.push(format!("(void){text};"));
        }
        self.write_script(scope, &mut code)?;
        code.call = self.call_text(func, scope, &mut code)?;
        Ok(code)
    }

    fn declare_objects(&self, scope: &mut NameScope, code: &mut CallCode) -> Result<(), String> {
        let allocator = match self.allocation {
            Allocation::Checked { .. } => "calloc",
            Allocation::Kept => "cairn_input",
        };
        for (id, object) in self.inputs.objects.iter().enumerate() {
            let c_name = scope.fresh(&format!("{}_in", identifier_from_path(&object.name)));
            let variable = self.unit.spell(&Type::ptr(object.elem.clone()), &c_name)?;
            let size = match self.unit.program.flexible_member(&object.elem) {
                Some((_, member)) if object.flexible_len > 0 => format!(
                    "sizeof *{c_name} + {} * sizeof {c_name}->{}[0]",
                    object.flexible_len, member.name
                ),
                _ => format!("sizeof *{c_name}"),
            };
            let environment = environment::value_of(self.inputs, ObjectId(id as u32));
            let made = match environment {
                Some(name) => environment::make_value(name, object.len),
                None => format!("{allocator}({}, {size})", object.len),
            };
            code.declarations.push(format!(
                "{variable} = {made}; /* {} */",
                comment_text(&object.name)
            ));
            code.objects.inputs.push(HeapObject {
                c_name,
                elem: object.elem.clone(),
                len: object.len,
                environment: environment.map(str::to_string),
            });
        }
        Ok(())
    }

    /// Assigns `value` to `lvalue` of type `ty`: scalars into the data step,
    /// pointers into the link step; unknown parts stay zero.
    fn assign(
        &self,
        objects: &HeapNames,
        lvalue: &str,
        ty: &Type,
        value: &Value,
        zeroed: bool,
        sink: &mut Sink,
    ) -> Result<(), String> {
        match (ty, value) {
            (_, Value::Unknown) => {}
            (Type::Struct(id), Value::Struct(members))
                if self.unit.program.struct_def(*id).is_union =>
            {
                self.assign_union(objects, lvalue, ty, members, zeroed, sink)?;
            }
            (Type::Struct(id), Value::Struct(members)) => {
                let def = self.unit.program.struct_def(*id);
                for (field, member) in def.fields.iter().zip(members) {
                    let member_lvalue = member_lvalue(lvalue, &field.name);
                    self.assign(objects, &member_lvalue, &field.ty, member, zeroed, sink)?;
                }
            }
            (Type::Array(elem, _), Value::Array(items)) => {
                if let Some(literal) = self.array_literal(lvalue, elem, items, zeroed)? {
                    sink.data.extend(literal);
                    return Ok(());
                }
                let string = string_length(elem, items);
                for (k, item) in items.iter().enumerate() {
                    let element = index_lvalue(lvalue, k as u64);
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
            (Type::Float(_), Value::Float { bits: 0, .. }) if zeroed => {}
            (Type::Float(_), Value::Float { kind, bits }) => {
                sink.data
                    .push(format!("{lvalue} = {};", float_literal(*kind, *bits)));
            }
            (Type::Pointer(_), _) => {
                if let Some(expr) = self.pointer_expr(value, ty, objects)? {
                    sink.links.push(format!("{lvalue} = {expr};"));
                }
            }
            (ty, value) => {
                return Err(format!(
                    "{} does not fit the type of `{lvalue}` ({})",
                    value_words(value),
                    self.unit.type_words(ty)
                ));
            }
        }
        Ok(())
    }

    /// An integer array known in full as one copy from a literal:
    /// `memcpy(s_in, "2024-02-30", 11);` for characters (bytes after the
    /// terminator included when not zero), `memcpy(a_in, (int[]){1, 2, 3},
    /// sizeof(int[3]));` for other integers. Over zeroed memory, trailing
    /// zeros are left out (`Some(vec![])` when all are zero). `None`: the
    /// elements are assigned one by one (pointers, structs, unknown values
    /// where the memory is not zeroed).
    fn array_literal(
        &self,
        lvalue: &str,
        elem: &Type,
        items: &[Value],
        zeroed: bool,
    ) -> Result<Option<Vec<String>>, String> {
        let Type::Int(it) = elem else {
            return Ok(None);
        };
        let mut values = Vec::with_capacity(items.len());
        for item in items {
            match item {
                Value::Int { bits, .. } => values.push(*bits),
                Value::Unknown if zeroed => values.push(0),
                _ => return Ok(None),
            }
        }
        if values.len() < 2 {
            return Ok(None);
        }
        let written = if zeroed {
            values
                .iter()
                .rposition(|v| *v != 0)
                .map_or(0, |last| last + 1)
        } else {
            values.len()
        };
        if written == 0 {
            return Ok(Some(Vec::new()));
        }
        if it.bits == 8 && !it.is_bool {
            let bytes: Vec<u8> = values[..written].iter().map(|v| *v as u8).collect();
            // The literal's own terminator ends a string over zeroed memory.
            let count = (written + 1).min(values.len());
            return Ok(Some(vec![format!(
                "memcpy({lvalue}, {}, {count});",
                bytes_literal(&bytes)
            )]));
        }
        let ty = self.unit.spell(elem, "")?;
        let list: Vec<String> = values[..written]
            .iter()
            .map(|v| int_literal(*it, *v))
            .collect();
        Ok(Some(vec![format!(
            "memcpy({lvalue}, ({ty}[]){{{}}}, sizeof({ty}[{written}]));",
            list.join(", ")
        )]))
    }

    /// Sets the bytes of union `lvalue` exactly as the engine chose them
    /// (`members` are those bytes read as each member): through the first
    /// member that holds every byte that needs writing, else as a byte copy.
    fn assign_union(
        &self,
        objects: &HeapNames,
        lvalue: &str,
        ty: &Type,
        members: &[Value],
        zeroed: bool,
        sink: &mut Sink,
    ) -> Result<(), String> {
        let program = &self.unit.program;
        let Type::Struct(id) = ty else {
            return Err(format!("`{lvalue}` is not a union"));
        };
        let def = program.struct_def(*id);
        let size = program.size_of(ty) as usize;
        let mut union_bytes = vec![ValueByte::Unknown; size];
        for (field, member) in def.fields.iter().zip(members) {
            value_bytes(program, &field.ty, member, 0, &mut union_bytes);
        }
        let needs_writing = |b: &ValueByte| match b {
            ValueByte::Unknown => false,
            ValueByte::Data(0) => !zeroed,
            _ => true,
        };
        let covering = def.fields.iter().zip(members).find(|(field, member)| {
            let mut bytes = vec![ValueByte::Unknown; size];
            value_bytes(program, &field.ty, member, 0, &mut bytes);
            // A pointer's bytes are only written through a pointer member.
            union_bytes.iter().zip(&bytes).all(|(want, have)| {
                !needs_writing(want)
                    || match want {
                        ValueByte::Pointer => *have == ValueByte::Pointer,
                        _ => matches!(have, ValueByte::Data(_)),
                    }
            })
        });
        if let Some((field, member)) = covering {
            let member_lvalue = member_lvalue(lvalue, &field.name);
            return self.assign(objects, &member_lvalue, &field.ty, member, zeroed, sink);
        }
        if union_bytes.contains(&ValueByte::Pointer) {
            return Err(format!(
                "no member of union `{lvalue}` holds both the pointer and the other bytes it needs"
            ));
        }
        let bytes: Vec<String> = union_bytes
            .iter()
            .map(|b| match b {
                ValueByte::Data(byte) => format!("{byte:#04x}"),
                _ => "0".to_string(),
            })
            .collect();
        sink.data.push(format!(
            "memcpy(&{lvalue}, (unsigned char[]){{{}}}, sizeof {lvalue});",
            bytes.join(", ")
        ));
        Ok(())
    }

    /// A C expression for a pointer value of pointer type `ty`.
    pub fn pointer_expr(
        &self,
        value: &Value,
        ty: &Type,
        objects: &HeapNames,
    ) -> Result<Option<String>, String> {
        let pointee = ty.pointee().cloned().unwrap_or(Type::Void);
        Ok(Some(match value {
            Value::Unknown => return Ok(None),
            Value::Null => "NULL".to_string(),
            Value::Func(f) => self.unit.function_name(*f).to_string(),
            Value::Pointer { object, offset } => {
                self.heap_pointer(objects, HeapRef::Input(*object), *offset, &pointee)?
            }
            Value::Allocated { object, offset } => {
                self.heap_pointer(objects, HeapRef::Allocated(*object), *offset, &pointee)?
            }
            Value::GlobalPointer { global, offset } => {
                self.global_pointer(*global, *offset, &pointee)?
            }
            Value::Constructed { param } => objects.constructed_name(*param)?.to_string(),
            Value::Part { param, call } => objects.part_name(*param, *call)?.to_string(),
            Value::Stream(id) => objects.stream(*id)?.stream.clone(),
            other => return Err(format!("{} is not a pointer", value_words(other))),
        }))
    }

    /// A pointer `offset` bytes into a named heap object, as a `pointee *`.
    fn heap_pointer(
        &self,
        objects: &HeapNames,
        object: HeapRef,
        offset: u64,
        pointee: &Type,
    ) -> Result<String, String> {
        let o = objects.get(object)?;
        let elem_size = self.unit.program.size_of(&o.elem).max(1);
        if offset.is_multiple_of(elem_size) {
            let base = match offset / elem_size {
                0 => o.c_name.clone(),
                k => format!("&{}[{k}]", o.c_name),
            };
            self.cast_pointer(base, Some(&o.elem), offset, pointee)
        } else {
            self.cast_pointer(o.c_name.clone(), None, offset, pointee)
        }
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

    /// `T *l = list_new(8);` then `list_push(l, 3);` for each parameter the
    /// test builds through the code's own functions; the built object is
    /// named for the checks after the call.
    fn write_constructions(
        &self,
        func: FuncId,
        scope: &mut NameScope,
        code: &mut CallCode,
    ) -> Result<(), String> {
        let f = self.unit.program.function(func);
        if self.inputs.constructions.is_empty() {
            return Ok(());
        }
        code.constructions
            .push(crate::support::building_inputs(true));
        for construction in &self.inputs.constructions {
            let param = construction.param as usize;
            let ty = f
                .sig
                .params
                .get(param)
                .ok_or_else(|| format!("no parameter {param} to build"))?;
            let name = scope.fresh(&crate::shapes::param_name(f, param));
            if construction.calls.is_empty() && construction.member_of.is_none() {
                return Err(format!(
                    "parameter `{}` is built by no call",
                    crate::shapes::param_name(f, param)
                ));
            }
            if let Some((root, path)) = &construction.member_of {
                let root = code.objects.constructed_name(*root)?.to_string();
                code.constructions
                    .push(format!("{} = {root}{path};", self.unit.spell(ty, &name)?));
            }
            code.objects
                .constructed
                .push((construction.param, name.clone()));
            for (k, call) in construction.calls.iter().enumerate() {
                let callee = self.unit.program.function(call.func);
                let mut scratch = Vec::new();
                for (i, param_ty) in callee.sig.params.iter().enumerate() {
                    if let (Some(pointee), Some(Value::Unknown)) =
                        (param_ty.pointee(), call.args.get(i))
                    {
                        let scratch_name = scope.fresh(&crate::shapes::param_name(callee, i));
                        code.constructions
                            // Zero, as the engine starts it (for a `char *`: "").
                            .push(format!("{} = 0;", self.unit.spell(pointee, &scratch_name)?));
                        scratch.push(scratch_name);
                    }
                }
                if let Some(part) = &call.part {
                    // Allocations do not fail while building: no NULL check.
                    let part_name = scope.fresh(part);
                    code.objects
                        .parts
                        .push(((construction.param, k as u32), part_name.clone()));
                    let text = api_call_text(self.unit, f, call, &code.objects, &scratch)?;
                    match call.initialises {
                        Some(success) => {
                            let storage = callee.sig.params.first().unwrap_or(ty);
                            code.constructions.push(format!(
                                "{} = malloc(sizeof *{part_name});",
                                self.unit.spell(storage, &part_name)?
                            ));
                            self.initialise(&text, call.func, success, callee, code);
                        }
                        None => code.constructions.push(format!(
                            "{} = {text};",
                            self.unit.spell(&callee.sig.ret, &part_name)?
                        )),
                    }
                    continue;
                }
                let text = api_call_text(self.unit, f, call, &code.objects, &scratch)?;
                if k == 0 {
                    let failed = self
                        .failed_building(&format!("{} failed", self.unit.function_name(call.func)));
                    // An initialiser sets up storage the test allocates.
                    let made = match call.initialises {
                        Some(_) => format!("malloc(sizeof *{name})"),
                        None => text.clone(),
                    };
                    code.constructions
                        .push(format!("{} = {made};", self.unit.spell(ty, &name)?));
                    code.constructions.push(format!("if ({name} == NULL) {{"));
                    code.constructions.extend(failed);
                    code.constructions.push("}".to_string());
                    if let Some(success) = call.initialises {
                        self.initialise(&text, call.func, success, callee, code);
                    }
                } else if callee.sig.ret == *ty {
                    // It may move the object (realloc): the result is its new place.
                    code.constructions.push(format!("{name} = {text};"));
                } else {
                    code.constructions.push(format!("{text};"));
                }
            }
            for (call, part_object) in &construction.parts {
                let part = construction.calls.get(*call as usize);
                let ret = part.map(|c| &self.unit.program.function(c.func).sig.ret);
                let (Some(pointee), Ok(name)) = (
                    ret.and_then(Type::pointee),
                    code.objects.part_name(construction.param, *call),
                ) else {
                    continue;
                };
                let object = HeapObject {
                    c_name: name.to_string(),
                    elem: pointee.clone(),
                    len: 1,
                    environment: None,
                };
                code.objects.bind(*part_object, object);
            }
            if let (Some(object), Some(pointee)) = (construction.object, ty.pointee()) {
                code.objects.bind(
                    object,
                    HeapObject {
                        c_name: name,
                        elem: pointee.clone(),
                        len: 1,
                        environment: None,
                    },
                );
            }
        }
        code.constructions
            .push(crate::support::building_inputs(false));
        Ok(())
    }

    /// The lines that end the set-up when building failed (`what`, in
    /// words: `list_new failed`).
    fn failed_building(&self, what: &str) -> Vec<String> {
        let done = format!("    {}", crate::support::building_inputs(false));
        match self.allocation {
            Allocation::Checked { framework } => vec![
                done,
                format!("    {}", crate::framework::out_of_memory(framework)),
            ],
            Allocation::Kept => vec![
                format!(
                    "    printf(\"cairn: {} while building the inputs; the finding did not run\\n\");",
                    comment_text(&escape_string(what))
                ),
                "    exit(2);".to_string(),
            ],
        }
    }

    /// The call `text` of initialiser `func`, checked against what it
    /// returns on success when it returns a status: the engine built the
    /// input on that outcome only.
    fn initialise(
        &self,
        text: &str,
        func: FuncId,
        success: Success,
        callee: &ir::Function,
        code: &mut CallCode,
    ) {
        let failure = match (success, &callee.sig.ret) {
            (Success::Void, _) | (_, Type::Void) => {
                code.constructions.push(format!("{text};"));
                return;
            }
            (Success::Is(value), Type::Int(it)) => {
                format!("{text} != {}", int_literal(*it, value as u128))
            }
            (Success::NonNegative, _) => format!("{text} < 0"),
            (Success::NonZero, _) | (Success::Is(_), _) => format!("!{text}"),
        };
        let failed = match self.allocation {
            Allocation::Checked { framework } => vec![
                format!("    {}", crate::support::building_inputs(false)),
                format!("    {}", crate::framework::set_up_failed(framework, text)),
            ],
            Allocation::Kept => self.failed_building(&format!(
                "{} did not succeed",
                self.unit.function_name(func)
            )),
        };
        code.constructions.push(format!("if ({failure}) {{"));
        code.constructions.extend(failed);
        code.constructions.push("}".to_string());
    }

    fn write_script(&self, scope: &mut NameScope, code: &mut CallCode) -> Result<(), String> {
        for stub in &self.inputs.stubs {
            let f = self.unit.program.function(stub.func);
            let names = crate::support::StubNames::new(&f.name);
            // What each call writes: a byte array of the test's, which the
            // stub copies through the argument at that call.
            for write in &stub.writes {
                let (call, arg) = (write.call + 1, write.arg + 1);
                let name = scope.fresh(&format!("{}_{call}_arg{arg}", f.name));
                code.declarations.push(format!(
                    "/* What call {call} of {}() writes through argument {arg}. */",
                    comment_text(&f.name)
                ));
                // Through a `char *` or `void *`: text, as a string.
                let text = match f.sig.params.get(write.arg).and_then(Type::pointee) {
                    Some(Type::Void) => true,
                    Some(Type::Int(it)) => it.bits == 8 && !it.is_bool,
                    _ => false,
                };
                let constant = write.pointers.is_empty();
                code.declarations
                    .extend(byte_array(&name, &write.bytes, text, constant));
                code.script_writes = true;
                // The addresses of objects the test built, stored where the
                // stub's pointer members lie.
                for pointer in &write.pointers {
                    let void_pointer = Type::ptr(Type::Void);
                    let Some(expr) =
                        self.pointer_expr(&pointer.value, &void_pointer, &code.objects)?
                    else {
                        continue;
                    };
                    let at = match pointer.offset {
                        0 => name.clone(),
                        offset => format!("{name} + {offset}"),
                    };
                    code.script.push(format!(
                        "memcpy({at}, &(void *){{{expr}}}, sizeof (void *));"
                    ));
                }
                let (bytes, length) = crate::support::StubNames::writes(&f.name, write.arg);
                code.script
                    .push(format!("{bytes}[{}] = {name};", write.call));
                code.script
                    .push(format!("{length}[{}] = sizeof {name};", write.call));
            }
            if f.sig.ret == Type::Void {
                continue;
            }
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
        let wrapped = crate::support::takes_va_list(self.unit, func);
        let (wanted, given) = (f.sig.params.len(), self.inputs.args.len());
        if given < wanted || (given > wanted && !f.sig.variadic && !wrapped) {
            return Err(format!(
                "{given} argument value(s) for {wanted} parameter(s)"
            ));
        }
        let mut args = Vec::with_capacity(self.inputs.args.len());
        for (i, (ty, value)) in f.sig.params.iter().zip(&self.inputs.args).enumerate() {
            if self.unit.program.is_va_list_pointer(ty) {
                // The wrapper makes it from the arguments after its marker.
                continue;
            }
            let arg = match (ty, value) {
                (Type::Int(it), Value::Int { bits, .. }) => int_literal(*it, *bits),
                (Type::Float(_), Value::Float { kind, bits }) => float_literal(*kind, *bits),
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
                        "argument {}, {}, does not fit its type ({})",
                        i + 1,
                        value_words(value),
                        self.unit.type_words(ty)
                    ))
                }
            };
            args.push(arg);
        }
        if wrapped {
            args.push("0".to_string());
        }
        // Arguments beyond the prototype (variadic): each at its own type.
        for value in &self.inputs.args[f.sig.params.len()..] {
            args.push(match value {
                Value::Int { ty, bits } => format!(
                    "({}){}",
                    crate::ctype::int_name(*ty, self.unit.program.data_model),
                    int_literal(*ty, *bits)
                ),
                Value::Float { kind, bits } => format!(
                    "({}){}",
                    self.unit.spell(&Type::Float(*kind), "")?,
                    float_literal(*kind, *bits)
                ),
                other => self
                    .pointer_expr(other, &Type::ptr(Type::Void), &code.objects)?
                    .unwrap_or_else(|| "0".to_string()),
            });
        }
        let callee = match wrapped {
            true => crate::support::va_list_wrapper_name(self.unit, func),
            false => self.unit.callee(func)?,
        };
        let call = format!("{callee}({})", args.join(", "));
        code.args = args;
        Ok(call)
    }
}

impl HeapNames {
    /// The input objects in object order.
    pub fn inputs(&self) -> &[HeapObject] {
        &self.inputs
    }

    /// The named output objects, by allocation index (`None`: never reached).
    pub fn allocated(&self) -> &[Option<HeapObject>] {
        &self.allocated
    }

    /// The variable of the parameter `param` built through the API.
    pub fn constructed_name(&self, param: u32) -> Result<&str, String> {
        self.constructed
            .iter()
            .find(|(p, _)| *p == param)
            .map(|(_, name)| name.as_str())
            .ok_or_else(|| format!("parameter {param} is used before it is built"))
    }

    /// The variable of the part call `call` of parameter `param`'s
    /// construction made.
    pub fn part_name(&self, param: u32, call: u32) -> Result<&str, String> {
        self.parts
            .iter()
            .find(|(key, _)| *key == (param, call))
            .map(|(_, name)| name.as_str())
            .ok_or_else(|| format!("part {call} of parameter {param} is used before it is made"))
    }

    /// The names of stream `id`.
    pub fn stream(&self, id: StreamId) -> Result<&StreamNames, String> {
        self.streams
            .get(id.0 as usize)
            .ok_or_else(|| format!("pointer to missing stream {}", id.0))
    }

    /// The streams in stream order.
    pub fn streams(&self) -> &[StreamNames] {
        &self.streams
    }

    pub fn is_bound(&self, object: AllocId) -> bool {
        matches!(self.allocated.get(object.0 as usize), Some(Some(_)))
    }

    /// Names an object of the output heap from now on.
    pub fn bind(&mut self, object: AllocId, named: HeapObject) {
        let index = object.0 as usize;
        if self.allocated.len() <= index {
            self.allocated.resize(index + 1, None);
        }
        self.allocated[index] = Some(named);
    }

    pub fn get(&self, object: HeapRef) -> Result<&HeapObject, String> {
        match object {
            HeapRef::Input(o) => self
                .inputs
                .get(o.0 as usize)
                .ok_or_else(|| format!("pointer to missing input object {}", o.0)),
            HeapRef::Allocated(a) => self
                .allocated
                .get(a.0 as usize)
                .and_then(Option::as_ref)
                .ok_or_else(|| format!("output object {} is used before a check reaches it", a.0)),
        }
    }

    /// Lvalue of element `k` of a heap object: `*n_in` for a single object
    /// (its members read `n_in->key`), `a_in[2]` for an element of an array.
    pub fn element(&self, object: HeapRef, k: u64) -> Result<String, String> {
        let o = self.get(object)?;
        Ok(if o.len == 1 && k == 0 {
            format!("*{}", o.c_name)
        } else {
            format!("{}[{k}]", o.c_name)
        })
    }

    /// The lvalue a check path reaches from a heap object (the path starts
    /// with the element index).
    pub fn lvalue(&self, unit: &Unit, object: HeapRef, path: &[Step]) -> Result<String, String> {
        let elem = self.get(object)?.elem.clone();
        let (k, rest) = match path.first() {
            Some(Step::Index(k)) => (*k, &path[1..]),
            _ => (0, path),
        };
        step_lvalue(unit, self.element(object, k)?, &elem, rest)
    }
}

/// `if (a_in == NULL || ...) { free...; return cairn_out_of_memory(__func__); }`
/// (`fail` the statement that ends the test) over the objects of non-zero
/// length (`calloc(0, ...)` may return NULL) and the streams.
fn allocation_check(objects: &[HeapObject], streams: &[StreamNames], fail: &str) -> Vec<String> {
    let tested: Vec<String> = objects
        .iter()
        .filter(|o| o.len > 0)
        .map(|o| &o.c_name)
        .chain(streams.iter().map(|s| &s.stream))
        .map(|name| format!("{name} == NULL"))
        .collect();
    if tested.is_empty() {
        return Vec::new();
    }
    let condition = format!("if ({})", tested.join(" || "));
    if objects.len() + streams.len() == 1 {
        return vec![condition, format!("    {fail}")];
    }
    // Free the ones that were allocated (free(NULL) does nothing), close
    // the streams that were opened.
    let mut lines = vec![format!("{condition} {{")];
    lines.extend(objects.iter().map(|o| format!("    {}", o.release())));
    lines.extend(
        streams
            .iter()
            .map(|s| format!("    {}", streams::release_unopened(s))),
    );
    lines.push(format!("    {fail}"));
    lines.push("}".to_string());
    lines
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
                text = index_lvalue(&text, *k);
                (**elem).clone()
            }
            (step, ty) => {
                let step = match step {
                    Step::Field(n) => format!("member number {n}"),
                    Step::Index(k) => format!("element {k}"),
                };
                return Err(format!(
                    "`{text}` of type {} has no {step}",
                    unit.type_words(ty)
                ));
            }
        };
    }
    Ok(text)
}

/// A test value in a user's words, for messages: `-3`, `NULL`, `a pointer
/// into input object 2`.
pub fn value_words(value: &Value) -> String {
    match value {
        Value::Int { ty, bits } => ty.decimal(*bits),
        Value::Float { kind, bits } => float_literal(*kind, *bits),
        Value::Null => "NULL".to_string(),
        Value::Pointer { object, offset } => {
            format!("a pointer {offset} bytes into input object {}", object.0)
        }
        Value::Allocated { object, offset } => {
            format!("a pointer {offset} bytes into new object {}", object.0)
        }
        Value::GlobalPointer { global, offset } => {
            format!("a pointer {offset} bytes into global number {}", global.0)
        }
        Value::Func(_) => "a function".to_string(),
        Value::Struct(_) => "a struct value".to_string(),
        Value::Array(_) => "an array value".to_string(),
        Value::Unknown => "an unknown value".to_string(),
        Value::Constructed { param } => format!("the built parameter {}", param + 1),
        Value::Part { param, call } => {
            format!(
                "what call {} building parameter {} made",
                call + 1,
                param + 1
            )
        }
        Value::Stream(id) => format!("input stream {}", id.0),
    }
}

/// `base.name`, or `p->name` when `base` is `*p`; an anonymous member's own
/// members are reached directly.
fn member_lvalue(base: &str, name: &str) -> String {
    match base.strip_prefix('*') {
        _ if name.is_empty() => base.to_string(),
        Some(pointer) if is_identifier(pointer) => format!("{pointer}->{name}"),
        _ => format!("{base}.{name}"),
    }
}

/// What a test value says about one byte of its object.
#[derive(Clone, Copy, Debug, PartialEq)]
enum ValueByte {
    Unknown,
    Data(u8),
    /// A byte of a pointer, which C can only set through a pointer.
    Pointer,
}

/// The bytes a struct's bit-fields hold: value and which bits are known.
/// Only a byte whose eight bits are all known is data (the others hold
/// padding bits the members do not set).
#[derive(Default)]
struct BitFieldBytes(std::collections::BTreeMap<usize, (u8, u8)>);

impl BitFieldBytes {
    fn add(&mut self, bits: ir::BitField, raw: u128, at: usize) {
        for k in 0..usize::from(bits.width) {
            let position = usize::from(bits.shift) + k;
            let (value, known) = self.0.entry(at + position / 8).or_insert((0, 0));
            let mask = 1u8 << (position % 8);
            *known |= mask;
            if (raw >> k) & 1 == 1 {
                *value |= mask;
            } else {
                *value &= !mask;
            }
        }
    }

    fn record_whole_bytes(self, out: &mut [ValueByte]) {
        for (at, (value, known)) in self.0 {
            if let Some(slot) = out.get_mut(at).filter(|s| **s != ValueByte::Pointer) {
                if known == u8::MAX {
                    *slot = ValueByte::Data(value);
                }
            }
        }
    }
}

/// Records in `out`, from byte `at`, the bytes `value` of type `ty` holds.
/// A union's members read the same bytes, so each adds what it knows.
fn value_bytes(program: &Program, ty: &Type, value: &Value, at: usize, out: &mut [ValueByte]) {
    match (ty, value) {
        (_, Value::Unknown) => {}
        (Type::Int(_) | Type::Float(_), number) if let Some((bits, width)) = number.raw_bits() => {
            for k in 0..width {
                // Another member's pointer over these bytes is what they hold.
                if let Some(slot) = out.get_mut(at + k).filter(|s| **s != ValueByte::Pointer) {
                    *slot = ValueByte::Data((bits >> (8 * k)) as u8);
                }
            }
        }
        // NULL is all zero bytes (on the targets cairn supports), which
        // another member's bytes may write as well.
        (Type::Pointer(_), Value::Null) => {
            for slot in out.iter_mut().skip(at).take(program.size_of(ty) as usize) {
                if *slot == ValueByte::Unknown {
                    *slot = ValueByte::Data(0);
                }
            }
        }
        (Type::Pointer(_), _) => {
            for slot in out.iter_mut().skip(at).take(program.size_of(ty) as usize) {
                *slot = ValueByte::Pointer;
            }
        }
        (Type::Struct(id), Value::Struct(members)) => {
            let def = program.struct_def(*id);
            let mut bit_field_bytes = BitFieldBytes::default();
            for (field, member) in def.fields.iter().zip(members) {
                let at = at + field.offset as usize;
                match (field.bits, member.raw_bits()) {
                    (Some(bits), Some((raw, _))) => bit_field_bytes.add(bits, raw, at),
                    _ => value_bytes(program, &field.ty, member, at, out),
                }
            }
            bit_field_bytes.record_whole_bytes(out);
        }
        (Type::Array(elem, _), Value::Array(items)) => {
            let size = program.size_of(elem) as usize;
            for (k, item) in items.iter().enumerate() {
                value_bytes(program, elem, item, at + k * size, out);
            }
        }
        _ => {}
    }
}

/// `base[k]`, with `*p` parenthesized: `(*p)[k]`.
fn index_lvalue(base: &str, k: u64) -> String {
    if base.starts_with('*') {
        format!("({base})[{k}]")
    } else {
        format!("{base}[{k}]")
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

/// One construction call as C spells it: `list_push(l, 3)`; `scratch`
/// names, in order, the variables its out-parameters point to.
pub fn api_call_text(
    unit: &Unit,
    under_test: &ir::Function,
    call: &ApiCall,
    objects: &HeapNames,
    scratch: &[String],
) -> Result<String, String> {
    let callee = unit.program.function(call.func);
    let mut args = Vec::with_capacity(call.args.len());
    let mut scratch = scratch.iter();
    for (i, (ty, value)) in callee.sig.params.iter().zip(&call.args).enumerate() {
        args.push(match (ty, value) {
            (Type::Pointer(_), Value::Unknown) => match scratch.next() {
                Some(name) => format!("&{name}"),
                None => format!("&{}", crate::shapes::param_name(callee, i)),
            },
            (Type::Int(it), Value::Int { bits, .. }) => int_literal(*it, *bits),
            (Type::Int(_), Value::Unknown) => "0".to_string(),
            (_, Value::Constructed { param }) => match objects.constructed_name(*param) {
                Ok(name) => name.to_string(),
                Err(_) => crate::shapes::param_name(under_test, *param as usize),
            },
            (_, Value::Part { param, call }) => match objects.part_name(*param, *call) {
                Ok(name) => name.to_string(),
                Err(_) => crate::shapes::param_name(callee, i),
            },
            // A string the test made as an input object.
            (Type::Pointer(_), Value::Pointer { object, offset }) => {
                match objects.get(HeapRef::Input(*object)) {
                    Ok(input) if *offset == 0 => input.c_name.clone(),
                    Ok(input) => format!("{} + {offset}", input.c_name),
                    Err(_) => crate::shapes::param_name(callee, i),
                }
            }
            (ty, value) => {
                return Err(format!(
                    "{} for `{}` does not fit its type ({})",
                    value_words(value),
                    callee.name,
                    unit.type_words(ty)
                ))
            }
        });
    }
    Ok(format!("{}({})", unit.callee(call.func)?, args.join(", ")))
}

/// `static const unsigned char NAME[N] = ...;` holding `bytes`: the bytes
/// up to the last nonzero one (C zeroes the rest), as a string literal for
/// `text`, else sixteen a line.
fn byte_array(name: &str, bytes: &[u8], text: bool, constant: bool) -> Vec<String> {
    let used = bytes
        .iter()
        .rposition(|&b| b != 0)
        .map_or(0, |last| last + 1);
    let qualifier = if constant { "const " } else { "" };
    let head = format!("static {qualifier}unsigned char {name}[{}] = ", bytes.len());
    if used == 0 {
        return vec![format!("{head}{{0}};")];
    }
    if text {
        return vec![format!("{head}{};", bytes_literal(&bytes[..used]))];
    }
    let rows: Vec<String> = bytes[..used]
        .chunks(16)
        .map(|row| {
            let row: Vec<String> = row.iter().map(|b| format!("0x{b:02x}")).collect();
            row.join(", ")
        })
        .collect();
    if rows.len() == 1 {
        return vec![format!("{head}{{{}}};", rows[0])];
    }
    let last = rows.len() - 1;
    let mut lines = vec![format!("{head}{{")];
    for (k, row) in rows.into_iter().enumerate() {
        let comma = if k == last { "" } else { "," };
        lines.push(format!("    {row}{comma}"));
    }
    lines.push("};".to_string());
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn what_a_stub_writes_is_a_byte_array_up_to_its_last_nonzero_byte() {
        assert_eq!(
            byte_array("get_1_arg1", &[42, 0, 0, 0], false, true),
            ["static const unsigned char get_1_arg1[4] = {0x2a};"]
        );
        assert_eq!(
            byte_array("read_1_arg1", b"quit\0\0\0\0", true, true),
            ["static const unsigned char read_1_arg1[8] = \"quit\";"]
        );
        assert_eq!(
            byte_array("zero_1_arg2", &[0; 3], true, true),
            ["static const unsigned char zero_1_arg2[3] = {0};"]
        );
        let lines = byte_array("fill_2_arg1", &[0xff; 17], false, true);
        assert_eq!(lines.len(), 4, "{lines:?}");
        assert!(lines[1].ends_with("0xff,") && lines[2] == "    0xff" && lines[3] == "};");
    }

    #[test]
    fn members_and_elements_of_a_pointed_object_read_naturally() {
        assert_eq!(member_lvalue("*n_in", "key"), "n_in->key");
        assert_eq!(member_lvalue("n_in->pos", "x"), "n_in->pos.x");
        assert_eq!(member_lvalue("*n_in", ""), "*n_in");
        assert_eq!(member_lvalue("arg", "lo"), "arg.lo");
        assert_eq!(index_lvalue("*row_in", 2), "(*row_in)[2]");
        assert_eq!(index_lvalue("a_in", 3), "a_in[3]");
    }

    #[test]
    fn output_objects_are_known_only_once_named() {
        let mut names = HeapNames::default();
        let first = HeapRef::Allocated(AllocId(1));
        assert!(names.element(first, 0).is_err());
        names.bind(
            AllocId(1),
            HeapObject {
                c_name: "result_next_out".into(),
                elem: Type::Int(IntType::INT),
                len: 4,
                environment: None,
            },
        );
        assert!(names.is_bound(AllocId(1)) && !names.is_bound(AllocId(0)));
        assert_eq!(names.element(first, 2).as_deref(), Ok("result_next_out[2]"));
        assert!(names.allocated()[0].is_none());
    }

    #[test]
    fn allocation_check_skips_empty_objects_and_frees_the_rest() {
        const FAIL: &str = "return cairn_out_of_memory(__func__);";
        let object = |name: &str, len| HeapObject {
            c_name: name.into(),
            elem: Type::Int(IntType::INT),
            len,
            environment: None,
        };
        assert!(allocation_check(&[object("a_in", 0)], &[], FAIL).is_empty());
        assert_eq!(
            allocation_check(&[object("a_in", 1)], &[], FAIL),
            [
                "if (a_in == NULL)",
                "    return cairn_out_of_memory(__func__);"
            ]
        );
        assert_eq!(
            allocation_check(&[object("a_in", 0), object("b_in", 2)], &[], FAIL),
            [
                "if (b_in == NULL) {",
                "    free(a_in);",
                "    free(b_in);",
                "    return cairn_out_of_memory(__func__);",
                "}"
            ]
        );
    }
}
