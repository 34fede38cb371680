/* Scans of NUL-terminated strings and character classification. */

enum char_class { CC_OTHER, CC_SPACE, CC_DIGIT, CC_UPPER, CC_LOWER, CC_PUNCT };

/* Classifies an ASCII character without <ctype.h>. */
enum char_class classify_char(char c)
{
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r')
        return CC_SPACE;
    if (c >= '0' && c <= '9')
        return CC_DIGIT;
    if (c >= 'A' && c <= 'Z')
        return CC_UPPER;
    if (c >= 'a' && c <= 'z')
        return CC_LOWER;
    if ((c >= '!' && c <= '/') || (c >= ':' && c <= '@') || (c >= '[' && c <= '`') ||
        (c >= '{' && c <= '~'))
        return CC_PUNCT;
    return CC_OTHER;
}

/* Counts the words of s: maximal runs of characters other than blanks. */
int count_words(const char *s)
{
    int words = 0;
    int in_word = 0;
    for (; *s != '\0'; s++) {
        if (*s == ' ' || *s == '\t' || *s == '\n') {
            in_word = 0;
        } else if (!in_word) {
            in_word = 1;
            words++;
        }
    }
    return words;
}

/* Returns 1 when s is a C identifier that an old linker would keep whole:
 * a letter or '_' followed by letters, digits and '_', at most 6 characters. */
int is_identifier(const char *s)
{
    enum char_class first = classify_char(s[0]);
    if (s[0] != '_' && first != CC_UPPER && first != CC_LOWER)
        return 0;
    int length = 1;
    for (const char *p = s + 1; *p != '\0'; p++) {
        enum char_class cls = classify_char(*p);
        if (*p != '_' && cls != CC_UPPER && cls != CC_LOWER && cls != CC_DIGIT)
            return 0;
        if (++length > 6)
            return 0;
    }
    return 1;
}

/* Parses an optionally signed decimal integer that must fill the whole
 * string and fit in 16 bits (-32768..32767); stores it in *value.
 * Returns 0 on success, -1 on a syntax error, -2 when out of range. */
int parse_int16(const char *s, int *value)
{
    int negative = 0;
    if (*s == '-' || *s == '+') {
        negative = *s == '-';
        s++;
    }
    if (*s == '\0')
        return -1;
    int result = 0;
    for (; *s != '\0'; s++) {
        if (*s < '0' || *s > '9')
            return -1;
        result = result * 10 + (*s - '0');
        if (result > 32768)
            return -2;
    }
    if (!negative && result > 32767)
        return -2;
    *value = negative ? -result : result;
    return 0;
}
