/* HELLO: the agent's first frame to a collector, with everything needed to
 * rebuild the counter schema on the host (docs/agent-protocol.md). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agent/wire_io.h"
#include "socmon/status.h"
#include "core/text.h"

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
    wire_put_varint(b, h->proto);
    wire_put_str(b, h->target);
    wire_put_str(b, h->device);
    wire_put_str(b, h->workload);
    wire_put_varint(b, h->interval_ns);
    wire_put_varint(b, h->duration_ns);
    wire_put_varint(b, h->simulated ? 1 : 0);
    wire_put_varint(b, h->ring_capacity);
    wire_put_varint(b, h->oldest_seq);
    wire_put_varint(b, h->next_seq);
    wire_put_varint(b, h->flags);
    wire_put_varint(b, h->config_gen);
    wire_put_varint(b, h->ncounters);
    for (size_t i = 0; i < h->ncounters; i++) {
        const socmon_counter *c = &h->counters[i];
        wire_put_str(b, c->name);
        wire_put_str(b, c->instance);
        wire_put_str(b, c->unit);
        wire_put_str(b, c->desc);
        wire_put_varint(b, c->width);
        wire_put_f64(b, c->max_rate_hz);
        wire_put_varint(b, c->reg);
        wire_put_varint(b, c->reg_hi);
    }
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
        snprintf(what, sizeof what, "counter %zu name", i);
        c->name = wire_rd_strdup(r, what);
        snprintf(what, sizeof what, "counter %zu instance", i);
        c->instance = wire_rd_strdup(r, what);
        snprintf(what, sizeof what, "counter %zu unit", i);
        c->unit = wire_rd_strdup(r, what);
        snprintf(what, sizeof what, "counter %zu description", i);
        c->desc = wire_rd_strdup(r, what);
        snprintf(what, sizeof what, "counter %zu width", i);
        c->width = (unsigned)wire_rd_uint(r, what, 64);
        if (r->st == SOCMON_OK && c->width == 0)
            return wire_rd_fail(r, "counter %zu width is 0 (1..64)", i);
        snprintf(what, sizeof what, "counter %zu max rate", i);
        c->max_rate_hz = wire_rd_f64(r, what);
        if (r->st == SOCMON_OK && !(c->max_rate_hz >= 0 && isfinite(c->max_rate_hz)))
            return wire_rd_fail(r, "counter %zu max rate %g is not a finite rate >= 0", i, c->max_rate_hz);
        snprintf(what, sizeof what, "counter %zu register", i);
        c->reg = wire_rd_varint(r, what);
        snprintf(what, sizeof what, "counter %zu high register", i);
        c->reg_hi = wire_rd_varint(r, what);
        if (r->st == SOCMON_OK && !c->name[0])
            return wire_rd_fail(r, "counter %zu has an empty name", i);
        snprintf(what, sizeof what, "counter %zu name", i);
        check_ident(r, what, c->name, 0);
        snprintf(what, sizeof what, "counter %zu instance", i);
        check_ident(r, what, c->instance, 0);
        clean_text(r, (char **)&c->unit);
        clean_text(r, (char **)&c->desc);
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
    out->proto = (uint32_t)wire_rd_uint(&r, "protocol version", 255);
    out->target = wire_rd_strdup(&r, "target");
    out->device = wire_rd_strdup(&r, "device");
    out->workload = wire_rd_strdup(&r, "workload");
    clean_text(&r, &out->target);
    clean_text(&r, &out->device);
    clean_text(&r, &out->workload);
    out->interval_ns = wire_rd_varint(&r, "interval");
    if (r.st == SOCMON_OK && out->interval_ns == 0)
        wire_rd_fail(&r, "interval is 0");
    out->duration_ns = wire_rd_varint(&r, "duration");
    out->simulated = (int)wire_rd_uint(&r, "simulated flag", 1);
    out->ring_capacity = wire_rd_varint(&r, "ring capacity");
    out->oldest_seq = wire_rd_varint(&r, "oldest seq");
    out->next_seq = wire_rd_varint(&r, "next seq");
    if (r.st == SOCMON_OK && out->oldest_seq > out->next_seq)
        wire_rd_fail(&r, "oldest seq %llu is past next seq %llu", (unsigned long long)out->oldest_seq,
                     (unsigned long long)out->next_seq);
    out->flags = (uint32_t)wire_rd_uint(&r, "flags", 0xffffffffu);
    out->config_gen = wire_rd_varint(&r, "config generation");
    if (r.st == SOCMON_OK && get_counters(&r, out) == SOCMON_OK)
        get_params(&r, out);
    socmon_status st = wire_rd_done(&r);
    if (st != SOCMON_OK)
        wire_hello_free(out);
    return st;
}
