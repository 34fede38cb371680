/* Demonstrates the planted bugs of buggy/jtree.c: ./jtree_bugs SCENARIO */
#include "selftest.h"
#include "../buggy/jtree.c"

int main(int argc, char **argv)
{
    const char *scenario = argc > 1 ? argv[1] : "";
    struct jt *a, *s;
    long i;

    if (strcmp(scenario, "replace") == 0) {
        /* Use after free: the replaced member is read after it is freed. */
        a = jt_create_array();
        for (i = 1; i <= 3; i++)
            jt_add_item_to_array(a, jt_create_number(i));
        jt_replace_item_in_array(a, 1, jt_create_number(20)); /* crashes */
        jt_delete(a);
        return 0;
    }
    if (strcmp(scenario, "leak") == 0) {
        /* Leak: the second allocation of jt_create_string fails. */
        st_fail_after = 1;
        s = jt_create_string("abc");
        printf("jt_create_string with the string copy failing: %p\n", (void *)s);
        fflush(stdout);
        return 0; /* LeakSanitizer reports the item at exit */
    }
    fprintf(stderr, "usage: jtree_bugs replace|leak\n");
    return 2;
}
