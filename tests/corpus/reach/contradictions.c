/* Statements no input can reach: `cairn reach` must answer `unreachable`
 * (exit 3), a proof since no budget cuts these searches. */
#include <stddef.h>

int narrow(int x)
{
    int r = 0;
    if (x > 5 && x < 3) /* infeasible: x > 5 and x < 3 contradict */
        r = 1; /* reach: contradictory integers */
    if (x > 5)
        r += 2;
    return r;
}

/* p == q, p != NULL and q == NULL cannot hold together. */
int pointer_facts(int *p, int *q)
{
    int r = 0;
    if (p == q && p != NULL && q == NULL) /* infeasible: q equals p, which is not NULL */
        r = *p; /* reach: contradictory pointers */
    if (p != NULL)
        r += 1;
    return r;
}
