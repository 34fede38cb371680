/* Nonlinear arithmetic and divisions that can be by zero. */

/* Returns 1 when x * y == z for factors in 2..1000 (so the product fits),
 * 0 when it does not, -1 when a factor is out of range. */
int is_factorization(int x, int y, int z)
{
    if (x < 2 || x > 1000 || y < 2 || y > 1000)
        return -1;
    if (x * y == z)
        return 1;
    return 0;
}

/* Integer square root by search: the largest r with r * r <= n, for
 * n in 0..10000; -1 for other n. */
int isqrt_small(int n)
{
    if (n < 0 || n > 10000)
        return -1;
    int r = 0;
    while ((r + 1) * (r + 1) <= n)
        r++;
    return r;
}

/* Sign of the product x * x * y * y for coordinates within +-1000 (so each
 * square fits in an int): 1 when positive, 0 when zero, -2 when a
 * coordinate is out of range. */
int square_product_sign(int x, int y)
{
    if (x < -1000 || x > 1000 || y < -1000 || y > 1000)
        return -2;
    int xs = x * x, ys = y * y;
    if (xs == 0 || ys == 0)
        return 0;
    if (xs < 0 || ys < 0) /* infeasible: a square is never negative */
        return -1;
    return 1;
}

/* Average of `count` samples summing to `total`. The caller is expected
 * to pass a non-zero count, but nothing checks it: count == 0 divides by
 * zero (a finding, not a test). */
int average(int total, int count)
{
    if (total < 0)
        return -(-total / count);
    return total / count;
}

/* Percentage of `part` in `whole`, rounded down; -1 when whole is not
 * positive or part is out of 0..whole. Values limited to 0..1000000. */
int percentage(int part, int whole)
{
    if (whole <= 0 || whole > 1000000)
        return -1;
    if (part < 0 || part > whole)
        return -1;
    return (int)((long long)part * 100 / whole);
}
