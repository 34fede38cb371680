#include <stdlib.h>
#include <string.h>

/* A record its constructor fills whole, and a call that changes one member. */
struct meter { int id; int limit; int count; char unit[8]; };

struct meter *meter_new(int id, int limit) {
    struct meter *m = malloc(sizeof *m);
    if (m == NULL) return NULL;
    m->id = id;
    m->limit = limit;
    m->count = 0;
    strcpy(m->unit, "ticks");
    return m;
}

int meter_tick(struct meter *m) {
    if (m->count >= m->limit) return -1;
    m->count++;
    return m->count;
}
