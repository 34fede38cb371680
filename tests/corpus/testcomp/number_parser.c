/* A Test-Comp style task: a state machine reads a signed decimal number
 * one nondeterministic char at a time, ended by ';', at most 8 chars.  A
 * nondeterministic bool says whether a leading '+' is allowed.  No
 * reach_error() call is reachable. */
extern void abort(void);
extern char __VERIFIER_nondet_char(void);
extern _Bool __VERIFIER_nondet_bool(void);

void reach_error(void) { abort(); }

enum state { START, SIGN, DIGITS, DONE, BAD };

int main(void)
{
    enum state s = START;
    _Bool plus_allowed = __VERIFIER_nondet_bool();
    int value = 0, negative = 0, length = 0;

    while (s != DONE && s != BAD && length < 8) {
        char c = __VERIFIER_nondet_char();
        length++;
        switch (s) {
        case START:
            if (c == '-') {
                negative = 1;
                s = SIGN;
            } else if (c == '+' && plus_allowed) {
                s = SIGN;
            } else if (c >= '0' && c <= '9') {
                value = c - '0';
                s = DIGITS;
            } else {
                s = BAD;
            }
            break;
        case SIGN:
            if (c >= '0' && c <= '9') {
                value = c - '0';
                s = DIGITS;
            } else {
                s = BAD;
            }
            break;
        case DIGITS:
            if (c >= '0' && c <= '9')
                value = value * 10 + (c - '0');
            else if (c == ';')
                s = DONE;
            else
                s = BAD;
            break;
        default: /* infeasible: the loop stops in DONE and BAD */
            break;
        }
    }
    if (s != DONE)
        return 1;
    if (value > 9999999) /* infeasible: at most 7 chars hold digits */
        reach_error();
    return negative ? -value % 100 : value % 100;
}
