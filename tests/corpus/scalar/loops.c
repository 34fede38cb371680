/* Nested loops whose inner branches need a particular number of
 * iterations before they can be taken. */
#include <stddef.h>

/* Walks row by row over a rows x cols grid (at most 5 x 5) and returns the
 * step number (1-based) on which cell (row 2, column 3) is visited, 0 when
 * the grid does not have that cell, -1 for a bad size. */
int steps_to_cell(int rows, int cols)
{
    if (rows < 0 || rows > 5 || cols < 0 || cols > 5)
        return -1;
    int steps = 0;
    for (int r = 0; r < rows; r++) {
        for (int c = 0; c < cols; c++) {
            steps++;
            if (r == 2 && c == 3)
                return steps;
        }
    }
    return 0;
}

/* Counts the pairs (i, j) with 0 <= j <= i < n; returns the pair number
 * at which the count first reaches 10 encoded as 10 * i + j, or the total
 * count when n is too small. n is limited to 0..6. */
int staircase(int n)
{
    if (n < 0 || n > 6)
        return -1;
    int count = 0;
    for (int i = 0; i < n; i++) {
        for (int j = 0; j <= i; j++) {
            count++;
            if (count == 10)
                return 10 * i + j; /* needs n >= 4: 1 + 2 + 3 + 4 pairs */
        }
    }
    return count;
}

/* Finds the first pair i < j with a[i] + a[j] == target; stores the
 * indices and returns 1, or returns 0 when there is none. */
int find_pair_with_sum(const int *a, size_t n, int target, size_t *first, size_t *second)
{
    for (size_t i = 0; i < n; i++) {
        for (size_t j = i + 1; j < n; j++) {
            /* long long: the sum of two ints cannot overflow it. */
            if ((long long)a[i] + a[j] == target) {
                *first = i;
                *second = j;
                return 1;
            }
        }
    }
    return 0;
}

/* Returns the length of the longest run of equal adjacent elements. */
int longest_run(const int *a, size_t n)
{
    if (n == 0)
        return 0;
    int best = 1, current = 1;
    for (size_t i = 1; i < n; i++) {
        if (a[i] == a[i - 1]) {
            current++;
            if (current > best)
                best = current;
        } else {
            current = 1;
        }
    }
    return best;
}
