/* Deliberately faulty functions: each fault is marked on its line. */
#include <stddef.h>
#include <stdlib.h>

struct node {
    int key;
    struct node *next;
};

/* Key of the second node; forgets that the list may have only one node. */
int second_key(const struct node *head)
{
    if (head == NULL)
        return -1;
    return head->next->key; /* fault: NULL dereference when the list has one node */
}

/* Frees the first node and returns the key of the node after it, read
   through the freed node. */
int pop_then_peek(struct node *head)
{
    if (head == NULL)
        return -1;
    free(head);
    if (head->next == NULL) /* fault: use after free */
        return -1;
    return head->next->key;
}

/* Frees every node of the list, then frees the head a second time when its
   key is negative. */
void free_list_twice(struct node *head)
{
    struct node *first = head;
    int first_negative = head != NULL && head->key < 0;
    while (head != NULL) {
        struct node *next = head->next;
        free(head);
        head = next;
    }
    if (first_negative)
        free(first); /* fault: double free */
}

/* Copies the key of the head into a fresh node; returns the copy, but on
   a negative key returns -1 as a flag and loses the copy. */
struct node *copy_head(const struct node *head, int *status)
{
    struct node *copy = malloc(sizeof *copy);
    if (copy == NULL || head == NULL) {
        free(copy);
        *status = -1;
        return NULL;
    }
    copy->key = head->key;
    copy->next = NULL;
    if (head->key < 0) {
        *status = -1;
        return NULL; /* fault: leak of copy */
    }
    *status = 0;
    return copy;
}

/* Number of distinct keys in 0..7 on the list, counted in a local table
   of 8 slots; a key of 8 slips through the bound check. */
int distinct_small_keys(const struct node *head)
{
    int seen[8] = {0};
    int distinct = 0;
    for (; head != NULL; head = head->next) {
        if (head->key < 0 || head->key > 8)
            continue;
        if (seen[head->key] == 0) /* fault: out-of-bounds index when key == 8 */
            distinct++;
        seen[head->key] = 1;
    }
    return distinct;
}

/* Membership test used by delete_key's self-check. */
static int contains(const struct node *head, int key)
{
    for (; head != NULL; head = head->next) {
        if (head->key == key)
            return 1;
    }
    return 0;
}

/* Deletes every node holding `key` but never examines the first node.
   Returns 0, or -1 when a node with `key` is still in the list: that
   branch is only reachable through the fault. */
struct node *delete_key(struct node *head, int key, int *status)
{
    if (head == NULL) {
        *status = 0;
        return NULL;
    }
    struct node *prev = head; /* fault (wrong output): skips the first node (should start before head) */
    while (prev->next != NULL) {
        if (prev->next->key == key) {
            struct node *victim = prev->next;
            prev->next = victim->next;
            free(victim);
        } else {
            prev = prev->next;
        }
    }
    *status = contains(head, key) ? -1 : 0; /* -1: reached only through the fault */
    return head;
}

/* Sum of a fresh array of n counters that is never initialized. */
int sum_fresh_counters(int n)
{
    if (n <= 0 || n > 8)
        return 0;
    int *counters = malloc((size_t)n * sizeof *counters);
    if (counters == NULL)
        return 0;
    int sum = 0;
    for (int i = 0; i < n; i++)
        sum += counters[i]; /* fault: read of uninitialized malloc'd memory */
    free(counters);
    return sum;
}

/* Buckets for a hash table: the power of two at or above n, as hash tables
 * round their size. For n == 1, n - 1 is 0, whose leading zeros gcc leaves
 * undefined. */
unsigned round_up_buckets(unsigned n)
{
    if (n == 0 || n > (1u << 30))
        return 0;
    return 1u << (32 - __builtin_clz(n - 1)); /* fault: __builtin_clz of 0 */
}

/* A chunk of a binary file: a header, then its payload where the header
 * says. The payload's offset is trusted: an odd one reads a `uint32_t`
 * pair at an address 4 does not divide. */
struct chunk_header {
    unsigned size;
    unsigned payload_offset;
};

struct chunk_payload {
    unsigned width;
    unsigned height;
};

int chunk_area_is_large(const unsigned char *chunk)
{
    const struct chunk_header *header = (const struct chunk_header *)chunk;
    if (header->payload_offset < sizeof *header || header->payload_offset > 16)
        return -1;
    if (header->size < header->payload_offset + sizeof(struct chunk_payload))
        return -1;
    const struct chunk_payload *payload =
        (const struct chunk_payload *)(chunk + header->payload_offset);
    return payload->width > 100; /* fault: misaligned access when the payload's offset is not a multiple of 4 */
}
