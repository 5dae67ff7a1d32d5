/* Who gets one of the HTTP server's connections, and for how long (http_internal.h).
 *
 * libmicrohttpd's own accept loop gave every slot to whoever came first and kept it until 120 s
 * of silence: 32 sockets sending half a request line, or a byte every 10 s, took the page and
 * /metrics away (issue 23). So we accept ourselves and hand each connection over with
 * MHD_add_connection, after deciding:
 *   - A connection is idle from its accept until the header of a request is complete (the access
 *     handler runs), and again from its answer until the next request. Idle connections are
 *     cheap to lose: a client that has not sent a whole header loses nothing, a keep-alive one
 *     opens another. Busy ones (a request being answered, a page's event stream) are never cut.
 *   - An idle connection has header_ms to complete a header, counted from when it became idle
 *     (so a byte every few seconds does not keep it, as it kept libmicrohttpd's inactivity
 *     timeout). Then it is shut down.
 *   - At the limit, a new connection takes the place of the oldest idle one: first among those of
 *     its own address when that address holds per_ip, else among all. Peers on one address (every
 *     client of a loopback server) are thus served even while half-open requests fill the slots.
 *   - When every slot is busy, the client gets a 503 with Retry-After rather than a reset or a
 *     wait in the listen backlog.
 *   - At the fd limit (EMFILE) the thread says so once (the log's budget) and stops polling the
 *     listening socket for a while, instead of spinning; a spare fd lets it tell the waiting
 *     client 503.
 * Closing a connection libmicrohttpd owns is a shutdown() of its socket under our mutex: its
 * thread then reads the end and closes it, and libmicrohttpd reports the close (which removes
 * the record) before it closes the fd, so a recorded fd is always still that connection's. */
#define _GNU_SOURCE   /* pipe2, accept4 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
#include <netinet/in.h>

#include "serve/http_internal.h"
#include "serve/net.h"

#define HTTP_EVICT_SLACK 8        /* connections being closed may exceed the limit by this */
#define HTTP_LINGER_MAX 8         /* refused connections kept open to let their 503 reach them */
#define HTTP_LINGER_MS 1000
#define HTTP_EMFILE_PAUSE_MS 200
#define HTTP_UNSTARTED_MS 5000    /* a handed-over connection libmicrohttpd never reported */
#define HTTP_POLL_MS 250
/* A new connection is looked at before libmicrohttpd gets it: a socmon collector pointed at this
 * port by mistake (its SUBSCRIBE starts with the wire magic "SMAG") is told at once, in HTTP,
 * which port it wants, instead of waiting for a request header that never comes. A client that
 * sends nothing is handed over after HTTP_SNIFF_MS; at HTTP_SNIFF_MAX waiting the oldest goes on. */
#define HTTP_SNIFF_MAX 8
#define HTTP_SNIFF_MS 100

typedef struct slot {
    int used;
    int fd;
    struct MHD_Connection *conn;  /* set once libmicrohttpd reports it started */
    int busy, closing;
    uint64_t since_ms;            /* accepted, or idle since */
    struct sockaddr_storage addr;
    socklen_t addrlen;
} slot;

typedef struct sniffing {
    int fd;                       /* -1: a free entry */
    uint64_t since_ms;
    struct sockaddr_storage addr;
    socklen_t addrlen;
} sniffing;

typedef struct lingering {
    int fd;
    uint64_t until_ms;
} lingering;

struct http_conns {
    http_conns_opts o;
    unsigned nslots;              /* max_conns and a few being closed */
    slot *slots;
    pthread_mutex_t mu;
    struct MHD_Daemon *d;
    pthread_t thread;
    int running;
    int wake[2];                  /* a byte wakes the thread: stop, or a slot was freed */
    atomic_int stop;              /* set by http_conns_stop, read by the accepting thread */
    int spare_fd;                 /* closed at EMFILE to accept the client we then refuse */
    uint64_t paused_until_ms;
    lingering lingering[HTTP_LINGER_MAX];
    sniffing sniff[HTTP_SNIFF_MAX];
};

static uint64_t now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

unsigned http_fd_room(unsigned reserve)
{
    struct rlimit rl;
    if (getrlimit(RLIMIT_NOFILE, &rl) != 0 || rl.rlim_cur == RLIM_INFINITY || rl.rlim_cur > 1u << 20)
        return 1u << 20;
    unsigned open_now = 0;
    DIR *dir = opendir("/proc/self/fd");
    if (dir) {
        while (readdir(dir))
            open_now++;
        closedir(dir);
        open_now = open_now > 3 ? open_now - 3 : 0;   /* ".", ".." and the directory's own fd */
    } else {
        open_now = 16;                                /* no /proc: a guess on the safe side */
    }
    unsigned long used = (unsigned long)open_now + reserve;
    return rl.rlim_cur > used ? (unsigned)(rl.rlim_cur - used) : 1;
}

socmon_status http_conns_new(const http_conns_opts *o, http_conns **out)
{
    http_conns *hc = calloc(1, sizeof *hc);
    if (!hc)
        return socmon_fail(SOCMON_ENOMEM, "http: out of memory");
    hc->o = *o;
    /* room for connections being closed: a quarter more, 1..HTTP_EVICT_SLACK (each holds an fd
     * for the ms its close takes, and max_conns may be all the fd limit leaves) */
    unsigned slack = o->max_conns / 4;
    hc->nslots = o->max_conns + (slack < 1 ? 1 : slack > HTTP_EVICT_SLACK ? HTTP_EVICT_SLACK : slack);
    hc->slots = calloc(hc->nslots, sizeof *hc->slots);
    hc->wake[0] = hc->wake[1] = -1;
    if (!hc->slots || pipe2(hc->wake, O_CLOEXEC | O_NONBLOCK) != 0) {
        free(hc->slots);
        free(hc);
        return socmon_fail(SOCMON_ENOMEM, "http: out of memory or file descriptors");
    }
    pthread_mutex_init(&hc->mu, NULL);
    for (size_t i = 0; i < HTTP_LINGER_MAX; i++)
        hc->lingering[i].fd = -1;
    for (size_t i = 0; i < HTTP_SNIFF_MAX; i++)
        hc->sniff[i].fd = -1;
    hc->spare_fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
    *out = hc;
    return SOCMON_OK;
}

unsigned http_conns_mhd_limit(const http_conns *hc)
{
    /* above ours, so libmicrohttpd never refuses (and never closes without telling us) */
    return hc->nslots + 2;
}

static void poke(http_conns *hc)
{
    char b = 0;
    ssize_t n = write(hc->wake[1], &b, 1);
    (void)n;   /* a full pipe already wakes the thread */
}

static int same_addr(const struct sockaddr_storage *a, const struct sockaddr_storage *b)
{
    if (a->ss_family != b->ss_family)
        return 0;
    if (a->ss_family == AF_INET)
        return ((const struct sockaddr_in *)a)->sin_addr.s_addr == ((const struct sockaddr_in *)b)->sin_addr.s_addr;
    if (a->ss_family == AF_INET6)
        return memcmp(&((const struct sockaddr_in6 *)a)->sin6_addr, &((const struct sockaddr_in6 *)b)->sin6_addr,
                      16) == 0;
    return 0;
}

/* Caller holds mu: shuts down the slot's connection; libmicrohttpd's thread sees the end of it. */
static void cut(slot *s)
{
    shutdown(s->fd, SHUT_RDWR);
    s->closing = 1;
}

/* Caller holds mu: the oldest idle connection (of addr's address, when addr is not NULL) that
 * can be cut, or NULL. */
static slot *oldest_idle(http_conns *hc, const struct sockaddr_storage *addr)
{
    slot *best = NULL;
    for (unsigned i = 0; i < hc->nslots; i++) {
        slot *s = &hc->slots[i];
        if (s->used && s->conn && !s->busy && !s->closing && (!addr || same_addr(&s->addr, addr)) &&
            (!best || s->since_ms < best->since_ms))
            best = s;
    }
    return best;
}

/* The client of fd will not be served: a 503 it can read, then the socket stays open a moment
 * (its request may still be arriving: closing a socket with unread data sends a reset, which
 * can destroy the answer before the client reads it). */
static void refuse(http_conns *hc, int fd, const char *why, int may_linger)
{
    char text[300];
    int blen = snprintf(text, sizeof text, "socmon: %s; try again\n", why);
    char msg[512];
    int n = snprintf(msg, sizeof msg, "HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain; charset=utf-8\r\n"
                     "Content-Length: %d\r\nRetry-After: 1\r\nConnection: close\r\n\r\n%s", blen, text);
    ssize_t w = send(fd, msg, (size_t)n, MSG_NOSIGNAL | MSG_DONTWAIT);
    (void)w;   /* a client that cannot take 300 bytes gets the close alone */
    shutdown(fd, SHUT_WR);
    for (size_t i = 0; may_linger && i < HTTP_LINGER_MAX; i++)
        if (hc->lingering[i].fd < 0) {
            hc->lingering[i].fd = fd;
            hc->lingering[i].until_ms = now_ms() + HTTP_LINGER_MS;
            return;
        }
    close(fd);
}

/* A new connection: a slot (cutting the oldest idle one at a limit), or a 503. */
static void admit(http_conns *hc, int fd, const struct sockaddr_storage *addr, socklen_t addrlen)
{
    char peer[NET_ADDR_MAX], why[200] = "";
    pthread_mutex_lock(&hc->mu);
    unsigned live = 0, mine = 0;
    slot *free_slot = NULL;
    for (unsigned i = 0; i < hc->nslots; i++) {
        slot *s = &hc->slots[i];
        if (!s->used) {
            free_slot = free_slot ? free_slot : s;
            continue;
        }
        if (s->closing)
            continue;
        live++;
        mine += same_addr(&s->addr, addr);
    }
    slot *victim = NULL;
    if (mine >= hc->o.per_ip && !(victim = oldest_idle(hc, addr)))
        snprintf(why, sizeof why, "all %u connections one address may hold are busy", hc->o.per_ip);
    else if (!victim && live >= hc->o.max_conns && !(victim = oldest_idle(hc, NULL)))
        snprintf(why, sizeof why, "all %u connections are busy", hc->o.max_conns);
    else if (!free_slot)   /* not after has_room(); kept for safety */
        snprintf(why, sizeof why, "too many connections are being opened at once");
    if (!why[0] && free_slot) { /* free_slot: why says so when it is NULL, which -O3 cannot see */
        if (victim)
            cut(victim);
        memset(free_slot, 0, sizeof *free_slot);
        free_slot->used = 1;
        free_slot->fd = fd;
        free_slot->since_ms = now_ms();
        memcpy(&free_slot->addr, addr, addrlen);
        free_slot->addrlen = addrlen;
    }
    pthread_mutex_unlock(&hc->mu);
    net_format((const struct sockaddr *)addr, peer, sizeof peer);
    if (why[0]) {
        http_logf(hc->o.log, "refused a connection", "refused a connection from %s with 503: %s", peer, why);
        refuse(hc, fd, why, 1);
        return;
    }
    if (victim)
        http_logf(hc->o.log, "closed an idle connection", "closed the oldest idle connection for one from %s "
                  "(at the limit of %u, %u per address)", peer, hc->o.max_conns, hc->o.per_ip);
    if (MHD_add_connection(hc->d, fd, (const struct sockaddr *)addr, addrlen) != MHD_YES) {
        /* libmicrohttpd closed the fd and will not report it: the slot is free again */
        pthread_mutex_lock(&hc->mu);
        free_slot->used = 0;
        pthread_mutex_unlock(&hc->mu);
        http_logf(hc->o.log, "could not take a connection", "could not take the connection from %s: %s", peer,
                  strerror(errno));
    }
}

/* A collector speaking the agent's wire protocol here: a 400 in HTTP (what the collector
 * recognises) naming the port it wants, then closed as a refused client is. */
static void wrong_port(http_conns *hc, int fd, const struct sockaddr_storage *addr)
{
    char text[600], msg[1024], peer[NET_ADDR_MAX];
    int blen = hc->o.collectors
                   ? snprintf(text, sizeof text, "socmon: this is the agent's HTTP port (--http: the live page and "
                              "/metrics); collectors (record/stat/serve --remote) connect to its --listen port, %s\n",
                              hc->o.collectors)
                   : snprintf(text, sizeof text, "socmon: this is an HTTP port (the live page and /metrics), not "
                              "an agent's: collectors connect to the port of the agent's --listen\n");
    int n = snprintf(msg, sizeof msg, "HTTP/1.1 400 Bad Request\r\nContent-Type: text/plain; charset=utf-8\r\n"
                     "Content-Length: %d\r\nConnection: close\r\n\r\n%s", blen, text);
    ssize_t w = send(fd, msg, (size_t)n, MSG_NOSIGNAL | MSG_DONTWAIT);
    (void)w;
    net_format((const struct sockaddr *)addr, peer, sizeof peer);
    http_logf(hc->o.log, "collector on the HTTP port", "a collector (%s) connected to the HTTP port: told it to use "
              "%s", peer, hc->o.collectors ? hc->o.collectors : "the agent's --listen port");
    shutdown(fd, SHUT_WR);
    for (size_t i = 0; i < HTTP_LINGER_MAX; i++)
        if (hc->lingering[i].fd < 0) {
            hc->lingering[i].fd = fd;
            hc->lingering[i].until_ms = now_ms() + HTTP_LINGER_MS;
            return;
        }
    close(fd);
}

/* The connection of entry i is judged: a collector, or a client for libmicrohttpd. */
static void sniff_done(http_conns *hc, sniffing *e, int is_collector)
{
    int fd = e->fd;
    e->fd = -1;
    if (is_collector)
        wrong_port(hc, fd, &e->addr);
    else
        admit(hc, fd, &e->addr, e->addrlen);
}

/* A new connection waits for its first bytes (at most HTTP_SNIFF_MS); the oldest waiting one
 * goes on to admit() when every entry is taken. */
static void sniff_add(http_conns *hc, int fd, const struct sockaddr_storage *addr, socklen_t addrlen)
{
    sniffing *e = NULL;
    for (size_t i = 0; i < HTTP_SNIFF_MAX && !e; i++)
        if (hc->sniff[i].fd < 0)
            e = &hc->sniff[i];
    if (!e) {
        e = &hc->sniff[0];
        for (size_t i = 1; i < HTTP_SNIFF_MAX; i++)
            if (hc->sniff[i].since_ms < e->since_ms)
                e = &hc->sniff[i];
        sniff_done(hc, e, 0);
    }
    e->fd = fd;
    e->since_ms = now_ms();
    memcpy(&e->addr, addr, addrlen);
    e->addrlen = addrlen;
}

/* Entries with bytes to read, or past their time: "SMAG" first is a collector; anything else
 * (or nothing) is libmicrohttpd's to answer. */
static void sniff_check(http_conns *hc, const struct pollfd *pf, size_t npf)
{
    uint64_t now = now_ms();
    for (size_t i = 0; i < HTTP_SNIFF_MAX; i++) {
        sniffing *e = &hc->sniff[i];
        if (e->fd < 0)
            continue;
        int ready = 0, late = now - e->since_ms >= HTTP_SNIFF_MS;
        for (size_t j = 0; j < npf; j++)
            ready |= pf[j].fd == e->fd && pf[j].revents;
        if (!ready && !late)
            continue;
        char b[4];
        ssize_t k = recv(e->fd, b, sizeof b, MSG_PEEK | MSG_DONTWAIT);
        int magic = k > 0 && memcmp(b, "SMAG", (size_t)k) == 0;
        if (magic && k < 4 && !late)
            continue;   /* the rest of the magic is on its way */
        sniff_done(hc, e, magic && k == 4);
    }
}

/* accept() failed for want of fds: said once a while, the waiting client told 503 when a spare
 * fd can be given up for it, and the listening socket left alone for a moment. */
static void out_of_fds(http_conns *hc, int err)
{
    struct rlimit rl = {0, 0};
    getrlimit(RLIMIT_NOFILE, &rl);
    http_logf(hc->o.log, "cannot accept", "cannot accept a connection: %s (fd limit %llu); pausing accept() "
              "for %d ms", strerror(err), (unsigned long long)rl.rlim_cur, HTTP_EMFILE_PAUSE_MS);
    if (hc->spare_fd >= 0) {
        close(hc->spare_fd);
        int fd = accept4(hc->o.listen_fd, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK);
        if (fd >= 0)   /* closed at once: the spare fd must come back */
            refuse(hc, fd, "the server is out of file descriptors", 0);
        hc->spare_fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
    }
    hc->paused_until_ms = now_ms() + HTTP_EMFILE_PAUSE_MS;
}

/* 1 if the next connection can be judged now: a slot is free, and libmicrohttpd has started
 * every connection handed to it (only a started one can be cut: its fd is known to be its own).
 * In a burst of new connections the slots beyond max_conns, which hold connections being closed,
 * may all be in use for the few ms libmicrohttpd takes to close them; the next connection then
 * waits in the listen backlog for a close or a start, which pokes the thread. A connection
 * libmicrohttpd never started holds things up for HTTP_STARTING_MS at most. */
#define HTTP_STARTING_MS 1000
static int has_room(http_conns *hc)
{
    int room = 0, starting = 0;
    uint64_t now = now_ms();
    pthread_mutex_lock(&hc->mu);
    for (unsigned i = 0; i < hc->nslots; i++) {
        const slot *s = &hc->slots[i];
        room |= !s->used;
        starting |= s->used && !s->conn && now - s->since_ms < HTTP_STARTING_MS;
    }
    pthread_mutex_unlock(&hc->mu);
    return room && !starting;
}

static void accept_some(http_conns *hc)
{
    for (int n = 0; n < 64 && has_room(hc); n++) {
        struct sockaddr_storage ss;
        socklen_t sl = sizeof ss;
        int fd = accept4(hc->o.listen_fd, (struct sockaddr *)&ss, &sl, SOCK_CLOEXEC | SOCK_NONBLOCK);
        if (fd < 0) {
            if (errno == EINTR || errno == ECONNABORTED)
                continue;
            if (errno == EMFILE || errno == ENFILE || errno == ENOBUFS || errno == ENOMEM)
                out_of_fds(hc, errno);
            return;
        }
        sniff_add(hc, fd, &ss, sl);
    }
}

/* Idle connections past their deadline are cut; records libmicrohttpd never reported dropped.
 * Returns the ms until the next deadline (at most HTTP_POLL_MS). */
static int reap(http_conns *hc)
{
    uint64_t now = now_ms(), next = now + HTTP_POLL_MS;
    unsigned cut_n = 0;
    char peer[NET_ADDR_MAX] = "";
    pthread_mutex_lock(&hc->mu);
    for (unsigned i = 0; i < hc->nslots; i++) {
        slot *s = &hc->slots[i];
        if (!s->used || s->busy || s->closing)
            continue;
        if (!s->conn) {
            if (now - s->since_ms >= HTTP_UNSTARTED_MS)
                s->used = 0;
            continue;
        }
        uint64_t due = s->since_ms + hc->o.header_ms;
        if (due <= now) {
            if (!cut_n++)
                net_format((const struct sockaddr *)&s->addr, peer, sizeof peer);
            cut(s);
        } else if (due < next) {
            next = due;
        }
    }
    pthread_mutex_unlock(&hc->mu);
    if (cut_n)
        http_logf(hc->o.log, "closed connections without a request", "closed %u connection%s (from %s%s) that sent "
                  "no complete request header within %u ms", cut_n, cut_n > 1 ? "s" : "", peer,
                  cut_n > 1 ? " and others" : "", hc->o.header_ms);
    return (int)(next - now);
}

/* Reads what refused clients still send and closes them at their end or their time. */
static void drain_lingering(http_conns *hc, const struct pollfd *pf, size_t npf)
{
    uint64_t now = now_ms();
    for (size_t i = 0; i < HTTP_LINGER_MAX; i++) {
        lingering *l = &hc->lingering[i];
        if (l->fd < 0)
            continue;
        int done = now >= l->until_ms;
        for (size_t j = 0; j < npf && !done; j++)
            if (pf[j].fd == l->fd && pf[j].revents) {
                char buf[1024];
                ssize_t n = recv(l->fd, buf, sizeof buf, MSG_DONTWAIT);
                done = n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR);
            }
        if (done) {
            close(l->fd);
            l->fd = -1;
        }
    }
}

static void *accept_main(void *arg)
{
    http_conns *hc = arg;
    while (!atomic_load(&hc->stop)) {
        int wait = reap(hc);
        if (wait > HTTP_STARTING_MS / 4)   /* a connection never started stops holding us up */
            wait = HTTP_STARTING_MS / 4;
        struct pollfd pf[2 + HTTP_LINGER_MAX + HTTP_SNIFF_MAX];
        size_t n = 0;
        pf[n++] = (struct pollfd){.fd = hc->wake[0], .events = POLLIN};
        uint64_t now = now_ms();
        if (now < hc->paused_until_ms) {
            if ((int)(hc->paused_until_ms - now) < wait)
                wait = (int)(hc->paused_until_ms - now);
        } else if (has_room(hc)) {   /* else a close or a start pokes the thread */
            pf[n++] = (struct pollfd){.fd = hc->o.listen_fd, .events = POLLIN};
        }
        for (size_t i = 0; i < HTTP_LINGER_MAX; i++)
            if (hc->lingering[i].fd >= 0) {
                pf[n++] = (struct pollfd){.fd = hc->lingering[i].fd, .events = POLLIN};
                wait = wait > 50 ? 50 : wait;   /* their time runs out while nothing else happens */
            }
        for (size_t i = 0; i < HTTP_SNIFF_MAX; i++)
            if (hc->sniff[i].fd >= 0) {
                pf[n++] = (struct pollfd){.fd = hc->sniff[i].fd, .events = POLLIN};
                uint64_t due = hc->sniff[i].since_ms + HTTP_SNIFF_MS;
                int left = due > now ? (int)(due - now) : 0;
                wait = wait > left ? left : wait;
            }
        int rc = poll(pf, n, wait < 1 ? 1 : wait);
        if (rc < 0 && errno != EINTR) {
            http_logf(hc->o.log, "poll", "poll: %s", strerror(errno));
            hc->paused_until_ms = now_ms() + HTTP_EMFILE_PAUSE_MS;
            continue;
        }
        if (rc > 0 && pf[0].revents) {
            char buf[64];
            while (read(hc->wake[0], buf, sizeof buf) > 0)
                ;
        }
        drain_lingering(hc, pf, n);
        sniff_check(hc, pf, n);
        if (rc > 0 && n > 1 && pf[1].fd == hc->o.listen_fd && pf[1].revents)
            accept_some(hc);
        http_log_tick(hc->o.log, 0);
    }
    return NULL;
}

socmon_status http_conns_start(http_conns *hc, struct MHD_Daemon *d)
{
    hc->d = d;
    if (pthread_create(&hc->thread, NULL, accept_main, hc) != 0)
        return socmon_fail(SOCMON_EIO, "http: cannot start the accepting thread");
    hc->running = 1;
    return SOCMON_OK;
}

void http_conns_stop(http_conns *hc)
{
    if (!hc)
        return;
    if (hc->running) {
        atomic_store(&hc->stop, 1);
        poke(hc);
        pthread_join(hc->thread, NULL);
        hc->running = 0;
    }
    if (hc->o.listen_fd >= 0)
        close(hc->o.listen_fd);
    hc->o.listen_fd = -1;
    for (size_t i = 0; i < HTTP_LINGER_MAX; i++)
        if (hc->lingering[i].fd >= 0) {
            close(hc->lingering[i].fd);
            hc->lingering[i].fd = -1;
        }
    for (size_t i = 0; i < HTTP_SNIFF_MAX; i++)
        if (hc->sniff[i].fd >= 0) {
            close(hc->sniff[i].fd);
            hc->sniff[i].fd = -1;
        }
}

void http_conns_free(http_conns *hc)
{
    if (!hc)
        return;
    http_conns_stop(hc);
    if (hc->spare_fd >= 0)
        close(hc->spare_fd);
    close(hc->wake[0]);
    close(hc->wake[1]);
    pthread_mutex_destroy(&hc->mu);
    free(hc->slots);
    free(hc);
}

void http_conns_notify(void *cls, struct MHD_Connection *c, void **socket_context,
                       enum MHD_ConnectionNotificationCode toe)
{
    http_conns *hc = cls;
    if (toe == MHD_CONNECTION_NOTIFY_STARTED) {
        const union MHD_ConnectionInfo *ci = MHD_get_connection_info(c, MHD_CONNECTION_INFO_CONNECTION_FD);
        slot *found = NULL;
        pthread_mutex_lock(&hc->mu);
        /* the newest record of this fd: an older one with no connection is one libmicrohttpd
         * dropped without a word, whose fd number came back */
        for (unsigned i = 0; ci && i < hc->nslots; i++) {
            slot *s = &hc->slots[i];
            if (s->used && !s->conn && s->fd == ci->connect_fd && (!found || s->since_ms >= found->since_ms))
                found = s;
        }
        for (unsigned i = 0; found && i < hc->nslots; i++) {
            slot *s = &hc->slots[i];
            if (s != found && s->used && !s->conn && s->fd == found->fd)
                s->used = 0;
        }
        if (found)
            found->conn = c;
        pthread_mutex_unlock(&hc->mu);
        *socket_context = found;
        poke(hc);   /* the thread may be waiting for this start */
        return;
    }
    slot *s = *socket_context;
    if (!s)
        return;
    pthread_mutex_lock(&hc->mu);
    if (s->conn == c)
        s->used = 0, s->conn = NULL;
    pthread_mutex_unlock(&hc->mu);
    *socket_context = NULL;
    poke(hc);   /* a slot is free: the thread may be waiting for one */
}

static slot *slot_of(struct MHD_Connection *c)
{
    const union MHD_ConnectionInfo *ci = MHD_get_connection_info(c, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
    return ci ? ci->socket_context : NULL;
}

void http_conns_busy(http_conns *hc, struct MHD_Connection *c)
{
    slot *s = slot_of(c);
    if (!s)
        return;
    pthread_mutex_lock(&hc->mu);
    if (s->conn == c)
        s->busy = 1;
    pthread_mutex_unlock(&hc->mu);
}

void http_conns_completed(void *cls, struct MHD_Connection *c, void **con_cls, enum MHD_RequestTerminationCode toe)
{
    http_conns *hc = cls;
    (void)con_cls;
    (void)toe;
    slot *s = slot_of(c);
    if (!s)
        return;
    pthread_mutex_lock(&hc->mu);
    if (s->conn == c) {
        s->busy = 0;
        s->since_ms = now_ms();
    }
    pthread_mutex_unlock(&hc->mu);
}
