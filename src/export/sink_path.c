/* The sinks that write a file by path, all with the same checks and temporary files (sink.h,
 * docs/output-paths.md): plain (created in place), append, replace (a new file renamed over
 * PATH at a clean close) and publish (a new file that PATH names only once it holds a header).
 *
 * Replace is what node_exporter's textfile collector needs from `stat --prometheus -o
 * DIR/socmon.prom`, which it may read at any moment: a reader sees the old file or the new one.
 * The new file is "DIR/.NAME.XXXXXX" (a dot file, so the collector's *.prom glob never matches
 * it), created exclusively (mkstemp: two writers never share one) with the old file's
 * permissions, or 0666 less the umask.
 *
 * Publish is for recordings and traces. Why a lock and a link instead of PATH.tmp + rename: a
 * fixed temporary name is shared by two recorders on one path (both wrote it, both exited 0, the
 * file was garbage) and deletes a file the user had there; rename replaces whatever PATH is, a
 * device node or a symlink included. Here the run writes an unnamed file (O_TMPFILE; a uniquely
 * named one where the filesystem lacks it) that holds an flock for the whole run, and PATH gets
 * it by link(2), which never replaces anything: a lost race is EEXIST, never a corrupt file. The
 * checks and the link happen under an flock on the directory, so socmon records on one directory
 * publish one at a time: the second one sees the first one's locked file at PATH and stops with
 * an error naming its pid. A device node, FIFO or symlink at PATH is refused unless forced, then
 * written through, never replaced (replace writes through one always, as a plain `stat -o` does). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "core/error.h"
#include "export/sink.h"

typedef struct path_sink {
    smn_sink base;
    FILE *fp;
    smn_path_mode mode;
    char *path, *dir;
    char *tmp;        /* the new file's name while it has one (replace; publish without O_TMPFILE) */
    int force;
    int through;      /* writing through an existing device node, FIFO or symlink */
    int published;    /* PATH names the file: written in place, continued, or published */
} path_sink;

static socmon_status io_error(const path_sink *p, const char *what)
{
    return socmon_fail(SOCMON_EIO, "%s %s: %s", what, p->tmp && p->mode == SOCMON_PATH_REPLACE ? p->tmp : p->path,
                       strerror(errno ? errno : EIO));
}

static socmon_status ps_write(smn_sink *s, const void *buf, size_t len)
{
    path_sink *p = (path_sink *)s;
    errno = 0;
    return fwrite(buf, 1, len, p->fp) == len ? SOCMON_OK : io_error(p, "writing");
}

static socmon_status ps_flush(smn_sink *s)
{
    path_sink *p = (path_sink *)s;
    errno = 0;
    return fflush(p->fp) == 0 && !ferror(p->fp) ? SOCMON_OK : io_error(p, "writing");
}

static void ps_free(path_sink *p)
{
    if (p->fp)
        fclose(p->fp);
    if (p->tmp && !p->published)
        unlink(p->tmp);
    free(p->path);
    free(p->dir);
    free(p->tmp);
    free(p);
}

static socmon_status ps_close(smn_sink *s)
{
    path_sink *p = (path_sink *)s;
    int ok = s->err == SOCMON_OK;   /* a failed write or a cancel: a replaced PATH stays as it was */
    int renames = p->mode == SOCMON_PATH_REPLACE && p->tmp;
    socmon_status st = ok ? ps_flush(s) : SOCMON_OK;
    /* the data on disk before the name moves: a crash then leaves the old file, not an empty one */
    if (ok && st == SOCMON_OK && renames && fsync(fileno(p->fp)) != 0)
        st = io_error(p, "writing");
    errno = 0;
    if (fclose(p->fp) != 0 && ok && st == SOCMON_OK && (p->published || renames) && errno != EINTR)
        st = p->mode >= SOCMON_PATH_PUBLISH ? socmon_fail(SOCMON_EIO, "closing '%s': %s", p->path, strerror(errno))
                                            : io_error(p, "closing");
    p->fp = NULL;
    if (ok && st == SOCMON_OK && renames) {
        if (rename(p->tmp, p->path) != 0)
            st = socmon_fail(SOCMON_EIO, "cannot replace %s with %s: %s", p->path, p->tmp, strerror(errno));
        else
            p->published = 1;
    }
    ps_free(p);
    return st;
}

static const smn_sink_ops path_ops = {ps_write, ps_flush, ps_close};

static const char *type_name(mode_t m)
{
    return S_ISDIR(m) ? "a directory" : S_ISCHR(m) ? "a character device" : S_ISBLK(m) ? "a block device"
           : S_ISFIFO(m) ? "a FIFO (named pipe)" : S_ISSOCK(m) ? "a socket" : S_ISLNK(m) ? "a symbolic link"
           : "not a regular file";
}

/* The pid holding an flock on the file (dev, ino), from /proc/locks; 0 if not found. */
static long lock_holder(dev_t dev, ino_t ino)
{
    FILE *f = fopen("/proc/locks", "re");
    char line[256], type[16], mode[16];
    long pid, found = 0;
    unsigned maj, min;
    unsigned long long i;   /* ino_t is 64-bit on 32-bit Arm too (_FILE_OFFSET_BITS=64) */
    while (f && !found && fgets(line, sizeof line, f))
        if (sscanf(line, "%*[^:]: %15s %*s %15s %ld %x:%x:%llu", type, mode, &pid, &maj, &min, &i) == 6 &&
            strcmp(type, "FLOCK") == 0 && maj == major(dev) && min == minor(dev) && i == (unsigned long long)ino)
            found = pid;
    if (f)
        fclose(f);
    return found;
}

/* Takes an flock on fd without waiting; SOCMON_ESTATE naming the holder when a recorder has it. */
static socmon_status lock_file(int fd, const char *path)
{
    struct stat sb;
    if (flock(fd, LOCK_EX | LOCK_NB) == 0)
        return SOCMON_OK;
    if (errno != EWOULDBLOCK)
        return socmon_fail(SOCMON_EIO, "cannot lock the new file for '%s': %s", path, strerror(errno));
    long pid = fstat(fd, &sb) == 0 ? lock_holder(sb.st_dev, sb.st_ino) : 0;
    if (pid)
        return socmon_fail(SOCMON_ESTATE, "'%s' is being written by another socmon record (pid %ld): "
                           "give another path, or stop that one first", path, pid);
    return socmon_fail(SOCMON_ESTATE, "'%s' is being written by another socmon record (it holds a "
                       "lock on it): give another path, or stop that one first", path);
}

/* SOCMON_ESTATE with a message if another process holds a lock on the regular file at path
 * (a socmon record writing it); SOCMON_OK otherwise, also when it cannot be opened to check. */
static socmon_status check_not_busy(const char *path)
{
    int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    if (fd < 0)
        return SOCMON_OK;
    socmon_status st = flock(fd, LOCK_SH | LOCK_NB) != 0 && errno == EWOULDBLOCK ? lock_file(fd, path) : SOCMON_OK;
    close(fd);
    return st;
}

/* The error for an existing PATH that is not a regular file, without force. */
static socmon_status refuse_special(const char *path, const struct stat *sb)
{
    if (S_ISDIR(sb->st_mode))
        return socmon_fail(SOCMON_EINVAL, "'%s' is a directory: give a file name, e.g. '%s/socmon.rec'", path,
                           path);
    char to[512] = "";
    if (S_ISLNK(sb->st_mode)) {
        char target[480];
        ssize_t n = readlink(path, target, sizeof target - 1);
        if (n >= 0) {
            target[n] = '\0';
            snprintf(to, sizeof to, " (to '%s')", target);
        }
    }
    return socmon_fail(SOCMON_EPERM, "'%s' is %s%s; socmon record never writes through or replaces one: give "
                       "another path, or --force to write through it as it is", path, type_name(sb->st_mode), to);
}

/* Opens the file the sink writes and its FILE; the message names the path. */
static socmon_status open_fd(path_sink *p, int fd, const char *what)
{
    if (fd < 0) {
        int e = errno;
        return socmon_fail(e == EACCES ? SOCMON_EPERM : e == ENOENT ? SOCMON_ENOENT : SOCMON_EIO, "cannot %s %s: %s",
                           what, p->path, strerror(e));
    }
    if (!(p->fp = fdopen(fd, "wb"))) {
        close(fd);
        return socmon_fail(SOCMON_ENOMEM, "cannot %s %s: %s", what, p->path, strerror(errno));
    }
    return SOCMON_OK;
}

/* Forced publish on a device node, FIFO or symlink: write to what it is, never replace it. */
static socmon_status open_through(path_sink *p, const struct stat *lsb)
{
    if (S_ISSOCK(lsb->st_mode))
        return socmon_fail(SOCMON_EINVAL, "'%s' is a socket: socmon record cannot write to one", p->path);
    /* O_NONBLOCK: a FIFO with no reader fails (ENXIO) instead of hanging the command. A symlink's
     * missing target is created, as any program writing through the link would. */
    int flags = O_WRONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC | (S_ISLNK(lsb->st_mode) ? O_CREAT : 0);
    int fd = open(p->path, flags, 0666);
    if (fd < 0) {
        int e = errno;
        if (e == ENXIO && S_ISFIFO(lsb->st_mode))
            return socmon_fail(SOCMON_EIO, "'%s' is a FIFO with no reader: start its reader first", p->path);
        return socmon_fail(e == EACCES ? SOCMON_EPERM : SOCMON_EIO, "cannot write through '%s' (%s): %s", p->path,
                           type_name(lsb->st_mode), strerror(e));
    }
    socmon_status st = open_fd(p, fd, "use");
    int fl = fcntl(fd, F_GETFL);
    struct stat sb;
    if (st == SOCMON_OK && (fl < 0 || fcntl(fd, F_SETFL, fl & ~O_NONBLOCK) != 0 || fstat(fd, &sb) != 0))
        return socmon_fail(SOCMON_EIO, "cannot use '%s': %s", p->path, strerror(errno));
    if (st == SOCMON_OK && flock(fd, LOCK_EX | LOCK_NB) != 0 && errno == EWOULDBLOCK)
        return lock_file(fd, p->path);   /* names the holder */
    /* A symlink to a regular file: that file is overwritten in place, once it is ours. */
    if (st == SOCMON_OK && S_ISREG(sb.st_mode) && ftruncate(fd, 0) != 0)
        return socmon_fail(SOCMON_EIO, "cannot truncate '%s': %s", p->path, strerror(errno));
    p->through = p->published = 1;
    return st;
}

/* PATH's directory exists and is writable, with need_free bytes free if the figures are known. */
static socmon_status check_dir(const char *path, const char *dir, unsigned need_free)
{
    struct stat sb;
    if (stat(dir, &sb) != 0) {
        int e = errno;
        if (e == ENOENT)
            return socmon_fail(SOCMON_ENOENT, "directory '%s' of '%s' does not exist", dir, path);
        return socmon_fail(SOCMON_EIO, "cannot use directory '%s' of '%s': %s", dir, path, strerror(e));
    }
    if (!S_ISDIR(sb.st_mode))
        return socmon_fail(SOCMON_ENOENT, "'%s' (in '%s') is not a directory", dir, path);
    struct statvfs vb;
    int have_vfs = statvfs(dir, &vb) == 0;
    if (have_vfs && (vb.f_flag & ST_RDONLY))
        return socmon_fail(SOCMON_EPERM, "cannot create '%s': directory '%s' is on a read-only filesystem", path,
                           dir);
    if (access(dir, W_OK | X_OK) != 0)
        return socmon_fail(SOCMON_EPERM, "cannot create '%s': directory '%s' is not writable: %s", path, dir,
                           strerror(errno));
    if (!have_vfs || !need_free)
        return SOCMON_OK;   /* no figures: the first write will tell */
    unsigned long long avail = (unsigned long long)vb.f_bavail * vb.f_frsize;
    if (avail < need_free)
        return socmon_fail(SOCMON_EIO, "only %llu KiB free on the filesystem of '%s': socmon record needs "
                           "at least %u MiB there for the first blocks of '%s'", avail >> 10, dir, need_free >> 20,
                           path);
    return SOCMON_OK;
}

/* A new file in PATH's directory named ".BASENAME.XXXXXX", with the given permissions. */
static int create_named(path_sink *p, mode_t mode)
{
    const char *base = strrchr(p->path, '/') ? strrchr(p->path, '/') + 1 : p->path;
    size_t len = strlen(p->dir) + strlen(base) + 16;
    if (!(p->tmp = malloc(len)))
        return -1;
    snprintf(p->tmp, len, "%s/.%s.XXXXXX", p->dir, base);
    int fd = mkstemp(p->tmp);
    if (fd < 0) {
        free(p->tmp);
        p->tmp = NULL;
    } else if (fchmod(fd, mode) != 0) {   /* failing keeps mkstemp's 0600: harmless */
        errno = 0;
    }
    return fd;
}

static mode_t new_file_mode(void)
{
    mode_t um = umask(0);   /* the mode any newly created file gets */
    umask(um);
    return 0666 & ~um;
}

/* Publish: the checks, then the file the run writes in PATH's directory, unnamed if the
 * filesystem can, else uniquely named, locked. */
static socmon_status open_publish(path_sink *p)
{
    struct stat sb;
    int exists = lstat(p->path, &sb) == 0;
    if (!exists && errno != ENOENT) {
        int e = errno;
        socmon_status st = check_dir(p->path, p->dir, SOCMON_SINK_MIN_FREE);   /* names a missing directory better */
        return st != SOCMON_OK ? st : socmon_fail(SOCMON_EIO, "cannot use '%s': %s", p->path, strerror(e));
    }
    if (exists && !S_ISREG(sb.st_mode))
        return S_ISDIR(sb.st_mode) || !p->force ? refuse_special(p->path, &sb) : open_through(p, &sb);
    socmon_status st = check_dir(p->path, p->dir, SOCMON_SINK_MIN_FREE);
    if (st == SOCMON_OK && exists)
        st = check_not_busy(p->path);   /* now, not after the run */
    if (st != SOCMON_OK)
        return st;
    int fd = open(p->dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0666);
    if (fd < 0 && (errno == EOPNOTSUPP || errno == EISDIR || errno == EINVAL))
        fd = create_named(p, new_file_mode());
    if (fd < 0)
        return socmon_fail(errno == EACCES || errno == EROFS ? SOCMON_EPERM : SOCMON_EIO,
                           "cannot create a file in '%s' for '%s': %s", p->dir, p->path, strerror(errno));
    return (st = open_fd(p, fd, "use")) != SOCMON_OK ? st : lock_file(fd, p->path);
}

/* Continue: the existing regular file, read-write and locked like a recorder's; none there: a
 * new file published as with SOCMON_PATH_PUBLISH. */
static socmon_status open_continue(path_sink *p)
{
    struct stat sb;
    if (lstat(p->path, &sb) != 0) {
        if (errno != ENOENT)
            return socmon_fail(SOCMON_EIO, "--append '%s': %s", p->path, strerror(errno));
        p->mode = SOCMON_PATH_PUBLISH;
        return open_publish(p);
    }
    if (!S_ISREG(sb.st_mode))
        return socmon_fail(SOCMON_EINVAL, "--append '%s': not a regular file (a recording to continue)", p->path);
    int fd = open(p->path, O_RDWR | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0)
        return socmon_fail(errno == EACCES ? SOCMON_EPERM : SOCMON_EIO, "--append '%s': %s", p->path, strerror(errno));
    socmon_status st = open_fd(p, fd, "use");
    if (st == SOCMON_OK && flock(fd, LOCK_EX | LOCK_NB) != 0)
        return socmon_fail(SOCMON_ESTATE, "--append '%s': being written by another recorder", p->path);
    p->published = 1;
    return st;
}

/* Replace: a new file beside PATH with its permissions; a special file is written through. */
static socmon_status open_replace(path_sink *p)
{
    struct stat sb;
    int exists = lstat(p->path, &sb) == 0;
    if (exists && !S_ISREG(sb.st_mode)) {
        p->mode = SOCMON_PATH_PLAIN;
        p->published = 1;
        return open_fd(p, open(p->path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666), "create");
    }
    int fd = create_named(p, exists ? sb.st_mode & 07777 : new_file_mode());
    if (fd < 0) {
        int e = errno;
        return socmon_fail(e == EACCES ? SOCMON_EPERM : e == ENOENT ? SOCMON_ENOENT : SOCMON_EIO,
                           "cannot create a file next to %s in %s: %s", p->path, p->dir, strerror(e));
    }
    return open_fd(p, fd, "create");
}

static char *dir_of(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash == path ? strdup("/") : slash ? strndup(path, (size_t)(slash - path)) : strdup(".");
}

socmon_status smn_sink_path(const char *path, smn_path_mode mode, int force, smn_sink **out)
{
    if (!out)
        return socmon_fail(SOCMON_EINVAL, "smn_sink_path: NULL argument");
    *out = NULL;
    if (!path || !*path)
        return socmon_fail(SOCMON_EINVAL, "the output path is empty");
    if ((mode == SOCMON_PATH_PUBLISH || mode == SOCMON_PATH_CONTINUE) && path[strlen(path) - 1] == '/')
        return socmon_fail(SOCMON_EINVAL, "'%s' names a directory (it ends with '/'): give a file name", path);
    path_sink *p = calloc(1, sizeof *p);
    if (!p || !(p->path = strdup(path)) || !(p->dir = dir_of(path))) {
        if (p)
            free(p->path);
        free(p);
        return socmon_fail(SOCMON_ENOMEM, "out of memory");
    }
    p->base.ops = &path_ops;
    p->mode = mode;
    p->force = force;
    p->published = mode == SOCMON_PATH_PLAIN || mode == SOCMON_PATH_APPEND;
    socmon_status st = mode == SOCMON_PATH_PUBLISH  ? open_publish(p)
                       : mode == SOCMON_PATH_CONTINUE ? open_continue(p)
                       : mode == SOCMON_PATH_REPLACE  ? open_replace(p)
                       : mode == SOCMON_PATH_APPEND
                           ? open_fd(p, open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0666), "append to")
                           : open_fd(p, open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666), "create");
    if (st != SOCMON_OK) {
        ps_free(p);
        return st;
    }
    *out = &p->base;
    return SOCMON_OK;
}

socmon_status smn_sink_check_path(const char *path)
{
    if (!path || !*path)
        return socmon_fail(SOCMON_EINVAL, "the output path is empty");
    struct stat sb;
    if (stat(path, &sb) == 0)
        return S_ISDIR(sb.st_mode) ? socmon_fail(SOCMON_EINVAL, "'%s' is a directory: give a file name", path)
                                   : SOCMON_OK;
    char *dir = dir_of(path);
    socmon_status st = dir ? check_dir(path, dir, 0) : socmon_fail(SOCMON_ENOMEM, "out of memory");
    free(dir);
    return st;
}

int smn_sink_fd(const smn_sink *s)
{
    return s && s->ops == &path_ops ? fileno(((const path_sink *)s)->fp) : -1;
}

int smn_sink_is_published(const smn_sink *s)
{
    return s && s->ops == &path_ops && ((const path_sink *)s)->published;
}

/* Links the new file to PATH, which must not exist (link never replaces). */
static socmon_status link_file(path_sink *p)
{
    int rc, fd = fileno(p->fp);
    if (p->tmp) {
        rc = link(p->tmp, p->path);
    } else {
        char proc[64];
        snprintf(proc, sizeof proc, "/proc/self/fd/%d", fd);
        rc = linkat(AT_FDCWD, proc, AT_FDCWD, p->path, AT_SYMLINK_FOLLOW);
        if (rc != 0 && errno == ENOENT && access("/proc/self/fd", F_OK) != 0)   /* no /proc */
            rc = linkat(fd, "", AT_FDCWD, p->path, AT_EMPTY_PATH);
    }
    if (rc != 0)
        return errno == EEXIST ? socmon_fail(SOCMON_ESTATE, "'%s' was created by another program while socmon "
                                             "record was starting: not replaced", p->path)
                               : socmon_fail(SOCMON_EIO, "cannot create '%s': %s", p->path, strerror(errno));
    if (p->tmp)
        unlink(p->tmp);
    p->published = 1;
    return SOCMON_OK;
}

socmon_status smn_sink_publish(smn_sink *s, int *moved_old)
{
    path_sink *p = (path_sink *)s;
    if (moved_old)
        *moved_old = 0;
    if (!s || s->ops != &path_ops)
        return socmon_fail(SOCMON_EINVAL, "smn_sink_publish: not a sink by path");
    socmon_status st = smn_sink_flush(s);   /* what PATH shows is on the file when it appears */
    if (st != SOCMON_OK || p->published)
        return st;
    /* Serialises the check-move-link of socmon records on this directory; a directory that
     * cannot be opened for reading (mode 0333) goes without: link still never replaces. */
    int dfd = open(p->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dfd >= 0)
        while (flock(dfd, LOCK_EX) != 0 && errno == EINTR)
            ;
    struct stat sb;
    if (lstat(p->path, &sb) == 0) {
        if (!S_ISREG(sb.st_mode))
            st = refuse_special(p->path, &sb);   /* appeared since the sink was opened */
        if (st == SOCMON_OK)
            st = check_not_busy(p->path);
        if (st == SOCMON_OK && p->force && unlink(p->path) != 0)
            st = socmon_fail(SOCMON_EIO, "cannot replace '%s': %s", p->path, strerror(errno));
        if (st == SOCMON_OK && !p->force) {
            size_t len = strlen(p->path) + 5;
            char *old = malloc(len);
            if (!old)
                st = socmon_fail(SOCMON_ENOMEM, "out of memory");
            else if (snprintf(old, len, "%s.old", p->path), rename(p->path, old) != 0)
                st = socmon_fail(SOCMON_EIO, "cannot move the existing '%s' to '%s': %s", p->path, old,
                                 strerror(errno));
            else if (moved_old)
                *moved_old = 1;
            free(old);
        }
    }
    if (st == SOCMON_OK)
        st = link_file(p);
    if (dfd >= 0)
        close(dfd);   /* releases the directory's lock */
    return st;
}
