//! The environment variables a test's path read (`getenv`), set or removed
//! before the call as the test chose them. A value that is one of the
//! test's input strings is the value part of an entry `NAME=VALUE` the test
//! puts in the environment itself (`putenv` keeps the entry, not a copy), so
//! that `getenv` returns that very string, as the engine's model does.

use crate::literal::bytes_literal;
use testcase::{Inputs, ObjectId, Value};

/// What the tests' environment needs, written once before them.
pub const SUPPORT: &str = r#"/* The environment variables the tests set. setenv, unsetenv and putenv (POSIX 2001) are declared
 * here in case the source's feature macros hide them. A value the test writes is the value part of an
 * entry NAME=VALUE the test makes and puts in the environment as it is, so that getenv returns the
 * very pointer the test holds. */
int setenv(const char *name, const char *value, int overwrite);
int unsetenv(const char *name);
int putenv(char *string);

/* Room for the `size` bytes of the value of an entry for `name`, zeroed. */
static char *cairn_environment_value(const char *name, size_t size)
{
    size_t length = strlen(name);
    char *entry = calloc(length + 1 + size, 1);
    if (entry == NULL)
        return NULL;
    memcpy(entry, name, length);
    entry[length] = '=';
    return entry + length + 1;
}

/* Puts the entry whose value is `value` in the environment. */
static void cairn_put_environment(const char *name, char *value)
{
    putenv(value - strlen(name) - 1);
}

/* Takes the entry of `value` out of the environment and frees it. */
static void cairn_free_environment_value(const char *name, char *value)
{
    if (value == NULL)
        return;
    unsetenv(name);
    free(value - strlen(name) - 1);
}"#;

/// The variable whose value input object `object` is, if any.
pub fn value_of(inputs: &Inputs, object: ObjectId) -> Option<&str> {
    inputs
        .environment
        .iter()
        .find(|v| v.value == Value::Pointer { object, offset: 0 })
        .map(|v| v.name.as_str())
}

/// The expression that makes the value of `name`, `len` bytes.
pub fn make_value(name: &str, len: u64) -> String {
    format!(
        "cairn_environment_value({}, {len})",
        bytes_literal(name.as_bytes())
    )
}

/// The statement that puts `name`, whose value is `c_name`, in the
/// environment.
pub fn put(name: &str, c_name: &str) -> String {
    format!(
        "cairn_put_environment({}, {c_name});",
        bytes_literal(name.as_bytes())
    )
}

/// The statement that sets `name` to a copy of the string `value`.
pub fn set(name: &str, value: &str) -> String {
    format!("setenv({}, {value}, 1);", bytes_literal(name.as_bytes()))
}

/// The statement that removes `name` from the environment.
pub fn unset(name: &str) -> String {
    format!("unsetenv({});", bytes_literal(name.as_bytes()))
}

/// The statement that frees the value `c_name` of `name`, taking its entry
/// out of the environment.
pub fn release(name: &str, c_name: &str) -> String {
    format!(
        "cairn_free_environment_value({}, {c_name});",
        bytes_literal(name.as_bytes())
    )
}
