/* socmon serve: live charts of a run in a web browser, and /metrics for Prometheus.
 *
 * The samples come from a local target (sampled here, paced to the wall clock on a model unless
 * --no-pace) or from a `socmon agent` (--remote); either way they go into the live view
 * (agent/live.h), which the HTTP server (agent/http.h) serves until SIGINT or SIGTERM. The run
 * may end before that (the workload finished, -d elapsed): the page then shows the whole run and
 * says it ended, and the server stays up so it can still be looked at and scraped. */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "agent/http.h"
#include "agent/live.h"
#include "agent/net.h"
#include "cli/opts.h"
#include "cli/program.h"
#include "cli/serve.h"
#include "cli/stop.h"

#define SERVE_OPTS (OPT_TARGET | OPT_EVENTS | OPT_WORKLOAD | OPT_DURATION | OPT_INTERVAL | OPT_INTERVAL_COUNT | \
                    OPT_METRIC_FILE | OPT_PROGRAM | OPT_MAX_CYCLES | OPT_TRACE | OPT_HTTP | OPT_REMOTE)

static void help(FILE *fp)
{
    fprintf(fp, "usage: socmon serve [-t TARGET | --remote HOST:PORT] [--http ADDR:PORT] [options]\n\n"
                "Serves live charts of a run on one time axis to a web browser (open the address it\n"
                "prints), and the counters as monotonic totals and the metrics as gauges on /metrics\n"
                "for Prometheus. The samples come from a local target, sampled every interval (a model\n"
                "is paced to the wall clock, as a board would be, unless --no-pace), or from a 'socmon\n"
                "agent' (--remote). Rows are merged to at most about 20 a second whatever the interval;\n"
                "the last 30 s stay on hand for a page opened late. When the run ends the server stays\n"
                "up until SIGINT (Ctrl-C) or SIGTERM, and exits 0 then.\n\n"
                "The server listens on 127.0.0.1:" SERVE_DEFAULT_PORT " unless --http says otherwise; an\n"
                "address other than loopback needs --token-file (clients then send 'Authorization:\n"
                "Bearer TOKEN' or open the page with ?token=TOKEN). It answers requests whose Host is\n"
                "localhost or an IP address, and the names of --http-host. docs/live.md has the routes.\n\n");
    cli_help_opts(fp, SERVE_OPTS);
}

typedef struct run {
    socmon_live *lv;
    uint64_t seq;
} run;

static socmon_status on_sample(void *user, const socmon_sample *prev, const socmon_sample *cur,
                               const uint64_t *deltas)
{
    run *r = user;
    (void)deltas;
    /* the sampler's first sample reaches a callback only as prev of the second */
    if (r->seq == 0)
        socmon_live_push(r->lv, r->seq++, prev);
    socmon_live_push(r->lv, r->seq++, cur);
    return cli_stop_signal() ? cli_stop_status() : SOCMON_OK;
}

void serve_wait_signal(void)
{
    sigset_t block, old;
    sigemptyset(&block);
    sigaddset(&block, SIGINT);
    sigaddset(&block, SIGTERM);
    sigprocmask(SIG_BLOCK, &block, &old);
    while (!cli_stop_signal())
        sigsuspend(&old);
    sigprocmask(SIG_SETMASK, &old, NULL);
}

int serve_start(serve_http *srv, socmon_live *lv, const cli_opts *o)
{
    char token[NET_TOKEN_MAX];
    socmon_status st;
    if (o->token_file && (st = net_read_token(o->token_file, token)) != SOCMON_OK)
        return cli_error("serve", st);
    int rc = serve_http_start(srv, lv, o->http, o->token_file ? token : NULL, o->http_hosts, (size_t)o->nhttp_hosts,
                              o->port_file, "socmon serve");
    memset(token, 0, sizeof token);
    return rc;
}

/* Samples the local target into the live view; returns the exit code. */
static int serve_local(cli_opts *o)
{
    cli_session cs;
    socmon_status st = cli_session_open(&cs, o);
    if (st != SOCMON_OK)
        return cli_error("serve", st);
    cli_warn_metric_file("serve", o->metric_file, cs.ms, cs.metrics);
    int rc = 0;
    o->interval_ns = cli_interval(cs.target, o->interval_ns, o->interval_set);
    int hw = socmon_target_is_hardware(cs.target);
    socmon_live *lv = NULL;
    serve_http srv = {0};
    st = socmon_live_new_from_set(cs.set, socmon_target_spec(cs.target), o->workload, o->interval_ns, !hw, cs.ms,
                                  NULL, &lv);
    if (st != SOCMON_OK || (st = socmon_target_start(cs.target, o->workload)) != SOCMON_OK)
        rc = cli_error("serve", st);
    if (!rc)
        rc = serve_start(&srv, lv, o);
    if (!rc) {
        cli_program_attach(&cs);
        socmon_sampler_opts so = {o->interval_ns, o->duration_ns, hw || !o->no_pace, o->interval_count};
        run r = {lv, 0};
        st = socmon_sampler_run(cs.target, cs.set, &so, NULL, on_sample, &r, NULL);
        socmon_live_end(lv);
        if (st != SOCMON_OK && !(st == SOCMON_ESTATE && cli_stop_signal()))
            rc = cli_error("serve", st);
        else if (!cli_stop_signal())
            fprintf(stderr, "socmon serve: the run ended after %llu samples; still serving %s (Ctrl-C ends)\n",
                    (unsigned long long)r.seq, socmon_http_url(srv.h));
        if (!rc)
            serve_wait_signal();
        if (!rc)
            rc = cli_program_exit(&cs, "serve");
    }
    serve_http_stop(&srv);
    socmon_live_free(lv);
    cli_session_close(&cs);
    return rc;
}

int cmd_serve(int argc, char **argv)
{
    cli_opts o;
    int rc = cli_parse_opts(argc, argv, SERVE_OPTS, help, &o);
    if (rc >= 0)
        return rc;
    cli_stop_install();
    return o.remote ? serve_remote(&o) : serve_local(&o);
}
