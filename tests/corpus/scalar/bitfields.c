/* Bit-fields and packed structs: a protocol header decoded from packed
 * bytes, a device register with signed fields, settings passed and
 * returned by value, and a global status word updated in place. */

#include <stdint.h>

/* An IPv4-like header as it lies on the wire: packed, flags in bit-fields. */
#pragma pack(push, 1)
struct wire_header {
    uint8_t ihl : 4;
    uint8_t version : 4;
    uint8_t ecn : 2;
    uint8_t dscp : 6;
    uint16_t length;
    uint16_t fragment : 13;
    uint16_t more_fragments : 1;
    uint16_t dont_fragment : 1;
    uint16_t : 1;
    uint8_t ttl;
};
#pragma pack(pop)

/* Classifies a header: -1 malformed, 0 to drop, 1 fragment, 2 urgent, 3 normal. */
int classify_header(const struct wire_header *h)
{
    if (h->version != 4 || h->ihl < 5)
        return -1;
    if (h->length < h->ihl * 4)
        return -1;
    if (h->ttl == 0)
        return 0;
    if (h->more_fragments || h->fragment != 0) {
        if (h->dont_fragment)
            return -1;
        return 1;
    }
    if (h->dscp >= 46 && h->ecn != 3)
        return 2;
    return 3;
}

/* A device control register: signed calibration fields and a mode. */
struct control_register {
    unsigned enable : 1;
    unsigned mode : 3;
    signed offset : 5;
    signed gain : 7;
    unsigned : 0;
    unsigned long long timestamp : 40;
};

/* The calibrated reading, or a code below -1000 when the register forbids it. */
int calibrated(struct control_register r, int raw)
{
    if (!r.enable)
        return -1001;
    if (r.mode > 5)
        return -1002;
    if (raw < -100000 || raw > 100000)
        return -1004;
    int value = raw + r.offset;
    if (r.gain < 0)
        value = value / 2;
    else if (r.gain > 32)
        value = value * 2;
    if (r.offset == -16 && r.timestamp + 1 == 0)
        return -1003; /* gcc adds in 40 bits: the largest timestamp wraps to 0 */
    return value;
}

/* The next setting: the mode wraps within its three bits, the gain saturates. */
struct control_register step(struct control_register r)
{
    r.mode++;
    if (r.gain < 60)
        r.gain += 4;
    r.offset -= 1;
    r.timestamp = r.timestamp + 1;
    return r;
}

/* A status word kept as a global. */
struct status {
    unsigned errors : 4;
    unsigned warnings : 4;
    _Bool halted : 1;
};

struct status device_status = { 0, 0, 0 };

/* Records an event; returns the error count after it (it wraps at 16). */
int record_event(int is_error)
{
    if (device_status.halted)
        return -1;
    if (is_error) {
        device_status.errors++;
        if (device_status.errors == 0)
            device_status.halted = 1;
    } else {
        device_status.warnings += 1;
    }
    return device_status.errors;
}

/* A sensor's status register, seen whole or by fields. */
union status_register {
    uint32_t raw;
    struct {
        uint32_t ready : 1;
        uint32_t error_code : 7;
        int32_t temperature : 12;
        uint32_t : 12;
    } fields;
};

/* -1 when reserved bits are set, else the error code, 100 + the
 * temperature when ready and hot, -2 when too cold, 0 otherwise. */
int read_status(union status_register r)
{
    if (r.raw & 0xfff00000u)
        return -1;
    if (r.fields.error_code != 0)
        return r.fields.error_code;
    if (r.fields.ready && r.fields.temperature > 85)
        return 100 + r.fields.temperature;
    if (r.fields.temperature < -40)
        return -2;
    return 0;
}

/* Flags sharing a byte with bits no member names. */
struct flag_bits {
    unsigned armed : 1;
    unsigned tripped : 1;
};

union flag_byte {
    struct flag_bits flags;
    unsigned char byte;
};

/* 1 when tripped while disarmed, 2 when only a bit no flag names is set. */
int check_flags(union flag_byte f)
{
    if (f.flags.tripped && !f.flags.armed)
        return 1;
    if (f.byte == 0x80)
        return 2;
    return 0;
}
