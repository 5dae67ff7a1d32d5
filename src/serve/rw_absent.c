/* The remote writer of a build without libprotobuf-c, libsnappy or libcurl (CMakeLists.txt):
 * --remote-write fails at once, saying what the build lacked, instead of an option that is
 * missing or silently does nothing. The other calls are never reached without a writer. */
#include "socmon/status.h"
#include "serve/remote_write.h"

socmon_status smn_rw_new(const smn_rw_opts *o, smn_rw **out)
{
    (void)o;
    if (out)
        *out = NULL;
    return socmon_fail(SOCMON_ENOTSUP, "remote write is not built into this socmon: it needs libprotobuf-c, "
                       "libsnappy, libcurl and protoc-c when it is built (sh scripts/install-deps.sh, then build "
                       "again)");
}

socmon_consumer smn_rw_consumer(smn_rw *rw)
{
    (void)rw;
    return (socmon_consumer){0};
}

void smn_rw_finish(smn_rw *rw)
{
    (void)rw;
}

void smn_rw_get_stats(smn_rw *rw, smn_rw_stats *out)
{
    (void)rw;
    *out = (smn_rw_stats){0};
}

void smn_rw_summary(smn_rw *rw, char *buf, size_t len)
{
    (void)rw;
    if (len)
        buf[0] = '\0';
}

void smn_rw_free(smn_rw *rw)
{
    (void)rw;
}
