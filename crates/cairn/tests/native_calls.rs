//! End-to-end: C library functions cairn has no model of (`strspn`,
//! `strverscmp`) run natively on the values it chose, so the functions
//! calling them get tests of their branches; the tests pass against the
//! real functions the driver calls (validation would leave them out
//! otherwise), and tests.json, the driver and the summary say which inputs
//! were concretised. A function that may not run natively
//! (`malloc_usable_size`, whose answer is the driver's allocator's) still
//! stops its paths, with the reason.

mod common;

use common::gen_checked;

const SOURCE: &str = r#"
#define _GNU_SOURCE
#include <malloc.h>
#include <string.h>

/* How many digits a field starts with, or -1 when it starts with none. */
int leading_digits(const char *field)
{
    size_t digits = strspn(field, "0123456789");
    if (digits == 0)
        return -1;
    return (int)digits;
}

/* Whether a version is newer than 1.10, as `ls -v` orders them. */
int newer_than_1_10(const char *version)
{
    if (strverscmp(version, "1.10") > 0)
        return 1;
    return 0;
}

/* Whether a block has room for more than 16 bytes. */
int roomy(char *block)
{
    if (malloc_usable_size(block) > 16)
        return 1;
    return 0;
}
"#;

#[test]
fn unmodelled_library_functions_run_natively_and_their_tests_pass() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (stdout, stderr, out) = gen_checked(dir.path(), "fields.c", SOURCE);
    assert!(!stdout.contains("left out"), "{stdout}{stderr}");
    // Both branches after the call: the inputs the cheap phase tries take
    // the bytes of the literal handed to the C library.
    let row = stdout
        .lines()
        .find(|l| l.trim_start().starts_with("leading_digits"))
        .unwrap_or_else(|| panic!("leading_digits in {stdout}"));
    assert!(row.contains("2/2"), "{row}");
    assert!(
        stdout.contains("depend on C library functions cairn has no model of (strspn, strverscmp)")
            && stdout.contains("concretised"),
        "{stdout}"
    );
    let json: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(out.join("fields.tests.json")).expect("tests.json"),
    )
    .expect("JSON");
    let functions = json["functions"].as_array().expect("functions");
    let function = |name: &str| {
        functions
            .iter()
            .find(|f| f["name"] == name)
            .unwrap_or_else(|| panic!("{name} in tests.json"))
    };
    for test in function("leading_digits")["tests"]
        .as_array()
        .expect("tests")
    {
        let calls = test["native_calls"].as_array().expect("native_calls");
        assert_eq!(calls[0]["function"], "strspn", "{test}");
        let concretised = calls[0]["concretised"].as_array().expect("concretised");
        assert!(
            concretised.iter().any(|input| input == "len(field)"),
            "{test}"
        );
    }
    let driver = std::fs::read_to_string(out.join("fields_test.c")).expect("driver");
    assert!(
        driver.contains("/* depends on strspn (no model in cairn) run natively: inputs field["),
        "{driver}"
    );
    let versions = function("newer_than_1_10")["tests"]
        .as_array()
        .expect("tests");
    assert!(!versions.is_empty(), "{stdout}");
    let roomy = function("roomy");
    assert!(
        roomy["goals"]
            .as_array()
            .expect("goals")
            .iter()
            .filter(|g| g["covered"] == false)
            .any(|g| g["reason"]
                .as_str()
                .is_some_and(|r| r.contains("no model of `malloc_usable_size`")
                    && r.contains("the process's own memory"))),
        "{roomy}"
    );
}
