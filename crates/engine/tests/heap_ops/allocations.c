/* Allocation calls: failure (an input choice behind a flag), calloc,
   realloc and sizes the test chooses. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

int try_alloc(void)
{
    int *p = malloc(sizeof *p);
    if (p == NULL)
        return -1;
    free(p);
    return 0;
}

static int *make(void)
{
    return malloc(sizeof(int));
}

/* Allocations in a callee count in call order with the caller's own. */
int two_through_callee(void)
{
    int *a = make();
    if (a == NULL)
        return -1;
    int *b = malloc(sizeof *b);
    if (b == NULL) {
        free(a);
        return -2;
    }
    free(a);
    free(b);
    return 0;
}

/* Grows a block holding 7 and n: both survive, the new element is not
   initialized, and the old block is freed. */
int grow(int n)
{
    int *a = malloc(2 * sizeof *a);
    if (a == NULL)
        return -1;
    a[0] = 7;
    a[1] = n;
    int *b = realloc(a, 4 * sizeof *b);
    if (b == NULL) {
        free(a);
        return -2;
    }
    if (b[1] != n) /* infeasible: realloc keeps the contents */
        return 99;
    if (n == 5)
        return b[3]; /* uninitialized */
    if (n == 6)
        return a[0]; /* use after free */
    int r = b[0];
    free(b);
    return r;
}

/* realloc of an input array to one element (realloc of NULL allocates). */
int shrink(int *a)
{
    int *b = realloc(a, sizeof *b);
    if (b == NULL)
        return -1;
    b[0] = b[0] + 1;
    int v = b[0];
    free(b);
    return v;
}

/* A block of a size the test chooses. */
int sized(int n)
{
    if (n <= 0 || n > 4)
        return 0;
    char *p = malloc(n);
    if (p == NULL)
        return 0;
    p[0] = 1;
    int v = p[0];
    free(p);
    return v;
}

/* Element i of a zeroed block of n ints: reads past the end are found. */
int zeroed_element(int n, int i)
{
    if (n <= 0 || n > 16)
        return -1;
    int *p = calloc(n, sizeof *p);
    if (p == NULL)
        return -1;
    int v = p[i];
    free(p);
    return v;
}

/* Sum of n counters never initialized. */
int sum_fresh(int n)
{
    if (n <= 0 || n > 8)
        return 0;
    int *c = malloc((size_t)n * sizeof *c);
    if (c == NULL)
        return 0;
    int sum = 0;
    for (int i = 0; i < n; i++)
        sum += c[i];
    free(c);
    return sum;
}

/* Resizes a block of two ints to n: n == 0 frees it and gives NULL, as
   glibc's realloc does. */
int resize(int n)
{
    if (n < 0 || n > 4)
        return -3;
    int *a = malloc(2 * sizeof *a);
    if (a == NULL)
        return -1;
    a[0] = 5;
    int *b = realloc(a, (size_t)n * sizeof *b);
    if (b == NULL)
        return -2; /* a is freed when n == 0 */
    int v = b[0];
    free(b);
    return v;
}

struct holder {
    int *data;
    struct holder *next;
};

/* Stores a fresh block through a link it never checked. */
int attach_data(struct holder *h)
{
    if (h == NULL)
        return 0;
    h->next->data = malloc(sizeof(int));
    if (h->next->data == NULL)
        return -1;
    *h->next->data = 3;
    return 1;
}

/* Writes slot i of a fresh block of four, then reads slot 0: uninitialized
   unless i is 0. The block is filled only where the code wrote it. */
int first_after_store(int i)
{
    if (i < 0 || i > 3)
        return -1;
    int *slots = malloc(4 * sizeof *slots);
    if (slots == NULL)
        return -1;
    slots[i] = 7;
    int first = slots[0];
    free(slots);
    return first;
}

/* A fresh block of four whose slot i is set: the caller owns it. */
int *one_slot(int i)
{
    if (i < 0 || i > 3)
        return NULL;
    int *slots = malloc(4 * sizeof *slots);
    if (slots == NULL)
        return NULL;
    slots[i] = 7;
    return slots;
}

/* A block of symbolic size filled by memset, then read at its last byte:
 * every byte read was written, whatever inputs are sampled first. */
int last_of_filled(unsigned size, char with)
{
    if (size == 0 || size > 16)
        return -1;
    char *block = malloc(size);
    if (block == NULL)
        return -2;
    memset(block, with, size);
    char last = block[size - 1];
    free(block);
    return last == 'z';
}

/* Writes through a block it never checked: the write faults when malloc
   fails. */
int unchecked_store(int v)
{
    int *p = malloc(sizeof *p);
    *p = v;
    int positive = *p > 0;
    free(p);
    return positive;
}

/* Loses the first block when the second allocation fails. */
int leak_on_failure(void)
{
    int *a = malloc(sizeof *a);
    if (a == NULL)
        return -1;
    int *b = malloc(sizeof *b);
    if (b == NULL)
        return -2;
    free(a);
    free(b);
    return 0;
}
