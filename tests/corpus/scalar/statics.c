/* Functions that keep their state in static variables: each test starts
 * them from their initial value, so an arm that only a later call reaches
 * is covered by calling the function first. */

/* Hands out tickets 1, 2 and 3, then -1: the supply is exhausted. */
int next_ticket(void)
{
    static int issued = 0;
    if (issued >= 3)
        return -1;
    issued++;
    return issued;
}

/* Allows a request at time `now` (in seconds, not negative) when none was
 * allowed in the 10 seconds before: 1 when allowed, 0 when too soon, -1
 * for a negative time. */
int allow_request(int now)
{
    static int last_allowed = -1;
    if (now < 0)
        return -1;
    if (last_allowed >= 0 && now - last_allowed < 10)
        return 0;
    last_allowed = now;
    return 1;
}

/* The square of i for i in 0..3, from a table filled on the first call;
 * -1 for other i. */
int cached_square(int i)
{
    static int initialised = 0;
    static int squares[4];
    if (!initialised) {
        for (int k = 0; k < 4; k++)
            squares[k] = k * k;
        initialised = 1;
    }
    if (i < 0 || i > 3)
        return -1;
    return squares[i];
}

/* Stores value in a ring of 3 slots and returns the value it overwrites,
 * or -1 while the ring is not yet full. */
int ring_push(int value)
{
    static int slots[3];
    static int next = 0;
    static int filled = 0;
    int overwritten = -1;
    if (filled == 3)
        overwritten = slots[next];
    else
        filled++;
    slots[next] = value;
    next++;
    if (next == 3)
        next = 0;
    return overwritten;
}

/* 1 on the first call, 0 when key repeats the previous call's key, 2 when
 * it changed. */
int key_changed(int key)
{
    static int has_previous = 0;
    static int previous;
    if (!has_previous) {
        has_previous = 1;
        previous = key;
        return 1;
    }
    if (key == previous)
        return 0;
    previous = key;
    return 2;
}

/* How many calls came through this helper, its own first included. */
static int calls_so_far(void)
{
    static int calls = 0;
    calls++;
    return calls;
}

/* -1 for a negative visitor, 1 when a visit was counted before, 0 for the
 * first: the count is kept in a helper's static. */
int is_repeat_visit(int visitor)
{
    if (visitor < 0)
        return -1;
    if (calls_so_far() > 1)
        return 1;
    return 0;
}
