/* TEMPORARY (branch wt-rec only): a stand-in for the v2 streaming writer. It keeps the run in
 * memory and rewrites the whole v1 file into fd on every flush; enough to test record's paths. */
#include "cli/recwriter_shim.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/error.h"

struct socmon_recwriter {
    int fd;
    socmon_recording *rec;
    socmon_recwriter_stats s;
};

socmon_status socmon_recwriter_open(int fd, const socmon_set *set, const char *target, uint64_t interval_ns,
                                    const socmon_recwriter_opts *opts, socmon_recwriter **out)
{
    (void)opts;
    socmon_recwriter *w = calloc(1, sizeof *w);
    if (!w)
        return SOCMON_ENOMEM;
    w->fd = fd;
    socmon_status st = socmon_recording_new(set, target, interval_ns, &w->rec);
    if (st != SOCMON_OK) {
        free(w);
        return st;
    }
    /* a "header": a few bytes, so a full device fails at open as the real writer would */
    if (write(fd, "SOCMONv", 7) != 7) {
        st = socmon_fail(SOCMON_EIO, "writing the header: %s", strerror(errno));
        socmon_recording_free(w->rec);
        free(w);
        return st;
    }
    w->s.bytes = 7;
    *out = w;
    return SOCMON_OK;
}

socmon_status socmon_recwriter_append(socmon_recwriter *w, const socmon_sample *s)
{
    w->s.samples++;
    return socmon_timeline_append(socmon_recording_timeline(w->rec), s);
}

socmon_status socmon_recwriter_flush(socmon_recwriter *w)
{
    if (w->s.samples == w->s.samples_written)
        return SOCMON_OK;
    char tmpl[] = "/tmp/socmon-shim-XXXXXX";
    int t = mkstemp(tmpl);
    if (t < 0)
        return socmon_fail(SOCMON_EIO, "shim: %s", strerror(errno));
    close(t);
    socmon_status st = socmon_recording_save(w->rec, tmpl);
    FILE *f = st == SOCMON_OK ? fopen(tmpl, "rb") : NULL;
    unlink(tmpl);
    if (!f)
        return st != SOCMON_OK ? st : socmon_fail(SOCMON_EIO, "shim: reopen");
    char buf[65536];
    size_t n;
    off_t off = 0;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0) {
        ssize_t k = pwrite(w->fd, buf, n, off);
        if (k != (ssize_t)n) {
            fclose(f);
            return socmon_fail(SOCMON_EIO, "writing the recording: %s", strerror(k < 0 ? errno : ENOSPC));
        }
        off += (off_t)n;
    }
    fclose(f);
    w->s.bytes = (uint64_t)off;
    w->s.blocks++;
    w->s.samples_written = w->s.samples;
    return fdatasync(w->fd) == 0 || errno == EINVAL ? SOCMON_OK : socmon_fail(SOCMON_EIO, "fdatasync: %s", strerror(errno));
}

socmon_status socmon_recwriter_close(socmon_recwriter *w)
{
    if (!w)
        return SOCMON_OK;
    socmon_status st = socmon_recwriter_flush(w);
    socmon_recording_free(w->rec);
    free(w);
    return st;
}

void socmon_recwriter_get_stats(const socmon_recwriter *w, socmon_recwriter_stats *out)
{
    *out = w->s;
}
