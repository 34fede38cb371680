/* Code over the C library, called the way real code calls it: numbers
 * parsed with strtol and errno, text formatted into fixed buffers, records
 * split with strstr and strchr, keywords looked up in any case, sscanf.
 * The drivers run the real C library, so each test also checks cairn's
 * model of it. */
#define _POSIX_C_SOURCE 200809L

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* A configuration record as a reader leaves it: a key and the text of its
 * value, each NUL-terminated in its field. */
struct config_record {
    char key[8];
    char value[24];
};

/* Parses the value of a record as a C integer (decimal, 0x hex or 0
 * octal); stores it in *out and returns 0, or -1 for a record without a
 * key, -2 without a number, -3 below LONG_MIN, -4 above LONG_MAX, -5 for
 * text after the number. */
int parse_record(const struct config_record *rec, long *out)
{
    if (rec->key[0] == '\0')
        return -1;
    errno = 0;
    char *end;
    long value = strtol(rec->value, &end, 0);
    if (end == rec->value)
        return -2;
    if (errno == ERANGE)
        return value < 0 ? -3 : -4;
    if (*end != '\0')
        return -5;
    *out = value;
    return 0;
}

/* Parses a "name=number" line whose name is "n" or "id" (any case) and
 * whose number is 1..999; returns the number, or -1 without '=', -2 for
 * another name, -3 for a bad number, -4 when it is out of range. */
int parse_id_line(const char *line)
{
    const char *eq = strchr(line, '=');
    if (eq == NULL)
        return -1;
    size_t name_len = (size_t)(eq - line);
    if (name_len == 0 || name_len > 2 || strncasecmp(line, "id", name_len) != 0)
        return -2;
    char *end;
    long id = strtol(eq + 1, &end, 10);
    if (end == eq + 1 || *end != '\0')
        return -3;
    if (id < 1 || id > 999)
        return -4;
    return (int)id;
}

/* Formats a duration in seconds as "H:MM:SS" into buf of the given size;
 * returns the length, -1 when buf is too small (the text is then cut), -2
 * for a negative duration. */
int format_duration(char *buf, size_t size, int seconds)
{
    if (seconds < 0)
        return -2;
    int len = snprintf(buf, size, "%d:%02d:%02d", seconds / 3600, seconds / 60 % 60,
                       seconds % 60);
    if ((size_t)len >= size)
        return -1;
    return len;
}

/* Builds the prefix "[LEVEL] code" of a log line in a 16-byte buffer;
 * returns its length, negated for a negative code, -1 when it does not
 * fit, -2 for an unknown level. */
int log_prefix_length(int level, int code)
{
    static const char *const names[] = {"DEBUG", "INFO", "WARN", "ERROR"};
    if (level < 0 || level > 3)
        return -2;
    char prefix[16];
    int len = snprintf(prefix, sizeof prefix, "[%-5s] %+d", names[level], code);
    if (len >= (int)sizeof prefix)
        return -1;
    if (prefix[8] == '-')
        return -len;
    return len;
}

/* Copies the first field of a record separated by ";;" or else by ',' into
 * field (at most 3 characters and a NUL); returns its length, -1 when
 * there is no separator, -2 when the field is longer. */
int first_field(const char *record, char *field)
{
    const char *sep = strstr(record, ";;");
    if (sep == NULL)
        sep = strchr(record, ',');
    if (sep == NULL)
        return -1;
    size_t len = (size_t)(sep - record);
    if (len > 3)
        return -2;
    strncpy(field, record, len);
    field[len] = '\0';
    return (int)len;
}

/* Joins a directory and a file name with one '/' between them; returns
 * where the file name starts in the result (found again with strrchr), or
 * -1 when the result would not fit in 12 bytes. */
int join_path(const char *dir, const char *name)
{
    char path[12];
    size_t dir_len = strlen(dir);
    int slash = dir_len > 0 && dir[dir_len - 1] != '/';
    if (dir_len + (size_t)slash + strlen(name) + 1 > sizeof path)
        return -1;
    strcpy(path, dir);
    if (slash)
        strcat(path, "/");
    strcat(path, name);
    const char *base = strrchr(path, '/');
    return base == NULL ? 0 : (int)(base - path) + 1;
}

enum command { CMD_UNKNOWN, CMD_GET, CMD_SET, CMD_DEL, CMD_QUIT };

/* The command a word names, in any case; "qu", "qui" and "quit" all quit. */
enum command parse_command(const char *word)
{
    static const struct {
        const char *name;
        enum command command;
    } table[] = {{"get", CMD_GET}, {"set", CMD_SET}, {"del", CMD_DEL}};
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
        if (strcasecmp(word, table[i].name) == 0)
            return table[i].command;
    size_t len = strlen(word);
    if (len >= 2 && strncasecmp(word, "quit", len) == 0)
        return CMD_QUIT;
    return CMD_UNKNOWN;
}

/* Reads "key=value" (a key of at most 4 letters, then an integer) into key
 * and *value; returns 1 for a pair with a positive value, 0 for another
 * pair, -1 for a key without a value, -2 for text that starts otherwise. */
int read_pair(const char *text, char *key, int *value)
{
    int n = sscanf(text, "%4[a-zA-Z]=%d", key, value);
    if (n == 2)
        return *value > 0;
    if (n == 1)
        return -1;
    return -2;
}

/* Parses "H:MM" or "HH:MM" into minutes since midnight; -1 when malformed,
 * -2 when out of range. */
int parse_clock(const char *text)
{
    int hours, minutes;
    char extra;
    if (sscanf(text, "%2d:%2d%c", &hours, &minutes, &extra) != 2)
        return -1;
    if (hours < 0 || hours > 23 || minutes < 0 || minutes > 59)
        return -2;
    return hours * 60 + minutes;
}

/* The kinds of characters of a password as a bit set (1 lower case,
 * 2 upper case, 4 digit, 8 punctuation), or -1 for a character that is
 * not printable. */
int password_classes(const char *password)
{
    int classes = 0;
    for (const char *p = password; *p != '\0'; p++) {
        unsigned char c = (unsigned char)*p;
        if (!isprint(c))
            return -1;
        if (islower(c))
            classes |= 1;
        else if (isupper(c))
            classes |= 2;
        else if (isdigit(c))
            classes |= 4;
        else if (ispunct(c))
            classes |= 8;
    }
    return classes;
}
