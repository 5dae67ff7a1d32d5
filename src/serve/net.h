/* Socket helpers shared by the agent, the collector and the HTTP server:
 * ADDR:PORT parsing ("127.0.0.1:7461", "[::1]:7461", "host:0"), listening
 * (port 0 picks a free port, reported back), connecting with clear errors,
 * loopback checks for the bind rules, peer names for logs, and the token
 * (read from a file, compared in constant time). A peer's text is escaped
 * through core/text.h. */
#ifndef SOCMON_AGENT_NET_H
#define SOCMON_AGENT_NET_H

#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

#include "socmon/status.h"

#define NET_DEFAULT_PORT 7461
#define NET_ADDR_MAX 300
#define NET_TOKEN_MAX 4096

/* Splits "HOST:PORT" or "[V6]:PORT" into host and port (0..65535). A spec
 * with no port, an empty host, or a bad port is an error naming the spec. */
socmon_status net_split(const char *spec, char *host, size_t hostlen, unsigned *port);

/* Binds and listens on spec (nonblocking, SO_REUSEADDR). *loopback says
 * whether every address it bound is a loopback one; bound gets the address
 * actually bound ("127.0.0.1:40123", the port resolved when spec said 0). */
socmon_status net_listen(const char *spec, int *fd, int *loopback, char *bound, size_t boundlen);

/* Connects to spec (blocking, at most timeout_ms per address), TCP_NODELAY. */
socmon_status net_connect(const char *spec, int timeout_ms, int *fd);

/* 1 if sa is 127.0.0.0/8, ::1 or ::ffff:127.x.y.z. */
int net_is_loopback(const struct sockaddr *sa);
/* "127.0.0.1:5555" / "[::1]:5555" */
void net_format(const struct sockaddr *sa, char *buf, size_t len);
int net_set_nonblock(int fd);

/* Reads the token from path: its first line without the newline, 1..4095
 * bytes; refuses a file others can read (mode & 077) when it is a regular file.
 * buf has room for NET_TOKEN_MAX bytes. */
socmon_status net_read_token(const char *path, char *buf);
/* Constant-time comparison of two NUL-terminated tokens, each in a buffer of
 * at least NET_TOKEN_MAX bytes (all of which are read). */
int net_token_equal(const char *a, const char *b);

/* Writes "PORT\n" to path (a temporary file renamed over it, so a reader
 * polling for it never sees half a number). */
socmon_status net_write_port_file(const char *path, unsigned port);

#endif
