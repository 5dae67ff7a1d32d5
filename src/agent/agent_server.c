/* The agent's server thread: one poll() loop over the listening socket, the
 * sampling thread's wake-up pipe and every client.
 *
 * A client must SUBSCRIBE first (with the token if the agent has one); it then
 * gets the HELLO and, once it asks for samples, SAMPLES blocks from its own
 * cursor into the ring, a GAP when the ring overwrote what it had not read,
 * a STATS frame every second, and END after the last sample. Only one block
 * is encoded ahead of what the socket takes, so a slow or stuck client costs
 * one buffer and never holds up the sampler (bar the documented backpressure
 * of an unpaced model) or other clients. A client that sends anything else,
 * or too much, gets an ERROR and is dropped; each refusal is logged with the
 * peer's address.
 *
 * Connections not yet authenticated cannot keep collectors out (issue 23):
 * one that sends nothing is dropped after IDLE_NS, one that started its
 * SUBSCRIBE after HANDSHAKE_NS; past MAX_HANDSHAKES_PER_ADDR from one
 * address, or MAX_HANDSHAKES in all, the OLDEST handshake is dropped, never
 * the newcomer: a collector's SUBSCRIBE follows its connect at once, so a
 * peer reopening idle sockets would have to displace it within that round
 * trip, and the collector retries then (WIRE_ERR_RETRY). Age alone decides,
 * not whether a connection has sent bytes yet: a peer can send one byte on
 * each socket for free, and a collector's newest connection is the one most
 * likely to be idle. Out of file descriptors, the listening socket is left
 * alone for ACCEPT_PAUSE_NS (accept would fail at once, in a loop). */
#define _GNU_SOURCE   /* pipe2, accept4 */
#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "agent/agent_internal.h"
#include "core/clock.h"
#include "socmon/status.h"

#define IDLE_NS 2000000000ull         /* a client that sent nothing has this long to start */
#define HANDSHAKE_NS 10000000000ull   /* ... and one that started has this long to SUBSCRIBE */
#define ACCEPT_PAUSE_NS 250000000ull  /* accept4 failed for want of fds: wait this long */
#define PEER_LOG_NS 10000000000ull    /* lines about unauthenticated peers: at most */
#define PEER_LOG_BURST 10             /* ... this many in this long */
#define STARVE_LOG_NS 10000000000ull  /* running out of fds logged at most once in this time */
#define CLOSE_NS 2000000000ull        /* ... and to take its ERROR before being cut off */
#define STATS_NS 1000000000ull
#define OUT_LOW (256u << 10)          /* encode more once less than this is pending */
#define IN_MAX (WIRE_HDR + WIRE_MAX_CLIENT_PAYLOAD)
#define COPY_BYTES (64u << 10)        /* most of the ring copied under one lock */

enum { C_HANDSHAKE, C_HELLO, C_STREAM, C_CLOSING };
enum { MAX_HANDSHAKES = 16, MAX_HANDSHAKES_PER_ADDR = 4 };
enum { ACCEPT_BURST = 64 };   /* accepted per poll round: a flood of connects must not hold the loop */

struct agent_client {
    int fd;
    uint64_t id;              /* 64 bits: a peer reconnecting in a loop never wraps it */
    char peer[NET_ADDR_MAX];
    size_t hostlen;           /* peer[0..hostlen): its address without the port */
    int state;
    uint64_t since;           /* accepted: mono ns */
    uint64_t got;             /* bytes received */
    uint64_t deadline;        /* C_HANDSHAKE / C_CLOSING: mono ns */
    uint8_t *in;
    size_t inlen;
    wire_buf out;             /* frames in the connection's version (out.version) */
    size_t outpos;
    wire_stream stream;       /* version 2: the last sample sent, which the next block builds on */
    uint64_t cursor;          /* next seq to send */
    uint64_t last_t;          /* time of the sample before cursor, if sent */
    uint64_t gen;             /* config generation of the last HELLO sent */
    int end_sent;
    uint64_t next_stats, bytes;
};

uint64_t agent_client_id(const agent_client *c)
{
    return c->id;
}

wire_buf *agent_client_out(agent_client *c)
{
    return &c->out;
}

static void client_free(agent_client *c)
{
    if (c->fd >= 0)
        close(c->fd);
    free(c->in);
    wire_buf_free(&c->out);
    wire_stream_free(&c->stream);
    free(c);
}

/* Queues an ERROR and closes once it is sent (or CLOSE_NS passed). */
static void close_with(agent *a, agent_client *c, uint32_t code, const char *msg)
{
    atomic_fetch_add(&a->refused, 1);
    wire_put_error(&c->out, code, msg);
    c->state = C_CLOSING;
    c->deadline = smn_mono_ns() + CLOSE_NS;
}

/* Lines about peers that never authenticated (refusals, drops): at most
 * PEER_LOG_BURST in each PEER_LOG_NS, as a peer reopening sockets in a loop,
 * each with a wrong token or junk, must not fill the log; the first line of
 * the next window counts those left out. */
static void log_unauthenticated(agent *a, uint64_t now, const char *what, const agent_client *c, const char *msg)
{
    if (now >= a->peer_log_window + PEER_LOG_NS) {
        a->peer_log_window = now;
        a->peer_log_lines = 0;
    }
    if (a->peer_log_lines >= PEER_LOG_BURST) {
        a->peer_log_skipped++;
        return;
    }
    a->peer_log_lines++;
    if (a->peer_log_skipped)
        agent_log(a, "%s %s: %s (and %llu more such lines left out)", what, c->peer, msg,
                  (unsigned long long)a->peer_log_skipped);
    else
        agent_log(a, "%s %s: %s", what, c->peer, msg);
    a->peer_log_skipped = 0;
}

/* A refusal: a peer still in its handshake is anyone who can connect, so its
 * lines share the budget above; a collector's are always logged. */
static void reject(agent *a, agent_client *c, uint32_t code, const char *what, const char *msg)
{
    if (c->state == C_HANDSHAKE)
        log_unauthenticated(a, smn_mono_ns(), what, c, msg);
    else
        agent_log(a, "%s %s: %s", what, c->peer, msg);
    close_with(a, c, code, msg);
}

static void drop_handshake(agent *a, agent_client *c, uint32_t code, const char *msg, uint64_t now)
{
    log_unauthenticated(a, now, "dropped", c, msg);
    close_with(a, c, code, msg);
}

static void send_hello(agent *a, agent_client *c)
{
    ring_state rs;
    ring_get_state(a->ring, &rs);
    a->hello.oldest_seq = rs.oldest;
    a->hello.next_seq = rs.next;
    a->hello.flags = (a->o.allow_config ? WIRE_HELLO_CONFIG : 0) | (rs.ended ? WIRE_HELLO_ENDED : 0);
    a->hello.config_gen = a->config_gen;
    wire_put_hello(&c->out, &a->hello);
    c->gen = a->config_gen;
    /* a new schema starts a new stream (allocated here, in the server thread) */
    if (wire_stream_init(&c->stream, a->nc) != SOCMON_OK)
        c->out.oom = 1;
}

static void on_subscribe(agent *a, agent_client *c, const uint8_t *p, size_t len)
{
    wire_subscribe s;
    if (wire_get_subscribe(p, len, &s) != SOCMON_OK) {
        reject(a, c, WIRE_ERR_PROTOCOL, "dropped", socmon_errmsg());
        return;
    }
    if (a->has_token && !net_token_equal(a->token, s.token)) {
        reject(a, c, WIRE_ERR_TOKEN, "refused", s.token[0] ? "agent refused the token (wrong token)"
                                                           : "agent refused the token (none given; see --token-file)");
        return;
    }
    if (c->state == C_HANDSHAKE) {
        /* --max-clients counts authenticated collectors only: unauthenticated peers cannot hold the slots */
        size_t authed = 0;
        for (size_t i = 0; i < a->nclients_cur; i++)
            authed += a->clients[i]->state == C_HELLO || a->clients[i]->state == C_STREAM;
        if (authed >= a->o.max_clients) {
            char msg[128];
            snprintf(msg, sizeof msg, "too many collectors (--max-clients %u)", a->o.max_clients);
            reject(a, c, WIRE_ERR_BUSY, "refused", msg);
            return;
        }
        agent_log(a, "collector %s connected", c->peer);
        send_hello(a, c);
        c->state = C_HELLO;
    }
    if (s.mode == WIRE_SUB_NONE)
        return;
    ring_state rs;
    ring_get_state(a->ring, &rs);
    if (s.mode == WIRE_SUB_SEQ && s.seq > rs.next) {
        char msg[256];
        snprintf(msg, sizeof msg, "seq %llu is beyond the agent's next sample %llu (a file from another run of "
                 "the agent?)", (unsigned long long)s.seq, (unsigned long long)rs.next);
        reject(a, c, WIRE_ERR_RANGE, "refused", msg);
        return;
    }
    c->cursor = s.mode == WIRE_SUB_SEQ ? s.seq : s.mode == WIRE_SUB_OLDEST ? rs.oldest : rs.next;
    c->last_t = 0;
    c->end_sent = 0;
    c->state = C_STREAM;
    pthread_mutex_lock(&a->mu);
    a->subscribed = 1;
    pthread_cond_broadcast(&a->cv);
    pthread_mutex_unlock(&a->mu);
}

static void on_config(agent *a, agent_client *c, const uint8_t *p, size_t len)
{
    wire_config cf;
    if (wire_get_config(p, len, &cf) != SOCMON_OK) {
        reject(a, c, WIRE_ERR_PROTOCOL, "dropped", socmon_errmsg());
        return;
    }
    if (!a->o.allow_config) {
        agent_log(a, "refused CONFIG from %s (events '%s'): the agent runs without --allow-config", c->peer, cf.events);
        atomic_fetch_add(&a->refused, 1);
        wire_put_error(&c->out, WIRE_ERR_CONFIG, "CONFIG refused: the agent runs without --allow-config");
        return;
    }
    pthread_mutex_lock(&a->mu);
    /* run_msg is set (under a->mu) when the sampler's run is over */
    int over = atomic_load(&a->run_ended) || a->run_msg[0] != '\0';
    int busy = atomic_load(&a->config_pending) != 0 || over;
    if (!busy) {
        snprintf(a->config_events, sizeof a->config_events, "%s", cf.events);
        a->config_client = c->id;
        atomic_store(&a->config_pending, 1);
        pthread_cond_broadcast(&a->cv);   /* a sampler waiting for its first collector applies it at once */
    }
    pthread_mutex_unlock(&a->mu);
    if (busy)
        wire_put_error(&c->out, WIRE_ERR_CONFIG, over ? "CONFIG refused: the run is over"
                                                                             : "CONFIG refused: another is in progress");
    else
        agent_log(a, "CONFIG from %s: events '%s'", c->peer, cf.events);
}

/* Handles every whole frame in c->in. */
static void on_input(agent *a, agent_client *c)
{
    size_t pos = 0;
    while (c->state != C_CLOSING) {
        wire_hdr h;
        int r = wire_hdr_parse(c->in + pos, c->inlen - pos, WIRE_MAX_CLIENT_PAYLOAD, &h);
        if (r < 0) {
            reject(a, c, WIRE_ERR_PROTOCOL, "dropped", socmon_errmsg());
            break;
        }
        if (r == 0)
            break;
        /* A collector newer than the version this agent speaks follows the agent's HELLO
         * (docs/agent-protocol.md); an older one cannot read it. */
        if (h.version < a->o.wire_version || h.version > WIRE_VERSION) {
            char msg[160];
            snprintf(msg, sizeof msg, "protocol version %u not supported: this agent speaks version %u", h.version,
                     a->o.wire_version);
            reject(a, c, WIRE_ERR_VERSION, "refused", msg);
            break;
        }
        if (c->inlen - pos < WIRE_HDR + (size_t)h.len)
            break;
        const uint8_t *p = c->in + pos + WIRE_HDR;
        pos += WIRE_HDR + h.len;
        if (wire_check_crc(&h, p) != SOCMON_OK) {
            reject(a, c, WIRE_ERR_PROTOCOL, "dropped", socmon_errmsg());
            break;
        }
        if (h.type == WIRE_SUBSCRIBE) {
            on_subscribe(a, c, p, h.len);
        } else if (h.type == WIRE_CONFIG && c->state != C_HANDSHAKE) {
            on_config(a, c, p, h.len);
        } else {
            char msg[128];
            snprintf(msg, sizeof msg, "unexpected %s frame from a collector%s", wire_type_name(h.type),
                     c->state == C_HANDSHAKE ? " (SUBSCRIBE comes first)" : "");
            reject(a, c, WIRE_ERR_PROTOCOL, "dropped", msg);
        }
    }
    memmove(c->in, c->in + pos, c->inlen - pos);
    c->inlen -= pos;
}

static void put_stats(agent *a, agent_client *c)
{
    wire_stats s = {atomic_load(&a->samples), atomic_load(&a->cpu_ns), atomic_load(&a->bus_accesses), c->bytes,
                    atomic_load(&a->nclients), 0};
    ring_state rs;
    ring_get_state(a->ring, &rs);
    s.overwritten = rs.overwritten;
    wire_put_stats(&c->out, &s);
}

/* Encodes what c should get next, while little is pending. */
static void fill(agent *a, agent_client *c, uint64_t now)
{
    if (c->state != C_STREAM && c->state != C_HELLO)
        return;
    if (c->gen != a->config_gen)   /* a CONFIG changed the schema: a new HELLO first */
        send_hello(a, c);
    if (c->state != C_STREAM)
        return;
    /* The ring is copied in pieces of at most COPY_BYTES, each under the
     * ring's lock, so the sampler never waits long for it; a block gathers
     * pieces up to block_max samples. */
    size_t nc = a->nc;
    uint32_t piece = (uint32_t)(COPY_BYTES / (nc * sizeof(uint64_t)));
    piece = piece ? piece : 1;
    while (c->out.len - c->outpos < OUT_LOW && !c->out.oom) {
        wire_samples *s = &a->scratch;
        wire_gap g;
        uint32_t n = 0;
        int gap = 0;
        while (n < a->block_max) {
            uint32_t want = a->block_max - n < piece ? a->block_max - n : piece;
            wire_samples part = {0, want, nc, s->t_ns + n, s->flags + n, s->missed + n, s->values + (size_t)n * nc};
            if ((gap = ring_read(a->ring, c->cursor + n, want, &part, &g)) != 0 || part.n == 0)
                break;
            n += part.n;
            if (part.n < want)
                break;
        }
        if (n == 0 && gap) {
            g.t0_ns = c->last_t;
            wire_put_gap(&c->out, &g);
            c->cursor += g.count;
            continue;
        }
        if (n == 0)
            break;
        s->first_seq = c->cursor;
        s->n = n;
        if (a->o.wire_version >= 2)
            wire_put_samples2(&c->out, s, a->masks, &c->stream);
        else
            wire_put_samples(&c->out, s, a->masks);
        c->cursor += n;
        c->last_t = s->t_ns[n - 1];
    }
    if (!c->end_sent && now >= c->next_stats) {
        put_stats(a, c);
        c->next_stats = now + STATS_NS;
    }
    ring_state rs;
    ring_get_state(a->ring, &rs);
    if (rs.ended && !c->end_sent && c->cursor >= rs.next) {
        wire_end e = {rs.next, rs.end_status, ""};
        snprintf(e.reason, sizeof e.reason, "%s", rs.end_reason);
        put_stats(a, c);
        wire_put_end(&c->out, &e);
        c->end_sent = 1;
        agent_log(a, "sent END to %s after seq %llu (%s)", c->peer, (unsigned long long)(rs.next - 1), rs.end_reason);
    }
}

/* Writes what is pending; -1 if the client is gone. */
static int flush_out(agent *a, agent_client *c)
{
    while (c->outpos < c->out.len) {
        ssize_t n = send(c->fd, c->out.p + c->outpos, c->out.len - c->outpos, MSG_NOSIGNAL | MSG_DONTWAIT);
        if (n < 0)
            return errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR ? 0 : -1;
        c->outpos += (size_t)n;
        c->bytes += (uint64_t)n;
        atomic_fetch_add(&a->bytes_sent, (uint64_t)n);
    }
    c->outpos = c->out.len = 0;
    return 0;
}

/* Reads what is there; -1 if the client is gone or sent too much. */
static int read_in(agent *a, agent_client *c)
{
    /* At most two recv per poll round: a peer that sends without pause must not hold the server
       thread (and, unpaced with backpressure, the sampler) in this loop. */
    for (int round = 0; round < 2 && c->state != C_CLOSING; round++) {
        if (c->inlen == IN_MAX) {
            reject(a, c, WIRE_ERR_PROTOCOL, "dropped", "frame larger than an agent accepts from a collector");
            return 0;
        }
        ssize_t n = recv(c->fd, c->in + c->inlen, IN_MAX - c->inlen, MSG_DONTWAIT);
        if (n == 0)
            return -1;
        if (n < 0)
            return errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR ? 0 : -1;
        if (c->got == 0 && c->state == C_HANDSHAKE)   /* started: the longer deadline */
            c->deadline = c->since + HANDSHAKE_NS;
        c->got += (uint64_t)n;
        c->inlen += (size_t)n;
        on_input(a, c);
    }
    return 0;
}

static int same_host(const agent_client *x, const agent_client *y)
{
    return x->hostlen == y->hostlen && memcmp(x->peer, y->peer, x->hostlen) == 0;
}

/* c joined the handshakes: past a limit, the oldest other handshake in that
 * limit's scope (c's address, then everyone) is dropped. */
static void make_room(agent *a, agent_client *c, uint64_t now)
{
    for (int all = 0; all < 2 && c->state == C_HANDSHAKE; all++) {
        size_t n = 0, max = all ? MAX_HANDSHAKES : MAX_HANDSHAKES_PER_ADDR;
        agent_client *oldest = NULL;
        for (size_t i = 0; i < a->nclients_cur; i++) {
            agent_client *x = a->clients[i];
            if (x->state != C_HANDSHAKE || (!all && !same_host(x, c)))
                continue;
            n++;
            if (x != c && (!oldest || x->id < oldest->id))
                oldest = x;
        }
        if (n > max && oldest) {
            char msg[160];
            snprintf(msg, sizeof msg, "too many connections in their handshake%s (more than %zu): the oldest is "
                     "dropped; try again", all ? "" : " from this address", max);
            drop_handshake(a, oldest, WIRE_ERR_RETRY, msg, now);
        }
    }
}

/* The client's socket failed or its peer closed it: nothing more is read or sent. */
static void client_gone(agent *a, agent_client *c, uint64_t now)
{
    if (c->state == C_HANDSHAKE)
        log_unauthenticated(a, now, "peer", c, "disconnected before its SUBSCRIBE");
    else if (c->state != C_CLOSING)
        agent_log(a, "collector %s disconnected", c->peer);
    c->state = C_CLOSING;
    c->deadline = 0;
    c->outpos = c->out.len;
}

/* accept4 failed for want of fds or memory: say so once (not per attempt, nor
 * again within STARVE_LOG_NS) and leave the listening socket alone a while. */
static void accept_starved(agent *a, int err, uint64_t now)
{
    a->accept_resume = now + ACCEPT_PAUSE_NS;
    if (a->starving)
        return;
    a->starving = 1;
    a->starve_told = !a->starve_told_at || now >= a->starve_told_at + STARVE_LOG_NS;
    if (!a->starve_told)
        return;
    a->starve_told_at = now;
    agent_log(a, "cannot accept connections: %s (%s, %zu clients connected); trying again every %llu ms", strerror(err),
              err == EMFILE || err == ENFILE ? "out of file descriptors: raise 'ulimit -n' or lower --max-clients"
                                             : "out of memory",
              a->nclients_cur, (unsigned long long)(ACCEPT_PAUSE_NS / 1000000u));
}

static void accept_new(agent *a, uint64_t now)
{
    for (int burst = 0; burst < ACCEPT_BURST; burst++) {
        struct sockaddr_storage ss;
        socklen_t sl = sizeof ss;
        int fd = accept4(a->lfd, (struct sockaddr *)&ss, &sl, SOCK_NONBLOCK | SOCK_CLOEXEC);
        if (fd < 0) {
            if (errno == EMFILE || errno == ENFILE || errno == ENOBUFS || errno == ENOMEM)
                accept_starved(a, errno, now);
            return;
        }
        if (a->starving && a->starve_told)
            agent_log(a, "accepting connections again");
        a->starving = 0;
        char peer[NET_ADDR_MAX];
        net_format((struct sockaddr *)&ss, peer, sizeof peer);
        agent_client *c = calloc(1, sizeof *c);
        agent_client **cl = realloc(a->clients, (a->nclients_cur + 1) * sizeof *cl);
        if (cl)
            a->clients = cl;
        if (!c || !cl || !(c->in = malloc(IN_MAX))) {
            agent_log(a, "refused %s: out of memory", peer);
            if (c)
                free(c);
            close(fd);
            continue;
        }
        c->fd = fd;
        c->out.version = (uint8_t)a->o.wire_version;
        c->id = ++a->next_client_id;
        snprintf(c->peer, sizeof c->peer, "%s", peer);
        const char *colon = strrchr(c->peer, ':');
        c->hostlen = colon ? (size_t)(colon - c->peer) : strlen(c->peer);
        c->since = now;
        c->deadline = now + IDLE_NS;
        a->clients[a->nclients_cur++] = c;
        atomic_fetch_add(&a->clients_total, 1);
        /* A collector sends its SUBSCRIBE right after connecting: often it is here already, and the
           connection is past its handshake before any limit applies to it. */
        if (read_in(a, c) != 0)
            client_gone(a, c, now);
        make_room(a, c, now);
    }
}

/* The lowest seq a streaming client still needs, for the ring's backpressure. */
static void update_floor(agent *a)
{
    uint64_t floor = RING_NO_FLOOR;
    int pending = 0;
    for (size_t i = 0; i < a->nclients_cur; i++) {
        agent_client *c = a->clients[i];
        if (c->state == C_STREAM && c->cursor < floor)
            floor = c->cursor;
    }
    ring_set_floor(a->ring, floor);
    ring_state rs;
    ring_get_state(a->ring, &rs);
    int some_end = 0;
    for (size_t i = 0; i < a->nclients_cur; i++) {
        agent_client *c = a->clients[i];
        some_end |= c->end_sent;
        pending |= c->state == C_STREAM && (!c->end_sent || c->outpos < c->out.len);
    }
    a->ever_end |= some_end;
    atomic_store(&a->drained, rs.ended && a->ever_end && !pending);
    atomic_store(&a->nclients, a->nclients_cur);
}

/* The run ended before the sampler took the pending CONFIG: tell its asker and clear it. */
static void config_refuse_over(agent *a)
{
    for (size_t i = 0; i < a->nclients_cur; i++)
        if (agent_client_id(a->clients[i]) == a->config_client)
            wire_put_error(agent_client_out(a->clients[i]), WIRE_ERR_CONFIG, "CONFIG refused: the run is over");
    agent_log(a, "CONFIG '%s' refused: the run is over", a->config_events);
    pthread_mutex_lock(&a->mu);
    atomic_store(&a->config_pending, 0);
    pthread_cond_broadcast(&a->cv);
    pthread_mutex_unlock(&a->mu);
}

void *agent_server_main(void *arg)
{
    agent *a = arg;
    struct pollfd *pf = NULL;
    size_t pfcap = 0;
    while (!atomic_load(&a->stop)) {
        uint64_t now = smn_mono_ns();
        if (atomic_load(&a->config_pending) == 2)
            agent_config_swap(a);
        else if (atomic_load(&a->config_pending) == 3)
            config_refuse_over(a);
        /* Encode, send, and drop the clients that are gone or timed out. */
        size_t k = 0;
        for (size_t i = 0; i < a->nclients_cur; i++) {
            agent_client *c = a->clients[i];
            fill(a, c, now);
            int gone = flush_out(a, c) != 0 || c->out.oom;
            if (!gone && c->state == C_HANDSHAKE && now >= c->deadline) {
                drop_handshake(a, c, WIRE_ERR_PROTOCOL, c->got ? "no SUBSCRIBE within 10 s" : "sent nothing within 2 s",
                               now);
                gone = flush_out(a, c) != 0;
            }
            if (!gone && c->state == C_CLOSING && (c->outpos == c->out.len || now >= c->deadline))
                gone = 1;
            if (gone) {
                client_gone(a, c, now);
                client_free(c);
            } else {
                a->clients[k++] = c;
            }
        }
        a->nclients_cur = k;
        update_floor(a);
        if (pfcap < k + 2) {
            struct pollfd *np = realloc(pf, (k + 2) * sizeof *np);
            if (!np) {
                agent_fail(a, "server: out of memory for its poll set (%zu connections); stopping", k);
                break;
            }
            pf = np;
            pfcap = k + 2;
        }
        /* out of fds: the listening socket stays readable and accept would fail at once */
        pf[0] = (struct pollfd){a->lfd, now >= a->accept_resume ? POLLIN : 0, 0};
        pf[1] = (struct pollfd){a->wake[0], POLLIN, 0};
        int busy = 0;
        for (size_t i = 0; i < k; i++) {
            agent_client *c = a->clients[i];
            /* nothing more is read from a client being dropped: only its ERROR goes out */
            short ev = c->state == C_CLOSING ? 0 : POLLIN;
            if (c->outpos < c->out.len)
                ev |= POLLOUT;
            pf[i + 2] = (struct pollfd){c->fd, ev, 0};
        }
        /* Armed before looking for work: a sample pushed after this point
         * nudges the pipe, one pushed before is seen by the check below. */
        atomic_store(&a->armed, 1);
        ring_state rs;
        ring_get_state(a->ring, &rs);
        for (size_t i = 0; i < k && !busy; i++) {
            agent_client *c = a->clients[i];
            busy = c->state == C_STREAM && c->outpos == c->out.len &&
                   (c->cursor < rs.next || (rs.ended && !c->end_sent));
        }
        int n = poll(pf, k + 2, busy ? 0 : 100);
        if (n < 0 && errno != EINTR) {
            agent_fail(a, "server: poll failed (%s); stopping", strerror(errno));
            break;
        }
        if (n <= 0)
            continue;
        if (pf[1].revents) {
            char buf[256];
            while (read(a->wake[0], buf, sizeof buf) > 0)
                ;
        }
        for (size_t i = 0; i < k; i++) {
            agent_client *c = a->clients[i];
            if (c->state != C_CLOSING && (pf[i + 2].revents & (POLLIN | POLLHUP | POLLERR)) && read_in(a, c) != 0)
                client_gone(a, c, now);
        }
        if (pf[0].revents & POLLIN)
            accept_new(a, smn_mono_ns());
    }
    /* Stopping: whoever is still connected is cut off. */
    for (size_t i = 0; i < a->nclients_cur; i++)
        client_free(a->clients[i]);
    free(a->clients);
    a->clients = NULL;
    a->nclients_cur = 0;
    free(pf);
    return NULL;
}
