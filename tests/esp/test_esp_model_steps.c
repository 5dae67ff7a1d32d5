/* The ESP model's monitors never depend on how time was handed to it.
 *
 * The model keeps some counts lazily for speed (a queue's backpressure cycles
 * are added when it stops being full, an accelerator's cycle monitors when
 * the engine settles, docs/performance.md) and settles them at the end of
 * every advance. Running a workload in 50 ns steps (a few cycles each) and in
 * 50 us steps must therefore show the same value in every monitor of every
 * tile at every 50 us, and the same end: a settle that counts a stretch twice
 * or loses part of it shows up as a difference here. (A settle left out
 * altogether would lag the same way in both runs: the byte-identical
 * per-interval reports of docs/performance.md check that case against the
 * model as it counted every cycle.) */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>

#include "models/esp/esp_soc.h"
#include "socmon/esp.h"

#define CHECKPOINT_NS 50000u

static socmon_esp_soc *started(const char *workload)
{
    socmon_esp_soc_desc d;
    socmon_esp_soc_desc_default(&d);
    socmon_esp_soc *soc;
    assert_int_equal(smn_esp_soc_new(&d, &soc), SOCMON_OK);
    assert_int_equal(socmon_esp_soc_start(soc, workload), SOCMON_OK);
    return soc;
}

/* Advances to the next checkpoint in steps of step_ns; 1 when the workload is done. */
static int to_checkpoint(socmon_esp_soc *soc, uint64_t step_ns)
{
    int done = 0;
    for (uint64_t t = 0; t < CHECKPOINT_NS && !done; t += step_ns)
        assert_int_equal(socmon_esp_soc_advance(soc, step_ns, &done), SOCMON_OK);
    return done;
}

static void same_monitors(const socmon_esp_soc *a, const socmon_esp_soc *b, const char *workload,
                          unsigned checkpoint)
{
    unsigned ntiles = socmon_esp_soc_get_desc(a)->rows * socmon_esp_soc_get_desc(a)->cols;
    for (unsigned t = 0; t < ntiles; t++)
        for (unsigned m = 0; m < SOCMON_ESP_NMON; m++) {
            uint32_t va = socmon_esp_soc_peek(a, t, m), vb = socmon_esp_soc_peek(b, t, m);
            if (va != vb)
                fail_msg("%s, checkpoint %u: tile %u monitor %u is %u in 50 ns steps, %u in 50 us steps",
                         workload, checkpoint, t, m, va, vb);
        }
}

static void check_workload(const char *workload, uint64_t min_backpressure)
{
    socmon_esp_soc *fine = started(workload), *coarse = started(workload);
    unsigned n = 0;
    int done_fine = 0, done_coarse = 0;
    while (!done_coarse) {
        assert_true(++n < 10000);
        done_fine = to_checkpoint(fine, 50);
        done_coarse = to_checkpoint(coarse, CHECKPOINT_NS);
        assert_int_equal(done_fine, done_coarse);
        assert_int_equal(socmon_esp_soc_cycles(fine), socmon_esp_soc_cycles(coarse));
        same_monitors(fine, coarse, workload, n);
    }
    /* The comparison means something only if the lazy counts were exercised. */
    uint64_t bp = 0;
    unsigned ntiles = socmon_esp_soc_get_desc(fine)->rows * socmon_esp_soc_get_desc(fine)->cols;
    for (unsigned t = 0; t < ntiles; t++)
        for (unsigned m = SOCMON_ESP_MON_NOC_QFULL; m < SOCMON_ESP_NMON; m++)
            bp += socmon_esp_soc_peek(fine, t, m);
    assert_true(bp >= min_backpressure);
    smn_esp_soc_free(fine);
    smn_esp_soc_free(coarse);
}

static void test_noc_stress_any_step(void **state)
{
    (void)state;
    check_workload("noc_stress", 1000);
}

static void test_multifft_any_step(void **state)
{
    (void)state;
    check_workload("multifft", 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_noc_stress_any_step),
        cmocka_unit_test(test_multifft_any_step),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
