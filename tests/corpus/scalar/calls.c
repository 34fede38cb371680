/* Calls: helpers of the same file, recursion, a callback chosen by the
 * caller, and an external function with no body. */

/* Reads a sensor; defined elsewhere (firmware), so the test must pick its
 * results. */
int sensor_read(int channel);

/* Greatest common divisor of two non-negative numbers, recursively. */
int gcd(int a, int b)
{
    if (b == 0)
        return a;
    return gcd(b, a % b);
}

/* Returns 1 when a/b is already in lowest terms, -1 for bad input. */
int is_reduced_fraction(int numerator, int denominator)
{
    if (numerator < 0 || denominator <= 0)
        return -1;
    return gcd(numerator, denominator) == 1;
}

/* base raised to exp (exp in 0..8) by repeated squaring, recursively;
 * base is limited to -10..10 so the result fits in an int. */
int power(int base, int exp)
{
    if (exp < 0 || exp > 8 || base < -10 || base > 10)
        return 0;
    if (exp == 0)
        return 1;
    int half = power(base, exp / 2);
    if (exp % 2 == 0)
        return half * half;
    return half * half * base;
}

int increment(int x)
{
    return x < 2147483647 ? x + 1 : x;
}

int negate(int x)
{
    return x == -2147483647 - 1 ? x : -x;
}

int halve(int x)
{
    return x / 2;
}

/* Applies `op` to x `times` times (0..3) and reports whether the value
 * ended up negative, positive or zero. */
int apply_and_sign(int (*op)(int), int x, int times)
{
    if (times < 0 || times > 3)
        return -2;
    for (int i = 0; i < times; i++)
        x = op(x);
    if (x < 0)
        return -1;
    return x > 0;
}

/* Reads channel 0 until it settles: returns the reading when two
 * consecutive reads (at most 3 reads) agree, -1 when it never settles,
 * -2 when the sensor reports an error (a negative reading). */
int read_stable(void)
{
    int previous = sensor_read(0);
    if (previous < 0)
        return -2;
    for (int attempt = 0; attempt < 2; attempt++) {
        int current = sensor_read(0);
        if (current < 0)
            return -2;
        if (current == previous)
            return current;
        previous = current;
    }
    return -1;
}

/* Alarm when the temperature channel reads above the limit and the
 * pressure channel confirms it. */
int should_alarm(int temperature_limit)
{
    int temperature = sensor_read(1);
    if (temperature <= temperature_limit)
        return 0;
    int pressure = sensor_read(2);
    return pressure > 900 ? 2 : 1;
}
