/* A collector pointed at an HTTP port (the agent's --http, or any web server): the answer to its
 * SUBSCRIBE starts "HTTP/1." instead of the wire magic. Said at once, naming the port to use,
 * instead of a wait for a HELLO that never comes or a "bad magic" that explains nothing. */
#define _GNU_SOURCE   /* memmem */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>

#include "agent/collector_internal.h"
#include "core/clock.h"
#include "core/text.h"

#define HTTP_BODY_WAIT_MS 300   /* for the rest of the answer: the body says which port */

int collector_is_http(const collector *c)
{
    return c->inlen >= 5 && memcmp(c->in, "HTTP/", 5) == 0;
}

/* More of the answer, until the server closes, a line of body has come, or the time is up. */
static void read_rest(collector *c)
{
    uint64_t deadline = smn_mono_ns() + (uint64_t)HTTP_BODY_WAIT_MS * 1000000u;
    for (;;) {
        const char *body = memmem(c->in, c->inlen, "\r\n\r\n", 4);
        if ((body && memchr(body + 4, '\n', c->inlen - (size_t)((const uint8_t *)body + 4 - c->in))) ||
            c->inlen + 1 >= c->incap)
            return;
        uint64_t now = smn_mono_ns();
        if (now >= deadline)
            return;
        struct pollfd p = {c->fd, POLLIN, 0};
        if (poll(&p, 1, (int)((deadline - now) / 1000000u) + 1) <= 0)
            return;
        ssize_t got = recv(c->fd, c->in + c->inlen, c->incap - c->inlen - 1, MSG_DONTWAIT);
        if (got <= 0 && !(got < 0 && (errno == EAGAIN || errno == EINTR)))
            return;
        if (got > 0)
            c->inlen += (size_t)got;
    }
}

/* The first line of s (at most len bytes; at most 511 of it), escaped for a terminal, into out. */
static void first_line(char *out, size_t outlen, const char *s, size_t len)
{
    char raw[512];
    size_t n = 0;
    while (n < len && n < sizeof raw - 1 && s[n] != '\r' && s[n] != '\n')
        n++;
    memcpy(raw, s, n);
    raw[n] = '\0';
    smn_text_escape(out, outlen, raw);
}

void collector_http_describe(const uint8_t *in, size_t len, char *status, size_t slen, char *said, size_t saidlen)
{
    first_line(status, slen, (const char *)in, len);
    said[0] = '\0';
    const uint8_t *body = memmem(in, len, "\r\n\r\n", 4);
    if (body)
        first_line(said, saidlen, (const char *)body + 4, len - (size_t)(body + 4 - in));
}

socmon_status collector_http_failure(collector *c)
{
    read_rest(c);
    char status[600], said[600];
    collector_http_describe(c->in, c->inlen, status, sizeof status, said, sizeof said);
    return socmon_fail(SOCMON_EPARSE, "%s answered in HTTP (\"%s\"): a web server (an agent's --http port?), not "
                       "the port where an agent takes collectors: connect to the address of the agent's --listen "
                       "(default port %d)%s%s%s", c->addr, status, NET_DEFAULT_PORT,
                       said[0] ? "; the server says: \"" : "", said, said[0] ? "\"" : "");
}
