/* socmon agent: sample a target on the board and serve the samples to collectors over TCP.
 *
 * The agent owns the run: it opens the target, binds (loopback unless a token is given), drops
 * root, then samples in one thread into a ring and serves collectors in another
 * (src/agent/agent.h). The main thread only waits for SIGINT/SIGTERM (or, with
 * --exit-when-drained, for the last collector to receive the end), then prints the agent's own
 * cost: CPU time and bus accesses per sample. docs/agent.md tells how to run it on a board. */
#include <signal.h>

#include "agent/agent.h"
#include "serve/net.h"
#include "agent/privs.h"
#include "cli/help.h"
#include "cli/cli_rw.h"
#include "cli/open_source.h"
#include "cli/serve.h"
#include "cli/stop.h"

#define AGENT_OPTS (OPT_TARGET | OPT_WORKLOAD | OPT_INTERVAL | OPT_DURATION | OPT_EVENTS | OPT_AGENT | OPT_PROGRAM | \
                    OPT_MAX_CYCLES | OPT_REMOTE_WRITE)

static void help(FILE *fp)
{
    cli_help_intro(fp, "agent");
    cli_help_opts(fp, AGENT_OPTS);
}

static void say(void *user, const char *line)
{
    (void)user;
    fprintf(stderr, "socmon agent: %s\n", line);
}

/* Frees what cmd_agent made, in the reverse order; rc is returned. */
static int done(int rc, agent *ag, serve_http *srv, smn_rw *rw, smn_live *lv, cli_source *src, FILE *devnull)
{
    serve_http_stop(srv);
    agent_free(ag);
    smn_rw_free(rw);   /* before the session: its sender reads the run's metrics */
    socmon_live_free(lv);
    cli_source_close(src);
    if (devnull)
        fclose(devnull);
    return rc;
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
    /* the run is a plan the session runs on the agent's sampling thread; the agent starts it */
    cli_source src;
    if ((rc = cli_source_open(&src, &o, "agent", (cli_how){.rule = SMN_STEP_ROWS, .pace = 1, .caller_starts = 1,
                                                             .until_stopped = 1, .totals = SMN_TOTALS_NEVER})) != 0) {
        cli_source_close(&src);
        smn_rw_free(rw);
        return rc;
    }
    const socmon_source_info *in = src.info;
    socmon_target *t = smn_session_target(src.sess);
    FILE *devnull = o.quiet ? fopen("/dev/null", "w") : NULL;
    agent_opts ao = {.listen = o.listen, .token = o.token_file ? token : NULL, .workload = o.workload,
                     .events = o.events, .interval_ns = in->interval_ns, .duration_ns = o.duration_ns,
                     .pace = !o.no_pace, .allow_config = o.allow_config, .wait_collector = o.wait_collector,
                     .ring = (size_t)o.ring, .max_clients = o.max_clients, .wire_version = o.wire_version,
                     .log = devnull};
    agent *ag = NULL;
    char who[64];
    int dropped = 0;
    /* --http: the live view, one more consumer of the run, served next to the collectors' port */
    smn_live *lv = NULL;
    serve_http srv = {0};
    int hrc = 0;
    st = o.http ? socmon_live_new_from_set(smn_session_set(src.sess), in->target, o.workload, in->interval_ns,
                                           in->simulated, src.ms, NULL, &lv)
                : SOCMON_OK;
    socmon_consumer view = lv ? smn_live_consumer(lv) : (socmon_consumer){0};
    if (st == SOCMON_OK && lv)
        st = smn_session_add(src.sess, &view);
    if (st == SOCMON_OK)   /* --remote-write: one more consumer of the run */
        st = cli_rw_add(rw, src.sess);
    /* Bound (a port below 1024 needs root) and the target open: root is no longer needed.
     * The port file is written before the drop on purpose: its directory (e.g. /run) may be
     * writable by root only. It therefore means "listening", not "dropped": the line
     * "running as user ..." below is the signal that root is gone. */
    if (st != SOCMON_OK || (st = agent_new(src.sess, &ao, &ag)) != SOCMON_OK ||
        (o.port_file && (st = net_write_port_file(o.port_file, agent_port(ag))) != SOCMON_OK) ||
        (o.http && (srv.collectors = agent_address(ag)) &&
         (hrc = serve_http_start(&srv, lv, o.http, o.token_file ? token : NULL, o.http_hosts,
                                           (size_t)o.nhttp_hosts, o.http_port_file, "socmon agent")) != 0) ||
        (st = agent_drop_privileges(o.user, &dropped, who, sizeof who)) != SOCMON_OK)
        return done(hrc ? hrc : cli_error("agent", st), ag, &srv, rw, lv, &src, devnull);
    /* The threads must not take SIGINT/SIGTERM: the main thread's flag is what stops the run. */
    sigset_t block, old;
    sigemptyset(&block);
    sigaddset(&block, SIGINT);
    sigaddset(&block, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &block, &old);
    /* Read before the threads start: from then on the server thread's CONFIGs replace the source
     * (ThreadSanitizer reported this line's reads while a CONFIG freed what it replaced). */
    size_t ncounters = in->ncounters, ring = ao.ring ? ao.ring : agent_default_ring(in->ncounters);
    st = agent_start(ag);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    if (st != SOCMON_OK)
        return done(cli_source_error(&src, "agent", st), ag, &srv, rw, lv, &src, devnull);
    fprintf(stderr, "socmon agent: listening on %s (target %s, %zu counters, interval %.6g ms, ring %zu samples%s%s%s)\n",
            agent_address(ag), socmon_target_spec(t), ncounters, (double)ao.interval_ns / 1e6, ring,
            o.token_file ? ", token required" : "",
            socmon_target_is_hardware(t) || ao.pace ? ", paced" : ", unpaced",
            dropped ? ", root dropped" : "");
    if (dropped)
        fprintf(stderr, "socmon agent: running as user '%s' from now on\n", who);
    rc = agent_wait(ag, o.exit_when_drained, cli_stop_requested, NULL, say);
    if (rc < 0)
        fprintf(stderr, "socmon agent: stopped by %s\n", cli_stop_name());
    rc = rc < 0 ? 0 : rc;
    agent_stop(ag);
    serve_http_stop(&srv);
    char cost[768];
    agent_cost_line(ag, cost, sizeof cost);
    say(NULL, cost);
    cli_rw_close(rw, "agent", stderr);
    rw = NULL;
    return done(rc, ag, &srv, rw, lv, &src, devnull);
}
