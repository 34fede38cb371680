//! End-to-end: a function of a library the driver does not link (declared
//! in a system header, not exported by the C library) is a stub each test
//! scripts, as one of another file of the project is: the driver links with
//! `cc FILE_test.c -lm` alone, and both branches are covered.

mod common;

use common::{arg, cairn, covers, gen_checked, gen_checked_with, text};
use std::process::Command;

/// Z3's header is a system header (`/usr/include/z3.h`, installed by
/// scripts/setup.sh) whose functions the C library does not provide.
const USES_A_LIBRARY: &str = r#"
#include <stdint.h>
#include <string.h>
#include <z3.h>

int memory_is_tight(void)
{
    if (Z3_get_estimated_alloc_size() > 1000000)
        return 1;
    return 0;
}

size_t name_length(const char *name)
{
    return name == NULL ? 0 : strlen(name);
}
"#;

/// `gen --check` on `source` saved as `name` (`x.c`): gen's output, the
/// driver and tests.json.
fn gen_driver(name: &str, source: &str) -> (String, String, String) {
    let dir = tempfile::tempdir().expect("temp dir");
    let (stdout, _, out_dir) = gen_checked(dir.path(), name, source);
    let stem = name.trim_end_matches(".c");
    let read = |file: String| std::fs::read_to_string(out_dir.join(file)).expect("an output");
    let driver = read(format!("{stem}_test.c"));
    (stdout, driver, read(format!("{stem}.tests.json")))
}

#[test]
fn functions_of_libraries_the_driver_does_not_link_are_stubs() {
    let (stdout, driver, _) = gen_driver("library.c", USES_A_LIBRARY);
    assert!(
        driver.contains("cairn_stub_Z3_get_estimated_alloc_size"),
        "{driver}"
    );
    // strlen is the C library's own: never a stub.
    assert!(!driver.contains("cairn_stub_strlen"), "{driver}");
    assert!(
        stdout.contains("memory_is_tight") && stdout.contains("2/2"),
        "{stdout}"
    );
}

/// A vtable filled in another file (modbus' backends, a driver's
/// operations): no function of this file has the type of `build` or
/// `send`, so each input's entry points to the callback mock of its type,
/// a stub that returns what the test scripts. Every branch after the calls
/// is covered, as gcov confirms, and the findings on a NULL entry stay
/// unvouched.
const CALLS_A_VTABLE: &str = r#"
#include <stdint.h>

typedef struct backend {
    int (*build)(void *ctx, int function, uint8_t *req);
    int (*send)(void *ctx, const uint8_t *req, int length);
} backend_t;
typedef struct ctx { int debug; const backend_t *backend; } ctx_t;

int send_request(ctx_t *ctx, int function)
{
    uint8_t req[16] = {0};
    int length = ctx->backend->build(ctx, function, req);
    if (length < 0)
        return -1;
    if (length > 16)
        return -2;
    int rc = ctx->backend->send(ctx, req, length);
    if (rc != length)
        return ctx->debug ? -3 : -4;
    return 0;
}
"#;

#[test]
fn an_entry_no_file_in_view_defines_is_a_callback_mock() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (stdout, _, out_dir) =
        gen_checked_with(dir.path(), "vtable.c", CALLS_A_VTABLE, &["--sanitize"]);
    assert!(covers(&stdout, "send_request", "8/8"), "{stdout}");
    let driver = std::fs::read_to_string(out_dir.join("vtable_test.c")).expect("driver");
    assert!(driver.contains("static __typeof__(cairn_stub_cairn_callback_1) cairn_callback_1"));
    assert!(driver.contains("->build = cairn_callback_1;"), "{driver}");
    assert!(driver.contains("->send = cairn_callback_2;"), "{driver}");
    assert!(
        stdout.contains("standing for any function of its type"),
        "{stdout}"
    );
}

/// A handle whose struct another file defines: this file cannot look
/// inside, only pass it on, so a test gives it plain bytes to point to
/// (cast to the handle's type) and the branches past the NULL checks are
/// covered.
const PASSES_A_HANDLE_ON: &str = r#"
struct ctx;
struct ctx *ctx_new(void);
int ctx_send(struct ctx *c, int v);

int send_value(struct ctx *c, int v)
{
    if (!c)
        c = ctx_new();
    if (!c)
        return -1;
    if (ctx_send(c, v) < 0)
        return -2;
    return 0;
}
"#;

#[test]
fn an_opaque_handle_points_to_bytes_the_test_owns() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (stdout, _, out_dir) =
        gen_checked_with(dir.path(), "handle.c", PASSES_A_HANDLE_ON, &["--sanitize"]);
    assert!(covers(&stdout, "send_value", "6/6"), "{stdout}");
    let driver = std::fs::read_to_string(out_dir.join("handle_test.c")).expect("driver");
    assert!(
        driver.contains("send_value((struct ctx *)(c_in), "),
        "{driver}"
    );
}

/// Descriptors no test can give in the state a path needs (a peer that
/// sends a frame, a disk that fails to sync): while a test runs, the
/// driver's `read`, `fsync` and `close` are mocks returning what the test
/// scripts within what the real ones may return, and `read` fills at most
/// the bytes it is asked for. gcov still writes its counters at exit
/// through the C library's own.
const READS_A_DESCRIPTOR: &str = r#"
#include <unistd.h>

int read_frame(int fd, unsigned char *out, int cap)
{
    unsigned char len;
    ssize_t n = read(fd, &len, 1);
    if (n < 0)
        return -1;
    if (n == 0)
        return 0;
    if (len > cap)
        return -2;
    n = read(fd, out, len);
    if (n != len)
        return -3;
    if (out[0] == 0x7e)
        return 2;
    return 1;
}

int flush_and_close(int fd)
{
    if (fsync(fd) != 0) {
        close(fd);
        return -1;
    }
    return close(fd);
}
"#;

#[test]
fn descriptors_are_mocked_while_a_test_runs() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (stdout, _, out_dir) =
        gen_checked_with(dir.path(), "frames.c", READS_A_DESCRIPTOR, &["--sanitize"]);
    assert!(covers(&stdout, "read_frame", "10/10"), "{stdout}");
    assert!(covers(&stdout, "flush_and_close", "2/2"), "{stdout}");
    let driver = std::fs::read_to_string(out_dir.join("frames_test.c")).expect("driver");
    assert!(
        driver.contains("__typeof__(read) read __attribute__((__alias__(\"cairn_stub_read\")));"),
        "{driver}"
    );
    assert!(driver.contains("dlsym(RTLD_NEXT, \"close\")"), "{driver}");
}

/// Files a path needs with chosen contents (a configuration file, one that
/// cannot be opened), a descriptor's flags and the clock: while a test runs,
/// `fopen` returns a stream over contents the test chooses (or NULL), `open`
/// and `fcntl` a descriptor or -1, `read` at most the bytes a test scripts,
/// `ioctl` writes what a test scripts through the word after its request,
/// `gettimeofday` and `time` the time the test scripts, `getuid` a user,
/// `statvfs` a file system's figures. Outside a test they are the C library's own, variable arguments
/// passed on: gcov creates its counters files with `open`'s mode.
const OPENS_FILES: &str = r#"
#include <fcntl.h>
#include <libintl.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <termios.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

int count_settings(const char *path)
{
    char line[16];
    int n = 0;
    FILE *f = fopen(path, "r");
    if (f == NULL)
        return -1;
    while (fgets(line, sizeof line, f) != NULL) {
        if (line[0] == '#')
            continue;
        n++;
    }
    fclose(f);
    return n;
}

int save_value(const char *path, int value)
{
    int fd = open(path, O_WRONLY | O_CREAT, 0644);
    if (fd < 0)
        return -1;
    if (fcntl(fd, F_GETFL) & O_APPEND) {
        close(fd);
        return -2;
    }
    if (write(fd, &value, sizeof value) != sizeof value) {
        close(fd);
        return -3;
    }
    return close(fd);
}

/* A read asked for more than a test scripts reads less, as read may. */
int starts_with_hash(const char *path)
{
    char text[4096];
    ssize_t n;
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        return -1;
    n = read(fd, text, sizeof text);
    close(fd);
    if (n <= 0)
        return 0;
    return text[0] == '#';
}

int is_late(void)
{
    struct timeval now;
    if (gettimeofday(&now, NULL) != 0)
        return -1;
    return now.tv_sec > 1000000;
}

/* Whoever runs the test: root or not, a file system's free space. */
int may_mount(const char *dir)
{
    struct statvfs fs;
    time_t stamp;
    if (getuid() == 0)
        return 2;
    if (statvfs(dir, &fs) != 0)
        return -1;
    if (fs.f_bavail < 10)
        return 0;
    return time(&stamp) == stamp && stamp > 1000;
}

/* A program's start: the locale and message domain it asks for leave the
   tests in the "C" locale; the terminal answers as each test scripts. */
int start(int argc, char **argv)
{
    struct termios t;
    (void) setlocale(LC_ALL, "");
    (void) bindtextdomain("tool", "/usr/share/locale");
    (void) textdomain("tool");
    umask(022);
    if (argc < 2)
        return 1;
    if (tcgetattr(0, &t) != 0)
        return 2;
    if (isatty(1) && ttyname(1) == NULL)
        return 3;
    return argv[1][0] == '-';
}

/* The terminal's size, which ioctl fills through the word after its
   request as each test scripts. */
int is_wide(int fd)
{
    struct winsize ws;
    if (ioctl(fd, TIOCGWINSZ, &ws) != 0)
        return -1;
    if (ws.ws_col > 100)
        return 1;
    return 0;
}

/* Whatever the seed: each test chooses what the generator returns, and
   the page size. */
int jitter(int base)
{
    long page = sysconf(_SC_PAGESIZE);
    int r;
    srandom((unsigned)page);
    r = (int)(random() % 100);
    if (page <= 0)
        return -1;
    if (r > 90)
        return base / 2;
    return r < 5 ? 0 : 1;
}
"#;

#[test]
fn files_and_the_clock_are_mocked_while_a_test_runs() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (stdout, _, out_dir) =
        gen_checked_with(dir.path(), "settings.c", OPENS_FILES, &["--sanitize"]);
    assert!(covers(&stdout, "count_settings", "6/6"), "{stdout}");
    assert!(covers(&stdout, "save_value", "6/6"), "{stdout}");
    assert!(covers(&stdout, "starts_with_hash", "4/4"), "{stdout}");
    assert!(covers(&stdout, "is_late", "2/2"), "{stdout}");
    assert!(covers(&stdout, "may_mount", "8/8"), "{stdout}");
    assert!(covers(&stdout, "jitter", "6/6"), "{stdout}");
    assert!(covers(&stdout, "is_wide", "4/4        4/4"), "{stdout}");
    assert!(covers(&stdout, "start", "8/8        8/8"), "{stdout}");
    let driver = std::fs::read_to_string(out_dir.join("settings_test.c")).expect("driver");
    assert!(driver.contains("fmemopen("), "{driver}");
    assert!(
        driver.contains("__builtin_va_arg(rest, unsigned int)"),
        "{driver}"
    );
}

/// A constructor that calls another file's function: each test scripts
/// that stub before building its input through the constructor, so the
/// driver's construction takes the engine's path (it used to run the stub
/// unscripted, and every test of `conn_is_fast` was left out).
const BUILT_THROUGH_A_STUB: &str = r#"
#include <stdlib.h>

struct conn { int fd; int mode; };

/* Another file's: fills the connection, returns 7 when it is ready. */
int conn_setup(struct conn *c);

struct conn *conn_new(void)
{
    struct conn *c = malloc(sizeof *c);
    if (!c)
        return NULL;
    if (conn_setup(c) != 7) {
        free(c);
        return NULL;
    }
    return c;
}

int conn_is_fast(const struct conn *c)
{
    return c->mode > 2 ? 1 : 0;
}
"#;

#[test]
fn stubs_are_scripted_before_the_inputs_built_through_the_code() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (stdout, _, _) = gen_checked_with(dir.path(), "conn.c", BUILT_THROUGH_A_STUB, &[]);
    assert!(covers(&stdout, "conn_is_fast", "2/2"), "{stdout}");
    assert!(!stdout.contains("left out"), "{stdout}");
}

/// `fetch` and the others are another file's: the driver's stub of each is
/// a mock that writes, at each call, the bytes the test scripts through its
/// pointer arguments (the whole buffer from a `char *`, `sizeof(T)` bytes
/// from a `T *`, with the addresses of objects the test builds in its
/// pointer members), so branches on what it wrote are covered, while a
/// buffer the test itself filled stays as it was beyond what the stub writes.
const FILLS_A_BUFFER: &str = r#"
#include <string.h>

int fetch(char *out, int cap);

int name_is_long(void)
{
    char name[32];
    if (fetch(name, (int)sizeof name) != 0)
        return -1;
    if (strlen(name) > 3)
        return 1;
    return 0;
}

int first_is_digit(void)
{
    char line[16];
    if (fetch(line, (int)sizeof line) != 0)
        return -1;
    if (line[0] >= '0' && line[0] <= '9')
        return 1;
    return 0;
}

int refetch_keeps_mark(char *buffer)
{
    if (buffer == 0)
        return -1;
    fetch(buffer, 1);
    return buffer[0] == 'x' ? 1 : 0;
}

struct conf { int level; char mode; };
int get_conf(struct conf *c);

int conf_is_verbose(void)
{
    struct conf c;
    if (get_conf(&c) == 0 && c.level > 3 && c.mode == 'v')
        return 1;
    return 0;
}

struct header { unsigned char kind; unsigned short length; };
void read_header(struct header *h, const char *name);

int header_kind(int *length)
{
    struct header h;
    read_header(&h, "input");
    *length = h.length;
    switch (h.kind) {
    case 1:
        return 10;
    case 2:
        return h.length > 512 ? 21 : 20;
    default:
        return 0;
    }
}

/* An entry holds a pointer: the stub stores there the address of a
   string the test builds, or NULL. */
struct entry { const char *name; int size; };
int next_entry(struct entry *e);

int entry_kind(void)
{
    struct entry e;
    if (next_entry(&e) != 0)
        return -1;
    if (e.name != 0 && e.name[0] == '/')
        return 2;
    if (e.size > 100)
        return 1;
    return 0;
}

/* An array of numbers the call fills (a filter of a codec): the stub
   writes each element a test scripts. */
void convolve(const short *x, const short *h, short *y, int n);

int loud_samples(const short *x, const short *h)
{
    short y[16];
    int loud = 0;
    convolve(x, h, y, 16);
    if (y[0] > 1000)
        loud++;
    if (y[15] < -1000)
        loud++;
    return loud == 2;
}

/* No test scripts a callback: reading what the stub may have left there
   stops the path. */
struct handler { void (*run)(void); int priority; };
void get_handler(struct handler *h);

int handler_is_urgent(void)
{
    struct handler h;
    get_handler(&h);
    if (h.priority > 5)
        return 1;
    return 0;
}
"#;

#[test]
fn what_a_stub_writes_through_its_pointers_is_scripted_by_each_test() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (stdout, _, out_dir) =
        gen_checked_with(dir.path(), "fills.c", FILLS_A_BUFFER, &["--sanitize"]);
    let covered = |function: &str, fraction: &str| {
        stdout
            .lines()
            .any(|l| l.contains(function) && l.contains(fraction))
    };
    // gcov measured what cairn predicted (`check passed`), and every branch
    // on what a stub wrote is covered.
    for (function, fraction) in [
        ("first_is_digit", "6/6"),
        ("name_is_long", "4/4"),
        ("refetch_keeps_mark", "2/2"),
        ("conf_is_verbose", "6/6"),
        ("header_kind", "5/5"),
        ("loud_samples", "4/4        4/4"),
    ] {
        assert!(covered(function, fraction), "{function}: {stdout}");
    }
    // Where the region holds a callback the stub writes nothing: the path
    // reading `h.priority` stops, with the reason.
    assert!(covered("entry_kind", "8/8"), "{stdout}");
    assert!(covered("handler_is_urgent", "0/2"), "{stdout}");
    let tests = std::fs::read_to_string(out_dir.join("fills.tests.json")).expect("tests.json");
    assert!(
        tests.contains("may write through its pointer arguments"),
        "{tests}"
    );
    let driver = std::fs::read_to_string(out_dir.join("fills_test.c")).expect("driver");
    for scripted in [
        "cairn_fetch_writes1",
        "cairn_get_conf_writes1",
        "cairn_read_header_writes1",
        "cairn_next_entry_writes1",
    ] {
        assert!(driver.contains(scripted), "{driver}");
    }
    // `const char *name` is never written through, nor a callback's holder.
    assert!(!driver.contains("cairn_read_header_writes2"), "{driver}");
    assert!(!driver.contains("cairn_get_handler_writes1"), "{driver}");
    // The entry's name: the address of the string the test built.
    assert!(
        driver.contains("memcpy(next_entry_1_arg1, &(void *){"),
        "{driver}"
    );
}

/// `slow` is defined here but cairn cannot read it (inline assembly): the
/// driver compiles the source, so it must not define a stub of it too, but
/// must stub `elsewhere`, which only `slow`'s unread body calls.
const TAKES_AN_EXCLUDED_FUNCTION: &str = r#"
int elsewhere(int x);

static int slow(int x)
{
    __asm__ volatile("" ::: "memory");
    return elsewhere(x);
}

typedef int (*step)(int);

step pick(int fast)
{
    if (fast)
        return 0;
    return slow;
}
"#;

#[test]
fn a_function_defined_but_excluded_is_no_stub() {
    let (stdout, driver, _) = gen_driver("pick.c", TAKES_AN_EXCLUDED_FUNCTION);
    assert!(!driver.contains("cairn_stub_slow"), "{driver}");
    assert!(driver.contains("cairn_stub_elsewhere"), "{driver}");
    assert!(covers(&stdout, "pick", "2/2"), "{stdout}");
}

/// The header's `peek` is a plain `static` function nothing here calls:
/// cairn never reads it, but gcc compiles it into the driver, so `advance`
/// (another file's) needs a stub for the driver to link.
#[test]
fn what_an_unused_header_function_calls_is_stubbed() {
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::write(
        dir.path().join("bits.h"),
        "void advance(int *at, int n);\nstatic int peek(int *at) { advance(at, 1); return *at; }\n",
    )
    .expect("header");
    let source = "#include \"bits.h\"\nint twice(int x) { return x > 100 ? 0 : 2 * x; }\n";
    let (_, _, out_dir) = gen_checked(dir.path(), "twice.c", source);
    let driver = std::fs::read_to_string(out_dir.join("twice_test.c")).expect("driver");
    assert!(driver.contains("cairn_stub_advance"), "{driver}");
}

/// Another library's header (line markers place it under /usr/include, as
/// libxml2's is) declares a hook variable and a plain variable, which the
/// driver does not link: it must define both, and a call through the hook
/// is no NULL-pointer finding (that library sets it), only a path the
/// tests do not follow. An extern array of the project's own header,
/// declared `const` without a length, gets a definition that agrees.
const USES_ANOTHER_LIBRARYS_HOOK: &str = r#"
# 1 "/usr/include/otherlib/otherlib.h" 1 3
typedef void (*other_free_fn)(void *);
extern other_free_fn other_free;
extern int other_version;
# 4 "HERE" 2
struct pair { const char *from; int to; };
extern const struct pair pairs_table[];

int release(char *p, int n)
{
    if (n > 3) {
        other_free(p);
        return 1;
    }
    if (other_version > 2)
        return 2;
    return pairs_table[0].to;
}
"#;

/// Generates tests for `source` (whose line markers name the file `HERE`)
/// as `name`, then builds and runs the driver by hand (gcov files the lines
/// of such a source elsewhere); returns gen's output, tests.json and the
/// driver's text.
fn gen_build_and_run(name: &str, source: &str) -> (String, String, String) {
    let dir = tempfile::tempdir().expect("temp dir");
    let src = dir.path().join(format!("{name}.c"));
    std::fs::write(&src, source.replace("HERE", arg(&src))).expect("write source");
    let out_dir = dir.path().join("out");
    let out = cairn(&["gen", arg(&src), "-o", arg(&out_dir), "--max-time", "20"]);
    let stdout = text(&out.stdout);
    assert!(out.status.success(), "{stdout}{}", text(&out.stderr));
    let tests =
        std::fs::read_to_string(out_dir.join(format!("{name}.tests.json"))).expect("tests.json");
    let driver = out_dir.join(format!("{name}_test.c"));
    let text_of_driver = std::fs::read_to_string(&driver).expect("driver");
    let program = dir.path().join(format!("{name}_test"));
    let built = Command::new("cc")
        .args([arg(&driver), "-o", arg(&program), "-lm"])
        .output()
        .expect("cc");
    assert!(built.status.success(), "{}", text(&built.stderr));
    let run = Command::new(&program).output().expect("run the driver");
    assert!(run.status.success(), "{}", text(&run.stdout));
    (stdout, tests, text_of_driver)
}

#[test]
fn another_librarys_hook_is_defined_and_never_a_finding() {
    let (stdout, tests, driver) = gen_build_and_run("hooks", USES_ANOTHER_LIBRARYS_HOOK);
    assert!(covers(&stdout, "release", "2/4"), "{stdout}");
    assert!(
        tests.contains("a function pointer another library sets"),
        "{tests}"
    );
    assert!(!tests.contains("null-dereference"), "{tests}");
    assert!(
        driver.contains("__typeof__(other_free) other_free;"),
        "{driver}"
    );
    assert!(
        driver.contains("__typeof__(pairs_table[0]) pairs_table[1];"),
        "{driver}"
    );
}

/// A function cairn excludes (it uses `setjmp`, as libpng's users and
/// PostgreSQL's error handling do) calls another library's function and
/// reads its global: the driver compiles that body, so it must define
/// both, though no lowered code uses them.
const EXCLUDED_CODE_USES_ANOTHER_LIBRARY: &str = r#"
# 1 "/usr/include/otherlib/otherlib.h" 1 3
int other_write(const char *data, int n);
extern int other_error_depth;
# 4 "HERE" 2
#include <setjmp.h>

static jmp_buf on_error;

int write_guarded(const char *data, int n)
{
    if (setjmp(on_error))
        return other_error_depth;
    return other_write(data, n);
}

int clamp_length(int n)
{
    if (n > 64)
        return 64;
    return n;
}
"#;

#[test]
fn what_excluded_code_uses_of_another_library_is_defined() {
    let (stdout, _, driver) = gen_build_and_run("guarded", EXCLUDED_CODE_USES_ANOTHER_LIBRARY);
    assert!(covers(&stdout, "clamp_length", "2/2"), "{stdout}");
    assert!(driver.contains("cairn_stub_other_write"), "{driver}");
    assert!(
        driver.contains("__typeof__(other_error_depth) other_error_depth;"),
        "{driver}"
    );
}

/// A symbol only inline assembly names: the function is refused, but the
/// driver compiles its body, and only the linker tells gen the driver
/// needs `platform_pause`; the driver then defines it. Before (where
/// glib's `g_autoptr` cleanup handlers were not lowered yet, the same for
/// their `g_error_free`), the driver did not link.
const NAMES_A_SYMBOL_ONLY_IN_ASSEMBLY: &str = r#"
int spin_hint(int x)
{
    __asm__ volatile("call platform_pause");
    return x;
}
int parse_level(int x)
{
    if (x > 10)
        return 2;
    if (x < 0)
        return 0;
    return 1;
}
"#;

#[test]
fn what_only_the_linker_sees_missing_is_defined() {
    let (stdout, _, driver) = gen_build_and_run("levels", NAMES_A_SYMBOL_ONLY_IN_ASSEMBLY);
    assert!(covers(&stdout, "parse_level", "4/4"), "{stdout}");
    assert!(driver.contains("__asm__(\"platform_pause\")"), "{driver}");
}

/// glib's `g_autoptr(GError)` and `g_autofree`: a variable whose cleanup
/// handler, an inline function of another library's header, calls that
/// library's function when the scope ends. The engine runs the handler as
/// the compiled code does, so the tests expect the calls it makes. Before,
/// the handler was ignored: the engine predicted no call of `err_free`
/// where the run made one, and gen's validation left those tests out
/// (packagekit: 19 tests).
const CLEANS_UP_WITH_ANOTHER_LIBRARY: &str = r#"
# 1 "/usr/include/otherlib/errors.h" 1 3
typedef struct err { int code; } err_t;
void err_free(err_t *e);
err_t *err_new(int code);
static inline void err_clear(err_t **p) { if (*p) err_free(*p); }
# 8 "HERE" 2
int parse_level(int x)
{
    __attribute__((cleanup(err_clear))) err_t *error = 0;
    if (x > 10) {
        error = err_new(x);
        return error != 0 ? 2 : 3;
    }
    if (x < 0)
        return 0;
    return 1;
}
"#;

#[test]
fn a_cleanup_handler_runs_when_its_scope_ends() {
    let (stdout, _, driver) = gen_build_and_run("levels", CLEANS_UP_WITH_ANOTHER_LIBRARY);
    assert!(covers(&stdout, "parse_level", "6/6"), "{stdout}");
    assert!(!stdout.contains("left out"), "{stdout}");
    assert!(
        driver.contains("the number of calls of err_free() is\", cairn_err_free_calls, 1)"),
        "{driver}"
    );
}

/// A constructor that hands on what another file's function made (gnucobol's
/// `CB_LIST_INIT(...)` builders): the input is that new object. Before, a
/// built input the function never compared stayed undecided, was written as
/// NULL into the stub's script, and the driver took the NULL for a failed
/// allocation: every test was left out (0/2).
const BUILDS_THROUGH_ANOTHER_FILE: &str = r#"
#include <stddef.h>
struct tree { int tag; struct tree *kids; };
struct tree *tree_node_new(int tag);
struct tree *tree_start(void)
{
    return tree_node_new(0);
}
int tree_graft(struct tree *into, struct tree *from)
{
    if (into->tag > 3)
        return 1;
    return from != into;
}
"#;

#[test]
fn what_a_constructor_hands_on_from_a_stub_is_a_new_object() {
    let (stdout, driver, _) = gen_driver("trees.c", BUILDS_THROUGH_ANOTHER_FILE);
    assert!(covers(&stdout, "tree_graft", "2/2"), "{stdout}");
    assert!(!stdout.contains("left out"), "{stdout}");
    assert!(driver.contains("= tree_start();"), "{driver}");
}

/// A `qsort` comparator reads its `const void *` arguments as `T **`, and a
/// callback its `void *data` as a struct: the inputs are those types, their
/// pointers built as any others. Before, they were plain bytes, every
/// pointer read from them was an integer no test could set, and the paths
/// ended at a NULL dereference (raptor2's `raptor_nspace_compare`: 0 of 4
/// branches).
const READS_VOID_POINTERS_AS_TYPES: &str = r#"
#include <string.h>
struct ns { const char *prefix; struct ns *next; };
int ns_compare(const void *a, const void *b)
{
    const struct ns *x = *(const struct ns *const *)a;
    const struct ns *y = *(const struct ns *const *)b;
    if (!x->prefix)
        return 1;
    if (!y->prefix)
        return -1;
    return strcmp(y->prefix, x->prefix);
}
struct counter { int seen; struct ns *last; };
void on_item(void *data, struct ns *item)
{
    struct counter *c = data;
    c->seen++;
    if (c->last != NULL && c->last->prefix == NULL)
        c->last = item;
}
"#;

#[test]
fn void_pointers_point_to_what_the_code_reads_them_as() {
    let (stdout, driver, _) = gen_driver("ns.c", READS_VOID_POINTERS_AS_TYPES);
    assert!(covers(&stdout, "ns_compare", "4/4"), "{stdout}");
    assert!(covers(&stdout, "on_item", "4/4"), "{stdout}");
    assert!(driver.contains("struct ns **a_in"), "{driver}");
    assert!(driver.contains("struct counter *data_in"), "{driver}");
}

/// A state whose arrays the function fills (lz4's 16 KiB stream, zeroed by
/// its initialiser): a run of elements expected to hold one value is one
/// loop in the driver, not a line each (lz4's driver of 215,000 lines did
/// not compile within 5 minutes). A value apart breaks the run.
const FILLS_ARRAYS: &str = r#"
#include <string.h>
struct state { int level; unsigned char table[100]; short marks[20]; };
int state_reset(struct state *s, int level)
{
    memset(s->table, 0, sizeof s->table);
    for (int i = 0; i < 20; i++)
        s->marks[i] = 7;
    s->table[50] = 3;
    if (level > 9)
        return -1;
    s->level = level;
    return 0;
}
"#;

#[test]
fn runs_of_equal_elements_are_checked_by_a_loop() {
    let (stdout, driver, _) = gen_driver("state.c", FILLS_ARRAYS);
    assert!(covers(&stdout, "state_reset", "4/4"), "{stdout}");
    for expected in [
        "\"each of s_in->table[0..49] is\", s_in->table[cairn_k], 0)",
        "\"s_in->table[50] is\", s_in->table[50], 3)",
        "\"each of s_in->table[51..99] is\", s_in->table[cairn_k], 0)",
        "\"each of s_in->marks[0..19] is\", s_in->marks[cairn_k], 7)",
    ] {
        assert!(driver.contains(expected), "{expected}\n{driver}");
    }
    assert!(!driver.contains("s_in->table[7] is"), "{driver}");
}

/// gcc gives an enum with no negative enumerator the type `unsigned int`
/// (friso's `config->mode`): a value stored from an `int` is never below 0.
/// Before, cairn read every enum as `int`: a test set the mode to -27 and
/// expected -27 back, where the driver read 4294967269.
const STORES_AN_ENUM: &str = r#"
enum mode { MODE_A, MODE_B, MODE_C };
struct cfg { enum mode mode; };
int set_mode(struct cfg *c, int m)
{
    c->mode = (enum mode)m;
    if (c->mode < 0)
        return -1;
    if (c->mode > MODE_C)
        return 2;
    return 0;
}
"#;

#[test]
fn an_enum_without_negative_values_is_unsigned() {
    let (stdout, _, tests) = gen_driver("modes.c", STORES_AN_ENUM);
    assert!(covers(&stdout, "set_mode", "3/4"), "{stdout}");
    assert!(!stdout.contains("left out"), "{stdout}");
    let json: serde_json::Value = serde_json::from_str(&tests).expect("JSON");
    let uncovered: Vec<(String, String)> = json["functions"][0]["goals"]
        .as_array()
        .expect("goals")
        .iter()
        .filter(|g| g["covered"] == false)
        .map(|g| (g["label"].to_string(), g["reason"].to_string()))
        .collect();
    assert_eq!(
        uncovered,
        [("\"c->mode < 0: true\"".into(), "\"infeasible\"".into())]
    );
}

/// A pointer member passed where the callee's declaration says never NULL
/// (libopusenc's `opus_multistream_encoder_ctl(enc->st.ms, ...)`): the
/// member points to an object from the call on, as a dereference makes
/// it. Before, it stayed undecided, was written NULL, and every test
/// failed under UBSan's nonnull check (0/2, 4 left out).
const PASSES_A_MEMBER_TO_A_NONNULL_PARAMETER: &str = r#"
struct ms;
int ms_ctl(struct ms *st, int request, ...) __attribute__ ((__nonnull__(1)));
struct enc { struct ms *ms; };
int enc_ctl(struct enc *e, int request, int value)
{
    int ret = ms_ctl(e->ms, request, value);
    if (ret < 0)
        return -1;
    return 0;
}
"#;

#[test]
fn a_pointer_a_nonnull_parameter_takes_is_decided_at_the_call() {
    let (stdout, driver, _) = gen_driver("ctl.c", PASSES_A_MEMBER_TO_A_NONNULL_PARAMETER);
    assert!(covers(&stdout, "enc_ctl", "2/2"), "{stdout}");
    assert!(!stdout.contains("left out"), "{stdout}");
    assert!(!driver.contains("e_in->ms = NULL;"), "{driver}");
}
