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

socmon_status cli_rw_add(smn_rw *rw, smn_session *s)
{
    socmon_consumer c = rw ? smn_rw_consumer(rw) : (socmon_consumer){0};
    return rw ? smn_session_add(s, &c) : SOCMON_OK;
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
