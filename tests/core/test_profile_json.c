/* socmon_profile_to_json writes its document straight into a buffer: byte for byte what jansson's
 * json_dumps(JSON_COMPACT) makes of it (the document parsed and written again is the same text),
 * with the strings escaped as jansson escapes them, 64-bit values as signed integers, and a
 * string jansson would not take (not UTF-8) dropping its row or member as the tree of values did
 * (the recordings' profiles of bench/ibex and the profile tests' programs came out the same bytes).
 * Version 2 writes a slice's start as the step from the previous slice's start and its length
 * (small numbers that repeat with the program's calls); the reader takes version 1's absolute
 * times too, and refuses steps that leave 0..2^64-1 or a negative length. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <jansson.h>

#include "socmon/profile.h"
#include "socmon/status.h"

static socmon_profile *sample(const char *program, const char *text1)
{
    socmon_profile *p = NULL;
    assert_int_equal(socmon_profile_new(2, 3, 2, 3, 2, &p), SOCMON_OK);
    p->program = strdup(program);
    p->arch = strdup("rv32imc");
    p->events[0] = strdup("cycles");
    p->events[1] = strdup("lsu_wait");
    p->widths[0] = 64;
    p->widths[1] = 40;
    p->total[0] = UINT64_MAX;   /* -1 */
    p->total[1] = 12345678901ull;
    static const char *const names[] = {"_unknown", "main", "f$1.x-y"};
    for (size_t i = 0; i < 3; i++) {
        p->funcs[i].name = strdup(names[i]);
        p->funcs[i].lo = 0x100000 + 16 * i;
        p->funcs[i].hi = 0x100010 + 16 * i;
    }
    p->insns[0] = (socmon_profile_insn){.pc = 0x100000, .word = 0xfff00093u, .func = 1, .v = p->insns[0].v,
                                        .text = strdup("addi ra, zero, -1")};
    p->insns[1] = (socmon_profile_insn){.pc = UINT64_MAX, .word = 0, .func = 2, .v = p->insns[1].v,
                                        .text = strdup(text1)};
    p->insns[0].v[0] = 7;
    p->insns[0].v[1] = (1ull << 40) - 1;
    p->insns[1].v[0] = 1ull << 63;
    p->nodes[1] = (socmon_profile_node){.parent = 0, .func = 1, .trap = 0, .calls = 1, .v = p->nodes[1].v};
    p->nodes[2] = (socmon_profile_node){.parent = 1, .func = 2, .trap = 1, .calls = 99, .v = p->nodes[2].v};
    p->nodes[2].v[0] = 42;
    p->slices[0] = (socmon_profile_slice){.t0_ns = 0, .t1_ns = 100, .func = 1, .depth = 0};
    p->slices[1] = (socmon_profile_slice){.t0_ns = 10, .t1_ns = 90, .func = 2, .depth = 1};
    p->slices_dropped = 3;
    p->inhibited = calloc(1, sizeof *p->inhibited);
    p->ninhibited = 1;
    strcpy(p->inhibited[0].counter, "cycles");
    strcpy(p->inhibited[0].reg, "mcycle");
    p->inhibited[0].inhibited_cycles = 5;
    p->inhibited[0].run_cycles = 50;
    return p;
}

static void same_as_jansson(void **state)
{
    (void)state;
    /* quotes, backslashes, control bytes, DEL, a slash and UTF-8 in the program's path */
    socmon_profile *p = sample("dir/\"q\"\\b\b\f\n\r\t\x01\x1f\x7f caf\xc3\xa9.elf", "(fetch outside RAM)");
    char *s = NULL;
    size_t n = 0;
    assert_int_equal(socmon_profile_to_json(p, &s, &n), SOCMON_OK);
    assert_int_equal(n, strlen(s));
    json_error_t err;
    json_t *doc = json_loads(s, 0, &err);
    assert_non_null(doc);
    char *again = json_dumps(doc, JSON_COMPACT);
    assert_string_equal(s, again);
    assert_string_equal(json_string_value(json_object_get(doc, "program")),
                        "dir/\"q\"\\b\b\f\n\r\t\x01\x1f\x7f caf\xc3\xa9.elf");
    assert_non_null(strstr(s, "\\u0001\\u001F\x7f"));
    assert_non_null(strstr(s, "\"total\":[-1,12345678901]"));
    assert_non_null(strstr(s, "[1,2,true,99,[42,0]]"));
    free(again);
    json_decref(doc);

    free(s);
    socmon_profile_free(p);
}

static void not_utf8_drops_as_before(void **state)
{
    (void)state;
    socmon_profile *p = sample("bad\xff.elf", "bad \xc3");
    char *s = NULL;
    assert_int_equal(socmon_profile_to_json(p, &s, NULL), SOCMON_OK);
    json_t *doc = json_loads(s, 0, NULL);
    assert_non_null(doc);
    assert_null(json_object_get(doc, "program"));        /* the member dropped */
    assert_int_equal(json_array_size(json_object_get(doc, "insns")), 1);   /* the row dropped */
    char *again = json_dumps(doc, JSON_COMPACT);
    assert_string_equal(s, again);
    free(again);
    json_decref(doc);
    free(s);
    socmon_profile_free(p);
}

static void slices_as_steps(void **state)
{
    (void)state;
    socmon_profile *p = sample("p.elf", "(fetch outside RAM)");
    char *s = NULL;
    assert_int_equal(socmon_profile_to_json(p, &s, NULL), SOCMON_OK);
    assert_non_null(strstr(s, "{\"format\":\"socmon-profile\",\"version\":2,"));
    /* (0, 100) and (10, 90): steps 0 and 10, lengths 100 and 80 */
    assert_non_null(strstr(s, "\"slices\":[[0,100,1,0],[10,80,2,1]],\"slices_dropped\":3"));
    free(s);
    socmon_profile_free(p);
}

/* A document whose counts add up (test_profile_sums' seed), with version V and slices S. */
static socmon_status parse_slices(int version, const char *slices, socmon_profile **p)
{
    char doc[2048];
    snprintf(doc, sizeof doc,
             "{\"format\": \"socmon-profile\", \"version\": %d, \"program\": \"p.elf\", \"arch\": \"rv32imc\", "
             "\"events\": [{\"name\": \"cycles\", \"width\": 64}], \"total\": [5], "
             "\"functions\": [[\"_unknown\", 0, 0], [\"main\", 1048720, 1048736]], "
             "\"insns\": [[1048720, 17665, 1, [5], \"\"]], "
             "\"nodes\": [[0, 0, false, 0, [0]], [0, 1, false, 1, [5]]], "
             "\"slices\": %s, \"slices_dropped\": 0}",
             version, slices);
    *p = NULL;
    return socmon_profile_from_json(doc, strlen(doc), p);
}

static void slices_read_in_both_versions(void **state)
{
    (void)state;
    socmon_profile *a = NULL, *b = NULL;
    assert_int_equal(parse_slices(1, "[[100, 500, 1, 0], [120, 130, 1, 1], [600, 600, 1, 0]]", &a), SOCMON_OK);
    assert_int_equal(parse_slices(2, "[[100, 400, 1, 0], [20, 10, 1, 1], [480, 0, 1, 0]]", &b), SOCMON_OK);
    assert_int_equal(a->nslices, 3);
    assert_int_equal(b->nslices, 3);
    for (size_t i = 0; i < 3; i++) {
        assert_true(a->slices[i].t0_ns == b->slices[i].t0_ns);
        assert_true(a->slices[i].t1_ns == b->slices[i].t1_ns);
        assert_int_equal(a->slices[i].depth, b->slices[i].depth);
    }
    assert_true(b->slices[2].t0_ns == 600 && b->slices[2].t1_ns == 600);
    /* written again, read again: the same times */
    char *s = NULL;
    size_t n = 0;
    assert_int_equal(socmon_profile_to_json(a, &s, &n), SOCMON_OK);
    socmon_profile *c = NULL;
    assert_int_equal(socmon_profile_from_json(s, n, &c), SOCMON_OK);
    for (size_t i = 0; i < 3; i++)
        assert_true(c->slices[i].t0_ns == a->slices[i].t0_ns && c->slices[i].t1_ns == a->slices[i].t1_ns);
    free(s);
    socmon_profile_free(a);
    socmon_profile_free(b);
    socmon_profile_free(c);
    /* a step back is allowed (a start is a time, the previous one may be later), not one past 0 */
    assert_int_equal(parse_slices(2, "[[100, 0, 1, 0], [-40, 5, 1, 0]]", &a), SOCMON_OK);
    assert_true(a->slices[1].t0_ns == 60 && a->slices[1].t1_ns == 65);
    socmon_profile_free(a);
    static const struct { int v; const char *slices, *msg; } bad[] = {
        {2, "[[100, 0, 1, 0], [-101, 5, 1, 0]]", "slice 1: starts outside 0..2^64-1 ns"},
        {2, "[[-1, 0, 1, 0]]", "slice 0: starts outside 0..2^64-1 ns"},
        {2, "[[100, -1, 1, 0]]", "slice 0: a negative length"},
        {2, "[[9223372036854775807, 0, 1, 0], [9223372036854775807, 0, 1, 0], [9, 0, 1, 0]]",
         "slice 2: starts outside 0..2^64-1 ns"},
        {2, "[[2, 0, 1, 0], [9223372036854775807, 9223372036854775807, 1, 0]]",
         "slice 1: ends before it starts (or past the largest time)"},
        {1, "[[100, 99, 1, 0]]", "slice 0: ends before it starts (or past the largest time)"},
        {2, "[[1, 2, 3]]", "slice 0: [t0 step, length, function, depth]"},
        {1, "[[1, 2, 5, 0]]", "slice 0: [t0, t1, function, depth] with t0 <= t1"},
        {3, "[]", "not a socmon profile of version 1 or 2"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        socmon_profile *q = NULL;
        assert_int_equal(parse_slices(bad[i].v, bad[i].slices, &q), SOCMON_EPARSE);
        assert_null(q);
        if (!strstr(socmon_errmsg(), bad[i].msg))
            fail_msg("case %zu: '%s' does not say '%s'", i, socmon_errmsg(), bad[i].msg);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(same_as_jansson),
        cmocka_unit_test(not_utf8_drops_as_before),
        cmocka_unit_test(slices_as_steps),
        cmocka_unit_test(slices_read_in_both_versions),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
