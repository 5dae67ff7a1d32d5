/* CONFIG: a collector changes what the agent counts (agent --allow-config).
 *
 * The request replaces the counter set with the counters that the CONFIG's
 * -e patterns select. It is applied between two samples: the sampling thread
 * ends its sampler run at the next sample and waits; the server thread (the
 * only reader of the ring) builds the new set and a new ring whose numbering
 * continues, answers a bad pattern with an ERROR to the asker (the old set
 * then goes on), and sends every collector a new HELLO (config generation
 * + 1) before the samples of the new set. A collector still behind at that
 * moment gets a GAP for the old samples it had not read. The new run's
 * first sample is a fresh reading, so no delta ever spans the change.
 * Without --allow-config the agent answers every CONFIG with an ERROR and
 * logs it; nothing changes. */
#include <string.h>
#include <unistd.h>

#include "agent/agent_internal.h"
#include "socmon/status.h"

void agent_config_wait(agent *a)
{
    pthread_mutex_lock(&a->mu);
    atomic_store(&a->config_pending, 2);
    pthread_mutex_unlock(&a->mu);
    atomic_store(&a->armed, 1);
    char c = 1;
    ssize_t n = write(a->wake[1], &c, 1);
    (void)n;
    /* Until the server has applied this CONFIG (2 -> 0). Not until 0: the collector's next CONFIG
     * may set 1 before this thread wakes, and waiting on that one (which waits for this thread to
     * pause) hung the agent, every later CONFIG refused as "another is in progress". On a 1 the
     * sampler's run stops at once and it comes back here for the new CONFIG. */
    pthread_mutex_lock(&a->mu);
    while (atomic_load(&a->config_pending) == 2 && !atomic_load(&a->stop))
        pthread_cond_wait(&a->cv, &a->mu);
    pthread_mutex_unlock(&a->mu);
}

/* The old counters back, as the ring and HELLO still describe them, after a CONFIG that chose
 * its counters but could not go on (no schema, or no pipeline for them: out of memory). */
static void config_restore(agent *a, uint64_t left)
{
    if (smn_session_reselect(a->sess, a->events[0] ? a->events : NULL, left) == SOCMON_OK)
        a->set = smn_session_set(a->sess);
    else
        agent_fail(a, "CONFIG: the old counters could not be chosen again (%s): the run stops", socmon_errmsg());
}

void agent_config_swap(agent *a)
{
    /* the session's counters anew (the old set goes with it), sampling what remains of the run */
    uint64_t left = a->o.duration_ns ? a->o.duration_ns - a->elapsed_ns : 0;
    socmon_status st = smn_session_reselect(a->sess, a->config_events[0] ? a->config_events : NULL, left);
    char msg[WIRE_MAX_STR + 600];
    snprintf(msg, sizeof msg, "CONFIG '%s' failed: %s", a->config_events, socmon_errmsg());
    if (st == SOCMON_OK) {
        ring_state rs;
        ring_get_state(a->ring, &rs);
        a->set = smn_session_set(a->sess);
        if ((st = agent_schema(a, rs.next)) != SOCMON_OK) {
            snprintf(msg, sizeof msg, "CONFIG '%s' failed: %s", a->config_events, socmon_errmsg());
            config_restore(a, left);
        } else {
            snprintf(a->events, sizeof a->events, "%s", a->config_events);
            a->config_gen++;
            agent_log(a, "CONFIG applied: now counting %zu counters ('%s'), config generation %llu, from seq %llu",
                      a->nc, a->events, (unsigned long long)a->config_gen, (unsigned long long)rs.next);
        }
    } else if (smn_session_broken(a->sess)) {
        /* the target counts the new counters but no pipeline reads them, and a->set is the
         * counter set the reselect retired: left so, the agent's next run failed, and a->set
         * was freed by the first drop_retired after a later CONFIG mended the session */
        config_restore(a, left);
    }
    if (st != SOCMON_OK) {
        agent_log(a, "%s", msg);
        for (size_t i = 0; i < a->nclients_cur; i++)
            if (agent_client_id(a->clients[i]) == a->config_client)
                wire_put_error(agent_client_out(a->clients[i]), WIRE_ERR_CONFIG, msg);
    }
    /* What the CONFIG replaced goes now, not at the close (each CONFIG would keep a set, a source
     * and a pipeline to the end: a collector sending them in a loop grew the agent): the old run
     * has ended and the sampling thread waits for config_pending, and the ring keeps nothing its
     * begin was given. The live view of --http and the remote writer keep what the session began
     * with and what their first begin gave to the close (their schema is fixed), and
     * drop_retired keeps those two generations: freeing them had /metrics and the pushes read
     * freed memory (tests/agent/agent_config_http.test.sh). */
    smn_session_drop_retired(a->sess);
    pthread_mutex_lock(&a->mu);
    atomic_store(&a->config_pending, 0);
    pthread_cond_broadcast(&a->cv);
    pthread_mutex_unlock(&a->mu);
}
