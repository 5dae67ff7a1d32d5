/* Prometheus Remote-Write: the queue, the consumer and the sender thread (remote_write.h).
 *
 * Two sides share one mutex. The producer (the pipeline's row callback, on whatever thread runs
 * the pipeline) copies a point into a ring of preallocated slots and signals; it never waits on
 * anything but that lock, which the sender holds only to copy points out. The sender takes up to
 * BATCH points at once (a receiver back after an outage gets the backlog in a few requests),
 * renders each as the text exposition /metrics would serve at that row, gathers the series
 * (rw_encode.c) and posts them; a point leaves the ring when taken, so the producer's "drop the
 * oldest" never races a request in flight. */
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <curl/curl.h>

#include "socmon/status.h"
#include "core/text.h"
#include "export/output.h"
#include "export/prom_text.h"
#include "export/sink.h"
#include "serve/remote_write.h"
#include "serve/rw_encode.h"
#include "serve/rw_internal.h"

enum { BATCH = 32 };

static uint64_t now_ns(clockid_t c)
{
    struct timespec ts;
    clock_gettime(c, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* libcurl's global init is the process's, by libcurl's design: done once, whoever asks first. */
static pthread_once_t curl_once = PTHREAD_ONCE_INIT;
static CURLcode curl_init_rc;

static void init_curl(void)
{
    curl_init_rc = curl_global_init(CURL_GLOBAL_DEFAULT);
}

/* url escaped for a message, with what stands between "://" and an '@' before the path (user
 * and password) as "xxxxx": a URL refused is shown without its credential too. */
static void redacted(char *out, size_t len, const char *url)
{
    char copy[512];
    snprintf(copy, sizeof copy, "%s", url);
    char *scheme = strstr(copy, "://");
    char *host = scheme ? scheme + 3 : copy;
    char *at = strchr(host, '@'), *slash = strchr(host, '/');
    if (at && (!slash || at < slash)) {
        char tail[512];
        snprintf(tail, sizeof tail, "xxxxx%s", at);
        snprintf(host, sizeof copy - (size_t)(host - copy), "%s", tail);
    }
    smn_text_escape(out, len, copy);
}

/* The URL checked: http or https with a host; shown (in logs and errors) with any password
 * replaced, so a log never holds the credential. */
static socmon_status check_url(const char *url, char *shown, size_t len)
{
    CURLU *h = curl_url();
    if (!h)
        return socmon_fail(SOCMON_ENOMEM, "remote write: out of memory");
    char esc[300];
    redacted(esc, sizeof esc, url);
    socmon_status st = SOCMON_OK;
    char *scheme = NULL, *host = NULL, *out = NULL;
    CURLUcode rc = curl_url_set(h, CURLUPART_URL, url, 0);
    if (rc != CURLUE_OK)
        st = socmon_fail(SOCMON_EINVAL, "remote write URL '%s': %s (expected e.g. "
                         "http://HOST:9090/api/v1/write)", esc, curl_url_strerror(rc));
    if (st == SOCMON_OK && (curl_url_get(h, CURLUPART_SCHEME, &scheme, 0) != CURLUE_OK ||
                            (strcmp(scheme, "http") != 0 && strcmp(scheme, "https") != 0)))
        st = socmon_fail(SOCMON_EINVAL, "remote write URL '%s': the scheme is '%s', not http or https", esc,
                         scheme ? scheme : "");
    if (st == SOCMON_OK && (curl_url_get(h, CURLUPART_HOST, &host, 0) != CURLUE_OK || !*host))
        st = socmon_fail(SOCMON_EINVAL, "remote write URL '%s': no host", esc);
    char *pw = NULL;
    if (st == SOCMON_OK && curl_url_get(h, CURLUPART_PASSWORD, &pw, 0) == CURLUE_OK)
        curl_url_set(h, CURLUPART_PASSWORD, "xxxxx", 0);
    curl_free(pw);
    if (st == SOCMON_OK && curl_url_get(h, CURLUPART_URL, &out, 0) == CURLUE_OK)
        smn_text_escape(shown, len, out);
    curl_free(out);
    curl_free(host);
    curl_free(scheme);
    curl_url_cleanup(h);
    return st;
}

static char *dup_or_null(const char *s)
{
    return s ? strdup(s) : NULL;
}

socmon_status smn_rw_new(const smn_rw_opts *o, smn_rw **out)
{
    if (!o || !out || !o->url)
        return socmon_fail(SOCMON_EINVAL, "smn_rw_new: o, o->url or out is NULL");
    *out = NULL;
    char shown[512];
    socmon_status st = check_url(o->url, shown, sizeof shown);
    if (st != SOCMON_OK)
        return st;
    if (o->token && (strchr(o->token, '\n') || strchr(o->token, '\r')))
        return socmon_fail(SOCMON_EINVAL, "remote write: the bearer token holds a line break");
    pthread_once(&curl_once, init_curl);
    if (curl_init_rc != CURLE_OK)
        return socmon_fail(SOCMON_EIO, "remote write: libcurl did not start: %s", curl_easy_strerror(curl_init_rc));
    smn_rw *rw = calloc(1, sizeof *rw);
    if (!rw)
        return socmon_fail(SOCMON_ENOMEM, "remote write: out of memory");
    rw->o = *o;
    rw->o.push_ns = o->push_ns ? o->push_ns : 1000000000u;
    rw->o.queue = o->queue ? o->queue : 600;
    rw->o.timeout_ns = o->timeout_ns ? o->timeout_ns : 10000000000u;
    rw->o.backoff_min_ns = o->backoff_min_ns ? o->backoff_min_ns : 100000000u;
    rw->o.backoff_max_ns = o->backoff_max_ns ? o->backoff_max_ns : 5000000000u;
    if (rw->o.backoff_max_ns < rw->o.backoff_min_ns)
        rw->o.backoff_max_ns = rw->o.backoff_min_ns;
    rw->o.drain_ns = o->drain_ns ? o->drain_ns : 5000000000u;
    rw->o.log = o->log ? o->log : stderr;
    rw->url = strdup(o->url);
    rw->token = dup_or_null(o->token);
    rw->who = strdup(o->who ? o->who : "socmon");
    snprintf(rw->shown, sizeof rw->shown, "%s", shown);
    if (o->instance)
        snprintf(rw->instance, sizeof rw->instance, "%s", o->instance);
    else if (gethostname(rw->instance, sizeof rw->instance - 1) != 0)
        snprintf(rw->instance, sizeof rw->instance, "localhost");
    rw->seed = (unsigned)(now_ns(CLOCK_MONOTONIC) ^ (uintptr_t)rw);
    pthread_mutex_init(&rw->mu, NULL);
    pthread_cond_init(&rw->cv, NULL);
    if (!rw->url || !rw->who || (o->token && !rw->token)) {
        smn_rw_free(rw);
        return socmon_fail(SOCMON_ENOMEM, "remote write: out of memory");
    }
    *out = rw;
    return SOCMON_OK;
}

/* ---- the producer side: the pipeline's consumer ---- */

static void *sender_main(void *arg);

static socmon_status rw_begin(void *self, const socmon_analysis_info *a, socmon_row_policy *want)
{
    smn_rw *rw = self;
    const socmon_source_info *in = a->src;
    size_t k = in->interval_ns ? (size_t)((rw->o.push_ns + in->interval_ns / 2) / in->interval_ns) : 1;
    *want = (socmon_row_policy){.rows = 1, .merge = k ? k : 1};
    if (rw->slots) {
        /* a later run: of the same schema (-r), the same queue and the totals go on; of other
         * counters (the agent's CONFIG), the series pushed so far were of the old ones, so
         * pushing ends here, as the live view's run does */
        if (in->ncounters != rw->nc || (a->metrics ? socmon_metrics_nresults(a->metrics) : 0) != rw->nm ||
            in->counters != rw->info->counters)
            rw->other_schema = 1;
        return SOCMON_OK;
    }
    rw->info = in;
    rw->ms = a->ms;
    rw->metrics = a->metrics;
    rw->nc = in->ncounters;
    rw->nm = a->metrics ? socmon_metrics_nresults(a->metrics) : 0;
    socmon_spec_name_of(in->target ? in->target : "", rw->target, sizeof rw->target);
    size_t per = rw->nc * sizeof(uint64_t) + rw->nm * sizeof(double);
    size_t nslots = rw->o.queue + BATCH;   /* the ring, then the sender's batch */
    rw->slots = calloc(nslots, sizeof *rw->slots);
    rw->values = calloc(nslots, per + 1);
    rw->tot = calloc(rw->nc + 1, sizeof *rw->tot);
    if (!rw->slots || !rw->values || !rw->tot) {
        free(rw->slots);   /* no queue: rows are not taken (rw_row tests slots) */
        free(rw->values);
        free(rw->tot);
        rw->slots = NULL;
        rw->values = NULL;
        rw->tot = NULL;
        return socmon_fail(SOCMON_ENOMEM, "remote write: out of memory for a queue of %zu points of %zu values",
                           rw->o.queue, rw->nc + rw->nm);
    }
    rw->batch = rw->slots + rw->o.queue;
    for (size_t i = 0; i < nslots; i++) {
        rw->slots[i].tot = (uint64_t *)(void *)(rw->values + i * per);
        rw->slots[i].m = (double *)(void *)(rw->values + i * per + rw->nc * sizeof(uint64_t));
    }
    if (pthread_create(&rw->th, NULL, sender_main, rw) != 0) {
        rw->ended = 1;   /* rows are not queued for a sender that is not there */
        return socmon_fail(SOCMON_EIO, "remote write: cannot start the sender thread");
    }
    rw->started = 1;
    return SOCMON_OK;
}

static void copy_point(const smn_rw *rw, smn_rw_point *dst, const smn_rw_point *src)
{
    uint64_t *tot = dst->tot;
    double *m = dst->m;
    *dst = *src;
    dst->tot = tot;
    dst->m = m;
    memcpy(tot, src->tot, rw->nc * sizeof *tot);
    for (size_t i = 0; i < rw->nm; i++)   /* a row without metric values: none known (NaN) */
        m[i] = src->m ? src->m[i] : NAN;
}

static socmon_status rw_row(void *self, const socmon_row *r)
{
    smn_rw *rw = self;
    if (!rw->slots || rw->other_schema)
        return SOCMON_OK;
    for (size_t i = 0; i < rw->nc; i++)
        rw->tot[i] += r->raw[i];
    if (!rw->anchored) {   /* the run's time on the wall clock: the first row is now */
        rw->wall0_ns = (int64_t)now_ns(CLOCK_REALTIME) - (int64_t)r->since_ns;
        rw->anchored = 1;
    }
    smn_rw_point p = {.t_ms = (rw->wall0_ns + (int64_t)r->since_ns) / 1000000, .elapsed_ns = r->since_ns,
                      .samples = r->samples, .missed = r->run_missed, .tot = rw->tot, .m = (double *)r->metrics};
    pthread_mutex_lock(&rw->mu);
    if (!rw->ended) {
        if (rw->count == rw->o.queue) {   /* the receiver is behind: the oldest goes */
            rw->head = (rw->head + 1) % rw->o.queue;
            rw->count--;
            rw->st.dropped_full++;
            rw->st.dropped++;
        }
        copy_point(rw, &rw->slots[(rw->head + rw->count) % rw->o.queue], &p);
        rw->count++;
        rw->st.points++;
        pthread_cond_signal(&rw->cv);
    }
    pthread_mutex_unlock(&rw->mu);
    return SOCMON_OK;
}

static socmon_status rw_end(void *self, const socmon_totals *t, const char *reason)
{
    (void)t;
    (void)reason;
    (void)self;   /* the queue still goes out: smn_rw_finish gives it the time to */
    return SOCMON_OK;
}

static const socmon_consumer_ops rw_ops = {.size = sizeof rw_ops, .begin = rw_begin, .row = rw_row, .end = rw_end};

socmon_consumer smn_rw_consumer(smn_rw *rw)
{
    return (socmon_consumer){.ops = &rw_ops, .self = rw, .optional = 1};
}

/* ---- the sender thread ---- */

/* A log line, said as "<who>: remote write to <url>: <what>". */
static void say(smn_rw *rw, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void say(smn_rw *rw, const char *fmt, ...)
{
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    fprintf(rw->o.log, "%s: remote write to %s: %s\n", rw->who, rw->shown, msg);
    fflush(rw->o.log);
}

/* The exposition of one point: what /metrics would serve at its row. */
static socmon_status render(smn_rw *rw, const smn_rw_point *p, uint64_t dropped, smn_sink *sink)
{
    const socmon_source_info *in = rw->info;
    smn_output *o = NULL;
    smn_output_opts oo = {.sep = ','};
    socmon_status st = smn_output_open("prometheus", sink, &oo, &o);
    smn_run_info run = {.doc = SOCMON_DOC_TOTALS, .title = "live", .target = in->target, .device = in->device,
                        .workload = in->workload, .elapsed_ns = p->elapsed_ns, .interval_ns = in->interval_ns,
                        .ncounters = rw->nc, .simulated = in->simulated, .recording = 1,
                        .samples = (size_t)p->samples, .missed = p->missed};
    smn_counter_list cl = {rw->nc, in->counters, in->names, NULL, 0, NULL};
    if (st == SOCMON_OK)
        st = smn_output_begin(o, &run);
    if (st == SOCMON_OK)
        st = smn_output_counters(o, &cl, p->tot);
    if (st == SOCMON_OK && rw->metrics)
        st = smn_output_metrics(o, rw->ms, rw->metrics, p->m);
    if (st == SOCMON_OK)
        st = smn_output_end(o);
    smn_output_free(o);
    /* the writer's own series, beside the run's: what it could not deliver */
    if (st == SOCMON_OK) {
        smn_sink_puts(sink, "socmon_remote_write_dropped_total{target=\"");
        smn_prom_label_value(sink, rw->target);
        st = smn_sink_printf(sink, "\"} %llu\n", (unsigned long long)dropped);
    }
    return st;
}

static socmon_status build_body(smn_rw *rw, size_t n, uint64_t dropped, uint8_t **body, size_t *len)
{
    smn_rw_batch b = {0};
    smn_rw_label extra[] = {{"instance", rw->instance}, {"job", "socmon"}};
    socmon_status st = SOCMON_OK;
    for (size_t i = 0; st == SOCMON_OK && i < n; i++) {
        smn_sink *sink = NULL;
        st = smn_sink_memory(&sink);
        if (st == SOCMON_OK)
            st = render(rw, &rw->batch[i], dropped, sink);
        size_t tl = 0;
        const char *text = st == SOCMON_OK ? smn_sink_memory_data(sink, &tl) : NULL;
        if (st == SOCMON_OK)
            st = smn_rw_batch_add_text(&b, text ? text : "", tl, rw->batch[i].t_ms, extra, 2);
        smn_sink_close(sink);
    }
    if (st == SOCMON_OK)
        st = smn_rw_batch_encode(&b, body, len);
    smn_rw_batch_clear(&b);
    return st;
}

/* Waits until deadline (CLOCK_REALTIME ns, as the condition variable's clock) or a wake-up; the
 * lock is held. */
static void wait_until(smn_rw *rw, uint64_t deadline)
{
    struct timespec ts = {(time_t)(deadline / 1000000000u), (long)(deadline % 1000000000u)};
    pthread_cond_timedwait(&rw->cv, &rw->mu, &ts);
}

/* The backoff before attempt `tries` (1 after the first failure): doubling from the minimum up
 * to the maximum, of which a random half or more (so that 20 boards that lost one receiver do
 * not all come back in the same millisecond). */
static uint64_t backoff(smn_rw *rw, unsigned tries)
{
    uint64_t b = rw->o.backoff_min_ns;
    for (unsigned i = 1; i < tries && b < rw->o.backoff_max_ns; i++)
        b *= 2;
    if (b > rw->o.backoff_max_ns)
        b = rw->o.backoff_max_ns;
    double r = (double)rand_r(&rw->seed) / ((double)RAND_MAX + 1);
    return b / 2 + (uint64_t)(r * (double)(b / 2));
}

/* Posts one body, giving up at the drain's deadline. Returns 1 sent, 0 dropped (refused or
 * out of time); the lock is not held. */
static int deliver(smn_rw *rw, size_t n, const uint8_t *body, size_t len)
{
    unsigned tries = 0;
    for (;;) {
        uint64_t left = 0;
        pthread_mutex_lock(&rw->mu);
        int draining = rw->draining;
        uint64_t deadline = rw->deadline_ns;
        pthread_mutex_unlock(&rw->mu);
        if (draining) {
            uint64_t now = now_ns(CLOCK_REALTIME);
            if (now >= deadline)
                return 0;
            left = deadline - now;
        }
        smn_rw_answer a;
        smn_rw_post(rw, body, len, left, &a);
        pthread_mutex_lock(&rw->mu);
        rw->st.requests++;
        if (tries)
            rw->st.retries++;
        pthread_mutex_unlock(&rw->mu);
        if (a.ok) {
            pthread_mutex_lock(&rw->mu);
            uint64_t dropped = rw->st.dropped;
            pthread_mutex_unlock(&rw->mu);
            if (rw->failing)
                say(rw, "the receiver takes pushes again (%llu point%s dropped so far)", (unsigned long long)dropped,
                    dropped == 1 ? "" : "s");
            rw->failing = 0;
            return 1;
        }
        pthread_mutex_lock(&rw->mu);
        int late = rw->draining && now_ns(CLOCK_REALTIME) >= rw->deadline_ns;
        pthread_mutex_unlock(&rw->mu);
        if (late)
            return 0;   /* the end's time is up: what is left is counted, not retried */
        if (!a.retry) {
            if (!rw->refusal_said)
                say(rw, "the receiver refused %zu point%s: %s; such a push is not sent again (later refusals are "
                    "counted in the summary, not said)", n, n == 1 ? "" : "s", a.text);
            rw->refusal_said = 1;
            return 0;
        }
        if (!rw->failing)
            say(rw, "%s; retrying with backoff while points queue up (at most %zu, then the oldest are dropped)",
                a.text, rw->o.queue);
        rw->failing = 1;
        uint64_t until = now_ns(CLOCK_REALTIME) + backoff(rw, ++tries);
        pthread_mutex_lock(&rw->mu);
        while (!rw->draining && now_ns(CLOCK_REALTIME) < until)
            wait_until(rw, until);
        if (rw->draining && until > rw->deadline_ns)
            until = rw->deadline_ns;
        while (now_ns(CLOCK_REALTIME) < until)
            wait_until(rw, until);
        pthread_mutex_unlock(&rw->mu);
    }
}

static void *sender_main(void *arg)
{
    smn_rw *rw = arg;
    pthread_mutex_lock(&rw->mu);
    for (;;) {
        while (!rw->count && !rw->draining)
            pthread_cond_wait(&rw->cv, &rw->mu);
        if (!rw->count || (rw->draining && now_ns(CLOCK_REALTIME) >= rw->deadline_ns))
            break;
        size_t n = rw->count < BATCH ? rw->count : BATCH;
        for (size_t i = 0; i < n; i++)
            copy_point(rw, &rw->batch[i], &rw->slots[(rw->head + i) % rw->o.queue]);
        rw->head = (rw->head + n) % rw->o.queue;
        rw->count -= n;
        uint64_t dropped = rw->st.dropped;
        pthread_mutex_unlock(&rw->mu);
        uint8_t *body = NULL;
        size_t len = 0;
        socmon_status st = build_body(rw, n, dropped, &body, &len);
        int sent = 0;
        if (st != SOCMON_OK)
            say(rw, "%s; %zu point%s dropped", socmon_errmsg(), n, n == 1 ? "" : "s");
        else
            sent = deliver(rw, n, body, len);
        free(body);
        pthread_mutex_lock(&rw->mu);
        if (sent) {
            rw->st.sent += n;
        } else {
            rw->st.dropped += n;
            if (rw->draining && now_ns(CLOCK_REALTIME) >= rw->deadline_ns)
                rw->st.left += n;
            else
                rw->st.refused += n;
        }
    }
    rw->st.left += rw->count;   /* what the drain's time did not let out */
    rw->st.dropped += rw->count;
    rw->count = 0;
    rw->ended = 1;
    pthread_mutex_unlock(&rw->mu);
    return NULL;
}

void smn_rw_finish(smn_rw *rw)
{
    if (!rw)
        return;
    pthread_mutex_lock(&rw->mu);
    if (!rw->draining) {
        rw->draining = 1;
        rw->deadline_ns = now_ns(CLOCK_REALTIME) + rw->o.drain_ns;
    }
    pthread_cond_broadcast(&rw->cv);
    pthread_mutex_unlock(&rw->mu);
    if (rw->started) {
        pthread_join(rw->th, NULL);
        rw->started = 0;
    }
    pthread_mutex_lock(&rw->mu);
    rw->ended = 1;
    pthread_mutex_unlock(&rw->mu);
}

void smn_rw_get_stats(smn_rw *rw, smn_rw_stats *out)
{
    pthread_mutex_lock(&rw->mu);
    *out = rw->st;
    pthread_mutex_unlock(&rw->mu);
}

void smn_rw_summary(smn_rw *rw, char *buf, size_t len)
{
    smn_rw_stats s;
    smn_rw_get_stats(rw, &s);
    int n = snprintf(buf, len, "remote write to %s: %llu point%s sent in %llu request%s (%llu retried), %llu dropped",
                     rw->shown, (unsigned long long)s.sent, s.sent == 1 ? "" : "s", (unsigned long long)s.requests,
                     s.requests == 1 ? "" : "s", (unsigned long long)s.retries, (unsigned long long)s.dropped);
    if (n > 0 && (size_t)n < len && s.dropped)
        snprintf(buf + n, len - (size_t)n, " (%llu with the queue full, %llu refused by the receiver, %llu still "
                 "queued at the end)", (unsigned long long)s.dropped_full, (unsigned long long)s.refused,
                 (unsigned long long)s.left);
}

void smn_rw_free(smn_rw *rw)
{
    if (!rw)
        return;
    smn_rw_finish(rw);
    smn_rw_curl_free(rw);
    pthread_mutex_destroy(&rw->mu);
    pthread_cond_destroy(&rw->cv);
    free(rw->slots);
    free(rw->values);
    free(rw->tot);
    free(rw->url);
    free(rw->token);
    free(rw->who);
    free(rw);
}
