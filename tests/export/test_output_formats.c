/* Each output format rendered into a memory sink from one small schema: the exact text of
 * the human formats (alignment with a long name, zero counters and undefined results shown
 * as perf shows them, labels, "-" for undefined, the "+-" spread of repeated runs), CSV quoting with two separators, and JSON types (integers, reals, null,
 * labels), for a document of totals and for a timeline. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "export/output_fixture.h"
#include "socmon/sample.h"

/* The results of the fixture's metrics, in order. */
enum { R_RATE0, R_RATE1, R_HITS, R_BUSIER, R_SEVENTH, NRES };
static const size_t shown[] = {R_RATE0, R_RATE1, R_BUSIER};

static void render_totals(const char *format, char sep, int all, char **text)
{
    fx f;
    fx_setup(&f);
    assert_int_equal(socmon_metrics_nresults(f.m), NRES);
    fx_open(&f, format, sep, all);
    fx_totals(&f);
    *text = strdup(fx_text(&f));
    fx_close(&f);
    fx_teardown(&f);
}

static void render_timeline(const char *format, int all, char **text)
{
    fx f;
    fx_setup(&f);
    fx_open(&f, format, ',', all);
    fx_timeline(&f, shown, 3);
    *text = strdup(fx_text(&f));
    fx_close(&f);
    fx_teardown(&f);
}

static void expect_text(char *got, const char *want)
{
    if (strcmp(got, want) != 0)
        fail_msg("got:\n%s\nwant:\n%s", got, want);
    free(got);
}

static void test_table_totals(void **state)
{
    char *t;
    render_totals("table", ',', 0, &t);
    /* Counts grouped by thousands, each metric with its precision ('%': 2 decimals, events: 0,
     * "precision": 1), totals headed as over the run, the elapsed time last as perf has it. */
    expect_text(t, "\n Stats for target 'fx', workload 'w':\n\n"
                   "  counter                                      value  unit\n"
                   "  tile0.l2_hits                                  300  events\n"
                   "  tile0.l2_misses                                100  events\n"
                   "  tile1.l2_hits                                    0  events\n"
                   "  tile1.l2_misses                                  0  events\n"
                   "  a_counter_with_a_rather_long_name  123,456,789,012  cycles\n"
                   "  tile1.odd                                        5  say \"hi\", twice\n"
                   "\n Metrics over the run:\n\n"
                   "  metric    instance  value  unit    description\n"
                   "  hit_rate  tile0     75.00  %       L2 hits per access\n"
                   "  hit_rate  tile1         -  %       L2 hits per access\n"
                   "  hits                  300  events  all L2 hits\n"
                   "  busier              tile0          the tile with more hits\n"
                   "  seventh              42.9          a fraction\n"
                   "  (1 metric not computed: l3: 'l3_misses' is not a counter, parameter or earlier metric"
                   " of this schema)\n"
                   "\n Hot spots over the run (largest tile*):\n\n"
                   "  tile0.l2_hits    300  events\n"
                   "  tile0.l2_misses  100  events\n"
                   "\n       0.001500000 seconds time elapsed\n"
                   "\n");
}

static void test_table_totals_deltas(void **state)
{
    char *t, *u;
    /* The deltas option is about timelines: totals read the same with it. */
    render_totals("table", ',', 1, &t);
    render_totals("table", ',', 0, &u);
    assert_string_equal(t, u);
    assert_null(strstr(t, "not shown"));
    free(t);
    free(u);
}

static json_t *parse(char *text)
{
    json_error_t err;
    json_t *doc = json_loads(text, 0, &err);
    if (!doc)
        fail_msg("not JSON (%s at line %d): %s", err.text, err.line, text);
    free(text);
    return doc;
}

/* Totals of repeated runs: the means with perf's spread, in every format. */
static void render_repeated(const char *format, char **text)
{
    fx f;
    fx_setup(&f);
    fx_open(&f, format, ',', 0);
    double csd[NCTR] = {[T0_HITS] = 3, [T0_MISS] = 0.5, [LONG] = 0, [ODD] = 1};
    double msd[NRES] = {[R_RATE0] = 1.5, [R_RATE1] = NAN, [R_HITS] = 3, [R_SEVENTH] = 0.25};
    smn_run_info run = {.doc = SOCMON_DOC_TOTALS, .title = "Stats", .target = "fx", .elapsed_ns = 1500000,
                           .runs = 5, .counter_stddev = csd, .metric_stddev = msd};
    assert_int_equal(smn_output_begin(f.out, &run), SOCMON_OK);
    assert_int_equal(smn_output_counters(f.out, &fx_list, fx_values), SOCMON_OK);
    assert_int_equal(smn_output_metrics(f.out, f.ms, f.m, f.mv), SOCMON_OK);
    assert_int_equal(smn_output_end(f.out), SOCMON_OK);
    *text = strdup(fx_text(&f));
    fx_close(&f);
    fx_teardown(&f);
}

static void test_repeated_runs(void **state)
{
    char *t;
    render_repeated("table", &t);
    assert_non_null(strstr(t, "Stats for target 'fx' (5 runs):"));
    assert_non_null(strstr(t, "  tile0.l2_hits                                  300  events           ( +-  1.00% )\n"));
    assert_non_null(strstr(t, "  tile0.l2_misses                                100  events           ( +-  0.50% )\n"));
    assert_non_null(strstr(t, "  tile1.l2_hits                                    0  events           ( +-  0.00% )\n"));
    assert_non_null(strstr(t, "  hit_rate  tile0     75.00  %       ( +-  2.00% )  L2 hits per access\n"));
    assert_non_null(strstr(t, "  hit_rate  tile1         -  %                      L2 hits per access\n"));
    assert_non_null(strstr(t, "  busier              tile0                         the tile with more hits\n"));
    free(t);
    render_repeated("csv", &t);
    assert_non_null(strstr(t, "type,name,instance,value,unit,stddev\n"
                              "counter,tile0.l2_hits,tile0,300,events,1.00%\n"
                              "counter,tile0.l2_misses,tile0,100,events,0.50%\n"));
    assert_non_null(strstr(t, "metric,hit_rate,tile0,75,%,2.00%\n"));
    assert_non_null(strstr(t, "metric,hits,,300,events,1.00%\n"));
    assert_non_null(strstr(t, "metric,hit_rate,tile1,-,%,\n")); /* undefined: no spread */
    free(t);
    render_repeated("json", &t);
    json_t *doc = parse(t);
    assert_int_equal(json_integer_value(json_object_get(doc, "runs")), 5);
    json_t *c0 = json_array_get(json_object_get(doc, "counters"), 0);
    assert_true(json_real_value(json_object_get(c0, "stddev")) == 3.0);
    assert_true(json_real_value(json_object_get(c0, "stddev_pct")) == 1.0);
    json_t *m = json_object_get(doc, "metrics");
    assert_true(json_real_value(json_object_get(json_array_get(m, R_RATE0), "stddev_pct")) == 2.0);
    assert_true(json_is_null(json_object_get(json_array_get(m, R_RATE1), "stddev")));
    assert_true(json_is_null(json_object_get(json_array_get(m, R_RATE1), "stddev_pct")));
    json_decref(doc);
    /* One run: no spread anywhere (the formats as they always were). */
    render_totals("csv", ',', 0, &t);
    assert_null(strstr(t, "stddev"));
    free(t);
    render_totals("json", ',', 0, &t);
    assert_null(strstr(t, "stddev"));
    free(t);
}

static void test_table_timeline(void **state)
{
    char *t;
    render_timeline("table", 0, &t);
    /* Units in the headers (none for a labelled metric; time in the interval's unit), one
     * precision per metric. */
    expect_text(t, "recording of 'fx' (dev), 3 samples, 3.000 us time elapsed\n\n"
                   "  time [us]  tile0.hit_rate [%]  tile1.hit_rate [%]  busier  flags\n"
                   "      1.000               75.00                   -   tile0  \n"
                   "      3.000               75.00                   -   tile0  missed=1 undef\n"
                   /* one footnote per flag word the rows used (issue 28) */
                   "\n  missed=N: N sampling intervals before this row have no sample of their own (the "
                   "sampler was late, or a recording's gap); the row's deltas cover them\n"
                   "  undef: the device flagged some of the row's values as undefined\n"
                   "\n  a hint for people\n");
}

static void test_table_timeline_without_metrics(void **state)
{
    /* No metric chosen: one column with the sum of all deltas. */
    fx f;
    fx_setup(&f);
    fx_open(&f, "table", ',', 0);
    fx_timeline(&f, NULL, 0);
    assert_non_null(strstr(fx_text(&f), "  time [us]           events  flags\n"
                                        "      1.000  123,456,789,417  \n"));
    fx_close(&f);
    fx_teardown(&f);
}

static void test_csv_totals_quoting(void **state)
{
    char *t;
    render_totals("csv", ';', 0, &t);
    expect_text(t, "type;name;instance;value;unit\n"
                   "counter;tile0.l2_hits;tile0;300;events\n"
                   "counter;tile0.l2_misses;tile0;100;events\n"
                   "counter;tile1.l2_hits;tile1;0;events\n"
                   "counter;tile1.l2_misses;tile1;0;events\n"
                   "counter;a_counter_with_a_rather_long_name;;123456789012;cycles\n"
                   "counter;tile1.odd;tile1;5;\"say \"\"hi\"\", twice\"\n"
                   "metric;hit_rate;tile0;75;%\n"
                   "metric;hit_rate;tile1;-;%\n"
                   "metric;hits;;300;events\n"
                   "metric;busier;;tile0;\n"
                   "metric;seventh;;42.857;\n"
                   "hotspot;tile0.l2_hits;tile0;300;events\n"
                   "hotspot;tile0.l2_misses;tile0;100;events\n");
    /* Only the active separator forces quotes: with ',' the comma in the unit does. */
    render_totals("csv", '|', 0, &t);
    assert_non_null(strstr(t, "counter|tile1.odd|tile1|5|\"say \"\"hi\"\", twice\"\n"));
    assert_non_null(strstr(t, "counter|tile0.l2_hits|tile0|300|events\n"));
    free(t);
}

static void test_csv_timeline(void **state)
{
    char *t;
    render_timeline("csv", 1, &t);
    /* Machine formats carry every result, as numbers (no labels; undefined is empty), and
     * no notes. */
    expect_text(t, "t_ns,interval_ns,flags,tile0.hit_rate,tile1.hit_rate,hits,busier,seventh,tile0.l2_hits,"
                   "tile0.l2_misses,tile1.l2_hits,tile1.l2_misses,a_counter_with_a_rather_long_name,tile1.odd\n"
                   "5000,1000,,75,,300,0,42.857,300,100,0,0,123456789012,5\n"
                   "7000,2000,missed=1 undef,75,,300,0,42.857,300,100,0,0,123456789012,5\n");
    render_timeline("csv", 0, &t);
    assert_non_null(strstr(t, "busier,seventh\n5000,1000,,75,,300,0,42.857\n"));
    free(t);
}

static void test_json_totals_types(void **state)
{
    char *t;
    render_totals("json", ',', 0, &t);
    json_t *doc = parse(t);
    assert_string_equal(json_string_value(json_object_get(doc, "kind")), "Stats");
    assert_string_equal(json_string_value(json_object_get(doc, "workload")), "w");
    assert_true(json_is_integer(json_object_get(doc, "elapsed_ns")));
    json_t *c = json_object_get(doc, "counters");
    assert_int_equal(json_array_size(c), NCTR); /* zero counters too, as perf prints them */
    assert_int_equal(json_integer_value(json_object_get(json_array_get(c, T1_HITS), "value")), 0);
    json_t *big = json_array_get(c, LONG);
    assert_true(json_is_integer(json_object_get(big, "value")));
    assert_int_equal(json_integer_value(json_object_get(big, "value")), 123456789012ll);
    assert_string_equal(json_string_value(json_object_get(json_array_get(c, ODD), "unit")), "say \"hi\", twice");
    json_t *m = json_object_get(doc, "metrics");
    assert_int_equal(json_array_size(m), NRES); /* machine formats hide nothing */
    assert_true(json_is_real(json_object_get(json_array_get(m, R_RATE0), "value")));
    assert_true(json_is_null(json_object_get(json_array_get(m, R_RATE1), "value")));
    json_t *busier = json_array_get(m, R_BUSIER);
    assert_true(json_is_real(json_object_get(busier, "value")));
    assert_string_equal(json_string_value(json_object_get(busier, "label")), "tile0");
    assert_null(json_object_get(json_array_get(m, R_HITS), "label"));
    json_t *h = json_object_get(doc, "hotspots");
    assert_int_equal(json_array_size(h), 2);
    assert_string_equal(json_string_value(json_object_get(json_array_get(h, 0), "name")), "tile0.l2_hits");
    json_decref(doc);
}

static void test_json_timeline(void **state)
{
    char *t;
    render_timeline("json", 1, &t);
    json_t *doc = parse(t);
    assert_null(json_object_get(doc, "kind"));
    assert_string_equal(json_string_value(json_object_get(doc, "device")), "dev");
    json_t *rows = json_object_get(doc, "intervals");
    assert_int_equal(json_array_size(rows), 2);
    json_t *r2 = json_array_get(rows, 1);
    assert_string_equal(json_string_value(json_object_get(r2, "flags")), "missed=1 undef");
    json_t *m = json_object_get(r2, "metrics");
    assert_int_equal(json_object_size(m), NRES);
    assert_true(json_is_null(json_object_get(m, "tile1.hit_rate")));
    assert_true(json_is_real(json_object_get(m, "seventh")));
    json_t *d = json_object_get(r2, "deltas");
    assert_int_equal(json_object_size(d), NCTR);
    assert_int_equal(json_integer_value(json_object_get(d, "a_counter_with_a_rather_long_name")), 123456789012ll);
    json_decref(doc);
    render_timeline("json", 0, &t);
    doc = parse(t);
    assert_null(json_object_get(json_array_get(json_object_get(doc, "intervals"), 0), "deltas"));
    json_decref(doc);
}

static void test_live_lines(void **state)
{
    char *t;
    render_timeline("live", 0, &t);
    /* The same decimals as report's table; an undefined value has no unit. */
    expect_text(t, "recording target 'fx', 6 counters every 1.000 us (real time)\n"
                   "     1.000 us  tile0.hit_rate=75.00%  tile1.hit_rate=-  busier=tile0\n"
                   "     3.000 us  tile0.hit_rate=75.00%  tile1.hit_rate=-  busier=tile0  MISSED 1 interval"
                   "  UNDEFINED values\n"
                   "a hint for people\n");
}

static void test_live_without_metric_values(void **state)
{
    fx f;
    fx_setup(&f);
    fx_open(&f, "live", ',', 0);
    smn_run_info run = {.doc = SOCMON_DOC_INTERVALS, .title = "recording", .target = "fx", .workload = "w",
                           .interval_ns = 2000000, .ncounters = NCTR, .simulated = 1};
    smn_interval_cols cols = {f.m, shown, 3, &fx_list, 0, NULL, NULL};
    assert_int_equal(smn_output_begin(f.out, &run), SOCMON_OK);
    assert_int_equal(smn_output_begin_intervals(f.out, &cols), SOCMON_OK);
    socmon_row r = {.t_ns = 9, .since_ns = 2000000, .dt_ns = 2000000, .flags = SOCMON_SAMPLE_MISSED, .missed = 3, .metrics = NULL, .deltas = fx_values};
    assert_int_equal(smn_output_row(f.out, &r), SOCMON_OK);
    assert_string_equal(fx_text(&f), "recording target 'fx', workload w, 6 counters every 2.000 ms (simulated time)\n"
                                     "     2.000 ms  events=123,456,789,417  MISSED 3 intervals\n");
    fx_close(&f);
    fx_teardown(&f);
}

/* Digits after the decimal point of the number that starts at p (0 without a point). */
static int decimals_at(const char *p)
{
    size_t n = strspn(p, "-0123456789,.");
    const char *dot = memchr(p, '.', n);
    return dot ? (int)(n - (size_t)(dot + 1 - p)) : 0;
}

/* Rows whose values differ in magnitude and in how many digits they would need. */
static void varied_timeline(fx *f, const char *format, int no_big_num, const size_t *sh, size_t nsh)
{
    static const double rate[] = {75, 100.0 / 3, 100, 0.5}, hits[] = {300, 1234567, 7, 0},
                        seventh[] = {42.857142, 1e6 / 7, 1, 0.25};
    smn_output_opts oo = {.sep = ',', .no_big_num = no_big_num};
    fx_open_opts(f, format, &oo);
    smn_run_info run = {.doc = SOCMON_DOC_INTERVALS, .title = "recording", .target = "fx", .device = "dev",
                           .interval_ns = 1000, .ncounters = NCTR, .recording = 1, .samples = 5, .simulated = 1};
    smn_interval_cols cols = {f->m, sh, nsh, &fx_list, 0, NULL, NULL};
    assert_int_equal(smn_output_begin(f->out, &run), SOCMON_OK);
    assert_int_equal(smn_output_begin_intervals(f->out, &cols), SOCMON_OK);
    for (size_t i = 0; i < 4; i++) {
        double mv[NRES] = {[R_RATE0] = rate[i], [R_RATE1] = NAN, [R_HITS] = hits[i], [R_BUSIER] = 0,
                           [R_SEVENTH] = seventh[i]};
        socmon_row r = {.t_ns = 1000 * (i + 1), .since_ns = 1000 * (i + 1), .dt_ns = 1000, .flags = 0, .missed = 0, .metrics = mv, .deltas = fx_values};
        assert_int_equal(smn_output_row(f->out, &r), SOCMON_OK);
    }
    assert_int_equal(smn_output_end_intervals(f->out), SOCMON_OK);
    assert_int_equal(smn_output_end(f->out), SOCMON_OK);
}

static void test_one_precision_per_metric(void **state)
{
    static const size_t sh[] = {R_RATE0, R_HITS, R_SEVENTH};
    /* '%' shows 2 decimals, events 0, seventh its file's "precision": 1, in every row of
     * report's table and of record's live lines alike. */
    static const int want[] = {2, 0, 1};
    fx f;
    fx_setup(&f);
    varied_timeline(&f, "table", 0, sh, 3);
    char *text = strdup(fx_text(&f));
    fx_close(&f);
    size_t rows = 0;
    for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
        char *p = line + strspn(line, " ");
        if (*p < '0' || *p > '9')
            continue; /* data rows only: "      1.000  75.00  300  42.9  " */
        p += strcspn(p, " ");
        for (size_t k = 0; k < 3; k++) {
            p += strspn(p, " ");
            assert_int_equal(decimals_at(p), want[k]);
            p += strcspn(p, " ");
        }
        rows++;
    }
    assert_int_equal(rows, 4);
    free(text);

    varied_timeline(&f, "live", 0, sh, 3);
    text = strdup(fx_text(&f));
    fx_close(&f);
    static const char *const names[] = {"tile0.hit_rate=", "hits=", "seventh="};
    rows = 0;
    for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
        if (!strstr(line, "hits="))
            continue;
        for (size_t k = 0; k < 3; k++)
            assert_int_equal(decimals_at(strstr(line, names[k]) + strlen(names[k])), want[k]);
        rows++;
    }
    assert_int_equal(rows, 4);
    free(text);
    fx_teardown(&f);
}

/* 1 if text holds a digit, a comma and a digit: a grouped number. */
static int has_grouped(const char *text)
{
    for (const char *p = strchr(text, ','); p; p = strchr(p + 1, ','))
        if (p > text && p[-1] >= '0' && p[-1] <= '9' && p[1] >= '0' && p[1] <= '9')
            return 1;
    return 0;
}

static void test_big_num(void **state)
{
    static const size_t sh[] = {R_RATE0, R_HITS, R_SEVENTH};
    fx f;
    fx_setup(&f);
    varied_timeline(&f, "table", 0, sh, 3);
    assert_non_null(strstr(fx_text(&f), "  1,234,567  "));
    assert_non_null(strstr(fx_text(&f), "  142,857.1  "));
    fx_close(&f);
    varied_timeline(&f, "live", 0, sh, 3);
    assert_non_null(strstr(fx_text(&f), "hits=1,234,567 events"));
    fx_close(&f);
    /* --no-big-num: the same numbers without separators, everywhere people read. */
    varied_timeline(&f, "table", 1, sh, 3);
    assert_non_null(strstr(fx_text(&f), "  1234567  "));
    assert_non_null(strstr(fx_text(&f), "  142857.1  "));
    assert_false(has_grouped(fx_text(&f)));
    fx_close(&f);
    varied_timeline(&f, "live", 1, sh, 3);
    assert_non_null(strstr(fx_text(&f), "hits=1234567 events"));
    assert_false(has_grouped(fx_text(&f)));
    fx_close(&f);
    smn_output_opts plain = {.sep = ',', .no_big_num = 1};
    fx_open_opts(&f, "table", &plain);
    fx_totals(&f);
    assert_non_null(strstr(fx_text(&f), "  a_counter_with_a_rather_long_name  123456789012  cycles\n"));
    assert_false(has_grouped(fx_text(&f)));
    fx_close(&f);
    fx_teardown(&f);
}

static void test_machine_formats_never_grouped(void **state)
{
    /* Grouping is on (the default), yet CSV and JSON keep plain numbers. */
    static const size_t sh[] = {R_RATE0, R_HITS, R_SEVENTH};
    const char *formats[] = {"csv", "json"};
    for (size_t i = 0; i < 2; i++) {
        char *t;
        render_totals(formats[i], ';', 0, &t);
        assert_non_null(strstr(t, "123456789012"));
        assert_null(strstr(t, "123,456"));
        free(t);
        fx f;
        fx_setup(&f);
        varied_timeline(&f, formats[i], 0, sh, 3);
        assert_non_null(strstr(fx_text(&f), "1234567"));
        assert_null(strstr(fx_text(&f), "1,234"));
        fx_close(&f);
        fx_teardown(&f);
    }
}

/* The column where each line's value ends, for every line of text between the line holding
 * `header` and the first line that does not start with two spaces and a letter. */
static void check_values_end_together(const char *text, const char *header, const char *value_hdr)
{
    const char *h = strstr(text, header);
    assert_non_null(h);
    const char *v = strstr(h, value_hdr);
    assert_non_null(v);
    long end = (long)(v - h) + (long)strlen(value_hdr);
    size_t rows = 0;
    for (const char *line = strchr(h, '\n') + 1; line[0] == ' ' && line[1] == ' ' && line[2] != '(';
         line = strchr(line, '\n') + 1) {
        /* The value is the last run of digits, separators and points ending before the unit's
         * two spaces; find where this line's number ends. */
        const char *p = line + end;
        assert_true(p[-1] != ' ');
        assert_true(p[0] == ' ' || p[0] == '\n');
        rows++;
    }
    assert_true(rows >= 2);
}

static void test_alignment_with_long_names(void **state)
{
    char *t;
    render_totals("table", ',', 1, &t);
    /* Right-aligned values all end under their header, however long a counter name is. */
    check_values_end_together(t, "  counter ", "value");
    check_values_end_together(t, "  metric ", "value");
    free(t);
    /* A long metric name in a timeline widens its column; every cell ends under it. */
    static const char file[] = "{\"metrics\": [{\"name\": \"a_metric_with_a_name_longer_than_any_value\","
                               " \"unit\": \"%\", \"expr\": \"100 * l2_hits / (l2_hits + l2_misses)\"}]}";
    fx f;
    fx_setup(&f);
    socmon_metricset *ms;
    socmon_metrics *m;
    assert_int_equal(socmon_metricset_load_string(file, "long", &ms), SOCMON_OK);
    socmon_metric_schema sch = {.ncounters = NCTR, .counters = fx_counters, .nparams = 0, .param_names = NULL, .param_values = NULL};
    assert_int_equal(socmon_metrics_bind(ms, &sch, &m), SOCMON_OK);
    fx_open(&f, "table", ',', 0);
    smn_run_info run = {.doc = SOCMON_DOC_INTERVALS, .target = "fx", .interval_ns = 1000};
    size_t sh[] = {0};
    smn_interval_cols cols = {m, sh, 1, &fx_list, 0, NULL, NULL};
    assert_int_equal(smn_output_begin(f.out, &run), SOCMON_OK);
    assert_int_equal(smn_output_begin_intervals(f.out, &cols), SOCMON_OK);
    double v[] = {100.0 / 3, 5, 100};
    for (size_t i = 0; i < 3; i++) {
        socmon_row r = {.t_ns = i + 1, .since_ns = 1000 * (i + 1), .dt_ns = 1000, .flags = 0, .missed = 0, .metrics = &v[i], .deltas = fx_values};
        assert_int_equal(smn_output_row(f.out, &r), SOCMON_OK);
    }
    assert_int_equal(smn_output_end_intervals(f.out), SOCMON_OK);
    assert_int_equal(smn_output_end(f.out), SOCMON_OK);
    check_values_end_together(fx_text(&f), "  time [us]  ", "a_metric_with_a_name_longer_than_any_value [%]");
    fx_close(&f);
    socmon_metrics_free(m);
    socmon_metricset_free(ms);
    fx_teardown(&f);
}

static void test_simulated_time(void **state)
{
    static const size_t sh[] = {R_RATE0};
    fx f;
    fx_setup(&f);
    varied_timeline(&f, "table", 0, sh, 1);
    assert_non_null(strstr(fx_text(&f), "recording of 'fx' (dev), 5 samples, 4.000 us simulated time elapsed\n"));
    fx_close(&f);
    fx_open(&f, "table", ',', 0);
    smn_run_info run = {.doc = SOCMON_DOC_TOTALS, .title = "S", .target = "fx", .elapsed_ns = 1234000,
                           .simulated = 1};
    assert_int_equal(smn_output_begin(f.out, &run), SOCMON_OK);
    assert_int_equal(smn_output_metrics(f.out, f.ms, f.m, f.mv), SOCMON_OK);
    assert_int_equal(smn_output_end(f.out), SOCMON_OK);
    assert_non_null(strstr(fx_text(&f), "\n       0.001234000 seconds simulated time elapsed\n"));
    fx_close(&f);
    fx_teardown(&f);
}

static void test_totals_say_over_the_run(void **state)
{
    /* A description written for one interval reads "the run" where the value is a total. */
    static const char file[] = "{\"metrics\": [{\"name\": \"hits_n\", \"unit\": \"events\", \"expr\": \"l2_hits\","
                               " \"desc\": \"L2 hits in the interval, all tiles\"}]}";
    socmon_metricset *ms;
    socmon_metrics *m;
    assert_int_equal(socmon_metricset_load_string(file, "desc", &ms), SOCMON_OK);
    socmon_metric_schema sch = {.ncounters = NCTR, .counters = fx_counters, .nparams = 0, .param_names = NULL, .param_values = NULL};
    assert_int_equal(socmon_metrics_bind(ms, &sch, &m), SOCMON_OK);
    double v = 300;
    fx f;
    fx_setup(&f);
    fx_open(&f, "table", ',', 0);
    smn_run_info run = {.doc = SOCMON_DOC_TOTALS, .title = "S", .target = "fx"};
    assert_int_equal(smn_output_begin(f.out, &run), SOCMON_OK);
    assert_int_equal(smn_output_metrics(f.out, ms, m, &v), SOCMON_OK);
    assert_int_equal(smn_output_end(f.out), SOCMON_OK);
    assert_non_null(strstr(fx_text(&f), " Metrics over the run:"));
    assert_non_null(strstr(fx_text(&f), "L2 hits in the run, all tiles"));
    assert_null(strstr(fx_text(&f), "in the interval"));
    fx_close(&f);
    socmon_metrics_free(m);
    socmon_metricset_free(ms);
    fx_teardown(&f);
}

static void test_hotspot_sections(void **state)
{
    fx f;
    fx_setup(&f);
    fx_open(&f, "table", ',', 0);
    smn_run_info run = {.doc = SOCMON_DOC_TOTALS, .title = "T", .target = "fx"};
    assert_int_equal(smn_output_begin(f.out, &run), SOCMON_OK);
    /* Matching counters that all read 0: the section says so. */
    assert_int_equal(smn_output_hotspots(f.out, &fx_list, fx_values, "tile1.l2_*", 10), SOCMON_OK);
    /* No counter of the selection matches: no section at all. */
    assert_int_equal(smn_output_hotspots(f.out, &fx_list, fx_values, "tile9.*", 10), SOCMON_OK);
    assert_int_equal(smn_output_hotspots(f.out, &fx_list, fx_values, NULL, 10), SOCMON_OK);
    assert_int_equal(smn_output_end(f.out), SOCMON_OK);
    assert_string_equal(fx_text(&f), "\n T for target 'fx':\n\n"
                                     "\n Hot spots over the run (largest tile1.l2_*):\n\n"
                                     "  none: every such counter read 0\n\n");
    fx_close(&f);
    fx_teardown(&f);
}

static void test_registry(void **state)
{
    const char *names[] = {"table", "csv", "json", "live", "prometheus", "openmetrics", "perfetto", "html",
                           "junit", "markdown", "parquet"};
    /* Human formats show the chosen metrics of a timeline; machine formats all of them. */
    int want[] = {1, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0};
    size_t nn = sizeof names / sizeof names[0], n = 0;
    char known[320] = "(known: ";
    while (smn_output_format_name(n))
        n++;
    assert_int_equal(n, nn);
    for (size_t i = 0; i < nn; i++) {
        assert_string_equal(smn_output_format_name(i), names[i]);
        assert_non_null(smn_output_format_find(names[i]));
        snprintf(known + strlen(known), sizeof known - strlen(known), "%s%s", names[i], i + 1 < nn ? ", " : ")");
    }
    assert_non_null(smn_output_format_find("html"));
    assert_null(smn_output_format_find("yaml"));
    smn_sink *s;
    smn_output *o = NULL;
    assert_int_equal(smn_sink_memory(&s), SOCMON_OK);
    assert_int_equal(smn_output_open("yaml", s, NULL, &o), SOCMON_ENOENT);
    assert_non_null(strstr(socmon_errmsg(), "'yaml' "));
    assert_non_null(strstr(socmon_errmsg(), known));
    assert_null(o);
    for (size_t i = 0; i < nn; i++) {
        assert_int_equal(smn_output_open(names[i], s, NULL, &o), SOCMON_OK);
        assert_int_equal(smn_output_selects_metrics(o), want[i]);
        smn_output_free(o);
    }
    assert_int_equal(smn_sink_close(s), SOCMON_OK);
}

static void test_call_order(void **state)
{
    fx f;
    fx_setup(&f);
    fx_open(&f, "json", ',', 0);
    smn_interval_cols cols = {f.m, shown, 3, &fx_list, 0, NULL, NULL};
    socmon_row row = {.t_ns = 1, .since_ns = 1, .dt_ns = 1, .flags = 0, .missed = 0, .metrics = f.mv, .deltas = fx_values};
    assert_int_equal(smn_output_counters(f.out, &fx_list, fx_values), SOCMON_ESTATE);
    assert_non_null(strstr(socmon_errmsg(), "begin was not called"));
    smn_run_info run = {.doc = SOCMON_DOC_INTERVALS, .target = "fx"};
    assert_int_equal(smn_output_begin(f.out, NULL), SOCMON_EINVAL);
    assert_int_equal(smn_output_begin(f.out, &run), SOCMON_OK);
    assert_int_equal(smn_output_begin(f.out, &run), SOCMON_ESTATE);
    assert_int_equal(smn_output_row(f.out, &row), SOCMON_ESTATE);
    size_t bad[] = {NRES};
    smn_interval_cols badcols = {f.m, bad, 1, &fx_list, 0, NULL, NULL};
    assert_int_equal(smn_output_begin_intervals(f.out, &badcols), SOCMON_ERANGE);
    assert_int_equal(smn_output_begin_intervals(f.out, &cols), SOCMON_OK);
    assert_int_equal(smn_output_counters(f.out, &fx_list, fx_values), SOCMON_ESTATE);
    assert_int_equal(smn_output_end(f.out), SOCMON_ESTATE);
    assert_int_equal(smn_output_row(f.out, &row), SOCMON_OK);
    assert_int_equal(smn_output_end_intervals(f.out), SOCMON_OK);
    assert_int_equal(smn_output_end(f.out), SOCMON_OK);
    assert_int_equal(smn_output_note(f.out, "late"), SOCMON_ESTATE);
    assert_int_equal(smn_output_end(f.out), SOCMON_ESTATE);
    fx_close(&f);
    fx_teardown(&f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_table_totals),
        cmocka_unit_test(test_table_totals_deltas),
        cmocka_unit_test(test_repeated_runs),
        cmocka_unit_test(test_table_timeline),
        cmocka_unit_test(test_table_timeline_without_metrics),
        cmocka_unit_test(test_csv_totals_quoting),
        cmocka_unit_test(test_csv_timeline),
        cmocka_unit_test(test_json_totals_types),
        cmocka_unit_test(test_json_timeline),
        cmocka_unit_test(test_live_lines),
        cmocka_unit_test(test_live_without_metric_values),
        cmocka_unit_test(test_hotspot_sections),
        cmocka_unit_test(test_one_precision_per_metric),
        cmocka_unit_test(test_big_num),
        cmocka_unit_test(test_machine_formats_never_grouped),
        cmocka_unit_test(test_alignment_with_long_names),
        cmocka_unit_test(test_simulated_time),
        cmocka_unit_test(test_totals_say_over_the_run),
        cmocka_unit_test(test_registry),
        cmocka_unit_test(test_call_order),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
