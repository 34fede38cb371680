/* GCC's atomic builtins and __auto_type as gcc compiles them in one thread:
 * each t_ function returns a number that shows every value read and stored. */

int counter;
unsigned char small = 250;
long wide = -5;

long t_fetch_then_modify()
{
    int before = __sync_fetch_and_add(&counter, 7);
    int after = __atomic_sub_fetch(&counter, 2, __ATOMIC_SEQ_CST);
    unsigned char wrapped = __atomic_add_fetch(&small, 10, __ATOMIC_RELAXED);
    long nand = __atomic_fetch_nand(&wide, 12, __ATOMIC_SEQ_CST);
    return before * 1000000L + after * 10000L + wrapped * 100L + nand + wide;
}

long t_compare_exchange()
{
    int value = 5;
    int expected = 4;
    int failed = __atomic_compare_exchange_n(&value, &expected, 9, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
    int seen = expected;
    int done = __atomic_compare_exchange_n(&value, &expected, 9, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
    int old = __sync_val_compare_and_swap(&value, 9, -3);
    int swapped = __sync_bool_compare_and_swap(&value, 1, 2);
    return failed * 100000 + seen * 10000 + done * 1000 + old * 10 + swapped + value;
}

long t_loads_and_stores()
{
    long slot = 3;
    long copy;
    __atomic_store_n(&slot, 11, __ATOMIC_RELEASE);
    __atomic_load(&slot, &copy, __ATOMIC_ACQUIRE);
    long old = __atomic_exchange_n(&slot, 20, __ATOMIC_SEQ_CST);
    char flag = 0;
    int was = __atomic_test_and_set(&flag, __ATOMIC_SEQ_CST);
    int again = __atomic_test_and_set(&flag, __ATOMIC_SEQ_CST);
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
    return copy * 100000 + old * 1000 + __atomic_load_n(&slot, __ATOMIC_SEQ_CST) * 10 + was + again;
}

long t_auto_type()
{
    __auto_type n = (short)-3;
    __auto_type big = 4000000000u;
    int values[3] = {1, 2, 3};
    __auto_type first = values;
    return n * 1000 + (long)sizeof big * 100 + (long)sizeof first + first[2] + (long)big;
}
