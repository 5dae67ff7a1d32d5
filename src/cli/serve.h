/* What `socmon serve` and `socmon agent --http` share: starting the HTTP server of a live view
 * from the command line's options (--http, --token-file, --port-file), and serve's remote mode. */
#ifndef SOCMON_CLI_SERVE_H
#define SOCMON_CLI_SERVE_H

#include "agent/http.h"
#include "agent/live.h"
#include "cli/opts.h"

#define SERVE_DEFAULT_ADDR "127.0.0.1"
#define SERVE_DEFAULT_PORT "7462"

typedef struct serve_http {
    socmon_http *h;
} serve_http;

/* Starts the server of lv on o->http (default 127.0.0.1:7462) with the token of o->token_file,
 * prints "<who>: serving http://ADDR:PORT/" on stderr and writes the port to o->port_file.
 * Returns 0, or the exit code after printing the error. */
int serve_http_start(serve_http *s, socmon_live *lv, const cli_opts *o, const char *who);
/* Stops the server (NULL-safe; a server never started is fine). */
void serve_http_stop(serve_http *s);

/* socmon serve --remote: the live view fed by a collector. Returns the exit code. */
int serve_remote(cli_opts *o);

#endif
