/* socmon report: a recording shown per interval or summed. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli/opts.h"
#include "cli/output.h"
#include "export/table.h"

#define REPORT_OPTS (OPT_INPUT | OPT_FORMAT | OPT_SUMMARY | OPT_ALL | OPT_METRICS)
#define TABLE_METRICS 8
#define TABLE_METRICS_MAX 64

static void help(FILE *fp)
{
    fprintf(fp, "usage: socmon report [options]\n\n"
                "Reads a recording made by 'socmon record'. By default prints one row per interval with\n"
                "the first device-wide metrics (choose others with -M; CSV and JSON hold every metric\n"
                "and, with --all, every counter delta); --summary prints totals, metrics and hot spots\n"
                "over the whole recording.\n\n");
    cli_help_opts(fp, REPORT_OPTS);
}

typedef struct report {
    socmon_recording *rec;
    const char **names;
    char **owned;
    socmon_metricset *ms;
    socmon_metrics *m;
    const socmon_target_ops *ops;
} report;

static void report_free(report *r)
{
    for (size_t i = 0; r->owned && i < socmon_recording_ncounters(r->rec); i++)
        free(r->owned[i]);
    free(r->owned);
    free(r->names);
    socmon_metrics_free(r->m);
    socmon_metricset_free(r->ms);
    socmon_recording_free(r->rec);
}

static socmon_status report_open(report *r, const char *path)
{
    memset(r, 0, sizeof *r);
    socmon_status st = socmon_recording_load(path, &r->rec);
    if (st != SOCMON_OK)
        return st;
    size_t n = socmon_recording_ncounters(r->rec);
    r->names = calloc(n + 1, sizeof *r->names);
    r->owned = calloc(n + 1, sizeof *r->owned);
    if (!r->names || !r->owned)
        return SOCMON_ENOMEM;
    for (size_t i = 0; i < n; i++) {
        const socmon_counter *c = &socmon_recording_counters(r->rec)[i];
        size_t len = strlen(c->instance) + strlen(c->name) + 2;
        if (!(r->owned[i] = malloc(len)))
            return SOCMON_ENOMEM;
        snprintf(r->owned[i], len, "%s%s%s", c->instance, *c->instance ? "." : "", c->name);
        r->names[i] = r->owned[i];
    }
    char tname[64];
    const char *spec = socmon_recording_target(r->rec);
    snprintf(tname, sizeof tname, "%.*s", (int)strcspn(spec, ":"), spec);
    r->ops = socmon_target_lookup(tname);
    const char *text = r->ops ? socmon_builtin_metrics(r->ops->metrics) : NULL;
    if (!text)
        return SOCMON_OK; /* counters only */
    if ((st = socmon_metricset_load_string(text, r->ops->metrics, &r->ms)) != SOCMON_OK)
        return st;
    return cli_bind_metrics(r->ms, socmon_recording_counters(r->rec), n,
                            socmon_recording_nparams(r->rec), socmon_recording_param_names(r->rec),
                            socmon_recording_param_values(r->rec), &r->m);
}

static void print_cell(char sep, int first, const char *s)
{
    if (!first)
        putchar(sep);
    socmon_csv_field(stdout, s, sep);
}

static int per_interval(report *r, const cli_opts *o)
{
    size_t n = socmon_recording_ncounters(r->rec), nm = r->m ? socmon_metrics_nresults(r->m) : 0;
    socmon_sample a = {0}, b = {0};
    a.n = b.n = n;
    a.v = calloc(n + 1, sizeof *a.v);
    b.v = calloc(n + 1, sizeof *b.v);
    uint64_t *d = calloc(n + 1, sizeof *d);
    double *mv = calloc(nm + 1, sizeof *mv);
    socmon_timeline_iter it;
    int rc = 0;
    if (!a.v || !b.v || !d || !mv ||
        socmon_timeline_iter_init(socmon_recording_timeline(r->rec), &it) != SOCMON_OK) {
        fprintf(stderr, "socmon report: out of memory\n");
        free(a.v), free(b.v), free(d), free(mv);
        return 1;
    }
    /* Table mode shows device-wide metrics only; the machine formats show all. */
    int table = o->fmt == OUT_TABLE;
    json_t *rows = o->fmt == OUT_JSON ? json_array() : NULL;
    socmon_table *tab = NULL;
    size_t pick[TABLE_METRICS_MAX], npick = 0;
    if (table) {
        npick = cli_pick_metrics(r->m, o->metrics, pick, o->metrics ? TABLE_METRICS_MAX : TABLE_METRICS);
        if (o->metrics && !npick) {
            fprintf(stderr, "socmon report: -M '%s' matches no metric of this recording\n", o->metrics);
            rc = 2;
            goto out;
        }
        size_t cols = 2 + (npick ? npick : 1);
        char align[TABLE_METRICS_MAX + 4];
        const char *hdr[TABLE_METRICS_MAX + 3];
        char names[TABLE_METRICS_MAX][96];
        memset(align, 'r', cols);
        align[cols] = '\0';
        align[cols - 1] = 'l';
        size_t c = 0;
        hdr[c++] = "time";
        for (size_t k = 0; k < npick; k++) {
            const socmon_metric_result_info *ri = socmon_metrics_result(r->m, pick[k]);
            snprintf(names[k], sizeof names[k], "%s%s%s", ri->instance, *ri->instance ? "." : "", ri->def->name);
            hdr[c++] = names[k];
        }
        if (!npick)
            hdr[c++] = "events";
        hdr[c++] = "flags";
        if (socmon_table_new(cols, align, hdr, &tab) != SOCMON_OK) {
            rc = 1;
            goto out;
        }
    } else if (o->fmt == OUT_CSV) {
        print_cell(o->sep, 1, "t_ns");
        print_cell(o->sep, 0, "interval_ns");
        print_cell(o->sep, 0, "flags");
        for (size_t k = 0; k < nm; k++) {
            const socmon_metric_result_info *ri = socmon_metrics_result(r->m, k);
            char h[160];
            snprintf(h, sizeof h, "%s%s%s", ri->instance, *ri->instance ? "." : "", ri->def->name);
            print_cell(o->sep, 0, h);
        }
        for (size_t i = 0; o->all && i < n; i++)
            print_cell(o->sep, 0, r->names[i]);
        putchar('\n');
    }
    size_t idx = 0;
    uint64_t t0 = 0;
    while (socmon_timeline_iter_next(&it, &b) == SOCMON_OK) {
        if (idx++ == 0) {
            t0 = b.t_ns;
            memcpy(a.v, b.v, n * sizeof *a.v);
            a.t_ns = b.t_ns;
            continue;
        }
        for (size_t i = 0; i < n; i++)
            d[i] = socmon_delta(a.v[i], b.v[i], socmon_recording_counters(r->rec)[i].width);
        uint64_t dt = b.t_ns - a.t_ns;
        if (r->m)
            socmon_metrics_eval(r->m, d, (double)dt / 1e9, mv);
        char flags[48] = "";
        if (b.flags & SOCMON_SAMPLE_MISSED)
            snprintf(flags, sizeof flags, "missed=%u", b.missed);
        if (b.flags & SOCMON_SAMPLE_UNDEF)
            strncat(flags, *flags ? " undef" : "undef", sizeof flags - strlen(flags) - 1);
        if (table) {
            const char *row[TABLE_METRICS_MAX + 3];
            char cells[TABLE_METRICS_MAX + 3][48];
            size_t c = 0;
            cli_format_ns(cells[c], sizeof cells[c], b.t_ns - t0);
            row[c] = cells[c];
            c++;
            for (size_t k = 0; k < npick; k++) {
                const socmon_metric_result_info *ri = socmon_metrics_result(r->m, pick[k]);
                const char *label = cli_metric_label(ri->def, mv[pick[k]]);
                if (label)
                    snprintf(cells[c], sizeof cells[c], "%s", label);
                else
                    socmon_format_value(cells[c], sizeof cells[c], mv[pick[k]]);
                row[c] = cells[c];
                c++;
            }
            if (c == 1) {
                uint64_t sum = 0;
                for (size_t i = 0; i < n; i++)
                    sum += d[i];
                snprintf(cells[c], sizeof cells[c], "%llu", (unsigned long long)sum);
                row[c] = cells[c];
                c++;
            }
            row[c] = flags;
            socmon_table_add(tab, row);
        } else if (o->fmt == OUT_CSV) {
            printf("%llu%c%llu%c", (unsigned long long)b.t_ns, o->sep, (unsigned long long)dt, o->sep);
            socmon_csv_field(stdout, flags, o->sep);
            for (size_t k = 0; k < nm; k++) {
                char v[48];
                socmon_format_value(v, sizeof v, mv[k]);
                print_cell(o->sep, 0, isnan(mv[k]) ? "" : v);
            }
            for (size_t i = 0; o->all && i < n; i++)
                printf("%c%llu", o->sep, (unsigned long long)d[i]);
            putchar('\n');
        } else {
            json_t *row = json_pack("{s:I, s:I, s:s}", "t_ns", (json_int_t)b.t_ns, "interval_ns", (json_int_t)dt,
                                    "flags", flags);
            json_t *mo = json_object();
            for (size_t k = 0; k < nm; k++) {
                const socmon_metric_result_info *ri = socmon_metrics_result(r->m, k);
                char h[160];
                snprintf(h, sizeof h, "%s%s%s", ri->instance, *ri->instance ? "." : "", ri->def->name);
                json_object_set_new(mo, h, isfinite(mv[k]) ? json_real(mv[k]) : json_null());
            }
            json_object_set_new(row, "metrics", mo);
            if (o->all) {
                json_t *co = json_object();
                for (size_t i = 0; i < n; i++)
                    json_object_set_new(co, r->names[i], json_integer((json_int_t)d[i]));
                json_object_set_new(row, "deltas", co);
            }
            json_array_append_new(rows, row);
        }
        memcpy(a.v, b.v, n * sizeof *a.v);
        a.t_ns = b.t_ns;
    }
    if (tab) {
        printf("recording of '%s' (%s), %zu samples\n\n", socmon_recording_target(r->rec),
               socmon_recording_device(r->rec), socmon_timeline_len(socmon_recording_timeline(r->rec)));
        socmon_table_print(tab, stdout, "  ");
        if (!o->metrics && nm > npick)
            printf("\n  %zu of %zu metric results shown; choose with -M 'name*', or use -x, / --json for all\n",
                   npick, nm);
    }
    if (rows) {
        json_t *doc = json_pack("{s:s, s:s, s:I, s:o}", "target", socmon_recording_target(r->rec),
                                "device", socmon_recording_device(r->rec), "interval_ns",
                                (json_int_t)socmon_recording_interval_ns(r->rec), "intervals", rows);
        json_dumpf(doc, stdout, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
        putchar('\n');
        json_decref(doc);
    }
out:
    socmon_table_free(tab);
    socmon_timeline_iter_free(&it);
    free(a.v), free(b.v), free(d), free(mv);
    return rc ? rc : (fflush(stdout) == 0 ? 0 : 1);
}

static int summary(report *r, const cli_opts *o)
{
    size_t n = socmon_recording_ncounters(r->rec), nm = r->m ? socmon_metrics_nresults(r->m) : 0;
    size_t len = socmon_timeline_len(socmon_recording_timeline(r->rec));
    socmon_sample a = {0}, b = {0};
    a.n = b.n = n;
    a.v = calloc(n + 1, sizeof *a.v);
    b.v = calloc(n + 1, sizeof *b.v);
    uint64_t *acc = calloc(n + 1, sizeof *acc);
    double *mv = calloc(nm + 1, sizeof *mv);
    socmon_timeline_iter it;
    if (!a.v || !b.v || !acc || !mv ||
        socmon_timeline_iter_init(socmon_recording_timeline(r->rec), &it) != SOCMON_OK) {
        free(a.v), free(b.v), free(acc), free(mv);
        fprintf(stderr, "socmon report: out of memory\n");
        return 1;
    }
    uint64_t t0 = 0, t1 = 0, missed = 0;
    for (size_t idx = 0; socmon_timeline_iter_next(&it, &b) == SOCMON_OK; idx++) {
        if (idx == 0)
            t0 = b.t_ns;
        else
            for (size_t i = 0; i < n; i++)
                acc[i] += socmon_delta(a.v[i], b.v[i], socmon_recording_counters(r->rec)[i].width);
        missed += b.missed;
        t1 = b.t_ns;
        memcpy(a.v, b.v, n * sizeof *a.v);
    }
    socmon_timeline_iter_free(&it);
    if (r->m)
        socmon_metrics_eval(r->m, acc, (double)(t1 - t0) / 1e9, mv);
    cli_out out = {o->fmt, o->sep, o->all, NULL, r->ms};
    cli_schema sch = {n, socmon_recording_counters(r->rec), r->names};
    cli_out_begin(&out, "Recording summary", socmon_recording_target(r->rec), NULL, t1 - t0);
    if (o->fmt == OUT_TABLE)
        printf("  %zu samples, %llu intervals missed\n\n", len, (unsigned long long)missed);
    else if (o->fmt == OUT_JSON) {
        json_object_set_new(out.json, "samples", json_integer((json_int_t)len));
        json_object_set_new(out.json, "missed", json_integer((json_int_t)missed));
    }
    cli_out_counters(&out, &sch, acc);
    cli_out_metrics(&out, r->m, mv);
    cli_out_hotspots(&out, &sch, acc, r->ops ? r->ops->hotspots : NULL, 10);
    free(a.v), free(b.v), free(acc), free(mv);
    return cli_out_end(&out);
}

int cmd_report(int argc, char **argv)
{
    cli_opts o;
    int rc = cli_parse_opts(argc, argv, REPORT_OPTS, help, &o);
    if (rc >= 0)
        return rc;
    report r;
    socmon_status st = report_open(&r, o.input ? o.input : "socmon.rec");
    if (st != SOCMON_OK)
        rc = cli_error("report", st);
    else
        rc = o.summary ? summary(&r, &o) : per_interval(&r, &o);
    report_free(&r);
    return rc;
}
