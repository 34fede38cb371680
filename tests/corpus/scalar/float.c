/* Floating point as everyday code uses it: clamping, a running mean,
 * temperature conversion, NaN-aware comparisons, classification and rounding. */
#include <math.h>

struct stats {
    int count;
    double mean;
    float last;
};

static const double absolute_zero_c = -273.15;

/* Clamps x into [low, high]; NaN stays NaN (both comparisons are false). */
double clamp(double x, double low, double high)
{
    if (x < low)
        return low;
    if (x > high)
        return high;
    return x;
}

/* Adds a sample to a running mean; rejects NaN and infinities. */
int stats_add(struct stats *s, double sample)
{
    if (isnan(sample) || isinf(sample))
        return -1;
    s->count++;
    s->mean += (sample - s->mean) / s->count;
    s->last = (float)sample;
    return s->count;
}

/* Celsius to Fahrenheit; below absolute zero is an error (-1000). */
float celsius_to_fahrenheit(float c)
{
    if (c < absolute_zero_c)
        return -1000.0f;
    return c * 9.0f / 5.0f + 32.0f;
}

/* 0 when equal within eps, 1 when a > b, -1 when a < b, 2 when unordered. */
int compare_approx(double a, double b, double eps)
{
    if (a != a || b != b)
        return 2;
    if (fabs(a - b) <= eps)
        return 0;
    return a > b ? 1 : -1;
}

/* A number's class: 0 zero, 1 subnormal, 2 normal, 3 infinite, 4 NaN. */
int classify(double x)
{
    if (isnan(x))
        return 4;
    if (!isfinite(x))
        return 3;
    if (x == 0.0)
        return 0;
    if (fabs(x) < 0x1p-1022)
        return 1;
    return 2;
}

/* Rounds to the nearest multiple of step, half away from zero; steps that
 * are not positive leave x alone. */
double round_to_step(double x, double step)
{
    if (!(step > 0.0))
        return x;
    return round(x / step) * step;
}

/* Whole part as an int, or a code: -1 for NaN, -2 out of the int range. */
int whole_part(double x)
{
    if (isnan(x))
        return -1;
    if (x >= 2147483648.0 || x <= -2147483649.0)
        return -2;
    return (int)x;
}

/* Percentage of done out of total (float precision is plenty); total 0
 * gives 0, more done than total gives 100. */
float percent(unsigned short done, unsigned short total)
{
    if (total == 0)
        return 0.0f;
    float ratio = (float)done / total;
    if (ratio > 1.0f)
        ratio = 1.0f;
    return ratio * 100.0f;
}

/* Which way a float rounds when stored: 1 up, -1 down, 0 exact. */
int narrowing_direction(double x)
{
    float f = (float)x;
    if (f > x)
        return 1;
    if (f < x)
        return -1;
    return 0;
}

/* Negative zero, told apart from positive zero by its sign bit. */
int is_negative_zero(double x)
{
    return x == 0.0 && signbit(x);
}

/* Square root of a non-negative value, -1 otherwise (NaN included). */
double safe_sqrt(double x)
{
    if (x >= 0.0)
        return sqrt(x);
    return -1.0;
}

/* Steps a float counter up to a limit; counts the steps taken (at most 3). */
int steps_to(float start, float limit)
{
    int steps = 0;
    for (float v = start; v < limit && steps < 3; v += 0.5f)
        steps++;
    return steps;
}
