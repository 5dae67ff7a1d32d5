/* The noc-trace and noc workloads on the model itself: only their packets flow, the results
 * match the model's own tallies, a stalled sink holds its packets exactly until the stall ends,
 * and no stall outlives the run (the next workload's packets still reach that tile). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hw/esp_monitor.h"
#include "models/esp/esp_soc.h"

static char path[64], workload[80];

static void write_trace(const char *text)
{
    snprintf(path, sizeof path, "/tmp/socmon_traffic_%d.trace", (int)getpid());
    FILE *fp = fopen(path, "w");
    assert_non_null(fp);
    fputs(text, fp);
    fclose(fp);
    snprintf(workload, sizeof workload, "noc-trace:%s", path);
}

static void run(socmon_esp_soc *soc, const char *w)
{
    int done = 0;
    unsigned steps = 0;
    assert_int_equal(socmon_esp_soc_start(soc, w), SOCMON_OK);
    while (!done) {
        assert_int_equal(socmon_esp_soc_advance(soc, 100000, &done), SOCMON_OK);
        assert_true(++steps < 10000);
    }
}

static double result(const socmon_esp_soc *soc, const char *name)
{
    socmon_result r[16];
    size_t n = smn_esp_soc_results(soc, r, 16);
    for (size_t i = 0; i < n && i < 16; i++)
        if (strcmp(r[i].name, name) == 0)
            return r[i].value;
    fail_msg("no result '%s'", name);
    return 0;
}

static void test_stall_and_after(void **state)
{
    (void)state;
    socmon_esp_soc_desc d;
    socmon_esp_soc_desc_default(&d);
    socmon_esp_soc *soc;
    assert_int_equal(smn_esp_soc_new(&d, &soc), SOCMON_OK);
    /* tile 1 (the memory tile) stalled from 0 to 500: the packet to it leaves after 500; a
     * second stall on tile 5 outlasts the run */
    write_trace("mesh 2 3\nplane 1\n0 0 1 2\n10 3 5 3\nstall 1 0 500\nstall 5 400 100000\n");
    run(soc, workload);
    smn_esp_model_stats st;
    smn_esp_soc_stats(soc, &st);
    assert_int_equal(st.packets[1], 2);
    assert_int_equal(st.flits_injected[1], 5);
    assert_int_equal(st.flits_ejected[1], 5);
    for (unsigned p = 0; p < 6; p++)
        if (p != 1)
            assert_int_equal(st.packets[p], 0);
    assert_int_equal(st.l2_accesses + st.invocations + st.dma_lines[0], 0);
    assert_int_equal((uint64_t)result(soc, "packets"), 2);
    assert_int_equal((uint64_t)result(soc, "flits"), 5);
    /* As ESP's router RTL: a stopped sink lets no flit into the local output register, so the
     * head waits in tile 1's West FIFO, is forwarded in cycle 500 and leaves in 501, the tail in
     * 502: 503 cycles */
    assert_int_equal((uint64_t)result(soc, "cycles"), 503);
    assert_int_equal((uint64_t)result(soc, "latency_max"), 502);
    assert_int_equal((uint64_t)result(soc, "latency_min"), 2 + 3);   /* 3 -> 5: 2 hops, 3 flits */
    /* tile 5's stall ended with the run: multifft's packets to and from the memory tile flow */
    run(soc, "multifft");
    assert_int_equal(smn_esp_soc_results(soc, NULL, 0), 0);   /* another workload: no results */
    smn_esp_soc_stats(soc, &st);
    assert_int_equal(st.flits_in_network, 0);
    assert_int_equal(socmon_esp_soc_start(soc, "noc:pattern=uniform,rate=2"), SOCMON_EPARSE);
    assert_non_null(strstr(socmon_errmsg(), "field 'rate'"));
    unlink(path);
    smn_esp_soc_free(soc);
}

static void test_pattern_on_model(void **state)
{
    (void)state;
    socmon_esp_soc_desc d;
    socmon_esp_soc_desc_default(&d);
    socmon_esp_soc *a, *b;
    assert_int_equal(smn_esp_soc_new(&d, &a), SOCMON_OK);
    assert_int_equal(smn_esp_soc_new(&d, &b), SOCMON_OK);
    run(a, "noc:pattern=bitcomp,rate=0.4,len=mix,seed=3,cycles=2000,plane=5");
    run(b, "noc:pattern=bitcomp,rate=0.4,len=mix,seed=3,cycles=2000,plane=5");
    smn_esp_model_stats sa, sb;
    smn_esp_soc_stats(a, &sa);
    smn_esp_soc_stats(b, &sb);
    assert_memory_equal(&sa, &sb, sizeof sa);
    assert_int_equal(sa.packets[5], (uint64_t)result(a, "packets"));
    assert_int_equal(sa.flits_ejected[5], (uint64_t)result(a, "flits"));
    /* about 0.4 x 6 tiles x 2000 cycles flits offered */
    assert_true(sa.flits_injected[5] > 4300 && sa.flits_injected[5] < 5300);
    assert_true(result(a, "cycles") >= 2000);
    smn_esp_soc_free(a);
    smn_esp_soc_free(b);
}

/* Monitors read between advance() calls are exact while routers wait behind a stalled sink (the
 * model counts a router that can only wait in one add when it moves again, and must add what it
 * owes before anyone reads): an 8-flit worm from tile 0 to tile 1, whose sink stalls until cycle
 * 500, fills tile 1's West FIFO (its stop_out counts every cycle) and waits in tile 0's East
 * output register (queue_full East counts every cycle). */
static void test_counts_read_mid_stall(void **state)
{
    (void)state;
    socmon_esp_soc_desc d;
    socmon_esp_soc_desc_default(&d);
    socmon_esp_soc *soc;
    assert_int_equal(smn_esp_soc_new(&d, &soc), SOCMON_OK);
    write_trace("mesh 2 3\nplane 1\n0 0 1 8\nstall 1 0 500\n");
    assert_int_equal(socmon_esp_soc_start(soc, workload), SOCMON_OK);
    const unsigned qe = ESP_MON_NOC_QFULL + 1 * ESP_NDIRS + ESP_DIR_EAST;
    const unsigned stop_w = ESP_XMON_STOP + 1 * ESP_NDIRS + ESP_DIR_WEST;
    uint64_t c0 = 0;
    uint32_t q0 = 0, s0 = 0;
    unsigned checked = 0;
    int done = 0;
    while (!done) {
        assert_int_equal(socmon_esp_soc_advance(soc, 50, &done), SOCMON_OK);
        uint64_t c = socmon_esp_soc_cycles(soc);
        uint32_t q = socmon_esp_soc_peek(soc, 0, qe), s = smn_esp_soc_peek_xmon(soc, 1, stop_w);
        if (c0 >= 50 && c <= 450) {
            assert_int_equal(q - q0, c - c0);
            assert_int_equal(s - s0, c - c0);
            checked++;
        }
        c0 = c;
        q0 = q;
        s0 = s;
    }
    assert_true(checked >= 20);
    unlink(path);
    smn_esp_soc_free(soc);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_stall_and_after),
        cmocka_unit_test(test_pattern_on_model),
        cmocka_unit_test(test_counts_read_mid_stall),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
