/* The textbook example: classify a triangle by its sides. */

enum kind { INVALID, EQUILATERAL, ISOSCELES, SCALENE };

enum kind triangle(int a, int b, int c)
{
    if (a <= 0 || b <= 0 || c <= 0)
        return INVALID;
    if ((long long)a + b <= c || (long long)b + c <= a || (long long)a + c <= b)
        return INVALID;
    if (a == b && b == c)
        return EQUILATERAL;
    if (a == b || b == c || a == c)
        return ISOSCELES;
    return SCALENE;
}
