#include <stdlib.h>
#include <string.h>

struct node { int key; struct node *next; };
struct tree { int key; struct tree *left, *right; };

static const char *const names[] = {"zero", "one", "two"};
static char grid[2][4] = {"abc", "de"};

void remove_key(struct node **head, int key) {
    struct node **pp = head;
    while (*pp) {
        if ((*pp)->key == key) { struct node *dead = *pp; *pp = dead->next; free(dead); }
        else pp = &(*pp)->next;
    }
}

int depth(const struct tree *t) {
    if (!t) return 0;
    int l = depth(t->left), r = depth(t->right);
    return 1 + (l > r ? l : r);
}

static int cmp(const void *a, const void *b) { return *(const int *)a - *(const int *)b; }

void sort(int *v, size_t n) { qsort(v, n, sizeof *v, cmp); }

size_t copy_word(char *dst, const char *src) {
    char c;
    char *start = dst;
    while ((c = *src++) != '\0' && c != ' ')
        *dst++ = c;
    *dst = 0;
    return (size_t)(dst - start);
}

unsigned bits(unsigned flags, int n) {
    unsigned char bytes[4] = {0};
    memset(bytes, 0, sizeof bytes);
    bytes[n & 3] = (unsigned char)(flags >> 8);
    return (flags & (1u << n)) ? bytes[0] | 0x80u : names[n % 3][0] + grid[1][1];
}

_Noreturn void die(const char *why);

int checked(int x) {
    if (x < 0) abort();
    if (x > 100) die("too big");
    return x;
}

int hinted(int x) {
    if (__builtin_expect(x == 0, 0)) __builtin_unreachable();
    return __builtin_constant_p(3) + __builtin_constant_p(x);
}
