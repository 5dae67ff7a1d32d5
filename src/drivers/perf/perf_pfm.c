/* CPU-specific event names through libpfm4 (Debian libpfm4-dev), when socmon is
 * built with it (SOCMON_HAVE_PFM): every event of the CPU's tables, e.g.
 * "INST_RETIRED:ANY_P" or "amd64_fam19h_zen3::RETIRED_INSTRUCTIONS". libpfm4
 * only encodes (it makes no perf_event_open calls), so its answers can be tested
 * on a machine without a PMU by forcing one with LIBPFM_FORCE_PMU before its first
 * initialisation.
 *
 * libpfm4 keeps process-wide tables, initialised once by pfm_initialize: socmon
 * calls it through pthread_once, so two users in one process share that one
 * read-only initialisation and never race on it. */
#include "drivers/perf/perf_names.h"
#include "core/error.h"

#ifdef SOCMON_HAVE_PFM
#include <perfmon/pfmlib_perf_event.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

static pthread_once_t pfm_once = PTHREAD_ONCE_INIT;
static int pfm_init_rc = PFM_ERR_NOINIT;

static void pfm_init(void)
{
    pfm_init_rc = pfm_initialize();
}

int socmon_perf_have_pfm(void)
{
    return 1;
}

int smn_perf_pfm_lookup(const char *name, socmon_perf_attr *out)
{
    pthread_once(&pfm_once, pfm_init);
    if (pfm_init_rc != PFM_SUCCESS)
        return 0;
    struct perf_event_attr attr;
    memset(&attr, 0, sizeof attr);
    pfm_perf_encode_arg_t arg;
    memset(&arg, 0, sizeof arg);
    arg.attr = &attr;
    arg.size = sizeof arg;
    /* user and kernel by default, as perf counts; ":u"/":k" in the name narrow it */
    int rc = pfm_get_os_event_encoding(name, PFM_PLM0 | PFM_PLM3, PFM_OS_PERF_EVENT_EXT, &arg);
    if (rc == PFM_ERR_NOTFOUND || rc == PFM_ERR_NOINIT)
        return 0;
    if (rc != PFM_SUCCESS) {
        socmon_fail(SOCMON_EPARSE, "event '%s': libpfm4: %s", name, pfm_strerror(rc));
        return -1;
    }
    out->type = attr.type;
    out->config = attr.config;
    out->config1 = attr.config1;
    out->config2 = attr.config2;
    out->exclude_user = attr.exclude_user;
    out->exclude_kernel = attr.exclude_kernel;
    out->exclude_hv = attr.exclude_hv;
    pfm_pmu_info_t pinfo;
    memset(&pinfo, 0, sizeof pinfo);
    pinfo.size = sizeof pinfo;
    pfm_event_info_t einfo;
    memset(&einfo, 0, sizeof einfo);
    einfo.size = sizeof einfo;
    if (pfm_get_event_info(arg.idx, PFM_OS_NONE, &einfo) == PFM_SUCCESS &&
        pfm_get_pmu_info(einfo.pmu, &pinfo) == PFM_SUCCESS && pinfo.name)
        snprintf(out->pmu, sizeof out->pmu, "%s", pinfo.name);
    snprintf(out->unit, sizeof out->unit, "events");
    return 1;
}

#else

int socmon_perf_have_pfm(void)
{
    return 0;
}

int smn_perf_pfm_lookup(const char *name, socmon_perf_attr *out)
{
    (void)name;
    (void)out;
    return 0;
}

#endif
