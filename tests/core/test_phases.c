/* Workload phases (socmon/phase.h): the attachment's text form round-trips, bad input is refused
 * with a message naming the line (bad numbers, names, empty, reversed or overlapping spans, no
 * final newline), and socmon_phase_at finds the phase holding an instant. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "socmon/phase.h"

static const socmon_phase two[] = {
    {.name = "non_coherent", .t0_ns = 0, .t1_ns = 813988},
    {.name = "coherent_dma", .t0_ns = 813988, .t1_ns = 4454565},
};

static void test_round_trip(void **state)
{
    (void)state;
    char *text = NULL;
    size_t len = 0, n = 0;
    socmon_phase *p = NULL;
    assert_int_equal(socmon_phases_format(two, 2, &text, &len), SOCMON_OK);
    assert_string_equal(text, "0 813988 non_coherent\n813988 4454565 coherent_dma\n");
    assert_int_equal(len, strlen(text));
    assert_int_equal(socmon_phases_parse(text, len, &p, &n), SOCMON_OK);
    assert_int_equal(n, 2);
    assert_memory_equal(p, two, sizeof two);
    free(p);
    free(text);
    assert_int_equal(socmon_phases_parse("", 0, &p, &n), SOCMON_OK);
    assert_int_equal(n, 0);
    assert_null(p);
}

static void refused(const char *text, const char *msg)
{
    socmon_phase *p = (socmon_phase *)1;
    size_t n = 7;
    assert_int_equal(socmon_phases_parse(text, strlen(text), &p, &n), SOCMON_EINVAL);
    assert_null(p);
    assert_int_equal(n, 0);
    if (!strstr(socmon_errmsg(), msg))
        fail_msg("'%s': message '%s' lacks '%s'", text, socmon_errmsg(), msg);
}

static void test_bad_input(void **state)
{
    (void)state;
    refused("0 10 a\n10 5 b\n", "line 2 ('b', 10..5 ns)");                 /* reversed */
    refused("0 10 a\n5 20 b\n", "overlaps");                               /* overlapping */
    refused("7 7 a\n", "line 1");                                          /* empty */
    refused("0 10 a b\n", "line 1");                                       /* a space in the name */
    refused("0 10 \n", "line 1");                                          /* no name */
    refused("0 10 na\xc3\xafve\n", "line 1");                              /* not ASCII */
    refused("0 10 abcdefghijabcdefghijabcdefghij12\n", "line 1");          /* 32 bytes: too long */
    refused("-1 10 a\n", "line 1");                                        /* not a number */
    refused("0 99999999999999999999 a\n", "line 1");                       /* past 64 bits */
    refused("0 10 a\n0 10", "newline");                                    /* cut short */
    refused("0 10 a\n\n", "line 2");                                       /* an empty line */
    /* the writer refuses what the reader would */
    socmon_phase bad[] = {{.name = "a", .t0_ns = 0, .t1_ns = 10}, {.name = "b", .t0_ns = 5, .t1_ns = 20}};
    char *text = NULL;
    size_t len = 0;
    assert_int_equal(socmon_phases_format(bad, 2, &text, &len), SOCMON_EINVAL);
    assert_null(text);
    strcpy(bad[1].name, "has space");
    bad[1].t0_ns = 10;
    assert_int_equal(socmon_phases_format(bad, 2, &text, &len), SOCMON_EINVAL);
}

static void test_phase_at(void **state)
{
    (void)state;
    assert_null(socmon_phase_at(two, 2, 4454565));        /* the end is exclusive */
    assert_string_equal(socmon_phase_at(two, 2, 0)->name, "non_coherent");
    assert_string_equal(socmon_phase_at(two, 2, 813987)->name, "non_coherent");
    assert_string_equal(socmon_phase_at(two, 2, 813988)->name, "coherent_dma");
    assert_null(socmon_phase_at(NULL, 0, 5));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_round_trip),
        cmocka_unit_test(test_bad_input),
        cmocka_unit_test(test_phase_at),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
