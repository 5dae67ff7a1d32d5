/* Every built-in target's whole schema (all counters, every metric of its metric file) through
 * both Prometheus formats, checked line by line as a strict scraper reads them: each line is
 * metadata, a sample or # EOF; names and label names match Prometheus's grammar, label values are
 * closed and escaped, values parse (NaN, +Inf too); a family's TYPE comes once, before its samples,
 * and its samples follow it without another family in between; OpenMetrics' UNIT is a suffix of its
 * family name and a counter's samples end in _total; no series repeats. The values include 0,
 * 2^64-1 and undefined metrics (a zero interval). tests/export/prometheus_formats.test.sh checks
 * the same outputs with promtool and Prometheus itself. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "export/output.h"
#include "socmon/sample.h"
#include "socmon/target.h"

static size_t name_len(const char *p, int label)
{
    size_t n = 0;
    while ((p[n] >= 'a' && p[n] <= 'z') || (p[n] >= 'A' && p[n] <= 'Z') || p[n] == '_' ||
           (!label && p[n] == ':') || (n && p[n] >= '0' && p[n] <= '9'))
        n++;
    return n;
}

typedef struct checker {
    int om;
    char family[256], type[16];
    char **seen;    /* families and series so far */
    size_t nseen;
} checker;

static int seen(checker *c, const char *s, size_t n)
{
    for (size_t i = 0; i < c->nseen; i++)
        if (strlen(c->seen[i]) == n && memcmp(c->seen[i], s, n) == 0)
            return 1;
    c->seen = realloc(c->seen, (c->nseen + 1) * sizeof *c->seen);
    c->seen[c->nseen++] = strndup(s, n);
    return 0;
}

static void check_line(checker *c, const char *line, size_t len, const char *where)
{
    char l[2048];
    snprintf(l, sizeof l, "%.*s", (int)len, line);
    if (strncmp(l, "# ", 2) == 0) {
        if (strcmp(l, "# EOF") == 0)
            return;
        const char *kw = l + 2, *name = l + 7;
        size_t n = name_len(name, 0);
        if (!n || name[n] != ' ')
            fail_msg("%s: bad metadata line '%s'", where, l);
        if (strncmp(kw, "TYPE ", 5) == 0) {
            char key[300];
            snprintf(key, sizeof key, "TYPE %.*s", (int)n, name);
            if (seen(c, key, strlen(key)))
                fail_msg("%s: family %.*s typed twice", where, (int)n, name);
            snprintf(c->family, sizeof c->family, "%.*s", (int)n, name);
            snprintf(c->type, sizeof c->type, "%s", name + n + 1);
        } else if (strncmp(kw, "UNIT ", 5) == 0) {
            const char *unit = name + n + 1;
            char suffix[128];
            snprintf(suffix, sizeof suffix, "_%s", unit);
            const char *fam = c->om ? name : NULL;
            if (fam && (n < strlen(suffix) || strncmp(name + n - strlen(suffix), suffix, strlen(suffix)) != 0))
                fail_msg("%s: unit '%s' is not a suffix of %.*s", where, unit, (int)n, name);
        } else if (strncmp(kw, "HELP ", 5) != 0) {
            fail_msg("%s: unknown metadata '%s'", where, l);
        }
        return;
    }
    size_t n = name_len(l, 0);
    if (!n)
        fail_msg("%s: sample without a valid name: '%s'", where, l);
    char want[300];
    snprintf(want, sizeof want, "%s%s", c->family,
             c->om && strcmp(c->type, "counter") == 0 ? "_total" : c->om && strcmp(c->type, "info") == 0 ? "_info" : "");
    if (strlen(want) != n || strncmp(l, want, n) != 0)
        fail_msg("%s: sample '%s' outside its family %s (%s)", where, l, c->family, c->type);
    if (!c->om && strcmp(c->type, "counter") == 0 && (n < 6 || strncmp(l + n - 6, "_total", 6) != 0))
        fail_msg("%s: counter sample without _total: '%s'", where, l);
    const char *p = l + n;
    if (*p == '{') {
        do {
            size_t k = name_len(p + 1, 1);
            if (!k || p[1 + k] != '=' || p[2 + k] != '"')
                fail_msg("%s: bad label in '%s'", where, l);
            for (p += 3 + k; *p != '"'; p++) {
                if (!*p)
                    fail_msg("%s: unclosed label value in '%s'", where, l);
                if (*p == '\\' && !strchr("\\\"n", *++p))
                    fail_msg("%s: bad escape in '%s'", where, l);
            }
            p++;
        } while (*p == ',');
        if (*p++ != '}')
            fail_msg("%s: labels not closed in '%s'", where, l);
    }
    if (seen(c, l, (size_t)(p - l)))
        fail_msg("%s: series twice: '%.*s'", where, (int)(p - l), l);
    char *end;
    if (*p++ != ' ' || (strtod(p, &end), end == p || *end))
        fail_msg("%s: bad value in '%s'", where, l);
}

static void check_document(const char *text, int om, const char *where)
{
    checker c = {.om = om};
    size_t len = strlen(text);
    assert_true(len > 0 && text[len - 1] == '\n');
    if (om)
        assert_string_equal(text + len - 6, "# EOF\n");
    for (const char *line = text; *line;) {
        size_t n = strcspn(line, "\n");
        check_line(&c, line, n, where);
        line += n + 1;
    }
    for (size_t i = 0; i < c.nseen; i++)
        free(c.seen[i]);
    free(c.seen);
}

static void render(const char *format, const smn_counter_list *list, const uint64_t *v, const socmon_metricset *ms,
                   const socmon_metrics *m, const double *mv, const char *spec)
{
    smn_sink *s;
    smn_output *o;
    assert_int_equal(smn_sink_memory(&s), SOCMON_OK);
    assert_int_equal(smn_output_open(format, s, NULL, &o), SOCMON_OK);
    smn_run_info run = {.doc = SOCMON_DOC_TOTALS, .target = spec, .device = "dev \"1\"", .workload = "w\\x",
                           .elapsed_ns = 123456789, .simulated = 1, .interval_ns = 1000, .recording = 1,
                           .samples = 7, .missed = 2};
    assert_int_equal(smn_output_begin(o, &run), SOCMON_OK);
    assert_int_equal(smn_output_counters(o, list, v), SOCMON_OK);
    if (m)
        assert_int_equal(smn_output_metrics(o, ms, m, mv), SOCMON_OK);
    assert_int_equal(smn_output_end(o), SOCMON_OK);
    char where[128];
    snprintf(where, sizeof where, "%s %s", spec, format);
    check_document(smn_sink_memory_data(s, NULL), strcmp(format, "openmetrics") == 0, where);
    smn_output_free(o);
    smn_sink_close(s);
}

static void one_target(const char *spec)
{
    socmon_target *t;
    socmon_status ost = socmon_target_open(spec, &t);
    if (ost == SOCMON_ENOTSUP && strncmp(spec, "host", 4) == 0) {
        /* no perf_event here (qemu-user): the host target cannot open, every other one must */
        print_message("skipping %s: %s\n", spec, socmon_errmsg());
        return;
    }
    if (ost != SOCMON_OK)
        fail_msg("opening %s: %s", spec, socmon_errmsg());
    socmon_device *dev = socmon_target_device(t);
    socmon_set *set;
    assert_int_equal(socmon_set_new(dev, NULL, &set), SOCMON_OK);
    size_t n = socmon_set_size(set);
    socmon_counter *c = calloc(n, sizeof *c);
    const char **names = calloc(n, sizeof *names);
    uint64_t *v = calloc(n, sizeof *v);
    for (size_t i = 0; i < n; i++) {
        c[i] = *socmon_set_counter(set, i);
        names[i] = socmon_set_full_name(set, i);
        v[i] = i % 3 == 0 ? 0 : i % 3 == 1 ? UINT64_MAX : i * 1000003;
    }
    smn_counter_list list = {n, c, names, NULL, 0, NULL};
    size_t np = socmon_device_nparams(dev);
    const char **pn = calloc(np + 1, sizeof *pn);
    double *pv = calloc(np + 1, sizeof *pv);
    for (size_t i = 0; i < np; i++)
        assert_int_equal(socmon_device_param_at(dev, i, &pn[i], &pv[i]), SOCMON_OK);
    socmon_metricset *ms = NULL;
    socmon_metrics *m = NULL;
    double *mv = NULL;
    if (socmon_target_metrics(t, &ms) == SOCMON_OK) {
        socmon_metric_schema sch = {.ncounters = n, .counters = c, .nparams = np, .param_names = pn, .param_values = pv};
        assert_int_equal(socmon_metrics_bind(ms, &sch, &m), SOCMON_OK);
        mv = calloc(socmon_metrics_nresults(m) + 1, sizeof *mv);
        /* a zero interval: rates are undefined or infinite, ratios whatever the values give */
        socmon_metrics_eval(m, v, 0.0, mv);
    }
    render("prometheus", &list, v, ms, m, mv, spec);
    render("openmetrics", &list, v, ms, m, mv, spec);
    socmon_metrics_free(m);
    socmon_metricset_free(ms);
    free(mv);
    free(pn);
    free(pv);
    free(c);
    free(names);
    free(v);
    socmon_set_free(set);
    socmon_target_close(t);
}

static void test_every_target(void **state)
{
    const char *src = getenv("SOCMON_SRC");
    for (size_t i = 0; i < socmon_target_count(); i++) {
        const socmon_target_ops *ops = socmon_target_at(i);
        char spec[512];
        if (strcmp(ops->name, "ibex") == 0)   /* a target that runs a program needs one */
            snprintf(spec, sizeof spec, "ibex:program=%s/fuzz/corpus/fuzz_ibex_elf/halt_k.elf,symbols=1",
                     src ? src : ".");
        else
            snprintf(spec, sizeof spec, "%s", ops->name);
        one_target(spec);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_target),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
