/* `socmon agent`: samples a target in one thread into a ring and serves the
 * samples to collectors over TCP (docs/agent.md, docs/agent-protocol.md).
 *
 * The run is a session's (analysis/session.h): the caller describes it as a
 * plan and opens it, adds any consumers of its own (the live view of
 * --http), and the agent adds its ring as one more consumer. Two threads: the
 * sampling thread runs the session (nothing allocated per sample), and the
 * server thread polls the listening socket and every client, each with its
 * own cursor into the ring. The caller closes the session after agent_free. */
#ifndef SOCMON_AGENT_AGENT_H
#define SOCMON_AGENT_AGENT_H

#include <stdint.h>
#include <stdio.h>

#include "analysis/session.h"
#include "socmon/sample.h"
#include "socmon/target.h"

typedef struct agent_opts {
    const char *listen;         /* ADDR:PORT; NULL: 127.0.0.1:7461 */
    const char *token;          /* NULL: none, and only a loopback bind is allowed */
    /* what HELLO says of the session's plan */
    const char *workload;       /* NULL: the target's default */
    const char *events;         /* the -e the set was made with (CONFIG replaces it) */
    uint64_t interval_ns;       /* > 0: the session's */
    uint64_t duration_ns;       /* 0: until the workload ends */
    int pace;                   /* a model is paced to the wall clock (hardware always is) */
    int allow_config;           /* accept CONFIG frames */
    int wait_collector;         /* start sampling when the first collector subscribes */
    size_t ring;                /* samples; 0: the default (agent_default_ring) */
    unsigned max_clients;       /* 0: 8 */
    unsigned wire_version;      /* the protocol version spoken (WIRE_VERSION_MIN..WIRE_VERSION); 0: the newest */
    FILE *log;                  /* where connections and refusals are logged; NULL: stderr */
} agent_opts;

typedef struct agent agent;

/* Binds the listening socket (so a bad address or a refused bind fails here,
 * before anything runs), allocates the ring and adds it to s as a consumer.
 * s is a target's session whose plan the caller starts (sampling.started). */
socmon_status agent_new(smn_session *s, const agent_opts *o, agent **out);
/* The address bound ("127.0.0.1:40123") and its port. */
const char *agent_address(const agent *a);
unsigned agent_port(const agent *a);
/* Starts the workload (smn_session_start) and both threads. */
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
/* Nonzero once the agent stopped itself because it could not serve on (its message in msg). */
int agent_failed(agent *a, char *msg, size_t len);
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
/* Serves until should_stop (-1), or with exit_when_drained until every collector has the end
 * (0); the run's end is said once, a failed run's error ends the wait (1). (agent_wait.c) */
int agent_wait(agent *a, int exit_when_drained, int (*should_stop)(void *user), void *user,
               void (*say)(void *user, const char *line));
/* "N samples; sampling thread CPU ... us/sample ...": what the agent itself cost. */
void agent_cost_line(agent *a, char *buf, size_t len);

/* Default ring size for n counters: 65536 samples, fewer when that would take
 * more than 64 MiB of values, never fewer than 64. */
size_t agent_default_ring(size_t ncounters);

#endif
