/* socmon's Parquet writer (export/parquet_write.c) and its Thrift compact encoder
 * (export/parquet_thrift.c) against the bytes their specs give: field headers short and long,
 * zigzag varints, bools in the type, list headers; a file framed by "PAR1"; a data page's PLAIN
 * values, a nullable column's definition levels and a dictionary column's indices in the
 * RLE/bit-packed hybrid, decompressed from the zstd page; row groups written as the table grows;
 * every misuse refused with a message naming the column or value. DuckDB and hyparquet reading
 * the files back is tests/export/parquet_*.test.sh's. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

#include "core/error.h"
#include "export/parquet_thrift.h"
#include "export/parquet_write.h"

#define BYTES(...) ((const unsigned char[]){__VA_ARGS__}), sizeof((const unsigned char[]){__VA_ARGS__})

static void same_bytes(const smn_pq_buf *b, const unsigned char *want, size_t n)
{
    assert_int_equal(b->n, n);
    assert_memory_equal(b->p, want, n);
}

static void test_thrift_compact(void **state)
{
    (void)state;
    smn_pq_buf b = {0};
    smn_pq_buf_varint(&b, 300);
    same_bytes(&b, BYTES(0xac, 0x02));
    b.n = 0;
    smn_tc t;
    smn_tc_init(&t, &b);
    smn_tc_i32(&t, 1, 1);        /* delta 1, type 5; zigzag(1) = 2 */
    smn_tc_i64(&t, 2, -1);       /* delta 1, type 6; zigzag(-1) = 1 */
    smn_tc_i32(&t, 20, 3);       /* delta 18: the type byte, then zigzag(20) = 40 */
    smn_tc_bool(&t, 21, 1);      /* the value in the type: 1 true */
    smn_tc_bool(&t, 22, 0);      /* 2 false */
    smn_tc_list(&t, 23, SMN_TC_I32, 2);
    smn_tc_elem_i32(&t, -2);
    smn_tc_elem_i32(&t, 64);     /* zigzag 128: two bytes */
    smn_tc_struct_begin(&t, 24);
    smn_tc_string(&t, 1, "ab");  /* field ids count from 0 inside */
    smn_tc_struct_end(&t);
    smn_tc_list(&t, 25, SMN_TC_BINARY, 15);   /* 15 elements and more: 0xf0 | type, size varint */
    assert_int_equal(smn_tc_end(&t), 0);
    same_bytes(&b, BYTES(0x15, 0x02, 0x16, 0x01, 0x05, 0x28, 0x06, 0x11, 0x12, 0x19, 0x25, 0x03, 0x80, 0x01,
                         0x1c, 0x18, 0x02, 'a', 'b', 0x00, 0x19, 0xf8, 0x0f));
    /* a struct left open, and nesting past the encoder's depth, are reported at the end */
    smn_tc_init(&t, &b);
    smn_tc_struct_begin(&t, 1);
    assert_int_equal(smn_tc_end(&t), -1);
    smn_tc_init(&t, &b);
    for (int i = 0; i < SMN_TC_DEPTH + 1; i++)
        smn_tc_struct_begin(&t, 1);
    for (int i = 0; i < SMN_TC_DEPTH + 1; i++)
        smn_tc_struct_end(&t);
    assert_int_equal(smn_tc_end(&t), -1);
    smn_pq_buf_free(&b);
}

typedef struct file {
    unsigned char p[1 << 16];
    size_t n;
    int fail_at;   /* the write to fail (1 = the first), 0: none */
    int writes;
} file;

static socmon_status take(void *user, const void *buf, size_t len)
{
    file *f = user;
    if (++f->writes == f->fail_at)
        return socmon_fail(SOCMON_EIO, "disk full (planted)");
    assert_true(f->n + len <= sizeof f->p);
    memcpy(f->p + f->n, buf, len);
    f->n += len;
    return SOCMON_OK;
}

static uint64_t varint(const unsigned char *p, size_t *at)
{
    uint64_t v = 0;
    for (int shift = 0;; shift += 7) {
        unsigned char x = p[(*at)++];
        v |= (uint64_t)(x & 0x7f) << shift;
        if (!(x & 0x80))
            return v;
    }
}

/* The page at *at: its header's type and sizes (the i32 fields 1..3; nested structs skipped),
 * its bytes decompressed into out. Returns the page type and moves *at past the page. */
static int page(const file *f, size_t *at, unsigned char *out, size_t *out_len)
{
    int32_t field[4] = {0};
    int depth = 0, id[4] = {0};
    for (;;) {
        unsigned char h = f->p[(*at)++];
        if (h == 0) {
            if (depth-- == 0)
                break;
            continue;
        }
        int type = h & 0x0f;
        id[depth] = (h >> 4) ? id[depth] + (h >> 4) : (int)varint(f->p, at) / 2;
        if (type == SMN_TC_STRUCT) {
            id[++depth] = 0;
        } else if (type == SMN_TC_I32 || type == SMN_TC_I64) {
            uint64_t z = varint(f->p, at);
            if (depth == 0 && id[0] >= 1 && id[0] <= 3)
                field[id[0]] = (int32_t)((z >> 1) ^ (~(z & 1) + 1));
        } else {
            fail_msg("unexpected type %d in a page header", type);
        }
    }
    *out_len = ZSTD_decompress(out, 4096, f->p + *at, (size_t)field[3]);
    assert_false(ZSTD_isError(*out_len));
    assert_int_equal(*out_len, field[2]);
    *at += (size_t)field[3];
    return field[1];
}

static void framed(const file *f)
{
    assert_true(f->n >= 12);
    assert_memory_equal(f->p, "PAR1", 4);
    assert_memory_equal(f->p + f->n - 4, "PAR1", 4);
    const unsigned char *t = f->p + f->n - 8;
    uint32_t len = (uint32_t)t[0] | (uint32_t)t[1] << 8 | (uint32_t)t[2] << 16 | (uint32_t)t[3] << 24;
    assert_true(len > 0 && len <= f->n - 12);
}

static void test_plain_int64(void **state)
{
    (void)state;
    static file f;
    memset(&f, 0, sizeof f);
    smn_pq *w;
    assert_int_equal(smn_pq_new(take, &f, &w), SOCMON_OK);
    assert_int_equal(smn_pq_column(w, "count", SMN_PQ_INT64, 0), SOCMON_OK);
    assert_int_equal(smn_pq_set_int64(w, 0, 1), SOCMON_OK);
    assert_int_equal(smn_pq_end_row(w), SOCMON_OK);
    assert_int_equal(smn_pq_set_int64(w, 0, -2), SOCMON_OK);
    assert_int_equal(smn_pq_end_row(w), SOCMON_OK);
    assert_int_equal(f.n, 0);   /* one row group, written at close */
    assert_int_equal(smn_pq_close(w), SOCMON_OK);
    smn_pq_free(w);
    framed(&f);
    unsigned char data[4096];
    size_t at = 4, len;
    assert_int_equal(page(&f, &at, data, &len), 0);   /* DATA_PAGE */
    /* required: no levels; PLAIN: two little-endian int64 */
    const unsigned char want[16] = {1, 0, 0, 0, 0, 0, 0, 0, 0xfe, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff};
    assert_int_equal(len, 16);
    assert_memory_equal(data, want, 16);
}

static void test_dictionary_and_levels(void **state)
{
    (void)state;
    static file f;
    memset(&f, 0, sizeof f);
    smn_pq *w;
    assert_int_equal(smn_pq_new(take, &f, &w), SOCMON_OK);
    assert_int_equal(smn_pq_column(w, "label", SMN_PQ_STRING, 1), SOCMON_OK);
    const char *cells[] = {"a", "b", "a", NULL};
    for (size_t i = 0; i < 4; i++) {
        if (cells[i])
            assert_int_equal(smn_pq_set_string(w, 0, cells[i]), SOCMON_OK);
        assert_int_equal(smn_pq_end_row(w), SOCMON_OK);   /* a nullable cell not set is null */
    }
    assert_int_equal(smn_pq_close(w), SOCMON_OK);
    smn_pq_free(w);
    framed(&f);
    unsigned char d[4096];
    size_t at = 4, len;
    assert_int_equal(page(&f, &at, d, &len), 2);   /* DICTIONARY_PAGE first: PLAIN strings */
    const unsigned char dict[] = {1, 0, 0, 0, 'a', 1, 0, 0, 0, 'b'};
    assert_int_equal(len, sizeof dict);
    assert_memory_equal(d, dict, sizeof dict);
    assert_int_equal(page(&f, &at, d, &len), 0);
    /* levels 1,1,1,0: their length (2), one bit-packed group (header 1 << 1 | 1, bits 0111);
     * indices 0,1,0 of bit width 1: the width, one group (bits 010) */
    const unsigned char data[] = {2, 0, 0, 0, 0x03, 0x07, 0x01, 0x03, 0x02};
    assert_int_equal(len, sizeof data);
    assert_memory_equal(d, data, sizeof data);
}

static void test_rle_runs_and_booleans(void **state)
{
    (void)state;
    static file f;
    memset(&f, 0, sizeof f);
    smn_pq *w;
    assert_int_equal(smn_pq_new(take, &f, &w), SOCMON_OK);
    assert_int_equal(smn_pq_column(w, "flag", SMN_PQ_BOOLEAN, 1), SOCMON_OK);
    for (int i = 0; i < 10; i++) {
        assert_int_equal(smn_pq_set_bool(w, 0, i == 9 || i == 0), SOCMON_OK);
        assert_int_equal(smn_pq_end_row(w), SOCMON_OK);
    }
    assert_int_equal(smn_pq_close(w), SOCMON_OK);
    smn_pq_free(w);
    unsigned char d[4096];
    size_t at = 4, len;
    assert_int_equal(page(&f, &at, d, &len), 0);
    /* ten levels of 1: one RLE run (10 << 1, the value in a byte); the booleans PLAIN, a bit
     * each from the lowest: 1000 0000 01 */
    const unsigned char data[] = {2, 0, 0, 0, 0x14, 0x01, 0x01, 0x02};
    assert_int_equal(len, sizeof data);
    assert_memory_equal(d, data, sizeof data);
}

/* A row group is written when the table in memory reaches the limit, not at the end. */
static void test_row_groups(void **state)
{
    (void)state;
    static file f;
    memset(&f, 0, sizeof f);
    smn_pq *w;
    assert_int_equal(smn_pq_new(take, &f, &w), SOCMON_OK);
    smn_pq_set_limits(w, 20, 1);   /* three rows a group, one row a page */
    assert_int_equal(smn_pq_column(w, "x", SMN_PQ_DOUBLE, 0), SOCMON_OK);
    size_t before = 0;
    for (int i = 0; i < 6; i++) {
        assert_int_equal(smn_pq_set_double(w, 0, i * 0.5), SOCMON_OK);
        assert_int_equal(smn_pq_end_row(w), SOCMON_OK);
        if (i == 2)
            before = f.n;   /* 3 x 9 bytes: past the limit */
    }
    assert_true(before > 4);   /* "PAR1" and the first group's pages already */
    assert_int_equal(smn_pq_rows(w), 6);
    assert_int_equal(smn_pq_close(w), SOCMON_OK);
    smn_pq_free(w);
    framed(&f);
    unsigned char d[4096];
    size_t at = 4, len, pages = 0;
    for (; at < f.n - 8 && f.p[at] == 0x15 && f.p[at + 1] == 0x00 && pages < 6; pages++)
        assert_int_equal(page(&f, &at, d, &len), 0);
    assert_int_equal(pages, 6);
}

static void test_misuse_named(void **state)
{
    (void)state;
    static file f;
    memset(&f, 0, sizeof f);
    smn_pq *w;
    assert_int_equal(smn_pq_new(take, &f, &w), SOCMON_OK);
    assert_int_equal(smn_pq_close(w), SOCMON_ESTATE);   /* no columns */
    assert_int_equal(smn_pq_column(w, "n", SMN_PQ_INT64, 0), SOCMON_OK);
    assert_int_equal(smn_pq_column(w, "s", SMN_PQ_STRING, 1), SOCMON_OK);
    assert_int_equal(smn_pq_column(w, "n", SMN_PQ_DOUBLE, 0), SOCMON_EINVAL);
    assert_non_null(strstr(socmon_errmsg(), "'n' declared twice"));
    assert_int_equal(smn_pq_column(w, "bad\xff", SMN_PQ_DOUBLE, 0), SOCMON_EINVAL);
    assert_int_equal(smn_pq_column(w, "t", (smn_pq_type)99, 0), SOCMON_EINVAL);
    assert_non_null(strstr(socmon_errmsg(), "unknown type 99"));
    assert_int_equal(smn_pq_set_double(w, 0, 1.0), SOCMON_EINVAL);
    assert_non_null(strstr(socmon_errmsg(), "'n' does not hold"));
    assert_int_equal(smn_pq_set_int64(w, 2, 1), SOCMON_ERANGE);
    assert_non_null(strstr(socmon_errmsg(), "column 2 out of range 0..1"));
    assert_int_equal(smn_pq_set_string(w, 1, "\xc3("), SOCMON_EINVAL);
    assert_non_null(strstr(socmon_errmsg(), "'s': a value is not UTF-8"));
    assert_int_equal(smn_pq_set_null(w, 0), SOCMON_EINVAL);
    assert_non_null(strstr(socmon_errmsg(), "'n' is required"));
    assert_int_equal(smn_pq_set_int64(w, 0, 7), SOCMON_OK);
    assert_int_equal(smn_pq_set_int64(w, 0, 8), SOCMON_ESTATE);
    assert_non_null(strstr(socmon_errmsg(), "'n' set twice"));
    assert_int_equal(smn_pq_end_row(w), SOCMON_OK);
    assert_int_equal(smn_pq_column(w, "late", SMN_PQ_INT64, 0), SOCMON_ESTATE);
    assert_non_null(strstr(socmon_errmsg(), "'late' declared after the first row"));
    /* a row without its required cell: the writer cannot go on (its columns would disagree) */
    assert_int_equal(smn_pq_end_row(w), SOCMON_EINVAL);
    assert_non_null(strstr(socmon_errmsg(), "row 1 has no value for required column 'n'"));
    assert_int_equal(smn_pq_close(w), SOCMON_ESTATE);
    smn_pq_free(w);
}

/* The sink's failure is the writer's, at the call that wrote. */
static void test_output_failure(void **state)
{
    (void)state;
    static file f;
    memset(&f, 0, sizeof f);
    f.fail_at = 2;
    smn_pq *w;
    assert_int_equal(smn_pq_new(take, &f, &w), SOCMON_OK);
    assert_int_equal(smn_pq_column(w, "x", SMN_PQ_TIMESTAMP_NS, 0), SOCMON_OK);
    assert_int_equal(smn_pq_set_int64(w, 0, 5), SOCMON_OK);
    assert_int_equal(smn_pq_end_row(w), SOCMON_OK);
    assert_int_equal(smn_pq_close(w), SOCMON_EIO);
    assert_non_null(strstr(socmon_errmsg(), "disk full (planted)"));
    smn_pq_free(w);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_thrift_compact),   cmocka_unit_test(test_plain_int64),
        cmocka_unit_test(test_dictionary_and_levels), cmocka_unit_test(test_rle_runs_and_booleans),
        cmocka_unit_test(test_row_groups),       cmocka_unit_test(test_misuse_named),
        cmocka_unit_test(test_output_failure),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
