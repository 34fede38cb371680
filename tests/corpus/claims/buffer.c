/* A growable byte buffer set up on the caller's storage by buf_init, which
 * returns 0, or -1 when it cannot: a buffer is only used after a 0. */
#include <stdlib.h>

struct buf {
    char *data;
    size_t len;
    size_t cap;
};

int buf_init(struct buf *b, size_t cap)
{
    if (cap == 0 || cap > 64)
        return -1;
    b->data = malloc(cap);
    if (b->data == NULL)
        return -1;
    b->len = 0;
    b->cap = cap;
    return 0;
}

int buf_push(struct buf *b, char c)
{
    if (b->len == b->cap) {
        char *bigger = realloc(b->data, b->cap * 2);
        if (bigger == NULL)
            return -1;
        b->data = bigger;
        b->cap *= 2;
    }
    b->data[b->len++] = c;
    return 0;
}

/* The last byte, or -1 for an empty buffer. */
int buf_last(const struct buf *b)
{
    if (b->len == 0)
        return -1;
    return b->data[b->len - 1];
}

void buf_free(struct buf *b)
{
    free(b->data);
    b->data = NULL;
    b->len = 0;
    b->cap = 0;
}
