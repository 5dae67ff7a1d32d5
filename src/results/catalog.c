/* socmon list's documents of the targets' declarations (catalog.h). */
#include <stdlib.h>
#include <string.h>

#include "results/catalog.h"
#include "socmon/metrics.h"

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

/* The declaration of the target spec names, or NULL with the message. */
static const socmon_target_ops *declared(const char *spec)
{
    char name[64];
    socmon_spec_name_of(spec, name, sizeof name);
    const socmon_target_ops *o = socmon_target_lookup(name);
    if (!o)
        socmon_fail(SOCMON_ENOENT, "unknown target '%s' (see 'socmon list targets')", name);
    return o;
}

socmon_status smn_catalog_workloads(FILE *fp, const char *spec)
{
    const socmon_target_ops *o = declared(spec);
    if (!o)
        return SOCMON_ENOENT;
    for (const char *const *w = o->workloads; w && *w; w++)
        fprintf(fp, "%s%s\n", *w, w == o->workloads ? " (default)" : "");
    return SOCMON_OK;
}

socmon_status smn_catalog_options(FILE *fp, const char *spec)
{
    const socmon_target_ops *t = declared(spec);
    if (!t)
        return SOCMON_ENOENT;
    size_t len = t->options ? socmon_options_help(t->options, "  ", NULL, 0) : 0;
    if (!len) {
        fprintf(fp, "\nTarget '%s' has no options.\n", t->name);
        return SOCMON_OK;
    }
    char *text = malloc(len + 1);
    if (!text)
        return SOCMON_OK;
    socmon_options_help(t->options, "  ", text, len + 1);
    fprintf(fp, "\nOptions of target '%s' (-t %s:key=value,...):\n%s", t->name, t->name, text);
    if (text[len - 1] != '\n')
        fprintf(fp, "\n");
    free(text);
    return SOCMON_OK;
}
