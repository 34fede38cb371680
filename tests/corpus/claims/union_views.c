/* A node seen through one of two views of a union, as libraries that
 * share a header among node kinds write it. */
#include <stddef.h>

struct node {
    union {
        struct {
            struct node *parent;
            const char *name;
        } plain;
        struct {
            struct node *parent;
            const char *target;
        } augment;
    } as;
    int kind;
};

/* Whether an augment names its target. */
int names_target(const struct node *n)
{
    if (n->kind != 2)
        return -1;
    if (n->as.augment.target == NULL)
        return 0;
    return 1;
}

/* A session whose union holds pointers in one view and an address in the
 * other, as a server's I/O object does. */
struct session {
    union {
        struct {
            struct node *forward;
            struct node *reply;
        } udp;
        struct {
            char host[16];
            int port;
        } bind;
    } cmd;
};

/* The port of a session nothing forwards: a NULL pointer in one view and
 * a number in the other, which one view of the union writes. */
int forwarded_port(const struct session *s)
{
    if (s->cmd.udp.forward != NULL)
        return -1;
    return s->cmd.bind.port;
}
