/* The "host" target: this Linux machine's CPUs through the perf driver
 * (socmon/perf.h), with a command to count (host_child.c) or every CPU.
 * Time is real (CLOCK_MONOTONIC): the target is hardware, so the sampler
 * paces it; its wait op wakes the sampler when the command exits, so a short
 * command costs its own run time, not a whole sampling interval. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/clock.h"
#include "core/error.h"
#include "socmon/host.h"
#include "socmon/perf.h"
#include "targets/host_child.h"
#include "targets/host_events.h"
#include "targets/target_internal.h"

#define HOST_DEFAULT_EVENTS \
    "task-clock,context-switches,cpu-migrations,page-faults,cycles,instructions,branches,branch-misses"

typedef struct host_opts {
    const char *events, *cpus;
    int all, inherit, no_rdpmc;
} host_opts;

typedef struct host_state {
    socmon_device *dev;
    host_child child;
    int have_child;
    int armed;           /* started: the command is released at the first wait or advance, after
                            the sampler's first sample (counting starts at its exec, so a command
                            that ends at once must not end before the baseline is read) */
    socmon_status start_st;
    char **argv;         /* the command (a copy of the argv it was opened with), or NULL */
} host_state;

static const socmon_option host_options[] = {
    {.name = "events", .type = SOCMON_OPT_STRING, .arg = "LIST",
     .help = "perf events, '+'-separated in a spec ({a+b}: a group); default: perf stat's",
     .offset = offsetof(host_opts, events)},
    {.name = "cpus", .type = SOCMON_OPT_STRING, .arg = "LIST", .help = "count these CPUs (e.g. 0-3+6), as perf -C",
     .offset = offsetof(host_opts, cpus)},
    {.name = "all", .type = SOCMON_OPT_BOOL, .help = "1: count every CPU, as perf -a (the default without a command)",
     .def = "0", .offset = offsetof(host_opts, all)},
    {.name = "inherit", .type = SOCMON_OPT_BOOL, .help = "count the command's children and threads too",
     .def = "1", .offset = offsetof(host_opts, inherit)},
    {.name = "no_rdpmc", .type = SOCMON_OPT_BOOL, .help = "1: read counters with read(), never rdpmc", .def = "0",
     .offset = offsetof(host_opts, no_rdpmc)},
    {0},
};

/* "a+b" as "a,b" (a spec cannot hold ','); NULL on failure */
static char *plus_to_comma(const char *s)
{
    char *c = strdup(s);
    for (char *p = c; p && *p; p++)
        if (*p == '+')
            *p = ',';
    return c;
}

static socmon_status copy_command(host_state *h, char *const argv[])
{
    size_t n = 0;
    while (argv[n])
        n++;
    if (!argv[0][0])
        return socmon_fail(SOCMON_EINVAL, "host: empty command");
    if (!(h->argv = calloc(n + 1, sizeof *h->argv)))
        return socmon_fail(SOCMON_ENOMEM, "host: out of memory");
    for (size_t i = 0; i < n; i++)
        if (!(h->argv[i] = strdup(argv[i])))
            return socmon_fail(SOCMON_ENOMEM, "host: out of memory");
    return SOCMON_OK;
}

static void host_close(void *priv)
{
    host_state *h = priv;
    if (!h)
        return;
    if (h->have_child)
        smn_host_child_end(&h->child);
    socmon_device_free(h->dev);
    for (size_t i = 0; h->argv && h->argv[i]; i++)
        free(h->argv[i]);
    free(h->argv);
    free(h);
}

/* The command after `--` (argv, or NULL: every CPU or those of cpus=). */
static socmon_status host_open_argv(const socmon_target_ops *self, const socmon_kv *kv, size_t nkv,
                                    char *const argv[], void **priv, socmon_device **dev)
{
    host_opts o;
    memset(&o, 0, sizeof o);
    socmon_status st = socmon_options_parse(self->name, self->options, kv, nkv, &o, NULL);
    if (st)
        return st;
    host_state *h = calloc(1, sizeof *h);
    if (!h)
        return socmon_fail(SOCMON_ENOMEM, "host: out of memory");
    char *events = plus_to_comma(o.events ? o.events : HOST_DEFAULT_EVENTS);
    char *cpus = o.cpus ? plus_to_comma(o.cpus) : NULL;
    socmon_perf_attr *attrs = NULL;
    size_t nattr = 0;
    if (!events || (o.cpus && !cpus))
        st = socmon_fail(SOCMON_ENOMEM, "host: out of memory");
    if (st == SOCMON_OK && argv && argv[0])
        st = copy_command(h, argv);
    if (st == SOCMON_OK)
        st = socmon_perf_event_list_parse(events, NULL, &attrs, &nattr);
    int percpu = o.all || o.cpus || !h->argv;
    if (st == SOCMON_OK && h->argv && (st = smn_host_child_fork(&h->child, h->argv)) == SOCMON_OK)
        h->have_child = 1;
    if (st == SOCMON_OK) {
        socmon_perf_opts po = {.events = attrs, .nevents = nattr, .no_rdpmc = o.no_rdpmc};
        if (percpu) {
            po.mode = SOCMON_PERF_CPU;
            po.cpus = cpus;
        } else {
            po.mode = SOCMON_PERF_THREAD;
            po.pid = h->child.pid;
            po.inherit = o.inherit;
            po.enable_on_exec = 1;
        }
        st = socmon_perf_device_new("host", &po, &h->dev);
    }
    free(events);
    free(cpus);
    free(attrs);
    if (st) {
        host_close(h);
        return socmon_fail_prefix(st, "host: ");
    }
    *priv = h;
    *dev = h->dev;
    return SOCMON_OK;
}

static socmon_status host_open(const socmon_target_ops *self, const socmon_kv *kv, size_t nkv, void **priv,
                               socmon_device **dev)
{
    return host_open_argv(self, kv, nkv, NULL, priv, dev);
}

static socmon_status host_start(void *priv, const char *workload)
{
    host_state *h = priv;
    if (workload)
        return socmon_fail(SOCMON_EINVAL, "host: no workloads (-w %s); give a command after --", workload);
    if (h->have_child)
        h->armed = 1;
    return SOCMON_OK;
}

/* Releases an armed command once; its exec failure is kept and reported by advance. */
static void release(host_state *h)
{
    if (h->armed && !h->child.started)
        h->start_st = smn_host_child_start(&h->child);
}

static socmon_status host_advance(void *priv, uint64_t ns, int *done)
{
    (void)ns;
    host_state *h = priv;
    release(h);
    *done = h->have_child && h->child.started && smn_host_child_poll(&h->child);
    if (h->start_st != SOCMON_OK)
        return socmon_fail(h->start_st, "host: cannot run the command: %s", strerror(h->child.exec_errno));
    return SOCMON_OK;
}

static int host_wait(void *priv, uint64_t deadline_ns)
{
    host_state *h = priv;
    release(h);
    if (h->start_st != SOCMON_OK)
        return 1; /* it could not be run: over at once (advance says why) */
    if (!h->have_child || !h->child.started) {
        uint64_t now = smn_mono_ns();
        if (now < deadline_ns) {
            struct timespec ts = {(time_t)((deadline_ns - now) / 1000000000u),
                                  (long)((deadline_ns - now) % 1000000000u)};
            nanosleep(&ts, NULL);
        }
        return 0;
    }
    return smn_host_child_wait(&h->child, deadline_ns);
}

static uint64_t host_now(void *priv)
{
    (void)priv;
    return smn_mono_ns();
}

const socmon_target_ops smn_target_host_ops = {
    .name = "host",
    .desc = "this Linux machine's CPUs through perf_event: a command (-- cmd args) or every CPU",
    .options = host_options,
    .metrics = "host",
    .simulated = 0,
    .open = host_open,
    .open_argv = host_open_argv,
    .start = host_start,
    .advance = host_advance,
    .now_ns = host_now,
    .close = host_close,
    .default_interval_ns = 100000000u,
    .wait = host_wait,
    .caps = SOCMON_TARGET_RUNS_COMMAND,
    .list_events = smn_host_list_events,
    .min_interval_ns = 1000000, /* a sample reads every event with a syscall each: below 1 ms the reads are the run */
};

static host_state *state_of(const socmon_target *t)
{
    return socmon_target_ops_of(t) == &smn_target_host_ops ? smn_target_priv(t) : NULL;
}

socmon_status socmon_host_target_open(const char *spec, const socmon_kv *extra, size_t nextra, char *const argv[],
                                      socmon_target **out)
{
    if (!out || (nextra && !extra))
        return socmon_fail(SOCMON_EINVAL, "socmon_host_target_open: NULL argument");
    *out = NULL;
    spec = spec ? spec : "host";
    if (strncmp(spec, "host", 4) != 0 || (spec[4] && spec[4] != ':'))
        return socmon_fail(SOCMON_EINVAL, "socmon_host_target_open: '%s' is not a host spec", spec);
    return socmon_target_open_command(spec, extra, nextra, argv, out);
}

socmon_status socmon_host_target_status(const socmon_target *t, int *wstatus)
{
    host_state *h = state_of(t);
    if (!h || !wstatus)
        return socmon_fail(SOCMON_EINVAL, "socmon_host_target_status: not a host target");
    if (!h->have_child || !smn_host_child_poll(&h->child))
        return socmon_fail(SOCMON_ESTATE, "host: %s", h->have_child ? "the command is still running" : "no command");
    *wstatus = h->child.wstatus;
    return SOCMON_OK;
}

int socmon_host_target_exec_errno(const socmon_target *t)
{
    host_state *h = state_of(t);
    return h ? h->child.exec_errno : 0;
}

int socmon_host_target_pid(const socmon_target *t)
{
    host_state *h = state_of(t);
    return h && h->have_child ? (int)h->child.pid : 0;
}
