/* Opening a recording without loading its samples (socmon_recording_open): one pass over the file
 * checks it exactly as a load does and keeps its schema, what it lost and its attachments; every
 * later pass (smn_recording_each, a recording source's run) reads the samples from the file again,
 * one block at a time. A load holds at most 2^30 values (SOCMON_REC2_MAX_LOAD_VALUES): 38 s of
 * the 8x8 SoC at -I 100us. An opened file has no such limit, and what it costs in memory is a
 * block, not the run. A version 1 file (the whole timeline in one piece) is loaded as before. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/error.h"
#include "recording/recording_internal.h"
#include "recording/recording_v2.h"

/* A v2 file: magic, then version 2 (anything else goes to the loader and its words). */
static int is_v2(const uint8_t *p, size_t len)
{
    return len >= 12 && memcmp(p, SOCMON_REC_MAGIC, 8) == 0 && socmon_rec2_get(p + 8, 4) == SOCMON_REC2_VERSION;
}

socmon_status socmon_recording_open_buffer(const void *buf, size_t len, socmon_recording **out)
{
    if (!out)
        return socmon_fail(SOCMON_EINVAL, "recording_open_buffer: out is NULL");
    *out = NULL;
    if (!buf || !is_v2(buf, len))
        return socmon_recording_parse(buf, len, out);
    socmon_status st = smn_rec2_open(buf, len, 0, out);
    if (st == SOCMON_OK) {
        (*out)->bytes = buf;
        (*out)->nbytes = len;
    }
    return st;
}

socmon_status socmon_recording_open(const char *path, socmon_recording **out)
{
    if (!out)
        return socmon_fail(SOCMON_EINVAL, "recording_open: out is NULL");
    *out = NULL;
    if (!path || !*path)
        return socmon_fail(SOCMON_EINVAL, "recording_open: path is NULL or empty");
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        int e = errno;
        return socmon_fail(e == ENOENT ? SOCMON_ENOENT : e == EACCES ? SOCMON_EPERM : SOCMON_EIO,
                           "recording_open: cannot open %s: %s", path, strerror(e));
    }
    struct stat sb;
    uint8_t head[12];
    if (fstat(fd, &sb) != 0 || !S_ISREG(sb.st_mode) || sb.st_size < 12 || (uint64_t)sb.st_size > SIZE_MAX ||
        pread(fd, head, sizeof head, 0) != (ssize_t)sizeof head || !is_v2(head, sizeof head)) {
        close(fd);
        return socmon_recording_load(path, out);   /* v1, or not a recording: the loader's words */
    }
    size_t len = (size_t)sb.st_size;
    void *map = mmap(NULL, len, PROT_READ, MAP_PRIVATE, fd, 0);
    if (map == MAP_FAILED) {
        int e = errno;
        close(fd);
        return socmon_fail(e == ENOMEM ? SOCMON_ENOMEM : SOCMON_EIO, "recording_open: cannot map %s (%zu bytes): %s",
                           path, len, strerror(e));
    }
    madvise(map, len, MADV_SEQUENTIAL);
    socmon_status st = smn_rec2_open(map, len, 1, out);
    if (st != SOCMON_OK) {
        munmap(map, len);
        close(fd);
        return socmon_fail_prefix(st, "%s: ", path);
    }
    (*out)->bytes = map;
    (*out)->nbytes = len;
    (*out)->mapped = 1;
    (*out)->fd = fd;
    return SOCMON_OK;
}

void smn_recording_close_file(socmon_recording *rec)
{
    if (rec->mapped) {
        munmap((void *)(uintptr_t)rec->bytes, rec->nbytes);
        close(rec->fd);
    }
    rec->bytes = NULL, rec->mapped = 0;
}

socmon_status smn_recording_each(const socmon_recording *rec, smn_rec2_each_fn each, void *user)
{
    if (rec->streamed) {
        /* a file cut shorter since it was opened would fault on the pages it lost */
        struct stat sb;
        if (rec->mapped && (fstat(rec->fd, &sb) != 0 || (uint64_t)sb.st_size < rec->nbytes))
            return socmon_fail(SOCMON_EIO, "recording: the file was cut to %lld bytes while it was read (it had "
                                           "%zu)", (long long)sb.st_size, rec->nbytes);
        return smn_rec2_each(rec->bytes, rec->nbytes, rec->mapped, each, user);
    }
    socmon_timeline_iter it;
    size_t nc = rec->ncounters;
    socmon_sample s = {.n = nc, .v = calloc(nc + 1, sizeof *s.v)};
    if (!s.v || socmon_timeline_iter_init(rec->tl, &it) != SOCMON_OK) {
        free(s.v);
        return socmon_fail(SOCMON_ENOMEM, "recording: out of memory");
    }
    socmon_status st = SOCMON_OK;
    while (st == SOCMON_OK && socmon_timeline_iter_next(&it, &s) == SOCMON_OK)
        st = each(user, &s);
    socmon_timeline_iter_free(&it);
    free(s.v);
    return st;
}

uint64_t socmon_recording_nsamples(const socmon_recording *rec)
{
    return rec->streamed ? rec->nsamples : socmon_timeline_len(rec->tl);
}

int socmon_recording_streamed(const socmon_recording *rec)
{
    return rec->streamed;
}

int smn_recording_time_at(const socmon_recording *rec, uint64_t row, uint64_t *t)
{
    if (rec->streamed) {
        for (size_t i = 0; i < rec->nknown; i++)
            if (rec->known[i].row == row && row < rec->nsamples) {
                *t = rec->known[i].t;
                return 1;
            }
        return 0;
    }
    size_t nc = rec->ncounters;
    uint64_t *v = calloc(nc + 1, sizeof *v);
    socmon_sample s = {.n = nc, .v = v};
    int ok = v && row < socmon_timeline_len(rec->tl) && socmon_timeline_get(rec->tl, (size_t)row, &s) == SOCMON_OK;
    free(v);
    *t = ok ? s.t_ns : 0;
    return ok;
}
