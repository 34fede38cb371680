/* Floyd's cycle detection: returning 1 needs a cyclic input list. */
struct node {
    int key;
    struct node *next;
};

int has_cycle(struct node *head)
{
    struct node *slow = head;
    struct node *fast = head;
    while (fast && fast->next) {
        slow = slow->next;
        fast = fast->next->next;
        if (slow == fast)
            return 1;
    }
    return 0;
}
