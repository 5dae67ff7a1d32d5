/* Internal to the wire codec: the field writers and the bounds-checked reader
 * that wire.c, wire_hello.c and wire_samples.c share. */
#ifndef SOCMON_AGENT_WIRE_IO_H
#define SOCMON_AGENT_WIRE_IO_H

#include <string.h>

#include "agent/wire.h"
#include "core/varint.h"

/* ---- writing (after wire_begin, before wire_finish) ---- */

/* Appends a header with length and CRC still zero; returns its offset in b. */
size_t wire_begin(wire_buf *b, uint32_t type);
/* Fills the length and CRC of the frame begun at off. */
socmon_status wire_finish(wire_buf *b, size_t off);

static inline void wire_put_varint(wire_buf *b, uint64_t v)
{
    if (wire_buf_reserve(b, SOCMON_VARINT_MAX) == 0)
        b->len += socmon_varint_put(b->p + b->len, v);
}

static inline void wire_put_bytes(wire_buf *b, const void *p, size_t n)
{
    if (wire_buf_reserve(b, n) == 0) {
        if (n)
            memcpy(b->p + b->len, p, n);
        b->len += n;
    }
}

/* A string: its length as a varint, then its bytes (cut at WIRE_MAX_STR). */
static inline void wire_put_str(wire_buf *b, const char *s)
{
    size_t n = s ? strlen(s) : 0;
    if (n > WIRE_MAX_STR)
        n = WIRE_MAX_STR;
    wire_put_varint(b, n);
    wire_put_bytes(b, s, n);
}

void wire_put_f64(wire_buf *b, double v);

/* ---- reading ---- */

typedef struct wire_rd {
    const uint8_t *p;
    size_t len, pos;
    const char *frame;   /* "HELLO", for messages */
    socmon_status st;    /* the first failure; later reads do nothing */
} wire_rd;

/* Each reader names `what` in its failure ("HELLO: counter 3 name: ... at byte 41"). */
uint64_t wire_rd_varint(wire_rd *r, const char *what);
/* A varint that must be <= max. */
uint64_t wire_rd_uint(wire_rd *r, const char *what, uint64_t max);
double wire_rd_f64(wire_rd *r, const char *what);
/* A string into a malloc'd copy (NULL after a failure). */
char *wire_rd_strdup(wire_rd *r, const char *what);
/* A string into buf (room for WIRE_MAX_STR + 1). */
void wire_rd_strbuf(wire_rd *r, const char *what, char *buf);
/* Fails if bytes are left over (a frame longer than its fields). */
socmon_status wire_rd_done(wire_rd *r);
socmon_status wire_rd_fail(wire_rd *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
