/* Internal to the collector: its state and the pieces collector.c and
 * collector_run.c share. */
#ifndef SOCMON_AGENT_COLLECTOR_INTERNAL_H
#define SOCMON_AGENT_COLLECTOR_INTERNAL_H

#include "agent/collector.h"
#include "serve/net.h"

struct collector {
    int fd;
    char addr[NET_ADDR_MAX];
    char token[WIRE_MAX_STR + 1];
    wire_hello hello;
    socmon_device *dev;
    socmon_set *set;
    uint64_t *masks;
    uint8_t *in;
    size_t inlen, incap;
    wire_samples blk;       /* decode buffer, grown to the largest block */
    uint8_t version;        /* the protocol version of the agent's HELLO (0: none yet); ours follow it */
    wire_stream stream;     /* version 2: the stream's last sample, which a block builds on */
    uint32_t blk_cap;
    int subscribed;
    int any_seq;            /* the next frame sets where the stream starts */
    int idle_ms;            /* collector_set_idle_timeout: 0 the default, < 0 none */
    uint64_t last_rx_ns;    /* monotonic time of the last whole frame received (or of subscribing) */
    int have_t;             /* last_t/last_t_seq hold the last sample's time (this schema's) */
    uint64_t last_t, last_t_seq;
    collector_stats st;
};

/* Reads until a whole frame is buffered (checked header, CRC, version);
 * *payload points into c->in and *consumed bytes go on the next call.
 * timeout_ms < 0: no limit but the idle timeout once subscribed (cb->should_stop
 * and cb->tick are called while waiting). */
socmon_status collector_next_frame(collector *c, const collector_cb *cb, int timeout_ms, wire_hdr *h,
                                   const uint8_t **payload, size_t *consumed);
/* The failure an ERROR frame stands for, its message naming the agent. */
socmon_status collector_error_frame(collector *c, const uint8_t *p, size_t len, wire_error *e);
/* collector_http.c: 1 if what came starts "HTTP/" (a web server answered); then the failure,
 * naming HTTP, the --listen port to use and the first line of what the server said. */
int collector_is_http(const collector *c);
socmon_status collector_http_failure(collector *c);
/* The status line and the body's first line of an HTTP answer in[len] (any bytes: a peer's),
 * each cut to fit and escaped for a terminal (core/text.h); said is "" without a body. */
void collector_http_describe(const uint8_t *in, size_t len, char *status, size_t slen, char *said, size_t saidlen);
/* The device and set of c->hello (replacing the previous ones). */
socmon_status collector_build_schema(collector *c);

#endif
