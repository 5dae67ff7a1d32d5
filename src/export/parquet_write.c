/* socmon's Parquet writer (parquet_write.h), written from the Apache Parquet format spec
 * (parquet-format 2.10: README "File format", Encodings.md, LogicalTypes.md, parquet.thrift;
 * docs/parquet.md says what of it is used). A file is "PAR1", the column chunks of each row
 * group, the FileMetaData in the Thrift compact protocol (parquet_thrift.c), its length as 4
 * bytes little-endian, and "PAR1".
 *
 * Every column is flat (no repetition levels). A nullable column has definition levels (0 null,
 * 1 present; bit width 1) in the RLE/bit-packed hybrid, with the 4-byte length prefix data page
 * v1 gives them. INT64 and DOUBLE values are PLAIN; strings have a dictionary page (PLAIN) per
 * column chunk and their data pages hold RLE_DICTIONARY indices; booleans are PLAIN, one bit
 * each from the lowest bit of a byte up. Every page is compressed with
 * zstd on its own, as a page must be. No statistics, no page index, no bloom filters. */
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

#include "core/error.h"
#include "core/strmap.h"
#include "core/text.h"
#include "export/parquet_thrift.h"
#include "export/parquet_write.h"
#include "socmon/version.h"

/* parquet.thrift's enum values used here */
enum { PQ_T_BOOLEAN = 0, PQ_T_INT64 = 2, PQ_T_DOUBLE = 5, PQ_T_BYTE_ARRAY = 6 };
enum { PQ_REQUIRED = 0, PQ_OPTIONAL = 1 };
enum { PQ_CONVERTED_UTF8 = 0 };
enum { PQ_ENC_PLAIN = 0, PQ_ENC_RLE = 3, PQ_ENC_RLE_DICTIONARY = 8 };
enum { PQ_CODEC_ZSTD = 6 };
enum { PQ_PAGE_DATA = 0, PQ_PAGE_DICTIONARY = 2 };

#define ZSTD_LEVEL 3   /* zstd's default: most of the size for little time */

/* Where one column chunk of a written row group is, for the footer. */
typedef struct chunk_meta {
    int64_t start, data_off, dict_off;   /* dict_off -1: no dictionary page */
    int64_t unc, comp;                   /* page headers included, as ColumnMetaData counts them */
    int dict;                            /* its data pages are RLE_DICTIONARY */
} chunk_meta;

typedef struct column {
    char *name;
    smn_pq_type type;
    int nullable;
    /* the row group being built */
    smn_pq_buf def;          /* one byte per row: 1 present, 0 null (nullable columns) */
    smn_pq_buf vals;         /* PLAIN little-endian 8-byte values, uint32 dictionary indices, or
                                a byte per boolean (packed into bits when a page is written) */
    size_t nvals;            /* present values */
    char **dict;             /* STRING: the distinct strings, in index order; the map borrows them */
    size_t ndict, dict_cap, dict_bytes;
    smn_strmap map;
    int set;                 /* the current row's cell is set */
} column;

struct smn_pq {
    smn_pq_out out;
    void *user;
    column *col;
    size_t ncol, cap;
    smn_strmap names;        /* column name -> index; borrows the columns' names */
    size_t group_limit, page_rows;
    size_t group_rows, group_bytes;
    uint64_t rows;
    int64_t off;             /* bytes written */
    chunk_meta *meta;        /* nrg * ncol, row group by row group */
    uint64_t *rg_rows;
    size_t nrg, rg_cap;
    int started, closed, failed;
    smn_pq_buf page, comp;   /* scratch: one page's bytes, compressed */
    ZSTD_CCtx *zc;           /* one context for every page: making one costs more than a small page */
};

socmon_status smn_pq_new(smn_pq_out out, void *user, smn_pq **w)
{
    if (!out || !w)
        return socmon_fail(SOCMON_EINVAL, "parquet writer: NULL argument");
    smn_pq *p = calloc(1, sizeof *p);
    if (!p)
        return socmon_fail(SOCMON_ENOMEM, "parquet writer: out of memory");
    p->out = out;
    p->user = user;
    p->group_limit = (size_t)64 << 20;
    p->page_rows = 65536;
    *w = p;
    return SOCMON_OK;
}

static void column_reset(column *c)
{
    for (size_t i = 0; i < c->ndict; i++)
        free(c->dict[i]);
    c->ndict = c->dict_bytes = c->nvals = 0;
    smn_strmap_free(&c->map);
    c->def.n = c->vals.n = 0;
}

void smn_pq_free(smn_pq *w)
{
    if (!w)
        return;
    for (size_t i = 0; i < w->ncol; i++) {
        column_reset(&w->col[i]);
        free(w->col[i].dict);
        free(w->col[i].name);
        smn_pq_buf_free(&w->col[i].def);
        smn_pq_buf_free(&w->col[i].vals);
    }
    free(w->col);
    smn_strmap_free(&w->names);
    free(w->meta);
    free(w->rg_rows);
    smn_pq_buf_free(&w->page);
    smn_pq_buf_free(&w->comp);
    ZSTD_freeCCtx(w->zc);
    free(w);
}

void smn_pq_set_limits(smn_pq *w, size_t row_group_bytes, size_t page_rows)
{
    if (!w)
        return;
    w->group_limit = row_group_bytes ? row_group_bytes : 1;
    w->page_rows = page_rows ? page_rows : 1;
}

static int valid_utf8(const char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    size_t n;
    while (*p && (n = smn_utf8_len(p)) > 0)
        p += n;
    return *p == 0;
}

socmon_status smn_pq_column(smn_pq *w, const char *name, smn_pq_type type, int nullable)
{
    if (!w || !name)
        return socmon_fail(SOCMON_EINVAL, "parquet writer: NULL argument");
    if (w->started)
        return socmon_fail(SOCMON_ESTATE, "parquet writer: column '%s' declared after the first row", name);
    if (type < SMN_PQ_INT64 || type > SMN_PQ_BOOLEAN)
        return socmon_fail(SOCMON_EINVAL, "parquet writer: column '%s': unknown type %d", name, (int)type);
    if (!*name || !valid_utf8(name))
        return socmon_fail(SOCMON_EINVAL, "parquet writer: a column name must be non-empty UTF-8");
    /* by a map: a table may have tens of thousands of columns (a sweep's every counter) */
    if (smn_strmap_find(&w->names, name, NULL))
        return socmon_fail(SOCMON_EINVAL, "parquet writer: column '%s' declared twice", name);
    if (w->ncol == w->cap) {
        size_t cap = w->cap ? w->cap * 2 : 16;
        column *c = realloc(w->col, cap * sizeof *c);
        if (!c)
            return socmon_fail(SOCMON_ENOMEM, "parquet writer: out of memory");
        w->col = c;
        w->cap = cap;
    }
    column *c = &w->col[w->ncol];
    *c = (column){.type = type, .nullable = nullable != 0};
    if (!(c->name = strdup(name)) || smn_strmap_insert(&w->names, c->name, w->ncol, NULL) < 0) {
        free(c->name);
        return socmon_fail(SOCMON_ENOMEM, "parquet writer: out of memory");
    }
    w->ncol++;
    return SOCMON_OK;
}

size_t smn_pq_ncolumns(const smn_pq *w)
{
    return w ? w->ncol : 0;
}

uint64_t smn_pq_rows(const smn_pq *w)
{
    return w ? w->rows : 0;
}

/* The column a cell goes to, checked: its index, its type, once per row. Its callers start c at
 * NULL: -O3 inlines this and cannot tell that socmon_fail never returns SOCMON_OK. */
static socmon_status cell(smn_pq *w, size_t col, int want, column **out)
{
    if (!w)
        return socmon_fail(SOCMON_EINVAL, "parquet writer: NULL writer");
    if (w->closed || w->failed)
        return socmon_fail(SOCMON_ESTATE, "parquet writer: %s", w->closed ? "closed" : "failed before");
    if (col >= w->ncol)
        return socmon_fail(SOCMON_ERANGE, "parquet writer: column %zu out of range 0..%zu", col,
                           w->ncol ? w->ncol - 1 : 0);
    column *c = &w->col[col];
    if (c->set)
        return socmon_fail(SOCMON_ESTATE, "parquet writer: column '%s' set twice in one row", c->name);
    int kind = c->type == SMN_PQ_TIMESTAMP_NS ? SMN_PQ_INT64 : (int)c->type;
    if (want >= 0 && kind != want)
        return socmon_fail(SOCMON_EINVAL, "parquet writer: column '%s' does not hold this type", c->name);
    w->started = 1;
    *out = c;
    return SOCMON_OK;
}

static socmon_status present(smn_pq *w, column *c)
{
    unsigned char one = 1;
    if (c->nullable)
        smn_pq_buf_put(&c->def, &one, 1);
    c->set = 1;
    c->nvals++;
    w->group_bytes += 9;
    return c->def.oom || c->vals.oom ? socmon_fail(SOCMON_ENOMEM, "parquet writer: out of memory") : SOCMON_OK;
}

socmon_status smn_pq_set_int64(smn_pq *w, size_t col, int64_t v)
{
    column *c = NULL;
    socmon_status st = cell(w, col, SMN_PQ_INT64, &c);
    if (st != SOCMON_OK)
        return st;
    smn_pq_buf_le64(&c->vals, (uint64_t)v);
    return present(w, c);
}

socmon_status smn_pq_set_double(smn_pq *w, size_t col, double v)
{
    column *c = NULL;
    socmon_status st = cell(w, col, SMN_PQ_DOUBLE, &c);
    if (st != SOCMON_OK)
        return st;
    uint64_t bits;
    memcpy(&bits, &v, sizeof bits);   /* IEEE 754 binary64, as PLAIN DOUBLE is */
    smn_pq_buf_le64(&c->vals, bits);
    return present(w, c);
}

socmon_status smn_pq_set_string(smn_pq *w, size_t col, const char *s)
{
    column *c = NULL;
    socmon_status st = cell(w, col, SMN_PQ_STRING, &c);
    if (st != SOCMON_OK)
        return st;
    if (!s)
        return smn_pq_set_null(w, col);
    if (!valid_utf8(s))
        return socmon_fail(SOCMON_EINVAL, "parquet writer: column '%s': a value is not UTF-8", c->name);
    size_t idx;
    if (!smn_strmap_find(&c->map, s, &idx)) {
        if (c->ndict == UINT32_MAX)
            return socmon_fail(SOCMON_ERANGE, "parquet writer: column '%s': over 2^32 distinct strings", c->name);
        if (c->ndict == c->dict_cap) {
            size_t cap = c->dict_cap ? c->dict_cap * 2 : 16;
            char **d = realloc(c->dict, cap * sizeof *d);
            if (!d)
                return socmon_fail(SOCMON_ENOMEM, "parquet writer: out of memory");
            c->dict = d;
            c->dict_cap = cap;
        }
        char *own = strdup(s);
        if (!own || smn_strmap_insert(&c->map, own, c->ndict, NULL) < 0) {
            free(own);
            return socmon_fail(SOCMON_ENOMEM, "parquet writer: out of memory");
        }
        idx = c->ndict;
        c->dict[c->ndict++] = own;
        size_t len = strlen(s);
        c->dict_bytes += len + 4;
        w->group_bytes += len + 4 + 2 * sizeof(char *);
    }
    uint32_t i32 = (uint32_t)idx;
    smn_pq_buf_put(&c->vals, &i32, sizeof i32);
    return present(w, c);
}

socmon_status smn_pq_set_bool(smn_pq *w, size_t col, int v)
{
    column *c = NULL;
    socmon_status st = cell(w, col, SMN_PQ_BOOLEAN, &c);
    if (st != SOCMON_OK)
        return st;
    unsigned char b = v != 0;
    smn_pq_buf_put(&c->vals, &b, 1);
    return present(w, c);
}

socmon_status smn_pq_set_null(smn_pq *w, size_t col)
{
    column *c = NULL;
    socmon_status st = cell(w, col, -1, &c);
    if (st != SOCMON_OK)
        return st;
    if (!c->nullable)
        return socmon_fail(SOCMON_EINVAL, "parquet writer: column '%s' is required: it cannot be null", c->name);
    unsigned char zero = 0;
    smn_pq_buf_put(&c->def, &zero, 1);
    c->set = 1;
    w->group_bytes += 1;
    return c->def.oom ? socmon_fail(SOCMON_ENOMEM, "parquet writer: out of memory") : SOCMON_OK;
}

/* ---- the RLE/bit-packed hybrid (Encodings.md) ---- */

/* values[0..n) of bit width bw (1..32): a run of 8 or more equal values is an RLE run (varint
 * count << 1, then the value in ceil(bw/8) bytes); anything else goes in bit-packed groups of 8
 * (varint groups << 1 | 1, then the values packed from the lowest bit up), the last group padded
 * with zeros: a reader knows the page's value count and ignores the rest. */
static size_t run_at(const uint32_t *v, size_t n, size_t i)
{
    size_t j = i + 1;
    while (j < n && v[j] == v[i])
        j++;
    return j - i;
}

static void hybrid(smn_pq_buf *b, const uint32_t *v, size_t n, unsigned bw)
{
    size_t i = 0;
    while (i < n) {
        size_t run = run_at(v, n, i);
        if (run >= 8) {
            smn_pq_buf_varint(b, (uint64_t)run << 1);
            for (unsigned k = 0; k < (bw + 7) / 8; k++) {
                unsigned char x = (unsigned char)(v[i] >> (8 * k));
                smn_pq_buf_put(b, &x, 1);
            }
            i += run;
            continue;
        }
        size_t groups = 0;   /* literal groups until one starts a long run, or the end */
        do
            groups++;
        while (i + groups * 8 < n && run_at(v, n, i + groups * 8) < 8);
        smn_pq_buf_varint(b, (uint64_t)groups << 1 | 1);
        uint64_t acc = 0;
        unsigned nbits = 0;
        for (size_t k = 0; k < groups * 8; k++) {
            acc |= (uint64_t)(i + k < n ? v[i + k] : 0) << nbits;
            nbits += bw;
            while (nbits >= 8) {
                unsigned char x = (unsigned char)acc;
                smn_pq_buf_put(b, &x, 1);
                acc >>= 8;
                nbits -= 8;
            }
        }
        i += groups * 8;   /* 8 * bw bits a group: whole bytes, nothing left in acc */
    }
}

static unsigned bit_width(size_t max)
{
    unsigned bw = 1;   /* at least 1: some readers mishandle width 0 */
    while (bw < 32 && (max >> bw) != 0)
        bw++;
    return bw;
}

/* ---- pages ---- */

static socmon_status emit(smn_pq *w, const void *buf, size_t len)
{
    socmon_status st = w->out(w->user, buf, len);
    if (st == SOCMON_OK)
        w->off += (int64_t)len;
    return st;
}

/* Compresses w->page and writes its header and bytes; the header's fields besides the sizes are
 * the caller's (kind: data or dictionary, with its count and encoding). */
static socmon_status write_page(smn_pq *w, int kind, size_t nvalues, int encoding, chunk_meta *m)
{
    if (w->page.oom)
        return socmon_fail(SOCMON_ENOMEM, "parquet writer: out of memory");
    if (w->page.n > INT32_MAX)
        return socmon_fail(SOCMON_ERANGE, "parquet writer: a page of %zu bytes is over 2 GiB", w->page.n);
    size_t bound = ZSTD_compressBound(w->page.n);
    w->comp.n = 0;
    if (bound > w->comp.cap) {
        unsigned char *p = realloc(w->comp.p, bound);
        if (!p)
            return socmon_fail(SOCMON_ENOMEM, "parquet writer: out of memory");
        w->comp.p = p;
        w->comp.cap = bound;
    }
    if (!w->zc && !(w->zc = ZSTD_createCCtx()))
        return socmon_fail(SOCMON_ENOMEM, "parquet writer: out of memory");
    size_t clen = ZSTD_compressCCtx(w->zc, w->comp.p, bound, w->page.p, w->page.n, ZSTD_LEVEL);
    if (ZSTD_isError(clen))
        return socmon_fail(SOCMON_EIO, "parquet writer: zstd: %s", ZSTD_getErrorName(clen));
    smn_pq_buf h = {0};
    smn_tc t;
    smn_tc_init(&t, &h);
    smn_tc_i32(&t, 1, kind);
    smn_tc_i32(&t, 2, (int32_t)w->page.n);
    smn_tc_i32(&t, 3, (int32_t)clen);
    smn_tc_struct_begin(&t, kind == PQ_PAGE_DATA ? 5 : 7);   /* data_page_header, dictionary_page_header */
    smn_tc_i32(&t, 1, (int32_t)nvalues);
    smn_tc_i32(&t, 2, encoding);
    if (kind == PQ_PAGE_DATA) {
        smn_tc_i32(&t, 3, PQ_ENC_RLE);   /* definition levels */
        smn_tc_i32(&t, 4, PQ_ENC_RLE);   /* repetition levels: none, flat columns */
    }
    smn_tc_struct_end(&t);
    unsigned char stop = 0;
    smn_pq_buf_put(&h, &stop, 1);        /* the PageHeader's own end */
    socmon_status st = smn_tc_end(&t) ? socmon_fail(SOCMON_ENOMEM, "parquet writer: out of memory") : SOCMON_OK;
    if (st == SOCMON_OK)
        st = emit(w, h.p, h.n);
    if (st == SOCMON_OK)
        st = emit(w, w->comp.p, clen);
    m->unc += (int64_t)(h.n + w->page.n);
    m->comp += (int64_t)(h.n + clen);
    smn_pq_buf_free(&h);
    return st;
}

static socmon_status write_dictionary(smn_pq *w, const column *c, chunk_meta *m)
{
    w->page.n = 0;
    for (size_t i = 0; i < c->ndict; i++) {
        size_t len = strlen(c->dict[i]);
        smn_pq_buf_le32(&w->page, (uint32_t)len);
        smn_pq_buf_put(&w->page, c->dict[i], len);
    }
    m->dict_off = w->off;
    return write_page(w, PQ_PAGE_DICTIONARY, c->ndict, PQ_ENC_PLAIN, m);
}

/* Rows [r0, r1) of column c as one data page; *v is the index of the first present value. */
static socmon_status write_data_page(smn_pq *w, const column *c, size_t r0, size_t r1, size_t *v, chunk_meta *m,
                                     uint32_t *scratch)
{
    size_t nv = r1 - r0;
    w->page.n = 0;
    if (c->nullable) {
        nv = 0;
        for (size_t r = r0; r < r1; r++) {
            scratch[r - r0] = c->def.p[r];
            nv += c->def.p[r];
        }
        smn_pq_buf levels = {0};
        hybrid(&levels, scratch, r1 - r0, 1);
        smn_pq_buf_le32(&w->page, (uint32_t)levels.n);   /* data page v1: levels' length first */
        smn_pq_buf_put(&w->page, levels.p, levels.n);
        int oom = levels.oom;
        smn_pq_buf_free(&levels);
        if (oom)
            return socmon_fail(SOCMON_ENOMEM, "parquet writer: out of memory");
    }
    if (m->dict) {
        unsigned bw = bit_width(c->ndict - 1);
        unsigned char b = (unsigned char)bw;
        smn_pq_buf_put(&w->page, &b, 1);   /* RLE_DICTIONARY: the bit width, then the hybrid */
        const unsigned char *src = c->vals.p + *v * 4;
        for (size_t k = 0; k < nv; k++)
            memcpy(&scratch[k], src + 4 * k, 4);
        hybrid(&w->page, scratch, nv, bw);
    } else if (c->type == SMN_PQ_BOOLEAN) {
        unsigned char acc = 0;
        for (size_t k = 0; k < nv; k++) {
            acc |= (unsigned char)(c->vals.p[*v + k] << (k % 8));
            if (k % 8 == 7 || k + 1 == nv) {
                smn_pq_buf_put(&w->page, &acc, 1);
                acc = 0;
            }
        }
    } else if (nv) {   /* a page of nulls only has no values (and its column maybe no buffer) */
        smn_pq_buf_put(&w->page, c->vals.p + *v * 8, nv * 8);
    }
    *v += nv;
    if (m->data_off < 0)
        m->data_off = w->off;
    return write_page(w, PQ_PAGE_DATA, r1 - r0, m->dict ? PQ_ENC_RLE_DICTIONARY : PQ_ENC_PLAIN, m);
}

static socmon_status write_chunk(smn_pq *w, column *c, chunk_meta *m, uint32_t *scratch)
{
    *m = (chunk_meta){.start = w->off, .data_off = -1, .dict_off = -1};
    /* a string column with no value at all has no dictionary: its (all null) pages are PLAIN */
    m->dict = c->type == SMN_PQ_STRING && c->ndict > 0;
    socmon_status st = m->dict ? write_dictionary(w, c, m) : SOCMON_OK;
    size_t v = 0;
    for (size_t r0 = 0; st == SOCMON_OK && r0 < w->group_rows; r0 += w->page_rows) {
        size_t r1 = w->group_rows - r0 > w->page_rows ? r0 + w->page_rows : w->group_rows;
        st = write_data_page(w, c, r0, r1, &v, m, scratch);
    }
    return st;
}

static socmon_status write_group(smn_pq *w)
{
    if (w->group_rows == 0)
        return SOCMON_OK;
    if (w->nrg == w->rg_cap) {
        size_t cap = w->rg_cap ? w->rg_cap * 2 : 4;
        chunk_meta *m = realloc(w->meta, cap * w->ncol * sizeof *m);
        if (!m)
            return socmon_fail(SOCMON_ENOMEM, "parquet writer: out of memory");
        w->meta = m;
        uint64_t *r = realloc(w->rg_rows, cap * sizeof *r);
        if (!r)
            return socmon_fail(SOCMON_ENOMEM, "parquet writer: out of memory");
        w->rg_rows = r;
        w->rg_cap = cap;
    }
    socmon_status st = w->off == 0 ? emit(w, "PAR1", 4) : SOCMON_OK;   /* the file's first bytes */
    if (st != SOCMON_OK)
        return st;
    size_t page = w->group_rows < w->page_rows ? w->group_rows : w->page_rows;
    uint32_t *scratch = malloc(page * sizeof *scratch);
    if (!scratch)
        return socmon_fail(SOCMON_ENOMEM, "parquet writer: out of memory");
    for (size_t i = 0; i < w->ncol && st == SOCMON_OK; i++) {
        st = write_chunk(w, &w->col[i], &w->meta[w->nrg * w->ncol + i], scratch);
        column_reset(&w->col[i]);
    }
    free(scratch);
    if (st != SOCMON_OK)
        return st;
    w->rg_rows[w->nrg++] = w->group_rows;
    w->group_rows = w->group_bytes = 0;
    return SOCMON_OK;
}

socmon_status smn_pq_end_row(smn_pq *w)
{
    if (!w)
        return socmon_fail(SOCMON_EINVAL, "parquet writer: NULL writer");
    if (w->closed || w->failed)
        return socmon_fail(SOCMON_ESTATE, "parquet writer: %s", w->closed ? "closed" : "failed before");
    if (w->ncol == 0)
        return socmon_fail(SOCMON_ESTATE, "parquet writer: a row needs columns: none were declared");
    socmon_status st = SOCMON_OK;
    for (size_t i = 0; i < w->ncol && st == SOCMON_OK; i++)
        if (!w->col[i].set && (st = smn_pq_set_null(w, i)) != SOCMON_OK)
            st = socmon_fail(SOCMON_EINVAL, "parquet writer: row %llu has no value for required column '%s'",
                             (unsigned long long)w->rows, w->col[i].name);
    for (size_t i = 0; i < w->ncol; i++)
        w->col[i].set = 0;
    if (st != SOCMON_OK) {
        w->failed = 1;   /* the columns' lengths no longer agree: nothing more can be written */
        return st;
    }
    w->started = 1;
    w->group_rows++;
    w->rows++;
    if (w->group_bytes >= w->group_limit && (st = write_group(w)) != SOCMON_OK)
        w->failed = 1;
    return st;
}

/* ---- the footer ---- */

static int physical(smn_pq_type t)
{
    return t == SMN_PQ_DOUBLE ? PQ_T_DOUBLE : t == SMN_PQ_STRING ? PQ_T_BYTE_ARRAY : t == SMN_PQ_BOOLEAN ? PQ_T_BOOLEAN
                                                                                                       : PQ_T_INT64;
}

static void schema(smn_tc *t, const smn_pq *w)
{
    smn_tc_list(t, 2, SMN_TC_STRUCT, w->ncol + 1);
    smn_tc_struct_begin(t, 0);   /* the root: a group of every column */
    smn_tc_string(t, 4, "schema");
    smn_tc_i32(t, 5, (int32_t)w->ncol);
    smn_tc_struct_end(t);
    for (size_t i = 0; i < w->ncol; i++) {
        const column *c = &w->col[i];
        smn_tc_struct_begin(t, 0);
        smn_tc_i32(t, 1, physical(c->type));
        smn_tc_i32(t, 3, c->nullable ? PQ_OPTIONAL : PQ_REQUIRED);
        smn_tc_string(t, 4, c->name);
        if (c->type == SMN_PQ_STRING) {
            smn_tc_i32(t, 6, PQ_CONVERTED_UTF8);   /* for readers older than logical types */
            smn_tc_struct_begin(t, 10);            /* LogicalType */
            smn_tc_struct_begin(t, 1);             /* STRING */
            smn_tc_struct_end(t);
            smn_tc_struct_end(t);
        } else if (c->type == SMN_PQ_TIMESTAMP_NS) {
            smn_tc_struct_begin(t, 10);            /* LogicalType */
            smn_tc_struct_begin(t, 8);             /* TIMESTAMP */
            smn_tc_bool(t, 1, 0);                  /* isAdjustedToUTC: a run's own time, no zone */
            smn_tc_struct_begin(t, 2);             /* unit */
            smn_tc_struct_begin(t, 3);             /* NANOS */
            smn_tc_struct_end(t);
            smn_tc_struct_end(t);
            smn_tc_struct_end(t);
            smn_tc_struct_end(t);
        }
        smn_tc_struct_end(t);
    }
}

static void column_chunk(smn_tc *t, const column *c, const chunk_meta *m, uint64_t rows)
{
    smn_tc_struct_begin(t, 0);
    smn_tc_i64(t, 2, m->start);   /* file_offset: where the chunk starts */
    smn_tc_struct_begin(t, 3);    /* ColumnMetaData */
    smn_tc_i32(t, 1, physical(c->type));
    smn_tc_list(t, 2, SMN_TC_I32, m->dict ? 3 : 2);
    smn_tc_elem_i32(t, PQ_ENC_PLAIN);
    smn_tc_elem_i32(t, PQ_ENC_RLE);
    if (m->dict)
        smn_tc_elem_i32(t, PQ_ENC_RLE_DICTIONARY);
    smn_tc_list(t, 3, SMN_TC_BINARY, 1);
    smn_tc_elem_string(t, c->name);
    smn_tc_i32(t, 4, PQ_CODEC_ZSTD);
    smn_tc_i64(t, 5, (int64_t)rows);   /* num_values: nulls included */
    smn_tc_i64(t, 6, m->unc);
    smn_tc_i64(t, 7, m->comp);
    smn_tc_i64(t, 9, m->data_off);
    if (m->dict_off >= 0)
        smn_tc_i64(t, 11, m->dict_off);
    smn_tc_struct_end(t);
    smn_tc_struct_end(t);
}

static socmon_status footer(smn_pq *w)
{
    smn_pq_buf b = {0};
    smn_tc t;
    smn_tc_init(&t, &b);
    smn_tc_i32(&t, 1, 1);   /* version */
    schema(&t, w);
    smn_tc_i64(&t, 3, (int64_t)w->rows);
    smn_tc_list(&t, 4, SMN_TC_STRUCT, w->nrg);
    for (size_t g = 0; g < w->nrg; g++) {
        const chunk_meta *m = &w->meta[g * w->ncol];
        int64_t unc = 0, comp = 0;
        for (size_t i = 0; i < w->ncol; i++)
            unc += m[i].unc, comp += m[i].comp;
        smn_tc_struct_begin(&t, 0);
        smn_tc_list(&t, 1, SMN_TC_STRUCT, w->ncol);
        for (size_t i = 0; i < w->ncol; i++)
            column_chunk(&t, &w->col[i], &m[i], w->rg_rows[g]);
        smn_tc_i64(&t, 2, unc);   /* total_byte_size: uncompressed */
        smn_tc_i64(&t, 3, (int64_t)w->rg_rows[g]);
        smn_tc_i64(&t, 5, m[0].start);
        smn_tc_i64(&t, 6, comp);
        smn_tc_struct_end(&t);
    }
    smn_tc_string(&t, 6, "socmon version " SOCMON_VERSION);
    unsigned char stop = 0;
    smn_pq_buf_put(&b, &stop, 1);
    socmon_status st = smn_tc_end(&t) ? socmon_fail(SOCMON_ENOMEM, "parquet writer: out of memory") : SOCMON_OK;
    if (st == SOCMON_OK && b.n > UINT32_MAX)
        st = socmon_fail(SOCMON_ERANGE, "parquet writer: a footer of %zu bytes is over 4 GiB", b.n);
    if (st == SOCMON_OK)
        st = emit(w, b.p, b.n);
    size_t len = b.n;
    smn_pq_buf_free(&b);
    unsigned char tail[8] = {(unsigned char)len, (unsigned char)(len >> 8), (unsigned char)(len >> 16),
                             (unsigned char)(len >> 24), 'P', 'A', 'R', '1'};
    return st == SOCMON_OK ? emit(w, tail, sizeof tail) : st;
}

socmon_status smn_pq_close(smn_pq *w)
{
    if (!w)
        return socmon_fail(SOCMON_EINVAL, "parquet writer: NULL writer");
    if (w->closed || w->failed)
        return socmon_fail(SOCMON_ESTATE, "parquet writer: %s", w->closed ? "closed already" : "failed before");
    if (w->ncol == 0)
        return socmon_fail(SOCMON_ESTATE, "parquet writer: a file needs columns: none were declared");
    w->closed = 1;
    socmon_status st = w->off == 0 ? emit(w, "PAR1", 4) : SOCMON_OK;
    if (st == SOCMON_OK)
        st = write_group(w);
    return st == SOCMON_OK ? footer(w) : st;
}
