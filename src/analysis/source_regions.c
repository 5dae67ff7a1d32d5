/* A regions handle's totals as a source (socmon_source_regions): the same two samples its
 * recording holds (zeros at the handle's open, the totals now), so a program can hand its own
 * regions to any consumer (a format, the live store) without a file in between. */
#include <stdlib.h>
#include <string.h>

#include "core/clock.h"
#include "core/error.h"
#include "socmon/analysis.h"

typedef struct gsrc {
    socmon_source_info info;
    socmon_regions *r;
    socmon_device *dev;
    socmon_set *set;
    socmon_counter *c;
    const char **names;
    uint64_t t0;
} gsrc;

static void gsrc_close(void *self)
{
    gsrc *s = self;
    free(s->c), free(s->names);
    socmon_set_free(s->set);
    socmon_device_free(s->dev);
    free(s);
}

static socmon_status gsrc_run(void *self, socmon_pipeline *p)
{
    gsrc *s = self;
    socmon_sample smp = {0};
    uint64_t t1 = smn_mono_ns();
    socmon_status st = socmon_sample_alloc(s->set, &smp);
    if (st == SOCMON_OK) {
        memset(smp.v, 0, smp.n * sizeof *smp.v);
        smp.t_ns = s->t0;
        st = socmon_pipeline_sample(p, 0, &smp, 0);
    }
    if (st == SOCMON_OK && (st = socmon_set_read(s->set, t1 > s->t0 ? t1 : s->t0 + 1, &smp)) == SOCMON_OK)
        st = socmon_pipeline_sample(p, 1, &smp, 0);
    socmon_sample_free(&smp);
    return st;
}

socmon_status socmon_source_regions(socmon_regions *r, socmon_source **out)
{
    if (!r || !out)
        return socmon_fail(SOCMON_EINVAL, "socmon_source_regions: NULL argument");
    *out = NULL;
    gsrc *s = calloc(1, sizeof *s);
    if (!s)
        return socmon_fail(SOCMON_ENOMEM, "source: out of memory");
    s->r = r;
    socmon_status st = socmon_regions_totals(r, &s->dev, &s->t0);
    if (st == SOCMON_OK)
        st = socmon_set_new(s->dev, NULL, &s->set);
    size_t n = s->set ? socmon_set_size(s->set) : 0;
    if (st == SOCMON_OK && (!(s->c = calloc(n + 1, sizeof *s->c)) || !(s->names = calloc(n + 1, sizeof *s->names))))
        st = socmon_fail(SOCMON_ENOMEM, "source: out of memory");
    for (size_t i = 0; st == SOCMON_OK && i < n; i++) {
        s->c[i] = *socmon_set_counter(s->set, i);
        s->names[i] = socmon_set_full_name(s->set, i);
    }
    s->info = (socmon_source_info){.kind = "regions", .target = "regions", .device = "regions", .hardware = 1,
                                   .ncounters = n, .counters = s->c, .names = s->names, .set = s->set};
    static const socmon_source_ops sops = {.size = sizeof sops, .kind = "regions", .run = gsrc_run, .close = gsrc_close};
    if (st == SOCMON_OK)
        st = socmon_source_new(&sops, s, &s->info, out);
    if (st != SOCMON_OK)
        gsrc_close(s);
    return st;
}
