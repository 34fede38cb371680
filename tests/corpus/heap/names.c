/* Names copied with strdup and strndup: allocations made inside the C
 * library, which the tests may make fail like malloc's. */
#define _POSIX_C_SOURCE 200809L

#include <stdlib.h>
#include <string.h>

struct user {
    char *name;
    int id;
};

/* Replaces the user's name with a copy of name; returns 0, -1 for an empty
 * name, -2 when memory runs out (the old name is kept). */
int rename_user(struct user *user, const char *name)
{
    if (name[0] == '\0')
        return -1;
    char *copy = strdup(name);
    if (copy == NULL)
        return -2;
    free(user->name);
    user->name = copy;
    return 0;
}

/* A new string holding the first word of text (up to a space), or NULL
 * when text starts with a space or is empty, or memory runs out. */
char *first_word(const char *text)
{
    const char *space = strchr(text, ' ');
    size_t len = space == NULL ? strlen(text) : (size_t)(space - text);
    if (len == 0)
        return NULL;
    return strndup(text, len);
}
