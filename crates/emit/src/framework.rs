//! How each test framework spells the parts of a test that differ: the
//! test function's head and end, a failed set-up, the checks, and the
//! runner. Everything else (inputs, the call, which checks) is shared.
//!
//! * plain: cairn's own runner (`runner.rs`), each test in a process of its
//!   own; checks are `cairn_expect_*` helpers that print a `FAIL` line.
//! * cmocka: `static void test(void **state)` with `assert_int_equal` and
//!   friends, run by `cmocka_run_group_tests`.
//! * gtest: the same C test bodies as plain, in `<stem>_test_cases.c`
//!   (which includes the source, so `static` functions and the stubs stay
//!   C), and `<stem>_test.cc` with one `TEST(<stem>, name)` per test; the
//!   `cairn_expect_*` helpers are defined there with `EXPECT_EQ`, so each
//!   check reports to GoogleTest.

use crate::literal::comment_text;
use crate::names::identifier_from_path;
use crate::support::SourceRef;
use crate::CodeWriter;
pub use testcase::json::Framework;

/// One check of a value after the call, before a framework spells it.
pub enum Assertion<'a> {
    Signed {
        actual: &'a str,
        expected: String,
    },
    Unsigned {
        actual: &'a str,
        expected: String,
    },
    Pointer {
        actual: &'a str,
        expected: String,
    },
    /// A function pointer compared with a function of the file.
    Function {
        actual: &'a str,
        expected: String,
    },
    /// An `__int128` or `unsigned __int128`, compared as its two 64-bit
    /// halves (the helpers take at most `long long`).
    Wide {
        actual: &'a str,
        expected: String,
    },
    /// A `float` (`single`) or `double`, bit for bit but any NaN matching a NaN.
    Float {
        actual: &'a str,
        expected: String,
        single: bool,
    },
    /// The `actual_size` bytes at `actual` (what a stream was written).
    Bytes {
        actual: &'a str,
        actual_size: &'a str,
        expected: Vec<u8>,
    },
}

/// The names of a driver's files.
pub struct DriverFiles {
    /// The file with the tests (and the runner, unless GoogleTest's).
    pub driver: String,
    /// For GoogleTest: the C file with the tests' bodies.
    pub c_part: Option<String>,
}

pub fn driver_files(framework: Framework, stem: &str) -> DriverFiles {
    match framework {
        Framework::Plain | Framework::Cmocka => DriverFiles {
            driver: format!("{stem}_test.c"),
            c_part: None,
        },
        Framework::Gtest => DriverFiles {
            driver: format!("{stem}_test.cc"),
            c_part: Some(format!("{stem}_test_cases.c")),
        },
    }
}

/// Whether a test counts its failed checks in a variable and returns
/// whether any failed (cairn's helpers); CMocka's assertions end the test.
pub fn counts_failures(framework: Framework) -> bool {
    framework != Framework::Cmocka
}

/// The head of test function `name`.
pub fn test_signature(framework: Framework, name: &str) -> String {
    match framework {
        Framework::Plain => format!("static int {name}(void)"),
        Framework::Cmocka => format!("static void {name}(void **state)"),
        // Called from the C++ file.
        Framework::Gtest => format!("int {name}(void)"),
    }
}

/// Whether the framework runs every test in one process (so each test
/// first restores the state cairn assumed, see `support::initial_state`).
pub fn shares_process(framework: Framework) -> bool {
    framework != Framework::Plain
}

/// The test function's first statements.
pub fn test_prologue(framework: Framework) -> &'static [&'static str] {
    match framework {
        Framework::Plain => &[],
        Framework::Cmocka => &[
            "(void)state; /* no fixture */",
            "cairn_start_from_initial_state();",
        ],
        Framework::Gtest => &["cairn_start_from_initial_state();"],
    }
}

/// The statement that ends a test whose input objects could not be allocated.
pub fn out_of_memory(framework: Framework) -> &'static str {
    match framework {
        Framework::Plain | Framework::Gtest => "return cairn_out_of_memory(__func__);",
        Framework::Cmocka => "fail_msg(\"out of memory while building the inputs\");",
    }
}

/// The statement that ends a test whose input an initialiser did not set
/// up (`call`: the call as the test wrote it).
pub fn set_up_failed(framework: Framework, call: &str) -> String {
    let call = crate::literal::bytes_literal(call.as_bytes());
    match framework {
        Framework::Plain | Framework::Gtest => {
            format!("return cairn_set_up_failed(__func__, {call});")
        }
        Framework::Cmocka => {
            format!("fail_msg(\"%s did not succeed while building the inputs\", {call});")
        }
    }
}

/// The statement after `if (cairn_expect_new(...))`: later checks read
/// through the object's name, so the test ends there.
pub fn stop_test(framework: Framework) -> &'static str {
    match framework {
        Framework::Plain | Framework::Gtest => "return 1;",
        Framework::Cmocka => "fail();",
    }
}

/// One check as a statement; `what` describes the value for cairn's
/// helpers (CMocka prints both values and the line instead).
pub fn check_statement(
    framework: Framework,
    failures: &str,
    what: &str,
    assertion: &Assertion,
) -> String {
    let what = crate::literal::escape_string(what);
    let text = |s: &str| crate::literal::escape_string(s);
    match (framework, assertion) {
        (Framework::Cmocka, Assertion::Signed { actual, expected })
        | (Framework::Cmocka, Assertion::Unsigned { actual, expected }) => {
            format!("assert_int_equal({actual}, {expected});")
        }
        (Framework::Cmocka, Assertion::Pointer { actual, expected }) => {
            format!("assert_ptr_equal({actual}, {expected});")
        }
        (Framework::Cmocka, Assertion::Function { actual, expected })
        | (Framework::Cmocka, Assertion::Wide { actual, expected }) => {
            format!("assert_true({actual} == {expected});")
        }
        (
            Framework::Cmocka,
            Assertion::Float {
                actual,
                expected,
                single,
            },
        ) => format!(
            "assert_false({}(__func__, \"{what}\", {actual}, {expected}));",
            float_helper(*single)
        ),
        (
            Framework::Cmocka,
            Assertion::Bytes {
                actual,
                actual_size,
                expected,
            },
        ) => format!(
            "assert_int_equal({actual_size}, {}); assert_memory_equal({actual}, {}, {});",
            expected.len(),
            crate::literal::bytes_literal(expected),
            expected.len()
        ),
        (
            _,
            Assertion::Bytes {
                actual,
                actual_size,
                expected,
            },
        ) => format!(
            "{failures} += cairn_expect_bytes(__func__, \"{what}\", {actual}, {actual_size}, {}, {});",
            crate::literal::bytes_literal(expected),
            expected.len()
        ),
        (_, Assertion::Signed { actual, expected }) => format!(
            "{failures} += cairn_expect_signed(__func__, \"{what}\", {actual}, {expected});"
        ),
        (_, Assertion::Unsigned { actual, expected }) => format!(
            "{failures} += cairn_expect_unsigned(__func__, \"{what}\", {actual}, {expected});"
        ),
        (_, Assertion::Wide { actual, expected }) => {
            let half = |which: &str, shift: &str| {
                format!(
                    "cairn_expect_unsigned(__func__, \"{what} ({which} 64 bits)\", \
                     (unsigned long long)((unsigned __int128)({actual}){shift}), \
                     (unsigned long long)((unsigned __int128)({expected}){shift}))"
                )
            };
            format!(
                "{failures} += {} + {};",
                half("high", " >> 64"),
                half("low", "")
            )
        }
        (_, Assertion::Pointer { actual, expected }) => format!(
            "{failures} += cairn_expect_pointer(__func__, \"{what}\", {actual}, {expected}, \"{}\");",
            text(expected)
        ),
        (_, Assertion::Function { actual, expected }) => format!(
            "{failures} += cairn_expect_function(__func__, \"{what}\", {actual} == {expected}, \"{}\");",
            text(expected)
        ),
        (
            _,
            Assertion::Float {
                actual,
                expected,
                single,
            },
        ) => format!(
            "{failures} += {}(__func__, \"{what}\", {actual}, {expected});",
            float_helper(*single)
        ),
    }
}

/// The helper that compares a `float` (`single`) or a `double`.
fn float_helper(single: bool) -> &'static str {
    if single {
        "cairn_expect_float"
    } else {
        "cairn_expect_double"
    }
}

/// How the header comment says to build and run the driver.
pub fn build_and_run(framework: Framework, source: &SourceRef) -> String {
    let binary = format!("{}_test", source.stem);
    let files = driver_files(framework, &source.stem);
    let dirs = source.compiler_flags();
    match (framework, &files.c_part) {
        (Framework::Gtest, Some(c_part)) => format!(
            "cc {dirs}-c path/to/{c_part} -o {binary}_cases.o && c++ path/to/{} {binary}_cases.o -o {binary} -lgtest -lgtest_main -pthread -lm && ./{binary}",
            files.driver
        ),
        (Framework::Cmocka, _) => format!(
            "cc {dirs}path/to/{} -o {binary} -lcmocka -lm && ./{binary}",
            files.driver
        ),
        _ => format!(
            "{} && ./{binary}",
            source.build_command(&files.driver, &binary)
        ),
    }
}

/// CMocka's headers, after the source's (its macros, such as `fail`, would
/// otherwise reach the code under test).
pub const CMOCKA_HEADERS: &str = "#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>";

/// CMocka's runner over `tests`.
pub fn cmocka_main(out: &mut CodeWriter, stem: &str, tests: &[String]) {
    out.line("int main(void)");
    out.open("{");
    if tests.is_empty() {
        out.line("printf(\"no tests\\n\");");
        out.line("return 0;");
        out.close("}");
        return;
    }
    out.line("const struct CMUnitTest tests[] = {");
    for name in tests {
        out.line(&format!("    cmocka_unit_test({name}),"));
    }
    out.line("};");
    out.line(&format!(
        "return cmocka_run_group_tests_name(\"{}\", tests, NULL, NULL);",
        crate::literal::escape_string(stem)
    ));
    out.close("}");
}

/// The C++ file of a GoogleTest driver: the checks' helpers as GoogleTest
/// assertions and one `TEST` per test body of the C part.
pub fn gtest_file(source: &SourceRef, c_part: &str, tests: &[String]) -> String {
    let mut out = CodeWriter::default();
    out.line(&format!(
        "/* GoogleTest tests for {} generated by cairn. The tests' bodies are C, in {}",
        comment_text(&source.include_path),
        comment_text(c_part)
    ));
    out.line(" * (which includes the source); each check reports here through EXPECT_EQ.");
    out.line(&format!(
        " * Build and run from any directory: {} */",
        comment_text(&build_and_run(Framework::Gtest, source))
    ));
    out.line("#include <gtest/gtest.h>");
    out.blank();
    out.line("extern \"C\" {");
    for name in tests {
        out.line(&format!("int {name}(void);"));
    }
    out.blank();
    out.text(GTEST_HELPERS);
    out.line("}");
    out.blank();
    let suite = identifier_from_path(&source.stem);
    for name in tests {
        out.line(&format!("TEST({suite}, {name})"));
        out.open("{");
        out.line(&format!("{name}();"));
        out.close("}");
        out.blank();
    }
    out.finish()
}

/// The helpers the C test bodies call, as GoogleTest assertions (the C
/// part declares them).
const GTEST_HELPERS: &str = r#"int cairn_out_of_memory(const char *test)
{
    ADD_FAILURE() << test << ": out of memory while building the inputs";
    return 1;
}

int cairn_set_up_failed(const char *test, const char *call)
{
    ADD_FAILURE() << test << ": " << call << " did not succeed while building the inputs";
    return 1;
}

/* An object the call allocated: not NULL, and none the test already knows. */
int cairn_expect_new(const char *test, const char *what, const void *actual, const char *expected_text,
                     const void *const *known, size_t count)
{
    (void)test;
    if (actual == NULL) {
        ADD_FAILURE() << what << " NULL, expected a new object (" << expected_text << ")";
        return 1;
    }
    for (size_t i = 0; i < count; i++) {
        if (actual == known[i]) {
            ADD_FAILURE() << what << " " << actual << ", an object the test already knows, expected a new one ("
                          << expected_text << ")";
            return 1;
        }
    }
    return 0;
}

int cairn_expect_signed(const char *test, const char *what, long long actual, long long expected)
{
    (void)test;
    EXPECT_EQ(actual, expected) << what;
    return actual != expected;
}

int cairn_expect_unsigned(const char *test, const char *what, unsigned long long actual, unsigned long long expected)
{
    (void)test;
    EXPECT_EQ(actual, expected) << what;
    return actual != expected;
}

int cairn_expect_pointer(const char *test, const char *what, const void *actual, const void *expected,
                         const char *expected_text)
{
    (void)test;
    EXPECT_EQ(actual, expected) << what << " (expected " << expected_text << ")";
    return actual != expected;
}

int cairn_expect_function(const char *test, const char *what, int same, const char *expected_text)
{
    (void)test;
    EXPECT_TRUE(same) << what << " (expected " << expected_text << ")";
    return !same;
}

/* Bit for bit (so -0 is not +0), except that any NaN matches a NaN. */
int cairn_expect_double(const char *test, const char *what, double actual, double expected)
{
    (void)test;
    bool same = memcmp(&actual, &expected, sizeof actual) == 0 || (actual != actual && expected != expected);
    EXPECT_TRUE(same) << what << " " << std::hexfloat << actual << ", expected " << expected;
    return !same;
}

int cairn_expect_float(const char *test, const char *what, float actual, float expected)
{
    (void)test;
    bool same = memcmp(&actual, &expected, sizeof actual) == 0 || (actual != actual && expected != expected);
    EXPECT_TRUE(same) << what << " " << std::hexfloat << actual << ", expected " << expected;
    return !same;
}

/* The bytes a stream was written. */
int cairn_expect_bytes(const char *test, const char *what, const char *actual, size_t actual_size,
                       const char *expected, size_t expected_size)
{
    (void)test;
    std::string got(actual, actual_size), wanted(expected, expected_size);
    EXPECT_EQ(got, wanted) << what;
    return got != wanted;
}"#;
