/* Callbacks a caller passes: parse() calls on_item without testing it, so
 * NULL there is the caller's error; count_items() tests it and allows NULL;
 * feed() calls a member the caller sets, tests another. */
#include <stddef.h>

typedef void (*item_fn)(void *ctx, int value);

/* Calls on_item for each number of a comma-separated list; the count, or -1. */
int parse(const char *s, item_fn on_item, void *ctx)
{
    int count = 0;
    int value = 0;
    int digits = 0;
    for (;; s++) {
        if (*s >= '0' && *s <= '9') {
            value = value * 10 + (*s - '0');
            if (++digits > 4)
                return -1;
        } else if (*s == ',' || *s == '\0') {
            if (digits == 0)
                return -1;
            on_item(ctx, value);
            count++;
            value = 0;
            digits = 0;
            if (*s == '\0')
                return count;
        } else {
            return -1;
        }
    }
}

/* The number of commas; on_item, when given, hears each one's position. */
int count_items(const char *s, item_fn on_item, void *ctx)
{
    int count = 0;
    for (; *s != '\0' && count < 100; s++) {
        if (*s == ',') {
            if (on_item != NULL)
                on_item(ctx, count);
            count++;
        }
    }
    return count;
}

/* A callback of the type the functions above take. */
void remember(void *ctx, int value)
{
    int *last = ctx;
    *last = value;
}

struct handlers {
    item_fn on_item;
    void (*on_end)(void *ctx);
    void *ctx;
};

/* Hands value to h->on_item, which the caller must set; h->on_end may be NULL. */
int feed(const struct handlers *h, int value)
{
    if (value < 0)
        return -1;
    h->on_item(h->ctx, value);
    if (h->on_end != NULL)
        h->on_end(h->ctx);
    return 0;
}
