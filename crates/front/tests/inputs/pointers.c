struct point { int x; int y; };
typedef struct { char tag; long value; struct point p; } item;

int sum(const int *a, unsigned long n) {
    int s = 0;
    for (unsigned long i = 0; i < n; i++) s += a[i];
    return s;
}

int scan(const char *s) {
    const char *p = s;
    while (*p) p++;
    return p - s;
}

void swap(int *a, int *b) { int t = *a; *a = *b; *b = t; }

int field(item *it, struct point *q) {
    it->p.x = q->y;
    (*it).tag = 'z';
    int *px = &it->p.x;
    int *same = &*px;
    return *same + (it->value > 0) + (q != 0) + !q;
}

int arrays(int i) {
    int m[3][4];
    int v[] = {1, 2, 3};
    m[i][2] = v[i];
    int *p = v;
    p = p + 2;
    p -= 1;
    return m[1][i] + *(p + i) + p[-1] + (int)sizeof v + (int)sizeof(item);
}

int literal(int k) {
    struct point *p = &(struct point){k, 2};
    int *v = (int[]){4, 5, 6};
    return p->y + v[k];
}
