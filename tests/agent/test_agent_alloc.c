/* The agent allocates nothing on its sampling path: every malloc, calloc and
 * realloc of this process goes through the counting shim below, and those
 * made on the sampling thread between its first sample and the run's end
 * must be none, over a whole run of the virtual ESP SoC served to a
 * collector. The path counted is everything a board's agent does: the
 * sampler, the driver's register reads through the bus into the model's
 * registers, the session's pipeline, the ring, a consumer of the test's own and the
 * server's wake-up. Only the model's
 * simulation of the workload (what the hardware does by itself, with its
 * own transaction pools) is left out, by a target that wraps the ESP
 * target's advance. A second test shows the shim sees an allocation there when one
 * is made (so the first cannot pass by counting nothing). Under ASan or TSan, whose
 * allocators cannot be wrapped this way, nothing is counted: the first test still runs the
 * agent's threads and its collector and checks what they passed on (TSan's build runs it for
 * that, `make test-tsan`); the second is skipped. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <poll.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "agent/agent.h"
#include "agent/collector.h"
#include "socmon/socmon.h"
#include "support/libc_alloc.h"

#ifndef NO_SHIM
static _Thread_local int in_sampling;   /* set by the hooks on the sampling thread */
static atomic_ulong sampling_allocs;

void *malloc(size_t n)
{
    if (in_sampling)
        atomic_fetch_add(&sampling_allocs, 1);
    return __libc_malloc(n);
}

void *calloc(size_t n, size_t m)
{
    if (in_sampling)
        atomic_fetch_add(&sampling_allocs, 1);
    return __libc_calloc(n, m);
}

static _Thread_local int is_main;   /* the test's own thread */
static atomic_int fail_poll_set;     /* the third test: the server thread's first poll set fails */

void *realloc(void *p, size_t n)
{
    if (in_sampling)
        atomic_fetch_add(&sampling_allocs, 1);
    /* the server's poll set, first made for no client (two fds: the listener and its wake pipe) */
    if (!is_main && !p && n == 2 * sizeof(struct pollfd) && atomic_exchange(&fail_poll_set, 0))
        return NULL;
    return __libc_realloc(p, n);
}

void free(void *p)
{
    __libc_free(p);
}
#endif

typedef struct hooks_state {
    atomic_ulong samples;
    int alloc_in_hook;   /* the second test: allocate once on the sampling path */
} hooks_state;

/* The test's own consumer of the run, beside the agent's ring: it sees every sample on the
 * sampling thread, where the counting starts, and the run's end, where it stops. */
static socmon_status hook_sample(void *user, uint64_t seq, const socmon_sample *s)
{
    hooks_state *h = user;
    (void)s;
    (void)seq;
#ifndef NO_SHIM
    in_sampling = 1;
#endif
    if (h->alloc_in_hook && atomic_load(&h->samples) == 10) {
        void *volatile p = malloc(16);
        free(p);
    }
    atomic_fetch_add(&h->samples, 1);
    return SOCMON_OK;
}

static socmon_status hook_end(void *user, const socmon_totals *t, const char *reason)
{
    (void)user, (void)t, (void)reason;
#ifndef NO_SHIM
    in_sampling = 0;
#endif
    return SOCMON_OK;
}

static socmon_status hook_begin(void *user, const socmon_analysis_info *ai, socmon_row_policy *want)
{
    (void)user, (void)ai;
    *want = (socmon_row_policy){.rows = 0};
    return SOCMON_OK;
}

static const socmon_consumer_ops hook_ops = {.size = sizeof hook_ops, .begin = hook_begin, .sample = hook_sample,
                                             .end = hook_end};

static socmon_status count(void *user, uint64_t seq, const socmon_sample *s)
{
    (void)s, (void)seq;
    (*(uint64_t *)user)++;
    return SOCMON_OK;
}

static const socmon_target_ops *esp_ops;

/* The hardware's own work: the model simulating the workload between two samples. */
static socmon_status advance_unwatched(void *priv, uint64_t ns, int *done)
{
#ifndef NO_SHIM
    int was = in_sampling;
    in_sampling = 0;
#endif
    socmon_status st = esp_ops->advance(priv, ns, done);
#ifndef NO_SHIM
    in_sampling = was;
#endif
    return st;
}

/* One run of 20 ms at 50 us (401 samples) on the ESP model, unpaced, all of it collected. */
static unsigned long run(int alloc_in_hook, uint64_t *collected, unsigned long *hooked)
{
    esp_ops = socmon_target_lookup("esp");
    assert_non_null(esp_ops);
    socmon_target_ops ops = *esp_ops;
    ops.advance = advance_unwatched;
    /* the agent's run as a board's: a plan over the target, started by the agent */
    smn_run_plan plan = {.target = {.ops = &ops}, .workload = "multifft",
                         .sampling = {.interval_ns = 50000, .rule = SMN_STEP_ROWS, .duration_ns = 20000000,
                                      .started = 1},
                         .totals = SMN_TOTALS_NEVER};
    smn_session *sess;
    assert_int_equal(smn_session_open(&plan, &sess), SOCMON_OK);
    hooks_state hs = {0};
    hs.alloc_in_hook = alloc_in_hook;
    assert_int_equal(smn_session_add(sess, &(socmon_consumer){.ops = &hook_ops, .self = &hs}), SOCMON_OK);
    agent_opts o = {.listen = "127.0.0.1:0", .workload = "multifft", .interval_ns = 50000,
                    .duration_ns = 20000000, .pace = 0, .wait_collector = 1, .log = stderr};
    agent *a;
    assert_int_equal(agent_new(sess, &o, &a), SOCMON_OK);
#ifndef NO_SHIM
    atomic_store(&sampling_allocs, 0);
#endif
    assert_int_equal(agent_start(a), SOCMON_OK);
    collector *c;
    char addr[64];
    snprintf(addr, sizeof addr, "127.0.0.1:%u", agent_port(a));
    assert_int_equal(collector_connect(addr, NULL, 5000, &c), SOCMON_OK);
    assert_int_equal(collector_subscribe(c, WIRE_SUB_OLDEST, 0), SOCMON_OK);
    *collected = 0;
    collector_cb cb = {.user = collected, .sample = count};
    assert_int_equal(collector_run(c, &cb), SOCMON_OK);
    collector_close(c);
    agent_stop(a);
    agent_free(a);
    smn_session_close(sess);
    *hooked = atomic_load(&hs.samples);
#ifndef NO_SHIM
    return atomic_load(&sampling_allocs);
#else
    return 0;
#endif
}

static void test_sampling_path_allocates_nothing(void **state)
{
    (void)state;
    uint64_t collected;
    unsigned long hooked;
    unsigned long allocs = run(0, &collected, &hooked);
    assert_int_equal(collected, 401);
    assert_int_equal(hooked, 401);
    if (allocs)
        fail_msg("%lu allocations on the sampling thread during the run", allocs);
}

static void test_shim_sees_an_allocation(void **state)
{
    (void)state;
#ifdef NO_SHIM
    skip();
#endif
    uint64_t collected;
    unsigned long hooked;
    assert_int_equal(run(1, &collected, &hooked), 1);
    assert_int_equal(collected, 401);
}

/* The server thread out of memory: it cannot serve, so the agent stops itself and its wait
 * returns 1 with the reason (it went on waiting for SIGTERM, with --exit-when-drained for ever,
 * while nothing served the collectors). */
#ifndef NO_SHIM
static char said[512];
static void say_line(void *user, const char *line)
{
    (void)user;
    snprintf(said, sizeof said, "%s", line);
}

static int give_up(void *user)
{
    return ++*(int *)user > 500;   /* 10 s of agent_wait's 20 ms steps */
}
#endif

static void test_server_failure_ends_the_wait(void **state)
{
    (void)state;
#ifdef NO_SHIM
    skip();
#else
    smn_run_plan plan = {.target = {.ops = socmon_target_lookup("esp")}, .workload = "multifft",
                         .sampling = {.interval_ns = 50000, .rule = SMN_STEP_ROWS, .duration_ns = 20000000,
                                      .started = 1},
                         .totals = SMN_TOTALS_NEVER};
    smn_session *sess;
    assert_int_equal(smn_session_open(&plan, &sess), SOCMON_OK);
    agent_opts o = {.listen = "127.0.0.1:0", .workload = "multifft", .interval_ns = 50000,
                    .duration_ns = 20000000, .pace = 0, .wait_collector = 1, .log = stderr};
    agent *a;
    assert_int_equal(agent_new(sess, &o, &a), SOCMON_OK);
    atomic_store(&fail_poll_set, 1);
    assert_int_equal(agent_start(a), SOCMON_OK);
    int steps = 0;
    assert_int_equal(agent_wait(a, 1, give_up, &steps, say_line), 1);
    assert_int_equal(atomic_load(&fail_poll_set), 0);   /* the failure was the one injected */
    assert_non_null(strstr(said, "server: out of memory"));
    char msg[512];
    assert_true(agent_failed(a, msg, sizeof msg));
    agent_stop(a);
    agent_free(a);
    smn_session_close(sess);
#endif
}

int main(void)
{
#ifndef NO_SHIM
    is_main = 1;
#endif
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sampling_path_allocates_nothing),
        cmocka_unit_test(test_shim_sees_an_allocation),
        cmocka_unit_test(test_server_failure_ends_the_wait),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
