#include <assert.h>
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

int digits(const char *s) {
    int n = 0;
    assert(s != NULL);
    while (*s) { if (isdigit((unsigned char)*s)) n++; s++; }
    if (errno == ERANGE) return -1;
    return n > INT_MAX / 2 ? INT_MAX : n;
}

bool low_bit(uint8_t x) { return x & 1; }

int first(FILE *f) { return f ? fgetc(f) : EOF; }

int value_of_block(int x) {
    int y = ({ int t = x * 2; t + 1; });
    return y;
}
