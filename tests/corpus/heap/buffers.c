/* Strings and buffers: compare, tokenize in place, ring buffer, search with
   a comparator. */
#include <stddef.h>

/* Compares the first n characters of s and t like strncmp, stopping at a
   NUL terminator; case-insensitive for ASCII letters. */
int compare_nocase(const char *s, const char *t, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        char a = s[i], b = t[i];
        if (a >= 'A' && a <= 'Z')
            a = (char)(a - 'A' + 'a');
        if (b >= 'A' && b <= 'Z')
            b = (char)(b - 'A' + 'a');
        if (a != b)
            return (a < b) ? -1 : 1;
        if (a == '\0')
            return 0;
    }
    return 0;
}

/* Splits the NUL-terminated `line` in place at each `sep`, storing the
   start of each field in fields[0..max); returns the number of fields, or
   -1 when there are more than `max`. */
int tokenize(char *line, char sep, char **fields, int max)
{
    int count = 0;
    char *start = line;
    for (char *p = line;; p++) {
        if (*p == sep || *p == '\0') {
            if (count == max)
                return -1;
            fields[count++] = start;
            if (*p == '\0')
                return count;
            *p = '\0';
            start = p + 1;
        }
    }
}

#define RING_CAPACITY 4

struct ring {
    int items[RING_CAPACITY];
    unsigned head; /* index of the oldest item */
    unsigned tail; /* index where the next item goes */
    unsigned count;
};

/* Appends `value`; returns 0, or -1 when the ring is full or its indices
   are out of range. */
int ring_push(struct ring *r, int value)
{
    if (r->tail >= RING_CAPACITY || r->count > RING_CAPACITY)
        return -1;
    if (r->count == RING_CAPACITY)
        return -1;
    r->items[r->tail] = value;
    r->tail = (r->tail + 1) % RING_CAPACITY;
    r->count++;
    return 0;
}

/* Removes the oldest item into *out; returns 0, or -1 when empty or the
   indices are out of range. */
int ring_pop(struct ring *r, int *out)
{
    if (r->head >= RING_CAPACITY || r->count == 0)
        return -1;
    *out = r->items[r->head];
    r->head = (r->head + 1) % RING_CAPACITY;
    r->count--;
    return 0;
}

/* Index of the first element of a[0..n) that `matches` reports equal to
   `key`, or -1. */
long find_first(const int *a, size_t n, int key,
                int (*matches)(int element, int key))
{
    for (size_t i = 0; i < n; i++) {
        if (matches(a[i], key))
            return (long)i;
    }
    return -1;
}

/* Comparators for find_first. */
int equal_ints(int element, int key)
{
    return element == key;
}

int same_parity(int element, int key)
{
    return ((element ^ key) & 1) == 0;
}
