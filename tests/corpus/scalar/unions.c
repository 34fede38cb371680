/* A tagged union message decoder: the payload is read through whichever
 * member the tag names, so a test must set the bytes of any member. */

#include <stdint.h>

enum msg_kind { MSG_PING = 1, MSG_MOVE = 2, MSG_TEXT = 3, MSG_RAW = 4 };

struct move {
    int16_t dx;
    int16_t dy;
    uint8_t speed;
};

union payload {
    uint32_t seq;        /* MSG_PING */
    struct move move;    /* MSG_MOVE */
    char text[12];       /* MSG_TEXT, NUL-terminated when shorter */
    unsigned char raw[12];
};

struct message {
    uint8_t kind;
    union payload body;
};

/* A checksum over the raw bytes of the payload. */
static unsigned payload_sum(const union payload *p, unsigned n)
{
    unsigned sum = 0;
    for (unsigned i = 0; i < n && i < sizeof p->raw; i++)
        sum = sum * 31 + p->raw[i];
    return sum;
}

/* What a message asks for: a distance for a move, a sequence number for a
 * ping, the length of a text; -1 for a malformed message. */
int message_value(struct message m)
{
    switch (m.kind) {
    case MSG_PING:
        if (m.body.seq == 0)
            return -1;
        return (int)(m.body.seq & 0xffff);
    case MSG_MOVE: {
        int dx = m.body.move.dx < 0 ? -m.body.move.dx : m.body.move.dx;
        int dy = m.body.move.dy < 0 ? -m.body.move.dy : m.body.move.dy;
        if (m.body.move.speed == 0 || m.body.move.speed > 10)
            return -1;
        return (dx + dy) * m.body.move.speed;
    }
    case MSG_TEXT: {
        int n = 0;
        while (n < 12 && m.body.text[n] != '\0')
            n++;
        if (n == 12)
            return -1;
        return n;
    }
    case MSG_RAW:
        if (m.body.raw[11] != 0x7e)
            return -1;
        return m.body.raw[0];
    default:
        return -1;
    }
}

/* Is the upper half of a ping's sequence number a version we speak? Reads
 * the payload as one member and then as another. */
int ping_is_current(const union payload *p)
{
    if (p->raw[3] == 0 && p->raw[2] == 0)
        return 0;
    return (p->seq >> 16) == 2;
}

/* Turns a move around in place; 0 when it was already still. */
int move_reverse(union payload *p)
{
    if (p->move.dx == 0 && p->move.dy == 0)
        return 0;
    p->move.dx = (int16_t)-p->move.dx;
    p->move.dy = (int16_t)-p->move.dy;
    return 1;
}

/* A payload that reads the given text, truncated to fit. */
union payload text_payload(char first, char second)
{
    union payload p = {0};
    p.text[0] = first;
    if (first != '\0')
        p.text[1] = second;
    return p;
}

/* Checksum of the first n raw bytes, or of a whole ping. */
unsigned message_sum(const struct message *m, unsigned n)
{
    if (m->kind == MSG_PING)
        return payload_sum(&m->body, 4);
    return payload_sum(&m->body, n);
}

/* A wire header whose first word also carries a version in its second
 * byte, where the tag's padding lies: no one member sets every byte. */
union header {
    uint32_t word;
    struct {
        uint8_t tag;
        uint32_t len;
    } fields;
};

/* The header's tag when it is version 1 with a short length; 0 for
 * another version, -1 for a long one. */
int header_tag(union header h)
{
    if (((h.word >> 8) & 0xff) != 1)
        return 0;
    if (h.fields.len > 64)
        return -1;
    return h.fields.tag;
}

/* Sets the version byte of a header through its word. */
void header_set_version(union header *h, uint8_t version)
{
    h->word = (h->word & ~0xff00u) | ((uint32_t)version << 8);
}
