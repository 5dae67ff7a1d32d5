/* Recording gaps and append (socmon_recwriter_skip_to, _next_index, _reopen):
 * a skip is read back as lost samples with the next sample flagged missed and
 * counted as a gap, not as damage; a closed file reopened and continued loads
 * as the one recording a single writer would have made; so does a file cut at
 * every byte of its last block (a killed writer) or of its end record; a
 * schema that differs is refused naming the first difference; a v1 file, a
 * damaged header and descriptors that cannot be read back are refused. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "socmon/recording.h"
#include "recording/recording_internal.h"
#include "recording/recording_v2.h"
#include "support/fake.h"

#define NC 6

typedef struct fx {
    socmon_device *dev;
    socmon_set *set;
    char dir[64], path[128];
} fx;

/* A device of NC counters c0..c5 (widths 8, 16, 32, 48, 64, 12) with a clock
 * parameter; width_of_c2 and clock let a test build a differing schema. */
static socmon_set *make_set(socmon_device **dev, unsigned width_of_c2, double clock, const char *unit_of_c4)
{
    static const unsigned w[NC] = {8, 16, 32, 48, 64, 12};
    assert_int_equal(socmon_device_new("appdev", &fake_index_ops, NULL, dev), SOCMON_OK);
    for (size_t j = 0; j < NC; j++) {
        char name[16];
        snprintf(name, sizeof name, "c%zu", j);
        socmon_counter c = {.name = name, .instance = j % 2 ? "tile1" : "", .desc = "a counter",
            .unit = j == 4 ? unit_of_c4 : "events",
                            .width = j == 2 ? width_of_c2 : w[j], .reg = 0x100 + 4 * j, .reg_hi = 0, .max_rate_hz = 1e6};
        assert_int_equal(socmon_device_add_counter(*dev, &c, NULL), SOCMON_OK);
    }
    assert_int_equal(socmon_device_set_param(*dev, "clock_hz", clock), SOCMON_OK);
    socmon_set *set = NULL;
    assert_int_equal(socmon_set_new(*dev, NULL, &set), SOCMON_OK);
    return set;
}

static fx *setup(void)
{
    fx *f = calloc(1, sizeof *f);
    assert_non_null(f);
    f->set = make_set(&f->dev, 32, 78e6, "events");
    strcpy(f->dir, "/tmp/socmon-append-XXXXXX");
    assert_non_null(mkdtemp(f->dir));
    snprintf(f->path, sizeof f->path, "%s/a.rec", f->dir);
    return f;
}

static void teardown(fx *f)
{
    unlink(f->path);
    rmdir(f->dir);
    socmon_set_free(f->set);
    socmon_device_free(f->dev);
    free(f);
}

/* Sample number i of a deterministic run (its index in the recording):
 * counters moving at different rates and wrapping, flags now and then. */
static void sample_at(uint64_t i, socmon_sample *s)
{
    static const uint64_t mask[NC] = {0xff, 0xffff, 0xffffffffu, 0xffffffffffffu, UINT64_MAX, 0xfff};
    s->t_ns = 1000 + i * 1000 + (i % 3) * 7;
    for (size_t j = 0; j < NC; j++)
        s->v[j] = (i * (j * 37 + 3) + i * i * (j == 4)) & mask[j];
    s->flags = i % 13 == 5 ? SOCMON_SAMPLE_UNDEF : 0;
    s->missed = 0;
}

static socmon_recwriter *open_new(fx *f, int *fd, uint32_t block_samples)
{
    *fd = open(f->path, O_RDWR | O_CREAT | O_TRUNC, 0644);
    assert_true(*fd >= 0);
    socmon_recwriter_opts o = {.block_samples = block_samples, .flush_ns = 1000000, .simulated = 1};
    socmon_recwriter *w = NULL;
    assert_int_equal(socmon_recwriter_open(*fd, f->set, "fake:x=1", 1000, &o, &w), SOCMON_OK);
    return w;
}

static socmon_recwriter *reopen(fx *f, int *fd)
{
    *fd = open(f->path, O_RDWR);
    assert_true(*fd >= 0);
    socmon_recwriter_opts o = {.simulated = 1};
    socmon_recwriter *w = NULL;
    socmon_status st = socmon_recwriter_reopen(*fd, f->set, "fake:x=1", 1000, &o, &w);
    if (st != SOCMON_OK)
        fail_msg("reopen: %s", socmon_errmsg());
    return w;
}

/* Appends the samples of indices [from, to). */
static void append_range(socmon_recwriter *w, uint64_t from, uint64_t to)
{
    uint64_t v[NC];
    socmon_sample s = {.t_ns = 0, .flags = 0, .missed = 0, .n = NC, .v = v};
    for (uint64_t i = from; i < to; i++) {
        assert_int_equal(socmon_recwriter_next_index(w), i);
        sample_at(i, &s);
        assert_int_equal(socmon_recwriter_append(w, &s), SOCMON_OK);
    }
}

static void close_writer(socmon_recwriter *w, int fd)
{
    assert_int_equal(socmon_recwriter_close(w), SOCMON_OK);
    assert_int_equal(close(fd), 0);
}

/* Checks the file holds the samples of indices [0, total) except those in
 * the gaps [gap_from[k], gap_to[k]); the first sample after a gap flagged
 * missed with its size. */
static socmon_recording *check_file(const fx *f, uint64_t total, size_t ngaps, const uint64_t *gap_from,
                                    const uint64_t *gap_to)
{
    socmon_recording *rec = NULL;
    if (socmon_recording_load(f->path, &rec) != SOCMON_OK)
        fail_msg("load: %s", socmon_errmsg());
    socmon_timeline *tl = socmon_recording_timeline(rec);
    uint64_t v[NC], e[NC];
    socmon_sample got = {.t_ns = 0, .flags = 0, .missed = 0, .n = NC,
        .v = v}, want = {0, 0, 0, NC, e};
    size_t row = 0, g = 0;
    for (uint64_t i = 0; i < total; i++) {
        uint32_t missed = 0;
        if (g < ngaps && i == gap_from[g]) {
            missed = (uint32_t)(gap_to[g] - gap_from[g]);
            i = gap_to[g++];
            if (i >= total)
                break;
        }
        sample_at(i, &want);
        assert_int_equal(socmon_timeline_get(tl, row++, &got), SOCMON_OK);
        assert_int_equal(got.t_ns, want.t_ns);
        assert_memory_equal(v, e, sizeof v);
        assert_int_equal(got.flags, want.flags | (missed ? SOCMON_SAMPLE_MISSED : 0));
        assert_int_equal(got.missed, missed);
    }
    assert_int_equal(socmon_timeline_len(tl), row);
    return rec;
}

static void test_skip_to(void **state)
{
    (void)state;
    fx *f = setup();
    int fd;
    socmon_recwriter *w = open_new(f, &fd, 8);
    append_range(w, 0, 10);
    assert_int_equal(socmon_recwriter_skip_to(w, 9), SOCMON_ERANGE); /* cannot go back */
    assert_non_null(strstr(socmon_errmsg(), "index 9 is below the next index 10"));
    assert_int_equal(socmon_recwriter_skip_to(w, 10), SOCMON_OK);    /* no gap */
    assert_int_equal(socmon_recwriter_skip_to(w, 15), SOCMON_OK);
    assert_int_equal(socmon_recwriter_skip_to(w, 17), SOCMON_OK);    /* two skips make one gap */
    assert_int_equal(socmon_recwriter_next_index(w), 17);
    append_range(w, 17, 30);
    assert_int_equal(socmon_recwriter_skip_to(w, 31), SOCMON_OK);
    append_range(w, 31, 33);
    assert_int_equal(socmon_recwriter_skip_to(w, 40), SOCMON_OK);    /* a skip at the end */
    socmon_recwriter_stats ws;
    socmon_recwriter_get_stats(w, &ws);
    assert_int_equal(ws.samples, 25);
    close_writer(w, fd);

    const uint64_t from[] = {10, 30, 33}, to[] = {17, 31, 40};
    socmon_recording *rec = check_file(f, 40, 3, from, to);
    socmon_recording_info in;
    socmon_recording_get_info(rec, &in);
    assert_false(in.complete); /* samples are missing from the run */
    assert_int_equal(in.blocks_lost, 0);
    assert_int_equal(in.bytes_lost, 0);
    assert_int_equal(in.samples_lost, 7 + 1 + 7);
    assert_true(in.samples_lost_known);
    assert_int_equal(in.gaps, 3);
    assert_int_equal(in.gap_samples, 15);
    uint64_t v[NC];
    socmon_sample a = {.t_ns = 0, .flags = 0, .missed = 0, .n = NC, .v = v};
    sample_at(9, &a);
    uint64_t t9 = a.t_ns;
    sample_at(17, &a);
    uint64_t ns = a.t_ns - t9;
    sample_at(29, &a);
    t9 = a.t_ns;
    sample_at(31, &a);
    ns += a.t_ns - t9;
    assert_int_equal(in.gap_ns, ns);       /* the trailing skip spans no known time */
    assert_int_equal(in.ns_lost, ns);
    assert_int_equal(in.gap_first_row, 10); /* sample 17 is row 10 */
    assert_non_null(strstr(in.what, "3 gaps in the recording: 15 samples"));
    assert_null(strstr(in.what, "damaged"));
    socmon_recording_free(rec);

    /* a skip before the first sample: the first sample says so */
    w = open_new(f, &fd, 8);
    assert_int_equal(socmon_recwriter_skip_to(w, 5), SOCMON_OK);
    append_range(w, 5, 9);
    close_writer(w, fd);
    const uint64_t f2[] = {0}, t2[] = {5};
    rec = check_file(f, 9, 1, f2, t2);
    socmon_recording_get_info(rec, &in);
    assert_int_equal(in.gaps, 1);
    assert_int_equal(in.gap_samples, 5);
    assert_int_equal(in.gap_ns, 0);
    assert_int_equal(in.gap_first_row, 0);
    socmon_recording_free(rec);
    assert_int_equal(socmon_recwriter_skip_to(NULL, 1), SOCMON_EINVAL);
    assert_int_equal(socmon_recwriter_next_index(NULL), 0);
    teardown(f);
}

/* Damage is not a gap: a block damaged in the middle counts as lost, not as
 * a gap, even next to a real gap. */
static void test_gap_and_damage_told_apart(void **state)
{
    (void)state;
    fx *f = setup();
    int fd;
    socmon_recwriter *w = open_new(f, &fd, 4);
    append_range(w, 0, 8);  /* blocks of 0..3, 4..7 */
    assert_int_equal(socmon_recwriter_skip_to(w, 10), SOCMON_OK);
    append_range(w, 10, 14); /* block 10..13 */
    close_writer(w, fd);
    /* damage the payload of the second block (samples 4..7) */
    FILE *fp = fopen(f->path, "r+b");
    assert_non_null(fp);
    uint8_t buf[4096];
    size_t len = fread(buf, 1, sizeof buf, fp);
    size_t pos = SOCMON_REC2_FIXED_HDR + (size_t)socmon_rec2_get(buf + 12, 4) + 4;
    pos += SOCMON_REC2_BLOCK_HDR + (size_t)socmon_rec2_get(buf + pos + 28, 4);
    assert_true(pos + SOCMON_REC2_BLOCK_HDR + 2 < len);
    buf[pos + SOCMON_REC2_BLOCK_HDR + 1] ^= 0x40;
    assert_int_equal(fseek(fp, 0, SEEK_SET), 0);
    assert_int_equal(fwrite(buf, 1, len, fp), len);
    fclose(fp);
    socmon_recording *rec = NULL;
    assert_int_equal(socmon_recording_load(f->path, &rec), SOCMON_OK);
    socmon_recording_info in;
    socmon_recording_get_info(rec, &in);
    assert_int_equal(in.blocks_lost, 1);
    assert_int_equal(in.samples_lost, 6); /* 4..9: a damaged block and the gap after it are one loss */
    assert_int_equal(in.gaps, 0);         /* the reader cannot tell the gap from the damage: damage */
    assert_non_null(strstr(in.what, "1 damaged block"));
    socmon_recording_free(rec);

    /* appending keeps the damaged block where it is: the reader still skips it */
    w = reopen(f, &fd);
    assert_int_equal(socmon_recwriter_next_index(w), 14);
    append_range(w, 14, 20);
    close_writer(w, fd);
    assert_int_equal(socmon_recording_load(f->path, &rec), SOCMON_OK);
    socmon_recording_get_info(rec, &in);
    assert_int_equal(in.blocks_lost, 1);
    assert_int_equal(in.samples_lost, 6);
    assert_int_equal(socmon_timeline_len(socmon_recording_timeline(rec)), 4 + 4 + 6);
    uint64_t v[NC];
    socmon_sample got = {.t_ns = 0, .flags = 0, .missed = 0, .n = NC,
        .v = v}, want = {0, 0, 0, NC, (uint64_t[NC]){0}};
    assert_int_equal(socmon_timeline_get(socmon_recording_timeline(rec), 13, &got), SOCMON_OK);
    sample_at(19, &want);
    assert_int_equal(got.t_ns, want.t_ns);
    assert_memory_equal(got.v, want.v, sizeof v);
    socmon_recording_free(rec);
    teardown(f);
}

static void test_reopen_after_close(void **state)
{
    (void)state;
    fx *f = setup();
    int fd;
    socmon_recwriter *w = open_new(f, &fd, 8);
    append_range(w, 0, 21);
    close_writer(w, fd);
    w = reopen(f, &fd);
    assert_int_equal(socmon_recwriter_next_index(w), 21);
    socmon_recwriter_stats ws;
    socmon_recwriter_get_stats(w, &ws);
    assert_int_equal(ws.samples, 21);
    assert_int_equal(ws.blocks, 3);
    append_range(w, 21, 30);
    close_writer(w, fd);
    /* and again, with a gap at the seam */
    w = reopen(f, &fd);
    assert_int_equal(socmon_recwriter_skip_to(w, 35), SOCMON_OK);
    append_range(w, 35, 50);
    close_writer(w, fd);
    const uint64_t from[] = {30}, to[] = {35};
    socmon_recording *rec = check_file(f, 50, 1, from, to);
    socmon_recording_info in;
    socmon_recording_get_info(rec, &in);
    assert_int_equal(in.blocks_lost, 0);
    assert_int_equal(in.bytes_lost, 0);
    assert_int_equal(in.gaps, 1);
    assert_int_equal(in.samples_lost, 5);
    assert_true(in.clock_known && in.simulated);
    socmon_recording_free(rec);

    /* reopened and closed with nothing appended: the file is the same recording */
    w = reopen(f, &fd);
    close_writer(w, fd);
    rec = check_file(f, 50, 1, from, to);
    socmon_recording_free(rec);
    teardown(f);
}

/* A writer killed while writing its last block (or its end record): the file
 * cut at every byte from the last block's start to its end reopens, the
 * half-written part is cut off, and continuing from next_index gives the
 * whole recording with nothing lost. */
static void test_reopen_after_cut_at_every_byte(void **state)
{
    (void)state;
    fx *f = setup();
    int fd;
    socmon_recwriter *w = open_new(f, &fd, 8);
    append_range(w, 0, 20); /* blocks 0..7, 8..15, 16..19 at close */
    close_writer(w, fd);
    FILE *fp = fopen(f->path, "rb");
    assert_non_null(fp);
    static uint8_t full[8192];
    size_t len = fread(full, 1, sizeof full, fp);
    fclose(fp);
    assert_true(len < sizeof full);
    /* the last block starts after the header and two blocks */
    size_t pos = SOCMON_REC2_FIXED_HDR + (size_t)socmon_rec2_get(full + 12, 4) + 4, last = 0;
    for (int b = 0; b < 2; b++)
        pos += SOCMON_REC2_BLOCK_HDR + (size_t)socmon_rec2_get(full + pos + 28, 4);
    last = pos;
    assert_true(len - last > SOCMON_REC2_BLOCK_HDR + SOCMON_REC2_END_LEN);
    for (size_t k = 0; k < 2 * (len - last + 1); k++) {
        /* each cut twice: continued to 33 samples, and closed at once (the
         * cut-off bytes must not linger after the new end record) */
        size_t cut = last + k / 2;
        uint64_t total = k % 2 ? 0 : 33;
        fd = open(f->path, O_WRONLY | O_TRUNC);
        assert_true(fd >= 0);
        assert_int_equal(write(fd, full, cut), (ssize_t)cut);
        close(fd);
        w = reopen(f, &fd);
        uint64_t next = socmon_recwriter_next_index(w);
        /* cut inside the last block: it is gone; in the end record: all 20 stay */
        assert_int_equal(next, cut < len - SOCMON_REC2_END_LEN ? 16 : 20);
        if (!total)
            total = next;
        append_range(w, next, total);
        close_writer(w, fd);
        socmon_recording *rec = check_file(f, total, 0, NULL, NULL);
        socmon_recording_info in;
        socmon_recording_get_info(rec, &in);
        if (!in.complete)
            fail_msg("cut at %zu of %zu: %s", cut, len, in.what);
        socmon_recording_free(rec);
    }
    teardown(f);
}

static void expect_refused(fx *f, const socmon_set *set, const char *target, uint64_t interval, int sim,
                           socmon_status want, const char *msg)
{
    int fd = open(f->path, O_RDWR);
    assert_true(fd >= 0);
    struct stat before, after;
    assert_int_equal(fstat(fd, &before), 0);
    socmon_recwriter_opts o = {.simulated = sim};
    socmon_recwriter *w = (socmon_recwriter *)&o;
    assert_int_equal(socmon_recwriter_reopen(fd, set, target, interval, &o, &w), want);
    assert_null(w);
    if (!strstr(socmon_errmsg(), msg))
        fail_msg("expected '%s' in: %s", msg, socmon_errmsg());
    assert_int_equal(fstat(fd, &after), 0);
    assert_int_equal(after.st_size, before.st_size); /* a refused file is left alone */
    close(fd);
}

static void test_reopen_refuses_other_schema(void **state)
{
    (void)state;
    fx *f = setup();
    int fd;
    socmon_recwriter *w = open_new(f, &fd, 8);
    append_range(w, 0, 5);
    close_writer(w, fd);

    expect_refused(f, f->set, "fake:x=2", 1000, 0, SOCMON_EINVAL,
                   "schema differs: target is 'fake:x=1' in the file, 'fake:x=2' now");
    expect_refused(f, f->set, "fake:x=1", 2000, 0, SOCMON_EINVAL,
                   "schema differs: interval is 1000 ns in the file, 2000 ns now");
    expect_refused(f, f->set, "fake:x=1", 1000, -1, SOCMON_EINVAL,
                   "the file's timestamps are a model's simulated time, the writer's a real clock");
    socmon_device *dev = NULL;
    socmon_set *set = make_set(&dev, 24, 78e6, "events");
    expect_refused(f, set, "fake:x=1", 1000, 0, SOCMON_EINVAL, "counter 2 (c2): width is 32 bits in the file, 24 bits now");
    socmon_set_free(set);
    socmon_device_free(dev);
    set = make_set(&dev, 32, 100e6, "events");
    expect_refused(f, set, "fake:x=1", 1000, 0, SOCMON_EINVAL, "parameter clock_hz is 78000000 in the file, 100000000 now");
    socmon_set_free(set);
    socmon_device_free(dev);
    set = make_set(&dev, 32, 78e6, "bytes");
    expect_refused(f, set, "fake:x=1", 1000, 0, SOCMON_EINVAL, "counter 4 (c4): unit is 'events' in the file, 'bytes' now");
    socmon_set_free(set);
    socmon_device_free(dev);
    /* fewer counters */
    assert_int_equal(socmon_device_new("appdev", &fake_index_ops, NULL, &dev), SOCMON_OK);
    socmon_counter c = {.name = "c0", .instance = "", .desc = "a counter", .unit = "events",
        .width = 8, .reg = 0x100, .reg_hi = 0, .max_rate_hz = 1e6};
    assert_int_equal(socmon_device_add_counter(dev, &c, NULL), SOCMON_OK);
    assert_int_equal(socmon_device_set_param(dev, "clock_hz", 78e6), SOCMON_OK);
    assert_int_equal(socmon_set_new(dev, NULL, &set), SOCMON_OK);
    expect_refused(f, set, "fake:x=1", 1000, 0, SOCMON_EINVAL, "the file has 6 counters, the set 1 (first extra: c1)");
    socmon_set_free(set);
    socmon_device_free(dev);

    /* a damaged header */
    FILE *fp = fopen(f->path, "r+b");
    assert_non_null(fp);
    assert_int_equal(fseek(fp, 30, SEEK_SET), 0);
    int ch = fgetc(fp);
    assert_int_equal(fseek(fp, 30, SEEK_SET), 0);
    fputc(ch ^ 1, fp);
    fclose(fp);
    expect_refused(f, f->set, "fake:x=1", 1000, 0, SOCMON_EPARSE, "header checksum mismatch");
    teardown(f);
}

static void test_reopen_refuses_v1_and_bad_fds(void **state)
{
    (void)state;
    fx *f = setup();
    /* a v1 file (the fixture written by an older socmon) */
    char src[512];
    snprintf(src, sizeof src, "%s/tests/core/fixtures/zynq_v1.rec", getenv("SOCMON_SRC") ? getenv("SOCMON_SRC") : ".");
    FILE *in = fopen(src, "rb"), *out = fopen(f->path, "wb");
    assert_non_null(in);
    assert_non_null(out);
    uint8_t buf[1 << 16];
    size_t n = fread(buf, 1, sizeof buf, in);
    assert_int_equal(fwrite(buf, 1, n, out), n);
    fclose(in);
    fclose(out);
    expect_refused(f, f->set, "zynq", 1000000, 0, SOCMON_EINVAL, "format version 1: only version 2 recordings");

    /* not a recording at all; too short */
    out = fopen(f->path, "wb");
    fputs("hello, this is not a recording", out);
    fclose(out);
    expect_refused(f, f->set, "fake:x=1", 1000, 0, SOCMON_EPARSE, "not a socmon recording");
    out = fopen(f->path, "wb");
    fclose(out);
    expect_refused(f, f->set, "fake:x=1", 1000, 0, SOCMON_EPARSE, "0 bytes: too short");

    /* write-only, a pipe, a closed descriptor */
    socmon_recwriter *w = NULL;
    int fd = open(f->path, O_WRONLY);
    assert_int_equal(socmon_recwriter_reopen(fd, f->set, "fake:x=1", 1000, NULL, &w), SOCMON_EINVAL);
    assert_non_null(strstr(socmon_errmsg(), "must be open for reading and writing"));
    close(fd);
    int p[2];
    assert_int_equal(pipe(p), 0);
    assert_int_equal(socmon_recwriter_reopen(p[1], f->set, "fake:x=1", 1000, NULL, &w), SOCMON_EINVAL);
    assert_non_null(strstr(socmon_errmsg(), "is not a regular file"));
    close(p[0]);
    close(p[1]);
    assert_int_equal(socmon_recwriter_reopen(p[1], f->set, "fake:x=1", 1000, NULL, &w), SOCMON_EINVAL);
    assert_int_equal(socmon_recwriter_reopen(-1, f->set, "fake:x=1", 1000, NULL, NULL), SOCMON_EINVAL);
    assert_int_equal(socmon_recwriter_reopen(-1, NULL, "fake:x=1", 1000, NULL, &w), SOCMON_EINVAL);
    assert_null(w);
    teardown(f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_skip_to),
        cmocka_unit_test(test_gap_and_damage_told_apart),
        cmocka_unit_test(test_reopen_after_close),
        cmocka_unit_test(test_reopen_after_cut_at_every_byte),
        cmocka_unit_test(test_reopen_refuses_other_schema),
        cmocka_unit_test(test_reopen_refuses_v1_and_bad_fds),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
