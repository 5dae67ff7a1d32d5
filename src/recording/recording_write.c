/* The streaming recording writer (format v2).
 *
 * Memory is one block, however long the run: the block's columns, the
 * encoded bytes and zstd's output. Every write goes through write_all, which
 * rides out EINTR and short writes; the first failure is kept, names the
 * errno, cuts the file back to its last whole block (when it is a regular
 * file) and is returned again by every later call, so a full disk stops a run
 * with everything written before it readable. socmon_recording_save is in
 * recording_save.c, appending (socmon_recwriter_reopen) in recording_reopen.c. */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <zstd.h>

#include "core/error.h"
#include "recording/recording_internal.h"
#include "recording/recording_v2.h"
#include "recording/timeline_internal.h"

struct socmon_recwriter {
    int fd;
    uint8_t *widths;
    int level, layout;
    int level_given;           /* the caller chose level (else the default): attachments use it too */
    smn_rec2_block blk;        /* room for blk.cap samples, grown up to block_cap as they come */
    size_t block_cap;          /* the samples a block holds (the header's block size) */
    uint8_t *raw, *comp;
    size_t raw_cap, comp_cap;
    ZSTD_CCtx *cctx;
    socmon_recwriter_stats stats;
    uint64_t last_t;
    uint64_t next_index;       /* the index the next appended sample gets (socmon_recwriter_skip_to) */
    uint64_t block_first;      /* the index of the pending block's first sample */
    uint64_t good_end;         /* file offset just after the last whole block */
    int regular;               /* fd is a regular file: a failed block can be cut off */
    off_t base;                /* fd's offset when the writer opened: where the header is */
    socmon_status failed;      /* first failure, returned by every later call */
    char failmsg[320];
    /* the attachments written (with --append, those the file held too): the reader takes one of
     * a name and at most SOCMON_REC2_MAX_ATTACHMENTS, and calls more damage, so the writer
     * refuses them instead of writing a file that reads as damaged */
    unsigned nattach;
    char attach_names[SOCMON_REC2_MAX_ATTACHMENTS][SOCMON_REC2_MAX_ATTACH_NAME + 1];
};

const char *smn_rec_errno_name(int e)
{
    switch (e) {
    case ENOSPC: return "ENOSPC";
    case EFBIG: return "EFBIG";
    case EIO: return "EIO";
    case EPIPE: return "EPIPE";
    case EDQUOT: return "EDQUOT";
    case EBADF: return "EBADF";
    case EACCES: return "EACCES";
    case EPERM: return "EPERM";
    case EROFS: return "EROFS";
    case EINVAL: return "EINVAL";
    case ENOMEM: return "ENOMEM";
    default: return "errno";
    }
}

static socmon_status fail_errno(socmon_recwriter *w, int e, const char *fmt, ...) SOCMON_PRINTF(3, 4);
static socmon_status fail_errno(socmon_recwriter *w, int e, const char *fmt, ...)
{
    char what[200];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    socmon_status st = e == EACCES || e == EPERM ? SOCMON_EPERM : SOCMON_EIO;
    if (w) {
        snprintf(w->failmsg, sizeof w->failmsg, "recording: %s: %s (%s %d)", what, strerror(e), smn_rec_errno_name(e), e);
        w->failed = st;
        /* Cut a half-written block off, so the file ends with whole blocks. */
        if (w->regular && ftruncate(w->fd, w->base + (off_t)w->good_end) == 0)
            w->stats.bytes = w->good_end;
        return socmon_fail(st, "%s", w->failmsg);
    }
    return socmon_fail(st, "recording: %s: %s (%s %d)", what, strerror(e), smn_rec_errno_name(e), e);
}

/* write(2) until every byte is out: EINTR and short writes are retried; a
 * write that returns 0 is an error (EIO), as a disk that takes nothing is. */
static int write_all(int fd, const void *buf, size_t len)
{
    const uint8_t *p = buf;
    while (len > 0) {
        ssize_t n = write(fd, p, len);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            return errno;
        }
        if (n == 0)
            return EIO;
        p += n;
        len -= (size_t)n;
    }
    return 0;
}

static socmon_status put(socmon_recwriter *w, const void *buf, size_t len, const char *what)
{
    int e = write_all(w->fd, buf, len);
    if (e)
        return fail_errno(w, e, "writing %s (%zu bytes at offset %llu)", what, len,
                          (unsigned long long)w->stats.bytes);
    w->stats.bytes += len;
    return SOCMON_OK;
}

static socmon_status write_header(socmon_recwriter *w, const socmon_recording *rec, uint32_t block_samples,
                                  uint64_t flush_ns, uint32_t flags)
{
    uint8_t *schema = NULL;
    size_t slen = 0;
    socmon_status st = smn_rec_schema_bytes(rec, &schema, &slen);
    if (st != SOCMON_OK)
        return st;
    size_t body = slen + 8 + 8 + 4 + 4, total = SOCMON_REC2_FIXED_HDR + body + 4;
    if (body > UINT32_MAX) {
        free(schema);
        return socmon_fail(SOCMON_ERANGE, "recording: header of %zu bytes exceeds 4 GiB", body);
    }
    uint8_t *h = malloc(total);
    if (!h) {
        free(schema);
        return socmon_fail(SOCMON_ENOMEM, "recording: out of memory for a %zu-byte header", total);
    }
    memcpy(h, SOCMON_REC_MAGIC, 8);
    socmon_rec2_put32(h + 8, SOCMON_REC2_VERSION);
    socmon_rec2_put32(h + 12, (uint32_t)body);
    memcpy(h + 16, schema, slen);
    free(schema);
    uint8_t *p = h + 16 + slen;
    socmon_rec2_put64(p, rec->start_wall_ns);
    socmon_rec2_put64(p + 8, flush_ns);
    socmon_rec2_put32(p + 16, block_samples);
    socmon_rec2_put32(p + 20, flags);
    socmon_rec2_put32(h + total - 4, smn_crc32(0, h, total - 4));
    st = put(w, h, total, "the header");
    free(h);
    w->good_end = w->stats.bytes;
    return st;
}

static void free_writer(socmon_recwriter *w)
{
    if (!w)
        return;
    smn_rec2_block_free(&w->blk);
    free(w->widths);
    free(w->raw);
    free(w->comp);
    ZSTD_freeCCtx(w->cctx);
    free(w);
}

/* The samples a writer's block has room for at first (doubled as they come, up to a block). */
#define BLOCK_START 16u

/* Builds a writer for rec's schema (rec is copied from, not kept) without
 * writing anything; *cap_out is its block size. */
static socmon_status make_writer(int fd, const socmon_recording *rec, const socmon_recwriter_opts *opts, int layout,
                                 socmon_recwriter **out, size_t *cap_out)
{
    socmon_recwriter_opts o = opts ? *opts : (socmon_recwriter_opts){0};
    int level_given = o.level != 0;
    if (o.level == 0)
        o.level = SOCMON_REC2_DEFAULT_LEVEL;
    if (o.level < 1 || o.level > 19)
        return socmon_fail(SOCMON_ERANGE, "recwriter: zstd level %d out of range 1..19", o.level);
    if (o.block_samples == 0)
        o.block_samples = SOCMON_REC2_DEFAULT_BLOCK_SAMPLES;
    if (o.block_samples > SOCMON_REC2_MAX_BLOCK_SAMPLES)
        return socmon_fail(SOCMON_ERANGE, "recwriter: block_samples %u out of range 1..%u", o.block_samples,
                           SOCMON_REC2_MAX_BLOCK_SAMPLES);
    if (o.block_bytes == 0)
        o.block_bytes = SOCMON_REC2_DEFAULT_BLOCK_BYTES;
    if (fd < 0)
        return socmon_fail(SOCMON_EINVAL, "recwriter: file descriptor %d is not open", fd);
    socmon_status st = smn_rec_check(rec);
    if (st != SOCMON_OK)
        return st;

    size_t nc = rec->ncounters, cols = nc + 3;
    size_t cap = o.block_bytes / (8 * cols);
    if (cap > o.block_samples)
        cap = o.block_samples;
    if (cap > SOCMON_REC2_MAX_BLOCK_VALUES / cols)
        cap = SOCMON_REC2_MAX_BLOCK_VALUES / cols;
    if (cap < 1)
        cap = 1;

    socmon_recwriter *w = calloc(1, sizeof *w);
    if (!w)
        return socmon_fail(SOCMON_ENOMEM, "recwriter: out of memory");
    w->fd = fd;
    w->level = o.level;
    w->level_given = level_given;
    w->layout = layout < 0 ? SOCMON_REC2_DEFAULT_LAYOUT : layout;
    struct stat sb;
    w->base = lseek(fd, 0, SEEK_CUR);
    w->regular = w->base >= 0 && fstat(fd, &sb) == 0 && S_ISREG(sb.st_mode) && !(fcntl(fd, F_GETFL) & O_APPEND);
    /* the block's columns start small and grow as samples come (smn_rec2_block_grow): a block of
     * 1,128 counters (a program's per-function counters) is 4 MiB, every page of it touched at
     * the first sample when its columns are laid out whole */
    w->block_cap = cap;
    st = smn_rec2_block_init(&w->blk, nc, cap < BLOCK_START ? cap : BLOCK_START);
    w->widths = malloc(nc + 1);
    w->raw_cap = smn_rec2_raw_bound(nc, cap);
    w->raw = malloc(w->raw_cap);
    w->comp_cap = ZSTD_compressBound(w->raw_cap);
    w->comp = malloc(w->comp_cap);
    w->cctx = ZSTD_createCCtx();
    if (st == SOCMON_OK && (!w->widths || !w->raw || !w->comp || !w->cctx))
        st = socmon_fail(SOCMON_ENOMEM, "recwriter: out of memory for blocks of %zu samples x %zu counters", cap,
                         nc);
    if (st != SOCMON_OK) {
        free_writer(w);
        return st;
    }
    for (size_t j = 0; j < nc; j++)
        w->widths[j] = (uint8_t)rec->counters[j].width;
    *out = w;
    *cap_out = cap;
    return SOCMON_OK;
}

socmon_status smn_rec2_writer_new(int fd, const socmon_recording *rec, const socmon_recwriter_opts *opts, int layout,
                              socmon_recwriter **out)
{
    socmon_recwriter *w = NULL;
    size_t cap = 0;
    socmon_status st = make_writer(fd, rec, opts, layout, &w, &cap);
    if (st != SOCMON_OK)
        return st;
    int sim = opts ? opts->simulated : 0;
    st = write_header(w, rec, (uint32_t)cap, opts ? opts->flush_ns : 0,
                      sim > 0 ? SOCMON_REC2_FLAG_SIMULATED : sim < 0 ? SOCMON_REC2_FLAG_REAL_CLOCK : 0);
    if (st != SOCMON_OK) {
        free_writer(w);
        return st;
    }
    *out = w;
    return SOCMON_OK;
}

socmon_status smn_rec2_writer_resume(int fd, const socmon_recording *rec, const socmon_recwriter_opts *opts,
                                        const smn_rec2_scan *scan, socmon_recwriter **out)
{
    socmon_recwriter_opts o = opts ? *opts : (socmon_recwriter_opts){0};
    /* the reader refuses a block longer than the header's block size */
    o.block_samples = scan->block_samples;
    socmon_recwriter *w = NULL;
    size_t cap = 0;
    socmon_status st = make_writer(fd, rec, &o, -1, &w, &cap);
    if (st != SOCMON_OK)
        return st;
    w->base = 0;
    w->regular = 1; /* the caller checked: a regular file, and ftruncate works with O_APPEND too */
    w->good_end = scan->good_end;
    w->next_index = scan->next_index;
    w->last_t = scan->last_t;
    w->stats.samples = w->stats.samples_written = scan->samples;
    w->stats.blocks = scan->blocks;
    w->stats.bytes = scan->good_end;
    w->nattach = scan->nattach;
    memcpy(w->attach_names, scan->attach_names, sizeof w->attach_names);
    *out = w;
    return SOCMON_OK;
}

socmon_status socmon_recwriter_open(int fd, const socmon_set *set, const char *target, uint64_t interval_ns,
                                    const socmon_recwriter_opts *opts, socmon_recwriter **out)
{
    if (!out)
        return socmon_fail(SOCMON_EINVAL, "recwriter_open: out is NULL");
    *out = NULL;
    if (!set)
        return socmon_fail(SOCMON_EINVAL, "recwriter_open: set is NULL");
    if (opts) {
        socmon_status sz = smn_check_size("socmon_recwriter_opts", opts->size, sizeof *opts);
        if (sz != SOCMON_OK)
            return sz;
    }
    socmon_recording *rec = NULL;
    socmon_status st = socmon_recording_new(set, target, interval_ns, &rec);
    if (st == SOCMON_OK)
        st = smn_rec2_writer_new(fd, rec, opts, -1, out);
    socmon_recording_free(rec);
    return st;
}

static socmon_status failed_again(const socmon_recwriter *w)
{
    return socmon_fail(w->failed, "%s (the writer stopped there)", w->failmsg);
}

/* Encodes, compresses and writes the pending samples as one block. */
static socmon_status write_block(socmon_recwriter *w)
{
    smn_rec2_block *b = &w->blk;
    if (b->n == 0)
        return SOCMON_OK;
    size_t raw = smn_rec2_encode(b, w->widths, w->layout, w->raw);
    size_t comp = ZSTD_compressCCtx(w->cctx, w->comp, w->comp_cap, w->raw, raw, w->level);
    if (ZSTD_isError(comp)) {
        w->failed = SOCMON_EIO;
        snprintf(w->failmsg, sizeof w->failmsg, "recording: zstd cannot compress block %llu: %s",
                 (unsigned long long)w->stats.blocks, ZSTD_getErrorName(comp));
        return socmon_fail(SOCMON_EIO, "%s", w->failmsg);
    }
    uint8_t h[SOCMON_REC2_BLOCK_HDR];
    memcpy(h, SOCMON_REC2_BLOCK_MARK, 8);
    socmon_rec2_put64(h + 8, w->block_first);
    socmon_rec2_put64(h + 16, b->t[0]);
    socmon_rec2_put32(h + 24, (uint32_t)b->n);
    socmon_rec2_put32(h + 28, (uint32_t)comp);
    socmon_rec2_put32(h + 32, (uint32_t)raw);
    socmon_rec2_put32(h + 36, smn_crc32(0, w->comp, comp));
    socmon_rec2_put32(h + 40, smn_crc32(0, h, 40));
    char what[64];
    snprintf(what, sizeof what, "block %llu", (unsigned long long)w->stats.blocks);
    socmon_status st = put(w, h, sizeof h, what);
    if (st == SOCMON_OK)
        st = put(w, w->comp, comp, what);
    if (st != SOCMON_OK)
        return st;
    w->good_end = w->stats.bytes;
    w->stats.blocks++;
    w->stats.samples_written += b->n;
    b->n = 0;
    return SOCMON_OK;
}

socmon_status socmon_recwriter_append(socmon_recwriter *w, const socmon_sample *s)
{
    if (!w || !s)
        return socmon_fail(SOCMON_EINVAL, "recwriter_append: %s is NULL", w ? "sample" : "writer");
    if (w->failed)
        return failed_again(w);
    smn_rec2_block *b = &w->blk;
    if (s->n != b->ncounters)
        return socmon_fail(SOCMON_EINVAL, "recwriter_append: sample has %zu values, the recording has %zu counters",
                           s->n, b->ncounters);
    if (s->n && !s->v)
        return socmon_fail(SOCMON_EINVAL, "recwriter_append: sample values are NULL");
    /* A reader takes intervals as differences of timestamps: one going back would read as an
     * interval of ~584 years. last_t is 0 before the first sample, so nothing is refused then.
     * Equal is fine: a coarse clock (jiffies on some boards) stamps two reads alike. */
    if (s->t_ns < w->last_t)
        return socmon_fail(SOCMON_ERANGE, "recwriter_append: sample %llu's timestamp %llu ns is before the "
                           "previous sample's, %llu ns: timestamps must not go backwards (not written)",
                           (unsigned long long)w->next_index, (unsigned long long)s->t_ns,
                           (unsigned long long)w->last_t);
    size_t i = b->n;
    if (i == b->cap) {
        size_t room = 2 * b->cap < w->block_cap ? 2 * b->cap : w->block_cap;
        socmon_status st = smn_rec2_block_grow(b, room);
        if (st != SOCMON_OK)
            return st;
    }
    if (i == 0)
        w->block_first = w->next_index;
    w->next_index++;
    b->t[i] = s->t_ns;
    b->flags[i] = s->flags;
    b->missed[i] = s->missed;
    for (size_t j = 0; j < b->ncounters; j++)
        b->v[j * b->cap + i] = s->v[j];
    b->n++;
    w->stats.samples++;
    w->last_t = s->t_ns;
    return b->n == w->block_cap ? write_block(w) : SOCMON_OK;
}

/* fdatasync, where the descriptor can be synced: a pipe or a socket cannot
 * (EINVAL), and that is not an error of the recording. */
static socmon_status sync_fd(socmon_recwriter *w)
{
    if (fdatasync(w->fd) != 0 && errno != EINVAL && errno != EROFS)
        return fail_errno(w, errno, "fdatasync after %llu bytes", (unsigned long long)w->stats.bytes);
    return SOCMON_OK;
}

socmon_status socmon_recwriter_skip_to(socmon_recwriter *w, uint64_t index)
{
    if (!w)
        return socmon_fail(SOCMON_EINVAL, "recwriter_skip_to: writer is NULL");
    if (w->failed)
        return failed_again(w);
    if (index < w->next_index)
        return socmon_fail(SOCMON_ERANGE, "recwriter_skip_to: index %llu is below the next index %llu (a recording "
                           "cannot go back)", (unsigned long long)index, (unsigned long long)w->next_index);
    if (index == w->next_index)
        return SOCMON_OK;
    /* a block's samples have consecutive indices: the pending ones go out first */
    socmon_status st = write_block(w);
    if (st == SOCMON_OK)
        w->next_index = index;
    return st;
}

uint64_t socmon_recwriter_next_index(const socmon_recwriter *w)
{
    return w ? w->next_index : 0;
}

socmon_status socmon_recwriter_flush(socmon_recwriter *w)
{
    if (!w)
        return socmon_fail(SOCMON_EINVAL, "recwriter_flush: writer is NULL");
    if (w->failed)
        return failed_again(w);
    socmon_status st = write_block(w);
    return st != SOCMON_OK ? st : sync_fd(w);
}

enum { ATTACH_FAST_BYTES = 256 * 1024 };

socmon_status socmon_recwriter_attach(socmon_recwriter *w, const char *name, const void *data, size_t len)
{
    if (!w || !name || (!data && len))
        return socmon_fail(SOCMON_EINVAL, "recwriter_attach: NULL argument");
    if (w->failed)
        return failed_again(w);
    for (unsigned i = 0; i < w->nattach; i++)
        if (strcmp(w->attach_names[i], name) == 0)
            return socmon_fail(SOCMON_EINVAL, "recwriter_attach: the recording already has an attachment '%s'",
                               w->attach_names[i]);
    if (w->nattach >= SOCMON_REC2_MAX_ATTACHMENTS)
        return socmon_fail(SOCMON_ERANGE, "recwriter_attach: a recording holds at most %u attachments",
                           SOCMON_REC2_MAX_ATTACHMENTS);
    /* the samples so far first: an attachment is a record between blocks */
    socmon_status st = write_block(w);
    uint8_t *b = NULL;
    size_t n = 0;
    /* A large attachment (an Ibex profile's JSON: CoreMark's is megabytes) at zstd level 1
     * unless the caller chose a level: on such text both faster and smaller than the default 3
     * (docs/recording-format.md, "Attachments"). A small one keeps the writer's level. */
    int level = !w->level_given && len >= ATTACH_FAST_BYTES ? 1 : w->level;
    if (st == SOCMON_OK && (st = smn_rec2_attach_encode(name, data, len, level, &b, &n)) == SOCMON_OK)
        st = put(w, b, n, "an attachment");
    if (st == SOCMON_OK) {
        w->good_end = w->stats.bytes;
        snprintf(w->attach_names[w->nattach++], sizeof w->attach_names[0], "%s", name);
    }
    free(b);
    return st;
}

socmon_status socmon_recwriter_close(socmon_recwriter *w)
{
    if (!w)
        return SOCMON_OK;
    socmon_status st = w->failed ? failed_again(w) : write_block(w);
    if (st == SOCMON_OK) {
        uint8_t e[SOCMON_REC2_END_LEN];
        memcpy(e, SOCMON_REC2_END_MARK, 8);
        /* the index after the last sample: with a skip at the end, more than the blocks hold */
        socmon_rec2_put64(e + 8, w->next_index);
        socmon_rec2_put64(e + 16, w->last_t);
        socmon_rec2_put64(e + 24, w->stats.blocks);
        socmon_rec2_put32(e + 32, smn_crc32(0, e, 32));
        st = put(w, e, sizeof e, "the end record");
    }
    if (st == SOCMON_OK)
        st = sync_fd(w);
    free_writer(w);
    return st;
}

void socmon_recwriter_get_stats(const socmon_recwriter *w, socmon_recwriter_stats *out)
{
    if (!out)
        return;
    if (!w) {
        memset(out, 0, sizeof *out);
        return;
    }
    *out = w->stats;
}
