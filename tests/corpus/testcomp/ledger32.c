/* A Test-Comp style task for the ILP32 data model (TestCov -32, cairn
 * testcomp --data-model ilp32): a ledger adds up to four long deposits,
 * refusing one that would overflow a 32-bit long, and keeps a table of
 * entries whose size in bytes follows sizeof(void *). A balance of
 * exactly LONG_MAX with a full table is an error. */
extern void abort(void);
extern long __VERIFIER_nondet_long(void);
extern unsigned long __VERIFIER_nondet_ulong(void);

void reach_error(void) { abort(); }

struct entry {
    char kind;
    long long stamp;
    void *owner;
};

int main(void)
{
    long balance = 0;
    unsigned long table_bytes = 0;
    int entries;

    for (entries = 0; entries < 4; entries++) {
        long deposit = __VERIFIER_nondet_long();
        if (deposit <= 0)
            break;
        if (deposit > __LONG_MAX__ - balance)
            return 2; /* would overflow: refused */
        balance += deposit;
        table_bytes += sizeof(struct entry);
    }
    if (table_bytes == 4 * sizeof(struct entry) && balance == __LONG_MAX__)
        reach_error();
    if (balance > 2000000000L) {
        unsigned long limit = __VERIFIER_nondet_ulong();
        if (limit + 1 == 0)
            return 3; /* ULONG_MAX: no limit */
        if ((unsigned long)balance > limit)
            return 1;
    }
    return 0;
}
