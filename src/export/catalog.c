/* socmon list's documents (catalog.h). */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "export/catalog.h"
#include "export/table.h"
#include "socmon/metrics.h"
#include "socmon/sample.h"

/* A target's options, from its option table (the one its parser uses), one per line, each
 * after the first aligned under it. */
static void print_options(FILE *fp, const socmon_target_ops *o, const char *first, const char *indent)
{
    size_t len = socmon_options_help(o->options, "", NULL, 0);
    char *text = len ? malloc(len + 1) : NULL;
    if (!text)
        return;
    socmon_options_help(o->options, "", text, len + 1);
    const char *p = text;
    for (int line = 0; *p; line++) {
        size_t n = strcspn(p, "\n");
        fprintf(fp, "%s%.*s\n", line ? indent : first, (int)n, p);
        p += n + (p[n] == '\n');
    }
    free(text);
}

static void print_workloads(FILE *fp, const socmon_target_ops *o, const char *label)
{
    if (!o->workloads || !o->workloads[0])
        return;
    fprintf(fp, "%s", label);
    for (const char *const *w = o->workloads; *w; w++)
        fprintf(fp, " %s", *w);
    fprintf(fp, "\n");
}

void smn_catalog_targets(FILE *fp)
{
    for (size_t i = 0; i < socmon_target_count(); i++) {
        const socmon_target_ops *o = socmon_target_at(i);
        fprintf(fp, "%-8s %s%s\n", o->name, o->desc, o->simulated ? " (model)" : "");
        print_options(fp, o, "         options: ", "                  ");
        print_workloads(fp, o, "         workloads:");
    }
    fprintf(fp, "\n'socmon list TARGET' shows one target; give options as -t NAME:key=value,...\n");
}

void smn_catalog_target(FILE *fp, const socmon_target_ops *o)
{
    fprintf(fp, "%s: %s%s\n\n", o->name, o->desc, o->simulated ? " (model)" : "");
    fprintf(fp, "usage: -t %s[:key=value,...]\n", o->name);
    if (o->options && o->options->name) {
        fprintf(fp, "\noptions:\n");
        print_options(fp, o, "  ", "  ");
    }
    if (o->workloads && o->workloads[0]) {
        fprintf(fp, "\n");
        print_workloads(fp, o, "workloads (-w; the first is the default):");
    }
    if (o->metrics)
        fprintf(fp, "metrics: built-in metrics/%s.json ('socmon list metrics -t %s')\n", o->metrics, o->name);
    fprintf(fp, "default interval: %.6g ms\n",
            (double)(o->default_interval_ns ? o->default_interval_ns : 1000000) / 1e6);
    if (o->list_events)
        o->list_events(fp);
}

/* The counters of set as one JSON document: each counter's name, instance, width, unit,
 * description and, where the device numbers its counters (ESP's "monitor"), that number (null
 * for a counter the vendor has none for). */
static socmon_status counters_json(FILE *fp, socmon_target *t, socmon_set *set)
{
    const socmon_device *dev = socmon_target_device(t);
    const char *iname = socmon_device_index_name(dev);
    json_t *arr = json_array(), *doc = json_pack("{s:s, s:s, s:o}", "target", socmon_target_spec(t), "device",
                                                 socmon_device_name(dev), "counters", arr);
    if (!doc)
        return socmon_fail(SOCMON_ENOMEM, "list: out of memory");
    if (iname)
        json_object_set_new(doc, "index", json_string(iname));
    for (size_t i = 0; i < socmon_set_size(set); i++) {
        const socmon_counter *c = socmon_set_counter(set, i);
        json_t *o = json_pack("{s:s, s:s, s:I, s:s, s:s}", "name", socmon_set_full_name(set, i), "instance",
                              c->instance ? c->instance : "", "width", (json_int_t)c->width, "unit",
                              c->unit ? c->unit : "", "description", c->desc ? c->desc : "");
        uint64_t v;
        if (o && iname)
            json_object_set_new(o, iname, socmon_device_counter_index(dev, socmon_set_index(set, i), &v)
                                              ? json_integer((json_int_t)v) : json_null());
        if (!o || json_array_append_new(arr, o)) {
            json_decref(doc);
            return socmon_fail(SOCMON_ENOMEM, "list: out of memory");
        }
    }
    int bad = json_dumpf(doc, fp, JSON_INDENT(1) | JSON_PRESERVE_ORDER) != 0 || fputc('\n', fp) == EOF;
    json_decref(doc);
    return bad ? socmon_fail(SOCMON_EIO, "list: writing stdout failed") : SOCMON_OK;
}

static void counters_table(FILE *fp, socmon_target *t, socmon_set *set)
{
    const char *hdr[] = {"counter", "bits", "unit", "description"};
    smn_table *tab;
    if (smn_table_new(4, "lrll", hdr, &tab) == SOCMON_OK) {
        for (size_t i = 0; i < socmon_set_size(set); i++) {
            const socmon_counter *c = socmon_set_counter(set, i);
            char bits[8];
            snprintf(bits, sizeof bits, "%u", c->width);
            const char *row[] = {socmon_set_full_name(set, i), bits, c->unit, c->desc};
            smn_table_add(tab, row);
        }
        smn_table_print(tab, fp, "");
        smn_table_free(tab);
    }
    fprintf(fp, "%zu counters on %s\n", socmon_set_size(set), socmon_device_name(socmon_target_device(t)));
}

socmon_status smn_catalog_counters(FILE *fp, const char *spec, const char *events, int json)
{
    socmon_target *t;
    socmon_set *set;
    socmon_status st = socmon_target_open(spec, &t);
    if (st != SOCMON_OK)
        return st;
    if ((st = socmon_set_new(socmon_target_device(t), events, &set)) != SOCMON_OK) {
        socmon_target_close(t);
        return st;
    }
    if (json)
        st = counters_json(fp, t, set);
    else
        counters_table(fp, t, set);
    socmon_set_free(set);
    socmon_target_close(t);
    return st;
}

socmon_status smn_catalog_metrics(FILE *fp, const char *spec)
{
    socmon_target *t;
    socmon_metricset *ms;
    socmon_status st = socmon_target_open(spec, &t);
    if (st != SOCMON_OK)
        return st;
    if ((st = socmon_target_metrics(t, &ms)) != SOCMON_OK) {
        socmon_target_close(t);
        return socmon_fail_prefix(st, "metrics: ");
    }
    for (size_t i = 0; i < socmon_metricset_count(ms); i++) {
        const socmon_metric_def *d = socmon_metricset_def(ms, i);
        fprintf(fp, "%-24s %-8s %s%s\n    = %s\n", d->name, d->unit ? d->unit : "", d->desc ? d->desc : "",
                d->per_instance ? " (per instance)" : "", d->expr);
    }
    socmon_metricset_free(ms);
    socmon_target_close(t);
    return SOCMON_OK;
}

socmon_status smn_catalog_workloads(FILE *fp, const char *spec)
{
    char name[64];
    socmon_spec_name_of(spec, name, sizeof name);
    const socmon_target_ops *o = socmon_target_lookup(name);
    if (!o)
        return socmon_fail(SOCMON_ENOENT, "unknown target '%s' (see 'socmon list targets')", name);
    for (const char *const *w = o->workloads; w && *w; w++)
        fprintf(fp, "%s%s\n", *w, w == o->workloads ? " (default)" : "");
    return SOCMON_OK;
}
