/* Shared helpers of the hand-written self-tests of the library corpus.
 * Include this BEFORE the library source: it replaces the library's
 * malloc and realloc by versions that can be told to fail. */
#ifndef SELFTEST_H
#define SELFTEST_H

#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Successful allocations left before the next one fails (once); -1: never. */
static long st_fail_after = -1;

static inline int st_should_fail(void)
{
    if (st_fail_after < 0)
        return 0;
    if (st_fail_after-- == 0)
        return 1;
    return 0;
}

static inline void *st_malloc(size_t size) { return st_should_fail() ? NULL : malloc(size); }
static inline void *st_realloc(void *p, size_t size) { return st_should_fail() ? NULL : realloc(p, size); }

#define malloc st_malloc
#define realloc st_realloc

static long st_checks, st_failures;

#define CHECK(cond) \
    do { \
        st_checks++; \
        if (!(cond)) { \
            st_failures++; \
            printf("%s:%d: CHECK FAILED: %s\n", __FILE__, __LINE__, #cond); \
        } \
    } while (0)

static inline int st_finish(const char *name)
{
    printf("%s: %ld checks, %ld failed\n", name, st_checks, st_failures);
    return st_failures != 0;
}

/* A small deterministic pseudo-random generator (xorshift). */
static uint32_t st_seed = 2463534242u;

static inline uint32_t st_random(void)
{
    st_seed ^= st_seed << 13;
    st_seed ^= st_seed >> 17;
    st_seed ^= st_seed << 5;
    return st_seed;
}

#endif
