/* Issue 37, item 15: every counter of every target declares its maximum rate
 * (socmon_counter.max_rate_hz > 0), which the pipeline judges each delta by (an implausible one
 * is flagged, docs/architecture.md). The models of every target and, where perf_event opens on
 * this machine, the host's. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>

#include "socmon/device.h"
#include "socmon/target.h"

static void all_rated(const char *spec, int may_fail)
{
    socmon_target *t = NULL;
    socmon_status st = socmon_target_open(spec, &t);
    if (st != SOCMON_OK && may_fail) {
        printf("%s: not opened here (%s): skipped\n", spec, socmon_errmsg());
        return;
    }
    assert_int_equal(st, SOCMON_OK);
    const socmon_device *dev = socmon_target_device(t);
    size_t n = socmon_device_ncounters(dev);
    assert_true(n > 0);
    for (size_t i = 0; i < n; i++) {
        const socmon_counter *c = socmon_device_counter(dev, (uint32_t)i);
        if (!(c->max_rate_hz > 0 && isfinite(c->max_rate_hz)))
            fail_msg("%s: counter %s.%s declares no maximum rate (%g)", spec, c->instance, c->name, c->max_rate_hz);
    }
    socmon_target_close(t);
}

static void test_models(void **state)
{
    (void)state;
    all_rated("esp", 0);
    all_rated("esp:soc=esp_4x4", 0);
    all_rated("tensix", 0);
    all_rated("zynq", 0);
    all_rated("zynq:apm_mode=advanced", 0);
    all_rated("ibex", 0);
    all_rated("ibex:config=maxperf,mhpm_num=29", 0);
}

static void test_host(void **state)
{
    (void)state;
    all_rated("host", 1);   /* perf_event may be closed to this user (perf_event_paranoid) */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_models),
        cmocka_unit_test(test_host),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
