/* numbers: JSON numbers in the style of a small JSON library (written for
 * cairn): a hand-written parser of the JSON number grammar into a double,
 * a printer of doubles into a buffer, and the helpers a JSON value type
 * needs around them (integer view with saturation, tolerant equality). */
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stddef.h>

#include "corpus_check.h"

#define JSON_MAX_EXPONENT 400

/* 10^e for 0 <= e <= JSON_MAX_EXPONENT by repeated multiplication
 * (overflows to infinity, as the value it scales would). */
static double power_of_ten(int e)
{
    double result = 1.0;
    while (e > 0) {
        result *= 10.0;
        e--;
    }
    return result;
}

static int is_digit(char c)
{
    return c >= '0' && c <= '9';
}

/* Parses a JSON number at the start of s:
 *   -? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?
 * On success stores the value in *out, the number of characters read in
 * *length and returns 0; returns -1 when s does not start with a number. */
int json_parse_number(const char *s, double *out, int *length)
{
    EXPECT_INPUT(s != NULL && out != NULL && length != NULL);
    int i = 0;
    int negative = 0;
    double value = 0.0;
    if (s[i] == '-') {
        negative = 1;
        i++;
    }
    if (s[i] == '0') {
        i++;
    } else if (s[i] >= '1' && s[i] <= '9') {
        while (is_digit(s[i])) {
            value = value * 10.0 + (s[i] - '0');
            i++;
        }
    } else {
        return -1;
    }
    if (s[i] == '.') {
        i++;
        if (!is_digit(s[i]))
            return -1;
        double scale = 0.1;
        while (is_digit(s[i])) {
            value += (s[i] - '0') * scale;
            scale /= 10.0;
            i++;
        }
    }
    if (s[i] == 'e' || s[i] == 'E') {
        int exponent_negative = 0;
        int exponent = 0;
        i++;
        if (s[i] == '+' || s[i] == '-') {
            exponent_negative = s[i] == '-';
            i++;
        }
        if (!is_digit(s[i]))
            return -1;
        while (is_digit(s[i])) {
            if (exponent < JSON_MAX_EXPONENT)
                exponent = exponent * 10 + (s[i] - '0');
            i++;
        }
        if (exponent > JSON_MAX_EXPONENT)
            exponent = JSON_MAX_EXPONENT;
        if (exponent_negative)
            value /= power_of_ten(exponent);
        else
            value *= power_of_ten(exponent);
    }
    *out = negative ? -value : value;
    *length = i;
    return 0;
}

/* The value of the number s holds, or fallback when it holds none. */
double json_number_or(const char *s, double fallback)
{
    double value;
    int length;
    if (json_parse_number(s, &value, &length) != 0)
        return fallback;
    return value;
}

/* The integer view of a number, as JSON libraries keep one beside the
 * double: saturated to the int range, 0 for NaN. */
int json_number_to_int(double value)
{
    if (value != value)
        return 0;
    if (value >= (double)INT_MAX)
        return INT_MAX;
    if (value <= (double)INT_MIN)
        return INT_MIN;
    return (int)value;
}

/* Whether two numbers are equal up to the precision of a double. */
int json_numbers_equal(double a, double b)
{
    double larger = fabs(a) > fabs(b) ? fabs(a) : fabs(b);
    return fabs(a - b) <= larger * DBL_EPSILON;
}

/* Writes the digits of the whole number n (0 <= n < 1e15) into buf from
 * position at; returns the position after them. */
static size_t put_whole(char *buf, size_t at, double n)
{
    char digits[16];
    int count = 0;
    do {
        double tenth = floor(n / 10.0);
        digits[count++] = (char)('0' + (int)(n - tenth * 10.0));
        n = tenth;
    } while (n > 0.0 && count < 16);
    while (count > 0)
        buf[at++] = digits[--count];
    return at;
}

/* Prints value into buf (at least 32 bytes) as JSON: "null" for NaN and
 * infinities (JSON has neither), whole numbers below 1e15 without a
 * fraction, others with up to 6 decimals, trailing zeros trimmed.
 * Returns the length written, or -1 for numbers too large to print so. */
int json_print_number(double value, char *buf)
{
    EXPECT_INPUT(buf != NULL);
    size_t at = 0;
    if (isnan(value) || isinf(value)) {
        buf[0] = 'n';
        buf[1] = 'u';
        buf[2] = 'l';
        buf[3] = 'l';
        buf[4] = '\0';
        return 4;
    }
    if (signbit(value)) {
        buf[at++] = '-';
        value = -value;
    }
    if (value >= 1e15)
        return -1;
    double whole = floor(value);
    at = put_whole(buf, at, whole);
    double fraction = value - whole;
    if (fraction > 0.0) {
        int decimals = (int)round(fraction * 1e6);
        if (decimals >= 1000000)
            decimals = 999999;
        if (decimals > 0) {
            char digits[6];
            for (int k = 5; k >= 0; k--) {
                digits[k] = (char)('0' + decimals % 10);
                decimals /= 10;
            }
            int last = 5;
            while (last > 0 && digits[last] == '0')
                last--;
            buf[at++] = '.';
            for (int k = 0; k <= last; k++)
                buf[at++] = digits[k];
        }
    }
    buf[at] = '\0';
    return (int)at;
}
