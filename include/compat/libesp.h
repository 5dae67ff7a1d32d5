/* A minimal stand-in for ESP's libesp.h (soft/common/drivers/linux/include/libesp.h),
 * enough for programs like ESP's multifft_mon example to run on socmon's
 * virtual ESP SoC: esp_alloc / esp_free / esp_run and the types they use, with
 * ESP's names and field order.
 *
 * esp_run does not talk to a Linux driver: each configuration with run set
 * invokes an accelerator of the virtual SoC (socmon_esp_soc_acc_invoke), in
 * simulated time, moving esp_desc->footprint bytes (or, if that is 0, the
 * size of hw_buf's esp_alloc allocation) with esp_desc->coherence. The device
 * "NAME.K" is the K-th accelerator tile whose name is NAME or a prefix of
 * NAME followed by '_' ("fft_stratus.1" is the second "fft" tile). hw_ns gets
 * the simulated run time. Errors (unknown device, hardware mode) are reported
 * through esp_monitor_status() / esp_monitor_errmsg(). See docs/esp.md. */
#ifndef SOCMON_COMPAT_LIBESP_H
#define SOCMON_COMPAT_LIBESP_H

#include "socmon/export.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

SOCMON_BEGIN_DECLS

enum accelerator_coherence { ACC_COH_NONE = 0, ACC_COH_LLC, ACC_COH_RECALL, ACC_COH_FULL, ACC_COH_AUTO };

enum contig_alloc_policy { CONTIG_ALLOC_PREFERRED, CONTIG_ALLOC_LEAST_LOADED, CONTIG_ALLOC_BALANCED };

typedef void *contig_khandle_t;

struct esp_access {
    contig_khandle_t contig;
    uint8_t run;
    uint8_t p2p_store;
    uint8_t p2p_nsrcs;
    char p2p_srcs[4][64];
    enum accelerator_coherence coherence;
    unsigned int footprint;       /* bytes the invocation moves */
    enum contig_alloc_policy alloc_policy;
    unsigned int ddr_node;
    unsigned int in_place;
    unsigned int reuse_factor;
};

typedef struct esp_accelerator_thread_info {
    bool run;
    char *devname;
    void *hw_buf;
    int ioctl_req;
    struct esp_access *esp_desc;
    int fd;
    unsigned long long hw_ns;
} esp_thread_info_t;

void *esp_alloc(size_t size);
void esp_run(esp_thread_info_t cfg[], unsigned nacc);
void esp_free(void *buf);
/* Frees every esp_alloc buffer not yet freed. */
void esp_cleanup(void);

SOCMON_END_DECLS
#endif
