int count_digits(const char *s)
{
    int n = 0;
    if (!s)
        return -1;
    for (int i = 0; s[i] && i < 6; i++)
        if (s[i] >= '0' && s[i] <= '9')
            n++;
    return n;
}

int is_vowel(char c)
{
    switch (c) {
    case 'a': case 'e': case 'i': case 'o': case 'u':
        return 1;
    default:
        return 0;
    }
}
