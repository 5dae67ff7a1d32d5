/* The NoC trace parser (every error names its line and field) and the synthetic patterns
 * (each pattern's destinations on a 4x4 as docs/esp-model.md defines them; one seed, one run). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "models/esp/esp_trace.h"
#include "socmon/socmon.h"

static socmon_status parse(const char *text, esp_trace *t)
{
    return smn_esp_trace_parse(text, strlen(text), "t.trace", t);
}

static void test_valid(void **state)
{
    (void)state;
    esp_trace t;
    const char *text = "# comment\n\n  mesh 2 3   # the 2x3\r\nplane 4\n0 0 5 1\n0 1 2 256\n7\t5 0 3\n"
                       "stall 5 10 40\nstall 5 20 21\n";
    assert_int_equal(parse(text, &t), SOCMON_OK);
    assert_int_equal(t.rows, 2);
    assert_int_equal(t.cols, 3);
    assert_int_equal(t.plane, 4);
    assert_int_equal(t.mesh_line, 3);
    assert_int_equal(t.npkt, 3);
    assert_int_equal(t.pkt[1].flits, 256);
    assert_int_equal(t.pkt[2].cycle, 7);
    assert_int_equal(t.pkt[2].src, 5);
    assert_int_equal(t.pkt[2].dst, 0);
    assert_int_equal(t.nstall, 2);
    assert_int_equal(t.stall[0].tile, 5);
    assert_int_equal(t.stall[0].from, 10);
    assert_int_equal(t.stall[0].to, 40);
    smn_esp_trace_free(&t);
    /* no packets at all is a trace too (nothing flows) */
    assert_int_equal(parse("mesh 1 2\n", &t), SOCMON_OK);
    assert_int_equal(t.npkt, 0);
    smn_esp_trace_free(&t);
}

static void test_errors(void **state)
{
    (void)state;
    static const struct {
        const char *text, *msg;
    } cases[] = {
        {"mesh 2 3\n5 0 1 1\n4 1 0 1\n", "t.trace:3: field 'cycle': '4' comes before cycle 5"},
        {"mesh 2 3\n0 2 2 1\n", "t.trace:2: field 'dst': '2' equals src"},
        {"mesh 2 3\n0 6 1 1\n", "t.trace:2: field 'src': 6 out of range 0..5"},
        {"mesh 2 3\n0 1 6 1\n", "t.trace:2: field 'dst': 6 out of range 0..5"},
        {"mesh 2 3\n0 1 2 0\n", "t.trace:2: field 'flits': 0 out of range 1..256"},
        {"mesh 2 3\n0 1 2 257\n", "t.trace:2: field 'flits': 257 out of range 1..256"},
        {"mesh 2 3\n0 1 2\n", "t.trace:2: field 'flits': missing"},
        {"mesh 2 3\n0 1 2 3 4\n", "t.trace:2: field 'flits': '4' is one field too many"},
        {"mesh 2 3\nburst 1 2\n", "t.trace:2: field 'directive': 'burst' unknown"},
        {"mesh 2 3\n0 1 x 3\n", "t.trace:2: field 'dst': 'x' is not an unsigned decimal number"},
        {"mesh 2 3\n-1 1 2 3\n", "t.trace:2: field 'directive': '-1' unknown"},
        {"# no mesh\n0 1 2 3\n", "t.trace:2: field 'mesh': '0' comes first"},
        {"", "t.trace: field 'mesh': missing"},
        {"mesh 0 3\n", "t.trace:1: field 'rows': 0 out of range 1..16"},
        {"mesh 2 17\n", "t.trace:1: field 'cols': 17 out of range 1..16"},
        {"mesh 2 3 4\n", "t.trace:1: field 'cols': '4' is one field too many"},
        {"mesh 2 3\nmesh 2 3\n", "t.trace:2: field 'mesh': given twice"},
        {"mesh 2 3\nplane 6\n", "t.trace:2: field 'plane': 6 out of range 0..5"},
        {"mesh 2 3\nplane 1\nplane 2\n", "t.trace:3: field 'plane': given twice"},
        {"mesh 2 3\n0 1 2 3\nplane 2\n", "t.trace:3: field 'plane': comes after a packet"},
        {"mesh 2 3\nstall 6 0 1\n", "t.trace:2: field 'tile': 6 out of range 0..5"},
        {"mesh 2 3\nstall 1 5 5\n", "t.trace:2: field 'to': 5 out of range 6..1099511627775"},
        {"mesh 2 3\nstall 1 5\n", "t.trace:2: field 'to': missing"},
        {"mesh 2 3\n1099511627776 0 1 1\n", "t.trace:2: field 'cycle': 1099511627776 out of range"},
        {"mesh 2 3\n99999999999999999999999 0 1 1\n", "t.trace:2: field 'cycle': 99999999999999999999999 out of range"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        esp_trace t;
        socmon_status st = parse(cases[i].text, &t);
        if (st != SOCMON_EPARSE || !strstr(socmon_errmsg(), cases[i].msg))
            fail_msg("case %zu: status %d, message '%s', expected '%s'", i, (int)st, socmon_errmsg(), cases[i].msg);
        assert_null(t.pkt);
    }
    /* a NUL byte and a line over 511 characters */
    esp_trace t;
    assert_int_equal(smn_esp_trace_parse("mesh 2 3\n0 1\0 2 3\n", 18, "t.trace", &t), SOCMON_EPARSE);
    assert_non_null(strstr(socmon_errmsg(), "t.trace:2: field 'line': contains a NUL byte"));
    char longline[700] = "mesh 2 3\n";
    memset(longline + 9, ' ', 600);
    longline[609] = '\0';
    assert_int_equal(parse(longline, &t), SOCMON_EPARSE);
    assert_non_null(strstr(socmon_errmsg(), "t.trace:2: field 'line': longer than 511"));
    assert_int_equal(smn_esp_trace_load("/nonexistent/x.trace", &t), SOCMON_ENOENT);
    assert_non_null(strstr(socmon_errmsg(), "/nonexistent/x.trace"));
}

static esp_pattern pat4x4(const char *args)
{
    esp_pattern p;
    assert_int_equal(smn_esp_pattern_parse(args, 4, 4, &p), SOCMON_OK);
    return p;
}

static void test_pattern_dests(void **state)
{
    (void)state;
    /* 4x4, tile = 4r + c */
    esp_pattern p = pat4x4("pattern=transpose");
    for (unsigned t = 0; t < 16; t++)
        assert_int_equal(smn_esp_pattern_dest(&p, t), (t % 4) * 4 + t / 4);
    p = pat4x4("pattern=bitcomp");
    for (unsigned t = 0; t < 16; t++)
        assert_int_equal(smn_esp_pattern_dest(&p, t), t ^ 15u);
    p = pat4x4("pattern=neighbor");
    for (unsigned t = 0; t < 16; t++)
        assert_int_equal(smn_esp_pattern_dest(&p, t), (t / 4) * 4 + (t % 4 + 1) % 4);
    p = pat4x4("pattern=tornado");   /* ceil(4/2) - 1 = 1 along each dimension */
    for (unsigned t = 0; t < 16; t++)
        assert_int_equal(smn_esp_pattern_dest(&p, t), ((t / 4 + 1) % 4) * 4 + (t % 4 + 1) % 4);
    /* uniform: never itself, every other tile reached, about equally */
    p = pat4x4("pattern=uniform,seed=7");
    unsigned hits[16] = {0};
    for (unsigned i = 0; i < 15000; i++) {
        unsigned d = smn_esp_pattern_dest(&p, 5);
        assert_true(d < 16 && d != 5);
        hits[d]++;
    }
    for (unsigned d = 0; d < 16; d++)
        if (d != 5 && (hits[d] < 800 || hits[d] > 1200))
            fail_msg("uniform: tile %u got %u of 15000", d, hits[d]);
    /* hotspot: a quarter to the hot tile on top of the uniform share; the hot tile sends uniformly */
    p = pat4x4("pattern=hotspot,hot=9,seed=3");
    unsigned hot = 0;
    for (unsigned i = 0; i < 20000; i++) {
        unsigned d = smn_esp_pattern_dest(&p, 0);
        assert_true(d < 16 && d != 0);
        hot += d == 9;
    }
    double share = hot / 20000.0, expect = 0.25 + 0.75 / 15;
    if (share < expect - 0.02 || share > expect + 0.02)
        fail_msg("hotspot: share %.3f, expected %.3f", share, expect);
    for (unsigned i = 0; i < 1000; i++)
        assert_int_not_equal(smn_esp_pattern_dest(&p, 9), 9);
    /* 2x3: transpose's definition off the square (c mod R, r mod C) */
    assert_int_equal(smn_esp_pattern_parse("pattern=transpose", 2, 3, &p), SOCMON_OK);
    assert_int_equal(smn_esp_pattern_dest(&p, 1), 3);   /* (0,1) -> (1,0) */
    assert_int_equal(smn_esp_pattern_dest(&p, 2), 0);   /* (0,2) -> (0,0) */
    assert_int_equal(smn_esp_pattern_dest(&p, 4), 4);   /* (1,1): the diagonal sends nothing */
}

static void test_pattern_draws(void **state)
{
    (void)state;
    /* rate = flits per cycle per tile: packets come at rate / length */
    esp_pattern p = pat4x4("pattern=uniform,rate=0.5,len=4,seed=11");
    unsigned long flits = 0;
    for (unsigned i = 0; i < 100000; i++) {
        unsigned f = smn_esp_pattern_draw(&p);
        assert_true(f == 0 || f == 4);
        flits += f;
    }
    assert_true(flits > 48000 && flits < 52000);
    p = pat4x4("pattern=uniform,rate=0.9,len=mix,seed=11");
    unsigned lens[6] = {0};
    flits = 0;
    for (unsigned i = 0; i < 100000; i++) {
        unsigned f = smn_esp_pattern_draw(&p);
        assert_true(f <= 5);
        lens[f]++;
        flits += f;
    }
    assert_true(flits > 88000 && flits < 92000);
    for (unsigned f = 1; f <= 5; f++)   /* the mix: 1..5 flits, equally often */
        assert_true(lens[f] > 5500 && lens[f] < 6500);
    /* the same seed, the same packets; another seed, others */
    esp_pattern a = pat4x4("pattern=hotspot,rate=0.3,len=mix,seed=42"), b = a;
    esp_pattern c = pat4x4("pattern=hotspot,rate=0.3,len=mix,seed=43");
    int differ = 0;
    for (unsigned i = 0; i < 5000; i++) {
        unsigned fa = smn_esp_pattern_draw(&a), fb = smn_esp_pattern_draw(&b), fc = smn_esp_pattern_draw(&c);
        assert_int_equal(fa, fb);
        unsigned da = smn_esp_pattern_dest(&a, i % 16), db = smn_esp_pattern_dest(&b, i % 16);
        assert_int_equal(da, db);
        differ |= fa != fc || da != smn_esp_pattern_dest(&c, i % 16);
    }
    assert_true(differ);
}

static void test_pattern_errors(void **state)
{
    (void)state;
    static const struct {
        const char *args, *msg;
    } cases[] = {
        {"rate=0.1", "field 'pattern': missing"},
        {"pattern=zigzag", "field 'pattern': 'zigzag' unknown"},
        {"pattern=uniform,rate=0", "field 'rate': '0' is not a number in (0, 1]"},
        {"pattern=uniform,rate=1.5", "field 'rate': '1.5' is not a number in (0, 1]"},
        {"pattern=uniform,len=0", "field 'len': 0 out of range 1..256"},
        {"pattern=uniform,len=257", "field 'len': 257 out of range 1..256"},
        {"pattern=uniform,plane=6", "field 'plane': 6 out of range 0..5"},
        {"pattern=uniform,cycles=0", "field 'cycles': 0 out of range 1..10000000"},
        {"pattern=uniform,hot=16", "field 'hot': 16 out of range 0..15"},
        {"pattern=uniform,colour=red", "field 'key': 'colour' unknown"},
        {"pattern=uniform,pattern=tornado", "field 'pattern': 'tornado' given twice"},
        {"pattern=uniform,seed", "field 'item': 'seed' is not KEY=VALUE"},
        {"pattern=uniform,seed=x", "field 'seed': 'x' is not an unsigned decimal number"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        esp_pattern p;
        socmon_status st = smn_esp_pattern_parse(cases[i].args, 4, 4, &p);
        if (st != SOCMON_EPARSE || !strstr(socmon_errmsg(), cases[i].msg))
            fail_msg("case %zu: status %d, message '%s', expected '%s'", i, (int)st, socmon_errmsg(), cases[i].msg);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_valid),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_pattern_dests),
        cmocka_unit_test(test_pattern_draws),
        cmocka_unit_test(test_pattern_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
