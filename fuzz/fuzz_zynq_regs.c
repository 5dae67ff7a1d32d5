/* Fuzzes the Zynq register models and the time engine behind them: any
 * sequence of register reads and writes (APM, both PMU windows), traffic
 * settings, time steps, access costs, interrupt waits and an interrupt
 * handler that itself accesses registers, in Profile or Advanced mode, must
 * neither crash, hang nor trip the sanitizers, every aligned access inside a
 * window must succeed, and a failing call must say why.
 *
 * Input: records of 8 bytes: op, 2-byte offset, 4-byte value, 1 spare. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "models/zynq/zynq_model.h"
#include "socmon/socmon.h"

static uint32_t le32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

typedef struct irq_ctx {
    socmon_bus *bus;
    uint64_t apm;
    unsigned calls;
} irq_ctx;

/* a handler as a driver writes it: read IS, clear it (every other call) */
static void on_irq(void *ctx, socmon_zynq_soc *soc, socmon_zynq_irq line, uint64_t edge_ns)
{
    irq_ctx *c = ctx;
    uint32_t is = 0;
    if (edge_ns > socmon_zynq_soc_now_ns(soc) || (unsigned)line > 2)
        abort();
    if (socmon_bus_read32(c->bus, c->apm + A_ZAPM_IS, &is) ||
        ((++c->calls & 1) && socmon_bus_write32(c->bus, c->apm + A_ZAPM_IS, is)))
        abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 4096)
        return 0;
    socmon_zynq_desc d;
    socmon_zynq_desc_default(&d);
    d.nslots = size ? 1 + data[0] % 8 : 5;
    if (size && (data[0] & 0x80)) {
        /* Advanced mode, its build parameters from the same byte */
        d.apm.mode = SOCMON_ZAPM_ADVANCED;
        d.apm.ncounters = 1 + (data[0] >> 3) % 10;
        d.apm.scale = 1u << ((data[0] >> 3) & 3);
        d.apm.event_count = (data[0] >> 5) & 1;
        d.apm.sampled = (data[0] >> 6) & 1;
        d.apm.id32 = (data[0] >> 4) & 1;
        d.gcc_width = (data[0] & 0x40) ? 32 : 64;
    }
    socmon_zynq_soc *soc = NULL;
    socmon_bus *bus = NULL;
    if (smn_zynq_soc_new(&d, &soc) || socmon_bus_model_new(&bus) || smn_zynq_soc_map(soc, bus))
        abort();
    irq_ctx ic = {bus, d.apm_base, 0};
    for (size_t i = 1; i + 8 <= size; i += 8) {
        const uint8_t *r = data + i;
        uint32_t off = ((uint32_t)r[1] | (uint32_t)r[2] << 8) & ~3u;
        uint32_t v = le32(r + 3);
        uint32_t got;
        socmon_status st = SOCMON_OK;
        switch (r[0] % 9) {
        case 0:
            st = socmon_bus_read32(bus, d.apm_base + (off % SOCMON_ZAPM_WINDOW), &got);
            break;
        case 1:
            st = socmon_bus_write32(bus, d.apm_base + (off % SOCMON_ZAPM_WINDOW), v);
            break;
        case 2:
            st = socmon_bus_read32(bus, d.pmu_base[r[7] & 1] + (off % SOCMON_ZA9_WINDOW), &got);
            break;
        case 3:
            st = socmon_bus_write32(bus, d.pmu_base[r[7] & 1] + (off % SOCMON_ZA9_WINDOW), v);
            break;
        case 4:
            /* small steps: a sample interval of 0 lapses every 3 cycles */
            st = socmon_zynq_soc_advance(soc, v % 200000, NULL);
            break;
        case 5: {
            socmon_zynq_traffic t = {.wr_mbps = (double)(v & 0xFFF), .rd_mbps = (double)(v >> 20),
                .burst_bytes = (uint32_t)off,
                                     .lat_ns = 1 + (double)r[7] * 8, .lat_jitter_ns = (double)(r[7] & 0x1F), .id_base = v & 0xF,
                                     .id_count = r[7] & 0x7};
            st = socmon_zynq_soc_set_traffic(soc, r[7] % 8, &t);
            if (st && !*socmon_errmsg())
                abort();
            st = SOCMON_OK;
            break;
        }
        case 6:
            st = socmon_zynq_soc_set_access_ns(soc, v % 2000);
            break;
        case 7:
            st = socmon_zynq_soc_wait_irq(soc, (socmon_zynq_irq)(r[7] % 3), v % 200000, NULL);
            if (st == SOCMON_EAGAIN && *socmon_errmsg())
                st = SOCMON_OK;   /* no edge in time: an error that says why */
            break;
        case 8:
            st = socmon_zynq_soc_set_irq_handler(soc, r[7] & 1 ? on_irq : NULL, &ic);
            break;
        }
        if (st)
            abort();   /* aligned accesses inside a mapped window never fail */
    }
    socmon_bus_free(bus);
    smn_zynq_soc_free(soc);
    return 0;
}
