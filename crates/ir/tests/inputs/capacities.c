#include <stddef.h>
#include <string.h>

struct node {
    struct node *next;
    int key;
};

int copy_name(char *buf, size_t cap, const char *src);
void copy_words(unsigned short *dst, const unsigned short *src, size_t count);
void clear(void *area, size_t nbytes);
int nth_key(struct node *head, int n);
int scale(int *values, int factor);
int fill_bytes(int *words, int value, size_t width);
int print_id(char *out, unsigned id, size_t out_len);

int copy_name(char *buf, size_t cap, const char *src)
{
    size_t i = 0;
    for (; i + 1 < cap && src[i]; i++)
        buf[i] = src[i];
    buf[i] = 0;
    return (int)i;
}

void copy_words(unsigned short *dst, const unsigned short *src, size_t count)
{
    for (size_t i = 0; i < count; i++)
        dst[i] = src[i];
}

void clear(void *area, size_t nbytes) { memset(area, 0, nbytes); }

int nth_key(struct node *head, int n)
{
    while (n-- > 0 && head)
        head = head->next;
    return head ? head->key : -1;
}

int scale(int *values, int factor) { return values[0] * factor; }

int fill_bytes(int *words, int value, size_t width)
{
    memset(words, value, width);
    return words[0];
}

int print_id(char *out, unsigned id, size_t out_len)
{
    return (int)strlen(strncpy(out, id ? "some" : "none", out_len));
}
