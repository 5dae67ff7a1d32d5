/* Fuzzes socmon's Parquet writer (src/export/parquet_write.c) with tables the input describes:
 * every column type, nullable or not, nulls at any rate, strings short and repeated (the
 * dictionary), multi-byte and long (up to 1 MiB), doubles of any bits (NaN, infinities, -0,
 * subnormals), int64 and timestamps of any size, 0 rows, up to 10,000 columns, pages and row
 * groups made small so a table spans many. Besides "never crash": writing a valid table
 * succeeds, the file is framed ("PAR1" at both ends, the footer's length inside it), and a
 * cell of the wrong type, a second value, a null in a required column each fail naming the
 * column.
 *
 * Built with SMN_PARQUET_SEEDS (the program parquet_fuzz_seeds, CMakeLists.txt) it writes the
 * tables of seeds 1..N to DIR/seed-K.parquet with what they hold in DIR/seed-K.json, which
 * tests/export/parquet_fuzz.test.sh has DuckDB and hyparquet read back and compare: seed 1 is
 * 10,000 columns, seed 2 has 0 rows, seed 3 long strings, the others whatever their bytes say. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "export/parquet_write.h"

/* The input's bytes, then (past its end) a generator seeded by them, so a short input still
 * makes a table with content, the same table every time. */
typedef struct src {
    const uint8_t *p;
    size_t n, i;
    uint64_t rng;
} src;

static uint64_t mix(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static uint64_t take(src *s, int bytes)
{
    uint64_t v = 0;
    for (int k = 0; k < bytes; k++)
        v = v << 8 | (s->i < s->n ? s->p[s->i++] : (uint8_t)mix(&s->rng));
    return v;
}

typedef struct out {
    unsigned char *p;
    size_t n, cap;
} out;

static socmon_status collect(void *user, const void *buf, size_t len)
{
    out *o = user;
    if (o->n + len > o->cap) {
        size_t cap = (o->n + len) * 2;
        unsigned char *p = realloc(o->p, cap);
        if (!p)
            abort();
        o->p = p;
        o->cap = cap;
    }
    memcpy(o->p + o->n, buf, len);
    o->n += len;
    return SOCMON_OK;
}

static const char *const type_names[] = {"INT64", "DOUBLE", "STRING", "TIMESTAMP_NS", "BOOLEAN"};

/* The expected table as JSON: int64 as strings (a JSON number is a double), doubles as
 * %.17g or "nan", "inf", "-inf". */
static void json_string(FILE *fp, const char *s)
{
    fputc('"', fp);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\')
            fprintf(fp, "\\%c", *p);
        else if (*p < 0x20)
            fprintf(fp, "\\u%04x", *p);
        else
            fputc(*p, fp);
    }
    fputc('"', fp);
}

/* A string cell: mostly a few short ones (the dictionary repeats them), ASCII and multi-byte,
 * sometimes up to 300 pieces; long: about 1 MiB. */
static char *make_string(src *s, int long_one)
{
    static const char *const pieces[] = {"a", "tile0", "é", "漢字", "🙂", " ", "\"", ",", "\\", "\n"};
    enum { LONGEST_PIECE = 6 };
    uint64_t pick = take(s, 1);
    size_t len = long_one ? ((size_t)1 << 20) / LONGEST_PIECE : pick < 200 ? pick % 4 : take(s, 2) % 300;
    char *b = malloc(len * LONGEST_PIECE + 1);
    if (!b)
        abort();
    size_t n = 0;
    uint64_t salt = pick < 200 ? pick % 7 : take(s, 1);
    for (size_t k = 0; k < len; k++) {
        const char *piece = pieces[(salt + (pick < 200 ? k : mix(&s->rng))) % 10];
        memcpy(b + n, piece, strlen(piece));
        n += strlen(piece);
    }
    b[n] = 0;
    return b;
}

/* Builds the table the input describes, into o; its content as JSON into expect (or nowhere). */
static void table(src *s, out *o, FILE *expect, int wide, int empty, int long_strings, size_t max_rows)
{
    size_t ncol = wide ? 10000 : 1 + take(s, 1) % 24;
    size_t nrows = empty ? 0 : take(s, 1) % 8 == 0 ? 0 : wide ? 3 : take(s, 2) % max_rows;
    size_t page_rows = 1 + take(s, 2) % 2000, group = 1 + take(s, 3) % (1u << 20);
    int long_left = long_strings ? 3 : 0;   /* the table's first three string cells */
    smn_pq *w;
    if (smn_pq_new(collect, o, &w) != SOCMON_OK)
        abort();
    smn_pq_set_limits(w, group, page_rows);
    int *type = calloc(ncol, sizeof *type), *nullable = calloc(ncol, sizeof *nullable);
    unsigned *null_rate = calloc(ncol, sizeof *null_rate);
    if (!type || !nullable || !null_rate)
        abort();
    if (expect)
        fprintf(expect, "{\"columns\": [");
    for (size_t c = 0; c < ncol; c++) {
        type[c] = (int)(take(s, 1) % 5);
        nullable[c] = (int)(take(s, 1) & 1);
        null_rate[c] = nullable[c] ? (unsigned)(take(s, 1) % 257) : 0;   /* of 256: 256 all null */
        char name[32];
        snprintf(name, sizeof name, c % 3 == 2 ? "col_%zu_é" : "col_%zu", c);
        if (smn_pq_column(w, name, (smn_pq_type)type[c], nullable[c]) != SOCMON_OK) {
            fprintf(stderr, "column %s: %s\n", name, socmon_errmsg());
            abort();
        }
        if (expect) {
            fprintf(expect, "%s{\"name\": ", c ? ", " : "");
            json_string(expect, name);
            fprintf(expect, ", \"type\": \"%s\"}", type_names[type[c]]);
        }
    }
    if (expect)
        fprintf(expect, "],\n\"rows\": [");
    for (size_t r = 0; r < nrows; r++) {
        if (expect)
            fprintf(expect, "%s[", r ? ",\n" : "");
        for (size_t c = 0; c < ncol; c++) {
            socmon_status st;
            if (nullable[c] && take(s, 1) < null_rate[c]) {
                st = smn_pq_set_null(w, c);
                if (expect)
                    fprintf(expect, "%snull", c ? ", " : "");
            } else if (type[c] == SMN_PQ_INT64 || type[c] == SMN_PQ_TIMESTAMP_NS) {
                int64_t v = (int64_t)take(s, 8);
                if (type[c] == SMN_PQ_TIMESTAMP_NS)
                    v /= 4;   /* DuckDB keeps the extremes of int64 for +-infinity */
                else if (take(s, 1) < 64)
                    v %= 1000;   /* small counts too, as most are */
                st = smn_pq_set_int64(w, c, v);
                if (expect)
                    fprintf(expect, "%s\"%lld\"", c ? ", " : "", (long long)v);
            } else if (type[c] == SMN_PQ_DOUBLE) {
                uint64_t bits = take(s, 8);
                double v;
                memcpy(&v, &bits, sizeof v);
                if (take(s, 1) < 128)
                    v = (double)(int64_t)(bits % 100000) / 64.0;   /* ordinary measures too */
                st = smn_pq_set_double(w, c, v);
                if (expect && isnan(v))
                    fprintf(expect, "%s\"nan\"", c ? ", " : "");
                else if (expect && isinf(v))
                    fprintf(expect, "%s\"%s\"", c ? ", " : "", v > 0 ? "inf" : "-inf");
                else if (expect)
                    fprintf(expect, "%s%.17g", c ? ", " : "", v);
            } else if (type[c] == SMN_PQ_BOOLEAN) {
                int v = (int)(take(s, 1) & 1);
                st = smn_pq_set_bool(w, c, v);
                if (expect)
                    fprintf(expect, "%s%s", c ? ", " : "", v ? "true" : "false");
            } else {
                char *v = make_string(s, long_left > 0);
                long_left--;
                st = smn_pq_set_string(w, c, v);
                if (expect) {
                    fprintf(expect, "%s", c ? ", " : "");
                    json_string(expect, v);
                }
                free(v);
            }
            if (st != SOCMON_OK) {
                fprintf(stderr, "row %zu column %zu: %s\n", r, c, socmon_errmsg());
                abort();
            }
        }
        if (expect)
            fprintf(expect, "]");
        if (smn_pq_end_row(w) != SOCMON_OK) {
            fprintf(stderr, "row %zu: %s\n", r, socmon_errmsg());
            abort();
        }
    }
    if (expect)
        fprintf(expect, "]}\n");
    /* misuse after the rows (not in the seeds' tables, whose columns must stay as expected):
     * each refused, naming the column, and the writer still closes */
    if (!expect && !wide && take(s, 1) < 64) {
        size_t c = take(s, 2) % ncol;
        char want[32];
        snprintf(want, sizeof want, c % 3 == 2 ? "col_%zu_é" : "col_%zu", c);
        socmon_status st = type[c] == SMN_PQ_DOUBLE ? smn_pq_set_int64(w, c, 1) : smn_pq_set_double(w, c, 1.0);
        if (st == SOCMON_OK || !strstr(socmon_errmsg(), want))
            abort();
        if (!nullable[c] && (smn_pq_set_null(w, c) == SOCMON_OK || !strstr(socmon_errmsg(), want)))
            abort();
        if (nrows && smn_pq_column(w, "late", SMN_PQ_INT64, 0) == SOCMON_OK)
            abort();   /* a column after the first row */
    }
    if (smn_pq_close(w) != SOCMON_OK) {
        fprintf(stderr, "close: %s\n", socmon_errmsg());
        abort();
    }
    smn_pq_free(w);
    free(type);
    free(nullable);
    free(null_rate);
}

/* "PAR1", ..., the footer, its length as 4 bytes little-endian, "PAR1". */
static void framed(const out *o)
{
    if (o->n < 12 || memcmp(o->p, "PAR1", 4) != 0 || memcmp(o->p + o->n - 4, "PAR1", 4) != 0)
        abort();
    const unsigned char *t = o->p + o->n - 8;
    uint32_t len = (uint32_t)t[0] | (uint32_t)t[1] << 8 | (uint32_t)t[2] << 16 | (uint32_t)t[3] << 24;
    if (len == 0 || len > o->n - 12)
        abort();
}

#ifndef SMN_PARQUET_SEEDS
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 2)
        return 0;
    src s = {data + 1, size - 1, 0, 0};
    for (size_t i = 0; i < size; i++)
        s.rng = s.rng * 131 + data[i];
    out o = {0};
    /* 10,000 columns or 1 MiB strings only now and then, and fewer rows than the seeds' tables:
     * thousands of inputs a second under the sanitizers */
    table(&s, &o, NULL, data[0] == 0xff, data[0] == 0xfe, data[0] == 0xfd, 300);
    framed(&o);
    free(o.p);
    return 0;
}
#else
int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: parquet_fuzz_seeds DIR N: the tables of seeds 1..N as DIR/seed-K.parquet and .json\n");
        return 2;
    }
    long n = strtol(argv[2], NULL, 10);
    for (long k = 1; k <= n; k++) {
        uint64_t x = (uint64_t)k;
        size_t len = 64 + mix(&x) % 4096;
        uint8_t *bytes = malloc(len);
        if (!bytes)
            return 1;
        for (size_t i = 0; i < len; i++)
            bytes[i] = (uint8_t)mix(&x);
        char path[4096];
        snprintf(path, sizeof path, "%s/seed-%ld.parquet", argv[1], k);
        FILE *fp = fopen(path, "wb");
        snprintf(path, sizeof path, "%s/seed-%ld.json", argv[1], k);
        FILE *expect = fopen(path, "w");
        if (!fp || !expect) {
            fprintf(stderr, "parquet_fuzz_seeds: cannot write %s\n", path);
            return 1;
        }
        src s = {bytes, len, 0, x};
        out o = {0};
        table(&s, &o, expect, k == 1, k == 2, k == 3, 3000);
        framed(&o);
        size_t wrote = fwrite(o.p, 1, o.n, fp);
        free(o.p);
        if (fclose(fp) != 0 || fclose(expect) != 0 || wrote != o.n) {
            fprintf(stderr, "parquet_fuzz_seeds: writing seed %ld failed\n", k);
            return 1;
        }
        free(bytes);
    }
    return 0;
}
#endif
