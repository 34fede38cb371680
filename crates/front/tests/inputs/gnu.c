/* GNU C the parser takes only after front::gnu's rewrites, or not at all. */
#include <stdint.h>

int first_set(int a, int b) { return a ?: b; }
const char *or_default(const char *s) { return s ?: "none"; }
int chained(int a, int b) { return (a && b) ?: a ?: 7; }
int folded(void) { return 3 ?: 4; }

static __thread int per_thread;
int read_per_thread(void) { return per_thread; }

__int128 wide_product(long a, long b) { return (__int128)a * b; }
unsigned __int128 wide_global;
int narrow(int x) { return x + (int)sizeof(long); }

int dispatch(int op) {
    static void *table[] = { &&add, &&sub };
    goto *table[op & 1];
add:
    return 1;
sub:
    return 2;
}
int auto_typed(int x) { __auto_type y = x; return y; }
int calls_dispatch(int op) { return dispatch(op) + 1; }

int labelled(int c) {
    __label__ out;
    switch (c) {
    case 1 ... 3:
        c++;
        __attribute__((fallthrough));
    case 4:
        goto out;
    default:
        break;
    }
    return 0;
out: __attribute__((unused));
    return c;
}

int unaligned_read(const void *p) {
    return ({ struct __attribute__((packed)) { uint32_t v; } *q = (__typeof__(q))p; q->v; });
}

int checked(long a, unsigned b, int *out) {
    return __builtin_add_overflow(a, b, out) + __builtin_sub_overflow(a, b, out)
        + __builtin_mul_overflow(a, b, out) + __builtin_umull_overflow(a, b, (unsigned long *)out)
        + __builtin_mul_overflow_p(a, b, (short)0);
}

int bits(unsigned x, unsigned long long y) {
    return __builtin_clz(x) + __builtin_ctzll(y) + __builtin_popcountl(y) + __builtin_parity(x)
        + __builtin_ffs((int)x) + (int)__builtin_bswap16((uint16_t)x) + __builtin_clz(16);
}
int zero_clz(void) { return __builtin_clz(0); }
