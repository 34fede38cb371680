/* Scanning text: a NUL-terminated string and a length-delimited buffer. */
#include <stddef.h>

/* Counts the words of s (runs of non-blank characters). */
int count_words(const char *s)
{
    int words = 0, in_word = 0;
    for (; *s != '\0'; s++) {
        if (*s == ' ' || *s == '\t') {
            in_word = 0;
        } else if (!in_word) {
            in_word = 1;
            words++;
        }
    }
    return words;
}

/* Recognises a decimal or 0x-prefixed hex number filling buf[0..len):
 * returns 10 or 16 for the base, 0 when it is not a number. */
int number_base(const char *buf, size_t len)
{
    enum { START, ZERO, DECIMAL, HEX_START, HEX } state = START;
    for (size_t i = 0; i < len; i++) {
        char c = buf[i];
        int digit = c >= '0' && c <= '9';
        switch (state) {
        case START:
            state = c == '0' ? ZERO : digit ? DECIMAL : START;
            if (state == START)
                return 0;
            break;
        case ZERO:
            if (c != 'x')
                return 0;
            state = HEX_START;
            break;
        case DECIMAL:
            if (!digit)
                return 0;
            break;
        default: /* HEX_START or HEX */
            if (!digit && !(c >= 'a' && c <= 'f'))
                return 0;
            state = HEX;
            break;
        }
    }
    if (state == ZERO || state == DECIMAL)
        return 10;
    return state == HEX ? 16 : 0;
}
