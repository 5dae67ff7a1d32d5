/* The wire codec's frame header, buffer, field readers and the small frames
 * (SUBSCRIBE, GAP, STATS, END, ERROR, CONFIG). HELLO is in wire_hello.c,
 * SAMPLES in wire_samples.c; docs/agent-protocol.md is the specification. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <zlib.h>

#include "agent/wire_io.h"
#include "socmon/status.h"

/* ---- buffer ---- */

void wire_buf_free(wire_buf *b)
{
    free(b->p);
    *b = (wire_buf){0};
}

int wire_buf_reserve(wire_buf *b, size_t more)
{
    if (b->oom)
        return -1;
    if (b->cap - b->len >= more)
        return 0;
    size_t cap = b->cap ? b->cap : 256;
    while (cap - b->len < more) {
        if (cap > SIZE_MAX / 2) {
            b->oom = 1;
            return -1;
        }
        cap *= 2;
    }
    uint8_t *p = realloc(b->p, cap);
    if (!p) {
        b->oom = 1;
        return -1;
    }
    b->p = p;
    b->cap = cap;
    return 0;
}

static void put_le32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
    p[2] = (uint8_t)(v >> 16);
    p[3] = (uint8_t)(v >> 24);
}

static uint32_t get_le32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

size_t wire_begin(wire_buf *b, uint32_t type)
{
    size_t off = b->len;
    uint8_t h[WIRE_HDR] = {0};
    put_le32(h, WIRE_MAGIC);
    h[4] = b->version ? b->version : WIRE_VERSION;
    h[5] = (uint8_t)type;
    wire_put_bytes(b, h, sizeof h);
    return off;
}

static uint32_t crc_of(const uint8_t *p, size_t n)
{
    return (uint32_t)crc32(crc32(0, Z_NULL, 0), p, (uInt)n);   /* n <= WIRE_MAX_PAYLOAD */
}

socmon_status wire_finish(wire_buf *b, size_t off)
{
    if (b->oom)
        return socmon_fail(SOCMON_ENOMEM, "wire: out of memory encoding a frame");
    size_t n = b->len - off - WIRE_HDR;
    if (n > WIRE_MAX_PAYLOAD) {
        b->len = off;
        return socmon_fail(SOCMON_ERANGE, "wire: a %s frame of %zu bytes exceeds the %u-byte limit",
                           wire_type_name(b->p[off + 5]), n, WIRE_MAX_PAYLOAD);
    }
    put_le32(b->p + off + 8, (uint32_t)n);
    put_le32(b->p + off + 12, crc_of(b->p + off + WIRE_HDR, n));
    return SOCMON_OK;
}

void wire_put_f64(wire_buf *b, double v)
{
    uint64_t u;
    memcpy(&u, &v, sizeof u);
    uint8_t p[8];
    for (int i = 0; i < 8; i++)
        p[i] = (uint8_t)(u >> (8 * i));
    wire_put_bytes(b, p, sizeof p);
}

/* ---- header ---- */

const char *wire_type_name(uint32_t type)
{
    static const char *const names[] = {"?", "HELLO", "SUBSCRIBE", "SAMPLES", "GAP", "STATS", "END", "ERROR", "CONFIG"};
    return type <= WIRE_TYPE_MAX ? names[type] : "?";
}

int wire_hdr_parse(const uint8_t *p, size_t avail, uint32_t max_payload, wire_hdr *h)
{
    /* The magic is checked as soon as its bytes arrive, so a client speaking
     * another protocol (an HTTP request, say) is told at once. */
    static const uint8_t magic[4] = {'S', 'M', 'A', 'G'};
    for (size_t i = 0; i < 4 && i < avail; i++)
        if (p[i] != magic[i])
            return socmon_fail(SOCMON_EPARSE, "not a socmon agent frame (bad magic %02x at byte %zu; "
                               "expected \"SMAG\")", p[i], i);
    if (avail < WIRE_HDR)
        return 0;
    h->version = p[4];
    h->type = p[5];
    h->len = get_le32(p + 8);
    h->crc = get_le32(p + 12);
    if (p[6] || p[7])
        return socmon_fail(SOCMON_EPARSE, "frame header: reserved bytes 6..7 are %02x %02x, not zero", p[6], p[7]);
    if (h->type == 0 || h->type > WIRE_TYPE_MAX)
        return socmon_fail(SOCMON_EPARSE, "frame header: unknown frame type %u (known 1..%u)", h->type,
                           WIRE_TYPE_MAX);
    if (h->len > max_payload)
        return socmon_fail(SOCMON_EPARSE, "frame header: %s payload of %u bytes exceeds the limit of %u",
                           wire_type_name(h->type), h->len, max_payload);
    return 1;
}

socmon_status wire_check_crc(const wire_hdr *h, const uint8_t *payload)
{
    uint32_t c = crc_of(payload, h->len);
    if (c != h->crc)
        return socmon_fail(SOCMON_EPARSE, "%s frame: CRC mismatch (header %08x, payload %08x): damaged in transit",
                           wire_type_name(h->type), h->crc, c);
    return SOCMON_OK;
}

/* ---- reading ---- */

socmon_status wire_rd_fail(wire_rd *r, const char *fmt, ...)
{
    if (r->st != SOCMON_OK)
        return r->st;
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    r->st = socmon_fail(SOCMON_EPARSE, "%s frame: %s at byte %zu of %zu", r->frame, msg, r->pos, r->len);
    return r->st;
}

uint64_t wire_rd_varint(wire_rd *r, const char *what)
{
    uint64_t v = 0;
    if (r->st != SOCMON_OK)
        return 0;
    int e = socmon_varint_get(r->p, r->len, &r->pos, &v);
    if (e != SOCMON_VARINT_OK) {
        wire_rd_fail(r, "%s: %s", what, socmon_varint_strerror(e));
        return 0;
    }
    return v;
}

uint64_t wire_rd_uint(wire_rd *r, const char *what, uint64_t max)
{
    size_t at = r->pos;
    uint64_t v = wire_rd_varint(r, what);
    if (r->st == SOCMON_OK && v > max) {
        r->pos = at;
        wire_rd_fail(r, "%s %llu out of range 0..%llu", what, (unsigned long long)v, (unsigned long long)max);
        return 0;
    }
    return v;
}

double wire_rd_f64(wire_rd *r, const char *what)
{
    if (r->st != SOCMON_OK)
        return 0;
    if (r->len - r->pos < 8) {
        wire_rd_fail(r, "%s: 8-byte double runs past the end", what);
        return 0;
    }
    uint64_t u = 0;
    for (int i = 0; i < 8; i++)
        u |= (uint64_t)r->p[r->pos + i] << (8 * i);
    r->pos += 8;
    double v;
    memcpy(&v, &u, sizeof v);
    return v;
}

/* The string's length, checked against the limit and what is left. */
static size_t str_len(wire_rd *r, const char *what)
{
    uint64_t n = wire_rd_uint(r, what, WIRE_MAX_STR);
    if (r->st == SOCMON_OK && n > r->len - r->pos) {
        wire_rd_fail(r, "%s: string of %llu bytes runs past the end", what, (unsigned long long)n);
        return 0;
    }
    if (r->st == SOCMON_OK && memchr(r->p + r->pos, 0, n)) {
        wire_rd_fail(r, "%s: string holds a NUL byte", what);
        return 0;
    }
    return (size_t)n;
}

char *wire_rd_strdup(wire_rd *r, const char *what)
{
    size_t n = str_len(r, what);
    if (r->st != SOCMON_OK)
        return NULL;
    char *s = malloc(n + 1);
    if (!s) {
        r->st = socmon_fail(SOCMON_ENOMEM, "%s frame: out of memory", r->frame);
        return NULL;
    }
    memcpy(s, r->p + r->pos, n);
    s[n] = '\0';
    r->pos += n;
    return s;
}

void wire_rd_strbuf(wire_rd *r, const char *what, char *buf)
{
    size_t n = str_len(r, what);
    buf[0] = '\0';
    if (r->st != SOCMON_OK)
        return;
    memcpy(buf, r->p + r->pos, n);
    buf[n] = '\0';
    r->pos += n;
}

socmon_status wire_rd_done(wire_rd *r)
{
    if (r->st == SOCMON_OK && r->pos != r->len)
        return wire_rd_fail(r, "%zu bytes left over after the last field", r->len - r->pos);
    return r->st;
}

/* ---- the small frames ---- */

socmon_status wire_put_subscribe(wire_buf *b, const wire_subscribe *s)
{
    size_t off = wire_begin(b, WIRE_SUBSCRIBE);
    wire_put_str(b, s->token);
    wire_put_varint(b, s->mode);
    wire_put_varint(b, s->seq);
    wire_put_varint(b, s->flags);
    return wire_finish(b, off);
}

socmon_status wire_get_subscribe(const uint8_t *p, size_t len, wire_subscribe *out)
{
    wire_rd r = {p, len, 0, "SUBSCRIBE", SOCMON_OK};
    wire_rd_strbuf(&r, "token", out->token);
    out->mode = (uint32_t)wire_rd_uint(&r, "mode", WIRE_SUB_LATEST);
    out->seq = wire_rd_varint(&r, "seq");
    out->flags = (uint32_t)wire_rd_uint(&r, "flags", 0);
    return wire_rd_done(&r);
}

socmon_status wire_put_gap(wire_buf *b, const wire_gap *g)
{
    size_t off = wire_begin(b, WIRE_GAP);
    wire_put_varint(b, g->first_seq);
    wire_put_varint(b, g->count);
    wire_put_varint(b, g->t0_ns);
    wire_put_varint(b, g->t1_ns);
    return wire_finish(b, off);
}

socmon_status wire_get_gap(const uint8_t *p, size_t len, wire_gap *out)
{
    wire_rd r = {p, len, 0, "GAP", SOCMON_OK};
    out->first_seq = wire_rd_varint(&r, "first seq");
    out->count = wire_rd_varint(&r, "count");
    out->t0_ns = wire_rd_varint(&r, "t0_ns");
    out->t1_ns = wire_rd_varint(&r, "t1_ns");
    if (r.st == SOCMON_OK && out->count == 0)
        wire_rd_fail(&r, "count is 0 (a gap loses at least one sample)");
    if (r.st == SOCMON_OK && out->first_seq + out->count < out->first_seq)
        wire_rd_fail(&r, "first seq + count overflows 64 bits");
    return wire_rd_done(&r);
}

socmon_status wire_put_stats(wire_buf *b, const wire_stats *s)
{
    size_t off = wire_begin(b, WIRE_STATS);
    wire_put_varint(b, s->samples);
    wire_put_varint(b, s->cpu_ns);
    wire_put_varint(b, s->bus_accesses);
    wire_put_varint(b, s->bytes_sent);
    wire_put_varint(b, s->clients);
    wire_put_varint(b, s->overwritten);
    return wire_finish(b, off);
}

socmon_status wire_get_stats(const uint8_t *p, size_t len, wire_stats *out)
{
    wire_rd r = {p, len, 0, "STATS", SOCMON_OK};
    out->samples = wire_rd_varint(&r, "samples");
    out->cpu_ns = wire_rd_varint(&r, "cpu_ns");
    out->bus_accesses = wire_rd_varint(&r, "bus accesses");
    out->bytes_sent = wire_rd_varint(&r, "bytes sent");
    out->clients = wire_rd_varint(&r, "clients");
    out->overwritten = wire_rd_varint(&r, "overwritten");
    return wire_rd_done(&r);
}

socmon_status wire_put_end(wire_buf *b, const wire_end *e)
{
    size_t off = wire_begin(b, WIRE_END);
    wire_put_varint(b, e->next_seq);
    wire_put_varint(b, (uint64_t)(int64_t)e->status & 0xffffffffu);
    wire_put_str(b, e->reason);
    return wire_finish(b, off);
}

socmon_status wire_get_end(const uint8_t *p, size_t len, wire_end *out)
{
    wire_rd r = {p, len, 0, "END", SOCMON_OK};
    out->next_seq = wire_rd_varint(&r, "next seq");
    out->status = (int32_t)(uint32_t)wire_rd_uint(&r, "status", 0xffffffffu);
    wire_rd_strbuf(&r, "reason", out->reason);
    return wire_rd_done(&r);
}

socmon_status wire_put_error(wire_buf *b, uint32_t code, const char *msg)
{
    size_t off = wire_begin(b, WIRE_ERROR);
    wire_put_varint(b, code);
    wire_put_str(b, msg);
    return wire_finish(b, off);
}

socmon_status wire_get_error(const uint8_t *p, size_t len, wire_error *out)
{
    wire_rd r = {p, len, 0, "ERROR", SOCMON_OK};
    out->code = (uint32_t)wire_rd_uint(&r, "code", UINT32_MAX);
    wire_rd_strbuf(&r, "message", out->msg);
    return wire_rd_done(&r);
}

socmon_status wire_put_config(wire_buf *b, const wire_config *c)
{
    size_t off = wire_begin(b, WIRE_CONFIG);
    wire_put_str(b, c->events);
    return wire_finish(b, off);
}

socmon_status wire_get_config(const uint8_t *p, size_t len, wire_config *out)
{
    wire_rd r = {p, len, 0, "CONFIG", SOCMON_OK};
    wire_rd_strbuf(&r, "events", out->events);
    return wire_rd_done(&r);
}
