/* Functions over a range given by a start and an end pointer into one
 * buffer, as parsers and decoders are written. */
#include <stddef.h>

/* The number of decimal digits at the start of [p, end). */
int count_leading_digits(const char *p, const char *end)
{
    const char *start = p;

    while (p < end && *p >= '0' && *p <= '9')
        p++;
    return (int)(p - start);
}

/* The last occurrence of `c` in [start, end), or NULL. */
const char *find_last(const char *start, const char *end, char c)
{
    while (end > start) {
        end--;
        if (*end == c)
            return end;
    }
    return NULL;
}

/* Decodes UTF-16 code units in [in, end) and returns how many code points
 * they hold, or -1 on a lone or reversed surrogate. */
long utf16_count(const unsigned short *in, const unsigned short *end)
{
    long points = 0;

    while (in < end) {
        unsigned short unit = *in++;
        if (unit >= 0xD800 && unit <= 0xDBFF) {
            if (end - in < 1)
                return -1;
            if (*in < 0xDC00 || *in > 0xDFFF)
                return -1;
            in++;
        } else if (unit >= 0xDC00 && unit <= 0xDFFF) {
            return -1;
        }
        points++;
    }
    return points;
}

struct item {
    int key;
    int weight;
};

/* The total weight of the items in [begin, end) whose key is positive. */
long total_weight(const struct item *begin, const struct item *end)
{
    long total = 0;

    for (const struct item *it = begin; it < end; it++)
        if (it->key > 0)
            total += it->weight;
    return total;
}

/* The length of the label at the cursor `*cur` in [*cur, end), which it
   then passes: the cursor is read from memory, so the end pointer was
   given first. -1 at the end, -2 when the label does not fit. */
int next_label(const unsigned char **cur, const unsigned char *end)
{
    const unsigned char *p = *cur;
    if (p >= end)
        return -1;
    unsigned len = *p++;
    if (p + len > end)
        return -2;
    *cur = p + len;
    return (int)len;
}
