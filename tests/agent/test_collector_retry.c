/* collector_connect tries again when the agent dropped its connection in the
 * handshake to make room for a newer one (ERROR 8, WIRE_ERR_RETRY: a peer
 * holding the agent's handshake slots), with a growing pause and within its
 * timeout; it gives up with a message saying so; any other refusal (ERROR 4,
 * --max-clients) is final at once. The agent here is a fake on loopback: it
 * answers the first connections with an ERROR and then with a real agent's
 * HELLO, captured from an agent run in this process. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdatomic.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include "agent/agent.h"
#include "agent/collector.h"
#include "serve/net.h"
#include "core/clock.h"
#include "socmon/socmon.h"

typedef struct fake {
    int lfd;
    unsigned port;
    uint32_t code;          /* the ERROR's code */
    int errors;             /* connections answered with it before a HELLO; -1: all */
    uint8_t *hello;         /* a HELLO frame as an agent sends it */
    size_t hello_len;
    atomic_int served;      /* connections answered */
    atomic_int stop;
} fake;

/* Reads one whole frame (header, then the payload its length gives), blocking
 * for at most 5 s at a time. */
static int read_frame(int fd, uint8_t *buf, size_t cap, size_t *len)
{
    struct timeval tv = {5, 0};
    if (fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK) != 0 ||
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv) != 0)
        return -1;
    size_t got = 0, want = WIRE_HDR;
    while (got < want) {
        ssize_t n = recv(fd, buf + got, want - got, 0);
        if (n <= 0)
            return -1;
        got += (size_t)n;
        if (got == WIRE_HDR) {
            wire_hdr h;
            if (wire_hdr_parse(buf, got, WIRE_MAX_PAYLOAD, &h) != 1 || WIRE_HDR + h.len > cap)
                return -1;
            want = WIRE_HDR + h.len;
        }
    }
    *len = got;
    return 0;
}

static void *fake_main(void *arg)
{
    fake *f = arg;
    uint8_t buf[8192];
    while (!atomic_load(&f->stop)) {
        int fd = accept(f->lfd, NULL, NULL);
        if (fd < 0)
            continue;   /* woken by shutdown, or EINTR */
        size_t len;
        if (read_frame(fd, buf, sizeof buf, &len) == 0) {
            int n = atomic_fetch_add(&f->served, 1);
            if (f->errors < 0 || n < f->errors) {
                wire_buf b = {0};
                wire_put_error(&b, f->code, f->code == WIRE_ERR_RETRY
                               ? "too many connections in their handshake from this address (more than 4): the "
                                 "oldest is dropped; try again"
                               : "too many collectors (--max-clients 1)");
                send(fd, b.p, b.len, MSG_NOSIGNAL);
                wire_buf_free(&b);
            } else {
                send(fd, f->hello, f->hello_len, MSG_NOSIGNAL);
            }
        }
        close(fd);
    }
    return NULL;
}

/* A HELLO from a real agent (the ESP model), as bytes on the wire. */
static void capture_hello(fake *f)
{
    smn_run_plan plan = {.target = {.specs = (const char *const[]){"esp"}, .nspecs = 1},
                         .sampling = {.interval_ns = 1000000, .rule = SMN_STEP_ROWS, .duration_ns = 1000000,
                                      .realtime = 1, .started = 1},
                         .totals = SMN_TOTALS_NEVER};
    smn_session *sess;
    assert_int_equal(smn_session_open(&plan, &sess), SOCMON_OK);
    agent_opts o = {.listen = "127.0.0.1:0", .interval_ns = 1000000, .duration_ns = 1000000, .pace = 1,
                    .wait_collector = 1, .log = stderr};
    agent *a;
    assert_int_equal(agent_new(sess, &o, &a), SOCMON_OK);
    assert_int_equal(agent_start(a), SOCMON_OK);
    char addr[64];
    snprintf(addr, sizeof addr, "127.0.0.1:%u", agent_port(a));
    int fd;
    assert_int_equal(net_connect(addr, 5000, &fd), SOCMON_OK);
    wire_buf b = {0};
    wire_subscribe s = {.mode = WIRE_SUB_NONE};
    wire_put_subscribe(&b, &s);
    assert_int_equal(send(fd, b.p, b.len, MSG_NOSIGNAL), (ssize_t)b.len);
    wire_buf_free(&b);
    f->hello = malloc(1u << 20);
    assert_int_equal(read_frame(fd, f->hello, 1u << 20, &f->hello_len), 0);
    assert_int_equal(f->hello[5], WIRE_HELLO);   /* the type byte follows magic and version */
    close(fd);
    agent_stop(a);
    agent_free(a);
    smn_session_close(sess);
}

static void start_fake(fake *f, pthread_t *th, uint32_t code, int errors)
{
    char bound[NET_ADDR_MAX];
    int loopback;
    capture_hello(f);
    f->code = code;
    f->errors = errors;
    assert_int_equal(net_listen("127.0.0.1:0", &f->lfd, &loopback, bound, sizeof bound), SOCMON_OK);
    f->port = (unsigned)atoi(strrchr(bound, ':') + 1);
    /* the fake accepts blocking: one collector at a time is all it serves */
    assert_int_equal(fcntl(f->lfd, F_SETFL, fcntl(f->lfd, F_GETFL) & ~O_NONBLOCK), 0);
    assert_int_equal(pthread_create(th, NULL, fake_main, f), 0);
}

static void stop_fake(fake *f, pthread_t th)
{
    atomic_store(&f->stop, 1);
    shutdown(f->lfd, SHUT_RDWR);   /* wakes the blocked accept */
    pthread_join(th, NULL);
    close(f->lfd);
    free(f->hello);
}

static double connect_s(fake *f, int timeout_ms, socmon_status want, collector **c)
{
    char addr[64];
    snprintf(addr, sizeof addr, "127.0.0.1:%u", f->port);
    uint64_t t0 = smn_mono_ns();
    assert_int_equal(collector_connect(addr, NULL, timeout_ms, c), want);
    return (double)(smn_mono_ns() - t0) / 1e9;
}

/* Dropped twice, then let in: connected, after pauses of at least 25 + 50 ms. */
static void test_retry_then_connect(void **state)
{
    (void)state;
    fake f = {0};
    pthread_t th;
    start_fake(&f, &th, WIRE_ERR_RETRY, 2);
    collector *c;
    double s = connect_s(&f, 5000, SOCMON_OK, &c);
    assert_int_equal(atomic_load(&f.served), 3);
    assert_true(s >= 0.075);
    assert_true(s < 2.0);
    assert_true(collector_hello(c)->ncounters > 0);
    collector_close(c);
    stop_fake(&f, th);
}

/* Dropped every time: given up within the timeout (and not much after), saying why. */
static void test_retry_gives_up(void **state)
{
    (void)state;
    fake f = {0};
    pthread_t th;
    start_fake(&f, &th, WIRE_ERR_RETRY, -1);
    collector *c = NULL;
    double s = connect_s(&f, 1500, SOCMON_EAGAIN, &c);
    print_message("after %.2f s: %s\n", s, socmon_errmsg());
    assert_null(c);
    assert_true(s >= 0.5);   /* backoff 25..50, 50..100, 100..200, 200..400 ms, ...: >= 375 ms before a 5th try */
    assert_true(s <= 2.0);   /* the last try has at least 200 ms, and gets its answer much sooner */
    assert_true(atomic_load(&f.served) >= 4);
    assert_non_null(strstr(socmon_errmsg(), "too many connections in their handshake"));
    assert_non_null(strstr(socmon_errmsg(), "gave up after"));
    stop_fake(&f, th);
}

/* --max-clients (ERROR 4) is an answer, not a crowd: no second try. */
static void test_busy_is_final(void **state)
{
    (void)state;
    fake f = {0};
    pthread_t th;
    start_fake(&f, &th, WIRE_ERR_BUSY, -1);
    collector *c = NULL;
    double s = connect_s(&f, 5000, SOCMON_EAGAIN, &c);
    assert_true(s < 1.0);
    assert_int_equal(atomic_load(&f.served), 1);
    assert_non_null(strstr(socmon_errmsg(), "too many collectors (--max-clients 1)"));
    assert_null(strstr(socmon_errmsg(), "gave up"));
    stop_fake(&f, th);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_retry_then_connect),
        cmocka_unit_test(test_retry_gives_up),
        cmocka_unit_test(test_busy_is_final),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
