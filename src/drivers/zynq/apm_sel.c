/* AXI Performance Monitor, Advanced mode, driver side: what each metric
 * number is called and how fast it can count, and the default selection.
 *
 * Metric numbers and meanings: spec §1.5 (ESW XAPM_METRIC_SET_n, HDL
 * metric_sel_n_cnt.v). The names of the six SPA metrics are the Profile-mode
 * counter names, so metrics/zynq.json reads Advanced-mode counters unchanged. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "drivers/zynq/zynq_drv.h"

_Static_assert(SOCMON_ZAPM_MAX_SEL == SOCMON_ZAPM_ADV_COUNTERS,
               "smn_zapm_config.sel has one entry per Advanced-mode counter");

/* rate: increments per core clock (x bus width when per_byte; 0: a live
 * value, not a count). */
static const zapm_metric_info infos[ZAPM_NMETRICS] = {
    [ZAPM_M_WR_TXNS] = {"wr_txns", "events", "write transactions (address handshakes)", 1, 0},
    [ZAPM_M_RD_TXNS] = {"rd_txns", "events", "read transactions (address handshakes)", 1, 0},
    [ZAPM_M_WR_BYTES] = {"wr_bytes", "bytes", "write bytes (WSTRB lanes, counted at WLAST)", 1, 1},
    [ZAPM_M_RD_BYTES] = {"rd_bytes", "bytes", "read bytes (bus width per beat)", 1, 1},
    [ZAPM_M_WR_BEATS] = {"wr_beats", "events", "write beats", 1, 0},
    [ZAPM_M_RD_LAT] = {"rd_lat", "cycles", "total read latency (CR bits 6-7 points)", 32, 0},
    [ZAPM_M_WR_LAT] = {"wr_lat", "cycles", "total write latency (CR bits 4-5 points)", 32, 0},
    [ZAPM_M_WR_SLV_IDLE] = {"wr_slave_idle", "cycles", "write data valid, slave not ready", 1, 0},
    [ZAPM_M_RD_MST_IDLE] = {"rd_master_idle", "cycles", "read data valid, master not ready", 1, 0},
    [ZAPM_M_BVALIDS] = {"wr_resps", "events", "write responses (BVALID handshakes)", 1, 0},
    [ZAPM_M_WLASTS] = {"wr_lasts", "events", "WLAST beats", 1, 0},
    [ZAPM_M_RLASTS] = {"rd_lasts", "events", "RLAST beats", 1, 0},
    [ZAPM_M_WR_LAT_MIN] = {"wr_lat_min", "cycles", "minimum write latency (live value)", 0, 0},
    [ZAPM_M_WR_LAT_MAX] = {"wr_lat_max", "cycles", "maximum write latency (live value)", 0, 0},
    [ZAPM_M_RD_LAT_MIN] = {"rd_lat_min", "cycles", "minimum read latency (live value)", 0, 0},
    [ZAPM_M_RD_LAT_MAX] = {"rd_lat_max", "cycles", "maximum read latency (live value)", 0, 0},
    [16] = {"st_transfers", "events", "AXI4-Stream transfers", 1, 0},
    [17] = {"st_packets", "events", "AXI4-Stream packets", 1, 0},
    [18] = {"st_data_bytes", "bytes", "AXI4-Stream data bytes", 1, 1},
    [19] = {"st_pos_bytes", "bytes", "AXI4-Stream position bytes", 1, 1},
    [20] = {"st_null_bytes", "bytes", "AXI4-Stream null bytes", 1, 1},
    [21] = {"st_slave_idle", "cycles", "AXI4-Stream slave idle cycles", 1, 0},
    [22] = {"st_master_idle", "cycles", "AXI4-Stream master idle cycles", 1, 0},
    [ZAPM_M_EXT_EVENT] = {"ext_events", "events", "external events", 1, 0},
};

const zapm_metric_info *smn_zapm_metric_info_of(unsigned metric)
{
    return metric < ZAPM_NMETRICS && infos[metric].name ? &infos[metric] : NULL;
}

const char *smn_zapm_metric_name(unsigned metric)
{
    const zapm_metric_info *i = smn_zapm_metric_info_of(metric);
    return i ? i->name : NULL;
}

unsigned smn_zapm_default_sel(unsigned nslots, unsigned ncounters, smn_zapm_sel *sel)
{
    static const uint8_t spa[6] = {ZAPM_M_WR_BYTES, ZAPM_M_WR_TXNS, ZAPM_M_WR_LAT,
                                   ZAPM_M_RD_BYTES, ZAPM_M_RD_TXNS, ZAPM_M_RD_LAT};
    static const uint8_t more[4] = {ZAPM_M_WR_BYTES, ZAPM_M_RD_BYTES, ZAPM_M_WR_TXNS,
                                    ZAPM_M_RD_TXNS};
    if (!sel)
        return 0;
    if (ncounters > SOCMON_ZAPM_MAX_SEL)
        ncounters = SOCMON_ZAPM_MAX_SEL;
    unsigned n = 0;
    for (unsigned j = 0; j < 6 && n < ncounters; j++)
        sel[n++] = (smn_zapm_sel){0, spa[j]};
    for (unsigned s = 1; s < nslots && s < SOCMON_ZAPM_MAX_SLOTS; s++)
        for (unsigned j = 0; j < 4 && n < ncounters; j++)
            sel[n++] = (smn_zapm_sel){(uint8_t)s, more[j]};
    return n;
}

/* One "SLOT:METRIC" item; METRIC a name or a number. */
static socmon_status parse_item(const char *it, smn_zapm_sel *out)
{
    char *end;
    const char *colon = strchr(it, ':');
    if (!colon || colon == it)
        return socmon_fail(SOCMON_EINVAL, "apm_sel item '%s' is not SLOT:METRIC (e.g. 0:wr_bytes)",
                           it);
    /* decimal digits only: strtoul alone would take " 0" or "-0" */
    unsigned long slot = *it >= '0' && *it <= '9' ? strtoul(it, &end, 10) : SOCMON_ZAPM_MAX_SLOTS;
    if (slot >= SOCMON_ZAPM_MAX_SLOTS || end != colon)
        return socmon_fail(SOCMON_ERANGE, "apm_sel item '%s': slot must be 0..%u", it,
                           SOCMON_ZAPM_MAX_SLOTS - 1);
    const char *m = colon + 1;
    unsigned long metric = ZAPM_NMETRICS;
    for (unsigned i = 0; i < ZAPM_NMETRICS; i++)
        if (infos[i].name && strcmp(infos[i].name, m) == 0)
            metric = i;
    if (metric == ZAPM_NMETRICS && *m >= '0' && *m <= '9') {
        metric = strtoul(m, &end, 10);   /* decimal, as the help says: "010" is 10, not octal 8 */
        if (*end)
            metric = ZAPM_NMETRICS;
    }
    if (!smn_zapm_metric_info_of(metric >= ZAPM_NMETRICS ? ZAPM_NMETRICS : (unsigned)metric))
        return socmon_fail(SOCMON_ENOENT, "apm_sel item '%s': '%s' is no APM metric (a name such "
                           "as wr_bytes, rd_lat_max, or a number 0..22, 30)", it, m);
    out->slot = (uint8_t)slot;
    out->metric = (uint8_t)metric;
    return SOCMON_OK;
}

socmon_status smn_zapm_sel_parse(const char *list, smn_zapm_sel *sel, unsigned *nsel)
{
    char buf[256];
    if (!list || !sel || !nsel)
        return socmon_fail(SOCMON_EINVAL, "apm_sel: NULL argument");
    if (strlen(list) >= sizeof buf)
        return socmon_fail(SOCMON_EINVAL, "apm_sel longer than %zu characters", sizeof buf - 1);
    strcpy(buf, list);
    /* strtok_r would merge "a++b" and drop a trailing '+': refuse empty items */
    if (!*list || list[0] == '+' || list[strlen(list) - 1] == '+' || strstr(list, "++"))
        return socmon_fail(SOCMON_EINVAL, "apm_sel '%s' has an empty item (items are SLOT:METRIC "
                           "joined by single '+')", list);
    unsigned n = 0;
    for (char *save = NULL, *p = strtok_r(buf, "+", &save); p; p = strtok_r(NULL, "+", &save)) {
        if (n == SOCMON_ZAPM_MAX_SEL)
            return socmon_fail(SOCMON_ERANGE, "apm_sel: more than %u selections",
                               SOCMON_ZAPM_MAX_SEL);
        socmon_status st = parse_item(p, &sel[n]);
        if (st)
            return st;
        n++;
    }
    if (n == 0)
        return socmon_fail(SOCMON_EINVAL, "apm_sel '%s' selects nothing", list);
    *nsel = n;
    return SOCMON_OK;
}
