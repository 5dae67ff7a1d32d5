/* A small file read whole (core/file.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/file.h"

socmon_status smn_file_read(const char *path, size_t max, const char *what, char **buf, size_t *len)
{
    *buf = NULL;
    *len = 0;
    FILE *fp = fopen(path, "rb");
    if (!fp)
        return socmon_fail(errno == ENOENT ? SOCMON_ENOENT : SOCMON_EIO, "%s: %s", path, strerror(errno));
    size_t cap = 1 << 16, n = 0, got;
    char *b = malloc(cap + 1);
    socmon_status st = b ? SOCMON_OK : socmon_fail(SOCMON_ENOMEM, "%s: out of memory", path);
    while (st == SOCMON_OK && (got = fread(b + n, 1, cap - n, fp)) > 0) {
        n += got;
        if (n > max) {
            st = socmon_fail(SOCMON_EINVAL, "%s: over %zu bytes: not a %s", path, max, what);
        } else if (n == cap) {
            char *nb = cap <= max ? realloc(b, cap * 2 + 1) : NULL;
            if (!nb)
                st = socmon_fail(SOCMON_ENOMEM, "%s: out of memory after %zu bytes", path, n);
            else
                b = nb, cap *= 2;
        }
    }
    if (st == SOCMON_OK && ferror(fp))   /* a directory reads as EISDIR here */
        st = socmon_fail(SOCMON_EIO, "%s: %s", path, strerror(errno ? errno : EIO));
    fclose(fp);
    if (st != SOCMON_OK) {
        free(b);
        return st;
    }
    b[n] = '\0';
    *buf = b;
    *len = n;
    return SOCMON_OK;
}
