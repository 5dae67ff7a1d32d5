/* socmon list: what can be measured. */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "export/table.h"

static void help(FILE *fp)
{
    fprintf(fp, "usage: socmon list [targets|TARGET|counters|metrics|workloads] [-t TARGET] [-e PATTERNS]\n\n"
                "  targets     built-in targets with their options and workloads (default)\n"
                "  TARGET      one target (esp, zynq, tensix): its options with their ranges and\n"
                "              defaults, workloads, metrics\n"
                "  counters    every counter of a target: name, width, unit, description\n"
                "  metrics     the target's derived metrics with their formulas\n"
                "  workloads   the workloads a model target can run\n\n"
                "  -t, --target SPEC     NAME or NAME:key=value,... (default " SOCMON_DEFAULT_TARGET ")\n"
                "  -e, --events PATTERNS comma-separated globs on counter names (counters only)\n"
                "  -h, --help\n");
}

/* A target's options, from its option table (the one its parser uses). */
static void print_options(const socmon_target_ops *o, const char *first, const char *indent)
{
    size_t len = socmon_options_help(o->options, "", NULL, 0);
    char *text = len ? malloc(len + 1) : NULL;
    if (!text)
        return;
    socmon_options_help(o->options, "", text, len + 1);
    /* One option per line, aligned under the first. */
    const char *p = text;
    for (int line = 0; *p; line++) {
        size_t n = strcspn(p, "\n");
        printf("%s%.*s\n", line ? indent : first, (int)n, p);
        p += n + (p[n] == '\n');
    }
    free(text);
}

static void print_workloads(const socmon_target_ops *o, const char *label)
{
    if (!o->workloads || !o->workloads[0])
        return;
    printf("%s", label);
    for (const char *const *w = o->workloads; *w; w++)
        printf(" %s", *w);
    printf("\n");
}

static int list_targets(void)
{
    for (size_t i = 0; i < socmon_target_count(); i++) {
        const socmon_target_ops *o = socmon_target_at(i);
        printf("%-8s %s%s\n", o->name, o->desc, o->simulated ? " (model)" : "");
        print_options(o, "         options: ", "                  ");
        print_workloads(o, "         workloads:");
    }
    printf("\n'socmon list TARGET' shows one target; give options as -t NAME:key=value,...\n");
    return 0;
}

static int list_target(const socmon_target_ops *o)
{
    printf("%s: %s%s\n\n", o->name, o->desc, o->simulated ? " (model)" : "");
    printf("usage: -t %s[:key=value,...]\n", o->name);
    if (o->options && o->options->name) {
        printf("\noptions:\n");
        print_options(o, "  ", "  ");
    }
    if (o->workloads && o->workloads[0]) {
        printf("\n");
        print_workloads(o, "workloads (-w; the first is the default):");
    }
    if (o->metrics)
        printf("metrics: built-in metrics/%s.json ('socmon list metrics -t %s')\n", o->metrics, o->name);
    printf("default interval: %.6g ms\n",
           (double)(o->default_interval_ns ? o->default_interval_ns : 1000000) / 1e6);
    if (o->list_events)
        o->list_events(stdout);
    return 0;
}

static int list_counters(const char *target, const char *events)
{
    socmon_target *t;
    socmon_set *set;
    socmon_status st = socmon_target_open(target, &t);
    if (st != SOCMON_OK)
        return cli_error("list", st);
    if ((st = socmon_set_new(socmon_target_device(t), events, &set)) != SOCMON_OK) {
        socmon_target_close(t);
        return cli_error("list", st);
    }
    const char *hdr[] = {"counter", "bits", "unit", "description"};
    socmon_table *tab;
    if (smn_table_new(4, "lrll", hdr, &tab) == SOCMON_OK) {
        for (size_t i = 0; i < socmon_set_size(set); i++) {
            const socmon_counter *c = socmon_set_counter(set, i);
            char bits[8];
            snprintf(bits, sizeof bits, "%u", c->width);
            const char *row[] = {socmon_set_full_name(set, i), bits, c->unit, c->desc};
            smn_table_add(tab, row);
        }
        smn_table_print(tab, stdout, "");
        smn_table_free(tab);
    }
    printf("%zu counters on %s\n", socmon_set_size(set), socmon_device_name(socmon_target_device(t)));
    socmon_set_free(set);
    socmon_target_close(t);
    return 0;
}

static int list_metrics(const char *target)
{
    socmon_target *t;
    socmon_metricset *ms;
    socmon_status st = socmon_target_open(target, &t);
    if (st != SOCMON_OK)
        return cli_error("list", st);
    if ((st = socmon_target_metrics(t, &ms)) != SOCMON_OK) {
        socmon_target_close(t);
        return cli_error("list metrics", st);
    }
    for (size_t i = 0; i < socmon_metricset_count(ms); i++) {
        const socmon_metric_def *d = socmon_metricset_def(ms, i);
        printf("%-24s %-8s %s%s\n    = %s\n", d->name, d->unit ? d->unit : "", d->desc ? d->desc : "",
               d->per_instance ? " (per instance)" : "", d->expr);
    }
    socmon_metricset_free(ms);
    socmon_target_close(t);
    return 0;
}

static int list_workloads(const char *target)
{
    char name[64];
    snprintf(name, sizeof name, "%.*s", (int)strcspn(target, ":"), target);
    const socmon_target_ops *o = socmon_target_lookup(name);
    if (!o) {
        fprintf(stderr, "socmon: list: unknown target '%s' (see 'socmon list targets')\n", name);
        return 1;
    }
    for (const char *const *w = o->workloads; w && *w; w++)
        printf("%s%s\n", *w, w == o->workloads ? " (default)" : "");
    return 0;
}

int cmd_list(int argc, char **argv)
{
    static const struct option opts[] = {
        {"target", required_argument, 0, 't'}, {"events", required_argument, 0, 'e'},
        {"help", no_argument, 0, 'h'}, {0, 0, 0, 0}};
    const char *target = SOCMON_DEFAULT_TARGET, *events = NULL;
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "t:e:h", opts, NULL)) != -1) {
        switch (c) {
        case 't': target = optarg; break;
        case 'e': events = optarg; break;
        case 'h': help(stdout); return 0;
        default: help(stderr); return 2;
        }
    }
    const char *what = optind < argc ? argv[optind] : "targets";
    if (optind + 1 < argc) {
        fprintf(stderr, "socmon: list: unexpected argument '%s'\n", argv[optind + 1]);
        return 2;
    }
    if (strcmp(what, "targets") == 0)
        return list_targets();
    if (strcmp(what, "counters") == 0)
        return list_counters(target, events);
    if (strcmp(what, "metrics") == 0)
        return list_metrics(target);
    if (strcmp(what, "workloads") == 0)
        return list_workloads(target);
    if (socmon_target_lookup(what))
        return list_target(socmon_target_lookup(what));
    fprintf(stderr, "socmon: list: unknown list '%s' (targets, a target's name, counters, metrics, workloads)\n", what);
    return 2;
}
