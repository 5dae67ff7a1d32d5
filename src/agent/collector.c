/* The collector: connecting, the HELLO and the schema built from it,
 * subscribing (see collector.h). The receive loop is in collector_run.c. */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "agent/collector_internal.h"
#include "serve/net.h"
#include "core/clock.h"
#include "socmon/status.h"
#include "core/text.h"


static socmon_status no_registers(void *drv, const uint32_t *idx, size_t n, uint64_t *out)
{
    (void)drv, (void)idx, (void)n, (void)out;
    return socmon_fail(SOCMON_ENOTSUP, "a remote agent's device has no registers here: its samples come over the "
                       "network");
}

static const socmon_device_ops remote_ops = {.read = no_registers};

/* The schema-only device and the set of all its counters, from the HELLO. */
socmon_status collector_build_schema(collector *c)
{
    const wire_hello *h = &c->hello;
    socmon_device *dev = NULL;
    socmon_set *set = NULL;
    uint64_t *masks = calloc(h->ncounters, sizeof *masks);
    socmon_status st = masks ? socmon_device_new(h->device[0] ? h->device : "remote", &remote_ops, NULL, &dev)
                             : socmon_fail(SOCMON_ENOMEM, "collector: out of memory");
    for (size_t i = 0; st == SOCMON_OK && i < h->ncounters; i++) {
        st = socmon_device_add_counter(dev, &h->counters[i], NULL);
        masks[i] = wire_mask(h->counters[i].width);
    }
    for (size_t i = 0; st == SOCMON_OK && i < h->nparams; i++)
        st = socmon_device_set_param(dev, h->param_names[i], h->param_values[i]);
    if (st == SOCMON_OK)
        st = socmon_set_new(dev, NULL, &set);
    if (st != SOCMON_OK) {
        socmon_fail_prefix(st, "agent %s sent a schema socmon cannot use: ", c->addr);
        socmon_device_free(dev);
        free(masks);
        return st;
    }
    socmon_set_free(c->set);
    socmon_device_free(c->dev);
    free(c->masks);
    c->dev = dev;
    c->set = set;
    c->masks = masks;
    return wire_stream_init(&c->stream, h->ncounters);   /* a new schema starts a new stream */
}

static socmon_status send_all(collector *c, wire_buf *b)
{
    if (b->oom)
        return socmon_fail(SOCMON_ENOMEM, "collector: out of memory");
    size_t off = 0;
    while (off < b->len) {
        ssize_t n = send(c->fd, b->p + off, b->len - off, MSG_NOSIGNAL);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
            struct pollfd p = {c->fd, POLLOUT, 0};
            poll(&p, 1, 200);
            continue;
        }
        if (n < 0)
            return socmon_fail(SOCMON_EIO, "sending to agent %s: %s", c->addr, strerror(errno));
        off += (size_t)n;
    }
    return SOCMON_OK;
}

void collector_set_idle_timeout(collector *c, int timeout_ms)
{
    c->idle_ms = timeout_ms > 0 ? timeout_ms : -1;
}

/* After a poll that found nothing to read: no whole frame has come since
 * last_rx_ns (anything sent since would be readable now), so the agent has
 * been silent that long. A healthy agent never is: it sends STATS every
 * second. Whole frames count, not bytes: a peer dripping a byte at a time
 * would otherwise hold the collector forever. */
static socmon_status check_idle(collector *c)
{
    int ms = c->idle_ms ? c->idle_ms : COLLECTOR_IDLE_MS;
    if (ms < 0 || smn_mono_ns() - c->last_rx_ns < (uint64_t)ms * 1000000u)
        return SOCMON_OK;
    return socmon_fail(SOCMON_EIO, "agent %s sent nothing for %.3g s%s, not even the STATS it sends every second: "
                       "it is stopped, hung or cut off; giving up", c->addr, ms / 1000.0,
                       c->inlen ? " but part of a frame" : "");
}

/* Reads until a whole frame is buffered; *payload points into c->in.
 * The frame is consumed by the next call. timeout_ms < 0: forever (polling
 * cb's should_stop). */
socmon_status collector_next_frame(collector *c, const collector_cb *cb, int timeout_ms, wire_hdr *h,
                                const uint8_t **payload, size_t *consumed)
{
    if (*consumed) {
        memmove(c->in, c->in + *consumed, c->inlen - *consumed);
        c->inlen -= *consumed;
        *consumed = 0;
    }
    uint64_t deadline = timeout_ms >= 0 ? smn_mono_ns() + (uint64_t)timeout_ms * 1000000u : UINT64_MAX;
    for (;;) {
        int r = wire_hdr_parse(c->in, c->inlen, WIRE_MAX_PAYLOAD, h);
        if (r < 0 && collector_is_http(c))
            return collector_http_failure(c);
        if (r < 0)
            return socmon_fail_prefix(SOCMON_EPARSE, "agent %s: ", c->addr);
        if (r == 1 && c->inlen >= WIRE_HDR + (size_t)h->len) {
            *payload = c->in + WIRE_HDR;
            *consumed = WIRE_HDR + h->len;
            /* The agent's HELLO says which version the connection speaks (docs/agent-protocol.md);
             * an ERROR reads the same in every version. */
            if (h->type != WIRE_ERROR && (h->version < WIRE_VERSION_MIN || h->version > WIRE_VERSION))
                return socmon_fail(SOCMON_ENOTSUP, "agent %s speaks protocol version %u, this socmon speaks "
                                   "versions " WIRE_VERSIONS_SPOKEN ": use the same socmon version on both sides",
                                   c->addr, h->version);
            if (h->type != WIRE_ERROR && c->version && h->version != c->version)
                return socmon_fail(SOCMON_EPARSE, "agent %s: a %s frame of protocol version %u on a connection "
                                   "that speaks version %u", c->addr, wire_type_name(h->type), h->version,
                                   c->version);
            if (h->type == WIRE_HELLO)
                c->version = (uint8_t)h->version;
            if (wire_check_crc(h, *payload) != SOCMON_OK)
                return socmon_fail_prefix(SOCMON_EPARSE, "agent %s: ", c->addr);
            c->st.bytes += *consumed;
            c->last_rx_ns = smn_mono_ns();
            return SOCMON_OK;
        }
        size_t want = r == 1 ? WIRE_HDR + (size_t)h->len : WIRE_HDR;
        if (want < (256u << 10))
            want = 256u << 10;   /* read in large pieces */
        if (want > c->incap) {
            uint8_t *p = realloc(c->in, want);
            if (!p)
                return socmon_fail(SOCMON_ENOMEM, "collector: out of memory for a %zu-byte frame", want);
            c->in = p;
            c->incap = want;
        }
        if (cb && cb->should_stop && cb->should_stop(cb->user))
            return SOCMON_ESTATE;
        socmon_status st;
        if (cb && cb->tick && (st = cb->tick(cb->user)) != SOCMON_OK)
            return st;
        uint64_t now = smn_mono_ns();
        if (now >= deadline)
            return socmon_fail(SOCMON_EIO, "agent %s: no answer within %d ms", c->addr, timeout_ms);
        struct pollfd p = {c->fd, POLLIN, 0};
        int wait = deadline - now < 200000000u ? (int)((deadline - now) / 1000000u) + 1 : 200;
        int n = poll(&p, 1, wait);
        if (n < 0 && errno != EINTR)
            return socmon_fail(SOCMON_EIO, "agent %s: poll: %s", c->addr, strerror(errno));
        if (n == 0 && timeout_ms < 0 && c->subscribed && (st = check_idle(c)) != SOCMON_OK)
            return st;
        if (n <= 0)
            continue;
        ssize_t got = recv(c->fd, c->in + c->inlen, c->incap - c->inlen, MSG_DONTWAIT);
        if (got == 0)
            return socmon_fail(SOCMON_EIO, "agent %s closed the connection%s", c->addr,
                               c->subscribed ? " before the end of the run (agent gone?)" : "");
        if (got < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)
            return socmon_fail(SOCMON_EIO, "agent %s: %s", c->addr, strerror(errno));
        if (got > 0)
            c->inlen += (size_t)got;
    }
}

socmon_status collector_error_frame(collector *c, const uint8_t *p, size_t len, wire_error *e)
{
    if (wire_get_error(p, len, e) != SOCMON_OK)
        return socmon_fail_prefix(SOCMON_EPARSE, "agent %s: ", c->addr);
    /* the agent's words go to a terminal or a log: control bytes escaped */
    char msg[sizeof e->msg];
    smn_text_escape(msg, sizeof msg, e->msg);
    memcpy(e->msg, msg, sizeof msg);
    socmon_status st = e->code == WIRE_ERR_TOKEN ? SOCMON_EPERM
                       : e->code == WIRE_ERR_VERSION ? SOCMON_ENOTSUP
                       : e->code == WIRE_ERR_BUSY || e->code == WIRE_ERR_RETRY ? SOCMON_EAGAIN
                       : e->code == WIRE_ERR_RANGE ? SOCMON_ERANGE : SOCMON_EIO;
    return socmon_fail(st, "agent %s: %s", c->addr, e->msg);
}

/* One try: connect, SUBSCRIBE without samples, the HELLO. *retry: the agent
 * dropped this connection for a newer one while it was in its handshake (a
 * peer holding many unauthenticated connections), so another try may pass. */
static socmon_status connect_once(collector *c, int timeout_ms, int *retry)
{
    uint64_t deadline = smn_mono_ns() + (uint64_t)timeout_ms * 1000000u;
    socmon_status st = net_connect(c->addr, timeout_ms, &c->fd);
    wire_buf b = {0};   /* our first frame: the newest version (an agent that speaks an older one says so) */
    if (st == SOCMON_OK) {
        wire_subscribe s = {.mode = WIRE_SUB_NONE};
        snprintf(s.token, sizeof s.token, "%s", c->token);
        wire_put_subscribe(&b, &s);
        st = send_all(c, &b);
    }
    wire_buf_free(&b);
    wire_hdr h;
    const uint8_t *p;
    size_t consumed = 0;
    uint64_t now = smn_mono_ns();
    if (st == SOCMON_OK)
        st = collector_next_frame(c, NULL, now < deadline ? (int)((deadline - now) / 1000000u) + 1 : 1, &h, &p,
                                  &consumed);
    if (st == SOCMON_OK && h.type == WIRE_ERROR) {
        wire_error e;
        st = collector_error_frame(c, p, h.len, &e);
        *retry = st == SOCMON_EAGAIN && e.code == WIRE_ERR_RETRY;
    } else if (st == SOCMON_OK && h.type != WIRE_HELLO) {
        st = socmon_fail(SOCMON_EPARSE, "agent %s: expected HELLO, got %s", c->addr, wire_type_name(h.type));
    } else if (st == SOCMON_OK && (st = wire_get_hello(p, h.len, &c->hello)) != SOCMON_OK) {
        socmon_fail_prefix(st, "agent %s: ", c->addr);
    } else if (st == SOCMON_OK) {
        st = collector_build_schema(c);
    }
    if (st == SOCMON_OK) {
        memmove(c->in, c->in + consumed, c->inlen - consumed);
        c->inlen -= consumed;
    }
    return st;
}

/* A dropped handshake is tried again after 50 ms, then twice as long each
 * time up to 1 s (a little less at random, so collectors dropped together do
 * not come back together), as long as timeout_ms leaves TRY_MIN_NS for the
 * next try after its pause. */
#define TRY_MIN_NS 200000000u
socmon_status collector_connect(const char *addr, const char *token, int timeout_ms, collector **out)
{
    *out = NULL;
    collector *c = calloc(1, sizeof *c);
    if (!c)
        return socmon_fail(SOCMON_ENOMEM, "collector: out of memory");
    c->fd = -1;
    snprintf(c->addr, sizeof c->addr, "%s", addr);
    snprintf(c->token, sizeof c->token, "%s", token ? token : "");
    uint64_t start = smn_mono_ns(), deadline = start + (uint64_t)(timeout_ms > 0 ? timeout_ms : 1) * 1000000u;
    uint64_t backoff = 50000000u;
    socmon_status st;
    for (unsigned tries = 1;; tries++) {
        int retry = 0;
        uint64_t now = smn_mono_ns();
        st = connect_once(c, now < deadline ? (int)((deadline - now + 999999u) / 1000000u) : 1, &retry);
        if (st == SOCMON_OK || !retry)
            break;
        close(c->fd);
        c->fd = -1;
        c->inlen = 0;
        c->st.bytes = 0;
        uint64_t wait = backoff / 2 + smn_mono_ns() % (backoff / 2);
        now = smn_mono_ns();
        if (now + wait + TRY_MIN_NS > deadline) {   /* too little time left for another try to be answered */
            char why[WIRE_MAX_STR + 1];
            snprintf(why, sizeof why, "%s", socmon_errmsg());
            st = socmon_fail(st, "%s (gave up after %u tries in %.1f s: some peer keeps opening connections to the "
                             "agent without authenticating)", why, tries, (double)(now - start) / 1e9);
            break;
        }
        struct timespec ts = {(time_t)(wait / 1000000000u), (long)(wait % 1000000000u)};
        while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
            ;
        backoff = backoff * 2 > 1000000000u ? 1000000000u : backoff * 2;
    }
    if (st == SOCMON_OK) {
        c->any_seq = 1;
        c->st.next_seq = c->hello.next_seq;
        *out = c;
    } else {
        collector_close(c);
    }
    return st;
}

void collector_close(collector *c)
{
    if (!c)
        return;
    if (c->fd >= 0)
        close(c->fd);
    wire_hello_free(&c->hello);
    socmon_set_free(c->set);
    socmon_device_free(c->dev);
    free(c->masks);
    free(c->in);
    free(c->blk.t_ns);
    free(c->blk.flags);
    free(c->blk.missed);
    free(c->blk.values);
    wire_stream_free(&c->stream);
    free(c);
}

const wire_hello *collector_hello(const collector *c)
{
    return &c->hello;
}

socmon_device *collector_device(collector *c)
{
    return c->dev;
}

socmon_set *collector_set(collector *c)
{
    return c->set;
}

void collector_get_stats(const collector *c, collector_stats *out)
{
    *out = c->st;
}

socmon_status collector_subscribe(collector *c, uint32_t mode, uint64_t seq)
{
    wire_buf b = {.version = c->version};
    wire_subscribe s = {.mode = mode, .seq = seq};
    snprintf(s.token, sizeof s.token, "%s", c->token);
    wire_put_subscribe(&b, &s);
    socmon_status st = send_all(c, &b);
    wire_buf_free(&b);
    if (st == SOCMON_OK) {
        c->subscribed = 1;
        c->last_rx_ns = smn_mono_ns();   /* the idle timeout counts from here */
        /* Where the stream starts: from seq exactly (a seq older than the
         * ring comes as a GAP from seq); OLDEST and LATEST from the first
         * frame's seq. */
        c->st.next_seq = seq;
        c->any_seq = mode != WIRE_SUB_SEQ;
    }
    return st;
}

socmon_status collector_send_config(collector *c, const char *events)
{
    wire_buf b = {.version = c->version};
    wire_config cf;
    snprintf(cf.events, sizeof cf.events, "%s", events ? events : "");
    wire_put_config(&b, &cf);
    socmon_status st = send_all(c, &b);
    wire_buf_free(&b);
    return st;
}

socmon_status collector_configure(collector *c, const char *events, int timeout_ms)
{
    if (c->subscribed)
        return socmon_fail(SOCMON_ESTATE, "collector_configure after collector_subscribe");
    socmon_status st = collector_send_config(c, events);
    size_t consumed = 0;
    while (st == SOCMON_OK) {
        wire_hdr h;
        const uint8_t *p;
        if ((st = collector_next_frame(c, NULL, timeout_ms, &h, &p, &consumed)) != SOCMON_OK)
            break;
        if (h.type == WIRE_ERROR) {
            wire_error e = {0};
            st = collector_error_frame(c, p, h.len, &e);
        } else if (h.type == WIRE_HELLO) {
            wire_hello nh;
            if ((st = wire_get_hello(p, h.len, &nh)) != SOCMON_OK) {
                socmon_fail_prefix(st, "agent %s: ", c->addr);
                break;
            }
            wire_hello_free(&c->hello);
            c->hello = nh;
            st = collector_build_schema(c);
            break;
        } else if (h.type != WIRE_STATS) {
            st = socmon_fail(SOCMON_EPARSE, "agent %s: expected HELLO or ERROR after CONFIG, got %s", c->addr,
                             wire_type_name(h.type));
        }
    }
    memmove(c->in, c->in + consumed, c->inlen - consumed);
    c->inlen -= consumed;
    return st;
}
