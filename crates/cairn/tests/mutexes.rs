//! End-to-end: code that guards its state with POSIX mutexes, as
//! libraries shared between threads do. The test runs in one thread, so a
//! default mutex is modelled byte for byte as glibc keeps it; the drivers
//! lock real mutexes, and gcov must measure what the engine claims.

mod common;

use common::{covers, gen_checked_with};

const COUNTER: &str = r#"
#include <pthread.h>
#include <string.h>

struct counter {
    pthread_mutex_t lock;
    int value;
    int limit;
};

void counter_init(struct counter *c, int limit)
{
    pthread_mutex_init(&c->lock, NULL);
    c->value = 0;
    c->limit = limit;
}

int counter_add(struct counter *c, int n)
{
    int result;
    pthread_mutex_lock(&c->lock);
    if (c->value + n > c->limit) {
        result = -1;
    } else {
        c->value += n;
        result = c->value;
    }
    pthread_mutex_unlock(&c->lock);
    return result;
}

int counter_try(struct counter *c)
{
    if (pthread_mutex_trylock(&c->lock) != 0)
        return -1;
    c->value++;
    pthread_mutex_unlock(&c->lock);
    return c->value > 10;
}

void counter_clear(struct counter *c)
{
    bzero(c, sizeof *c);
}

int cleared_is_empty(struct counter *c)
{
    counter_clear(c);
    if (c->value == 0)
        return 1;
    return 0;
}
"#;

#[test]
fn mutexes_lock_in_the_driver_as_the_engine_assumed() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (stdout, _, out_dir) = gen_checked_with(dir.path(), "counter.c", COUNTER, &["--sanitize"]);
    for (function, covered) in [
        ("counter_add", "2/2"),
        ("counter_try", "1/2"),
        ("cleared_is_empty", "1/2"),
    ] {
        assert!(covers(&stdout, function, covered), "{stdout}");
    }
    let tests = std::fs::read_to_string(out_dir.join("counter.tests.json")).expect("tests.json");
    assert!(!tests.contains("no model of"), "{tests}");
}
