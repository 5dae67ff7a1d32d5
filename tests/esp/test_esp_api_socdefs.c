/* soc_defs.h / soc_locs.h generation, and that socmon's shipped defaults are
 * what the generator writes for the built-in SoC. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdlib.h>

#include "esp_monitors.h"
#include "compat/esp/esp_socdefs.h"

static char *gen(const socmon_esp_soc_desc *d, int which, socmon_status *st)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *fp = open_memstream(&buf, &len);
    assert_non_null(fp);
    *st = smn_esp_socdefs_write(d, "test.soc", which == 0 ? fp : NULL, which == 1 ? fp : NULL);
    fclose(fp);
    return buf;
}

static char *slurp(const char *rel)
{
    const char *src = getenv("SOCMON_SRC");
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", src ? src : ".", rel);
    FILE *fp = fopen(path, "r");
    if (!fp)
        fail_msg("cannot open %s", path);
    static char buf[1 << 16];
    size_t n = fread(buf, 1, sizeof buf - 1, fp);
    buf[n] = '\0';
    fclose(fp);
    return buf;
}

static void expect_line(const char *text, const char *name, long long v)
{
    char line[128];
    snprintf(line, sizeof line, "#define %s %lld\n", name, v);
    if (!strstr(text, line))
        fail_msg("generated soc_defs.h lacks '%s'", line);
}

static void test_default_matches_shipped(void **state)
{
    socmon_esp_soc_desc d;
    socmon_esp_soc_desc_default(&d);
    socmon_status st;
    char *defs = gen(&d, 0, &st);
    assert_int_equal(st, SOCMON_OK);
    /* The macros this test was compiled with come from include/compat/soc_defs.h. */
    expect_line(defs, "SOC_ROWS", SOC_ROWS);
    expect_line(defs, "SOC_COLS", SOC_COLS);
    expect_line(defs, "SOC_NCPU", SOC_NCPU);
    expect_line(defs, "SOC_NMEM", SOC_NMEM);
    expect_line(defs, "SOC_NACC", SOC_NACC);
    expect_line(defs, "ACCS_PRESENT", ACCS_PRESENT);
    expect_line(defs, "YX_WIDTH", YX_WIDTH);
    assert_non_null(strstr(defs, "#define MONITOR_BASE_ADDR 0x60090000\n"));
    free(defs);
    char *locs = gen(&d, 1, &st);
    assert_int_equal(st, SOCMON_OK);
    const char *shipped = slurp("include/compat/soc_locs.h");
    /* Every array line the generator writes is in the shipped file verbatim. */
    for (char *line = strtok(locs, "\n"); line; line = strtok(NULL, "\n"))
        if (line[0] != '/' && line[0] != ' ' && !strstr(shipped, line))
            fail_msg("shipped soc_locs.h lacks '%s'", line);
    free(locs);
}

static void test_other_soc(void **state)
{
    socmon_esp_soc_desc d;
    const char *src = getenv("SOCMON_SRC");
    char path[1024];
    snprintf(path, sizeof path, "%s/socs/esp_8x8.soc", src ? src : ".");
    assert_int_equal(socmon_esp_soc_desc_load(path, &d), SOCMON_OK);
    socmon_status st;
    char *defs = gen(&d, 0, &st);
    assert_int_equal(st, SOCMON_OK);
    expect_line(defs, "SOC_ROWS", 8);
    expect_line(defs, "SOC_NACC", socmon_esp_desc_tiles_of(&d, SOCMON_ESP_TILE_ACC, NULL, 0));
    expect_line(defs, "SOC_NMEM", socmon_esp_desc_tiles_of(&d, SOCMON_ESP_TILE_MEM, NULL, 0));
    expect_line(defs, "YX_WIDTH", 3);
    free(defs);
    /* A mem tile's location is (t / cols, t % cols). */
    unsigned mem[SOCMON_ESP_MAX_TILES];
    socmon_esp_desc_tiles_of(&d, SOCMON_ESP_TILE_MEM, mem, SOCMON_ESP_MAX_TILES);
    char *locs = gen(&d, 1, &st);
    char want[64];
    snprintf(want, sizeof want, "mem_locs[SOC_NMEM] = {{%u, %u}", mem[0] / 8, mem[0] % 8);
    assert_non_null(strstr(locs, want));
    free(locs);
}

static void test_errors(void **state)
{
    socmon_esp_soc_desc d;
    socmon_esp_soc_desc_default(&d);
    d.tiles[1].type = SOCMON_ESP_TILE_IO;   /* drop the only memory tile */
    socmon_status st;
    free(gen(&d, 0, &st));
    assert_int_equal(st, SOCMON_EINVAL);
    assert_non_null(strstr(socmon_errmsg(), "test.soc: no memory tile"));
    socmon_esp_soc_desc_default(&d);
    d.tiles[0].type = SOCMON_ESP_TILE_EMPTY;
    free(gen(&d, 0, &st));
    assert_int_equal(st, SOCMON_EINVAL);
    assert_non_null(strstr(socmon_errmsg(), "no CPU tile"));
    socmon_esp_soc_desc_default(&d);
    d.cols = 17;
    free(gen(&d, 0, &st));
    assert_int_equal(st, SOCMON_ERANGE);
    assert_non_null(strstr(socmon_errmsg(), "cols 17"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_default_matches_shipped),
        cmocka_unit_test(test_other_soc),
        cmocka_unit_test(test_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
