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

/* The stub writes one pair through `out` (the test scripts it); what it
   may write past that, the second pair, stays as it was in the tests. */
struct pair { int low; int high; };
extern int read_pair(struct pair *out);

int second_setting(void) {
    struct pair v[2] = {{0, 0}, {0, 0}};
    if (read_pair(v) != 0)
        return -1;
    if (v[1].high > 100)
        return 1;
    return 0;
}

/* Past x > 5 the program has ended: `x > 10` no input takes, and the
 * path that exits cuts nothing on its way there. */
int after_exit(int x)
{
    if (x > 5)
        exit(0);
    if (x > 10)
        return 2;
    return 0;
}

static void hang(void)
{
stuck:
    goto stuck;
}

/* Likewise after a call that never returns. */
int after_hang(int x)
{
    if (x < 0)
        hang();
    if (x < -3)
        return 2;
    return 0;
}
