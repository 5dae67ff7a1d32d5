/* Sweeps (src/results/sweep_grid.c, sweep.c, sweep_read.c, export/fmt_sweep.c): brace expansion
 * and grid order, sweep files, the grid's identity, shards, every error a grid can have; the
 * table's rows from runs, merging, and its CSV and JSON written and read back to the same rows. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "export/output.h"
#include "run_files.h"
#include "socmon/sweep.h"

static socmon_sweep_grid *grid(const char *const *targets, size_t n, const char *workloads,
                               const char *const *programs, size_t np)
{
    socmon_sweep_spec s = {.size = sizeof s, .targets = targets, .ntargets = n, .workloads = workloads,
                           .programs = programs, .nprograms = np};
    socmon_sweep_grid *g = NULL;
    assert_int_equal(socmon_sweep_grid_new(&s, &g), SOCMON_OK);
    return g;
}

static void expect_error(const char *target, const char *workloads, const char *msg)
{
    socmon_sweep_spec s = {.size = sizeof s, .targets = &target, .ntargets = 1, .workloads = workloads};
    socmon_sweep_grid *g = NULL;
    assert_int_equal(socmon_sweep_grid_new(&s, &g), SOCMON_EINVAL);
    assert_null(g);
    if (!strstr(socmon_errmsg(), msg))
        fail_msg("'%s': message '%s' lacks '%s'", target, socmon_errmsg(), msg);
}

static void cross_product_in_order(void **state)
{
    (void)state;
    const char *t[] = {"ibex:config={small,maxperf},rv32m={slow,fast}"};
    const char *progs[] = {"a.elf", "b.elf"};
    socmon_sweep_grid *g = grid(t, 1, NULL, progs, 2);
    assert_int_equal(socmon_sweep_grid_count(g), 8);
    static const char *const want[] = {"ibex:config=small,rv32m=slow", "ibex:config=small,rv32m=fast",
                                       "ibex:config=maxperf,rv32m=slow", "ibex:config=maxperf,rv32m=fast"};
    for (size_t i = 0; i < 8; i++) {
        const socmon_sweep_point *p = socmon_sweep_grid_point(g, i);
        assert_int_equal(p->index, i);
        assert_string_equal(p->target, want[i / 2]);
        assert_string_equal(p->program, progs[i % 2]);
        assert_null(p->workload);
        assert_int_equal(p->noptions, 2);
        assert_string_equal(p->options[0].key, "config");
        assert_string_equal(p->options[1].key, "rv32m");
    }
    assert_null(socmon_sweep_grid_point(g, 8));
    socmon_sweep_grid_free(g);

    const char *e[] = {"esp:soc={esp_2x3,esp_4x4}", "zynq"};
    g = grid(e, 2, "multifft,idle", NULL, 0);
    assert_int_equal(socmon_sweep_grid_count(g), 6);
    assert_string_equal(socmon_sweep_grid_point(g, 1)->workload, "idle");
    assert_string_equal(socmon_sweep_grid_point(g, 2)->target, "esp:soc=esp_4x4");
    assert_string_equal(socmon_sweep_grid_point(g, 5)->target, "zynq");
    assert_int_equal(socmon_sweep_grid_point(g, 5)->noptions, 0);
    /* a brace inside a value, with text around it */
    const char *b[] = {"esp:soc=esp_{2x3,4x4}"};
    socmon_sweep_grid *g2 = grid(b, 1, NULL, NULL, 0);
    assert_string_equal(socmon_sweep_grid_point(g2, 1)->options[0].value, "esp_4x4");
    socmon_sweep_grid_free(g2);
    socmon_sweep_grid_free(g);
}

static void identity(void **state)
{
    (void)state;
    const char *t[] = {"esp:soc={esp_2x3,esp_4x4}"}, *t2[] = {"esp:soc={esp_4x4,esp_2x3}"};
    socmon_sweep_grid *a = grid(t, 1, "multifft", NULL, 0), *b = grid(t, 1, "multifft", NULL, 0);
    socmon_sweep_grid *c = grid(t2, 1, "multifft", NULL, 0), *d = grid(t, 1, "idle", NULL, 0);
    assert_int_equal(strlen(socmon_sweep_grid_id(a)), 16);
    assert_string_equal(socmon_sweep_grid_id(a), socmon_sweep_grid_id(b));
    assert_string_not_equal(socmon_sweep_grid_id(a), socmon_sweep_grid_id(c));   /* other order */
    assert_string_not_equal(socmon_sweep_grid_id(a), socmon_sweep_grid_id(d));
    const char *args[] = {"-I", "1ms"};
    socmon_sweep_spec s = {.size = sizeof s, .targets = t, .ntargets = 1, .workloads = "multifft", .run_args = args,
                           .nrun_args = 2};
    socmon_sweep_grid *e = NULL;
    assert_int_equal(socmon_sweep_grid_new(&s, &e), SOCMON_OK);
    assert_string_not_equal(socmon_sweep_grid_id(a), socmon_sweep_grid_id(e));   /* run options count */
    assert_int_equal(socmon_sweep_grid_nrun_args(e), 2);
    assert_string_equal(socmon_sweep_grid_run_args(e)[1], "1ms");
    socmon_sweep_grid_free(a);
    socmon_sweep_grid_free(b);
    socmon_sweep_grid_free(c);
    socmon_sweep_grid_free(d);
    socmon_sweep_grid_free(e);
}

static void grid_errors(void **state)
{
    (void)state;
    expect_error("esp:soc={a,b", NULL, "the '{' at column 9 is never closed");
    expect_error("esp:soc=a}", NULL, "'}' at column 10 closes no '{'");
    expect_error("esp:soc={a,{b}}", NULL, "braces inside braces");
    expect_error("esp:soc={}", NULL, "an empty choice in {}");
    expect_error("esp:soc={a,,b}", NULL, "an empty choice");
    expect_error("esp:{soc,nope}=x", NULL, "unknown option 'nope'");
    expect_error("esp:speed={1,2}", NULL, "unknown option 'speed' (valid: soc,");
    expect_error("nosuch:x={1,2}", NULL, "unknown target 'nosuch' (known: esp,");
    expect_error("esp:soc", NULL, "option 'soc' is not key=value");
    expect_error("esp", "", "the grid would have no point");
    expect_error("esp", "multifft,,idle", "an empty workload name");
    expect_error("", NULL, "is empty");
    socmon_sweep_spec s = {.size = sizeof s};
    socmon_sweep_grid *g = NULL;
    assert_int_equal(socmon_sweep_grid_new(&s, &g), SOCMON_EINVAL);
    assert_non_null(strstr(socmon_errmsg(), "no target"));
    assert_int_equal(socmon_sweep_grid_new(NULL, &g), SOCMON_EINVAL);
}

static void sweep_files(void **state)
{
    (void)state;
    const char *text = "# ESP sizes\n  target  esp:soc={esp_2x3,esp_4x4}   # two\n\nworkload multifft\n"
                       "workloads idle, acc_sweep\nrun -I 1ms\n";
    socmon_sweep_grid *g = NULL;
    assert_int_equal(socmon_sweep_grid_parse(text, strlen(text), "x.sweep", &g), SOCMON_OK);
    assert_int_equal(socmon_sweep_grid_count(g), 6);
    assert_string_equal(socmon_sweep_grid_point(g, 5)->workload, "acc_sweep");
    assert_int_equal(socmon_sweep_grid_nrun_args(g), 2);
    /* the same grid from options has the same id */
    const char *t[] = {"esp:soc={esp_2x3,esp_4x4}"}, *args[] = {"-I", "1ms"};
    socmon_sweep_spec s = {.size = sizeof s, .targets = t, .ntargets = 1, .workloads = "multifft,idle,acc_sweep",
                           .run_args = args, .nrun_args = 2};
    socmon_sweep_grid *h = NULL;
    assert_int_equal(socmon_sweep_grid_new(&s, &h), SOCMON_OK);
    assert_string_equal(socmon_sweep_grid_id(g), socmon_sweep_grid_id(h));
    socmon_sweep_grid_free(g);
    socmon_sweep_grid_free(h);
    static const struct { const char *text, *msg; } bad[] = {
        {"", "no 'target SPEC' line"},
        {"workload multifft\n", "no 'target SPEC' line"},
        {"target esp\nspeed 3\n", "x.sweep:2: unknown key 'speed'"},
        {"target\n", "x.sweep:1: 'target' has no value"},
        {"target esp:soc={a\n", "x.sweep: -t esp:soc={a: the '{'"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        g = NULL;
        assert_int_equal(socmon_sweep_grid_parse(bad[i].text, strlen(bad[i].text), "x.sweep", &g), SOCMON_EINVAL);
        if (!strstr(socmon_errmsg(), bad[i].msg))
            fail_msg("'%s': '%s' lacks '%s'", bad[i].text, socmon_errmsg(), bad[i].msg);
    }
    assert_int_equal(socmon_sweep_grid_parse("target esp\0x", 12, "x.sweep", &g), SOCMON_EINVAL);
    assert_int_equal(socmon_sweep_grid_load("/nonexistent/x.sweep", &g), SOCMON_ENOENT);
}

static void shards(void **state)
{
    (void)state;
    unsigned k, n;
    assert_int_equal(socmon_sweep_shard_parse("3/4", &k, &n), SOCMON_OK);
    assert_int_equal(k, 3);
    assert_int_equal(n, 4);
    assert_int_equal(socmon_sweep_shard_parse("1/1", &k, &n), SOCMON_OK);
    static const char *const bad[] = {"3/2", "0/2", "2", "/2", "1/", "a/b", "1/2x", "-1/2", "1/-2", " 1/2", "1/0",
                                      "99999999999999999999/1"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        assert_int_equal(socmon_sweep_shard_parse(bad[i], &k, &n), SOCMON_EINVAL);
        assert_non_null(strstr(socmon_errmsg(), "expected K/N"));
    }
    assert_non_null((socmon_sweep_shard_parse("3/2", &k, &n), strstr(socmon_errmsg(), "K is above N")));
}

/* A table of two points from stat documents; point 1 failed. */
static socmon_sweep *two_points(socmon_sweep_grid **gout)
{
    const char *t[] = {"esp:soc={esp_2x3,esp_4x4}"};
    socmon_sweep_grid *g = grid(t, 1, "multifft", NULL, 0);
    socmon_run *run = load("p0.json", "{\"target\": \"esp\", \"counters\": [{\"name\": \"t0.hits\", \"value\": "
                                      "9007199254740993}, {\"name\": \"cycles\", \"value\": 7}], \"metrics\": "
                                      "[{\"name\": \"rate\", \"instance\": \"t0\", \"value\": 0.1}, {\"name\": "
                                      "\"bw\", \"value\": null}, {\"name\": \"odd\", \"value\": 1e300}]}");
    socmon_sweep *s = NULL;
    assert_int_equal(socmon_sweep_new(socmon_sweep_grid_id(g), socmon_sweep_grid_count(g), &s), SOCMON_OK);
    assert_int_equal(socmon_sweep_set(s, socmon_sweep_grid_point(g, 1), NULL, "soc \"x\", not found\n(really)", NULL),
                     SOCMON_OK);
    assert_int_equal(socmon_sweep_set(s, socmon_sweep_grid_point(g, 0), run, NULL, "d/point-0000.rec"), SOCMON_OK);
    socmon_run_free(run);
    *gout = g;
    return s;
}

static void table_rows(void **state)
{
    (void)state;
    socmon_sweep_grid *g;
    socmon_sweep *s = two_points(&g);
    assert_int_equal(socmon_sweep_count(s), 2);
    assert_int_equal(socmon_sweep_total(s), 2);
    const socmon_sweep_row *r0 = socmon_sweep_row_at(s, 0), *r1 = socmon_sweep_row_at(s, 1);
    assert_int_equal(r0->point.index, 0);   /* kept in point order, whatever the order set */
    assert_true(r0->ok);
    assert_string_equal(r0->recording, "d/point-0000.rec");
    assert_int_equal(r0->nvalues, 5);
    assert_int_equal(r0->values[0].i, 9007199254740993LL);
    assert_string_equal(r0->values[2].key, "t0.rate");
    assert_false(r0->values[3].defined);
    assert_false(r1->ok);
    assert_non_null(strstr(r1->error, "not found"));
    assert_ptr_equal(socmon_sweep_find(s, 1), r1);
    assert_null(socmon_sweep_find(s, 2));
    /* a point beyond the grid */
    socmon_sweep_point p = *socmon_sweep_grid_point(g, 0);
    p.index = 2;
    assert_int_equal(socmon_sweep_set(s, &p, NULL, "x", NULL), SOCMON_EINVAL);
    socmon_sweep_free(s);
    socmon_sweep_grid_free(g);
}

/* s written in format and read back. */
static socmon_sweep *round_trip(const socmon_sweep *s, const char *format, char **text)
{
    smn_sink *sink;
    smn_output *o;
    assert_int_equal(smn_sink_memory(&sink), SOCMON_OK);
    assert_int_equal(smn_output_open(format, sink, NULL, &o), SOCMON_OK);
    assert_int_equal(smn_output_sweep(o, s), SOCMON_OK);
    assert_int_equal(smn_output_end(o), SOCMON_OK);
    size_t len;
    const char *data = smn_sink_memory_data(sink, &len);
    *text = strdup(data);
    socmon_sweep *back = NULL;
    if (socmon_sweep_parse(data, len, "t", &back) != SOCMON_OK)
        fail_msg("%s read back: %s\n%s", format, socmon_errmsg(), data);
    smn_output_free(o);
    smn_sink_close(sink);
    return back;
}

static void assert_same_rows(const socmon_sweep *a, const socmon_sweep *b)
{
    assert_string_equal(socmon_sweep_id(a), socmon_sweep_id(b));
    assert_int_equal(socmon_sweep_total(a), socmon_sweep_total(b));
    assert_int_equal(socmon_sweep_count(a), socmon_sweep_count(b));
    for (size_t i = 0; i < socmon_sweep_count(a); i++) {
        const socmon_sweep_row *x = socmon_sweep_row_at(a, i), *y = socmon_sweep_row_at(b, i);
        assert_string_equal(x->point.target, y->point.target);
        assert_int_equal(x->ok, y->ok);
        assert_int_equal(x->point.noptions, y->point.noptions);
        if (x->error)
            assert_string_equal(x->error, y->error);
        assert_int_equal(x->nvalues, y->nvalues);
        for (size_t k = 0; k < x->nvalues; k++) {
            assert_string_equal(x->values[k].key, y->values[k].key);
            assert_int_equal(x->values[k].defined, y->values[k].defined);
            assert_int_equal(x->values[k].kind, y->values[k].kind);
            if (x->values[k].integer)
                assert_int_equal(x->values[k].i, y->values[k].i);
            else if (x->values[k].defined)
                assert_true(x->values[k].v == y->values[k].v);   /* %.17g: exact */
        }
    }
}

static void csv_and_json_round_trip(void **state)
{
    (void)state;
    socmon_sweep_grid *g;
    socmon_sweep *s = two_points(&g);
    char *csv, *json;
    socmon_sweep *c = round_trip(s, "csv", &csv), *j = round_trip(s, "json", &json);
    assert_same_rows(s, c);
    assert_same_rows(s, j);
    assert_non_null(strstr(csv, "point,sweep,points,target,workload,program,status,error,recording,option:soc,"
                                "counter:t0.hits,counter:cycles,metric:t0.rate,metric:bw,metric:odd\n"));
    assert_non_null(strstr(csv, ",9007199254740993,7,0.10000000000000001,null,1.0000000000000001e+300\n"));
    assert_non_null(strstr(csv, ",failed,\"soc \"\"x\"\", not found\n(really)\","));   /* quoted */
    assert_non_null(strstr(json, "\"counters\": {\n        \"t0.hits\": 9007199254740993"));
    assert_non_null(strstr(json, "\"bw\": null"));
    free(csv);
    free(json);
    socmon_sweep_free(c);
    socmon_sweep_free(j);
    socmon_sweep_free(s);
    socmon_sweep_grid_free(g);
}

static void merging(void **state)
{
    (void)state;
    socmon_sweep_grid *g;
    socmon_sweep *s = two_points(&g), *a = NULL, *b = NULL;
    assert_int_equal(socmon_sweep_new(socmon_sweep_id(s), 2, &a), SOCMON_OK);
    assert_int_equal(socmon_sweep_merge(a, s, "s"), SOCMON_OK);
    assert_int_equal(socmon_sweep_merge(a, s, "s"), SOCMON_OK);   /* the same rows again: fine */
    assert_same_rows(a, s);
    /* a failed point is replaced by the same point run elsewhere; never the other way round */
    socmon_sweep *ok1 = NULL;
    assert_int_equal(socmon_sweep_new(socmon_sweep_id(s), 2, &ok1), SOCMON_OK);
    socmon_run *run = load("p1.json", "{\"counters\": [{\"name\": \"cycles\", \"value\": 8}]}");
    assert_int_equal(socmon_sweep_set(ok1, socmon_sweep_grid_point(g, 1), run, NULL, NULL), SOCMON_OK);
    assert_int_equal(socmon_sweep_merge(a, ok1, "ok1"), SOCMON_OK);
    assert_true(socmon_sweep_find(a, 1)->ok);
    assert_int_equal(socmon_sweep_merge(a, s, "s"), SOCMON_OK);
    assert_true(socmon_sweep_find(a, 1)->ok);
    /* two different results for one point */
    socmon_run *run2 = load("p2.json", "{\"counters\": [{\"name\": \"cycles\", \"value\": 9}]}");
    assert_int_equal(socmon_sweep_set(ok1, socmon_sweep_grid_point(g, 1), run2, NULL, NULL), SOCMON_OK);
    assert_int_equal(socmon_sweep_merge(a, ok1, "ok1"), SOCMON_EINVAL);
    assert_non_null(strstr(socmon_errmsg(), "ok1: point 1 (esp:soc=esp_4x4) is in two tables with different values"));
    /* another grid, another total */
    assert_int_equal(socmon_sweep_new("0123456789abcdef", 2, &b), SOCMON_OK);
    assert_int_equal(socmon_sweep_merge(a, b, "b.csv"), SOCMON_EINVAL);
    assert_non_null(strstr(socmon_errmsg(), "b.csv is a table of another sweep (grid 0123456789abcdef"));
    socmon_sweep_free(b);
    assert_int_equal(socmon_sweep_new(socmon_sweep_id(s), 3, &b), SOCMON_OK);
    assert_int_equal(socmon_sweep_merge(a, b, "b"), SOCMON_EINVAL);
    assert_non_null(strstr(socmon_errmsg(), "the sweep has 3 points there, 2 here"));
    socmon_run_free(run);
    socmon_run_free(run2);
    socmon_sweep_free(b);
    socmon_sweep_free(ok1);
    socmon_sweep_free(a);
    socmon_sweep_free(s);
    socmon_sweep_grid_free(g);
}

static void damaged_tables(void **state)
{
    (void)state;
    static const struct { const char *text, *msg; } bad[] = {
        {"", "empty"},
        {"{\"points\": []}", "not a table of socmon sweep"},
        {"{\"sweep\": {\"id\": \"a\", \"points\": 1}, \"points\": [{\"point\": 0}]}", "points[0] lacks"},
        {"{\"sweep\": {\"id\": \"a\", \"points\": 1}, \"points\": [{\"point\": 3, \"target\": \"x\", \"status\": "
         "\"ok\"}]}", "point 3 is beyond the sweep's 1 points"},
        {"{\"sweep\": {\"id\": \"a\", \"points\": 1}, \"points\": [{\"point\": 0, \"target\": \"x\", \"status\": "
         "\"ok\", \"counters\": {\"c\": \"7\"}}]}", "points[0].counters.c is not a number"},
        {"{\"sweep\": {\"id\": \"a\", \"points\": 1}, \"points\": [{\"point\": 0, \"target\": \"x\", \"status\": "
         "\"ok\", \"options\": {\"k\": 1}}]}", "points[0].options.k is not a string"},
        {"{\"sweep\": {", "not valid JSON"},
        {"a,b\n1,2\n", "its header has 2 columns"},
        {"a,b,c,d,e,f,g,h,i\n1,2\n", "column 1 is 'a', not 'point'"},
        {"point,sweep,points,target,workload,program,status,error,recording\n", "a header and no point"},
        {"point,sweep,points,target,workload,program,status,error,recording,x\n", "column 10 'x' is neither"},
        {"point,sweep,points,target,workload,program,status,error,recording\n0,a,1,esp,,,ok,,,\n", ":2: 10 fields, the header has 9"},
        {"point,sweep,points,target,workload,program,status,error,recording\nx,a,1,esp,,,ok,,\n", "point 'x' is not a number"},
        {"point,sweep,points,target,workload,program,status,error,recording,counter:c\n0,a,1,esp,,,ok,,,1.5\n",
         "counter:c '1.5' is not a number"},
        {"point,sweep,points,target,workload,program,status,error,recording\n0,a,2,esp,,,ok,,\n1,b,2,esp,,,ok,,\n",
         ":3: the row is of sweep b, the table's first of a"},
        {"point,sweep,points,target,workload,program,status,error,recording\n0,a,1,\"esp,,,ok,,\n", "a bad quote"},
        {"point,sweep,points,target,workload,program,status,error,recording\n0,a,1,\"e\"x,,,ok,,\n", "a bad quote"},
        {"point,sweep,points,target,workload,program,status,error,recording,counter:c,counter:c\n", "appears twice"},
        {"point,sweep,points,target,workload,program,status,error,recording,counter:\xff\n", "not clean UTF-8"},
        {"point,sweep,points,target,workload,program,status,error,recording\n0,a b,1,esp,,,ok,,\n", "sweep id 'a b' is not"},
        /* one point twice with different values within one table (issue 37): refused, as across tables */
        {"point,sweep,points,target,workload,program,status,error,recording,counter:c\n0,a,1,esp,,,ok,,,1\n"
         "0,a,1,esp,,,ok,,,2\n", "t.csv:3: point 0 (esp) is in the table twice with different values"},
        {"{\"sweep\": {\"id\": \"a\", \"points\": 1}, \"points\": [{\"point\": 0, \"target\": \"x\", \"status\": "
         "\"ok\", \"counters\": {\"c\": 1}}, {\"point\": 0, \"target\": \"x\", \"status\": \"ok\", \"counters\": "
         "{\"c\": 2}}]}", "points[1]: point 0 (x) is in the table twice with different values"},
        {"po\0nt", "a NUL byte"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        socmon_sweep *s = NULL;
        size_t len = i == sizeof bad / sizeof bad[0] - 1 ? 5 : strlen(bad[i].text);
        assert_int_equal(socmon_sweep_parse(bad[i].text, len, "t.csv", &s), SOCMON_EINVAL);
        assert_null(s);
        if (!strstr(socmon_errmsg(), bad[i].msg) || strncmp(socmon_errmsg(), "t.csv", 5) != 0)
            fail_msg("table %zu: '%s' lacks '%s'", i, socmon_errmsg(), bad[i].msg);
    }
    socmon_sweep *s = NULL;
    assert_int_equal(socmon_sweep_load("/nonexistent/t.csv", &s), SOCMON_ENOENT);
    /* a failed row without its error still reads as failed */
    const char *ok = "point,sweep,points,target,workload,program,status,error,recording\r\n0,a,1,esp,,,failed,,\r\n\r\n";
    assert_int_equal(socmon_sweep_parse(ok, strlen(ok), "t.csv", &s), SOCMON_OK);
    assert_false(socmon_sweep_row_at(s, 0)->ok);
    assert_string_equal(socmon_sweep_row_at(s, 0)->error, "failed");
    socmon_sweep_free(s);
    /* within one table as across tables: the same row twice is one row; a point that ran beats the same
     * point failed, in either order */
    static const char *const twice[] = {
        "point,sweep,points,target,workload,program,status,error,recording,counter:c\n0,a,1,esp,,,ok,,,1\n0,a,1,esp,,,ok,,,1\n",
        "point,sweep,points,target,workload,program,status,error,recording,counter:c\n0,a,1,esp,,,failed,x,,\n0,a,1,esp,,,ok,,,1\n",
        "point,sweep,points,target,workload,program,status,error,recording,counter:c\n0,a,1,esp,,,ok,,,1\n0,a,1,esp,,,failed,x,,\n",
    };
    for (size_t i = 0; i < sizeof twice / sizeof twice[0]; i++) {
        s = NULL;
        assert_int_equal(socmon_sweep_parse(twice[i], strlen(twice[i]), "t.csv", &s), SOCMON_OK);
        assert_int_equal(socmon_sweep_count(s), 1);
        assert_true(socmon_sweep_row_at(s, 0)->ok);
        assert_int_equal(socmon_sweep_row_at(s, 0)->values[0].i, 1);
        socmon_sweep_free(s);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(cross_product_in_order), cmocka_unit_test(identity),
        cmocka_unit_test(grid_errors),            cmocka_unit_test(sweep_files),
        cmocka_unit_test(shards),                 cmocka_unit_test(table_rows),
        cmocka_unit_test(csv_and_json_round_trip), cmocka_unit_test(merging),
        cmocka_unit_test(damaged_tables),
    };
    return cmocka_run_group_tests(tests, make_dir, remove_dir);
}
