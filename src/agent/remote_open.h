/* An agent's stream opened as a command's source (--remote HOST:PORT): connected with the
 * token of token_file, -e sent as a CONFIG (the agent takes it only with --allow-config), and
 * the window chosen: from the agent's next sample (now) or from the oldest it still holds. */
#ifndef SOCMON_AGENT_REMOTE_OPEN_H
#define SOCMON_AGENT_REMOTE_OPEN_H

#include "agent/collector_source.h"

enum { REMOTE_FROM_NOW = 1, REMOTE_FROM_OLDEST };

typedef struct remote_open_opts {
    const char *addr;            /* HOST:PORT */
    const char *token_file;      /* NULL: no token */
    const char *events;          /* NULL: what the agent counts */
    int from;                    /* REMOTE_FROM_*; 0: now with a duration, else oldest */
    uint64_t duration_ns;        /* the window's length in the target's time (0: to the END) */
    uint64_t idle_ns;            /* how long the agent may send nothing (0: COLLECTOR_IDLE_MS) */
} remote_open_opts;

/* The source, and where its window starts (*from: REMOTE_FROM_*). */
socmon_status remote_open(const remote_open_opts *o, socmon_source **out, int *from);

#endif
