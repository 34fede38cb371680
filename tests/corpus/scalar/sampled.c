/* Goals a random input hits easily while the solver struggles with them
 * (issue 11, cheap inputs first): nonlinear arithmetic, and a year's twelve
 * months each computed with divisions. */

/* Whether x is a root of (x - 1)(x - 2)(x - 3), for x in [-1000, 1000]. */
int is_cubic_root(int x)
{
    if (x < -1000 || x > 1000)
        return -1;
    if (x * x * x - 6 * x * x + 11 * x - 6 == 0)
        return 1;
    return 0;
}

/* How many months of `year` (1900 to 2100) have a Friday the 13th: one, two
 * or three (every year has at least one and at most three). */
int friday13_count(int year)
{
    int count = 0;
    if (year < 1900 || year > 2100)
        return -1;
    for (int month = 1; month <= 12; month++) {
        /* Zeller's congruence for the 13th: 6 is a Friday. */
        int m = month, y = year;
        if (m < 3) {
            m += 12;
            y -= 1;
        }
        int k = y % 100, j = y / 100;
        int h = (13 + 13 * (m + 1) / 5 + k + k / 4 + j / 4 + 5 * j) % 7;
        if (h == 6)
            count++;
    }
    if (count == 3)
        return 3;
    if (count == 1)
        return 1;
    return 2;
}
