#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef unsigned long size_type;

char *dup(const char *s) {
    size_t n = strlen(s);
    char *p = malloc(n + 1);
    if (p == NULL) return NULL;
    memcpy(p, s, n + 1);
    printf("%s %d\n", p, (int)n);
    return p;
}
