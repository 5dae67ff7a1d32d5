/* Recording format v2: the streaming writer and the reader that keeps what
 * is good. Lossless round trips for every counter width (wraps, counters
 * going backwards, values wider than the counter, flags, missed counts, equal
 * timestamps) in both column layouts; a file cut at every byte offset loads
 * as a prefix of whole blocks;
 * a damaged byte in any block loses that block only, and the loss is
 * reported; write errors (a closed pipe, RLIMIT_FSIZE) stop the writer with a
 * status naming the errno and leave a readable file; v1 files still load. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "socmon/delta.h"
#include "socmon/recording.h"
#include "recording/recording_internal.h"
#include "recording/recording_v2.h"
#include "support/fake.h"
#include "support/rng.h"

#define NC_MAX 64

typedef struct fixture {
    socmon_device *dev;
    socmon_set *set;
    size_t nc;
    unsigned width[NC_MAX];
    char dir[64], path[128];
} fixture;

/* A device of nc counters; counter j is min(j + 1, 64) bits wide when
 * all_widths, else widths cycle through 1, 8, 32, 48, 64. */
static fixture *make(size_t nc, int all_widths)
{
    fixture *f = calloc(1, sizeof *f);
    assert_non_null(f);
    assert_int_equal(socmon_device_new("v2dev", &fake_index_ops, NULL, &f->dev), SOCMON_OK);
    static const unsigned cyc[] = {1, 8, 32, 48, 64};
    f->nc = nc;
    for (size_t j = 0; j < nc; j++) {
        char name[32];
        snprintf(name, sizeof name, "c%zu", j);
        unsigned w = all_widths ? (unsigned)(j + 1 > 64 ? 64 : j + 1) : cyc[j % 5];
        socmon_counter c = {.name = name, .instance = j % 2 ? "tile1" : "", .desc = "a counter",
            .unit = "events", .width = w, .reg = 0x100 + 4 * j, .reg_hi = 0, .max_rate_hz = 1e6};
        f->width[j] = w;
        assert_int_equal(socmon_device_add_counter(f->dev, &c, NULL), SOCMON_OK);
    }
    assert_int_equal(socmon_device_set_param(f->dev, "clock_hz", 78e6), SOCMON_OK);
    assert_int_equal(socmon_set_new(f->dev, NULL, &f->set), SOCMON_OK);
    strcpy(f->dir, "/tmp/socmon-rec2-XXXXXX");
    assert_non_null(mkdtemp(f->dir));
    snprintf(f->path, sizeof f->path, "%s/a.rec", f->dir);
    return f;
}

static void unmake(fixture *f)
{
    unlink(f->path);
    rmdir(f->dir);
    socmon_set_free(f->set);
    socmon_device_free(f->dev);
    free(f);
}

static uint64_t mask(unsigned w)
{
    return w >= 64 ? UINT64_MAX : (UINT64_C(1) << w) - 1;
}

/* Sample i of a deterministic stream: counters mostly steady (the common
 * case the transform is built for), with wraps, backwards jumps, random
 * values, all-ones, and now and then a value wider than the counter. */
typedef struct stream {
    uint64_t seed, t, v[NC_MAX], rate[NC_MAX];
} stream;

static void next_sample(stream *s, const fixture *f, size_t i, socmon_sample *out, int wide_values)
{
    /* now and then a timestamp equal to the one before (a coarse clock): the writer refuses only
     * one that goes backwards; the codec's own test takes any */
    s->t += (i % 97 == 50) ? 0 : 1000 + (rng_next(&s->seed) % 3 == 0 ? rng_next(&s->seed) % 50 : 0);
    for (size_t j = 0; j < f->nc; j++) {
        uint64_t m = mask(f->width[j]), x = rng_next(&s->seed);
        if (i == 0)
            s->rate[j] = x % 5000;
        switch (x % 23) {
        case 0: s->v[j] = x >> 7; break;          /* random */
        case 1: s->v[j] -= 1 + (x >> 60); break;  /* backwards */
        case 2: s->v[j] = UINT64_MAX; break;      /* all ones */
        case 3: s->v[j] = m - (x >> 62); break;   /* about to wrap */
        default: s->v[j] += s->rate[j]; break;    /* steady */
        }
        s->v[j] &= m;
        if (wide_values && f->width[j] < 64 && x % 101 == 7)
            s->v[j] |= UINT64_C(1) << 63; /* a driver that does not mask */
        out->v[j] = s->v[j];
    }
    out->t_ns = s->t;
    out->flags = (i % 7 == 3 ? SOCMON_SAMPLE_MISSED : 0) | (i % 11 == 4 ? SOCMON_SAMPLE_UNDEF : 0) |
                 (i % 509 == 1 ? 0x80000000u : 0);
    out->missed = i % 7 == 3 ? (uint32_t)(1 + i % 5) : (i == 300 ? UINT32_MAX : 0);
}

/* Writes n samples of the stream to f->path; returns the file's bytes. */
static uint8_t *write_file(fixture *f, size_t n, uint32_t block_samples, int wide, size_t *len)
{
    int fd = open(f->path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    assert_true(fd >= 0);
    socmon_recwriter_opts o = {.block_samples = block_samples, .flush_ns = 1000000000};
    socmon_recwriter *w = NULL;
    assert_int_equal(socmon_recwriter_open(fd, f->set, "esp:x=1", 1000, &o, &w), SOCMON_OK);
    uint64_t v[NC_MAX];
    socmon_sample s = {.t_ns = 0, .flags = 0, .missed = 0, .n = f->nc, .v = v};
    stream st = {.seed = 42};
    for (size_t i = 0; i < n; i++) {
        next_sample(&st, f, i, &s, wide);
        assert_int_equal(socmon_recwriter_append(w, &s), SOCMON_OK);
        if (i == n / 3)
            assert_int_equal(socmon_recwriter_flush(w), SOCMON_OK); /* a short block */
    }
    socmon_recwriter_stats ws;
    socmon_recwriter_get_stats(w, &ws);
    assert_int_equal(ws.samples, n);
    assert_int_equal(socmon_recwriter_close(w), SOCMON_OK);
    assert_int_equal(close(fd), 0);
    FILE *fp = fopen(f->path, "rb");
    assert_non_null(fp);
    struct stat sb;
    assert_int_equal(fstat(fileno(fp), &sb), 0);
    uint8_t *buf = malloc((size_t)sb.st_size + 1);
    assert_non_null(buf);
    assert_int_equal(fread(buf, 1, (size_t)sb.st_size, fp), (size_t)sb.st_size);
    fclose(fp);
    *len = (size_t)sb.st_size;
    return buf;
}

/* Checks rec holds samples [from, from + count) of the stream, in order,
 * except that skip_from..skip_to (exclusive) were lost. */
static void check_samples(const fixture *f, socmon_recording *rec, size_t total, size_t skip_from, size_t skip_to,
                          int wide)
{
    socmon_timeline *tl = socmon_recording_timeline(rec);
    assert_int_equal(socmon_timeline_len(tl), total - (skip_to - skip_from));
    uint64_t v[NC_MAX], e[NC_MAX];
    socmon_sample got = {.t_ns = 0, .flags = 0, .missed = 0, .n = f->nc,
        .v = v}, want = {0, 0, 0, f->nc, e};
    socmon_timeline_iter it;
    assert_int_equal(socmon_timeline_iter_init(tl, &it), SOCMON_OK);
    stream st = {.seed = 42};
    for (size_t i = 0; i < total; i++) {
        next_sample(&st, f, i, &want, wide);
        if (i >= skip_from && i < skip_to)
            continue;
        assert_int_equal(socmon_timeline_iter_next(&it, &got), SOCMON_OK);
        assert_int_equal(got.t_ns, want.t_ns);
        if (i == skip_to && skip_to > skip_from) {
            /* the first sample after a gap says how many went missing */
            assert_true(got.flags & SOCMON_SAMPLE_MISSED);
            assert_int_equal(got.missed, want.missed + (skip_to - skip_from));
        } else {
            assert_int_equal(got.flags, want.flags);
            assert_int_equal(got.missed, want.missed);
        }
        for (size_t j = 0; j < f->nc; j++)
            if (v[j] != e[j])
                fail_msg("sample %zu counter %zu (width %u): got 0x%llx, wrote 0x%llx", i, j, f->width[j],
                         (unsigned long long)v[j], (unsigned long long)e[j]);
    }
    assert_int_equal(socmon_timeline_iter_next(&it, &got), SOCMON_ENOENT);
    socmon_timeline_iter_free(&it);
}

/* Where the blocks are: offsets and sample counts, walking the file as the
 * format describes it. */
typedef struct layout {
    size_t header_end, nblocks, end_at;
    size_t at[64], len[64], n[64], first[64];
} layout;

static void walk(const uint8_t *buf, size_t len, layout *l)
{
    memset(l, 0, sizeof *l);
    size_t pos = SOCMON_REC2_FIXED_HDR + (size_t)socmon_rec2_get(buf + 12, 4) + 4;
    l->header_end = pos;
    while (pos + SOCMON_REC2_END_LEN < len) {
        assert_memory_equal(buf + pos, SOCMON_REC2_BLOCK_MARK, 8);
        assert_true(l->nblocks < 64);
        l->at[l->nblocks] = pos;
        l->first[l->nblocks] = (size_t)socmon_rec2_get(buf + pos + 8, 8);
        l->n[l->nblocks] = (size_t)socmon_rec2_get(buf + pos + 24, 4);
        l->len[l->nblocks] = SOCMON_REC2_BLOCK_HDR + (size_t)socmon_rec2_get(buf + pos + 28, 4);
        pos += l->len[l->nblocks++];
    }
    assert_memory_equal(buf + pos, SOCMON_REC2_END_MARK, 8);
    assert_int_equal(pos + SOCMON_REC2_END_LEN, len);
    l->end_at = pos;
}

static void test_v2_round_trip_every_width(void **state)
{
    for (int wide = 0; wide <= 1; wide++) {
        fixture *f = make(64, 1);
        size_t len, n = 1500;
        uint8_t *buf = write_file(f, n, 256, wide, &len);
        socmon_recording *rec = NULL;
        assert_int_equal(socmon_recording_load(f->path, &rec), SOCMON_OK);
        check_samples(f, rec, n, 0, 0, wide);
        assert_string_equal(socmon_recording_target(rec), "esp:x=1");
        assert_string_equal(socmon_recording_device(rec), "v2dev");
        assert_int_equal(socmon_recording_interval_ns(rec), 1000);
        assert_int_equal(socmon_recording_ncounters(rec), 64);
        for (size_t j = 0; j < 64; j++)
            assert_int_equal(socmon_recording_counters(rec)[j].width, f->width[j]);
        assert_int_equal(socmon_recording_nparams(rec), 1);
        socmon_recording_info in;
        socmon_recording_get_info(rec, &in);
        assert_int_equal(in.version, 2);
        assert_true(in.complete);
        assert_int_equal(in.file_bytes, len);
        assert_int_equal(in.blocks_lost + in.bytes_lost + in.samples_lost, 0);
        assert_int_equal(in.flush_ns, 1000000000);
        assert_string_equal(in.what, "");
        layout l;
        walk(buf, len, &l);
        assert_int_equal(in.blocks, l.nblocks);
        socmon_recording_free(rec);
        free(buf);
        unmake(f);
    }
}

/* The codec on its own, in both layouts, against random blocks. */
static void test_v2_codec_both_layouts(void **state)
{
    uint8_t widths[NC_MAX];
    for (size_t j = 0; j < NC_MAX; j++)
        widths[j] = (uint8_t)(j + 1);
    uint64_t seed = 7;
    for (int round = 0; round < 40; round++) {
        size_t n = 1 + rng_next(&seed) % 300;
        smn_rec2_block b, d;
        assert_int_equal(smn_rec2_block_init(&b, NC_MAX, n), SOCMON_OK);
        assert_int_equal(smn_rec2_block_init(&d, NC_MAX, n), SOCMON_OK);
        b.n = n;
        for (size_t i = 0; i < n; i++) {
            b.t[i] = rng_next(&seed) >> (rng_next(&seed) % 64);
            b.flags[i] = (uint32_t)rng_next(&seed);
            b.missed[i] = (uint32_t)(rng_next(&seed) >> (rng_next(&seed) % 64));
            for (size_t j = 0; j < NC_MAX; j++)
                b.v[j * n + i] = (round % 3 == 0 ? rng_next(&seed) : rng_next(&seed) & mask(widths[j]));
            /* a bursty counter (0, 1000, 0, 1000, ... a sample): plain
             * deltas are cheaper than second differences there */
            b.v[40 * n + i] = i ? b.v[40 * n + i - 1] + (i % 2 ? 1000 : 0) : 5;
            b.v[63 * n + i] = 1000 * (uint64_t)i; /* steady: second differences are zeros */
        }
        uint8_t *raw = malloc(smn_rec2_raw_bound(NC_MAX, n));
        assert_non_null(raw);
        for (int lay = 0; lay <= 1; lay++) {
            size_t len = smn_rec2_encode(&b, widths, lay, raw);
            assert_true(len <= smn_rec2_raw_bound(NC_MAX, n));
            if (n > 2) {
                assert_int_equal(raw[1 + 40], widths[40] | SOCMON_REC2_COL_DELTA);
                assert_int_equal(raw[1 + 63], widths[63]);
            }
            assert_int_equal(smn_rec2_decode(raw, len, widths, n, b.t[0], &d), SOCMON_OK);
            assert_memory_equal(d.t, b.t, n * sizeof *b.t);
            assert_memory_equal(d.flags, b.flags, n * sizeof *b.flags);
            assert_memory_equal(d.missed, b.missed, n * sizeof *b.missed);
            assert_memory_equal(d.v, b.v, n * NC_MAX * sizeof *b.v);
            /* strict: a byte more or less is refused */
            assert_int_equal(smn_rec2_decode(raw, len - 1, widths, n, b.t[0], &d), SOCMON_EPARSE);
            raw[len] = 0;
            assert_int_equal(smn_rec2_decode(raw, len + 1, widths, n, b.t[0], &d), SOCMON_EPARSE);
        }
        free(raw);
        smn_rec2_block_free(&b);
        smn_rec2_block_free(&d);
    }
}

static void test_v2_truncated_at_every_byte(void **state)
{
    fixture *f = make(6, 0);
    size_t len, n = 100;
    uint8_t *buf = write_file(f, n, 16, 0, &len);
    layout l;
    walk(buf, len, &l);
    assert_true(l.nblocks >= 7);
    for (size_t cut = 0; cut <= len; cut++) {
        uint8_t *b = malloc(cut + 1);
        assert_non_null(b);
        memcpy(b, buf, cut);
        socmon_recording *rec = NULL;
        socmon_status st = socmon_recording_parse(b, cut, &rec);
        if (cut < l.header_end) {
            assert_int_equal(st, SOCMON_EPARSE);
            assert_non_null(strstr(socmon_errmsg(), "offset "));
            assert_null(rec);
            free(b);
            continue;
        }
        assert_int_equal(st, SOCMON_OK);
        size_t whole = 0, blocks = 0;
        for (size_t k = 0; k < l.nblocks; k++)
            if (l.at[k] + l.len[k] <= cut) {
                whole += l.n[k];
                blocks++;
            }
        check_samples(f, rec, whole, 0, 0, 0);
        socmon_recording_info in;
        socmon_recording_get_info(rec, &in);
        assert_int_equal(in.blocks, blocks);
        assert_int_equal(in.blocks_lost, 0);
        if (cut == len) {
            assert_true(in.complete);
        } else {
            assert_false(in.complete);
            assert_false(in.samples_lost_known);
            size_t good_end = blocks ? l.at[blocks - 1] + l.len[blocks - 1] : l.header_end;
            assert_int_equal(in.bytes_lost, cut - good_end);
            assert_non_null(strstr(in.what, "cut short"));
            assert_int_equal(in.flush_ns, 1000000000);
        }
        socmon_recording_free(rec);
        free(b);
    }
    free(buf);
    unmake(f);
}

static void test_v2_damaged_block_skipped(void **state)
{
    fixture *f = make(6, 0);
    size_t len, n = 100;
    uint8_t *buf = write_file(f, n, 16, 0, &len);
    layout l;
    walk(buf, len, &l);
    uint8_t *b = malloc(len);
    assert_non_null(b);
    for (size_t k = 0; k < l.nblocks; k++) {
        /* the marker, each header field, the first, middle and last payload bytes */
        const size_t where[] = {0, 7, 8, 16, 24, 28, 32, 36, 40, 44, l.len[k] / 2, l.len[k] - 1};
        for (size_t w = 0; w < sizeof where / sizeof where[0]; w++) {
            memcpy(b, buf, len);
            b[l.at[k] + where[w]] ^= 0x20;
            socmon_recording *rec = NULL;
            assert_int_equal(socmon_recording_parse(b, len, &rec), SOCMON_OK);
            check_samples(f, rec, n, l.first[k], l.first[k] + l.n[k], 0);
            socmon_recording_info in;
            socmon_recording_get_info(rec, &in);
            assert_int_equal(in.blocks, l.nblocks - 1);
            assert_int_equal(in.blocks_lost, 1);
            assert_int_equal(in.bytes_lost, l.len[k]);
            assert_true(in.samples_lost_known); /* the end record gives the total */
            assert_int_equal(in.samples_lost, l.n[k]);
            if (k > 0) /* a lost first block's time is unknown */
                assert_true(in.ns_lost > 0);
            assert_false(in.complete);
            assert_non_null(strstr(in.what, "1 damaged block skipped"));
            socmon_recording_free(rec);
        }
    }
    /* two damaged blocks in a row, and the end record gone: the gap is
     * counted, the tail is unknown */
    memcpy(b, buf, len);
    b[l.at[2] + 50] ^= 1;
    b[l.at[3] + 50] ^= 1;
    socmon_recording *rec = NULL;
    assert_int_equal(socmon_recording_parse(b, l.end_at, &rec), SOCMON_OK);
    socmon_recording_info in;
    socmon_recording_get_info(rec, &in);
    assert_int_equal(in.blocks_lost, 2);
    assert_int_equal(in.samples_lost, l.n[2] + l.n[3]);
    assert_false(in.samples_lost_known);
    assert_non_null(strstr(in.what, "cut short"));
    socmon_recording_free(rec);

    /* two blocks whose headers are both damaged: one damaged region, two
     * blocks lost (counted by their markers) */
    memcpy(b, buf, len);
    b[l.at[2] + 30] ^= 1;
    b[l.at[3] + 30] ^= 1;
    assert_int_equal(socmon_recording_parse(b, len, &rec), SOCMON_OK);
    socmon_recording_get_info(rec, &in);
    assert_int_equal(in.blocks_lost, 2);
    assert_int_equal(in.bytes_lost, l.len[2] + l.len[3]);
    assert_int_equal(in.samples_lost, l.n[2] + l.n[3]);
    check_samples(f, rec, n, l.first[2], l.first[3] + l.n[3], 0);
    socmon_recording_free(rec);

    /* a damaged header is an error naming its offset */
    memcpy(b, buf, len);
    b[40] ^= 1;
    assert_int_equal(socmon_recording_parse(b, len, &rec), SOCMON_EPARSE);
    assert_non_null(strstr(socmon_errmsg(), "header checksum mismatch"));
    assert_non_null(strstr(socmon_errmsg(), "offset "));
    free(b);
    free(buf);
    unmake(f);
}

/* A header whose CRC checks but whose counts are huge is refused without a
 * huge allocation (ASan would report one over its limit). */
static void test_v2_bounds_before_allocating(void **state)
{
    fixture *f = make(3, 0);
    size_t len;
    uint8_t *buf = write_file(f, 40, 16, 0, &len);
    layout l;
    walk(buf, len, &l);
    size_t bs_at = l.header_end - 12; /* block_samples, before the flags and the header CRC */
    socmon_rec2_put32(buf + bs_at, 0x7fffffff);
    socmon_rec2_put32(buf + l.header_end - 4, smn_crc32(0, buf, l.header_end - 4));
    socmon_recording *rec = NULL;
    assert_int_equal(socmon_recording_parse(buf, len, &rec), SOCMON_EPARSE);
    assert_non_null(strstr(socmon_errmsg(), "block size"));
    /* a block header (with a good CRC) claiming 2^31 bytes */
    free(buf);
    buf = write_file(f, 40, 16, 0, &len);
    socmon_rec2_put32(buf + l.at[1] + 32, 0x80000000u);
    socmon_rec2_put32(buf + l.at[1] + 40, smn_crc32(0, buf + l.at[1], 40));
    assert_int_equal(socmon_recording_parse(buf, len, &rec), SOCMON_OK);
    socmon_recording_info in;
    socmon_recording_get_info(rec, &in);
    assert_int_equal(in.blocks_lost, 1);
    socmon_recording_free(rec);
    free(buf);
    unmake(f);
}

/* A v1 file written by socmon before v2 existed (tests/core/fixtures). */
static void test_v2_v1_fixture_still_loads(void **state)
{
    char path[512];
    snprintf(path, sizeof path, "%s/tests/core/fixtures/zynq_v1.rec", getenv("SOCMON_SRC"));
    socmon_recording *rec = NULL;
    assert_int_equal(socmon_recording_load(path, &rec), SOCMON_OK);
    socmon_recording_info in;
    socmon_recording_get_info(rec, &in);
    assert_int_equal(in.version, 1);
    assert_true(in.complete);
    assert_false(in.clock_known); /* v1 never said which clock */
    socmon_timeline *tl = socmon_recording_timeline(rec);
    assert_int_equal(socmon_timeline_len(tl), 6);
    assert_string_equal(socmon_recording_target(rec), "zynq");
    /* slot0.wr_bytes over the run, as `socmon report --summary` printed it
     * when the fixture was made */
    const socmon_counter *c = socmon_recording_counters(rec);
    assert_string_equal(c[0].name, "wr_bytes");
    size_t nc = socmon_recording_ncounters(rec);
    uint64_t *a = calloc(nc, sizeof *a), *b = calloc(nc, sizeof *b);
    socmon_sample sa = {.t_ns = 0, .flags = 0, .missed = 0, .n = nc, .v = a}, sb = {0, 0, 0, nc, b};
    assert_int_equal(socmon_timeline_get(tl, 0, &sa), SOCMON_OK);
    assert_int_equal(socmon_timeline_get(tl, 5, &sb), SOCMON_OK);
    assert_int_equal(socmon_delta(a[0], b[0], c[0].width), 500096);
    free(a);
    free(b);
    /* saved again, it becomes v2 and reads back the same */
    char out[] = "/tmp/socmon-v1v2-XXXXXX";
    int fd = mkstemp(out);
    assert_true(fd >= 0);
    close(fd);
    assert_int_equal(socmon_recording_save(rec, out), SOCMON_OK);
    socmon_recording *back = NULL;
    assert_int_equal(socmon_recording_load(out, &back), SOCMON_OK);
    socmon_recording_get_info(back, &in);
    assert_int_equal(in.version, 2);
    assert_int_equal(socmon_timeline_len(socmon_recording_timeline(back)), 6);
    uint8_t *x, *y;
    size_t lx, ly;
    assert_int_equal(smn_recording_serialize(rec, &x, &lx), SOCMON_OK);
    assert_int_equal(smn_recording_serialize(back, &y, &ly), SOCMON_OK);
    assert_int_equal(lx, ly);
    assert_memory_equal(x, y, lx);
    free(x);
    free(y);
    unlink(out);
    socmon_recording_free(back);
    socmon_recording_free(rec);
}

static void test_v2_write_to_closed_pipe(void **state)
{
    fixture *f = make(4, 0);
    int p[2];
    assert_int_equal(pipe(p), 0);
    void (*old)(int) = signal(SIGPIPE, SIG_IGN);
    socmon_recwriter *w = NULL;
    socmon_recwriter_opts o = {.block_samples = 8};
    assert_int_equal(socmon_recwriter_open(p[1], f->set, "esp", 1000, &o, &w), SOCMON_OK);
    close(p[0]);
    uint64_t v[4] = {1, 2, 3, 4};
    socmon_sample s = {.t_ns = 0, .flags = 0, .missed = 0, .n = 4, .v = v};
    socmon_status st = SOCMON_OK;
    size_t i;
    for (i = 0; i < 100 && st == SOCMON_OK; i++) {
        s.t_ns = i;
        st = socmon_recwriter_append(w, &s);
    }
    assert_int_equal(st, SOCMON_EIO);
    assert_int_equal(i, 8); /* the first block write fails */
    assert_non_null(strstr(socmon_errmsg(), "EPIPE"));
    assert_non_null(strstr(socmon_errmsg(), "block 0"));
    /* it stays stopped */
    assert_int_equal(socmon_recwriter_append(w, &s), SOCMON_EIO);
    assert_non_null(strstr(socmon_errmsg(), "EPIPE"));
    assert_int_equal(socmon_recwriter_flush(w), SOCMON_EIO);
    assert_int_equal(socmon_recwriter_close(w), SOCMON_EIO);
    signal(SIGPIPE, old);
    close(p[1]);
    unmake(f);
}

/* RLIMIT_FSIZE with SIGXFSZ ignored: write(2) fails with EFBIG part-way
 * through a block; the writer says so and the file keeps its whole blocks. */
static void test_v2_file_size_limit(void **state)
{
    fixture *f = make(8, 0);
    int fd = open(f->path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    assert_true(fd >= 0);
    void (*old)(int) = signal(SIGXFSZ, SIG_IGN);
    struct rlimit saved, lim;
    assert_int_equal(getrlimit(RLIMIT_FSIZE, &saved), 0);
    socmon_recwriter *w = NULL;
    socmon_recwriter_opts o = {.block_samples = 32};
    assert_int_equal(socmon_recwriter_open(fd, f->set, "esp", 1000, &o, &w), SOCMON_OK);
    socmon_recwriter_stats ws;
    socmon_recwriter_get_stats(w, &ws);
    lim = saved;
    lim.rlim_cur = ws.bytes + 3000; /* the header and a few blocks */
    assert_int_equal(setrlimit(RLIMIT_FSIZE, &lim), 0);
    uint64_t v[NC_MAX];
    socmon_sample s = {.t_ns = 0, .flags = 0, .missed = 0, .n = f->nc, .v = v};
    stream gen = {.seed = 42};
    socmon_status st = SOCMON_OK;
    for (size_t i = 0; i < 100000 && st == SOCMON_OK; i++) {
        next_sample(&gen, f, i, &s, 0);
        st = socmon_recwriter_append(w, &s);
    }
    const char *msg = socmon_errmsg();
    char copy[400];
    snprintf(copy, sizeof copy, "%s", msg);
    socmon_recwriter_get_stats(w, &ws);
    assert_int_equal(socmon_recwriter_close(w), SOCMON_EIO);
    assert_int_equal(setrlimit(RLIMIT_FSIZE, &saved), 0);
    signal(SIGXFSZ, old);
    close(fd);
    assert_int_equal(st, SOCMON_EIO);
    if (!strstr(copy, "EFBIG"))
        fail_msg("message \"%s\" does not name EFBIG", copy);
    assert_true(ws.blocks >= 1);
    socmon_recording *rec = NULL;
    assert_int_equal(socmon_recording_load(f->path, &rec), SOCMON_OK);
    check_samples(f, rec, (size_t)ws.samples_written, 0, 0, 0);
    socmon_recording_info in;
    socmon_recording_get_info(rec, &in);
    assert_false(in.complete);
    assert_int_equal(in.blocks, ws.blocks);
    assert_int_equal(in.bytes_lost, 0); /* the half block was cut off again */
    assert_int_equal(in.file_bytes, ws.bytes);
    socmon_recording_free(rec);
    unmake(f);
}

static void test_v2_writer_errors(void **state)
{
    fixture *f = make(2, 0);
    socmon_recwriter *w = NULL;
    socmon_recwriter_opts o = {.level = 30};
    assert_int_equal(socmon_recwriter_open(1, f->set, "esp", 1, &o, &w), SOCMON_ERANGE);
    assert_non_null(strstr(socmon_errmsg(), "level 30"));
    assert_int_equal(socmon_recwriter_open(-1, f->set, "esp", 1, NULL, &w), SOCMON_EINVAL);
    assert_null(w);
    int fd = open(f->path, O_RDONLY | O_CREAT, 0644); /* not open for writing */
    assert_true(fd >= 0);
    assert_int_equal(socmon_recwriter_open(fd, f->set, "esp", 1, NULL, &w), SOCMON_EIO);
    assert_non_null(strstr(socmon_errmsg(), "EBADF"));
    assert_non_null(strstr(socmon_errmsg(), "header"));
    close(fd);
    assert_int_equal(socmon_recwriter_close(NULL), SOCMON_OK);
    unmake(f);
}

/* The bomb: twenty blocks of 32,000 all-zero samples are a file of a few KB
 * that decodes to 640,000 samples. A load holds at most max_values of
 * samples x counters and says so with the figures; at the limit it loads. */
static void test_v2_load_value_cap(void **state)
{
    fixture *f = make(4, 0);
    int fd = open(f->path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    assert_true(fd >= 0);
    socmon_recwriter_opts o = {.block_samples = 32000};
    socmon_recwriter *w = NULL;
    assert_int_equal(socmon_recwriter_open(fd, f->set, "esp", 1000, &o, &w), SOCMON_OK);
    uint64_t v[4] = {0};
    socmon_sample s = {.t_ns = 0, .flags = 0, .missed = 0, .n = 4, .v = v};
    for (size_t i = 0; i < 640000; i++) {
        s.t_ns = 1000 * i;
        assert_int_equal(socmon_recwriter_append(w, &s), SOCMON_OK);
    }
    assert_int_equal(socmon_recwriter_close(w), SOCMON_OK);
    close(fd);
    FILE *fp = fopen(f->path, "rb");
    assert_non_null(fp);
    static uint8_t buf[1 << 16];
    size_t len = fread(buf, 1, sizeof buf, fp);
    fclose(fp);
    assert_true(len < 8192); /* tiny on disk */
    socmon_recording *rec = NULL;
    assert_int_equal(smn_rec2_parse_limit(buf, len, 1000000, &rec), SOCMON_ERANGE);
    assert_null(rec);
    const char *m = socmon_errmsg();
    if (!strstr(m, "1000000") || !strstr(m, "x 4 counters") || !strstr(m, "offset "))
        fail_msg("message \"%s\" does not give the figures", m);
    assert_int_equal(smn_rec2_parse_limit(buf, len, 640000 * 4, &rec), SOCMON_OK);
    assert_int_equal(socmon_timeline_len(socmon_recording_timeline(rec)), 640000);
    socmon_recording_free(rec);
    /* the library's own limit is far above a legit recording of this size */
    assert_int_equal(socmon_recording_parse(buf, len, &rec), SOCMON_OK);
    socmon_recording_free(rec);
    unmake(f);
}

/* A frame whose header claims 80 MB but holds 1 KB: the buffer grows only as
 * bytes come out (the reader used to allocate the claim first). A frame that
 * holds what it claims decompresses whole. */
static void test_v2_inflate_grows_with_output(void **state)
{
    enum { CLAIM = 80u << 20, REAL = 300000 };
    uint8_t *src = malloc(REAL), *frame = malloc(ZSTD_compressBound(REAL) + 64);
    assert_non_null(src);
    assert_non_null(frame);
    for (size_t i = 0; i < REAL; i++)
        src[i] = (uint8_t)(i * 7 + (i >> 9));
    ZSTD_CCtx *cc = ZSTD_createCCtx();
    ZSTD_DCtx *dc = ZSTD_createDCtx();
    assert_false(ZSTD_isError(ZSTD_CCtx_setPledgedSrcSize(cc, CLAIM)));
    ZSTD_inBuffer in = {src, 1024, 0};
    ZSTD_outBuffer out = {frame, ZSTD_compressBound(REAL) + 64, 0};
    assert_false(ZSTD_isError(ZSTD_compressStream2(cc, &out, &in, ZSTD_e_flush)));
    assert_int_equal(ZSTD_getFrameContentSize(frame, out.pos), CLAIM);
    uint8_t *buf = NULL;
    size_t cap = 0;
    assert_int_equal(smn_rec2_inflate(dc, frame, out.pos, CLAIM, &buf, &cap), 1);
    assert_true(cap <= 2 * SOCMON_REC2_INFLATE_START);
    /* a claim that disagrees with the block header's raw_len */
    assert_int_equal(smn_rec2_inflate(dc, frame, out.pos, 1024, &buf, &cap), 1);
    /* a whole frame */
    size_t clen = ZSTD_compress(frame, ZSTD_compressBound(REAL) + 64, src, REAL, 1);
    assert_false(ZSTD_isError(clen));
    assert_int_equal(smn_rec2_inflate(dc, frame, clen, REAL, &buf, &cap), 0);
    assert_int_equal(cap, REAL);
    assert_memory_equal(buf, src, REAL);
    /* ... and one byte short of it */
    assert_int_equal(smn_rec2_inflate(dc, frame, clen - 1, REAL, &buf, &cap), 1);
    free(buf);
    free(src);
    free(frame);
    ZSTD_freeCCtx(cc);
    ZSTD_freeDCtx(dc);
}

/* The header says whether the timestamps are a model's simulated time; save
 * keeps what socmon_recording_set_simulated said; unknown flag bits are
 * refused. */
static void test_v2_clock_flag(void **state)
{
    fixture *f = make(3, 0);
    for (int sim = -1; sim <= 1; sim++) {
        int fd = open(f->path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        assert_true(fd >= 0);
        socmon_recwriter_opts o = {.simulated = sim};
        socmon_recwriter *w = NULL;
        assert_int_equal(socmon_recwriter_open(fd, f->set, "esp", 1000, &o, &w), SOCMON_OK);
        assert_int_equal(socmon_recwriter_close(w), SOCMON_OK);
        close(fd);
        socmon_recording *rec = NULL;
        assert_int_equal(socmon_recording_load(f->path, &rec), SOCMON_OK);
        socmon_recording_info in;
        socmon_recording_get_info(rec, &in);
        assert_int_equal(in.clock_known, sim != 0);
        assert_int_equal(in.simulated, sim > 0);
        /* saved again as it was, then as set, it keeps the flag */
        assert_int_equal(socmon_recording_save(rec, f->path), SOCMON_OK);
        socmon_recording_free(rec);
        assert_int_equal(socmon_recording_load(f->path, &rec), SOCMON_OK);
        socmon_recording_get_info(rec, &in);
        assert_int_equal(in.clock_known, sim != 0);
        assert_int_equal(in.simulated, sim > 0);
        socmon_recording_set_simulated(rec, sim <= 0);
        assert_int_equal(socmon_recording_save(rec, f->path), SOCMON_OK);
        socmon_recording_free(rec);
        assert_int_equal(socmon_recording_load(f->path, &rec), SOCMON_OK);
        socmon_recording_get_info(rec, &in);
        assert_int_equal(in.clock_known, 1);
        assert_int_equal(in.simulated, sim <= 0);
        socmon_recording_free(rec);
    }
    size_t len;
    uint8_t *buf = write_file(f, 10, 16, 0, &len);
    layout l;
    walk(buf, len, &l);
    socmon_rec2_put32(buf + l.header_end - 8, 0x6);
    socmon_rec2_put32(buf + l.header_end - 4, smn_crc32(0, buf, l.header_end - 4));
    socmon_recording *rec = NULL;
    assert_int_equal(socmon_recording_parse(buf, len, &rec), SOCMON_EPARSE);
    assert_non_null(strstr(socmon_errmsg(), "flags 0x00000006: unknown bits"));
    socmon_rec2_put32(buf + l.header_end - 8, 0x3);
    socmon_rec2_put32(buf + l.header_end - 4, smn_crc32(0, buf, l.header_end - 4));
    assert_int_equal(socmon_recording_parse(buf, len, &rec), SOCMON_EPARSE);
    assert_non_null(strstr(socmon_errmsg(), "both clocks"));
    free(buf);
    unmake(f);
}

/* A saved file (flush period 0 by design) cut short does not claim to have
 * lost "at most 0.000 s". */
static void test_v2_cut_without_flush_period(void **state)
{
    fixture *f = make(3, 0);
    size_t len;
    int fd = open(f->path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    assert_true(fd >= 0);
    socmon_recwriter *w = NULL;
    assert_int_equal(socmon_recwriter_open(fd, f->set, "esp", 1000, NULL, &w), SOCMON_OK);
    uint64_t v[3] = {1, 2, 3};
    socmon_sample s = {.t_ns = 0, .flags = 0, .missed = 0, .n = 3, .v = v};
    for (size_t i = 0; i < 20; i++) {
        s.t_ns = i;
        assert_int_equal(socmon_recwriter_append(w, &s), SOCMON_OK);
    }
    assert_int_equal(socmon_recwriter_close(w), SOCMON_OK);
    close(fd);
    FILE *fp = fopen(f->path, "rb");
    static uint8_t buf[1 << 14];
    len = fread(buf, 1, sizeof buf, fp);
    fclose(fp);
    socmon_recording *rec = NULL;
    assert_int_equal(socmon_recording_parse(buf, len - SOCMON_REC2_END_LEN, &rec), SOCMON_OK);
    socmon_recording_info in;
    socmon_recording_get_info(rec, &in);
    assert_int_equal(in.flush_ns, 0);
    if (!strstr(in.what, "unknown time") || strstr(in.what, "0.000 s"))
        fail_msg("loss text \"%s\"", in.what);
    socmon_recording_free(rec);
    unmake(f);
}

/* save creates its file as fopen would: 0666 less the umask. */
static void test_v2_save_honours_umask(void **state)
{
    fixture *f = make(2, 0);
    socmon_recording *rec = NULL;
    assert_int_equal(socmon_recording_new(f->set, "esp", 1000, &rec), SOCMON_OK);
    static const mode_t masks[] = {077, 022, 002};
    for (size_t i = 0; i < 3; i++) {
        unlink(f->path);
        mode_t old = umask(masks[i]);
        socmon_status st = socmon_recording_save(rec, f->path);
        umask(old);
        assert_int_equal(st, SOCMON_OK);
        struct stat sb;
        assert_int_equal(stat(f->path, &sb), 0);
        assert_int_equal(sb.st_mode & 0777, 0666 & ~masks[i]);
    }
    /* and leaves no temporary behind */
    DIR *d = opendir(f->dir);
    assert_non_null(d);
    struct dirent *e;
    int files = 0;
    while ((e = readdir(d)))
        files += e->d_name[0] != '.';
    closedir(d);
    assert_int_equal(files, 1);
    socmon_recording_free(rec);
    unmake(f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_v2_round_trip_every_width),
        cmocka_unit_test(test_v2_codec_both_layouts),
        cmocka_unit_test(test_v2_truncated_at_every_byte),
        cmocka_unit_test(test_v2_damaged_block_skipped),
        cmocka_unit_test(test_v2_bounds_before_allocating),
        cmocka_unit_test(test_v2_v1_fixture_still_loads),
        cmocka_unit_test(test_v2_write_to_closed_pipe),
        cmocka_unit_test(test_v2_file_size_limit),
        cmocka_unit_test(test_v2_writer_errors),
        cmocka_unit_test(test_v2_load_value_cap),
        cmocka_unit_test(test_v2_inflate_grows_with_output),
        cmocka_unit_test(test_v2_clock_flag),
        cmocka_unit_test(test_v2_cut_without_flush_period),
        cmocka_unit_test(test_v2_save_honours_umask),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
