mod common;

use common::*;
use testcase::{InputObject, Root, Step, TestCase, Value};

fn object(t: &TestCase, arg: usize) -> &InputObject {
    match &t.inputs.args[arg] {
        Value::Pointer { object, offset: 0 } => &t.inputs.objects[object.0 as usize],
        other => panic!("argument {arg} is not a pointer to an input object: {other:?}"),
    }
}

/// The elements of an input array; one its path never read is left 0, as
/// the driver leaves it.
fn ints(o: &InputObject) -> Vec<i128> {
    o.init
        .iter()
        .map(|v| match v {
            Value::Unknown => 0,
            known => int(known),
        })
        .collect()
}

const SEARCH: &str = r#"
typedef unsigned long size_t;
int find(const int *a, size_t n, int key) {
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (a[mid] == key) return (int)mid;
        if (a[mid] < key) lo = mid + 1;
        else hi = mid;
    }
    return -1;
}
"#;

fn find(a: &[i128], n: usize, key: i128) -> i128 {
    let (mut lo, mut hi) = (0, n);
    while lo < hi {
        let mid = lo + (hi - lo) / 2;
        if a[mid] == key {
            return mid as i128;
        }
        if a[mid] < key {
            lo = mid + 1
        } else {
            hi = mid
        }
    }
    -1
}

#[test]
fn binary_search_gets_arrays_of_chosen_lengths() {
    let (_, report) = run(SEARCH, "find");
    assert_all_covered(&report);
    assert!(report.findings.is_empty(), "{:?}", report.findings);
    for t in &report.tests {
        let n = arg(t, 1) as usize;
        if n == 0 {
            assert_eq!(ret(t), -1);
            continue;
        }
        let a = object(t, 0);
        assert!(a.len as usize >= n, "array of {} for n = {n}", a.len);
        // One element is named as the pointee it is.
        let name = if a.len == 1 { "*a" } else { "a" };
        assert_eq!(a.name, name);
        assert_eq!(ret(t), find(&ints(a), n, arg(t, 2)));
    }
}

#[test]
fn string_scan_gets_nul_terminated_strings() {
    let src = r#"
int count_digits(const char *s) {
    int n = 0;
    while (*s) {
        if (*s >= '0' && *s <= '9') n++;
        s++;
    }
    return n;
}
"#;
    let (_, report) = run(src, "count_digits");
    assert_all_covered(&report);
    assert!(report.findings.is_empty(), "{:?}", report.findings);
    for t in &report.tests {
        let s = object(t, 0);
        let bytes = ints(s);
        let end = bytes.iter().position(|b| *b == 0).expect("NUL-terminated");
        let digits = bytes[..end]
            .iter()
            .filter(|b| (48..=57).contains(*b))
            .count();
        assert_eq!(ret(t), digits as i128);
    }
}

#[test]
fn out_parameters_are_checked() {
    let src = r#"
struct parts { int hi; unsigned char lo; };
void split(unsigned v, int *count, struct parts *res) {
    res->hi = (int)(v >> 8);
    res->lo = (unsigned char)v;
    if (v > 255) *count = *count + 1;
}
"#;
    let (_, report) = run(src, "split");
    assert_all_covered(&report);
    for t in &report.tests {
        let v = arg(t, 0) as u32;
        let names: Vec<&str> = t.inputs.objects.iter().map(|o| o.name.as_str()).collect();
        assert!(names.contains(&"*res"), "{names:?}");
        let check = |root_name: &str, path: &[Step]| {
            let id = t
                .inputs
                .objects
                .iter()
                .position(|o| o.name == root_name)
                .expect("object");
            t.checks
                .iter()
                .find(|c| c.root == Root::Object(testcase::ObjectId(id as u32)) && c.path == path)
                .map(|c| int(&c.expected))
        };
        assert_eq!(
            check("*res", &[Step::Index(0), Step::Field(0)]),
            Some((v >> 8) as i128)
        );
        assert_eq!(
            check("*res", &[Step::Index(0), Step::Field(1)]),
            Some((v & 255) as i128)
        );
        if v > 255 {
            let before = int(&t
                .inputs
                .objects
                .iter()
                .find(|o| o.name == "*count")
                .expect("count")
                .init[0]);
            assert_eq!(
                check("*count", &[Step::Index(0)]),
                Some((before as i32).wrapping_add(1) as i128)
            );
        }
    }
}

#[test]
fn symbolic_index_is_exact() {
    let src = r#"
int pick(int i) {
    int table[6] = {5, 9, 13, 17, 21, 25};
    if (i < 0 || i >= 6) return -1;
    table[i] = table[i] + 100;
    if (table[3] == 117) return 1;
    return table[(i + 1) % 6];
}
"#;
    let (_, report) = run(src, "pick");
    assert_all_covered(&report);
    let table = [5, 9, 13, 17, 21, 25];
    for t in &report.tests {
        let i = arg(t, 0);
        let expected = if !(0..6).contains(&i) {
            -1
        } else if i == 3 {
            1
        } else {
            table[((i + 1) % 6) as usize] + if (i + 1) % 6 == i { 100 } else { 0 }
        };
        assert_eq!(ret(t), expected, "i = {i}");
    }
    assert!(
        report.tests.iter().any(|t| arg(t, 0) == 3),
        "only i == 3 reaches `return 1`"
    );
}

#[test]
fn out_of_bounds_index_is_a_finding() {
    let src = r#"
int get(int i) {
    int a[4] = {1, 2, 3, 4};
    return a[i];
}
"#;
    let (_, report) = run(src, "get");
    let f = report
        .findings
        .iter()
        .find(|f| f.kind.slug() == "out-of-bounds")
        .expect("finding");
    let i = int(&f.inputs.args[0]);
    assert!(!(0..4).contains(&i));
    for t in &report.tests {
        assert_eq!(ret(t), [1, 2, 3, 4][arg(t, 0) as usize]);
    }
}

#[test]
fn null_checked_pointer_gets_null_and_object() {
    let src = r#"
int deref_or(const int *p, int dflt) {
    if (p == 0) return dflt;
    return *p;
}
"#;
    let (_, report) = run(src, "deref_or");
    assert_all_covered(&report);
    assert!(report.tests.iter().any(|t| t.inputs.args[0] == Value::Null));
    for t in &report.tests {
        if let Value::Pointer { .. } = t.inputs.args[0] {
            assert_eq!(ret(t), int(&object(t, 0).init[0]));
            assert_eq!(object(t, 0).name, "*p");
        }
    }
}

#[test]
fn struct_return_and_struct_copy_are_exact() {
    let src = r#"
struct pair { short a; int b; };
struct pair swap(struct pair p) {
    struct pair q = p;
    q.a = (short)p.b;
    q.b = p.a;
    if (q.a < 0) q.b = -1;
    return q;
}
"#;
    let (_, report) = run(src, "swap");
    assert_all_covered(&report);
    for t in &report.tests {
        let Value::Struct(fields) = &t.inputs.args[0] else {
            panic!("struct argument")
        };
        let (a, b) = (int(&fields[0]), int(&fields[1]));
        let qa = b as i16 as i128;
        let qb = if qa < 0 { -1 } else { a };
        let Some(Value::Struct(out)) = &t.ret else {
            panic!("struct return")
        };
        assert_eq!((int(&out[0]), int(&out[1])), (qa, qb));
        let parts: Vec<i128> = t
            .checks
            .iter()
            .filter(|c| c.root == Root::Return)
            .map(|c| int(&c.expected))
            .collect();
        assert_eq!(parts, vec![qa, qb]);
    }
}

#[test]
fn heap_blocks_and_their_faults() {
    let src = r#"
typedef unsigned long size_t;
void *malloc(size_t n);
void free(void *p);
int sum_squares(int n) {
    int *sq = malloc(4 * sizeof(int));
    for (int i = 0; i < 4; i++) sq[i] = i * i;
    int total = 0;
    if (n >= 0 && n < 4) total = sq[n];
    free(sq);
    if (n == 7) free(sq);
    if (n == 8) return sq[0];
    return total;
}
"#;
    let (_, report) = run(src, "sum_squares");
    let slugs: Vec<&str> = report.findings.iter().map(|f| f.kind.slug()).collect();
    assert!(slugs.contains(&"double-free"), "{slugs:?}");
    assert!(slugs.contains(&"use-after-free"), "{slugs:?}");
    for f in &report.findings {
        let n = int(&f.inputs.args[0]);
        match f.kind.slug() {
            "double-free" => assert_eq!(n, 7),
            "use-after-free" => assert_eq!(n, 8),
            other => panic!("unexpected {other}"),
        }
    }
    for t in &report.tests {
        let n = arg(t, 0);
        assert_eq!(ret(t), if (0..4).contains(&n) { n * n } else { 0 });
    }
    assert_eq!(
        report.uncovered.len(),
        2,
        "n == 7 and n == 8 taken only by faulting paths"
    );
    for (_, why) in &report.uncovered {
        assert!(
            matches!(why, testcase::Uncovered::Unsupported(w) if w.contains("finding")),
            "{why:?}"
        );
    }
}

#[test]
fn a_key_repeated_on_a_list_is_found_through_a_table_at_symbolic_indices() {
    // Each iteration writes `seen` at a symbolic index: on a cyclic input
    // list the same index again and again, which must not grow the terms
    // until the time budget runs out.
    let src = r#"
struct node { int key; struct node *next; };
int distinct(const struct node *h) {
    int seen[8] = {0};
    int d = 0;
    for (; h; h = h->next) {
        if (h->key < 0 || h->key > 7) continue;
        if (seen[h->key] == 0) d++;
        seen[h->key] = 1;
    }
    return d;
}
"#;
    let config = engine::EngineConfig {
        max_time: std::time::Duration::from_secs(5),
        ..config()
    };
    let (_, report) = run_with(src, "distinct", &config);
    assert_all_covered(&report);
    for t in &report.tests {
        let mut keys = Vec::new();
        let mut at = t.inputs.args[0].clone();
        while let Value::Pointer { object, offset: 0 } = at {
            let Value::Struct(fields) = &t.inputs.objects[object.0 as usize].init[0] else {
                panic!("a node")
            };
            keys.push(int(&fields[0]));
            at = fields[1].clone();
        }
        keys.retain(|k| (0..8).contains(k));
        keys.sort();
        keys.dedup();
        assert_eq!(ret(t), keys.len() as i128, "{:?}", t.inputs);
    }
}

/// A flood fill of a 4x4 board from a symbolic cell: fixing the cell's
/// coordinates once (16 choices) makes the recursion concrete work, which
/// `max_depth` does not cut; before, reads at symbolic places nested case
/// splits and every query grew until the budget ran out.
#[test]
fn a_flood_fill_from_a_symbolic_cell_is_concrete_work() {
    let src = r#"
static int paint(int cells[4][4], int r, int c)
{
    if (r < 0 || r >= 4 || c < 0 || c >= 4)
        return 0;
    if (cells[r][c] != 0)
        return 0;
    cells[r][c] = 2;
    return 1 + paint(cells, r + 1, c) + paint(cells, r - 1, c) +
           paint(cells, r, c + 1) + paint(cells, r, c - 1);
}

int reaches_corner(int r, int c)
{
    int cells[4][4] = {{0}};
    int i;
    for (i = 0; i < 4; i++)
        cells[i][2] = 1;
    if (r < 0 || r >= 4 || c < 0 || c >= 4 || cells[r][c] != 0)
        return -1;
    paint(cells, r, c);
    if (cells[0][3] == 2)
        return 1;
    return 0;
}
"#;
    let (_, report) = run(src, "reaches_corner");
    assert_all_covered(&report);
    // A few hundred: about 20 per test (each board's fixed coordinates),
    // where the nested case splits took thousands and the whole budget.
    assert!(
        report.stats.solver_calls < 400,
        "{} solver calls",
        report.stats.solver_calls
    );
    // Painting from the right of the wall reaches the corner, from its
    // left it does not: both are found.
    for expected in [0, 1] {
        test_returning(&report, expected);
    }
}

/// A CRC table built by a loop of 256 times 8 steps: 2,048 entries into
/// the inner loop, more than `max_iterations`, but none of them learns
/// anything about the inputs, so the loop is concrete work and runs to
/// its end.
#[test]
fn a_table_built_by_a_long_concrete_loop_is_not_cut() {
    let src = r#"
static unsigned table[256];

int crc_of_byte_is_odd(unsigned char byte)
{
    unsigned i, k, c;
    for (i = 0; i < 256; i++) {
        c = i;
        for (k = 0; k < 8; k++)
            c = (c & 1) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
        table[i] = c;
    }
    if (table[byte] & 1)
        return 1;
    return 0;
}
"#;
    let config = engine::EngineConfig {
        max_iterations: 1000,
        ..config()
    };
    let (_, report) = run_with(src, "crc_of_byte_is_odd", &config);
    assert_all_covered(&report);
}

/// `p < r + n` with `n < 0` is false: `r + n` lies before `r` (dmalloc's
/// `preprocess_array(args, -1)`). Before, offsets were compared unsigned,
/// the loop ran, and the test expected what the run never did.
#[test]
fn a_pointer_before_an_objects_start_orders_below_it() {
    let src = r#"
struct rec { int a; int b; };
int count_before(struct rec *r, int n)
{
    int k = 0;
    for (struct rec *p = r; p < r + n; p++)
        k++;
    return k;
}
"#;
    let (_, report) = run(src, "count_before");
    assert!(
        report.tests.iter().any(|t| arg(t, 1) < 0),
        "{:?}",
        report.tests
    );
    for t in &report.tests {
        assert_eq!(ret(t), arg(t, 1).max(0), "{t:?}");
    }
}

/// A large state struct behind a pointer, of which the function reads one
/// member: only that member becomes an input (the bytes of the others are
/// made on a first read, which never comes), so the search is as quick as
/// for a small struct and the test sets nothing else.
#[test]
fn only_the_members_a_path_reads_become_inputs() {
    let src = r#"
struct state { char log[16][1024]; int mode; struct state *next; char tail[30000]; };
int in_mode(const struct state *s, int mode)
{
    return s->mode == mode ? 1 : 0;
}
"#;
    let (_, report) = run(src, "in_mode");
    assert_all_covered(&report);
    for t in &report.tests {
        let state = object(t, 0);
        let Value::Struct(members) = &state.init[0] else {
            panic!("not a struct: {:?}", state.init[0]);
        };
        assert_eq!(members[0], Value::Unknown, "{t:?}");
        assert_eq!(members[2], Value::Unknown, "{t:?}");
        assert_eq!(members[3], Value::Unknown, "{t:?}");
        assert_eq!(ret(t), i128::from(int(&members[1]) == arg(t, 1)));
    }
}
