/* Old-style (K&R) definitions as gcc compiles them: without a prototype
 * the caller passes each argument promoted and the callee converts it back
 * to its declared type (a `char` arrives as an `int` and is truncated, a
 * `float` as a `double` and is rounded); a prototype declared before the
 * definition decides what the callee receives. Each t_ function returns a
 * number that shows every conversion. */

typedef unsigned char byte;

int narrow(c, s, u)
    char c;
    short s;
    byte u;
{
    return c * 100000 + s * 10 + u;
}

double halved(x)
    float x;
{
    return x / 2;
}

/* `n` is declared nowhere: an `int`. */
long mixed(a, p, n)
    long a;
    register int *p;
{
    return a * 1000 + *p * 10 + n;
}

int fact(n)
    int n;
{
    return n <= 1 ? 1 : n * fact(n - 1);
}

int sum(a, n, f)
    int a[];
    int n;
    int f(int);
{
    register int i, s = 0;

    for (i = 0; i < n; i++)
        s += f(a[i]);
    return s;
}

int twice(v)
    int v;
{
    return 2 * v;
}

/* Parentheses around the name, as against a macro of the same name. */
int (negated)(v)
    int v;
{
    return -v;
}

int by_prototype(int s);
int by_prototype(s)
    short s;
{
    return s;
}

/* GNU C: a prototype with the declared type itself overrides the promotion. */
int gnu_char(char c);
int gnu_char(c)
    char c;
{
    return c + 1;
}

int later();
int first_call(void) {
    return later(300, 2.75f);
}
int later(c, d)
    char c;
    double d;
{
    return c * 10 + (int)(d * 4);
}

long long t_narrow(void) {
    return narrow(300, 70001, 511) + narrow('a' + 1000, -1, 0);
}

long long t_float_from_double(void) {
    return (long long)(halved(3.3) * 1e12) + (halved(1e300) > 1e200);
}

long long t_float_argument(void) {
    float f = 0.1f;
    return halved(f) == 0.05f;
}

long long t_long_and_implicit_int(void) {
    int v = -7;
    long wide = -1;
    return mixed(wide, &v, 9) + mixed(123456789L, &v, -3);
}

long long t_recursion(void) {
    return fact(10);
}

long long t_extra_arguments_ignored(void) {
    return fact(4, 99);
}

long long t_array_and_function_parameters(void) {
    int values[3] = {1, 2, 30};
    return sum(values, 3, twice) + negated(5);
}

long long t_prototype_before(void) {
    return by_prototype(70002) + gnu_char(300);
}

long long t_call_before_definition(void) {
    return first_call();
}
