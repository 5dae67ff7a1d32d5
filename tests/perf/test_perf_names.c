/* Event names: generic names with their kernel encodings (include/uapi/linux/perf_event.h),
 * modifiers, raw events, pmu/terms/ against a fixture sysfs tree, lists with groups, and bad
 * names with close matches. Pure parsing: runs anywhere, qemu-arm included. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "socmon/perf.h"

static socmon_perf_names fixture(void)
{
    static char root[512];
    snprintf(root, sizeof root, "%s/tests/perf/fixtures/sysfs", getenv("SOCMON_SRC") ? getenv("SOCMON_SRC") : ".");
    return (socmon_perf_names){.sysfs_root = root, .no_pfm = 1};
}

static void generic_encodings(void **state)
{
    (void)state;
    socmon_perf_attr a;
    socmon_perf_names nm = fixture();
    static const struct { const char *name; unsigned type; unsigned long long config; const char *unit; } want[] = {
        {"cycles", 0, 0, "events"}, {"instructions", 0, 1, "events"}, {"branch-misses", 0, 5, "events"},
        {"ref-cycles", 0, 9, "events"}, {"task-clock", 1, 1, "ns"}, {"cpu-clock", 1, 0, "ns"},
        {"page-faults", 1, 2, "events"}, {"faults", 1, 2, "events"}, {"cs", 1, 3, "events"},
        {"cpu-migrations", 1, 4, "events"}, {"major-faults", 1, 6, "events"},
        /* cache: id | op << 8 | result << 16 */
        {"L1-dcache-loads", 3, 0x000000, "events"}, {"L1-dcache-load-misses", 3, 0x010000, "events"},
        {"LLC-stores", 3, 0x000102, "events"}, {"dTLB-load-misses", 3, 0x010003, "events"},
        {"branch-loads", 3, 0x000005, "events"}, {"L1-icache-prefetch-misses", 3, 0x010201, "events"},
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        assert_int_equal(socmon_perf_event_parse(want[i].name, &nm, &a), SOCMON_OK);
        assert_int_equal(a.type, want[i].type);
        assert_int_equal(a.config, want[i].config);
        assert_string_equal(a.unit, want[i].unit);
        assert_string_equal(a.name, want[i].name);
        assert_int_equal(a.exclude_kernel + a.exclude_user + a.exclude_hv, 0);
    }
}

static void modifiers_and_raw(void **state)
{
    (void)state;
    socmon_perf_attr a;
    socmon_perf_names nm = fixture();
    assert_int_equal(socmon_perf_event_parse("cycles:u", &nm, &a), SOCMON_OK);
    assert_true(a.exclude_kernel && a.exclude_hv && !a.exclude_user);
    assert_int_equal(socmon_perf_event_parse("instructions:kh", &nm, &a), SOCMON_OK);
    assert_true(!a.exclude_kernel && !a.exclude_hv && a.exclude_user);
    assert_int_equal(socmon_perf_event_parse("r01c2", &nm, &a), SOCMON_OK);
    assert_int_equal(a.type, 4);
    assert_int_equal(a.config, 0x1c2);
    assert_int_equal(socmon_perf_event_parse("rFFFFFFFFFFFFFFFF:u", &nm, &a), SOCMON_OK);
    assert_true(a.config == ~0ull && a.exclude_kernel);
    assert_int_equal(socmon_perf_event_parse("r1FFFFFFFFFFFFFFFF", &nm, &a), SOCMON_ENOENT); /* 17 digits */
    assert_int_equal(socmon_perf_event_parse("r0x1c2", &nm, &a), SOCMON_EPARSE);
    assert_non_null(strstr(socmon_errmsg(), "without 0x"));
    assert_int_equal(socmon_perf_event_parse("cycles:p", &nm, &a), SOCMON_EPARSE);
    assert_non_null(strstr(socmon_errmsg(), "modifier 'p'"));
    assert_int_equal(socmon_perf_event_parse("cycles:uu", &nm, &a), SOCMON_EPARSE);
}

static void pmu_terms(void **state)
{
    (void)state;
    socmon_perf_attr a;
    socmon_perf_names nm = fixture();
    assert_int_equal(socmon_perf_event_parse("cpu/event=0x3c,umask=0x1,edge,cmask=2/", &nm, &a), SOCMON_OK);
    assert_int_equal(a.type, 4);
    assert_int_equal(a.config, 0x3c | 0x1 << 8 | 1 << 18 | 2u << 24);
    assert_string_equal(a.pmu, "cpu");
    assert_int_equal(socmon_perf_event_parse("cpu/instructions/u", &nm, &a), SOCMON_OK);
    assert_int_equal(a.config, 0xc0);
    assert_true(a.exclude_kernel);
    assert_int_equal(socmon_perf_event_parse("cpu/event=0xd0,ldlat=30/", &nm, &a), SOCMON_OK);
    assert_int_equal(a.config1, 30);
    assert_int_equal(socmon_perf_event_parse("msr/tsc/", &nm, &a), SOCMON_OK);
    assert_int_equal(a.type, 9);
    assert_int_equal(socmon_perf_event_parse("cpu/config=0x1234,config2=7/", &nm, &a), SOCMON_OK);
    assert_true(a.config == 0x1234 && a.config2 == 7);
    /* errors name the bad part */
    assert_int_equal(socmon_perf_event_parse("cpu/event=0x1ff/", &nm, &a), SOCMON_ERANGE);
    assert_non_null(strstr(socmon_errmsg(), "does not fit config:0-7"));
    assert_int_equal(socmon_perf_event_parse("cpu/evnt=1/", &nm, &a), SOCMON_ENOENT);
    assert_non_null(strstr(socmon_errmsg(), "did you mean 'event'"));
    assert_int_equal(socmon_perf_event_parse("cpux/event=1/", &nm, &a), SOCMON_ENOENT);
    assert_non_null(strstr(socmon_errmsg(), "did you mean 'cpu'"));
    assert_int_equal(socmon_perf_event_parse("cpu/event=1", &nm, &a), SOCMON_EPARSE);
    assert_int_equal(socmon_perf_event_parse("cpu//", &nm, &a), SOCMON_EPARSE);
    assert_int_equal(socmon_perf_event_parse("cpu/event=/", &nm, &a), SOCMON_EPARSE);
    assert_int_equal(socmon_perf_event_parse("cpu/event=-1/", &nm, &a), SOCMON_EPARSE);
    assert_int_equal(socmon_perf_event_parse("cpu/event=1,,umask=1/", &nm, &a), SOCMON_EPARSE);
    assert_int_equal(socmon_perf_event_parse("../x/event=1/", &nm, &a), SOCMON_EPARSE);
}

static void bad_names_suggest(void **state)
{
    (void)state;
    socmon_perf_attr a;
    socmon_perf_names nm = fixture();
    assert_int_equal(socmon_perf_event_parse("instrutions", &nm, &a), SOCMON_ENOENT);
    assert_non_null(strstr(socmon_errmsg(), "no event 'instrutions'"));
    assert_non_null(strstr(socmon_errmsg(), "did you mean 'instructions'"));
    assert_int_equal(socmon_perf_event_parse("page-fault", &nm, &a), SOCMON_ENOENT);
    assert_non_null(strstr(socmon_errmsg(), "'page-faults'"));
    assert_int_equal(socmon_perf_event_parse("L1-dcache-load-mises", &nm, &a), SOCMON_ENOENT);
    assert_non_null(strstr(socmon_errmsg(), "'L1-dcache-load-misses'"));
    assert_int_equal(socmon_perf_event_parse("zzzzzzzzzzzz", &nm, &a), SOCMON_ENOENT);
    assert_null(strstr(socmon_errmsg(), "did you mean"));
    assert_int_equal(socmon_perf_event_parse("", &nm, &a), SOCMON_EPARSE);
    assert_int_equal(socmon_perf_event_parse("cy cles", &nm, &a), SOCMON_EPARSE);
    char longname[300];
    memset(longname, 'a', sizeof longname - 1);
    longname[sizeof longname - 1] = 0;
    assert_int_equal(socmon_perf_event_parse(longname, &nm, &a), SOCMON_EPARSE);
    assert_int_equal(socmon_perf_event_parse(NULL, &nm, &a), SOCMON_EINVAL);
}

static void lists_and_groups(void **state)
{
    (void)state;
    socmon_perf_names nm = fixture();
    socmon_perf_attr *v;
    size_t n;
    assert_int_equal(socmon_perf_event_list_parse("cycles,{instructions,cpu/event=0x3c,umask=1/},page-faults,{cs}", &nm,
                                                  &v, &n), SOCMON_OK);
    assert_int_equal(n, 5);
    assert_string_equal(v[2].name, "cpu/event=0x3c,umask=1/");
    assert_int_equal(v[0].group, -1);
    assert_int_equal(v[1].group, 0);
    assert_int_equal(v[2].group, 0);
    assert_int_equal(v[3].group, -1);
    assert_int_equal(v[4].group, 1);
    free(v);
    static const char *const bad[] = {"cycles,", ",cycles", "cycles,,cs", "{cycles", "cycles}", "{{cycles}}",
                                      "{}", "cycles,cycles", "cycles,nope"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        assert_int_not_equal(socmon_perf_event_list_parse(bad[i], &nm, &v, &n), SOCMON_OK);
        assert_true(strlen(socmon_errmsg()) > 0);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(generic_encodings), cmocka_unit_test(modifiers_and_raw), cmocka_unit_test(pmu_terms),
        cmocka_unit_test(bad_names_suggest), cmocka_unit_test(lists_and_groups),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
