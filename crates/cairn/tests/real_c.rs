//! End-to-end: the C that old real code is written in, through the real
//! binary with `--check --sanitize`: calls of C library functions never
//! declared (C89's implicit declarations, as gcc 12 makes them), C library
//! functions the source declares itself with types of its own (`char
//! *malloc();`), whose drivers must still compile, and a project whose
//! compile command needs `-iquote`, `-include` and `-std=gnu89`, which the
//! driver must be built with too.

mod common;

use common::{arg, cairn, covers, gen_checked_with, text};

/// Runs `gen --check` (with `extra`) on `source` written as `name`, asserts
/// that each function covers what gcov measured, and returns the output.
fn checked_coverage(name: &str, source: &str, extra: &[&str], expected: &[(&str, &str)]) -> String {
    let dir = tempfile::tempdir().expect("temp dir");
    let (stdout, _, _) = gen_checked_with(dir.path(), name, source, extra);
    for (function, ratio) in expected {
        assert!(covers(&stdout, function, ratio), "{function}: {stdout}");
    }
    stdout
}

/// Functions calling the C library without its headers, a function
/// declared nowhere and one declared without a prototype (stubs).
const IMPLICIT: &str = r#"/* Old-style C that calls the C library without including its headers. */
int
parse_sign(s)
char *s;
{
    if (strcmp(s, "-") == 0)
        return -1;
    if (strlen(s) > 3)
        return 2;
    return atoi(s) > 0;
}

int
checked(n)
int n;
{
    if (n < 0)
        exit(1);
    return abs(n - 10);
}

int
helper_twice(x)
int x;
{
    return undeclared_helper(x) * 2;
}

/* Declared without a prototype, returning a signed char. */
typedef signed char flag;
flag transfer_enabled();

int
permitted(n)
int n;
{
    if (!transfer_enabled())
        return 0;
    return n > 3;
}
"#;

/// C library functions declared by the source with types other than the
/// library's: the driver's own headers would conflict with them.
const SELF_DECLARED: &str = r#"/* Old code that declares the C library functions it uses itself. */
char *malloc();
void free();
int strlen();
char *strcpy();

struct item {
    int key;
    char *name;
};

struct item *
make_item(key, name)
int key;
char *name;
{
    struct item *it;
    unsigned long size;
    it = (struct item *) malloc(sizeof(struct item));
    if (it == 0)
        return 0;
    it->key = key;
    size = strlen(name);
    it->name = malloc(size + 1);
    if (it->name == 0) {
        free(it);
        return 0;
    }
    strcpy(it->name, name);
    return it;
}

int
name_length(it)
struct item *it;
{
    if (it == 0 || it->name == 0)
        return -1;
    return strlen(it->name);
}
"#;

/// A function a header declares, which the file then renames by a macro
/// to define its own copy (as a client that includes the library's `.c`
/// file does): the driver stubs the declared one under its own name.
const RENAMED: &str = r#"void encrypt_bytes(unsigned char *bytes, const char *key);

#define encrypt_bytes client_encrypt_bytes

void encrypt_bytes(unsigned char *bytes, const char *key)
{
    while (*key)
        *bytes++ ^= (unsigned char)*key++;
}

int challenge(unsigned char *bytes, const char *key)
{
    if (key == 0)
        return -1;
    encrypt_bytes(bytes, key);
    return bytes[0] == 0;
}
"#;

/// A family of structs that begin with a common part (or the same tag
/// member, as `struct sockaddr`'s): the code converts a pointer to the
/// common part to the struct its tag names, and the test must allocate
/// that struct and set the members only it has, pointers included.
const FAMILY: &str = r#"/* Structs of one family: each begins with the common part (or the same tag
 * member) and code converts a pointer to the common part to the member of
 * the family its tag names. */
#include <stddef.h>
#include <sys/socket.h>
#include <netinet/in.h>

enum kind { LEAF, PAIR };
struct node { enum kind kind; };
struct leaf { struct node base; int value; };
struct pair { struct node base; struct node *left, *right; };

int shape(const struct node *n)
{
    if (n == NULL)
        return 0;
    if (n->kind == LEAF)
        return ((const struct leaf *)n)->value > 100 ? 2 : 1;
    const struct pair *p = (const struct pair *)n;
    if (p->left == NULL || p->right == NULL)
        return -1;
    return p->left->kind == PAIR ? 3 : 4;
}

int scope_of(const struct sockaddr *address)
{
    if (address->sa_family == AF_INET6) {
        const struct sockaddr_in6 *six = (const struct sockaddr_in6 *)address;
        return six->sin6_scope_id == 7 ? 2 : 1;
    }
    return address->sa_family == AF_INET ? 0 : -1;
}
"#;

/// A parser that ends the process on bad input, as command-line programs
/// do (`exit`, `errx`): its tests expect the status, so every branch is
/// covered, and a test fails when the code exits with another status or
/// returns. `fileno(stderr)` is 2.
const EXITS: &str = r#"#include <err.h>
#include <stdio.h>
#include <stdlib.h>
static void die(const char *what)
{
    fprintf(stderr, "fatal: %s\n", what);
    exit(2);
}
int parse_level(const char *s)
{
    int n = 0;
    if (s == NULL)
        die("no level");
    while (*s >= '0' && *s <= '9') {
        n = n * 10 + (*s - '0');
        if (n > 99)
            die("level too high");
        s++;
    }
    if (*s != '\0')
        die("not a number");
    return n;
}

int check_mode(int mode)
{
    if (mode < 0)
        errx(3, "bad mode %d", mode);
    if (mode > 7)
        warnx("mode %d is high", mode);
    return fileno(stderr) == 2 ? mode : -1;
}
"#;

/// A source that asks for strict POSIX (of 2001, or of 1990 as libpng
/// does), which hides `SA_RESETHAND`, `CLOCK_MONOTONIC` and `on_exit`
/// from the headers the driver shares with it.
const STRICT_POSIX: &str = r#"#define POSIX_LEVEL
#include <stdlib.h>
int clamp(int x) { if (x > 10) return 10; if (x < 0) exit(4); return x; }
"#;

/// A header that bans the C library's allocator in favour of its own.
const POOL_H: &str = r#"#include <stdlib.h>
static void *pool_alloc(size_t n) { return malloc(n); }
static void pool_release(void *p) { free(p); }
#pragma GCC poison malloc calloc realloc free
"#;

const POISONED: &str = r#"#include "pool.h"
struct node { int value; struct node *next; };
struct node *push_positive(struct node *head, int value)
{
    struct node *n;
    if (value <= 0)
        return head;
    n = pool_alloc(sizeof *n);
    if (!n)
        return head;
    n->value = value;
    n->next = head && head->value > value ? head->next : head;
    return n;
}
void drop_first(struct node *head) { if (head) pool_release(head); }
"#;

#[test]
fn a_source_that_poisons_the_allocator_gets_drivers_that_compile() {
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::write(dir.path().join("pool.h"), POOL_H).expect("write header");
    let (stdout, _, out_dir) =
        gen_checked_with(dir.path(), "poisoned.c", POISONED, &["--sanitize"]);
    let driver = std::fs::read_to_string(out_dir.join("poisoned_test.c")).expect("driver");
    assert!(
        driver.contains("#define cairn_poisoned_free free\n"),
        "{driver}"
    );
    assert!(
        covers(&stdout, "push_positive", "8/8        8/8"),
        "{stdout}"
    );
}

/// glibc's <error.h> defines `error` inline over `__builtin_va_arg_pack`,
/// which cairn does not read: the C library's function is the one called.
const REPORTS_ERRORS: &str = r#"#include <error.h>
#include <errno.h>
#include <stdlib.h>
int parse_level(const char *s)
{
    if (s == NULL)
        error(EXIT_FAILURE, 0, "no level given");
    if (s[0] < '0' || s[0] > '9') {
        error(0, EINVAL, "bad level %s", s);
        return -1;
    }
    return s[0] - '0';
}
int check_depth(int d)
{
    if (d > 100)
        error_at_line(2, 0, __FILE__, __LINE__, "too deep: %d", d);
    return d;
}
"#;

#[test]
fn error_reports_and_exits_only_with_a_status() {
    let stdout = checked_coverage(
        "levels.c",
        REPORTS_ERRORS,
        &[],
        &[
            ("parse_level", "6/6        6/6"),
            ("check_depth", "2/2        2/2"),
        ],
    );
    assert!(
        stdout.contains(
            "error-exit in check_depth: `error_at_line` is called with a non-zero status"
        ),
        "{stdout}"
    );
}

/// glibc's `strong_alias`: another name of a function defined before,
/// which the driver must not define again as a stub.
const ALIASED: &str = r#"#define strong_alias(name, aliasname) \
  extern __typeof (name) aliasname __attribute__ ((alias (#name)));
static int default_reloc_p(int t) { return t > 3; }
strong_alias (default_reloc_p, default_copy_reloc_p)
int classify(int t)
{
    if (default_copy_reloc_p(t))
        return 7;
    return 0;
}
"#;

#[test]
fn a_function_declared_as_an_alias_is_the_function_it_names() {
    checked_coverage("relocs.c", ALIASED, &[], &[("classify", "2/2        2/2")]);
}

/// C11 atomics: a test runs one thread, where `_Atomic(T)` is a `T`.
const ATOMICS: &str = r#"#include <stdatomic.h>
#include <stddef.h>
struct table { _Atomic(size_t) count; atomic_int users; int *slots; };
int add_user(struct table *t, int limit)
{
    int before = atomic_fetch_add(&t->users, 1);
    if (before >= limit) {
        atomic_fetch_sub(&t->users, 1);
        return -1;
    }
    if (atomic_load(&t->count) > 10)
        return 1;
    atomic_store(&t->count, t->count + 1);
    return 0;
}
"#;

#[test]
fn atomic_members_are_read_and_written_as_plain_ones() {
    checked_coverage(
        "table.c",
        ATOMICS,
        &["--sanitize"],
        &[("add_user", "4/4        4/4")],
    );
}

/// Macros named like attributes (shadow's `#define unused
/// __attribute__((unused))`): the driver spells its attributes `__unused__`.
const ATTRIBUTE_MACROS: &str = r#"#define unused __attribute__((unused))
#define weak
#define alias(x) x
int pick(int a, unused int b)
{
    if (a > 0)
        return a;
    return 0;
}
"#;

#[test]
fn macros_named_like_attributes_leave_the_drivers_attributes_alone() {
    checked_coverage(
        "pick.c",
        ATTRIBUTE_MACROS,
        &["--sanitize"],
        &[("pick", "2/2        2/2")],
    );
}

/// GCC makes `printf("%s\n", s)` a `puts(s)`, which dereferences a NULL
/// `s` where printf would print "(null)": no test passes one there.
const PRINTS_A_VALUE: &str = r#"#include <stdio.h>
const char *sym_value(int sym);
int show(int sym, int verbose)
{
    const char *def = sym_value(sym);
    if (verbose > 2) {
        printf("%s\n", def);
        return 1;
    }
    return 0;
}
"#;

#[test]
fn a_string_printed_as_puts_prints_is_never_null() {
    let stdout = checked_coverage(
        "show.c",
        PRINTS_A_VALUE,
        &["--sanitize"],
        &[("show", "2/2        2/2")],
    );
    assert!(!stdout.contains("left out"), "{stdout}");
}

/// A buffer found NULL is still moved when not trusted: moving a null
/// pointer is undefined unless by zero, so the test moves it by zero.
const MOVES_A_NULL_BUFFER: &str = r#"#include <stddef.h>
const char *used_end(const char *buf, size_t used, int trusted)
{
    if (buf == NULL && trusted)
        return NULL;
    return buf + used;
}
"#;

#[test]
fn a_null_pointer_is_moved_by_zero_or_not_at_all() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (stdout, _, out_dir) =
        gen_checked_with(dir.path(), "ends.c", MOVES_A_NULL_BUFFER, &["--sanitize"]);
    assert!(covers(&stdout, "used_end", "4/4        4/4"), "{stdout}");
    let driver = std::fs::read_to_string(out_dir.join("ends_test.c")).expect("driver");
    assert!(driver.contains("used_end(NULL, 0, 0)"), "{driver}");
}

/// A thread-local global another file defines (mimalloc's default heap).
const THREAD_LOCAL_EXTERN: &str = r#"extern __thread int *heap_default;
int *default_heap(void) { return heap_default; }
int heap_is_set(int size) { int *heap = default_heap(); return heap != 0 && size > 3; }
"#;

#[test]
fn a_thread_local_global_defined_elsewhere_is_defined_thread_local() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (stdout, _, out_dir) = gen_checked_with(dir.path(), "tls.c", THREAD_LOCAL_EXTERN, &[]);
    assert!(covers(&stdout, "heap_is_set", "4/4        4/4"), "{stdout}");
    let driver = std::fs::read_to_string(out_dir.join("tls_test.c")).expect("driver");
    assert!(
        driver.contains("_Thread_local unsigned char cairn_unresolved_heap_default"),
        "{driver}"
    );
}

/// SIMD intrinsics on vector types (libwebp's SSE2 filters): the
/// functions on vectors are not lowered, and the header's inline
/// intrinsics are never stubbed (an alias of an `always_inline` function
/// does not compile).
const SIMD: &str = r#"#include <emmintrin.h>
static __m128i interleave(__m128i x, __m128i y) { return _mm_unpacklo_epi16(x, y); }
void mix_rows(__m128i *rows, int n) {
    for (int i = 0; i + 1 < n; i += 2) rows[i] = interleave(rows[i], rows[i + 1]);
}
int clamp(int v) { return v < 0 ? 0 : v > 255 ? 255 : v; }
"#;

#[test]
fn vector_types_leave_the_intrinsics_to_the_compiler() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (stdout, stderr, out_dir) = gen_checked_with(dir.path(), "simd.c", SIMD, &[]);
    assert!(covers(&stdout, "clamp", "4/4"), "{stdout}");
    assert!(!stderr.contains("left out"), "{stderr}");
    let driver = std::fs::read_to_string(out_dir.join("simd_test.c")).expect("driver");
    assert!(!driver.contains("cairn_stub__mm_"), "{driver}");
}

/// The source's `main` is not read (inline assembly): the driver still
/// renames it, to have its own.
const UNREAD_MAIN: &str = r#"int twice(int x) { return x > 5 ? 2 * x : x; }
int main(void) { __asm__ volatile("" ::: "memory"); return twice(3); }
"#;

#[test]
fn a_main_cairn_cannot_read_makes_way_for_the_drivers() {
    checked_coverage("tool.c", UNREAD_MAIN, &[], &[("twice", "2/2        2/2")]);
}

#[test]
fn a_function_renamed_by_a_macro_keeps_the_driver_compiling() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (stdout, _, out_dir) = gen_checked_with(dir.path(), "renamed.c", RENAMED, &[]);
    let driver = std::fs::read_to_string(out_dir.join("renamed_test.c")).expect("driver");
    assert!(
        driver.contains("#undef encrypt_bytes\n__typeof__(encrypt_bytes) encrypt_bytes"),
        "{driver}"
    );
    assert!(covers(&stdout, "challenge", "2/2"), "{stdout}");
}

#[test]
fn implicit_declarations_are_tested_and_measured() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (stdout, stderr, _) = gen_checked_with(dir.path(), "implicit.c", IMPLICIT, &["--sanitize"]);
    assert!(!stderr.contains("unsupported"), "{stderr}");
    assert!(
        stderr.contains("implicit declaration of function `strcmp`"),
        "{stderr}"
    );
    for function in ["parse_sign", "checked", "helper_twice", "permitted"] {
        let tested = stdout
            .lines()
            .find(|l| l.split_whitespace().next() == Some(function))
            .and_then(|l| l.split_whitespace().nth(1))
            .and_then(|n| n.parse::<u32>().ok())
            .is_some_and(|n| n > 0);
        assert!(tested, "{function}:\n{stdout}");
    }
}

#[test]
fn library_functions_the_source_declares_itself_leave_the_driver_compiling() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (stdout, _, out_dir) =
        gen_checked_with(dir.path(), "items.c", SELF_DECLARED, &["--sanitize"]);
    let driver = std::fs::read_to_string(out_dir.join("items_test.c")).expect("driver");
    // The library's own declarations are hidden, not the source's.
    assert!(
        driver.contains("#define malloc cairn_library_malloc\n#define strcpy"),
        "{driver}"
    );
    assert!(driver.contains("__asm__(\"malloc\")"), "{driver}");
    assert!(!driver.contains("cairn_stub_strlen"), "{driver}");
    assert!(stdout.contains("name_length"), "{stdout}");
}

#[test]
fn compile_command_flags_reach_the_front_end_and_the_driver() {
    let dir = tempfile::tempdir().expect("temp dir");
    let root = dir.path();
    for sub in ["src", "include", "build"] {
        std::fs::create_dir_all(root.join(sub)).expect("mkdir");
    }
    // Found only through -iquote; config.h only through -include.
    std::fs::write(root.join("include/limits_of.h"), "#define LIMIT 10\n").expect("write");
    std::fs::write(root.join("build/config.h"), "#define HAVE_CONFIG 1\n").expect("write");
    // gnu89 `inline`: an external definition too, which gnu11 would not
    // emit (the driver would not link unless built with -std=gnu89).
    let source = r#"#ifndef HAVE_CONFIG
#error needs config.h
#endif
#include "limits_of.h"

inline int clamp(int v)
{
    if (v > LIMIT)
        return LIMIT;
    return v;
}

int scaled(int v)
{
    if (v < 0)
        return 0;
    return clamp(v) * 2;
}

struct row {
    int cells[16];
};

void fill_row(struct row *row)
{
    int i;
    for (i = 0; i < 16; i++)
        row->cells[i] = LIMIT;
}
"#;
    let file = root.join("src/scaled.c");
    std::fs::write(&file, source).expect("write");
    let command = serde_json::json!([{
        "directory": arg(&root.join("build")),
        "file": arg(&file),
        "arguments": ["gcc", "-iquote", "../include", "-include", "config.h", "-std=gnu89",
                      "-O2", "-c", arg(&file)],
    }]);
    std::fs::write(
        root.join("build/compile_commands.json"),
        command.to_string(),
    )
    .expect("write compile_commands.json");
    let out = root.join("out");
    let run = cairn(&[
        "gen",
        "-p",
        arg(&root.join("build")),
        "-o",
        arg(&out),
        "--check",
        "--sanitize",
        "--max-time",
        "20",
    ]);
    let (stdout, stderr) = (text(&run.stdout), text(&run.stderr));
    assert_eq!(run.status.code(), Some(0), "{stdout}{stderr}");
    assert!(stdout.contains("check passed"), "{stdout}");
    let tests = std::fs::read_to_string(out.join("scaled/scaled.tests.json")).expect("tests.json");
    assert!(tests.contains("\"-std=gnu89\""), "{tests}");
    assert!(tests.contains("\"-iquote\""), "{tests}");
    let driver = std::fs::read_to_string(out.join("scaled/scaled_test.c")).expect("driver");
    assert!(driver.contains("build/config.h\""), "{driver}");
    // A run of equal elements is checked in a loop C90 compiles.
    assert!(driver.contains("size_t cairn_k;"), "{driver}");
}

/// Functions of other files declared only inside the body that calls them,
/// as old code does: no file-scope name, so the driver's stubs cannot take
/// their type from the source; one is variadic.
const DECLARED_IN_A_BLOCK: &str = r#"
int lookup(const char *key, int fallback)
{
    extern void log_miss(const char *file, const char *key, int code);
    extern int report(const char *format, ...);
    if (key == 0 || key[0] == '\0') {
        log_miss("table", "(none)", fallback);
        return fallback;
    }
    if (report("%s", key) > 2)
        return 1;
    return 0;
}
"#;

#[test]
fn functions_declared_inside_a_body_get_stubs_that_compile() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (stdout, _, out_dir) =
        gen_checked_with(dir.path(), "blocks.c", DECLARED_IN_A_BLOCK, &["--sanitize"]);
    let driver = std::fs::read_to_string(out_dir.join("blocks_test.c")).expect("driver");
    assert!(
        driver.contains("cairn_exported_log_miss __asm__(\"log_miss\")"),
        "{driver}"
    );
    assert!(covers(&stdout, "lookup", "6/6"), "{stdout}");
}

/// A C99 inline definition (gnulib's header functions are written so):
/// compiled at -O0 the call is not inlined, and the definition gives the
/// linker no symbol; the driver must make its file define it.
const INLINE_DEFINITION: &str = r#"
inline int is_digit_here(int c)
{
    return c >= '0' && c <= '9';
}

int count_digits(const char *s)
{
    int n = 0;
    if (s == 0)
        return -1;
    for (; *s; s++)
        if (is_digit_here(*s))
            n++;
    return n;
}
"#;

#[test]
fn inline_definitions_link_in_the_driver() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (stdout, _, out_dir) =
        gen_checked_with(dir.path(), "digits.c", INLINE_DEFINITION, &["--sanitize"]);
    let driver = std::fs::read_to_string(out_dir.join("digits_test.c")).expect("driver");
    assert!(
        driver.contains("extern __typeof__(is_digit_here) is_digit_here;"),
        "{driver}"
    );
    assert!(covers(&stdout, "count_digits", "6/6"), "{stdout}");
}

/// A global declared `extern` only inside the function that reads it (as
/// old code does): the driver defines it, and the tests set it, under
/// another C name with the global's symbol.
const GLOBAL_DECLARED_IN_A_BLOCK: &str = r#"
int seeded(int n)
{
    extern int start_seed;
    if (start_seed > n)
        return 1;
    return 0;
}
"#;

#[test]
fn a_global_declared_inside_a_body_is_defined_and_set() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (stdout, _, out_dir) = gen_checked_with(
        dir.path(),
        "seeded.c",
        GLOBAL_DECLARED_IN_A_BLOCK,
        &["--sanitize"],
    );
    let driver = std::fs::read_to_string(out_dir.join("seeded_test.c")).expect("driver");
    assert!(
        driver.contains("int cairn_defined_start_seed __asm__(\"start_seed\");"),
        "{driver}"
    );
    assert!(covers(&stdout, "seeded", "2/2"), "{stdout}");
}

/// An extern global of a type the file never completes (an opaque handle's
/// default instance, as udns's `dns_defctx`): the driver cannot spell its
/// type, yet must define the symbol the code takes the address of, and
/// hands it to another file's function.
const OPAQUE_DEFAULT: &str = r#"
struct ctx;
extern struct ctx default_ctx;
int ctx_configure(struct ctx *c, int flags);

int configure_default(int flags)
{
    if (flags < 0)
        return -1;
    return ctx_configure(&default_ctx, flags);
}
"#;

#[test]
fn an_extern_global_of_an_incomplete_type_links() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (stdout, _, out_dir) =
        gen_checked_with(dir.path(), "opaque.c", OPAQUE_DEFAULT, &["--sanitize"]);
    let driver = std::fs::read_to_string(out_dir.join("opaque_test.c")).expect("driver");
    assert!(driver.contains("__asm__(\"default_ctx\")"), "{driver}");
    // The handle goes to another file's function, which this file cannot
    // see write into it: the path goes on.
    assert!(
        covers(&stdout, "configure_default", "2/2        2/2"),
        "{stdout}"
    );
}

/// gcc evaluates a call's arguments from the last to the first on x86-64;
/// code whose arguments have effects (GObject's `G_TYPE_CHECK_INSTANCE_CAST
/// (g_object_new (T), t_get_type ())` registers types in them) is tested
/// in that order.
const ARGUMENT_ORDER: &str = r#"
static int calls;
static int first_seen;

static int note(int id)
{
    if (calls++ == 0)
        first_seen = id;
    return id;
}

static int pick(int a, int b)
{
    return a * 10 + b;
}

int first_argument_evaluated(int x)
{
    calls = 0;
    int r = pick(note(1), note(2));
    if (first_seen == 2)
        return r + x;
    return -r;
}
"#;

#[test]
fn arguments_are_evaluated_in_gccs_order() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (stdout, _, _) = gen_checked_with(dir.path(), "order.c", ARGUMENT_ORDER, &[]);
    assert!(!stdout.contains("left out"), "{stdout}");
    assert!(
        covers(&stdout, "first_argument_evaluated", "1/2"),
        "{stdout}"
    );
}

/// gcc's sanitizer checks a constant left shift at run time (`1 << 31` in a
/// flag mask, libdvdnav's `subp_control[n] & (1<<31)`), not only a variable
/// one: it is a finding where the code reaches it, and no test takes it.
const CONSTANT_SHIFT: &str = r#"
static const int masks[2] = { 1 << 31, 1 << 30 };

int flagged(int x)
{
    if (x > 5)
        return masks[x & 1] != 0;
    if (x & (1 << 31))
        return 1;
    return 0;
}
"#;

#[test]
fn a_constant_shift_into_the_sign_bit_is_the_sanitizers_finding() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (stdout, _, _) = gen_checked_with(dir.path(), "shift.c", CONSTANT_SHIFT, &[]);
    assert!(!stdout.contains("left out"), "{stdout}");
    assert!(
        stdout.contains("signed-overflow in flagged: signed left shift overflows"),
        "{stdout}"
    );
}

/// A command-line parser, as programs and their libraries' front ends
/// write one: `getopt_long` runs for real in the tests, starting from the
/// `optind` of a fresh process, and the engine's model agrees with it on
/// short options (alone, with an argument attached or separate), long ones
/// (`--sz=3`, a flag the table sets) and what ends the options.
const OPTIONS: &str = r#"
#include <getopt.h>
#include <stddef.h>

static int all;

int parse(int argc, char **argv, int *size)
{
    static const struct option longopts[] = {
        { "all", no_argument, &all, 1 },
        { "sz", required_argument, NULL, 's' },
        { "lv", optional_argument, NULL, 'l' },
        { NULL, 0, NULL, 0 }
    };
    int c, level = 0;
    while ((c = getopt_long(argc, argv, "vo:l::", longopts, NULL)) != -1) {
        switch (c) {
        case 0: break;
        case 'v': level++; break;
        case 'o': if (optarg[0] == 'x') return -2; break;
        case 's': *size = optarg[0] - '0'; break;
        case 'l': level = optarg ? 9 : 1; break;
        default: return -1;
        }
    }
    if (all)
        return 100 + level;
    return optind < argc ? level : -3;
}
"#;

#[test]
fn command_line_options_are_parsed_as_glibc_parses_them() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (stdout, _, _) = gen_checked_with(dir.path(), "options.c", OPTIONS, &[]);
    assert!(!stdout.contains("left out"), "{stdout}");
    assert!(covers(&stdout, "parse", "16/16"), "{stdout}");
}

/// Settings read from the environment, as programs and libraries read
/// them: each variable is an input the test sets or removes before the
/// call, and `getenv` in the test returns the very string the test wrote.
const ENVIRONMENT: &str = r#"
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>

int verbosity(void)
{
    const char *v = getenv("APP_VERBOSE");
    if (v == NULL)
        return 0;
    if (strcmp(v, "debug") == 0)
        return 3;
    if (v[0] >= '0' && v[0] <= '9' && v[1] == '\0')
        return v[0] - '0';
    return -1;
}

/* The home directory (the environment's own string), or the fallback. */
const char *home_or(const char *fallback)
{
    const char *h = getenv("HOME");
    if (h == NULL || *h == '\0')
        return fallback;
    return h;
}

/* Asked twice, the environment gives the same string. */
int asked_twice(void)
{
    const char *a = secure_getenv("APP_MODE");
    if (a != getenv("APP_MODE"))
        return -1;
    return a == NULL ? 0 : 1;
}

/* Two variables' values are two strings, never one. */
int same_place(void)
{
    const char *a = getenv("A_DIR");
    const char *b = getenv("B_DIR");
    if (a == NULL || b == NULL)
        return -1;
    if (a == b)
        return 1;
    return strcmp(a, b) == 0 ? 2 : 3;
}
"#;

#[test]
fn environment_variables_are_inputs_each_test_sets() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (stdout, _, out_dir) =
        gen_checked_with(dir.path(), "environment.c", ENVIRONMENT, &["--sanitize"]);
    assert!(!stdout.contains("left out"), "{stdout}");
    assert!(covers(&stdout, "verbosity", "10/10"), "{stdout}");
    assert!(covers(&stdout, "home_or", "4/4"), "{stdout}");
    assert!(covers(&stdout, "asked_twice", "3/4"), "{stdout}");
    assert!(covers(&stdout, "same_place", "7/8"), "{stdout}");
    let driver = std::fs::read_to_string(out_dir.join("environment_test.c")).expect("driver");
    assert!(driver.contains("unsetenv(\"APP_VERBOSE\");"), "{driver}");
    assert!(
        driver.contains("cairn_put_environment(\"HOME\", getenv_HOME_in);"),
        "{driver}"
    );
    let json = std::fs::read_to_string(out_dir.join("environment.tests.json")).expect("json");
    assert!(json.contains("\"environment\""), "{json}");
}

/// A buffer that is NULL when its allocation failed, written with zero
/// bytes: GCC's own declaration of `fwrite` says its buffer is never NULL,
/// and UBSan stops the call, so the path is no test by default and a
/// confirmed finding when failures are reported.
const WRITE_COPY: &str = r#"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

size_t write_copy(FILE *f, const char *s, unsigned n)
{
    if (n > 64)
        return 0;
    char *copy = malloc(n);
    if (copy == NULL && n > 0)
        return 0;
    if (n > 0)
        memcpy(copy, s, n);
    size_t written = fwrite(copy, 1, n, f);
    free(copy);
    return written;
}
"#;

#[test]
fn a_null_buffer_given_to_fwrite_is_what_gcc_declares_never_null() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (stdout, _, _) = gen_checked_with(dir.path(), "write_copy.c", WRITE_COPY, &["--sanitize"]);
    assert!(!stdout.contains("left out"), "{stdout}");
    assert!(!stdout.contains("null-argument"), "{stdout}");
    let reported = tempfile::tempdir().expect("temp dir");
    let (stdout, _, _) = gen_checked_with(
        reported.path(),
        "write_copy.c",
        WRITE_COPY,
        &["--sanitize", "--alloc-may-fail"],
    );
    assert!(
        stdout.contains("NULL passed as argument 1 of `fwrite`"),
        "{stdout}"
    );
    assert!(stdout.contains("(null-argument): confirmed"), "{stdout}");
}

#[test]
fn an_input_converted_to_a_larger_struct_of_its_family_is_that_struct() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (stdout, _, out_dir) = gen_checked_with(dir.path(), "family.c", FAMILY, &["--sanitize"]);
    let driver = std::fs::read_to_string(out_dir.join("family_test.c")).expect("driver");
    assert!(
        driver.contains("struct pair *n_in = calloc(1, sizeof *n_in);"),
        "{driver}"
    );
    assert!(driver.contains("n_in->left = "), "{driver}");
    assert!(covers(&stdout, "shape", "12/12      12/12"), "{stdout}");
    assert!(covers(&stdout, "scope_of", "6/6        6/6"), "{stdout}");
}

#[test]
fn a_call_that_exits_is_a_test_that_expects_its_status() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (stdout, _, out_dir) = gen_checked_with(dir.path(), "level.c", EXITS, &["--sanitize"]);
    assert!(
        covers(&stdout, "parse_level", "10/10      10/10"),
        "{stdout}"
    );
    assert!(covers(&stdout, "check_mode", "5/6        5/6"), "{stdout}");
    let driver = std::fs::read_to_string(out_dir.join("level_test.c")).expect("driver");
    assert!(
        driver.contains("test_parse_level_exits_2_when_s_is_void"),
        "{driver}"
    );
    // Another status fails the tests that expect 2.
    let source = dir.path().join("level.c");
    std::fs::write(&source, EXITS.replace("exit(2)", "exit(3)")).expect("write source");
    let out = cairn(&["check", arg(&out_dir)]);
    let checked = text(&out.stdout);
    assert_ne!(out.status.code(), Some(0), "{checked}");
    assert!(
        checked
            .contains("exited with status 3, where the call ends the process with exit status 2"),
        "{checked}"
    );
}

#[test]
fn a_source_asking_for_strict_posix_gets_a_driver_that_compiles() {
    for level in ["_POSIX_C_SOURCE 200112L", "_POSIX_SOURCE 1"] {
        let dir = tempfile::tempdir().expect("temp dir");
        let source = STRICT_POSIX.replace("POSIX_LEVEL", level);
        let (stdout, _, _) = gen_checked_with(dir.path(), "clamp.c", &source, &[]);
        assert!(
            covers(&stdout, "clamp", "4/4        4/4"),
            "{level}: {stdout}"
        );
    }
}

/// A flexible array member read as another struct (iptables' match data)
/// behind a header the path never reads: the test sets the array's bytes
/// the path read, though it sets nothing of the header (it used to set
/// neither, and every test was left out).
const READS_A_FLEXIBLE_MEMBER: &str = r#"struct entry {
    union {
        struct { unsigned short size; char name[29]; } user;
        unsigned short total;
    } u;
    unsigned char data[];
};
struct cfg { unsigned int mode; unsigned long long avg; };

int rate_of(const struct entry *e)
{
    const struct cfg *c = (const void *)e->data;
    if (c->mode & 2)
        return 1;
    if (c->avg > 100)
        return 2;
    return 0;
}
"#;

#[test]
fn a_flexible_member_is_set_behind_a_header_the_path_never_reads() {
    let stdout = checked_coverage(
        "entry.c",
        READS_A_FLEXIBLE_MEMBER,
        &["--sanitize"],
        &[("rate_of", "4/4        4/4")],
    );
    assert!(!stdout.contains("left out"), "{stdout}");
}

/// `fscanf` on a stream the test fills: numbers, scansets, literal
/// characters, and the end of the input (`EOF` before any conversion).
const SCANS_A_STREAM: &str = r#"#include <stdio.h>

int first_number(FILE *f)
{
    int v;
    if (fscanf(f, "%d", &v) != 1)
        return -1;
    if (v > 10)
        return 1;
    return 0;
}

int key_value(FILE *f)
{
    char key[8];
    int value;
    int n = fscanf(f, "%7[a-z]=%d", key, &value);
    if (n == EOF)
        return -2;
    if (n != 2)
        return -1;
    if (key[0] == 'x')
        return value;
    return 0;
}
"#;

#[test]
fn a_stream_is_read_with_a_format() {
    checked_coverage(
        "scan.c",
        SCANS_A_STREAM,
        &["--sanitize"],
        &[
            ("first_number", "4/4        4/4"),
            ("key_value", "6/6        6/6"),
        ],
    );
}
