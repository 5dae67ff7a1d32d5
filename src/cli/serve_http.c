/* Starting the live view's HTTP server from command-line options (serve.h): the token file,
 * the address, the port file that lets scripts and tests ask for port 0 without races (the
 * agent's helpers in agent/net.h, so both servers follow the same rules). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "agent/net.h"
#include "cli/serve.h"
#include "core/error.h"

int serve_http_start(serve_http *s, socmon_live *lv, const cli_opts *o, const char *who)
{
    char what[64], *token = NULL;
    snprintf(what, sizeof what, "%s: --http", who);
    socmon_status st = SOCMON_OK;
    if (o->token_file) {
        if (!(token = calloc(1, NET_TOKEN_MAX)))
            return cli_error(who, socmon_fail(SOCMON_ENOMEM, "out of memory"));
        if ((st = net_read_token(o->token_file, token)) != SOCMON_OK) {
            free(token);
            return cli_error(who, st);
        }
    }
    socmon_http_opts ho = {.listen = o->http ? o->http : SERVE_DEFAULT_ADDR ":" SERVE_DEFAULT_PORT,
                           .token = token, .who = who};
    st = socmon_http_start(lv, &ho, &s->h);
    if (token) {
        memset(token, 0, NET_TOKEN_MAX);
        free(token);
    }
    if (st != SOCMON_OK)
        return cli_error(what, st);
    if (o->port_file && (st = net_write_port_file(o->port_file, socmon_http_port(s->h))) != SOCMON_OK) {
        serve_http_stop(s);
        return cli_error(who, st);
    }
    fprintf(stderr, "%s: serving %s\n", who, socmon_http_url(s->h));
    return 0;
}

void serve_http_stop(serve_http *s)
{
    socmon_http_stop(s->h);
    s->h = NULL;
}
