/* A profile's counts against the run's totals (socmon_profile_from_json): every event's
 * instructions and frames add up to its total, modulo the counter's width, and their sizes fit a
 * signed 64-bit sum; a document that breaks either is damaged (SOCMON_EPARSE naming the event),
 * never a view whose shares read -100 % (issue 37, item 20). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "socmon/profile.h"
#include "socmon/status.h"

/* One program: cycles, instret and a 40-bit counter the program wrote (its -1 at one
 * instruction), the fuzzer's seed small.json; %s are the cycles of the first instruction and of
 * the second node. */
#define DOC_FMT \
    "{\"format\": \"socmon-profile\", \"version\": 1, \"program\": \"p.elf\", \"arch\": \"rv32imc\", " \
    "\"events\": [{\"name\": \"cycles\", \"width\": 64}, {\"name\": \"instret\", \"width\": 64}, " \
    "{\"name\": \"lsu_wait\", \"width\": 40}], \"total\": [22, 6, 0], " \
    "\"functions\": [[\"_unknown\", 0, 0], [\"_start\", 1048704, 1048720], [\"main\", 1048720, 1048736]], " \
    "\"insns\": [[1048704, 1, 1, [%s, 1, 0], \"\"], [1048706, 8225, 1, [2, 1, 0], \"\"], " \
    "[1048720, 17665, 2, [%s, 1, 1], \"\"], [1048722, 8209, 2, [7, 3, 1099511627775], \"\"]], " \
    "\"nodes\": [[0, 0, false, 0, [0, 0, 0]], [0, 1, false, 1, [%s, 2, 0]], [1, 2, false, 1, [12, 4, 0]]], " \
    "\"slices\": [], \"slices_dropped\": 0}"

static socmon_status parse(const char *i0, const char *i2, const char *n1, socmon_profile **p)
{
    char doc[2048];
    snprintf(doc, sizeof doc, DOC_FMT, i0, i2, n1);
    *p = NULL;
    return socmon_profile_from_json(doc, strlen(doc), p);
}

static void sums_that_hold(void **state)
{
    (void)state;
    socmon_profile *p = NULL;
    /* 3 + 2 + 10 + 7 = 22 cycles by instruction, 10 + 12 by frame */
    assert_int_equal(parse("3", "10", "10", &p), SOCMON_OK);
    socmon_profile_free(p);
    /* a program that zeroed mcycle: an instruction counts less than nothing, the sum still holds */
    assert_int_equal(parse("-30", "43", "10", &p), SOCMON_OK);
    socmon_profile_free(p);
}

static void sums_that_do_not(void **state)
{
    (void)state;
    static const struct { const char *i0, *i2, *n1, *msg; } cases[] = {
        /* one instruction of 2^63-1 cycles in a run of 22 */
        {"9223372036854775807", "10", "10", "cycles: the instructions' counts are too large to add up"},
        /* 2^62 + 2^62 overflows a signed sum, though modulo 2^64 the instructions come out right */
        {"4611686018427387904", "4611686018427387904", "10", "cycles: the instructions' counts are too large"},
        {"3", "11", "10", "cycles: the instructions' counts add up to 23, not to the run's total 22"},
        {"3", "10", "11", "cycles: the frames' counts add up to 23, not to the run's total 22"},
        {"3", "10", "-9223372036854775808", "cycles: the frames' counts are too large to add up"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        socmon_profile *p = NULL;
        socmon_status st = parse(cases[i].i0, cases[i].i2, cases[i].n1, &p);
        if (st != SOCMON_EPARSE || p)
            fail_msg("case %zu: status %d, expected SOCMON_EPARSE", i, (int)st);
        if (!strstr(socmon_errmsg(), cases[i].msg))
            fail_msg("case %zu: '%s' lacks '%s'", i, socmon_errmsg(), cases[i].msg);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(sums_that_hold),
        cmocka_unit_test(sums_that_do_not),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
