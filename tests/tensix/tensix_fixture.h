/* The fixture the Tensix register tests share: a core model on a model bus,
 * its debug registers at SOCMON_TENSIX_REGS_BASE and L1 where the test puts
 * it, and register reads and writes by offset through the bus. The core's
 * constructor is internal (models/tensix/tensix_model.h): users open the
 * "tensix" target, whose L1 is at 0; these tests put L1 elsewhere too. */
#ifndef SOCMON_TESTS_TENSIX_FIXTURE_H
#define SOCMON_TESTS_TENSIX_FIXTURE_H

#include <string.h>

#include "models/tensix/tensix_model.h"
#include "socmon/bus.h"
#include "socmon/tensix.h"

typedef struct fx {
    socmon_tensix_core *c;
    socmon_bus *bus;
} fx;

/* p NULL: the model's defaults. Returns 0, or -1 as a cmocka setup does. */
static inline int fx_open(fx *f, const socmon_tensix_kernel_params *p, uint64_t l1, int start_kernel)
{
    memset(f, 0, sizeof *f);
    if (smn_tensix_core_new(p, &f->c) != SOCMON_OK || socmon_bus_model_new(&f->bus) != SOCMON_OK ||
        smn_tensix_core_map(f->c, f->bus, SOCMON_TENSIX_REGS_BASE, l1) != SOCMON_OK)
        return -1;
    return start_kernel && socmon_tensix_core_kernel_start(f->c) != SOCMON_OK ? -1 : 0;
}

static inline int teardown(void **state)
{
    fx *f = *state;
    socmon_bus_free(f->bus);
    smn_tensix_core_free(f->c);
    return 0;
}

static inline uint32_t rd(fx *f, uint32_t off)
{
    uint32_t v = 0xDEADBEEF;
    assert_int_equal(socmon_bus_read32(f->bus, SOCMON_TENSIX_REGS_BASE + off, &v), SOCMON_OK);
    return v;
}

static inline void wr(fx *f, uint32_t off, uint32_t v)
{
    assert_int_equal(socmon_bus_write32(f->bus, SOCMON_TENSIX_REGS_BASE + off, v), SOCMON_OK);
}

#endif
