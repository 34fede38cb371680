/* NULL with a size of 0 is still NULL to functions glibc declares nonnull
 * (memcpy, memset, strlen...): undefined, and UBSan stops there. */
#include <stddef.h>
#include <string.h>

/* Copies n bytes of src to dst; src may be NULL when n is 0. */
size_t copy_prefix(char *dst, const char *src, size_t n)
{
    if (src == NULL && n > 0)
        return 0;
    memcpy(dst, src, n);
    return n;
}

/* The length of name, 0 for NULL: strlen never sees NULL. */
size_t name_length(const char *name)
{
    if (name == NULL)
        return 0;
    return strlen(name);
}
