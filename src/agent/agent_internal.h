/* Internal to the agent: its state, shared by agent.c (lifecycle and the
 * sampling thread), agent_server.c (the server thread and its clients) and
 * agent_config.c (CONFIG). */
#ifndef SOCMON_AGENT_AGENT_INTERNAL_H
#define SOCMON_AGENT_AGENT_INTERNAL_H

#include <pthread.h>
#include <stdatomic.h>

#include "agent/agent.h"
#include "serve/net.h"
#include "agent/ring.h"
#include "agent/wire.h"

typedef struct agent_client agent_client;

struct agent {
    smn_session *sess;          /* the caller's: the run, its target and counters (a CONFIG
                                   chooses them anew: smn_session_reselect) */
    socmon_target *t;
    socmon_set *set;            /* the session's, followed through CONFIGs */
    agent_opts o;
    char events[WIRE_MAX_STR + 1];
    char token[NET_TOKEN_MAX];  /* zero-padded: compared over the whole buffer */
    int has_token;
    ring *ring;
    uint64_t *masks;            /* per counter of set: 2^width - 1 */
    size_t nc;
    wire_hello hello;           /* the template: counters and params borrowed from set */

    int lfd;
    char addr[NET_ADDR_MAX];
    unsigned port;
    int wake[2];                /* the sampling thread nudges the server through this pipe */
    atomic_int armed;           /* the server is about to sleep: a nudge is needed */

    pthread_t sampler_th, server_th;
    int sampler_started, server_started;
    atomic_int stop;
    atomic_int run_ended;
    atomic_int drained;

    pthread_mutex_t mu;         /* guards the fields below */
    pthread_cond_t cv;          /* subscribed, config requests and their answers */
    int subscribed;             /* some collector subscribed (for wait_collector) */
    socmon_status run_st;
    char run_msg[512];
    /* the agent stopped itself: its server thread could not go on (agent_fail) */
    int failed;
    char fail_msg[512];
    /* CONFIG: the server posts a request, the sampling thread applies it between runs */
    atomic_int config_pending;  /* 1: asked, 2: sampler paused, 3: run over (refuse), 0: done */
    uint64_t config_client;     /* which client asked (its id), to answer it */
    char config_events[WIRE_MAX_STR + 1];
    socmon_status config_st;
    char config_msg[512];
    uint64_t config_gen;        /* bumped by every applied CONFIG */

    uint64_t nsamples;          /* sampling thread only */
    uint64_t elapsed_ns;        /* sampling thread: the run's target time before this CONFIG */
    uint32_t nudge_every;       /* samples between nudges (1 but for an unpaced model) */
    atomic_uint_fast64_t samples, cpu_ns, bus_accesses;
    atomic_uint_fast64_t clients_total, refused, bytes_sent, nclients;

    /* server thread only */
    agent_client **clients;
    size_t nclients_cur;
    wire_samples scratch;       /* one block copied out of the ring */
    uint32_t block_max;
    uint64_t next_client_id;
    int ever_end;               /* some collector received END */
    uint64_t peer_log_window;   /* lines about unauthenticated peers: this window's start */
    uint64_t peer_log_lines;    /* ... lines in it */
    uint64_t peer_log_skipped;  /* ... and how many were left out */
    uint64_t accept_resume;     /* out of fds: the listening socket is polled again from then */
    int starving;               /* accept4 is failing for want of fds */
    int starve_told;            /* ... and the log says so (not again within 10 s) */
    uint64_t starve_told_at;
};

void *agent_server_main(void *arg);
/* Builds masks, hello template and ring for a->set (agent_new and CONFIG). */
socmon_status agent_schema(agent *a, uint64_t first_seq);
/* The agent cannot serve on (the server thread out of memory, poll failing, a CONFIG that left
 * no counters): says why, stops the agent; agent_wait returns 1 with msg. */
void agent_fail(agent *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* CONFIG (agent_config.c): the sampling thread, its run stopped for a
 * request, waits here while the server swaps the set; the server calls
 * agent_config_swap when it sees config_pending == 2. */
void agent_config_wait(agent *a);
void agent_config_swap(agent *a);
uint64_t agent_client_id(const agent_client *c);
wire_buf *agent_client_out(agent_client *c);
void agent_log(agent *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
