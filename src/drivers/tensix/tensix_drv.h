/* The Tensix counter-bank driver: its internal part (the public part, the
 * calls a kernel thread and the host make, is include/socmon/tensix.h). The
 * "tensix" target samples through the device below; socmon's tests drive the
 * raw protocol. Not exported. */
#ifndef SOCMON_DRIVERS_TENSIX_DRV_H
#define SOCMON_DRIVERS_TENSIX_DRV_H

#include "socmon/tensix.h"

socmon_bus *smn_tensix_drv_bus(const socmon_tensix_drv *d);

/* Validates the slots, then starts each bank a valid slot names (L1: after
 * setting the mux the slots ask for), in the order of their first slot. */
socmon_status smn_tensix_drv_start(socmon_tensix_drv *d, const uint32_t *words, size_t n);
/* Stops every configured bank, then reads each valid slot into res[0..*nres).
 * SOCMON_ERANGE if cap is smaller than the valid slots. Returns SOCMON_EUNDEF
 * (after reading everything else) if L1 results are undefined; those entries
 * have undefined = 1. */
socmon_status smn_tensix_drv_stop(socmon_tensix_drv *d, const uint32_t *words, size_t n,
                                     socmon_tensix_result *res, size_t cap, size_t *nres);
/* One counter of a bank, running or stopped: selects it, waits until the mode
 * register shows the selection (SOCMON_EAGAIN after 8 reads), reads OUT_L and
 * OUT_H. SOCMON_EUNDEF for L1 when its mux moved since this driver started it. */
socmon_status smn_tensix_drv_read(socmon_tensix_drv *d, unsigned bank, unsigned counter_id,
                                     uint32_t *cycles, uint32_t *count);

/* A socmon_device over the slots' counters, for sampling while the banks run:
 * "<bank>.cycles" (OUT_L) for each bank used, then "<bank>.<NAME>" per
 * distinct slot, 32 bits wide with clock_hz as their top rate. Reads of
 * undefined L1 values give SOCMON_EUNDEF with 0 in their place. The device
 * uses d but does not own it: free the device first. */
socmon_status smn_tensix_drv_device(socmon_tensix_drv *d, const char *name,
                                       const uint32_t *words, size_t n, double clock_hz,
                                       socmon_device **out);

#endif
