//! Targeted checks of the front end's output structures: layouts, typedef
//! names, branch sites, diagnostics positions and compile_commands flags.

use front::{compile, FrontConfig, Severity};
use ir::{BranchKind, Layout, Terminator, Type};
use std::path::{Path, PathBuf};

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, text).expect("write test input");
    path
}

fn lower(text: &str) -> front::FrontOutput {
    let dir = tempfile::tempdir().expect("temporary directory");
    let path = write(dir.path(), "t.c", text);
    compile(&path, &FrontConfig::default()).expect("compiles")
}

fn struct_named<'p>(p: &'p ir::Program, name: &str) -> &'p ir::StructDef {
    p.structs
        .iter()
        .find(|s| s.name == name || s.typedef_name.as_deref() == Some(name))
        .expect("struct exists")
}

#[test]
fn system_v_layouts_with_nested_and_anonymous_members() {
    let out = lower(
        "struct a { char c; double d; short s; };\n\
         struct b { char c; struct { int x; char y; }; union { long l; char bytes[3]; }; long double ld; };\n\
         typedef struct { char tag[3]; int *p; } named;\n\
         union u { char c; int i[3]; };\n\
         struct a va; struct b vb; named vn; union u vu;\n",
    );
    let p = &out.program;
    let a = struct_named(p, "a");
    assert_eq!((a.size, a.align), (24, 8));
    assert_eq!(
        a.fields.iter().map(|f| f.offset).collect::<Vec<_>>(),
        vec![0, 8, 16]
    );
    let b = struct_named(p, "b");
    assert_eq!((b.size, b.align), (48, 16));
    assert_eq!(
        b.fields.iter().map(|f| f.offset).collect::<Vec<_>>(),
        vec![0, 4, 16, 32]
    );
    assert!(b.fields[1].name.is_empty() && b.fields[2].name.is_empty());
    let named = struct_named(p, "named");
    assert!(named.name.starts_with("anon."));
    assert_eq!(named.typedef_name.as_deref(), Some("named"));
    assert_eq!((named.size, named.align), (16, 8));
    let u = struct_named(p, "u");
    assert!(u.is_union);
    assert_eq!((u.size, u.align), (12, 4));
    assert_eq!(p.size_of(&Type::Struct(ir::StructId(0))), 24);
}

#[test]
fn anonymous_members_are_reached_through_field_paths() {
    let out = lower(
        "struct s { int a; struct { int b; int c; }; };\nint get(struct s *p) { return p->c; }\n",
    );
    let f = &out.program.functions[0];
    let text = ir::print::print_program(&out.program, std::slice::from_ref(&f.name));
    assert!(text.contains("return (*_0.p).1.1"), "{text}");
}

#[test]
fn branch_sites_have_condition_text_and_positions() {
    let out = lower("int f(int a, int b) {\n  if (a > 1 &&  b)\n    return 1;\n  while (1) { if (a) break; }\n  return a ? 2 : 3;\n}\n");
    let body = out.program.functions[0].body.as_ref().expect("has a body");
    let sites: Vec<(String, u32, u32, BranchKind)> = body
        .branches
        .iter()
        .map(|s| (s.text.clone(), s.span.line, s.span.col, s.kind))
        .collect();
    assert_eq!(
        sites,
        vec![
            ("a > 1".to_string(), 2, 7, BranchKind::Logical),
            ("b".to_string(), 2, 17, BranchKind::Logical),
            ("a".to_string(), 4, 19, BranchKind::If),
            ("a".to_string(), 5, 10, BranchKind::Conditional),
        ]
    );
    let branches = body
        .blocks
        .iter()
        .filter(|b| matches!(b.term, Terminator::Branch { .. }))
        .count();
    assert_eq!(branches, 4, "while (1) must not branch");
}

#[test]
fn static_locals_become_qualified_globals() {
    let out = lower("int next(void) { static int n = 5; return n++; }\n");
    let g = &out.program.globals[0];
    assert_eq!(g.name, "next.n");
    assert!(g.is_static);
    assert_eq!(
        g.init,
        Some(ir::Init::Fields(vec![ir::InitItem {
            offset: 0,
            value: ir::ConstValue::Int(ir::IntType::INT, 5)
        }]))
    );
}

#[test]
fn statics_of_the_same_name_in_one_function_stay_distinct() {
    let out = lower("int f(int c) { if (c) { static int n; return ++n; } else { static int n = 2; return n--; } }\n");
    let names: Vec<&str> = out
        .program
        .globals
        .iter()
        .map(|g| g.name.as_str())
        .collect();
    assert_eq!(names, vec!["f.n", "f.n.1"]);
}

#[test]
fn unsupported_constructs_exclude_only_their_function() {
    let out =
        lower("int ok(int x) { return x; }\nint bad(int n) { int a[n]; return *(int *)&a; }\n");
    assert_eq!(out.excluded.len(), 1);
    let (name, d) = &out.excluded[0];
    assert_eq!(name, "bad");
    assert_eq!(
        (d.severity.clone(), d.line, d.col),
        (Severity::Unsupported, 2, 43)
    );
    assert_eq!(
        d.message,
        "unsupported: the address of a variable-length array"
    );
    assert!(out.program.functions[0].body.is_some());
    assert!(out.program.functions[1].body.is_none());
}

#[test]
fn syntax_errors_point_into_the_original_file() {
    let dir = tempfile::tempdir().expect("temporary directory");
    write(dir.path(), "h.h", "int declared_in_header(void);\n");
    let path = write(
        dir.path(),
        "s.c",
        "#include \"h.h\"\nint f(void) {\n  return 1 +;\n}\n",
    );
    // The compiler rejects it too: an error in the file, not an extension.
    let d = compile(&path, &FrontConfig::default()).expect_err("a syntax error");
    assert_eq!(
        (d.severity.clone(), d.line, d.col),
        (Severity::Error, 3, 13)
    );
    assert!(d.file.ends_with("s.c"));
    // Text that ends inside an item leaves nothing to cut: the file fails.
    let path = write(
        dir.path(),
        "t.c",
        "int g(void) { return 1; }
int h(void",
    );
    let err = compile(&path, &FrontConfig::default()).expect_err("unterminated");
    assert!(err.message.starts_with("syntax error"), "{err}");
}

#[test]
fn gnu_constructs_the_parser_lacks_exclude_only_their_functions() {
    let out = lower(concat!(
        "int ok(int x) { return x ?: 1; }\n",
        "int jump(int i) { static void *t[] = { &&a }; goto *t[i]; a: return 1; }\n",
        "int wide(long a) { return sizeof(__int128) + a; }\n",
        "int caller(int i) { return jump(i); }\n",
        "int outer(int i) { return caller(i) + 1; }\n",
        "__float128 quad_add(__float128 a, __float128 b);\n",
        "struct quad { __float128 q; char tag; };\n",
        "int quad_size(void) { return sizeof(struct quad); }\n",
    ));
    let reasons: Vec<(&str, &str, u32)> = out
        .excluded
        .iter()
        .map(|(name, d)| (name.as_str(), d.message.as_str(), d.line))
        .collect();
    assert_eq!(
        reasons,
        vec![
            ("jump", "unsupported: computed goto", 2),
            (
                "caller",
                "unsupported: calls `jump`, which is excluded (computed goto)",
                4
            ),
            // Down a chain of callers, the cause is the first reason.
            (
                "outer",
                "unsupported: calls `caller`, which is excluded (computed goto)",
                5
            ),
        ]
    );
    assert!(out.program.functions[0].body.is_some());
    // `__int128` is rewritten for the parser and lowered as 128 bits.
    let wide = out
        .program
        .function_by_name("wide")
        .expect("wide is lowered");
    assert!(out.program.function(wide).body.is_some());
    // `__float128` (fftw's quad-precision API) is read as `_Float128`:
    // the prototypes parse and the layout is gcc's (16 bytes, aligned 16).
    let quad_size = out
        .program
        .function_by_name("quad_size")
        .expect("quad_size is lowered");
    assert!(out.program.function(quad_size).body.is_some());
    assert!(
        ir::print::print_function_in_place(&out.program, quad_size).contains("32"),
        "{}",
        ir::print::print_function_in_place(&out.program, quad_size)
    );
}

#[test]
fn missing_file_is_an_error() {
    let err = compile(Path::new("/nonexistent/x.c"), &FrontConfig::default()).expect_err("missing");
    assert_eq!(err.severity, Severity::Error);
    let dir = tempfile::tempdir().expect("temporary directory");
    let err = compile(dir.path(), &FrontConfig::default()).expect_err("a directory");
    assert!(err.message.contains("not a regular file"), "{err}");
}

#[test]
fn flags_come_from_compile_commands() {
    let dir = tempfile::tempdir().expect("temporary directory");
    std::fs::create_dir(dir.path().join("inc")).expect("mkdir");
    write(&dir.path().join("inc"), "cfg.h", "#define SIZE 3\n");
    let src = write(
        dir.path(),
        "m.c",
        "#include \"cfg.h\"\nint table[SIZE * FACTOR];\n",
    );
    let db = format!(
        "[{{\"directory\": \"{}\", \"command\": \"cc -Iinc -DFACTOR=2 -c m.c\", \"file\": \"m.c\"}}]",
        dir.path().display()
    );
    write(dir.path(), "compile_commands.json", &db);
    let config = FrontConfig {
        compile_commands_dir: Some(dir.path().to_path_buf()),
        ..FrontConfig::default()
    };
    let out = compile(&src, &config).expect("compiles with flags from the database");
    assert_eq!(
        out.program.globals[0].ty,
        Type::Array(Box::new(Type::Int(ir::IntType::INT)), Some(6))
    );
}

/// Struct definitions whose layout is checked against the system compiler.
const LAYOUT_CASES: &str = "
struct s1 { char c; int i; short s; };
struct s2 { char c; long double ld; char d; };
struct s3 { short s; struct s1 inner; char tail[3]; };
union u1 { char c[5]; int i; };
struct s4 { char c; union u1 u; long l; };
struct s5 { int a; struct { char b; long c; }; char d; };
#pragma pack(push)
#pragma pack(1)
struct p1 { char a; int b; short c; long d; };
#pragma pack(2)
struct p2 { char a; int b; char c; };
#pragma pack(pop)
struct s6 { char a; struct p1 p; int b; };
";

#[test]
fn layouts_match_the_system_compiler() {
    let names = [
        "struct s1",
        "struct s2",
        "struct s3",
        "union u1",
        "struct s4",
        "struct s5",
        "struct p1",
        "struct p2",
        "struct s6",
    ];
    let dir = tempfile::tempdir().expect("temporary directory");
    let mut probe =
        format!("#include <stdio.h>\n#include <stdalign.h>\n{LAYOUT_CASES}\nint main(void) {{\n");
    for n in names {
        probe.push_str(&format!(
            "    printf(\"%zu %zu\\n\", sizeof({n}), alignof({n}));\n"
        ));
    }
    probe.push_str("    return 0;\n}\n");
    let src = write(dir.path(), "probe.c", &probe);
    let bin = dir.path().join("probe");
    let built = std::process::Command::new("cc")
        .arg(&src)
        .arg("-o")
        .arg(&bin)
        .status();
    if !built.is_ok_and(|s| s.success()) {
        eprintln!("note: no working cc; skipping the layout comparison");
        return;
    }
    let output = std::process::Command::new(&bin)
        .output()
        .expect("probe runs");
    let expected: Vec<(u64, u64)> = String::from_utf8_lossy(&output.stdout)
        .lines()
        .map(|l| {
            let mut w = l
                .split_whitespace()
                .map(|x| x.parse::<u64>().expect("number"));
            (w.next().unwrap_or(0), w.next().unwrap_or(0))
        })
        .collect();
    let mut uses = String::new();
    for (i, n) in names.iter().enumerate() {
        uses.push_str(&format!("{n} v{i};\n"));
    }
    let out = lower(&format!("{LAYOUT_CASES}{uses}"));
    for (i, n) in names.iter().enumerate() {
        let tag = n.split_whitespace().nth(1).unwrap_or("");
        let def = struct_named(&out.program, tag);
        assert_eq!((def.size, def.align), expected[i], "{n}");
    }
    let p1 = struct_named(&out.program, "p1");
    assert_eq!(
        p1.fields.iter().map(|f| f.offset).collect::<Vec<_>>(),
        vec![0, 1, 5, 7]
    );
    let p2 = struct_named(&out.program, "p2");
    assert_eq!(
        p2.fields.iter().map(|f| f.offset).collect::<Vec<_>>(),
        vec![0, 2, 6]
    );
}

#[test]
fn bit_field_misuse_is_an_error_at_its_position() {
    let out = lower(
        "struct s { unsigned a : 3; int b : 5; };\n\
         unsigned *addr(struct s *p) { return &p->a; }\n\
         int ok(struct s *p) { return p->a + p->b; }\n\
         struct wide { int c : 33; };\n\
         int uses_wide(struct wide *w) { return w->c; }\n\
         struct zero { int d : 0; };\n\
         int uses_zero(struct zero *z) { return z->d; }\n",
    );
    let errors: Vec<(String, u32, u32, String)> = out
        .excluded
        .iter()
        .map(|(name, d)| (name.clone(), d.line, d.col, d.message.clone()))
        .collect();
    assert_eq!(
        errors,
        vec![
            (
                "addr".into(),
                2,
                38,
                "cannot take the address of a bit-field".into()
            ),
            (
                "uses_wide".into(),
                4,
                23,
                "width of bit-field exceeds its type".into()
            ),
            (
                "uses_zero".into(),
                6,
                23,
                "named bit-field has zero width".into()
            ),
        ]
    );
    let ok = out.program.function_by_name("ok").expect("ok lowered");
    assert!(out.program.function(ok).body.is_some());
}

#[test]
fn packing_applies_to_struct_bodies_only() {
    let out = lower(
        "struct wire { char tag; int length; } __attribute__((packed));\n\
         int length(struct wire *w) { return w->length; }\n\
         enum small { A, B } __attribute__((packed));\n\
         int is_a(enum small s) { return s == A; }\n",
    );
    let wire = struct_named(&out.program, "wire");
    assert_eq!((wire.size, wire.align, wire.fields[1].offset), (5, 1, 1));
    assert!(out.diagnostics.iter().any(|d| d.line == 3
        && d.message == "unsupported: packing attribute on a type other than a struct body"));
    assert_eq!(out.excluded.len(), 1, "{:?}", out.excluded);
    assert_eq!(out.excluded[0].0, "is_a");
}

#[test]
fn va_arg_of_a_promoted_type_or_outside_a_variadic_function_is_refused_at_its_place() {
    let out = lower(
        "#include <stdarg.h>\n\
         double f(int n, ...) { va_list ap; va_start(ap, n); float x = va_arg(ap, float); va_end(ap); return x; }\n\
         int g(int n, ...) { va_list ap; va_start(ap, n); int c = va_arg(ap, char); va_end(ap); return c; }\n\
         int h(int n) { va_list ap; va_start(ap, n); va_end(ap); return n; }\n\
         int ok(int n, ...) { va_list ap; va_start(ap, n); long x = va_arg(ap, long); va_end(ap); return x > n; }\n",
    );
    let refused: Vec<(&str, u32, &str)> = out
        .excluded
        .iter()
        .map(|(name, d)| (name.as_str(), d.line, d.message.as_str()))
        .collect();
    assert_eq!(
        refused,
        vec![
            (
                "f",
                2,
                "`va_arg` of `float` is undefined: `...` passes it as `double`"
            ),
            (
                "g",
                3,
                "`va_arg` of a type narrower than `int` is undefined: `...` passes it as `int`"
            ),
            ("h", 4, "`va_start` in a function with fixed arguments"),
        ]
    );
    let ok = out.program.function_by_name("ok").expect("lowered");
    let function = out.program.function(ok);
    let area = function.va_area().expect("variadic with a body");
    let body = function.body.as_ref().expect("body");
    assert_eq!(body.local(area).ty, Type::ptr(Type::Void));
}

/// The function named `name` in `out`'s program.
fn function<'p>(out: &'p front::FrontOutput, name: &str) -> &'p ir::Function {
    let id = out.program.function_by_name(name).expect("function exists");
    out.program.function(id)
}

#[test]
fn old_style_definitions_receive_promoted_types_unless_a_prototype_says_otherwise() {
    let out = lower(concat!(
        "int plain(c, x, n, s) char c; float x; short *s; { return c + n + (int)x + *s; }\n",
        "int widened(int c);\n",
        "int widened(c) char c; { return c; }\n",
        "int kept(char c);\n",
        "int kept(c) char c; { return c; }\n",
        "int empty() { return 1; }\n",
    ));
    assert!(out.excluded.is_empty(), "{:?}", out.excluded);
    let int = Type::Int(ir::IntType::INT);
    let plain = function(&out, "plain");
    assert!(!plain.prototyped);
    assert_eq!(
        plain.sig.params,
        vec![
            int.clone(),
            Type::Float(ir::FloatKind::F64),
            int.clone(),
            Type::ptr(Type::Int(ir::IntType::SHORT)),
        ]
    );
    // The body's own `c` and `x` have the declared types.
    let body = plain.body.as_ref().expect("a body");
    let declared: Vec<(&str, &Type)> = body.locals[4..6]
        .iter()
        .map(|l| (l.name.as_str(), &l.ty))
        .collect();
    assert_eq!(
        declared,
        vec![
            ("c", &Type::Int(ir::IntType::CHAR)),
            ("x", &Type::Float(ir::FloatKind::F32)),
        ]
    );
    let widened = function(&out, "widened");
    assert!(widened.prototyped);
    assert_eq!(widened.sig.params, vec![int]);
    let kept = function(&out, "kept");
    assert!(kept.prototyped);
    assert_eq!(kept.sig.params, vec![Type::Int(ir::IntType::CHAR)]);
    assert!(!function(&out, "empty").prototyped);
}

#[test]
fn calls_without_a_prototype_pass_promoted_arguments_fitted_to_the_callee() {
    let out = lower(concat!(
        "int later();\n",
        "int stub();\n",
        "int first(short s) { return later(s, 1.5f) + stub(s, 'a', 2.5f) + stub(1, 2, 3.0); }\n",
        "int later(c, d) char c; double d; { return c + (int)d; }\n",
        "int extra(void) { return later(1, 2.0, 3); }\n",
    ));
    assert!(out.excluded.is_empty(), "{:?}", out.excluded);
    let int = Type::Int(ir::IntType::INT);
    let double = Type::Float(ir::FloatKind::F64);
    // Defined in no file read: it receives what its first call passes.
    let stub = function(&out, "stub");
    assert!(!stub.prototyped);
    assert_eq!(
        stub.sig.params,
        vec![int.clone(), int.clone(), double.clone()]
    );
    let call_args = |name: &str| -> Vec<Vec<Type>> {
        let body = function(&out, name).body.as_ref().expect("a body");
        body.blocks
            .iter()
            .flat_map(|b| &b.stmts)
            .filter_map(|s| match &s.kind {
                ir::StmtKind::Call { args, .. } => {
                    Some(args.iter().map(|a| a.ty.clone()).collect())
                }
                _ => None,
            })
            .collect()
    };
    let fitted = vec![int.clone(), double.clone()];
    let stubbed = vec![int.clone(), int, double];
    assert_eq!(
        call_args("first"),
        vec![fitted.clone(), stubbed.clone(), stubbed]
    );
    // The callee never reads an extra argument.
    assert_eq!(call_args("extra"), vec![fitted]);
}

#[test]
fn calls_the_callee_would_misread_exclude_their_caller_at_the_call() {
    let out = lower(concat!(
        "double half(x) float x; { return x / 2; }\n",
        "long wide(v) long v; { return v; }\n",
        "int takes_int(void) { return (int)half(3); }\n",
        "int narrower(void) { return (int)wide(1); }\n",
        "int too_few(void) { return (int)wide(); }\n",
        "int (*pointer)();\n",
        "int through_pointer(void) { return pointer(1); }\n",
        "int wider(long long v) { return (int)wide(v); }\n",
    ));
    let reasons: Vec<(&str, &str, u32, u32)> = out
        .excluded
        .iter()
        .map(|(name, d)| (name.as_str(), d.message.as_str(), d.line, d.col))
        .collect();
    assert_eq!(
        reasons,
        vec![
            (
                "takes_int",
                "unsupported: `half` has no prototype here and argument 1 of this call does not have the type it receives (undefined behaviour)",
                3,
                35
            ),
            (
                "narrower",
                "unsupported: `wide` has no prototype here and argument 1 of this call does not have the type it receives (undefined behaviour)",
                4,
                34
            ),
            (
                "too_few",
                "unsupported: `wide` has no prototype here and this call passes 0 of its 1 arguments (undefined behaviour)",
                5,
                33
            ),
        ]
    );
    // As wide as the parameter: what gcc's callee reads.
    assert!(function(&out, "wider").body.is_some());
    // Through a pointer the engine fits the arguments to the callee reached.
    assert!(function(&out, "through_pointer").body.is_some());
}

#[test]
fn undeclared_functions_are_declared_as_gcc_declares_them() {
    let out = lower(concat!(
        "int sign(char *s) { if (strcmp(s, \"-\") == 0) exit(1); return atoi(s) + (int)strlen(s); }\n",
        "int twice(int x) { return helper(x) * 2; }\n",
        "unsigned long copy(char *d, char *s) { __builtin_memcpy(d, s, 4); return __builtin_strlen(d); }\n",
    ));
    assert!(out.excluded.is_empty(), "{:?}", out.excluded);
    let warnings: Vec<(u32, u32, &str)> = out
        .diagnostics
        .iter()
        .map(|d| (d.line, d.col, d.message.as_str()))
        .collect();
    assert_eq!(
        warnings[..2],
        [
            (1, 25, "implicit declaration of function `strcmp`"),
            (1, 46, "implicit declaration of function `exit`")
        ]
    );
    let int = Type::Int(ir::IntType::INT);
    let size = Type::Int(ir::IntType::new(64, false));
    // A builtin of the C library keeps its type, declared by the compiler.
    let strlen = function(&out, "strlen");
    assert_eq!((strlen.prototyped, &strlen.sig.ret), (true, &size));
    assert!(out.program.in_system_header(strlen.span));
    // `exit` does not return: nothing follows its call.
    let sign = function(&out, "sign").body.as_ref().expect("a body");
    assert!(sign
        .blocks
        .iter()
        .any(|b| b.term == ir::Terminator::Unreachable));
    // Anything else is `int f();`, declared where it is first called.
    for name in ["atoi", "helper"] {
        let f = function(&out, name);
        assert_eq!((f.prototyped, &f.sig.ret), (false, &int), "{name}");
        assert_eq!(f.span.line, if name == "atoi" { 1 } else { 2 });
    }
    let memcpy = function(&out, "memcpy");
    assert_eq!(memcpy.sig.params.len(), 3);
    assert_eq!(out.program.own_library_declarations, vec!["atoi"]);
}

#[test]
fn library_functions_the_source_declares_itself_are_listed() {
    let out = lower(concat!(
        "char *malloc();\n",
        "int strlen();\n",
        "long lookup();\n",
        "int length(char *s) { return strlen(s); }\n",
    ));
    // Used or not; `lookup` is no function of the C library.
    assert_eq!(
        out.program.own_library_declarations,
        vec!["malloc", "strlen"]
    );
}

#[test]
fn atomic_builtins_are_plain_accesses_without_branches() {
    let out = lower(concat!(
        "int counter;\n",
        "void *slot;\n",
        "int bump(void) { __sync_fetch_and_add(&counter, 1); return __atomic_add_fetch(&counter, 2, 5); }\n",
        "void *get(void) { void *p; __atomic_load(&slot, &p, 5); return p; }\n",
        "int swap(int e) { return __atomic_compare_exchange_n(&counter, &e, 7, 0, 5, 5) + e; }\n",
        "int cas(int old) { return __sync_val_compare_and_swap(&counter, old, 3); }\n",
        "void *pointer_cas(void *e) { __atomic_compare_exchange_n(&slot, &e, 0, 0, 5, 5); return e; }\n",
    ));
    let reasons: Vec<(&str, &str)> = out
        .excluded
        .iter()
        .map(|(name, d)| (name.as_str(), d.message.as_str()))
        .collect();
    assert_eq!(
        reasons,
        vec![(
            "pointer_cas",
            "unsupported: `__atomic_compare_exchange_n` on a pointer"
        )]
    );
    for name in ["bump", "get", "swap", "cas"] {
        let body = function(&out, name).body.as_ref().expect("a body");
        assert!(body.branches.is_empty(), "{name} has no branch");
    }
}

#[test]
fn malformed_old_style_definitions_are_errors_at_their_place() {
    let out = lower(concat!(
        "int stranger(a) int a, b; { return a; }\n",
        "int twice(a) int a; long a; { return a; }\n",
        "int stored(a) static int a; { return a; }\n",
        "int set(a) int a = 1; { return a; }\n",
        "int count(int n);\n",
        "int count(n) long n; { return n; }\n",
        "int mix(int a) int a; { return a; }\n",
        "int later(c) char c; { return c; }\n",
        "int later(char);\n",
        "int fine(a) int a; { return a; }\n",
    ));
    let reasons: Vec<(&str, u32, u32)> = out
        .excluded
        .iter()
        .map(|(_, d)| (d.message.as_str(), d.line, d.col))
        .collect();
    assert_eq!(
        reasons,
        vec![
            ("declaration of `b`, which is no parameter", 1, 24),
            ("parameter `a` is declared twice", 2, 26),
            ("storage class other than `register` for a parameter", 3, 15),
            ("parameter `a` is initialized", 4, 16),
            ("parameter `n` does not match the prototype", 6, 11),
            (
                "old-style parameter declarations in a prototyped function definition",
                7,
                16
            ),
        ]
    );
    assert!(out.diagnostics.iter().any(|d| d.line == 9
        && d.severity == Severity::Error
        && d.message == "conflicting types for `later`"));
    assert!(function(&out, "fine").body.is_some());
}

#[test]
fn implicit_int_is_refused_and_its_callers_excluded() {
    let out = lower(concat!(
        "count(n) int n; { return n; }\n",
        "int scale(c, n) char c; register n; { return c * n; }\n",
        "int caller(void) { return scale(1, 2); }\n",
        "int fine(a) int a; { return a; }\n",
    ));
    let reasons: Vec<(&str, &str, u32)> = out
        .excluded
        .iter()
        .map(|(name, d)| (name.as_str(), d.message.as_str(), d.line))
        .collect();
    let implicit = "unsupported: implicit `int` (a declaration without a type)";
    assert_eq!(
        reasons,
        vec![
            ("count", implicit, 1),
            ("scale", implicit, 2),
            (
                "caller",
                "unsupported: calls `scale`, which is excluded (implicit `int` (a declaration without a type))",
                3
            ),
        ]
    );
    assert!(function(&out, "fine").body.is_some());
}

#[test]
fn a_transparent_union_parameter_takes_its_first_members_type() {
    let out = lower(concat!(
        "#include <sys/socket.h>\n",
        "#include <sys/un.h>\n",
        "int open_socket(int fd, struct sockaddr_un *address) {\n",
        "    return connect(fd, (struct sockaddr *)address, sizeof *address);\n",
        "}\n",
    ));
    assert!(out.excluded.is_empty(), "{:?}", out.excluded);
    let connect = function(&out, "connect");
    assert!(
        matches!(connect.sig.params[1], Type::Pointer(_)),
        "{:?}",
        connect.sig
    );
}

#[test]
fn parameters_pointing_to_const_are_known() {
    let out = lower(
        "struct conf { int level; };\n\
         int get(struct conf *out, const struct conf *defaults, const char *name,\n\
                 char *const buf, const char **names, const char text[]);\n\
         int get(struct conf *out, const struct conf *defaults, const char *name,\n\
                 char *const buf, const char **names, const char text[]);\n\
         int put(int *a, const int *b);\n\
         int use(void) { struct conf c; return get(&c, &c, 0, 0, 0, 0) + put(0, 0); }\n",
    );
    let p = &out.program;
    let get = p.function(p.function_by_name("get").expect("get"));
    assert_eq!(get.const_pointee, [1, 2, 5]);
    let put = p.function(p.function_by_name("put").expect("put"));
    assert_eq!(put.const_pointee, [1]);
}
