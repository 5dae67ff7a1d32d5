/* --remote-write for agent, record and serve (cli_rw.h). */
#include <string.h>

#include "cli/cli_rw.h"
#include "serve/net.h"

int cli_rw_open(const cli_opts *o, const char *cmd, smn_rw **out)
{
    const cli_rw_opts *r = &o->rw;
    *out = NULL;
    if (!r->url) {
        const char *lone = r->token_file ? "--remote-write-token-file" : r->push_ns ? "--push-interval"
                           : r->queue ? "--remote-write-queue" : NULL;
        if (lone)
            fprintf(stderr, "socmon %s: %s goes with --remote-write URL, which was not given\n", cmd, lone);
        return lone ? 2 : 0;
    }
    char token[NET_TOKEN_MAX];
    socmon_status st = r->token_file ? net_read_token(r->token_file, token) : SOCMON_OK;
    if (st != SOCMON_OK) {
        fprintf(stderr, "socmon %s: --remote-write-token-file: %s\n", cmd, socmon_errmsg());
        return 1;
    }
    char who[64];
    snprintf(who, sizeof who, "socmon %s", cmd);
    smn_rw_opts ro = {.url = r->url, .token = r->token_file ? token : NULL, .push_ns = r->push_ns,
                      .queue = (size_t)r->queue, .who = who};
    st = smn_rw_new(&ro, out);
    memset(token, 0, sizeof token);
    if (st != SOCMON_OK) {
        fprintf(stderr, "socmon %s: --remote-write: %s\n", cmd, socmon_errmsg());
        return 2;
    }
    return 0;
}

socmon_status cli_rw_add(smn_rw *rw, socmon_pipeline *p)
{
    socmon_consumer c = rw ? smn_rw_consumer(rw) : (socmon_consumer){0};
    return rw ? socmon_pipeline_add(p, &c) : SOCMON_OK;
}

/* The agent's hooks before the writer's, and the writer: one per process (the agent has one run). */
static agent_hooks prev;
static smn_rw *agent_rw;

static void on_sample(void *user, uint64_t seq, const socmon_sample *s)
{
    if (prev.on_sample)
        prev.on_sample(prev.user, seq, s);
    smn_rw_sample(agent_rw, seq, s);
    (void)user;
}

static void on_end(void *user, int32_t status, const char *reason)
{
    if (prev.on_end)
        prev.on_end(prev.user, status, reason);
    smn_rw_end(agent_rw);
    (void)user;
}

/* A CONFIG replaced the counters: the series pushed so far are of the old set, so pushing
 * ends here (as the live view's run does). */
static void on_config(void *user, const socmon_set *set)
{
    if (prev.on_config)
        prev.on_config(prev.user, set);
    smn_rw_end(agent_rw);
    (void)user;
}

socmon_status cli_rw_agent(smn_rw *rw, agent_opts *ao, const socmon_set *set, const char *target,
                           const socmon_metricset *ms, int simulated)
{
    if (!rw)
        return SOCMON_OK;
    socmon_status st = smn_rw_attach_set(rw, set, target, ao->workload, ao->interval_ns, simulated, ms);
    if (st != SOCMON_OK)
        return st;
    prev = ao->hooks;
    agent_rw = rw;
    ao->hooks = (agent_hooks){.user = rw, .on_sample = on_sample, .on_end = on_end, .on_config = on_config,
                              .on_gap = prev.on_gap};
    return SOCMON_OK;
}

void cli_rw_close(smn_rw *rw, const char *cmd, FILE *to)
{
    if (!rw)
        return;
    smn_rw_finish(rw);
    char line[1024];
    smn_rw_summary(rw, line, sizeof line);
    fprintf(to, "socmon %s: %s\n", cmd, line);
    smn_rw_free(rw);
}
