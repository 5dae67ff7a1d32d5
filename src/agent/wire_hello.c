/* HELLO: the agent's first frame to a collector, with everything needed to
 * rebuild the counter schema on the host (docs/agent-protocol.md). */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agent/wire_io.h"
#include "socmon/status.h"
#include "core/text.h"

/* The fields of HELLO and of its counter records, in wire order: one table that both the
 * writer and the reader walk, so the two cannot disagree on an order or an encoding. */
typedef enum {
    F_VARINT,   /* a varint into a uint64_t */
    F_UINT,     /* a varint <= max into a field of `size` bytes (uint32_t, unsigned, int) */
    F_F64,      /* 8 bytes, little-endian IEEE 754 */
    F_STR,      /* a string, kept as sent (names: checked after the record is read) */
    F_TEXT,     /* a string of free text: escaped (clean_text) once read */
} field_kind;

typedef struct field {
    const char *what;   /* for messages: "target", or the counter field's name */
    field_kind kind;
    size_t off, size;
    uint64_t max;       /* F_UINT */
    int nonzero;        /* refused when 0 */
} field;

#define FLD(type, m, k, ...) {.kind = (k), .off = offsetof(type, m), .size = sizeof(((type *)0)->m), __VA_ARGS__}
/* before the seqs' order is checked */
static const field hello_head[] = {
    FLD(wire_hello, proto, F_UINT, .what = "protocol version", .max = 255),
    FLD(wire_hello, target, F_TEXT, .what = "target"),
    FLD(wire_hello, device, F_TEXT, .what = "device"),
    FLD(wire_hello, workload, F_TEXT, .what = "workload"),
    FLD(wire_hello, interval_ns, F_VARINT, .what = "interval", .nonzero = 1),
    FLD(wire_hello, duration_ns, F_VARINT, .what = "duration"),
    FLD(wire_hello, simulated, F_UINT, .what = "simulated flag", .max = 1),
    FLD(wire_hello, ring_capacity, F_VARINT, .what = "ring capacity"),
    FLD(wire_hello, oldest_seq, F_VARINT, .what = "oldest seq"),
    FLD(wire_hello, next_seq, F_VARINT, .what = "next seq"),
};
static const field hello_tail[] = {
    FLD(wire_hello, flags, F_UINT, .what = "flags", .max = 0xffffffffu),
    FLD(wire_hello, config_gen, F_VARINT, .what = "config generation"),
};
static const field counter_fields[] = {
    FLD(socmon_counter, name, F_STR, .what = "name"),
    FLD(socmon_counter, instance, F_STR, .what = "instance"),
    FLD(socmon_counter, unit, F_TEXT, .what = "unit"),
    FLD(socmon_counter, desc, F_TEXT, .what = "description"),
    FLD(socmon_counter, width, F_UINT, .what = "width", .max = 64, .nonzero = 1),
    FLD(socmon_counter, max_rate_hz, F_F64, .what = "max rate"),
    FLD(socmon_counter, reg, F_VARINT, .what = "register"),
    FLD(socmon_counter, reg_hi, F_VARINT, .what = "high register"),
};
#undef FLD
#define NFIELDS(t) (sizeof(t) / sizeof(t)[0])

static uint64_t load_uint(const void *rec, const field *f)
{
    const char *p = (const char *)rec + f->off;
    if (f->size == sizeof(uint64_t)) {
        uint64_t v;
        memcpy(&v, p, sizeof v);
        return v;
    }
    uint32_t v;   /* uint32_t, unsigned and int are 4 bytes here (wire.h's fields) */
    memcpy(&v, p, sizeof v);
    return v;
}

static void store_uint(void *rec, const field *f, uint64_t v)
{
    char *p = (char *)rec + f->off;
    if (f->size == sizeof(uint64_t)) {
        memcpy(p, &v, sizeof v);
    } else {
        uint32_t x = (uint32_t)v;
        memcpy(p, &x, sizeof x);
    }
}

static void put_fields(wire_buf *b, const void *rec, const field *t, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        const field *f = &t[i];
        const char *p = (const char *)rec + f->off;
        if (f->kind == F_STR || f->kind == F_TEXT) {
            const char *s;
            memcpy(&s, p, sizeof s);
            wire_put_str(b, s);
        } else if (f->kind == F_F64) {
            double d;
            memcpy(&d, p, sizeof d);
            wire_put_f64(b, d);
        } else {
            uint64_t v = load_uint(rec, f);
            wire_put_varint(b, f->max == 1 ? v != 0 : v);   /* a flag goes as 0 or 1 */
        }
    }
}

void wire_hello_free(wire_hello *h)
{
    if (!h)
        return;
    free(h->target);
    free(h->device);
    free(h->workload);
    for (size_t i = 0; h->counters && i < h->ncounters; i++) {
        free((char *)h->counters[i].name);
        free((char *)h->counters[i].instance);
        free((char *)h->counters[i].unit);
        free((char *)h->counters[i].desc);
    }
    free(h->counters);
    for (size_t i = 0; h->param_names && i < h->nparams; i++)
        free(h->param_names[i]);
    free(h->param_names);
    free(h->param_values);
    *h = (wire_hello){0};
}

socmon_status wire_put_hello(wire_buf *b, const wire_hello *h)
{
    size_t off = wire_begin(b, WIRE_HELLO);
    put_fields(b, h, hello_head, NFIELDS(hello_head));
    put_fields(b, h, hello_tail, NFIELDS(hello_tail));
    wire_put_varint(b, h->ncounters);
    for (size_t i = 0; i < h->ncounters; i++)
        put_fields(b, &h->counters[i], counter_fields, NFIELDS(counter_fields));
    wire_put_varint(b, h->nparams);
    for (size_t i = 0; i < h->nparams; i++) {
        wire_put_str(b, h->param_names[i]);
        wire_put_f64(b, h->param_values[i]);
    }
    return wire_finish(b, off);
}

/* A name the host uses as an identifier (counter, instance, parameter: what -e patterns, metric
 * expressions and CSV columns refer to) must be one: the first byte outside [A-Za-z0-9_-] (or
 * '.' too, for a parameter) is refused, named by its value and offset. Names are never escaped
 * into something else: a renamed counter would silently unbind metrics. */
static socmon_status check_ident(wire_rd *r, const char *what, const char *s, int dot)
{
    for (size_t i = 0; r->st == SOCMON_OK && s && s[i]; i++) {
        unsigned char b = (unsigned char)s[i];
        if ((b >= 'a' && b <= 'z') || (b >= 'A' && b <= 'Z') || (b >= '0' && b <= '9') || b == '_' || b == '-' ||
            (dot && b == '.'))
            continue;
        char shown[80];
        smn_text_escape(shown, sizeof shown, s);
        return wire_rd_fail(r, "%s '%s' holds byte 0x%02x at offset %zu (a name is [A-Za-z0-9_%s-]+)", what, shown,
                            b, i, dot ? "." : "");
    }
    return r->st;
}

/* Free text (target, device, workload, unit, description) is kept, with the bytes that would
 * act on a terminal (ESC, newline, ...) escaped as \xNN once, here, so every later use (log
 * lines, the recording file, report, the page) shows it inertly. */
static void clean_text(wire_rd *r, char **s)
{
    if (r->st != SOCMON_OK || !*s || smn_text_clean(*s))
        return;
    /* cut to WIRE_MAX_STR like any string, so the escaped text still fits a recording's fields */
    size_t n = smn_text_escape(NULL, 0, *s);
    n = n < WIRE_MAX_STR ? n : WIRE_MAX_STR;
    char *e = malloc(n + 1);
    if (e)
        smn_text_escape(e, n + 1, *s);
    if (!e) {
        r->st = socmon_fail(SOCMON_ENOMEM, "%s frame: out of memory", r->frame);
        return;
    }
    free(*s);
    *s = e;
}

/* Reads the fields of t into rec, each checked as its row says; `prefix` ("counter 3 ") goes
 * before each field's name in messages. Stops at the first failure (r->st). */
static socmon_status get_fields(wire_rd *r, void *rec, const field *t, size_t n, const char *prefix)
{
    for (size_t i = 0; i < n && r->st == SOCMON_OK; i++) {
        const field *f = &t[i];
        char what[96];
        snprintf(what, sizeof what, "%s%s", prefix, f->what);
        char *p = (char *)rec + f->off;
        if (f->kind == F_STR || f->kind == F_TEXT) {
            char *s = wire_rd_strdup(r, what);
            memcpy(p, &s, sizeof s);
            if (f->kind == F_TEXT)
                clean_text(r, (char **)(void *)p);
        } else if (f->kind == F_F64) {
            double d = wire_rd_f64(r, what);
            memcpy(p, &d, sizeof d);
            if (r->st == SOCMON_OK && !(d >= 0 && isfinite(d)))
                return wire_rd_fail(r, "%s %g is not a finite rate >= 0", what, d);
        } else {
            uint64_t v = f->kind == F_UINT ? wire_rd_uint(r, what, f->max) : wire_rd_varint(r, what);
            store_uint(rec, f, v);
            if (r->st == SOCMON_OK && f->nonzero && v == 0)
                return f->kind == F_UINT ? wire_rd_fail(r, "%s is 0 (1..%llu)", what, (unsigned long long)f->max)
                                         : wire_rd_fail(r, "%s is 0", what);
        }
    }
    return r->st;
}

/* The smallest encoding of a counter (four empty strings, a width, a double,
 * two register addresses)
 * and of a parameter: a count is refused before allocating when the payload
 * could not hold that many. */
#define MIN_COUNTER_BYTES 15u
#define MIN_PARAM_BYTES 9u

static socmon_status get_counters(wire_rd *r, wire_hello *out)
{
    out->ncounters = (size_t)wire_rd_uint(r, "counter count", WIRE_MAX_COUNTERS);
    if (r->st == SOCMON_OK && out->ncounters == 0)
        return wire_rd_fail(r, "counter count is 0");
    if (r->st == SOCMON_OK && out->ncounters > (r->len - r->pos) / MIN_COUNTER_BYTES)
        return wire_rd_fail(r, "%zu counters cannot fit in the %zu bytes left", out->ncounters, r->len - r->pos);
    if (r->st != SOCMON_OK)
        return r->st;
    if (!(out->counters = calloc(out->ncounters, sizeof *out->counters)))
        return r->st = socmon_fail(SOCMON_ENOMEM, "HELLO frame: out of memory for %zu counters", out->ncounters);
    for (size_t i = 0; i < out->ncounters && r->st == SOCMON_OK; i++) {
        socmon_counter *c = &out->counters[i];
        char what[64];
        snprintf(what, sizeof what, "counter %zu ", i);
        if (get_fields(r, c, counter_fields, NFIELDS(counter_fields), what) != SOCMON_OK)
            return r->st;
        if (!c->name[0])
            return wire_rd_fail(r, "counter %zu has an empty name", i);
        snprintf(what, sizeof what, "counter %zu name", i);
        check_ident(r, what, c->name, 0);
        snprintf(what, sizeof what, "counter %zu instance", i);
        check_ident(r, what, c->instance, 0);
    }
    return r->st;
}

static socmon_status get_params(wire_rd *r, wire_hello *out)
{
    out->nparams = (size_t)wire_rd_uint(r, "parameter count", WIRE_MAX_PARAMS);
    if (r->st == SOCMON_OK && out->nparams > (r->len - r->pos) / MIN_PARAM_BYTES)
        return wire_rd_fail(r, "%zu parameters cannot fit in the %zu bytes left", out->nparams, r->len - r->pos);
    if (r->st != SOCMON_OK || out->nparams == 0)
        return r->st;
    out->param_names = calloc(out->nparams, sizeof *out->param_names);
    out->param_values = calloc(out->nparams, sizeof *out->param_values);
    if (!out->param_names || !out->param_values)
        return r->st = socmon_fail(SOCMON_ENOMEM, "HELLO frame: out of memory for %zu parameters", out->nparams);
    for (size_t i = 0; i < out->nparams && r->st == SOCMON_OK; i++) {
        char what[64];
        snprintf(what, sizeof what, "parameter %zu name", i);
        out->param_names[i] = wire_rd_strdup(r, what);
        snprintf(what, sizeof what, "parameter %zu value", i);
        out->param_values[i] = wire_rd_f64(r, what);
        if (r->st == SOCMON_OK && !out->param_names[i][0])
            return wire_rd_fail(r, "parameter %zu has an empty name", i);
        snprintf(what, sizeof what, "parameter %zu name", i);
        check_ident(r, what, out->param_names[i], 1);
    }
    return r->st;
}

socmon_status wire_get_hello(const uint8_t *p, size_t len, wire_hello *out)
{
    *out = (wire_hello){0};
    wire_rd r = {p, len, 0, "HELLO", SOCMON_OK};
    get_fields(&r, out, hello_head, NFIELDS(hello_head), "");
    if (r.st == SOCMON_OK && out->oldest_seq > out->next_seq)
        wire_rd_fail(&r, "oldest seq %llu is past next seq %llu", (unsigned long long)out->oldest_seq,
                     (unsigned long long)out->next_seq);
    get_fields(&r, out, hello_tail, NFIELDS(hello_tail), "");
    if (r.st == SOCMON_OK && get_counters(&r, out) == SOCMON_OK)
        get_params(&r, out);
    socmon_status st = wire_rd_done(&r);
    if (st != SOCMON_OK)
        wire_hello_free(out);
    return st;
}
