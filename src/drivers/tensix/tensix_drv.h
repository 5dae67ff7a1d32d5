/* The Tensix counter-bank driver: the bank protocol over a socmon_bus.
 *
 * start() starts each bank that a valid slot names (once, at its first slot;
 * the L1 mux comes from the first L1 slot); stop() stops them and reads every
 * valid slot in slot order. The driver also builds a socmon_device whose
 * counters are the configured (bank, counter) pairs plus each bank's cycles,
 * for sampling while the banks run. Undefined L1 results (the mux changed
 * while the L1 bank ran) come back as SOCMON_EUNDEF, never as numbers. */
#ifndef SOCMON_DRIVERS_TENSIX_DRV_H
#define SOCMON_DRIVERS_TENSIX_DRV_H

#include <stddef.h>
#include <stdint.h>
#include "drivers/tensix/tensix_hw.h"
#include "socmon/bus.h"
#include "socmon/device.h"

typedef struct socmon_tensix_result {
    uint32_t cycles;      /* OUT_L: the bank's elapsed cycles */
    uint32_t count;       /* OUT_H: the selected counter */
    unsigned bank, counter_id, l1_mux;
    unsigned slot;        /* config slot it came from */
    int undefined;        /* 1: L1 mux changed while running; cycles/count are 0 */
} socmon_tensix_result;

/* The data-area pair stop() writes for an undefined result. */
#define SOCMON_TENSIX_UNDEF_WORD 0xFFFFFFFFu

typedef struct socmon_tensix_drv socmon_tensix_drv;

/* bus is not owned. regs_base: the debug registers; l1_base: L1 address 0. */
socmon_status socmon_tensix_drv_new(socmon_bus *bus, uint64_t regs_base, uint64_t l1_base,
                                    socmon_tensix_drv **out);
void socmon_tensix_drv_free(socmon_tensix_drv *d);
socmon_bus *socmon_tensix_drv_bus(const socmon_tensix_drv *d);

/* Checks every slot (per-slot errors naming the slot) and that all L1 slots
 * agree on the mux. out (may be NULL) gets n decoded slots; *nvalid the count
 * of valid ones. */
socmon_status socmon_tensix_slots_check(const uint32_t *words, size_t n, socmon_tensix_slot *out,
                                        size_t *nvalid);

/* A thread's config words from L1 (86 words), and writing them (n <= 86,
 * the rest of the config area and the whole data area are zeroed). */
socmon_status socmon_tensix_drv_load_config(socmon_tensix_drv *d, unsigned thread, uint32_t *words);
socmon_status socmon_tensix_drv_store_config(socmon_tensix_drv *d, unsigned thread,
                                             const uint32_t *words, size_t n);

socmon_status socmon_tensix_drv_start(socmon_tensix_drv *d, const uint32_t *words, size_t n);
/* Stops every configured bank, then reads each valid slot into res[0..*nres).
 * Returns SOCMON_EUNDEF (after reading everything else) if L1 results are
 * undefined; those entries have undefined = 1. */
socmon_status socmon_tensix_drv_stop(socmon_tensix_drv *d, const uint32_t *words, size_t n,
                                     socmon_tensix_result *res, size_t cap, size_t *nres);
/* One counter of a bank, running or stopped: selects it and reads OUT_L/OUT_H. */
socmon_status socmon_tensix_drv_read(socmon_tensix_drv *d, unsigned bank, unsigned counter_id,
                                     uint32_t *cycles, uint32_t *count);

/* A device over the slots' counters: instance = bank ("fpu"), name = the
 * guide's counter name, plus "<bank>.cycles" (OUT_L) for each bank used.
 * Counters are 32 bits wide with clock_hz as their top rate. The device
 * holds d but does not own it. */
socmon_status socmon_tensix_drv_device(socmon_tensix_drv *d, const char *name,
                                       const uint32_t *words, size_t n, double clock_hz,
                                       socmon_device **out);

#endif
