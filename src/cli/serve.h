/* What `socmon serve` and `socmon agent --http` share: starting the HTTP server of a live view
 * from the command line's options (--http, --http-host, --token-file, --port-file), and serve's
 * remote mode. */
#ifndef SOCMON_CLI_SERVE_H
#define SOCMON_CLI_SERVE_H

#include "serve/http.h"
#include "serve/live.h"
#include "cli/opts.h"

#define SERVE_DEFAULT_ADDR "127.0.0.1"
#define SERVE_DEFAULT_PORT "7462"

typedef struct serve_http {
    smn_http *h;
    const char *collectors;   /* set before serve_http_start by an agent: its --listen address,
                                 named to a collector that connects to the HTTP port by mistake */
} serve_http;

/* Starts the server of lv on addr (NULL: 127.0.0.1:7462) requiring token (NULL: none, loopback
 * only), answering to the Host names of hosts[nhosts] (--http-host) besides localhost and IP
 * addresses, prints "<who>: serving http://ADDR:PORT/" on stderr and writes the port to port_file
 * (if not NULL). Its threads never take SIGINT/SIGTERM (the main thread's wait does). Returns 0,
 * or the exit code after printing the error. */
int serve_http_start(serve_http *s, smn_live *lv, const char *addr, const char *token,
                     const char *const *hosts, size_t nhosts, const char *port_file, const char *who);
/* serve_http_start with serve's options: --http, --http-host, --token-file (the token of this
 * server, and of the agent with --remote), --port-file. */
int serve_start(serve_http *srv, smn_live *lv, const cli_opts *o);
/* Waits for SIGINT or SIGTERM (cli/stop.h's flag) without missing one that came just before. */
void serve_wait_signal(void);
/* Stops the server (NULL-safe; a server never started is fine). */
void serve_http_stop(serve_http *s);

#endif
