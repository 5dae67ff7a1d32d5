/* The agent's wire codec: every frame type round trips, a payload cut at any
 * byte is refused, and the header, CRC and count limits hold. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "agent/wire.h"
#include "socmon/status.h"

/* The one frame at b->p: header checked, payload and its length out. */
static const uint8_t *one_frame(const wire_buf *b, uint32_t type, uint32_t *len)
{
    wire_hdr h;
    assert_int_equal(wire_hdr_parse(b->p, b->len, WIRE_MAX_PAYLOAD, &h), 1);
    assert_int_equal(h.version, WIRE_VERSION);
    assert_int_equal(h.type, type);
    assert_int_equal(WIRE_HDR + h.len, b->len);
    assert_int_equal(wire_check_crc(&h, b->p + WIRE_HDR), SOCMON_OK);
    *len = h.len;
    return b->p + WIRE_HDR;
}

typedef socmon_status (*decode_fn)(const uint8_t *p, size_t len, void *out);

/* Every proper prefix of the payload is refused as malformed, never read past. */
static void every_cut_fails(const uint8_t *p, uint32_t len, decode_fn dec, size_t outsize)
{
    void *out = malloc(outsize);
    for (uint32_t cut = 0; cut < len; cut++) {
        uint8_t *copy = malloc(cut ? cut : 1);   /* exactly cut bytes: ASan sees any over-read */
        memcpy(copy, p, cut);
        socmon_status st = dec(copy, cut, out);
        if (st != SOCMON_EPARSE)
            fail_msg("payload cut to %u of %u bytes: status %d, expected EPARSE", cut, len, st);
        free(copy);
    }
    free(out);
}

static socmon_status dec_sub(const uint8_t *p, size_t len, void *o) { return wire_get_subscribe(p, len, o); }
static socmon_status dec_gap(const uint8_t *p, size_t len, void *o) { return wire_get_gap(p, len, o); }
static socmon_status dec_stats(const uint8_t *p, size_t len, void *o) { return wire_get_stats(p, len, o); }
static socmon_status dec_end(const uint8_t *p, size_t len, void *o) { return wire_get_end(p, len, o); }
static socmon_status dec_err(const uint8_t *p, size_t len, void *o) { return wire_get_error(p, len, o); }
static socmon_status dec_cfg(const uint8_t *p, size_t len, void *o) { return wire_get_config(p, len, o); }
static socmon_status dec_hello(const uint8_t *p, size_t len, void *o)
{
    socmon_status st = wire_get_hello(p, len, o);
    wire_hello_free(o);
    return st;
}

static void test_small_frames_round_trip(void **state)
{
    (void)state;
    wire_buf b = {0};
    uint32_t len;
    const uint8_t *p;

    wire_subscribe s = {.mode = WIRE_SUB_SEQ, .seq = 123456789012ull};
    strcpy(s.token, "s3cret token");
    assert_int_equal(wire_put_subscribe(&b, &s), SOCMON_OK);
    p = one_frame(&b, WIRE_SUBSCRIBE, &len);
    wire_subscribe s2;
    assert_int_equal(wire_get_subscribe(p, len, &s2), SOCMON_OK);
    assert_string_equal(s2.token, "s3cret token");
    assert_int_equal(s2.mode, WIRE_SUB_SEQ);
    assert_true(s2.seq == 123456789012ull);
    every_cut_fails(p, len, dec_sub, sizeof s2);
    b.len = 0;

    wire_gap g = {100, 42, 5000, UINT64_MAX - 1};
    assert_int_equal(wire_put_gap(&b, &g), SOCMON_OK);
    p = one_frame(&b, WIRE_GAP, &len);
    wire_gap g2;
    assert_int_equal(wire_get_gap(p, len, &g2), SOCMON_OK);
    assert_memory_equal(&g, &g2, sizeof g);
    every_cut_fails(p, len, dec_gap, sizeof g2);
    b.len = 0;

    wire_stats st = {1, 2, 3, 4, 5, UINT64_MAX};
    assert_int_equal(wire_put_stats(&b, &st), SOCMON_OK);
    p = one_frame(&b, WIRE_STATS, &len);
    wire_stats st2;
    assert_int_equal(wire_get_stats(p, len, &st2), SOCMON_OK);
    assert_memory_equal(&st, &st2, sizeof st);
    every_cut_fails(p, len, dec_stats, sizeof st2);
    b.len = 0;

    wire_end e = {77, SOCMON_EIO, "sampling failed: bus error"};
    assert_int_equal(wire_put_end(&b, &e), SOCMON_OK);
    p = one_frame(&b, WIRE_END, &len);
    wire_end e2;
    assert_int_equal(wire_get_end(p, len, &e2), SOCMON_OK);
    assert_true(e2.next_seq == 77);
    assert_int_equal(e2.status, SOCMON_EIO);
    assert_string_equal(e2.reason, e.reason);
    every_cut_fails(p, len, dec_end, sizeof e2);
    b.len = 0;

    assert_int_equal(wire_put_error(&b, WIRE_ERR_TOKEN, "agent refused the token"), SOCMON_OK);
    p = one_frame(&b, WIRE_ERROR, &len);
    wire_error er;
    assert_int_equal(wire_get_error(p, len, &er), SOCMON_OK);
    assert_int_equal(er.code, WIRE_ERR_TOKEN);
    assert_string_equal(er.msg, "agent refused the token");
    every_cut_fails(p, len, dec_err, sizeof er);
    b.len = 0;

    wire_config c = {"tile*.l2_*"};
    assert_int_equal(wire_put_config(&b, &c), SOCMON_OK);
    p = one_frame(&b, WIRE_CONFIG, &len);
    wire_config c2;
    assert_int_equal(wire_get_config(p, len, &c2), SOCMON_OK);
    assert_string_equal(c2.events, "tile*.l2_*");
    every_cut_fails(p, len, dec_cfg, sizeof c2);
    wire_buf_free(&b);
}

static void test_hello_round_trip(void **state)
{
    (void)state;
    socmon_counter cs[3] = {
        {.name = "l2_hits", .instance = "tile0", .desc = "L2 hits", .unit = "events", .width = 32, .reg = 0x100, .reg_hi = 0, .max_rate_hz = 1e9},
        {.name = "cycles", .instance = "", .desc = "cycles", .unit = "cycles", .width = 64, .reg = 0x200, .reg_hi = 0x204, .max_rate_hz = 0},
        {.name = "x", .instance = "core1", .desc = "", .unit = "", .width = 1, .reg = 0, .reg_hi = 0, .max_rate_hz = 2.5},
    };
    char *pn[2] = {"clock_hz", "bus_width_bytes"};
    double pv[2] = {78e6, 16};
    wire_hello h = {WIRE_VERSION, "esp:soc=x", "ESP SoC", "multifft", 50000, 0, 1, 4096, 10, 4106,
                    WIRE_HELLO_CONFIG, 3, 3, cs, 2, pn, pv};
    wire_buf b = {0};
    assert_int_equal(wire_put_hello(&b, &h), SOCMON_OK);
    uint32_t len;
    const uint8_t *p = one_frame(&b, WIRE_HELLO, &len);
    wire_hello g;
    assert_int_equal(wire_get_hello(p, len, &g), SOCMON_OK);
    assert_string_equal(g.target, "esp:soc=x");
    assert_string_equal(g.device, "ESP SoC");
    assert_string_equal(g.workload, "multifft");
    assert_true(g.interval_ns == 50000 && g.simulated == 1 && g.ring_capacity == 4096);
    assert_true(g.oldest_seq == 10 && g.next_seq == 4106 && g.flags == WIRE_HELLO_CONFIG && g.config_gen == 3);
    assert_int_equal(g.ncounters, 3);
    for (int i = 0; i < 3; i++) {
        assert_string_equal(g.counters[i].name, cs[i].name);
        assert_string_equal(g.counters[i].instance, cs[i].instance);
        assert_string_equal(g.counters[i].desc, cs[i].desc);
        assert_string_equal(g.counters[i].unit, cs[i].unit);
        assert_int_equal(g.counters[i].width, cs[i].width);
        assert_true(g.counters[i].reg == cs[i].reg && g.counters[i].reg_hi == cs[i].reg_hi);
        assert_true(g.counters[i].max_rate_hz == cs[i].max_rate_hz);
    }
    assert_int_equal(g.nparams, 2);
    assert_string_equal(g.param_names[1], "bus_width_bytes");
    assert_true(g.param_values[0] == 78e6);
    wire_hello_free(&g);
    every_cut_fails(p, len, dec_hello, sizeof g);
    wire_buf_free(&b);
}

/* The HELLO's field table (wire_hello.c) checks each field as its row says, with the field named:
 * a zero interval or width, a rate that is no finite rate >= 0, seqs out of order, an empty
 * counter name; and the flag goes out as 0 or 1 whatever int it was. */
static void test_hello_fields_checked(void **state)
{
    (void)state;
    static const struct {
        uint64_t interval, oldest, next;
        unsigned width;
        double rate;
        const char *name, *msg;
    } bad[] = {
        {0, 0, 0, 32, 0, "a", "interval is 0"},
        {1, 5, 4, 32, 0, "a", "oldest seq 5 is past next seq 4"},
        {1, 0, 0, 0, 0, "a", "counter 0 width is 0 (1..64)"},
        {1, 0, 0, 65, 0, "a", "counter 0 width"},
        {1, 0, 0, 32, -1, "a", "counter 0 max rate -1 is not a finite rate >= 0"},
        {1, 0, 0, 32, 1.0 / 0.0, "a", "counter 0 max rate inf is not a finite rate >= 0"},
        {1, 0, 0, 32, 0, "", "counter 0 has an empty name"},
    };
    char *pn[1] = {"clock_hz"};
    double pv[1] = {1};
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        socmon_counter c = {.name = bad[k].name, .instance = "i", .desc = "", .unit = "", .width = bad[k].width,
                            .max_rate_hz = bad[k].rate};
        wire_hello h = {WIRE_VERSION, "t", "d", "w", bad[k].interval, 0, 0, 2, bad[k].oldest, bad[k].next, 0, 0, 1, &c,
                        1, pn, pv};
        wire_buf b = {0};
        uint32_t len;
        wire_hello g;
        assert_int_equal(wire_put_hello(&b, &h), SOCMON_OK);
        const uint8_t *p = one_frame(&b, WIRE_HELLO, &len);
        assert_int_equal(wire_get_hello(p, len, &g), SOCMON_EPARSE);
        if (!strstr(socmon_errmsg(), bad[k].msg))
            fail_msg("case %zu: '%s' lacks '%s'", k, socmon_errmsg(), bad[k].msg);
        wire_buf_free(&b);
    }
    socmon_counter c = {.name = "a", .instance = "", .desc = "", .unit = "", .width = 40, .max_rate_hz = 2e9,
                        .reg = 0x100, .reg_hi = 0x104};
    wire_hello h = {WIRE_VERSION, "t", "d", "", 7, 9, 42, 2, 3, 5, WIRE_HELLO_ENDED, 6, 1, &c, 1, pn, pv};
    wire_buf b = {0};
    uint32_t len;
    wire_hello g;
    assert_int_equal(wire_put_hello(&b, &h), SOCMON_OK);
    const uint8_t *p = one_frame(&b, WIRE_HELLO, &len);
    assert_int_equal(wire_get_hello(p, len, &g), SOCMON_OK);
    assert_int_equal(g.simulated, 1);   /* 42 went out as 1 */
    assert_true(g.interval_ns == 7 && g.duration_ns == 9 && g.ring_capacity == 2 && g.oldest_seq == 3 &&
                g.next_seq == 5 && g.flags == WIRE_HELLO_ENDED && g.config_gen == 6);
    assert_true(g.counters[0].width == 40 && g.counters[0].max_rate_hz == 2e9 && g.counters[0].reg == 0x100 &&
                g.counters[0].reg_hi == 0x104);
    wire_hello_free(&g);
    wire_buf_free(&b);
}

/* The HELLO of a hostile agent: a name that is not an identifier is refused with the byte named
 * (and shown escaped), free text keeps its words with its control bytes escaped. */
static void test_hello_strings_checked(void **state)
{
    (void)state;
    socmon_counter c = {.name = "ok", .instance = "i", .desc = "d\x1b[2J\nFORGED", .unit = "u\r\n", .width = 32, .reg = 0, .reg_hi = 0, .max_rate_hz = 0};
    char *pn[1] = {"clock_hz"};
    double pv[1] = {1};
    wire_hello h = {WIRE_VERSION, "t\x1b]0;x\x07", "dev\n", "w\x9b", 1, 0, 0, 2, 0, 0, 0, 0, 1, &c, 1, pn, pv};
    wire_buf b = {0};
    uint32_t len;
    wire_hello g;
    assert_int_equal(wire_put_hello(&b, &h), SOCMON_OK);
    const uint8_t *p = one_frame(&b, WIRE_HELLO, &len);
    assert_int_equal(wire_get_hello(p, len, &g), SOCMON_OK);
    assert_string_equal(g.target, "t\\x1b]0;x\\x07");
    assert_string_equal(g.device, "dev\\x0a");
    assert_string_equal(g.workload, "w\\x9b");
    assert_string_equal(g.counters[0].desc, "d\\x1b[2J\\x0aFORGED");
    assert_string_equal(g.counters[0].unit, "u\\x0d\\x0a");
    wire_hello_free(&g);
    wire_buf_free(&b);
    static const struct {
        const char *name, *inst, *param, *msg;
    } bad[] = {
        {"a\x1b[2J", "i", "p", "counter 0 name 'a\\x1b[2J' holds byte 0x1b at offset 1"},
        {"a b", "i", "p", "counter 0 name 'a b' holds byte 0x20 at offset 1"},
        {"a", "i\n", "p", "counter 0 instance 'i\\x0a' holds byte 0x0a at offset 1"},
        {"a", "i", "p\x1b", "parameter 0 name 'p\\x1b' holds byte 0x1b at offset 1"},
    };
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        c = (socmon_counter){.name = bad[k].name, .instance = bad[k].inst, .desc = "", .unit = "", .width = 32, .reg = 0, .reg_hi = 0, .max_rate_hz = 0};
        pn[0] = (char *)bad[k].param;
        b = (wire_buf){0};
        assert_int_equal(wire_put_hello(&b, &h), SOCMON_OK);
        p = one_frame(&b, WIRE_HELLO, &len);
        assert_int_equal(wire_get_hello(p, len, &g), SOCMON_EPARSE);
        if (!strstr(socmon_errmsg(), bad[k].msg))
            fail_msg("'%s' lacks '%s'", socmon_errmsg(), bad[k].msg);
        assert_null(strchr(socmon_errmsg(), '\x1b'));
        wire_buf_free(&b);
    }
    /* a parameter name may have a dot (a combined target's member.param) */
    c = (socmon_counter){.name = "a", .instance = "", .desc = "", .unit = "", .width = 32, .reg = 0, .reg_hi = 0, .max_rate_hz = 0};
    pn[0] = "zynq.clock_hz";
    b = (wire_buf){0};
    assert_int_equal(wire_put_hello(&b, &h), SOCMON_OK);
    p = one_frame(&b, WIRE_HELLO, &len);
    assert_int_equal(wire_get_hello(p, len, &g), SOCMON_OK);
    wire_hello_free(&g);
    wire_buf_free(&b);
}

/* Values chosen to wrap between samples: the deltas are modulo each width. */
static void test_samples_round_trip_with_wraps(void **state)
{
    (void)state;
    enum { N = 5, NC = 4 };
    uint64_t masks[NC] = {wire_mask(1), wire_mask(8), wire_mask(32), wire_mask(64)};
    uint64_t t[N] = {1000, 2000, 2000, 3500, UINT64_MAX};
    uint32_t fl[N] = {0, 1, 0, 4, 2}, mi[N] = {0, 3, 0, 0, 0};
    uint64_t v[N * NC] = {1, 250, 0xfffffff0u, UINT64_MAX - 5,
                          0, 3, 0x10, 2,   /* every counter wrapped */
                          1, 3, 0x10, 2,
                          0, 255, 0xffffffffu, UINT64_MAX,
                          1, 0, 0, 0};
    wire_samples s = {1000, N, NC, t, fl, mi, v};
    wire_buf b = {0};
    assert_int_equal(wire_put_samples(&b, &s, masks), SOCMON_OK);
    uint32_t len;
    const uint8_t *p = one_frame(&b, WIRE_SAMPLES, &len);
    uint64_t first;
    uint32_t n;
    assert_int_equal(wire_get_samples_head(p, len, NC, &first, &n), SOCMON_OK);
    assert_true(first == 1000 && n == N);
    uint64_t t2[N], v2[N * NC];
    uint32_t fl2[N], mi2[N];
    wire_samples o = {0, N, NC, t2, fl2, mi2, v2};
    assert_int_equal(wire_get_samples(p, len, masks, &o), SOCMON_OK);
    assert_int_equal(o.n, N);
    assert_memory_equal(t, t2, sizeof t);
    assert_memory_equal(fl, fl2, sizeof fl);
    assert_memory_equal(mi, mi2, sizeof mi);
    assert_memory_equal(v, v2, sizeof v);
    /* the wrong counter count, and every cut */
    assert_int_equal(wire_get_samples_head(p, len, NC + 1, &first, &n), SOCMON_EPARSE);
    for (uint32_t cut = 0; cut < len; cut++) {
        uint8_t *copy = malloc(cut ? cut : 1);
        memcpy(copy, p, cut);
        o.n = N;
        if (wire_get_samples(copy, cut, masks, &o) != SOCMON_EPARSE)
            fail_msg("SAMPLES cut to %u of %u bytes was not refused", cut, len);
        free(copy);
    }
    /* a first value wider than its counter */
    uint64_t bad[NC] = {2, 0, 0, 0};
    uint64_t t1 = 0;
    uint32_t z = 0;
    wire_samples sb = {0, 1, NC, &t1, &z, &z, bad};
    uint64_t wide[NC] = {UINT64_MAX, UINT64_MAX, UINT64_MAX, UINT64_MAX};
    b.len = 0;
    assert_int_equal(wire_put_samples(&b, &sb, wide), SOCMON_OK);
    p = one_frame(&b, WIRE_SAMPLES, &len);
    o.n = N;
    assert_int_equal(wire_get_samples(p, len, masks, &o), SOCMON_EPARSE);
    assert_non_null(strstr(socmon_errmsg(), "wider than"));
    wire_buf_free(&b);
}

static void test_header_limits(void **state)
{
    (void)state;
    wire_buf b = {0};
    wire_gap g = {1, 1, 0, 0};
    wire_put_gap(&b, &g);
    wire_hdr h;
    for (size_t cut = 0; cut < WIRE_HDR; cut++)
        assert_int_equal(wire_hdr_parse(b.p, cut, WIRE_MAX_PAYLOAD, &h), 0);
    uint8_t x[WIRE_HDR];
    memcpy(x, b.p, WIRE_HDR);
    x[0] = 'G';   /* "GET /": refused at its first byte */
    assert_int_equal(wire_hdr_parse(x, 1, WIRE_MAX_PAYLOAD, &h), SOCMON_EPARSE);
    assert_non_null(strstr(socmon_errmsg(), "bad magic"));
    memcpy(x, b.p, WIRE_HDR);
    x[6] = 1;
    assert_int_equal(wire_hdr_parse(x, WIRE_HDR, WIRE_MAX_PAYLOAD, &h), SOCMON_EPARSE);
    memcpy(x, b.p, WIRE_HDR);
    x[5] = 9;
    assert_int_equal(wire_hdr_parse(x, WIRE_HDR, WIRE_MAX_PAYLOAD, &h), SOCMON_EPARSE);
    assert_non_null(strstr(socmon_errmsg(), "unknown frame type 9"));
    memcpy(x, b.p, WIRE_HDR);
    x[8] = 0x01, x[9] = 0x00, x[10] = 0x01, x[11] = 0x00;   /* 65537 bytes */
    assert_int_equal(wire_hdr_parse(x, WIRE_HDR, WIRE_MAX_CLIENT_PAYLOAD, &h), SOCMON_EPARSE);
    assert_non_null(strstr(socmon_errmsg(), "exceeds the limit"));
    /* another version parses: the caller answers it */
    memcpy(x, b.p, WIRE_HDR);
    x[4] = 2;
    assert_int_equal(wire_hdr_parse(x, WIRE_HDR, WIRE_MAX_PAYLOAD, &h), 1);
    assert_int_equal(h.version, 2);
    /* a flipped payload bit */
    b.p[WIRE_HDR] ^= 0x40;
    assert_int_equal(wire_hdr_parse(b.p, b.len, WIRE_MAX_PAYLOAD, &h), 1);
    assert_int_equal(wire_check_crc(&h, b.p + WIRE_HDR), SOCMON_EPARSE);
    assert_non_null(strstr(socmon_errmsg(), "CRC mismatch"));
    wire_buf_free(&b);
}

static void test_counts_checked_before_allocating(void **state)
{
    (void)state;
    /* SAMPLES claiming 2^32-1 samples of 1e6 counters in 6 bytes */
    uint8_t s[] = {0x00, 0xff, 0xff, 0xff, 0xff, 0x0f, 0xc0, 0x84, 0x3d};
    uint64_t first;
    uint32_t n;
    assert_int_equal(wire_get_samples_head(s, sizeof s, 1000000, &first, &n), SOCMON_EPARSE);
    assert_non_null(strstr(socmon_errmsg(), "cannot fit"));
    /* HELLO with a million counters and nothing after */
    wire_buf b = {0};
    socmon_counter c = {.name = "a", .instance = "", .desc = "", .unit = "", .width = 8, .reg = 0, .reg_hi = 0, .max_rate_hz = 0};
    wire_hello h = {WIRE_VERSION, "t", "d", "", 1, 0, 0, 2, 0, 0, 0, 0, 1, &c, 0, NULL, NULL};
    wire_put_hello(&b, &h);
    /* the counter count is the varint right before the counter's name: patch it to 1000000 */
    uint32_t len;
    const uint8_t *p = one_frame(&b, WIRE_HELLO, &len);
    uint8_t *q = malloc(len + 2);
    size_t at = 0;
    /* proto, "t", "d", "", interval, duration, simulated, ring, oldest, next, flags, gen */
    at = 1 + 2 + 2 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1 + 1;
    assert_int_equal(p[at], 1);
    memcpy(q, p, at);
    q[at] = 0xc0, q[at + 1] = 0x84, q[at + 2] = 0x3d;   /* 1000000 */
    memcpy(q + at + 3, p + at + 1, len - at - 1);
    wire_hello g;
    assert_int_equal(wire_get_hello(q, len + 2, &g), SOCMON_EPARSE);
    assert_non_null(strstr(socmon_errmsg(), "cannot fit"));
    free(q);
    /* a string with a NUL, trailing bytes */
    uint8_t cfg[] = {3, 'a', 0, 'b'};
    wire_config cf;
    assert_int_equal(wire_get_config(cfg, sizeof cfg, &cf), SOCMON_EPARSE);
    uint8_t cfg2[] = {1, 'a', 7};
    assert_int_equal(wire_get_config(cfg2, sizeof cfg2, &cf), SOCMON_EPARSE);
    assert_non_null(strstr(socmon_errmsg(), "left over"));
    wire_buf_free(&b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_small_frames_round_trip),
        cmocka_unit_test(test_hello_round_trip),
        cmocka_unit_test(test_hello_fields_checked), cmocka_unit_test(test_hello_strings_checked),
        cmocka_unit_test(test_samples_round_trip_with_wraps),
        cmocka_unit_test(test_header_limits),
        cmocka_unit_test(test_counts_checked_before_allocating),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
