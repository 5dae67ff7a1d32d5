/* Internal: the results list behind llk_perf_results. */
#ifndef SOCMON_COMPAT_TENSIX_HOST_INTERNAL_H
#define SOCMON_COMPAT_TENSIX_HOST_INTERNAL_H

#include "llk_perf_host.h"

struct llk_perf_results {
    llk_perf_row *rows;
    size_t n, cap;
    /* names of undocumented counters ("FPU_UNKNOWN_300"), owned; rows point at them */
    char **names;
    size_t nnames, capnames;
};

#endif
