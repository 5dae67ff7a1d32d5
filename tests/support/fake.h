/* Test doubles: a device whose counters live in an array, device ops for a
 * device that only carries a schema, and a simulated target whose counters
 * grow at fixed rates as time advances. */
#ifndef SOCMON_TEST_FAKE_H
#define SOCMON_TEST_FAKE_H

#include <stdint.h>
#include "socmon/socmon.h"

#define FAKE_MAX 16

typedef struct fake_dev {
    uint64_t value[FAKE_MAX];
    unsigned width[FAKE_MAX];
    size_t n;
    unsigned reads;   /* read callbacks served */
} fake_dev;

/* A device "fake" with n counters c0..c{n-1} of the given widths, instance
 * "u0" for even and "u1" for odd indices. The device does not own fd. */
socmon_status fake_device_new(fake_dev *fd, size_t n, const unsigned *widths, socmon_device **out);

/* Ops for a device made only for its schema (recordings, whose samples a
 * test or benchmark writes itself): a read returns each counter's index, a
 * recognisable value should anything read it. The ops need no driver state. */
extern const socmon_device_ops fake_index_ops;

/* The fake target: counter i grows by rate[i] events per microsecond of
 * simulated time; the workload "finite" ends after end_ns. */
typedef struct fake_target_cfg {
    size_t n;
    unsigned width[FAKE_MAX];
    double rate_per_us[FAKE_MAX];
    double max_rate_hz[FAKE_MAX];
    uint64_t end_ns;
    int simulated;
    unsigned stall_on;    /* 1-based advance call that first sleeps stall_ns of wall time */
    uint64_t stall_ns;
    int stop_at_end;      /* simulated: a step crossing end_ns stops the clock there (as the models do) */
    int stuck;            /* simulated: advance never moves the clock (a broken target) */
} fake_target_cfg;

extern fake_target_cfg fake_cfg;          /* read by the open callback */
extern unsigned fake_stalls;              /* stalls made (stall_on reached) */
extern const socmon_target_ops fake_target_ops;
extern const socmon_target_ops fake_rt_target_ops;

#endif
