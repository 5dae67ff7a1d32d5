/* socmon serve: live charts of a run in a web browser, and /metrics for Prometheus.
 *
 * The samples come from a local target (sampled here, paced to the wall clock on a model unless
 * --no-pace) or from a `socmon agent` (--remote); either way they go into the live view
 * (serve/live.h), which the HTTP server (serve/http.h) serves until SIGINT or SIGTERM. The run
 * may end before that (the workload finished, -d elapsed): the page then shows the whole run and
 * says it ended, and the server stays up so it can still be looked at and scraped. */
#include <signal.h>
#include <string.h>

#include "serve/net.h"
#include "cli/help.h"
#include "cli/cli_rw.h"
#include "cli/program.h"
#include "cli/serve.h"
#include "cli/open_source.h"
#include "cli/stop.h"
#include "core/text.h"

#define SERVE_OPTS (OPT_TARGET | OPT_EVENTS | OPT_WORKLOAD | OPT_DURATION | OPT_INTERVAL | OPT_INTERVAL_COUNT | \
                    OPT_METRIC_FILE | OPT_PROGRAM | OPT_MAX_CYCLES | OPT_TRACE | OPT_HTTP | OPT_REMOTE | \
                    OPT_REMOTE_WRITE)

static void help(FILE *fp)
{
    cli_help_intro(fp, "serve");
    cli_help_opts(fp, SERVE_OPTS);
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

int serve_start(serve_http *srv, smn_live *lv, const cli_opts *o)
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

/* What the source says as it ends: a local run's end, an agent's end or failure. The page stays
 * up with what came: it is the record of the run, and stopping the server would lose it. */
static void say_end(const cli_source *src, socmon_status st, const serve_http *srv)
{
    if (cli_stop_signal())
        return;
    if (st != SOCMON_OK) {
        char msg[4 * 4096];   /* an agent's words may be in the message: escaped for the terminal */
        smn_text_escape(msg, sizeof msg, socmon_errmsg());
        fprintf(stderr, "socmon serve: %s; still serving what came (Ctrl-C ends)\n", msg);
    } else if (src->remote) {
        fprintf(stderr, "socmon serve: the agent's run ended; still serving %s (Ctrl-C ends)\n", socmon_http_url(srv->h));
    } else {
        fprintf(stderr, "socmon serve: the run ended after %llu samples; still serving %s (Ctrl-C ends)\n",
                (unsigned long long)smn_session_totals(src->sess)->samples, socmon_http_url(srv->h));
    }
}

/* An agent's gap, said on the terminal as the page shows it. */
static socmon_status say_gap(void *self, const socmon_gap *g)
{
    (void)self;
    fprintf(stderr, "socmon serve: the agent no longer had samples %llu..%llu (%llu lost); the page shows a gap\n",
            (unsigned long long)g->first_seq, (unsigned long long)(g->first_seq + g->count - 1),
            (unsigned long long)g->count);
    return SOCMON_OK;
}

static const socmon_consumer_ops gap_notes = {.size = sizeof gap_notes, .gap = say_gap};

/* The source's samples into the live view, served until SIGINT/SIGTERM; returns the exit code. */
static int serve(cli_opts *o, smn_rw *rw)
{
    cli_source src;
    int rc = cli_source_open(&src, o, "serve", (cli_how){.rule = SMN_STEP_ROWS, .pace = 1, .until_stopped = 1,
                                                       .totals = SMN_TOTALS_NEVER});
    const socmon_source_info *in = src.info;
    smn_live *lv = NULL;
    serve_http srv = {0};
    smn_live_schema ls = {0};
    if (!rc) {
        ls = (smn_live_schema){.target = in->target, .device = in->device, .workload = in->workload,
                                  .interval_ns = in->interval_ns, .simulated = in->simulated,
                                  .ncounters = in->ncounters, .counters = in->counters, .names = in->names,
                                  .nparams = in->nparams, .param_names = in->param_names,
                                  .param_values = in->param_values, .ms = src.ms};
        socmon_status st = socmon_live_new(&ls, NULL, &lv);
        rc = st == SOCMON_OK ? 0 : cli_error("serve", st);
        if (!rc)
            cli_warn_metric_file("serve", o->metric_file, src.ms, socmon_live_metrics(lv));
    }
    if (!rc)
        rc = serve_start(&srv, lv, o);
    if (!rc) {
        if (src.remote)
            fprintf(stderr, "socmon serve: showing agent %s (target %s, %zu counters)\n", o->remote, in->target,
                    in->ncounters);
        smn_session_program_output(src.sess, cli_program_to_stdout, NULL);
        socmon_consumer notes = {.ops = &gap_notes}, view = smn_live_consumer(lv);
        socmon_status st = src.remote ? smn_session_add(src.sess, &notes) : SOCMON_OK;
        if (st == SOCMON_OK)
            st = smn_session_add(src.sess, &view);
        if (st == SOCMON_OK)
            st = cli_rw_add(rw, src.sess);
        if (st == SOCMON_OK)
            st = smn_session_run(src.sess);
        socmon_live_end(lv);
        cli_rw_close(rw, "serve", stderr);   /* the run's end is the pushes' end */
        rw = NULL;
        if (st != SOCMON_OK && !src.remote)
            rc = cli_source_error(&src, "serve", st);
        if (!rc) {   /* a local run that failed was said above, and ends serve */
            say_end(&src, st, &srv);
            if (!cli_stop_signal())
                serve_wait_signal();
        }
        smn_session_end e;
        smn_session_exit(src.sess, &e);
        if (!rc)
            rc = cli_program_exit("serve", &e);
    }
    serve_http_stop(&srv);
    smn_rw_free(rw);
    socmon_live_free(lv);
    cli_source_close(&src);
    return rc;
}

int cmd_serve(int argc, char **argv)
{
    cli_opts o;
    int rc = cli_parse_opts(argc, argv, SERVE_OPTS, help, &o);
    if (rc >= 0)
        return rc;
    smn_rw *rw = NULL;
    if ((rc = cli_rw_open(&o, "serve", &rw)) != 0)
        return rc;
    cli_stop_install();
    return serve(&o, rw);
}
