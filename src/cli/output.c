/* Counter and metric output in the three formats the CLI speaks. */
#include <fnmatch.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli/output.h"
#include "export/table.h"

void cli_out_begin(cli_out *o, const char *kind, const char *target, const char *workload,
                   uint64_t elapsed_ns)
{
    char el[32];
    cli_format_ns(el, sizeof el, elapsed_ns);
    switch (o->fmt) {
    case OUT_TABLE:
        printf("\n %s for target '%s'", kind, target);
        if (workload)
            printf(", workload '%s'", workload);
        if (elapsed_ns)
            printf(" (%s)", el);
        printf(":\n\n");
        break;
    case OUT_CSV:
        printf("type%cname%cinstance%cvalue%cunit\n", o->sep, o->sep, o->sep, o->sep);
        break;
    case OUT_JSON:
        o->json = json_pack("{s:s, s:s, s:s?, s:I}", "kind", kind, "target", target, "workload", workload,
                            "elapsed_ns", (json_int_t)elapsed_ns);
        break;
    }
}

static void csv_row(char sep, const char *type, const char *name, const char *inst, const char *val,
                    const char *unit)
{
    const char *f[] = {type, name, inst, val, unit};
    for (int i = 0; i < 5; i++) {
        if (i)
            putchar(sep);
        socmon_csv_field(stdout, f[i], sep);
    }
    putchar('\n');
}

void cli_out_counters(cli_out *o, const cli_schema *s, const uint64_t *values)
{
    size_t n = s->n, zero = 0;
    json_t *arr = o->fmt == OUT_JSON ? json_array() : NULL;
    socmon_table *tab = NULL;
    const char *hdr[] = {"counter", "value", "unit"};
    if (o->fmt == OUT_TABLE && socmon_table_new(3, "lrl", hdr, &tab) != SOCMON_OK)
        return;
    for (size_t i = 0; i < n; i++) {
        const socmon_counter *c = &s->c[i];
        if (!values[i] && !o->all) {
            zero++;
            continue;
        }
        char v[32];
        snprintf(v, sizeof v, "%llu", (unsigned long long)values[i]);
        if (o->fmt == OUT_TABLE) {
            const char *row[] = {s->names[i], v, c->unit};
            socmon_table_add(tab, row);
        } else if (o->fmt == OUT_CSV) {
            csv_row(o->sep, "counter", s->names[i], c->instance, v, c->unit);
        } else {
            json_array_append_new(arr, json_pack("{s:s, s:s, s:I, s:s}", "name", s->names[i],
                                                 "instance", c->instance, "value", (json_int_t)values[i],
                                                 "unit", c->unit));
        }
    }
    if (tab) {
        socmon_table_print(tab, stdout, "  ");
        if (zero)
            printf("  (%zu counters read 0 and are not shown; --all shows them)\n", zero);
        socmon_table_free(tab);
    }
    if (arr)
        json_object_set_new(o->json, "counters", arr);
}

const char *cli_metric_label(const socmon_metric_def *d, double v)
{
    if (!d->nlabels || isnan(v) || v < 0 || v != floor(v) || v >= (double)d->nlabels)
        return NULL;
    return d->labels[(size_t)v];
}

void cli_out_metrics(cli_out *o, const socmon_metrics *m, const double *values)
{
    if (!m)
        return;
    size_t n = socmon_metrics_nresults(m);
    json_t *arr = o->fmt == OUT_JSON ? json_array() : NULL;
    socmon_table *tab = NULL;
    const char *hdr[] = {"metric", "instance", "value", "unit", "description"};
    if (o->fmt == OUT_TABLE) {
        if (socmon_table_new(5, "llrll", hdr, &tab) != SOCMON_OK)
            return;
        printf("\n Metrics:\n\n");
    }
    size_t hidden = 0;
    for (size_t i = 0; i < n; i++) {
        const socmon_metric_result_info *r = socmon_metrics_result(m, i);
        /* Per-instance results that are 0 or undefined crowd the table (idle
         * tiles); like zero counters they show with --all and in CSV/JSON. */
        if (o->fmt == OUT_TABLE && !o->all && *r->instance && (values[i] == 0 || isnan(values[i]))) {
            hidden++;
            continue;
        }
        const char *label = cli_metric_label(r->def, values[i]);
        char v[48];
        if (label)
            snprintf(v, sizeof v, "%s", label);
        else
            socmon_format_value(v, sizeof v, values[i]);
        const char *unit = label ? "" : (r->def->unit ? r->def->unit : "");
        if (o->fmt == OUT_TABLE) {
            const char *row[] = {r->def->name, r->instance, v, unit, r->def->desc};
            socmon_table_add(tab, row);
        } else if (o->fmt == OUT_CSV) {
            csv_row(o->sep, "metric", r->def->name, r->instance, v, unit);
        } else {
            json_t *j = json_pack("{s:s, s:s, s:s}", "name", r->def->name, "instance", r->instance, "unit",
                                  r->def->unit ? r->def->unit : "");
            json_object_set_new(j, "value", isfinite(values[i]) ? json_real(values[i]) : json_null());
            if (label)
                json_object_set_new(j, "label", json_string(label));
            json_array_append_new(arr, j);
        }
    }
    if (tab) {
        socmon_table_print(tab, stdout, "  ");
        if (hidden)
            printf("  (%zu per-instance results are 0 or undefined and not shown; --all shows them)\n", hidden);
        /* Metrics a counter selection (-e) leaves without inputs: say so, once. */
        size_t nskip = 0, first = 0;
        for (size_t i = 0; o->ms && i < socmon_metricset_count(o->ms); i++)
            if (socmon_metrics_skipped(m, i) && !nskip++)
                first = i;
        if (nskip)
            printf("  (%zu metric%s not computed: %s: %s%s)\n", nskip, nskip == 1 ? "" : "s",
                   socmon_metricset_def(o->ms, first)->name, socmon_metrics_skipped(m, first),
                   nskip > 1 ? "; and others" : "");
        socmon_table_free(tab);
    }
    if (arr)
        json_object_set_new(o->json, "metrics", arr);
}

typedef struct hot {
    size_t i;
    uint64_t v;
} hot;

static int by_value_desc(const void *a, const void *b)
{
    const hot *x = a, *y = b;
    return x->v < y->v ? 1 : x->v > y->v ? -1 : (x->i > y->i) - (x->i < y->i);
}

void cli_out_hotspots(cli_out *o, const cli_schema *s, const uint64_t *values, const char *pattern,
                      size_t n)
{
    if (!pattern)
        return;
    size_t total = s->n, k = 0;
    hot *h = calloc(total + 1, sizeof *h);
    if (!h)
        return;
    size_t matching = 0;
    for (size_t i = 0; i < total; i++)
        if (fnmatch(pattern, s->names[i], 0) == 0) {
            matching++;
            if (values[i])
                h[k++] = (hot){i, values[i]};
        }
    if (!matching) { /* the selection (-e) holds none of these counters */
        free(h);
        return;
    }
    qsort(h, k, sizeof *h, by_value_desc);
    if (k > n)
        k = n;
    json_t *arr = o->fmt == OUT_JSON ? json_array() : NULL;
    if (o->fmt == OUT_TABLE) {
        printf("\n Hot spots (largest %s):\n\n", pattern);
        if (!k)
            printf("  none: every such counter read 0\n");
    }
    for (size_t j = 0; j < k; j++) {
        const socmon_counter *c = &s->c[h[j].i];
        const char *name = s->names[h[j].i];
        char v[32];
        snprintf(v, sizeof v, "%llu", (unsigned long long)h[j].v);
        if (o->fmt == OUT_TABLE)
            printf("  %-28s %14s %s\n", name, v, c->unit);
        else if (o->fmt == OUT_CSV)
            csv_row(o->sep, "hotspot", name, c->instance, v, c->unit);
        else
            json_array_append_new(arr, json_pack("{s:s, s:I, s:s}", "name", name, "value",
                                                 (json_int_t)h[j].v, "unit", c->unit));
    }
    if (arr)
        json_object_set_new(o->json, "hotspots", arr);
    free(h);
}

int cli_out_end(cli_out *o)
{
    if (o->fmt == OUT_JSON) {
        if (!o->json || json_dumpf(o->json, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER) != 0) {
            json_decref(o->json);
            fprintf(stderr, "socmon: could not write JSON output\n");
            return 1;
        }
        putchar('\n');
        json_decref(o->json);
        o->json = NULL;
    } else if (o->fmt == OUT_TABLE) {
        printf("\n");
    }
    return fflush(stdout) == 0 ? 0 : 1;
}
