/* Safe output paths for socmon record (see dest.h and docs/output-paths.md).
 *
 * Why a lock and a link instead of PATH.tmp + rename: a fixed temporary name is shared by two
 * recorders on one path (both wrote it, both exited 0, the file was garbage) and deletes a file the
 * user had there; rename replaces whatever PATH is, a device node or a symlink included. Here the
 * run writes an unnamed file (O_TMPFILE; a uniquely named one where the filesystem lacks it) that
 * holds an flock for the whole run, and PATH gets it by link(2), which never replaces anything: a
 * lost race is EEXIST, never a corrupt file. The checks and the link happen under an flock on the
 * directory, so socmon records on one directory publish one at a time: the second one sees the
 * first one's locked file at PATH and stops with an error naming its pid. */
#define _GNU_SOURCE
#include "cli/dest.h"

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

#include "socmon/status.h"

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

/* SOCMON_ESTATE with a message if another process holds a lock on the regular file at path
 * (a socmon record writing it); SOCMON_OK otherwise, also when it cannot be opened to check. */
static socmon_status check_not_busy(const char *path)
{
    int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    if (fd < 0)
        return SOCMON_OK;
    socmon_status st = SOCMON_OK;
    struct stat sb;
    if (flock(fd, LOCK_SH | LOCK_NB) != 0 && errno == EWOULDBLOCK) {
        long pid = fstat(fd, &sb) == 0 ? lock_holder(sb.st_dev, sb.st_ino) : 0;
        if (pid)
            st = socmon_fail(SOCMON_ESTATE, "'%s' is being written by another socmon record (pid %ld): "
                             "give another path, or stop that one first", path, pid);
        else
            st = socmon_fail(SOCMON_ESTATE, "'%s' is being written by another socmon record (it holds a "
                             "lock on it): give another path, or stop that one first", path);
    }
    close(fd);
    return st;
}

/* The error for an existing PATH that is not a regular file, without --force. */
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

/* --force on a device node, FIFO or symlink: write to what it is, never replace it. */
static socmon_status open_through(cli_dest *d, const struct stat *lsb)
{
    if (S_ISSOCK(lsb->st_mode))
        return socmon_fail(SOCMON_EINVAL, "'%s' is a socket: socmon record cannot write to one", d->path);
    /* O_NONBLOCK: a FIFO with no reader fails (ENXIO) instead of hanging the command. A symlink's
     * missing target is created, as any program writing through the link would. */
    int flags = O_WRONLY | O_NOCTTY | O_NONBLOCK | O_CLOEXEC | (S_ISLNK(lsb->st_mode) ? O_CREAT : 0);
    int fd = open(d->path, flags, 0666);
    if (fd < 0) {
        int e = errno;
        if (e == ENXIO && S_ISFIFO(lsb->st_mode))
            return socmon_fail(SOCMON_EIO, "'%s' is a FIFO with no reader: start its reader first", d->path);
        return socmon_fail(e == EACCES ? SOCMON_EPERM : SOCMON_EIO, "cannot write through '%s' (%s): %s", d->path,
                           type_name(lsb->st_mode), strerror(e));
    }
    d->fd = fd;
    int fl = fcntl(fd, F_GETFL);
    struct stat sb;
    if (fl < 0 || fcntl(fd, F_SETFL, fl & ~O_NONBLOCK) != 0 || fstat(fd, &sb) != 0)
        return socmon_fail(SOCMON_EIO, "cannot use '%s': %s", d->path, strerror(errno));
    if (flock(fd, LOCK_EX | LOCK_NB) != 0 && errno == EWOULDBLOCK) {
        long pid = lock_holder(sb.st_dev, sb.st_ino);
        return socmon_fail(SOCMON_ESTATE, "'%s' is being written by another socmon record (pid %ld): give "
                           "another path, or stop that one first", d->path, pid);
    }
    /* A symlink to a regular file: that file is overwritten in place, once it is ours. */
    if (S_ISREG(sb.st_mode) && ftruncate(fd, 0) != 0)
        return socmon_fail(SOCMON_EIO, "cannot truncate '%s': %s", d->path, strerror(errno));
    d->through = 1;
    return SOCMON_OK;
}

static socmon_status check_dir(const cli_dest *d, int need_space)
{
    struct stat sb;
    if (stat(d->dir, &sb) != 0) {
        int e = errno;
        if (e == ENOENT)
            return socmon_fail(SOCMON_ENOENT, "directory '%s' of '%s' does not exist", d->dir, d->path);
        return socmon_fail(SOCMON_EIO, "cannot use directory '%s' of '%s': %s", d->dir, d->path, strerror(e));
    }
    if (!S_ISDIR(sb.st_mode))
        return socmon_fail(SOCMON_ENOENT, "'%s' (in '%s') is not a directory", d->dir, d->path);
    struct statvfs vb;
    int have_vfs = statvfs(d->dir, &vb) == 0;
    if (have_vfs && (vb.f_flag & ST_RDONLY))
        return socmon_fail(SOCMON_EPERM, "cannot create '%s': directory '%s' is on a read-only filesystem",
                           d->path, d->dir);
    if (access(d->dir, W_OK | X_OK) != 0)
        return socmon_fail(SOCMON_EPERM, "cannot create '%s': directory '%s' is not writable: %s", d->path, d->dir,
                           strerror(errno));
    if (!have_vfs || !need_space)
        return SOCMON_OK;   /* no figures: the first write will tell */
    unsigned long long avail = (unsigned long long)vb.f_bavail * vb.f_frsize;
    if (avail < CLI_DEST_MIN_FREE)
        return socmon_fail(SOCMON_EIO, "only %llu KiB free on the filesystem of '%s': socmon record needs "
                           "at least %u MiB there for the first blocks of '%s'", avail >> 10, d->dir,
                           CLI_DEST_MIN_FREE >> 20, d->path);
    return SOCMON_OK;
}

/* The file the run writes, in PATH's directory: unnamed if the filesystem can, else uniquely named. */
static socmon_status create_file(cli_dest *d)
{
    d->fd = open(d->dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0666);
    if (d->fd < 0 && (errno == EOPNOTSUPP || errno == EISDIR || errno == EINVAL)) {
        const char *base = strrchr(d->path, '/') ? strrchr(d->path, '/') + 1 : d->path;
        size_t len = strlen(d->dir) + strlen(base) + 16;
        if (!(d->tmpname = malloc(len)))
            return socmon_fail(SOCMON_ENOMEM, "out of memory");
        snprintf(d->tmpname, len, "%s/.%s.XXXXXX", d->dir, base);
        d->fd = mkstemp(d->tmpname);
        if (d->fd >= 0) {
            mode_t um = umask(0);   /* the mode any newly created file gets; mkstemp's is 0600 */
            umask(um);
            int rc = fchmod(d->fd, 0666 & ~um);   /* failing keeps 0600: harmless */
            (void)rc;
        } else {
            free(d->tmpname);
            d->tmpname = NULL;
        }
    }
    if (d->fd < 0)
        return socmon_fail(errno == EACCES || errno == EROFS ? SOCMON_EPERM : SOCMON_EIO,
                           "cannot create a file in '%s' for '%s': %s", d->dir, d->path, strerror(errno));
    if (flock(d->fd, LOCK_EX | LOCK_NB) != 0)
        return socmon_fail(SOCMON_EIO, "cannot lock the new file for '%s': %s", d->path, strerror(errno));
    return SOCMON_OK;
}

socmon_status cli_dest_open(cli_dest *d, const char *path, int force)
{
    memset(d, 0, sizeof *d);
    d->fd = -1;
    d->force = force;
    if (!path || !*path)
        return socmon_fail(SOCMON_EINVAL, "the output path is empty");
    size_t len = strlen(path);
    if (path[len - 1] == '/')
        return socmon_fail(SOCMON_EINVAL, "'%s' names a directory (it ends with '/'): give a file name", path);
    const char *slash = strrchr(path, '/');
    d->path = strdup(path);
    d->dir = slash == path ? strdup("/") : slash ? strndup(path, (size_t)(slash - path)) : strdup(".");
    if (!d->path || !d->dir)
        return socmon_fail(SOCMON_ENOMEM, "out of memory");
    struct stat sb;
    int exists = lstat(path, &sb) == 0;
    if (!exists && errno != ENOENT) {
        int e = errno;
        socmon_status st = check_dir(d, 1);   /* names a missing directory better than ENOTDIR does */
        return st != SOCMON_OK ? st : socmon_fail(SOCMON_EIO, "cannot use '%s': %s", path, strerror(e));
    }
    if (exists && !S_ISREG(sb.st_mode)) {
        if (S_ISDIR(sb.st_mode) || !force)
            return refuse_special(path, &sb);
        return open_through(d, &sb);
    }
    socmon_status st = check_dir(d, 1);
    if (st == SOCMON_OK && exists)
        st = check_not_busy(path);   /* now, not after the run */
    if (st == SOCMON_OK)
        st = create_file(d);
    return st;
}

socmon_status cli_dest_check_plain(const char *path)
{
    if (!path || !*path)
        return socmon_fail(SOCMON_EINVAL, "the output path is empty");
    struct stat sb;
    if (stat(path, &sb) == 0)
        return S_ISDIR(sb.st_mode) ? socmon_fail(SOCMON_EINVAL, "'%s' is a directory: give a file name", path)
                                   : SOCMON_OK;
    const char *slash = strrchr(path, '/');
    cli_dest d = {.path = (char *)path, .fd = -1};
    d.dir = slash == path ? strdup("/") : slash ? strndup(path, (size_t)(slash - path)) : strdup(".");
    if (!d.dir)
        return socmon_fail(SOCMON_ENOMEM, "out of memory");
    socmon_status st = check_dir(&d, 0);
    free(d.dir);
    return st;
}

/* Links the file to PATH, which must not exist (link never replaces). */
static socmon_status link_file(cli_dest *d)
{
    int rc;
    if (d->tmpname) {
        rc = link(d->tmpname, d->path);
    } else {
        char proc[64];
        snprintf(proc, sizeof proc, "/proc/self/fd/%d", d->fd);
        rc = linkat(AT_FDCWD, proc, AT_FDCWD, d->path, AT_SYMLINK_FOLLOW);
        if (rc != 0 && errno == ENOENT && access("/proc/self/fd", F_OK) != 0)   /* no /proc */
            rc = linkat(d->fd, "", AT_FDCWD, d->path, AT_EMPTY_PATH);
    }
    if (rc != 0) {
        if (errno == EEXIST)
            return socmon_fail(SOCMON_ESTATE, "'%s' was created by another program while socmon record was "
                               "starting: not replaced", d->path);
        return socmon_fail(SOCMON_EIO, "cannot create '%s': %s", d->path, strerror(errno));
    }
    if (d->tmpname) {
        unlink(d->tmpname);
        free(d->tmpname);
        d->tmpname = NULL;
    }
    d->published = 1;
    return SOCMON_OK;
}

socmon_status cli_dest_publish(cli_dest *d)
{
    if (d->through || d->published) {
        d->published = 1;
        return SOCMON_OK;
    }
    /* Serialises the check-move-link of socmon records on this directory; a directory that
     * cannot be opened for reading (mode 0333) goes without: link still never replaces. */
    int dfd = open(d->dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dfd >= 0)
        while (flock(dfd, LOCK_EX) != 0 && errno == EINTR)
            ;
    socmon_status st = SOCMON_OK;
    struct stat sb;
    if (lstat(d->path, &sb) == 0) {
        if (!S_ISREG(sb.st_mode))
            st = refuse_special(d->path, &sb);   /* appeared since cli_dest_open */
        if (st == SOCMON_OK)
            st = check_not_busy(d->path);
        if (st == SOCMON_OK && d->force && unlink(d->path) != 0)
            st = socmon_fail(SOCMON_EIO, "cannot replace '%s': %s", d->path, strerror(errno));
        if (st == SOCMON_OK && !d->force) {
            size_t len = strlen(d->path) + 5;
            char *old = malloc(len);
            if (!old)
                st = socmon_fail(SOCMON_ENOMEM, "out of memory");
            else if (snprintf(old, len, "%s.old", d->path), rename(d->path, old) != 0)
                st = socmon_fail(SOCMON_EIO, "cannot move the existing '%s' to '%s': %s", d->path, old,
                                 strerror(errno));
            else
                d->moved_old = 1;
            free(old);
        }
    }
    if (st == SOCMON_OK)
        st = link_file(d);
    if (dfd >= 0)
        close(dfd);   /* releases the directory's lock */
    return st;
}

uint64_t cli_dest_size(const cli_dest *d, uint64_t written)
{
    struct stat sb;
    return d->fd >= 0 && fstat(d->fd, &sb) == 0 && S_ISREG(sb.st_mode) ? (uint64_t)sb.st_size : written;
}

socmon_status cli_dest_close(cli_dest *d)
{
    socmon_status st = SOCMON_OK;
    if (d->fd >= 0) {
        if (d->tmpname && !d->published)
            unlink(d->tmpname);
        if (close(d->fd) != 0 && d->published && errno != EINTR)
            st = socmon_fail(SOCMON_EIO, "closing '%s': %s", d->path, strerror(errno));
        d->fd = -1;
    }
    free(d->path);
    free(d->dir);
    free(d->tmpname);
    d->path = d->dir = d->tmpname = NULL;
    return st;
}
