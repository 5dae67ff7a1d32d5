/* Recording files: schema copied from a counter set, save/load round trips,
 * atomic replacement, and every class of damaged file rejected with a
 * message that names the problem and its byte offset. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#include "socmon/recording.h"
#include "recording/recording_internal.h"
#include "recording/timeline_internal.h"
#include "support/fake.h"
#include "support/rng.h"

static const socmon_counter schema[] = {
    {.name = "l2_hits", .instance = "tile0", .desc = "L2 hits", .unit = "events", .width = 32,
        .reg = 0x100, .reg_hi = 0, .max_rate_hz = 1e9},
    {.name = "cycles", .instance = "", .desc = "core cycles, split over two registers",
        .unit = "cycles", .width = 64, .reg = 0x200, .reg_hi = 0x204, .max_rate_hz = 0},
    {.name = "flag", .instance = "tile1", .desc = "a one-bit counter", .unit = "events", .width = 1,
        .reg = 0x300, .reg_hi = 0, .max_rate_hz = 12.5},
};

typedef struct fixture {
    socmon_device *dev;
    socmon_set *set;
    char dir[64];
    char path[128];
} fixture;

static int setup(void **state)
{
    fixture *f = calloc(1, sizeof *f);
    assert_non_null(f);
    assert_int_equal(socmon_device_new("testdev", &fake_index_ops, NULL, &f->dev), SOCMON_OK);
    for (size_t i = 0; i < sizeof schema / sizeof schema[0]; i++)
        assert_int_equal(socmon_device_add_counter(f->dev, &schema[i], NULL), SOCMON_OK);
    assert_int_equal(socmon_device_set_param(f->dev, "clock_hz", 78e6), SOCMON_OK);
    assert_int_equal(socmon_device_set_param(f->dev, "bus_width_bytes", 8), SOCMON_OK);
    assert_int_equal(socmon_set_new(f->dev, NULL, &f->set), SOCMON_OK);
    strcpy(f->dir, "/tmp/socmon-rec-XXXXXX");
    assert_non_null(mkdtemp(f->dir));
    snprintf(f->path, sizeof f->path, "%s/a.rec", f->dir);
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    fixture *f = *state;
    char tmp[160];
    snprintf(tmp, sizeof tmp, "%s.tmp", f->path);
    unlink(f->path);
    unlink(tmp);
    rmdir(f->dir);
    socmon_set_free(f->set);
    socmon_device_free(f->dev);
    free(f);
    return 0;
}

/* n samples of awkward values: decreasing, wrapping, extremes, flags. */
static void fill(socmon_recording *rec, size_t n, uint64_t seed)
{
    uint64_t v[8] = {0}, r = seed, t = 0;
    assert_true(rec->ncounters <= 8);
    for (size_t i = 0; i < n; i++) {
        t += (i % 97 == 5) ? 0 : 200000 + (rng_next(&r) & 0xff); /* equal now and then, never backwards */
        for (size_t j = 0; j < rec->ncounters; j++) {
            uint64_t x = rng_next(&r);
            v[j] = (x & 3) == 0 ? x : (x & 3) == 1 ? v[j] - 1 : (x & 3) == 2 ? UINT64_MAX : v[j] + (x >> 56);
        }
        socmon_sample s = {.t_ns = t, .flags = (uint32_t)(i % 5 == 0),
            .missed = (uint32_t)(i % 5 == 0 ? i : 0),
                           .n = rec->ncounters, .v = v};
        if (i % 13 == 0)
            s.flags |= 2;
        assert_int_equal(socmon_timeline_append(rec->tl, &s), SOCMON_OK);
    }
}

static void assert_same(const socmon_recording *a, const socmon_recording *b)
{
    assert_string_equal(a->target, b->target);
    assert_string_equal(a->device, b->device);
    assert_int_equal(a->interval_ns, b->interval_ns);
    assert_int_equal(a->ncounters, b->ncounters);
    for (size_t i = 0; i < a->ncounters; i++) {
        const socmon_counter *x = &a->counters[i], *y = &b->counters[i];
        assert_string_equal(x->name, y->name);
        assert_string_equal(x->instance, y->instance);
        assert_string_equal(x->desc, y->desc);
        assert_string_equal(x->unit, y->unit);
        assert_int_equal(x->width, y->width);
        assert_int_equal(x->reg, y->reg);
        assert_int_equal(x->reg_hi, y->reg_hi);
        assert_true(x->max_rate_hz == y->max_rate_hz);
    }
    assert_int_equal(a->nparams, b->nparams);
    for (size_t i = 0; i < a->nparams; i++) {
        assert_string_equal(a->param_names[i], b->param_names[i]);
        assert_true(a->param_values[i] == b->param_values[i]);
    }
    size_t n = socmon_timeline_len(a->tl);
    assert_int_equal(socmon_timeline_len(b->tl), n);
    uint64_t va[8], vb[8];
    socmon_sample sa = {.t_ns = 0, .flags = 0, .missed = 0, .n = a->ncounters,
        .v = va}, sb = {0, 0, 0, b->ncounters, vb};
    socmon_timeline_iter ia, ib;
    assert_int_equal(socmon_timeline_iter_init(a->tl, &ia), SOCMON_OK);
    assert_int_equal(socmon_timeline_iter_init(b->tl, &ib), SOCMON_OK);
    for (size_t i = 0; i < n; i++) {
        assert_int_equal(socmon_timeline_iter_next(&ia, &sa), SOCMON_OK);
        assert_int_equal(socmon_timeline_iter_next(&ib, &sb), SOCMON_OK);
        assert_int_equal(sa.t_ns, sb.t_ns);
        assert_int_equal(sa.flags, sb.flags);
        assert_int_equal(sa.missed, sb.missed);
        assert_memory_equal(va, vb, a->ncounters * sizeof *va);
    }
    socmon_timeline_iter_free(&ia);
    socmon_timeline_iter_free(&ib);
}

static void test_recording_new_copies_schema(void **state)
{
    fixture *f = *state;
    socmon_recording *rec = NULL;
    assert_int_equal(socmon_recording_new(f->set, "esp", 250000, &rec), SOCMON_OK);
    assert_string_equal(rec->target, "esp");
    assert_string_equal(rec->device, "testdev");
    assert_int_equal(rec->interval_ns, 250000);
    assert_int_equal(rec->ncounters, 3);
    for (size_t i = 0; i < 3; i++) {
        const socmon_counter *c = socmon_set_counter(f->set, i);
        assert_string_equal(rec->counters[i].name, c->name);
        assert_string_equal(rec->counters[i].desc, c->desc);
        assert_ptr_not_equal(rec->counters[i].name, c->name); /* owned copies */
        assert_int_equal(rec->counters[i].width, c->width);
        assert_int_equal(rec->counters[i].reg_hi, c->reg_hi);
    }
    assert_int_equal(rec->nparams, 2);
    double clk = 0;
    for (size_t i = 0; i < rec->nparams; i++)
        if (strcmp(rec->param_names[i], "clock_hz") == 0)
            clk = rec->param_values[i];
    assert_true(clk == 78e6);
    assert_int_equal(socmon_timeline_ncounters(rec->tl), 3);
    socmon_recording_free(rec);

    assert_int_equal(socmon_recording_new(NULL, "esp", 1, &rec), SOCMON_EINVAL);
    assert_null(rec);
}

static int dir_entries(const char *dir)
{
    DIR *d = opendir(dir);
    assert_non_null(d);
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)))
        n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
    closedir(d);
    return n;
}

static void test_recording_save_load_round_trip(void **state)
{
    fixture *f = *state;
    static const size_t sizes[] = {0, 1, 1024, 2500};
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        socmon_recording *rec = NULL, *back = NULL;
        assert_int_equal(socmon_recording_new(f->set, "esp", 100000 + k, &rec), SOCMON_OK);
        fill(rec, sizes[k], k + 1);
        assert_int_equal(socmon_recording_save(rec, f->path), SOCMON_OK);
        assert_int_equal(dir_entries(f->dir), 1); /* the temporary name was renamed away */
        assert_int_equal(socmon_recording_load(f->path, &back), SOCMON_OK);
        assert_same(rec, back);
        /* save writes format v2 (streamed through the writer), whole */
        socmon_recording_info info;
        socmon_recording_get_info(back, &info);
        assert_int_equal(info.version, 2);
        assert_true(info.complete);
        struct stat sb;
        assert_int_equal(stat(f->path, &sb), 0);
        assert_int_equal((size_t)sb.st_size, info.file_bytes);

        /* The in-memory v1 serialiser still re-serialises a loaded
         * recording to the same bytes, and appending after a partial chunk
         * still works. */
        uint8_t *b1, *b2;
        size_t l1, l2;
        assert_int_equal(smn_recording_serialize(rec, &b1, &l1), SOCMON_OK);
        assert_int_equal(smn_recording_serialize(back, &b2, &l2), SOCMON_OK);
        assert_int_equal(l1, l2);
        assert_memory_equal(b1, b2, l1);
        free(b1);
        free(b2);
        fill(rec, 700, 99);
        fill(back, 700, 99);
        assert_same(rec, back);

        socmon_recording_free(rec);
        socmon_recording_free(back);
    }
}

/* Saving over an existing file replaces it whole. */
static void test_recording_save_replaces_file(void **state)
{
    fixture *f = *state;
    FILE *fp = fopen(f->path, "wb");
    assert_non_null(fp);
    fputs("old contents that are not a recording", fp);
    fclose(fp);
    socmon_recording *rec = NULL, *back = NULL;
    assert_int_equal(socmon_recording_new(f->set, "esp", 5, &rec), SOCMON_OK);
    fill(rec, 10, 3);
    assert_int_equal(socmon_recording_save(rec, f->path), SOCMON_OK);
    assert_int_equal(socmon_recording_load(f->path, &back), SOCMON_OK);
    assert_same(rec, back);
    socmon_recording_free(rec);
    socmon_recording_free(back);
}

static void test_recording_save_load_errors(void **state)
{
    fixture *f = *state;
    socmon_recording *rec = NULL, *back = NULL;
    assert_int_equal(socmon_recording_new(f->set, "esp", 5, &rec), SOCMON_OK);
    char bad[200];
    snprintf(bad, sizeof bad, "%s/no/such/dir/x.rec", f->dir);
    assert_int_equal(socmon_recording_save(rec, bad), SOCMON_EIO);
    assert_non_null(strstr(socmon_errmsg(), bad));

    assert_int_equal(socmon_recording_load(bad, &back), SOCMON_ENOENT);
    assert_non_null(strstr(socmon_errmsg(), bad));
    assert_null(back);

    rec->counters[2].width = 65; /* the writer refuses what the reader would */
    assert_int_equal(socmon_recording_save(rec, f->path), SOCMON_ERANGE);
    assert_non_null(strstr(socmon_errmsg(), "width 65"));
    assert_int_not_equal(access(f->path, F_OK), 0);
    rec->counters[2].width = 1;
    free((void *)rec->counters[2].name);
    rec->counters[2].name = strdup("l2_hits");
    free((void *)rec->counters[2].instance);
    rec->counters[2].instance = strdup("tile0");
    assert_int_equal(socmon_recording_save(rec, f->path), SOCMON_EINVAL);
    assert_non_null(strstr(socmon_errmsg(), "tile0.l2_hits appears twice"));
    socmon_recording_free(rec);

    /* A file that is not a recording at all. */
    FILE *fp = fopen(f->path, "wb");
    assert_non_null(fp);
    fclose(fp);
    assert_int_equal(socmon_recording_load(f->path, &back), SOCMON_EPARSE);
    assert_non_null(strstr(socmon_errmsg(), "offset 0"));
    assert_non_null(strstr(socmon_errmsg(), f->path));
}

/* A small valid file: 2 counters, 1 parameter, 5 samples in chunks of 2. */
static void small_file(uint8_t **buf, size_t *len)
{
    socmon_recording *rec = calloc(1, sizeof *rec);
    assert_non_null(rec);
    rec->target = strdup("esp");
    rec->device = strdup("dev");
    rec->interval_ns = 1000;
    rec->ncounters = 2;
    rec->counters = calloc(2, sizeof *rec->counters);
    rec->counters[0] = (socmon_counter){.name = strdup("a"), .instance = strdup("t0"),
        .desc = strdup("first"), .unit = strdup("events"),
                                        .width = 48, .reg = 0x10, .reg_hi = 0, .max_rate_hz = 5e6};
    rec->counters[1] = (socmon_counter){.name = strdup("b"), .instance = strdup("t0"),
        .desc = strdup("second"), .unit = strdup("bytes"),
                                        .width = 64, .reg = 0x20, .reg_hi = 0x24, .max_rate_hz = 0};
    rec->nparams = 1;
    rec->param_names = calloc(1, sizeof *rec->param_names);
    rec->param_values = calloc(1, sizeof *rec->param_values);
    rec->param_names[0] = strdup("clock_hz");
    rec->param_values[0] = 5e7;
    assert_int_equal(smn_timeline_new_chunked(2, 2, &rec->tl), SOCMON_OK);
    fill(rec, 5, 42);
    assert_int_equal(smn_recording_serialize(rec, buf, len), SOCMON_OK);
    socmon_recording_free(rec);
}

static socmon_status parse(const uint8_t *buf, size_t len)
{
    socmon_recording *rec = NULL;
    socmon_status st = socmon_recording_parse(buf, len, &rec);
    if (st == SOCMON_OK)
        assert_non_null(rec);
    else
        assert_null(rec);
    socmon_recording_free(rec);
    return st;
}

static void fix_crc(uint8_t *buf, size_t len)
{
    uint32_t c = smn_crc32(0, buf, len - 4);
    for (int i = 0; i < 4; i++)
        buf[len - 4 + i] = (uint8_t)(c >> (8 * i));
}

static void put32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

static void assert_msg(const char *a, const char *b)
{
    const char *m = socmon_errmsg();
    if (!strstr(m, a) || (b && !strstr(m, b)))
        fail_msg("message \"%s\" lacks \"%s\"%s%s", m, a, b ? " or " : "", b ? b : "");
}

static void test_recording_crc32_known_value(void **state)
{
    assert_int_equal(smn_crc32(0, "123456789", 9), 0xCBF43926u);
    assert_int_equal(smn_crc32(smn_crc32(0, "1234", 4), "56789", 5), 0xCBF43926u);
    assert_int_equal(smn_crc32(0, "", 0), 0);
}

static void test_recording_truncated_at_every_byte(void **state)
{
    uint8_t *buf;
    size_t len;
    small_file(&buf, &len);
    assert_int_equal(parse(buf, len), SOCMON_OK);
    for (size_t n = 0; n < len; n++) {
        uint8_t *cut = malloc(n + 1); /* exact size, so ASan sees any overread */
        memcpy(cut, buf, n);
        assert_int_equal(parse(cut, n), SOCMON_EPARSE);
        assert_msg("recording: offset ", NULL);
        free(cut);
    }
    /* and one byte too many */
    uint8_t *more = malloc(len + 1);
    memcpy(more, buf, len);
    more[len] = 0;
    assert_int_equal(parse(more, len + 1), SOCMON_EPARSE);
    assert_msg("trailing", NULL);
    free(more);
    free(buf);
}

static void test_recording_flipped_bits_rejected(void **state)
{
    uint8_t *buf;
    size_t len;
    small_file(&buf, &len);
    size_t by_crc = 0;
    for (size_t i = 0; i < len; i++) {
        for (int bit = 0; bit < 8; bit++) {
            buf[i] ^= (uint8_t)(1u << bit);
            assert_int_equal(parse(buf, len), SOCMON_EPARSE);
            assert_msg("offset ", NULL);
            by_crc += strstr(socmon_errmsg(), "checksum mismatch") != NULL;
            buf[i] ^= (uint8_t)(1u << bit);
        }
    }
    /* Flips in strings, registers and sample values leave a well-formed
     * file that only the checksum catches. */
    assert_true(by_crc > len);
    /* A flip in the description "first" (offset known from the layout). */
    uint8_t *d = NULL;
    for (size_t i = 0; i + 5 <= len && !d; i++)
        if (memcmp(buf + i, "first", 5) == 0)
            d = buf + i;
    assert_non_null(d);
    d[0] ^= 0x20;
    assert_int_equal(parse(buf, len), SOCMON_EPARSE);
    assert_msg("checksum mismatch", NULL);
    free(buf);
}

static void test_recording_bad_header_fields(void **state)
{
    uint8_t *buf;
    size_t len;
    small_file(&buf, &len);
    uint8_t *b = malloc(len);

    memcpy(b, buf, len);
    b[0] = 'X';
    assert_int_equal(parse(b, len), SOCMON_EPARSE);
    assert_msg("offset 0", "magic");

    memcpy(b, buf, len);
    put32(b + 8, 3); /* versions 1 and 2 are read */
    assert_int_equal(parse(b, len), SOCMON_EPARSE);
    assert_msg("offset 8", "version 3");

    memcpy(b, buf, len);
    b[12] = 1;
    assert_int_equal(parse(b, len), SOCMON_EPARSE);
    assert_msg("offset 12", "reserved");

    /* target string: length at 16; a huge length and one past the end */
    memcpy(b, buf, len);
    put32(b + 16, 0xffffffffu);
    assert_int_equal(parse(b, len), SOCMON_EPARSE);
    assert_msg("offset 16", "target length 4294967295");
    memcpy(b, buf, len);
    put32(b + 16, 4000);
    assert_int_equal(parse(b, len), SOCMON_EPARSE);
    assert_msg("offset 20", "file ends inside target");
    memcpy(b, buf, len);
    b[21] = 0;
    assert_int_equal(parse(b, len), SOCMON_EPARSE);
    assert_msg("offset 20", "NUL");

    /* 16: "esp" (4+3), 23: "dev" (4+3), 30: interval, 38: counter count */
    size_t ncount = 38;
    memcpy(b, buf, len);
    put32(b + ncount, 0xffffffffu);
    assert_int_equal(parse(b, len), SOCMON_EPARSE);
    assert_msg("offset 38", "counter count 4294967295");

    /* counter 0: "a" 5, "t0" 6, "first" 9, "events" 10 -> width at 42 + 30 */
    size_t width0 = ncount + 4 + 30;
    assert_int_equal(buf[width0], 48);
    memcpy(b, buf, len);
    b[width0] = 0;
    assert_int_equal(parse(b, len), SOCMON_EPARSE);
    assert_msg("offset 72", "width 0 out of range 1..64");
    b[width0] = 65;
    assert_int_equal(parse(b, len), SOCMON_EPARSE);
    assert_msg("offset 72", "width 65 out of range 1..64");

    /* max_rate_hz of counter 0 at width + 17: make it NaN, then negative */
    memcpy(b, buf, len);
    memset(b + width0 + 17, 0xff, 8);
    assert_int_equal(parse(b, len), SOCMON_EPARSE);
    assert_msg("offset 89", "max_rate_hz is not a finite number");
    memcpy(b, buf, len);
    b[width0 + 17 + 7] |= 0x80;
    assert_int_equal(parse(b, len), SOCMON_EPARSE);
    assert_msg("offset 89", "negative");

    /* counter 1 renamed to "a": a duplicate t0.a */
    memcpy(b, buf, len);
    uint8_t *nm = b + width0 + 25;
    assert_int_equal(nm[0], 1);
    assert_int_equal(nm[4], 'b');
    nm[4] = 'a';
    assert_int_equal(parse(b, len), SOCMON_EPARSE);
    assert_msg("offset 42", "(t0.a) appears twice");

    /* counter 1: 5 + 6 + 10 + 9 + 25 bytes; then the parameter count */
    size_t pcount = width0 + 25 + 30 + 25;
    memcpy(b, buf, len);
    assert_int_equal(b[pcount], 1);
    put32(b + pcount, 0x10000000u);
    assert_int_equal(parse(b, len), SOCMON_EPARSE);
    assert_msg("parameter count 268435456", NULL);

    /* parameter "clock_hz" (4 + 8) and its value (8); then the chunk size */
    size_t ksize = pcount + 4 + 12 + 8;
    memcpy(b, buf, len);
    assert_int_equal(b[ksize], 2);
    put32(b + ksize, 0);
    assert_int_equal(parse(b, len), SOCMON_EPARSE);
    assert_msg("chunk size 0 out of range", NULL);
    put32(b + ksize, 70000);
    assert_int_equal(parse(b, len), SOCMON_EPARSE);
    assert_msg("chunk size 70000 out of range", NULL);

    /* sample count 5 at ksize + 4, chunk count 3 at ksize + 12 */
    memcpy(b, buf, len);
    assert_int_equal(b[ksize + 4], 5);
    assert_int_equal(b[ksize + 12], 3);
    b[ksize + 12] = 0xff;
    b[ksize + 19] = 0x7f;
    assert_int_equal(parse(b, len), SOCMON_EPARSE);
    assert_msg("chunk count 9151314442816848127", "exceeds what the file can hold");
    memcpy(b, buf, len);
    b[ksize + 4] = 7; /* 7 samples need 4 chunks of 2, the file has 3 */
    assert_int_equal(parse(b, len), SOCMON_EPARSE);
    assert_msg("does not match 7 samples", NULL);

    /* first chunk header: sample count 2, byte length */
    size_t ch0 = ksize + 20;
    memcpy(b, buf, len);
    assert_int_equal(b[ch0], 2);
    b[ch0] = 1;
    assert_int_equal(parse(b, len), SOCMON_EPARSE);
    assert_msg("chunk 0 holds 1 samples, expected 2", NULL);
    memcpy(b, buf, len);
    b[ch0 + 4 + 6] = 0x10; /* a byte length of 2^48 */
    assert_int_equal(parse(b, len), SOCMON_EPARSE);
    assert_msg("chunk 0 length 45035996273705", "exceeds the");

    free(b);
    free(buf);
}

/* A one-sample, one-counter file whose chunk bytes the test chooses; the
 * checksum is made valid so the chunk decoder is what must object. */
static socmon_status parse_with_chunk(const uint8_t *chunk, size_t clen)
{
    socmon_recording *rec = calloc(1, sizeof *rec);
    rec->target = strdup("");
    rec->device = strdup("d");
    rec->ncounters = 1;
    rec->counters = calloc(1, sizeof *rec->counters);
    rec->counters[0] = (socmon_counter){.name = strdup("c"), .instance = strdup(""),
        .desc = strdup(""), .unit = strdup(""), .width = 64, .reg = 0, .reg_hi = 0,
        .max_rate_hz = 0};
    assert_int_equal(socmon_timeline_new(1, &rec->tl), SOCMON_OK);
    uint64_t v = 3;
    socmon_sample s = {.t_ns = 5, .flags = 0, .missed = 0, .n = 1, .v = &v};
    assert_int_equal(socmon_timeline_append(rec->tl, &s), SOCMON_OK);
    uint8_t *buf;
    size_t len;
    assert_int_equal(smn_recording_serialize(rec, &buf, &len), SOCMON_OK);
    socmon_recording_free(rec);
    /* ... | u32 n=1 | u64 nbytes=3 | 05 00 03 | "SOCMEND!" | crc */
    size_t data = len - 12 - 3;
    assert_memory_equal(buf + data, "\x05\x00\x03", 3);
    uint8_t *out = malloc(len - 3 + clen);
    memcpy(out, buf, data);
    out[data - 8] = (uint8_t)clen;
    memcpy(out + data, chunk, clen);
    memcpy(out + data + clen, buf + len - 12, 12);
    fix_crc(out, len - 3 + clen);
    socmon_status st = parse(out, len - 3 + clen);
    free(out);
    free(buf);
    return st;
}

static void test_recording_bad_chunk_contents(void **state)
{
    assert_int_equal(parse_with_chunk((const uint8_t *)"\x05\x00\x03", 3), SOCMON_OK);
    assert_int_equal(parse_with_chunk((const uint8_t *)"\x05\x00\x03\x00", 4), SOCMON_EPARSE);
    assert_msg("chunk 0", "1 trailing bytes");
    assert_int_equal(parse_with_chunk((const uint8_t *)"\x05\x00", 2), SOCMON_EPARSE);
    assert_msg("counter 0", "runs past the end");
    assert_int_equal(parse_with_chunk((const uint8_t *)"\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01\x00\x03", 13),
                     SOCMON_EPARSE);
    assert_msg("timestamp", "longer than 10 bytes");
    assert_int_equal(parse_with_chunk((const uint8_t *)"\xff\xff\xff\xff\xff\xff\xff\xff\xff\x02\x00\x03", 12),
                     SOCMON_EPARSE);
    assert_msg("timestamp", "longer than 10 bytes");
    /* The longest legal varint: 2^64 - 1 in exactly 10 bytes. */
    assert_int_equal(parse_with_chunk((const uint8_t *)"\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01\x00\x03", 12),
                     SOCMON_OK);
    assert_int_equal(parse_with_chunk((const uint8_t *)"\x85\x00\x00\x03", 4), SOCMON_EPARSE);
    assert_msg("timestamp", "non-canonical");
    assert_int_equal(parse_with_chunk((const uint8_t *)"\x05\x01\x00\x03", 4), SOCMON_EPARSE);
    assert_msg("missed count 0: out of range", NULL);
    assert_int_equal(parse_with_chunk((const uint8_t *)"\x05\x80\x80\x80\x80\x40\x03", 7), SOCMON_EPARSE);
    assert_msg("flags field", "above 33 bits");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_recording_new_copies_schema, setup, teardown),
        cmocka_unit_test_setup_teardown(test_recording_save_load_round_trip, setup, teardown),
        cmocka_unit_test_setup_teardown(test_recording_save_replaces_file, setup, teardown),
        cmocka_unit_test_setup_teardown(test_recording_save_load_errors, setup, teardown),
        cmocka_unit_test(test_recording_crc32_known_value),
        cmocka_unit_test(test_recording_truncated_at_every_byte),
        cmocka_unit_test(test_recording_flipped_bits_rejected),
        cmocka_unit_test(test_recording_bad_header_fields),
        cmocka_unit_test(test_recording_bad_chunk_contents),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
