/* socmon list: what can be measured. */
#include <getopt.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "export/table.h"

static void help(FILE *fp)
{
    fprintf(fp, "usage: socmon list [targets|TARGET|counters|metrics|workloads] [-t TARGET] [-e PATTERNS] [--json]\n\n"
                "  targets     built-in targets with their options and workloads (default)\n"
                "  TARGET      one target (esp, zynq, tensix): its options with their ranges and\n"
                "              defaults, workloads, metrics\n"
                "  counters    every counter of a target: name, width, unit, description\n"
                "  metrics     the target's derived metrics with their formulas\n"
                "  workloads   the workloads a model target can run\n\n"
                "  -t, --target SPEC     NAME or NAME:key=value,... (default " SOCMON_DEFAULT_TARGET ")\n"
                "  -e, --events PATTERNS comma-separated globs on counter names (counters only)\n"
                "      --json            counters as one JSON object: each counter's name, instance, width,\n"
                "                        unit, description, and the vendor's number for it where the\n"
                "                        target has one (ESP: \"monitor\", null for model-only counters)\n"
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

/* The counters of set as one JSON document on stdout. */
static int counters_json(socmon_target *t, socmon_set *set)
{
    const socmon_device *dev = socmon_target_device(t);
    const char *iname = socmon_device_index_name(dev);
    json_t *arr = json_array(), *doc = json_pack("{s:s, s:s, s:o}", "target", socmon_target_spec(t), "device",
                                                 socmon_device_name(dev), "counters", arr);
    if (!doc)
        return cli_error("list", socmon_fail(SOCMON_ENOMEM, "list: out of memory"));
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
            return cli_error("list", socmon_fail(SOCMON_ENOMEM, "list: out of memory"));
        }
    }
    int rc = json_dumpf(doc, stdout, JSON_INDENT(1) | JSON_PRESERVE_ORDER) != 0 || fputc('\n', stdout) == EOF;
    json_decref(doc);
    return rc ? cli_error("list", socmon_fail(SOCMON_EIO, "list: writing stdout failed")) : 0;
}

static int list_counters(const char *target, const char *events, int json)
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
    if (json) {
        int rc = counters_json(t, set);
        socmon_set_free(set);
        socmon_target_close(t);
        return rc;
    }
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
    socmon_spec_name_of(target, name, sizeof name);
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
        {"json", no_argument, 0, 'J'}, {"help", no_argument, 0, 'h'}, {0, 0, 0, 0}};
    const char *target = SOCMON_DEFAULT_TARGET, *events = NULL;
    int c, json = 0;
    optind = 1;
    while ((c = getopt_long(argc, argv, "t:e:h", opts, NULL)) != -1) {
        switch (c) {
        case 't': target = optarg; break;
        case 'e': events = optarg; break;
        case 'J': json = 1; break;
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
    if (json && strcmp(what, "counters") != 0) {
        fprintf(stderr, "socmon: list: --json is for 'list counters', not '%s'\n", what);
        return 2;
    }
    if (strcmp(what, "counters") == 0)
        return list_counters(target, events, json);
    if (strcmp(what, "metrics") == 0)
        return list_metrics(target);
    if (strcmp(what, "workloads") == 0)
        return list_workloads(target);
    if (socmon_target_lookup(what))
        return list_target(socmon_target_lookup(what));
    fprintf(stderr, "socmon: list: unknown list '%s' (targets, a target's name, counters, metrics, workloads)\n", what);
    return 2;
}
