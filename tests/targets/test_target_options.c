/* Target options as tables (one parser, one help) and the public handles of
 * an open target (its bus and its model). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "socmon/esp.h"
#include "socmon/tensix.h"
#include "models/zynq/zynq_model.h"
#include "socmon/socmon.h"

typedef struct opts {
    int on;
    uint64_t count;
    double rate;
    const char *file, *name, *items;
    unsigned mode;
} opts;

static const char *const modes[] = {"fast", "slow", "exact", NULL};
static const char *const two[] = {"1", "64", NULL};

static const socmon_option table[] = {
    {.name = "on", .type = SOCMON_OPT_BOOL, .help = "switch", .def = "1",
        .offset = offsetof(opts, on)},
    {.name = "count", .type = SOCMON_OPT_UINT, .help = "how many", .def = "5", .lo = 1, .hi = 8,
     .offset = offsetof(opts, count)},
    {.name = "rate", .type = SOCMON_OPT_DOUBLE, .help = "how fast", .def = "2.5", .lo = 0,
        .hi = 1e6,
     .offset = offsetof(opts, rate)},
    {.name = "file", .type = SOCMON_OPT_PATH, .help = "where", .offset = offsetof(opts, file)},
    {.name = "name", .type = SOCMON_OPT_STRING, .help = "who", .def = "x",
        .offset = offsetof(opts, name)},
    {.name = "items", .type = SOCMON_OPT_LIST, .help = "what", .hi = 3,
        .offset = offsetof(opts, items)},
    {.name = "mode", .type = SOCMON_OPT_CHOICE, .help = "how", .def = "slow", .choices = modes,
     .offset = offsetof(opts, mode)},
    {0},
};

static socmon_status parse1(const char *key, const char *value, opts *o, uint64_t *given)
{
    socmon_kv kv = {.key = key, .value = value};
    memset(o, 0, sizeof *o);
    return socmon_options_parse("demo", table, &kv, 1, o, given);
}

static void expect_bad(const char *key, const char *value, socmon_status want, const char *msg)
{
    opts o;
    socmon_clear_error();
    assert_int_equal(parse1(key, value, &o, NULL), want);
    if (strcmp(socmon_errmsg(), msg) != 0)
        fail_msg("%s=%s: message '%s', want '%s'", key, value, socmon_errmsg(), msg);
}

static void test_defaults_and_values(void **state)
{
    (void)state;
    opts o;
    memset(&o, 0, sizeof o);   /* options without a default keep what is there */
    uint64_t given = 99;
    assert_int_equal(socmon_options_parse("demo", table, NULL, 0, &o, &given), SOCMON_OK);
    assert_int_equal(given, 0);
    assert_int_equal(o.on, 1);
    assert_int_equal(o.count, 5);
    assert_true(o.rate == 2.5);
    assert_null(o.file);
    assert_string_equal(o.name, "x");
    assert_int_equal(o.mode, 1);

    socmon_kv kv[] = {{.key = "count", .value = "0x3"}, {.key = "on", .value = "0"}, {.key = "mode",
        .value = "exact"}, {.key = "items", .value = "a+b+c"},
                      {.key = "rate", .value = "1e3"}, {.key = "file", .value = "-"}};
    assert_int_equal(socmon_options_parse("demo", table, kv, 6, &o, &given), SOCMON_OK);
    assert_int_equal(o.count, 3);
    assert_int_equal(o.on, 0);
    assert_int_equal(o.mode, 2);
    assert_string_equal(o.items, "a+b+c");
    assert_true(o.rate == 1000.0);
    assert_string_equal(o.file, "-");
    assert_int_equal(given, 0x6f);  /* on, count, rate, file, items, mode: all but name */
}

static void test_errors_name_value_and_range(void **state)
{
    (void)state;
    expect_bad("count", "9", SOCMON_ERANGE, "demo: count=9 out of range 1..8");
    expect_bad("count", "-1", SOCMON_ERANGE, "demo: count=-1 out of range 1..8");
    expect_bad("count", "2.5", SOCMON_EINVAL, "demo: count=2.5 is not a whole number");
    expect_bad("count", "", SOCMON_EINVAL, "demo: count= is not a whole number");
    expect_bad("rate", "fast", SOCMON_EINVAL, "demo: rate=fast is not a number");
    expect_bad("rate", "-1", SOCMON_ERANGE, "demo: rate=-1 out of range 0..1e+06");
    expect_bad("rate", "inf", SOCMON_EINVAL, "demo: rate=inf is not a number");
    expect_bad("on", "yes", SOCMON_EINVAL, "demo: on=yes must be 0 or 1");
    expect_bad("mode", "slowest", SOCMON_EINVAL, "demo: mode=slowest must be one of fast, slow, exact");
    expect_bad("file", "", SOCMON_EINVAL, "demo: file= needs a file name");
    expect_bad("items", "+", SOCMON_EINVAL, "demo: items=+ is empty (items joined by '+')");
    expect_bad("items", "a+b+c+d", SOCMON_ERANGE, "demo: items=a+b+c+d: more than 3 items");
    expect_bad("colour", "red", SOCMON_EINVAL,
               "target 'demo': unknown option 'colour' (valid: on, count, rate, file, name, items, mode)");
    /* a choice of two reads as "A or B" */
    static const socmon_option t2[] = {
        {.name = "div", .type = SOCMON_OPT_CHOICE, .choices = two, .offset = 0}, {0}};
    unsigned v = 7;
    socmon_kv kv = {.key = "div", .value = "8"};
    assert_int_equal(socmon_options_parse("demo", t2, &kv, 1, &v, NULL), SOCMON_EINVAL);
    assert_string_equal(socmon_errmsg(), "demo: div=8 must be 1 or 64");
}

/* A key given twice is refused, naming it and both values: neither "the first" nor "the
 * last counts" is what every user means (issue 23). */
static void test_key_given_twice(void **state)
{
    (void)state;
    opts o;
    socmon_kv kv[] = {{.key = "count", .value = "3"}, {.key = "on", .value = "0"}, {.key = "count",
        .value = "4"}};
    assert_int_equal(socmon_options_parse("demo", table, kv, 3, &o, NULL), SOCMON_EINVAL);
    assert_string_equal(socmon_errmsg(), "demo: option 'count' given twice (count=3, then count=4)");
    kv[2].value = "3";   /* the same value twice too: a slip worth hearing about */
    assert_int_equal(socmon_options_parse("demo", table, kv, 3, &o, NULL), SOCMON_EINVAL);
}

/* Whole numbers are read exactly, never through a double (which holds them only up to
 * 2^53), and checked against the range's whole numbers (issue 23: zynq:seed= above its
 * maximum was rounded to it and accepted). */
enum { BIG_ANY, BIG_53 };
typedef struct big {
    uint64_t any, upto53;
} big;
static const socmon_option bigs[] = {
    {.name = "any", .type = SOCMON_OPT_UINT, .help = "any", .offset = offsetof(big, any)},
    {.name = "upto53", .type = SOCMON_OPT_UINT, .help = "as zynq's seed", .lo = 0,
        .hi = 9007199254740992.0,
     .offset = offsetof(big, upto53)},
    {0},
};

static uint64_t big_ok(const char *key, const char *value)
{
    big b = {0, 0};
    socmon_kv kv = {.key = key, .value = value};
    if (socmon_options_parse("demo", bigs, &kv, 1, &b, NULL) != SOCMON_OK)
        fail_msg("%s=%s: %s", key, value, socmon_errmsg());
    return strcmp(key, "any") == 0 ? b.any : b.upto53;
}

static void big_bad(const char *key, const char *value, socmon_status want, const char *msg)
{
    big b = {0, 0};
    socmon_kv kv = {.key = key, .value = value};
    socmon_clear_error();
    assert_int_equal(socmon_options_parse("demo", bigs, &kv, 1, &b, NULL), want);
    if (strcmp(socmon_errmsg(), msg) != 0)
        fail_msg("%s=%s: message '%s', want '%s'", key, value, socmon_errmsg(), msg);
}

static void test_whole_numbers_exact(void **state)
{
    (void)state;
    /* the maximum, and one more, however written */
    assert_true(big_ok("upto53", "9007199254740992") == 9007199254740992ull);
    assert_true(big_ok("upto53", "0x20000000000000") == 9007199254740992ull);
    big_bad("upto53", "9007199254740993", SOCMON_ERANGE,
            "demo: upto53=9007199254740993 out of range 0..9007199254740992");
    big_bad("upto53", "9.007199254740993e15", SOCMON_ERANGE,
            "demo: upto53=9.007199254740993e15 out of range 0..9007199254740992");
    big_bad("upto53", "0x20000000000001", SOCMON_ERANGE,
            "demo: upto53=0x20000000000001 out of range 0..9007199254740992");
    big_bad("upto53", "18446744073709551616", SOCMON_ERANGE,
            "demo: upto53=18446744073709551616 out of range 0..9007199254740992");
    /* past 2^53, every digit counts, in every notation */
    assert_true(big_ok("any", "9007199254740993") == 9007199254740993ull);
    assert_true(big_ok("any", "9007199254740993e0") == 9007199254740993ull);
    assert_true(big_ok("any", "900719925474099.3e1") == 9007199254740993ull);
    assert_true(big_ok("any", "12345678901234567891") == 12345678901234567891ull);
    assert_true(big_ok("any", "18446744073709551615") == UINT64_MAX);
    assert_true(big_ok("any", "0xFFFFFFFFFFFFFFFF") == UINT64_MAX);
    assert_true(big_ok("any", "1.8446744073709551615e19") == UINT64_MAX);
    big_bad("any", "18446744073709551616", SOCMON_ERANGE,
            "demo: any=18446744073709551616 out of range 0..18446744073709551615");
    big_bad("any", "0x10000000000000000", SOCMON_ERANGE,
            "demo: any=0x10000000000000000 out of range 0..18446744073709551615");
    big_bad("any", "1e20", SOCMON_ERANGE, "demo: any=1e20 out of range 0..18446744073709551615");
    big_bad("any", "-1", SOCMON_ERANGE, "demo: any=-1 out of range 0..18446744073709551615");
    /* other notations of whole numbers, and what is not one */
    assert_true(big_ok("any", "1e3") == 1000);
    assert_true(big_ok("any", "2.5e3") == 2500);
    assert_true(big_ok("any", "250e-1") == 25);
    assert_true(big_ok("any", "3.000") == 3);
    assert_true(big_ok("any", "0e99999999") == 0);
    assert_true(big_ok("any", "010") == 10);   /* decimal, never octal */
    assert_true(big_ok("any", "100000000000000000000e-10") == 10000000000ull);
    static const char *const not_whole[] = {"2.5", "25e-1", "25e-1x", "1e", "e3", ".", "0x", "0xg", " 5", "5 ", "+5",
                                            "1e-1", "1..2", "0.0000000000000000000001", "", "1e+", "abc"};
    for (size_t i = 0; i < sizeof not_whole / sizeof not_whole[0]; i++) {
        char msg[96];
        snprintf(msg, sizeof msg, "demo: any=%s is not a whole number", not_whole[i]);
        big_bad("any", not_whole[i], SOCMON_EINVAL, msg);
    }
}

static void test_help_comes_from_the_table(void **state)
{
    (void)state;
    size_t need = socmon_options_help(table, "  ", NULL, 0);
    char *buf = malloc(need + 1);
    assert_non_null(buf);
    assert_int_equal(socmon_options_help(table, "  ", buf, need + 1), need);
    assert_int_equal(strlen(buf), need);
    assert_non_null(strstr(buf, "  count=N    how many (1..8; default 5)\n"));
    assert_non_null(strstr(buf, "  mode=NAME  how (one of fast, slow, exact; default slow)\n"));
    assert_non_null(strstr(buf, "  on=0|1     switch (default 1)\n"));
    assert_non_null(strstr(buf, "  file=FILE  where\n"));
    /* a short buffer is cut, never overrun, and the length needed still returned */
    char small[10];
    assert_int_equal(socmon_options_help(table, "  ", small, sizeof small), need);
    assert_int_equal(strlen(small), sizeof small - 1);
    free(buf);
    /* every option of every built-in target appears in its help */
    for (size_t i = 0; i < socmon_target_count(); i++) {
        const socmon_target_ops *ops = socmon_target_at(i);
        char text[4096];
        assert_true(socmon_options_help(ops->options, "", text, sizeof text) < sizeof text);
        for (const socmon_option *o = ops->options; o && o->name; o++) {
            char key[64];
            snprintf(key, sizeof key, "%s=", o->name);
            if (!strstr(text, key))
                fail_msg("%s: option %s missing from its help", ops->name, o->name);
            assert_non_null(o->help);
        }
    }
}

static void open_fails(const char *spec, socmon_status want, const char *msg)
{
    socmon_target *t = NULL;
    assert_int_equal(socmon_target_open(spec, &t), want);
    assert_null(t);
    if (!strstr(socmon_errmsg(), msg))
        fail_msg("'%s': message '%s' lacks '%s'", spec, socmon_errmsg(), msg);
}

/* The built-in targets' tables give the messages. */
static void test_builtin_messages(void **state)
{
    (void)state;
    open_fails("zynq:slots=9", SOCMON_ERANGE, "zynq: slots=9 out of range 1..8");
    open_fails("zynq:ccnt_div=8", SOCMON_EINVAL, "zynq: ccnt_div=8 must be 1 or 64");
    open_fails("zynq:hw=2", SOCMON_EINVAL, "zynq: hw=2 must be 0 or 1");
    open_fails("zynq:pmu_events=1+2+3+4+5+6+7", SOCMON_ERANGE, "more than 6 items");
    open_fails("esp:devmem=2", SOCMON_EINVAL, "esp: devmem=2 must be 0 or 1");
    open_fails("esp:base=0x3", SOCMON_EINVAL, "esp: base=0x3 is not a 4-byte-aligned address");
    open_fails("esp:trace_bus=", SOCMON_EINVAL, "esp: trace_bus= needs a file name");
    open_fails("tensix:tiles=0", SOCMON_ERANGE, "tensix: tiles '0' out of range 1..16777216");
    open_fails("zynq:wr_mbps=1,wr_mbps=2", SOCMON_EINVAL,
               "target 'zynq': option 'wr_mbps' given twice (wr_mbps=1, then wr_mbps=2)");
    open_fails("zynq:seed=9007199254740993", SOCMON_ERANGE, "zynq: seed=9007199254740993 out of range 0..9007199254740992");
    open_fails("zynq:seed=9.007199254740993e15", SOCMON_ERANGE,
               "zynq: seed=9.007199254740993e15 out of range 0..9007199254740992");
    open_fails("zynq:seed=18446744073709551616", SOCMON_ERANGE,
               "zynq: seed=18446744073709551616 out of range 0..9007199254740992");
    open_fails("esp:base=-4", SOCMON_EINVAL, "esp: base=-4 is not a 4-byte-aligned address");
    open_fails("esp:base=0x100000000000000000", SOCMON_EINVAL,
               "esp: base=0x100000000000000000 is not a 4-byte-aligned address");
    open_fails("tensix:nope=1", SOCMON_EINVAL,
               "target 'tensix': unknown option 'nope' (valid: tiles, format, fidelity, bound, platform, "
               "l1_mux, counters, trace_bus, driver)");
    /* socmon_target_open_ops checks keys too, before the target's open runs */
    socmon_target *t = NULL;
    socmon_kv kv = {.key = "colour", .value = "red"};
    assert_int_equal(socmon_target_open_ops(socmon_target_lookup("esp"), &kv, 1, &t), SOCMON_EINVAL);
    assert_null(t);
    assert_non_null(strstr(socmon_errmsg(), "unknown option 'colour' (valid: soc, base, devmem, dev, trace_bus, driver)"));
}

/* The spec, the extra options and socmon_target_open_ops refuse a key given twice; an
 * extra option replaces the spec's of the same key. zynq's seed takes its maximum exactly. */
static void test_builtin_keys_and_seed(void **state)
{
    (void)state;
    socmon_target *t = NULL;
    socmon_kv slots3 = {.key = "slots", .value = "3"};
    assert_int_equal(socmon_target_open_kv("zynq:slots=9", &slots3, 1, &t), SOCMON_OK);
    assert_int_equal(socmon_zynq_soc_desc(socmon_target_model(t, "zynq"))->nslots, 3);
    socmon_target_close(t);
    t = NULL;
    socmon_kv twice[] = {{.key = "slots", .value = "3"}, {.key = "slots", .value = "4"}};
    assert_int_equal(socmon_target_open_kv("zynq", twice, 2, &t), SOCMON_EINVAL);
    assert_null(t);
    assert_string_equal(socmon_errmsg(), "target 'zynq': option 'slots' given twice (slots=3, then slots=4)");
    assert_int_equal(socmon_target_open_ops(socmon_target_lookup("zynq"), twice, 2, &t), SOCMON_EINVAL);
    assert_null(t);
    assert_string_equal(socmon_errmsg(), "target 'zynq': option 'slots' given twice (slots=3, then slots=4)");

    assert_int_equal(socmon_target_open("zynq:seed=9007199254740992", &t), SOCMON_OK);
    assert_true(socmon_zynq_soc_desc(socmon_target_model(t, "zynq"))->seed == 9007199254740992ull);
    socmon_target_close(t);
}

/* A user's own driver reads the model's registers through the target's bus. */
static void test_bus_and_model_handles(void **state)
{
    (void)state;
    socmon_target *t = NULL;
    assert_int_equal(socmon_target_open("esp", &t), SOCMON_OK);
    socmon_esp_soc *soc = socmon_target_model(t, "esp");
    assert_non_null(soc);
    assert_null(socmon_target_model(t, "zynq"));   /* not that target */
    assert_null(socmon_target_model(NULL, "esp"));
    assert_ptr_equal(socmon_esp_soc_of_target(t), soc);   /* the typed accessor */
    assert_null(socmon_tensix_core_of_target(t));
    socmon_bus *bus = socmon_target_bus(t);
    assert_non_null(bus);
    const socmon_esp_soc_desc *d = socmon_esp_soc_get_desc(soc);
    assert_int_equal(socmon_esp_soc_poke(soc, 1, 3, 12345), SOCMON_OK);
    uint32_t v = 0;
    assert_int_equal(socmon_bus_read32(bus, d->monitor_base + SOCMON_ESP_TILE_SIZE + 4 * (3 + 1), &v),
                     SOCMON_OK);
    assert_int_equal(v, 12345);
    socmon_target_close(t);

    /* With trace_bus the handle is the recorder the driver reads through. */
    char path[] = "/tmp/socmon_trace_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    char spec[128];
    snprintf(spec, sizeof spec, "zynq:trace_bus=%s", path);
    assert_int_equal(socmon_target_open(spec, &t), SOCMON_OK);
    socmon_zynq_soc *z = socmon_target_model(t, "zynq");
    assert_non_null(z);
    assert_ptr_equal(socmon_zynq_soc_of_target(t), z);
    assert_null(socmon_esp_soc_of_target(t));
    FILE *fp = fopen(path, "r");
    assert_non_null(fp);
    fseek(fp, 0, SEEK_END);
    long before = ftell(fp);
    assert_int_equal(socmon_bus_read32(socmon_target_bus(t), socmon_zynq_soc_desc(z)->apm_base, &v),
                     SOCMON_OK);
    socmon_bus_fence(socmon_target_bus(t));
    socmon_target_close(t);   /* flushes the trace */
    fseek(fp, 0, SEEK_END);
    assert_true(ftell(fp) > before);
    fclose(fp);
    unlink(path);
    assert_null(socmon_target_bus(NULL));
}

/* The zynq table's defaults are the model's: the model built from no options
 * equals socmon_zynq_desc_default. */
static void test_zynq_defaults_are_the_models(void **state)
{
    (void)state;
    socmon_target *t = NULL;
    assert_int_equal(socmon_target_open("zynq", &t), SOCMON_OK);
    const socmon_zynq_desc *got = socmon_zynq_soc_desc(socmon_target_model(t, "zynq"));
    socmon_zynq_desc want;
    socmon_zynq_desc_default(&want);
    assert_true(got->traffic.wr_mbps == want.traffic.wr_mbps);
    assert_true(got->traffic.rd_mbps == want.traffic.rd_mbps);
    assert_true(got->traffic.lat_ns == want.traffic.lat_ns);
    assert_true(got->traffic.lat_jitter_ns == want.traffic.lat_jitter_ns);
    assert_int_equal(got->traffic.burst_bytes, want.traffic.burst_bytes);
    assert_int_equal(got->nslots, want.nslots);
    assert_true(got->apm_hz == want.apm_hz);
    assert_true(got->cpu_hz == want.cpu_hz);
    assert_int_equal(got->seed, want.seed);
    socmon_target_close(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_defaults_and_values),
        cmocka_unit_test(test_errors_name_value_and_range),
        cmocka_unit_test(test_key_given_twice),
        cmocka_unit_test(test_whole_numbers_exact),
        cmocka_unit_test(test_help_comes_from_the_table),
        cmocka_unit_test(test_builtin_keys_and_seed),
        cmocka_unit_test(test_builtin_messages),
        cmocka_unit_test(test_bus_and_model_handles),
        cmocka_unit_test(test_zynq_defaults_are_the_models),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
