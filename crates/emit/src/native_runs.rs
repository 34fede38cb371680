//! The harness of a Test-Comp program's native runs: C compiled with the
//! program (the program with gcc's `-fsanitize-coverage=trace-pc,trace-cmp`
//! and `-finstrument-functions`, this file without), so that the program runs at native speed on input streams of
//! any length while the harness records what each run did.
//!
//! Each `__VERIFIER_nondet_*()` the program declares without a body first
//! replays the values of the run's prefix (`CAIRN_PREFIX`, a file of one
//! number per line: a test found earlier, perhaps changed), then draws new
//! ones from a generator seeded by `CAIRN_SEED`: the code's constants and
//! their neighbours, small numbers, the type's limits, bytes, numbers of a
//! random magnitude, any number of the width. Every value the run consumed and
//! the control-flow edges it took (hashed pairs of blocks, as fuzzers count
//! them) are written to the file `CAIRN_LOG` names when the run ends: at exit, at a signal
//! that ends it (a crash, `abort`), at its time limit (`CAIRN_MILLISECONDS`), or when it
//! has consumed as many values as a test may hold, where it exits as
//! TestCov's harness does when a test's inputs run out. A run is then a
//! test whose values reproduce it exactly.
//!
//! Log lines: `v INDEX BITS` (a value, `INDEX` in [`NativeHarness::inputs`]),
//! `e EDGE`, `c A B` (two operands a comparison of the program compared,
//! its last differing pair), `x` when the error function was entered, and last `end HOW`
//! (`exit`, `signal`, `time`, `inputs`, `assumption`).

use crate::ctype;
use crate::testcomp::NONDET_PREFIX;
use ir::{FloatKind, FuncId, Program, Type};
use std::fmt::Write;

/// Most values one run consumes (a test's inputs).
pub const MOST_VALUES: usize = 200_000;

/// Slots of the edge map: hashed pairs of blocks.
const EDGE_SLOTS: u32 = 1 << 16;

/// The harness's text, and the program's input functions in the order the
/// log numbers them.
pub struct NativeHarness {
    pub c: String,
    pub inputs: Vec<FuncId>,
}

/// How a value of an input function's type is drawn and returned.
#[derive(Clone, Copy)]
enum Kind {
    Int { bits: u16, signed: bool },
    Bool,
    Float(FloatKind),
}

impl Kind {
    fn of(ty: &Type) -> Option<Kind> {
        match ty {
            Type::Int(int) if int.is_bool => Some(Kind::Bool),
            Type::Int(int) => Some(Kind::Int {
                bits: int.bits,
                signed: int.signed,
            }),
            Type::Float(kind @ (FloatKind::F32 | FloatKind::F64)) => Some(Kind::Float(*kind)),
            _ => None,
        }
    }

    /// Arguments of `cairn_value`: width, signedness (or 2 for a bool), and
    /// 1 or 2 for a float or double.
    fn arguments(self) -> (u16, u8, u8) {
        match self {
            Kind::Int { bits, signed } => (bits, u8::from(signed), 0),
            Kind::Bool => (8, 2, 0),
            Kind::Float(FloatKind::F32) => (32, 0, 1),
            Kind::Float(_) => (64, 0, 2),
        }
    }
}

/// The code's constants, which the runs draw among other values.
#[derive(Default)]
pub struct Constants {
    pub ints: Vec<i128>,
    pub floats: Vec<f64>,
}

/// The harness for `program`, or why its runs cannot be native (an input
/// function returning a pointer or a structure).
pub fn native_harness(program: &Program, constants: &Constants) -> Result<NativeHarness, String> {
    let mut definitions = String::new();
    let mut inputs = Vec::new();
    for (index, function) in program.functions.iter().enumerate() {
        if function.body.is_some() || !function.name.starts_with(NONDET_PREFIX) {
            continue;
        }
        let kind = Kind::of(&function.sig.ret).ok_or_else(|| {
            format!(
                "`{}` returns a value the native runs cannot draw",
                function.name
            )
        })?;
        let ret = ctype::type_name(program, &function.sig.ret)
            .map_err(|_| format!("`{}` has a return type C cannot spell", function.name))?;
        let (bits, signed, float) = kind.arguments();
        let number = inputs.len();
        let _ = match kind {
            Kind::Float(_) => writeln!(
                definitions,
                "{ret} {name}(void)\n{{\n    {ret} value;\n    uint64_t bits = cairn_value({number}, {bits}, {signed}, {float});\n    memcpy(&value, &bits, sizeof value);\n    return value;\n}}\n",
                name = function.name
            ),
            _ => writeln!(
                definitions,
                "{ret} {name}(void)\n{{\n    return ({ret})cairn_value({number}, {bits}, {signed}, {float});\n}}\n",
                name = function.name
            ),
        };
        inputs.push(FuncId(index as u32));
    }
    let assume = program
        .function_by_name("__VERIFIER_assume")
        .is_some_and(|f| program.function(f).body.is_none());
    if assume {
        definitions.push_str(
            "void __VERIFIER_assume(int holds)\n{\n    if (!holds)\n        cairn_end(\"assumption\", 0);\n}\n\n",
        );
    }
    let error_function = testcase::ERROR_FUNCTIONS.iter().find_map(|name| {
        let func = program.function_by_name(name)?;
        Some((name, program.function(func).body.is_some()))
    });
    let error_reference = match error_function {
        Some((name, true)) => {
            format!("extern void {name}(void);\n#define CAIRN_ERROR_FUNCTION ((uintptr_t){name})\n")
        }
        // Declared only (older tasks' `__VERIFIER_error`): the harness
        // defines it, as Test-Comp's does, ending the run.
        Some((name, false)) => {
            let _ = write!(
                definitions,
                "void {name}(void)\n{{\n    cairn_error_entered = 1;\n    abort();\n}}\n\n"
            );
            String::new()
        }
        None => String::new(),
    };
    let mut table = String::from("static const uint64_t cairn_constants[] = {0");
    for constant in &constants.ints {
        let _ = write!(table, ", {}u", *constant as u64);
    }
    // Doubles by their bits: exact, whatever the value.
    table.push_str("};\nstatic const uint64_t cairn_float_constants[] = {0");
    for constant in &constants.floats {
        let _ = write!(table, ", {}u", constant.to_bits());
    }
    table.push_str("};\n");
    let c = format!(
        "{PRELUDE}\n#define CAIRN_EDGE_SLOTS {EDGE_SLOTS}u\n#define CAIRN_MOST_VALUES {MOST_VALUES}u\n{error_reference}{table}\n{RUNTIME}\n{definitions}"
    );
    Ok(NativeHarness { c, inputs })
}

const PRELUDE: &str = "/* Native runs of a Test-Comp program, written by cairn: the program's
 * __VERIFIER_nondet_*() functions, and a record of each run. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <unistd.h>

/* The record and the prefix go through system calls: the program may
   define `write`, `open` or `fopen` itself (a task's model of them). */";

const RUNTIME: &str = r#"static unsigned char cairn_edges[CAIRN_EDGE_SLOTS];
static uintptr_t cairn_previous_block;
static int cairn_error_entered;

/* Called by the program's code at each block (-fsanitize-coverage=trace-pc). */
void __sanitizer_cov_trace_pc(void)
{
    uintptr_t block = (uintptr_t)__builtin_return_address(0);
    /* From the binary's own code, where it is loaded this time. */
    block -= (uintptr_t)__sanitizer_cov_trace_pc;
    uint64_t edge = (uint64_t)(block ^ cairn_previous_block) * 0x9e3779b97f4a7c15ull;
    cairn_edges[(edge >> 40) % CAIRN_EDGE_SLOTS] = 1;
    cairn_previous_block = block >> 1;
}

/* Operands the program compared (-fsanitize-coverage=trace-cmp), the last
 * differing pair of each comparison (a loop's counter fills no table): a
 * value of the stream equal to one side is worth setting to the other. */
#define CAIRN_COMPARISONS 256
static uint64_t cairn_compared[CAIRN_COMPARISONS][3];

__attribute__((__noinline__)) static void cairn_compare_at(uintptr_t site, uint64_t a, uint64_t b)
{
    uint64_t slot = ((uint64_t)site * 0x9e3779b97f4a7c15ull >> 40) % CAIRN_COMPARISONS;
    if (a == b)
        return;
    cairn_compared[slot][0] = site;
    cairn_compared[slot][1] = a;
    cairn_compared[slot][2] = b;
}

#define cairn_compare(a, b) cairn_compare_at((uintptr_t)__builtin_return_address(0), (a), (b))

void __sanitizer_cov_trace_cmp1(uint8_t a, uint8_t b) { cairn_compare(a, b); }
void __sanitizer_cov_trace_cmp2(uint16_t a, uint16_t b) { cairn_compare(a, b); }
void __sanitizer_cov_trace_cmp4(uint32_t a, uint32_t b) { cairn_compare(a, b); }
void __sanitizer_cov_trace_cmp8(uint64_t a, uint64_t b) { cairn_compare(a, b); }
void __sanitizer_cov_trace_const_cmp1(uint8_t a, uint8_t b) { cairn_compare(a, b); }
void __sanitizer_cov_trace_const_cmp2(uint16_t a, uint16_t b) { cairn_compare(a, b); }
void __sanitizer_cov_trace_const_cmp4(uint32_t a, uint32_t b) { cairn_compare(a, b); }
void __sanitizer_cov_trace_const_cmp8(uint64_t a, uint64_t b) { cairn_compare(a, b); }

void __sanitizer_cov_trace_cmpf(float a, float b)
{
    uint32_t x, y;
    memcpy(&x, &a, sizeof x);
    memcpy(&y, &b, sizeof y);
    cairn_compare(x, y);
}

void __sanitizer_cov_trace_cmpd(double a, double b)
{
    uint64_t x, y;
    memcpy(&x, &a, sizeof x);
    memcpy(&y, &b, sizeof y);
    cairn_compare(x, y);
}

/* cases[0] values of cases[1] bits follow from cases[2]. */
void __sanitizer_cov_trace_switch(uint64_t value, uint64_t *cases)
{
    uint64_t i;
    for (i = 0; i < cases[0] && i < 16; i++)
        cairn_compare(value, cases[2 + i]);
}

/* Called as each of the program's functions starts (-finstrument-functions). */
void __cyg_profile_func_enter(void *function, void *call_site)
{
    (void)call_site;
#ifdef CAIRN_ERROR_FUNCTION
    if ((uintptr_t)function == CAIRN_ERROR_FUNCTION)
        cairn_error_entered = 1;
#else
    (void)function;
#endif
}

void __cyg_profile_func_exit(void *function, void *call_site)
{
    (void)function;
    (void)call_site;
}

static uint64_t *cairn_prefix;
static size_t cairn_prefix_length;
static uint64_t cairn_random_state;
static unsigned short *cairn_log_inputs;
static uint64_t *cairn_log_bits;
static size_t cairn_log_length;
static int cairn_log_fd = -1;
static volatile sig_atomic_t cairn_ended;

static char cairn_out[1 << 16];
static size_t cairn_out_length;

static void cairn_flush(void)
{
    size_t done = 0;
    while (done < cairn_out_length) {
        long n = syscall(SYS_write, cairn_log_fd, cairn_out + done, cairn_out_length - done);
        if (n <= 0)
            break;
        done += (size_t)n;
    }
    cairn_out_length = 0;
}

static void cairn_put(const char *text)
{
    size_t length = strlen(text);
    if (cairn_out_length + length > sizeof cairn_out)
        cairn_flush();
    memcpy(cairn_out + cairn_out_length, text, length);
    cairn_out_length += length;
}

static void cairn_put_number(uint64_t n)
{
    char digits[24];
    int at = sizeof digits - 1;
    digits[at] = '\0';
    do {
        digits[--at] = (char)('0' + n % 10);
        n /= 10;
    } while (n != 0);
    cairn_put(digits + at);
}

/* Writes the run's record once, however the run ends. */
static void cairn_write_record(const char *how)
{
    size_t i;
    if (cairn_ended || cairn_log_fd < 0)
        return;
    cairn_ended = 1;
    for (i = 0; i < cairn_log_length; i++) {
        cairn_put("v ");
        cairn_put_number(cairn_log_inputs[i]);
        cairn_put(" ");
        cairn_put_number(cairn_log_bits[i]);
        cairn_put("\n");
    }
    for (i = 0; i < CAIRN_EDGE_SLOTS; i++)
        if (cairn_edges[i]) {
            cairn_put("e ");
            cairn_put_number(i);
            cairn_put("\n");
        }
    for (i = 0; i < CAIRN_COMPARISONS; i++)
        if (cairn_compared[i][0] != 0) {
            cairn_put("c ");
            cairn_put_number(cairn_compared[i][1]);
            cairn_put(" ");
            cairn_put_number(cairn_compared[i][2]);
            cairn_put("\n");
        }
    if (cairn_error_entered)
        cairn_put("x\n");
    cairn_put("end ");
    cairn_put(how);
    cairn_put("\n");
    cairn_flush();
}

static void cairn_end(const char *how, int status)
{
    cairn_write_record(how);
    _exit(status);
}

static void cairn_at_exit(void)
{
    cairn_write_record("exit");
}

static void cairn_on_signal(int signal)
{
    cairn_write_record(signal == SIGALRM ? "time" : "signal");
    _exit(128 + signal);
}

static uint64_t cairn_random(void)
{
    uint64_t z = (cairn_random_state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static uint64_t cairn_mask(unsigned bits)
{
    return bits >= 64 ? ~0ull : (1ull << bits) - 1;
}

static uint64_t cairn_constant(uint64_t any)
{
    uint64_t constant = cairn_constants[any % (sizeof cairn_constants / sizeof cairn_constants[0])];
    return constant + (any >> 32) % 3 - 1;
}

/* A new value of `bits` bits: the code's constants and their neighbours,
 * small numbers, the limits, bytes, any value. */
static uint64_t cairn_draw_int(unsigned bits, int is_signed)
{
    uint64_t pick = cairn_random() % 115, any = cairn_random();
    uint64_t top = 1ull << (bits - 1);
    if (pick >= 100)
        return cairn_constant(any) & cairn_mask(bits);
    if (pick < 35)
        return (is_signed ? (uint64_t)((int64_t)(any % 33) - 16) : any % 33) & cairn_mask(bits);
    if (pick < 50) {
        uint64_t limits[6] = {0, 1, cairn_mask(bits), top, top - 1, top + 1};
        if (!is_signed)
            limits[3] = cairn_mask(bits) - 1;
        return limits[any % 6] & cairn_mask(bits);
    }
    if (pick < 70)
        return any % 256;
    if (pick < 85)
        return (is_signed ? (uint64_t)((int64_t)(any % 2001) - 1000) : any % 2001) & cairn_mask(bits);
    if (pick < 93) {
        /* A random magnitude: as many values of 20 bits as of 2 or 30. */
        uint64_t magnitude = any & cairn_mask(1 + cairn_random() % (is_signed ? bits - 1 : bits));
        return (is_signed && (any >> 63) ? 0 - magnitude : magnitude) & cairn_mask(bits);
    }
    return any & cairn_mask(bits);
}

static uint64_t cairn_draw_float(int is_double)
{
    uint64_t pick = cairn_random() % 115, any = cairn_random();
    double value;
    if (pick >= 105) {
        uint64_t bits = cairn_float_constants[any % (sizeof cairn_float_constants / sizeof cairn_float_constants[0])];
        memcpy(&value, &bits, sizeof value);
        /* The constant, or just beside it. */
        value *= 1.0 + (double)((int64_t)((any >> 32) % 3) - 1) * 1e-9;
    } else if (pick >= 100)
        value = (double)(int64_t)cairn_constant(any);
    else if (pick < 35)
        value = (double)((int64_t)(any % 33) - 16);
    else if (pick < 70)
        value = ((double)(any >> 11) / 9007199254740992.0) * 2000.0 - 1000.0;
    else if (pick < 80) {
        double specials[6] = {0.0, -0.0, 1.0, -1.0, 0.5, 1e30};
        value = specials[any % 6];
    } else
        return is_double ? any : any & 0xffffffffull;
    if (is_double) {
        uint64_t bits;
        memcpy(&bits, &value, sizeof bits);
        return bits;
    } else {
        float single = (float)value;
        uint32_t bits;
        memcpy(&bits, &single, sizeof bits);
        return bits;
    }
}

/* A NaN as the default one of its sign, the only NaNs a test can hold
 * (TestCov's harness reads `nan` with no payload). */
static uint64_t cairn_without_payload(uint64_t bits, int is_double)
{
    if (is_double) {
        if ((bits & 0x7ff0000000000000ull) == 0x7ff0000000000000ull && (bits & 0xfffffffffffffull) != 0)
            return (bits & 0x8000000000000000ull) | 0x7ff8000000000000ull;
    } else if ((bits & 0x7f800000u) == 0x7f800000u && (bits & 0x7fffffu) != 0)
        return (bits & 0x80000000u) | 0x7fc00000u;
    return bits;
}

/* The next value of input function `input`: the prefix's, then a new one. */
static uint64_t cairn_value(unsigned input, unsigned bits, int sign_or_bool, int float_kind)
{
    uint64_t value;
    if (cairn_log_length >= CAIRN_MOST_VALUES)
        cairn_end("inputs", 1);
    if (cairn_log_length < cairn_prefix_length)
        value = cairn_prefix[cairn_log_length] & cairn_mask(bits);
    else if (float_kind != 0)
        value = cairn_draw_float(float_kind == 2);
    else if (sign_or_bool == 2)
        value = cairn_random() % 2;
    else
        value = cairn_draw_int(bits, sign_or_bool);
    if (sign_or_bool == 2)
        value = value != 0;
    if (float_kind != 0)
        value = cairn_without_payload(value, float_kind == 2);
    cairn_log_inputs[cairn_log_length] = (unsigned short)input;
    cairn_log_bits[cairn_log_length] = value;
    cairn_log_length++;
    return value;
}

/* The prefix file: one decimal number per line. */
static void cairn_read_prefix(const char *path)
{
    char buffer[1 << 16];
    unsigned long long bits = 0;
    int in_number = 0;
    long n, i;
    int fd = (int)syscall(SYS_openat, AT_FDCWD, path, O_RDONLY, 0);
    cairn_prefix = malloc(CAIRN_MOST_VALUES * sizeof *cairn_prefix);
    if (fd < 0 || cairn_prefix == NULL)
        return;
    while ((n = syscall(SYS_read, fd, buffer, sizeof buffer)) > 0)
        for (i = 0; i < n; i++) {
            if (buffer[i] >= '0' && buffer[i] <= '9') {
                bits = bits * 10 + (unsigned long long)(buffer[i] - '0');
                in_number = 1;
            } else if (in_number) {
                if (cairn_prefix_length < CAIRN_MOST_VALUES)
                    cairn_prefix[cairn_prefix_length++] = bits;
                bits = 0;
                in_number = 0;
            }
        }
    if (in_number && cairn_prefix_length < CAIRN_MOST_VALUES)
        cairn_prefix[cairn_prefix_length++] = bits;
    syscall(SYS_close, fd);
}

__attribute__((__constructor__)) static void cairn_start(void)
{
    const char *log = getenv("CAIRN_LOG"), *seed = getenv("CAIRN_SEED");
    const char *prefix = getenv("CAIRN_PREFIX"), *milliseconds = getenv("CAIRN_MILLISECONDS");
    struct itimerval limit = {{0, 0}, {1, 0}};
    int signals[] = {SIGABRT, SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGALRM, SIGTERM};
    size_t i;
    if (log == NULL)
        return;
    cairn_log_fd = (int)syscall(SYS_openat, AT_FDCWD, log, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    cairn_random_state = seed != NULL ? strtoull(seed, NULL, 10) : 0;
    cairn_log_inputs = malloc(CAIRN_MOST_VALUES * sizeof *cairn_log_inputs);
    cairn_log_bits = malloc(CAIRN_MOST_VALUES * sizeof *cairn_log_bits);
    if (prefix != NULL)
        cairn_read_prefix(prefix);
    for (i = 0; i < sizeof signals / sizeof signals[0]; i++)
        signal(signals[i], cairn_on_signal);
    atexit(cairn_at_exit);
    if (milliseconds != NULL) {
        unsigned long ms = strtoul(milliseconds, NULL, 10);
        limit.it_value.tv_sec = (time_t)(ms / 1000);
        limit.it_value.tv_usec = (suseconds_t)(ms % 1000 * 1000);
    }
    setitimer(ITIMER_REAL, &limit, NULL);
}
"#;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testcomp::tests::declared;
    use ir::IntType;

    #[test]
    fn each_input_function_draws_its_own_type_and_is_numbered_in_order() {
        let mut program = Program::default();
        program.functions.push(declared(
            "__VERIFIER_nondet_uchar",
            Type::Int(IntType::UCHAR),
        ));
        program.functions.push(declared("abort", Type::Void));
        program.functions.push(declared(
            "__VERIFIER_nondet_double",
            Type::Float(FloatKind::F64),
        ));
        let constants = Constants {
            ints: vec![7, -1],
            floats: vec![0.5],
        };
        let harness = native_harness(&program, &constants).expect("a harness");
        assert_eq!(harness.inputs, vec![FuncId(0), FuncId(2)]);
        assert!(harness
            .c
            .contains("unsigned char __VERIFIER_nondet_uchar(void)\n{\n    return (unsigned char)cairn_value(0, 8, 0, 0);"));
        assert!(harness
            .c
            .contains("uint64_t bits = cairn_value(1, 64, 0, 2);"));
        assert!(!harness.c.contains(" abort(void)"));
        assert!(harness
            .c
            .contains("cairn_constants[] = {0, 7u, 18446744073709551615u};"));
        assert!(harness
            .c
            .contains("cairn_float_constants[] = {0, 4602678819172646912u};"));
    }

    #[test]
    fn an_input_function_returning_a_pointer_has_no_native_runs() {
        let mut program = Program::default();
        program
            .functions
            .push(declared("__VERIFIER_nondet_pointer", Type::ptr(Type::Void)));
        let why = native_harness(&program, &Constants::default())
            .err()
            .expect("no harness");
        assert!(why.contains("__VERIFIER_nondet_pointer"), "{why}");
    }
}
