/* Pointers to pointers: `int **` parameters. */
#include <stddef.h>

/* Swaps the two pointers *a and *b so that *a points to the smaller
   value; returns 1 when it swapped, -1 when either pointer is NULL. */
int order_pointers(int **a, int **b)
{
    if (*a == NULL || *b == NULL)
        return -1;
    if (*a == *b)
        return 0;
    if (**a <= **b)
        return 0;
    int *tmp = *a;
    *a = *b;
    *b = tmp;
    return 1;
}

/* Sums the ints pointed to by the first n entries of `cells`, skipping
   NULL entries; counts how many of them point to the same int as cells[0]. */
int sum_cells(int **cells, int n, int *same_as_first)
{
    int sum = 0;
    *same_as_first = 0;
    for (int i = 0; i < n; i++) {
        if (cells[i] == NULL)
            continue;
        sum += *cells[i];
        if (i > 0 && cells[i] == cells[0])
            (*same_as_first)++;
    }
    return sum;
}
