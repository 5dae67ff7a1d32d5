/* The Prometheus formats (export/fmt_prom.c, export/prom_text.c): names made valid and
 * lint-clean from any counter or metric name and unit, HELP and label escaping (bad UTF-8
 * included), Go's float syntax with NaN and infinities, Accept negotiation, whole documents of
 * the output fixture in both formats (families grouped, metadata once, no inst label for a
 * device-wide counter, units as name suffixes), names that collide, and the replacing sink. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "export/output_fixture.h"
#include "export/prom_text.h"

static void name_is(const char *name, const char *unit, unsigned n, int counter, const char *want)
{
    char buf[200];
    smn_prom_unit u;
    smn_prom_unit_of(unit, &u);
    assert_int_equal(smn_prom_name(buf, sizeof buf, name, &u, n, counter), 0);
    if (strcmp(buf, want) != 0)
        fail_msg("name '%s' unit '%s': got %s, want %s", name, unit ? unit : "(null)", buf, want);
}

static void test_names(void **state)
{
    name_is("l2_hits", "events", 1, 1, "socmon_l2_hits");                  /* a count: no unit */
    name_is("noc_inj_p0", "packets", 1, 1, "socmon_noc_inj_p0_packets");
    name_is("wr_bytes", "bytes", 1, 1, "socmon_wr_bytes");                 /* unit already there */
    name_is("cycles", "cycles", 1, 1, "socmon_cycles");
    name_is("CFG_INSTRN_AVAILABLE_0", "events", 1, 1, "socmon_cfg_instrn_available_0");
    name_is("f.fn-main::x", "", 1, 1, "socmon_f_fn_main_x");              /* ':' is for rules */
    name_is("retired_total", "events", 1, 1, "socmon_retired");           /* the sample adds _total */
    name_is("avg_wr_latency_ns", "ns", 1, 0, "socmon_avg_wr_latency_seconds");
    name_is("l1d_access_per_ms", "accesses/ms", 1, 0, "socmon_l1d_access_accesses_per_second");
    name_is("wr_throughput", "MB/s", 1, 0, "socmon_wr_throughput_bytes_per_second");
    name_is("hit_rate", "%", 1, 0, "socmon_hit_rate_percent");
    name_is("odd", "say \"hi\", twice", 1, 0, "socmon_odd_say_hi_twice");
    name_is("ratio_a", "B/cyc", 1, 0, "socmon_ratio_a_bytes_per_cycle");
    name_is("x", "furlongs/fortnight", 1, 0, "socmon_x_furlongs_per_fortnight");
    name_is("hit%x", "", 1, 0, "socmon_hit_percent_x");
    name_is("hits", "events", 2, 1, "socmon_hits_2");
    name_is("lat", "cycles", 3, 0, "socmon_lat_3_cycles");                /* the unit stays last */
    name_is("", NULL, 1, 0, "socmon_unnamed");
    name_is("...", "%", 1, 0, "socmon_unnamed_percent");
    char small[8];
    assert_int_equal(smn_prom_name(small, sizeof small, "long_name", NULL, 1, 0), -1);
    assert_true(smn_prom_reserved_suffix("socmon_x_total"));
    assert_true(smn_prom_reserved_suffix("socmon_x_info"));
    assert_false(smn_prom_reserved_suffix("socmon_x_totals"));
}

static void test_units_scale(void **state)
{
    smn_prom_unit u;
    smn_prom_unit_of("ns", &u);
    assert_string_equal(u.suffix, "seconds");
    /* 250 ns is exactly what 2.5e-07 reads back as, not 2.5000000000000004e-07 */
    char buf[40];
    assert_string_equal(smn_prom_float(buf, sizeof buf, smn_prom_scale(&u, 250)), "2.5e-07");
    smn_prom_unit_of("MB/s", &u);
    assert_true(smn_prom_scale(&u, 1.5) == 1.5e6);
    assert_false(smn_prom_unscaled(&u));
    smn_prom_unit_of("events", &u);
    assert_null(u.suffix);
    assert_true(smn_prom_unscaled(&u));
    smn_prom_unit_of(NULL, &u);
    assert_null(u.suffix);
}

static void float_is(double v, const char *want)
{
    char buf[40];
    smn_prom_float(buf, sizeof buf, v);
    if (strcmp(buf, want) != 0)
        fail_msg("%.17g: got %s, want %s", v, buf, want);
    if (isfinite(v))
        assert_true(strtod(buf, NULL) == v);   /* reads back exactly */
}

static void test_go_floats(void **state)
{
    float_is(NAN, "NaN");
    float_is(INFINITY, "+Inf");
    float_is(-INFINITY, "-Inf");
    float_is(0, "0");
    float_is(1, "1");
    float_is(-1, "-1");
    float_is(0.1, "0.1");
    float_is(49.99, "49.99");
    float_is(123456, "123456");
    float_is(1234567, "1.234567e+06");   /* Go switches to the exponent at 1e+06 */
    float_is(1e21, "1e+21");
    float_is(0.0001, "0.0001");
    float_is(0.00001, "1e-05");
    float_is(1.0 / 3, "0.3333333333333333");
    float_is(0.1 + 0.2, "0.30000000000000004");
    float_is(-2.5e-7, "-2.5e-07");
    float_is(1.7976931348623157e308, "1.7976931348623157e+308");
}

static char *escape(int help, int om, const char *in)
{
    smn_sink *s;
    assert_int_equal(smn_sink_memory(&s), SOCMON_OK);
    assert_int_equal(help ? smn_prom_help(s, in, om) : smn_prom_label_value(s, in), SOCMON_OK);
    char *out = strdup(smn_sink_memory_data(s, NULL));
    smn_sink_close(s);
    return out;
}

static void escaped_is(int help, int om, const char *in, const char *want)
{
    char *got = escape(help, om, in);
    if (strcmp(got, want) != 0)
        fail_msg("escape(%d,%d) of '%s': got '%s', want '%s'", help, om, in, got, want);
    free(got);
}

static void test_escaping(void **state)
{
    escaped_is(1, 0, "a \\ b\nc \"q\"", "a \\\\ b\\nc \"q\"");       /* 0.0.4 HELP: \\ and \n */
    escaped_is(1, 1, "a \\ b\nc \"q\"", "a \\\\ b\\nc \\\"q\\\"");   /* OpenMetrics: \" too */
    escaped_is(0, 0, "t\"1\\\n", "t\\\"1\\\\\\n");
    escaped_is(0, 0, "caf\xc3\xa9 \xe2\x82\xac", "caf\xc3\xa9 \xe2\x82\xac");  /* UTF-8 kept */
    escaped_is(0, 0, "a\xff" "b\xc3", "a\xef\xbf\xbd" "b\xef\xbf\xbd");        /* bad bytes: U+FFFD */
    escaped_is(0, 0, "\xc0\xaf\xed\xa0\x80", "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd");
    escaped_is(0, 0, NULL, "");
}

static void test_negotiate(void **state)
{
    /* what Prometheus 2.42 sends */
    assert_string_equal(smn_prom_negotiate("application/openmetrics-text;version=1.0.0,application/"
                                              "openmetrics-text;version=0.0.1;q=0.75,text/plain;version=0.0.4;"
                                              "q=0.5,*/*;q=0.1"), "openmetrics");
    assert_string_equal(smn_prom_negotiate("*/*"), "prometheus");            /* curl */
    assert_string_equal(smn_prom_negotiate(NULL), "prometheus");
    assert_string_equal(smn_prom_negotiate(""), "prometheus");
    assert_string_equal(smn_prom_negotiate("text/plain;version=0.0.4;q=0.9, Application/OpenMetrics-Text; "
                                              "q=0.5"), "prometheus");
    assert_string_equal(smn_prom_negotiate(" application/openmetrics-text ; q=0.3 "), "openmetrics");
    assert_string_equal(smn_prom_negotiate("application/openmetrics-text;q=0"), "prometheus");
    assert_string_equal(smn_prom_negotiate("application/openmetrics-text;q=nan,text/html"), "prometheus");
    assert_string_equal(smn_prom_content_type("openmetrics"), SOCMON_OPENMETRICS_CONTENT_TYPE);
    assert_string_equal(smn_prom_content_type("prometheus"), SOCMON_PROM_CONTENT_TYPE);
    assert_null(smn_prom_content_type("json"));
}

static char *render(const char *format, const smn_run_info *run, const smn_counter_list *list,
                    const uint64_t *values, int metrics)
{
    fx f;
    fx_setup(&f);
    fx_open(&f, format, ',', 0);
    assert_int_equal(smn_output_begin(f.out, run), SOCMON_OK);
    assert_int_equal(smn_output_counters(f.out, list, values), SOCMON_OK);
    if (metrics)
        assert_int_equal(smn_output_metrics(f.out, f.ms, f.m, f.mv), SOCMON_OK);
    assert_int_equal(smn_output_hotspots(f.out, list, values, "tile*", 2), SOCMON_OK);
    assert_int_equal(smn_output_end(f.out), SOCMON_OK);
    char *text = strdup(fx_text(&f));
    fx_close(&f);
    fx_teardown(&f);
    return text;
}

static const smn_run_info fx_run = {.doc = SOCMON_DOC_TOTALS, .title = "Stats", .target = "fx:a=\"1\"",
                                       .workload = "w", .elapsed_ns = 1500000, .simulated = 1};

static void expect_text(char *got, const char *want)
{
    if (strcmp(got, want) != 0)
        fail_msg("got:\n%s\nwant:\n%s", got, want);
    free(got);
}

static void test_prometheus_document(void **state)
{
    expect_text(render("prometheus", &fx_run, &fx_list, fx_values, 1),
        "# HELP socmon_target_info what socmon samples: the target (spec: with its options), device, "
        "workload, and whether time is a model's simulated time\n"
        "# TYPE socmon_target_info gauge\n"
        "socmon_target_info{target=\"fx\",spec=\"fx:a=\\\"1\\\"\",workload=\"w\",simulated=\"true\"} 1\n"
        "# HELP socmon_elapsed_seconds time the run has lasted, simulated\n"
        "# TYPE socmon_elapsed_seconds gauge\n"
        "# UNIT socmon_elapsed_seconds seconds\n"
        "socmon_elapsed_seconds{target=\"fx\"} 0.0015\n"
        /* one family for both tiles' hits, metadata once; no desc: the name is the help; no
         * counter label (the family names it), so rate(hits)/rate(misses) of a tile matches */
        "# HELP socmon_l2_hits_total socmon_l2_hits_total\n"
        "# TYPE socmon_l2_hits_total counter\n"
        "socmon_l2_hits_total{target=\"fx\",inst=\"tile0\"} 300\n"
        "socmon_l2_hits_total{target=\"fx\",inst=\"tile1\"} 0\n"
        "# HELP socmon_l2_misses_total socmon_l2_misses_total\n"
        "# TYPE socmon_l2_misses_total counter\n"
        "socmon_l2_misses_total{target=\"fx\",inst=\"tile0\"} 100\n"
        "socmon_l2_misses_total{target=\"fx\",inst=\"tile1\"} 0\n"
        /* device-wide: no inst label; a 64-bit total printed whole */
        "# HELP socmon_a_counter_with_a_rather_long_name_cycles_total socmon_a_counter_with_a_rather_long_name_cycles_total\n"
        "# TYPE socmon_a_counter_with_a_rather_long_name_cycles_total counter\n"
        "# UNIT socmon_a_counter_with_a_rather_long_name_cycles_total cycles\n"
        "socmon_a_counter_with_a_rather_long_name_cycles_total{target=\"fx\"} 123456789012\n"
        "# HELP socmon_odd_say_hi_twice_total socmon_odd_say_hi_twice_total\n"
        "# TYPE socmon_odd_say_hi_twice_total counter\n"
        "# UNIT socmon_odd_say_hi_twice_total say_hi_twice\n"
        "socmon_odd_say_hi_twice_total{target=\"fx\",inst=\"tile1\"} 5\n"
        /* over a run; tile1's 0/0 is NaN */
        "# HELP socmon_hit_rate_percent L2 hits per access\n"
        "# TYPE socmon_hit_rate_percent gauge\n"
        "# UNIT socmon_hit_rate_percent percent\n"
        "socmon_hit_rate_percent{target=\"fx\",inst=\"tile0\"} 75\n"
        "socmon_hit_rate_percent{target=\"fx\",inst=\"tile1\"} NaN\n"
        "# HELP socmon_hits all L2 hits\n"
        "# TYPE socmon_hits gauge\n"
        "socmon_hits{target=\"fx\"} 300\n"
        /* a labelled value: the index, its legend in the help, no unit */
        "# HELP socmon_busier the tile with more hits (values: 0=tile0 1=tile1)\n"
        "# TYPE socmon_busier gauge\n"
        "socmon_busier{target=\"fx\"} 0\n"
        "# HELP socmon_seventh a fraction\n"
        "# TYPE socmon_seventh gauge\n"
        "socmon_seventh{target=\"fx\"} 42.857142857142854\n");
}

static void test_openmetrics_document(void **state)
{
    smn_run_info run = fx_run;
    run.recording = 1;
    run.samples = 12;
    run.missed = 3;
    run.interval_ns = 1000000;   /* live: metric values are the latest interval's */
    char *t = render("openmetrics", &run, &fx_list, fx_values, 1);
    static const char *const want[] = {
        "# HELP socmon_target what socmon samples",
        "\n# TYPE socmon_target info\n",
        "\nsocmon_target_info{target=\"fx\",spec=\"fx:a=\\\"1\\\"\",workload=\"w\",simulated=\"true\"} 1\n",
        "# TYPE socmon_interval_seconds gauge\n# UNIT socmon_interval_seconds seconds\n",
        "socmon_interval_seconds{target=\"fx\"} 0.001\n",
        "# HELP socmon_samples samples taken\n# TYPE socmon_samples counter\nsocmon_samples_total{target=\"fx\"} 12\n",
        "socmon_missed_intervals_total{target=\"fx\"} 3\n",
        "# HELP socmon_l2_hits socmon_l2_hits\n# TYPE socmon_l2_hits counter\n",
        "# TYPE socmon_a_counter_with_a_rather_long_name_cycles counter\n"
        "# UNIT socmon_a_counter_with_a_rather_long_name_cycles cycles\n",
        "# HELP socmon_hit_rate_percent L2 hits per access\n"
        "# TYPE socmon_hit_rate_percent gauge\n# UNIT socmon_hit_rate_percent percent\n",
        "socmon_seventh{target=\"fx\"} 42.857142857142854\n# EOF\n",
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
        if (!strstr(t, want[i]))
            fail_msg("missing:\n%s\nin:\n%s", want[i], t);
    /* the # EOF ends it; no 0.0.4 family names with _total in the metadata */
    assert_string_equal(t + strlen(t) - 6, "# EOF\n");
    assert_null(strstr(t, "# TYPE socmon_l2_hits_total"));
    free(t);
}

/* Names that come out equal: counters that differ only in case share a family (the counter
 * label tells them apart); a metric and the run's own series that would take a counter's
 * names get "_2". Every family's metadata appears once and before its samples. */
static void test_collisions(void **state)
{
    static const socmon_counter c[] = {
        {.name = "Hits", .instance = "t0", .unit = "events", .desc = "upper", .width = 32},
        {.name = "hits", .instance = "t0", .unit = "events", .desc = "lower", .width = 32},
        {.name = "elapsed_seconds", .instance = "", .unit = "events", .width = 32},
        {.name = "hits", .instance = "t1", .unit = "events", .width = 32},
    };
    static const char *const names[] = {"t0.Hits", "t0.hits", "elapsed_seconds", "t1.hits"};
    static const smn_counter_list list = {4, c, names, NULL, 0, NULL};
    static const uint64_t v[] = {1, 2, 3, 4};
    char *t = render("openmetrics", &fx_run, &list, v, 0);
    assert_non_null(strstr(t, "# HELP socmon_hits upper\n# TYPE socmon_hits counter\n"
                              "socmon_hits_total{target=\"fx\",inst=\"t0\",counter=\"Hits\"} 1\n"
                              "socmon_hits_total{target=\"fx\",inst=\"t0\",counter=\"hits\"} 2\n"
                              "socmon_hits_total{target=\"fx\",inst=\"t1\",counter=\"hits\"} 4\n"));
    /* socmon_elapsed_seconds is the run's gauge: the counter family is socmon_elapsed_seconds_2 */
    assert_non_null(strstr(t, "socmon_elapsed_seconds_2_total{target=\"fx\"} 3\n"));
    /* each TYPE once */
    for (const char *p = strstr(t, "# TYPE "); p; p = strstr(p + 1, "# TYPE ")) {
        char line[256];
        snprintf(line, sizeof line, "%.*s", (int)strcspn(p, "\n"), p);
        assert_ptr_equal(strstr(t, line), p);
    }
    free(t);
}

static void test_timeline_refused(void **state)
{
    smn_sink *s;
    smn_output *o;
    assert_int_equal(smn_sink_memory(&s), SOCMON_OK);
    assert_int_equal(smn_output_open("openmetrics", s, NULL, &o), SOCMON_OK);
    smn_run_info run = {.doc = SOCMON_DOC_INTERVALS, .target = "fx"};
    assert_int_equal(smn_output_begin(o, &run), SOCMON_EINVAL);
    assert_non_null(strstr(socmon_errmsg(), "openmetrics: a timeline has no Prometheus form"));
    smn_output_free(o);
    smn_sink_close(s);
}

static char *slurp(const char *path)
{
    static char buf[256];
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = '\0';
    fclose(f);
    return buf;
}

static void test_replace_sink(void **state)
{
    char dir[] = "/tmp/socmon-prom-XXXXXX", path[64];
    assert_non_null(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/m.prom", dir);
    FILE *f = fopen(path, "w");
    fputs("old\n", f);
    fclose(f);
    chmod(path, 0640);
    smn_sink *s;
    /* written, then cancelled (a document abandoned): the old file stays, nothing left over */
    assert_int_equal(smn_sink_path(path, SOCMON_PATH_REPLACE, 0, &s), SOCMON_OK);
    assert_int_equal(smn_sink_puts(s, "half"), SOCMON_OK);
    assert_string_equal(slurp(path), "old\n");   /* not visible while being written */
    smn_sink_cancel(s, SOCMON_EIO);
    assert_int_equal(smn_sink_puts(s, "more"), SOCMON_EIO);
    assert_int_equal(smn_sink_close(s), SOCMON_EIO);
    assert_string_equal(slurp(path), "old\n");
    /* written and closed: replaced, with the old file's mode */
    assert_int_equal(smn_sink_path(path, SOCMON_PATH_REPLACE, 0, &s), SOCMON_OK);
    assert_int_equal(smn_sink_puts(s, "new\n"), SOCMON_OK);
    assert_int_equal(smn_sink_close(s), SOCMON_OK);
    assert_string_equal(slurp(path), "new\n");
    struct stat sb;
    assert_int_equal(stat(path, &sb), 0);
    assert_int_equal(sb.st_mode & 0777, 0640);
    /* only m.prom is left in the directory */
    char cmd[128];
    snprintf(cmd, sizeof cmd, "test \"$(ls -A %s)\" = m.prom", dir);
    assert_int_equal(system(cmd), 0);
    /* a device node is written through, never replaced */
    assert_int_equal(smn_sink_path("/dev/null", SOCMON_PATH_REPLACE, 0, &s), SOCMON_OK);
    assert_int_equal(smn_sink_puts(s, "x"), SOCMON_OK);
    assert_int_equal(smn_sink_close(s), SOCMON_OK);
    assert_int_equal(stat("/dev/null", &sb), 0);
    assert_true(S_ISCHR(sb.st_mode));
    /* a missing directory: an error naming the path */
    snprintf(path, sizeof path, "%s/no/m.prom", dir);
    assert_int_not_equal(smn_sink_path(path, SOCMON_PATH_REPLACE, 0, &s), SOCMON_OK);
    assert_non_null(strstr(socmon_errmsg(), path));
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    assert_int_equal(system(cmd), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_names),
        cmocka_unit_test(test_units_scale),
        cmocka_unit_test(test_go_floats),
        cmocka_unit_test(test_escaping),
        cmocka_unit_test(test_negotiate),
        cmocka_unit_test(test_prometheus_document),
        cmocka_unit_test(test_openmetrics_document),
        cmocka_unit_test(test_collisions),
        cmocka_unit_test(test_timeline_refused),
        cmocka_unit_test(test_replace_sink),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
