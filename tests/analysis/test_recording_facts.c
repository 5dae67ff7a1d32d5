/* What a recording holds and lost, as the recording source says it (analysis/recording_facts.h,
 * socmon_source_info.lost): nothing for a whole file; a line for a gap the writer recorded, and
 * one for a recorder killed after its last whole block, in the words report prints them
 * (tests/cli/recording_gaps.test.sh, recording_v2.test.sh check them end to end). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis/recording_facts.h"
#include "socmon/analysis.h"
#include "socmon/recording.h"
#include "support/fake.h"

typedef struct fx {
    socmon_device *dev;
    socmon_set *set;
    char dir[64], path[128], cut[128];
} fx;

static int setup(void **state)
{
    fx *f = calloc(1, sizeof *f);
    assert_non_null(f);
    assert_int_equal(socmon_device_new("factsdev", &fake_index_ops, NULL, &f->dev), SOCMON_OK);
    for (int j = 0; j < 2; j++) {
        socmon_counter c = {.name = j ? "b" : "a", .instance = "", .desc = "a counter", .unit = "events", .width = 32, .reg = 0x100 + 4 * (uint32_t)j, .reg_hi = 0, .max_rate_hz = 1e6};
        assert_int_equal(socmon_device_add_counter(f->dev, &c, NULL), SOCMON_OK);
    }
    assert_int_equal(socmon_set_new(f->dev, NULL, &f->set), SOCMON_OK);
    strcpy(f->dir, "/tmp/socmon-facts-XXXXXX");
    assert_non_null(mkdtemp(f->dir));
    snprintf(f->path, sizeof f->path, "%s/a.rec", f->dir);
    snprintf(f->cut, sizeof f->cut, "%s/cut.rec", f->dir);
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    fx *f = *state;
    unlink(f->path), unlink(f->cut), rmdir(f->dir);
    socmon_set_free(f->set);
    socmon_device_free(f->dev);
    free(f);
    return 0;
}

/* A simulated recording at a 1 us interval: samples [0, n) stamped i us, with samples
 * [skip_from, skip_to) never received (a gap); with cut_at, a copy of the file as it was after
 * the block of its first cut_at samples (the recorder killed there) goes to f->cut. */
static void write_rec(fx *f, int n, int skip_from, int skip_to, int cut_at)
{
    int fd = open(f->path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    assert_true(fd >= 0);
    socmon_recwriter_opts o = {.block_samples = 16, .flush_ns = 1000000000, .simulated = 1};
    socmon_recwriter *w = NULL;
    assert_int_equal(socmon_recwriter_open(fd, f->set, "fake", 1000, &o, &w), SOCMON_OK);
    uint64_t v[2];
    socmon_sample s = {.t_ns = 0, .flags = 0, .missed = 0, .n = 2, .v = v};
    for (int i = 0; i < n; i++) {
        if (i == skip_from && skip_to > skip_from) {
            assert_int_equal(socmon_recwriter_skip_to(w, (uint64_t)skip_to), SOCMON_OK);
            i = skip_to;
        }
        s.t_ns = 1000u * (uint64_t)i, v[0] = 10u * (uint64_t)i, v[1] = 3u * (uint64_t)i;
        assert_int_equal(socmon_recwriter_append(w, &s), SOCMON_OK);
        if (i + 1 == cut_at) {
            assert_int_equal(socmon_recwriter_flush(w), SOCMON_OK);
            char cmd[300];
            snprintf(cmd, sizeof cmd, "cp '%s' '%s'", f->path, f->cut);
            assert_int_equal(system(cmd), 0);
        }
    }
    assert_int_equal(socmon_recwriter_close(w), SOCMON_OK);
    assert_int_equal(close(fd), 0);
}

/* The recording source's loss lines of the file at path, each without its newline. */
static void lost_of(const char *path, char out[][400], size_t *n)
{
    socmon_recording *rec = NULL;
    socmon_source *src = NULL;
    assert_int_equal(socmon_recording_load(path, &rec), SOCMON_OK);
    assert_int_equal(socmon_source_recording(rec, &src), SOCMON_OK);
    const char *p = socmon_source_info_of(src)->lost, *nl;
    assert_non_null(p);
    for (*n = 0; (nl = strchr(p, '\n')) != NULL; p = nl + 1, ++*n) {
        assert_true(*n < 4 && nl - p < 400);
        snprintf(out[*n], 400, "%.*s", (int)(nl - p), p);
    }
    assert_string_equal(p, ""); /* every line ends in a newline */
    socmon_source_close(src);
    socmon_recording_free(rec);
}

static void whole_file_lost_nothing(void **state)
{
    fx *f = *state;
    write_rec(f, 10, 0, 0, 0);
    char lines[4][400];
    size_t n = 9;
    lost_of(f->path, lines, &n);
    assert_int_equal(n, 0);
    socmon_recording *rec = NULL;
    assert_int_equal(socmon_recording_load(f->path, &rec), SOCMON_OK);
    smn_file_facts ff;
    smn_recording_facts(rec, "a.rec", &ff);
    assert_string_equal(ff.file, "a.rec");
    assert_int_equal(ff.samples, 10);
    assert_int_equal(ff.counters, 2);
    assert_int_equal(ff.info.version, 2);
    assert_true(ff.info.complete);
    assert_string_equal(ff.clock, "simulated");
    assert_true(ff.bytes_per_value > 0);
    assert_true(ff.bytes_per_value == (double)ff.info.file_bytes / 20.0);
    socmon_recording_free(rec);
}

static void gap_is_one_line(void **state)
{
    fx *f = *state;
    /* samples 5, 6, 7 never reached the recorder: the 4 us from sample 4 to sample 8 are lost */
    write_rec(f, 10, 5, 8, 0);
    char lines[4][400];
    size_t n = 0;
    lost_of(f->path, lines, &n);
    assert_int_equal(n, 1);
    assert_string_equal(lines[0], "1 gap in the recording: 3 samples (4.000 us) the recorder never received; it is "
                                  "between 4.000 us and 8.000 us; the row after a gap is flagged missed=N");
}

static void killed_recorder_is_cut_short(void **state)
{
    fx *f = *state;
    write_rec(f, 10, 0, 0, 4); /* the copy holds one block of 4 samples and no end record */
    char lines[4][400];
    size_t n = 0;
    lost_of(f->cut, lines, &n);
    assert_int_equal(n, 1);
    /* simulated time: the wall-clock flush period bounds nothing, one block does */
    assert_string_equal(lines[0], "recording cut short (recorder killed?): read 4 samples to 3.000 us; at most one "
                                  "block (16 samples, 16.000 us at the 1.000 us interval) after that is missing");
    socmon_recording *rec = NULL;
    assert_int_equal(socmon_recording_load(f->cut, &rec), SOCMON_OK);
    smn_file_facts ff;
    smn_recording_facts(rec, "cut.rec", &ff);
    assert_false(ff.info.complete);
    assert_int_equal(ff.samples, 4);
    assert_non_null(strstr(ff.info.what, "cut short"));
    socmon_recording_free(rec);
}

/* A buffer too small for the line still holds a line: cut, ending in its newline. */
static void small_buffer_cuts(void **state)
{
    fx *f = *state;
    write_rec(f, 10, 5, 8, 0);
    socmon_recording *rec = NULL;
    assert_int_equal(socmon_recording_load(f->path, &rec), SOCMON_OK);
    char buf[12];
    memset(buf, 'x', sizeof buf);
    smn_recording_loss(rec, buf, sizeof buf);
    assert_string_equal(buf, "1 gap in t\n");
    smn_recording_loss(rec, buf, 1);
    assert_string_equal(buf, "");
    socmon_recording_free(rec);
}

/* --stats names the attachments (not "a program's profile" for a workload's phases or a remote
 * recording's seq base), escaped since they come from the file, and a list too long for its
 * buffer ends in ", ..." with every attachment's bytes still counted. */
static void attachment_names(void **state)
{
    fx *f = *state;
    for (int many = 0; many < 2; many++) {
        int fd = open(f->path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
        assert_true(fd >= 0);
        socmon_recwriter_opts o = {.block_samples = 16, .flush_ns = 1000000000, .simulated = 1};
        socmon_recwriter *w = NULL;
        assert_int_equal(socmon_recwriter_open(fd, f->set, "fake", 1000, &o, &w), SOCMON_OK);
        uint64_t v[2] = {1, 2};
        socmon_sample s = {.t_ns = 0, .n = 2, .v = v};
        assert_int_equal(socmon_recwriter_append(w, &s), SOCMON_OK);
        assert_int_equal(socmon_recwriter_attach(w, "phases", "0 1 a\n", 6), SOCMON_OK);
        assert_int_equal(socmon_recwriter_attach(w, "red\x1b[31m", "x", 1), SOCMON_OK);
        for (int i = 0; many && i < 14; i++) {   /* 16 in all, the most a file holds */
            char name[32];
            snprintf(name, sizeof name, "attachment_%02d", i);
            assert_int_equal(socmon_recwriter_attach(w, name, "y", 1), SOCMON_OK);
        }
        assert_int_equal(socmon_recwriter_close(w), SOCMON_OK);
        assert_int_equal(close(fd), 0);
        socmon_recording *rec = NULL;
        assert_int_equal(socmon_recording_load(f->path, &rec), SOCMON_OK);
        smn_file_facts ff;
        smn_recording_facts(rec, "a.rec", &ff);
        uint64_t bytes = 0, fb = 0;
        for (size_t i = 0; socmon_recording_attachment_at(rec, i, NULL, &fb); i++)
            bytes += fb;
        assert_int_equal(ff.attachments, many ? 16 : 2);
        assert_int_equal(ff.attachment_bytes, bytes);
        assert_true(bytes > 0);
        if (!many) {
            assert_string_equal(ff.attachment_names, "phases, red\\x1b[31m");
        } else {
            size_t n = strlen(ff.attachment_names);
            assert_true(n < sizeof ff.attachment_names);
            assert_true(n > 6 && strcmp(ff.attachment_names + n - 5, ", ...") == 0);
            const char *head = "phases, red\\x1b[31m, attachment_00, ";
            assert_true(strncmp(ff.attachment_names, head, strlen(head)) == 0);
        }
        socmon_recording_free(rec);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(whole_file_lost_nothing, setup, teardown),
        cmocka_unit_test_setup_teardown(gap_is_one_line, setup, teardown),
        cmocka_unit_test_setup_teardown(killed_recorder_is_cut_short, setup, teardown),
        cmocka_unit_test_setup_teardown(small_buffer_cuts, setup, teardown),
        cmocka_unit_test_setup_teardown(attachment_names, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
