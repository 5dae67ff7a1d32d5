/* Shared by the ESP model tests: the conservation laws of docs/esp-model.md,
 * checked on a quiescent SoC whose counters started at 0 (no pokes). */
#ifndef TESTS_ESP_MODEL_LAWS_H
#define TESTS_ESP_MODEL_LAWS_H

#include <stdint.h>
#include "hw/esp_monitor.h"
#include "models/esp/esp_soc.h"

/* Sum of monitor mon over the tiles of a type (type < 0: all tiles). */
static inline uint64_t law_sum(const socmon_esp_soc *soc, int type, unsigned mon)
{
    const socmon_esp_soc_desc *d = socmon_esp_soc_get_desc(soc);
    uint64_t s = 0;
    for (unsigned t = 0; t < d->rows * d->cols; t++)
        if (type < 0 || (int)d->tiles[t].type == type)
            s += socmon_esp_soc_peek(soc, t, mon);
    return s;
}

/* Packets injected into plane p by the tiles of a type (type < 0: all): the model-only counter
 * (tile_inject, monitor 23 + p, counts flits). */
static inline uint64_t law_pkts(const socmon_esp_soc *soc, int type, unsigned p)
{
    const socmon_esp_soc_desc *d = socmon_esp_soc_get_desc(soc);
    uint64_t s = 0;
    for (unsigned t = 0; t < d->rows * d->cols; t++)
        if (type < 0 || (int)d->tiles[t].type == type)
            s += smn_esp_soc_peek_xmon(soc, t, ESP_XMON_PKTS + p);
    return s;
}

static inline uint64_t law_acc64(const socmon_esp_soc *soc, unsigned t, unsigned lo)
{
    return (uint64_t)socmon_esp_soc_peek(soc, t, lo + 1) << 32 | socmon_esp_soc_peek(soc, t, lo);
}

#define LAW_EQ(a, b, what)                                                                   \
    do {                                                                                     \
        uint64_t a_ = (a), b_ = (b);                                                         \
        if (a_ != b_)                                                                        \
            fail_msg("%s: law '%s' broken: %llu != %llu", label, what, (unsigned long long)a_, \
                     (unsigned long long)b_);                                                \
    } while (0)

static inline void check_laws(const socmon_esp_soc *soc, const char *label)
{
    const socmon_esp_soc_desc *d = socmon_esp_soc_get_desc(soc);
    smn_esp_model_stats st;
    smn_esp_soc_stats(soc, &st);
    const int MEM = SOCMON_ESP_TILE_MEM, ACC = SOCMON_ESP_TILE_ACC;
    unsigned n = d->rows * d->cols;

    /* The model is quiet: every flit that entered the NoC left it. */
    LAW_EQ(st.flits_in_network, 0, "NoC drained");
    LAW_EQ(st.packets_waiting, 0, "no packet waiting to be injected");
    for (unsigned p = 0; p < 6; p++) {
        LAW_EQ(st.flits_injected[p], st.flits_ejected[p], "flits injected == flits ejected");
        /* tile_inject counts flits offered (ESP's RTL), and every offered flit is taken */
        LAW_EQ(law_sum(soc, -1, SOCMON_ESP_MON_NOC_INJ + p), st.flits_injected[p],
               "injection monitors == flits injected");
        LAW_EQ(law_pkts(soc, -1, p), st.packets[p], "model-only packet counters == packets sent");
    }
    /* The memory tiles' queue monitors count flits (their FIFOs' strobes, ESP's tile_mem.vhd). */
    uint64_t coh_req = law_sum(soc, MEM, SOCMON_ESP_MON_COH_REQ);
    uint64_t coh_fwd = law_sum(soc, MEM, SOCMON_ESP_MON_COH_FWD);
    uint64_t rsp_rcv = law_sum(soc, MEM, SOCMON_ESP_MON_COH_RSP_RCV);
    uint64_t rsp_snd = law_sum(soc, MEM, SOCMON_ESP_MON_COH_RSP_SND);
    uint64_t dma_req = law_sum(soc, MEM, SOCMON_ESP_MON_DMA_REQ);
    uint64_t dma_rsp = law_sum(soc, MEM, SOCMON_ESP_MON_DMA_RSP);
    uint64_t cdma_req = law_sum(soc, MEM, SOCMON_ESP_MON_COH_DMA_REQ);
    uint64_t cdma_rsp = law_sum(soc, MEM, SOCMON_ESP_MON_COH_DMA_RSP);
    /* Plane by plane, the flits tiles inject (tile_inject) are the flits memory tiles' queues take
     * or give; packets (the model-only counters) pair requests with responses. */
    uint64_t l2_acc = 0, l2_miss = 0;
    for (unsigned t = 0; t < n; t++)
        if (socmon_esp_soc_defined(soc, t, SOCMON_ESP_MON_L2_HIT)) {
            l2_miss += socmon_esp_soc_peek(soc, t, SOCMON_ESP_MON_L2_MISS);
            l2_acc += socmon_esp_soc_peek(soc, t, SOCMON_ESP_MON_L2_HIT) +
                      socmon_esp_soc_peek(soc, t, SOCMON_ESP_MON_L2_MISS);
        }
#define INJ(type, p) law_sum(soc, type, SOCMON_ESP_MON_NOC_INJ + (p))
    if (d->cache_hierarchy) {
        LAW_EQ(INJ(-1, 0), coh_req, "plane-0 flits == coherence request flits received");
        LAW_EQ(INJ(MEM, 0), 0, "memory tiles send no coherence request");
        LAW_EQ(INJ(MEM, 1), coh_fwd, "mem plane-1 flits == forward flits");
        LAW_EQ(INJ(-1, 1), coh_fwd, "plane 1 carries only forwards");
        LAW_EQ(INJ(MEM, 2), rsp_snd, "mem plane-2 flits == response flits sent");
        LAW_EQ(INJ(-1, 2), rsp_snd + rsp_rcv, "plane-2 flits == response flits sent + received");
        LAW_EQ(law_pkts(soc, MEM, 2), law_pkts(soc, -1, 0), "one response per coherence request");
        LAW_EQ(law_pkts(soc, -1, 2) - law_pkts(soc, MEM, 2), law_pkts(soc, MEM, 1),
               "one answer per forward");
        /* ESP's crossed DMA planes: non-coherent DMA requests on NoC6 (plane 5), responses on
         * NoC4 (plane 3); LLC-coherent and coherent DMA the other way round. */
        LAW_EQ(INJ(ACC, 5), dma_req, "accelerator plane-5 flits == DMA request flits at memory");
        LAW_EQ(INJ(ACC, 3), cdma_req, "accelerator plane-3 flits == coherent-DMA request flits at memory");
        LAW_EQ(INJ(MEM, 3), dma_rsp, "mem plane-3 flits == DMA response flits");
        LAW_EQ(INJ(MEM, 5), cdma_rsp, "mem plane-5 flits == coherent-DMA response flits");
        LAW_EQ(law_pkts(soc, ACC, 5), st.dma_lines[0], "non-coherent DMA requests == non-coherent lines");
        LAW_EQ(law_pkts(soc, ACC, 3), st.dma_lines[1] + st.dma_lines[2],
               "LLC-coherent DMA requests == LLC-coherent and coherent-DMA lines");
        LAW_EQ(l2_acc, st.l2_accesses, "L2 hits + misses == L2 accesses");
        LAW_EQ(law_sum(soc, MEM, SOCMON_ESP_MON_LLC_HIT) + law_sum(soc, MEM, SOCMON_ESP_MON_LLC_MISS),
               l2_miss + st.dma_lines[1] + st.dma_lines[2],
               "LLC lookups == L2 misses + LLC-coherent and coherent DMA lines");
        if (law_pkts(soc, MEM, 3) > law_pkts(soc, ACC, 5) || law_pkts(soc, MEM, 5) > law_pkts(soc, ACC, 3))
            fail_msg("%s: more DMA responses than requests", label);
    } else {
        /* Without the LLC, noc2ahbmst serves the CPUs' accesses from the coherence queues and DMA
         * from the DMA queues: the same monitors, no forwards, no L2, no coherent DMA. */
        LAW_EQ(coh_fwd + rsp_rcv + cdma_req + cdma_rsp + l2_acc, 0, "no forwards, L2 or coherent DMA without caches");
        LAW_EQ(INJ(-1, 0), coh_req, "plane-0 flits == the CPUs' uncached request flits");
        LAW_EQ(INJ(MEM, 2), rsp_snd, "mem plane-2 flits == answer flits to uncached loads");
        LAW_EQ(INJ(ACC, 5), dma_req, "accelerator plane-5 flits == DMA request flits at memory");
        LAW_EQ(INJ(MEM, 3), dma_rsp, "mem plane-3 flits == DMA response flits");
        LAW_EQ(law_pkts(soc, -1, 0), st.uncached_accesses, "one plane-0 packet per uncached access");
        LAW_EQ(law_pkts(soc, ACC, 5), st.dma_lines[0],
               "DMA requests issued == non-coherent DMA lines");
    }
#undef INJ
    /* DDR counts AHB beats (tile_mem.vhd: hready and htrans /= IDLE): two per 16-byte line, one
     * per uncached word. */
    LAW_EQ(law_sum(soc, MEM, SOCMON_ESP_MON_DDR),
           2 * (law_sum(soc, MEM, SOCMON_ESP_MON_LLC_MISS) + st.llc_writebacks + st.llc_flush_writebacks +
                st.dma_lines[0]) + st.uncached_accesses,
           "DDR beats == 2 x (LLC fills + write-backs + non-coherent DMA lines) + uncached accesses");
    /* Every cycle of a CPU or accelerator tile is spent at one op point. */
    uint64_t inv = 0;
    for (unsigned t = 0; t < n; t++) {
        if (socmon_esp_soc_defined(soc, t, SOCMON_ESP_MON_DVFS)) {
            uint64_t s = 0;
            for (unsigned o = 0; o < 4; o++)
                s += socmon_esp_soc_peek(soc, t, SOCMON_ESP_MON_DVFS + o);
            LAW_EQ(s, st.cycles, "DVFS op-point cycles == cycles");
        }
        for (unsigned q = 0; q < 30; q++)
            if (socmon_esp_soc_peek(soc, t, SOCMON_ESP_MON_NOC_QFULL + q) > st.cycles)
                fail_msg("%s: tile %u queue %u full for more cycles than elapsed", label, t, q);
        if (d->tiles[t].type == SOCMON_ESP_TILE_ACC) {
            uint64_t tot = law_acc64(soc, t, SOCMON_ESP_MON_ACC_TOT_LO);
            if (law_acc64(soc, t, SOCMON_ESP_MON_ACC_MEM_LO) > tot ||
                socmon_esp_soc_peek(soc, t, SOCMON_ESP_MON_ACC_TLB) > tot || tot > st.cycles)
                fail_msg("%s: tile %u: accelerator cycles inconsistent", label, t);
            inv += socmon_esp_soc_peek(soc, t, SOCMON_ESP_MON_ACC_INVOC);
        }
    }
    LAW_EQ(inv, st.invocations, "invocation monitors == invocations");
}

#endif
