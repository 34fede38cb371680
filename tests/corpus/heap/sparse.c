/* A sparse matrix: row headers and column headers, each with a list of the
   same shared entry nodes (an entry is on one row list and one column list). */
#include <stddef.h>

struct entry {
    int row, col;
    int value;
    struct entry *right; /* next entry of the same row */
    struct entry *down;  /* next entry of the same column */
};

struct header {
    int index;
    struct entry *first;
    struct header *next;
};

struct matrix {
    struct header *rows;
    struct header *cols;
};

/* Header with the given index in a header list, or NULL. */
static struct header *find_header(struct header *list, int index)
{
    for (; list != NULL; list = list->next) {
        if (list->index == index)
            return list;
    }
    return NULL;
}

/* Value at (r, c) looked up through the row list and checked against the
   column list: returns 1 and sets *value when both paths reach the same
   entry, 0 when absent, -1 when the two access paths disagree. */
int matrix_get(struct matrix *m, int r, int c, int *value)
{
    struct header *row = find_header(m->rows, r);
    struct header *col = find_header(m->cols, c);
    if (row == NULL || col == NULL)
        return 0;
    struct entry *by_row = row->first;
    while (by_row != NULL && by_row->col != c)
        by_row = by_row->right;
    struct entry *by_col = col->first;
    while (by_col != NULL && by_col->row != r)
        by_col = by_col->down;
    if (by_row != by_col)
        return -1;
    if (by_row == NULL)
        return 0;
    *value = by_row->value;
    return 1;
}

/* Sum of the entries of column `c` that are also the first entry of their
   own row (reached through the row headers): compares nodes by identity
   across the two header lists. */
int column_row_leaders(struct matrix *m, int c)
{
    struct header *col = find_header(m->cols, c);
    if (col == NULL)
        return 0;
    int sum = 0;
    for (struct entry *e = col->first; e != NULL; e = e->down) {
        struct header *row = find_header(m->rows, e->row);
        if (row != NULL && row->first == e)
            sum += e->value;
    }
    return sum;
}
