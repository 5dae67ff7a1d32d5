/* ESP Monitors API: bad input returns an error that names the bad value and
 * leaves results untouched; teardown is repeatable; the hardware path. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdlib.h>

#include "esp_monitors.h"
#include "libesp.h"
#include "compat/esp/esp_api.h"

typedef struct bad_case {
    esp_monitor_args_t args;
    int null_vals;
    socmon_status st;
    const char *msg;
} bad_case;

static const bad_case cases[] = {
    {{ESP_MON_READ_SINGLE, 0, 6, 0, 0, 0}, 1, SOCMON_ERANGE, "tile_index 6 out of range 0..5"},
    {{ESP_MON_READ_SINGLE, 0, 255, 0, 0, 0}, 1, SOCMON_ERANGE, "tile_index 255 out of range 0..5"},
    {{ESP_MON_READ_SINGLE, 0, 0, 0, 59, 0}, 1, SOCMON_ERANGE, "mon_index 59 out of range 0..58"},
    {{ESP_MON_READ_SINGLE, 0, 0, 0, 127, 0}, 1, SOCMON_ERANGE, "mon_index 127 out of range 0..58"},
    {{ESP_MON_READ_MANY, 0x200, 0, 0, 0, 0}, 0, SOCMON_ERANGE, "read_mask 0x200 has unknown bits 0x200"},
    {{ESP_MON_READ_MANY, 0xffff, 0, 0, 0, 0}, 0, SOCMON_ERANGE, "unknown bits 0xfe00"},
    {{ESP_MON_READ_MANY, 1 << 4, 0, 3, 0, 0}, 0, SOCMON_ERANGE, "acc_index 3 out of range 0..2"},
    {{ESP_MON_READ_MANY, 1 << 5, 6, 0, 0, 0}, 0, SOCMON_ERANGE, "tile_index 6 out of range 0..5"},
    {{ESP_MON_READ_MANY, 1 << 6, 9, 0, 0, 0}, 0, SOCMON_ERANGE, "tile_index 9 out of range 0..5"},
    {{ESP_MON_READ_MANY, 1 << 7, 6, 0, 0, 0}, 0, SOCMON_ERANGE, "tile_index 6 out of range 0..5"},
    {{ESP_MON_READ_MANY, 1 << 8, 0, 0, 0, 6}, 0, SOCMON_ERANGE, "noc_index 6 out of range 0..5"},
    {{ESP_MON_READ_MANY, 1, 0, 0, 0, 0}, 1, SOCMON_EINVAL, "vals is NULL"},
    {{ESP_MON_READ_ALL, 0, 0, 0, 0, 0}, 1, SOCMON_EINVAL, "vals is NULL"},
    {{(esp_monitor_mode_t)7, 0, 0, 0, 0, 0}, 0, SOCMON_EINVAL, "read_mode 7 unknown"},
};

static void test_bad_input_table(void **state)
{
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const bad_case *c = &cases[i];
        esp_monitor_vals_t v, before;
        memset(&v, 0x5A, sizeof v);
        before = v;
        unsigned r = esp_monitor(c->args, c->null_vals ? NULL : &v);
        if (r != 0 || esp_monitor_status() != c->st || !strstr(esp_monitor_errmsg(), c->msg))
            fail_msg("case %zu: returned %u, status %s, message '%s'; want %s '%s'", i, r,
                     socmon_status_name(esp_monitor_status()), esp_monitor_errmsg(),
                     socmon_status_name(c->st), c->msg);
        assert_memory_equal(&v, &before, sizeof v);
    }
    /* Fields a mode does not use are not checked: ESP's example 1 leaves
     * read_mask uninitialised in SINGLE mode, example 2 in ALL mode. */
    esp_monitor_args_t a = {ESP_MON_READ_ALL, 0xffff, 200, 200, 200, 200};
    esp_monitor_vals_t v;
    esp_monitor(a, &v);
    assert_int_equal(esp_monitor_status(), SOCMON_OK);
    assert_string_equal(esp_monitor_errmsg(), "");
    a.read_mode = ESP_MON_READ_MANY;
    a.read_mask = 1;   /* only DDR: the other indices are unused */
    esp_monitor(a, &v);
    assert_int_equal(esp_monitor_status(), SOCMON_OK);
}

static void test_free_twice_and_remap(void **state)
{
    esp_monitor_args_t a = {ESP_MON_READ_SINGLE, 0, 1, 0, 0, 0};
    socmon_esp_soc *soc = smn_esp_api_virtual_soc();
    assert_int_equal(socmon_esp_soc_poke(soc, 1, 0, 5), SOCMON_OK);
    assert_int_equal(esp_monitor(a, NULL), 5);
    esp_monitor_free();
    esp_monitor_free();
    /* A later call maps again: a fresh virtual SoC, counters from reset. */
    assert_int_equal(esp_monitor(a, NULL), 0);
    assert_int_equal(esp_monitor_status(), SOCMON_OK);
    soc = smn_esp_api_virtual_soc();
    assert_int_equal(socmon_esp_soc_poke(soc, 1, 0, 6), SOCMON_OK);
    assert_int_equal(esp_monitor(a, NULL), 6);
}

static void test_use_after_free(void **state)
{
    esp_monitor_vals_t *p = esp_monitor_vals_alloc();
    esp_monitor_vals_t *q = esp_monitor_vals_alloc();
    assert_non_null(p);
    assert_non_null(q);
    esp_monitor_vals_t zero;
    memset(&zero, 0, sizeof zero);
    assert_memory_equal(p, &zero, sizeof zero);
    esp_monitor_args_t a = {ESP_MON_READ_ALL, 0, 0, 0, 0, 0};
    esp_monitor(a, p);
    assert_int_equal(esp_monitor_status(), SOCMON_OK);
    esp_monitor_free();
    assert_int_equal(esp_monitor(a, p), 0);
    assert_int_equal(esp_monitor_status(), SOCMON_ESTATE);
    assert_non_null(strstr(esp_monitor_errmsg(), "freed by esp_monitor_free"));
    assert_int_equal(esp_monitor(a, q), 0);
    assert_int_equal(esp_monitor_status(), SOCMON_ESTATE);
    /* SINGLE never touches vals, so a stale pointer there is harmless. */
    esp_monitor_args_t single = {ESP_MON_READ_SINGLE, 0, 1, 0, 0, 0};
    esp_monitor(single, p);
    assert_int_equal(esp_monitor_status(), SOCMON_OK);
    /* Many frees later the graveyard recycles, and nothing leaks or crashes. */
    for (int i = 0; i < 100; i++) {
        assert_non_null(esp_monitor_vals_alloc());
        esp_monitor_free();
    }
}

static void test_print_and_run_errors(void **state)
{
    esp_monitor_args_t a = {ESP_MON_READ_ALL, 0, 0, 0, 0, 0};
    esp_monitor_vals_t v;
    memset(&v, 0, sizeof v);
    esp_monitor_print(a, v, (FILE *)NULL);
    assert_int_equal(esp_monitor_status(), SOCMON_EINVAL);
    assert_non_null(strstr(esp_monitor_errmsg(), "fp is NULL"));
    a.read_mode = (esp_monitor_mode_t)3;
    esp_monitor_print(a, v, stderr);
    assert_non_null(strstr(esp_monitor_errmsg(), "read_mode 3 unknown"));

    struct esp_access acc = {.coherence = ACC_COH_NONE, .footprint = 4096};
    esp_thread_info_t cfg = {.run = true, .devname = "conv2d.0", .esp_desc = &acc};
    esp_run(&cfg, 1);
    assert_int_equal(esp_monitor_status(), SOCMON_ENOENT);
    assert_non_null(strstr(esp_monitor_errmsg(), "devname 'conv2d.0'"));
    cfg.devname = "fft_stratus.3";   /* the SoC has fft 0..2 */
    esp_run(&cfg, 1);
    assert_int_equal(esp_monitor_status(), SOCMON_ENOENT);
    assert_non_null(strstr(esp_monitor_errmsg(), "index 3"));
    cfg.devname = "fft_stratus.x";
    esp_run(&cfg, 1);
    assert_int_equal(esp_monitor_status(), SOCMON_EINVAL);
    acc.footprint = 0;
    cfg.devname = "fft.0";
    cfg.hw_buf = &acc;   /* not an esp_alloc buffer: size unknown */
    esp_run(&cfg, 1);
    assert_int_equal(esp_monitor_status(), SOCMON_EINVAL);
    assert_non_null(strstr(esp_monitor_errmsg(), "not an esp_alloc buffer"));
    esp_free(&acc);
    assert_int_equal(esp_monitor_status(), SOCMON_EINVAL);
}

/* soc_defs.h must describe the SoC in use, or results would overrun vals. */
static void test_layout_mismatch(void **state)
{
    const char *src = getenv("SOCMON_SRC");
    char path[1024];
    snprintf(path, sizeof path, "%s/socs/esp_4x4.soc", src ? src : ".");
    esp_monitor_free();
    setenv("SOCMON_ESP_SOC", path, 1);
    esp_monitor_args_t a = {ESP_MON_READ_ALL, 0, 0, 0, 0, 0};
    esp_monitor_vals_t v;
    assert_int_equal(esp_monitor(a, &v), 0);
    assert_int_equal(esp_monitor_status(), SOCMON_ESTATE);
    assert_non_null(strstr(esp_monitor_errmsg(), "soc_defs.h describes a 2x3 SoC"));
    assert_non_null(strstr(esp_monitor_errmsg(), "4x4"));
    /* SINGLE writes no vals: it works with any soc_defs.h, on the SoC's own tile range. */
    esp_monitor_args_t single = {ESP_MON_READ_SINGLE, 0, 15, 0, 0, 0};
    esp_monitor(single, NULL);
    assert_int_equal(esp_monitor_status(), SOCMON_OK);
    single.tile_index = 16;
    esp_monitor(single, NULL);
    assert_non_null(strstr(esp_monitor_errmsg(), "tile_index 16 out of range 0..15"));
    setenv("SOCMON_ESP_SOC", "/nonexistent/x.soc", 1);
    esp_monitor_free();
    assert_int_equal(esp_monitor(a, &v), 0);
    assert_non_null(strstr(esp_monitor_errmsg(), "SOCMON_ESP_SOC"));
    unsetenv("SOCMON_ESP_SOC");
    esp_monitor_free();
    esp_monitor(a, &v);
    assert_int_equal(esp_monitor_status(), SOCMON_OK);
}

/* The hardware path: the monitors mapped from a device file at a base
 * address. A plain file stands in for /dev/mem. */
static void test_devmem_path(void **state)
{
    char path[] = "/tmp/socmon_esp_devmemXXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    const unsigned base = 0x3000, size = 6 * 0x200;
    assert_int_equal(ftruncate(fd, base + size), 0);
    uint32_t v = 0xCAFE;   /* tile 1, monitor 0 */
    assert_int_equal(pwrite(fd, &v, 4, base + 1 * 0x200 + 4), 4);
    v = 3000000000u;       /* tile 4, monitor 23 + 2 */
    assert_int_equal(pwrite(fd, &v, 4, base + 4 * 0x200 + 4 * 26), 4);
    v = 1;                 /* a burst left set by a crashed user */
    assert_int_equal(pwrite(fd, &v, 4, base + 2 * 0x200), 4);

    esp_monitor_free();
    setenv("SOCMON_ESP", "devmem:0x3000", 1);
    setenv("SOCMON_ESP_DEVMEM", path, 1);
    esp_monitor_args_t a = {ESP_MON_READ_SINGLE, 0, 1, 0, 0, 0};
    assert_int_equal(esp_monitor(a, NULL), 0xCAFE);
    assert_int_equal(esp_monitor_status(), SOCMON_OK);
    esp_monitor_vals_t vals;
    a.read_mode = ESP_MON_READ_ALL;
    esp_monitor(a, &vals);
    assert_int_equal(esp_monitor_status(), SOCMON_OK);
    assert_int_equal(vals.ddr_accesses[0], 0xCAFE);
    assert_int_equal(vals.noc_injects[4][2], 3000000000u);
    assert_int_equal(pread(fd, &v, 4, base + 2 * 0x200), 4);
    assert_int_equal(v, 0);   /* every burst register released */
    struct esp_access acc = {.footprint = 64};
    esp_thread_info_t cfg = {.run = true, .devname = "fft.0", .esp_desc = &acc};
    esp_run(&cfg, 1);
    assert_int_equal(esp_monitor_status(), SOCMON_ENOTSUP);

    esp_monitor_free();
    setenv("SOCMON_ESP", "devmem:0x12x", 1);
    assert_int_equal(esp_monitor(a, &vals), 0);
    assert_int_equal(esp_monitor_status(), SOCMON_EINVAL);
    assert_non_null(strstr(esp_monitor_errmsg(), "SOCMON_ESP 'devmem:0x12x'"));
    setenv("SOCMON_ESP", "devmem", 1);
    setenv("SOCMON_ESP_DEVMEM", "/nonexistent/mem", 1);
    assert_int_equal(esp_monitor(a, &vals), 0);
    assert_non_null(strstr(esp_monitor_errmsg(), "/nonexistent/mem"));
    unsetenv("SOCMON_ESP");
    unsetenv("SOCMON_ESP_DEVMEM");
    esp_monitor_free();
    close(fd);
    unlink(path);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bad_input_table),
        cmocka_unit_test(test_free_twice_and_remap),
        cmocka_unit_test(test_use_after_free),
        cmocka_unit_test(test_print_and_run_errors),
        cmocka_unit_test(test_layout_mismatch),
        cmocka_unit_test(test_devmem_path),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    esp_monitor_free();
    esp_cleanup();
    return rc;
}
