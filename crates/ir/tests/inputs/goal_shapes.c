/* Small control-flow shapes whose goal implications are worked out by hand
 * in tests/analysis.rs. */

int else_if_chain(int x)
{
    if (x < 0)
        return -1;
    else if (x == 0)
        return 0;
    else if (x < 10)
        return 1;
    return 2;
}

int independent_ifs(int a, int b)
{
    int r = 0;
    if (a)
        r += 1;
    if (b)
        r += 2;
    return r;
}

int nested_ifs(int a, int b)
{
    if (a > 0) {
        if (b > 0)
            return 1;
        return 2;
    }
    return 3;
}

int counted_loop(int n)
{
    int s = 0;
    for (int i = 0; i < n; i++)
        s += i;
    return s;
}

int loop_with_if(int n)
{
    int c = 0;
    for (int i = 0; i < n; i++) {
        if (i % 3 == 0)
            c++;
    }
    return c;
}

int do_while(int n)
{
    int s = 0;
    do {
        s += n;
        n--;
    } while (n > 0);
    return s;
}

int both(int a, int b)
{
    if (a && b)
        return 1;
    return 0;
}

int either(int a, int b)
{
    if (a || b)
        return 1;
    return 0;
}

int switch_shared_case(int k)
{
    switch (k) {
    case 1:
        return 10;
    case 2:
    case 3:
        return 20;
    default:
        return 0;
    }
}

int switch_under_if(int x, int k)
{
    int r = 0;
    if (x > 0) {
        switch (k) {
        case 0:
            r = 1;
            break;
        case 1:
            r = 2;
            break;
        default:
            r = 3;
            break;
        }
    }
    return r;
}

int break_out(int n)
{
    int i = 0;
    while (1) {
        if (i * i >= n)
            break;
        i++;
    }
    return i;
}

int spin_forever(int x)
{
    for (;;) {
        if (x > 0)
            x--;
        else
            x++;
    }
}

int abort_branch(int x)
{
    if (x < 0)
        __builtin_trap();
    if (x > 100)
        return 1;
    return 0;
}

int default_only_switch(int a, int k)
{
    int r = 0;
    if (a) {
        switch (k) {
        default:
            r = k;
        }
    }
    return r;
}
