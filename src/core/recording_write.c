/* The streaming recording writer (format v2) and socmon_recording_save,
 * which writes through it.
 *
 * Memory is one block, however long the run: the block's columns, the
 * encoded bytes and zstd's output. Every write goes through write_all, which
 * rides out EINTR and short writes; the first failure is kept, names the
 * errno, cuts the file back to its last whole block (when it is a regular
 * file) and is returned again by every later call, so a full disk stops a run
 * with everything written before it readable. */
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
#include "core/recording_internal.h"
#include "core/recording_v2.h"
#include "core/timeline_internal.h"

struct socmon_recwriter {
    int fd;
    uint8_t *widths;
    int level, layout;
    socmon_rec2_block blk;
    uint8_t *raw, *comp;
    size_t raw_cap, comp_cap;
    ZSTD_CCtx *cctx;
    socmon_recwriter_stats stats;
    uint64_t last_t;
    uint64_t good_end;         /* file offset just after the last whole block */
    int regular;               /* fd is a regular file: a failed block can be cut off */
    off_t base;                /* fd's offset when the writer opened: where the header is */
    socmon_status failed;      /* first failure, returned by every later call */
    char failmsg[320];
};

/* The symbolic name of the errnos a writer meets, for messages a person can
 * search for. */
static const char *errno_name(int e)
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
        snprintf(w->failmsg, sizeof w->failmsg, "recording: %s: %s (%s %d)", what, strerror(e), errno_name(e), e);
        w->failed = st;
        /* Cut a half-written block off, so the file ends with whole blocks. */
        if (w->regular && ftruncate(w->fd, w->base + (off_t)w->good_end) == 0)
            w->stats.bytes = w->good_end;
        return socmon_fail(st, "%s", w->failmsg);
    }
    return socmon_fail(st, "recording: %s: %s (%s %d)", what, strerror(e), errno_name(e), e);
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
    socmon_status st = socmon_rec_schema_bytes(rec, &schema, &slen);
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
    socmon_rec2_put32(h + total - 4, socmon_crc32(0, h, total - 4));
    st = put(w, h, total, "the header");
    free(h);
    w->good_end = w->stats.bytes;
    return st;
}

static void free_writer(socmon_recwriter *w)
{
    if (!w)
        return;
    socmon_rec2_block_free(&w->blk);
    free(w->widths);
    free(w->raw);
    free(w->comp);
    ZSTD_freeCCtx(w->cctx);
    free(w);
}

/* Builds a writer for rec's schema (rec is copied from, not kept). */
static socmon_status open_rec(int fd, const socmon_recording *rec, const socmon_recwriter_opts *opts, int layout,
                              socmon_recwriter **out)
{
    socmon_recwriter_opts o = opts ? *opts : (socmon_recwriter_opts){0};
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
    socmon_status st = socmon_rec_check(rec);
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
    w->layout = layout < 0 ? SOCMON_REC2_DEFAULT_LAYOUT : layout;
    struct stat sb;
    w->base = lseek(fd, 0, SEEK_CUR);
    w->regular = w->base >= 0 && fstat(fd, &sb) == 0 && S_ISREG(sb.st_mode) && !(fcntl(fd, F_GETFL) & O_APPEND);
    st = socmon_rec2_block_init(&w->blk, nc, cap);
    w->widths = malloc(nc + 1);
    w->raw_cap = socmon_rec2_raw_bound(nc, cap);
    w->raw = malloc(w->raw_cap);
    w->comp_cap = ZSTD_compressBound(w->raw_cap);
    w->comp = malloc(w->comp_cap);
    w->cctx = ZSTD_createCCtx();
    if (st == SOCMON_OK && (!w->widths || !w->raw || !w->comp || !w->cctx))
        st = socmon_fail(SOCMON_ENOMEM, "recwriter: out of memory for blocks of %zu samples x %zu counters", cap,
                         nc);
    if (st == SOCMON_OK) {
        for (size_t j = 0; j < nc; j++)
            w->widths[j] = (uint8_t)rec->counters[j].width;
        st = write_header(w, rec, (uint32_t)cap, o.flush_ns, o.simulated > 0   ? SOCMON_REC2_FLAG_SIMULATED
                                                         : o.simulated < 0 ? SOCMON_REC2_FLAG_REAL_CLOCK
                                                                           : 0);
    }
    if (st != SOCMON_OK) {
        free_writer(w);
        return st;
    }
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
    socmon_recording *rec = NULL;
    socmon_status st = socmon_recording_new(set, target, interval_ns, &rec);
    if (st == SOCMON_OK)
        st = open_rec(fd, rec, opts, -1, out);
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
    socmon_rec2_block *b = &w->blk;
    if (b->n == 0)
        return SOCMON_OK;
    size_t raw = socmon_rec2_encode(b, w->widths, w->layout, w->raw);
    size_t comp = ZSTD_compressCCtx(w->cctx, w->comp, w->comp_cap, w->raw, raw, w->level);
    if (ZSTD_isError(comp)) {
        w->failed = SOCMON_EIO;
        snprintf(w->failmsg, sizeof w->failmsg, "recording: zstd cannot compress block %llu: %s",
                 (unsigned long long)w->stats.blocks, ZSTD_getErrorName(comp));
        return socmon_fail(SOCMON_EIO, "%s", w->failmsg);
    }
    uint8_t h[SOCMON_REC2_BLOCK_HDR];
    memcpy(h, SOCMON_REC2_BLOCK_MARK, 8);
    socmon_rec2_put64(h + 8, w->stats.samples_written);
    socmon_rec2_put64(h + 16, b->t[0]);
    socmon_rec2_put32(h + 24, (uint32_t)b->n);
    socmon_rec2_put32(h + 28, (uint32_t)comp);
    socmon_rec2_put32(h + 32, (uint32_t)raw);
    socmon_rec2_put32(h + 36, socmon_crc32(0, w->comp, comp));
    socmon_rec2_put32(h + 40, socmon_crc32(0, h, 40));
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
    socmon_rec2_block *b = &w->blk;
    if (s->n != b->ncounters)
        return socmon_fail(SOCMON_EINVAL, "recwriter_append: sample has %zu values, the recording has %zu counters",
                           s->n, b->ncounters);
    if (s->n && !s->v)
        return socmon_fail(SOCMON_EINVAL, "recwriter_append: sample values are NULL");
    size_t i = b->n;
    b->t[i] = s->t_ns;
    b->flags[i] = s->flags;
    b->missed[i] = s->missed;
    for (size_t j = 0; j < b->ncounters; j++)
        b->v[j * b->cap + i] = s->v[j];
    b->n++;
    w->stats.samples++;
    w->last_t = s->t_ns;
    return b->n == b->cap ? write_block(w) : SOCMON_OK;
}

/* fdatasync, where the descriptor can be synced: a pipe or a socket cannot
 * (EINVAL), and that is not an error of the recording. */
static socmon_status sync_fd(socmon_recwriter *w)
{
    if (fdatasync(w->fd) != 0 && errno != EINVAL && errno != EROFS)
        return fail_errno(w, errno, "fdatasync after %llu bytes", (unsigned long long)w->stats.bytes);
    return SOCMON_OK;
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

socmon_status socmon_recwriter_close(socmon_recwriter *w)
{
    if (!w)
        return SOCMON_OK;
    socmon_status st = w->failed ? failed_again(w) : write_block(w);
    if (st == SOCMON_OK) {
        uint8_t e[SOCMON_REC2_END_LEN];
        memcpy(e, SOCMON_REC2_END_MARK, 8);
        socmon_rec2_put64(e + 8, w->stats.samples_written);
        socmon_rec2_put64(e + 16, w->last_t);
        socmon_rec2_put64(e + 24, w->stats.blocks);
        socmon_rec2_put32(e + 32, socmon_crc32(0, e, 32));
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

/* ---- saving a whole recording ---- */

socmon_status socmon_recording_write_fd(const socmon_recording *rec, int fd, const socmon_recwriter_opts *opts,
                                        int layout)
{
    if (layout > SOCMON_REC2_LAYOUT_PLANES)
        return socmon_fail(SOCMON_ERANGE, "recording: column layout %d out of range 0..1", layout);
    socmon_recwriter *w = NULL;
    socmon_status st = open_rec(fd, rec, opts, layout, &w);
    if (st != SOCMON_OK)
        return st;
    size_t n = rec->ncounters;
    uint64_t *v = calloc(n + 1, sizeof *v);
    socmon_sample s = {0, 0, 0, n, v};
    socmon_timeline_iter it;
    if (!v || socmon_timeline_iter_init(rec->tl, &it) != SOCMON_OK) {
        free(v);
        free_writer(w);
        return socmon_fail(SOCMON_ENOMEM, "recording_save: out of memory");
    }
    while (st == SOCMON_OK && socmon_timeline_iter_next(&it, &s) == SOCMON_OK)
        st = socmon_recwriter_append(w, &s);
    socmon_timeline_iter_free(&it);
    free(v);
    if (st != SOCMON_OK) {
        free_writer(w);
        return st;
    }
    return socmon_recwriter_close(w);
}

/* A fresh file next to path: path.PID.N.RANDOM, created with O_EXCL and mode
 * 0666 so the kernel applies the umask as it does for any file a program
 * creates (mkstemp's 0600 would hide a recording from the user's group, and a
 * fixed fchmod would override a umask that asks for privacy). Two savers
 * never share a name: the pid tells processes apart, a random part (clock,
 * a stack address) threads, and EEXIST picks the next try. No global counter:
 * the library keeps no global state. */
static socmon_status create_temp(const char *path, char **tmpout, int *fdout)
{
    size_t cap = strlen(path) + 64;
    char *tmp = malloc(cap);
    if (!tmp)
        return socmon_fail(SOCMON_ENOMEM, "recording_save: out of memory");
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    uint64_t seed = (uint64_t)ts.tv_nsec ^ ((uint64_t)ts.tv_sec << 30) ^ (uint64_t)(uintptr_t)&ts ^
                    (uint64_t)(uintptr_t)tmp;
    for (int tries = 0; tries < 100; tries++) {
        seed = seed * UINT64_C(6364136223846793005) + UINT64_C(1442695040888963407);
        snprintf(tmp, cap, "%s.%ld.%d.%08x", path, (long)getpid(), tries, (unsigned)(seed >> 32));
        int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (fd >= 0) {
            *tmpout = tmp;
            *fdout = fd;
            return SOCMON_OK;
        }
        if (errno != EEXIST) {
            int e = errno;
            free(tmp);
            return socmon_fail(e == EACCES || e == EPERM ? SOCMON_EPERM : SOCMON_EIO,
                               "recording_save: cannot create a temporary file next to %s: %s (%s)", path,
                               strerror(e), errno_name(e));
        }
    }
    free(tmp);
    return socmon_fail(SOCMON_EIO, "recording_save: cannot create a temporary file next to %s: 100 names taken",
                       path);
}

socmon_status socmon_recording_save(const socmon_recording *rec, const char *path)
{
    if (!rec || !path || !*path)
        return socmon_fail(SOCMON_EINVAL, "recording_save: %s is NULL or empty", rec ? "path" : "recording");
    socmon_status st = socmon_rec_check(rec);
    if (st != SOCMON_OK)
        return st;
    char *tmp = NULL;
    int fd = -1;
    st = create_temp(path, &tmp, &fd);
    if (st != SOCMON_OK)
        return st;
    /* flush_ns stays 0: the file is written whole, see socmon_recording_save */
    socmon_recwriter_opts o = {.simulated = !rec->info.clock_known ? 0 : rec->info.simulated ? 1 : -1};
    st = socmon_recording_write_fd(rec, fd, &o, -1);
    if (close(fd) != 0 && st == SOCMON_OK)
        st = fail_errno(NULL, errno, "closing %s", tmp);
    if (st == SOCMON_OK && rename(tmp, path) != 0)
        st = fail_errno(NULL, errno, "renaming %s to %s", tmp, path);
    if (st != SOCMON_OK) {
        unlink(tmp);
        st = socmon_fail_prefix(st, "%s: ", path);
    }
    free(tmp);
    return st;
}
