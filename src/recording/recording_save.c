/* socmon_recording_save: a whole recording written through the streaming
 * writer (recording_write.c) to a fresh temporary file next to the target,
 * then renamed over it, so a crash leaves the old file or the new one. */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/error.h"
#include "recording/recording_internal.h"
#include "recording/recording_v2.h"
#include "recording/timeline_internal.h"

static socmon_status save_errno(int e, const char *fmt, ...) SOCMON_PRINTF(2, 3);
static socmon_status save_errno(int e, const char *fmt, ...)
{
    char what[200];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    return socmon_fail(e == EACCES || e == EPERM ? SOCMON_EPERM : SOCMON_EIO, "recording: %s: %s (%s %d)", what,
                       strerror(e), smn_rec_errno_name(e), e);
}

static socmon_status append_one(void *w, const socmon_sample *s)
{
    return socmon_recwriter_append(w, s);
}

socmon_status smn_recording_write_fd(const socmon_recording *rec, int fd, const socmon_recwriter_opts *opts,
                                        int layout)
{
    if (layout > SOCMON_REC2_LAYOUT_PLANES)
        return socmon_fail(SOCMON_ERANGE, "recording: column layout %d out of range 0..1", layout);
    socmon_recwriter *w = NULL;
    socmon_status st = smn_rec2_writer_new(fd, rec, opts, layout, &w);
    if (st != SOCMON_OK)
        return st;
    /* loaded or opened (its samples read from its file again, a block at a time) */
    st = smn_recording_each(rec, append_one, w);
    if (st != SOCMON_OK) {
        socmon_recwriter_close(w); /* a failed writer writes nothing more */
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
                               strerror(e), smn_rec_errno_name(e));
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
    socmon_status st = smn_rec_check(rec);
    if (st != SOCMON_OK)
        return st;
    char *tmp = NULL;
    int fd = -1;
    st = create_temp(path, &tmp, &fd);
    if (st != SOCMON_OK)
        return st;
    /* flush_ns stays 0: the file is written whole, see socmon_recording_save */
    socmon_recwriter_opts o = {
        .simulated = !rec->info.clock_known ? 0 : rec->info.simulated ? 1 : -1};
    st = smn_recording_write_fd(rec, fd, &o, -1);
    if (close(fd) != 0 && st == SOCMON_OK)
        st = save_errno(errno, "closing %s", tmp);
    if (st == SOCMON_OK && rename(tmp, path) != 0)
        st = save_errno(errno, "renaming %s to %s", tmp, path);
    if (st != SOCMON_OK) {
        unlink(tmp);
        st = socmon_fail_prefix(st, "%s: ", path);
    }
    free(tmp);
    return st;
}
