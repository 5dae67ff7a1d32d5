/* An agent's stream as a command's source (remote_open.h). */
#include <string.h>

#include "agent/remote_open.h"
#include "serve/net.h"

socmon_status remote_open(const remote_open_opts *o, socmon_source **out, int *from)
{
    char token[NET_TOKEN_MAX];
    collector *c = NULL;
    socmon_status st = o->token_file ? net_read_token(o->token_file, token) : SOCMON_OK;
    if (st == SOCMON_OK)
        st = collector_connect(o->addr, o->token_file ? token : NULL, 10000, &c);
    memset(token, 0, sizeof token);
    if (st == SOCMON_OK && o->events)
        st = collector_configure(c, o->events, 10000);
    if (st != SOCMON_OK) {
        collector_close(c);
        return st;
    }
    /* A window of -d is the next D from now: an agent that has run for a while must not hand over
     * the start of its run (issue 28). Without -d the whole of what the agent still holds. */
    *from = o->from ? o->from : o->duration_ns ? REMOTE_FROM_NOW : REMOTE_FROM_OLDEST;
    int idle_ms = o->idle_ns ? (int)((o->idle_ns + 999999) / 1000000) : COLLECTOR_IDLE_MS;
    /* rebase: the file starts at index 0 where it was asked to start; without --from or -d the
     * file holds the agent's run as its seqs number it, so what the ring no longer had is a gap */
    collector_source_opts co = {.mode = *from == REMOTE_FROM_NOW ? WIRE_SUB_LATEST : WIRE_SUB_OLDEST,
                                .duration_ns = o->duration_ns, .idle_ms = idle_ms,
                                .rebase = *from == REMOTE_FROM_NOW || o->from};
    return collector_source(c, &co, out);
}
