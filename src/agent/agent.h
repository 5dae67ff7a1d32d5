/* `socmon agent`: samples a target in one thread into a ring and serves the
 * samples to collectors over TCP (docs/agent.md, docs/agent-protocol.md).
 *
 * Two threads: the sampling thread runs socmon_sampler_run into the ring
 * (nothing allocated per sample; the hooks below see every sample), and the
 * server thread polls the listening socket and every client, each with its
 * own cursor into the ring. The caller owns the target and the set, opens
 * them before agent_new, and closes them after agent_free. */
#ifndef SOCMON_AGENT_AGENT_H
#define SOCMON_AGENT_AGENT_H

#include <stdint.h>
#include <stdio.h>

#include "socmon/sample.h"
#include "socmon/target.h"

/* Called from the sampling thread (agent) or the collector's thread: must not
 * block nor allocate on the sampling thread. Any of them may be NULL. The
 * agent never calls on_gap: its ring is fed by its own sampler, which flags
 * missed intervals in the samples themselves; a collector calls it for every
 * GAP it receives. */
typedef struct agent_hooks {
    void *user;
    void (*on_sample)(void *user, uint64_t seq, const socmon_sample *s);
    void (*on_gap)(void *user, uint64_t first_seq, uint64_t count, uint64_t t0_ns, uint64_t t1_ns);
    void (*on_end)(void *user, int32_t status, const char *reason);
    /* A CONFIG replaced the set (agent --allow-config): later samples are of
     * `set`'s counters. Called on the sampling thread between two samples. */
    void (*on_config)(void *user, const socmon_set *set);
} agent_hooks;

typedef struct agent_opts {
    const char *listen;         /* ADDR:PORT; NULL: 127.0.0.1:7461 */
    const char *token;          /* NULL: none, and only a loopback bind is allowed */
    const char *workload;       /* NULL: the target's default */
    const char *events;         /* the -e the set was made with (said in HELLO; CONFIG replaces it) */
    uint64_t interval_ns;       /* > 0 */
    uint64_t duration_ns;       /* 0: until the workload ends */
    int pace;                   /* a model is paced to the wall clock (hardware always is) */
    int allow_config;           /* accept CONFIG frames */
    int wait_collector;         /* start sampling when the first collector subscribes */
    size_t ring;                /* samples; 0: the default (agent_default_ring) */
    unsigned max_clients;       /* 0: 8 */
    unsigned wire_version;      /* the protocol version spoken (WIRE_VERSION_MIN..WIRE_VERSION); 0: the newest */
    FILE *log;                  /* where connections and refusals are logged; NULL: stderr */
    agent_hooks hooks;
} agent_opts;

typedef struct agent agent;

/* Binds the listening socket (so a bad address or a refused bind fails here,
 * before anything runs) and allocates the ring. */
socmon_status agent_new(socmon_target *t, socmon_set *set, const agent_opts *o, agent **out);
/* The address bound ("127.0.0.1:40123") and its port. */
const char *agent_address(const agent *a);
unsigned agent_port(const agent *a);
/* Starts the workload and both threads. */
socmon_status agent_start(agent *a);
/* 1 once the run is over (workload done, duration reached, or a failure). */
int agent_run_ended(agent *a);
/* 1 once the run is over, some collector received the END and no
 * subscribed collector has samples left to receive. */
int agent_drained(agent *a);
/* Stops sampling (at the next sample) and serving, joins the threads. */
void agent_stop(agent *a);
/* The run's status: SOCMON_OK, or the sampler's failure (message in msg). */
socmon_status agent_run_status(agent *a, char *msg, size_t len);
void agent_free(agent *a);

typedef struct agent_stats {
    uint64_t samples;       /* taken */
    uint64_t cpu_ns;        /* sampling thread's CPU time */
    uint64_t bus_accesses;  /* reads + writes on the target's bus (0 if it has none) */
    uint64_t overwritten;   /* samples a subscribed collector lost to the ring */
    uint64_t clients_total; /* connections accepted */
    uint64_t refused;       /* connections refused or dropped */
    uint64_t bytes_sent;
} agent_stats;
void agent_get_stats(agent *a, agent_stats *out);

/* Default ring size for n counters: 65536 samples, fewer when that would take
 * more than 64 MiB of values, never fewer than 64. */
size_t agent_default_ring(size_t ncounters);

#endif
