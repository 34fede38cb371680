/* Switch-driven state machines over a length-delimited buffer
 * (const char *buf, size_t len): a number-literal recogniser and a tiny
 * tokenizer that counts tokens. */
#include <stddef.h>

enum literal_kind { LIT_INVALID, LIT_DECIMAL, LIT_OCTAL, LIT_HEX };

/* Recognises C-style integer literals: 0, 17, 017, 0x1F. No suffixes. */
enum literal_kind classify_literal(const char *buf, size_t len)
{
    enum { START, ZERO, DECIMAL, OCTAL, HEX_PREFIX, HEX } state = START;

    for (size_t i = 0; i < len; i++) {
        char c = buf[i];
        switch (state) {
        case START:
            if (c == '0')
                state = ZERO;
            else if (c >= '1' && c <= '9')
                state = DECIMAL;
            else
                return LIT_INVALID;
            break;
        case ZERO:
            if (c == 'x' || c == 'X')
                state = HEX_PREFIX;
            else if (c >= '0' && c <= '7')
                state = OCTAL;
            else
                return LIT_INVALID;
            break;
        case DECIMAL:
            if (c < '0' || c > '9')
                return LIT_INVALID;
            break;
        case OCTAL:
            if (c < '0' || c > '7')
                return LIT_INVALID;
            break;
        default: /* HEX_PREFIX or HEX */
            if ((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'))
                state = HEX;
            else
                return LIT_INVALID;
            break;
        }
    }

    switch (state) {
    case ZERO:
    case DECIMAL:
        return LIT_DECIMAL;
    case OCTAL:
        return LIT_OCTAL;
    case HEX:
        return LIT_HEX;
    default:
        return LIT_INVALID; /* empty input, or "0x" with no digits */
    }
}

/* Counts the tokens of a tiny expression language: numbers (runs of
 * digits), names (runs of letters) and the one-character operators
 * + - * / ( ). Spaces separate tokens. Returns -1 at the first other
 * character. */
int count_tokens(const char *buf, size_t len)
{
    enum { BETWEEN, IN_NUMBER, IN_NAME } state = BETWEEN;
    int tokens = 0;

    for (size_t i = 0; i < len; i++) {
        char c = buf[i];
        int digit = c >= '0' && c <= '9';
        int letter = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');

        switch (state) {
        case IN_NUMBER:
            if (digit)
                continue;
            break;
        case IN_NAME:
            if (letter)
                continue;
            break;
        default: /* BETWEEN */
            break;
        }

        /* c starts something new (or is a separator). */
        if (digit) {
            state = IN_NUMBER;
            tokens++;
        } else if (letter) {
            state = IN_NAME;
            tokens++;
        } else if (c == ' ') {
            state = BETWEEN;
        } else if (c == '+' || c == '-' || c == '*' || c == '/' || c == '(' || c == ')') {
            state = BETWEEN;
            tokens++;
        } else {
            return -1;
        }
    }
    return tokens;
}
