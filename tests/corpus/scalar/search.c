/* Searching read-only arrays passed as (const int *a, size_t n). */
#include <stddef.h>

/* Index of `key` in the ascending array a[0..n), or -1 when absent. */
long binary_search(const int *a, size_t n, int key)
{
    size_t low = 0, high = n;
    while (low < high) {
        size_t mid = low + (high - low) / 2;
        if (a[mid] == key)
            return (long)mid;
        if (a[mid] < key)
            low = mid + 1;
        else
            high = mid;
    }
    return -1;
}

/* Returns 1 when a[0..n) is in ascending order (an empty array is). */
int is_sorted(const int *a, size_t n)
{
    for (size_t i = 1; i < n; i++) {
        if (a[i - 1] > a[i])
            return 0;
    }
    return 1;
}

/* Index of the largest element (the first one on ties), -1 when empty. */
long index_of_max(const int *a, size_t n)
{
    if (n == 0)
        return -1;
    size_t best = 0;
    for (size_t i = 1; i < n; i++) {
        if (a[i] > a[best])
            best = i;
    }
    return (long)best;
}
