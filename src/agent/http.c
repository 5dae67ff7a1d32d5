/* The live view's HTTP server (http.h): binding under the agent's rules, routing, the token.
 *
 * libmicrohttpd runs one thread per connection: a page's event stream blocks in its own thread
 * waiting for the next row (http_stream.c) while other requests are answered by theirs, and the
 * connection limit bounds the threads. We bind the listening socket ourselves and hand it to
 * libmicrohttpd, so port 0 works (we read back the port the kernel chose) and the loopback check
 * sees the address that is really bound. */
#include "agent/http_internal.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "agent/net.h"
#include "core/error.h"
#include "export/web_assets.h"
#include "export/web_json.h"

#define HTTP_DEFAULT_CONNS 32
#define HTTP_IDLE_TIMEOUT_S 120
#define TOKEN_COOKIE "socmon_token"

struct socmon_http {
    struct MHD_Daemon *d;
    socmon_live *lv;
    char *token;        /* NET_TOKEN_MAX bytes, zero-padded (net_token_equal), or NULL */
    FILE *log;
    const char *who;
    uint16_t port;
    int family;
    char url[NET_ADDR_MAX + 16];
    char *info;         /* /api/info, made once: the schema never changes */
    size_t info_len;
};

static void logf_(socmon_http *h, const char *fmt, ...) SOCMON_PRINTF(2, 3);
static void logf_(socmon_http *h, const char *fmt, ...)
{
    char line[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    /* one fprintf per line: stdio locks the stream, so lines of two threads never mix */
    fprintf(h->log, "%s: %s\n", h->who, line);
    fflush(h->log);
}

/* Binds and listens on spec under the agent's rule: loopback, or a token. */
static socmon_status bind_listen(socmon_http *h, const char *spec, int have_token, int *fd)
{
    int loopback = 0;
    char bound[NET_ADDR_MAX];
    socmon_status st = net_listen(spec, fd, &loopback, bound, sizeof bound);
    if (st != SOCMON_OK)
        return st;
    if (!loopback && !have_token) {
        close(*fd);
        *fd = -1;
        return socmon_fail(SOCMON_EPERM, "http address '%s' is not loopback: serving other hosts needs a token "
                                         "(--token-file FILE; clients send 'Authorization: Bearer TOKEN')", spec);
    }
    struct sockaddr_storage ss;
    socklen_t sl = sizeof ss;
    getsockname(*fd, (struct sockaddr *)&ss, &sl);
    h->port = ntohs(ss.ss_family == AF_INET6 ? ((struct sockaddr_in6 *)&ss)->sin6_port
                                              : ((struct sockaddr_in *)&ss)->sin_port);
    h->family = ss.ss_family;
    snprintf(h->url, sizeof h->url, "http://%s/", bound);
    return SOCMON_OK;
}

struct MHD_Response *http_text_response(const char *text, size_t len, const char *mime)
{
    struct MHD_Response *r = MHD_create_response_from_buffer(len, (void *)text, MHD_RESPMEM_MUST_COPY);
    if (r) {
        MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, mime);
        MHD_add_response_header(r, "X-Content-Type-Options", "nosniff");
    }
    return r;
}

static enum MHD_Result send_text(struct MHD_Connection *c, unsigned status, const char *mime, const char *text,
                                 size_t len, const char *hname, const char *hval)
{
    struct MHD_Response *r = http_text_response(text, len, mime);
    if (!r)
        return MHD_NO;
    if (hname)
        MHD_add_response_header(r, hname, hval);
    enum MHD_Result ret = MHD_queue_response(c, status, r);
    MHD_destroy_response(r);
    return ret;
}

static enum MHD_Result send_msg_hdr(struct MHD_Connection *c, unsigned status, const char *msg, const char *hname,
                                    const char *hval)
{
    return send_text(c, status, "text/plain; charset=utf-8", msg, strlen(msg), hname, hval);
}

static enum MHD_Result send_msg(struct MHD_Connection *c, unsigned status, const char *msg)
{
    return send_msg_hdr(c, status, msg, NULL, NULL);
}

static void peer_name(struct MHD_Connection *c, char *buf, size_t len)
{
    const union MHD_ConnectionInfo *ci = MHD_get_connection_info(c, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    if (ci && ci->client_addr)
        net_format(ci->client_addr, buf, len);
    else
        snprintf(buf, len, "an unknown peer");
}

/* 1 if given is the token: compared in constant time over the whole NET_TOKEN_MAX buffers. */
static int token_matches(socmon_http *h, const char *given)
{
    char buf[NET_TOKEN_MAX];
    size_t n = strlen(given);
    memset(buf, 0, sizeof buf);
    if (n >= sizeof buf)
        return 0;
    memcpy(buf, given, n);
    return net_token_equal(buf, h->token);
}

/* 1 if the request carries the token (header, query or cookie); 0 and *why otherwise. */
static int authorized(socmon_http *h, struct MHD_Connection *c, const char **why)
{
    const char *auth = MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_AUTHORIZATION);
    const char *q = MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND, "token");
    const char *ck = MHD_lookup_connection_value(c, MHD_COOKIE_KIND, TOKEN_COOKIE);
    int ok = 0;
    if (auth && strncmp(auth, "Bearer ", 7) == 0)
        ok |= token_matches(h, auth + 7);
    if (q)
        ok |= token_matches(h, q);
    if (ck)
        ok |= token_matches(h, ck);
    *why = ok ? NULL : auth || q || ck ? "wrong token" : "no token";
    return ok;
}

/* A token that can go into a cookie as it is (what token files hold: hex, base64). */
static int cookie_safe(const char *t)
{
    return strspn(t, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~+/=") == strlen(t);
}

static enum MHD_Result send_asset(struct MHD_Connection *c, const char *name, const char *cookie)
{
    size_t len = 0;
    const char *mime = NULL;
    const unsigned char *data = socmon_web_asset(name, &len, &mime);
    if (!data)
        return send_msg(c, MHD_HTTP_NOT_FOUND, "socmon: no such asset\n");
    /* the assets are compiled in and live as long as the program: no copy */
    struct MHD_Response *r = MHD_create_response_from_buffer(len, (void *)data, MHD_RESPMEM_PERSISTENT);
    if (!r)
        return MHD_NO;
    MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, mime ? mime : "application/octet-stream");
    MHD_add_response_header(r, "X-Content-Type-Options", "nosniff");
    if (cookie)
        MHD_add_response_header(r, MHD_HTTP_HEADER_SET_COOKIE, cookie);
    enum MHD_Result ret = MHD_queue_response(c, MHD_HTTP_OK, r);
    MHD_destroy_response(r);
    return ret;
}

/* The schema made at start, plus the run's time origin once the first sample came (t0_ns: the
 * page's time axis starts there even when the history no longer holds the first rows). */
static enum MHD_Result send_info(socmon_http *h, struct MHD_Connection *c)
{
    socmon_live_state ls;
    socmon_live_snapshot(h->lv, NULL, NULL, &ls);
    char *text = malloc(h->info_len + 40);
    if (!text)
        return send_msg(c, MHD_HTTP_SERVICE_UNAVAILABLE, "socmon: out of memory\n");
    size_t n = h->info_len;
    memcpy(text, h->info, n);
    if (ls.started && n > 1 && text[n - 1] == '}')
        n += (size_t)snprintf(text + n - 1, 40, ",\"t0_ns\":%llu}", (unsigned long long)ls.t0_ns) - 1;
    enum MHD_Result ret = send_text(c, MHD_HTTP_OK, "application/json", text, n, MHD_HTTP_HEADER_CACHE_CONTROL,
                                    "no-store");
    free(text);
    return ret;
}

static enum MHD_Result on_request(void *cls, struct MHD_Connection *c, const char *url, const char *method,
                                  const char *version, const char *upload, size_t *upload_len, void **con_cls)
{
    socmon_http *h = cls;
    (void)version;
    (void)upload;
    (void)con_cls;
    if (*upload_len) {   /* a body nobody asked for: read and dropped */
        *upload_len = 0;
        return MHD_YES;
    }
    if (strcmp(method, MHD_HTTP_METHOD_GET) != 0 && strcmp(method, MHD_HTTP_METHOD_HEAD) != 0)
        return send_msg_hdr(c, MHD_HTTP_METHOD_NOT_ALLOWED, "socmon: only GET and HEAD\n", MHD_HTTP_HEADER_ALLOW,
                            "GET, HEAD");
    /* The page's scripts and styles are the same for everyone: public, so the page loads them
     * with plain <script src>; what the run shows needs the token. */
    if (strncmp(url, "/assets/", 8) == 0)
        return send_asset(c, url + 8, NULL);
    const char *why;
    if (h->token && !authorized(h, c, &why)) {
        char peer[NET_ADDR_MAX];
        peer_name(c, peer, sizeof peer);
        /* the path as the client sent it, but a log line must stay one printable line */
        char path[128];
        snprintf(path, sizeof path, "%s", url);
        for (char *p = path; *p; p++)
            if ((unsigned char)*p < 0x20 || (unsigned char)*p == 0x7f)
                *p = '?';
        logf_(h, "refused %s %s from %s: %s", method, path, peer, why);
        return send_msg_hdr(c, MHD_HTTP_UNAUTHORIZED,
                            "socmon: this server needs its token: 'Authorization: Bearer TOKEN' or ?token=TOKEN\n",
                            MHD_HTTP_HEADER_WWW_AUTHENTICATE, "Bearer realm=\"socmon\"");
    }
    if (strcmp(url, "/") == 0 || strcmp(url, "/index.html") == 0) {
        char cookie[600];
        const char *q = MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND, "token");
        int set = h->token && q && strlen(h->token) < 500 && cookie_safe(h->token);
        if (set)
            snprintf(cookie, sizeof cookie, TOKEN_COOKIE "=%s; Path=/; HttpOnly; SameSite=Strict", h->token);
        return send_asset(c, "index.html", set ? cookie : NULL);
    }
    if (strcmp(url, "/api/info") == 0)
        return send_info(h, c);
    if (strcmp(url, "/api/stream") == 0) {
        struct MHD_Response *r =
            http_stream_response(h->lv, MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND, "counters"));
        if (!r)
            return send_msg(c, MHD_HTTP_SERVICE_UNAVAILABLE, "socmon: out of memory\n");
        enum MHD_Result ret = MHD_queue_response(c, MHD_HTTP_OK, r);
        MHD_destroy_response(r);
        return ret;
    }
    if (strcmp(url, "/metrics") == 0) {
        const char *accept = MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_ACCEPT);
        unsigned status;
        const char *mime;
        struct MHD_Response *r =
            http_metrics_response(h->lv, accept && strstr(accept, "application/openmetrics-text"), &status, &mime);
        if (!r)
            return MHD_NO;
        enum MHD_Result ret = MHD_queue_response(c, status, r);
        MHD_destroy_response(r);
        return ret;
    }
    return send_msg(c, MHD_HTTP_NOT_FOUND,
                    "socmon: no such page (there are /, /api/info, /api/stream, /metrics, /assets/NAME)\n");
}

static void mhd_log(void *cls, const char *fmt, va_list ap) SOCMON_PRINTF(2, 0);
static void mhd_log(void *cls, const char *fmt, va_list ap)
{
    socmon_http *h = cls;
    char line[400];
    vsnprintf(line, sizeof line, fmt, ap);
    line[strcspn(line, "\n")] = '\0';
    /* a page closed while its stream was open is how streams end, not an error */
    if (strstr(line, "Failed to send") && strstr(line, "no longer available"))
        return;
    logf_(h, "%s", line);
}

static socmon_status make_info(socmon_http *h)
{
    const socmon_live_schema *s = socmon_live_schema_of(h->lv);
    socmon_counter_list cl = {s->ncounters, s->counters, s->names, NULL, 0, NULL};
    socmon_web_info_in in = {s->target, s->device, s->interval_ns, s->simulated, &cl, socmon_live_metrics(h->lv),
                             s->nparams, s->param_names, s->param_values};
    json_t *j = socmon_web_info_json(&in);
    if (!j)
        return socmon_fail(SOCMON_ENOMEM, "http: making /api/info: out of memory");
    h->info = json_dumps(j, JSON_COMPACT);
    json_decref(j);
    if (!h->info)
        return socmon_fail(SOCMON_ENOMEM, "http: making /api/info: out of memory");
    h->info_len = strlen(h->info);
    return SOCMON_OK;
}

socmon_status socmon_http_start(socmon_live *lv, const socmon_http_opts *opts, socmon_http **out)
{
    if (!out || !lv || !opts || !opts->listen)
        return socmon_fail(SOCMON_EINVAL, "socmon_http_start: no live view, options or address");
    *out = NULL;
    size_t tl = opts->token ? strlen(opts->token) : 0;
    if (opts->token && (tl == 0 || tl >= NET_TOKEN_MAX))
        return socmon_fail(SOCMON_EINVAL, "http: the token must be 1..%d bytes", NET_TOKEN_MAX - 1);
    socmon_http *h = calloc(1, sizeof *h);
    if (!h || (opts->token && !(h->token = calloc(1, NET_TOKEN_MAX)))) {
        free(h);
        return socmon_fail(SOCMON_ENOMEM, "http: out of memory");
    }
    if (opts->token)
        memcpy(h->token, opts->token, tl);
    h->lv = lv;
    h->log = opts->log ? opts->log : stderr;
    h->who = opts->who ? opts->who : "socmon http";
    int fd = -1;
    socmon_status st = bind_listen(h, opts->listen, opts->token != NULL, &fd);
    if (st == SOCMON_OK)
        st = make_info(h);
    if (st == SOCMON_OK) {
        unsigned flags = MHD_USE_THREAD_PER_CONNECTION | MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_ERROR_LOG |
                         (h->family == AF_INET6 ? MHD_USE_IPv6 : 0);
        h->d = MHD_start_daemon(flags, 0, NULL, NULL, on_request, h, MHD_OPTION_EXTERNAL_LOGGER, mhd_log, h,
                                MHD_OPTION_LISTEN_SOCKET, fd,
                                MHD_OPTION_CONNECTION_LIMIT, opts->max_conns ? opts->max_conns : HTTP_DEFAULT_CONNS,
                                MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)HTTP_IDLE_TIMEOUT_S, MHD_OPTION_END);
        if (!h->d)
            st = socmon_fail(SOCMON_EIO, "http address '%s': libmicrohttpd would not start", opts->listen);
    }
    if (st != SOCMON_OK) {
        if (fd >= 0)
            close(fd);
        free(h->token);
        free(h->info);
        free(h);
        return st;
    }
    *out = h;
    return SOCMON_OK;
}

uint16_t socmon_http_port(const socmon_http *h)
{
    return h->port;
}

const char *socmon_http_url(const socmon_http *h)
{
    return h->url;
}

void socmon_http_stop(socmon_http *h)
{
    if (!h)
        return;
    socmon_live_close(h->lv);
    MHD_stop_daemon(h->d);
    if (h->token)
        memset(h->token, 0, NET_TOKEN_MAX);
    free(h->token);
    free(h->info);
    free(h);
}
