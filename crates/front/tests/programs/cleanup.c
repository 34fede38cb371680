/* Locals with `__attribute__((cleanup(f)))`, as GLib's `g_autoptr` and
 * systemd's `_cleanup_` declare them: `f(&var)` runs however the scope
 * ends, the last declared first. Each cleanup appends its variable's value
 * to a log read as a decimal number, so each t_ function's result shows
 * which cleanups ran and in what order. */

#define autolog __attribute__((cleanup(note)))

static long journal;

static void note(int *v) { journal = journal * 10 + *v; }

static void note_any(void *p) { journal = journal * 10 + *(int *)p + 5; }

/* The cleanups `f(arg)` runs, as a number. */
static long logged(int (*f)(int), int arg) {
    journal = 0;
    f(arg);
    return journal;
}

static int block_end(void) {
    {
        autolog int a = 1;
        autolog int b = 2;
        journal = journal * 10 + 9;
    }
    return 0;
}

int t_block_end(void) {
    journal = 0;
    block_end();
    return (int)journal;
}

/* The returned value is taken before the cleanup changes it. */
static int returned(void) {
    autolog int a = 3;
    a = 4;
    return a++;
}

int t_return_value_first(void) {
    journal = 0;
    int r = returned();
    return (int)journal * 10 + r;
}

static int loop(int n) {
    int sum = 0;
    for (int i = 0; i < n; i++) {
        autolog int a = i + 1;
        if (i == 1)
            continue;
        if (i == 3)
            break;
        sum += a;
    }
    return sum;
}

int t_break_and_continue(void) {
    journal = 0;
    int s = loop(6);
    return (int)journal * 10 + s;
}

static int forward(int fail) {
    autolog int outer = 1;
    {
        autolog int inner = 2;
        if (fail)
            goto out;
        inner = 3;
    }
    outer = 4;
out:
    return 7;
}

int t_goto_forward(void) {
    return (int)(logged(forward, 1) * 1000 + logged(forward, 0));
}

/* Jumping back over a declaration ends that variable's scope. */
static int backward(void) {
    int round = 0;
again:
    round++;
    {
        autolog int r = round;
        if (round < 3)
            goto again;
    }
    return round;
}

int t_goto_backward(void) {
    journal = 0;
    int r = backward();
    return (int)journal * 10 + r;
}

/* A declaration after the jump is not cleaned up by it; a cleanup taking
 * `void *` gets the variable's address converted. */
static int skipped(int early) {
    autolog int a = 1;
    if (early)
        return 0;
    __attribute__((cleanup(note_any))) int b = 2;
    switch (early) {
    case 0: {
        autolog int c = 3;
        break;
    }
    }
    return 1;
}

int t_declared_after_the_jump(void) {
    return (int)(logged(skipped, 1) * 10000 + logged(skipped, 0));
}

int t_statement_expression(void) {
    journal = 0;
    int v = ({
        autolog int a = 6;
        a + 1;
    });
    return (int)journal * 10 + v;
}
