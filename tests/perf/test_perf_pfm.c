/* Event names through libpfm4, on a machine whose PMU libpfm4 cannot find (this VM): forced to
 * AMD family 19h (Zen 3) with LIBPFM_FORCE_PMU before its first initialisation (this test is its
 * own process, so nothing initialised it earlier). Expected encodings are AMD's: "PMCx0C0 Retired
 * Instructions" and "PMCx0C2 Retired Branch Instructions" (AMD PPR for family 19h, the core
 * performance counter events), as PERF_TYPE_RAW configs. Skipped where socmon was built without
 * libpfm4 (the Arm cross build). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "socmon/perf.h"

static void forced_zen3(void **state)
{
    (void)state;
    if (!socmon_perf_have_pfm())
        skip();
    socmon_perf_names nm = {.sysfs_root = "/nonexistent", .no_pfm = 0};
    socmon_perf_attr a;
    assert_int_equal(socmon_perf_event_parse("RETIRED_INSTRUCTIONS", &nm, &a), SOCMON_OK);
    assert_int_equal(a.type, 4);
    assert_int_equal(a.config & 0xff, 0xc0);
    assert_string_equal(a.pmu, "amd64_fam19h_zen3");
    assert_int_equal(socmon_perf_event_parse("amd64_fam19h_zen3::RETIRED_BRANCH_INSTRUCTIONS:u", &nm, &a), SOCMON_OK);
    assert_int_equal(a.config & 0xff, 0xc2);
    assert_true(a.exclude_kernel && !a.exclude_user);
    /* generic names still win over libpfm4's ("cycles" is perf's, not a table entry) */
    assert_int_equal(socmon_perf_event_parse("cycles", &nm, &a), SOCMON_OK);
    assert_int_equal(a.type, 0);
    /* a name neither knows */
    assert_int_equal(socmon_perf_event_parse("RETIRED_INSTRUCTIONZ", &nm, &a), SOCMON_ENOENT);
    /* no_pfm: libpfm4 is not asked */
    nm.no_pfm = 1;
    assert_int_equal(socmon_perf_event_parse("RETIRED_INSTRUCTIONS", &nm, &a), SOCMON_ENOENT);
}

int main(void)
{
    setenv("LIBPFM_FORCE_PMU", "amd64_fam19h_zen3", 1);
    const struct CMUnitTest tests[] = {cmocka_unit_test(forced_zen3)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
