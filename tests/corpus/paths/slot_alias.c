/* Path-oriented generation: two pointer parameters that may be equal. The
 * path through all three bodies is infeasible: once p == q, p != NULL and
 * q == NULL contradict each other. */
#include <stddef.h>

int fill_slots(int **p, int **q, int *value)
{
    int result = 0;
    if (p == q)
        result = 1;
    if (p != NULL) {
        *p = value;
        result += 2;
    }
    if (q == NULL)
        result += 4;
    return result;
}
