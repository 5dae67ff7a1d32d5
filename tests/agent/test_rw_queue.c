/* The remote writer's queue and sender (serve/remote_write.h) against a receiver in this process
 * that answers as told: the queue is bounded and drops the oldest, counting each; 503 is sent
 * again until taken; 400 is never sent again; a receiver that stalls costs the producer nothing.
 * Rows are fed straight to the consumer, as the pipeline would. A thread test (make test-tsan). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "serve/remote_write.h"

/* ---- a receiver: answers[i] to request i (the last one repeated), after delay_ms ---- */

typedef struct receiver {
    int fd;
    unsigned port;
    int answers[8];
    size_t nanswers;
    unsigned delay_ms;
    atomic_int requests;
    atomic_int stop;
    pthread_t th;
} receiver;

static void sleep_ms(unsigned ms)
{
    struct timespec ts = {ms / 1000, (long)(ms % 1000) * 1000000L};
    nanosleep(&ts, NULL);
}

static uint64_t now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

/* Reads one request (headers, then Content-Length bytes); 0 at its end, -1 if the peer went. */
static int read_request(int c)
{
    char buf[65536];
    size_t n = 0;
    char *end = NULL;
    while (!end) {
        ssize_t k = read(c, buf + n, sizeof buf - 1 - n);
        if (k <= 0)
            return -1;
        n += (size_t)k;
        buf[n] = '\0';
        end = strstr(buf, "\r\n\r\n");
    }
    const char *cl = strstr(buf, "Content-Length: ");
    size_t want = cl ? (size_t)strtoul(cl + 16, NULL, 10) : 0, have = n - (size_t)(end + 4 - buf);
    while (have < want) {
        ssize_t k = read(c, buf, sizeof buf);
        if (k <= 0)
            return -1;
        have += (size_t)k;
    }
    return 0;
}

static void *serve(void *arg)
{
    receiver *r = arg;
    while (!atomic_load(&r->stop)) {
        int c = accept(r->fd, NULL, NULL);
        if (c < 0)
            continue;
        while (!atomic_load(&r->stop) && read_request(c) == 0) {
            int i = atomic_fetch_add(&r->requests, 1);
            int status = r->answers[(size_t)i < r->nanswers ? (size_t)i : r->nanswers - 1];
            if (r->delay_ms)
                sleep_ms(r->delay_ms);
            char out[200];
            int len = snprintf(out, sizeof out, "HTTP/1.1 %d X\r\nContent-Length: 4\r\n\r\nnope", status);
            if (write(c, out, (size_t)len) != len)
                break;
        }
        close(c);
    }
    return NULL;
}

static void receiver_start(receiver *r)
{
    r->fd = socket(AF_INET, SOCK_STREAM, 0);
    assert_true(r->fd >= 0);
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    assert_int_equal(bind(r->fd, (struct sockaddr *)&a, sizeof a), 0);
    socklen_t len = sizeof a;
    getsockname(r->fd, (struct sockaddr *)&a, &len);
    r->port = ntohs(a.sin_port);
    assert_int_equal(listen(r->fd, 8), 0);
    assert_int_equal(pthread_create(&r->th, NULL, serve, r), 0);
}

static void receiver_stop(receiver *r)
{
    atomic_store(&r->stop, 1);
    shutdown(r->fd, SHUT_RDWR);
    close(r->fd);
    pthread_join(r->th, NULL);
}

/* ---- a schema of two counters and rows of it ---- */

static const socmon_counter counters[2] = {
    {.name = "hits", .instance = "tile0", .desc = "hits", .unit = "events", .width = 32},
    {.name = "bytes", .instance = "tile0", .desc = "bytes", .unit = "B", .width = 32},
};
static const char *const names[2] = {"tile0.hits", "tile0.bytes"};
static const socmon_source_info info = {.kind = "target", .target = "fake", .interval_ns = 1000000,
                                        .ncounters = 2, .counters = counters, .names = names};

static FILE *devnull;   /* the writers' log: what they say is not what these tests check */

static smn_rw *writer(const receiver *r, size_t queue, uint64_t drain_ns, socmon_consumer *c)
{
    char url[64];
    snprintf(url, sizeof url, "http://127.0.0.1:%u/api/v1/write", r->port);
    smn_rw_opts o = {.url = url, .push_ns = 1000000, .queue = queue, .backoff_min_ns = 1000000,
                     .backoff_max_ns = 4000000, .drain_ns = drain_ns, .log = devnull, .instance = "test"};
    smn_rw *rw = NULL;
    assert_int_equal(smn_rw_new(&o, &rw), SOCMON_OK);
    *c = smn_rw_consumer(rw);
    socmon_analysis_info a = {.src = &info};
    socmon_row_policy want = {0};
    assert_int_equal(c->ops->begin(c->self, &a, &want), SOCMON_OK);
    assert_int_equal(want.merge, 1);   /* push_ns == interval: one point per interval */
    return rw;
}

static void rows(socmon_consumer *c, size_t n, unsigned pause_ms)
{
    static const uint64_t d[2] = {3, 64};
    for (size_t i = 0; i < n; i++) {
        socmon_row r = {.seq = i + 1, .first_seq = i + 1, .t_ns = (i + 1) * 1000000, .since_ns = (i + 1) * 1000000,
                        .dt_ns = 1000000, .intervals = 1, .raw = d, .deltas = d, .samples = i + 2};
        assert_int_equal(c->ops->row(c->self, &r), SOCMON_OK);
        if (pause_ms)
            sleep_ms(pause_ms);
    }
}

static void test_all_sent(void **state)
{
    (void)state;
    receiver r = {.answers = {204}, .nanswers = 1};
    receiver_start(&r);
    socmon_consumer c;
    smn_rw *rw = writer(&r, 100, 5000000000u, &c);
    rows(&c, 50, 1);
    smn_rw_finish(rw);
    smn_rw_stats s;
    smn_rw_get_stats(rw, &s);
    assert_int_equal(s.points, 50);
    assert_int_equal(s.sent, 50);
    assert_int_equal(s.dropped, 0);
    assert_int_equal(s.retries, 0);
    assert_int_equal((int)s.requests, atomic_load(&r.requests));
    smn_rw_free(rw);
    receiver_stop(&r);
}

static void test_bounded_drops_oldest(void **state)
{
    (void)state;
    receiver r = {.answers = {503}, .nanswers = 1};
    receiver_start(&r);
    socmon_consumer c;
    /* 1 s to drain (every answer a 503: the sender retries until then): time enough for a first
     * request, its 503 and a retry however late the sender thread gets a CPU. With 100 ms it
     * failed once under load 7-9, when the retry did not come in time. */
    smn_rw *rw = writer(&r, 5, 1000000000u, &c);
    rows(&c, 200, 0);
    smn_rw_finish(rw);
    smn_rw_stats s;
    smn_rw_get_stats(rw, &s);
    assert_int_equal(s.points, 200);
    assert_int_equal(s.sent, 0);
    assert_int_equal(s.dropped, 200);   /* each one counted, once */
    assert_int_equal(s.dropped, s.dropped_full + s.refused + s.left);
    assert_true(s.dropped_full >= 200 - 5 - 32);   /* at most the queue and one batch were held */
    assert_true(s.retries >= 1);
    char line[512];
    smn_rw_summary(rw, line, sizeof line);
    assert_non_null(strstr(line, "0 points sent"));
    assert_non_null(strstr(line, "200 dropped"));
    smn_rw_free(rw);
    receiver_stop(&r);
}

static void test_5xx_retried_4xx_not(void **state)
{
    (void)state;
    receiver r = {.answers = {503, 429, 204}, .nanswers = 3};
    receiver_start(&r);
    socmon_consumer c;
    smn_rw *rw = writer(&r, 100, 5000000000u, &c);
    rows(&c, 1, 0);
    smn_rw_finish(rw);
    smn_rw_stats s;
    smn_rw_get_stats(rw, &s);
    assert_int_equal(s.sent, 1);
    assert_int_equal(s.requests, 3);
    assert_int_equal(s.retries, 2);
    assert_int_equal(s.dropped, 0);
    smn_rw_free(rw);
    receiver_stop(&r);

    receiver r4 = {.answers = {400}, .nanswers = 1};
    receiver_start(&r4);
    rw = writer(&r4, 100, 5000000000u, &c);
    rows(&c, 10, 2);
    smn_rw_finish(rw);
    smn_rw_get_stats(rw, &s);
    assert_int_equal(s.sent, 0);
    assert_int_equal(s.retries, 0);   /* a refused body is never sent again */
    assert_int_equal(s.refused, 10);
    assert_int_equal(s.dropped, 10);
    assert_int_equal((int)s.requests, atomic_load(&r4.requests));
    smn_rw_free(rw);
    receiver_stop(&r4);
}

static void test_stalled_receiver_costs_producer_nothing(void **state)
{
    (void)state;
    receiver r = {.answers = {204}, .nanswers = 1, .delay_ms = 1500};
    receiver_start(&r);
    socmon_consumer c;
    smn_rw *rw = writer(&r, 600, 200000000u, &c);
    rows(&c, 1, 0);
    sleep_ms(50);   /* the sender is now inside a request that takes 1.5 s */
    uint64_t t0 = now_ms();
    rows(&c, 5000, 0);
    uint64_t took = now_ms() - t0;
    smn_rw_finish(rw);
    smn_rw_stats s;
    smn_rw_get_stats(rw, &s);
    assert_int_equal(s.points, 5001);
    assert_int_equal(s.dropped, s.points - s.sent);
    /* 5000 rows while the receiver stalls: copies under a lock, never a wait on the receiver */
    if (took > 1000)
        fail_msg("5000 rows took %llu ms with a stalled receiver", (unsigned long long)took);
    smn_rw_free(rw);
    receiver_stop(&r);
}

static void test_bad_url(void **state)
{
    (void)state;
    static const char *bad[] = {"ftp://x/", "http://", "://nothing", "", "http//host"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        smn_rw_opts o = {.url = bad[i]};
        smn_rw *rw = (smn_rw *)1;
        assert_int_equal(smn_rw_new(&o, &rw), SOCMON_EINVAL);
        assert_null(rw);
        assert_non_null(strstr(socmon_errmsg(), "remote write URL '"));
    }
    smn_rw_opts o = {.url = "http://h/", .token = "a\nb"};
    smn_rw *rw = NULL;
    assert_int_equal(smn_rw_new(&o, &rw), SOCMON_EINVAL);
    assert_non_null(strstr(socmon_errmsg(), "line break"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_all_sent),
        cmocka_unit_test(test_bounded_drops_oldest),
        cmocka_unit_test(test_5xx_retried_4xx_not),
        cmocka_unit_test(test_stalled_receiver_costs_producer_nothing),
        cmocka_unit_test(test_bad_url),
    };
    devnull = fopen("/dev/null", "w");
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    fclose(devnull);
    return rc;
}
