/* Path-oriented generation: an alias the code only tests after writing
 * through both pointers. Following the `x == y` branch needs x and y to be
 * the same object, and the write through y then replaces the one through x. */

int overwrite(int *x, int *y)
{
    *x = 1;
    *y = 2;
    if (x == y)
        return *x;
    return *x + *y;
}
