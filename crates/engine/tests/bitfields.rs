//! Bit-fields: reads extract and extend the field's bits, writes change
//! only them, values promote as gcc promotes them, and struct inputs and
//! results hold values within each field's width.

mod common;

use common::*;
use testcase::{TestCase, Value};

fn members(v: &Value) -> Vec<i128> {
    match v {
        Value::Struct(fields) => fields.iter().map(int).collect(),
        other => panic!("not a struct: {other:?}"),
    }
}

fn struct_arg(t: &TestCase) -> Vec<i128> {
    members(&t.inputs.args[0])
}

const REGISTER: &str = r#"
struct reg { unsigned enable : 1; unsigned mode : 3; signed level : 4; unsigned long long stamp : 40; };
int decode(struct reg r) {
    if (r.level < -5) return -1;
    if (r.level > 6 && r.mode == 7) return 2;
    if (r.enable) return 1;
    return 0;
}
struct reg step(struct reg r) {
    r.mode++;
    r.level -= 3;
    r.stamp += 1;
    return r;
}
"#;

#[test]
fn signed_fields_extend_their_sign_and_inputs_fit_their_width() {
    let (_, report) = run(REGISTER, "decode");
    assert_all_covered(&report);
    for t in &report.tests {
        let [enable, mode, level, stamp] = struct_arg(t)[..] else {
            panic!("four members");
        };
        assert!((0..=1).contains(&enable) && (0..=7).contains(&mode));
        assert!((-8..=7).contains(&level) && (0..1 << 40).contains(&stamp));
        let expected = if level < -5 {
            -1
        } else if level > 6 && mode == 7 {
            2
        } else {
            enable
        };
        assert_eq!(ret(t), expected, "{t:?}");
    }
}

#[test]
fn writes_wrap_within_the_field_and_keep_its_neighbours() {
    let (_, report) = run(REGISTER, "step");
    assert!(!report.tests.is_empty());
    let wrap = |v: i128, bits: u32, signed: bool| {
        let m = v.rem_euclid(1 << bits);
        if signed && m >= 1 << (bits - 1) {
            m - (1 << bits)
        } else {
            m
        }
    };
    for t in &report.tests {
        let [enable, mode, level, stamp] = struct_arg(t)[..] else {
            panic!("four members");
        };
        let result = members(t.ret.as_ref().expect("a struct returned"));
        assert_eq!(
            result,
            vec![
                enable,
                wrap(mode + 1, 3, false),
                wrap(level - 3, 4, true),
                wrap(stamp + 1, 40, false)
            ],
            "{t:?}"
        );
    }
}

const PROMOTION: &str = r#"
struct s { unsigned narrow : 3; unsigned wide : 32; unsigned long long long_field : 40; };
int narrow_is_int(struct s x) { if (x.narrow - 5 < 0) return 1; return 0; }
int wide_is_unsigned(struct s x) { if (x.wide - 5 < 0) return 1; return 0; }
int long_field_wraps_at_its_width(struct s x) { if (x.long_field + 1 == 0) return 1; return 0; }
"#;

#[test]
fn promotion_follows_gcc() {
    let (_, report) = run(PROMOTION, "narrow_is_int");
    assert_all_covered(&report);
    let (_, report) = run(PROMOTION, "wide_is_unsigned");
    assert_eq!(
        report.uncovered.len(),
        1,
        "x.wide - 5 is unsigned, never < 0"
    );
    let (_, report) = run(PROMOTION, "long_field_wraps_at_its_width");
    assert_all_covered(&report);
    let wrapped = test_returning(&report, 1);
    assert_eq!(struct_arg(wrapped)[2], (1 << 40) - 1);
}

const PACKED: &str = r#"
#pragma pack(push, 1)
struct header { unsigned char kind : 3; unsigned char urgent : 1; unsigned int length; unsigned short port : 12; };
#pragma pack(pop)
int route(const struct header *h) {
    if (h->length == 0x01020304u && h->port == 0xabc) return 1;
    if (h->urgent) return 2;
    return 0;
}
"#;

#[test]
fn packed_fields_are_read_at_unaligned_offsets() {
    let (program, report) = run(PACKED, "route");
    assert_all_covered(&report);
    let header = program
        .structs
        .iter()
        .find(|s| s.name == "header")
        .expect("header");
    assert_eq!((header.size, header.align), (7, 1));
    assert_eq!(header.fields[2].offset, 1);
    let test = test_returning(&report, 1);
    let object = match &test.inputs.args[0] {
        Value::Pointer { object, .. } => &test.inputs.objects[object.0 as usize],
        other => panic!("a pointer: {other:?}"),
    };
    let fields = members(&object.init[0]);
    assert_eq!((fields[2], fields[3]), (0x01020304, 0xabc));
}

const INITIALIZED: &str = r#"
struct cfg { unsigned a : 3; int b : 5; unsigned : 2; unsigned c : 7; long long d : 40; };
static struct cfg config = { 5, -7, 100, -3 };
long read_config(void) { return config.a * 10000 + config.b * 100 + config.c + config.d * 1000000; }
"#;

#[test]
fn constant_initializers_set_each_fields_bits() {
    let (_, report) = run(INITIALIZED, "read_config");
    assert_eq!(
        ret(&report.tests[0]),
        5 * 10000 - 7 * 100 + 100 - 3 * 1000000
    );
}

const ODD_WIDTH: &str = r#"
struct t { long v : 36; };
long odd_width_temporary(struct t x, int c) {
    long old = x.v++;
    long now = c ? x.v : 0;
    if (old > 0x100000000L && c) return -1;
    return old * 2 + now;
}
"#;

#[test]
fn values_of_a_fields_own_width_survive_temporaries() {
    let (_, report) = run(ODD_WIDTH, "odd_width_temporary");
    assert_all_covered(&report);
    for t in &report.tests {
        let old = struct_arg(t)[0];
        let c = arg(t, 1);
        let expected = if old > 0x1_0000_0000 && c != 0 {
            -1
        } else {
            old * 2 + if c != 0 { old + 1 } else { 0 }
        };
        assert_eq!(ret(t), expected, "{t:?}");
    }
}
