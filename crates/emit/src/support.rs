//! The parts of a generated file between the `#include` of the source and the
//! tests: library headers, definitions of extern globals, stubs for bodiless
//! functions and the reporting helpers.

use crate::ctype::is_identifier;
use crate::framework::Framework;
use crate::literal::comment_text;
use crate::unit::{StubPlan, Unit};
use crate::CodeWriter;
use ir::{DataModel, FuncId, Type};
use testcase::c_library::Trailing;

/// The driver-side names of one stub's script.
pub struct StubNames {
    pub script: String,
    pub length: String,
    pub calls: String,
    pub past_end: String,
    pub implementation: String,
}

impl StubNames {
    pub fn new(function: &str) -> Self {
        StubNames {
            script: format!("cairn_{function}_script"),
            length: format!("cairn_{function}_script_len"),
            calls: format!("cairn_{function}_calls"),
            past_end: format!("cairn_{function}_past_end"),
            implementation: format!("cairn_stub_{function}"),
        }
    }

    /// The array recording parameter `index` (from 0) of each call.
    pub fn argument(function: &str, index: usize) -> String {
        format!("cairn_{function}_arg{}", index + 1)
    }

    /// The arrays of what each call writes through parameter `index` (from
    /// 0), and of how many bytes.
    pub fn writes(function: &str, index: usize) -> (String, String) {
        let name = format!("cairn_{function}_writes{}", index + 1);
        let length = format!("{name}_len");
        (name, length)
    }
}

/// Whether tests check what the code passes for a stub's parameter of type
/// `ty`: numbers, not pointers or aggregates.
pub fn is_checked_argument(ty: &Type) -> bool {
    matches!(ty, Type::Int(_) | Type::Float(_))
}

/// How the generated files reach the source under test.
pub struct SourceRef {
    /// The source relative to the output directory.
    pub include_path: String,
    pub stem: String,
    /// `(NAME, VALUE)` pairs written as `#define`s before the include.
    pub defines: Vec<(String, String)>,
    /// Names written as `#undef`s after the defines (`-U`).
    pub undefines: Vec<String>,
    /// Absolute files included after the defines, before the source (`-include`).
    pub forced_includes: Vec<String>,
    /// Absolute directories the source's includes need (`-I`).
    pub include_dirs: Vec<String>,
    /// Other flags every compilation of the generated files needs, in the
    /// drivers' dialect ([`driver_dialect`]).
    pub compiler_flags: Vec<String>,
    /// The data model the source was analysed for: the drivers are built
    /// with `-m32` under ILP32.
    pub data_model: DataModel,
}

impl SourceRef {
    /// `cc [-m32] [-I DIR]... [FLAG]... path/to/FILE -o BINARY -lm`.
    pub fn build_command(&self, file: &str, binary: &str) -> String {
        format!("cc {}path/to/{file} -o {binary} -lm", self.compiler_flags())
    }

    /// The compiler flags the generated files need, each followed by a
    /// space: `-m32` for ILP32, the include directories, the other flags.
    pub fn compiler_flags(&self) -> String {
        let model = match self.data_model {
            DataModel::Lp64 => None,
            DataModel::Ilp32 => Some(format!("{} ", self.data_model.gcc_flag())),
        };
        let dirs = self.include_dirs.iter().map(|d| format!("-I{d} "));
        let others = self.compiler_flags.iter().map(|f| format!("{f} "));
        model.into_iter().chain(dirs).chain(others).collect()
    }

    /// The defines, the replacements of the allocator when wanted, then
    /// the `#include` of the source (renaming its `main` when it has one),
    /// then the library headers the generated code uses.
    pub fn include(&self, out: &mut CodeWriter, unit: &Unit, wrappers: Wrappers) {
        for (name, value) in &self.defines {
            out.line(&format!("#define {name} {value}"));
        }
        for name in &self.undefines {
            out.line(&format!("#undef {name}"));
        }
        for file in &self.forced_includes {
            out.line(&format!("#include \"{file}\""));
        }
        if self.data_model == DataModel::Ilp32 {
            // The tests' values and layouts are those of i386: built
            // another way, the driver would test another program.
            out.line(
                "_Static_assert(sizeof(long) == 4 && sizeof(void *) == 4, \"cairn generated this driver for the ILP32 data model: build it with -m32\");",
            );
        }
        let counting = matches!(wrappers, Wrappers::Counting { .. });
        if counting || unit.tracks_frees {
            out.text(WATCHING);
            if !unit.defines_function("free") {
                out.text(FREE);
            }
        }
        if let Wrappers::Counting { initial_fill } = wrappers {
            out.text(ALLOCATION_COUNTING);
            let fill = match initial_fill {
                byte @ 0.. => format!("{byte:#04x}"),
                none => none.to_string(),
            };
            out.text(&FILL.replace("INITIAL_FILL", &fill));
            for replacement in ALLOCATOR_REPLACEMENTS {
                if !unit.defines_function(replacement.name) {
                    out.text(replacement.text);
                }
            }
        }
        if unit.renames_main {
            out.line(&format!("#define main {}", testcase::RENAMED_MAIN));
        }
        let poisoned = &unit.program.poisoned;
        if !poisoned.is_empty() {
            out.line(
                "/* The source poisons these names: the driver uses them through these macros. */",
            );
        }
        for name in poisoned {
            out.line(&format!("#define {} {name}", crate::poisoned::alias(name)));
        }
        out.line(&format!("#include \"{}\"", self.include_path));
        out.poisoned_from_here(poisoned);
        if unit.renames_main {
            out.line("#undef main");
        }
        undefine_library_calls(out, poisoned);
        out.blank();
        let errno = unit.uses_errno.then_some("errno.h");
        let headers: Vec<&str> = errno
            .into_iter()
            .chain(["stdio.h", "stdlib.h", "string.h"])
            .collect();
        library_headers(out, unit.program, &headers);
        out.blank();
    }
}

/// The C library functions the driver's own C calls by name: its fixed
/// support (helpers, streams, the runner) and what it writes for each test
/// (`calloc`, `memcpy`, `free`...). A unit test keeps the list complete.
pub const LIBRARY_CALLS: &[&str] = &[
    "abort",
    "calloc",
    "exit",
    "fclose",
    "fflush",
    "fmemopen",
    "fork",
    "fputs",
    "free",
    "memcmp",
    "malloc",
    "memcpy",
    "on_exit",
    "printf",
    "putchar",
    "putenv",
    "setenv",
    "setvbuf",
    "sigaction",
    "strlen",
    "strtol",
    "syscall",
    "unsetenv",
];

/// `#undef`s [`LIBRARY_CALLS`] after the source's `#include`: a macro of
/// the source with one of these names (dante's `#define close(n)
/// closen((n))`) renames the source's own calls, never the driver's, which
/// reach the C library's function (C11 7.1.4: `#undef` of a library
/// function's macro gives the function). Before the library headers, so
/// their declarations are read unchanged too.
/// A poisoned name is no macro (poisoning removes its definition) and may
/// not be named.
fn undefine_library_calls(out: &mut CodeWriter, poisoned: &[String]) {
    out.line(
        "/* The driver's own calls reach the C library, whatever macros the source defines. */",
    );
    for name in LIBRARY_CALLS {
        if !poisoned.iter().any(|p| p == name) {
            out.line(&format!("#undef {name}"));
        }
    }
}

/// `#include`s C library headers after the source, hiding their
/// declarations of the functions the source declares itself
/// (`ir::Program::own_library_declarations`, such as `char *malloc();`),
/// which would conflict: the driver's calls then use the source's.
pub fn library_headers(out: &mut CodeWriter, program: &ir::Program, headers: &[&str]) {
    let hidden: Vec<&String> = program
        .own_library_declarations
        .iter()
        .filter(|name| !program.poisoned.contains(name))
        .collect();
    if !hidden.is_empty() {
        out.line("/* The source declares these C library functions itself. */");
    }
    for name in &hidden {
        out.line(&format!("#define {name} cairn_library_{name}"));
    }
    for header in headers {
        out.line(&format!("#include <{header}>"));
    }
    for name in &hidden {
        out.line(&format!("#undef {name}"));
    }
}

/// Whether the code under test allocates through counting replacements.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Wrappers {
    None,
    /// Tests choose which allocation calls return NULL, and what memory new
    /// from malloc or realloc holds: `initial_fill` (-1: what the allocator
    /// gives) until a reproducer chooses another byte (uninitialized reads).
    Counting {
        initial_fill: i32,
    },
}

/// What memory new from malloc or realloc holds in the tests: not zero (a
/// fresh heap often is), so that no test passes by reading zeros the code
/// never wrote, and a change that leaves a field unset fails a check.
pub const GARBAGE_FILL: i32 = 0xA5;

/// The driver replaces the C library's allocator for the whole program (a
/// definition in the program takes precedence over the library's), so no
/// macro renames anything of the code under test: a struct member named
/// `free` or `malloc` stays what it is. The replacements call the real
/// allocator: the sanitizers' when their run-time library is linked in (its
/// `__interceptor_` entry points), else glibc's own (`__libc_`), which
/// valgrind replaces. Only calls made by this program's own code while a
/// call under test runs are watched: the C library's own calls from inside
/// (stdio buffers, `fopen`), the driver's set-up and checks are not. Written
/// before any header, with compiler builtins only, so the source's own
/// includes and feature macros are untouched; each replacement is named by
/// an assembler label (`cairn_replaced_malloc` is the symbol `malloc`), so
/// that it conflicts with no declaration of the source (`char *malloc();`).
const WATCHING: &str = r#"
/* The driver replaces the C library's allocator for the whole program and
 * calls the real one (the sanitizers' when they are on). It watches only the
 * calls the code of this program makes while the call under test runs, not
 * the calls of the C library itself. */
extern void *__libc_malloc(__SIZE_TYPE__ size);
extern void *__libc_calloc(__SIZE_TYPE__ count, __SIZE_TYPE__ size);
extern void *__libc_realloc(void *old, __SIZE_TYPE__ size);
extern void __libc_free(void *object);
extern void *__interceptor_malloc(__SIZE_TYPE__ size) __attribute__((__weak__));
extern void *__interceptor_calloc(__SIZE_TYPE__ count, __SIZE_TYPE__ size) __attribute__((__weak__));
extern void *__interceptor_realloc(void *old, __SIZE_TYPE__ size) __attribute__((__weak__));
extern void __interceptor_free(void *object) __attribute__((__weak__));
extern char __executable_start[], etext[];
static int cairn_watching;

__attribute__((__unused__)) static void *cairn_real_malloc(__SIZE_TYPE__ size)
{
    return __interceptor_malloc ? __interceptor_malloc(size) : __libc_malloc(size);
}

__attribute__((__unused__)) static void *cairn_real_calloc(__SIZE_TYPE__ count, __SIZE_TYPE__ size)
{
    return __interceptor_calloc ? __interceptor_calloc(count, size) : __libc_calloc(count, size);
}

__attribute__((__unused__)) static void *cairn_real_realloc(void *old, __SIZE_TYPE__ size)
{
    return __interceptor_realloc ? __interceptor_realloc(old, size) : __libc_realloc(old, size);
}

__attribute__((__unused__)) static void cairn_real_free(void *object)
{
    if (__interceptor_free)
        __interceptor_free(object);
    else
        __libc_free(object);
}

/* Whether the caller is the code of this program, not of a library. */
static int cairn_in_program(const void *caller)
{
    return (const char *)caller >= __executable_start && (const char *)caller < etext;
}

/* Whether a call from `caller` is one the test watches. */
static int cairn_watched(const void *caller)
{
    return cairn_watching && cairn_in_program(caller);
}

/* Right after the call under test: what follows is the driver's. */
__attribute__((__unused__)) static void cairn_call_returned(void)
{
    cairn_watching = 0;
}

/* A test checks which of its input objects the call freed. */
static void *cairn_freed[256];
static __SIZE_TYPE__ cairn_freed_count;

/* Right before the call under test. */
__attribute__((__unused__)) static void cairn_forget_frees(void)
{
    cairn_freed_count = 0;
    cairn_watching = 1;
}

/* 1 when the call freed `object`, 0 when not; 1 too (no verdict) when it
 * freed more blocks than are remembered. */
__attribute__((__unused__)) static int cairn_was_freed(const void *object, int expected)
{
    __SIZE_TYPE__ i;
    if (cairn_freed_count == sizeof cairn_freed / sizeof cairn_freed[0])
        return expected;
    for (i = 0; i < cairn_freed_count; i++)
        if (cairn_freed[i] == object)
            return 1;
    return 0;
}
"#;

/// Which allocation calls of the code under test fail, counted while the
/// call under test runs.
const ALLOCATION_COUNTING: &str = r#"
/* Each test chooses which of the malloc, calloc, realloc, strdup and strndup
 * calls (counted from 0) the code under test makes return NULL. */
static unsigned cairn_allocation_calls;
static const unsigned *cairn_failing_calls;
static __SIZE_TYPE__ cairn_failing_count;

/* Right before the call under test. */
static void cairn_fail_allocations(const unsigned *calls, __SIZE_TYPE__ count)
{
    cairn_allocation_calls = 0;
    cairn_failing_calls = calls;
    cairn_failing_count = count;
    cairn_watching = 1;
}

static int cairn_allocation_fails(const void *caller)
{
    if (!cairn_watched(caller))
        return 0;
    unsigned call = cairn_allocation_calls++;
    __SIZE_TYPE__ i;
    for (i = 0; i < cairn_failing_count; i++)
        if (cairn_failing_calls[i] == call)
            return 1;
    return 0;
}
"#;

/// The byte memory new from malloc or realloc starts with.
const FILL: &str = r#"
/* Memory new from malloc or realloc starts with this byte (-1: as it comes),
 * for every caller in this program. */
static int cairn_fill_byte = INITIAL_FILL;

__attribute__((__unused__)) static void cairn_fill_new_memory(int byte)
{
    cairn_fill_byte = byte;
}
"#;

/// One replacement of a C library allocator.
struct Replacement {
    name: &'static str,
    text: &'static str,
}

/// The replacements of the allocators a test counts: malloc, calloc,
/// realloc, strdup and strndup.
const ALLOCATOR_REPLACEMENTS: &[Replacement] = &[
    Replacement {
        name: "malloc",
        text: r#"
void *cairn_replaced_malloc(__SIZE_TYPE__ size) __asm__("malloc");
void *cairn_replaced_malloc(__SIZE_TYPE__ size)
{
    const void *caller = __builtin_return_address(0);
    if (cairn_allocation_fails(caller))
        return (void *)0;
    void *object = cairn_real_malloc(size);
    if (object != (void *)0 && cairn_fill_byte >= 0 && cairn_in_program(caller))
        __builtin_memset(object, cairn_fill_byte, size);
    return object;
}
"#,
    },
    Replacement {
        name: "calloc",
        text: r#"
void *cairn_replaced_calloc(__SIZE_TYPE__ count, __SIZE_TYPE__ size) __asm__("calloc");
void *cairn_replaced_calloc(__SIZE_TYPE__ count, __SIZE_TYPE__ size)
{
    if (cairn_allocation_fails(__builtin_return_address(0)))
        return (void *)0;
    return cairn_real_calloc(count, size);
}
"#,
    },
    Replacement {
        name: "realloc",
        text: r#"
extern __SIZE_TYPE__ cairn_usable_size(void *object) __asm__("malloc_usable_size");

void *cairn_replaced_realloc(void *old, __SIZE_TYPE__ size) __asm__("realloc");
void *cairn_replaced_realloc(void *old, __SIZE_TYPE__ size)
{
    const void *caller = __builtin_return_address(0);
    if (cairn_allocation_fails(caller))
        return (void *)0;
    __SIZE_TYPE__ kept = old == (void *)0 ? 0 : cairn_usable_size(old);
    unsigned char *object = cairn_real_realloc(old, size);
    if (object != (void *)0 && cairn_fill_byte >= 0 && size > kept && cairn_in_program(caller))
        __builtin_memset(object + kept, cairn_fill_byte, size - kept);
    return object;
}
"#,
    },
    Replacement {
        name: "strdup",
        text: r#"
char *cairn_replaced_strdup(const char *s) __asm__("strdup");
char *cairn_replaced_strdup(const char *s)
{
    if (cairn_allocation_fails(__builtin_return_address(0)))
        return (char *)0;
    __SIZE_TYPE__ size = __builtin_strlen(s) + 1;
    char *copy = cairn_real_malloc(size);
    if (copy != (char *)0)
        __builtin_memcpy(copy, s, size);
    return copy;
}
"#,
    },
    Replacement {
        name: "strndup",
        text: r#"
char *cairn_replaced_strndup(const char *s, __SIZE_TYPE__ n) __asm__("strndup");
char *cairn_replaced_strndup(const char *s, __SIZE_TYPE__ n)
{
    if (cairn_allocation_fails(__builtin_return_address(0)))
        return (char *)0;
    __SIZE_TYPE__ length = 0;
    while (length < n && s[length] != '\0')
        length++;
    char *copy = cairn_real_malloc(length + 1);
    if (copy != (char *)0) {
        __builtin_memcpy(copy, s, length);
        copy[length] = '\0';
    }
    return copy;
}
"#,
    },
];

/// The replacement of `free`: it remembers the blocks the code under test
/// frees while the call under test runs.
const FREE: &str = r#"
void cairn_replaced_free(void *object) __asm__("free");
void cairn_replaced_free(void *object)
{
    if (object == (void *)0)
        return;
    if (cairn_watched(__builtin_return_address(0)) && cairn_freed_count < sizeof cairn_freed / sizeof cairn_freed[0])
        cairn_freed[cairn_freed_count++] = object;
    cairn_real_free(object);
}
"#;

/// Reproducers never free their inputs (the function may have freed some):
/// `cairn_input` allocates each one and keeps it in a global, as is a
/// returned pointer, so LeakSanitizer counts them reachable and reports only
/// memory the code under test lost. `capacity`: most input objects one
/// reproducer allocates.
pub fn kept_inputs(out: &mut CodeWriter, capacity: usize, keeps_result: bool) {
    if capacity == 0 && !keeps_result {
        return;
    }
    out.line(
        "/* Inputs and results stay reachable from here: LeakSanitizer then reports only what the code under test lost. */",
    );
    if capacity > 0 {
        out.line(&format!("void *cairn_kept[{capacity}];"));
    }
    if keeps_result {
        out.line("const void *cairn_kept_result;");
    }
    out.blank();
    if capacity > 0 {
        out.text(KEPT_INPUT);
        out.blank();
    }
}

const KEPT_INPUT: &str = r#"static void *cairn_input(size_t count, size_t size)
{
    static size_t kept;
    void *object = calloc(count, size);
    if (object == NULL && count != 0) {
        printf("cairn: out of memory while building the inputs; the finding did not run\n");
        exit(2);
    }
    if (kept < sizeof cairn_kept / sizeof cairn_kept[0])
        cairn_kept[kept++] = object;
    return object;
}"#;

/// Runs a reproducer's call with new memory filled with 0x00, then 0x01
/// bytes: a different result confirms a read of uninitialized memory.
pub const COMPARE_FILLS: &str = r#"/* An uninitialized read shows when the result depends on what new memory holds. */
static void cairn_compare_fills(long long (*call)(int fill))
{
    long long zeros = call(0x00);
    long long ones = call(0x01);
    if (zeros != ones)
        printf("CONFIRMED: the result depends on uninitialized memory: %lld when new memory holds 0x00 bytes, %lld when it holds 0x01 bytes\n",
               zeros, ones);
    else
        printf("not confirmed: the result is %lld whether new memory holds 0x00 or 0x01 bytes\n", zeros);
}"#;

/// What building a test's inputs through the code's own functions
/// allocates is the test's, never a leak of the call under test (as the
/// engine counts leaks): LeakSanitizer leaves those blocks out, even those
/// the call unlinks. Its interface's symbols are weak, NULL when the
/// sanitizers are not linked in.
const BUILDING: &str = r#"/* What building the inputs allocates is the test's, never a leak of the call: LeakSanitizer leaves it out. */
extern void __lsan_disable(void) __attribute__((__weak__));
extern void __lsan_enable(void) __attribute__((__weak__));
static void cairn_building_inputs(int building)
{
    if (building && __lsan_disable)
        __lsan_disable();
    if (!building && __lsan_enable)
        __lsan_enable();
}"#;

/// The call that starts (`true`) or ends building a test's inputs (see
/// [`BUILDING`]).
pub fn building_inputs(building: bool) -> String {
    format!("cairn_building_inputs({});", u8::from(building))
}

/// [`BUILDING`], when `code` (tests or reproducers) builds inputs.
pub fn building_support(out: &mut CodeWriter, code: &str) {
    if code.contains("cairn_building_inputs(") {
        out.text(BUILDING);
        out.blank();
    }
}

/// Stubs keep the pointers they are given, as the real function may: the
/// engine does not count memory handed to a function without a body as
/// leaked, so LeakSanitizer must not either.
const HAND_OVER: &str = r#"/* Stubs keep the last pointers they were given, as the real functions may keep them. */
static const void *cairn_handed[64];
static void cairn_hand_over(const void *pointer)
{
    static unsigned next;
    cairn_handed[next++ % 64] = pointer;
}"#;

fn is_data_pointer(ty: &Type) -> bool {
    matches!(ty.pointee(), Some(p) if !matches!(p, Type::Function(_)))
}

/// `NAME=VALUE` -> (`NAME`, `VALUE`); `NAME` -> (`NAME`, `1`), as `cc -D` reads them.
/// A `-U` name, which the drivers write in an `#undef`.
pub fn checked_macro_name(name: &str) -> Result<String, String> {
    match name.is_empty() || name.contains(char::is_whitespace) {
        true => Err(format!("`{name}` is not a valid -U name")),
        false => Ok(name.to_string()),
    }
}

/// A source's flag as the drivers are built with it: an ISO dialect
/// (`-std=c99`, `-ansi`) becomes its GNU one, which has the same
/// `__STDC_VERSION__` and inline semantics but keeps the POSIX
/// declarations the runner needs (`fork`, `sigaction`) and `//`
/// comments; every other flag stays as it is.
pub fn driver_dialect(flag: &str) -> String {
    let iso = match flag {
        "-ansi" => "90",
        _ => match flag.strip_prefix("-std=") {
            Some("iso9899:1990" | "iso9899:199409") => "90",
            Some("iso9899:1999" | "iso9899:199x") => "99",
            Some("iso9899:2011") => "11",
            Some("iso9899:2017" | "iso9899:2018") => "17",
            Some(std) => match std.strip_prefix('c') {
                Some(version) => version,
                None => return flag.to_string(),
            },
            None => return flag.to_string(),
        },
    };
    format!("-std=gnu{iso}")
}

pub fn parse_define(define: &str) -> Result<(String, String), String> {
    let (name, value) = define.split_once('=').unwrap_or((define, "1"));
    if name.is_empty() || define.contains(['\n', '\r']) {
        return Err(format!("`{define}` is not a valid -D definition"));
    }
    Ok((name.to_string(), value.to_string()))
}

/// Bytes given to an extern global whose type the file leaves incomplete.
const INCOMPLETE_GLOBAL_BYTES: u64 = 4096;

/// Zeroed storage under the symbol `name`, whatever type the code gives
/// it: its C name is `prefix` and `name`.
fn zeroed_storage(prefix: &str, name: &str) -> String {
    format!(
        "unsigned char {prefix}{name}[{INCOMPLETE_GLOBAL_BYTES}] __asm__(\"{name}\") __attribute__((__aligned__(16)))"
    )
}

/// Definitions of the extern globals the source uses but does not define.
pub fn extern_definitions<'i>(
    out: &mut CodeWriter,
    unit: &Unit,
    inputs: impl Iterator<Item = &'i testcase::Inputs> + Clone,
) -> Result<(), String> {
    let inline = &unit.program.inline_definitions;
    if !inline.is_empty() {
        out.line(
            "/* Defined inline only: an extern declaration makes this file define them (C99). */",
        );
        for name in inline {
            out.line(&format!("extern __typeof__({name}) {name};"));
        }
        out.blank();
    }
    let externs = unit.extern_definitions();
    if externs.is_empty() {
        return Ok(());
    }
    out.line("/* Declared extern in the source and defined nowhere: the tests set them. */");
    for g in externs {
        let global = unit.program.global(g);
        let Some(name) = unit.global_name(g) else {
            continue;
        };
        // An array declared without a length gets the longest a test assigns.
        let unsized_len = matches!(global.ty, Type::Array(_, None))
            .then(|| unit.extern_array_len(g, inputs.clone()));
        let declaration = match (&global.ty, unsized_len) {
            // Of a type this file leaves incomplete (`extern struct ctx
            // default_ctx;`): its code only takes the address, so any
            // storage under the symbol links.
            (ty, None) if ir::Layout::size_of(unit.program, ty) == 0 => {
                zeroed_storage("cairn_storage_of_", &global.name)
            }
            // Declared only inside a function body: out of sight here, so
            // defined under another C name with the global's symbol.
            (ty, len) if unit.program.declared_in_blocks_only.contains(&global.name) => {
                let ty = match (ty, len) {
                    (Type::Array(elem, None), Some(len)) => Type::Array(elem.clone(), Some(len)),
                    (ty, _) => ty.clone(),
                };
                let defined = unit.spell(&ty, &name)?;
                format!("{defined} __asm__(\"{}\")", global.name)
            }
            // The element's type as declared, qualifiers and all
            // (`extern const T table[];`), else the definition conflicts.
            (_, Some(len)) => format!("__typeof__({name}[0]) {name}[{len}]"),
            (_, None) => format!("__typeof__({name}) {name}"),
        };
        define_under_own_name(out, unit, &global.name, &format!("{declaration};"));
    }
    out.blank();
    Ok(())
}

/// Definitions of the symbols the linker found undefined in an earlier
/// build ([`Unit::unresolved_symbols`]) that no stub or extern definition
/// of this driver already gives: a variable gets zeroed storage, anything
/// else a function returning 0, as an unscripted stub does. The engine
/// never saw these calls (they come from code it does not lower), so a
/// test whose run reaches one and goes another way is left out by gen.
pub fn unresolved_definitions(out: &mut CodeWriter, unit: &Unit, plans: &[StubPlan]) {
    let program = unit.program;
    let stubbed = |name: &str| plans.iter().any(|p| program.function(p.func).name == name);
    let externs: Vec<&str> = unit
        .extern_definitions()
        .into_iter()
        .map(|g| program.global(g).name.as_str())
        .collect();
    let missing: Vec<&String> = unit
        .unresolved
        .symbols
        .iter()
        .filter(|name| is_identifier(name) && !stubbed(name) && !externs.contains(&name.as_str()))
        .collect();
    if missing.is_empty() {
        return;
    }
    out.line("/* Named by code cairn does not model (inline assembly, a function it");
    out.line(" * refuses) and defined nowhere the driver links: defined here as zero. */");
    for name in missing {
        let variable = program.globals.iter().any(|g| &g.name == name);
        if unit.unresolved.thread_local.contains(name) {
            let storage = zeroed_storage("cairn_unresolved_", name);
            out.line(&format!("_Thread_local {storage};"));
        } else if variable {
            out.line(&format!("{};", zeroed_storage("cairn_unresolved_", name)));
        } else {
            out.line(&format!(
                "long long cairn_unresolved_{name}(void) __asm__(\"{name}\");"
            ));
            out.line(&format!(
                "long long cairn_unresolved_{name}(void) {{ return 0; }}"
            ));
        }
    }
    out.blank();
}

/// For frameworks that run every test in one process: a function each test
/// calls first, which restores what cairn assumed each test starts from
/// (the values the globals had when the first test started, and no stub
/// called yet). Returns notes on the state it cannot
/// restore: a function's `static` locals, out of the driver's reach.
pub fn initial_state(
    out: &mut CodeWriter,
    unit: &Unit,
    plans: &[StubPlan],
    framework: Framework,
) -> Vec<String> {
    let program = unit.program;
    let mut restored = Vec::new();
    let mut notes = Vec::new();
    // Every global that is not const, not only those the analysis sees
    // written: a stale value costs a wrong test, a copy costs nothing.
    for (index, global) in program.globals.iter().enumerate() {
        let g = ir::GlobalId(index as u32);
        let complete = !matches!(global.ty, Type::Array(_, None));
        if global.is_const || !complete || program.in_system_header(global.span) {
            continue;
        }
        match unit.global_name(g) {
            Some(name) => restored.push(name.to_string()),
            None => notes.push(format!(
                "`{}` is a function's static that a test cannot reset: {} runs all tests in one process, so a test may see what an earlier one left in it",
                global.name,
                framework.name()
            )),
        }
    }
    out.line("/* The tests run one after another in this process, and cairn made each for the");
    out.line(" * program's initial state: each test first restores the globals to their values");
    out.line(" * before the first test, and the stubs' call counts. */");
    out.line("static void cairn_start_from_initial_state(void)");
    out.open("{");
    if !restored.is_empty() {
        out.line("static int saved;");
        for name in &restored {
            out.line(&format!(
                "static unsigned char cairn_initial_{name}[sizeof {name}];"
            ));
        }
        out.line("if (!saved) {");
        for name in &restored {
            out.line(&format!(
                "    memcpy(cairn_initial_{name}, &{name}, sizeof {name});"
            ));
        }
        out.line("    saved = 1;");
        out.line("}");
        for name in &restored {
            out.line(&format!(
                "memcpy(&{name}, cairn_initial_{name}, sizeof {name});"
            ));
        }
    }
    for plan in plans {
        let function = &program.function(plan.func).name;
        let names = StubNames::new(function);
        out.line(&format!("{} = 0;", names.calls));
        for i in &plan.written_args {
            let (bytes, length) = StubNames::writes(function, *i);
            out.line(&format!("memset({bytes}, 0, sizeof {bytes});"));
            out.line(&format!("memset({length}, 0, sizeof {length});"));
        }
    }
    out.close("}");
    out.blank();
    notes
}

/// One stub per plan: a script array the tests fill, a call counter, and the
/// function itself, spelled through `__typeof__` so that the definition
/// matches the source's declaration exactly (the IR keeps no qualifiers).
/// A function of the file with a body and a `va_list` parameter: only a
/// variadic function can make a `va_list`, so tests call it through one.
pub fn takes_va_list(unit: &Unit, func: FuncId) -> bool {
    let f = unit.program.function(func);
    f.body.is_some()
        && f.sig
            .params
            .iter()
            .any(|ty| unit.program.is_va_list_pointer(ty))
}

pub fn va_list_wrapper_name(unit: &Unit, func: FuncId) -> String {
    format!("cairn_va_{}", unit.function_name(func))
}

/// For each function taking a `va_list`, a variadic wrapper taking its other
/// parameters, a marker `int` and the arguments the `va_list` walks:
/// `cairn_va_vsum(n, 0, (int)1, (int)2)` calls `vsum(n, ap)`.
pub fn va_list_wrappers(out: &mut CodeWriter, unit: &Unit) -> Result<(), String> {
    for (index, f) in unit.program.functions.iter().enumerate() {
        let func = FuncId(index as u32);
        if !takes_va_list(unit, func) {
            continue;
        }
        let mut params = Vec::new();
        let mut args = Vec::new();
        for (i, ty) in f.sig.params.iter().enumerate() {
            if unit.program.is_va_list_pointer(ty) {
                args.push("ap".to_string());
            } else {
                params.push(unit.spell(ty, &format!("a{i}"))?);
                args.push(format!("a{i}"));
            }
        }
        params.push("int cairn_va_marker, ...".to_string());
        let name = va_list_wrapper_name(unit, func);
        let head = unit.spell(&f.sig.ret, &format!("{name}({})", params.join(", ")))?;
        let call = format!("{}({})", unit.function_name(func), args.join(", "));
        out.line(&format!("static __attribute__((__unused__)) {head}"));
        out.line("{");
        out.line("    __builtin_va_list ap;");
        out.line("    __builtin_va_start(ap, cairn_va_marker);");
        if f.sig.ret == Type::Void {
            out.line(&format!("    {call};"));
        } else {
            out.line(&format!(
                "    {};",
                unit.spell(&f.sig.ret, &format!("result = {call}"))?
            ));
        }
        out.line("    __builtin_va_end(ap);");
        if f.sig.ret != Type::Void {
            out.line("    return result;");
        }
        out.line("}");
        out.blank();
    }
    Ok(())
}

/// The flag that is set while a test runs, when the driver mocks C library
/// functions (`testcase::c_library::MOCKED`): outside it they are the C
/// library's own (gcov writes its counters through them at exit).
pub(crate) const MOCKING: &str = "cairn_mocking";

/// A mock's start: outside a test, the call goes on to the C library's own
/// function, with the argument a variadic one takes after its named ones.
fn pass_on_outside_tests(out: &mut CodeWriter, name: &str, sig: &ir::FnSig) -> Result<(), String> {
    let mut args: Vec<String> = (1..=sig.params.len()).map(|i| format!("arg{i}")).collect();
    out.open(&format!("if (!{MOCKING}) {{"));
    out.line("/* Outside a test: the C library's own. */");
    out.line(&format!("static __typeof__({name}) *real;"));
    out.line("if (real == NULL)");
    out.line(&format!(
        "    real = (__typeof__({name}) *)dlsym(RTLD_NEXT, \"{name}\");"
    ));
    if sig.variadic {
        let trailing = testcase::c_library::trailing(name)
            .ok_or_else(|| format!("cannot pass on the variable arguments of `{name}`"))?;
        let last = args
            .last()
            .cloned()
            .ok_or_else(|| format!("`{name}` takes variable arguments only"))?;
        out.line("__builtin_va_list rest;");
        out.line(&format!("__builtin_va_start(rest, {last});"));
        match trailing {
            Trailing::ModeWhenCreating => {
                out.line("/* A mode follows only when the flags create a file. */");
                out.line(&format!("int creating = ({last} & O_CREAT) != 0;"));
                out.line("#ifdef O_TMPFILE");
                out.line(&format!("creating |= ({last} & O_TMPFILE) == O_TMPFILE;"));
                out.line("#endif");
                out.line(
                    "unsigned int mode = creating ? __builtin_va_arg(rest, unsigned int) : 0;",
                );
                args.push("mode".to_string());
            }
            Trailing::Word => {
                out.line(
                    "/* An int or a pointer: read as a pointer, as the C library reads it. */",
                );
                out.line("void *word = __builtin_va_arg(rest, void *);");
                args.push("word".to_string());
            }
        }
        out.line("__builtin_va_end(rest);");
    }
    out.line(&format!("return real({});", args.join(", ")));
    out.close("}");
    Ok(())
}

/// Whether the driver mocks C library functions: its tests then set
/// [`MOCKING`] while they run.
pub fn mocks_c_library(unit: &Unit, plans: &[StubPlan]) -> bool {
    plans
        .iter()
        .any(|p| testcase::c_library::mocked(&unit.program.function(p.func).name).is_some())
}

/// Before the source, when the driver mocks C library functions: glibc's
/// fortified headers make some of them inline wrappers, which would be
/// called instead of the mocks (and clash with their definitions).
pub fn unfortified_if_mocking(out: &mut CodeWriter, unit: &Unit, plans: &[StubPlan]) {
    if mocks_c_library(unit, plans) {
        out.line("/* The mocks of C library functions below replace them: no inline fortified versions. */");
        out.line("#undef _FORTIFY_SOURCE");
    }
}

/// Where a test starts and where its call returns, when the driver mocks.
pub fn mocking(out: &mut CodeWriter, unit: &Unit, plans: &[StubPlan], on: bool) {
    if mocks_c_library(unit, plans) {
        out.line(&format!("{MOCKING} = {};", i32::from(on)));
    }
}

pub fn stubs(out: &mut CodeWriter, unit: &Unit, plans: &[StubPlan]) -> Result<(), String> {
    if mocks_c_library(unit, plans) {
        out.line("/* C library functions on files, descriptors and the process are mocks while a test runs. */");
        out.line("#include <dlfcn.h>");
        out.line("#ifndef RTLD_NEXT");
        out.line("#define RTLD_NEXT ((void *) -1l) /* glibc's, which <dlfcn.h> gives _GNU_SOURCE only */");
        out.line("#endif");
        out.line(&format!("static int {MOCKING};"));
        out.blank();
    }
    let takes_data_pointer = |plan: &StubPlan| {
        unit.program
            .function(plan.func)
            .sig
            .params
            .iter()
            .any(is_data_pointer)
    };
    if plans.iter().any(takes_data_pointer) {
        out.text(HAND_OVER);
        out.blank();
    }
    for plan in plans {
        let f = unit.program.function(plan.func);
        let names = StubNames::new(&f.name);
        let returns_value = f.sig.ret != Type::Void;
        let what = match unit.program.is_callback_mock(plan.func) {
            true => format!(
                "{}() stands for any function of its type an input may point to",
                comment_text(&f.name)
            ),
            false => format!("{}() has no body in the source", comment_text(&f.name)),
        };
        if returns_value {
            out.line(&format!(
                "/* {what}: this stub returns what each test scripts, in call order. */"
            ));
            out.line(&format!(
                "static {};",
                unit.spell(&f.sig.ret, &format!("{}[{}]", names.script, plan.capacity))?
            ));
            out.line(&format!(
                "static {};",
                unit.spell(&f.sig.ret, &names.past_end)?
            ));
            out.line(&format!("static int {};", names.length));
        } else if testcase::ERROR_FUNCTIONS.contains(&f.name.as_str()) {
            out.line(&format!(
                "/* {what}: it marks an error, so this stub aborts. */"
            ));
        } else if !plan.written_args.is_empty() {
            out.line(&format!(
                "/* {what}: this stub writes what each test scripts. */"
            ));
        } else {
            out.line(&format!("/* {what}: this stub does nothing. */"));
        }
        let recorded: Vec<usize> = (0..f.sig.params.len())
            .filter(|i| is_checked_argument(&f.sig.params[*i]))
            .collect();
        out.line(if recorded.is_empty() {
            "/* Calls made, which the tests check. */"
        } else {
            "/* Calls made, and the numbers each call passed, which the tests check. */"
        });
        out.line(&format!("static int {};", names.calls));
        for i in &recorded {
            let record = format!("{}[{}]", StubNames::argument(&f.name, *i), plan.capacity);
            out.line(&format!(
                "static {};",
                unit.spell(&f.sig.params[*i], &record)?
            ));
        }
        if !plan.written_args.is_empty() {
            out.line("/* What each call writes through its pointers, as each test scripts (NULL: nothing). */");
        }
        for i in &plan.written_args {
            let (bytes, length) = StubNames::writes(&f.name, *i);
            out.line(&format!(
                "static const unsigned char *{bytes}[{}];",
                plan.capacity
            ));
            out.line(&format!("static size_t {length}[{}];", plan.capacity));
        }
        out.blank();
        let mut params: Vec<String> = Vec::new();
        for (i, ty) in f.sig.params.iter().enumerate() {
            params.push(unit.spell(ty, &format!("arg{}", i + 1))?);
        }
        if f.sig.variadic {
            params.push("...".to_string());
        }
        if params.is_empty() {
            params.push("void".to_string());
        }
        let header = unit.spell(
            &f.sig.ret,
            &format!("{}({})", names.implementation, params.join(", ")),
        )?;
        out.line(&format!("static {header}"));
        out.open("{");
        if testcase::c_library::mocked(&f.name).is_some() {
            pass_on_outside_tests(out, &f.name, &f.sig)?;
        }
        let trailing = f.sig.params.len();
        if f.sig.variadic && plan.written_args.contains(&trailing) {
            // The word a mock takes after its named arguments (`ioctl`'s)
            // points to what the test scripts it fills.
            let last = format!("arg{trailing}");
            out.line("__builtin_va_list rest;");
            out.line(&format!("__builtin_va_start(rest, {last});"));
            out.line(&format!(
                "void *arg{} = __builtin_va_arg(rest, void *);",
                trailing + 1
            ));
            out.line("__builtin_va_end(rest);");
        }
        if !recorded.is_empty() {
            out.open(&format!("if ({} < {}) {{", names.calls, plan.capacity));
            for i in &recorded {
                out.line(&format!(
                    "{}[{}] = arg{};",
                    StubNames::argument(&f.name, *i),
                    names.calls,
                    i + 1
                ));
            }
            out.close("}");
        }
        for i in &plan.written_args {
            let (bytes, length) = StubNames::writes(&f.name, *i);
            let at = format!("[{}]", names.calls);
            out.open(&format!(
                "if ({} < {} && {bytes}{at} != NULL) {{",
                names.calls, plan.capacity
            ));
            out.line(&format!(
                "memcpy((void *)arg{}, {bytes}{at}, {length}{at});",
                i + 1
            ));
            out.close("}");
        }
        for (i, ty) in f.sig.params.iter().enumerate() {
            if is_data_pointer(ty) {
                out.line(&format!("cairn_hand_over(arg{});", i + 1));
            } else if !is_checked_argument(ty) {
                out.line(&format!("(void)arg{};", i + 1));
            }
        }
        if testcase::ERROR_FUNCTIONS.contains(&f.name.as_str()) {
            out.line(&format!(
                "fputs(\"{}() was called\\n\", stderr);",
                comment_text(&f.name)
            ));
            out.line("abort();");
        }
        if returns_value {
            out.open(&format!("if ({} >= {}) {{", names.calls, names.length));
            out.line(&format!("{}++;", names.calls));
            out.line(&format!(
                "return {}; /* called more often than scripted */",
                names.past_end
            ));
            out.close("}");
            out.line(&format!("return {}[{}++];", names.script, names.calls));
        } else {
            out.line(&format!("{}++;", names.calls));
        }
        out.close("}");
        // The source's own declaration gives the exact type (`rfbBool f();`
        // returns a `signed char`, which the IR's types do not tell from
        // `char`), unless there is none at file scope: one inside a function
        // body or an implicit one is out of sight, so the stub is exported
        // under another C name with the function's symbol (no declaration
        // to agree with, qualifiers and all).
        let declared = if unit.program.is_callback_mock(plan.func) {
            // cairn's own: no declaration in the source, nothing to export.
            format!("static __typeof__({0}) {1}", names.implementation, f.name)
        } else if unit.program.declared_in_blocks_only.contains(&f.name) {
            format!(
                "__typeof__({0}) cairn_exported_{1} __asm__(\"{1}\")",
                names.implementation, f.name
            )
        } else {
            format!("__typeof__({0}) {0}", f.name)
        };
        let definition = format!(
            "{declared} __attribute__((__alias__(\"{}\")));",
            names.implementation
        );
        define_under_own_name(out, unit, &f.name, &definition);
        out.blank();
    }
    Ok(())
}

/// Writes `definition`, of the source's function or global `name`, with a
/// macro of that name the source leaves defined set aside around it: the
/// definition is of the name the source's declaration has.
fn define_under_own_name(out: &mut CodeWriter, unit: &Unit, name: &str, definition: &str) {
    let shadowed = unit.program.macro_names.iter().any(|m| m == name);
    if shadowed {
        out.line(&format!("#pragma push_macro(\"{name}\")"));
        out.line(&format!("#undef {name}"));
    }
    out.line(definition);
    if shadowed {
        out.line(&format!("#pragma pop_macro(\"{name}\")"));
    }
}

/// The helpers `tests` (the test functions' text) calls; each prints one
/// `FAIL` line and returns 1 when a check fails. For GoogleTest only their
/// declarations: the C++ file defines them as GoogleTest assertions.
pub fn reporting_helpers(out: &mut CodeWriter, tests: &str, framework: Framework) {
    let used: Vec<&str> = HELPERS
        .iter()
        .filter(|(name, _)| tests.contains(name))
        .map(|(_, text)| *text)
        .collect();
    if used.is_empty() {
        return;
    }
    if framework == Framework::Gtest {
        out.line("/* The checks, defined in the C++ file as GoogleTest assertions. */");
        for text in used {
            out.line(&declaration(text));
        }
        out.blank();
        return;
    }
    out.line("/* Each check prints one FAIL line and returns 1 when the value differs. */");
    for text in used {
        out.text(text);
        out.blank();
    }
}

/// `int f(...);` for a helper's text (an optional comment line, then
/// `static int f(...)` up to its body).
fn declaration(helper: &str) -> String {
    let head = helper.split_once("\n{").map_or(helper, |(head, _)| head);
    let signature: Vec<&str> = head
        .lines()
        .filter(|l| !l.starts_with("/*"))
        .map(str::trim)
        .collect();
    format!("{};", signature.join(" ").trim_start_matches("static "))
}

const HELPERS: [(&str, &str); 11] = [
    (
        "cairn_returned_instead_of_exiting(",
        r#"/* A call that should have ended the process with exit(status) returned. */
static int cairn_returned_instead_of_exiting(const char *test, const char *call, int status)
{
    printf("FAIL %s: %s returned, where it ends the process with exit status %d\n", test, call, status);
    return 1;
}"#,
    ),
    (
        "cairn_out_of_memory(",
        r#"static int cairn_out_of_memory(const char *test)
{
    printf("FAIL %s: out of memory while building the inputs\n", test);
    return 1;
}"#,
    ),
    (
        "cairn_set_up_failed(",
        r#"static int cairn_set_up_failed(const char *test, const char *call)
{
    printf("FAIL %s: %s did not succeed while building the inputs\n", test, call);
    return 1;
}"#,
    ),
    (
        "cairn_expect_new(",
        r#"/* An object the call allocated: not NULL, and none the test already knows. */
static int cairn_expect_new(const char *test, const char *what, const void *actual, const char *expected_text,
                            const void *const *known, size_t count)
{
    size_t i;
    if (actual == NULL) {
        printf("FAIL %s: %s NULL, expected a new object (%s)\n", test, what, expected_text);
        return 1;
    }
    for (i = 0; i < count; i++) {
        if (actual == known[i]) {
            printf("FAIL %s: %s %p, an object the test already knows, expected a new one (%s)\n", test, what,
                   actual, expected_text);
            return 1;
        }
    }
    return 0;
}"#,
    ),
    (
        "cairn_expect_signed(",
        r#"static int cairn_expect_signed(const char *test, const char *what, long long actual, long long expected)
{
    if (actual == expected)
        return 0;
    printf("FAIL %s: %s %lld, expected %lld\n", test, what, actual, expected);
    return 1;
}"#,
    ),
    (
        "cairn_expect_unsigned(",
        r#"static int cairn_expect_unsigned(const char *test, const char *what, unsigned long long actual,
                                 unsigned long long expected)
{
    if (actual == expected)
        return 0;
    printf("FAIL %s: %s %llu, expected %llu\n", test, what, actual, expected);
    return 1;
}"#,
    ),
    (
        "cairn_expect_double(",
        r#"/* Bit for bit (so -0 is not +0), except that any NaN matches a NaN. */
static int cairn_expect_double(const char *test, const char *what, double actual, double expected)
{
    if (memcmp(&actual, &expected, sizeof actual) == 0 || (actual != actual && expected != expected))
        return 0;
    printf("FAIL %s: %s %a, expected %a\n", test, what, actual, expected);
    return 1;
}"#,
    ),
    (
        "cairn_expect_float(",
        r#"/* Bit for bit (so -0 is not +0), except that any NaN matches a NaN. */
static int cairn_expect_float(const char *test, const char *what, float actual, float expected)
{
    if (memcmp(&actual, &expected, sizeof actual) == 0 || (actual != actual && expected != expected))
        return 0;
    printf("FAIL %s: %s %a, expected %a\n", test, what, (double)actual, (double)expected);
    return 1;
}"#,
    ),
    (
        "cairn_expect_pointer(",
        r#"static int cairn_expect_pointer(const char *test, const char *what, const void *actual, const void *expected,
                                const char *expected_text)
{
    if (actual == expected)
        return 0;
    printf("FAIL %s: %s %p, expected %s (%p)\n", test, what, actual, expected_text, expected);
    return 1;
}"#,
    ),
    (
        "cairn_expect_bytes(",
        r#"/* The bytes a stream was written; a difference shows both, as C strings. */
static int cairn_expect_bytes(const char *test, const char *what, const char *actual, size_t actual_size,
                              const char *expected, size_t expected_size)
{
    if (actual_size == expected_size && (expected_size == 0 || memcmp(actual, expected, expected_size) == 0))
        return 0;
    printf("FAIL %s: %s", test, what);
    const char *shown[2] = { actual, expected };
    const size_t sizes[2] = { actual_size, expected_size };
    int k;
    size_t i;
    for (k = 0; k < 2; k++) {
        printf(k == 0 ? " %zu bytes \"" : ", expected %zu bytes \"", sizes[k]);
        for (i = 0; i < sizes[k] && i < 200; i++) {
            unsigned char c = (unsigned char)shown[k][i];
            if (c == '"' || c == '\\')
                printf("\\%c", c);
            else if (c >= 0x20 && c < 0x7f)
                putchar(c);
            else
                printf("\\%03o", c);
        }
        printf(sizes[k] > 200 ? "\"..." : "\"");
    }
    printf("\n");
    return 1;
}"#,
    ),
    (
        "cairn_expect_function(",
        r#"static int cairn_expect_function(const char *test, const char *what, int same, const char *expected_text)
{
    if (same)
        return 0;
    printf("FAIL %s: %s another function, expected %s\n", test, what, expected_text);
    return 1;
}"#,
    ),
];

/// The functions `text` calls that may be the C library's: every
/// identifier followed by `(`, but the driver's own (`cairn_`), keywords,
/// macros in capitals, compiler builtins and glibc's internal names
/// (`__libc_malloc`), and the `exceptions` (a parameter called, such as
/// `call(0x00)`).
#[cfg(test)]
pub(crate) fn library_names_called(
    text: &str,
    exceptions: &[&str],
) -> std::collections::BTreeSet<String> {
    const NOT_CALLS: &[&str] = &[
        "if", "for", "while", "switch", "return", "sizeof", "defined", "else", "va_start",
        "va_arg", "va_end", "void", "char", "short", "int", "long", "unsigned", "signed", "float",
        "double", "const", "size_t", "pid_t",
    ];
    // The code alone: comments and string literals become spaces.
    let mut code = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(c) = rest.chars().next() {
        let skipped = if rest.starts_with("/*") {
            rest.find("*/").map_or(rest.len(), |end| end + 2)
        } else if c == '"' {
            let body = &rest[1..];
            let mut end = 0;
            while let Some(d) = body[end..].chars().next() {
                end += d.len_utf8();
                match d {
                    '\\' => end += body[end..].chars().next().map_or(0, char::len_utf8),
                    '"' => break,
                    _ => {}
                }
            }
            1 + end
        } else {
            code.push(c);
            rest = &rest[c.len_utf8()..];
            continue;
        };
        code.push(' ');
        rest = &rest[skipped..];
    }
    let text = code.as_str();
    let mut names = std::collections::BTreeSet::new();
    let bytes = text.as_bytes();
    let mut at = 0;
    while at < bytes.len() {
        let starts = (bytes[at].is_ascii_alphabetic() || bytes[at] == b'_')
            && (at == 0 || !(bytes[at - 1].is_ascii_alphanumeric() || bytes[at - 1] == b'_'));
        if !starts {
            at += 1;
            continue;
        }
        let end = at
            + text[at..]
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .unwrap_or(text.len() - at);
        let name = &text[at..end];
        if text[end..].trim_start_matches(' ').starts_with('(')
            && !name.starts_with("cairn_")
            && !name.starts_with("__")
            && !name
                .chars()
                .all(|c| c.is_ascii_uppercase() || c == '_' || c.is_ascii_digit())
            && !NOT_CALLS.contains(&name)
            && !exceptions.contains(&name)
        {
            names.insert(name.to_string());
        }
        at = end;
    }
    names
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every C library function the fixed C calls is `#undef`ed after the
    /// source, so that no macro of the source renames the driver's calls.
    #[test]
    fn the_driver_undefines_every_library_function_it_calls() {
        for text in driver_texts() {
            for name in library_names_called(text, &["call", "main", "run"]) {
                assert!(LIBRARY_CALLS.contains(&name.as_str()), "{name} in {text}");
            }
        }
    }

    /// The fixed C a driver may contain, from this file and the streams'.
    fn driver_texts() -> Vec<&'static str> {
        let mut texts = vec![
            WATCHING,
            ALLOCATION_COUNTING,
            FILL,
            FREE,
            KEPT_INPUT,
            COMPARE_FILLS,
            BUILDING,
            HAND_OVER,
            crate::streams::SUPPORT,
            crate::environment::SUPPORT,
            crate::driver::FINDINGS_MAIN,
        ];
        texts.extend(HELPERS.iter().map(|(_, text)| *text));
        texts
    }

    /// Old code is built with `-std=gnu89` (and so are its drivers), where
    /// a `for` may not declare its variable.
    #[test]
    fn driver_c_declares_no_variable_in_a_for() {
        for text in driver_texts() {
            for line in text.lines() {
                let declares = line.trim_start().strip_prefix("for (").is_some_and(|rest| {
                    [
                        "int ",
                        "size_t ",
                        "long ",
                        "unsigned ",
                        "__SIZE_TYPE__ ",
                        "char ",
                    ]
                    .iter()
                    .any(|ty| rest.starts_with(ty))
                });
                assert!(!declares, "{line}");
            }
        }
    }

    /// Helpers that may meet in one driver never share a name (a stream's
    /// `cairn_sink_kept` against the kept pointers' array `cairn_kept`).
    #[test]
    fn driver_helpers_are_defined_once() {
        let mut defined = std::collections::BTreeMap::new();
        for text in driver_texts() {
            for line in text
                .lines()
                .filter(|l| !l.starts_with(' ') && !l.starts_with('/'))
            {
                let Some(at) = line.find("cairn_") else {
                    continue;
                };
                let name: String = line[at..]
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                    .collect();
                // A function definition's head; its body follows.
                if line.ends_with(')') && line[at + name.len()..].starts_with('(') {
                    *defined.entry(name).or_insert(0) += 1;
                }
            }
        }
        assert!(defined.contains_key("cairn_sink_kept"), "{defined:?}");
        assert!(!defined.contains_key("cairn_kept"), "{defined:?}");
        let twice: Vec<_> = defined.iter().filter(|(_, n)| **n > 1).collect();
        assert!(twice.is_empty(), "{twice:?}");
    }
}
