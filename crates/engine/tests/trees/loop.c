/* The true arm of `sum == 10` needs the loop to run exactly five times. */
int sum_below(int n)
{
    int i = 0, sum = 0;
    while (i < n) {
        sum += i;
        i++;
    }
    if (sum == 10)
        return 1;
    return 0;
}
