/* Bit decoding with masks and shifts into struct out-parameters, and
 * unsigned arithmetic that wraps around on purpose. */
#include <stdint.h>

/* The first byte of an IPv4 header: version (high nibble) and header
 * length in 32-bit words (low nibble). */
struct ipv4_first_byte {
    unsigned version;
    unsigned header_bytes;
};

/* Returns 0 and fills *out for a plausible IPv4 header start, -1 otherwise. */
int decode_ipv4_first_byte(uint8_t byte, struct ipv4_first_byte *out)
{
    unsigned version = byte >> 4;
    unsigned words = byte & 0x0Fu;
    if (version != 4)
        return -1;
    if (words < 5)
        return -1;
    out->version = version;
    out->header_bytes = words * 4;
    return 0;
}

/* A made-up 32-bit instruction word:
 *   bits 31..26 opcode, 25..21 rd, 20..16 rs, 15..0 immediate (signed). */
struct instruction {
    unsigned opcode;
    unsigned rd;
    unsigned rs;
    int imm;
    int kind; /* 0 = register form, 1 = immediate form, 2 = branch */
};

enum { OP_ADD = 0x00, OP_ADDI = 0x08, OP_BEQ = 0x04, OP_BNE = 0x05 };

/* Decodes a word; returns 0 on success, -1 for an unknown opcode, -2 for
 * a register-form instruction with a non-zero immediate. */
int decode_instruction(uint32_t word, struct instruction *out)
{
    unsigned opcode = (word >> 26) & 0x3Fu;
    out->opcode = opcode;
    out->rd = (word >> 21) & 0x1Fu;
    out->rs = (word >> 16) & 0x1Fu;
    out->imm = (int16_t)(word & 0xFFFFu);

    switch (opcode) {
    case OP_ADD:
        if (out->imm != 0)
            return -2;
        out->kind = 0;
        return 0;
    case OP_ADDI:
        out->kind = 1;
        return 0;
    case OP_BEQ:
    case OP_BNE:
        out->kind = 2;
        /* Branch offsets count instructions; a negative one jumps back. */
        if (out->imm < 0 && out->rd == out->rs)
            out->kind = 3; /* a loop back-edge */
        return 0;
    default:
        return -1;
    }
}

/* Counts the bits set in a byte. */
int popcount8(uint8_t value)
{
    int count = 0;
    while (value != 0) {
        count += value & 1u;
        value >>= 1;
    }
    return count;
}

/* Unsigned wraparound: returns 1 when a + b does not fit in 32 bits, and
 * stores the wrapped sum in *sum either way. */
int add_overflows_u32(uint32_t a, uint32_t b, uint32_t *sum)
{
    *sum = a + b;
    return *sum < a;
}

/* Distance walking forward from `from` to `to` on a 16-bit sequence-number
 * ring (as in TCP-like protocols): wraps around past 0xFFFF. */
uint16_t ring_distance(uint16_t from, uint16_t to)
{
    uint16_t distance = (uint16_t)(to - from);
    if (distance > 0x8000u)
        return 0; /* `to` is behind `from`: treat as no progress */
    return distance;
}
