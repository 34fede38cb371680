/* Triangle classification: the classic test-generation example, plus a
 * right-angle check that needs nonlinear arithmetic (squares). */

enum triangle_kind {
    NOT_A_TRIANGLE,
    EQUILATERAL,
    ISOSCELES,
    SCALENE
};

/* Classifies a triangle by its side lengths. */
enum triangle_kind classify_triangle(int a, int b, int c)
{
    if (a <= 0 || b <= 0 || c <= 0)
        return NOT_A_TRIANGLE;
    /* Compare in long long so that large sides cannot overflow the sum. */
    if ((long long)a + b <= c || (long long)a + c <= b || (long long)b + c <= a)
        return NOT_A_TRIANGLE;
    if (a == b && b == c)
        return EQUILATERAL;
    if (a == b || b == c || a == c)
        return ISOSCELES;
    return SCALENE;
}

/* Returns 1 when the sides (in any order) satisfy Pythagoras' theorem.
 * Sides are lengths on a 100 x 100 grid: 1..100. */
int is_right_triangle(int a, int b, int c)
{
    if (a < 1 || b < 1 || c < 1 || a > 100 || b > 100 || c > 100)
        return 0;
    int aa = a * a, bb = b * b, cc = c * c;
    if (aa + bb == cc || aa + cc == bb || bb + cc == aa)
        return 1;
    return 0;
}
