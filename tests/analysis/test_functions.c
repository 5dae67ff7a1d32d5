/* A program's per-function rows (src/results/functions.c) against figures worked out by hand:
 * a function whose count is negative because it wrote a counter, the total equal to the
 * whole-program counters, a total that differs from them, idle functions, and a source without
 * per-function counters. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <string.h>

#include "socmon/analysis.h"

enum { CYC, INS, MAIN_C, MAIN_I, HELP_C, HELP_I, CRT_C, CRT_I, IDLE_C, IDLE_I, OTHER, N };

/* 32-bit counters, as ibex's mcycle/minstret: the whole program's, then per function (the
 * instance), and a counter that is neither (left alone). */
static const socmon_counter ctr[N] = {
    [CYC] = {.name = "cycles", .instance = "", .width = 32},
    [INS] = {.name = "instret", .instance = "", .width = 32},
    [MAIN_C] = {.name = "fn_cycles", .instance = "main", .width = 32},
    [MAIN_I] = {.name = "fn_instret", .instance = "main", .width = 32},
    [HELP_C] = {.name = "fn_cycles", .instance = "helper", .width = 32},
    [HELP_I] = {.name = "fn_instret", .instance = "helper", .width = 32},
    [CRT_C] = {.name = "fn_cycles", .instance = "crt0", .width = 32},
    [CRT_I] = {.name = "fn_instret", .instance = "crt0", .width = 32},
    [IDLE_C] = {.name = "fn_cycles", .instance = "idle", .width = 32},
    [IDLE_I] = {.name = "fn_instret", .instance = "idle", .width = 32},
    [OTHER] = {.name = "fn_other", .instance = "main", .width = 32},
};

/* main: 3000 cycles, 1500 instructions; helper 1000 and 1000; crt0 ran 20 instructions, one of
 * which zeroed mcycle when it read 1000: its cycles are -1000 modulo 2^32 (4294966296 as summed).
 * The functions' cycles: 3000 + 1000 - 1000 = 3000, instructions 2520: what the counters read. */
static uint64_t raw[N] = {[CYC] = 3000, [INS] = 2520, [MAIN_C] = 3000, [MAIN_I] = 1500, [HELP_C] = 1000,
                          [HELP_I] = 1000, [CRT_C] = 4294967296u - 1000, [CRT_I] = 20, [OTHER] = 7};

static socmon_status rows_of(const uint64_t *values, size_t n, int idle, socmon_functions **out)
{
    socmon_source_info info = {.kind = "recording", .target = "ibex", .ncounters = n, .counters = ctr};
    socmon_totals t = {.runs = 1, .raw = values, .values = values};
    return socmon_functions_from_totals(&info, &t, idle, out);
}

static void test_negative_count_and_matching_total(void **state)
{
    (void)state;
    socmon_functions *f = NULL;
    assert_int_equal(rows_of(raw, N, 0, &f), SOCMON_OK);
    assert_int_equal(f->n, 3);   /* idle never ran: left out */
    assert_string_equal(f->rows[0].name, "main");
    assert_string_equal(f->rows[1].name, "helper");
    assert_string_equal(f->rows[2].name, "crt0");   /* sorted by cycles: the negative last */
    assert_int_equal(f->rows[2].v[0], -1000);
    assert_int_equal(f->rows[2].v[1], 20);
    assert_int_equal(f->rows[0].has, 3);   /* cycles and instret; lsu_wait... the source lacks */
    assert_true(fabs(f->rows[0].cpi - 2.0) < 1e-12);
    assert_true(fabs(f->rows[2].cpi - -50.0) < 1e-12);
    assert_true(fabs(f->rows[0].share - 100.0) < 1e-12);          /* 3000 of 3000 */
    assert_true(fabs(f->rows[1].share - 100.0 / 3) < 1e-12);      /* 1000 of 3000 */
    assert_true(fabs(f->rows[2].share - -100.0 / 3) < 1e-12);
    assert_string_equal(f->total.name, "total");
    assert_int_equal(f->total.v[0], 3000);
    assert_int_equal(f->total.v[1], 2520);
    assert_true(fabs(f->total.cpi - 3000.0 / 2520) < 1e-12);
    assert_string_equal(f->whole.name, "whole program");
    assert_int_equal(f->whole.v[0], 3000);
    assert_int_equal(f->whole.has, 3);
    assert_int_equal(f->mismatch, 0);
    assert_string_equal(socmon_function_col(0), "cycles");
    assert_string_equal(socmon_function_col(9), "branches_taken");
    assert_null(socmon_function_col(SOCMON_FUNCTION_COLS));
    socmon_functions_free(f);
}

/* One cycle the functions did not get: the total says 3000, the counter 3001. */
static void test_mismatch(void **state)
{
    (void)state;
    uint64_t v[N];
    memcpy(v, raw, sizeof v);
    v[CYC] = 3001;
    socmon_functions *f = NULL;
    assert_int_equal(rows_of(v, N, 0, &f), SOCMON_OK);
    assert_int_equal(f->total.v[0], 3000);
    assert_int_equal(f->whole.v[0], 3001);
    assert_int_equal(f->mismatch, 1);
    socmon_functions_free(f);
}

/* --all: the function that never ran too, its CPI undefined (no instructions). */
static void test_idle_functions_kept(void **state)
{
    (void)state;
    socmon_functions *f = NULL;
    assert_int_equal(rows_of(raw, N, 1, &f), SOCMON_OK);
    assert_int_equal(f->n, 4);
    assert_string_equal(f->rows[2].name, "idle");
    assert_true(isnan(f->rows[2].cpi));
    assert_true(f->rows[2].share == 0);
    assert_int_equal(f->total.v[0], 3000);
    socmon_functions_free(f);
}

/* Only the whole-program counters: not a program's recording. */
static void test_no_functions(void **state)
{
    (void)state;
    socmon_functions *f = (socmon_functions *)&f;
    assert_int_equal(rows_of(raw, 2, 0, &f), SOCMON_ENOENT);
    assert_null(f);
    assert_non_null(strstr(socmon_errmsg(), "no per-function counters"));
    assert_int_equal(socmon_functions_from_totals(NULL, NULL, 0, &f), SOCMON_EINVAL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_negative_count_and_matching_total),
        cmocka_unit_test(test_mismatch),
        cmocka_unit_test(test_idle_functions_kept),
        cmocka_unit_test(test_no_functions),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
