/* A playlist: a singly linked list of tracks sorted by number. In repeat
   mode the last track links back to the first. cairn builds the lists (empty,
   short, long, looping), makes malloc fail when a branch needs it
   (--alloc-may-fail), and checks the list each call leaves behind. */
#include <stdlib.h>

struct track {
    int number;
    int seconds;
    struct track *next;
};

/* Inserts a track in number order and returns the new head. A track whose
   number is already there only gets the new length. */
struct track *playlist_add(struct track *head, int number, int seconds)
{
    if (seconds <= 0)
        return head;
    for (struct track *t = head; t != NULL; t = t->next) {
        if (t->number == number) {
            t->seconds = seconds;
            return head;
        }
    }
    struct track *fresh = malloc(sizeof *fresh);
    if (fresh == NULL)
        return head;
    fresh->number = number;
    fresh->seconds = seconds;
    if (head == NULL || number < head->number) {
        fresh->next = head;
        return fresh;
    }
    struct track *at = head;
    while (at->next != NULL && at->next->number < number)
        at = at->next;
    fresh->next = at->next;
    at->next = fresh;
    return head;
}

/* Removes and frees every track longer than `limit`; returns the new head. */
struct track *playlist_trim(struct track *head, int limit)
{
    while (head != NULL && head->seconds > limit) {
        struct track *gone = head;
        head = head->next;
        free(gone);
    }
    struct track *t = head;
    while (t != NULL && t->next != NULL) {
        if (t->next->seconds > limit) {
            struct track *gone = t->next;
            t->next = gone->next;
            free(gone);
        } else {
            t = t->next;
        }
    }
    return head;
}

/* Total seconds of one round; negative when the playlist repeats (its last
   track links back to the first). */
long playlist_length(const struct track *head)
{
    long total = 0;
    for (const struct track *t = head; t != NULL; t = t->next) {
        total += t->seconds;
        if (t->next == head)
            return -total;
    }
    return total;
}
