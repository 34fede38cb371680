/* Decoding a 16-bit packet header into a struct, and a checksum over a
 * byte buffer. */
#include <stddef.h>
#include <stdint.h>

struct header {
    unsigned version; /* bits 15..14 */
    unsigned urgent;  /* bit 13 */
    unsigned channel; /* bits 12..8 */
    unsigned length;  /* bits 7..0 */
};

/* Returns 0 and fills *out, or -1 for an unsupported version or an
 * urgent packet on a channel that cannot take one. */
int decode_header(uint16_t word, struct header *out)
{
    out->version = word >> 14;
    out->urgent = (word >> 13) & 1u;
    out->channel = (word >> 8) & 0x1Fu;
    out->length = word & 0xFFu;
    if (out->version != 2)
        return -1;
    if (out->urgent && out->channel > 3)
        return -1;
    return 0;
}

/* 8-bit two's-complement checksum: the bytes of a valid packet sum to 0. */
int checksum_ok(const uint8_t *bytes, size_t n)
{
    if (n == 0)
        return 0;
    uint8_t sum = 0;
    for (size_t i = 0; i < n; i++)
        sum = (uint8_t)(sum + bytes[i]);
    return sum == 0;
}
