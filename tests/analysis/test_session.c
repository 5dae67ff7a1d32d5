/* A run plan's session (analysis/session.h, issue 40 item 2): a plan that gives two sources, or
 * gives a recording what only a target has, is refused naming what; a target's repeats
 * are runs from a fresh start whose means equal one run of a deterministic model; a program's
 * end is the status socmon stat documents (halt 0, still running at -d's end "timeout" 0), and
 * the host's command's too (its status, 128+N for signal N, 127 not found, 126 not
 * executable); a hardware run with no end is the request's fault (exit 2) unless the plan runs
 * until stopped, and only when it runs (a plan may read the counters once); a workload that
 * does not parse is the request's fault; a recording is read as recorded; an interval below
 * the target's minimum is refused; a target's counters chosen anew between two runs (the
 * agent's CONFIG) reach the same consumers from the still running target, a bad choice
 * leaving all as it was; what a run leaves beside its samples is attached to a recording (a
 * workload's phases, a program's profile, the parameters that moved; none for a recording). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "analysis/session.h"
#include "socmon/recording.h"
#include "socmon/status.h"
#include "socmon/target.h"

static char elf[1024], rec[1024];

static int setup(void **state)
{
    (void)state;
    const char *src = getenv("SOCMON_SRC");
    snprintf(elf, sizeof elf, "%s/bench/ibex/coremark_i10.elf", src ? src : ".");
    snprintf(rec, sizeof rec, "%s/fuzz/corpus/fuzz_recording_v2/blocks.rec", src ? src : ".");
    return 0;
}

/* A plan's one target spec. */
#define ONE_SPEC(text) .specs = (const char *const[]){text}, .nspecs = 1
#define ONE(text) {ONE_SPEC(text)}

static void refused_as(const smn_run_plan *p, socmon_status want, const char *words)
{
    smn_session *s = (smn_session *)1;
    assert_int_equal(smn_session_open(p, &s), want);
    assert_null(s);
    if (!strstr(socmon_errmsg(), words))
        fail_msg("'%s' does not say '%s'", socmon_errmsg(), words);
}

static void refused(const smn_run_plan *p, const char *words)
{
    refused_as(p, SOCMON_EINVAL, words);
}

static void bad_plans(void **state)
{
    (void)state;
    refused(NULL, "NULL");
    refused(&(smn_run_plan){.recording = rec, .opened = (socmon_recording *)1}, "give one source");
    refused(&(smn_run_plan){.target = ONE("esp"), .recording = rec}, "no target");
    refused(&(smn_run_plan){.recording = rec, .repeat = 2}, "repeats");
    refused(&(smn_run_plan){.recording = rec, .target = {.program = elf}}, "program");
    refused_as(&(smn_run_plan){.target = ONE("esp"), .sampling = {.interval_ns = 1}}, SOCMON_ERANGE, "interval 1 ns is below");
}

/* A finished session's totals: runs and the first counter's value (a copy: the session goes). */
static unsigned run_esp(unsigned repeat, uint64_t *v0, uint64_t *elapsed)
{
    smn_session *s = NULL;
    smn_run_plan p = {.target = ONE("esp"), .repeat = repeat};
    assert_int_equal(smn_session_open(&p, &s), SOCMON_OK);
    assert_string_equal(smn_session_workload(s), "multifft");   /* no workload given: the target's first */
    assert_int_equal(smn_session_run(s), SOCMON_OK);
    const socmon_totals *t = smn_session_totals(s);
    unsigned runs = t->runs;
    *v0 = t->values[0];
    *elapsed = t->elapsed_ns;
    smn_session_end e;
    smn_session_exit(s, &e);
    assert_int_equal(e.program, 0);   /* no program: nothing to say */
    smn_session_close(s);
    return runs;
}

static void repeats_are_fresh_runs(void **state)
{
    (void)state;
    uint64_t v1, v3, e1, e3;
    assert_int_equal(run_esp(1, &v1, &e1), 1);
    assert_int_equal(run_esp(3, &v3, &e3), 3);
    assert_true(v1 > 0);
    /* each repeat starts from reset: a model's mean over three equals one run (a target not
     * reopened would count on from where the first run ended, or count nothing) */
    assert_int_equal(v3, v1);
    assert_int_equal(e3, e1);
}

static void count_byte(void *ctx, uint8_t b)
{
    (void)b;
    (*(size_t *)ctx)++;
}

/* A finished session's program or command ended as `end` with exit status code; closes s. */
static void ended_as(smn_session *s, const char *end, int code)
{
    smn_session_end e;
    smn_session_exit(s, &e);
    assert_int_equal(e.program, 1);
    assert_string_equal(e.end, end);
    assert_int_equal(e.exit_code, code);
    smn_session_close(s);
}

static void program_end(const smn_run_plan *p, const char *end, int code, size_t *bytes)
{
    smn_session *s = NULL;
    assert_int_equal(smn_session_open(p, &s), SOCMON_OK);
    assert_int_equal(smn_session_program_output(s, count_byte, bytes), 1);
    assert_int_equal(smn_session_run(s), SOCMON_OK);
    ended_as(s, end, code);
}

static void program_ends(void **state)
{
    (void)state;
    size_t whole = 0, part = 0;
    program_end(&(smn_run_plan){.target = {ONE_SPEC("ibex"), .program = elf}}, "halt", 0, &whole);
    assert_true(whole > 100);   /* CoreMark's report */
    /* 1 ms of an 82 ms run: still running when the duration ends */
    program_end(&(smn_run_plan){.target = {ONE_SPEC("ibex"), .program = elf}, .sampling = {.duration_ns = 1000000}}, "timeout", 0, &part);
    assert_true(part < whole);
}

/* The host's counters cannot be opened here (qemu-user has no perf_event_open): its tests skip. */
static int no_host(void)
{
    smn_session *s = NULL;
    socmon_status st = smn_session_open(&(smn_run_plan){.target = ONE("host")}, &s);
    smn_session_close(s);
    if (st == SOCMON_ENOTSUP)
        print_message("the host's counters are not supported here (%s): skipped\n", socmon_errmsg());
    return st == SOCMON_ENOTSUP;
}

static int stop_now(void *user)
{
    (void)user;
    return 1;
}

/* The host's command, run under a plan, ends as a shell would say. */
static void command_end(const char *script, const char *end, int code)
{
    char *const argv[] = {"/bin/sh", "-c", (char *)script, NULL};
    smn_session *s = NULL;
    smn_run_plan p = {.target = {ONE_SPEC("host"), .command = argv}};
    assert_int_equal(smn_session_open(&p, &s), SOCMON_OK);
    assert_int_equal(smn_session_run(s), SOCMON_OK);
    ended_as(s, end, code);
}

static void command_not_run(char *path, int code)
{
    char *const argv[] = {path, NULL};
    smn_session *s = NULL;
    int usage = 0;
    smn_run_plan p = {.target = {ONE_SPEC("host"), .command = argv}, .usage_error = &usage};
    socmon_status st = smn_session_open(&p, &s);
    if (st == SOCMON_OK)
        st = smn_session_run(s);
    assert_int_not_equal(st, SOCMON_OK);
    /* the exit status is the command's (as a shell), whichever step found it could not be run */
    assert_int_equal(s ? smn_session_failed_exit(s, 1) : code, code);
    if (s) {
        smn_session_end e;
        smn_session_exit(s, &e);
        assert_string_equal(e.end, code == 127 ? "not_found" : "not_executable");
    }
    assert_int_equal(usage, 0);
    smn_session_close(s);
}

static void command_ends(void **state)
{
    (void)state;
    if (no_host())
        skip();
    command_end("exit 0", "exit", 0);
    command_end("exit 3", "exit", 3);
    command_end("kill -TERM $$", "signal", 128 + 15);
    command_not_run("/nonexistent/socmon-test-command", 127);
    command_not_run("/dev/null", 126);
}

static void hardware_needs_an_end(void **state)
{
    (void)state;
    if (no_host())
        skip();
    smn_session *s = NULL;
    int usage = 0;
    /* the host with no command and no duration: refused when it would run, not before */
    smn_run_plan p = {.target = ONE("host"), .usage_error = &usage};
    assert_int_equal(smn_session_open(&p, &s), SOCMON_OK);
    assert_int_equal(usage, 0);
    assert_int_equal(smn_session_run(s), SOCMON_EINVAL);
    assert_int_equal(usage, 1);
    assert_non_null(strstr(socmon_errmsg(), "give a duration"));
    smn_session_close(s);
    /* a plan its caller starts (record) is refused at open, before anything is said of its run */
    usage = 0;
    s = (smn_session *)1;
    p.sampling.started = 1;
    assert_int_equal(smn_session_open(&p, &s), SOCMON_EINVAL);
    assert_null(s);
    assert_int_equal(usage, 1);
    assert_non_null(strstr(socmon_errmsg(), "give a duration"));
    p.sampling.started = 0;
    /* until stopped, it runs: stopped at once by should_stop, it is one run */
    usage = 0;
    p.sampling.until_stopped = 1;
    p.should_stop = stop_now;
    assert_int_equal(smn_session_open(&p, &s), SOCMON_OK);
    assert_int_equal(smn_session_run(s), SOCMON_OK);
    assert_int_equal(usage, 0);
    smn_session_close(s);
}

static void workload_that_does_not_parse(void **state)
{
    (void)state;
    smn_session *s = NULL;
    /* a workload file that does not parse (a trace that does not begin with its mesh) */
    int usage = 0;
    char path[] = "/tmp/test_session_XXXXXX", workload[64];
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, "garbage line\n", 13), 13);
    close(fd);
    snprintf(workload, sizeof workload, "noc-trace:%s", path);
    smn_run_plan w = {.target = ONE("esp"), .workload = workload, .usage_error = &usage};
    s = (smn_session *)1;
    socmon_status st = smn_session_open(&w, &s);
    if (st == SOCMON_OK) {
        st = smn_session_run(s);
        smn_session_close(s);
    }
    unlink(path);
    assert_int_equal(st, SOCMON_EPARSE);
    assert_int_equal(usage, 1);
    assert_non_null(strstr(socmon_errmsg(), "mesh"));
}

/* Samples seen and their width, and the run stopped after `stop_after` of them. */
typedef struct widths {
    size_t samples, width, begins;
    size_t stop_after;
    const socmon_source_info *first; /* what the first begin gave (a consumer may keep it to the close) */
} widths;

static socmon_status w_begin(void *self, const socmon_analysis_info *a, socmon_row_policy *want)
{
    widths *w = self;
    if (!w->begins++)
        w->first = a->src;
    *want = (socmon_row_policy){.rows = 0};
    return SOCMON_OK;
}

static socmon_status w_sample(void *self, uint64_t seq, const socmon_sample *smp)
{
    (void)seq;
    widths *w = self;
    w->samples++;
    w->width = smp->n;
    return SOCMON_OK;
}

static int w_stop(void *user)
{
    widths *w = user;
    return w->stop_after && w->samples >= w->stop_after;
}

static void reselected(void **state)
{
    (void)state;
    static const socmon_consumer_ops ops = {.size = sizeof ops, .begin = w_begin, .sample = w_sample};
    widths w = {.stop_after = 5};
    smn_session *s = NULL;
    smn_run_plan p = {.target = ONE("esp"), .sampling = {.interval_ns = 100000, .rule = SMN_STEP_ROWS, .started = 1},
                      .totals = SMN_TOTALS_NEVER};
    assert_int_equal(smn_session_open(&p, &s), SOCMON_OK);
    assert_int_equal(smn_session_add(s, &(socmon_consumer){.ops = &ops, .self = &w}), SOCMON_OK);
    smn_session_set_should_stop(s, w_stop, &w);
    assert_int_equal(smn_session_start(s), SOCMON_OK);
    assert_int_equal(smn_session_run(s), SOCMON_OK);   /* stopped after 5 samples */
    size_t all = socmon_set_size(smn_session_set(s));
    assert_int_equal(w.width, all);
    uint64_t t_stop = socmon_target_now_ns(smn_session_target(s));
    /* a pattern that matches nothing: refused, the old counters stay */
    assert_int_not_equal(smn_session_reselect(s, "nosuch*", 0), SOCMON_OK);
    assert_int_equal(socmon_set_size(smn_session_set(s)), all);
    /* tile0's counters for 1 ms more of the same run */
    assert_int_equal(smn_session_reselect(s, "tile0.*", 1000000), SOCMON_OK);
    size_t tile0 = socmon_set_size(smn_session_set(s));
    assert_true(tile0 > 0 && tile0 < all);
    assert_int_equal(smn_session_info(s)->ncounters, tile0);
    w.stop_after = 0;
    size_t before = w.samples;
    assert_int_equal(smn_session_run(s), SOCMON_OK);
    assert_int_equal(w.begins, 2);                /* the same consumer, a second run */
    assert_int_equal(w.width, tile0);
    assert_int_equal(w.samples - before, 11);     /* 1 ms at 100 us: a first reading and 10 */
    /* the target ran on, not from reset: its time continues from the first run's stop */
    assert_true(socmon_target_now_ns(smn_session_target(s)) >= t_stop + 1000000);
    /* what the reselect replaced can go before the close (the agent, between CONFIGs): the
     * pipeline with its metric set, and the counter set with its source; the session runs on.
     * Not the first generation: the consumers were made with it and their first begin gave it
     * (the live view and the remote writer keep it to the close) */
    assert_int_equal(smn_session_drop_retired(s), 0);
    for (int k = 0; k < 3; k++) {
        assert_int_equal(smn_session_reselect(s, k % 2 ? "tile0.*" : "tile1.*", 100000), SOCMON_OK);
        assert_int_equal(smn_session_drop_retired(s), 2);
        assert_int_equal(w.first->ncounters, all);   /* still there (ASan: not freed) */
        assert_non_null(strstr(w.first->names[all - 1], "."));
        before = w.samples;
        assert_int_equal(smn_session_run(s), SOCMON_OK);
        assert_int_equal(w.samples - before, 2);   /* 100 us at 100 us: a first reading and 1 */
        assert_int_equal(w.width, socmon_set_size(smn_session_set(s)));
    }
    smn_session_close(s);
    /* a recording's counters are the file's */
    assert_int_equal(smn_session_open(&(smn_run_plan){.recording = rec}, &s), SOCMON_OK);
    assert_int_equal(smn_session_reselect(s, NULL, 0), SOCMON_ESTATE);
    smn_session_close(s);
}

/* A reselect before the first run (the agent's CONFIG before its first sample): the consumers'
 * first begin is on the second generation, which drop_retired keeps with the first. */
static void reselected_before_first_run(void **state)
{
    (void)state;
    static const socmon_consumer_ops ops = {.size = sizeof ops, .begin = w_begin, .sample = w_sample};
    widths w = {0};
    smn_session *s = NULL;
    smn_run_plan p = {.target = ONE("esp"), .sampling = {.interval_ns = 100000, .rule = SMN_STEP_ROWS, .started = 1},
                      .totals = SMN_TOTALS_NEVER};
    assert_int_equal(smn_session_open(&p, &s), SOCMON_OK);
    assert_int_equal(smn_session_add(s, &(socmon_consumer){.ops = &ops, .self = &w}), SOCMON_OK);
    assert_int_equal(smn_session_start(s), SOCMON_OK);
    assert_int_equal(smn_session_reselect(s, "tile0.*", 200000), SOCMON_OK);
    size_t tile0 = socmon_set_size(smn_session_set(s));
    assert_int_equal(smn_session_drop_retired(s), 0);   /* the first generation stays */
    assert_int_equal(smn_session_run(s), SOCMON_OK);
    assert_int_equal(w.first->ncounters, tile0);
    assert_int_equal(smn_session_reselect(s, "tile1.*", 200000), SOCMON_OK);
    assert_int_equal(smn_session_drop_retired(s), 0);   /* nor the one the first run began on */
    assert_int_equal(w.first->ncounters, tile0);
    assert_non_null(strstr(w.first->names[0], "tile0."));
    assert_int_equal(smn_session_run(s), SOCMON_OK);
    assert_int_equal(smn_session_reselect(s, "tile2.*", 200000), SOCMON_OK);
    assert_int_equal(smn_session_drop_retired(s), 2);   /* tile1's went */
    assert_int_equal(smn_session_run(s), SOCMON_OK);
    assert_int_equal(w.begins, 3);
    assert_non_null(strstr(w.first->names[tile0 - 1], "tile0."));
    smn_session_close(s);
}

/* The attachments a session's run leaves in a fresh recording, read back: their names, "+"-joined. */
static void attached(const smn_run_plan *p, int params, char *names, size_t len)
{
    smn_session *s = NULL;
    assert_int_equal(smn_session_open(p, &s), SOCMON_OK);
    assert_int_equal(smn_session_run(s), SOCMON_OK);
    char path[] = "/tmp/test_session_rec_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    socmon_recwriter *w = NULL;
    const socmon_source_info *in = smn_session_info(s);
    assert_int_equal(socmon_recwriter_open(fd, smn_session_set(s), in->target, in->interval_ns, NULL, &w), SOCMON_OK);
    assert_int_equal(smn_session_attach(s, w, params), SOCMON_OK);
    assert_int_equal(socmon_recwriter_close(w), SOCMON_OK);
    close(fd);
    smn_session_close(s);
    socmon_recording *rec2 = NULL;
    assert_int_equal(socmon_recording_open(path, &rec2), SOCMON_OK);
    names[0] = 0;
    for (size_t i = 0; i < socmon_recording_nattachments(rec2); i++) {
        size_t n = 0;
        const char *name = socmon_recording_attachment_at(rec2, i, &n, NULL);
        assert_true(n > 0);
        snprintf(names + strlen(names), len - strlen(names), "%s%s", *names ? "+" : "", name);
    }
    socmon_recording_free(rec2);
    unlink(path);
}

static void attachments(void **state)
{
    (void)state;
    char names[256];
    attached(&(smn_run_plan){.target = ONE("esp"), .workload = "multifft"}, 1, names, sizeof names);
    assert_string_equal(names, "phases");    /* multifft's coherence modes; no parameter moved */
    attached(&(smn_run_plan){.target = {ONE_SPEC("ibex"), .program = elf, .symbols = 1}}, 1, names, sizeof names);
    assert_string_equal(names, "profile");   /* CoreMark's exact profile */
    /* the traffic Zynq's workload moves its slots' parameters: attached unless asked not to */
    attached(&(smn_run_plan){.target = ONE("zynq"), .sampling = {.duration_ns = 10000000}}, 1, names, sizeof names);
    assert_non_null(strstr(names, "params"));
    attached(&(smn_run_plan){.target = ONE("zynq"), .sampling = {.duration_ns = 10000000}}, 0, names, sizeof names);
    assert_null(strstr(names, "params"));
    /* a recording's run has no target here: nothing to attach */
    smn_session *s = NULL;
    assert_int_equal(smn_session_open(&(smn_run_plan){.recording = rec}, &s), SOCMON_OK);
    assert_int_equal(smn_session_attach(s, NULL, 1), SOCMON_OK);
    smn_session_close(s);
}

static void recording_as_recorded(void **state)
{
    (void)state;
    smn_session *s = NULL;
    assert_int_equal(smn_session_open(&(smn_run_plan){.recording = rec}, &s), SOCMON_OK);
    assert_null(smn_session_workload(s));
    assert_int_equal(smn_session_program_output(s, count_byte, &(size_t){0}), 0);
    assert_int_equal(smn_session_run(s), SOCMON_OK);
    assert_true(smn_session_totals(s)->samples > 0);
    smn_session_close(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(bad_plans),
        cmocka_unit_test(repeats_are_fresh_runs),
        cmocka_unit_test(program_ends),
        cmocka_unit_test(command_ends),
        cmocka_unit_test(hardware_needs_an_end),
        cmocka_unit_test(workload_that_does_not_parse),
        cmocka_unit_test(reselected),
        cmocka_unit_test(reselected_before_first_run),
        cmocka_unit_test(attachments),
        cmocka_unit_test(recording_as_recorded),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}
