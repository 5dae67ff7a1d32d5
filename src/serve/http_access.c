/* Who the HTTP server answers (http_internal.h): the Host check against DNS rebinding and the
 * token. */
#include <arpa/inet.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>

#include "serve/http_internal.h"
#include "serve/net.h"

/* 1 if given is the token: compared in constant time over the whole NET_TOKEN_MAX buffers. */
static int token_matches(const http_access *a, const char *given)
{
    char buf[NET_TOKEN_MAX];
    size_t n = strlen(given);
    memset(buf, 0, sizeof buf);
    if (n >= sizeof buf)
        return 0;
    memcpy(buf, given, n);
    return net_token_equal(buf, a->token);
}

/* 1 if the request carries the token (header, query or cookie); 0 and *why otherwise. */
int http_authorized(const http_access *a, struct MHD_Connection *c, const char **why)
{
    const char *auth = MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_AUTHORIZATION);
    const char *q = MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND, "token");
    const char *ck = MHD_lookup_connection_value(c, MHD_COOKIE_KIND, HTTP_TOKEN_COOKIE);
    int ok = 0;
    /* the scheme is case-insensitive (RFC 7235 2.1: "bearer" is as good as "Bearer") */
    if (auth && strncasecmp(auth, "Bearer ", 7) == 0) {
        const char *t = auth + 7;
        t += strspn(t, " ");
        ok |= token_matches(a, t);
    }
    if (q)
        ok |= token_matches(a, q);
    if (ck)
        ok |= token_matches(a, ck);
    *why = ok ? NULL : auth || q || ck ? "wrong token" : "no token";
    return ok;
}

/* 1 if name[0..n) is an IPv4 literal, or (brackets included) an IPv6 one. */
static int ip_literal(const char *name, size_t n)
{
    char buf[64];
    unsigned char a[16];
    if (n >= sizeof buf)
        return 0;
    if (n > 2 && name[0] == '[' && name[n - 1] == ']') {
        memcpy(buf, name + 1, n - 2);
        buf[n - 2] = '\0';
        return inet_pton(AF_INET6, buf, a) == 1;
    }
    memcpy(buf, name, n);
    buf[n] = '\0';
    return inet_pton(AF_INET, buf, a) == 1;
}

/* The DNS-rebinding guard: a page of evil.example whose name an attacker points at 127.0.0.1
 * may send requests here, but its Host header still says evil.example. So a Host must be an IP
 * literal (which no rebinding can forge: it names no domain), localhost, or a name given with
 * --http-host; a port after it is allowed whatever it is (a proxy's may differ from ours). No
 * Host at all is HTTP/1.0 from a program, not a browser (browsers always send one; libmicrohttpd
 * refuses HTTP/1.1 without one): accepted. */
int http_host_allowed(const http_access *a, const char *host)
{
    if (!host || a->any_host)
        return 1;
    size_t n = strlen(host);
    const char *colon = host[0] == '[' ? strchr(host, ']') : strchr(host, ':');
    if (host[0] == '[') {
        if (!colon)
            return 0;
        colon = colon[1] ? colon + 1 : NULL;
        if (colon && *colon != ':')
            return 0;
    }
    if (colon) {
        if (!colon[1] || strspn(colon + 1, "0123456789") != strlen(colon + 1) || strlen(colon + 1) > 5)
            return 0;
        n = (size_t)(colon - host);
    }
    if (n && host[n - 1] == '.')   /* "localhost." is the same name, fully qualified */
        n--;
    if (n == 0)
        return 0;
    if (ip_literal(host, n) || (n == 9 && strncasecmp(host, "localhost", 9) == 0))
        return 1;
    for (size_t i = 0; i < a->nhosts; i++)
        if (strlen(a->hosts[i]) == n && strncasecmp(host, a->hosts[i], n) == 0)
            return 1;
    return 0;
}

/* --http-host's names: each entry a comma-separated list of DNS names, or "*" (no check). */
static socmon_status set_hosts(http_access *a, const char *const *hosts, size_t nhosts)
{
    for (size_t i = 0; i < nhosts; i++) {
        for (const char *p = hosts[i]; p && *p;) {
            size_t n = strcspn(p, ",");
            if (n == 1 && *p == '*') {
                a->any_host = 1;
            } else if (n == 0 || n > 253 || strspn(p, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
                                                       "0123456789.-_") < n || p[0] == '.' || p[0] == '-') {
                return socmon_fail(SOCMON_EINVAL, "host name '%.*s' (of --http-host '%s'): expected a DNS name (letters, "
                                   "digits, '.', '-', '_'; up to 253) or '*' (any)", (int)(n > 300 ? 300 : n), p,
                                   hosts[i]);
            } else if (a->nhosts == HTTP_HOSTS_MAX) {
                return socmon_fail(SOCMON_EINVAL, "http host names: more than %d", HTTP_HOSTS_MAX);
            } else {
                memcpy(a->hosts[a->nhosts], p, n);
                a->hosts[a->nhosts][n] = '\0';
                if (n > 1 && a->hosts[a->nhosts][n - 1] == '.')   /* "board.local." is "board.local" */
                    a->hosts[a->nhosts][n - 1] = '\0';
                a->nhosts++;
            }
            p += n + (p[n] == ',');
        }
    }
    return SOCMON_OK;
}

socmon_status http_access_init(http_access *a, const char *token, const char *const *hosts, size_t nhosts)
{
    memset(a, 0, sizeof *a);
    size_t tl = token ? strlen(token) : 0;
    if (token && (tl == 0 || tl >= NET_TOKEN_MAX))
        return socmon_fail(SOCMON_EINVAL, "http: the token must be 1..%d bytes", NET_TOKEN_MAX - 1);
    if (token && !(a->token = calloc(1, NET_TOKEN_MAX)))
        return socmon_fail(SOCMON_ENOMEM, "http: out of memory");
    if (token)
        memcpy(a->token, token, tl);
    return set_hosts(a, hosts, nhosts);
}

void http_access_free(http_access *a)
{
    if (a->token)
        memset(a->token, 0, NET_TOKEN_MAX);
    free(a->token);
    a->token = NULL;
}
