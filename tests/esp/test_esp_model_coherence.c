/* Issue 38, "Coherence modes": the memory system's latency makes the four coherence modes
 * differ as ESP's structure implies. On the built-in 2x3 SoC the workloads acc_MODE:bytes=N
 * sweep the accelerator's footprint (below the 32 KiB L2, between the L2 and the 256 KiB LLC,
 * above the LLC) against the four modes, and the accelerator with an L2 (the one every mode
 * runs on) reports its cycles (monitors 16/17). docs/esp-model.md §3 "Latency" gives the
 * parameters; its table of figures is what this test measures. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>

#include "esp/esp_model_laws.h"
#include "hw/esp_monitor.h"
#include "models/esp/esp_soc.h"

static const char *const mode_name[4] = {"acc_none", "acc_llc", "acc_dma", "acc_full"};

/* The accelerator tile with an L2 in the default SoC. */
static unsigned l2_acc(const socmon_esp_soc_desc *d)
{
    for (unsigned t = 0; t < d->rows * d->cols; t++)
        if (d->tiles[t].type == SOCMON_ESP_TILE_ACC && d->tiles[t].has_l2)
            return t;
    fail_msg("the default SoC has no accelerator with an L2");
    return 0;
}

/* Runs workload w on a fresh default SoC; the L2 accelerator's total cycles. */
static uint64_t acc_cycles(const char *w)
{
    socmon_esp_soc_desc d;
    socmon_esp_soc_desc_default(&d);
    socmon_esp_soc *soc;
    assert_int_equal(smn_esp_soc_new(&d, &soc), SOCMON_OK);
    assert_int_equal(socmon_esp_soc_start(soc, w), SOCMON_OK);
    int done = 0;
    for (unsigned steps = 0; !done; steps++) {
        assert_int_equal(socmon_esp_soc_advance(soc, 1000000, &done), SOCMON_OK);
        assert_true(steps < 100000);
    }
    check_laws(soc, w);
    unsigned t = l2_acc(&d);
    assert_int_equal(socmon_esp_soc_peek(soc, t, ESP_MON_ACC_INVOC), 1);
    uint64_t c = law_acc64(soc, t, ESP_MON_ACC_TOT_LO);
    smn_esp_soc_free(soc);
    return c;
}

static unsigned fastest(const uint64_t c[4])
{
    unsigned best = 0;
    for (unsigned m = 1; m < 4; m++)
        if (c[m] < c[best])
            best = m;
    return best;
}

static void test_fastest_mode_depends_on_footprint(void **state)
{
    (void)state;
    /* Input = half the footprint (the CPU writes it, the accelerator reads it and writes it
     * back in place): 8 KiB, 64 KiB and 512 KiB against a 32 KiB L2 and one 256 KiB LLC. */
    static const struct { const char *name; unsigned kib; } fp[] = {
        {"below the L2", 16}, {"between the L2 and the LLC", 128}, {"above the LLC", 1024}};
    uint64_t c[3][4];
    unsigned best[3];
    for (unsigned f = 0; f < 3; f++) {
        for (unsigned m = 0; m < 4; m++) {
            char w[64];
            snprintf(w, sizeof w, "%s:bytes=%uK", mode_name[m], fp[f].kib);
            c[f][m] = acc_cycles(w);
        }
        best[f] = fastest(c[f]);
        print_message("%-27s %5u KiB: none %8llu  llc %8llu  dma %8llu  full %8llu  fastest %s\n",
                      fp[f].name, fp[f].kib, (unsigned long long)c[f][0],
                      (unsigned long long)c[f][1], (unsigned long long)c[f][2],
                      (unsigned long long)c[f][3], mode_name[best[f]]);
    }
    if (best[0] == best[1] && best[1] == best[2])
        fail_msg("%s is the fastest mode at every footprint", mode_name[best[0]]);
    /* An LLC hit is faster than DDR: with the input in the LLC (the L2 flush put it there),
     * LLC-coherent DMA beats non-coherent DMA, which reads and writes DDR. */
    if (c[0][SOCMON_ESP_COH_LLC] >= c[0][SOCMON_ESP_COH_NONE])
        fail_msg("16 KiB: LLC-coherent DMA takes %llu cycles, non-coherent %llu",
                 (unsigned long long)c[0][SOCMON_ESP_COH_LLC],
                 (unsigned long long)c[0][SOCMON_ESP_COH_NONE]);
    /* Above the LLC every LLC-coherent line misses and may write a dirty victim back
     * first: going to DDR directly is faster. */
    if (c[2][SOCMON_ESP_COH_NONE] >= c[2][SOCMON_ESP_COH_LLC])
        fail_msg("1 MiB: non-coherent DMA takes %llu cycles, LLC-coherent %llu",
                 (unsigned long long)c[2][SOCMON_ESP_COH_NONE],
                 (unsigned long long)c[2][SOCMON_ESP_COH_LLC]);
}

/* acc_MODE without an argument is acc_MODE:bytes=32K, whatever the suffix's spelling. */
static void test_bytes_argument_default(void **state)
{
    (void)state;
    uint64_t plain = acc_cycles("acc_llc");
    assert_int_equal(acc_cycles("acc_llc:bytes=32K"), plain);
    assert_int_equal(acc_cycles("acc_llc:bytes=32768"), plain);
    assert_true(acc_cycles("acc_llc:bytes=64k") > plain);
}

static void test_bytes_argument_errors(void **state)
{
    (void)state;
    static const struct { const char *w; socmon_status st; const char *says; } bad[] = {
        {"acc_dma:bytes=", SOCMON_EINVAL, "is not a number"},
        {"acc_dma:bytes=12x", SOCMON_EINVAL, "is not a number"},
        {"acc_dma:bytes=-5", SOCMON_EINVAL, "is not a number"},
        {"acc_dma:bytes=K", SOCMON_EINVAL, "is not a number"},
        {"acc_dma:bytes=8", SOCMON_ERANGE, "8 out of range 16..268435456"},
        {"acc_dma:bytes=257M", SOCMON_ERANGE, "out of range"},
        {"acc_dma:bytes=99999999999999999999999", SOCMON_EINVAL, "is not a number"},
        {"acc_dma:size=4K", SOCMON_EINVAL, "'size=4K' unknown"},
        {"acc_dma:", SOCMON_EINVAL, "unknown"},
        {"idle:bytes=4K", SOCMON_ENOENT, "unknown workload"},
        {"acc_dmax:bytes=4K", SOCMON_ENOENT, "unknown workload"},
    };
    socmon_esp_soc_desc d;
    socmon_esp_soc_desc_default(&d);
    socmon_esp_soc *soc;
    assert_int_equal(smn_esp_soc_new(&d, &soc), SOCMON_OK);
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        socmon_status st = socmon_esp_soc_start(soc, bad[i].w);
        if (st != bad[i].st || !strstr(socmon_errmsg(), bad[i].says))
            fail_msg("%s: status %d, '%s'", bad[i].w, (int)st, socmon_errmsg());
    }
    smn_esp_soc_free(soc);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_fastest_mode_depends_on_footprint),
        cmocka_unit_test(test_bytes_argument_default),
        cmocka_unit_test(test_bytes_argument_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
