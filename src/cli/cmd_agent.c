/* socmon agent: sample a target on the board and serve the samples to collectors over TCP.
 *
 * The agent owns the run: it opens the target, binds (loopback unless a token is given), drops
 * root, then samples in one thread into a ring and serves collectors in another
 * (src/agent/agent.h). The main thread only waits for SIGINT/SIGTERM (or, with
 * --exit-when-drained, for the last collector to receive the end), then prints the agent's own
 * cost: CPU time and bus accesses per sample. docs/agent.md tells how to run it on a board. */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "agent/agent.h"
#include "agent/net.h"
#include "agent/privs.h"
#include "cli/opts.h"
#include "cli/serve.h"
#include "cli/stop.h"

static void help(FILE *fp)
{
    fprintf(fp,
            "usage: socmon agent [-t TARGET] [-w WORKLOAD] [-I INTERVAL] [-d DURATION] [-e EVENTS]\n"
            "                    [--listen ADDR:PORT] [--token-file FILE] [options]\n\n"
            "Runs on the target (a board, or anywhere with a model target): samples the counters every\n"
            "interval in one thread into a bounded ring and serves them to collectors over TCP\n"
            "('socmon record --remote', 'socmon stat --remote'). A collector that falls behind or\n"
            "reconnects gets every sample still in the ring, or an explicit gap. When the run ends the\n"
            "agent keeps serving the ring until SIGINT/SIGTERM, then prints its own CPU time and bus\n"
            "accesses per sample. See docs/agent.md.\n\n"
            "  -t, --target SPEC     NAME or NAME:key=value,... (default " SOCMON_DEFAULT_TARGET ")\n"
            "  -w, --workload NAME   workload the model runs (default: the target's first)\n"
            "  -I, --interval TIME   sampling interval (default: the target's, 1ms for most)\n"
            "  -d, --duration TIME   how long to sample (default: until the workload finishes; on\n"
            "                        hardware: until stopped)\n"
            "  -e, --events PATTERNS comma-separated globs on counter names (default: all)\n"
            "      --listen ADDR:PORT  where collectors connect (default 127.0.0.1:%d; port 0: any\n"
            "                        free port); an address other than loopback needs --token-file\n"
            "      --token-file FILE collectors must present the token on this file's first line\n"
            "                        (mode 600); compared in constant time, refusals logged\n"
            "      --allow-config    let collectors change the counted events (CONFIG frames);\n"
            "                        refused and logged otherwise: the agent is read-only by default\n"
            "      --ring SAMPLES    ring size in samples (default 65536, less for very wide samples:\n"
            "                        at most 64 MiB of values)\n"
            "      --no-pace         run a model as fast as it goes instead of paced to the wall clock\n"
            "                        (it then waits for subscribed collectors when the ring is full)\n"
            "      --max-clients N   collectors at once (default 8; more are refused)\n"
            "      --port-file FILE  write the port listened on to FILE (for scripts with --listen :0)\n"
            "      --wait-collector  start sampling when the first collector subscribes\n"
            "      --exit-when-drained  exit once the run is over and every collector got its end\n"
            "      --user NAME       as root, switch to this user once the target is open and the\n"
            "                        socket bound (default: nobody)\n"
            "      --http ADDR:PORT  also serve the live page and /metrics there (docs/live.md; port 0:\n"
            "                        any free port; the token of --token-file guards it too)\n"
            "      --http-port-file FILE  write the port --http bound to FILE\n"
            "      --http-host NAMES  --http also answers requests whose Host is one of these names\n"
            "                        (comma-separated; repeatable; '*': any); without it only localhost\n"
            "                        and IP addresses are answered (no DNS rebinding), others get 403\n"
            "  -q, --quiet           no log of connections\n"
            "  -h, --help            this help\n",
            NET_DEFAULT_PORT);
}

typedef struct agent_args {
    cli_opts o;             /* -t, -w, -e, -I, -d, as the other commands take them */
    agent_opts ao;
    const char *listen, *token_file, *port_file, *user;
    const char *http, *http_port_file;   /* --http: the live view's server (cli/serve.h) */
    const char *http_hosts[CLI_MAX_HTTP_HOSTS]; /* --http-host: its Host names */
    size_t nhttp_hosts;
    int exit_when_drained, quiet;
} agent_args;

enum { O_LISTEN = 256, O_TOKEN, O_ALLOW, O_RING, O_NOPACE, O_MAXC, O_PORTFILE, O_WAIT, O_DRAINED, O_USER, O_HTTP,
       O_HTTP_PORTFILE, O_HTTP_HOST };

static int parse_count(const char *opt, const char *s, unsigned long long lo, unsigned long long hi,
                       unsigned long long *v)
{
    char *end;
    errno = 0;
    *v = strtoull(s, &end, 10);
    if (!*s || *end || errno || s[0] == '-' || *v < lo || *v > hi) {
        fprintf(stderr, "socmon agent: %s takes a number %llu..%llu, got '%s'\n", opt, lo, hi, s);
        return -1;
    }
    return 0;
}

/* -1 to go on, else the exit code. */
static int parse(int argc, char **argv, agent_args *a)
{
    static const struct option lo[] = {
        {"target", required_argument, 0, 't'}, {"workload", required_argument, 0, 'w'},
        {"interval", required_argument, 0, 'I'}, {"duration", required_argument, 0, 'd'},
        {"events", required_argument, 0, 'e'}, {"listen", required_argument, 0, O_LISTEN},
        {"token-file", required_argument, 0, O_TOKEN}, {"allow-config", no_argument, 0, O_ALLOW},
        {"ring", required_argument, 0, O_RING}, {"no-pace", no_argument, 0, O_NOPACE},
        {"max-clients", required_argument, 0, O_MAXC}, {"port-file", required_argument, 0, O_PORTFILE},
        {"wait-collector", no_argument, 0, O_WAIT}, {"exit-when-drained", no_argument, 0, O_DRAINED},
        {"user", required_argument, 0, O_USER}, {"http", required_argument, 0, O_HTTP},
        {"http-port-file", required_argument, 0, O_HTTP_PORTFILE}, {"http-host", required_argument, 0, O_HTTP_HOST},
        {"quiet", no_argument, 0, 'q'}, {"help", no_argument, 0, 'h'},
        {0, 0, 0, 0}};
    memset(a, 0, sizeof *a);
    a->o.target = SOCMON_DEFAULT_TARGET;
    a->o.interval_ns = 1000000;   /* cli_interval's fallback when the target has no default */
    a->ao.pace = 1;
    optind = 1;
    opterr = 0;
    int c;
    unsigned long long v;
    while ((c = getopt_long(argc, argv, "t:w:I:d:e:qh", lo, NULL)) != -1) {
        switch (c) {
        case 't': a->o.target = optarg; break;
        case 'w': a->o.workload = optarg; break;
        case 'e': a->o.events = optarg; break;
        case 'I':
        case 'd':
            if (cli_parse_duration(optarg, c == 'I' ? &a->o.interval_ns : &a->o.duration_ns) != 0) {
                fprintf(stderr, "socmon agent: bad %s '%s' (expected e.g. 500us, 10ms, 2s)\n",
                        c == 'I' ? "interval" : "duration", optarg);
                return 2;
            }
            a->o.interval_set |= c == 'I';
            break;
        case O_LISTEN: a->listen = optarg; break;
        case O_TOKEN: a->token_file = optarg; break;
        case O_ALLOW: a->ao.allow_config = 1; break;
        case O_RING:
            if (parse_count("--ring", optarg, 2, 1ull << 32, &v) != 0)
                return 2;
            a->ao.ring = (size_t)v;
            break;
        case O_NOPACE: a->ao.pace = 0; break;
        case O_MAXC:
            if (parse_count("--max-clients", optarg, 1, 1024, &v) != 0)
                return 2;
            a->ao.max_clients = (unsigned)v;
            break;
        case O_PORTFILE: a->port_file = optarg; break;
        case O_WAIT: a->ao.wait_collector = 1; break;
        case O_DRAINED: a->exit_when_drained = 1; break;
        case O_USER: a->user = optarg; break;
        case O_HTTP: a->http = optarg; break;
        case O_HTTP_PORTFILE: a->http_port_file = optarg; break;
        case O_HTTP_HOST:
            if (a->nhttp_hosts == CLI_MAX_HTTP_HOSTS) {
                fprintf(stderr, "socmon agent: more than %d --http-host (give several names in one, "
                        "comma-separated)\n", CLI_MAX_HTTP_HOSTS);
                return 2;
            }
            a->http_hosts[a->nhttp_hosts++] = optarg;
            break;
        case 'q': a->quiet = 1; break;
        case 'h': help(stdout); return 0;
        default:
            if (optopt && optopt < 256)
                fprintf(stderr, "socmon agent: option -%c is not known or needs a value\n", optopt);
            else
                fprintf(stderr, "socmon agent: option '%s' is not known here or needs a value\n", argv[optind - 1]);
            help(stderr);
            return 2;
        }
    }
    if (optind < argc) {
        fprintf(stderr, "socmon agent: unexpected argument '%s'\n", argv[optind]);
        return 2;
    }
    if (a->nhttp_hosts && !a->http) {
        fprintf(stderr, "socmon agent: --http-host names the hosts of --http, which was not given\n");
        return 2;
    }
    return -1;
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
static int serve(agent *ag, const agent_args *a)
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
                    (unsigned long long)s.samples, a->exit_when_drained ? "exiting once collectors have it all"
                                                                       : "serving the ring until SIGINT/SIGTERM");
            said_end = 1;
        }
        if (a->exit_when_drained && agent_drained(ag))
            return 0;
        sleep_ms(20);
    }
    fprintf(stderr, "socmon agent: stopped by %s\n", cli_stop_name());
    return 0;
}

int cmd_agent(int argc, char **argv)
{
    agent_args a;
    int rc = parse(argc, argv, &a);
    if (rc >= 0)
        return rc;
    char token[NET_TOKEN_MAX];
    socmon_status st;
    if (a.token_file && (st = net_read_token(a.token_file, token)) != SOCMON_OK)
        return cli_error("agent", st);
    cli_stop_install();
    cli_session cs;
    if ((st = cli_session_open(&cs, &a.o)) != SOCMON_OK) {
        cli_session_close(&cs);
        return cli_error("agent", st);
    }
    a.ao.listen = a.listen;
    a.ao.token = a.token_file ? token : NULL;
    a.ao.workload = a.o.workload;
    a.ao.events = a.o.events;
    a.ao.interval_ns = cli_interval(cs.target, a.o.interval_ns, a.o.interval_set);
    a.ao.duration_ns = a.o.duration_ns;
    FILE *devnull = a.quiet ? fopen("/dev/null", "w") : NULL;
    a.ao.log = devnull;
    agent *ag = NULL;
    char who[64];
    int dropped = 0;
    /* --http: the live view the sampling hooks feed, served next to the collectors' port */
    socmon_live *lv = NULL;
    serve_http srv = {0};
    int hrc = 0;
    socmon_metricset *ms = NULL;
    st = a.http ? socmon_target_metrics(cs.target, &ms) : SOCMON_OK;
    if (st == SOCMON_ENOENT) {   /* a target without metrics: the page shows the counters */
        socmon_clear_error();
        st = SOCMON_OK;
    }
    if (st == SOCMON_OK && a.http)
        st = socmon_live_new_from_set(cs.set, socmon_target_spec(cs.target), a.o.workload, a.ao.interval_ns,
                                      !socmon_target_is_hardware(cs.target), ms, NULL, &lv);
    if (lv)
        serve_agent_hooks(&a.ao.hooks, lv);
    /* Bound (a port below 1024 needs root) and the target open: root is no longer needed.
     * The port file is written before the drop on purpose: its directory (e.g. /run) may be
     * writable by root only. It therefore means "listening", not "dropped": the line
     * "running as user ..." below is the signal that root is gone. */
    if (st != SOCMON_OK || (st = agent_new(cs.target, cs.set, &a.ao, &ag)) != SOCMON_OK ||
        (a.port_file && (st = net_write_port_file(a.port_file, agent_port(ag))) != SOCMON_OK) ||
        (a.http && (hrc = serve_http_start(&srv, lv, a.http, a.token_file ? token : NULL, a.http_hosts,
                                           a.nhttp_hosts, a.http_port_file, "socmon agent")) != 0) ||
        (st = agent_drop_privileges(a.user, &dropped, who, sizeof who)) != SOCMON_OK) {
        serve_http_stop(&srv);
        agent_free(ag);
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
        socmon_live_free(lv);
        socmon_metricset_free(ms);
        cli_session_close(&cs);
        if (devnull)
            fclose(devnull);
        return cli_error("agent", st);
    }
    fprintf(stderr, "socmon agent: listening on %s (target %s, %zu counters, interval %.6g ms, ring %zu samples%s%s%s)\n",
            agent_address(ag), socmon_target_spec(cs.target), socmon_set_size(cs.set), (double)a.ao.interval_ns / 1e6,
            a.ao.ring ? a.ao.ring : agent_default_ring(socmon_set_size(cs.set)), a.token_file ? ", token required" : "",
            socmon_target_is_hardware(cs.target) || a.ao.pace ? ", paced" : ", unpaced",
            dropped ? ", root dropped" : "");
    if (dropped)
        fprintf(stderr, "socmon agent: running as user '%s' from now on\n", who);
    rc = serve(ag, &a);
    agent_stop(ag);
    serve_http_stop(&srv);
    print_cost(ag);
    agent_free(ag);
    socmon_live_free(lv);
    socmon_metricset_free(ms);
    cli_session_close(&cs);
    if (devnull)
        fclose(devnull);
    return rc;
}
