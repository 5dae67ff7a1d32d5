/* Internal to src/drivers/perf: the perf device's state, shared by opening
 * (perf_dev.c) and reading (perf_read.c, perf_rdpmc.c). */
#ifndef SOCMON_DRIVERS_PERF_DRV_H
#define SOCMON_DRIVERS_PERF_DRV_H

#include <stddef.h>
#include <stdint.h>
#include "socmon/perf.h"

/* read_format bits and layouts: include/uapi/linux/perf_event.h */
#define PERF_RF_TOTAL_TIME_ENABLED (1u << 0)
#define PERF_RF_TOTAL_TIME_RUNNING (1u << 1)
#define PERF_RF_ID (1u << 2)
#define PERF_RF_GROUP (1u << 3)
#define PERF_RF_USED (PERF_RF_GROUP | PERF_RF_TOTAL_TIME_ENABLED | PERF_RF_TOTAL_TIME_RUNNING | PERF_RF_ID)
#define PERF_RDPMC_RETRIES 64

typedef struct perf_ev {
    int fd;
    uint64_t id;            /* PERF_EVENT_IOC_ID: matches the read's id field */
    size_t group;           /* index into perf_drv.g */
    void *page;             /* mmap page (rdpmc), or NULL */
    const char *name;       /* into the device's counter (socmon_device copies names) */
} perf_ev;

typedef struct perf_group {
    size_t first, n;        /* events first .. first+n-1 */
    int leader_fd;
} perf_group;

typedef struct perf_drv {
    const socmon_perf_sys *sys;
    perf_ev *ev;
    size_t nev;
    perf_group *g;
    size_t ng;
    uint64_t *val;          /* per counter (3 per event: value, enabled, running) the last read */
    uint64_t *buf;          /* one group read's buffer */
    unsigned char *want;    /* per group: a read asks for it (scratch, so a read allocates nothing) */
    size_t buflen;          /* in u64 */
    int rdpmc_ok;           /* self-monitoring: rdpmc may be tried */
    int used_rdpmc;
    char (*unsup)[2][160];  /* events left out: name, reason */
    size_t nunsup;
} perf_drv;

/* Decodes one GROUP|TOTAL_TIME_ENABLED|TOTAL_TIME_RUNNING|ID read of n events with the
 * given ids: values[i] for ids[i], the group's times. len is the byte count read.
 * SOCMON_EIO naming what is wrong with the buffer. */
socmon_status smn_perf_decode_group(const uint64_t *buf, size_t len, size_t n, const uint64_t *ids, uint64_t *values,
                                uint64_t *enabled, uint64_t *running);
/* Reads group gi into d->val (read(), or rdpmc when allowed and the group is not multiplexed). */
socmon_status smn_perf_read_group(perf_drv *d, size_t gi);
/* 1 and the counts if every member could be read by rdpmc now; 0: use read(). */
int smn_perf_rdpmc_group(perf_drv *d, size_t gi, uint64_t *values, uint64_t *enabled, uint64_t *running);

#endif
