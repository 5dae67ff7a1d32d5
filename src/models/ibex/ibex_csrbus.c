/* The Ibex model's CSR file as a register space on a socmon model bus
 * (CSR N at byte address N * 4, src/hw/ibex_csr.h), so socmon's driver reads
 * the counters the way a debugger would: by CSR number, 64-bit values as
 * lo/hi pairs. A read returns what csrr in M-mode would read between two
 * instructions; a CSR that csrr could not read is a bus error. Writes are
 * refused: socmon only observes the core (the program owns its counters). */
#include "core/error.h"
#include "models/ibex/ibex_internal.h"
#include "socmon/bus.h"

static socmon_status csr_read(void *model, uint64_t off, uint32_t *val)
{
    ibex_core *c = model;
    uint32_t csr = (uint32_t)(off / 4);
    /* a read syncs the counters: give any pending change to the attribution first */
    smn_ibex_sync(c);
    smn_ibex_attr_flush(c);
    socmon_status st = smn_ibex_csr_peek(c, csr, val);
    return st ? socmon_fail(SOCMON_EIO, "ibex: CSR 0x%03x is not readable in M-mode", csr) : SOCMON_OK;
}

static socmon_status csr_write(void *model, uint64_t off, uint32_t val)
{
    (void)model;
    (void)val;
    return socmon_fail(SOCMON_EIO, "ibex: CSR 0x%03x: the CSR bus is read-only", (unsigned)(off / 4));
}

static const socmon_regmodel_ops csr_ops = {.read = csr_read, .write = csr_write};

socmon_status smn_ibex_map_csrs(ibex_core *c, socmon_bus *bus)
{
    return socmon_bus_model_map(bus, IBEX_CSRBUS_BASE, IBEX_CSRBUS_SIZE, &csr_ops, c);
}
