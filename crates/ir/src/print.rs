//! The stable text form of the IR (`cairn ir`), used by golden tests.

use crate::float;
use crate::program::*;
use crate::types::{FloatKind, Type};
use std::fmt::{self, Write};

pub struct TypeName<'a>(pub &'a Program, pub &'a Type);

impl fmt::Display for TypeName<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let p = self.0;
        match self.1 {
            Type::Void => write!(f, "void"),
            Type::Int(i) => write!(f, "{i}"),
            Type::Float(FloatKind::F32) => write!(f, "f32"),
            Type::Float(FloatKind::F64) => write!(f, "f64"),
            Type::Float(FloatKind::F80) => write!(f, "f80"),
            Type::Pointer(t) => write!(f, "*{}", TypeName(p, t)),
            Type::Array(t, Some(n)) => write!(f, "[{}; {n}]", TypeName(p, t)),
            Type::Array(t, None) => write!(f, "[{}]", TypeName(p, t)),
            Type::Struct(id) => {
                let s = p.struct_def(*id);
                write!(
                    f,
                    "{} {}",
                    if s.is_union { "union" } else { "struct" },
                    s.name
                )
            }
            Type::Function(sig) => {
                write!(f, "fn(")?;
                for (i, t) in sig.params.iter().enumerate() {
                    if i > 0 {
                        write!(f, ", ")?;
                    }
                    write!(f, "{}", TypeName(p, t))?;
                }
                if sig.variadic {
                    write!(f, ", ...")?;
                }
                write!(f, ") -> {}", TypeName(p, &sig.ret))
            }
        }
    }
}

use crate::types::Layout;

/// Prints the whole program, or only the named functions (with all types and globals).
pub fn print_program(p: &Program, only: &[String]) -> String {
    let mut out = String::new();
    print_structs(&mut out, p);
    for (i, s) in p.strings.iter().enumerate() {
        let _ = writeln!(out, "{} = {}", StringId(i as u32), escape_bytes(s));
    }
    print_globals(&mut out, p);
    for (i, func) in p.functions.iter().enumerate() {
        // The source's functions only: callback mocks are cairn's.
        let id = FuncId(i as u32);
        if (!only.is_empty() && !only.contains(&func.name)) || p.is_callback_mock(id) {
            continue;
        }
        print_function(&mut out, p, id, func, Lines::Absolute);
    }
    out
}

/// The struct layouts and the globals, with their initializers.
pub fn print_layouts_and_globals(p: &Program) -> String {
    let mut out = String::new();
    print_structs(&mut out, p);
    print_globals(&mut out, p);
    out
}

/// One function with its source lines counted from the function's own
/// line, so that its text stays the same when code above it grows or shrinks.
pub fn print_function_in_place(p: &Program, id: FuncId) -> String {
    let mut out = String::new();
    print_function(&mut out, p, id, p.function(id), Lines::FromFunction);
    out
}

/// How a printed function gives the lines of its statements.
#[derive(Clone, Copy)]
enum Lines {
    Absolute,
    /// Relative to the function's line; a line in another file absolutely,
    /// with the file's index.
    FromFunction,
}

fn print_structs(out: &mut String, p: &Program) {
    for s in &p.structs {
        let kw = if s.is_union { "union" } else { "struct" };
        if !s.complete {
            let _ = writeln!(out, "{kw} {};", s.name);
            continue;
        }
        let _ = writeln!(out, "{kw} {} size {} align {} {{", s.name, s.size, s.align);
        for fd in &s.fields {
            let bits = fd
                .bits
                .map(|b| {
                    format!(
                        " bits {}..{}",
                        b.shift,
                        u32::from(b.shift) + u32::from(b.width)
                    )
                })
                .unwrap_or_default();
            let _ = writeln!(
                out,
                "    +{}{bits} {}: {}",
                fd.offset,
                fd.name,
                TypeName(p, &fd.ty)
            );
        }
        let _ = writeln!(out, "}}");
    }
}

fn print_globals(out: &mut String, p: &Program) {
    for (i, g) in p.globals.iter().enumerate() {
        let mut flags = String::new();
        for (on, word) in [
            (g.is_static, " static"),
            (g.is_extern, " extern"),
            (g.is_const, " const"),
        ] {
            if on {
                flags.push_str(word);
            }
        }
        let _ = write!(
            out,
            "global{flags} {} {}: {}",
            GlobalId(i as u32),
            g.name,
            TypeName(p, &g.ty)
        );
        if let Some(Init::Fields(items)) = &g.init {
            let _ = write!(out, " = {{");
            for (k, it) in items.iter().enumerate() {
                let sep = if k > 0 { ", " } else { " " };
                let _ = write!(out, "{sep}+{}: {}", it.offset, const_text(p, &it.value));
            }
            let _ = write!(out, " }}");
        }
        let _ = writeln!(out);
    }
}

fn print_function(out: &mut String, p: &Program, id: FuncId, func: &Function, lines: Lines) {
    let at = |span: Span| match lines {
        Lines::FromFunction if span.file != func.span.file => {
            format!("{}:{}:{}", span.file, span.line, span.col)
        }
        Lines::FromFunction => format!(
            "{:+}:{}",
            i64::from(span.line) - i64::from(func.span.line),
            span.col
        ),
        Lines::Absolute => format!("{}:{}", span.line, span.col),
    };
    let stat = if func.is_static { "static " } else { "" };
    let _ = write!(out, "\n{stat}fn {id} {}(", func.name);
    let body = func.body.as_ref();
    for (i, t) in func.sig.params.iter().enumerate() {
        if i > 0 {
            let _ = write!(out, ", ");
        }
        match body {
            Some(b) => {
                let _ = write!(
                    out,
                    "{} {}: {}",
                    LocalId(i as u32),
                    b.locals[i].name,
                    TypeName(p, t)
                );
            }
            None => {
                let _ = write!(out, "{}", TypeName(p, t));
            }
        }
    }
    if func.sig.variadic {
        let _ = write!(out, ", ...");
    }
    let _ = write!(out, ") -> {}", TypeName(p, &func.sig.ret));
    let Some(body) = body else {
        let _ = writeln!(out, ";");
        return;
    };
    let _ = writeln!(out, " {{");
    for (i, l) in body.locals.iter().enumerate().skip(func.sig.params.len()) {
        let _ = writeln!(
            out,
            "    let {} {}: {}",
            LocalId(i as u32),
            l.name,
            TypeName(p, &l.ty)
        );
    }
    for (i, b) in body.blocks.iter().enumerate() {
        let _ = writeln!(out, "  {}:", BlockId(i as u32));
        for s in &b.stmts {
            let _ = writeln!(out, "    {}  ; {}", stmt_text(p, body, &s.kind), at(s.span));
        }
        let _ = writeln!(
            out,
            "    {}  ; {}",
            term_text(p, body, &b.term),
            at(b.term_span)
        );
    }
    let _ = writeln!(out, "}}");
}

fn stmt_text(p: &Program, body: &Body, s: &StmtKind) -> String {
    match s {
        StmtKind::Assign(place, e) => {
            format!("{} = {}", place_text(p, body, place), expr_text(p, body, e))
        }
        StmtKind::Call { dest, callee, args } => {
            let callee = match callee {
                Callee::Direct(f) => p.function(*f).name.clone(),
                Callee::Indirect(e) => format!("(*{})", expr_text(p, body, e)),
            };
            let args: Vec<String> = args.iter().map(|a| expr_text(p, body, a)).collect();
            let call = format!("call {callee}({})", args.join(", "));
            match dest {
                Some(d) => format!("{} = {call}", place_text(p, body, d)),
                None => call,
            }
        }
    }
}

fn term_text(p: &Program, body: &Body, t: &Terminator) -> String {
    match t {
        Terminator::Goto(b) => format!("goto {b}"),
        Terminator::Branch {
            cond,
            then_bb,
            else_bb,
            site,
        } => {
            format!(
                "branch {site} {} ? {then_bb} : {else_bb}",
                expr_text(p, body, cond)
            )
        }
        Terminator::Switch {
            value,
            cases,
            default,
            site,
        } => {
            let arms: Vec<String> = cases.iter().map(|(v, b)| format!("{v} => {b}")).collect();
            format!(
                "switch {site} {} [{}] default {default}",
                expr_text(p, body, value),
                arms.join(", ")
            )
        }
        Terminator::Return(Some(e)) => format!("return {}", expr_text(p, body, e)),
        Terminator::Return(None) => "return".to_string(),
        Terminator::Unreachable => "unreachable".to_string(),
    }
}

pub fn place_text(p: &Program, body: &Body, place: &Place) -> String {
    let mut s = match &place.base {
        PlaceBase::Local(l) => {
            let name = &body.locals[l.index()].name;
            if name.is_empty() {
                format!("{l}")
            } else {
                format!("{l}.{name}")
            }
        }
        PlaceBase::Global(g) => p.global(*g).name.clone(),
        PlaceBase::Deref(e) => format!("(*{})", expr_text(p, body, e)),
    };
    for pr in &place.proj {
        match pr {
            Proj::Field { index, .. } => {
                let _ = write!(s, ".{index}");
            }
            Proj::Index { index, .. } => {
                let _ = write!(s, "[{}]", expr_text(p, body, index));
            }
        }
    }
    s
}

pub fn expr_text(p: &Program, body: &Body, e: &Expr) -> String {
    let ty = TypeName(p, &e.ty);
    match &e.kind {
        ExprKind::Int(bits) => match e.ty.as_int() {
            Some(it) => format!("{}{}", it.value_of(*bits), it),
            None => format!("{bits}:{ty}"),
        },
        ExprKind::Float(bits) => match e.ty.as_ieee_float() {
            Some(kind) => format!("{}:{ty}", float::text(kind, *bits)),
            None => format!("{bits}:{ty}"),
        },
        ExprKind::Null => format!("null:{ty}"),
        ExprKind::Load(place) => place_text(p, body, place),
        ExprKind::AddrOf(place) => format!("&{}", place_text(p, body, place)),
        ExprKind::FuncAddr(f) => format!("&{}", p.function(*f).name),
        ExprKind::Str(s) => format!("{s}"),
        ExprKind::Unary(op, a) => {
            let a = expr_text(p, body, a);
            match op {
                UnOp::Neg => format!("-{a}"),
                UnOp::Not => format!("~{a}"),
                UnOp::LogicalNot => format!("!{a}"),
                UnOp::LeadingZeros => format!("clz({a})"),
                UnOp::TrailingZeros => format!("ctz({a})"),
                UnOp::CountOnes => format!("popcount({a})"),
                UnOp::SignBit => format!("signbit({a})"),
            }
        }
        ExprKind::Binary(op, a, b) => {
            format!(
                "({} {} {})",
                expr_text(p, body, a),
                op.symbol(),
                expr_text(p, body, b)
            )
        }
        ExprKind::PtrAdd(a, b) => format!(
            "ptradd({}, {})",
            expr_text(p, body, a),
            expr_text(p, body, b)
        ),
        ExprKind::PtrDiff(a, b) => format!(
            "ptrdiff({}, {})",
            expr_text(p, body, a),
            expr_text(p, body, b)
        ),
        ExprKind::Cast(a) => format!("({} as {ty})", expr_text(p, body, a)),
    }
}

fn const_text(p: &Program, c: &ConstValue) -> String {
    match c {
        ConstValue::Int(it, bits) => format!("{}{}", it.value_of(*bits), it),
        ConstValue::Float(kind, bits) => {
            format!(
                "{}:{}",
                float::text(*kind, *bits),
                TypeName(p, &Type::Float(*kind))
            )
        }
        ConstValue::Null => "null".into(),
        ConstValue::GlobalAddr(g, off) => format!("&{}+{off}", p.global(*g).name),
        ConstValue::FuncAddr(f) => format!("&{}", p.function(*f).name),
        ConstValue::StrAddr(s, off) => format!("&{s}+{off}"),
    }
}

pub fn escape_bytes(bytes: &[u8]) -> String {
    let mut s = String::from("\"");
    for &b in bytes {
        match b {
            b'"' => s.push_str("\\\""),
            b'\\' => s.push_str("\\\\"),
            b'\n' => s.push_str("\\n"),
            b'\t' => s.push_str("\\t"),
            0x20..=0x7e => s.push(b as char),
            _ => {
                let _ = write!(s, "\\{b:03o}");
            }
        }
    }
    s.push('"');
    s
}

/// The CFG of one function as Graphviz DOT (`cairn cfg`).
pub fn cfg_dot(p: &Program, func: FuncId) -> String {
    let f = p.function(func);
    let mut out = format!(
        "digraph \"{}\" {{\n  node [shape=box fontname=monospace];\n",
        f.name
    );
    let Some(body) = &f.body else {
        out.push_str("}\n");
        return out;
    };
    for (i, b) in body.blocks.iter().enumerate() {
        let mut label = format!("{}:\\l", BlockId(i as u32));
        for s in &b.stmts {
            label.push_str(&dot_escape(&stmt_text(p, body, &s.kind)));
            label.push_str("\\l");
        }
        label.push_str(&dot_escape(&term_text(p, body, &b.term)));
        label.push_str("\\l");
        let _ = writeln!(out, "  bb{i} [label=\"{label}\"];");
        match &b.term {
            Terminator::Branch {
                then_bb, else_bb, ..
            } => {
                let _ = writeln!(out, "  bb{i} -> {then_bb} [label=\"T\"];");
                let _ = writeln!(out, "  bb{i} -> {else_bb} [label=\"F\"];");
            }
            Terminator::Switch { cases, default, .. } => {
                for (v, t) in cases {
                    let _ = writeln!(out, "  bb{i} -> {t} [label=\"{v}\"];");
                }
                let _ = writeln!(out, "  bb{i} -> {default} [label=\"default\"];");
            }
            t => {
                for s in t.successors() {
                    let _ = writeln!(out, "  bb{i} -> {s};");
                }
            }
        }
    }
    out.push_str("}\n");
    out
}

fn dot_escape(s: &str) -> String {
    s.replace('\\', "\\\\").replace('"', "\\\"")
}
