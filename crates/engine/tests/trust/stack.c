#include <stdlib.h>
struct item { struct item *below; int value; };
struct stack { struct item *top; unsigned size; };

struct stack *stack_new(void) {
    struct stack *s = malloc(sizeof *s);
    if (s == NULL) return NULL;
    s->top = NULL;
    s->size = 0;
    return s;
}

int stack_push(struct stack *s, int v) {
    struct item *it = malloc(sizeof *it);
    if (it == NULL) return -1;
    it->value = v;
    it->below = s->top;
    s->top = it;
    s->size++;
    return 0;
}

int stack_pop(struct stack *s, int *out) {
    struct item *it = s->top;
    if (it == NULL) return -1;
    s->top = it->below;
    s->size--;
    *out = it->value;
    free(it);
    return 0;
}

int stack_second(const struct stack *s) {
    if (s->size < 2) return -1;
    if (s->top->below->value > 100) return 1;
    return 0;
}
