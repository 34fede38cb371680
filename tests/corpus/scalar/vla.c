/* Variable-length arrays (C99) and alloca: buffers sized by the caller. */
#include <alloca.h>
#include <string.h>

/* Reverses the first `n` characters of `text` into a buffer of n + 1
 * bytes and says whether the result reads the same as the original. */
int is_palindrome_prefix(const char *text, int n)
{
    int i;
    if (n < 1 || n > 6)
        return -1;
    char reversed[n + 1];
    for (i = 0; i < n; i++)
        reversed[i] = text[n - 1 - i];
    reversed[n] = '\0';
    if (strncmp(reversed, text, n) == 0)
        return 1;
    return 0;
}

/* Running sums of `count` values into a scratch array; the sum of the
 * window is compared with `limit`. */
int window_over_limit(int count, int step, int limit)
{
    int k;
    if (count <= 0 || count > 5 || step < 0 || step > 100)
        return -1;
    int sums[count];
    sums[0] = step;
    for (k = 1; k < count; k++)
        sums[k] = sums[k - 1] + step;
    if (sizeof sums != (unsigned long)count * sizeof sums[0]) /* infeasible: always equal */
        return -2;
    if (sums[count - 1] > limit)
        return 1;
    return 0;
}

/* A parameter declared as a variable-length array is a pointer. */
int count_negative(int n, const int values[n])
{
    int i, negative = 0;
    for (i = 0; i < n && i < 4; i++)
        if (values[i] < 0)
            negative++;
    return negative;
}

/* A scratch block from alloca, filled then checked at its last byte. */
int fill_scratch(unsigned size, char with)
{
    char *scratch;
    if (size == 0 || size > 16)
        return -1;
    scratch = alloca(size);
    memset(scratch, with, size);
    if (scratch[size - 1] == 'z')
        return 1;
    return 0;
}

/* A rows x cols table of products in one block, row-major; the sum of
 * row `pick`, read through the pointer the row decays to, is compared
 * with `target`. */
int table_row_over(int rows, int cols, int pick, int target)
{
    int r, c, sum = 0;
    if (rows < 1 || rows > 4 || cols < 1 || cols > 4 || pick < 0 || pick >= rows)
        return -1;
    int table[rows][cols];
    for (r = 0; r < rows; r++)
        for (c = 0; c < cols; c++)
            table[r][c] = (r + 1) * (c + 1);
    if (sizeof table[0] != (unsigned long)cols * sizeof(int)) /* infeasible: always equal */
        return -2;
    int *row = table[pick];
    for (c = 0; c < cols; c++)
        sum += row[c];
    return sum > target ? 1 : 0;
}

/* Three rows of a caller-chosen width, the middle one marked: is the
 * cell at (row, col) marked? */
int marked_cell(int width, int row, int col)
{
    int r, c;
    if (width < 1 || width > 3 || row < 0 || row > 2 || col < 0 || col >= width)
        return -1;
    char cells[3][width];
    for (r = 0; r < 3; r++)
        for (c = 0; c < width; c++)
            cells[r][c] = r == 1 ? 'x' : '.';
    if (sizeof cells != 3 * (unsigned long)width) /* infeasible: always equal */
        return -2;
    return cells[row][col] == 'x';
}
