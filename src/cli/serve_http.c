/* Starting the live view's HTTP server from command-line options (serve.h): the token file,
 * the address, the port file that lets scripts and tests ask for port 0 without races (the
 * agent's helpers in agent/net.h, so both servers follow the same rules). */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>

#include "serve/net.h"
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
    /* The server's threads (and the connection threads they start) inherit this mask: a signal
     * then always reaches the main thread, which waits for it. */
    sigset_t block, old;
    sigemptyset(&block);
    sigaddset(&block, SIGINT);
    sigaddset(&block, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &block, &old);
    socmon_status st = socmon_http_start(lv, &ho, &s->h);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    if (st != SOCMON_OK)
        return cli_error(what, st);
    if (port_file && (st = net_write_port_file(port_file, socmon_http_port(s->h))) != SOCMON_OK) {
        serve_http_stop(s);
        return cli_error(who, st);
    }
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
