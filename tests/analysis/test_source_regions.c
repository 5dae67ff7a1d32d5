/* A regions handle as a source (socmon_source_regions): its totals reach a pipeline's consumers
 * as the two samples its recording would hold, exactly (perf model: time moves only where the
 * test says). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "socmon/analysis.h"
#include "models/perf/perf_kernel_model.h"
#include "socmon/perf.h"

typedef struct got {
    const socmon_source_info *src;
    uint64_t v[64];
    uint64_t intervals;
} got;

static socmon_status on_begin(void *self, const socmon_analysis_info *a, socmon_row_policy *want)
{
    got *g = self;
    (void)want;
    g->src = a->src;
    return SOCMON_OK;
}

static socmon_status on_end(void *self, const socmon_totals *t, const char *reason)
{
    got *g = self;
    (void)reason;
    memcpy(g->v, t->values, g->src->ncounters * sizeof *g->v);
    g->intervals = t->intervals;
    return SOCMON_OK;
}

static uint64_t value(const got *g, const char *name)
{
    for (size_t i = 0; i < g->src->ncounters; i++)
        if (strcmp(g->src->names[i], name) == 0)
            return g->v[i];
    fail_msg("no counter %s", name);
    return 0;
}

static void regions_totals(void **state)
{
    (void)state;
    char path[] = "/tmp/socmon_src_regions_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    smn_perf_model *m;
    smn_perf_model_opts mo = {.hw_counters = 4, .paranoid = 2, .rdpmc = 1};
    assert_int_equal(smn_perf_model_new(&mo, &m), SOCMON_OK);
    smn_perf_model_set_rate(m, 0, 0, 2.0);   /* cycles: 2 per ns */
    socmon_regions_opts o = {.path = path, .events = "cycles:u", .sys = smn_perf_model_sys(m)};
    socmon_regions *r;
    assert_int_equal(socmon_regions_open(&o, &r), SOCMON_OK);
    socmon_source *src = NULL;
    assert_int_equal(socmon_source_regions(r, &src), SOCMON_ENOENT);   /* no region begun yet */
    assert_int_equal(socmon_region_begin(r, "outer"), SOCMON_OK);
    smn_perf_model_advance(m, 1000);
    assert_int_equal(socmon_region_begin(r, "inner"), SOCMON_OK);
    smn_perf_model_advance(m, 500);
    assert_int_equal(socmon_region_end(r, "inner"), SOCMON_OK);
    assert_int_equal(socmon_region_end(r, "outer"), SOCMON_OK);

    assert_int_equal(socmon_source_regions(r, &src), SOCMON_OK);
    assert_string_equal(socmon_source_info_of(src)->kind, "regions");
    socmon_pipeline *p = NULL;
    assert_int_equal(socmon_pipeline_new(socmon_source_info_of(src), NULL, &p), SOCMON_OK);
    got g = {0};
    static const socmon_consumer_ops ops = {.size = sizeof ops, .begin = on_begin, .end = on_end};
    socmon_consumer c = {.ops = &ops, .self = &g};
    assert_int_equal(socmon_pipeline_add(p, &c), SOCMON_OK);
    assert_int_equal(socmon_pipeline_run(p, src), SOCMON_OK);
    assert_int_equal(g.intervals, 1);
    assert_int_equal(value(&g, "outer.cycles_u"), 3000);   /* inclusive: 1000 + 500 ns at 2 per ns */
    assert_int_equal(value(&g, "inner.cycles_u"), 1000);
    assert_int_equal(value(&g, "outer.calls"), 1);
    assert_int_equal(value(&g, "inner.calls"), 1);
    socmon_pipeline_free(p);
    socmon_source_close(src);
    assert_int_equal(socmon_regions_close(r), SOCMON_OK);
    smn_perf_model_free(m);
    unlink(path);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(regions_totals)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
