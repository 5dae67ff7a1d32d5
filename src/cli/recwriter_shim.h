/* TEMPORARY (branch wt-rec only, deleted when the v2 writer is merged): the streaming writer's
 * API from /work/briefs/recwriter_api.patch, so record's CLI side can be built and tested before
 * the real writer lands. */
#ifndef SOCMON_CLI_RECWRITER_SHIM_H
#define SOCMON_CLI_RECWRITER_SHIM_H
#include "socmon/socmon.h"

typedef struct socmon_recwriter socmon_recwriter;
typedef struct socmon_recwriter_opts {
    uint32_t block_samples;
    uint32_t block_bytes;
    int level;
    uint64_t flush_ns;
} socmon_recwriter_opts;
socmon_status socmon_recwriter_open(int fd, const socmon_set *set, const char *target, uint64_t interval_ns,
                                    const socmon_recwriter_opts *opts, socmon_recwriter **out);
socmon_status socmon_recwriter_append(socmon_recwriter *w, const socmon_sample *s);
socmon_status socmon_recwriter_flush(socmon_recwriter *w);
socmon_status socmon_recwriter_close(socmon_recwriter *w);
typedef struct socmon_recwriter_stats {
    uint64_t samples;
    uint64_t samples_written;
    uint64_t blocks;
    uint64_t bytes;
} socmon_recwriter_stats;
void socmon_recwriter_get_stats(const socmon_recwriter *w, socmon_recwriter_stats *out);
#endif
