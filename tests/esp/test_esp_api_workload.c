/* ESP Monitors API against counts the virtual SoC's workload makes known in
 * advance: CPU accesses, accelerator invocations in each coherence mode, and
 * counters wrapping across 2^32 while they count. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <pthread.h>

#include "esp_monitors.h"
#include "libesp.h"
#include "compat/esp/esp_api.h"
#include "models/esp/esp_soc.h"

static const unsigned CPU = 0, ACC_TILE[3] = {2, 3, 4};

static uint64_t acc64(unsigned lo, unsigned hi)
{
    return (uint64_t)hi << 32 | lo;
}

/* The flits of an invocation's DMA requests over lines lines: reads of 2 flits, then writes of 4. */
static uint64_t req_flits(uint64_t lines)
{
    return (lines + 1) / 2 * 2 + lines / 2 * 4;
}

static void test_counts_known_in_advance(void **state)
{
    socmon_esp_soc *soc = smn_esp_api_virtual_soc();
    assert_non_null(soc);
    esp_monitor_args_t all = {ESP_MON_READ_ALL, 0, 0, 0, 0, 0};
    esp_monitor_vals_t s, e;
    smn_esp_model_stats m0, m1;
    esp_monitor(all, &s);
    smn_esp_soc_stats(soc, &m0);

    assert_int_equal(socmon_esp_soc_cpu_access(soc, 0, 1000, 500, 32768), SOCMON_OK);
    assert_int_equal(socmon_esp_soc_acc_invoke(soc, 1, 16384, SOCMON_ESP_COH_NONE), SOCMON_OK);
    assert_int_equal(socmon_esp_soc_acc_invoke(soc, 0, 8192, SOCMON_ESP_COH_LLC), SOCMON_OK);
    assert_int_equal(socmon_esp_soc_acc_invoke(soc, 2, 4096, SOCMON_ESP_COH_DMA), SOCMON_OK);
    assert_int_equal(socmon_esp_soc_acc_invoke(soc, 2, 4096, SOCMON_ESP_COH_DMA), SOCMON_OK);

    esp_monitor(all, &e);
    assert_int_equal(esp_monitor_status(), SOCMON_OK);
    smn_esp_soc_stats(soc, &m1);
    esp_monitor_vals_t d = esp_monitor_diff(s, e);

    /* One L2 lookup per CPU load or store. */
    assert_int_equal(d.l2_stats[CPU].hits + d.l2_stats[CPU].misses, 1500);
    uint64_t l2 = 0;
    for (unsigned t = 0; t < SOC_NTILES; t++)
        if (t != 1)   /* tile 1 holds the LLC copy */
            l2 += d.l2_stats[t].hits + d.l2_stats[t].misses;
    assert_int_equal(l2, m1.l2_accesses - m0.l2_accesses);
    /* One invocation each, two for accelerator 2. */
    assert_int_equal(d.acc_stats[0].acc_invocations, 1);
    assert_int_equal(d.acc_stats[1].acc_invocations, 1);
    assert_int_equal(d.acc_stats[2].acc_invocations, 2);
    for (unsigned a = 0; a < 3; a++) {
        uint64_t tot = acc64(d.acc_stats[a].acc_tot_lo, d.acc_stats[a].acc_tot_hi);
        uint64_t mem = acc64(d.acc_stats[a].acc_mem_lo, d.acc_stats[a].acc_mem_hi);
        assert_true(tot > 0);
        assert_true(mem > 0 && mem <= tot);
        assert_true(d.acc_stats[a].acc_tlb <= tot);
    }
    /* DMA requests at the memory tile are the flits of the lines the accelerators moved (an
     * invocation reads the first half of its lines, 2-flit requests, and writes the rest, 4):
     * non-coherent DMA in dma_reqs, LLC-coherent and coherent DMA in coh_dma_reqs (the RTL's
     * LLC takes both from one queue). */
    assert_int_equal(m1.dma_lines[0] - m0.dma_lines[0], 16384 / 16);
    assert_int_equal(m1.dma_lines[1] - m0.dma_lines[1], 8192 / 16);
    assert_int_equal(m1.dma_lines[2] - m0.dma_lines[2], 2 * 4096 / 16);
    assert_int_equal(d.mem_reqs[0].dma_reqs, req_flits(16384 / 16));
    assert_int_equal(d.mem_reqs[0].coh_dma_reqs, req_flits(8192 / 16) + 2 * req_flits(4096 / 16));
    assert_true(m1.dma_lines[0] > m0.dma_lines[0]);
    /* LLC values in llc_stats and, as ESP's library puts them, in l2_stats[mem tile]. */
    assert_int_equal(d.llc_stats[0].hits, d.l2_stats[1].hits);
    assert_int_equal(d.llc_stats[0].misses, d.l2_stats[1].misses);
    assert_true(d.llc_stats[0].hits + d.llc_stats[0].misses > 0);
    /* DDR traffic, in AHB beats (2 a line): LLC fills, write-backs, non-coherent lines. */
    assert_int_equal(d.ddr_accesses[0],
                     2 * (d.llc_stats[0].misses + (m1.llc_writebacks - m0.llc_writebacks) +
                          (m1.llc_flush_writebacks - m0.llc_flush_writebacks) +
                          (m1.dma_lines[0] - m0.dma_lines[0]) +
                          (m1.uncached_accesses - m0.uncached_accesses)));
    /* Every flit that entered plane p was counted at its source tile (tile_inject counts flits,
     * as ESP's RTL). */
    for (unsigned p = 0; p < NOC_PLANES; p++) {
        uint64_t inj = 0;
        for (unsigned t = 0; t < SOC_NTILES; t++)
            inj += d.noc_injects[t][p];
        assert_int_equal(inj, m1.flits_injected[p] - m0.flits_injected[p]);
    }
    /* The CPU tile spends every cycle at some DVFS op point. */
    uint64_t cyc = 0;
    for (unsigned o = 0; o < DVFS_OP_POINTS; o++)
        cyc += d.dvfs_op[CPU][o];
    assert_int_equal(cyc, m1.cycles - m0.cycles);
}

/* Counters wrapping while the workload counts: 32-bit monitors and a 64-bit
 * pair carrying from lo into hi, read through MANY and SINGLE. */
static void test_wrap_while_counting(void **state)
{
    socmon_esp_soc *soc = smn_esp_api_virtual_soc();
    unsigned t = ACC_TILE[1];
    assert_int_equal(socmon_esp_soc_poke(soc, 1, 0, 0xFFFFFF00u), SOCMON_OK);
    assert_int_equal(socmon_esp_soc_poke(soc, t, 16, 0xFFFFFFF0u), SOCMON_OK);
    assert_int_equal(socmon_esp_soc_poke(soc, t, 17, 7), SOCMON_OK);
    assert_int_equal(socmon_esp_soc_poke(soc, t, 23 + 5, 0xFFFFFFFFu), SOCMON_OK); /* NoC6: DMA requests */
    esp_monitor_args_t a = {ESP_MON_READ_MANY, 0, (uint8_t)t, 1, 0, 0};
    a.read_mask = 1 << ESP_MON_READ_DDR_ACCESSES | 1 << ESP_MON_READ_ACC_STATS |
                  1 << ESP_MON_READ_NOC_INJECTS;
    esp_monitor_args_t single = {ESP_MON_READ_SINGLE, 0, 1, 0, MON_DDR_WORD_TRANSFER_INDEX, 0};
    esp_monitor_vals_t *s = esp_monitor_vals_alloc(), *e = esp_monitor_vals_alloc();
    esp_monitor(a, s);
    unsigned ddr0 = esp_monitor(single, NULL);
    smn_esp_model_stats m0, m1;
    smn_esp_soc_stats(soc, &m0);
    assert_int_equal(socmon_esp_soc_acc_invoke(soc, 1, 65536, SOCMON_ESP_COH_NONE), SOCMON_OK);
    smn_esp_soc_stats(soc, &m1);
    esp_monitor(a, e);
    unsigned ddr1 = esp_monitor(single, NULL);
    esp_monitor_vals_t d = esp_monitor_diff(*s, *e);
    uint64_t lines = m1.dma_lines[0] - m0.dma_lines[0];
    assert_true(lines > 0x100);                          /* so DDR wrapped */
    assert_true(e->ddr_accesses[0] < s->ddr_accesses[0]);
    assert_int_equal(d.ddr_accesses[0], 2 * lines);      /* nothing else touched DDR: 2 AHB beats a line */
    assert_int_equal(sub_monitor_vals(ddr0, ddr1), 2 * lines);
    uint64_t tot = acc64(d.acc_stats[1].acc_tot_lo, d.acc_stats[1].acc_tot_hi);
    assert_true(e->acc_stats[1].acc_tot_hi == 8);        /* carried */
    assert_int_equal(tot, acc64(e->acc_stats[1].acc_tot_lo, 8) - acc64(0xFFFFFFF0u, 7));
    assert_true(tot > 16);
    assert_int_equal(d.acc_stats[1].acc_invocations, 1);
    assert_int_equal(d.noc_injects[t][5], m1.flits_injected[5] - m0.flits_injected[5]);
    assert_true(e->noc_injects[t][5] < s->noc_injects[t][5]);
    esp_monitor_free();
}

/* libesp's esp_run drives the same accelerators: the guide's flow. */
static void test_esp_run(void **state)
{
    void *buf = esp_alloc(8192);
    struct esp_access acc = {.coherence = ACC_COH_LLC};
    esp_thread_info_t cfg[2] = {
        {.run = true, .devname = "fft_stratus.2", .hw_buf = buf, .esp_desc = &acc},
        {.run = false, .devname = "fft_stratus.0", .hw_buf = buf, .esp_desc = &acc},
    };
    esp_monitor_args_t a = {ESP_MON_READ_MANY, 1 << ESP_MON_READ_ACC_STATS, 0, 2, 0, 0};
    esp_monitor_vals_t s, e;
    esp_monitor(a, &s);
    esp_run(cfg, 2);
    assert_int_equal(esp_monitor_status(), SOCMON_OK);
    esp_monitor(a, &e);
    esp_monitor_vals_t d = esp_monitor_diff(s, e);
    assert_int_equal(d.acc_stats[2].acc_invocations, 1);
    assert_true(cfg[0].hw_ns > 0);
    assert_int_equal(cfg[1].hw_ns, 0);   /* not run */
    uint64_t tot = acc64(d.acc_stats[2].acc_tot_lo, d.acc_stats[2].acc_tot_hi);
    /* hw_ns is the simulated run time: at least the accelerator's busy cycles. */
    assert_true(cfg[0].hw_ns * 78e6 / 1e9 + 1 >= (double)tot);
    esp_free(buf);
    assert_int_equal(esp_monitor_status(), SOCMON_OK);
    esp_monitor_free();
}

/* esp_run flushes as ESP's does: before a non-coherent run the CPU's dirty
 * lines reach the LLC (coherence requests) and the LLC's reach DDR; a
 * coherent-DMA run recalls instead and flushes nothing up front. */
static void test_esp_run_flushes_like_esp(void **state)
{
    socmon_esp_soc *soc = smn_esp_api_virtual_soc();
    assert_non_null(soc);
    esp_monitor_args_t a = {ESP_MON_READ_MANY,
                            1 << ESP_MON_READ_MEM_REQS | 1 << ESP_MON_READ_DDR_ACCESSES, 0, 0, 0, 0};
    esp_monitor_vals_t s, e, d;
    struct esp_access acc = {.coherence = ACC_COH_NONE, .footprint = 64};
    esp_thread_info_t cfg = {.run = true, .devname = "fft.1", .esp_desc = &acc};

    assert_int_equal(socmon_esp_soc_cpu_access(soc, 0, 0, 512, 8192), SOCMON_OK); /* dirty L2 lines */
    esp_monitor(a, &s);
    esp_run(&cfg, 1);
    assert_int_equal(esp_monitor_status(), SOCMON_OK);
    esp_monitor(a, &e);
    d = esp_monitor_diff(s, e);
    assert_true(d.mem_reqs[0].coh_reqs > 0);               /* L2 write-backs (Puts) */
    assert_true(d.ddr_accesses[0] > d.mem_reqs[0].dma_reqs); /* LLC write-backs + the DMA */

    acc.coherence = ACC_COH_RECALL;
    assert_int_equal(socmon_esp_soc_cpu_access(soc, 0, 0, 512, 8192), SOCMON_OK);
    esp_monitor(a, &s);
    esp_run(&cfg, 1);
    esp_monitor(a, &e);
    d = esp_monitor_diff(s, e);
    assert_int_equal(d.mem_reqs[0].coh_reqs, 0);           /* no flush: recalls instead */
    assert_true(d.mem_reqs[0].coh_dma_reqs > 0);
    esp_monitor_free();
}

/* The API serialises its callers: readers on two threads see accelerator
 * runs a third thread starts through esp_run, counts never going backwards,
 * and each thread gets its own status. */
static void *reader(void *arg)
{
    unsigned *bad = arg;
    esp_monitor_args_t a = {ESP_MON_READ_MANY, 1 << ESP_MON_READ_ACC_STATS, 0, 1, 0, 0};
    esp_monitor_vals_t v;
    unsigned last = 0;
    for (int i = 0; i < 300; i++) {
        esp_monitor(a, &v);
        if (esp_monitor_status() != SOCMON_OK || v.acc_stats[1].acc_invocations < last)
            (*bad)++;
        last = v.acc_stats[1].acc_invocations;
    }
    a.tile_index = 200;   /* an error on this thread only */
    a.read_mask = 1 << ESP_MON_READ_NOC_INJECTS;
    esp_monitor(a, &v);
    if (esp_monitor_status() != SOCMON_ERANGE)
        (*bad)++;
    return NULL;
}

static void test_threads(void **state)
{
    unsigned bad[2] = {0, 0};
    pthread_t th[2];
    esp_monitor_args_t a = {ESP_MON_READ_MANY, 1 << ESP_MON_READ_ACC_STATS, 0, 1, 0, 0};
    esp_monitor_vals_t s, e;
    esp_monitor(a, &s);
    for (int i = 0; i < 2; i++)
        assert_int_equal(pthread_create(&th[i], NULL, reader, &bad[i]), 0);
    struct esp_access acc = {.coherence = ACC_COH_NONE, .footprint = 256};
    esp_thread_info_t cfg = {.run = true, .devname = "fft.1", .esp_desc = &acc};
    for (int i = 0; i < 50; i++) {
        esp_run(&cfg, 1);
        assert_int_equal(esp_monitor_status(), SOCMON_OK);
    }
    for (int i = 0; i < 2; i++)
        assert_int_equal(pthread_join(th[i], NULL), 0);
    assert_int_equal(bad[0] + bad[1], 0);
    esp_monitor(a, &e);
    assert_int_equal(esp_monitor_status(), SOCMON_OK);
    assert_int_equal(
        sub_monitor_vals(s.acc_stats[1].acc_invocations, e.acc_stats[1].acc_invocations), 50);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_counts_known_in_advance),
        cmocka_unit_test(test_wrap_while_counting),
        cmocka_unit_test(test_esp_run),
        cmocka_unit_test(test_esp_run_flushes_like_esp),
        cmocka_unit_test(test_threads),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    esp_monitor_free();
    esp_cleanup();
    return rc;
}
