/* The perf driver against the kernel model (src/models/perf/): hardware events on a PMU with
 * fewer counters than events (multiplexing: every estimate checked against the model's truth),
 * pinned groups that cannot fit, rdpmc (with a counter crossing its width and a page changing
 * under the reader), no PMU (hardware events unsupported, the run goes on), permissions; and
 * the group read decoder and core scaling on synthetic read-format data. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "drivers/perf/perf_drv.h"
#include "models/perf/perf_kernel_model.h"
#include "socmon/perf.h"
#include "socmon/scaling.h"

#define HW_CYCLES 0
#define HW_INSTR 1
#define HW_BR 4
#define HW_BRMISS 5

static socmon_perf_attr hw(const char *name, unsigned config, int group)
{
    socmon_perf_attr a;
    memset(&a, 0, sizeof a);
    a.type = 0;
    a.config = config;
    a.group = group;
    a.exclude_kernel = 1;
    snprintf(a.name, sizeof a.name, "%s", name);
    snprintf(a.unit, sizeof a.unit, "events");
    return a;
}

static void read_all(socmon_device *d, uint64_t *v)
{
    size_t n = socmon_device_ncounters(d);
    uint32_t idx[64];
    for (size_t i = 0; i < n; i++)
        idx[i] = (uint32_t)i;
    assert_int_equal(socmon_device_read(d, idx, n, v), SOCMON_OK);
}

/* Six single-event groups on a 4-counter PMU, rotating every 1 ms for 100 ms: each runs about
 * 4/6 of the time; the scaled estimates equal the model's truth within 2% (rates are constant,
 * so the only error is the rotation's granularity), and the running share is 66.7% +- 2. */
static void multiplexed_estimates(void **state)
{
    (void)state;
    smn_perf_model *m;
    smn_perf_model_opts mo = {.hw_counters = 4, .paranoid = 2};
    assert_int_equal(smn_perf_model_new(&mo, &m), SOCMON_OK);
    for (unsigned c = 0; c < 6; c++)
        assert_int_equal(smn_perf_model_set_rate(m, 0, c, 1.0 + c), SOCMON_OK);
    socmon_perf_attr ev[6];
    const char *names[6] = {"cycles", "instructions", "cache_references", "cache_misses", "branches", "branch_misses"};
    for (unsigned c = 0; c < 6; c++)
        ev[c] = hw(names[c], c, -1);
    socmon_perf_opts o = {.events = ev, .nevents = 6, .mode = SOCMON_PERF_THREAD, .sys = smn_perf_model_sys(m)};
    socmon_device *d;
    assert_int_equal(socmon_perf_device_new("host", &o, &d), SOCMON_OK);
    assert_int_equal(socmon_device_ncounters(d), 18);
    uint64_t v0[18], v1[18];
    read_all(d, v0);
    assert_int_equal(smn_perf_model_advance(m, 100000000), SOCMON_OK);
    read_all(d, v1);
    socmon_counter cs[18];
    const char *full[18];
    for (size_t i = 0; i < 18; i++) {
        cs[i] = *socmon_device_counter(d, i);
        full[i] = socmon_device_full_name(d, i);
    }
    socmon_scaling *sc;
    assert_int_equal(socmon_scaling_new(cs, full, 18, &sc), SOCMON_OK);
    uint64_t dl[18];
    double val[18], pct[18];
    for (size_t i = 0; i < 18; i++)
        dl[i] = v1[i] - v0[i];
    socmon_scaling_apply(sc, dl, val, pct);
    for (unsigned c = 0; c < 6; c++) {
        double truth = (1.0 + c) * 1e8; /* rate * enabled time */
        size_t i = 3 * c;
        assert_true(socmon_scaling_has_time(sc, i));
        assert_true(socmon_scaling_is_time(sc, i + 1) && socmon_scaling_is_time(sc, i + 2));
        assert_true(dl[i] < truth * 0.9); /* really multiplexed: the raw count is short */
        assert_true(fabs(val[i] - truth) / truth < 0.02);
        assert_true(fabs(pct[i] - 66.67) < 2.0);
    }
    socmon_scaling_free(sc);
    socmon_device_free(d);
    smn_perf_model_free(m);
}

/* A group of three on a 2-counter PMU can never run: the kernel (x86 validate_group) refuses
 * the member that does not fit, and so does the model; the driver lists it as unsupported
 * and counts the rest. A pinned group that does not fit beside another pinned one goes into
 * error: its read is a clear error, never a partial count. */
static void groups_that_cannot_fit(void **state)
{
    (void)state;
    smn_perf_model *m;
    smn_perf_model_opts mo = {.hw_counters = 2, .paranoid = 2};
    assert_int_equal(smn_perf_model_new(&mo, &m), SOCMON_OK);
    socmon_perf_attr ev[3] = {hw("cycles", HW_CYCLES, 0), hw("instructions", HW_INSTR, 0), hw("branches", HW_BR, 0)};
    socmon_perf_opts o = {.events = ev, .nevents = 3, .mode = SOCMON_PERF_THREAD, .sys = smn_perf_model_sys(m)};
    socmon_device *d;
    assert_int_equal(socmon_perf_device_new("host", &o, &d), SOCMON_OK);
    const char *e, *why;
    assert_int_equal(socmon_perf_device_unsupported(d, 0, &e, &why), SOCMON_OK);
    assert_string_equal(e, "branches");
    assert_int_equal(socmon_perf_device_unsupported(d, 1, &e, &why), SOCMON_ERANGE);
    assert_int_equal(socmon_device_ncounters(d), 6);
    socmon_device_free(d);

    socmon_perf_attr p[2] = {hw("cycles", HW_CYCLES, 0), hw("instructions", HW_INSTR, 0)};
    o = (socmon_perf_opts){.events = p, .nevents = 2, .mode = SOCMON_PERF_THREAD, .pinned = 1,
                           .sys = smn_perf_model_sys(m)};
    socmon_device *a, *b;
    assert_int_equal(socmon_perf_device_new("a", &o, &a), SOCMON_OK);
    assert_int_equal(socmon_perf_device_new("b", &o, &b), SOCMON_OK);
    smn_perf_model_advance(m, 1000000);
    uint64_t v[6];
    read_all(a, v);
    uint32_t idx[1] = {0};
    assert_int_equal(socmon_device_read(b, idx, 1, v), SOCMON_EIO);
    assert_non_null(strstr(socmon_errmsg(), "pinned group was evicted"));
    socmon_device_free(a);
    socmon_device_free(b);
    smn_perf_model_free(m);
}

/* No PMU (a VM): the hardware events are unsupported, the software ones count. */
static void no_pmu(void **state)
{
    (void)state;
    smn_perf_model *m;
    smn_perf_model_opts mo = {.hw_counters = 0, .paranoid = 2};
    assert_int_equal(smn_perf_model_new(&mo, &m), SOCMON_OK);
    socmon_perf_attr *ev;
    size_t n;
    assert_int_equal(socmon_perf_event_list_parse("task-clock:u,page-faults:u,cycles:u,instructions:u", NULL, &ev, &n),
                     SOCMON_OK);
    socmon_perf_opts o = {.events = ev, .nevents = n, .mode = SOCMON_PERF_THREAD, .sys = smn_perf_model_sys(m)};
    socmon_device *d;
    assert_int_equal(socmon_perf_device_new("host", &o, &d), SOCMON_OK);
    assert_int_equal(socmon_device_ncounters(d), 6);
    const char *e, *why;
    assert_int_equal(socmon_perf_device_unsupported(d, 0, &e, &why), SOCMON_OK);
    assert_string_equal(e, "cycles:u");
    assert_non_null(strstr(why, "not supported"));
    smn_perf_model_inject(m, 1, 2, 250); /* 250 page faults */
    smn_perf_model_advance(m, 5000000);
    uint64_t v[6];
    read_all(d, v);
    assert_string_equal(socmon_device_full_name(d, 3), "page_faults_u");
    assert_int_equal(v[3], 250);
    assert_int_equal(v[0], 5000000); /* task-clock counts model time */
    socmon_device_free(d);
    /* nothing countable at all: a clear error */
    socmon_perf_attr c1 = hw("cycles", 0, -1);
    o = (socmon_perf_opts){.events = &c1, .nevents = 1, .mode = SOCMON_PERF_THREAD, .sys = smn_perf_model_sys(m)};
    assert_int_equal(socmon_perf_device_new("host", &o, &d), SOCMON_ENOTSUP);
    assert_non_null(strstr(socmon_errmsg(), "none of the events"));
    free(ev);
    smn_perf_model_free(m);
}

/* paranoid 2, unprivileged: counting a whole CPU or the kernel is refused with what to change */
static void permissions(void **state)
{
    (void)state;
    smn_perf_model *m;
    smn_perf_model_opts mo = {.hw_counters = 4, .paranoid = 2};
    assert_int_equal(smn_perf_model_new(&mo, &m), SOCMON_OK);
    socmon_perf_attr a = hw("cycles", 0, -1);
    socmon_perf_opts o = {.events = &a, .nevents = 1, .mode = SOCMON_PERF_CPU, .cpus = "0-1",
                          .sys = smn_perf_model_sys(m)};
    socmon_device *d;
    assert_int_equal(socmon_perf_device_new("host", &o, &d), SOCMON_EPERM);
    assert_non_null(strstr(socmon_errmsg(), "perf_event_paranoid <= 0"));
    assert_non_null(strstr(socmon_errmsg(), "CAP_PERFMON"));
    a.exclude_kernel = 0;
    o.mode = SOCMON_PERF_THREAD;
    o.cpus = NULL;
    assert_int_equal(socmon_perf_device_new("host", &o, &d), SOCMON_EPERM);
    assert_non_null(strstr(socmon_errmsg(), "add :u"));
    /* privileged: per CPU works, one instance per CPU */
    smn_perf_model_free(m);
    mo.privileged = 1;
    assert_int_equal(smn_perf_model_new(&mo, &m), SOCMON_OK);
    o = (socmon_perf_opts){.events = &a, .nevents = 1, .mode = SOCMON_PERF_CPU, .cpus = "0,1",
                           .sys = smn_perf_model_sys(m)};
    assert_int_equal(socmon_perf_device_new("host", &o, &d), SOCMON_OK);
    assert_string_equal(socmon_device_full_name(d, 3), "cpu1.cycles");
    socmon_device_free(d);
    o.cpus = "0,5";
    assert_int_equal(socmon_perf_device_new("host", &o, &d), SOCMON_ERANGE);
    assert_non_null(strstr(socmon_errmsg(), "cpu5"));
    static const char *const bad[] = {"", "a", "1-", "3-1", "1,", "0-99999", "1;2"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        o.cpus = bad[i];
        assert_int_equal(socmon_perf_device_new("host", &o, &d), SOCMON_EPARSE);
    }
    smn_perf_model_free(m);
}

/* rdpmc on a self-monitoring device: counts through the mmap page equal read()'s, across the
 * counter's 48-bit wrap (the model starts counters 1000 below it), and a page that changes
 * under the reader is retried. */
static void rdpmc_reads(void **state)
{
    (void)state;
    smn_perf_model *m;
    smn_perf_model_opts mo = {.hw_counters = 4, .paranoid = 2, .rdpmc = 1, .rdpmc_races = 3};
    assert_int_equal(smn_perf_model_new(&mo, &m), SOCMON_OK);
    smn_perf_model_set_rate(m, 0, HW_CYCLES, 3.0);
    smn_perf_model_set_rate(m, 0, HW_INSTR, 2.0);
    socmon_perf_attr ev[2] = {hw("cycles", HW_CYCLES, 0), hw("instructions", HW_INSTR, 0)};
    socmon_perf_opts o = {.events = ev, .nevents = 2, .mode = SOCMON_PERF_THREAD, .sys = smn_perf_model_sys(m)};
    socmon_device *d, *r;
    assert_int_equal(socmon_perf_device_new("host", &o, &d), SOCMON_OK);
    o.no_rdpmc = 1;
    assert_int_equal(socmon_perf_device_new("host", &o, &r), SOCMON_OK);
    smn_perf_model_advance(m, 10000); /* 30000 cycles: past the counter's wrap */
    uint64_t v[6], w[6];
    read_all(d, v);
    assert_true(socmon_perf_device_used_rdpmc(d));
    read_all(r, w);
    assert_false(socmon_perf_device_used_rdpmc(r));
    assert_int_equal(v[0], 30000);
    assert_int_equal(v[0], w[0]);
    assert_int_equal(v[3], w[3]);
    socmon_device_free(d);
    socmon_device_free(r);
    smn_perf_model_free(m);
}

/* The decoder refuses every malformed buffer and reads a well-formed one by id. */
static void decode_group(void **state)
{
    (void)state;
    uint64_t ids[2] = {11, 12}, vals[2], en, run;
    uint64_t ok[7] = {2, 1000, 500, 7, 12, 9, 11}; /* members in the other order */
    assert_int_equal(smn_perf_decode_group(ok, sizeof ok, 2, ids, vals, &en, &run), SOCMON_OK);
    assert_true(vals[0] == 9 && vals[1] == 7 && en == 1000 && run == 500);
    assert_int_equal(smn_perf_decode_group(ok, sizeof ok - 8, 2, ids, vals, &en, &run), SOCMON_EIO);
    assert_int_equal(smn_perf_decode_group(ok, 13, 2, ids, vals, &en, &run), SOCMON_EIO);
    uint64_t nr3[7] = {3, 1000, 500, 7, 12, 9, 11};
    assert_int_equal(smn_perf_decode_group(nr3, sizeof nr3, 2, ids, vals, &en, &run), SOCMON_EIO);
    uint64_t badid[7] = {2, 1000, 500, 7, 13, 9, 11};
    assert_int_equal(smn_perf_decode_group(badid, sizeof badid, 2, ids, vals, &en, &run), SOCMON_EIO);
    uint64_t runmore[7] = {2, 100, 500, 7, 12, 9, 11};
    assert_int_equal(smn_perf_decode_group(runmore, sizeof runmore, 2, ids, vals, &en, &run), SOCMON_EIO);
}

/* Scaling on synthetic deltas: the four cases perf distinguishes. */
static void scaling_cases(void **state)
{
    (void)state;
    socmon_counter c[8];
    memset(c, 0, sizeof c);
    const char *names[8] = {"cycles", "cycles--enabled", "cycles--running", "idle", "idle--enabled", "idle--running",
                            "plain", "orphan--running"};
    for (int i = 0; i < 8; i++)
        c[i].name = names[i];
    socmon_scaling *s;
    assert_int_equal(socmon_scaling_new(c, names, 8, &s), SOCMON_OK);
    uint64_t d[8] = {500, 1000, 250, 0, 1000, 0, 42, 5};
    double v[8], p[8];
    socmon_scaling_apply(s, d, v, p);
    assert_true(v[0] == 2000 && p[0] == 25);      /* ran a quarter of the time: x4 */
    assert_true(isnan(v[3]) && p[3] == 0);        /* enabled, never ran: <not counted> */
    assert_true(v[6] == 42 && p[6] == 100);       /* no time counters: exact */
    assert_false(socmon_scaling_has_time(s, 6));
    assert_true(socmon_scaling_is_time(s, 7));    /* a time counter without its event */
    uint64_t e[8] = {500, 0, 0, 0, 0, 0, 0, 0};   /* times not advanced (rdpmc): exact */
    socmon_scaling_apply(s, e, v, p);
    assert_true(v[0] == 500 && p[0] == 100);
    socmon_scaling_free(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(multiplexed_estimates), cmocka_unit_test(groups_that_cannot_fit), cmocka_unit_test(no_pmu),
        cmocka_unit_test(permissions), cmocka_unit_test(rdpmc_reads), cmocka_unit_test(decode_group),
        cmocka_unit_test(scaling_cases),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
