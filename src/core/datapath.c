/* Finding socmon's data files (socs/, metrics/) by name: the search order is
 * documented in include/socmon/data.h and docs/install.md.
 *
 * No source-tree path is compiled in: an installed library must never read
 * the tree it was built from, and a build tree must not silently read what
 * an earlier `make install` left under its prefix in place of its own files.
 * A build tree says where its source tree is in a file beside the programs it
 * builds (SMN_BUILD_TREE_FILE, written by CMake when it configures): an
 * install copies no such file, so only a program run from the build tree
 * reads the source tree, and it reads its own. What is compiled in is the
 * configured install datadir and the relative way to it from BINDIR and
 * LIBDIR, so an install copied elsewhere (`cmake --install --prefix OTHER`,
 * or a moved prefix) finds its own data next to the code that runs: dladdr
 * names the file holding this function (libsocmon.so, or the program the
 * static library is linked into). */
#define _GNU_SOURCE /* dladdr */
#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/datapath.h"
#include "core/error.h"
#include "socmon/data.h"

#if !defined(SOCMON_INSTALL_DATADIR) || !defined(SOCMON_DATA_FROM_BIN) || !defined(SOCMON_DATA_FROM_LIB)
#error "SOCMON_INSTALL_DATADIR, SOCMON_DATA_FROM_BIN and SOCMON_DATA_FROM_LIB come from CMakeLists.txt"
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

static socmon_status put(char *buf, size_t len, const char *what, const char *a, const char *b,
                         const char *c, const char *d)
{
    int n = snprintf(buf, len, "%s%s%s%s", a, b, c, d);
    if (n < 0 || (size_t)n >= len)
        return socmon_fail(SOCMON_ERANGE, "data path for '%s': %d bytes do not fit in a buffer of %zu",
                           what, n, len);
    return SOCMON_OK;
}

socmon_status smn_data_root_near(const char *obj, char *buf, size_t len)
{
    const char *slash = obj ? strrchr(obj, '/') : NULL;
    if (!slash)
        return socmon_fail(SOCMON_EINVAL, "data root: '%s' is no path", obj ? obj : "(null)");
    const char *rels[] = {SOCMON_DATA_FROM_BIN, SOCMON_DATA_FROM_LIB};
    char cand[PATH_MAX], real[PATH_MAX];
    for (size_t i = 0; i < 2; i++) {
        int n = snprintf(cand, sizeof cand, "%.*s/%s", (int)(slash - obj), obj, rels[i]);
        if (n < 0 || (size_t)n >= sizeof cand || !realpath(cand, real) || !is_dir(real))
            continue;
        return put(buf, len, obj, real, "", "", "");
    }
    return socmon_fail(SOCMON_ENOENT, "data root: no %s or %s next to %s", SOCMON_DATA_FROM_BIN,
                       SOCMON_DATA_FROM_LIB, obj);
}

/* The file that holds this code: libsocmon.so, or the program it is linked
 * into. For a program, dladdr gives argv[0], which has no '/' when the
 * program was found on PATH and may be relative to a directory the program
 * has left: /proc/self/exe is the program then. */
static int code_file(char *buf, size_t len)
{
    Dl_info info;
    if (dladdr((void *)smn_data_root_near, &info) && info.dli_fname && strchr(info.dli_fname, '/')) {
        char real[PATH_MAX];
        struct stat a, b;
        if (realpath(info.dli_fname, real) && stat(real, &a) == 0 &&
            (info.dli_fname[0] == '/' || (stat("/proc/self/exe", &b) == 0 && a.st_ino == b.st_ino &&
                                          a.st_dev == b.st_dev))) {
            return snprintf(buf, len, "%s", real) < (int)len;
        }
    }
    ssize_t n = readlink("/proc/self/exe", buf, len - 1);
    if (n <= 0 || (size_t)n >= len - 1)
        return 0;
    buf[n] = '\0';
    return 1;
}

/* The data root (the directory holding socs/ and metrics/) to search, and
 * what it is, for messages. */
typedef struct data_root {
    char dir[PATH_MAX];
    char what[PATH_MAX + 64];
} data_root;

/* A build tree's programs: the source tree named in SMN_BUILD_TREE_FILE beside
 * the code file, when that file is there. 1: found (r filled), 0: no such file,
 * -1: the file is there but names no directory holding socs/ (r->what says so). */
static int build_tree_root(const char *obj, data_root *r)
{
    const char *slash = strrchr(obj, '/');
    char path[PATH_MAX];
    int n = snprintf(path, sizeof path, "%.*s/%s", slash ? (int)(slash - obj) : 1, slash ? obj : ".",
                     SMN_BUILD_TREE_FILE);
    if (n < 0 || (size_t)n >= sizeof path)
        return 0;
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    char line[PATH_MAX];
    int ok = fgets(line, sizeof line, f) != NULL;
    fclose(f);
    if (ok)
        line[strcspn(line, "\r\n")] = '\0';
    char socs[PATH_MAX + 8];
    if (!ok || !*line || snprintf(socs, sizeof socs, "%s/socs", line) >= (int)sizeof socs || !is_dir(socs)) {
        snprintf(r->what, sizeof r->what, "the build tree's %s names no source tree with socs/", path);
        return -1;
    }
    snprintf(r->dir, sizeof r->dir, "%s", line);
    snprintf(r->what, sizeof r->what, "the source tree of the build tree holding %s", obj);
    return 1;
}


static socmon_status find_root(data_root *r)
{
    const char *env = getenv("SOCMON_DATADIR");
    if (env && *env) {
        snprintf(r->what, sizeof r->what, "SOCMON_DATADIR");
        return put(r->dir, sizeof r->dir, "SOCMON_DATADIR", env, "", "", "");
    }
    char obj[PATH_MAX];
    int have_obj = code_file(obj, sizeof obj);
    int tree = have_obj ? build_tree_root(obj, r) : 0;
    if (tree > 0)
        return SOCMON_OK;
    if (tree < 0)
        return socmon_fail(SOCMON_ENOENT, "data files: %s (moved? configure again, or set SOCMON_DATADIR)",
                           r->what);
    if (have_obj && smn_data_root_near(obj, r->dir, sizeof r->dir) == SOCMON_OK) {
        snprintf(r->what, sizeof r->what, "the install holding %s", obj);
        return SOCMON_OK;
    }
    if (have_obj)
        snprintf(r->what, sizeof r->what, "the configured install datadir; %s has none next to it", obj);
    else
        snprintf(r->what, sizeof r->what, "the configured install datadir");
    return put(r->dir, sizeof r->dir, "install datadir", SOCMON_INSTALL_DATADIR, "", "", "");
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
    data_root *r = malloc(sizeof *r);
    if (!r)
        return socmon_fail(SOCMON_ENOMEM, "data path: out of memory");
    if ((st = find_root(r)) == SOCMON_OK)
        st = put(buf, len, kind, r->dir, "/", kind, "");
    if (st != SOCMON_OK)
        buf[0] = '\0';
    free(r);
    return st;
}

static socmon_status resolve(const char *kind, const char *name, const data_root *r, char *buf,
                             size_t len)
{
    socmon_status st;
    const char *ext = kind_ext(kind);
    size_t nl = strlen(name), el = strlen(ext);
    int has_ext = nl > el && strcmp(name + nl - el, ext) == 0;
    if ((st = put(buf, len, name, r->dir, "/", kind, "/")) != SOCMON_OK)
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
                       "search another directory)", kind, name, name, has_ext ? "" : ext, buf, r->what);
}

socmon_status socmon_data_path(const char *kind, const char *name, char *buf, size_t len)
{
    socmon_status st = check_args(kind, buf, len);
    if (st != SOCMON_OK)
        return st;
    if (!name || !*name)
        return socmon_fail(SOCMON_EINVAL, "data path: %s %s name", kind, name ? "empty" : "NULL");
    data_root *r = NULL;
    if (strchr(name, '/'))
        st = put(buf, len, name, name, "", "", "");
    else if (!(r = malloc(sizeof *r)))
        st = socmon_fail(SOCMON_ENOMEM, "data path: out of memory");
    else if ((st = find_root(r)) == SOCMON_OK)
        st = resolve(kind, name, r, buf, len);
    /* Never leave a partial path behind for a caller that ignores st. */
    if (st != SOCMON_OK)
        buf[0] = '\0';
    free(r);
    return st;
}
