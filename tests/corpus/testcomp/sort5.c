/* A Test-Comp style task: reads a count (an unsigned char, assumed at most
 * five) and as many ints, sorts them by insertion, then checks the result.
 * Self-contained as Test-Comp's preprocessed tasks are: no #include.
 * reach_error() is unreachable: the array is always sorted. */
extern void abort(void);
extern unsigned char __VERIFIER_nondet_uchar(void);
extern int __VERIFIER_nondet_int(void);
extern void __VERIFIER_assume(int cond);

void reach_error(void) { abort(); }

#define CAPACITY 5

int main(void)
{
    int a[CAPACITY];
    unsigned char n = __VERIFIER_nondet_uchar();
    int i, j, key, duplicates = 0, negatives = 0;

    __VERIFIER_assume(n <= CAPACITY);
    for (i = 0; i < n; i++) {
        a[i] = __VERIFIER_nondet_int();
        if (a[i] < 0)
            negatives++;
    }
    for (i = 1; i < n; i++) {
        key = a[i];
        for (j = i - 1; j >= 0 && a[j] > key; j--)
            a[j + 1] = a[j];
        a[j + 1] = key;
    }
    for (i = 1; i < n; i++) {
        if (a[i - 1] > a[i]) /* infeasible: the array is sorted */
            reach_error();
        if (a[i - 1] == a[i])
            duplicates++;
    }
    if (duplicates > 1 && negatives == n)
        return 3;
    if (duplicates > 0)
        return 2;
    return 0;
}
