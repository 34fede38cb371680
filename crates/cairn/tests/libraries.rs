//! End-to-end: a function of a library the driver does not link (declared
//! in a system header, not exported by the C library) is a stub each test
//! scripts, as one of another file of the project is: the driver links with
//! `cc FILE_test.c -lm` alone, and both branches are covered.

mod common;

use common::gen_checked;

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

#[test]
fn functions_of_libraries_the_driver_does_not_link_are_stubs() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (stdout, _, out_dir) = gen_checked(dir.path(), "library.c", USES_A_LIBRARY);
    let driver = std::fs::read_to_string(out_dir.join("library_test.c")).expect("driver");
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
