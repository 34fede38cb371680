/* Polynomials as lists of terms sorted by decreasing exponent. */
#include <stddef.h>
#include <stdlib.h>

struct term {
    int coef;
    int exp;
    struct term *next;
};

/* Appends a fresh term after *tail; returns 0, or -1 without memory. */
static int append_term(struct term **tail, int coef, int exp)
{
    struct term *fresh = malloc(sizeof *fresh);
    if (fresh == NULL)
        return -1;
    fresh->coef = coef;
    fresh->exp = exp;
    fresh->next = NULL;
    (*tail)->next = fresh;
    *tail = fresh;
    return 0;
}

/* Frees a list of terms. */
static void free_terms(struct term *t)
{
    while (t != NULL) {
        struct term *next = t->next;
        free(t);
        t = next;
    }
}

/* Sum a + b as a freshly allocated list (inputs untouched); terms that
   cancel are dropped.  NULL for the zero polynomial or when out of memory. */
struct term *poly_add(const struct term *a, const struct term *b)
{
    struct term dummy = {0, 0, NULL};
    struct term *tail = &dummy;
    while (a != NULL || b != NULL) {
        int coef, exp;
        if (b == NULL || (a != NULL && a->exp > b->exp)) {
            coef = a->coef;
            exp = a->exp;
            a = a->next;
        } else if (a == NULL || b->exp > a->exp) {
            coef = b->coef;
            exp = b->exp;
            b = b->next;
        } else {
            coef = a->coef + b->coef;
            exp = a->exp;
            a = a->next;
            b = b->next;
        }
        if (coef == 0)
            continue;
        if (append_term(&tail, coef, exp) != 0) {
            free_terms(dummy.next);
            return NULL;
        }
    }
    return dummy.next;
}
