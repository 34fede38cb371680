/* Old-style (K&R) definitions: the body receives its parameters promoted
 * and converts them to their declared types first. */

typedef unsigned char uch;

/* `level` is declared nowhere: an `int`. */
int mixed(buf, c, ratio, level)
    register uch *buf;
    char c;
    float ratio;
{
    if (ratio > 0.5f && *buf == (uch)c)
        return level;
    return 0;
}

int count(n)
    int n;
{
    return n <= 0 ? 0 : 1 + count(n - 1);
}

/* Calls another old-style definition: arguments promoted, then fitted. */
int caller(p)
    uch *p;
{
    return mixed(p, p[1], 0.75, 3) + count(p[0]);
}

/* A prototype before decides what the body receives: an `int` here, a
 * `char` as GNU C lets the declared type override the promotion. */
int widened(int c);
int widened(c)
    char c;
{
    return c;
}
int kept(char c);
int kept(c)
    char c;
{
    return c;
}

int uses_prototypes(void) {
    return widened(300) + kept(300);
}

int flag(b)
    _Bool b;
{
    return b;
}

int too_few(void) {
    return count();
}

int no_int_for_a_double(void) {
    return mixed((uch *)0, 1, 2, 3);
}
