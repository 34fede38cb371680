int g = 3;
static int counter;

int add(int a, int b) { return a + b; }

int max3(int a, int b, int c) {
    int m = a;
    if (b > m) m = b;
    if (c > m && c != 0) m = c;
    return m;
}

unsigned mix(unsigned char c, long l, short s) {
    unsigned u = c + s;
    long r = l * u;
    r <<= 2;
    u >>= c;
    return r - u + (u > l);
}

int loops(int n) {
    int sum = 0;
    for (int i = 0; i < n; i++) {
        if (i % 3 == 0) continue;
        if (sum > 100) break;
        sum += i;
    }
    while (n-- > 0) sum ^= n;
    do { sum++; } while (sum < 10);
    while (1) { if (sum) break; }
    return sum;
}

int calls(int x) {
    counter++;
    return add(x, add(1, 2)) + max3(x, g, counter);
}
