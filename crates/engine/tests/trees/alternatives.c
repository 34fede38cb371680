/* `found` is set along two paths: one needs x > 10 and x < 5 (infeasible),
   the other x <= 10 and a square of 49 (nonlinear, feasible). */
int pick(int x, int y)
{
    int found = 0;
    if (x > 10) {
        if (x < 5)
            found = 1;
    } else if (y * y == 49) {
        found = 1;
    }
    if (found)
        return 7;
    return 0;
}
