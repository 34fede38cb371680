/* A chained hash table: an array of bucket lists whose entries carry a
   name string. Exercises an array of node pointers inside a struct
   (`t->buckets[2]->next`) and strings held by nodes (`e->name`). */
#include <stddef.h>
#include <string.h>

#define BUCKETS 4

struct entry {
    const char *name;
    int value;
    struct entry *next;
};

struct table {
    struct entry *buckets[BUCKETS];
    int count;
};

static unsigned bucket_of(const char *name)
{
    return (unsigned char)name[0] % BUCKETS;
}

/* Finds `name`; stores its value in *value and returns 1, or returns 0. */
int table_lookup(const struct table *t, const char *name, int *value)
{
    if (t == NULL || name == NULL || name[0] == '\0')
        return 0;
    for (const struct entry *e = t->buckets[bucket_of(name)]; e != NULL; e = e->next) {
        if (strcmp(e->name, name) == 0) {
            *value = e->value;
            return 1;
        }
    }
    return 0;
}

/* Counts the entries of every bucket; returns -1 when that disagrees with
   t->count or an entry sits in the wrong bucket. */
int table_check(const struct table *t)
{
    int seen = 0;
    for (unsigned b = 0; b < BUCKETS; b++) {
        for (const struct entry *e = t->buckets[b]; e != NULL; e = e->next) {
            if (e->name == NULL || bucket_of(e->name) != b)
                return -1;
            seen++;
        }
    }
    return seen == t->count ? seen : -1;
}
