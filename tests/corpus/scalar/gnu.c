/* GNU C as libraries write it: `?:` with the middle left out, statement
 * expressions, typeof, __builtin_expect, checked arithmetic with
 * __builtin_*_overflow, bit scans, case ranges, attributes in the places
 * gcc takes them, and a zero-length trailing array. */
#include <stddef.h>
#include <stdint.h>

#define likely(x) __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)
#define min_t(a, b) ({ __typeof__(a) _a = (a); __typeof__(b) _b = (b); _a < _b ? _a : _b; })
#define __unused __attribute__((unused))

/* A message with its payload after the header (zero-length array, GNU). */
struct message {
    uint16_t kind;
    uint16_t length;
    uint8_t payload[0];
};

/* A name, or the default when it is empty or missing: `name ?: fallback`
 * is one condition, as gcc counts it. */
const char *display_name(const char *name, const char *fallback)
{
    return name ?: fallback;
}

/* The timeout to use: the caller's if set, else the configured, else 30. */
int effective_timeout(int requested, int configured)
{
    return requested ?: configured ?: 30;
}

/* Copies at most `room` bytes of the payload length; typeof keeps the
 * type of whatever is compared. */
size_t payload_room(const struct message *m, size_t room)
{
    if (unlikely(m == NULL))
        return 0;
    return min_t((size_t)m->length, room);
}

/* Allocation size of `count` elements of `size` bytes plus a header, or 0
 * when it does not fit in size_t (what calloc-like wrappers check). */
size_t array_bytes(size_t count, size_t size, size_t header)
{
    size_t bytes, total;
    if (__builtin_mul_overflow(count, size, &bytes))
        return 0;
    if (__builtin_add_overflow(bytes, header, &total))
        return 0;
    return total;
}

/* Adds a signed delta to a 32-bit counter, saturating on overflow. */
int32_t counter_add(int32_t counter, int64_t delta)
{
    int32_t sum;
    if (likely(!__builtin_add_overflow(counter, delta, &sum)))
        return sum;
    return delta < 0 ? INT32_MIN : INT32_MAX;
}

/* A typed variant: difference of two unsigned sequence numbers, -1 when
 * the second is ahead. */
long sequence_gap(unsigned long newer, unsigned long older)
{
    unsigned long gap;
    if (__builtin_usubl_overflow(newer, older, &gap))
        return -1;
    if (gap > 1000)
        return 1000;
    return (long)gap;
}

/* Whether a signed product of two ints fits in an int. */
int product_fits(int a, int b)
{
    int product;
    return !__builtin_smul_overflow(a, b, &product);
}

/* A signed offset scaled by an unsigned stride, -1 when the product does
 * not fit a long, -2 when it is negative (mixed signedness, exact). */
long scaled_offset(long offset, unsigned stride)
{
    long scaled;
    if (__builtin_mul_overflow(offset, stride, &scaled))
        return -1;
    if (scaled < 0)
        return -2;
    return scaled;
}

/* An unsigned product stored in a signed int: overflow whenever it is
 * above INT_MAX. */
int area_or_zero(unsigned width, unsigned height)
{
    int area;
    if (__builtin_mul_overflow(width, height, &area))
        return 0;
    return area;
}

/* Power-of-two bucket for a size: the index of its highest set bit. */
int size_bucket(uint32_t size)
{
    if (size == 0)
        return -1;
    return 31 - __builtin_clz(size);
}

/* The lowest free slot in a 64-slot bitmap (1 = used), -1 when full. */
int first_free_slot(uint64_t used)
{
    uint64_t free_slots = ~used;
    if (free_slots == 0)
        return -1;
    return __builtin_ctzll(free_slots);
}

/* Classifies a mask by how many flags it has set. */
int flag_count_class(unsigned flags)
{
    int n = __builtin_popcount(flags);
    if (n == 0)
        return 0;
    if (n == 1)
        return 1;
    return __builtin_parity(flags) ? 3 : 2;
}

/* 1-based position of the lowest set bit of a long, 0 for none (ffs). */
int lowest_flag(long flags)
{
    return __builtin_ffsl(flags);
}

/* A big-endian 32-bit field, as network code reads one. */
uint32_t read_be32(uint32_t raw)
{
    return __builtin_bswap32(raw);
}

/* An HTTP-like status class by GNU case ranges. */
__attribute__((pure)) int status_class(int status)
{
    switch (status) {
    case 100 ... 199:
        return 1;
    case 200 ... 299:
        return 2;
    case 300 ... 399:
        return 3;
    case 400 ... 499:
        return 4;
    case 500 ... 599:
        return 5;
    default:
        return 0;
    }
}

/* Attributes as statements and on labels and locals; falls through on purpose. */
int escape_length(char c, int __unused strict)
{
    int extra __attribute__((unused)) = 0;
    switch (c) {
    case '\n':
    case '\t':
        extra = 1;
        __attribute__((fallthrough));
    case '"':
        return 2;
    default:
        break;
    }
    if (c < ' ')
        goto control;
    return 1;
control: __attribute__((unused));
    return 4;
}

/* A statement expression as a value and a typeof'd local. */
int clamp_percent(int value)
{
    __typeof__(value) limit = 100;
    int clamped = ({
        int v = value;
        if (v < 0)
            v = 0;
        if (v > limit)
            v = limit;
        v;
    });
    return clamped;
}

/* The sum of the first `n` of a block the caller promises is aligned to
 * 16 bytes, as allocators and codecs tell the compiler. */
long aligned_sum(const int *block, size_t n)
{
    const int *words = __builtin_assume_aligned(block, 16);
    long sum = 0;
    for (size_t i = 0; i < n && i < 4; i++)
        sum += words[i];
    if (sum > 100)
        return 100;
    return sum;
}
