#include <stddef.h>
typedef unsigned char byte;
typedef int (*binop)(int, int);
struct rec { byte kind; unsigned short len; union { int i; void *p; } as; };

static int plus(int a, int b) { return a + b; }
static int minus(int a, int b) { return a - b; }
binop ops[2] = {plus, minus};

int casts(long l, unsigned u, char c) {
    _Bool b = l;
    _Bool bp = (void *)0;
    unsigned char uc = -1;
    signed char sc = (signed char)u;
    long ext = c;
    unsigned long zext = u;
    int narrow = (int)l;
    int *ip = (int *)l;
    long back = (long)ip;
    return b + bp + uc + sc + (int)ext + (int)zext + narrow + (int)back + (u < -1) + (c == 'x');
}

size_t sizes(struct rec *r) {
    return sizeof(struct rec) + _Alignof(struct rec) + sizeof r->as + offsetof(struct rec, as) + sizeof(binop) + sizeof "abc";
}

int steps(int *p, int n) {
    int a = n++;
    int b = ++n;
    int c = n--;
    int d = --n;
    *p++ = a;
    p += 2;
    p -= n;
    n *= 3; n /= 2; n %= 5; n <<= 1; n >>= 1; n &= 7; n |= 8; n ^= 1;
    return a + b + c + d + n + *--p;
}

int dispatch(int which, int x, int y) {
    binop f = ops[which & 1];
    int r = f(x, y);
    for (int i = 0, j = 10; i < j; i++, j--) r += which > 0 ? (which > 1 ? 2 : 1) : 0;
    for (;;) { if (r > 100) break; r *= 2; }
    do { r--; } while (0);
    return r + "xyz"[which & 1];
}
