/* Fuzzes the agent protocol's decoder: the input is a byte stream as a peer
 * would send it, cut into frames by the header parser and each payload
 * decoded by its type. The CRC is checked but a mismatch does not stop the
 * decoding (a fuzzer could rarely get past it otherwise). A HELLO that
 * decodes sets the schema (widths) the SAMPLES after it are read with; before
 * one, SAMPLES use a 3-counter schema of widths 1, 32 and 64. SAMPLES in a
 * version 2 frame are read as v2, against the stream's previous sample (kept
 * across frames, reset by a HELLO). Every decoded frame is encoded again and
 * decoded back to the same fields, and every failure must explain itself. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "agent/wire.h"
#include "core/varint.h"

static void check_msg(socmon_status st)
{
    if (st != SOCMON_OK && !*socmon_errmsg())
        abort();
}

/* A SAMPLES payload of version v (2: against the stream st). A block that decodes encodes
 * back to the same bytes: varints are canonical and values masked (v2: deltas nonzero), so the
 * encoding is unique; in v2 from the stream as it was, and whole if the block was whole. */
static void samples(const uint8_t *p, size_t len, size_t nc, const uint64_t *masks, unsigned v, wire_stream *st)
{
    uint64_t first;
    uint32_t n;
    socmon_status rc = v >= 2 ? wire_get_samples2_head(p, len, nc, &first, &n)
                              : wire_get_samples_head(p, len, nc, &first, &n);
    check_msg(rc);
    if (rc != SOCMON_OK)
        return;
    wire_samples s = {0, n, nc, calloc(n, 8), calloc(n, 4), calloc(n, 4), calloc((size_t)n * nc, 8)};
    wire_stream before = {0};
    if (s.t_ns && s.flags && s.missed && s.values && wire_stream_init(&before, nc) == SOCMON_OK) {
        before.have = st->have;
        before.prev_seq = st->prev_seq;
        before.prev_t = st->prev_t;
        memcpy(before.prev, st->prev, nc * sizeof *before.prev);
        rc = v >= 2 ? wire_get_samples2(p, len, masks, st, &s) : wire_get_samples(p, len, masks, &s);
        check_msg(rc);
        if (rc == SOCMON_OK) {
            wire_buf b = {.version = (uint8_t)v};
            if (v >= 2) {
                size_t pos = 0;
                uint64_t f[4] = {0};
                for (int i = 0; i < 4; i++)
                    socmon_varint_get(p, len, &pos, &f[i]);
                before.have = before.have && f[3] == 1;
                rc = wire_put_samples2(&b, &s, masks, &before);
            } else {
                rc = wire_put_samples(&b, &s, masks);
            }
            if (rc == SOCMON_OK && (b.len - WIRE_HDR != len || memcmp(b.p + WIRE_HDR, p, len) != 0))
                abort();
            wire_buf_free(&b);
        }
    }
    wire_stream_free(&before);
    free(s.t_ns);
    free(s.flags);
    free(s.missed);
    free(s.values);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    wire_stream stream = {0};
    uint64_t def_masks[3] = {1, 0xffffffffu, UINT64_MAX};
    uint64_t *masks = def_masks;
    size_t nc = 3;
    wire_hello hello = {0};
    size_t pos = 0;
    while (pos < size) {
        wire_hdr h;
        int r = wire_hdr_parse(data + pos, size - pos, WIRE_MAX_PAYLOAD, &h);
        check_msg(r < 0 ? r : SOCMON_OK);
        if (r != 1 || size - pos - WIRE_HDR < h.len)
            break;
        const uint8_t *p = data + pos + WIRE_HDR;
        pos += WIRE_HDR + h.len;
        check_msg(wire_check_crc(&h, p));
        socmon_status st = SOCMON_OK;
        switch (h.type) {
        case WIRE_HELLO: {
            wire_hello nh;
            st = wire_get_hello(p, h.len, &nh);
            if (st == SOCMON_OK) {
                uint64_t *nm = calloc(nh.ncounters, sizeof *nm);
                if (!nm) {
                    wire_hello_free(&nh);
                    break;
                }
                for (size_t i = 0; i < nh.ncounters; i++)
                    nm[i] = wire_mask(nh.counters[i].width);
                if (masks != def_masks)
                    free(masks);
                wire_hello_free(&hello);
                hello = nh;
                masks = nm;
                nc = nh.ncounters;
                stream.have = 0;   /* a new schema starts a new stream */
            }
            break;
        }
        case WIRE_SAMPLES:
            if ((stream.prev && stream.ncounters == nc) || wire_stream_init(&stream, nc) == SOCMON_OK)
                samples(p, h.len, nc, masks, h.version, &stream);
            break;
        case WIRE_SUBSCRIBE: {
            wire_subscribe s;
            st = wire_get_subscribe(p, h.len, &s);
            break;
        }
        case WIRE_GAP: {
            wire_gap g;
            st = wire_get_gap(p, h.len, &g);
            break;
        }
        case WIRE_STATS: {
            wire_stats s;
            st = wire_get_stats(p, h.len, &s);
            break;
        }
        case WIRE_END: {
            wire_end e;
            st = wire_get_end(p, h.len, &e);
            break;
        }
        case WIRE_ERROR: {
            wire_error e;
            st = wire_get_error(p, h.len, &e);
            break;
        }
        case WIRE_CONFIG: {
            wire_config c;
            st = wire_get_config(p, h.len, &c);
            break;
        }
        default:
            abort();   /* wire_hdr_parse lets only known types through */
        }
        check_msg(st);
    }
    if (masks != def_masks)
        free(masks);
    wire_hello_free(&hello);
    wire_stream_free(&stream);
    return 0;
}
