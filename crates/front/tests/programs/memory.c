/* Functions over memory whose results the system compiler and the IR
 * interpreter of tests/execution.rs must agree on. No libc calls. */

struct point { short x; int y; };
struct node { int key; struct node *next; };
struct rec { char tag; struct point pts[3]; union { int i; unsigned char b[4]; } u; };

struct point corners[4] = {[1] = {1, 2}, {3}, [0].y = -5};
struct node nodes[5] = {{10, &nodes[1]}, {20, &nodes[2]}, {30, 0}, {40, &nodes[4]}, {50, &nodes[3]}};
struct rec record = {'r', {{1, 2}, [2] = {.y = 7}}, {.i = 0x01020304}};
int grid[3][4] = {{1, 2, 3, 4}, {5, 6}, [2][3] = 9};
const char *words[] = {"alpha", "be", "", "gamma"};
char buffer[16] = "hello";
int *cursor = &grid[1][1];
int counter;

static int add(int a, int b) { return a + b; }
static int sub(int a, int b) { return a - b; }
static int (*ops[])(int, int) = {add, sub, add};

static int bump(void) {
    static int calls = 100;
    return calls++;
}

static struct point mirror(struct point p) {
    struct point q = {p.y, p.x};
    return q;
}

int t_structs(void) {
    struct point p = corners[1];
    struct point q = mirror(p);
    corners[3] = q;
    struct rec local = record;
    local.pts[1].y += corners[0].y;
    return corners[3].x * 1000 + corners[3].y * 100 + local.pts[1].y + local.pts[2].y + local.tag
           + corners[2].x + (int)sizeof(struct rec);
}

int t_list(void) {
    int sum = 0, hops = 0;
    for (struct node *n = &nodes[0]; n; n = n->next) {
        sum += n->key;
        hops++;
    }
    struct node *p = &nodes[3];
    while (hops < 10 && p->next) {
        p = p->next;
        hops++;
    }
    return sum * 100 + hops + p->key;
}

int t_strings(void) {
    int total = 0;
    for (int i = 0; i < 4; i++) {
        const char *s = words[i];
        while (*s) total += *s++ - 'a';
        total += (int)(s - words[i]) * 1000;
    }
    char local[] = "xyz";
    buffer[5] = local[1];
    return total + buffer[0] + buffer[5] + buffer[6] + (int)sizeof local;
}

int t_pointers(void) {
    int *p = cursor;
    *p++ = 60;
    p += 2;
    *p = *(p - 3) + p[-1];
    int *q = &grid[2][3];
    long d = q - p;
    int acc = 0;
    for (int *r = &grid[0][0]; r < &grid[0][0] + 12; r++) acc = acc * 3 + *r;
    return (int)d * 100000 + acc % 100000 + (cursor == &grid[1][1]);
}

int t_control(int n) {
    int r = 0, i = 0;
    switch (n % 4) {
    case 0:
        r += 1;
    case 1:
        r += 10;
        break;
    case 2:
        r += 100;
    default:
        r += 1000;
    }
again:
    i++;
    if (i < n && (r += i, i % 3 != 0)) goto again;
    do { r ^= i; } while (--i > 0 && r > 0);
    return r + (n > 2 ? n > 5 ? 1 : 2 : 3) + (counter++ || n ? 7 : 8) + counter;
}

int t_calls(void) {
    int acc = 0;
    for (int i = 0; i < 3; i++) acc = ops[i](acc, i + 1) * 2;
    acc += bump();
    acc += bump();
    int (*f)(int, int) = counter ? sub : add;
    return acc + f(10, 3) + (*f)(1, 1);
}

int t_unions(void) {
    record.u.b[0] = 0xff;
    unsigned char *bytes = record.u.b;
    return record.u.b[0] + bytes[3] + bytes[2] * 2;
}


struct shape { int kind; union { struct { short w, h; }; long radius; }; char name[6]; };
struct shape shapes[] = {{1, .w = 3, .h = 4, "rect"}, {.kind = 2, .radius = 10, .name = {'c', 'i'}}};
char table[][4] = {"ab", "cde", {'x'}};

int t_initializers(void) {
    struct shape local = {3, {.radius = -2}, "tri"};
    struct point pts[] = {[2] = {.y = 5}, [0] = {1}};
    int *literal = (int[]){7, 8, 9};
    int area = ({ int a = shapes[0].w * shapes[0].h; a + 1; });
    return area * 1000 + (int)shapes[1].radius * 100 + shapes[1].name[1] + table[1][2] + table[2][0]
           + (int)local.radius + local.name[2] + pts[2].y + pts[0].x + literal[2] + (int)(sizeof pts / sizeof pts[0]);
}

unsigned t_conversions(void) {
    signed char sc = -3;
    unsigned char uc = 250;
    unsigned short us = 65535;
    long l = -1;
    unsigned u = sc;
    uc += 10;
    us++;
    _Bool b = l;
    unsigned long big = (unsigned long)l >> 60;
    return u + uc + us + b + (unsigned)big + (sc < u) + (l < 0u) + (unsigned char)(sc * uc);
}

static const long long edge_values[] = {
    0, 1, -1, 2, 3, 255, -1000, 46341, 65535, 2147483647LL, -2147483647LL - 1,
    4294967295LL, 3037000500LL, 4611686018427387904LL, 9223372036854775807LL,
    -9223372036854775807LL - 1,
};

/* Every overflow builtin over pairs of edge values: results and flags. */
unsigned long long t_overflow_builtins(void) {
    unsigned long long sum = 0;
    for (int i = 0; i < 16; i++) {
        for (int j = 0; j < 16; j++) {
            long long a = edge_values[i], b = edge_values[j];
            int r32;
            unsigned u32;
            long long r64;
            unsigned long long u64;
            short r16;
            unsigned long ul;
            sum = sum * 31 + __builtin_add_overflow(a, b, &r32) + (unsigned)r32;
            sum = sum * 31 + __builtin_sub_overflow(a, b, &u32) + u32;
            sum = sum * 31 + __builtin_mul_overflow(a, b, &r64) + (unsigned long long)r64;
            sum = sum * 31 + __builtin_mul_overflow((unsigned long long)a, b, &u64) + u64;
            sum = sum * 31 + __builtin_add_overflow((int)a, (unsigned)b, &r16) + (unsigned short)r16;
            sum = sum * 31 + __builtin_smul_overflow((int)a, (int)b, &r32) + (unsigned)r32;
            sum = sum * 31 + __builtin_umull_overflow(a, b, &ul) + ul;
            sum = sum * 31 + __builtin_ssubll_overflow(a, b, &r64) + (unsigned long long)r64;
            sum = sum * 31 + __builtin_mul_overflow_p(a, b, (unsigned char)0);
        }
    }
    return sum;
}

/* The bit-counting builtins over the nonzero edge values. */
unsigned long long t_bit_builtins(void) {
    unsigned long long sum = 0;
    for (int i = 0; i < 16; i++) {
        long long v = edge_values[i];
        sum = sum * 31 + (unsigned)__builtin_popcount((unsigned)v) + __builtin_popcountll(v);
        sum = sum * 31 + (unsigned)__builtin_parity((unsigned)v) + __builtin_parityll(v);
        sum = sum * 31 + (unsigned)__builtin_ffs((int)v) + __builtin_ffsll(v);
        sum = sum * 31 + __builtin_bswap16((unsigned short)v) + __builtin_bswap32((unsigned)v);
        sum = sum * 31 + __builtin_bswap64(v);
        if ((unsigned)v != 0)
            sum = sum * 31 + __builtin_clz((unsigned)v) + __builtin_ctz((unsigned)v);
        if (v != 0)
            sum = sum * 31 + __builtin_clzll(v) + __builtin_ctzll(v);
    }
    return sum;
}
