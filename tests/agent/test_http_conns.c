/* The HTTP server's hold on its connections (src/serve/http_conns.c, issue 23), with deadlines
 * short enough for a unit test: a client that drips a byte every 100 ms without ever finishing its
 * request header is cut at the header deadline (libmicrohttpd's inactivity timeout never fired
 * for it); a page's event stream lives on far past that deadline; a connection beyond the
 * per-address limit of busy ones gets a 503 at once; and the log's budget (http_log.c) turns a
 * flood of one line into a few and a count. Loopback only, every wait bounded. */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>

#include "serve/http.h"
#include "serve/http_internal.h"
#include "serve/live.h"

#define HEADER_MS 300

static const socmon_counter counters[] = {{.name = "a", .instance = "", .unit = "events", .width = 32}};
static const char *const names[] = {"a"};

typedef struct fix {
    smn_live *lv;
    smn_http *h;
    FILE *log;
    uint16_t port;
} fix;

static uint64_t ms_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

static int setup(void **state)
{
    fix *f = calloc(1, sizeof *f);
    assert_non_null(f);
    smn_live_schema s = {.target = "fake", .interval_ns = 1000000, .ncounters = 1, .counters = counters,
                            .names = names};
    assert_int_equal(socmon_live_new(&s, NULL, &f->lv), SOCMON_OK);
    f->log = tmpfile();
    assert_non_null(f->log);
    smn_http_opts o = {.listen = "127.0.0.1:0", .max_conns = 4, .max_per_addr = 3, .header_timeout_ms = HEADER_MS,
                          .log = f->log, .who = "test"};
    assert_int_equal(socmon_http_start(f->lv, &o, &f->h), SOCMON_OK);
    f->port = socmon_http_port(f->h);
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    fix *f = *state;
    socmon_http_stop(f->h);
    socmon_live_free(f->lv);
    fclose(f->log);
    free(f);
    return 0;
}

static int dial(uint16_t port, const char *text)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    assert_true(fd >= 0);
    struct sockaddr_in sa = {.sin_family = AF_INET, .sin_port = htons(port)};
    sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    assert_int_equal(connect(fd, (struct sockaddr *)&sa, sizeof sa), 0);
    if (text)
        assert_int_equal(send(fd, text, strlen(text), MSG_NOSIGNAL), (ssize_t)strlen(text));
    return fd;
}

/* Reads what arrives within ms: bytes read (appended to buf, up to len), or -1 once the server
 * closed the connection. */
static long read_for(int fd, int ms, char *buf, size_t len)
{
    long got = 0;
    uint64_t end = ms_now() + (uint64_t)ms;
    for (uint64_t now = ms_now(); now < end; now = ms_now()) {
        struct pollfd p = {.fd = fd, .events = POLLIN};
        if (poll(&p, 1, (int)(end - now)) <= 0)
            break;
        char tmp[4096];
        ssize_t n = recv(fd, tmp, sizeof tmp, 0);
        if (n <= 0)
            return -1;
        if (buf && (size_t)got + 1 < len) {
            size_t k = (size_t)n < len - 1 - (size_t)got ? (size_t)n : len - 1 - (size_t)got;
            memcpy(buf + got, tmp, k);
            buf[got + (long)k] = '\0';
        }
        got += n;
    }
    return got;
}

/* Reads until needle arrived (1) or ms passed or the server closed (0); the text into buf. */
static int read_until(int fd, const char *needle, int ms, char *buf, size_t len)
{
    size_t got = 0;
    buf[0] = '\0';
    uint64_t end = ms_now() + (uint64_t)ms;
    while (!strstr(buf, needle) && ms_now() < end && got + 1 < len) {
        struct pollfd p = {.fd = fd, .events = POLLIN};
        if (poll(&p, 1, (int)(end - ms_now() + 1)) <= 0)
            continue;
        ssize_t n = recv(fd, buf + got, len - 1 - got, 0);
        if (n <= 0)
            break;
        got += (size_t)n;
        buf[got] = '\0';
    }
    return strstr(buf, needle) != NULL;
}

/* Half a request line, then a byte every 100 ms: the connection is cut at the header deadline. */
static void test_header_deadline(void **state)
{
    fix *f = *state;
    uint64_t t0 = ms_now();
    int fd = dial(f->port, "GET /metrics HTTP/1.1\r\n");
    int closed = 0;
    while (!closed && ms_now() - t0 < 3000) {
        closed = read_for(fd, 100, NULL, 0) < 0 || send(fd, "X", 1, MSG_NOSIGNAL) != 1;
    }
    uint64_t took = ms_now() - t0;
    close(fd);
    if (!closed)
        fail_msg("a client dripping a byte every 100 ms was still connected after %llu ms (header deadline %d ms)",
                 (unsigned long long)took, HEADER_MS);
    assert_true(took >= HEADER_MS - 50);
    assert_true(took < HEADER_MS + 1500);
}

/* A page's stream: busy from its header on, so the header deadline never applies to it. */
static void test_stream_outlives_deadline(void **state)
{
    fix *f = *state;
    int fd = dial(f->port, "GET /api/stream HTTP/1.0\r\n\r\n");
    char head[512];
    assert_true(read_until(fd, "200 OK", 3000, head, sizeof head));
    /* five header deadlines later the stream is still open and still sending (": idle" every s) */
    long more = read_for(fd, 5 * HEADER_MS + 1100, NULL, 0);
    close(fd);
    if (more <= 0)
        fail_msg("the stream %s after %d ms", more < 0 ? "was closed" : "sent nothing", 5 * HEADER_MS + 1100);
}

/* Every connection one address may hold busy: the next one is told 503 at once. */
static void test_busy_limit_503(void **state)
{
    fix *f = *state;
    int fds[3];
    for (int i = 0; i < 3; i++) {
        fds[i] = dial(f->port, "GET /api/stream HTTP/1.0\r\n\r\n");
        char head[256];
        assert_true(read_until(fds[i], "200 OK", 3000, head, sizeof head));
    }
    int fd = dial(f->port, "GET /metrics HTTP/1.0\r\n\r\n");
    shutdown(fd, SHUT_WR);   /* the server's close then follows its answer at once */
    char ans[1024];
    read_until(fd, "\r\n\r\n", 3000, ans, sizeof ans);
    close(fd);
    for (int i = 0; i < 3; i++)
        close(fds[i]);
    if (strncmp(ans, "HTTP/1.1 503", 12) != 0)
        fail_msg("a 4th connection while 3 (the per-address limit) stream got: '%.80s'", ans);
    assert_non_null(strstr(ans, "Retry-After:"));
}

static long count_lines(FILE *fp, const char *needle)
{
    fflush(fp);
    rewind(fp);
    char line[600];
    long n = 0;
    while (fgets(line, sizeof line, fp))
        n += strstr(line, needle) != NULL;
    return n;
}

/* A thousand lines of one kind: a few written, the rest counted and said at the end. */
static void test_log_budget(void **state)
{
    (void)state;
    FILE *fp = tmpfile();
    assert_non_null(fp);
    http_log l;
    http_log_init(&l, fp, "t");
    for (int i = 0; i < 1000; i++)
        http_logf(&l, "accept", "cannot accept: Too many open files (%d)", i);
    http_logf(&l, "other", "a line with a newline\n\x1b[2J and an escape");
    http_log_destroy(&l);
    long written = count_lines(fp, "cannot accept");
    assert_true(written >= 1 && written <= 6);
    assert_int_equal(count_lines(fp, "995 more like \"cannot accept"), 1);
    assert_int_equal(count_lines(fp, "a line with a newline"), 1);
    assert_int_equal(count_lines(fp, "\x1b"), 0);
    fclose(fp);
}

/* More kinds of line than the log tracks, in turn (each evicts another before its budget is
 * spent): all kinds together still write at most 40 lines (and the counts of what was left out),
 * not 2,000. A CR or LF inside a line is escaped, so the peer named at its end stays in it. */
static void test_log_budget_many_kinds(void **state)
{
    (void)state;
    FILE *fp = tmpfile();
    assert_non_null(fp);
    http_log l;
    http_log_init(&l, fp, "t");
    for (int i = 0; i < 2000; i++) {
        char key[16];
        snprintf(key, sizeof key, "kind%d", i % 20);
        http_logf(&l, key, "refused %s: line %d", key, i);
    }
    http_logf(&l, "cr", "bad request '\r%s' from 127.0.0.9", "x");
    long total = count_lines(fp, "");
    assert_true(total >= 40 && total <= 42);
    assert_int_equal(count_lines(fp, "refused kind"), 40);
    http_log_destroy(&l);
    fclose(fp);
    /* and a new log: the CR is escaped, the peer's address kept */
    fp = tmpfile();
    assert_non_null(fp);
    http_log_init(&l, fp, "t");
    http_logf(&l, "cr", "bad request '\r\nX' from 127.0.0.9\n");
    http_log_destroy(&l);
    assert_int_equal(count_lines(fp, "\\x0d\\x0aX' from 127.0.0.9"), 1);
    assert_int_equal(count_lines(fp, ""), 1);
    fclose(fp);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_header_deadline, setup, teardown),
        cmocka_unit_test_setup_teardown(test_stream_outlives_deadline, setup, teardown),
        cmocka_unit_test_setup_teardown(test_busy_limit_503, setup, teardown),
        cmocka_unit_test(test_log_budget),
        cmocka_unit_test(test_log_budget_many_kinds),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
