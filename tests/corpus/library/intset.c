/* intset - a compact sorted set of integers.
 *
 * The elements are stored in increasing order in one block right after the
 * header, all with the same width: 2, 4 or 8 bytes (the encoding).  Adding
 * a value that does not fit the current width first widens every element.
 * The width never shrinks.  Functions that may move the set return the new
 * pointer, which the caller must use from then on. */
#include <assert.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "corpus_check.h"

#define INTSET_ENC_INT16 ((uint32_t)sizeof(int16_t))
#define INTSET_ENC_INT32 ((uint32_t)sizeof(int32_t))
#define INTSET_ENC_INT64 ((uint32_t)sizeof(int64_t))

struct intset {
    uint32_t encoding;
    uint32_t length;
    int8_t contents[];
};

/* The narrowest encoding that holds `v`. */
static uint32_t intset_value_encoding(int64_t v)
{
    if (v < INT32_MIN || v > INT32_MAX)
        return INTSET_ENC_INT64;
    if (v < INT16_MIN || v > INT16_MAX)
        return INTSET_ENC_INT32;
    return INTSET_ENC_INT16;
}

/* Element `pos` read as if the set had encoding `enc`. */
static int64_t intset_read(const struct intset *is, uint32_t pos, uint32_t enc)
{
    int64_t v64;
    int32_t v32;
    int16_t v16;

    if (enc == INTSET_ENC_INT64) {
        memcpy(&v64, is->contents + (size_t)pos * sizeof v64, sizeof v64);
        return v64;
    }
    if (enc == INTSET_ENC_INT32) {
        memcpy(&v32, is->contents + (size_t)pos * sizeof v32, sizeof v32);
        return v32;
    }
    memcpy(&v16, is->contents + (size_t)pos * sizeof v16, sizeof v16);
    return v16;
}

/* Stores `value` (which fits the set's encoding) as element `pos`. */
static void intset_write(struct intset *is, uint32_t pos, int64_t value)
{
    int64_t v64 = value;
    int32_t v32 = (int32_t)value;
    int16_t v16 = (int16_t)value;

    assert(intset_value_encoding(value) <= is->encoding);
    if (is->encoding == INTSET_ENC_INT64)
        memcpy(is->contents + (size_t)pos * sizeof v64, &v64, sizeof v64);
    else if (is->encoding == INTSET_ENC_INT32)
        memcpy(is->contents + (size_t)pos * sizeof v32, &v32, sizeof v32);
    else
        memcpy(is->contents + (size_t)pos * sizeof v16, &v16, sizeof v16);
}

/* Debug check: 1 iff the encoding is one of 2, 4, 8 and the elements are in
 * strictly increasing order (the size of the block cannot be checked). */
/* cairn: invariant struct intset=intset_is_valid */
int intset_is_valid(const struct intset *is)
{
    uint32_t i;

    if (is == NULL)
        return 0;
    if (is->encoding != INTSET_ENC_INT16 && is->encoding != INTSET_ENC_INT32
        && is->encoding != INTSET_ENC_INT64)
        return 0;
    for (i = 1; i < is->length; i++)
        if (intset_read(is, i - 1, is->encoding) >= intset_read(is, i, is->encoding))
            return 0;
    return 1;
}

/* A new empty set, or NULL when out of memory. */
struct intset *intset_new(void)
{
    struct intset *is = malloc(sizeof *is);

    if (is == NULL)
        return NULL;
    is->encoding = INTSET_ENC_INT16;
    is->length = 0;
    return is;
}

void intset_free(struct intset *is)
{
    EXPECT_INPUT(is == NULL || intset_is_valid(is));
    free(is);
}

/* Gives room for `length` elements of `encoding`; NULL when out of memory
 * (the set is then untouched). */
static struct intset *intset_resize(struct intset *is, uint32_t length, uint32_t encoding)
{
    return realloc(is, sizeof *is + (size_t)length * encoding);
}

/* Binary search.  1 and the position of `value` when it is present, else 0
 * and the position where it would be inserted. */
static int intset_search(const struct intset *is, int64_t value, uint32_t *pos)
{
    uint32_t lo = 0, hi = is->length, mid;
    int64_t cur;

    while (lo < hi) {
        mid = lo + (hi - lo) / 2;
        cur = intset_read(is, mid, is->encoding);
        if (cur == value) {
            *pos = mid;
            return 1;
        }
        if (cur < value)
            lo = mid + 1;
        else
            hi = mid;
    }
    *pos = lo;
    return 0;
}

/* Widens every element for `value`, which does not fit the current
 * encoding, and adds it: it is smaller or larger than all of them. */
static struct intset *intset_upgrade_and_add(struct intset *is, int64_t value)
{
    uint32_t old_enc = is->encoding, new_enc = intset_value_encoding(value);
    uint32_t length = is->length, i;
    uint32_t prepend = value < 0 ? 1 : 0;
    struct intset *grown = intset_resize(is, length + 1, new_enc);

    if (grown == NULL)
        return NULL;
    is = grown;
    is->encoding = new_enc;
    /* From the back, so that no element is overwritten before it is read. */
    for (i = length; i > 0; i--)
        intset_write(is, i - 1 + prepend, intset_read(is, i - 1, old_enc));
    intset_write(is, prepend ? 0 : length, value);
    is->length = length + 1;
    return is;
}

/* Adds `value`.  Returns the set (possibly moved); *added is 1 when the
 * value was added, 0 when it was present or memory ran out (the set is
 * then unchanged). */
struct intset *intset_add(struct intset *is, int64_t value, int *added)
{
    uint32_t pos;
    struct intset *grown;

    EXPECT_VALID(intset_is_valid, is);
    *added = 0;
    if (is->length == UINT32_MAX)
        return is;
    if (intset_value_encoding(value) > is->encoding) {
        grown = intset_upgrade_and_add(is, value);
        if (grown == NULL)
            return is;
        *added = 1;
        ENSURE_VALID(intset_is_valid, grown);
        return grown;
    }
    if (intset_search(is, value, &pos))
        return is;
    grown = intset_resize(is, is->length + 1, is->encoding);
    if (grown == NULL)
        return is;
    is = grown;
    if (pos < is->length)
        memmove(is->contents + (size_t)(pos + 1) * is->encoding,
                is->contents + (size_t)pos * is->encoding,
                (size_t)(is->length - pos) * is->encoding);
    intset_write(is, pos, value);
    is->length++;
    *added = 1;
    ENSURE_VALID(intset_is_valid, is);
    return is;
}

/* Removes `value`.  Returns the set (possibly moved); *removed is 1 when
 * the value was there. */
struct intset *intset_remove(struct intset *is, int64_t value, int *removed)
{
    uint32_t pos;
    struct intset *shrunk;

    EXPECT_VALID(intset_is_valid, is);
    *removed = 0;
    if (intset_value_encoding(value) > is->encoding || !intset_search(is, value, &pos))
        return is;
    if (pos < is->length - 1)
        memmove(is->contents + (size_t)pos * is->encoding,
                is->contents + (size_t)(pos + 1) * is->encoding,
                (size_t)(is->length - pos - 1) * is->encoding);
    is->length--;
    *removed = 1;
    /* Giving memory back is only an optimisation: keep the block when the
       allocator refuses. */
    shrunk = intset_resize(is, is->length, is->encoding);
    if (shrunk != NULL)
        is = shrunk;
    ENSURE_VALID(intset_is_valid, is);
    return is;
}

/* 1 iff `value` is in the set. */
int intset_find(const struct intset *is, int64_t value)
{
    uint32_t pos;

    EXPECT_VALID(intset_is_valid, is);
    return intset_value_encoding(value) <= is->encoding && intset_search(is, value, &pos);
}

/* Element `pos` (0 is the smallest) into *value: 1, or 0 when `pos` is out
 * of range. */
int intset_get(const struct intset *is, uint32_t pos, int64_t *value)
{
    EXPECT_VALID(intset_is_valid, is);
    if (pos >= is->length)
        return 0;
    *value = intset_read(is, pos, is->encoding);
    return 1;
}

/* The number of elements. */
uint32_t intset_len(const struct intset *is)
{
    EXPECT_VALID(intset_is_valid, is);
    return is->length;
}

/* The size in bytes of the set as one block (header and elements). */
size_t intset_blob_len(const struct intset *is)
{
    EXPECT_VALID(intset_is_valid, is);
    return sizeof *is + (size_t)is->length * is->encoding;
}
