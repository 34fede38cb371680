/* Structs passed and returned by value. */

struct point {
    int x;
    int y;
};

struct rect {
    struct point min; /* inclusive corner */
    struct point max; /* exclusive corner */
};

struct quotient {
    int quot;
    int rem;
    int ok;
};

/* Floor division and modulo (the remainder has the sign of the divisor,
 * as in Python), returned together; ok is 0 when the divisor is zero or
 * the quotient would overflow. */
struct quotient floor_divmod(int dividend, int divisor)
{
    struct quotient q = {0, 0, 0};
    if (divisor == 0)
        return q;
    if (dividend == -2147483647 - 1 && divisor == -1)
        return q;
    q.quot = dividend / divisor;
    q.rem = dividend % divisor;
    if (q.rem != 0 && (q.rem < 0) != (divisor < 0)) {
        q.quot -= 1;
        q.rem += divisor;
    }
    q.ok = 1;
    return q;
}

/* The overlap of two rectangles; an empty rectangle (min == max == 0,0)
 * when they do not overlap. */
struct rect rect_intersection(struct rect a, struct rect b)
{
    struct rect r;
    r.min.x = a.min.x > b.min.x ? a.min.x : b.min.x;
    r.min.y = a.min.y > b.min.y ? a.min.y : b.min.y;
    r.max.x = a.max.x < b.max.x ? a.max.x : b.max.x;
    r.max.y = a.max.y < b.max.y ? a.max.y : b.max.y;
    if (r.min.x >= r.max.x || r.min.y >= r.max.y) {
        struct rect empty = {{0, 0}, {0, 0}};
        return empty;
    }
    return r;
}

/* Which quadrant a point lies in (1..4), 0 on an axis. */
int quadrant(struct point p)
{
    if (p.x == 0 || p.y == 0)
        return 0;
    if (p.x > 0)
        return p.y > 0 ? 1 : 4;
    return p.y > 0 ? 2 : 3;
}

/* Moves p one step toward target along each axis; returns the new point. */
struct point step_toward(struct point p, struct point target)
{
    struct point next = p;
    if (p.x < target.x)
        next.x++;
    else if (p.x > target.x)
        next.x--;
    if (p.y < target.y)
        next.y++;
    else if (p.y > target.y)
        next.y--;
    return next;
}
