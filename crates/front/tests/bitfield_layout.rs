//! Struct layout with bit-fields, packing and alignment attributes, compared with gcc's: a probe
//! program sets each member of each struct to all ones through a union with
//! `unsigned char[]` and prints the bytes, with the struct's size and
//! alignment; the front end's layout must give the same lines. The structs
//! are hand-picked cases plus random ones (fixed seed), in both data models
//! (`gcc -m64` and `-m32`).

mod probe;
use ir::{DataModel, Layout, Type};
use std::fmt::Write;

/// Member types and their widths in bits: `long` is the data model's.
fn int_types(model: DataModel) -> [(&'static str, u16); 11] {
    let long = model.long().bits;
    [
        ("_Bool", 1),
        ("signed char", 8),
        ("unsigned char", 8),
        ("short", 16),
        ("unsigned short", 16),
        ("int", 32),
        ("unsigned", 32),
        ("long", long),
        ("unsigned long", long),
        ("long long", 64),
        ("unsigned long long", 64),
    ]
}
const RANDOM_STRUCTS: usize = 120;

const HAND_PICKED: &[&str] = &[
    "struct H0 { char a; int b : 3; int c : 30; }",
    "struct H1 { char a; int : 0; char b; }",
    "struct H2 { char a; long long : 0; char b; }",
    "struct H3 { unsigned a : 31; unsigned b : 2; unsigned long long c : 40; short d; }",
    "struct H4 { char a; unsigned long long b : 60; char c : 5; }",
    "struct H5 { _Bool a : 1; _Bool b; unsigned : 5; signed char c : 7; }",
    "union H6 { unsigned a : 3; long long b : 33; char c; }",
    "struct __attribute__((packed)) H7 { char a; int b : 4; long long c : 61; short d; }",
    "struct H8 { char a; int b : 7; unsigned c : 31; } __attribute__((packed))",
    "struct H9 { char a : 1; int : 0; char b : 2; }",
    "struct H10 { char a; int : 4; char b; }",
    "struct H11 { char a; long long b; char c; long long d : 40; }",
    "struct H12 { short a; unsigned long long b : 33; char c; }",
    "struct H13 { char a; int b __attribute__((aligned(16))); char c; }",
    "struct H14 { char a; short b; } __attribute__((aligned(8)))",
    "struct H15 { char a; long b __attribute__((__aligned__)); } __attribute__((__aligned__(2 * sizeof(long))))",
    "union H16 { char a __attribute__((aligned(4))); short b; char c; }",
    "struct H17 { char a; int b __attribute__((aligned(8))); short c : 3; } __attribute__((packed))",
    "struct H18 { char a; int b __attribute__((packed)); char c; long long d __attribute__((__packed__)); }",
    "struct H19 { char a; int b __attribute__((packed, aligned(2))); short c; }",
];

struct Lcg(u64);

impl Lcg {
    fn below(&mut self, n: u64) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 33) % n
    }
}

/// A random struct (or union) with the given tag, possibly packed.
fn random_struct(rng: &mut Lcg, tag: &str, model: DataModel) -> String {
    let keyword = if rng.below(8) == 0 { "union" } else { "struct" };
    let mut body = String::new();
    let types = int_types(model);
    for m in 0..1 + rng.below(7) {
        let (ty, bits) = types[rng.below(types.len() as u64) as usize];
        let width = rng.below(u64::from(bits) + 1);
        // The first member is named: C wants a named member.
        match rng.below(10) {
            0..=2 => write!(body, " {ty} m{m};"),
            3 if m > 0 => write!(body, " {ty} : {width};"),
            _ => write!(body, " {ty} m{m} : {};", width.max(1)),
        }
        .unwrap();
    }
    let definition = format!("{keyword} {tag} {{{body} }}");
    match rng.below(6) {
        0 => format!("{definition} __attribute__((packed))"),
        1 => format!("#pragma pack(push, {})\n{definition}", 1 << rng.below(3)),
        _ => definition,
    }
}

/// The named members of a definition (an unnamed bit-field ends in a type word).
fn member_names(definition: &str) -> Vec<String> {
    const TYPE_WORDS: [&str; 7] = [
        "_Bool", "char", "short", "int", "unsigned", "long", "signed",
    ];
    let (Some(open), Some(close)) = (definition.find('{'), definition.rfind('}')) else {
        return Vec::new();
    };
    definition[open + 1..close]
        .split(';')
        // A member's attribute follows its name.
        .map(|m| m.split("__attribute__").next().unwrap_or(m))
        .filter_map(|m| m.split(':').next()?.split_whitespace().last())
        .filter(|name| !TYPE_WORDS.contains(name))
        .map(str::to_string)
        .collect()
}

/// The probe's lines for one struct: `tag size align`, then per member
/// `tag.member` and its bytes with the member set to all ones.
fn probe_code(tag: &str, keyword: &str, members: &[String]) -> String {
    let ty = format!("{keyword} {tag}");
    let mut code = format!("  printf(\"{tag} %zu %zu\\n\", sizeof({ty}), _Alignof({ty}));\n");
    for m in members {
        write!(
            code,
            "  {{ union {{ {ty} s; unsigned char b[sizeof({ty})]; }} u;\n    \
             memset(&u, 0, sizeof u); u.s.{m} = -1; u.s.{m} = u.s.{m} ? u.s.{m} : 1;\n    \
             printf(\"{tag}.{m}\"); for (unsigned i = 0; i < sizeof u.b; i++) printf(\" %02x\", u.b[i]); printf(\"\\n\"); }}\n"
        )
        .unwrap();
    }
    code
}

/// The same lines from the front end's layout.
fn our_lines(program: &ir::Program, tag: &str) -> String {
    let def = program
        .structs
        .iter()
        .find(|s| s.name == tag)
        .unwrap_or_else(|| panic!("struct {tag} lowered"));
    let mut out = format!("{tag} {} {}\n", def.size, def.align);
    for f in &def.fields {
        let mut bytes = vec![0u8; def.size as usize];
        let Type::Int(it) = f.ty else {
            panic!("integer members only")
        };
        match f.bits {
            Some(bits) => {
                for k in 0..u64::from(bits.width) {
                    let position = u64::from(bits.shift) + k;
                    bytes[(f.offset + position / 8) as usize] |= 1 << (position % 8);
                }
            }
            None => {
                let size = program.size_of(&f.ty) as usize;
                let all_ones = if it.is_bool { 1 } else { 0xff };
                bytes[f.offset as usize..f.offset as usize + size].fill(all_ones);
            }
        }
        write!(out, "{tag}.{}", f.name).unwrap();
        for b in bytes {
            write!(out, " {b:02x}").unwrap();
        }
        out.push('\n');
    }
    out
}

#[test]
fn bit_field_and_packed_layouts_match_gcc() {
    compare_with_gcc(DataModel::Lp64);
}

#[test]
fn bit_field_and_packed_layouts_match_gcc_under_ilp32() {
    compare_with_gcc(DataModel::Ilp32);
}

fn compare_with_gcc(model: DataModel) {
    let dir = tempfile::tempdir().expect("temporary directory");
    let mut rng = Lcg(2026);
    let mut definitions: Vec<(String, String)> = HAND_PICKED
        .iter()
        .enumerate()
        .map(|(i, d)| (format!("H{i}"), d.to_string()))
        .collect();
    for i in 0..RANDOM_STRUCTS {
        let tag = format!("R{i}");
        definitions.push((tag.clone(), random_struct(&mut rng, &tag, model)));
    }
    let mut source = String::from("#include <stdio.h>\n#include <string.h>\n");
    let mut main = String::from("int main(void) {\n");
    for (tag, definition) in &definitions {
        writeln!(source, "{definition};").unwrap();
        if definition.starts_with("#pragma") {
            source.push_str("#pragma pack(pop)\n");
        }
        let keyword = if definition.contains("union ") {
            "union"
        } else {
            "struct"
        };
        let members = member_names(definition);
        main.push_str(&probe_code(tag, keyword, &members));
    }
    main.push_str("  return 0;\n}\n");
    source.push_str(&main);
    let Some((gcc, out)) = probe::run_with_gcc(dir.path(), &source, model) else {
        return;
    };
    assert!(out.excluded.is_empty(), "{:?}", out.excluded);
    let ours: String = definitions
        .iter()
        .map(|(tag, _)| our_lines(&out.program, tag))
        .collect();
    for (theirs, mine) in gcc.lines().zip(ours.lines()) {
        assert_eq!(mine, theirs, "layout differs from gcc's\n{source}");
    }
    assert_eq!(gcc.lines().count(), ours.lines().count());
}
