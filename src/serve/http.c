/* The live view's HTTP server (http.h): binding under the agent's rules, routing, the Host
 * check, the token.
 *
 * libmicrohttpd runs one thread per connection: a page's event stream blocks in its own thread
 * waiting for the next row (http_stream.c) while other requests are answered by theirs, and the
 * connection limit bounds the threads. We bind the listening socket ourselves, so port 0 works
 * (we read back the port the kernel chose) and the loopback check sees the address that is really
 * bound, and we accept on it ourselves (http_conns.c: limits per address, a deadline for a
 * request header, 503 at the limit), handing each connection to libmicrohttpd. */
#include "serve/http_internal.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "serve/net.h"
#include "socmon/status.h"
#include "export/web_assets.h"
#include "export/web_json.h"
#include "socmon/target.h"

#define HTTP_DEFAULT_CONNS 32
/* a connection that moves no byte for this long is closed: a page's stream sends a comment
 * every second, so only a client that stopped reading (or sending a body) gets here */
#define HTTP_IDLE_TIMEOUT_S 30
#define HTTP_HEADER_MS 5000     /* an idle connection's time to send a whole request header */
#define HTTP_FD_RESERVE 8       /* fds left to the rest of the program (the agent's collectors) */

struct smn_http {
    struct MHD_Daemon *d;
    http_conns *conns;
    smn_live *lv;
    http_access acc;    /* the token and the Host names */
    http_log log;
    int log_ready;
    uint16_t port;
    int family;
    char url[NET_ADDR_MAX + 16];
    char *info;         /* /api/info, made once: the schema never changes */
    size_t info_len;
};

/* Binds and listens on spec under the agent's rule: loopback, or a token. */
static socmon_status bind_listen(smn_http *h, const char *spec, int have_token, int *fd)
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

/* A token that can go into a cookie as it is (what token files hold: hex, base64). */
static int cookie_safe(const char *t)
{
    return strspn(t, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~+/=") == strlen(t);
}

static enum MHD_Result send_asset(struct MHD_Connection *c, const char *name, const char *cookie)
{
    size_t len = 0;
    const char *mime = NULL;
    const unsigned char *data = smn_web_asset(name, &len, &mime);
    if (!data && !smn_web_built())   /* -DSOCMON_WEB=OFF: say why there is no page, and what works */
        return send_msg(c, MHD_HTTP_NOT_IMPLEMENTED,
                        "socmon: this socmon was built without its web page (-DSOCMON_WEB=OFF); /metrics, "
                        "/api/info and /api/stream work; docs/install.md\n");
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
static enum MHD_Result send_info(smn_http *h, struct MHD_Connection *c)
{
    smn_live_state ls;
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

/* A peer's text for a log line: at most 100 bytes (the log escapes control bytes: core/text.h). */
static void clip(char *buf, size_t len, const char *s)
{
    snprintf(buf, len < 101 ? len : 101, "%s", s);
}

static enum MHD_Result on_request(void *cls, struct MHD_Connection *c, const char *url, const char *method,
                                  const char *version, const char *upload, size_t *upload_len, void **con_cls)
{
    smn_http *h = cls;
    (void)version;
    (void)upload;
    if (!*con_cls) {   /* the first call of a request: its header is whole; no deadline now */
        *con_cls = h;   /* any non-NULL pointer: the request was seen */
        http_conns_busy(h->conns, c);
    }
    if (*upload_len) {   /* a body nobody asked for: read and dropped */
        *upload_len = 0;
        return MHD_YES;
    }
    const char *host = MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_HOST);
    if (!http_host_allowed(&h->acc, host)) {
        char peer[NET_ADDR_MAX], shown[128];
        peer_name(c, peer, sizeof peer);
        clip(shown, sizeof shown, host);
        http_logf(&h->log, "refused a Host", "refused %s from %s: Host '%s' is not localhost, an IP address or a "
                  "name given with --http-host", method, peer, shown);
        return send_msg(c, MHD_HTTP_FORBIDDEN, "socmon: this server does not answer to that Host name (it answers "
                        "to localhost, IP addresses and the names given with --http-host)\n");
    }
    if (strcmp(method, MHD_HTTP_METHOD_GET) != 0 && strcmp(method, MHD_HTTP_METHOD_HEAD) != 0)
        return send_msg_hdr(c, MHD_HTTP_METHOD_NOT_ALLOWED, "socmon: only GET and HEAD\n", MHD_HTTP_HEADER_ALLOW,
                            "GET, HEAD");
    /* The page's scripts and styles are the same for everyone: public, so the page loads them
     * with plain <script src>; what the run shows needs the token. */
    if (strncmp(url, "/assets/", 8) == 0)
        return send_asset(c, url + 8, NULL);
    const char *why;
    if (h->acc.token && !http_authorized(&h->acc, c, &why)) {
        char peer[NET_ADDR_MAX];
        peer_name(c, peer, sizeof peer);
        /* the path as the client sent it (the log keeps a line one printable line) */
        char path[128];
        clip(path, sizeof path, url);
        http_logf(&h->log, "refused a request", "refused %s %s from %s: %s", method, path, peer, why);
        return send_msg_hdr(c, MHD_HTTP_UNAUTHORIZED,
                            "socmon: this server needs its token: 'Authorization: Bearer TOKEN' or ?token=TOKEN\n",
                            MHD_HTTP_HEADER_WWW_AUTHENTICATE, "Bearer realm=\"socmon\"");
    }
    if (strcmp(url, "/") == 0 || strcmp(url, "/index.html") == 0) {
        char cookie[600];
        const char *q = MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND, "token");
        const char *tok = h->acc.token;
        int set = tok && q && strlen(tok) < 500 && cookie_safe(tok);
        if (set)
            snprintf(cookie, sizeof cookie, HTTP_TOKEN_COOKIE "=%s; Path=/; HttpOnly; SameSite=Strict", tok);
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
    smn_http *h = cls;
    char line[HTTP_LOG_LINE];
    vsnprintf(line, sizeof line, fmt, ap);
    /* a page closed while its stream was open is how streams end, not an error */
    if (strstr(line, "Failed to send") && (strstr(line, "no longer available") || strstr(line, "closed by remote")))
        return;
    /* what a connection we cut for want of a request header looks like from inside (we say why) */
    if (strstr(line, "closed by remote side with incomplete request"))
        return;
    /* the library may say the same thing thousands of times a second (it did at the fd limit):
     * lines of one format share a budget */
    http_logf(&h->log, fmt, "%s", line);
}

static socmon_status make_info(smn_http *h)
{
    const smn_live_schema *s = socmon_live_schema_of(h->lv);
    smn_counter_list cl = {s->ncounters, s->counters, s->names, NULL, 0, NULL};
    char name[64];   /* the spec's target, whose declaration places the heat map */
    socmon_spec_name_of(s->target, name, sizeof name);
    smn_web_info_in in = {s->target, s->device, s->interval_ns, s->simulated, &cl, socmon_live_metrics(h->lv),
                             s->nparams, s->param_names, s->param_values, socmon_target_lookup(name), NULL, 0};   /* live: no phases (yet) */
    json_t *j = smn_web_info_json(&in);
    if (!j)
        return socmon_fail(SOCMON_ENOMEM, "http: making /api/info: out of memory");
    h->info = json_dumps(j, JSON_COMPACT);
    json_decref(j);
    if (!h->info)
        return socmon_fail(SOCMON_ENOMEM, "http: making /api/info: out of memory");
    h->info_len = strlen(h->info);
    return SOCMON_OK;
}

static void http_free(smn_http *h)
{
    http_conns_free(h->conns);
    if (h->log_ready)
        http_log_destroy(&h->log);
    http_access_free(&h->acc);
    free(h->info);
    free(h);
}

/* Connections at once: what was asked for (default 32), but no more than the fd limit leaves
 * room for, or the server would spend its time failing accept() (issue 23). */
static void pick_limits(smn_http *h, const smn_http_opts *opts, http_conns_opts *co)
{
    unsigned want = opts->max_conns ? opts->max_conns : HTTP_DEFAULT_CONNS;
    unsigned room = http_fd_room(HTTP_FD_RESERVE);
    co->max_conns = want < room ? want : room;
    if (co->max_conns < want)
        http_logf(&h->log, "fd limit", "the fd limit (ulimit -n) leaves room for %u HTTP connection%s at once, "
                  "not %u", co->max_conns, co->max_conns > 1 ? "s" : "", want);
    /* one address may hold three quarters: another address always finds room, even when
     * this one has every slot busy */
    co->per_ip = opts->max_per_addr ? opts->max_per_addr : co->max_conns - co->max_conns / 4;
    if (co->per_ip > co->max_conns)
        co->per_ip = co->max_conns;
    co->header_ms = opts->header_timeout_ms ? opts->header_timeout_ms : HTTP_HEADER_MS;
    co->log = &h->log;
    co->collectors = opts->collectors;
}

socmon_status socmon_http_start(smn_live *lv, const smn_http_opts *opts, smn_http **out)
{
    if (!out || !lv || !opts || !opts->listen)
        return socmon_fail(SOCMON_EINVAL, "socmon_http_start: no live view, options or address");
    *out = NULL;
    smn_http *h = calloc(1, sizeof *h);
    if (!h)
        return socmon_fail(SOCMON_ENOMEM, "http: out of memory");
    h->lv = lv;
    http_log_init(&h->log, opts->log ? opts->log : stderr, opts->who ? opts->who : "socmon http");
    h->log_ready = 1;
    int fd = -1;
    socmon_status st = http_access_init(&h->acc, opts->token, opts->hosts, opts->nhosts);
    if (st == SOCMON_OK)
        st = bind_listen(h, opts->listen, opts->token != NULL, &fd);
    if (st == SOCMON_OK)
        st = make_info(h);
    if (st == SOCMON_OK) {
        http_conns_opts co = {.listen_fd = fd};
        pick_limits(h, opts, &co);
        st = http_conns_new(&co, &h->conns);
        if (st == SOCMON_OK)
            fd = -1;   /* the connections' now */
    }
    if (st == SOCMON_OK) {
        /* no listening socket of its own: http_conns accepts and hands connections over */
        unsigned flags = MHD_USE_THREAD_PER_CONNECTION | MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_ERROR_LOG |
                         MHD_USE_NO_LISTEN_SOCKET | MHD_USE_ITC;
        h->d = MHD_start_daemon(flags, 0, NULL, NULL, on_request, h, MHD_OPTION_EXTERNAL_LOGGER, mhd_log, h,
                                MHD_OPTION_CONNECTION_LIMIT, http_conns_mhd_limit(h->conns),
                                MHD_OPTION_NOTIFY_CONNECTION, http_conns_notify, h->conns,
                                MHD_OPTION_NOTIFY_COMPLETED, http_conns_completed, h->conns,
                                MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)HTTP_IDLE_TIMEOUT_S, MHD_OPTION_END);
        if (!h->d)
            st = socmon_fail(SOCMON_EIO, "http address '%s': libmicrohttpd would not start", opts->listen);
    }
    if (st == SOCMON_OK)
        st = http_conns_start(h->conns, h->d);
    if (st != SOCMON_OK) {
        if (fd >= 0)
            close(fd);
        http_conns_stop(h->conns);
        if (h->d)
            MHD_stop_daemon(h->d);
        http_free(h);
        return st;
    }
    *out = h;
    return SOCMON_OK;
}

uint16_t socmon_http_port(const smn_http *h)
{
    return h->port;
}

const char *socmon_http_url(const smn_http *h)
{
    return h->url;
}

void socmon_http_stop(smn_http *h)
{
    if (!h)
        return;
    socmon_live_close(h->lv);
    /* no new connection may reach the daemon while it stops */
    http_conns_stop(h->conns);
    MHD_stop_daemon(h->d);
    http_free(h);
}
