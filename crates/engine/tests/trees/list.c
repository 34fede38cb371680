/* The true arm of `length == 3` needs an input list of three nodes. */
struct node {
    int value;
    struct node *next;
};

int has_three(struct node *list)
{
    int length = 0;
    while (list) {
        length++;
        list = list->next;
    }
    if (length == 3)
        return 1;
    return 0;
}
