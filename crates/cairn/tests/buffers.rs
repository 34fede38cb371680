//! End-to-end: a buffer passed with its capacity (`copy(buf, cap)`) is
//! allocated as long as the capacity says in every test, as any caller of
//! the library would, even where the path reads less of it; a struct
//! ending in a flexible array member is one struct with room for its
//! member, set and checked through the member's name. A large table a call
//! fills is checked in loops and up to a bound, and a call on a table its
//! constructor built checks what the call changed. The drivers pass under
//! the sanitizers.

mod common;

use common::{gen_checked, gen_checked_with};
use serde_json::Value;

const SOURCE: &str = r#"#include <stddef.h>
#include <string.h>

int copy_name(char *buf, size_t cap, const char *src)
{
    size_t i = 0;
    if (cap == 0)
        return -1;
    for (; i + 1 < cap && src[i] != '\0'; i++)
        buf[i] = src[i];
    buf[i] = '\0';
    return (int)i;
}

void copy_words(unsigned short *dst, const unsigned short *src, size_t count)
{
    for (size_t i = 0; i < count; i++)
        dst[i] = src[i] == 0xffff ? 0 : src[i];
}

int wipe(int *words, int value, size_t width)
{
    memset(words, value, width);
    return width > 4 ? words[1] : -1;
}
"#;

/// (function, pointer argument, count argument, bytes per counted unit).
const CLAIMS: [(&str, usize, usize, u64); 4] = [
    ("copy_name", 0, 1, 1),
    ("copy_words", 0, 2, 2),
    ("copy_words", 1, 2, 2),
    ("wipe", 0, 2, 1),
];

#[test]
fn buffers_hold_the_capacity_their_call_claims() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (_, _, out_dir) = gen_checked(dir.path(), "buffers.c", SOURCE);
    let json = std::fs::read_to_string(out_dir.join("buffers.tests.json")).expect("tests.json");
    let report: Value = serde_json::from_str(&json).expect("valid JSON");
    let mut claims_checked = 0;
    for function in report["functions"].as_array().expect("functions") {
        let name = function["name"].as_str().expect("name");
        for test in function["tests"].as_array().expect("tests") {
            let inputs = &test["inputs"];
            for &(_, pointer, count, unit) in CLAIMS.iter().filter(|c| c.0 == name) {
                let args = inputs["args"].as_array().expect("args");
                let Some(object) = args[pointer]["value"]["object"].as_str() else {
                    continue; // NULL
                };
                let offset = args[pointer]["value"]["offset"].as_u64().expect("offset");
                let claimed = args[count]["value"].as_u64().expect("count") * unit;
                let held = inputs["objects"]
                    .as_array()
                    .expect("objects")
                    .iter()
                    .find(|o| o["name"] == object)
                    .map(|o| o["len"].as_u64().expect("len") * elem_size(&o["elem_type"]))
                    .expect("the object the argument points to");
                assert!(
                    offset + claimed <= held,
                    "{}: {claimed} bytes claimed at offset {offset}, {held} allocated",
                    test["name"]
                );
                claims_checked += 1;
            }
        }
    }
    assert!(claims_checked >= 6, "only {claims_checked} claims seen");
}

fn elem_size(ty: &Value) -> u64 {
    match ty.as_str() {
        Some("char") => 1,
        Some("unsigned short") => 2,
        Some("int") => 4,
        other => panic!("unexpected element type {other:?}"),
    }
}

const PACKET: &str = r#"struct packet {
    unsigned short kind;
    unsigned short size;
    unsigned char data[];
};

/* Folds the payload's sum into its first byte. */
int fold_checksum(struct packet *p)
{
    unsigned sum = 0;
    if (p->size == 0 || p->size > 4)
        return -1;
    for (unsigned short i = 0; i < p->size; i++)
        sum += p->data[i];
    if (sum == 0)
        return 0;
    p->data[0] = (unsigned char)(p->data[0] ^ sum);
    return p->data[0] == 0 ? 1 : 2;
}
"#;

#[test]
fn a_flexible_array_member_is_allocated_after_its_struct_and_used_by_name() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (_, _, out_dir) = gen_checked_with(dir.path(), "packet.c", PACKET, &["--sanitize"]);
    let driver = std::fs::read_to_string(out_dir.join("packet_test.c")).expect("driver");
    for expected in [
        "calloc(1, sizeof *p_in + ",
        " * sizeof p_in->data[0]); /* *p */",
        "p_in->data",
        "\"p_in->data[0] is\", p_in->data[0], 0);",
    ] {
        assert!(driver.contains(expected), "{expected}\n{driver}");
    }
    assert!(!driver.contains("p_in[1]"), "{driver}");
}

/// A string a declared-only function returns may be the caller's own
/// buffer; bounded copies from it count its NUL as read, as AddressSanitizer
/// does (`strncpy-param-overlap`), so no test hands back the destination.
const BOUNDED_COPIES: &str = r#"#include <string.h>

const char *lookup(const char *key);

int copy_port(char *port)
{
    const char *p = lookup("port");
    int same = 0;
    if (p == NULL)
        return -1;
    if (p == port)
        same = 1;
    strncpy(port, p, 6);
    port[5] = '\0';
    return same;
}

int append_port(char *line)
{
    const char *p = lookup("port");
    if (p == NULL)
        return -1;
    line[0] = '\0';
    strncat(line, p, 6);
    return line[0] == '8';
}
"#;

#[test]
fn bounded_string_copies_never_overlap_as_the_sanitizers_count_them() {
    let dir = tempfile::tempdir().expect("temp dir");
    // gen_checked: every test passes under the sanitizers, none left out.
    let (stdout, _, _) = gen_checked(dir.path(), "ports.c", BOUNDED_COPIES);
    assert!(!stdout.contains("left out"), "{stdout}");
    // The copy from the buffer to itself is no test's: C leaves it undefined.
    assert!(common::covers(&stdout, "copy_port", "3/4"), "{stdout}");
}

/// A hash table of many buckets, made by its constructor, and a call that
/// changes one of its marks.
const TABLE: &str = r#"#include <stdlib.h>
#define BUCKETS 4096
struct entry { int key; struct entry *next; };
struct table { struct entry *buckets[BUCKETS]; unsigned char marks[600]; };

struct table *table_new(unsigned char first) {
    struct table *t = malloc(sizeof *t);
    int i;
    if (t == NULL)
        return NULL;
    for (i = 0; i < BUCKETS; i++)
        t->buckets[i] = NULL;
    for (i = 0; i < 600; i++)
        t->marks[i] = (unsigned char)(first + i);
    return t;
}

int table_mark(struct table *t, int at) {
    if (at < 0 || at >= 600)
        return -1;
    t->marks[at]++;
    return t->marks[at];
}
"#;

#[test]
fn a_large_table_is_checked_in_loops_up_to_a_bound_and_only_where_a_call_changed_it() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (_, _, out) = gen_checked_with(dir.path(), "table.c", TABLE, &["--sanitize"]);
    let driver = std::fs::read_to_string(out.join("table_test.c")).expect("driver");
    let test_of = |name: &str| {
        let start = driver
            .find(&format!("static int test_{name}"))
            .expect("a test");
        let end = driver[start..].find("\n}\n").expect("its end") + start;
        driver[start..end].to_string()
    };
    // The null buckets in one loop; the marks past the bound left out.
    let made = test_of("table_new");
    assert!(made.contains("for (cairn_k = 0; cairn_k <= "), "{made}");
    assert!(
        made.contains("values the call wrote are not checked: a test checks at most 256"),
        "{made}"
    );
    assert!(made.len() < 20_000, "{made}");
    // After `table_new`, a mark and the value returned: nothing the constructor wrote.
    let marked = test_of("table_mark_returns");
    let checks: Vec<_> = marked
        .lines()
        .filter(|l| l.contains("cairn_expect"))
        .collect();
    assert!(checks.iter().any(|l| l.contains("->marks[")), "{marked}");
    assert!(checks.iter().all(|l| !l.contains("->buckets[")), "{marked}");
    assert!(checks.len() <= 3, "{marked}");
}
