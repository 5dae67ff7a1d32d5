/* Internal: unsigned LEB128 varints, as used by the timeline's chunks.
 *
 * A uint64_t takes 1..10 bytes, seven bits a byte, low bits first. The
 * decoder is strict because it also reads untrusted recording files: it
 * refuses a varint that runs past the buffer, one longer than 10 bytes, one
 * whose 10th byte carries bits beyond bit 63, and a non-canonical one (a
 * redundant trailing zero byte), so every value has exactly one encoding and
 * a parsed file re-encodes to the same bytes. */
#ifndef SOCMON_CORE_VARINT_H
#define SOCMON_CORE_VARINT_H

#include <stddef.h>
#include <stdint.h>

#define SOCMON_VARINT_MAX 10

/* Writes v at p (room for SOCMON_VARINT_MAX bytes); returns bytes written. */
static inline size_t socmon_varint_put(uint8_t *p, uint64_t v)
{
    size_t n = 0;
    while (v >= 0x80) {
        p[n++] = (uint8_t)(v | 0x80);
        v >>= 7;
    }
    p[n++] = (uint8_t)v;
    return n;
}

enum {
    SOCMON_VARINT_OK = 0,
    SOCMON_VARINT_TRUNCATED = 1,  /* ran past the end of the buffer */
    SOCMON_VARINT_TOO_LONG = 2,   /* more than 10 bytes or more than 64 bits */
    SOCMON_VARINT_NONCANON = 3    /* a redundant trailing zero byte */
};

/* Reads one varint from p[*pos..end) into *v and advances *pos.
 * Returns SOCMON_VARINT_OK or one of the error codes above (then *pos and *v
 * are unchanged). */
static inline int socmon_varint_get(const uint8_t *p, size_t end, size_t *pos, uint64_t *v)
{
    size_t i = *pos;
    uint64_t x = 0;
    unsigned shift = 0;
    for (;;) {
        if (i >= end)
            return SOCMON_VARINT_TRUNCATED;
        uint8_t b = p[i++];
        if (shift == 63 && b > 1)
            return SOCMON_VARINT_TOO_LONG;
        x |= (uint64_t)(b & 0x7f) << shift;
        if (!(b & 0x80)) {
            if (b == 0 && shift > 0)
                return SOCMON_VARINT_NONCANON;
            break;
        }
        shift += 7;
        if (shift > 63)
            return SOCMON_VARINT_TOO_LONG;
    }
    *pos = i;
    *v = x;
    return SOCMON_VARINT_OK;
}

static inline const char *socmon_varint_strerror(int code)
{
    switch (code) {
    case SOCMON_VARINT_TRUNCATED: return "varint runs past the end";
    case SOCMON_VARINT_TOO_LONG: return "varint longer than 10 bytes or above 2^64";
    case SOCMON_VARINT_NONCANON: return "non-canonical varint (redundant zero byte)";
    default: return "ok";
    }
}

#endif
