/* ESP Monitors API: esp_monitor_print's text, line for line as ESP prints it,
 * but with unsigned values. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "esp_monitors.h"

static char *print_to_string(esp_monitor_args_t a, esp_monitor_vals_t *v, size_t *len)
{
    char *buf = NULL;
    FILE *fp = open_memstream(&buf, len);
    assert_non_null(fp);
    esp_monitor_print(a, *v, fp);
    fclose(fp);
    assert_int_equal(esp_monitor_status(), SOCMON_OK);
    return buf;
}

static unsigned count_lines(const char *s)
{
    unsigned n = 0;
    for (; *s; s++)
        n += *s == '\n';
    return n;
}

static void test_all_format(void **state)
{
    esp_monitor_vals_t v;
    memset(&v, 0, sizeof v);
    v.ddr_accesses[0] = 3000000000u;       /* ESP's %d would print -1294967296 */
    v.mem_reqs[0].coh_dma_rsps = 17;
    v.l2_stats[0].hits = 11;               /* CPU 0 is tile 0 */
    v.l2_stats[2].misses = 12;             /* acc 0 (tile 2) has an L2 */
    v.llc_stats[0].hits = 13;
    v.acc_stats[1].acc_tot_lo = 1;
    v.acc_stats[1].acc_tot_hi = 2;
    v.acc_stats[2].acc_invocations = 4294967295u;
    v.dvfs_op[3][2] = 21;
    v.noc_injects[5][1] = 22;
    v.noc_queue_full[4][3][2] = 23;
    esp_monitor_args_t a = {ESP_MON_READ_ALL, 0, 0, 0, 0, 0};
    size_t len;
    char *s = print_to_string(a, &v, &len);
    /* ESP's count for ALL: 14 + 11*NMEM + 2*NCPU + 2*NACC_L2 + 4*NACC + 40*NTILES. */
    assert_int_equal(count_lines(s), 14 + 11 + 2 + 2 + 12 + 40 * 6);
    const char *head = "\n***************************************************\n"
                       "******************ESP MONITOR STATS****************\n"
                       "***************************************************\n"
                       "\n********************MEMORY STATS*******************\n"
                       "Off-chip memory accesses at mem tile 0: 3000000000\n"
                       "Coherence requests to LLC 0: 0\n";
    assert_memory_equal(s, head, strlen(head));
    const char *want[] = {
        "Coherent DMA responses from LLC 0: 17\n",
        "\n********************CACHE STATS********************\nL2 hits for CPU 0: 11\n",
        "L2 misses for acc 0: 12\n",
        "Hits at LLC 0: 13\nMisses at LLC 0: 0\n",
        "\n****************ACCELERATOR STATS******************\n",
        "Accelerator 1 total cycles: 8589934593\n",
        "Accelerator 2 invocations: 4294967295\n",
        "\n*********************DVFS STATS********************\n",
        "DVFS Cycles for tile 3 at operating point 2: 21\n",
        "\n*********************NOC STATS*********************\n",
        "NoC packets injected at tile 5 on plane 1: 22\n",
        "NoC backpressure cycles at tile 4 on plane 3 for queue 2: 23\n",
    };
    const char *at = s;
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        const char *f = strstr(at, want[i]);
        if (!f)
            fail_msg("missing or out of order: %s", want[i]);
        at = f;
    }
    /* Last line, no trailing blank line. */
    const char *last = "NoC backpressure cycles at tile 5 on plane 5 for queue 4: 0\n";
    assert_string_equal(s + len - strlen(last), last);
    assert_null(strstr(s, ": -"));
    free(s);
}

static void test_many_sections(void **state)
{
    esp_monitor_vals_t v;
    memset(&v, 0, sizeof v);
    esp_monitor_args_t a = {ESP_MON_READ_MANY, 0, 3, 1, 0, 2};
    size_t len;
    char *s = print_to_string(a, &v, &len);
    assert_int_equal(count_lines(s), 14);   /* banners only */
    free(s);
    /* Both queue-full bits: ESP prints the tile block only (30 lines). */
    a.read_mask = 1 << ESP_MON_READ_NOC_QUEUE_FULL_TILE | 1 << ESP_MON_READ_NOC_QUEUE_FULL_PLANE;
    s = print_to_string(a, &v, &len);
    assert_int_equal(count_lines(s), 14 + 30);
    assert_non_null(strstr(s, "at tile 3 on plane 5 for queue 4"));
    assert_null(strstr(s, "at tile 0 "));
    free(s);
    a.read_mask = 1 << ESP_MON_READ_NOC_QUEUE_FULL_PLANE;
    s = print_to_string(a, &v, &len);
    assert_int_equal(count_lines(s), 14 + 30);
    assert_non_null(strstr(s, "at tile 5 on plane 2 for queue 4"));
    assert_null(strstr(s, "on plane 1 "));
    free(s);
    a.read_mask = 1 << ESP_MON_READ_ACC_STATS | 1 << ESP_MON_READ_DVFS_OP |
                  1 << ESP_MON_READ_NOC_INJECTS | 1 << ESP_MON_READ_MEM_REQS;
    s = print_to_string(a, &v, &len);
    assert_int_equal(count_lines(s), 14 + 4 + 4 + 6 + 8);
    assert_non_null(strstr(s, "Accelerator 1 mem cycles: 0\n"));
    assert_non_null(strstr(s, "DVFS Cycles for tile 3 at operating point 3: 0\n"));
    assert_null(strstr(s, "Off-chip"));
    free(s);
    /* SINGLE results never live in vals: banners only, whatever the mask. */
    a.read_mode = ESP_MON_READ_SINGLE;
    a.read_mask = 0x1ff;
    s = print_to_string(a, &v, &len);
    assert_int_equal(count_lines(s), 14);
    free(s);
}

/* The baremetal form prints to stdout. */
static void test_console_form(void **state)
{
    esp_monitor_vals_t v;
    memset(&v, 0, sizeof v);
    esp_monitor_args_t a = {ESP_MON_READ_MANY, 1, 0, 0, 0, 0};
    fflush(stdout);
    esp_monitor_print(a, v);
    fflush(stdout);
    assert_int_equal(esp_monitor_status(), SOCMON_OK);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_all_format),
        cmocka_unit_test(test_many_sections),
        cmocka_unit_test(test_console_form),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    esp_monitor_free();
    return rc;
}
