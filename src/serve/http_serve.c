/* A server started for a command (http.h's smn_http_serve): its threads never take SIGINT or
 * SIGTERM, so a signal always reaches the main thread, which waits for it; and the port it
 * bound written to a file, which lets scripts and tests ask for port 0 without races. */
#include <pthread.h>
#include <signal.h>

#include "serve/http.h"
#include "serve/net.h"

socmon_status smn_http_serve(smn_live *lv, const smn_http_opts *ho, const char *port_file, smn_http **out,
                             int *port_failed)
{
    /* The server's threads (and the connection threads they start) inherit this mask. */
    sigset_t block, old;
    sigemptyset(&block);
    sigaddset(&block, SIGINT);
    sigaddset(&block, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &block, &old);
    socmon_status st = socmon_http_start(lv, ho, out);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    *port_failed = 0;
    if (st == SOCMON_OK && port_file && (st = net_write_port_file(port_file, socmon_http_port(*out))) != SOCMON_OK) {
        *port_failed = 1;
        socmon_http_stop(*out);
        *out = NULL;
    }
    return st;
}
