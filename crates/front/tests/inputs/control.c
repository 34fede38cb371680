enum color { RED, GREEN = 5, BLUE };

int classify(int c) {
    int r = 0;
    switch (c) {
    case RED:
        r = 1;
    case GREEN:
        r += 2;
        break;
    case 'a':
    case BLUE:
        r = 3;
        break;
    default:
        r = -1;
    }
    switch ((unsigned char)c) {
    case 1: return r;
    case 300: return 0;
    }
    return r;
}

int jumps(int n) {
    int i = 0;
again:
    i++;
    if (i < n) goto again;
    if (0) return -1;
    return i;
}

int ternary(int a, int b) {
    int m = a > b ? a : b;
    int both = a && b;
    int either = (a, b) || !(a && b);
    return m + both + either + (a ? 1 : 0);
}
