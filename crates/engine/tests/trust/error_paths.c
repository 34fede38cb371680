#include <assert.h>
#include <stdlib.h>

void reach_error(void) { abort(); }

int check_age(int age) {
    assert(age < 200);
    if (age < 0)
        exit(3);
    if (age == 0)
        exit(0);
    return age > 17;
}

int pick(int k) {
    if (k == 42)
        abort();
    return k;
}

int pair(int a, int b) {
    if (a > 10 && a < 100 && b == a + 1)
        reach_error();
    return a > b;
}
