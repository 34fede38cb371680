/* Pointers to pointers: *p == *q needs both to lead to one integer. */
int same_target(int **p, int **q)
{
    if (!*p || !*q)
        return -1;
    if (*p == *q) {
        **p = 7;
        return **q;
    }
    return 0;
}
