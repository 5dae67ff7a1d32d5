/* The A9 PMU's perf_event path (src/drivers/zynq/a9pmu_perf.c) where it can be
 * run: off Arm it says it exists on Arm Linux only; cross-built for 32-bit Arm
 * and run under qemu-user (`make test-arm`), perf_event_open is ENOSYS and the
 * device must fail cleanly with a message saying so; on a real Zynq with the
 * rights the brief names it counts (the same test, run on a board, checks the
 * cycle counter moves). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "drivers/zynq/zynq_drv.h"
#include "models/perf/perf_kernel_model.h"
#include "socmon/socmon.h"
#include "drivers/zynq/a9pmu_internal.h"

#if defined(__linux__) && (defined(__arm__) || defined(__aarch64__))
#include <linux/perf_event.h>
#include <sys/syscall.h>
#include <unistd.h>

/* what the environment's perf_event_open answers for a harmless event of our
 * own (task clock of this thread): ENOSYS under qemu-user */
static int own_perf_errno(void)
{
    struct perf_event_attr a;
    memset(&a, 0, sizeof a);
    a.size = sizeof a;
    a.type = PERF_TYPE_SOFTWARE;
    a.config = PERF_COUNT_SW_TASK_CLOCK;
    int fd = (int)syscall(__NR_perf_event_open, &a, 0, -1, -1, 0);
    if (fd >= 0) {
        close(fd);
        return 0;
    }
    return errno;
}
#endif

static void test_perf_device(void **state)
{
    (void)state;
    smn_za9_config cfg;
    smn_za9_config_spa(&cfg, 666e6);
    cfg.ncores = 1;
    socmon_device *dev = NULL;
    socmon_status st = smn_za9_perf_device_new(&cfg, &dev);
#if defined(__linux__) && (defined(__arm__) || defined(__aarch64__))
    const char *emu = getenv("SOCMON_UNDER_EMULATOR");
    if (own_perf_errno() == ENOSYS) {
        /* qemu-user (the ctest environment of the cross build says so) */
        assert_int_equal(st, SOCMON_ENOTSUP);
        assert_null(dev);
        if (!strstr(socmon_errmsg(), "perf_event_open is not available"))
            fail_msg("message '%s' does not say perf_event_open is missing", socmon_errmsg());
        return;
    }
    /* under an emulator that does pass perf_event_open on, it reaches the host kernel with A9
     * raw events: it may fail any way, but cleanly */
    if (st != SOCMON_OK || (emu && *emu)) {
        assert_int_not_equal(st, SOCMON_OK);
        assert_null(dev);
        if (strncmp(socmon_errmsg(), "a9 perf: ", 9) != 0)
            fail_msg("message '%s' does not start with 'a9 perf: '", socmon_errmsg());
        if (st == SOCMON_EPERM && (!strstr(socmon_errmsg(), "CAP_PERFMON") ||
                                   !strstr(socmon_errmsg(), "perf_event_paranoid")))
            fail_msg("permission message '%s' does not say what is needed", socmon_errmsg());
        return;
    }
    /* a real board with the rights: ccnt then the six events, counting */
    assert_int_equal(socmon_device_ncounters(dev), 7);
    uint32_t idx = 0;
    assert_int_equal(socmon_device_find(dev, "cpu0.ccnt", &idx), SOCMON_OK);
    uint64_t a = 0, b = 0;
    assert_int_equal(socmon_device_read(dev, &idx, 1, &a), SOCMON_OK);
    for (volatile int i = 0; i < 1000000; i = i + 1)
        ;
    assert_int_equal(socmon_device_read(dev, &idx, 1, &b), SOCMON_OK);
    assert_true(b > a);
    socmon_device_free(dev);
#else
    assert_int_equal(st, SOCMON_ENOTSUP);
    assert_null(dev);
    assert_non_null(strstr(socmon_errmsg(), "Arm Linux"));
#endif
}

/* The A9 path as a user of the generic perf driver, through the kernel model on any host: two
 * cores' pinned groups (cycles + the SPA six raw events) on a 7-counter PMU (the A9 has six
 * event counters plus the cycle counter), counting exactly what the model says, under
 * CAP_PERFMON; unprivileged at paranoid 2, the error says what to change; with no PMU, the
 * cycle counter's event is named. */
static void test_perf_path_model(void **state)
{
    (void)state;
    smn_za9_config cfg;
    smn_za9_config_spa(&cfg, 666e6);
    cfg.ncores = 2;
    smn_perf_model *m;
    smn_perf_model_opts mo = {.hw_counters = 7, .paranoid = 2, .privileged = 1};
    assert_int_equal(smn_perf_model_new(&mo, &m), SOCMON_OK);
    smn_perf_model_set_rate(m, 0, 0, 0.666); /* cycles at 666 MHz */
    smn_zynq_part part;
    socmon_status pst = smn_za9_perf_part_new_sys(&cfg, smn_perf_model_sys(m), &part);
    if (pst)
        fail_msg("%s", socmon_errmsg());
    assert_int_equal(part.ncounters, 2 * (1 + cfg.nevents));
    assert_string_equal(part.counters[1 + cfg.nevents].instance, "cpu1");
    assert_string_equal(part.counters[0].name, "ccnt");
    smn_perf_model_advance(m, 1000000);
    uint32_t idx[2] = {0, (uint32_t)(1 + cfg.nevents)};
    uint64_t v[2];
    assert_int_equal(part.read(part.drv, idx, 2, v), SOCMON_OK);
    assert_int_equal(v[0], 666000); /* 1 ms at 666 MHz, each core */
    assert_int_equal(v[1], 666000);
    part.destroy(part.drv);
    smn_perf_model_free(m);

    mo.privileged = 0;
    assert_int_equal(smn_perf_model_new(&mo, &m), SOCMON_OK);
    assert_int_equal(smn_za9_perf_part_new_sys(&cfg, smn_perf_model_sys(m), &part), SOCMON_EPERM);
    assert_non_null(strstr(socmon_errmsg(), "perf_event_paranoid"));
    smn_perf_model_free(m);
    mo = (smn_perf_model_opts){.hw_counters = 0, .privileged = 1};
    assert_int_equal(smn_perf_model_new(&mo, &m), SOCMON_OK);
    assert_int_equal(smn_za9_perf_part_new_sys(&cfg, smn_perf_model_sys(m), &part), SOCMON_ENOTSUP);
    assert_non_null(strstr(socmon_errmsg(), "arm,cortex-a9-pmu"));
    smn_perf_model_free(m);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_perf_device),
        cmocka_unit_test(test_perf_path_model),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
