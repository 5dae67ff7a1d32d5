/* socmon agent --http: the agent's sampling hooks feeding the live view (serve.h), so a board
 * serves its own live page and /metrics next to the collectors' TCP port. The hooks run on the
 * sampling thread: socmon_live_push neither allocates nor waits beyond one short lock per row. */
#include "agent/agent.h"
#include "cli/serve.h"

static void on_sample(void *user, uint64_t seq, const socmon_sample *s)
{
    socmon_live_push(user, seq, s);
}

static void on_end(void *user, int32_t status, const char *reason)
{
    (void)status;
    (void)reason;
    socmon_live_end(user);
}

/* The live view's schema is fixed: a collector's CONFIG (--allow-config) replaced the counters,
 * so the page's run ends here; /metrics keeps the totals it had. */
static void on_config(void *user, const socmon_set *set)
{
    (void)set;
    socmon_live_end(user);
}

void serve_agent_hooks(agent_hooks *hooks, socmon_live *lv)
{
    hooks->user = lv;
    hooks->on_sample = on_sample;
    hooks->on_gap = NULL;
    hooks->on_end = on_end;
    hooks->on_config = on_config;
}
