/* socmon serve --remote: the live view fed by a collector, for an agent on a board.
 *
 * The collector (agent/collector.h) connects, reads the agent's HELLO (its counters, parameters
 * and target) and subscribes from the oldest sample the agent still holds, so the page starts
 * with the recent past: those samples (seq below the HELLO's next_seq) are replayed into the
 * view, cut into rows by their own time since they arrive all at once; later ones are live.
 * Gaps the agent announces become gap events. The collector runs in the main thread; the HTTP
 * server in its own. When the agent's run ends (or the agent goes away, or sends nothing for
 * --agent-timeout) the page says so and the server stays up with what came until SIGINT/SIGTERM:
 * the page is the record of the run, and stopping the server would lose it. */
#include <stdio.h>
#include <string.h>

#include "cli/remote.h"
#include "cli/serve.h"
#include "cli/stop.h"
#include "core/error.h"
#include "core/text.h"

typedef struct feed {
    socmon_live *lv;
    uint64_t live_from;     /* the HELLO's next_seq: samples before it are the agent's past */
    int ended;
} feed;

static socmon_status on_sample(void *user, uint64_t seq, const socmon_sample *s)
{
    feed *f = user;
    (seq < f->live_from ? socmon_live_replay : socmon_live_push)(f->lv, seq, s);
    return SOCMON_OK;
}

static socmon_status on_gap(void *user, const wire_gap *g)
{
    feed *f = user;
    fprintf(stderr, "socmon serve: the agent no longer had samples %llu..%llu (%llu lost); the page shows a gap\n",
            (unsigned long long)g->first_seq, (unsigned long long)(g->first_seq + g->count - 1),
            (unsigned long long)g->count);
    socmon_live_gap(f->lv, g->first_seq, g->count, g->t0_ns, g->t1_ns);
    return SOCMON_OK;
}

static socmon_status on_hello(void *user, const wire_hello *h)
{
    (void)user;
    (void)h;
    return socmon_fail(SOCMON_ESTATE, "the agent now counts other events (a collector's CONFIG): the page's "
                                      "charts end here; restart serve for the new counters");
}

static void on_end(void *user, const wire_end *e)
{
    feed *f = user;
    (void)e;
    f->ended = 1;
}

static int should_stop(void *user)
{
    (void)user;
    return cli_stop_signal();
}

/* The target's built-in metrics (by the name in the agent's target spec), or NULL. */
static socmon_status load_metrics(const wire_hello *h, socmon_metricset **ms)
{
    char tname[64];
    snprintf(tname, sizeof tname, "%.*s", (int)strcspn(h->target, ":"), h->target);
    const socmon_target_ops *ops = socmon_target_lookup(tname);
    const char *text = ops && ops->metrics ? socmon_builtin_metrics(ops->metrics) : NULL;
    *ms = NULL;
    return text ? socmon_metricset_load_string(text, ops->metrics, ms) : SOCMON_OK;
}

int serve_remote(cli_opts *o)
{
    int rc = cli_remote_check_opts("serve", o);
    if (rc)
        return rc;
    if (o->duration_ns || o->no_pace || o->interval_count) {
        fprintf(stderr, "socmon serve: -d, --interval-count and --no-pace are the agent's to choose with --remote "
                        "(give them to 'socmon agent')\n");
        return 2;
    }
    collector *c = NULL;
    socmon_metricset *ms = NULL;
    socmon_live *lv = NULL;
    serve_http srv = {0};
    socmon_status st = cli_remote_connect(o, &c);
    const wire_hello *h = st == SOCMON_OK ? collector_hello(c) : NULL;
    if (st == SOCMON_OK)
        st = load_metrics(h, &ms);
    if (st == SOCMON_OK)
        st = socmon_live_new_from_set(collector_set(c), h->target, *h->workload ? h->workload : NULL,
                                      h->interval_ns, h->simulated, ms, NULL, &lv);
    if (st != SOCMON_OK)
        rc = cli_error("serve", st);
    if (!rc)
        rc = serve_start(&srv, lv, o);
    if (!rc && (st = collector_subscribe(c, WIRE_SUB_OLDEST, 0)) != SOCMON_OK)
        rc = cli_error("serve", st);
    if (!rc) {
        fprintf(stderr, "socmon serve: showing agent %s (target %s, %zu counters)\n", o->remote, h->target,
                h->ncounters);
        feed f = {lv, h->next_seq, 0};
        collector_cb cb = {.user = &f, .sample = on_sample, .gap = on_gap, .hello = on_hello, .end = on_end,
                           .should_stop = should_stop};
        collector_set_idle_timeout(c, cli_remote_idle_ms(o));
        st = collector_run(c, &cb);
        socmon_live_end(lv);
        if (!cli_stop_signal()) {
            if (st == SOCMON_OK)
                fprintf(stderr, "socmon serve: the agent's run ended; still serving %s (Ctrl-C ends)\n",
                        socmon_http_url(srv.h));
            else {
                /* the agent's words may be in the message: escaped for the terminal */
                char msg[4 * 4096];
                socmon_text_escape(msg, sizeof msg, socmon_errmsg());
                fprintf(stderr, "socmon serve: %s; still serving what came (Ctrl-C ends)\n", msg);
            }
            serve_wait_signal();
        }
    }
    serve_http_stop(&srv);
    socmon_live_free(lv);
    socmon_metricset_free(ms);
    collector_close(c);
    return rc;
}
