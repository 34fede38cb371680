/* A tokenizer whose state lives on the caller's storage: tok_init sets it
 * up (nothing else makes one), tok_next reads one token. */
#include <stddef.h>
#include <string.h>

enum { TOK_END, TOK_NUMBER, TOK_WORD, TOK_OPEN, TOK_CLOSE, TOK_ERROR };

struct tok {
    const char *src;
    size_t pos;
    size_t len;
    int line;
    int depth;
};

void tok_init(struct tok *t, const char *src)
{
    t->src = src;
    t->pos = 0;
    t->len = strlen(src);
    t->line = 1;
    t->depth = 0;
}

/* The kind of the next token; a number's value or a word's length in *value. */
int tok_next(struct tok *t, int *value)
{
    while (t->pos < t->len && (t->src[t->pos] == ' ' || t->src[t->pos] == '\n')) {
        if (t->src[t->pos] == '\n')
            t->line++;
        t->pos++;
    }
    if (t->pos >= t->len)
        return t->depth == 0 ? TOK_END : TOK_ERROR;
    char c = t->src[t->pos];
    if (c >= '0' && c <= '9') {
        int n = 0;
        while (t->pos < t->len && t->src[t->pos] >= '0' && t->src[t->pos] <= '9' && n < 1000)
            n = n * 10 + (t->src[t->pos++] - '0');
        *value = n;
        return TOK_NUMBER;
    }
    if (c == '(') {
        t->depth++;
        t->pos++;
        return TOK_OPEN;
    }
    if (c == ')') {
        if (t->depth == 0)
            return TOK_ERROR;
        t->depth--;
        t->pos++;
        return TOK_CLOSE;
    }
    size_t start = t->pos;
    while (t->pos < t->len && t->src[t->pos] >= 'a' && t->src[t->pos] <= 'z')
        t->pos++;
    if (t->pos == start)
        return TOK_ERROR;
    *value = (int)(t->pos - start);
    return TOK_WORD;
}

int tok_line(const struct tok *t)
{
    return t->line;
}
