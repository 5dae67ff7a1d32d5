/* A program's per-function rows (report --by-symbol) as the table, CSV and JSON formats write
 * them (smn_output_functions), byte for byte: the text scripts and tests/cli/baseline.py read.
 * The rows are worked out by hand: the functions' cycles total 2000; crt0 zeroed mcycle, so its
 * count is negative; a function that never ran has no CPI; the source lacks every column after
 * lsu_wait. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <jansson.h>
#include <math.h>
#include <string.h>

#include "export/output.h"

static socmon_function_row rows[] = {
    {.name = "main", .v = {3000, 1500, 12}, .has = 7, .cpi = 2.0, .share = 150.0},
    {.name = "crt0", .v = {-1000, 20, 0}, .has = 7, .cpi = -50.0, .share = -50.0},
    {.name = "say \"hi\", twice", .v = {0, 0, 0}, .has = 7, .cpi = NAN, .share = 0},
};
static socmon_functions fns = {.n = 3, .rows = rows, .total = {"total", {2000, 1520, 12}, 7, 2000.0 / 1520, 100.0},
                               .whole = {"whole program", {2000, 1520, 12}, 7, 2000.0 / 1520, 100.0}, .mismatch = 0};

/* The document format `name` writes for f (a FUNCTIONS document), into *text (freed by caller). */
static char *render(const char *name, char sep, const socmon_functions *f)
{
    smn_sink *s = NULL;
    smn_output *o = NULL;
    smn_output_opts oo = {.sep = sep};
    smn_run_info run = {.doc = SOCMON_DOC_FUNCTIONS, .target = "ibex"};
    assert_int_equal(smn_sink_memory(&s), SOCMON_OK);
    assert_int_equal(smn_output_open(name, s, &oo, &o), SOCMON_OK);
    assert_int_equal(smn_output_begin(o, &run), SOCMON_OK);
    assert_int_equal(smn_output_functions(o, f), SOCMON_OK);
    assert_int_equal(smn_output_end(o), SOCMON_OK);
    char *text = strdup(smn_sink_memory_data(s, NULL));
    smn_output_free(o);
    assert_int_equal(smn_sink_close(s), SOCMON_OK);
    return text;
}

#define NO7 "          -          -          -          -          -          -          -"

/* Counts as every table writes them (issue 37): grouped, a negative one too. */
static void test_table(void **state)
{
    (void)state;
    char *t = render("table", ',', &fns);
    assert_string_equal(t,
        "\n Cycles by function (ELF symbol), every event attributed to the function whose instruction caused it:\n\n"
        "  function                           cycles      instret   lsu_wait fetch_wait   mul_wait   div_wait"
        "      loads     stores   branches branches_taken     CPI   share\n"
        "  main                                3,000        1,500         12" NO7 "   2.000 150.00%\n"
        "  crt0                               -1,000           20          0" NO7 " -50.000 -50.00%\n"
        "  say \"hi\", twice                         0            0          0" NO7 "       -   0.00%\n"
        "  total                               2,000        1,520         12" NO7 "   1.316 100.00%\n"
        "\n  total equals the whole-program counters\n\n");
    free(t);
    socmon_functions bad = fns;
    bad.mismatch = 1;
    t = render("table", ',', &bad);
    assert_non_null(strstr(t, "\n  total DIFFERS FROM the whole-program counters (see docs/ibex.md)\n\n"));
    free(t);
}

/* Empty fields for the columns the source lacks; a name with the separator or a quote quoted. */
static void test_csv(void **state)
{
    (void)state;
    char *t = render("csv", ',', &fns);
    assert_string_equal(t,
        "function,cycles,instret,lsu_wait,fetch_wait,mul_wait,div_wait,loads,stores,branches,branches_taken,"
        "cpi,cycle_share\n"
        "main,3000,1500,12,,,,,,,,2,150.0000\n"
        "crt0,-1000,20,0,,,,,,,,-50,-50.0000\n"
        "\"say \"\"hi\"\", twice\",0,0,0,,,,,,,,0,0.0000\n"
        "total,2000,1520,12,,,,,,,,1.31579,100.0000\n");
    free(t);
    t = render("csv", ';', &fns);
    assert_non_null(strstr(t, "\nmain;3000;1500;12;;;;;;;;2;150.0000\n"));
    free(t);
}

/* One row a line, as it always was; and a document a JSON parser reads back, names escaped. */
static void test_json(void **state)
{
    (void)state;
    char *t = render("json", ',', &fns);
    assert_string_equal(t,
        "{\"kind\": \"by-symbol\", \"functions\": [\n"
        "    {\"function\": \"main\", \"cycles\": 3000, \"instret\": 1500, \"lsu_wait\": 12, \"cpi\": 2, "
        "\"cycle_share\": 150},\n"
        "    {\"function\": \"crt0\", \"cycles\": -1000, \"instret\": 20, \"lsu_wait\": 0, \"cpi\": -50, "
        "\"cycle_share\": -50},\n"
        "    {\"function\": \"say \\\"hi\\\", twice\", \"cycles\": 0, \"instret\": 0, \"lsu_wait\": 0, \"cpi\": 0, "
        "\"cycle_share\": 0}\n"
        "  ],\n"
        "  \"total\": \n"
        "    {\"function\": \"total\", \"cycles\": 2000, \"instret\": 1520, \"lsu_wait\": 12, \"cpi\": 1.31579, "
        "\"cycle_share\": 100},\n"
        "  \"whole_program\": \n"
        "    {\"function\": \"whole program\", \"cycles\": 2000, \"instret\": 1520, \"lsu_wait\": 12, "
        "\"cpi\": 1.31579, \"cycle_share\": 100},\n"
        "  \"total_matches\": true\n"
        "}\n");
    json_error_t err;
    json_t *doc = json_loads(t, 0, &err);
    assert_non_null(doc);
    assert_string_equal(json_string_value(json_object_get(json_array_get(json_object_get(doc, "functions"), 2),
                                                          "function")), "say \"hi\", twice");
    json_decref(doc);
    free(t);
    socmon_functions bad = fns;
    bad.mismatch = 1;
    t = render("json", ',', &bad);
    assert_non_null(strstr(t, "\"total_matches\": false\n}\n"));
    free(t);
}

/* Only a FUNCTIONS document takes them, and a format without rows says so. */
static void test_refused(void **state)
{
    (void)state;
    smn_sink *s = NULL;
    smn_output *o = NULL;
    smn_run_info totals = {.doc = SOCMON_DOC_TOTALS, .target = "ibex"};
    smn_run_info run = {.doc = SOCMON_DOC_FUNCTIONS, .target = "ibex"};
    assert_int_equal(smn_sink_memory(&s), SOCMON_OK);
    assert_int_equal(smn_output_open("table", s, NULL, &o), SOCMON_OK);
    assert_int_equal(smn_output_functions(o, &fns), SOCMON_ESTATE);   /* before begin */
    assert_int_equal(smn_output_begin(o, &totals), SOCMON_OK);
    assert_int_equal(smn_output_functions(o, &fns), SOCMON_EINVAL);
    smn_output_free(o);
    assert_int_equal(smn_output_open("live", s, NULL, &o), SOCMON_OK);
    assert_int_equal(smn_output_begin(o, &run), SOCMON_OK);
    assert_int_equal(smn_output_functions(o, &fns), SOCMON_ENOTSUP);
    assert_non_null(strstr(socmon_errmsg(), "the live format has no per-function rows"));
    smn_output_free(o);
    assert_int_equal(smn_sink_close(s), SOCMON_OK);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_table),
        cmocka_unit_test(test_csv),
        cmocka_unit_test(test_json),
        cmocka_unit_test(test_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
