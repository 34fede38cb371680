/* Binary records read from byte buffers, as file-format and packet
 * parsers read them: the buffer is cast to a header struct, whose fields
 * say where the data after it lies. */
#include <stddef.h>
#include <stdint.h>

struct image_record {
    uint32_t type;
    uint32_t size;
    int32_t left, top, right, bottom;
    uint32_t palette_entries;
    uint32_t description_offset;
    uint16_t description_length;
    uint16_t flags;
};

enum { RECORD_IMAGE = 7, FLAG_PALETTE = 1 };

/* What an image record holds: -1 when it is truncated or its description
 * lies outside it, else a code of its shape. */
int image_record_kind(const char *contents)
{
    const struct image_record *record = (const struct image_record *)contents;
    if (record->type != RECORD_IMAGE || record->size < sizeof *record)
        return -1;
    const char *limit = contents + record->size;
    if (record->right < record->left || record->bottom < record->top)
        return 1;
    if (record->description_offset != 0) {
        const char *description = contents + record->description_offset;
        if (description + record->description_length > limit)
            return -1;
        if (record->description_length > 0 && description[0] == '#')
            return 2;
    }
    if ((record->flags & FLAG_PALETTE) && record->palette_entries > 256)
        return 3;
    return 0;
}

struct packet_header {
    uint8_t version;
    uint8_t kind;
    uint16_t length;
    uint32_t sequence;
};

/* The sequence number of a data packet of `size` bytes whose header's
 * length agrees, or 0. */
uint32_t data_packet_sequence(const unsigned char *packet, size_t size)
{
    if (size < sizeof(struct packet_header))
        return 0;
    const struct packet_header *header = (const struct packet_header *)packet;
    if (header->version != 2 || header->kind != 'D')
        return 0;
    if (header->length != size - sizeof *header)
        return 0;
    return header->sequence;
}
