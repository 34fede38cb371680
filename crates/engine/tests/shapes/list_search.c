/* Singly linked list search: the key found at the third node needs a 3-node list. */
struct node {
    int key;
    struct node *next;
};

int find_third(struct node *head, int key)
{
    int pos = 0;
    while (head) {
        if (head->key == key) {
            if (pos == 2)
                return 1;
            return 2;
        }
        pos++;
        head = head->next;
    }
    return 0;
}
