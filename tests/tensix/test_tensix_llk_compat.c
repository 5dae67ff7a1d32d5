/* tt-llk compatibility of the Tensix host API (issue 13): counter ids the guide does not
 * list (read and named as tt-llk's read_counters names them), empty results (no files),
 * platform names as tt-llk spells them, and metrics/tensix.json's names all resolving on
 * the full schema (its "absent": "undefined" must not hide a typo). Sources: tt-llk
 * tests/python_tests/helpers/counters.py at 9fa02aa, metrics.py and chip_architecture.py
 * at a73bae96f (../shared/specs/tensix_counters.md section 0). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "socmon/socmon.h"
#include "socmon/tensix.h"
#include "llk_perf_host.h"
#include "tensix_tmpdir.h"

static llk_perf_results *run_sim(const char *opts)
{
    llk_perf_sim *s;
    if (llk_perf_sim_new(opts, &s) != SOCMON_OK)
        fail_msg("sim %s: %s", opts, socmon_errmsg());
    assert_int_equal(llk_perf_configure_counters(llk_perf_sim_bus(s), llk_perf_sim_l1_base(s)), SOCMON_OK);
    assert_int_equal(llk_perf_sim_run(s), SOCMON_OK);
    llk_perf_results *r;
    assert_int_equal(llk_perf_read_counters(llk_perf_sim_bus(s), llk_perf_sim_l1_base(s), &r), SOCMON_OK);
    llk_perf_sim_free(s);
    return r;
}

/* Ids the guide does not list are legal 9-bit selects: configured, read (the model gives 0)
 * and named as tt-llk's read_counters names them (counters.py at 9fa02aa, lines 281-291). */
static void test_unknown_ids(void **state)
{
    (void)state;
    llk_perf_sim *s;
    assert_int_equal(llk_perf_sim_new("tiles=16", &s), SOCMON_OK);
    const uint32_t w[] = {
        socmon_tensix_slot_encode(SOCMON_TENSIX_BANK_FPU, 257, 0),   /* FPU_OR_SFPU_INSTRN */
        socmon_tensix_slot_encode(SOCMON_TENSIX_BANK_FPU, 300, 0),
        socmon_tensix_slot_encode(SOCMON_TENSIX_BANK_INSTRN_THREAD, 511, 0),
        socmon_tensix_slot_encode(SOCMON_TENSIX_BANK_L1, 9, 0),
        socmon_tensix_slot_encode(SOCMON_TENSIX_BANK_TDMA_PACK, 2, 0),
    };
    for (unsigned t = 0; t < 3; t++)
        assert_int_equal(llk_perf_configure_slots(llk_perf_sim_bus(s), llk_perf_sim_l1_base(s), t, w, 5),
                         SOCMON_OK);
    assert_int_equal(llk_perf_sim_run(s), SOCMON_OK);
    llk_perf_results *r;
    assert_int_equal(llk_perf_read_counters(llk_perf_sim_bus(s), llk_perf_sim_l1_base(s), &r), SOCMON_OK);
    assert_int_equal(llk_perf_results_count(r), 15);
    static const char *const names[] = {"FPU_OR_SFPU_INSTRN", "FPU_UNKNOWN_300", "INSTRN_THREAD_UNKNOWN_511",
                                        "L1_UNKNOWN_9_0", "TDMA_PACK_UNKNOWN_2"};
    for (size_t i = 0; i < 15; i++) {
        const llk_perf_row *row = llk_perf_results_row(r, i);
        assert_string_equal(row->counter_name, names[i % 5]);
        assert_false(row->undefined);
        assert_true(row->cycles > 0);
        if (i % 5 == 0)
            assert_true(row->count > 0);
        else
            assert_int_equal(row->count, 0);   /* the model routes nothing to these selects */
    }
    /* print and export name them too */
    char buf[16384];
    assert_int_equal(llk_perf_format_counters(r, buf, sizeof buf, NULL), SOCMON_OK);
    assert_non_null(strstr(buf, "FPU_UNKNOWN_300"));
    assert_non_null(strstr(buf, "L1_UNKNOWN_9_0 (mux0)"));
    char base[128], path[160];
    snprintf(base, sizeof base, "%s/unknown", dir);
    assert_int_equal(llk_perf_export_counters(r, base, NULL, 0, NULL), SOCMON_OK);
    snprintf(path, sizeof path, "%s.gw0.csv", base);
    static char lines[20][TX_LINE_MAX];
    assert_int_equal(read_lines(path, lines, 20), 16);
    assert_non_null(strstr(lines[2], "UNPACK,FPU,FPU_UNKNOWN_300,300,"));
    /* Only documented counters enter metrics: the rest are there, undefined. */
    llk_perf_metrics *m;
    double v;
    assert_int_equal(llk_perf_compute_metrics(r, NULL, &m), SOCMON_OK);
    assert_int_equal(llk_perf_metrics_value(m, "math_util", &v), SOCMON_OK);
    assert_true(v > 0);
    assert_int_equal(llk_perf_metrics_value(m, "pack_util", &v), SOCMON_OK);
    assert_true(isnan(v));
    llk_perf_metrics_free(m);
    llk_perf_results_free(r);
    /* A bank past 4 stays an error naming the slot. */
    const uint32_t bad = socmon_tensix_slot_encode(5, 0, 0);
    assert_int_equal(llk_perf_configure_slots(llk_perf_sim_bus(s), llk_perf_sim_l1_base(s), 0, &bad, 1),
                     SOCMON_ERANGE);
    assert_non_null(strstr(socmon_errmsg(), "bank 5 out of range 0..4"));
    llk_perf_sim_free(s);
    /* Built by hand, and the naming function itself */
    assert_int_equal(llk_perf_results_new(&r), SOCMON_OK);
    assert_int_equal(llk_perf_results_add(r, 1, SOCMON_TENSIX_BANK_L1, 3, 1, 10, 1, 0), SOCMON_OK);
    assert_int_equal(llk_perf_results_add(r, 1, SOCMON_TENSIX_BANK_L1, 200, 1, 10, 1, 0), SOCMON_OK);
    assert_int_equal(llk_perf_results_add(r, 2, SOCMON_TENSIX_BANK_L1, 200, 1, 10, 1, 0), SOCMON_OK);
    assert_string_equal(llk_perf_results_row(r, 0)->counter_name, "NOC_RING1_OUTGOING_0");
    assert_string_equal(llk_perf_results_row(r, 1)->counter_name, "L1_UNKNOWN_200_1");
    assert_ptr_equal(llk_perf_results_row(r, 1)->counter_name, llk_perf_results_row(r, 2)->counter_name);
    llk_perf_results_free(r);
    char nb[8];
    assert_int_equal(socmon_tensix_counter_name(7, 12, 0, buf, sizeof buf), strlen("UNKNOWN_7_UNKNOWN_12"));
    assert_string_equal(buf, "UNKNOWN_7_UNKNOWN_12");
    assert_int_equal(socmon_tensix_bank_name_tt(9, buf, sizeof buf), 9);
    assert_string_equal(buf, "UNKNOWN_9");
    assert_int_equal(socmon_tensix_counter_name(1, 300, 0, nb, sizeof nb), 15);   /* truncated, full length */
    assert_string_equal(nb, "FPU_UNK");
}

/* tt-llk writes no file for empty results (export_counters and export_metrics are no-ops;
 * compute_metrics of an empty frame is {}: a73bae96f metrics.py:195-196). */
static void test_empty_exports(void **state)
{
    (void)state;
    llk_perf_results *r;
    llk_perf_metrics *m;
    assert_int_equal(llk_perf_results_new(&r), SOCMON_OK);
    assert_int_equal(llk_perf_compute_metrics(r, NULL, &m), SOCMON_OK);
    assert_int_equal(llk_perf_metrics_count(m), 0);
    char base[128], path[160];
    snprintf(base, sizeof base, "%s/empty", dir);
    assert_int_equal(llk_perf_export_metrics(m, base, NULL, 0, NULL), SOCMON_OK);
    assert_int_equal(llk_perf_export_counters(r, base, NULL, 0, NULL), SOCMON_OK);
    snprintf(path, sizeof path, "%s.gw0.csv", base);
    assert_int_equal(access(path, F_OK), -1);
    llk_perf_metrics_free(m);
    llk_perf_results_free(r);
}

/* Platform names as tt-llk spells them (ChipArchitecture.from_string, any case). */
static void test_platform_spellings(void **state)
{
    (void)state;
    llk_perf_results *r = run_sim("platform=WORMHOLE,tiles=8");
    static const char *const names[] = {"wormhole", "Wormhole", "WORMHOLE_B0", "wormhole_b0"};
    for (size_t i = 0; i < 4; i++) {
        llk_perf_metrics *m;
        assert_int_equal(llk_perf_compute_metrics(r, names[i], &m), SOCMON_OK);
        assert_string_equal(llk_perf_metrics_platform(m), "wormhole_b0");
        llk_perf_metrics_free(m);
    }
    static const char *const others[] = {"BlackHole", "QUASAR"};
    static const char *const want[] = {"blackhole", "quasar"};
    for (size_t i = 0; i < 2; i++) {
        llk_perf_metrics *m;
        assert_int_equal(llk_perf_compute_metrics(r, others[i], &m), SOCMON_OK);
        assert_string_equal(llk_perf_metrics_platform(m), want[i]);
        llk_perf_metrics_free(m);
    }
    llk_perf_metrics *m;
    assert_int_equal(llk_perf_compute_metrics(r, "wormhole_b1", &m), SOCMON_ENOENT);
    assert_non_null(strstr(socmon_errmsg(), "wormhole_b0 or wormhole"));
    llk_perf_results_free(r);
    llk_perf_sim *s;
    assert_int_equal(llk_perf_sim_new("platform=Wormhole", &s), SOCMON_OK);
    assert_string_equal(llk_perf_sim_platform(s), "wormhole_b0");
    llk_perf_sim_free(s);
}

/* "absent": "undefined" must not hide a typo: on the full schema (every documented counter
 * of both mux settings, every parameter) no name of the file is absent. */
static void test_every_name_resolves(void **state)
{
    (void)state;
    const char *text = socmon_builtin_metrics("tensix");
    char *strict = malloc(strlen(text) + 1);
    assert_non_null(strict);
    strcpy(strict, text);
    char *a = strstr(strict, "\"absent\": \"undefined\"");
    assert_non_null(a);
    memcpy(a, "\"absent\": \"skip\"     ", strlen("\"absent\": \"undefined\""));
    size_t ne = socmon_tensix_nevents();
    socmon_counter ctr[128];
    uint64_t d[128] = {0};
    size_t n = 0;
    for (unsigned b = 0; b < SOCMON_TENSIX_NBANKS; b++)
        ctr[n++] = (socmon_counter){.name = "cycles", .instance = socmon_tensix_bank_instance(b),
            .width = 32};
    for (size_t i = 0; i < ne; i++) {
        const socmon_tensix_event *e = socmon_tensix_event_at(i);
        ctr[n++] = (socmon_counter){.name = e->name,
            .instance = socmon_tensix_bank_instance(e->bank),
                                    .width = 32};
    }
    static const char *const pn[] = {"noc_word_bytes", "unpack_peak_bpc", "pack_peak_bpc", "clock_hz"};
    static const double pv[] = {32, 80, 80, 1e9};
    socmon_metric_schema sch = {.ncounters = n, .counters = ctr, .nparams = 4, .param_names = pn,
        .param_values = pv};
    socmon_metricset *ms;
    socmon_metrics *m;
    assert_int_equal(socmon_metricset_load_string(strict, "tensix.json", &ms), SOCMON_OK);
    assert_int_equal(socmon_metrics_bind(ms, &sch, &m), SOCMON_OK);
    for (size_t i = 0; i < socmon_metricset_count(ms); i++)
        if (socmon_metrics_skipped(m, i))
            fail_msg("%s: %s", socmon_metricset_def(ms, i)->name, socmon_metrics_skipped(m, i));
    (void)d;
    socmon_metrics_free(m);
    socmon_metricset_free(ms);
    free(strict);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_unknown_ids),
        cmocka_unit_test(test_empty_exports),
        cmocka_unit_test(test_platform_spellings),
        cmocka_unit_test(test_every_name_resolves),
    };
    return cmocka_run_group_tests(tests, make_dir, remove_dir);
}
