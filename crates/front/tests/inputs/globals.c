struct pair { int a; int b; };
struct node { int key; struct node *next; };
union u { int i; char c[8]; };

int table[5] = {1, 2, [4] = 9};
struct pair pairs[] = {{1, 2}, {3}, [3].b = 7};
char name[] = "abc";
char buf[8] = "hi";
const char *msg = "hello";
struct node n2 = {2, 0};
struct node n1 = {.next = &n2, .key = 1};
int *ptr = &table[2];
long addr_plus = 0;
union u un = {.c = {1, 2}};
int matrix[2][3] = {1, 2, 3, 4};
int (*fp)(int) = 0;
extern int external;

int next_key(struct node *n) { return n->next ? n->next->key : -1; }
int (*handler)(struct node *) = next_key;

int counter(void) {
    static int calls = 10;
    return ++calls + external;
}

int local_init(int x) {
    struct pair p = {x};
    int arr[4] = {x, [2] = 5};
    char s[6] = "ok";
    struct node n = {.key = x};
    return p.b + arr[3] + s[1] + n.key;
}

int call_through(int (*f)(struct node *), struct node *n) {
    return f(n) + (*f)(n) + handler(n);
}
