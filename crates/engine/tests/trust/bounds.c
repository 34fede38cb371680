#include <stdlib.h>

/* Needs a string of exactly 10 characters past its first check. */
int date_shape(const char *s) {
    for (int i = 0; i < 10; i++)
        if (s[i] == 0)
            return -1;
    if (s[4] != '-' || s[7] != '-')
        return -2;
    return s[10] == 0 ? 0 : -3;
}

int *boxed(int n) {
    int *p = malloc(sizeof *p);
    if (p == NULL)
        return NULL;
    *p = n;
    return p;
}

extern int read_setting(int *out);

int setting_level(void) {
    int v = 0;
    if (read_setting(&v) != 0)
        return -1;
    if (v > 100)
        return 1;
    return 0;
}

/* The stub writes one int through `out` (the test scripts it); what it may
   write past that, the second element, stays as it was in the tests. */
int second_setting(void) {
    int v[2] = {0, 0};
    if (read_setting(v) != 0)
        return -1;
    if (v[1] > 100)
        return 1;
    return 0;
}
