/* Variable-length arrays and alloca: a pointer local set by
 * __builtin_alloca, the length evaluated once, sizeof from the kept size. */
#include <alloca.h>

int last_of(int n, int first)
{
    int cells[n + 1];
    cells[0] = first;
    cells[n] = first + n;
    return cells[n] + (int)(sizeof cells / sizeof cells[0]);
}

int through_alloca(unsigned n)
{
    char *block = alloca(n);
    block[0] = 1;
    return block[0];
}

int takes_vla_parameter(int n, int values[n])
{
    return values[n - 1];
}

int refuses_its_address(int n)
{
    int cells[n];
    int *first = (int *)&cells;
    return first[0];
}

int refuses_a_pointer_to_one(int n, int *p)
{
    int (*rows)[n] = (int (*)[n])p;
    return rows[0][0];
}

int rows_of_one_block(int n, int k, int i)
{
    int m[n][k];
    m[i][k - 1] = i;
    int *row = m[i];
    return row[k - 1] + (int)(sizeof m[0] / sizeof m[0][0]);
}
