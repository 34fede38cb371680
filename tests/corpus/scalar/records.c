/* Binary records read from byte buffers, as file-format and packet
 * parsers read them: the buffer is cast to a header struct, whose fields
 * say where the data after it lies. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

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

struct region {
    uint32_t count;
    uint32_t size;
    int32_t bounds[4];
};

/* The number of rectangles of a region whose bytes end at `limit`, or -1
 * when the region does not fit: the end pointer is of another type than
 * the record. */
int region_rectangles(const struct region *region, const char *limit)
{
    if ((const char *)region + sizeof *region > limit)
        return -1;
    if ((const char *)region + region->size > limit)
        return -1;
    if (region->count > (region->size - sizeof *region) / 16)
        return -1;
    return (int)region->count;
}

/* Whether `n` bytes from `start` lie before `limit`, as a bounds check
 * that tests the start first, written with `>` (the start is the larger
 * side when it fails). */
static int unsafe_span(const char *start, size_t n, const char *limit)
{
    return start > limit || (size_t)(limit - start) < n;
}

struct color_table {
    uint32_t header_size;
    int32_t width, height;
    uint16_t planes, bit_count;
    uint32_t compression, image_size;
    int32_t x_ppm, y_ppm;
    uint32_t colors_used, colors_important;
};

/* The colours a bitmap header announces, read with memcpy from bytes that
 * end at `limit`: -1 when the header or its colours do not fit. */
int table_colors(const char *bitmap, const char *limit)
{
    struct color_table header;
    if (unsafe_span(bitmap, sizeof header, limit))
        return -1;
    memcpy(&header, bitmap, sizeof header);
    if (header.colors_used == 0)
        return 0;
    if (unsafe_span(bitmap, sizeof header + 4 * (size_t)header.colors_used, limit))
        return -1;
    return (int)header.colors_used;
}
