/* The SoC description file: the shipped files, the format's corners, and
 * one test per error class checking that the message names line and field. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "models/esp/esp_soc.h"

static void soc_path(char *buf, size_t n, const char *name)
{
    const char *src = getenv("SOCMON_SRC");
    snprintf(buf, n, "%s/socs/%s", src ? src : ".", name);
}

static void assert_same_desc(const socmon_esp_soc_desc *a, const socmon_esp_soc_desc *b)
{
    assert_int_equal(a->rows, b->rows);
    assert_int_equal(a->cols, b->cols);
    assert_int_equal(a->cache_hierarchy, b->cache_hierarchy);
    assert_int_equal(a->dvfs, b->dvfs);
    assert_int_equal(a->noc_planes, b->noc_planes);
    assert_int_equal(a->noc_queues, b->noc_queues);
    assert_true(a->monitor_base == b->monitor_base);
    assert_true(a->clock_hz == b->clock_hz);
    for (unsigned t = 0; t < a->rows * a->cols; t++) {
        assert_int_equal(a->tiles[t].type, b->tiles[t].type);
        assert_int_equal(a->tiles[t].has_l2, b->tiles[t].has_l2);
        assert_string_equal(a->tiles[t].name, b->tiles[t].name);
    }
}

static void test_default_file_matches_builtin(void **state)
{
    char path[4096];
    socmon_esp_soc_desc a, b;
    soc_path(path, sizeof path, "esp_2x3.soc");
    assert_int_equal(socmon_esp_soc_desc_load(path, &a), SOCMON_OK);
    socmon_esp_soc_desc_default(&b);
    assert_same_desc(&a, &b);
}

static void test_shipped_files(void **state)
{
    char path[4096];
    socmon_esp_soc_desc d;
    socmon_esp_soc *soc;
    soc_path(path, sizeof path, "esp_4x4.soc");
    assert_int_equal(socmon_esp_soc_desc_load(path, &d), SOCMON_OK);
    assert_int_equal(d.rows * d.cols, 16);
    assert_int_equal(socmon_esp_desc_tiles_of(&d, SOCMON_ESP_TILE_CPU, NULL, 0), 2);
    assert_int_equal(socmon_esp_desc_tiles_of(&d, SOCMON_ESP_TILE_MEM, NULL, 0), 2);
    assert_int_equal(socmon_esp_desc_tiles_of(&d, SOCMON_ESP_TILE_ACC, NULL, 0), 10);
    assert_int_equal(socmon_esp_desc_tiles_of(&d, SOCMON_ESP_TILE_EMPTY, NULL, 0), 1);
    assert_int_equal(smn_esp_soc_new(&d, &soc), SOCMON_OK);
    smn_esp_soc_free(soc);
    soc_path(path, sizeof path, "esp_8x8.soc");
    assert_int_equal(socmon_esp_soc_desc_load(path, &d), SOCMON_OK);
    assert_int_equal(d.rows * d.cols, 64);
    assert_int_equal(socmon_esp_desc_tiles_of(&d, SOCMON_ESP_TILE_MEM, NULL, 0), 4);
    assert_int_equal(socmon_esp_desc_tiles_of(&d, SOCMON_ESP_TILE_ACC, NULL, 0), 55);
    assert_int_equal(smn_esp_soc_new(&d, &soc), SOCMON_OK);
    smn_esp_soc_free(soc);
}

static void test_format_corners(void **state)
{
    socmon_esp_soc_desc d;
    const char *text = "  # leading comment\r\n"
                       "\n"
                       "cols 2   # trailing comment\r\n"
                       "\trows\t1\n"
                       "tile 0 1 mem\n"
                       "tile 0 0 acc my-acc_2 l2\n"
                       "dvfs off\n"
                       "cache_hierarchy on\n"
                       "monitor_base 0x80090000\n"
                       "clock_hz 100000000"; /* no final newline */
    /* A CPU is required, so this one fails; the same text with a CPU parses. */
    assert_int_equal(socmon_esp_soc_desc_parse(text, "c.soc", &d), SOCMON_EPARSE);
    assert_non_null(strstr(socmon_errmsg(), "no cpu tile"));
    const char *ok = "rows 1\ncols 3\ntile 0 1 mem\ntile 0 0 acc my-acc_2 l2\ntile 0 2 cpu\r\n"
                     "dvfs off\nmonitor_base 0x80090000\nclock_hz 100000000";
    assert_int_equal(socmon_esp_soc_desc_parse(ok, "c.soc", &d), SOCMON_OK);
    assert_int_equal(d.rows, 1);
    assert_int_equal(d.cols, 3);
    assert_int_equal(d.tiles[0].type, SOCMON_ESP_TILE_ACC);
    assert_string_equal(d.tiles[0].name, "my-acc_2");
    assert_int_equal(d.tiles[0].has_l2, 1);
    assert_int_equal(d.tiles[2].type, SOCMON_ESP_TILE_CPU);
    assert_int_equal(d.dvfs, 0);
    assert_int_equal(d.cache_hierarchy, 1); /* default */
    assert_int_equal(d.noc_planes, 6);
    assert_true(d.monitor_base == 0x80090000ull);
    assert_true(d.clock_hz == 1e8);
    /* Unlisted tiles are empty. */
    const char *sparse = "rows 2\ncols 2\ntile 1 1 mem\ntile 0 0 cpu\n";
    assert_int_equal(socmon_esp_soc_desc_parse(sparse, "s.soc", &d), SOCMON_OK);
    assert_int_equal(d.tiles[1].type, SOCMON_ESP_TILE_EMPTY);
    assert_int_equal(d.tiles[2].type, SOCMON_ESP_TILE_EMPTY);
}

typedef struct bad_case {
    const char *text;
    const char *want; /* substring of the message */
} bad_case;

#define GRID "rows 2\ncols 3\ntile 0 0 cpu\ntile 0 1 mem\n"

static const bad_case bad[] = {
    {GRID "colour red\n", "bad.soc:5: field 'key': 'colour' unknown"},
    {GRID "rows 3\n", "bad.soc:5: field 'rows': given twice"},
    {"rows\n", "bad.soc:1: field 'rows': missing value"},
    {"rows two\n", "bad.soc:1: field 'rows': 'two' is not a number"},
    {"rows -1\n", "bad.soc:1: field 'rows': '-1' is not an unsigned number"},
    {"rows 17\n", "bad.soc:1: field 'rows': 17 out of range 1..16"},
    {"rows 0\n", "bad.soc:1: field 'rows': 0 out of range 1..16"},
    {"rows 99999999999999999999999\n", "field 'rows': 99999999999999999999999 out of range"},
    {"cols 2 3\n", "bad.soc:1: field 'cols': '3' unexpected extra value"},
    {GRID "tile 7 0 io\n", "bad.soc:5: field 'row': 7 out of range 0..1"},
    {GRID "tile 0 3 io\n", "bad.soc:5: field 'col': 3 out of range 0..2"},
    {GRID "tile 1\n", "bad.soc:5: field 'col': missing value"},
    {GRID "tile 1 1\n", "bad.soc:5: field 'type': missing value"},
    {GRID "tile 1 1 gpu\n", "bad.soc:5: field 'type': 'gpu' is not one of"},
    {GRID "tile 0 0 io\n", "bad.soc:5: field 'tile': 0 0 already given on line 3"},
    {GRID "tile 1 1 acc\n", "bad.soc:5: field 'name': missing"},
    {GRID "tile 1 1 acc f/t\n", "bad.soc:5: field 'name': 'f/t' is not 1..31 characters"},
    {GRID "tile 1 1 acc abcdefghijabcdefghijabcdefghijab\n", "field 'name': 'abcdefghij"},
    {GRID "tile 1 1 acc fft l3\n", "bad.soc:5: field 'tile': 'l3' unexpected"},
    {GRID "tile 1 1 cpu l2\n", "bad.soc:5: field 'tile': 'l2' unexpected after the tile type"},
    {"tile 0 0 cpu\nrows 1\n", "bad.soc:1: field 'tile': comes before 'rows' and 'cols'"},
    {"cols 3\ntile 0 0 cpu\n", "bad.soc:2: field 'tile': comes before"},
    {"cols 3\n", "bad.soc: field 'rows': missing"},
    {"rows 1\ncols 2\ntile 0 0 cpu\n", "bad.soc: field 'tile': no mem tile"},
    {"rows 1\ncols 2\ntile 0 0 mem\n", "bad.soc: field 'tile': no cpu tile"},
    {GRID "dvfs maybe\n", "bad.soc:5: field 'dvfs': 'maybe' is not on or off"},
    {GRID "cache_hierarchy\n", "bad.soc:5: field 'cache_hierarchy': missing value"},
    {GRID "noc_planes 4\n", "bad.soc:5: field 'noc_planes': 4 out of range 6..6"},
    {GRID "noc_queues 6\n", "bad.soc:5: field 'noc_queues': 6 out of range 5..5"},
    {GRID "monitor_base 0x60090004\n", "bad.soc:5: field 'monitor_base': '0x60090004' is not a multiple of 0x200"},
    {GRID "monitor_base 0xzz\n", "bad.soc:5: field 'monitor_base': '0xzz' is not a number"},
    {GRID "clock_hz fast\n", "bad.soc:5: field 'clock_hz': 'fast' is not a number"},
    {GRID "clock_hz 1e300\n", "bad.soc:5: field 'clock_hz': 1e300 out of range 1e3..1e11"},
    {GRID "clock_hz nan\n", "bad.soc:5: field 'clock_hz': 'nan' is not a number"},
};

static void test_errors(void **state)
{
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        socmon_esp_soc_desc d;
        memset(&d, 0x5a, sizeof d);
        socmon_status st = socmon_esp_soc_desc_parse(bad[i].text, "bad.soc", &d);
        if (st != SOCMON_EPARSE || !strstr(socmon_errmsg(), bad[i].want))
            fail_msg("case %zu: status %d, message \"%s\", want \"%s\"", i, (int)st, socmon_errmsg(),
                     bad[i].want);
        /* The output is untouched on failure. */
        assert_int_equal(((unsigned char *)&d)[0], 0x5a);
    }
}

static void test_long_line(void **state)
{
    size_t n = 5000;
    char *text = malloc(n + 32);
    assert_non_null(text);
    strcpy(text, "rows 1\n# ");
    memset(text + 9, 'x', n);
    strcpy(text + 9 + n, "\n");
    socmon_esp_soc_desc d;
    assert_int_equal(socmon_esp_soc_desc_parse(text, "long.soc", &d), SOCMON_EPARSE);
    assert_non_null(strstr(socmon_errmsg(), "long.soc:2: field 'line'"));
    free(text);
}

static void test_load_errors(void **state)
{
    socmon_esp_soc_desc d;
    assert_int_equal(socmon_esp_soc_desc_load("/nonexistent/x.soc", &d), SOCMON_ENOENT);
    assert_non_null(strstr(socmon_errmsg(), "/nonexistent/x.soc"));
    char path[] = "/tmp/socmon_esp_socXXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    FILE *fp = fdopen(fd, "wb");
    assert_non_null(fp);
    fwrite("rows 1\0\ncols 1\n", 1, 15, fp);
    fclose(fp);
    assert_int_equal(socmon_esp_soc_desc_load(path, &d), SOCMON_EPARSE);
    assert_non_null(strstr(socmon_errmsg(), "NUL"));
    fp = fopen(path, "wb");
    assert_non_null(fp);
    fputs("rows 1\ncols 2\ntile 0 0 cpu\ntile 0 1 mem\ntile 0 2 io\n", fp);
    fclose(fp);
    assert_int_equal(socmon_esp_soc_desc_load(path, &d), SOCMON_EPARSE);
    assert_non_null(strstr(socmon_errmsg(), ":5: field 'col': 2 out of range 0..1"));
    assert_non_null(strstr(socmon_errmsg(), path));
    remove(path);
    assert_int_equal(socmon_esp_soc_desc_parse(NULL, "x", &d), SOCMON_EINVAL);
    assert_int_equal(socmon_esp_soc_desc_load(NULL, &d), SOCMON_EINVAL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_default_file_matches_builtin),
        cmocka_unit_test(test_shipped_files),
        cmocka_unit_test(test_format_corners),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_long_line),
        cmocka_unit_test(test_load_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
