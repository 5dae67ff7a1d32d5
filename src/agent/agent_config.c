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
    pthread_mutex_lock(&a->mu);
    while (atomic_load(&a->config_pending) && !atomic_load(&a->stop))
        pthread_cond_wait(&a->cv, &a->mu);
    pthread_mutex_unlock(&a->mu);
    /* The live view (agent --http) follows the new schema before its next sample. */
    if (a->o.hooks.on_config)
        a->o.hooks.on_config(a->o.hooks.user, a->set);
}

void agent_config_swap(agent *a)
{
    socmon_set *set = NULL;
    socmon_status st = socmon_set_new(socmon_target_device(a->t), a->config_events[0] ? a->config_events : NULL, &set);
    char msg[WIRE_MAX_STR + 600];
    snprintf(msg, sizeof msg, "CONFIG '%s' failed: %s", a->config_events, socmon_errmsg());
    socmon_set *old_set = a->set, *old_own = a->own_set;
    if (st == SOCMON_OK) {
        ring_state rs;
        ring_get_state(a->ring, &rs);
        a->set = set;
        if ((st = agent_schema(a, rs.next)) != SOCMON_OK) {
            snprintf(msg, sizeof msg, "CONFIG '%s' failed: %s", a->config_events, socmon_errmsg());
            a->set = old_set;
            socmon_set_free(set);
        } else {
            a->own_set = set;
            socmon_set_free(old_own);
            snprintf(a->events, sizeof a->events, "%s", a->config_events);
            a->config_gen++;
            agent_log(a, "CONFIG applied: now counting %zu counters ('%s'), config generation %llu, from seq %llu",
                      a->nc, a->events, (unsigned long long)a->config_gen, (unsigned long long)rs.next);
        }
    }
    if (st != SOCMON_OK) {
        agent_log(a, "%s", msg);
        for (size_t i = 0; i < a->nclients_cur; i++)
            if (agent_client_id(a->clients[i]) == a->config_client)
                wire_put_error(agent_client_out(a->clients[i]), WIRE_ERR_CONFIG, msg);
    }
    pthread_mutex_lock(&a->mu);
    atomic_store(&a->config_pending, 0);
    pthread_cond_broadcast(&a->cv);
    pthread_mutex_unlock(&a->mu);
}
