/* Recording attachments (socmon_recwriter_attach, socmon_recording_attachment; the record of
 * docs/recording-format.md, "Attachments"): written between blocks and at the end they read back
 * byte for byte with the samples around them intact; a reopened file keeps them; a damaged
 * payload or header is damage (not complete, the attachment missing, the samples all there);
 * a second one of a name, a name too long or empty, and a NULL argument are refused; a large one is
 * compressed at zstd level 1 unless the writer was given a level. */
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

#include <zstd.h>

#include "socmon/recording.h"
#include "support/fake.h"

static socmon_device *dev;
static socmon_set *set;
static char path[] = "/tmp/socmon-attach-XXXXXX";

static int setup(void **state)
{
    (void)state;
    if (socmon_device_new("attdev", &fake_index_ops, NULL, &dev) != SOCMON_OK)
        return -1;
    socmon_counter c = {.name = "c0", .instance = "", .desc = "d", .unit = "events", .width = 32, .reg = 0x100};
    if (socmon_device_add_counter(dev, &c, NULL) != SOCMON_OK || socmon_set_new(dev, NULL, &set) != SOCMON_OK)
        return -1;
    int fd = mkstemp(path);
    if (fd < 0)
        return -1;
    close(fd);
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    unlink(path);
    socmon_set_free(set);
    socmon_device_free(dev);
    return 0;
}

/* 30 samples, "notes" after the 10th, "profile" (big, compressible) at the end. */
static void write_file(int reopen_more)
{
    int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
    assert_true(fd >= 0);
    socmon_recwriter_opts o = {.size = sizeof o, .block_samples = 8, .level = 1};
    socmon_recwriter *w = NULL;
    assert_int_equal(socmon_recwriter_open(fd, set, "fake", 1000, &o, &w), SOCMON_OK);
    uint64_t v[1];
    socmon_sample s = {.n = 1, .v = v};
    char *big = malloc(200000);
    assert_non_null(big);
    for (size_t i = 0; i < 200000; i++)
        big[i] = (char)('a' + i % 7);
    for (uint64_t i = 0; i < 30; i++) {
        s.t_ns = 1000 * (i + 1);
        v[0] = i * 3;
        if (i == 10)
            assert_int_equal(socmon_recwriter_attach(w, "notes", "between blocks", 14), SOCMON_OK);
        assert_int_equal(socmon_recwriter_append(w, &s), SOCMON_OK);
    }
    assert_int_equal(socmon_recwriter_attach(w, "profile", big, 200000), SOCMON_OK);
    assert_int_equal(socmon_recwriter_close(w), SOCMON_OK);
    close(fd);
    if (reopen_more) {
        fd = open(path, O_RDWR);
        assert_int_equal(socmon_recwriter_reopen(fd, set, "fake", 1000, &o, &w), SOCMON_OK);
        for (uint64_t i = 30; i < 40; i++) {
            s.t_ns = 1000 * (i + 1);
            v[0] = i * 3;
            assert_int_equal(socmon_recwriter_append(w, &s), SOCMON_OK);
        }
        assert_int_equal(socmon_recwriter_close(w), SOCMON_OK);
        close(fd);
    }
    free(big);
}

static void check(socmon_recording *rec, size_t samples, int complete, int with_profile)
{
    socmon_recording_info in;
    socmon_recording_get_info(rec, &in);
    assert_int_equal(socmon_timeline_len(socmon_recording_timeline(rec)), samples);
    assert_int_equal(in.complete, complete);
    const void *d;
    size_t len;
    assert_int_equal(socmon_recording_attachment(rec, "notes", &d, &len), SOCMON_OK);
    assert_int_equal(len, 14);
    assert_memory_equal(d, "between blocks", 14);
    socmon_status st = socmon_recording_attachment(rec, "profile", &d, &len);
    if (with_profile) {
        assert_int_equal(st, SOCMON_OK);
        assert_int_equal(len, 200000);
        for (size_t i = 0; i < len; i++)
            if (((const char *)d)[i] != (char)('a' + i % 7))
                fail_msg("byte %zu differs", i);
    } else {
        assert_int_equal(st, SOCMON_ENOENT);
    }
    assert_int_equal(socmon_recording_attachment(rec, "other", &d, &len), SOCMON_ENOENT);
    assert_int_equal(socmon_recording_nattachments(rec), with_profile ? 2 : 1);
    uint64_t fb = 0;
    assert_string_equal(socmon_recording_attachment_at(rec, 0, &len, &fb), "notes");
    assert_true(fb > 14 + 28);
    assert_null(socmon_recording_attachment_at(rec, 2, &len, &fb));
}

static void round_trip(void **state)
{
    (void)state;
    write_file(0);
    socmon_recording *rec = NULL;
    assert_int_equal(socmon_recording_load(path, &rec), SOCMON_OK);
    check(rec, 30, 1, 1);
    socmon_timeline *tl = socmon_recording_timeline(rec);
    uint64_t v[1];
    socmon_sample s = {.n = 1, .v = v};
    for (size_t i = 0; i < 30; i++) {
        assert_int_equal(socmon_timeline_get(tl, i, &s), SOCMON_OK);
        assert_int_equal(v[0], i * 3);
    }
    socmon_recording_free(rec);
    struct stat sb;
    assert_int_equal(stat(path, &sb), 0);
    assert_true(sb.st_size < 60000);   /* compressed */
}

static void reopened_keeps_them(void **state)
{
    (void)state;
    write_file(1);
    socmon_recording *rec = NULL;
    assert_int_equal(socmon_recording_load(path, &rec), SOCMON_OK);
    check(rec, 40, 1, 1);
    socmon_recording_free(rec);
}

/* The byte at the profile record's offset + k changed; returns the file's bytes. */
static uint8_t *damaged(size_t k, size_t *len)
{
    write_file(0);
    FILE *f = fopen(path, "rb");
    assert_non_null(f);
    uint8_t *b = malloc(1 << 20);
    *len = fread(b, 1, 1 << 20, f);
    fclose(f);
    uint8_t *at = NULL;
    for (size_t i = 0; i + 8 <= *len; i++)
        if (memcmp(b + i, "\x89SMATT\r\n", 8) == 0 && memcmp(b + i + 12, "profile", 7) == 0)
            at = b + i;
    assert_non_null(at);
    assert_true(at + k < b + *len - 36);   /* inside the record, before the end record */
    at[k] ^= 0x5a;
    return b;
}

static void damage(void **state)
{
    (void)state;
    size_t len;
    /* in the payload (after 28 + 7 bytes of header): the payload CRC fails */
    uint8_t *b = damaged(28 + 7 + 5, &len);   /* 200,000 bytes of a pattern compress to a few dozen */
    socmon_recording *rec = NULL;
    assert_int_equal(socmon_recording_parse(b, len, &rec), SOCMON_OK);
    check(rec, 30, 0, 0);
    socmon_recording_info in;
    socmon_recording_get_info(rec, &in);
    assert_non_null(strstr(in.what, "attachment"));
    socmon_recording_free(rec);
    free(b);
    /* in the header's name: the header CRC fails, the reader skips to the end record */
    b = damaged(13, &len);
    assert_int_equal(socmon_recording_parse(b, len, &rec), SOCMON_OK);
    check(rec, 30, 0, 0);
    socmon_recording_free(rec);
    free(b);
}

static void refused(void **state)
{
    (void)state;
    int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
    socmon_recwriter_opts o = {.size = sizeof o};
    socmon_recwriter *w = NULL;
    assert_int_equal(socmon_recwriter_open(fd, set, "fake", 1000, &o, &w), SOCMON_OK);
    char longname[80];
    memset(longname, 'n', sizeof longname - 1);
    longname[sizeof longname - 1] = '\0';
    assert_int_equal(socmon_recwriter_attach(w, longname, "x", 1), SOCMON_EINVAL);
    assert_int_equal(socmon_recwriter_attach(w, "", "x", 1), SOCMON_EINVAL);
    assert_int_equal(socmon_recwriter_attach(w, "a", NULL, 1), SOCMON_EINVAL);
    assert_int_equal(socmon_recwriter_attach(NULL, "a", "x", 1), SOCMON_EINVAL);
    assert_int_equal(socmon_recwriter_attach(w, "twice", "x", 1), SOCMON_OK);
    /* the reader would keep one and call the second damage: the writer refuses it */
    assert_int_equal(socmon_recwriter_attach(w, "twice", "y", 1), SOCMON_EINVAL);
    assert_non_null(strstr(socmon_errmsg(), "already has an attachment 'twice'"));
    for (int i = 1; i < 16; i++) {   /* 16 in all; the 17th would be damage too */
        char name[16];
        snprintf(name, sizeof name, "n%d", i);
        assert_int_equal(socmon_recwriter_attach(w, name, "z", 1), SOCMON_OK);
    }
    assert_int_equal(socmon_recwriter_attach(w, "n16", "z", 1), SOCMON_ERANGE);
    assert_non_null(strstr(socmon_errmsg(), "at most 16 attachments"));
    assert_int_equal(socmon_recwriter_close(w), SOCMON_OK);
    close(fd);
    socmon_recording *rec = NULL;
    assert_int_equal(socmon_recording_load(path, &rec), SOCMON_OK);
    const void *d;
    size_t len;
    assert_int_equal(socmon_recording_attachment(rec, "twice", &d, &len), SOCMON_OK);
    assert_memory_equal(d, "x", 1);
    assert_int_equal(socmon_recording_nattachments(rec), 16);
    socmon_recording_info in;
    socmon_recording_get_info(rec, &in);
    assert_int_equal(in.complete, 1);   /* nothing the reader calls damage was written */
    socmon_recording_free(rec);
    /* a reopened file counts the attachments it holds */
    fd = open(path, O_RDWR);
    assert_int_equal(socmon_recwriter_reopen(fd, set, "fake", 1000, &o, &w), SOCMON_OK);
    assert_int_equal(socmon_recwriter_attach(w, "n3", "z", 1), SOCMON_EINVAL);
    assert_int_equal(socmon_recwriter_attach(w, "new", "z", 1), SOCMON_ERANGE);
    assert_int_equal(socmon_recwriter_close(w), SOCMON_OK);
    close(fd);
}

/* One attachment of len bytes of text (words in an order of their own) with writer level `level`
 * (0: the default); the bytes its record takes in the file. */
static uint64_t attach_bytes(const char *text, size_t len, int level)
{
    int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
    assert_true(fd >= 0);
    socmon_recwriter_opts o = {.size = sizeof o, .block_samples = 8, .level = level};
    socmon_recwriter *w = NULL;
    assert_int_equal(socmon_recwriter_open(fd, set, "fake", 1000, &o, &w), SOCMON_OK);
    assert_int_equal(socmon_recwriter_attach(w, "doc", text, len), SOCMON_OK);
    assert_int_equal(socmon_recwriter_close(w), SOCMON_OK);
    close(fd);
    socmon_recording *rec = NULL;
    assert_int_equal(socmon_recording_load(path, &rec), SOCMON_OK);
    const void *d;
    size_t n;
    uint64_t fb = 0;
    assert_int_equal(socmon_recording_attachment(rec, "doc", &d, &n), SOCMON_OK);
    assert_int_equal(n, len);
    assert_memory_equal(d, text, len);
    assert_string_equal(socmon_recording_attachment_at(rec, 0, &n, &fb), "doc");
    socmon_recording_free(rec);
    return fb;
}

static size_t zstd_bytes(const char *text, size_t len, int level)
{
    size_t cap = ZSTD_compressBound(len);
    void *b = malloc(cap);
    assert_non_null(b);
    size_t n = ZSTD_compress(b, cap, text, len, level);
    assert_false(ZSTD_isError(n));
    free(b);
    return n;
}

/* A large attachment (a profile's JSON) is compressed at zstd level 1 unless the writer was
 * given a level; a small one at the writer's level (the default 3). */
static void large_ones_at_level_1(void **state)
{
    (void)state;
    size_t big = 400000, small = 4000;
    char *text = malloc(big);
    assert_non_null(text);
    static const char *const words[] = {"[1048576,", "411082863,", "1,", "[0,0,0,12],", "\"jal zero\"],",
                                        "[5,1,0,3],", "0x10a188", "addi sp,", "-16],"};
    uint32_t x = 12345;
    for (size_t i = 0; i < big;) {
        x = x * 1103515245u + 12345u;
        const char *wd = words[(x >> 16) % 9];
        for (size_t k = 0; wd[k] && i < big; k++)
            text[i++] = wd[k];
    }
    assert_true(zstd_bytes(text, big, 1) != zstd_bytes(text, big, 3));   /* the test can tell them apart */
    uint64_t hdr = attach_bytes(text, big, 3) - zstd_bytes(text, big, 3);   /* the record's own bytes */
    assert_true(hdr > 0 && hdr < 100);
    assert_int_equal(attach_bytes(text, big, 0) - hdr, zstd_bytes(text, big, 1));
    assert_int_equal(attach_bytes(text, big, 5) - hdr, zstd_bytes(text, big, 5));
    assert_int_equal(attach_bytes(text, small, 0) - hdr, zstd_bytes(text, small, 3));
    free(text);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(round_trip),
        cmocka_unit_test(reopened_keeps_them),
        cmocka_unit_test(damage),
        cmocka_unit_test(refused),
        cmocka_unit_test(large_ones_at_level_1),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
