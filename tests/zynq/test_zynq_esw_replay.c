/* Reference check: the register traffic Xilinx's unmodified axipmon driver
 * (embeddedsw 97f2baf7f6) made against the APM model, replayed through
 * socmon's bus; every read must return what the driver saw. How the
 * fixtures were made: tests/zynq/fixtures/esw_axipmon/README.md. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "models/zynq/zynq_model.h"
#include "socmon/socmon.h"

#define STEP_NS 1000u   /* the shim advanced the model this much before each access */

typedef struct replay {
    unsigned reads, writes;
    uint32_t last[0x10000 / 4];   /* last value read per register */
} replay;

static void run(const char *name, int advanced, replay *r)
{
    char path[1024];
    const char *src = getenv("SOCMON_SRC") ? getenv("SOCMON_SRC") : ".";
    snprintf(path, sizeof path, "%s/tests/zynq/fixtures/esw_axipmon/%s", src, name);
    FILE *fp = fopen(path, "r");
    if (!fp)
        fail_msg("cannot open %s", path);
    socmon_zynq_desc d;
    socmon_zynq_desc_default(&d);
    d.nslots = 2;
    if (advanced)
        d.apm.mode = SOCMON_ZAPM_ADVANCED;
    socmon_zynq_soc *soc;
    socmon_bus *bus;
    assert_int_equal(smn_zynq_soc_new(&d, &soc), SOCMON_OK);
    /* exact counts over exactly the advanced time: accesses take no time (issue 13) */
    assert_int_equal(socmon_zynq_soc_set_access_ns(soc, 0), SOCMON_OK);
    assert_int_equal(socmon_bus_model_new(&bus), SOCMON_OK);
    assert_int_equal(smn_zynq_soc_map(soc, bus), SOCMON_OK);
    socmon_zynq_traffic t = {.wr_mbps = 400, .rd_mbps = 800, .burst_bytes = 128, .lat_ns = 250,
        .lat_jitter_ns = 0, .id_base = 0, .id_count = 0};
    assert_int_equal(socmon_zynq_soc_set_traffic(soc, 0, &t), SOCMON_OK);
    memset(r, 0, sizeof *r);
    char line[256];
    unsigned lineno = 0;
    while (fgets(line, sizeof line, fp)) {
        char op;
        unsigned off, val;
        lineno++;
        if (line[0] == '#')
            continue;
        if (sscanf(line, "%c 0x%x 0x%x", &op, &off, &val) != 3 || off >= 0x10000)
            fail_msg("%s:%u: not an access: %s", name, lineno, line);
        assert_int_equal(socmon_zynq_soc_advance(soc, STEP_NS, NULL), SOCMON_OK);
        if (op == 'W') {
            assert_int_equal(socmon_bus_write32(bus, d.apm_base + off, val), SOCMON_OK);
            r->writes++;
        } else {
            uint32_t v = 0;
            assert_int_equal(socmon_bus_read32(bus, d.apm_base + off, &v), SOCMON_OK);
            if (v != val)
                fail_msg("%s:%u: read of 0x%04x gave 0x%08x, the ESW run saw 0x%08x", name,
                         lineno, off, v, val);
            r->last[off / 4] = v;
            r->reads++;
        }
    }
    fclose(fp);
    socmon_bus_free(bus);
    smn_zynq_soc_free(soc);
}

static void test_advanced_polled_example(void **state)
{
    (void)state;
    static replay r;
    run("advanced_polled.trace", 1, &r);
    assert_true(r.reads > 10 && r.writes > 10);
    /* the example's results: metric counter 0 (slot 0 write transactions)
     * and the GCC low word */
    assert_int_equal(r.last[0x100 / 4], 0x12);
    assert_int_equal(r.last[0x004 / 4], 0x190);
    /* its incrementer range read back (SelfTest and SetIncrementerRange) */
    assert_int_equal(r.last[0x108 / 4], 0x00100008);
}

static void test_profile_interval_recipe(void **state)
{
    (void)state;
    static replay r;
    run("profile_interval.trace", 0, &r);
    /* the lapse arrived on XAPM_IXR_SIC_OVERFLOW_MASK (0x2) and IE kept it */
    assert_int_equal(r.last[0x038 / 4], 0x2);
    assert_true(r.last[0x200 / 4] > 0);   /* sampled slot-0 write bytes */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_advanced_polled_example),
        cmocka_unit_test(test_profile_interval_recipe),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
