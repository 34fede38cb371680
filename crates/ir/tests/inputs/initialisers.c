/* Functions that set up a struct on their caller's storage, and some that
 * look alike but do not. */
#include <stdlib.h>
#include <string.h>

struct tok {
    const char *src;
    size_t pos;
    int line;
    char pending[8];
};

/* Sets every member but the buffer. */
void tok_init(struct tok *t, const char *src)
{
    t->src = src;
    t->pos = 0;
    t->line = 1;
}

/* Reads `line` after writing it: still an initialiser. */
void tok_start(struct tok *t, int line)
{
    t->src = "";
    t->pos = 0;
    t->line = line;
    if (t->line < 1)
        t->line = 1;
}

/* Through another initialiser and a read only once set. */
int tok_reset(struct tok *t)
{
    tok_init(t, "");
    return t->line;
}

/* A setter: one member only. */
void tok_set_line(struct tok *t, int line)
{
    t->line = line;
}

/* Reads what the caller must have set. */
void tok_advance(struct tok *t)
{
    t->pos = t->pos + 1;
    t->line = 1;
    t->src = "";
}

/* memset, then members. */
void tok_clear(struct tok *t)
{
    memset(t, 0, sizeof *t);
    t->line = 1;
}

struct buf {
    char *data;
    int len, cap;
};

int buf_init(struct buf *b, int cap)
{
    if (cap <= 0)
        return -1;
    b->data = malloc((size_t)cap);
    if (!b->data)
        return -1;
    b->len = 0;
    b->cap = cap;
    return 0;
}

int buf_open(struct buf *b, int cap)
{
    int fd = cap * 2;

    b->data = NULL;
    b->len = 0;
    b->cap = cap;
    if (cap < 0)
        return -2;
    return fd;
}

int buf_ready(struct buf *b)
{
    if (b == NULL)
        return 0;
    b->data = NULL;
    b->len = b->cap = 0;
    return 1;
}

_Bool buf_make(struct buf *b)
{
    b->data = NULL;
    b->len = b->cap = 0;
    return 1;
}

/* Writes its parameter as a larger struct first (old code's casts between
   struct types sharing a prefix): no set-up of `struct pair`. */
struct pair { int first; int second; };
struct wide { int first; int second; int third; int fourth; };

void pair_init_wide(struct pair *p)
{
    ((struct wide *)p)->fourth = 1;
    p->first = 0;
    p->second = 0;
}
