/* Functions whose tests depend on the data model. With
 * `cairn gen --data-model ilp32` (gcc -m32) `long`, `size_t` and pointers
 * are 32 bits and `long long` is 4-byte aligned in a struct; with the
 * default LP64 they are 64 bits and 8-byte aligned. */
#include <errno.h>
#include <stddef.h>
#include <stdlib.h>

struct record {
    char kind;
    long long stamp;
    long count;
    void *owner;
};

/* The bounds are LONG_MAX and LONG_MIN: 2^31 - 1 and -2^31 under ILP32. */
int add_would_overflow(long a, long b)
{
    if (b > 0 && a > __LONG_MAX__ - b)
        return 1;
    if (b < 0 && a < -__LONG_MAX__ - 1 - b)
        return -1;
    return 0;
}

/* A struct input laid out as the target lays it out. */
long clamped_count(const struct record *r)
{
    if (r->kind == 'x')
        return -1;
    if (r->count > 100000L)
        return 100000L;
    return r->count;
}

/* SIZE_MAX / sizeof(void *): 2^30 - 1 under ILP32. */
size_t table_bytes(size_t entries)
{
    if (entries > (size_t)-1 / sizeof(void *))
        return 0;
    return entries * sizeof(void *);
}

/* Only ULONG_MAX (4294967295 under ILP32) wraps around. */
int wraps_around(unsigned long x)
{
    if (x + 1 < x)
        return 1;
    return 0;
}

/* A pointer difference is a ptrdiff_t (int under ILP32). */
long gap(const int *items, int first, int last)
{
    if (first < 0 || last < first || last > 7)
        return -1;
    long distance = &items[last] - &items[first];
    if (distance > 4)
        return 4;
    return distance;
}

/* The product leaves the range of long only where long is 32 bits. */
int product_fits_long(long x)
{
    long long product = (long long)x * 4;
    if (product > __LONG_MAX__)
        return 0;
    return 1;
}

/* The pointer's bytes: 4 under ILP32. */
int pointer_bytes_match(unsigned n)
{
    if (n == sizeof(void *))
        return 1;
    return 0;
}

/* glibc's strtol clamps at the target's LONG_MAX and sets ERANGE. */
int parse_count(const char *text)
{
    char *end;
    errno = 0;
    long value = strtol(text, &end, 10);
    if (end == text)
        return -1;
    if (errno == ERANGE)
        return -2;
    if (value > 65535)
        return -3;
    return (int)value;
}
