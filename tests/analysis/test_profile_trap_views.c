/* Trap frames in the call tree's views (issue 39, item 3): a frame a trap or an interrupt entered
 * (its node's trap) is an edge caller -> [trap] handler of its own, apart from ordinary calls of
 * the same function from the same caller, and its folded frame is named "[trap] handler"; the
 * counts are the same as without the mark (per function, the root, every event's sum). And a
 * DWARF file name as addr2line gives it: relative names joined with the compile directory. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "results/profile_internal.h"
#include "socmon/profile.h"

/* _start calls main, main calls f twice (one frame); in f, h is entered by 3 traps (node 4) and
 * called once (node 5); in the trap handler's frame another trap enters h (6), and in that one
 * again (7: the same edge h -> [trap] h, counted once); the trap handler calls f (8). Cycles:
 * each node's self is its index; instret 1 each. */
static const char doc[] =
    "{\"format\": \"socmon-profile\", \"version\": 1, \"program\": \"\", \"arch\": \"rv32imc\", "
    "\"events\": [{\"name\": \"cycles\", \"width\": 64}, {\"name\": \"instret\", \"width\": 64}], "
    "\"total\": [36, 8], "
    "\"functions\": [[\"_unknown\", 0, 0], [\"_start\", 1048704, 1048720], [\"main\", 1048720, 1048736], "
    "[\"f\", 1048736, 1048752], [\"h\", 1048752, 1048768]], "
    "\"insns\": [[1048704, 1, 1, [1, 1], \"\"], [1048720, 1, 2, [2, 1], \"\"], [1048736, 1, 3, [11, 2], \"\"], "
    "[1048752, 1, 4, [22, 4], \"\"]], "
    "\"nodes\": [[0, 0, false, 0, [0, 0]], [0, 1, false, 1, [1, 1]], [1, 2, false, 1, [2, 1]], "
    "[2, 3, false, 2, [3, 1]], [3, 4, true, 3, [4, 1]], [3, 4, false, 1, [5, 1]], [4, 4, true, 1, [6, 1]], "
    "[6, 4, true, 1, [7, 1]], [4, 3, false, 1, [8, 1]]], "
    "\"slices\": [], \"slices_dropped\": 0}";

static socmon_profile *load(void)
{
    socmon_profile *p = NULL;
    if (socmon_profile_from_json(doc, strlen(doc), &p) != SOCMON_OK)
        fail_msg("the profile: %s", socmon_errmsg());
    return p;
}

static size_t func(const socmon_profile *p, const char *name)
{
    for (size_t f = 0; f < p->nfuncs; f++)
        if (strcmp(p->funcs[f].name, name) == 0)
            return f;
    fail_msg("no function %s", name);
    return 0;
}

static const socmon_profile_edge *edge(const socmon_profile *p, const socmon_profile_calls *c, const char *caller,
                                       const char *callee, int trap)
{
    const socmon_profile_edge *e = NULL;
    for (size_t i = 0; i < c->nedges; i++)
        if (c->edges[i].caller == func(p, caller) && c->edges[i].callee == func(p, callee) &&
            c->edges[i].trap == trap) {
            assert_null(e);   /* one edge per (caller, callee, trap) */
            e = &c->edges[i];
        }
    if (!e)
        fail_msg("no edge %s -> %s%s", caller, trap ? "[trap] " : "", callee);
    return e;
}

static void trap_edges_apart_from_calls(void **state)
{
    (void)state;
    socmon_profile *p = load();
    socmon_profile_calls *c = NULL;
    assert_int_equal(socmon_profile_calls_new(p, &c), SOCMON_OK);
    assert_false(c->mismatch);
    assert_int_equal(c->nedges, 6);
    static const struct {
        const char *caller, *callee;
        int trap;
        uint64_t calls, cycles, instret;
    } want[] = {
        {"_start", "main", 0, 1, 35, 7},
        {"main", "f", 0, 2, 33, 6},
        {"f", "h", 1, 3, 4 + 6 + 7 + 8, 4},   /* the traps' frames and what they ran */
        {"f", "h", 0, 1, 5, 1},               /* the call, on its own */
        {"h", "h", 1, 2, 6 + 7, 2},           /* nested: the inner same edge counted once */
        {"h", "f", 0, 1, 8, 1},               /* a trap handler's call is a call */
    };
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        const socmon_profile_edge *e = edge(p, c, want[i].caller, want[i].callee, want[i].trap);
        if (e->calls != want[i].calls || e->incl[0] != want[i].cycles || e->incl[1] != want[i].instret)
            fail_msg("%s -> %s%s: calls %llu cycles %llu instret %llu", want[i].caller, want[i].trap ? "[trap] " : "",
                     want[i].callee, (unsigned long long)e->calls, (unsigned long long)e->incl[0],
                     (unsigned long long)e->incl[1]);
    }
    /* per function and the root: as they were, traps or not */
    assert_int_equal(c->root[0], 36);
    for (size_t i = 0; i < c->nfns; i++) {
        const socmon_profile_fn *f = &c->fns[i];
        if (f->func == func(p, "h")) {
            assert_int_equal(f->calls, 6);
            assert_int_equal(f->self[0], 22);
            assert_int_equal(f->incl[0], 4 + 5 + 6 + 7 + 8);
        } else if (f->func == func(p, "f")) {
            assert_int_equal(f->calls, 3);
            assert_int_equal(f->self[0], 11);
            assert_int_equal(f->incl[0], 33);
        }
    }
    socmon_profile_calls_free(c);
    socmon_profile_free(p);
}

static void folded_names_trap_frames(void **state)
{
    (void)state;
    socmon_profile *p = load();
    char *text = NULL;
    size_t len = 0;
    assert_int_equal(socmon_profile_folded(p, 0, &text, &len), SOCMON_OK);
    assert_string_equal(text, "_start 1\n"
                              "_start;main 2\n"
                              "_start;main;f 3\n"
                              "_start;main;f;[trap] h 4\n"
                              "_start;main;f;[trap] h;[trap] h 6\n"
                              "_start;main;f;[trap] h;[trap] h;[trap] h 7\n"
                              "_start;main;f;[trap] h;f 8\n"
                              "_start;main;f;h 5\n");
    assert_int_equal(len, strlen(text));
    free(text);
    socmon_profile_free(p);
}

static void file_names_as_addr2line(void **state)
{
    (void)state;
    static const struct { const char *dir, *name, *want; } cases[] = {
        {"/src/tests/ibex/profile", "../programs/crt0.S", "/src/tests/ibex/profile/../programs/crt0.S"},
        {"/src/tests/ibex/profile", "trapframes.c", "/src/tests/ibex/profile/trapframes.c"},
        {"/src/build/", "x.c", "/src/build/x.c"},
        {"/", "x.c", "/x.c"},
        {"rel/dir", "x.c", "rel/dir/x.c"},   /* a relative compile directory: joined all the same */
        {"/src", "/usr/include/stdint.h", "/usr/include/stdint.h"},   /* absolute: as it is */
        {NULL, "x.c", "x.c"},                 /* no DW_AT_comp_dir: nothing to join */
        {"", "x.c", "x.c"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *s = smn_dwarf_file_name(cases[i].dir, cases[i].name);
        assert_non_null(s);
        assert_string_equal(s, cases[i].want);
        free(s);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(trap_edges_apart_from_calls),
        cmocka_unit_test(folded_names_trap_frames),
        cmocka_unit_test(file_names_as_addr2line),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
