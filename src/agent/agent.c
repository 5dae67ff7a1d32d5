/* The agent's lifecycle and its sampling thread (see agent.h).
 *
 * The sampling thread runs the caller's session, whose consumers include
 * the ring: its sample op copies each sample into the preallocated ring and
 * nudges the server through a pipe only when the server is about to sleep
 * (so a fast run costs no system call per sample). Its CPU time and the bus
 * accesses are read on that thread every 64 samples and at the end, and
 * published through atomics. Nothing on that path allocates:
 * tests/agent/test_agent_alloc.c checks it. */
#define _GNU_SOURCE   /* pipe2, accept4 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "agent/agent_internal.h"
#include "core/varint.h"
#include "socmon/status.h"
#include "core/text.h"
#include "socmon/bus.h"

#define DEFAULT_LISTEN "127.0.0.1:7461"
#define STATS_EVERY 64

/* 64 MiB, not more: every byte of the ring is touched once per lap by the
 * sampling thread, and first touches of fresh memory are what a wide sample
 * pays for (bench_remote, 8x8 ESP, 2,840 counters at 50 us: a 256 MiB ring
 * cost the sampling thread 146 us/sample, 64 MiB 78 us, the local record's
 * reads ~75 us). A longer outage needs --ring. */
#define DEFAULT_RING_BYTES ((size_t)64 << 20)

size_t agent_default_ring(size_t ncounters)
{
    size_t by_mem = DEFAULT_RING_BYTES / (ncounters ? ncounters * sizeof(uint64_t) : 1);
    size_t n = by_mem < 65536 ? by_mem : 65536;
    return n < 64 ? 64 : n;
}

/* Every line is escaped here, where it is written, rather than at each call: many carry a peer's
 * text (CONFIG events, refusal reasons quoting a frame) and one call that forgot would let a peer
 * forge log lines or send escapes to whoever tails the log. */
void agent_log(agent *a, const char *fmt, ...)
{
    FILE *f = a->o.log ? a->o.log : stderr;
    char line[1024], esc[4 * sizeof line];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    smn_text_escape(esc, sizeof esc, line);
    fprintf(f, "socmon agent: %s\n", esc);
    fflush(f);
}

/* What a schema owns beyond the ring: the HELLO's arrays and the encoder's scratch columns
 * (freed when a CONFIG replaces the schema and when the agent is freed). */
static void schema_free(agent *a)
{
    free(a->hello.counters);
    free(a->hello.param_names);
    free(a->hello.param_values);
    free(a->scratch.t_ns);
    free(a->scratch.flags);
    free(a->scratch.missed);
    free(a->scratch.values);
}

socmon_status agent_schema(agent *a, uint64_t first_seq)
{
    size_t nc = socmon_set_size(a->set);
    socmon_device *dev = socmon_set_device(a->set);
    size_t np = socmon_device_nparams(dev);
    uint64_t *masks = calloc(nc, sizeof *masks);
    socmon_counter *cs = calloc(nc, sizeof *cs);
    char **pn = calloc(np + 1, sizeof *pn);
    double *pv = calloc(np + 1, sizeof *pv);
    size_t cap = a->o.ring ? a->o.ring : agent_default_ring(nc);
    /* a block's worst case fits one frame, in either version */
    size_t worst = (nc + 3) * SOCMON_VARINT_MAX > wire_samples2_max_bytes(nc) ? (nc + 3) * SOCMON_VARINT_MAX
                                                                            : wire_samples2_max_bytes(nc);
    uint32_t block = (uint32_t)((WIRE_MAX_PAYLOAD - 64) / worst);
    block = block > 1024 ? 1024 : block ? block : 1;
    wire_samples sc = {0, block, nc, calloc(block, sizeof(uint64_t)), calloc(block, sizeof(uint32_t)),
                       calloc(block, sizeof(uint32_t)), calloc((size_t)block * nc, sizeof(uint64_t))};
    ring *r = NULL;
    socmon_status st = SOCMON_OK;
    if (!masks || !cs || !pn || !pv || !sc.t_ns || !sc.flags || !sc.missed || !sc.values)
        st = socmon_fail(SOCMON_ENOMEM, "agent: out of memory for %zu counters", nc);
    else if (nc > WIRE_MAX_COUNTERS)
        st = socmon_fail(SOCMON_ERANGE, "agent: %zu counters, the protocol carries at most %u", nc, WIRE_MAX_COUNTERS);
    else
        st = ring_new(cap, nc, first_seq, &r);
    if (st != SOCMON_OK) {
        free(masks);
        free(cs);
        free(pn);
        free(pv);
        free(sc.t_ns);
        free(sc.flags);
        free(sc.missed);
        free(sc.values);
        return st;
    }
    for (size_t i = 0; i < nc; i++) {
        cs[i] = *socmon_set_counter(a->set, i);
        masks[i] = wire_mask(cs[i].width);
    }
    for (size_t i = 0; i < np; i++)
        socmon_device_param_at(dev, i, (const char **)&pn[i], &pv[i]);
    /* swap in: the old ones (a CONFIG) go. The ring pointer changes under a->mu because the main
       thread reads it (agent_get_stats, agent_stop) while the server thread applies a CONFIG. */
    if (a->ring) {
        /* a GAP over samples of the old ring ends at the old ring's last time, not at 0 */
        ring_state ors;
        ring_get_state(a->ring, &ors);
        ring_set_start_time(r, ors.last_t_ns);
    }
    pthread_mutex_lock(&a->mu);
    ring *old_ring = a->ring;
    uint64_t *old_masks = a->masks;
    a->ring = r;
    a->masks = masks;
    if (atomic_load(&a->stop))
        ring_stop(r); /* agent_stop ran on the old ring */
    pthread_mutex_unlock(&a->mu);
    ring_free(old_ring);
    free(old_masks);
    schema_free(a);
    a->nc = nc;
    a->scratch = sc;
    a->block_max = block;
    wire_hello *h = &a->hello;
    h->proto = a->o.wire_version;
    h->target = (char *)socmon_target_spec(a->t);
    h->device = (char *)socmon_device_name(dev);
    h->workload = (char *)(a->o.workload ? a->o.workload : "");
    h->interval_ns = a->o.interval_ns;
    h->duration_ns = a->o.duration_ns;
    h->simulated = !socmon_target_is_hardware(a->t);
    h->ring_capacity = cap;
    h->flags = a->o.allow_config ? WIRE_HELLO_CONFIG : 0;
    h->ncounters = nc;
    h->counters = cs;
    h->nparams = np;
    h->param_names = pn;
    h->param_values = pv;
    /* An unpaced model waits for its collectors: its time is simulated, so
     * waiting loses nothing. Paced or on hardware it never waits. */
    int unpaced = !a->o.pace && !socmon_target_is_hardware(a->t);
    ring_set_wait(a->ring, unpaced);
    /* Unpaced, nobody waits on the wall clock for a sample, and waking the
     * server for each one cost both threads a system call per sample (a
     * pipe write, a poll and a one-sample frame): nudge it every few
     * samples instead. At most half the ring, so a producer waiting for
     * room (backpressure) has always nudged since the server last read. */
    a->nudge_every = unpaced ? (uint32_t)(cap / 2 < 32 ? cap / 2 : 32) : 1;
    return SOCMON_OK;
}

static const socmon_consumer_ops ring_ops;
static int stop_asked(void *user);

socmon_status agent_new(smn_session *sess, const agent_opts *o, agent **out)
{
    *out = NULL;
    socmon_target *t = sess ? smn_session_target(sess) : NULL;
    if (!t || !o || o->interval_ns == 0)
        return socmon_fail(SOCMON_EINVAL, "agent: no session of a target, or a zero interval");
    agent *a = calloc(1, sizeof *a);
    if (!a)
        return socmon_fail(SOCMON_ENOMEM, "agent: out of memory");
    a->sess = sess;
    a->t = t;
    a->set = smn_session_set(sess);
    a->o = *o;
    a->lfd = a->wake[0] = a->wake[1] = -1;
    if (!a->o.listen)
        a->o.listen = DEFAULT_LISTEN;
    if (!a->o.max_clients)
        a->o.max_clients = 8;
    if (!a->o.wire_version)
        a->o.wire_version = WIRE_VERSION;
    if (a->o.wire_version < WIRE_VERSION_MIN || a->o.wire_version > WIRE_VERSION) {
        unsigned v = a->o.wire_version;
        free(a);
        return socmon_fail(SOCMON_ERANGE, "agent: protocol version %u: this socmon speaks versions "
                           WIRE_VERSIONS_SPOKEN, v);
    }
    snprintf(a->events, sizeof a->events, "%s", o->events ? o->events : "");
    if (o->token) {
        if (strlen(o->token) >= NET_TOKEN_MAX || !*o->token) {
            free(a);
            return socmon_fail(SOCMON_EINVAL, "agent: the token must be 1..%d bytes", NET_TOKEN_MAX - 1);
        }
        strcpy(a->token, o->token);
        a->has_token = 1;
        a->o.token = NULL;   /* the copy in a->token is the one used */
    }
    pthread_mutex_init(&a->mu, NULL);
    pthread_cond_init(&a->cv, NULL);
    int loopback = 0;
    socmon_status st = agent_schema(a, 0);
    if (st == SOCMON_OK)
        st = net_listen(a->o.listen, &a->lfd, &loopback, a->addr, sizeof a->addr);
    if (st == SOCMON_OK && !loopback && !a->has_token)
        st = socmon_fail(SOCMON_EPERM, "refusing to listen on %s (not a loopback address) without a token: "
                         "give --token-file FILE (collectors then need the same token), or listen on "
                         "127.0.0.1", a->addr);
    if (st == SOCMON_OK && pipe2(a->wake, O_NONBLOCK | O_CLOEXEC) != 0)
        st = socmon_fail(SOCMON_EIO, "agent: pipe: %s", strerror(errno));
    if (st == SOCMON_OK)
        st = smn_session_add(sess, &(socmon_consumer){.ops = &ring_ops, .self = a});
    if (st == SOCMON_OK)
        smn_session_set_should_stop(sess, stop_asked, a);
    if (st != SOCMON_OK) {
        agent_free(a);
        return st;
    }
    const char *colon = strrchr(a->addr, ':');
    a->port = colon ? (unsigned)atoi(colon + 1) : 0;
    *out = a;
    return SOCMON_OK;
}

const char *agent_address(const agent *a)
{
    return a->addr;
}

unsigned agent_port(const agent *a)
{
    return a->port;
}

static uint64_t thread_cpu_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void publish_stats(agent *a)
{
    atomic_store(&a->samples, a->nsamples);
    atomic_store(&a->cpu_ns, thread_cpu_ns());
    socmon_bus *bus = socmon_target_bus(a->t);
    if (bus) {
        socmon_bus_stats bs;
        socmon_bus_stats_get(bus, &bs);
        atomic_store(&a->bus_accesses, bs.reads + bs.writes);
    }
}

static void nudge(agent *a)
{
    if (atomic_exchange(&a->armed, 0)) {
        char c = 1;
        ssize_t n = write(a->wake[1], &c, 1);
        (void)n;   /* a full pipe already holds a nudge */
    }
}

/* The ring as the session's consumer: every raw sample, no rows (nothing evaluated for it). */
static socmon_status ring_begin(void *self, const socmon_analysis_info *ai, socmon_row_policy *want)
{
    (void)self;
    (void)ai;
    *want = (socmon_row_policy){.rows = 0};
    return SOCMON_OK;
}

static socmon_status ring_sample(void *self, uint64_t seq, const socmon_sample *s)
{
    agent *a = self;
    (void)seq;   /* the ring numbers the samples on across CONFIGs */
    ring_push(a->ring, s);
    if (++a->nsamples % STATS_EVERY == 0)
        publish_stats(a);
    if (a->nudge_every <= 1 || a->nsamples % a->nudge_every == 0)
        nudge(a);
    return SOCMON_OK;
}

static const socmon_consumer_ops ring_ops = {.size = sizeof ring_ops, .begin = ring_begin, .sample = ring_sample};

/* Polled by the session between samples: the agent stops, or a CONFIG waits for the run to end. */
static int stop_asked(void *user)
{
    agent *a = user;
    return atomic_load(&a->stop) || atomic_load(&a->config_pending);
}

static void *sampler_main(void *arg)
{
    agent *a = arg;
    pthread_mutex_lock(&a->mu);
    while (a->o.wait_collector && !a->subscribed && !atomic_load(&a->stop)) {
        if (atomic_load(&a->config_pending) == 1) {   /* a CONFIG before the first sample */
            pthread_mutex_unlock(&a->mu);
            agent_config_wait(a);
            pthread_mutex_lock(&a->mu);
            continue;
        }
        pthread_cond_wait(&a->cv, &a->mu);
    }
    pthread_mutex_unlock(&a->mu);
    socmon_status st = SOCMON_OK;
    uint64_t t0 = socmon_target_now_ns(a->t);
    while (!atomic_load(&a->stop)) {
        st = smn_session_run(a->sess);
        if (st == SOCMON_OK && atomic_load(&a->config_pending) && !atomic_load(&a->stop)) {
            /* stopped for a CONFIG: the next run samples what remains of the duration */
            a->elapsed_ns = socmon_target_now_ns(a->t) - t0;
            if (a->o.duration_ns && a->elapsed_ns >= a->o.duration_ns)
                break;
            agent_config_wait(a);
            continue;
        }
        break;
    }
    publish_stats(a);
    const char *reason;
    int32_t code = st;
    char msg[512];
    if (st == SOCMON_OK)
        reason = a->o.duration_ns ? "duration reached" : "workload done";
    else if (atomic_load(&a->stop))
        reason = "agent stopped", code = SOCMON_OK;
    else {
        snprintf(msg, sizeof msg, "sampling failed: %s", socmon_errmsg());
        reason = msg;
    }
    pthread_mutex_lock(&a->mu);
    a->run_st = code;
    snprintf(a->run_msg, sizeof a->run_msg, "%s", reason);
    /* A CONFIG that came as the run ended is never applied: the server answers it (3). Without
       this it stayed pending for good and every later CONFIG was "another in progress". */
    if (atomic_load(&a->config_pending) != 0)
        atomic_store(&a->config_pending, 3);
    /* Under a->mu: a stop can end this thread's wait for a CONFIG while the server thread swaps
     * the ring (agent_schema changes the pointer under a->mu, then frees the old ring). */
    ring_end(a->ring, code, reason);
    pthread_mutex_unlock(&a->mu);
    nudge(a);
    atomic_store(&a->run_ended, 1);
    atomic_store(&a->armed, 1);
    nudge(a);
    return NULL;
}

socmon_status agent_start(agent *a)
{
    socmon_status st = smn_session_start(a->sess);
    if (st != SOCMON_OK)
        return st;
    /* The server first: a collector may connect before the first sample. */
    if (pthread_create(&a->server_th, NULL, agent_server_main, a) != 0)
        return socmon_fail(SOCMON_EIO, "agent: cannot start the server thread");
    a->server_started = 1;
    if (pthread_create(&a->sampler_th, NULL, sampler_main, a) != 0) {
        agent_stop(a);
        return socmon_fail(SOCMON_EIO, "agent: cannot start the sampling thread");
    }
    a->sampler_started = 1;
    return SOCMON_OK;
}

int agent_run_ended(agent *a)
{
    return atomic_load(&a->run_ended);
}

int agent_drained(agent *a)
{
    return atomic_load(&a->drained);
}

void agent_fail(agent *a, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    agent_log(a, "%s", msg);
    pthread_mutex_lock(&a->mu);
    if (!a->failed) {
        a->failed = 1;
        snprintf(a->fail_msg, sizeof a->fail_msg, "%s", msg);
    }
    atomic_store(&a->stop, 1);   /* the sampling thread ends its run */
    pthread_cond_broadcast(&a->cv);
    pthread_mutex_unlock(&a->mu);
}

int agent_failed(agent *a, char *msg, size_t len)
{
    pthread_mutex_lock(&a->mu);
    int f = a->failed;
    if (f && msg)
        snprintf(msg, len, "%s", a->fail_msg);
    pthread_mutex_unlock(&a->mu);
    return f;
}

void agent_stop(agent *a)
{
    atomic_store(&a->stop, 1);
    pthread_mutex_lock(&a->mu);
    pthread_cond_broadcast(&a->cv);
    /* under a->mu: a CONFIG on the server thread may be replacing the ring */
    ring_stop(a->ring);
    pthread_mutex_unlock(&a->mu);
    atomic_store(&a->armed, 1);
    nudge(a);
    if (a->sampler_started)
        pthread_join(a->sampler_th, NULL);
    a->sampler_started = 0;
    if (a->server_started)
        pthread_join(a->server_th, NULL);
    a->server_started = 0;
}

socmon_status agent_run_status(agent *a, char *msg, size_t len)
{
    pthread_mutex_lock(&a->mu);
    socmon_status st = a->run_st;
    if (msg)
        snprintf(msg, len, "%s", a->run_msg);
    pthread_mutex_unlock(&a->mu);
    return st;
}

void agent_get_stats(agent *a, agent_stats *out)
{
    out->samples = atomic_load(&a->samples);
    out->cpu_ns = atomic_load(&a->cpu_ns);
    out->bus_accesses = atomic_load(&a->bus_accesses);
    ring_state rs;
    pthread_mutex_lock(&a->mu); /* a CONFIG on the server thread may be replacing the ring */
    ring_get_state(a->ring, &rs);
    pthread_mutex_unlock(&a->mu);
    out->overwritten = rs.overwritten;
    out->clients_total = atomic_load(&a->clients_total);
    out->refused = atomic_load(&a->refused);
    out->bytes_sent = atomic_load(&a->bytes_sent);
}

void agent_free(agent *a)
{
    if (!a)
        return;
    if (a->ring)
        agent_stop(a);
    if (a->lfd >= 0)
        close(a->lfd);
    if (a->wake[0] >= 0)
        close(a->wake[0]);
    if (a->wake[1] >= 0)
        close(a->wake[1]);
    ring_free(a->ring);
    free(a->masks);
    schema_free(a);
    pthread_mutex_destroy(&a->mu);
    pthread_cond_destroy(&a->cv);
    free(a);
}
