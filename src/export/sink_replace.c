/* A sink that replaces a file in one step: the bytes go to a new file next to PATH and, when
 * the sink closes with no failure, rename(2) puts it at PATH. A reader of PATH sees the old
 * file or the new one, never half of one: what node_exporter's textfile collector needs from
 * `socmon stat --prometheus -o DIR/socmon.prom`, which it may read at any moment.
 *
 * The temporary file is "DIR/.NAME.tmp-PID-N" (a dot file, so the collector's *.prom glob never
 * matches it), created exclusively (O_EXCL: two writers never share one) with the old file's
 * permissions, or 0666 less the umask. A PATH that is a device node, FIFO or symlink is written
 * through, as a plain `stat -o` does (rename would replace the node itself). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/error.h"
#include "export/sink.h"

typedef struct replace_sink {
    socmon_sink base;
    FILE *fp;            /* the temporary file */
    char *path, *tmp;
} replace_sink;

static socmon_status io_error(const replace_sink *r, const char *what)
{
    return socmon_fail(SOCMON_EIO, "%s %s: %s", what, r->tmp, strerror(errno));
}

static socmon_status rs_write(socmon_sink *s, const void *buf, size_t len)
{
    replace_sink *r = (replace_sink *)s;
    return fwrite(buf, 1, len, r->fp) == len ? SOCMON_OK : io_error(r, "writing");
}

static socmon_status rs_flush(socmon_sink *s)
{
    replace_sink *r = (replace_sink *)s;
    return fflush(r->fp) == 0 ? SOCMON_OK : io_error(r, "writing");
}

static socmon_status rs_close(socmon_sink *s)
{
    replace_sink *r = (replace_sink *)s;
    int ok = s->err == SOCMON_OK;   /* a failed write or a cancel: PATH stays as it was */
    socmon_status st = SOCMON_OK;
    /* the data on disk before the name moves: a crash then leaves the old file, not an empty one */
    if (ok && (fflush(r->fp) != 0 || fsync(fileno(r->fp)) != 0))
        st = io_error(r, "writing");
    if (fclose(r->fp) != 0 && ok && st == SOCMON_OK)
        st = io_error(r, "closing");
    if (ok && st == SOCMON_OK && rename(r->tmp, r->path) != 0)
        st = socmon_fail(SOCMON_EIO, "cannot replace %s with %s: %s", r->path, r->tmp, strerror(errno));
    if (!ok || st != SOCMON_OK)
        unlink(r->tmp);
    free(r->path);
    free(r->tmp);
    free(r);
    return st;
}

static const socmon_sink_ops replace_ops = {rs_write, rs_flush, rs_close};

/* Creates the temporary file exclusively; mode: the permissions it gets. */
static int create_tmp(replace_sink *r, mode_t mode, int keep_mode)
{
    const char *slash = strrchr(r->path, '/');
    int dirlen = slash ? (int)(slash - r->path + 1) : 0;
    const char *base = slash ? slash + 1 : r->path;
    size_t len = strlen(r->path) + 48;
    if (!(r->tmp = malloc(len)))
        return -1;
    for (unsigned n = 0; n < 1000; n++) {
        snprintf(r->tmp, len, "%.*s.%s.tmp-%ld-%u", dirlen, r->path, base, (long)getpid(), n);
        int fd = open(r->tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, keep_mode ? 0600 : mode);
        if (fd >= 0) {
            if (keep_mode && fchmod(fd, mode) != 0) {
                int e = errno;
                close(fd);
                unlink(r->tmp);
                errno = e;
                return -1;
            }
            return fd;
        }
        if (errno != EEXIST)
            return -1;
    }
    errno = EEXIST;
    return -1;
}

socmon_status socmon_sink_replace_path(const char *path, socmon_sink **out)
{
    if (!path || !*path || !out)
        return socmon_fail(SOCMON_EINVAL, "socmon_sink_replace_path: NULL or empty argument");
    struct stat sb;
    int exists = lstat(path, &sb) == 0;
    if (exists && !S_ISREG(sb.st_mode))
        return socmon_sink_open_path(path, out);
    replace_sink *r = calloc(1, sizeof *r);
    if (!r || !(r->path = strdup(path))) {
        free(r);
        return socmon_fail(SOCMON_ENOMEM, "out of memory");
    }
    int fd = create_tmp(r, exists ? sb.st_mode & 07777 : 0666, exists);
    FILE *fp = fd >= 0 ? fdopen(fd, "wb") : NULL;
    socmon_status st = SOCMON_OK;
    if (!fp) {
        int e = errno;
        st = socmon_fail(e == EACCES ? SOCMON_EPERM : e == ENOENT ? SOCMON_ENOENT : SOCMON_EIO,
                         "cannot create a file next to %s (%s): %s", path, r->tmp ? r->tmp : "", strerror(e));
    }
    if (st != SOCMON_OK) {
        if (fd >= 0) {
            close(fd);
            unlink(r->tmp);
        }
        free(r->tmp);
        free(r->path);
        free(r);
        return st;
    }
    r->fp = fp;
    r->base.ops = &replace_ops;
    *out = &r->base;
    return SOCMON_OK;
}

void socmon_sink_cancel(socmon_sink *s, socmon_status why)
{
    if (s && s->err == SOCMON_OK) {
        s->err = why != SOCMON_OK ? why : SOCMON_ESTATE;
        snprintf(s->msg, sizeof s->msg, "output cancelled");
    }
}
