/* Finding socmon's data files (socs/, metrics/) by name: the search order is
 * documented in include/socmon/data.h.
 *
 * CMake compiles in two directories: SOCMON_INSTALL_DATADIR (the configured
 * PREFIX/share/socmon) and SOCMON_SOURCE_DATADIR (the source tree). The
 * library cannot tell whether it is the copy in the build tree or the
 * installed one, so it asks the file system instead: when the install
 * datadir exists, socmon is installed and only that directory counts; the
 * source tree is a fallback for a build tree that was never installed (what
 * the tests run from). SOCMON_DATADIR overrides both, for relocated installs
 * and for tests that need their own files. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/error.h"
#include "socmon/data.h"

#ifndef SOCMON_INSTALL_DATADIR
#error "SOCMON_INSTALL_DATADIR must be defined by the build (CMakeLists.txt)"
#endif
#ifndef SOCMON_SOURCE_DATADIR
#error "SOCMON_SOURCE_DATADIR must be defined by the build (CMakeLists.txt)"
#endif

static const char *kind_ext(const char *kind)
{
    if (strcmp(kind, "socs") == 0)
        return ".soc";
    if (strcmp(kind, "metrics") == 0)
        return ".json";
    return NULL;
}

static int is_dir(const char *path)
{
    struct stat sb;
    return stat(path, &sb) == 0 && S_ISDIR(sb.st_mode);
}

static int is_file(const char *path)
{
    struct stat sb;
    return stat(path, &sb) == 0 && S_ISREG(sb.st_mode);
}

/* The data root (the directory holding socs/ and metrics/) to search, and
 * what it is called in messages. */
static const char *data_root(const char **what)
{
    const char *env = getenv("SOCMON_DATADIR");
    if (env && *env) {
        *what = "SOCMON_DATADIR";
        return env;
    }
    if (is_dir(SOCMON_INSTALL_DATADIR)) {
        *what = "install datadir";
        return SOCMON_INSTALL_DATADIR;
    }
    *what = "source tree (socmon is not installed)";
    return SOCMON_SOURCE_DATADIR;
}

static socmon_status put(char *buf, size_t len, const char *what, const char *a, const char *b,
                         const char *c, const char *d)
{
    int n = snprintf(buf, len, "%s%s%s%s", a, b, c, d);
    if (n < 0 || (size_t)n >= len)
        return socmon_fail(SOCMON_ERANGE, "data path for '%s': %d bytes do not fit in a buffer of %zu",
                           what, n, len);
    return SOCMON_OK;
}

static socmon_status check_args(const char *kind, char *buf, size_t len)
{
    if (!kind || !buf)
        return socmon_fail(SOCMON_EINVAL, "data path: %s is NULL", kind ? "buf" : "kind");
    if (len == 0)
        return socmon_fail(SOCMON_ERANGE, "data path: buffer length 0");
    if (!kind_ext(kind))
        return socmon_fail(SOCMON_EINVAL, "data path: unknown kind '%s' (valid: socs, metrics)", kind);
    buf[0] = '\0';
    return SOCMON_OK;
}

socmon_status socmon_data_dir(const char *kind, char *buf, size_t len)
{
    socmon_status st = check_args(kind, buf, len);
    if (st != SOCMON_OK)
        return st;
    const char *what, *root = data_root(&what);
    if ((st = put(buf, len, kind, root, "/", kind, "")) != SOCMON_OK)
        buf[0] = '\0';
    return st;
}

static socmon_status resolve(const char *kind, const char *name, char *buf, size_t len)
{
    socmon_status st;
    if (!name || !*name)
        return socmon_fail(SOCMON_EINVAL, "data path: %s %s name", kind, name ? "empty" : "NULL");
    if (strchr(name, '/'))
        return put(buf, len, name, name, "", "", "");

    const char *ext = kind_ext(kind), *what, *root = data_root(&what);
    size_t nl = strlen(name), el = strlen(ext);
    int has_ext = nl > el && strcmp(name + nl - el, ext) == 0;
    if ((st = put(buf, len, name, root, "/", kind, "/")) != SOCMON_OK)
        return st;
    /* The name as given first, then with the extension: a file called
     * exactly "esp_4x4" wins over "esp_4x4.soc", as a path would. */
    size_t dl = strlen(buf);
    if ((st = put(buf + dl, len - dl, name, name, "", "", "")) != SOCMON_OK)
        return st;
    if (is_file(buf))
        return SOCMON_OK;
    if (!has_ext) {
        if ((st = put(buf + dl, len - dl, name, name, ext, "", "")) != SOCMON_OK)
            return st;
        if (is_file(buf))
            return SOCMON_OK;
    }
    buf[dl > 0 ? dl - 1 : 0] = '\0';
    return socmon_fail(SOCMON_ENOENT, "%s '%s': no file %s%s in %s (%s; set SOCMON_DATADIR to "
                       "search another directory)", kind, name, name, has_ext ? "" : ext, buf, what);
}

socmon_status socmon_data_path(const char *kind, const char *name, char *buf, size_t len)
{
    socmon_status st = check_args(kind, buf, len);
    if (st != SOCMON_OK)
        return st;
    /* Never leave a partial path behind for a caller that ignores st. */
    if ((st = resolve(kind, name, buf, len)) != SOCMON_OK)
        buf[0] = '\0';
    return st;
}
