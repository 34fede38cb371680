/* Wide strings: wchar_t (L""), char16_t (u"") and char32_t (U"") literals
 * in tables and comparisons, as text-handling code writes them. */
#include <uchar.h>
#include <wchar.h>

static const wchar_t separators[] = L" ,;";

/* Whether `c` is one of the separators. */
int is_separator(wchar_t c)
{
    int i;
    for (i = 0; separators[i] != L'\0'; i++)
        if (separators[i] == c)
            return 1;
    return 0;
}

/* Counts the words of a wide string of at most 6 characters. */
int count_words(const wchar_t *text)
{
    int i, words = 0, inside = 0;
    for (i = 0; i < 6 && text[i] != L'\0'; i++) {
        if (is_separator(text[i])) {
            inside = 0;
        } else if (!inside) {
            inside = 1;
            words++;
        }
    }
    return words;
}

/* The accented letters a wide literal holds are single units. */
int accent_at(int i)
{
    const wchar_t *word = L"café";
    if (i < 0 || i > 3)
        return -1;
    if (word[i] == 0xe9)
        return 1;
    return 0;
}

/* A UTF-16 unit that starts a surrogate pair needs a second unit. */
int utf16_units(char16_t unit)
{
    static const char16_t smile[] = u"\xd83d\xde00";
    if (unit >= 0xd800 && unit <= 0xdbff)
        return unit == smile[0] ? 3 : 2;
    return 1;
}

/* A char32_t buffer initialized from a U"" literal, and its size. */
int code_point_at(int i)
{
    char32_t letters[] = U"xyz";
    if (i < 0 || i >= (int)(sizeof letters / sizeof letters[0]))
        return -1;
    if (letters[i] == U'\0')
        return 0;
    return (int)letters[i];
}

/* Universal character names: a UTF-8 pair in a narrow string, one unit
   in a wide one, and an escaped backslash that names none. */
int names_e_acute(const char *s, wchar_t w)
{
    const char *narrow = "\u00e9";
    if (w == L'\u00e9')
        return 2;
    if (s[0] == narrow[0] && s[1] == narrow[1])
        return 1;
    if (s[0] == "\\u00e9"[1])
        return -1;
    return 0;
}
