/* libFuzzer harness for the ESP model: a random small SoC, then a random
 * sequence of primitives, workload steps, register accesses and resets. The
 * model must never crash, hang or break its conservation laws: whenever it is
 * quiet, what entered the NoC left it and every request got its answer. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "hw/esp_monitor.h"
#include "models/esp/esp_soc.h"
#include "socmon/bus.h"

typedef struct input {
    const uint8_t *p;
    size_t n;
} input;

static unsigned next(input *in)
{
    if (in->n == 0)
        return 0;
    in->n--;
    return *in->p++;
}

static uint64_t sum_mem(const socmon_esp_soc *soc, unsigned mon)
{
    const socmon_esp_soc_desc *d = socmon_esp_soc_get_desc(soc);
    uint64_t s = 0;
    for (unsigned t = 0; t < d->rows * d->cols; t++)
        if (d->tiles[t].type == SOCMON_ESP_TILE_MEM)
            s += socmon_esp_soc_peek(soc, t, mon);
    return s;
}

/* Flits (the injection monitor) or packets (the model-only counter) tiles sent on plane p: all
 * tiles, or the memory tiles only. */
static uint64_t sent(const socmon_esp_soc *soc, unsigned p, int packets, int mem_only)
{
    const socmon_esp_soc_desc *d = socmon_esp_soc_get_desc(soc);
    uint64_t s = 0;
    for (unsigned t = 0; t < d->rows * d->cols; t++)
        if (!mem_only || d->tiles[t].type == SOCMON_ESP_TILE_MEM)
            s += packets ? smn_esp_soc_peek_xmon(soc, t, ESP_XMON_PKTS + p)
                         : socmon_esp_soc_peek(soc, t, SOCMON_ESP_MON_NOC_INJ + p);
    return s;
}

static void check(socmon_esp_soc *soc)
{
    smn_esp_model_stats st;
    smn_esp_soc_stats(soc, &st);
    if (st.flits_in_network || st.packets_waiting)
        abort();
    for (unsigned p = 0; p < 6; p++)
        if (st.flits_injected[p] != st.flits_ejected[p])
            abort();
    /* The memory tiles' queue monitors count flits: every request flit on plane 0 reaches one, every
     * forward flit on plane 1 leaves one. Packets pair the requests with their answers. */
    if (sent(soc, 0, 0, 0) != sum_mem(soc, SOCMON_ESP_MON_COH_REQ) ||
        sent(soc, 1, 0, 1) != sum_mem(soc, SOCMON_ESP_MON_COH_FWD) ||
        sent(soc, 2, 0, 1) != sum_mem(soc, SOCMON_ESP_MON_COH_RSP_SND))
        abort();
    uint64_t req = sent(soc, 0, 1, 0), rsp = sent(soc, 2, 1, 1), answers = sent(soc, 2, 1, 0) - rsp;
    if (socmon_esp_soc_get_desc(soc)->cache_hierarchy ? req != rsp || answers != sent(soc, 1, 1, 1)
                                                       : rsp > req || answers != 0)
        abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    input in = {data, size};
    socmon_esp_soc_desc d;
    socmon_esp_soc_desc_default(&d);
    unsigned g = next(&in);
    d.rows = 1 + g % 3;
    d.cols = 1 + (g >> 2) % 3;
    d.cache_hierarchy = (g >> 4) & 1;
    d.dvfs = (g >> 5) & 1;
    memset(d.tiles, 0, sizeof d.tiles);
    for (unsigned t = 0; t < d.rows * d.cols; t++) {
        unsigned b = next(&in);
        d.tiles[t].type = (socmon_esp_tile_type)(b % 5);
        if (d.tiles[t].type == SOCMON_ESP_TILE_ACC) {
            strcpy(d.tiles[t].name, "acc");
            d.tiles[t].has_l2 = (b >> 3) & 1;
        }
    }
    socmon_esp_soc *soc;
    socmon_bus *bus;
    if (smn_esp_soc_new(&d, &soc) != SOCMON_OK)
        return 0;
    if (socmon_bus_model_new(&bus) != SOCMON_OK || smn_esp_soc_map(soc, bus) != SOCMON_OK)
        abort();
    unsigned ntiles = d.rows * d.cols;
    int done = 1;
    uint64_t budget_ns = 300000; /* keeps one input well under a second */
    for (unsigned ops = 0; in.n > 0 && ops < 16; ops++) {
        unsigned op = next(&in), a = next(&in), b = next(&in);
        uint32_t v;
        switch (op % 8) {
        case 0:
            socmon_esp_soc_cpu_access(soc, a % 3, a * 2u, b, (b + 1) * 64u);
            break;
        case 1:
            socmon_esp_soc_acc_invoke(soc, a % 4, (b + 1) * 16u, (socmon_esp_coherence)(a % 5));
            break;
        case 2:
            socmon_esp_soc_flush(soc, a & 1);
            break;
        case 3:
            if (socmon_esp_soc_start(soc, socmon_esp_workloads()[a % 5]) == SOCMON_OK)
                done = 0;
            break;
        case 4: {
            uint64_t ns = (uint64_t)(a + 1) * (b + 1) * 4u;
            ns = ns < budget_ns ? ns : budget_ns;
            budget_ns -= ns;
            socmon_esp_soc_advance(soc, ns, &done);
            break;
        }
        case 5:
            socmon_bus_write32(bus, d.monitor_base + (a % ntiles) * 0x200u + (b % 128) * 4u, a * b);
            break;
        case 6:
            socmon_bus_read32(bus, d.monitor_base + (a % ntiles) * 0x200u + (b % 128) * 4u, &v);
            break;
        case 7:
            socmon_esp_soc_reset(soc);
            done = 1;
            break;
        }
        if (done)
            check(soc);
    }
    socmon_bus_free(bus);
    smn_esp_soc_free(soc);
    return 0;
}
