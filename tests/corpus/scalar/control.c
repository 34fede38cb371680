/* Control flow shapes: switch fall-through, goto-based cleanup, chains of
 * ?: and compound && / || conditions. */

enum { PERM_READ = 1, PERM_WRITE = 2, PERM_EXEC = 4, PERM_ADMIN = 8 };

/* Permissions granted by an access level; each level includes the ones
 * below it, which is what the fall-through spells out. */
int permissions_for_level(int level)
{
    int perms = 0;
    switch (level) {
    case 3:
        perms |= PERM_ADMIN;
        /* fall through */
    case 2:
        perms |= PERM_EXEC;
        /* fall through */
    case 1:
        perms |= PERM_WRITE;
        /* fall through */
    case 0:
        perms |= PERM_READ;
        break;
    default:
        perms = -1;
        break;
    }
    return perms;
}

/* Sets up a three-stage "connection" whose stages can each fail (the
 * stage results are the arguments), undoing the finished stages in
 * reverse order on failure. *undone counts the stages torn down.
 * Returns 0 on success or the number of the failing stage. */
int open_connection(int resolve_ok, int connect_ok, int handshake_ok, int *undone)
{
    int failed_stage = 0;
    *undone = 0;

    if (!resolve_ok) {
        failed_stage = 1;
        goto out;
    }
    if (!connect_ok) {
        failed_stage = 2;
        goto undo_resolve;
    }
    if (!handshake_ok) {
        failed_stage = 3;
        goto undo_connect;
    }
    return 0;

undo_connect:
    *undone += 1;
undo_resolve:
    *undone += 1;
out:
    return failed_stage;
}

/* Clamps x into [low, high] after ordering the bounds, then reports which
 * side clamped it: the result is x', and *side is -1, 0 or 1. */
int clamp_and_report(int x, int low, int high, int *side)
{
    int lo = low < high ? low : high;
    int hi = low < high ? high : low;
    int result = x < lo ? lo : x > hi ? hi : x;
    *side = result == x ? 0 : result == lo ? -1 : 1;
    return result;
}

/* Median of three values using only ?: */
int median3(int a, int b, int c)
{
    return a > b ? (b > c ? b : a > c ? c : a) : (a > c ? a : b > c ? c : b);
}

/* Shipping is free for members, or for orders of at least 50 that are not
 * bulky, or for anything in the sale unless it is international. */
int free_shipping(int member, int total, int bulky, int on_sale, int international)
{
    if (member || (total >= 50 && !bulky) || (on_sale && !international))
        return 1;
    return 0;
}

/* A leap second may be inserted on 30 June or 31 December at 23:59:60. */
int is_valid_time_of_day(int month, int day, int hour, int minute, int second)
{
    if (hour < 0 || hour > 23 || minute < 0 || minute > 59 || second < 0)
        return 0;
    if (second <= 59)
        return 1;
    return second == 60 && hour == 23 && minute == 59 &&
           ((month == 6 && day == 30) || (month == 12 && day == 31));
}
