/* A recording's attachment "params" (docs/recording-format.md, "Parameters at the end"): the
 * values a model's parameters reached by the end of the run (the traffic Zynq's workload asked
 * of each slot) replace the header's in the recording source, so report weighs the run as stat
 * did (issue 37); a recording without it keeps the header's; a line naming no parameter of the
 * header, or without a number, is refused naming the line. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "socmon/analysis.h"
#include "socmon/recording.h"
#include "support/fake.h"

static char path[] = "/tmp/socmon-params-XXXXXX";

/* A recording of one counter whose device has two parameters; `params` (NULL: none) attached. */
static void write_file(const char *params)
{
    socmon_device *dev = NULL;
    socmon_set *set = NULL;
    assert_int_equal(socmon_device_new("pdev", &fake_index_ops, NULL, &dev), SOCMON_OK);
    socmon_counter c = {.name = "c0", .instance = "slot0", .desc = "d", .unit = "events", .width = 32, .reg = 0x100};
    assert_int_equal(socmon_device_add_counter(dev, &c, NULL), SOCMON_OK);
    assert_int_equal(socmon_device_set_param(dev, "clock_hz", 1e9), SOCMON_OK);
    assert_int_equal(socmon_device_set_param(dev, "slot0.asked_rd_mbps", 800), SOCMON_OK);
    assert_int_equal(socmon_set_new(dev, NULL, &set), SOCMON_OK);
    int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
    assert_true(fd >= 0);
    socmon_recwriter_opts o = {.size = sizeof o};
    socmon_recwriter *w = NULL;
    assert_int_equal(socmon_recwriter_open(fd, set, "fake", 1000, &o, &w), SOCMON_OK);
    uint64_t v[1] = {0};
    socmon_sample s = {.n = 1, .v = v};
    for (uint64_t i = 0; i < 3; i++) {
        s.t_ns = 1000 * (i + 1);
        v[0] = i;
        assert_int_equal(socmon_recwriter_append(w, &s), SOCMON_OK);
    }
    if (params)
        assert_int_equal(socmon_recwriter_attach(w, "params", params, strlen(params)), SOCMON_OK);
    assert_int_equal(socmon_recwriter_close(w), SOCMON_OK);
    close(fd);
    socmon_set_free(set);
    socmon_device_free(dev);
}

/* The source's value of parameter `name` (the test fails if the open does not give want_st). */
static double param_of(const char *name, socmon_status want_st)
{
    socmon_recording *rec = NULL;
    assert_int_equal(socmon_recording_load(path, &rec), SOCMON_OK);
    socmon_source *src = NULL;
    socmon_status st = socmon_source_recording(rec, &src);
    assert_int_equal(st, want_st);
    double v = -1;
    if (st == SOCMON_OK) {
        const socmon_source_info *in = socmon_source_info_of(src);
        for (size_t i = 0; i < in->nparams; i++)
            if (strcmp(in->param_names[i], name) == 0)
                v = in->param_values[i];
        socmon_source_close(src);
    }
    socmon_recording_free(rec);
    return v;
}

static void test_params_at_end(void **state)
{
    (void)state;
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    write_file(NULL);   /* as the header has them */
    assert_true(param_of("slot0.asked_rd_mbps", SOCMON_OK) == 800);
    write_file("slot0.asked_rd_mbps 318.75\n");   /* what the run asked, over the header's */
    assert_true(param_of("slot0.asked_rd_mbps", SOCMON_OK) == 318.75);
    assert_true(param_of("clock_hz", SOCMON_OK) == 1e9);
    write_file("slot0.asked_rd_mbps 1\nnosuch 2\n");
    param_of("x", SOCMON_EPARSE);
    assert_non_null(strstr(socmon_errmsg(), "attachment 'params' line 2 ('nosuch')"));
    write_file("slot0.asked_rd_mbps many\n");
    param_of("x", SOCMON_EPARSE);
    assert_non_null(strstr(socmon_errmsg(), "line 1 ('slot0.asked_rd_mbps')"));
    write_file("\n");
    param_of("x", SOCMON_EPARSE);
    unlink(path);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_params_at_end),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
