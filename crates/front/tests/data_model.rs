//! The data models against gcc: a probe program prints the size,
//! alignment and member offsets of structs holding every kind of scalar,
//! compiled with `-m64` and `-m32`; the front end's layouts must give the
//! same lines. Under ILP32 (i386 System V) `long` and pointers are 4 bytes
//! and `long long`, `double` and `long double` are 4-byte aligned in structs.

mod probe;
use ir::{DataModel, IntType, Type};
use std::fmt::Write;

const MEMBER_TYPES: &[&str] = &[
    "char",
    "short",
    "int",
    "long",
    "unsigned long",
    "long long",
    "float",
    "double",
    "long double",
    "void *",
    "int (*)(int)",
    "size_t",
    "ptrdiff_t",
];

/// Structs whose layouts differ between the data models.
const MIXED: &[&str] = &[
    "struct M0 { char a; long long b; char c; double d; }",
    "struct M1 { char *p; long n; short s; }",
    "struct M2 { int a; struct M0 inner; char b; }",
    "struct M3 { char a; long double b; char c[3]; }",
    "union M4 { long long a; char b[5]; void *c; }",
    "struct M5 { short a; long b[3]; double c[2]; }",
];

/// A member type as a declarator of `name` (a function pointer is spelled
/// around its name).
fn member(ty: &str, name: &str) -> String {
    match ty.split_once("(*)") {
        Some((ret, params)) => format!("{ret}(*{name}){params}"),
        None => format!("{ty} {name}"),
    }
}

fn probe_source() -> (String, Vec<(String, usize)>) {
    let mut source = String::from("#include <stddef.h>\n#include <stdio.h>\n");
    let mut tags = Vec::new();
    for (i, ty) in MEMBER_TYPES.iter().enumerate() {
        let tag = format!("S{i}");
        writeln!(source, "struct {tag} {{ char pad; {}; }};", member(ty, "v")).unwrap();
        tags.push((tag, 2));
    }
    for (i, definition) in MIXED.iter().enumerate() {
        writeln!(source, "{definition};").unwrap();
        let members = definition.matches(';').count();
        tags.push((format!("M{i}"), members));
    }
    for (tag, _) in &tags {
        let keyword = if tag == "M4" { "union" } else { "struct" };
        // A variable keeps the type in the lowered program.
        writeln!(source, "{keyword} {tag} var_{tag};").unwrap();
    }
    source.push_str("int main(void) {\n");
    for (tag, _) in &tags {
        let keyword = if tag == "M4" { "union" } else { "struct" };
        writeln!(
            source,
            "  printf(\"{tag} %zu %zu\\n\", sizeof({keyword} {tag}), _Alignof({keyword} {tag}));"
        )
        .unwrap();
    }
    source.push_str("  return 0;\n}\n");
    (source, tags)
}

fn compare_with_gcc(model: DataModel) {
    let dir = tempfile::tempdir().expect("temporary directory");
    let (source, tags) = probe_source();
    let Some((gcc, out)) = probe::run_with_gcc(dir.path(), &source, model) else {
        return;
    };
    let mut ours = String::new();
    for (tag, members) in &tags {
        let def = out
            .program
            .structs
            .iter()
            .find(|s| &s.name == tag)
            .unwrap_or_else(|| panic!("struct {tag} lowered"));
        assert_eq!(def.fields.len(), *members, "{tag}");
        writeln!(ours, "{tag} {} {}", def.size, def.align).unwrap();
    }
    assert_eq!(ours, gcc, "layouts differ from gcc {}", model.gcc_flag());
}

#[test]
fn layouts_match_gcc_under_lp64() {
    compare_with_gcc(DataModel::Lp64);
}

#[test]
fn layouts_match_gcc_under_ilp32() {
    compare_with_gcc(DataModel::Ilp32);
}

/// The type each global gets under `model`.
fn global_types(source: &str, model: DataModel) -> Vec<(String, Type)> {
    let dir = tempfile::tempdir().expect("temporary directory");
    let src = dir.path().join("types.c");
    std::fs::write(&src, source).expect("source written");
    let config = front::FrontConfig {
        data_model: model,
        ..front::FrontConfig::default()
    };
    let out = front::compile(&src, &config).expect("compiles");
    out.program
        .globals
        .iter()
        .map(|g| (g.name.clone(), g.ty.clone()))
        .collect()
}

#[test]
fn long_size_t_and_pointer_differences_follow_the_data_model() {
    // `typeof` keeps the type an expression has, which is what differs.
    let source = "#include <stddef.h>\n\
        long l;\n\
        unsigned long ul;\n\
        size_t size;\n\
        __typeof__(sizeof(int)) sizeof_type;\n\
        __typeof__((char *)0 - (char *)0) difference;\n\
        __typeof__(1L) long_literal;\n\
        __typeof__(2147483648) big_literal;\n\
        __typeof__(1u + 1L) mixed;\n\
        long long ll;\n";
    let int = |it: IntType| Type::Int(it);
    let expected = |model: DataModel| {
        vec![
            ("l", int(model.long())),
            ("ul", int(model.ulong())),
            ("size", int(model.ulong())),
            ("sizeof_type", int(model.ulong())),
            ("difference", int(model.long())),
            ("long_literal", int(model.long())),
            ("big_literal", int(IntType::LONG_LONG)),
            // `unsigned int` + `long`: `unsigned long` when `long` is no wider.
            (
                "mixed",
                int(match model {
                    DataModel::Lp64 => IntType::LONG_LONG,
                    DataModel::Ilp32 => IntType::UINT,
                }),
            ),
            ("ll", int(IntType::LONG_LONG)),
        ]
    };
    for model in [DataModel::Lp64, DataModel::Ilp32] {
        let types = global_types(source, model);
        let wanted: Vec<(String, Type)> = expected(model)
            .into_iter()
            .map(|(n, t)| (n.to_string(), t))
            .collect();
        assert_eq!(types, wanted, "{}", model.name());
    }
}

#[test]
fn floating_point_and_varargs_are_refused_under_ilp32() {
    let dir = tempfile::tempdir().expect("temporary directory");
    let src = dir.path().join("refused.c");
    std::fs::write(
        &src,
        "#include <stdarg.h>\n\
         double half(double x) { return x / 2; }\n\
         int first(int n, ...) { va_list ap; va_start(ap, n); int v = va_arg(ap, int); va_end(ap); return v; }\n\
         long twice(long x) { return 2 * x; }\n",
    )
    .expect("source written");
    let config = front::FrontConfig {
        data_model: DataModel::Ilp32,
        ..front::FrontConfig::default()
    };
    let out = front::compile(&src, &config).expect("compiles");
    let messages: Vec<String> = out
        .excluded
        .iter()
        .map(|(f, d)| format!("{f}: {}:{}: {}", d.line, d.col, d.message))
        .collect();
    assert_eq!(
        messages,
        [
            "half: 2:32: unsupported: floating point under the ILP32 data model",
            "first: 3:36: unsupported: variadic arguments under the ILP32 data model",
        ],
    );
}
