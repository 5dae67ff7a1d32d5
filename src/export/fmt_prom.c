/* The Prometheus formats: "prometheus" (text exposition 0.0.4) and "openmetrics" (OpenMetrics
 * 1.0), for a document of totals (socmon stat --prometheus, report --summary, and the agent's
 * GET /metrics over its running totals). One family per counter name, so a family sums
 * meaningfully over its series:
 *
 *   socmon_noc_inj_p0_flits_total{target="esp",inst="tile3"} 4096
 *   socmon_l2_hit_rate_percent{target="esp",inst="tile3"} 49.99
 *
 * Counters are monotonic totals (counter type, `_total`), metric results gauges; the unit ends
 * the name (a base unit: ns become seconds, MB/s bytes_per_second) so OpenMetrics' UNIT line
 * is valid; `inst` is the counter's instance (not `instance`, which Prometheus sets to the
 * scraped host:port). The family's name says which counter, so its series carry no label for
 * it: rate(a_total) / rate(b_total) of one instance matches with no ignoring(); only a family
 * holding two counters of one instance (names that read alike once made lower case, or one name
 * in "ns" and "s") adds `counter`, socmon's own spelling, to keep its series apart. A
 * socmon_target info series names the target, device and workload. Families that would share
 * a name get "_2", "_3" before their unit. A timeline has no Prometheus form: begin refuses it.
 * docs/prometheus.md shows a scrape and PromQL. */
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "export/output_format.h"
#include "export/prom_text.h"

typedef struct prom_state {
    int om;                 /* OpenMetrics: family names without _total, UNIT lines, # EOF */
    char target[64];        /* the target's name, the spec up to ':' */
    char **taken;           /* family and sample names used so far */
    size_t ntaken, cap;
} prom_state;

/* A family being written: its name (OpenMetrics' family name; 0.0.4 adds _total to a counter's),
 * its type and unit. */
typedef struct family {
    char name[256];         /* room for any name: prom_text caps its parts (160 + unit) */
    const char *type;       /* "counter", "gauge", "info" */
    const char *unit;       /* the name's unit suffix, or NULL */
} family;

static socmon_status nomem(void)
{
    return socmon_fail(SOCMON_ENOMEM, "prometheus: out of memory");
}

static int taken(const prom_state *ps, const char *name)
{
    for (size_t i = 0; i < ps->ntaken; i++)
        if (strcmp(ps->taken[i], name) == 0)
            return 1;
    return 0;
}

static socmon_status take(prom_state *ps, const char *name)
{
    if (ps->ntaken == ps->cap) {
        size_t cap = ps->cap ? ps->cap * 2 : 64;
        char **t = realloc(ps->taken, cap * sizeof *t);
        if (!t)
            return nomem();
        ps->taken = t;
        ps->cap = cap;
    }
    return (ps->taken[ps->ntaken] = strdup(name)) ? (ps->ntaken++, SOCMON_OK) : nomem();
}

/* The sample name a family's series carry. */
static void sample_name(const family *f, char *buf, size_t len)
{
    const char *add = strcmp(f->type, "counter") == 0 ? "_total" : strcmp(f->type, "info") == 0 ? "_info" : "";
    snprintf(buf, len, "%s%s", f->name, add);
}

/* Names family f from `name` and the unit suffix: the first of name, name_2, ... whose family
 * and sample names no earlier family used; claims both. */
static socmon_status name_family(prom_state *ps, family *f, const char *name, const smn_prom_unit *u)
{
    int counter = strcmp(f->type, "counter") == 0;
    char sample[sizeof f->name + 8];
    for (unsigned n = 1;; n++) {
        f->unit = u ? u->suffix : NULL;
        if (smn_prom_name(f->name, sizeof f->name, name, u, n, counter) != 0)
            return socmon_fail(SOCMON_ERANGE, "prometheus: name '%.60s...' too long", name);
        if (!counter && smn_prom_reserved_suffix(f->name)) {
            /* a gauge may not end as counters do ("x_total"): "x_total_value", unit left out */
            char more[192];
            snprintf(more, sizeof more, "%s_value", name);
            f->unit = NULL;
            if (smn_prom_name(f->name, sizeof f->name, more, NULL, n, 0) != 0)
                return socmon_fail(SOCMON_ERANGE, "prometheus: name '%.60s...' too long", name);
        }
        sample_name(f, sample, sizeof sample);
        if (!taken(ps, f->name) && !taken(ps, sample))
            break;
    }
    socmon_status st = take(ps, f->name);
    return st == SOCMON_OK && strcmp(sample, f->name) != 0 ? take(ps, sample) : st;
}

/* # HELP, # TYPE and # UNIT of a family; help_more (may be NULL) is added to the help text. */
static socmon_status metadata(smn_output *o, const family *f, const char *help, const char *help_more)
{
    prom_state *ps = o->state;
    char name[sizeof f->name + 8];
    if (ps->om)
        snprintf(name, sizeof name, "%s", f->name);
    else
        sample_name(f, name, sizeof name);   /* 0.0.4 has no families: the sample name */
    const char *type = !ps->om && strcmp(f->type, "info") == 0 ? "gauge" : f->type;
    smn_sink_printf(o->sink, "# HELP %s ", name);
    smn_prom_help(o->sink, help && *help ? help : name, ps->om);
    if (help_more)
        smn_prom_help(o->sink, help_more, ps->om);
    smn_sink_printf(o->sink, "\n# TYPE %s %s\n", name, type);
    /* 0.0.4 has no UNIT: there it is a comment, which parsers skip and people read */
    return f->unit ? smn_sink_printf(o->sink, "# UNIT %s %s\n", name, f->unit) : SOCMON_OK;
}

static void label(smn_output *o, int *first, const char *key, const char *value)
{
    if (!value || !*value)
        return;   /* an empty value is an absent label to Prometheus: say nothing */
    smn_sink_printf(o->sink, "%s%s=\"", *first ? "{" : ",", key);
    smn_prom_label_value(o->sink, value);
    smn_sink_putc(o->sink, '"');
    *first = 0;
}

/* One series: name{target,inst[,counter]} value */
static socmon_status series(smn_output *o, const family *f, const char *inst, const char *counter,
                            const char *value)
{
    prom_state *ps = o->state;
    char name[sizeof f->name + 8];
    int first = 1;
    sample_name(f, name, sizeof name);
    smn_sink_puts(o->sink, name);
    label(o, &first, "target", ps->target);
    label(o, &first, "inst", inst);
    label(o, &first, "counter", counter);
    return smn_sink_printf(o->sink, "%s %s\n", first ? "" : "}", value);
}

static socmon_status gauge(smn_output *o, const char *name, const char *unit, const char *help, double v)
{
    family f = {.type = "gauge"};
    char val[40];
    smn_prom_unit u;
    smn_prom_unit_of(unit, &u);
    socmon_status st = name_family(o->state, &f, name, &u);
    if (st == SOCMON_OK)
        st = metadata(o, &f, help, NULL);
    return st == SOCMON_OK ? series(o, &f, NULL, NULL, smn_prom_float(val, sizeof val, smn_prom_scale(&u, v)))
                           : st;
}

static socmon_status counter_total(smn_output *o, const char *name, const char *help, uint64_t v)
{
    family f = {.type = "counter"};
    char val[32];
    socmon_status st = name_family(o->state, &f, name, NULL);
    if (st == SOCMON_OK)
        st = metadata(o, &f, help, NULL);
    snprintf(val, sizeof val, "%llu", (unsigned long long)v);
    return st == SOCMON_OK ? series(o, &f, NULL, NULL, val) : st;
}

/* The run's own series: what was sampled, for how long, and (read back or live) how much. */
static socmon_status prom_begin(smn_output *o)
{
    const smn_run_info *r = &o->run;
    const char *fmt = o->fmt->name;
    if (r->doc != SOCMON_DOC_TOTALS)
        return socmon_fail(SOCMON_EINVAL, "%s: a timeline has no Prometheus form; expose totals (stat, "
                           "report --summary)", fmt);
    prom_state *ps = calloc(1, sizeof *ps);
    if (!ps)
        return nomem();
    o->state = ps;
    ps->om = strcmp(fmt, "openmetrics") == 0;
    const char *spec = r->target ? r->target : "";
    socmon_spec_name_of(spec, ps->target, sizeof ps->target);

    family f = {.type = "info"};
    socmon_status st = name_family(ps, &f, "target", NULL);
    if (st == SOCMON_OK)
        st = metadata(o, &f, "what socmon samples: the target (spec: with its options), device, workload, "
                      "and whether time is a model's simulated time", NULL);
    if (st != SOCMON_OK)
        return st;
    char name[sizeof f.name + 8];
    int first = 1;
    sample_name(&f, name, sizeof name);
    smn_sink_puts(o->sink, name);
    label(o, &first, "target", ps->target);
    label(o, &first, "spec", spec);
    label(o, &first, "device", r->device);
    label(o, &first, "workload", r->workload);
    label(o, &first, "simulated", r->simulated ? "true" : "false");
    smn_sink_printf(o->sink, "%s 1\n", first ? "" : "}");
    st = gauge(o, "elapsed", "ns", r->simulated ? "time the run has lasted, simulated" : "time the run has lasted",
               (double)r->elapsed_ns);
    if (st == SOCMON_OK && r->interval_ns)
        st = gauge(o, "interval", "ns", "the sampling interval; metric values are the latest interval's",
                   (double)r->interval_ns);
    if (st == SOCMON_OK && r->recording)
        st = counter_total(o, "samples", "samples taken", (uint64_t)r->samples);
    if (st == SOCMON_OK && r->recording)
        st = counter_total(o, "missed_intervals", "sampling intervals missed: gaps in the timeline", r->missed);
    return st;
}

/* Groups n items into families (same(a, b): one family) in order of first appearance: family f's
 * members are order[start[f] .. start[f] + count[f]), in their own order. */
typedef struct grouping {
    size_t *fam, *order, *start, *count, nfam;
} grouping;

static socmon_status group(grouping *g, size_t n, int (*same)(const void *ctx, size_t a, size_t b), const void *ctx)
{
    memset(g, 0, sizeof *g);
    g->fam = calloc(n + 1, sizeof *g->fam);
    g->order = calloc(n + 1, sizeof *g->order);
    g->start = calloc(n + 1, sizeof *g->start);
    g->count = calloc(n + 1, sizeof *g->count);
    size_t *rep = calloc(n + 1, sizeof *rep);   /* rep[f]: family f's first item */
    if (!g->fam || !g->order || !g->start || !g->count || !rep) {
        free(rep);
        return nomem();
    }
    for (size_t i = 0; i < n; i++) {
        size_t f = 0;
        while (f < g->nfam && !same(ctx, rep[f], i))
            f++;
        if (f == g->nfam)
            rep[g->nfam++] = i;
        g->fam[i] = f;
        g->count[f]++;
    }
    for (size_t f = 1; f < g->nfam; f++)
        g->start[f] = g->start[f - 1] + g->count[f - 1];
    free(rep);
    size_t *fill = calloc(g->nfam + 1, sizeof *fill);
    if (!fill)
        return nomem();
    for (size_t i = 0; i < n; i++)
        g->order[g->start[g->fam[i]] + fill[g->fam[i]]++] = i;
    free(fill);
    return SOCMON_OK;
}

static void group_free(grouping *g)
{
    free(g->fam);
    free(g->order);
    free(g->start);
    free(g->count);
}

/* Counters share a family when their names read the same with their units (the key: the
 * family name before any "_2"), computed once per counter. */
enum { KEYLEN = 256 };

static int same_counter(const void *ctx, size_t a, size_t b)
{
    const char *keys = ctx;
    return strcmp(keys + a * KEYLEN, keys + b * KEYLEN) == 0;
}

static socmon_status counter_keys(const smn_counter_rows *r, char **out)
{
    char *keys = malloc(r->n * KEYLEN + 1);
    if (!keys)
        return nomem();
    for (size_t j = 0; j < r->n; j++) {
        const socmon_counter *c = &r->list->c[r->idx[j]];
        smn_prom_unit u;
        smn_prom_unit_of(c->unit, &u);
        if (smn_prom_name(keys + j * KEYLEN, KEYLEN, c->name, &u, 1, 1) != 0) {
            free(keys);
            return socmon_fail(SOCMON_ERANGE, "prometheus: counter name '%.60s...' too long", c->name);
        }
    }
    *out = keys;
    return SOCMON_OK;
}

/* 1 if two of family f's members are counters of one instance: then only the counter's own name
 * keeps their series apart. */
static int instance_twice(const smn_counter_rows *r, const grouping *g, size_t f)
{
    for (size_t a = 0; a < g->count[f]; a++)
        for (size_t b = a + 1; b < g->count[f]; b++) {
            const char *ia = r->list->c[r->idx[g->order[g->start[f] + a]]].instance;
            const char *ib = r->list->c[r->idx[g->order[g->start[f] + b]]].instance;
            if (strcmp(ia ? ia : "", ib ? ib : "") == 0)
                return 1;
        }
    return 0;
}

static socmon_status prom_counters(smn_output *o, const smn_counter_rows *r)
{
    grouping g = {0};
    char *keys = NULL;
    socmon_status st = counter_keys(r, &keys);
    if (st == SOCMON_OK)
        st = group(&g, r->n, same_counter, keys);
    for (size_t f = 0; st == SOCMON_OK && f < g.nfam; f++) {
        const socmon_counter *c0 = &r->list->c[r->idx[g.order[g.start[f]]]];
        smn_prom_unit u;
        smn_prom_unit_of(c0->unit, &u);
        family fam = {.type = "counter"};
        char more[96] = "";
        if (!smn_prom_unscaled(&u))
            snprintf(more, sizeof more, " (socmon counts in %s)", c0->unit);
        st = name_family(o->state, &fam, c0->name, &u);
        if (st == SOCMON_OK)
            st = metadata(o, &fam, c0->desc, more);
        int named = instance_twice(r, &g, f);
        for (size_t k = 0; st == SOCMON_OK && k < g.count[f]; k++) {
            size_t i = r->idx[g.order[g.start[f] + k]];
            const socmon_counter *c = &r->list->c[i];
            smn_prom_unit uc;   /* "ns" and "s" share a family: each its own scale */
            smn_prom_unit_of(c->unit, &uc);
            char val[40];
            if (smn_prom_unscaled(&uc))
                snprintf(val, sizeof val, "%llu", (unsigned long long)r->values[i]);
            else
                smn_prom_float(val, sizeof val, smn_prom_scale(&uc, (double)r->values[i]));
            st = series(o, &fam, c->instance, named ? c->name : NULL, val);
        }
    }
    group_free(&g);
    free(keys);
    return st;
}

static int same_metric(const void *ctx, size_t a, size_t b)
{
    const socmon_metrics *m = ctx;
    return socmon_metrics_result(m, a)->def == socmon_metrics_result(m, b)->def;
}

/* A labelled metric's value is an index: its help says what each one means. */
static void label_legend(const socmon_metric_def *d, char *buf, size_t len)
{
    size_t n = (size_t)snprintf(buf, len, " (values:");
    for (size_t i = 0; i < d->nlabels && n < len; i++)
        n += (size_t)snprintf(buf + n, len - n, " %zu=%s", i, d->labels[i]);
    if (n < len)
        snprintf(buf + n, len - n, ")");
}

static socmon_status prom_metrics(smn_output *o, const socmon_metricset *ms, const socmon_metrics *m,
                                  const double *values)
{
    (void)ms;
    size_t n = socmon_metrics_nresults(m);
    grouping g;
    socmon_status st = group(&g, n, same_metric, m);
    for (size_t f = 0; st == SOCMON_OK && f < g.nfam; f++) {
        const socmon_metric_def *d = socmon_metrics_result(m, g.order[g.start[f]])->def;
        smn_prom_unit u;
        smn_prom_unit_of(d->nlabels ? NULL : d->unit, &u);
        char desc[512], more[256] = "";
        if (d->nlabels)
            label_legend(d, more, sizeof more);
        else if (!smn_prom_unscaled(&u))
            snprintf(more, sizeof more, " (socmon shows it in %s)", d->unit);
        /* over a run the value is the run's; live (interval_ns given) the latest interval's */
        const char *help = o->run.interval_ns ? (d->desc ? d->desc : "") : smn_metric_desc(o, d, desc, sizeof desc);
        family fam = {.type = "gauge"};
        st = name_family(o->state, &fam, d->name, &u);
        if (st == SOCMON_OK)
            st = metadata(o, &fam, help, more);
        for (size_t k = 0; st == SOCMON_OK && k < g.count[f]; k++) {
            size_t i = g.order[g.start[f] + k];
            char val[40];
            st = series(o, &fam, socmon_metrics_result(m, i)->instance, NULL,
                        smn_prom_float(val, sizeof val, smn_prom_scale(&u, values[i])));
        }
    }
    group_free(&g);
    return st;
}

static socmon_status prom_end(smn_output *o)
{
    prom_state *ps = o->state;
    return ps && ps->om ? smn_sink_puts(o->sink, "# EOF\n") : SOCMON_OK;
}

static void prom_release(smn_output *o)
{
    prom_state *ps = o->state;
    for (size_t i = 0; ps && i < ps->ntaken; i++)
        free(ps->taken[i]);
    if (ps)
        free(ps->taken);
    free(ps);
    o->state = NULL;
}

const smn_output_format smn_format_prometheus = {
    .name = "prometheus", .begin = prom_begin, .counters = prom_counters, .metrics = prom_metrics,
    .end = prom_end, .release = prom_release,
};

const smn_output_format smn_format_openmetrics = {
    .name = "openmetrics", .begin = prom_begin, .counters = prom_counters, .metrics = prom_metrics,
    .end = prom_end, .release = prom_release,
};
