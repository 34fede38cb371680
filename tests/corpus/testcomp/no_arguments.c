/* A Test-Comp style program whose main reads its arguments: the harness
 * starts it with none, so argc is 1 and the branches behind the argument
 * check no input takes. */
extern int __VERIFIER_nondet_int(void);
extern void abort(void);
void reach_error(void) { abort(); }

static int parse_level(const char *text)
{
    int level = 0;
    while (*text >= '0' && *text <= '9')
        level = level * 10 + (*text++ - '0');
    return level;
}

int main(int argc, char *argv[])
{
    int reading = __VERIFIER_nondet_int();
    if (argc < 2) {
        if (reading > 40)
            return 1;
        return 0;
    }
    if (parse_level(argv[1]) > reading)
        reach_error();
    return 0;
}
