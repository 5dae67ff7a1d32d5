/* Shared by the CP15 tests: a model with both PMUs mapped on a bus, and
 * one-line CP15/window accessors that fail the test on an error. */
#ifndef SOCMON_TESTS_ZYNQ_CP15_HELPER_H
#define SOCMON_TESTS_ZYNQ_CP15_HELPER_H

#include <stdlib.h>
#include <string.h>

#include "models/zynq/zynq_model.h"

typedef struct cfx {
    socmon_zynq_soc *soc;
    socmon_bus *bus;
} cfx;

static inline int cfx_setup(void **state)
{
    cfx *f = calloc(1, sizeof *f);
    socmon_zynq_desc d;
    socmon_zynq_desc_default(&d);
    d.cpu_hz = 500e6;   /* 2 ns per cycle */
    assert_int_equal(smn_zynq_soc_new(&d, &f->soc), SOCMON_OK);
    /* exact counts over exactly the advanced time, and the window and CP15
     * paths compared cycle for cycle: window accesses cost no time here */
    assert_int_equal(socmon_zynq_soc_set_access_ns(f->soc, 0), SOCMON_OK);
    assert_int_equal(socmon_bus_model_new(&f->bus), SOCMON_OK);
    assert_int_equal(smn_zynq_soc_map(f->soc, f->bus), SOCMON_OK);
    *state = f;
    return 0;
}

static inline int cfx_teardown(void **state)
{
    cfx *f = *state;
    socmon_bus_free(f->bus);
    smn_zynq_soc_free(f->soc);
    free(f);
    return 0;
}

/* MRC/MCR p15, 0, Rt, c9, cCRM, OPC2 on core `core`. */
static inline uint32_t mrc(cfx *f, unsigned core, unsigned crm, unsigned opc2)
{
    uint32_t v = 0xDEADBEEF;
    assert_int_equal(socmon_zynq_cp15_read(f->soc, core, 0, 9, crm, opc2, &v), SOCMON_OK);
    return v;
}

static inline void mcr(cfx *f, unsigned core, unsigned crm, unsigned opc2, uint32_t v)
{
    assert_int_equal(socmon_zynq_cp15_write(f->soc, core, 0, 9, crm, opc2, v), SOCMON_OK);
}

static inline uint32_t win_rd(cfx *f, unsigned core, uint32_t off)
{
    uint32_t v = 0xDEADBEEF;
    uint64_t b = core ? 0xF8893000ull : 0xF8891000ull;   /* spec §5.1 (ZYNQHDR, DTS) */
    assert_int_equal(socmon_bus_read32(f->bus, b + off, &v), SOCMON_OK);
    return v;
}

static inline void win_wr(cfx *f, unsigned core, uint32_t off, uint32_t v)
{
    uint64_t b = core ? 0xF8893000ull : 0xF8891000ull;
    assert_int_equal(socmon_bus_write32(f->bus, b + off, v), SOCMON_OK);
}

/* Runs the model n cycles of the 500 MHz core. */
static inline void run_cycles(cfx *f, uint64_t n)
{
    assert_int_equal(socmon_zynq_soc_advance(f->soc, n * 2, NULL), SOCMON_OK);
}

#endif
