/* A run plan's session (analysis/session.h, issue 40 item 2): a plan that names no source, or
 * two, or gives a recording what only a target has, is refused naming what; a target's repeats
 * are runs from a fresh start whose means equal one run of a deterministic model; a program's
 * end is the status socmon stat documents (halt 0, still running at -d's end "timeout" 0); a
 * recording is read as recorded; an interval below the target's minimum is refused. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/session.h"
#include "socmon/status.h"

static char elf[1024], rec[1024];

static int setup(void **state)
{
    (void)state;
    const char *src = getenv("SOCMON_SRC");
    snprintf(elf, sizeof elf, "%s/bench/ibex/coremark_i10.elf", src ? src : ".");
    snprintf(rec, sizeof rec, "%s/fuzz/corpus/fuzz_recording_v2/blocks.rec", src ? src : ".");
    return 0;
}

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
    refused(&(smn_run_plan){0}, "not neither");
    refused(&(smn_run_plan){.spec = "esp", .recording = rec}, "not both");
    refused(&(smn_run_plan){.recording = rec, .repeat = 2}, "repeats");
    refused(&(smn_run_plan){.recording = rec, .program = elf}, "program");
    refused_as(&(smn_run_plan){.spec = "esp", .interval_ns = 1}, SOCMON_ERANGE, "interval 1 ns is below");
}

/* A finished session's totals: runs and the first counter's value (a copy: the session goes). */
static unsigned run_esp(unsigned repeat, uint64_t *v0, uint64_t *elapsed)
{
    smn_session *s = NULL;
    smn_run_plan p = {.spec = "esp", .repeat = repeat};
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

static void program_end(const smn_run_plan *p, const char *end, int code, size_t *bytes)
{
    smn_session *s = NULL;
    assert_int_equal(smn_session_open(p, &s), SOCMON_OK);
    assert_int_equal(smn_session_program_output(s, count_byte, bytes), 1);
    assert_int_equal(smn_session_run(s), SOCMON_OK);
    smn_session_end e;
    smn_session_exit(s, &e);
    assert_int_equal(e.program, 1);
    assert_string_equal(e.end, end);
    assert_int_equal(e.exit_code, code);
    smn_session_close(s);
}

static void program_ends(void **state)
{
    (void)state;
    size_t whole = 0, part = 0;
    program_end(&(smn_run_plan){.spec = "ibex", .program = elf}, "halt", 0, &whole);
    assert_true(whole > 100);   /* CoreMark's report */
    /* 1 ms of an 82 ms run: still running when the duration ends */
    program_end(&(smn_run_plan){.spec = "ibex", .program = elf, .duration_ns = 1000000}, "timeout", 0, &part);
    assert_true(part < whole);
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
        cmocka_unit_test(recording_as_recorded),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}
