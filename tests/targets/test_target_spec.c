/* The one target spec parser (src/targets/spec.c, issue 40 item 1): a spec's name, options in
 * order and errors; values set whole (',' and '=' in them split nothing); the extras an opening
 * adds, which the spec's text leaves out; argv as its own field, reaching a target's open_argv
 * word for word and refused by a target without one; a spec's text as recordings carry it (its
 * name, its target, a combined run's members). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "socmon/socmon.h"

static void test_parse(void **state)
{
    (void)state;
    socmon_spec *s = NULL;
    assert_int_equal(socmon_spec_parse("esp:soc=esp_4x4,seed=3", &s), SOCMON_OK);
    assert_string_equal(socmon_spec_name(s), "esp");
    assert_ptr_equal(socmon_spec_target(s), socmon_target_lookup("esp"));
    const socmon_kv *kv = NULL;
    assert_int_equal(socmon_spec_options(s, &kv), 2);
    assert_string_equal(kv[0].key, "soc");
    assert_string_equal(kv[0].value, "esp_4x4");
    assert_string_equal(kv[1].key, "seed");
    assert_string_equal(socmon_spec_get(s, "seed"), "3");
    assert_null(socmon_spec_get(s, "nosuch"));
    assert_null(socmon_spec_argv(s));
    char *t = socmon_spec_text(s);
    assert_string_equal(t, "esp:soc=esp_4x4,seed=3");
    free(t);
    socmon_spec_free(s);

    /* a value keeps its '=' (only the first one splits) */
    assert_int_equal(socmon_spec_parse("ibex:program=a=b.elf", &s), SOCMON_OK);
    assert_string_equal(socmon_spec_get(s, "program"), "a=b.elf");
    socmon_spec_free(s);
    assert_int_equal(socmon_spec_parse("zynq", &s), SOCMON_OK);
    assert_int_equal(socmon_spec_options(s, NULL), 0);
    socmon_spec_free(s);
    assert_int_equal(socmon_spec_parse("nosuch:a=1", &s), SOCMON_OK);   /* names are checked on opening */
    assert_null(socmon_spec_target(s));
    socmon_spec_free(s);
}

static void test_parse_errors(void **state)
{
    (void)state;
    static const struct {
        const char *text, *msg;
    } bad[] = {
        {"", "empty target spec"},
        {":soc=x", "has no target name"},
        {"esp:soc", "option 'soc' is not key=value"},
        {"esp:=x", "option '=x' is not key=value"},
        {"esp:soc=x,,seed=1", "option '' is not key=value"},
        {"esp;zynq", "names several targets"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        socmon_spec *s = (socmon_spec *)1;
        assert_int_equal(socmon_spec_parse(bad[i].text, &s), SOCMON_EINVAL);
        assert_null(s);
        if (!strstr(socmon_errmsg(), bad[i].msg))
            fail_msg("'%s': %s (wanted '%s')", bad[i].text, socmon_errmsg(), bad[i].msg);
    }
    socmon_spec *s = NULL;
    assert_int_equal(socmon_spec_new("esp:x=1", &s), SOCMON_EINVAL);
    assert_int_equal(socmon_spec_new("esp", &s), SOCMON_OK);
    assert_string_equal(socmon_spec_name(s), "esp");
    socmon_spec_free(s);
}

static void test_set_and_extras(void **state)
{
    (void)state;
    socmon_spec *s = NULL;
    assert_int_equal(socmon_spec_parse("zynq:slots=9", &s), SOCMON_OK);
    assert_int_equal(socmon_spec_set(s, "slots", "3"), SOCMON_OK);   /* replaces, keeps its place */
    assert_int_equal(socmon_spec_set_extra(s, "trace_bus", "/tmp/a,b=c.log"), SOCMON_OK);
    assert_string_equal(socmon_spec_get(s, "trace_bus"), "/tmp/a,b=c.log");
    assert_int_equal(socmon_spec_options(s, NULL), 2);
    char *t = socmon_spec_text(s);
    assert_string_equal(t, "zynq:slots=3");   /* the extra is the opening's, not the spec's */
    free(t);
    assert_int_equal(socmon_spec_set(s, "", "x"), SOCMON_EINVAL);
    socmon_target *tg = NULL;
    assert_int_equal(socmon_spec_set_extra(s, "trace_bus", "-"), SOCMON_OK);
    assert_int_equal(socmon_spec_set(s, "trace_bus", "/dev/null"), SOCMON_OK);   /* now the spec's own */
    assert_int_equal(socmon_target_open_spec(s, &tg), SOCMON_OK);
    assert_string_equal(socmon_target_spec(tg), "zynq:slots=3,trace_bus=/dev/null");
    assert_int_equal(socmon_zynq_soc_desc(socmon_target_model(tg, "zynq"))->nslots, 3);
    socmon_target_close(tg);
    socmon_spec_free(s);
}

static void test_argv(void **state)
{
    (void)state;
    socmon_spec *s = NULL;
    assert_int_equal(socmon_spec_parse("esp", &s), SOCMON_OK);
    char *argv[] = {"sh", "-c", "echo a,b=c \x1f d", NULL};
    assert_int_equal(socmon_spec_set_argv(s, argv), SOCMON_OK);
    assert_string_equal(socmon_spec_argv(s)[2], "echo a,b=c \x1f d");
    assert_null(socmon_spec_argv(s)[3]);
    char *t = socmon_spec_text(s);
    assert_string_equal(t, "esp");   /* argv is no option */
    free(t);
    socmon_target *tg = NULL;
    assert_int_equal(socmon_target_open_spec(s, &tg), SOCMON_EINVAL);   /* esp runs no command */
    assert_non_null(strstr(socmon_errmsg(), "target 'esp' runs no command or program ('-- sh')"));
    assert_null(tg);
    assert_int_equal(socmon_spec_set_argv(s, NULL), SOCMON_OK);
    assert_null(socmon_spec_argv(s));
    socmon_spec_free(s);

    /* the host's command gets its words as they were, ',', '=' and 0x1f included */
    char out[] = "/tmp/socmon_spec_argv_XXXXXX";
    int fd = mkstemp(out);
    assert_true(fd >= 0);
    close(fd);
    char *cmd[] = {"sh", "-c", "printf '%s|' \"$@\" >\"$0\"", out, "a,b=c", "x\x1fy", NULL};
    assert_int_equal(socmon_spec_parse("host:events=task-clock", &s), SOCMON_OK);
    assert_int_equal(socmon_spec_set_argv(s, cmd), SOCMON_OK);
    socmon_status st = socmon_target_open_spec(s, &tg);
    socmon_spec_free(s);
    if (st == SOCMON_ENOTSUP) {   /* no perf_event here (qemu-user runs the Arm build) */
        print_message("skipping the host command: %s\n", socmon_errmsg());
        unlink(out);
        return;
    }
    assert_int_equal(st, SOCMON_OK);
    assert_string_equal(socmon_target_spec(tg), "host:events=task-clock");
    int done = 0;
    assert_int_equal(socmon_target_start(tg, NULL), SOCMON_OK);
    for (int i = 0; i < 500 && !done; i++)
        assert_int_equal(socmon_target_advance(tg, 10000000, &done), SOCMON_OK);
    assert_true(done);
    socmon_target_close(tg);
    char got[64] = "";
    FILE *f = fopen(out, "r");
    assert_non_null(f);
    assert_non_null(fgets(got, sizeof got, f));
    fclose(f);
    unlink(out);
    assert_string_equal(got, "a,b=c|x\x1fy|");
}

static void test_text_helpers(void **state)
{
    (void)state;
    char buf[64];
    assert_string_equal(socmon_spec_name_of("esp:soc=x", buf, sizeof buf), "esp");
    assert_string_equal(socmon_spec_name_of("host;esp:soc=x", buf, sizeof buf), "host");
    assert_string_equal(socmon_spec_name_of(NULL, buf, sizeof buf), "");
    assert_string_equal(socmon_spec_name_of("abcdefgh:x=1", buf, 4), "abc");
    assert_ptr_equal(socmon_spec_ops_of("zynq:slots=2"), socmon_target_lookup("zynq"));
    assert_null(socmon_spec_ops_of("host;esp"));
    assert_null(socmon_spec_ops_of("nosuch"));
    assert_int_equal(socmon_spec_members("host;esp:soc=x;zynq"), 3);
    assert_int_equal(socmon_spec_members("esp"), 1);
    assert_int_equal(socmon_spec_members(""), 0);
    assert_string_equal(socmon_spec_member("host;esp:soc=x;zynq", 1, buf, sizeof buf), "esp:soc=x");
    assert_string_equal(socmon_spec_member("host;esp:soc=x;zynq", 2, buf, sizeof buf), "zynq");
    assert_null(socmon_spec_member("host;esp:soc=x;zynq", 3, buf, sizeof buf));
    assert_string_equal(socmon_spec_member("esp", 0, buf, sizeof buf), "esp");
}

/* socmon_target_open_kv and the metric lookup go through the same parser and lookup. */
static void test_open_kv_and_metrics(void **state)
{
    (void)state;
    socmon_target *t = NULL;
    assert_int_equal(socmon_target_open_kv("zynq:slots", NULL, 0, &t), SOCMON_EINVAL);
    assert_non_null(strstr(socmon_errmsg(), "option 'slots' is not key=value"));
    assert_int_equal(socmon_target_open_kv("nosuch", NULL, 0, &t), SOCMON_ENOENT);
    assert_non_null(strstr(socmon_errmsg(), "unknown target 'nosuch'"));
    socmon_metricset *ms = NULL;
    assert_int_equal(socmon_metrics_for_target(NULL, "esp:soc=esp_2x3", &ms), SOCMON_OK);
    assert_non_null(ms);
    socmon_metricset_free(ms);
    ms = NULL;
    assert_int_equal(socmon_metrics_for_target(socmon_target_lookup("zynq"), "whatever", &ms), SOCMON_OK);
    socmon_metricset_free(ms);
    ms = NULL;
    assert_int_equal(socmon_metrics_for_target(NULL, "nosuch", &ms), SOCMON_ENOENT);
    assert_null(ms);
    assert_int_equal(socmon_metrics_for_target(NULL, "esp;zynq", &ms), SOCMON_OK);   /* merged */
    assert_non_null(ms);
    socmon_metricset_free(ms);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_parse),           cmocka_unit_test(test_parse_errors),
        cmocka_unit_test(test_set_and_extras),  cmocka_unit_test(test_argv),
        cmocka_unit_test(test_text_helpers),    cmocka_unit_test(test_open_kv_and_metrics),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
