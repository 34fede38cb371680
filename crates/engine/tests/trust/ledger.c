#include <stdlib.h>
struct entry { struct entry *next; int amount; };
struct ledger { struct entry *first; unsigned count; };
/* cairn: invariant struct ledger=ledger_ok */
int ledger_ok(const struct ledger *l) {
    unsigned n = 0;
    if (l == NULL) return 0;
    for (const struct entry *e = l->first; e != NULL; e = e->next)
        if (++n > l->count) return 0;
    return n == l->count;
}
struct ledger *ledger_new(void) {
    struct ledger *l = calloc(1, sizeof *l);
    return l;
}
int ledger_post(struct ledger *l, int amount) {
    struct entry *e = malloc(sizeof *e);
    if (!e) return -1;
    e->amount = amount; e->next = l->first; l->first = e;
    if (amount != 0)
        l->count++; /* forgets to count zero amounts */
    return 0;
}
int ledger_balance(const struct ledger *l) {
    int sum = 0;
    for (const struct entry *e = l->first; e != NULL; e = e->next)
        sum += e->amount;
    return sum;
}
