/* Starting the live view's HTTP server from command-line options (serve.h): the address, the
 * token, the Host names, the port file (serve/http_serve.c starts it), and the lines saying
 * where it serves. */
#include <stdio.h>

#include "cli/serve.h"
#include "export/web_assets.h"

int serve_http_start(serve_http *s, smn_live *lv, const char *addr, const char *token,
                     const char *const *hosts, size_t nhosts, const char *port_file, const char *who)
{
    char what[64];
    snprintf(what, sizeof what, "%s: --http", who);
    smn_http_opts ho = {.listen = addr ? addr : SERVE_DEFAULT_ADDR ":" SERVE_DEFAULT_PORT, .token = token,
                           .hosts = hosts, .nhosts = nhosts, .who = who,
                           .collectors = s->collectors};
    int port_failed = 0;
    socmon_status st = smn_http_serve(lv, &ho, port_file, &s->h, &port_failed);
    if (st != SOCMON_OK)
        return cli_error(port_failed ? who : what, st);
    fprintf(stderr, "%s: serving %s\n", who, socmon_http_url(s->h));
    if (!smn_web_built())
        fprintf(stderr, "%s: built without the web page (-DSOCMON_WEB=OFF): no charts at /; /metrics and "
                        "/api/stream work\n", who);
    return 0;
}

void serve_http_stop(serve_http *s)
{
    socmon_http_stop(s->h);
    s->h = NULL;
}
