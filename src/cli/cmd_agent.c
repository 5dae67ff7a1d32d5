/* socmon agent: sample a target on the board and serve the samples to collectors over TCP.
 *
 * The agent owns the run: it opens the target, binds (loopback unless a token is given), drops
 * root, then samples in one thread into a ring and serves collectors in another
 * (src/agent/agent.h). The main thread only waits for SIGINT/SIGTERM (or, with
 * --exit-when-drained, for the last collector to receive the end), then prints the agent's own
 * cost: CPU time and bus accesses per sample. docs/agent.md tells how to run it on a board. */
#include <signal.h>
#include <time.h>

#include "agent/agent.h"
#include "serve/net.h"
#include "agent/privs.h"
#include "cli/cli_rw.h"
#include "cli/opts.h"
#include "cli/serve.h"
#include "cli/stop.h"

#define AGENT_OPTS (OPT_TARGET | OPT_WORKLOAD | OPT_INTERVAL | OPT_DURATION | OPT_EVENTS | OPT_AGENT | OPT_PROGRAM | \
                    OPT_MAX_CYCLES | OPT_REMOTE_WRITE)

static void help(FILE *fp)
{
    fprintf(fp,
            "usage: socmon agent [-t TARGET] [-w WORKLOAD] [-I INTERVAL] [-d DURATION] [-e EVENTS]\n"
            "                    [--listen ADDR:PORT] [--token-file FILE] [options] [-- PROGRAM.elf]\n\n"
            "Runs on the target (a board, or anywhere with a model target): samples the counters every\n"
            "interval in one thread into a bounded ring and serves them to collectors over TCP\n"
            "('socmon record --remote', 'socmon stat --remote'). A collector that falls behind or\n"
            "reconnects gets every sample still in the ring, or an explicit gap. When the run ends the\n"
            "agent keeps serving the ring until SIGINT/SIGTERM, then prints its own CPU time and bus\n"
            "accesses per sample. On hardware it samples until stopped unless -d is given. A target\n"
            "that runs a program (-t ibex -- prog.elf) runs it as 'socmon record' does, its\n"
            "per-function counters streamed too (report --by-symbol of a remote recording works); the\n"
            "program's own output is not shown. See docs/agent.md.\n\n");
    cli_help_opts(fp, AGENT_OPTS);
}

/* --http: the sampling hooks feed the live view, so a board serves its own live page and
 * /metrics next to the collectors' port. They run on the sampling thread: socmon_live_push
 * neither allocates nor waits beyond one short lock per row. */
static void on_sample(void *user, uint64_t seq, const socmon_sample *s)
{
    socmon_live_push(user, seq, s);
}

static void on_end(void *user, int32_t status, const char *reason)
{
    (void)status;
    (void)reason;
    socmon_live_end(user);
}

/* The live view's schema is fixed: a collector's CONFIG (--allow-config) replaced the counters,
 * so the page's run ends here; /metrics keeps the totals it had. */
static void on_config(void *user, const socmon_set *set)
{
    (void)set;
    socmon_live_end(user);
}

static void sleep_ms(unsigned ms)
{
    struct timespec ts = {0, (long)ms * 1000000L};
    nanosleep(&ts, NULL);
}

static void print_cost(agent *ag)
{
    agent_stats s;
    agent_get_stats(ag, &s);
    double n = s.samples ? (double)s.samples : 1;
    fprintf(stderr, "socmon agent: %llu samples; sampling thread CPU %.2f us/sample (%.3f s); %.1f bus accesses/sample; "
            "%llu bytes sent; %llu collectors (%llu refused or dropped); %llu samples overwritten before a collector "
            "read them\n", (unsigned long long)s.samples, (double)s.cpu_ns / n / 1e3, (double)s.cpu_ns / 1e9,
            (double)s.bus_accesses / n, (unsigned long long)s.bytes_sent, (unsigned long long)s.clients_total,
            (unsigned long long)s.refused, (unsigned long long)s.overwritten);
}

/* Serves until a signal (or drained); the exit code. */
static int serve(agent *ag, const cli_opts *o)
{
    int said_end = 0;
    while (!cli_stop_signal()) {
        if (agent_run_ended(ag) && !said_end) {
            char msg[512];
            socmon_status st = agent_run_status(ag, msg, sizeof msg);
            if (st != SOCMON_OK) {
                fprintf(stderr, "socmon agent: %s\n", msg);
                return 1;
            }
            agent_stats s;
            agent_get_stats(ag, &s);
            fprintf(stderr, "socmon agent: run ended (%s) after %llu samples; %s\n", msg,
                    (unsigned long long)s.samples, o->exit_when_drained ? "exiting once collectors have it all"
                                                                       : "serving the ring until SIGINT/SIGTERM");
            said_end = 1;
        }
        if (o->exit_when_drained && agent_drained(ag))
            return 0;
        sleep_ms(20);
    }
    fprintf(stderr, "socmon agent: stopped by %s\n", cli_stop_name());
    return 0;
}

int cmd_agent(int argc, char **argv)
{
    cli_opts o;
    int rc = cli_parse_opts(argc, argv, AGENT_OPTS, help, &o);
    if (rc >= 0)
        return rc;
    if (o.nhttp_hosts && !o.http) {
        fprintf(stderr, "socmon agent: --http-host names the hosts of --http, which was not given\n");
        return 2;
    }
    char token[NET_TOKEN_MAX];
    socmon_status st;
    if (o.token_file && (st = net_read_token(o.token_file, token)) != SOCMON_OK)
        return cli_error("agent", st);
    smn_rw *rw = NULL;
    if ((rc = cli_rw_open(&o, "agent", &rw)) != 0)
        return rc;
    cli_stop_install();
    o.symbols = 1;   /* a program's stream carries its per-function counters, as record's file does */
    cli_session cs;
    if ((st = cli_session_open(&cs, &o)) != SOCMON_OK) {
        cli_session_close(&cs);
        return cli_error("agent", st);
    }
    FILE *devnull = o.quiet ? fopen("/dev/null", "w") : NULL;
    agent_opts ao = {.listen = o.listen, .token = o.token_file ? token : NULL, .workload = o.workload,
                     .events = o.events, .interval_ns = cli_interval(cs.target, o.interval_ns, o.interval_set),
                     .duration_ns = o.duration_ns, .pace = !o.no_pace, .allow_config = o.allow_config,
                     .wait_collector = o.wait_collector, .ring = (size_t)o.ring, .max_clients = o.max_clients,
                     .wire_version = o.wire_version,
                     .log = devnull};
    agent *ag = NULL;
    char who[64];
    int dropped = 0;
    /* --http: the live view the sampling hooks feed, served next to the collectors' port */
    smn_live *lv = NULL;
    serve_http srv = {0};
    int hrc = 0;
    socmon_metricset *ms = NULL;
    st = o.http || rw ? socmon_target_metrics(cs.target, &ms) : SOCMON_OK;
    if (st == SOCMON_ENOENT) {   /* a target without metrics: the page shows the counters */
        socmon_clear_error();
        st = SOCMON_OK;
    }
    if (st == SOCMON_OK && o.http)
        st = socmon_live_new_from_set(cs.set, socmon_target_spec(cs.target), o.workload, ao.interval_ns,
                                      !socmon_target_is_hardware(cs.target), ms, NULL, &lv);
    if (lv)
        ao.hooks = (agent_hooks){.user = lv, .on_sample = on_sample, .on_end = on_end, .on_config = on_config};
    if (st == SOCMON_OK)   /* --remote-write: after the live view's hooks */
        st = cli_rw_agent(rw, &ao, cs.set, socmon_target_spec(cs.target), ms, !socmon_target_is_hardware(cs.target));
    /* Bound (a port below 1024 needs root) and the target open: root is no longer needed.
     * The port file is written before the drop on purpose: its directory (e.g. /run) may be
     * writable by root only. It therefore means "listening", not "dropped": the line
     * "running as user ..." below is the signal that root is gone. */
    if (st != SOCMON_OK || (st = agent_new(cs.target, cs.set, &ao, &ag)) != SOCMON_OK ||
        (o.port_file && (st = net_write_port_file(o.port_file, agent_port(ag))) != SOCMON_OK) ||
        (o.http && (srv.collectors = agent_address(ag)) &&
         (hrc = serve_http_start(&srv, lv, o.http, o.token_file ? token : NULL, o.http_hosts,
                                           (size_t)o.nhttp_hosts, o.http_port_file, "socmon agent")) != 0) ||
        (st = agent_drop_privileges(o.user, &dropped, who, sizeof who)) != SOCMON_OK) {
        serve_http_stop(&srv);
        agent_free(ag);
        smn_rw_free(rw);
        socmon_live_free(lv);
        socmon_metricset_free(ms);
        cli_session_close(&cs);
        if (devnull)
            fclose(devnull);
        return hrc ? hrc : cli_error("agent", st);
    }
    /* The threads must not take SIGINT/SIGTERM: the main thread's flag is what stops the run. */
    sigset_t block, old;
    sigemptyset(&block);
    sigaddset(&block, SIGINT);
    sigaddset(&block, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &block, &old);
    st = agent_start(ag);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    if (st != SOCMON_OK) {
        serve_http_stop(&srv);
        agent_free(ag);
        smn_rw_free(rw);
        socmon_live_free(lv);
        socmon_metricset_free(ms);
        cli_session_close(&cs);
        if (devnull)
            fclose(devnull);
        return cli_error("agent", st);
    }
    fprintf(stderr, "socmon agent: listening on %s (target %s, %zu counters, interval %.6g ms, ring %zu samples%s%s%s)\n",
            agent_address(ag), socmon_target_spec(cs.target), socmon_set_size(cs.set), (double)ao.interval_ns / 1e6,
            ao.ring ? ao.ring : agent_default_ring(socmon_set_size(cs.set)), o.token_file ? ", token required" : "",
            socmon_target_is_hardware(cs.target) || ao.pace ? ", paced" : ", unpaced",
            dropped ? ", root dropped" : "");
    if (dropped)
        fprintf(stderr, "socmon agent: running as user '%s' from now on\n", who);
    rc = serve(ag, &o);
    agent_stop(ag);
    serve_http_stop(&srv);
    print_cost(ag);
    cli_rw_close(rw, "agent", stderr);
    agent_free(ag);
    socmon_live_free(lv);
    socmon_metricset_free(ms);
    cli_session_close(&cs);
    if (devnull)
        fclose(devnull);
    return rc;
}
