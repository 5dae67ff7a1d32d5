/* Host-side Tensix metrics: metrics/tensix.json evaluated on read results.
 *
 * The formulas live in the metric file; this file only turns result rows
 * into a schema (one counter per bank and name, counts averaged over the
 * threads that read it, each bank's cycles the maximum, as the guide's
 * metrics.py does) and the platform table into parameters. A thread whose
 * banks all counted 0 cycles never started the counters (a one-thread
 * kernel: C++ built for MATH only, the default without LLK_TRISC_*): its
 * zero rows are left out of the means, and the metrics carry a warning
 * naming it (tt-llk's V1 averages them in, diluting every utilisation by
 * the threads that did not run: docs/tensix.md). Every metric of
 * the file is returned, NaN where its counters were not read (the file says
 * "absent": "undefined"); no rows at all give no metrics, as tt-llk's {}. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compat/tensix/llk_perf_host_internal.h"
#include "compat/tensix/llk_perf_text.h"
#include "llk_perf_host.h"
#include "socmon/metrics.h"
#include "socmon/target.h"
#include "socmon/tensix.h"

typedef struct mres {
    const char *name, *unit, *label;
    double value;
} mres;

struct llk_perf_metrics {
    socmon_metricset *ms;      /* owns the strings of res[] */
    const socmon_tensix_platform *pf;
    size_t n;
    mres *res;
    char warning[512];         /* "" or the threads left out of the means */
};

void llk_perf_metrics_free(llk_perf_metrics *m)
{
    if (!m)
        return;
    socmon_metricset_free(m->ms);
    free(m->res);
    free(m);
}

typedef struct agg {
    unsigned bank;
    const char *name;     /* "cycles" or the event name */
    double sum;
    unsigned n;
    uint64_t max;
} agg;

static agg *find_or_add(agg *a, size_t *n, unsigned bank, const char *name)
{
    for (size_t i = 0; i < *n; i++)
        if (a[i].bank == bank && strcmp(a[i].name, name) == 0)
            return &a[i];
    a[*n] = (agg){bank, name, 0, 0, 0};
    return &a[(*n)++];
}

static const char *const thread_names[SOCMON_TENSIX_NTHREADS] = {"UNPACK", "MATH", "PACK"};

/* "threads UNPACK, PACK counted 0 cycles ..." for the threads with rows that never ran. */
static void idle_warning(char *buf, size_t len, const int *has_rows, const int *ran)
{
    size_t n = 0, k = 0;
    char names[64] = "";
    for (unsigned t = 0; t < SOCMON_TENSIX_NTHREADS; t++)
        if (has_rows[t] && !ran[t]) {
            k += (size_t)snprintf(names + k, sizeof names - k, "%s%s", n ? ", " : "", thread_names[t]);
            n++;
        }
    if (n)
        snprintf(buf, len,
                 "%s %s counted 0 cycles in every bank (never started the counters): left out of the means "
                 "(tt-llk's metrics average them in and divide every utilisation by the threads read)",
                 n > 1 ? "threads" : "thread", names);
}

static const struct mres *get(const llk_perf_metrics *m, const char *name);

const char *llk_perf_metrics_warning(const llk_perf_metrics *m)
{
    return m && m->warning[0] ? m->warning : NULL;
}

socmon_status llk_perf_compute_metrics(const llk_perf_results *r, const char *platform,
                                       llk_perf_metrics **out)
{
    if (!r || !out)
        return socmon_fail(SOCMON_EINVAL, "compute_metrics: NULL argument");
    *out = NULL;
    const socmon_tensix_platform *pf = socmon_tensix_platform_at(0);
    socmon_status st = SOCMON_OK;
    if (platform && (st = socmon_tensix_platform_find(platform, &pf)) != SOCMON_OK)
        return socmon_fail_prefix(st, "compute_metrics: ");
    size_t cap = socmon_tensix_nevents() + SOCMON_TENSIX_NBANKS, na = 0;
    agg *a = calloc(cap, sizeof *a);
    socmon_counter *ctr = calloc(cap, sizeof *ctr);
    uint64_t *d = calloc(cap, sizeof *d);
    llk_perf_metrics *m = calloc(1, sizeof *m);
    if (!a || !ctr || !d || !m) {
        st = socmon_fail(SOCMON_ENOMEM, "compute_metrics: out of memory");
        goto out;
    }
    m->pf = pf;
    if (r->n == 0)
        goto out;   /* no results, no metrics: tt-llk's compute_metrics returns {} */
    /* Which threads ran: any defined row with cycles. A thread with rows but no cycles in any
     * bank never started the counters; when no thread ran, nothing is left out (all undefined). */
    int has_rows[SOCMON_TENSIX_NTHREADS] = {0}, ran[SOCMON_TENSIX_NTHREADS] = {0}, anyran = 0;
    for (size_t i = 0; i < r->n; i++) {
        const llk_perf_row *w = &r->rows[i];
        if (w->thread < SOCMON_TENSIX_NTHREADS && !w->undefined) {
            has_rows[w->thread] = 1;
            if (w->cycles > 0)
                ran[w->thread] = anyran = 1;
        }
    }
    if (anyran)
        idle_warning(m->warning, sizeof m->warning, has_rows, ran);
    for (size_t i = 0; i < r->n; i++) {
        const llk_perf_row *w = &r->rows[i];
        if (w->undefined)
            continue;   /* undefined results never enter a metric */
        if (anyran && w->thread < SOCMON_TENSIX_NTHREADS && !ran[w->thread])
            continue;   /* a thread that never ran: not in the means */
        agg *c = find_or_add(a, &na, w->bank, "cycles");
        if (w->cycles > c->max)
            c->max = w->cycles;
        agg *e = find_or_add(a, &na, w->bank, w->counter_name);
        e->sum += w->count;
        e->n++;
    }
    for (size_t i = 0; i < na; i++) {
        ctr[i] = (socmon_counter){.name = a[i].name,
            .instance = socmon_tensix_bank_instance(a[i].bank),
                                  .width = 64};
        d[i] = strcmp(a[i].name, "cycles") == 0 ? a[i].max : (uint64_t)llround(a[i].sum / a[i].n);
    }
    const char *pn[] = {"noc_word_bytes", "unpack_peak_bpc", "pack_peak_bpc", "clock_hz"};
    double pv[] = {pf->noc_word_bytes, pf->unpack_peak_bpc, pf->pack_peak_bpc, pf->clock_hz};
    socmon_metric_schema sch = {
        .ncounters = na, .counters = ctr, .nparams = 4, .param_names = pn, .param_values = pv};
    socmon_metrics *bound = NULL;
    const char *text = socmon_builtin_metrics("tensix");
    if (!text) {
        st = socmon_fail(SOCMON_ENOENT, "compute_metrics: built-in metric file 'tensix' missing");
        goto out;
    }
    if ((st = socmon_metricset_load_string(text, "metrics/tensix.json", &m->ms)) != SOCMON_OK ||
        (st = socmon_metrics_bind(m->ms, &sch, &bound)) != SOCMON_OK)
        goto out;
    m->n = socmon_metrics_nresults(bound);
    double *v = calloc(m->n + 1, sizeof *v);
    m->res = calloc(m->n + 1, sizeof *m->res);
    if (!v || !m->res) {
        free(v);
        socmon_metrics_free(bound);
        st = socmon_fail(SOCMON_ENOMEM, "compute_metrics: out of memory");
        goto out;
    }
    /* Nothing to evaluate when every metric was skipped (no counters they use). */
    st = m->n ? socmon_metrics_eval(bound, d, 0, v) : SOCMON_OK;
    for (size_t i = 0; i < m->n && st == SOCMON_OK; i++) {
        const socmon_metric_def *def = socmon_metrics_result(bound, i)->def;
        m->res[i] = (mres){def->name, def->unit ? def->unit : "", NULL, v[i]};
        if (def->nlabels && !isnan(v[i]) && v[i] >= 0 && v[i] < (double)def->nlabels)
            m->res[i].label = def->labels[(size_t)v[i]];
    }
    free(v);
    socmon_metrics_free(bound);
    /* The banks are the core's, not a thread's: the thread that measured counted every thread's
     * instructions, so threads_ran can say 3 beside a warning that two never started the
     * counters. Both are true; the warning says how they fit together. */
    const mres *tr = st == SOCMON_OK && m->warning[0] ? get(m, "threads_ran") : NULL;
    if (tr) {
        size_t wl = strlen(m->warning);
        snprintf(m->warning + wl, sizeof m->warning - wl,
                 "; the core's banks, which every thread shares, still counted instructions of %.0f of "
                 "the three threads (threads_ran)", tr->value);
    }
out:
    free(a);
    free(ctr);
    free(d);
    if (st != SOCMON_OK) {
        llk_perf_metrics_free(m);
        return st;
    }
    *out = m;
    return SOCMON_OK;
}

size_t llk_perf_metrics_count(const llk_perf_metrics *m)
{
    return m ? m->n : 0;
}

socmon_status llk_perf_metrics_at(const llk_perf_metrics *m, size_t i, const char **name,
                                  double *value, const char **unit, const char **label)
{
    if (!m || i >= m->n)
        return socmon_fail(SOCMON_ERANGE, "metric index %zu out of range 0..%zu", i,
                           m && m->n ? m->n - 1 : 0);
    if (name)
        *name = m->res[i].name;
    if (value)
        *value = m->res[i].value;
    if (unit)
        *unit = m->res[i].unit;
    if (label)
        *label = m->res[i].label;
    return SOCMON_OK;
}

socmon_status llk_perf_metrics_value(const llk_perf_metrics *m, const char *name, double *value)
{
    for (size_t i = 0; m && name && i < m->n; i++)
        if (strcmp(m->res[i].name, name) == 0) {
            *value = m->res[i].value;
            return SOCMON_OK;
        }
    return socmon_fail(SOCMON_ENOENT, "metric '%s' not computed (unknown, or its counters were not read)",
                       name ? name : "(null)");
}

const char *llk_perf_metrics_platform(const llk_perf_metrics *m)
{
    return m && m->pf ? m->pf->name : "";
}

static const struct mres *get(const llk_perf_metrics *m, const char *name)
{
    for (size_t i = 0; i < m->n; i++)
        if (strcmp(m->res[i].name, name) == 0 && !isnan(m->res[i].value))
            return &m->res[i];
    return NULL;
}

static void format_metrics(const llk_perf_metrics *m, tx_text *t)
{
    smn_tx_text_add(t, "\n");
    smn_tx_text_rep(t, "=", 100);
    smn_tx_text_add(t, "\nKERNEL METRICS (platform %s)\n", llk_perf_metrics_platform(m));
    smn_tx_text_rep(t, "=", 100);
    smn_tx_text_add(t, "\n");
    if (m->warning[0])
        smn_tx_text_add(t, "  WARNING: %s\n", m->warning);
    const mres *u = get(m, "unpack_util"), *ub = get(m, "unpack_est_bpc");
    const mres *p = get(m, "pack_util"), *pb = get(m, "pack_est_bpc");
    const mres *nb = get(m, "noc_bytes_per_cycle"), *nt = get(m, "noc_txn_per_cycle");
    const mres *b = get(m, "dominant_bound"), *bs = get(m, "dominant_bound_score");
    const mres *bt = get(m, "dominant_bound_per_thread");
    if (u && ub)
        smn_tx_text_add(t, "  Unpacker  util=%.3f \xe2\x86\x92 est ~%.2f B/cyc\n", u->value, ub->value);
    if (p && pb)
        smn_tx_text_add(t, "  Packer    util=%.3f \xe2\x86\x92 est ~%.2f B/cyc\n", p->value, pb->value);
    if (nb && nt)
        smn_tx_text_add(t, "  NoC       %.2f B/cyc (txn/cyc %.2f)\n", nb->value, nt->value);
    if (b && b->label)
        smn_tx_text_add(t, "  Bound     %s (score %.3f)\n", b->label, bs ? bs->value : NAN);
    if (bt && bt->label)
        smn_tx_text_add(t, "  Per thread %s (risc score from per-thread mean stall and issue rates)\n", bt->label);
    smn_tx_text_add(t, "\n");
    for (size_t i = 0; i < m->n; i++) {
        const mres *r = &m->res[i];
        smn_tx_text_add(t, "  %-24s ", r->name);
        if (r->label)
            smn_tx_text_add(t, "%12s\n", r->label);
        else if (isnan(r->value))
            smn_tx_text_add(t, "%12s  %s\n", "N/A", r->unit);
        else
            smn_tx_text_add(t, "%12.4f  %s\n", r->value, r->unit);
    }
    smn_tx_text_rep(t, "=", 100);
    smn_tx_text_add(t, "\n\n");
}

socmon_status llk_perf_format_metrics(const llk_perf_metrics *m, char *buf, size_t cap, size_t *len)
{
    if (!m)
        return socmon_fail(SOCMON_EINVAL, "format_metrics: metrics is NULL");
    tx_text t = {0};
    format_metrics(m, &t);
    return smn_tx_text_finish(&t, buf, cap, len);
}

socmon_status llk_perf_print_metrics(const llk_perf_metrics *m, FILE *fp)
{
    if (!m)
        return socmon_fail(SOCMON_EINVAL, "print_metrics: metrics is NULL");
    tx_text t = {0};
    format_metrics(m, &t);
    return smn_tx_text_print(&t, fp);
}

socmon_status llk_perf_export_metrics(const llk_perf_metrics *m, const char *filename,
                                      const socmon_kv *params, size_t nparams, const char *worker_id)
{
    if (!m)
        return socmon_fail(SOCMON_EINVAL, "export_metrics: metrics is NULL");
    if (nparams && !params)
        return socmon_fail(SOCMON_EINVAL, "export_metrics: %zu params but params is NULL", nparams);
    if (m->n == 0)
        return SOCMON_OK;   /* as tt-llk's export_metrics on empty results: no file */
    tx_text head = {0}, row = {0};
    for (size_t i = 0; i < m->n; i++) {
        smn_tx_text_add(&head, "%s%s", i ? "," : "", m->res[i].name);
        if (i)
            smn_tx_text_add(&row, ",");
        if (m->res[i].label)
            smn_tx_text_add(&row, "%s", m->res[i].label);
        else if (!isnan(m->res[i].value))
            smn_tx_text_add(&row, "%.10g", m->res[i].value);
    }
    smn_tx_csv_params_header(&head, params, nparams);
    smn_tx_csv_params_values(&row, params, nparams);
    smn_tx_text_add(&row, "\n");
    return smn_tx_csv_export(filename, worker_id, &head, &row);
}
