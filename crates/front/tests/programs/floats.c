/* Floating point lowered as gcc computes it on x86-64 (SSE, round to
 * nearest even): each t_ function returns a number built from float and
 * double results, so that every rounding shows. */
#include <math.h>

struct sample {
    float weight;
    double value;
};

static const double third = 1.0 / 3.0;
static double table[3] = {0.5, -2.25, 0x1.8p+1};
static struct sample fixed = {1.5f, 2.5};

long long t_literals(void) {
    return (long long)(0.1 * 1e17) + (long long)(0x1.fp3 * 8) + (long long)(1e-3f * 1e9f);
}

long long t_rounding(void) {
    double x = 0.1 + 0.2; return x == 0.3 ? 1 : (long long)((x - 0.3) * 1e20);
}

long long t_float_sum(void) {
    float f = 0.1f + 0.2f; return f == 0.3f ? 1 : 2;
}

long long t_mixed(void) {
    int i = 7; float f = i / 2; double d = i / 2.0; return (long long)(f * 10 + d * 100);
}

long long t_narrowing(void) {
    double d = 16777217.0; float f = (float)d; return (long long)f;
}

long long t_unsigned(void) {
    unsigned long long u = 18446744073709551615ULL; double d = u; return d == 18446744073709551616.0;
}

long long t_to_unsigned(void) {
    double d = 4000000000.5; unsigned u = (unsigned)d; return u;
}

long long t_truncation(void) {
    return (long long)(-2.9) * 10 + (int)2.9f;
}

long long t_nan(void) {
    double z = 0.0; double n = z / z; return (n == n) * 1 + (n != n) * 2 + (n < 1.0) * 4 + (n >= 1.0) * 8 + isnan(n) * 16;
}

long long t_infinity(void) {
    double big = 1e308; double inf = big * 10; return isinf(inf) * 1 + isinf(-inf) * 10 + isfinite(big) * 100 + (inf > big) * 1000;
}

long long t_negative_zero(void) {
    double z = -0.0; return (z == 0.0) + 2 * (signbit(z) != 0) + 4 * !z;
}

long long t_signbit_float(void) {
    float f = -1.5f; return signbit(f);
}

long long t_condition(void) {
    double x = 0.5; int n = 0; if (x) n += 1; while (x) { x -= 0.25; n += 10; } return n;
}

long long t_increment(void) {
    float f = 0.5f; f++; ++f; f--; double d = 1.0; d *= 3; d /= 4; d += f; return (long long)(d * 1000);
}

long long t_globals(void) {
    return (long long)(third * 3e15) + (long long)(table[0] + table[1] + table[2]) * 1000 + (long long)(fixed.weight * fixed.value * 10);
}

long long t_struct(void) {
    struct sample s = {0}; s.weight = 0.25f; s.value = s.weight * 4; return (long long)(s.value * 100) + (s.weight > 0.2);
}

long long t_conditional(void) {
    int n = 3; double d = n > 2 ? 1.5 : n; return (long long)(d * 10);
}

long long t_classify(void) {
    double v[4] = {0.0, 1e-310, 1.0, 1e300}; long long r = 0; for (int i = 0; i < 4; i++) r = r * 10 + isnormal(v[i]) + 2 * isgreater(v[i], 0.5); return r;
}

long long t_float_max(void) {
    float f = 3.4028235e38f; return isinf(f * 2.0f) + 10 * isinf(f * 2.0);
}
