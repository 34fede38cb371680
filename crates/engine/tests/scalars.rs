mod common;

use common::*;

const TRIANGLE: &str = r#"
int triangle(int a, int b, int c) {
    if (a <= 0 || b <= 0 || c <= 0) return 0;
    if (a + b <= c || a + c <= b || b + c <= a) return 1;
    if (a == b && b == c) return 2;
    if (a == b || b == c || a == c) return 3;
    return 4;
}
"#;

/// A reference implementation for checking the predicted return values.
fn triangle(a: i128, b: i128, c: i128) -> i128 {
    if a <= 0 || b <= 0 || c <= 0 {
        0
    } else if a + b <= c || a + c <= b || b + c <= a {
        1
    } else if a == b && b == c {
        2
    } else if a == b || b == c || a == c {
        3
    } else {
        4
    }
}

#[test]
fn triangle_reaches_every_goal_with_correct_predictions() {
    let (_, report) = run(TRIANGLE, "triangle");
    assert_all_covered(&report);
    let mut kinds: Vec<i128> = Vec::new();
    for t in &report.tests {
        // A test covers a new branch, or sits at a comparison's edge.
        assert!(!t.new_goals.is_empty() || !t.boundaries.is_empty());
        let r = ret(t);
        assert_eq!(r, triangle(arg(t, 0), arg(t, 1), arg(t, 2)), "test {t:?}");
        kinds.push(r);
    }
    kinds.sort();
    kinds.dedup();
    assert_eq!(kinds, vec![0, 1, 2, 3, 4]);
}

#[test]
fn division_by_zero_and_overflow_are_findings_with_reproducing_inputs() {
    let src = r#"
int ratio(int a, int b) {
    if (a > 100) return a / b;
    return a * 2;
}
"#;
    let (_, report) = run(src, "ratio");
    assert_all_covered(&report);
    let kinds: Vec<&str> = report.findings.iter().map(|f| f.kind.slug()).collect();
    assert!(kinds.contains(&"division-by-zero"), "{kinds:?}");
    assert!(kinds.contains(&"signed-overflow"), "{kinds:?}");
    for f in &report.findings {
        let a = int(&f.inputs.args[0]);
        let b = int(&f.inputs.args[1]);
        match f.kind.slug() {
            "division-by-zero" => assert!(a > 100 && b == 0),
            "signed-overflow" => assert!(
                (a <= 100 && (a * 2 > i32::MAX as i128 || a * 2 < i32::MIN as i128))
                    || (a == i32::MIN as i128 && b == -1)
            ),
            other => panic!("unexpected finding {other}"),
        }
    }
    // Normal tests never divide by zero.
    for t in &report.tests {
        if arg(t, 0) > 100 {
            assert_ne!(arg(t, 1), 0);
            assert_eq!(ret(t), arg(t, 0) / arg(t, 1));
        }
    }
}

#[test]
fn shifts_casts_and_unsigned_wraparound_are_bit_exact() {
    let src = r#"
unsigned mix(unsigned x, int s) {
    unsigned char low = (unsigned char)(x + 250u);
    signed char sc = (signed char)x;
    int shifted = (int)sc >> 2;
    unsigned wrapped = x - 7u;
    if (low == 3) return 2u;
    if (shifted == -1 && wrapped > 4000000000u) return 1u;
    return (unsigned)shifted ^ wrapped;
}
"#;
    let (_, report) = run(src, "mix");
    assert_all_covered(&report);
    for t in &report.tests {
        let x = arg(t, 0) as u32;
        let low = x.wrapping_add(250) as u8;
        let shifted = (x as u8 as i8 as i32) >> 2;
        let wrapped = x.wrapping_sub(7);
        let expected = if low == 3 {
            2
        } else if shifted == -1 && wrapped > 4_000_000_000 {
            1
        } else {
            (shifted as u32) ^ wrapped
        };
        assert_eq!(ret(t) as u32, expected, "x = {x:#x}");
    }
}

#[test]
fn shift_out_of_range_is_a_finding() {
    let src = "int sh(int x, int n) { return x << n; }";
    let (_, report) = run(src, "sh");
    let f = report
        .findings
        .iter()
        .find(|f| f.kind.slug() == "shift-out-of-range")
        .expect("finding");
    let n = int(&f.inputs.args[1]);
    assert!(!(0..32).contains(&n));
}

#[test]
fn a_signed_left_shift_into_the_sign_bit_is_a_finding() {
    // faad2's bit reader: `1 << 31` on an `int` ends a test built with
    // -fsanitize=undefined, so no test may take it, and it is a finding.
    let src = r#"
int bit(unsigned word, int i)
{
    if (word & (1 << i))
        return 1;
    return 0;
}
"#;
    let (_, report) = run(src, "bit");
    assert_all_covered(&report);
    for t in &report.tests {
        let i = arg(t, 1);
        assert!((0..31).contains(&i), "{t:?}");
        assert_eq!(ret(t), i128::from((arg(t, 0) as u32 >> i) & 1), "{t:?}");
    }
    let f = report
        .findings
        .iter()
        .find(|f| f.message.contains("signed left shift"))
        .expect("a finding");
    assert_eq!(f.kind.slug(), "signed-overflow");
    assert_eq!(int(&f.inputs.args[1]), 31);
}

/// Copying `p` to `q` copies the padding after `tag`: no fault.
#[test]
fn a_local_read_before_any_write_is_a_finding() {
    let src = r#"
struct pair { char tag; long value; };
int fill(int *out);
int pick(int c) {
    int x;
    if (c > 10)
        x = 1;
    return x;
}
int through_stub(void) {
    int v;
    fill(&v);
    return v;
}
long copy_pair(int c) {
    struct pair p, q;
    p.tag = 1;
    p.value = c;
    q = p;
    return q.value;
}
"#;
    let (_, report) = run(src, "pick");
    let [uninit] = report.findings.as_slice() else {
        panic!("{:?}", report.findings)
    };
    assert_eq!(uninit.kind, testcase::FindingKind::UninitializedRead);
    assert!(int(&uninit.inputs.args[0]) <= 10);
    assert!(arg(test_returning(&report, 1), 0) > 10);
    for clean in ["through_stub", "copy_pair"] {
        let (_, report) = run(src, clean);
        assert!(report.findings.is_empty(), "{clean}: {:?}", report.findings);
    }
}

/// A member never set stays unset where its struct is copied (a callee's
/// parameter, an assignment), and an element read at an input's index may
/// be one never written: each is an uninitialised read, not a value the
/// engine makes up and a test then expects.
#[test]
fn an_unset_member_stays_unset_through_copies_and_indexed_reads() {
    let src = r#"
struct disc { int present; int total; int pos[8]; };
static void probe(struct disc *d, int have) {
    d->present = have;
    if (have) {
        d->total = 3;
        for (int i = 0; i < 3; i++)
            d->pos[i] = 10 * i;
    }
}
static int total_of(struct disc d) { return d.total; }
int by_value(int have) {
    struct disc d;
    probe(&d, have);
    return total_of(d) + 1;
}
int assigned(int have) {
    struct disc d, e;
    probe(&d, have);
    e = d;
    return e.total;
}
int indexed(int i) {
    struct disc d;
    probe(&d, 1);
    if (i < 0 || i >= 8)
        return -1;
    return d.pos[i];
}
"#;
    for func in ["by_value", "assigned", "indexed"] {
        let (_, report) = run(src, func);
        let [uninit] = report.findings.as_slice() else {
            panic!("{func}: {:?}", report.findings)
        };
        assert_eq!(
            uninit.kind,
            testcase::FindingKind::UninitializedRead,
            "{func}"
        );
        match func {
            "indexed" => {
                assert!((3..8).contains(&int(&uninit.inputs.args[0])), "{func}");
                // The tests read only what was written.
                for t in &report.tests {
                    assert!(arg(t, 0) < 3 || ret(t) == -1, "{func}: {t:?}");
                }
            }
            _ => {
                assert_eq!(int(&uninit.inputs.args[0]), 0, "{func}");
                for t in &report.tests {
                    assert_ne!(arg(t, 0), 0, "{func}: {t:?}");
                }
            }
        }
    }
}

/// A struct a function without a body may have filled beyond what its stub
/// scripts (larger than a stub writes) is not passed on by value as if its
/// bytes were known: the callee would read what no test sets.
#[test]
fn a_struct_a_stub_may_have_filled_is_not_copied_as_known() {
    let src = r#"
struct big { int n; int a[400]; };
void fill(struct big *b);
static int count_of(struct big b) { return b.n; }
int counted(void) {
    struct big b;
    fill(&b);
    if (count_of(b) > 3)
        return 1;
    return 0;
}
"#;
    let (_, report) = run(src, "counted");
    assert!(report.tests.is_empty(), "{:?}", report.tests);
    assert_eq!(
        report.untested,
        Some(testcase::Uncovered::Budget(testcase::Bound::StubEffects))
    );
}
