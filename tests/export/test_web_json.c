/* The web page's JSON (export/web_json.c) and the html format (export/fmt_html.c): row text,
 * the ESP layout, the info object, and the page the html format writes (assets inlined, the
 * data parseable, long timelines merged with sums and gaps kept, totals refused). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "export/output_fixture.h"
#include "export/web_assets.h"
#include "export/web_json.h"
#include "socmon/status.h"
#include "socmon/sample.h"
#include "socmon/target.h"

static void test_row_text(void **state)
{
    (void)state;
    double m[] = {1.5, NAN, INFINITY, 123456789.0, -0.25};
    uint64_t d[] = {0, 18446744073709551615ull};
    char buf[256];
    size_t n = smn_web_row_text(buf, sizeof buf, 7, 2000, 1000, SOCMON_SAMPLE_MISSED, 3, m, 5, d, 2, NULL);
    assert_string_equal(buf, "{\"seq\":7,\"t_ns\":2000,\"dt_ns\":1000,\"flags\":1,\"missed\":3,"
                             "\"m\":[1.5,null,null,123456789,-0.25],\"d\":[0,18446744073709551615]}");
    assert_int_equal(n, strlen(buf));
    /* too small a buffer: cut and terminated, and the length it needs */
    char small[12];
    assert_int_equal(smn_web_row_text(small, sizeof small, 7, 2000, 1000, 1, 3, m, 5, d, 2, NULL), n);
    assert_int_equal(strlen(small), sizeof small - 1);
    assert_memory_equal(small, buf, sizeof small - 1);
    assert_int_equal(smn_web_row_text(NULL, 0, 7, 2000, 1000, 1, 3, m, 5, d, 2, NULL), n);
    /* no metrics, no deltas */
    smn_web_row_text(buf, sizeof buf, 0, 1, 1, 0, 0, NULL, 0, NULL, 0, NULL);
    assert_string_equal(buf, "{\"seq\":0,\"t_ns\":1,\"dt_ns\":1,\"flags\":0,\"missed\":0,\"m\":[],\"d\":[]}");
    /* a note on the values, escaped for a script */
    smn_web_row_text(buf, sizeof buf, 0, 1, 1, 0, 0, NULL, 0, NULL, 0, "implausible=cpu0.ccnt </script>\"");
    assert_string_equal(buf, "{\"seq\":0,\"t_ns\":1,\"dt_ns\":1,\"flags\":0,\"missed\":0,\"m\":[],\"d\":[],"
                             "\"note\":\"implausible=cpu0.ccnt \\u003c/script\\u003e\\u0022\"}");
}

/* A 2x2 ESP: tile0 cpu (l2), tile1 mem (ddr), tile2 acc (acc + l2), tile3 io (noc only). */
static const socmon_counter esp_c[] = {
    {.name = "l2_hits", .instance = "tile0", .unit = "events", .width = 32},
    {.name = "ddr_accesses", .instance = "tile1", .unit = "events", .width = 32},
    {.name = "acc_tot_cycles", .instance = "tile2", .unit = "cycles", .width = 32},
    {.name = "l2_hits", .instance = "tile2", .unit = "events", .width = 32},
    {.name = "noc_inj_p0", .instance = "tile3", .unit = "packets", .width = 32},
};
static const char *const esp_n[] = {"tile0.l2_hits", "tile1.ddr_accesses", "tile2.acc_tot_cycles", "tile2.l2_hits",
                                    "tile3.noc_inj_p0"};
static const smn_counter_list esp_list = {5, esp_c, esp_n, NULL, 0, NULL};
static const char *const esp_pn[] = {"clock_hz", "rows", "cols", "noc_planes"};
static const double esp_pv[] = {78e6, 2, 2, 6};

static void test_layout(void **state)
{
    (void)state;
    json_t *l = smn_web_layout_json(socmon_target_lookup("esp"), "esp:soc=x", &esp_list, 4, esp_pn, esp_pv);
    assert_non_null(l);
    assert_string_equal(json_string_value(json_object_get(l, "kind")), "esp-grid");
    assert_int_equal(json_integer_value(json_object_get(l, "cols")), 2);
    assert_int_equal(json_integer_value(json_object_get(l, "rows")), 2);
    assert_int_equal(json_integer_value(json_object_get(l, "planes")), 6);
    json_t *tiles = json_object_get(l, "tiles");
    assert_int_equal(json_array_size(tiles), 4);
    const char *types[] = {"cpu", "mem", "acc", "io"};
    for (int t = 0; t < 4; t++) {
        json_t *e = json_array_get(tiles, (size_t)t);
        char inst[16];
        snprintf(inst, sizeof inst, "tile%d", t);
        assert_string_equal(json_string_value(json_object_get(e, "instance")), inst);
        assert_int_equal(json_integer_value(json_object_get(e, "x")), t % 2);
        assert_int_equal(json_integer_value(json_object_get(e, "y")), t / 2);
        assert_string_equal(json_string_value(json_object_get(e, "type")), types[t]);
    }
    json_decref(l);
    /* no grid facts: no grid; another target: its name */
    l = smn_web_layout_json(socmon_target_lookup("esp"), "esp", &esp_list, 1, esp_pn, esp_pv);
    assert_string_equal(json_string_value(json_object_get(l, "kind")), "esp");
    assert_null(json_object_get(l, "tiles"));
    json_decref(l);
    l = smn_web_layout_json(socmon_target_lookup("zynq"), "zynq:slots=2", &fx_list, 0, NULL, NULL);
    assert_string_equal(json_string_value(json_object_get(l, "kind")), "zynq");
    json_decref(l);
    /* the ESP grid, but no declaration to ask: no grid */
    l = smn_web_layout_json(NULL, "esp:soc=x", &esp_list, 4, esp_pn, esp_pv);
    assert_string_equal(json_string_value(json_object_get(l, "kind")), "esp");
    json_decref(l);
}

/* A target of the user's own with a grid op: the layout is whatever the op says, whatever the
 * target's name (the export compares no name). A 1x3 strip, kind "strip", tile i "lane<2-i>". */
static size_t strip_grid(const socmon_counter *c, size_t nc, size_t np, const char *const *pn, const double *pv,
                         socmon_grid *g, socmon_grid_tile *t, size_t max)
{
    (void)c, (void)nc, (void)np, (void)pn, (void)pv;
    *g = (socmon_grid){.kind = "strip", .rows = 1, .cols = 3, .planes = 2};
    for (size_t i = 0; i < 3 && i < max; i++) {
        snprintf(t[i].instance, sizeof t[i].instance, "lane%zu", 2 - i);
        t[i].x = (unsigned)i;
        t[i].y = 0;
        t[i].type = i ? "slow" : "fast";
    }
    return 3;
}

static void test_layout_from_op(void **state)
{
    (void)state;
    static const socmon_target_ops strip_ops = {.name = "strip", .desc = "a user's target", .grid = strip_grid};
    json_t *l = smn_web_layout_json(&strip_ops, "whatever:a=1", &fx_list, 0, NULL, NULL);
    assert_non_null(l);
    assert_string_equal(json_string_value(json_object_get(l, "kind")), "strip");
    assert_int_equal(json_integer_value(json_object_get(l, "cols")), 3);
    assert_int_equal(json_integer_value(json_object_get(l, "rows")), 1);
    assert_int_equal(json_integer_value(json_object_get(l, "planes")), 2);
    json_t *tiles = json_object_get(l, "tiles");
    assert_int_equal(json_array_size(tiles), 3);
    json_t *e = json_array_get(tiles, 2);
    assert_string_equal(json_string_value(json_object_get(e, "instance")), "lane0");
    assert_int_equal(json_integer_value(json_object_get(e, "x")), 2);
    assert_string_equal(json_string_value(json_object_get(e, "type")), "slow");
    json_decref(l);
}

static void test_info(void **state)
{
    (void)state;
    fx f;
    fx_setup(&f);
    const char *pn[] = {"clock_hz"};
    double pv[] = {1e9};
    smn_web_info_in in = {"fx:a=1", "dev", 1000, 1, &fx_list, f.m, 1, pn, pv, NULL, NULL, 0};
    json_t *info = smn_web_info_json(&in);
    assert_non_null(info);
    assert_int_equal(json_integer_value(json_object_get(info, "version")), 1);
    assert_string_equal(json_string_value(json_object_get(info, "target")), "fx:a=1");
    assert_string_equal(json_string_value(json_object_get(info, "device")), "dev");
    assert_int_equal(json_integer_value(json_object_get(info, "interval_ns")), 1000);
    assert_true(json_is_true(json_object_get(info, "simulated")));
    assert_true(json_real_value(json_object_get(json_object_get(info, "params"), "clock_hz")) == 1e9);
    assert_string_equal(json_string_value(json_object_get(json_object_get(info, "layout"), "kind")), "fx");
    assert_null(json_object_get(info, "phases"));   /* a run without phases has no member */
    socmon_phase ph[] = {{.name = "llc_coherent", .t0_ns = 5, .t1_ns = 9}};
    smn_web_info_in inp = in;
    inp.phases = ph;
    inp.nphases = 1;
    json_t *withp = smn_web_info_json(&inp);
    json_t *p0 = json_array_get(json_object_get(withp, "phases"), 0);
    assert_string_equal(json_string_value(json_object_get(p0, "name")), "llc_coherent");
    assert_int_equal(json_integer_value(json_object_get(p0, "t0_ns")), 5);
    assert_int_equal(json_integer_value(json_object_get(p0, "t1_ns")), 9);
    json_decref(withp);
    json_t *c = json_object_get(info, "counters");
    assert_int_equal(json_array_size(c), NCTR);
    json_t *odd = json_array_get(c, ODD);
    assert_string_equal(json_string_value(json_object_get(odd, "name")), "tile1.odd");
    assert_string_equal(json_string_value(json_object_get(odd, "instance")), "tile1");
    assert_string_equal(json_string_value(json_object_get(odd, "counter")), "odd");
    assert_string_equal(json_string_value(json_object_get(odd, "unit")), "say \"hi\", twice");
    assert_int_equal(json_integer_value(json_object_get(odd, "width")), 32);
    /* one entry per metric result, in the order rows carry their values */
    json_t *m = json_object_get(info, "metrics");
    assert_int_equal(json_array_size(m), socmon_metrics_nresults(f.m));
    int labelled = 0;
    for (size_t i = 0; i < json_array_size(m); i++) {
        json_t *e = json_array_get(m, i);
        const socmon_metric_result_info *r = socmon_metrics_result(f.m, i);
        char full[160];
        snprintf(full, sizeof full, "%s%s%s", r->instance, *r->instance ? "." : "", r->def->name);
        assert_string_equal(json_string_value(json_object_get(e, "name")), full);
        assert_string_equal(json_string_value(json_object_get(e, "metric")), r->def->name);
        assert_non_null(json_object_get(e, "precision"));
        if (strcmp(r->def->name, "busier") == 0) {
            labelled = 1;
            assert_string_equal(json_string_value(json_array_get(json_object_get(e, "labels"), 1)), "tile1");
        } else {
            assert_null(json_object_get(e, "labels"));
        }
        if (strcmp(r->def->name, "seventh") == 0)
            assert_int_equal(json_integer_value(json_object_get(e, "precision")), 1);
    }
    assert_true(labelled);
    json_decref(info);
    /* no target: an error with a message */
    in.target = NULL;
    assert_null(smn_web_info_json(&in));
    assert_non_null(strstr(socmon_errmsg(), "need a target"));
    fx_teardown(&f);
}

/* The JSON of the page's window.SOCMON_DATA. */
static json_t *page_data(const char *text)
{
    const char *lead = "window.SOCMON_DATA = ";
    const char *a = strstr(text, lead);
    assert_non_null(a);
    assert_null(strstr(a + 1, lead));
    a += strlen(lead);
    const char *b = strstr(a, ";\n</script>");
    assert_non_null(b);
    json_error_t err;
    json_t *j = json_loadb(a, (size_t)(b - a), 0, &err);
    if (!j)
        fail_msg("page data does not parse: %s at %d", err.text, err.position);
    assert_null(memchr(a, '<', (size_t)(b - a)));
    return j;
}

static void test_html_page(void **state)
{
    (void)state;
    fx f;
    fx_setup(&f);
    fx_open(&f, "html", ',', 0);
    size_t shown[] = {0};
    fx_timeline(&f, shown, 1);
    const char *text = fx_text(&f);
    /* every asset inlined: nothing for an offline browser to fetch */
    assert_null(strstr(text, "src=\"assets/"));
    assert_null(strstr(text, "href=\"assets/"));
    assert_non_null(strstr(text, "leeoniya/uPlot"));   /* uPlot, with its banner and licence */
    assert_non_null(strstr(text, "MIT License"));
    assert_non_null(strstr(text, "window.socmonHeatmap"));
    assert_true(strstr(text, "window.SOCMON_DATA") < strstr(text, "socmon's chart page: reads the run"));
    json_t *d = page_data(text);
    assert_string_equal(json_string_value(json_object_get(json_object_get(d, "info"), "target")), "fx");
    json_t *rows = json_object_get(d, "rows");
    assert_int_equal(json_array_size(rows), 2);
    json_t *r2 = json_array_get(rows, 1);
    assert_int_equal(json_integer_value(json_object_get(r2, "flags")), SOCMON_SAMPLE_MISSED | SOCMON_SAMPLE_UNDEF);
    assert_int_equal(json_integer_value(json_object_get(r2, "missed")), 1);
    assert_int_equal(json_integer_value(json_object_get(r2, "dt_ns")), 2000);
    /* a few counters: all their deltas, in info.counters order */
    json_t *names = json_object_get(d, "counters");
    assert_int_equal(json_array_size(names), NCTR);
    assert_int_equal(json_integer_value(json_array_get(json_object_get(r2, "d"), LONG)), (json_int_t)fx_values[LONG]);
    /* the row's own metric values when nothing is merged (NaN as null) */
    json_t *m = json_object_get(r2, "m");
    assert_int_equal(json_array_size(m), socmon_metrics_nresults(f.m));
    for (size_t i = 0; i < json_array_size(m); i++)
        if (isnan(f.mv[i]))
            assert_true(json_is_null(json_array_get(m, i)));
        else
            assert_true(fabs(json_number_value(json_array_get(m, i)) - f.mv[i]) <= 1e-6 * fabs(f.mv[i]));
    assert_int_equal(json_integer_value(json_object_get(d, "merge")), 1);
    json_decref(d);
    fx_close(&f);
    fx_teardown(&f);
}

/* 9,000 intervals: the format asks for 3 to a row (at most 4,000 rows; the analysis pipeline
 * merges them, tests/analysis/test_pipeline.c) and writes each merged row it is given as it is:
 * its time, deltas and metric values, the interval count from the rows' indices. */
static void test_html_merges(void **state)
{
    (void)state;
    fx f;
    fx_setup(&f);
    fx_open(&f, "html", ',', 0);
    enum { N = 9000 };
    smn_run_info run = {.doc = SOCMON_DOC_INTERVALS, .title = "recording", .target = "fx", .interval_ns = 1000,
                           .recording = 1, .samples = N + 1};
    smn_interval_cols cols = {.metrics = f.m, .counters = &fx_list};
    assert_int_equal(smn_output_begin(f.out, &run), SOCMON_OK);
    assert_int_equal(smn_output_begin_intervals(f.out, &cols), SOCMON_OK);
    assert_int_equal(smn_output_merge(f.out), 3);
    double mv[64];
    for (size_t i = 0; i < socmon_metrics_nresults(f.m); i++)
        mv[i] = (double)i + 0.5;
    for (size_t i = 0; i < N / 3; i++) {
        uint64_t dv[NCTR] = {[T0_HITS] = i, [T0_MISS] = 3};
        socmon_row r = {.t_ns = 3000 * (i + 1), .since_ns = 3000 * (i + 1), .dt_ns = 3000, .metrics = mv,
                       .deltas = dv, .index = 3 * i + 2, .intervals = 3};
        assert_int_equal(smn_output_row(f.out, &r), SOCMON_OK);
    }
    assert_int_equal(smn_output_end_intervals(f.out), SOCMON_OK);
    assert_int_equal(smn_output_end(f.out), SOCMON_OK);
    json_t *d = page_data(fx_text(&f));
    json_t *rows = json_object_get(d, "rows");
    assert_int_equal(json_array_size(rows), N / 3);
    assert_int_equal(json_integer_value(json_object_get(d, "merge")), 3);
    assert_int_equal(json_integer_value(json_object_get(d, "intervals")), N);
    assert_non_null(strstr(json_string_value(json_array_get(json_object_get(d, "notes"), 0)), "merged"));
    json_t *last = json_array_get(rows, N / 3 - 1);
    assert_int_equal(json_integer_value(json_object_get(last, "dt_ns")), 3000);
    assert_int_equal(json_integer_value(json_array_get(json_object_get(last, "d"), T0_HITS)), N / 3 - 1);
    assert_true(fabs(json_number_value(json_array_get(json_object_get(last, "m"), 1)) - 1.5) < 1e-9);
    json_decref(d);
    fx_close(&f);
    fx_teardown(&f);
}

static void test_html_refuses_totals(void **state)
{
    (void)state;
    fx f;
    fx_setup(&f);
    fx_open(&f, "html", ',', 0);
    smn_run_info run = {.doc = SOCMON_DOC_TOTALS, .title = "Stats", .target = "fx"};
    assert_int_equal(smn_output_begin(f.out, &run), SOCMON_EINVAL);
    assert_non_null(strstr(socmon_errmsg(), "totals has no html form"));
    fx_close(&f);
    fx_teardown(&f);
}

/* A program's profile adds a flame graph: its call tree as window.SOCMON_PROFILE after the data
 * (names whatever their bytes: markup stays inside a JSON string with no '<', bytes that are
 * not UTF-8 are shown escaped; counts signed modulo their width), then flame.css and flame.js.
 * Without a profile the page has none of it. */
static void test_html_flame(void **state)
{
    (void)state;
    socmon_profile *p = NULL;
    assert_int_equal(socmon_profile_new(2, 3, 0, 3, 0, &p), SOCMON_OK);
    p->program = strdup("/some/dir/prog.elf");
    p->events[0] = strdup("instret");
    p->events[1] = strdup("cycles");
    p->widths[0] = 64;
    p->widths[1] = 32;
    p->funcs[0].name = strdup("_unknown");
    p->funcs[1].name = strdup("main");
    p->funcs[2].name = strdup("</script><img src=x onerror=window.PWNED=1>\"\xff");
    p->nodes[1] = (socmon_profile_node){.parent = 0, .func = 1, .calls = 1, .v = p->nodes[1].v};
    p->nodes[2] = (socmon_profile_node){.parent = 1, .func = 2, .calls = 7, .trap = 1, .v = p->nodes[2].v};
    p->nodes[1].v[0] = 5, p->nodes[1].v[1] = 100;
    p->nodes[2].v[0] = 3, p->nodes[2].v[1] = 0xFFFFFFF0u;   /* -16 in 32 bits */
    p->total[0] = 8, p->total[1] = 84;

    fx f;
    fx_setup(&f);
    fx_open(&f, "html", ',', 0);
    smn_run_info run = {.doc = SOCMON_DOC_INTERVALS, .title = "recording", .target = "fx", .device = "dev",
                           .interval_ns = 1000, .ncounters = NCTR, .recording = 1, .samples = 2, .profile = p};
    smn_interval_cols cols = {.metrics = f.m, .counters = &fx_list};
    socmon_row r1 = {.t_ns = 1000, .since_ns = 1000, .dt_ns = 1000, .metrics = f.mv, .deltas = fx_values};
    assert_int_equal(smn_output_begin(f.out, &run), SOCMON_OK);
    assert_int_equal(smn_output_begin_intervals(f.out, &cols), SOCMON_OK);
    assert_int_equal(smn_output_row(f.out, &r1), SOCMON_OK);
    assert_int_equal(smn_output_end_intervals(f.out), SOCMON_OK);
    assert_int_equal(smn_output_end(f.out), SOCMON_OK);
    const char *text = fx_text(&f);
    json_decref(page_data(text));
    assert_null(strstr(text, "<img"));
    const char *lead = "window.SOCMON_PROFILE = ";
    const char *a = strstr(text, lead);
    assert_non_null(a);
    assert_null(strstr(a + 1, lead));
    assert_true(strstr(text, "window.SOCMON_DATA") < a);
    a += strlen(lead);
    const char *b = strstr(a, ";\n</script>");
    assert_non_null(b);
    assert_null(memchr(a, '<', (size_t)(b - a)));
    json_error_t err;
    json_t *j = json_loadb(a, (size_t)(b - a), 0, &err);
    if (!j)
        fail_msg("profile data does not parse: %s at %d", err.text, err.position);
    assert_string_equal(json_string_value(json_object_get(j, "program")), "prog.elf");
    assert_int_equal(json_integer_value(json_object_get(j, "event")), 1);   /* cycles */
    assert_int_equal(json_integer_value(json_array_get(json_object_get(j, "widths"), 1)), 32);
    json_t *funcs = json_object_get(j, "funcs");
    assert_string_equal(json_string_value(json_array_get(funcs, 2)),
                        "</script><img src=x onerror=window.PWNED=1>\"\\xff");
    json_t *nodes = json_object_get(j, "nodes");
    assert_int_equal(json_array_size(nodes), 3);
    json_t *n2 = json_array_get(nodes, 2);
    assert_int_equal(json_integer_value(json_array_get(n2, 0)), 1);
    assert_int_equal(json_integer_value(json_array_get(n2, 1)), 2);
    assert_int_equal(json_integer_value(json_array_get(n2, 2)), 7);
    assert_true(json_is_true(json_array_get(n2, 3)));
    assert_int_equal(json_integer_value(json_array_get(json_array_get(n2, 4), 0)), 3);
    assert_int_equal(json_integer_value(json_array_get(json_array_get(n2, 4), 1)), -16);
    assert_int_equal(json_integer_value(json_array_get(json_object_get(j, "total"), 1)), 84);
    json_decref(j);
    /* the script and its stylesheet, after the data */
    assert_non_null(strstr(b, "window.socmonFlame"));
    assert_non_null(strstr(b, ".flame-graph"));
    fx_close(&f);
    fx_teardown(&f);
    socmon_profile_free(p);

    /* no profile: no flame graph at all */
    fx_setup(&f);
    fx_open(&f, "html", ',', 0);
    fx_timeline(&f, NULL, 0);
    assert_null(strstr(fx_text(&f), "SOCMON_PROFILE"));
    assert_null(strstr(fx_text(&f), "socmonFlame"));
    assert_null(strstr(fx_text(&f), "flame-graph"));
    fx_close(&f);
    fx_teardown(&f);
}

static void test_assets(void **state)
{
    (void)state;
    const char *want[] = {"index.html", "socmon.js", "socmon.css", "dashboards.js", "heatmap.js", "axis.js", "phases.js",
                          "diff.html", "diff.js", "flame.js", "flame.css", "units.js", "legend.js", "summary.js",
                          "uPlot.iife.min.js", "uPlot.min.css"};
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        size_t len = 0;
        const char *mime = NULL;
        const unsigned char *a = smn_web_asset(want[i], &len, &mime);
        assert_non_null(a);
        assert_true(len > 100);
        assert_int_equal(a[len], 0);
        assert_non_null(strstr(mime, strstr(want[i], ".js") ? "javascript" : strstr(want[i], ".css") ? "css" : "html"));
    }
    size_t n = 0;
    while (smn_web_asset_name(n))
        n++;
    assert_int_equal(n, sizeof want / sizeof want[0]);
    size_t len = 5;
    assert_null(smn_web_asset("../CMakeLists.txt", &len, NULL));
    assert_int_equal(len, 0);
    assert_null(smn_web_asset(NULL, NULL, NULL));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_row_text),   cmocka_unit_test(test_layout), cmocka_unit_test(test_layout_from_op),
        cmocka_unit_test(test_info),       cmocka_unit_test(test_html_page),
        cmocka_unit_test(test_html_merges), cmocka_unit_test(test_html_refuses_totals),
        cmocka_unit_test(test_html_flame), cmocka_unit_test(test_assets),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
