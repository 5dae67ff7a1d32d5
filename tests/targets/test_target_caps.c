/* Target capabilities as declared ops (socmon_target_ops.caps and the ops after it): the
 * registry finds the target that runs commands, socmon_target_open_command opens only such a
 * target, the host lists its events, the program calls answer "no program" for a target
 * without one, and esp's grid op sizes and fills a caller's tile buffer. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "socmon/host.h"
#include "socmon/socmon.h"

static void test_runs_command(void **state)
{
    (void)state;
    const socmon_target_ops *r = socmon_target_with_caps(SOCMON_TARGET_RUNS_COMMAND);
    assert_non_null(r);
    assert_string_equal(r->name, "host");
    size_t n = 0;
    for (size_t i = 0; i < socmon_target_count(); i++)
        n += (socmon_target_at(i)->caps & SOCMON_TARGET_RUNS_COMMAND) != 0;
    assert_int_equal(n, 1);
    assert_ptr_equal(socmon_target_with_caps(0), socmon_target_at(0));
    assert_null(socmon_target_with_caps(0x80000000u));
}

static void test_open_command(void **state)
{
    (void)state;
    char *argv[] = {"true", NULL};
    socmon_target *t = NULL;
    assert_int_equal(socmon_target_open_command("esp", NULL, 0, argv, &t), SOCMON_EINVAL);
    assert_null(t);
    assert_non_null(strstr(socmon_errmsg(), "'esp' runs no command"));
    assert_int_equal(socmon_target_open_command("nosuch", NULL, 0, argv, &t), SOCMON_ENOENT);
    socmon_kv kv = {.key = "events", .value = "task-clock"};
    socmon_status st = socmon_target_open_command("host", &kv, 1, argv, &t);
    if (st == SOCMON_ENOTSUP) {
        /* no perf_event here (qemu-user runs the Arm build): the host target cannot open */
        print_message("skipping the host command: %s\n", socmon_errmsg());
        assert_null(t);
        return;
    }
    assert_int_equal(st, SOCMON_OK);
    assert_true(socmon_host_target_pid(t) > 0);   /* the command, forked and held before exec */
    socmon_target_close(t);
}

static void test_list_events(void **state)
{
    (void)state;
    const socmon_target_ops *host = socmon_target_lookup("host");
    assert_non_null(host->list_events);
    FILE *fp = tmpfile();
    assert_non_null(fp);
    host->list_events(fp);
    long len = ftell(fp);
    assert_true(len > 0);
    char *text = calloc((size_t)len + 1, 1);
    rewind(fp);
    assert_int_equal(fread(text, 1, (size_t)len, fp), (size_t)len);
    assert_non_null(strstr(text, "generic:"));
    assert_non_null(strstr(text, " task-clock"));
    assert_non_null(strstr(text, "libpfm4: "));
    free(text);
    fclose(fp);
    /* model targets count their counters: no event vocabulary of their own */
    assert_null(socmon_target_lookup("esp")->list_events);
}

static void byte_sink(void *ctx, uint8_t b)
{
    (void)ctx, (void)b;
}

static void test_program_calls(void **state)
{
    (void)state;
    assert_non_null(socmon_target_lookup("ibex")->program_output);
    assert_non_null(socmon_target_lookup("ibex")->program_end);
    socmon_target *t;
    assert_int_equal(socmon_target_open("zynq", &t), SOCMON_OK);
    assert_int_equal(socmon_target_program_output(t, byte_sink, NULL), -1);
    char msg[64];
    assert_int_equal(socmon_target_program_end(t, msg, sizeof msg), SOCMON_PROGRAM_RUNNING);
    assert_string_equal(msg, "program still running");
    socmon_target_close(t);
    assert_int_equal(socmon_target_program_output(NULL, byte_sink, NULL), -1);
}

static void test_esp_grid(void **state)
{
    (void)state;
    const socmon_target_ops *esp = socmon_target_lookup("esp");
    assert_non_null(esp->grid);
    const socmon_counter c[] = {
        {.name = "ddr_accesses", .instance = "tile1", .unit = "events", .width = 32},
        {.name = "acc_tot_cycles", .instance = "tile2", .unit = "cycles", .width = 32},
        {.name = "l2_hits", .instance = "tile9", .unit = "events",
            .width = 32},   /* past the grid */
    };
    const char *pn[] = {"rows", "cols", "noc_planes"};
    double pv[] = {1, 3, 6};
    socmon_grid g = {0};
    /* no room: the count it needs, no tile written */
    assert_int_equal(esp->grid(c, 3, 3, pn, pv, &g, NULL, 0), 3);
    assert_string_equal(g.kind, "esp-grid");
    assert_int_equal(g.rows, 1);
    assert_int_equal(g.cols, 3);
    assert_int_equal(g.planes, 6);
    socmon_grid_tile t[3];
    assert_int_equal(esp->grid(c, 3, 3, pn, pv, &g, t, 3), 3);
    assert_string_equal(t[0].instance, "tile0");
    assert_string_equal(t[0].type, "empty");
    assert_string_equal(t[1].type, "mem");
    assert_string_equal(t[2].type, "acc");
    assert_int_equal(t[2].x, 2);
    assert_int_equal(t[2].y, 0);
    /* no grid facts (no cols), or out of range: no grid */
    assert_int_equal(esp->grid(c, 3, 1, pn, pv, &g, t, 3), 0);
    double big[] = {1, 17, 6};
    assert_int_equal(esp->grid(c, 3, 3, pn, big, &g, t, 3), 0);
    assert_null(socmon_target_lookup("zynq")->grid);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_runs_command), cmocka_unit_test(test_open_command),
        cmocka_unit_test(test_list_events),  cmocka_unit_test(test_program_calls),
        cmocka_unit_test(test_esp_grid),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
