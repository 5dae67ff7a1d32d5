/* A recording read from a stream (recording_stream.h). */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/recording_stream.h"

socmon_status smn_recording_read_stream(FILE *fp, const char *name, const char *empty, socmon_recording **out,
                                        void **keep)
{
    size_t len = 0, cap = 1 << 16, got;
    unsigned char *buf = malloc(cap);
    *keep = NULL;
    if (!buf)
        return socmon_fail(SOCMON_ENOMEM, "reading the recording from %s: out of memory", name);
    while ((got = fread(buf + len, 1, cap - len, fp)) > 0) {
        len += got;
        if (len < cap)
            continue;
        unsigned char *nb = cap <= SIZE_MAX / 2 ? realloc(buf, cap * 2) : NULL;
        if (!nb) {
            free(buf);
            return socmon_fail(SOCMON_ENOMEM, "reading the recording from %s: out of memory after %zu bytes", name,
                              len);
        }
        buf = nb;
        cap *= 2;
    }
    socmon_status st = ferror(fp) ? socmon_fail(SOCMON_EIO, "reading the recording from %s: %s", name,
                                                    strerror(errno ? errno : EIO))
                       : len == 0 ? socmon_fail(SOCMON_EINVAL, "%s", empty)
                                  : socmon_recording_open_buffer(buf, len, out);
    if (st == SOCMON_OK && socmon_recording_streamed(*out))
        *keep = buf;
    else
        free(buf);
    return st;
}

