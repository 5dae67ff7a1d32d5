/* What the recording writer refuses and what the reader checks beyond the
 * CRCs (issue 23): a timestamp that goes backwards is refused by the writer
 * (reopened files too) and flagged by both readers (a crafted v2 file, a v1
 * file); an end record whose block count, sample count or last timestamp
 * disagrees with the blocks is named as damage, while damaged blocks alone
 * are not a disagreement; a killed recording's loss is bounded by one block,
 * and by the flush period only on a real clock. Files are edited with their
 * CRCs recomputed, so only these checks can see the edits. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "socmon/recording.h"
#include "recording/recording_internal.h"
#include "recording/recording_v2.h"
#include "recording/timeline_internal.h"
#include "support/fake.h"

#define NC 3
#define BLOCK 4

typedef struct fx {
    socmon_device *dev;
    socmon_set *set;
    FILE *fp;  /* the recording: a temporary file, gone when closed */
} fx;

static fx *make(void)
{
    fx *f = calloc(1, sizeof *f);
    assert_non_null(f);
    assert_int_equal(socmon_device_new("chk", &fake_index_ops, NULL, &f->dev), SOCMON_OK);
    for (int j = 0; j < NC; j++) {
        char name[16];
        snprintf(name, sizeof name, "c%d", j);
        socmon_counter c = {.name = name, .instance = "", .desc = "a counter", .unit = "events",
            .width = 32, .reg = (uint64_t)(4 * j), .reg_hi = 0, .max_rate_hz = 0};
        assert_int_equal(socmon_device_add_counter(f->dev, &c, NULL), SOCMON_OK);
    }
    assert_int_equal(socmon_set_new(f->dev, NULL, &f->set), SOCMON_OK);
    assert_non_null(f->fp = tmpfile());
    return f;
}

static void unmake(fx *f)
{
    fclose(f->fp);
    socmon_set_free(f->set);
    socmon_device_free(f->dev);
    free(f);
}

static socmon_status append_at(socmon_recwriter *w, uint64_t t)
{
    uint64_t v[NC] = {t / 10, t / 100, 7};
    socmon_sample s = {.t_ns = t, .flags = 0, .missed = 0, .n = NC, .v = v};
    return socmon_recwriter_append(w, &s);
}

/* A fresh recording of the samples at times[0..n), blocks of BLOCK samples. */
static void write_times(fx *f, const uint64_t *times, size_t n, int simulated)
{
    assert_int_equal(ftruncate(fileno(f->fp), 0), 0);
    assert_int_equal(lseek(fileno(f->fp), 0, SEEK_SET), 0);
    socmon_recwriter_opts o = {.block_samples = BLOCK, .flush_ns = 1000000000,
        .simulated = simulated};
    socmon_recwriter *w = NULL;
    assert_int_equal(socmon_recwriter_open(fileno(f->fp), f->set, "fake", 1000000, &o, &w), SOCMON_OK);
    for (size_t i = 0; i < n; i++)
        assert_int_equal(append_at(w, times[i]), SOCMON_OK);
    assert_int_equal(socmon_recwriter_close(w), SOCMON_OK);
}

/* 12 samples 1000 ns apart from 1000: blocks 0, 1 and 2, then the end record. */
static void write_twelve(fx *f)
{
    uint64_t t[12];
    for (size_t i = 0; i < 12; i++)
        t[i] = 1000 * (i + 1);
    write_times(f, t, 12, 1);
}

/* The file's bytes (malloc'd) and where its blocks and end record are. */
static uint8_t *slurp(fx *f, size_t *len, size_t *blocks, size_t *nblocks, size_t *end)
{
    int fd = fileno(f->fp);
    off_t size = lseek(fd, 0, SEEK_END);
    assert_true(size > 0);
    uint8_t *b = malloc((size_t)size);
    assert_non_null(b);
    assert_int_equal(pread(fd, b, (size_t)size, 0), size);
    *len = (size_t)size;
    size_t pos = SOCMON_REC2_FIXED_HDR + (size_t)socmon_rec2_get(b + 12, 4) + 4;
    *nblocks = 0;
    while (pos + 8 <= *len && memcmp(b + pos, SOCMON_REC2_BLOCK_MARK, 8) == 0) {
        blocks[(*nblocks)++] = pos;
        pos += SOCMON_REC2_BLOCK_HDR + (size_t)socmon_rec2_get(b + pos + 28, 4);
    }
    *end = pos;
    return b;
}

static void fix_block_crc(uint8_t *b, size_t at)
{
    socmon_rec2_put32(b + at + 40, smn_crc32(0, b + at, 40));
}

static void fix_end_crc(uint8_t *b, size_t end)
{
    socmon_rec2_put32(b + end + 32, smn_crc32(0, b + end, 32));
}

static socmon_recording_info load_info(const uint8_t *b, size_t len, size_t *samples)
{
    socmon_recording *rec = NULL;
    if (socmon_recording_parse(b, len, &rec) != SOCMON_OK)
        fail_msg("parse: %s", socmon_errmsg());
    socmon_recording_info in;
    socmon_recording_get_info(rec, &in);
    *samples = socmon_timeline_len(socmon_recording_timeline(rec));
    socmon_recording_free(rec);
    return in;
}

static void expect_text(const char *text, const char *part)
{
    if (!strstr(text, part))
        fail_msg("\"%s\" lacks \"%s\"", text, part);
}

static void test_writer_refuses_backwards(void **state)
{
    (void)state;
    fx *f = make();
    socmon_recwriter_opts o = {.block_samples = BLOCK};
    socmon_recwriter *w = NULL;
    assert_int_equal(socmon_recwriter_open(fileno(f->fp), f->set, "fake", 1000, &o, &w), SOCMON_OK);
    assert_int_equal(append_at(w, 1000), SOCMON_OK);
    assert_int_equal(append_at(w, 2000), SOCMON_OK);
    assert_int_equal(append_at(w, 1999), SOCMON_ERANGE);
    expect_text(socmon_errmsg(), "sample 2's timestamp 1999 ns is before the previous sample's, 2000 ns");
    /* refused, not a failed writer: equal and later timestamps go on */
    assert_int_equal(append_at(w, 2000), SOCMON_OK);
    assert_int_equal(append_at(w, 0), SOCMON_ERANGE);
    assert_int_equal(append_at(w, 3000), SOCMON_OK);
    socmon_recwriter_stats ws;
    socmon_recwriter_get_stats(w, &ws);
    assert_int_equal(ws.samples, 4);
    assert_int_equal(socmon_recwriter_next_index(w), 4);
    assert_int_equal(socmon_recwriter_close(w), SOCMON_OK);
    size_t len, blocks[8], nb, end, n;
    uint8_t *b = slurp(f, &len, blocks, &nb, &end);
    socmon_recording_info in = load_info(b, len, &n);
    assert_int_equal(n, 4);
    assert_true(in.complete);
    assert_int_equal(in.time_backwards, 0);
    free(b);

    /* a reopened file keeps its clock: nothing before its last sample */
    int fd = fileno(f->fp);
    assert_int_equal(socmon_recwriter_reopen(fd, f->set, "fake", 1000, NULL, &w), SOCMON_OK);
    assert_int_equal(append_at(w, 2999), SOCMON_ERANGE);
    expect_text(socmon_errmsg(), "sample 4's timestamp 2999 ns is before the previous sample's, 3000 ns");
    assert_int_equal(append_at(w, 3000), SOCMON_OK);
    assert_int_equal(socmon_recwriter_close(w), SOCMON_OK);
    b = slurp(f, &len, blocks, &nb, &end);
    in = load_info(b, len, &n);
    assert_int_equal(n, 5);
    assert_true(in.complete);
    free(b);
    unmake(f);
}

/* A v2 file whose block 1 was moved back before block 0's last sample, and
 * block 2 before block 1's: two samples go backwards, the first is row 4. */
static void test_reader_flags_backwards_v2(void **state)
{
    (void)state;
    fx *f = make();
    write_twelve(f);
    size_t len, blocks[8], nb, end, n;
    uint8_t *b = slurp(f, &len, blocks, &nb, &end);
    assert_int_equal(nb, 3);
    socmon_rec2_put64(b + blocks[1] + 16, 500);   /* samples 4..7 at 500..3500 ns, after 4000 */
    fix_block_crc(b, blocks[1]);
    socmon_rec2_put64(b + blocks[2] + 16, 3400);  /* samples 8..11 at 3400..6400 ns, after 3500 */
    fix_block_crc(b, blocks[2]);
    socmon_rec2_put64(b + end + 16, 6400);        /* the end record agrees with the last block */
    fix_end_crc(b, end);
    socmon_recording_info in = load_info(b, len, &n);
    assert_int_equal(n, 12);                      /* the samples load as they are */
    assert_int_equal(in.time_backwards, 2);
    assert_int_equal(in.time_backwards_row, 4);
    assert_int_equal(in.time_backwards_t_ns, 500);
    assert_int_equal(in.time_backwards_prev_ns, 4000);
    assert_false(in.complete);
    assert_int_equal(in.end_mismatch, 0);
    expect_text(in.what, "2 timestamps go backwards (first: sample 4 at 500 ns, after 4000 ns)");
    /* the scan that appending uses sees the same file */
    smn_rec2_scan scan;
    socmon_recording *srec = NULL;
    assert_int_equal(smn_rec2_scan_file(b, len, &scan, &srec), SOCMON_OK);
    socmon_recording_get_info(srec, &in);
    assert_int_equal(in.time_backwards, 2);
    socmon_recording_free(srec);
    free(b);
    unmake(f);
}

/* A v1 file takes any timestamps (its writer never refused one). */
static void test_reader_flags_backwards_v1(void **state)
{
    (void)state;
    fx *f = make();
    socmon_recording *rec = NULL;
    assert_int_equal(socmon_recording_new(f->set, "fake", 1000, &rec), SOCMON_OK);
    static const uint64_t t[] = {10, 20, 15, 30, 30, 5};
    uint64_t v[NC] = {1, 2, 3};
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
        socmon_sample s = {.t_ns = t[i], .flags = 0, .missed = 0, .n = NC, .v = v};
        assert_int_equal(socmon_timeline_append(socmon_recording_timeline(rec), &s), SOCMON_OK);
    }
    uint8_t *buf;
    size_t len, n;
    assert_int_equal(smn_recording_serialize(rec, &buf, &len), SOCMON_OK);
    socmon_recording_free(rec);
    socmon_recording_info in = load_info(buf, len, &n);
    assert_int_equal(in.version, 1);
    assert_int_equal(n, 6);
    assert_int_equal(in.time_backwards, 2); /* 15 after 20, 5 after 30; 30 after 30 is fine */
    assert_int_equal(in.time_backwards_row, 2);
    assert_int_equal(in.time_backwards_t_ns, 15);
    assert_int_equal(in.time_backwards_prev_ns, 20);
    assert_false(in.complete);
    expect_text(in.what, "2 timestamps go backwards (first: sample 2 at 15 ns, after 20 ns)");
    free(buf);
    unmake(f);
}

/* Loads b with the end record's field at off (8 bytes) set to v. */
static socmon_recording_info with_end_field(const uint8_t *orig, size_t len, size_t end, size_t off, uint64_t v)
{
    uint8_t *b = malloc(len);
    assert_non_null(b);
    memcpy(b, orig, len);
    socmon_rec2_put64(b + end + off, v);
    fix_end_crc(b, end);
    size_t n;
    socmon_recording_info in = load_info(b, len, &n);
    free(b);
    assert_int_equal(n, 12); /* the rows are the blocks' */
    return in;
}

static void test_end_record_against_blocks(void **state)
{
    (void)state;
    fx *f = make();
    write_twelve(f);
    size_t len, blocks[8], nb, end, n;
    uint8_t *b = slurp(f, &len, blocks, &nb, &end);
    socmon_recording_info in = load_info(b, len, &n);
    assert_true(in.complete && in.ended);
    assert_int_equal(in.end_mismatch, 0);
    assert_int_equal(in.end_blocks, 3);
    assert_int_equal(in.end_samples, 12);
    assert_int_equal(in.end_last_t_ns, 12000);
    assert_int_equal(in.read_next_index, 12);
    assert_int_equal(in.read_last_t_ns, 12000);

    /* each figure in turn: blocks (more, fewer), samples (fewer), last time */
    in = with_end_field(b, len, end, 24, 4);
    assert_int_equal(in.end_mismatch, SOCMON_REC_END_BLOCKS);
    expect_text(in.what, "damaged: the end record disagrees with the blocks: it says 4 blocks, the file holds 3");
    assert_false(in.complete);
    assert_false(in.samples_lost_known);
    assert_int_equal(in.samples_lost, 0);
    in = with_end_field(b, len, end, 24, 2);
    assert_int_equal(in.end_mismatch, SOCMON_REC_END_BLOCKS);
    in = with_end_field(b, len, end, 8, 11);
    assert_int_equal(in.end_mismatch, SOCMON_REC_END_SAMPLES);
    expect_text(in.what, "it says 11 samples, the blocks hold 12");
    in = with_end_field(b, len, end, 16, 12001);
    assert_int_equal(in.end_mismatch, SOCMON_REC_END_LAST_T);
    expect_text(in.what, "it says the last sample at 12001 ns, the last block's is at 12000 ns");
    assert_int_equal(in.ns_lost, 0);
    /* more samples than the blocks hold, at the same last time: a skip the writer closed after */
    in = with_end_field(b, len, end, 8, 15);
    assert_int_equal(in.end_mismatch, 0);
    assert_int_equal(in.gap_samples, 3);

    /* a damaged middle block: the end record counts it, the reader does not see it, and that is
     * no disagreement; an end record with fewer blocks than were read still is */
    b[blocks[1] + SOCMON_REC2_BLOCK_HDR + 2] ^= 0x40;
    in = load_info(b, len, &n);
    assert_int_equal(n, 8);
    assert_int_equal(in.blocks_lost, 1);
    assert_int_equal(in.end_mismatch, 0);
    assert_true(in.samples_lost_known);
    assert_int_equal(in.samples_lost, 4);
    uint8_t *c = malloc(len);
    assert_non_null(c);
    memcpy(c, b, len);
    socmon_rec2_put64(c + end + 24, 1);
    fix_end_crc(c, end);
    in = load_info(c, len, &n);
    assert_int_equal(in.end_mismatch, SOCMON_REC_END_BLOCKS);
    expect_text(in.what, "it says 1 blocks, the file holds 2 and damaged ones");
    /* the last block damaged: its last time is unknown, so the end record's is not checked */
    memcpy(c, b, len);   /* block 1 is damaged in b already */
    c[blocks[2] + SOCMON_REC2_BLOCK_HDR + 2] ^= 0x40;
    in = load_info(c, len, &n);
    assert_int_equal(n, 4);
    assert_int_equal(in.end_mismatch, 0);
    assert_int_equal(in.samples_lost, 8);
    free(c);
    free(b);
    unmake(f);
}

/* A recorder killed mid-run: one block is the bound, whatever the clock;
 * the flush period (wall-clock time) only where the clock is real. */
static void test_cut_bound(void **state)
{
    (void)state;
    for (int simulated = 1; simulated >= -1; simulated -= 2) {
        fx *f = make();
        uint64_t t[10];
        for (size_t i = 0; i < 10; i++)
            t[i] = 1000000 * (i + 1);
        write_times(f, t, 10, simulated);
        size_t len, blocks[8], nb, end, n;
        uint8_t *b = slurp(f, &len, blocks, &nb, &end);
        /* cut inside block 2: no end record */
        socmon_recording_info in = load_info(b, blocks[2] + 10, &n);
        assert_int_equal(n, 8);
        assert_int_equal(in.block_samples, BLOCK);
        assert_false(in.ended);
        expect_text(in.what, "if the recorder was killed, at most one block (4 samples, 4.000 ms at the recorded "
                             "interval");
        if (simulated > 0 && strstr(in.what, "flush period"))
            fail_msg("a simulated clock's loss bounded by the wall-clock flush period: \"%s\"", in.what);
        if (simulated < 0)
            expect_text(in.what, "4.000 ms at the recorded interval, or the flush period if less)");
        free(b);
        unmake(f);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_writer_refuses_backwards),
        cmocka_unit_test(test_reader_flags_backwards_v2),
        cmocka_unit_test(test_reader_flags_backwards_v1),
        cmocka_unit_test(test_end_record_against_blocks),
        cmocka_unit_test(test_cut_bound),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
