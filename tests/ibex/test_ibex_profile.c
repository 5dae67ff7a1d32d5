/* The exact profile (smn_ibex_profile_start) against the model's own per-instruction counts: every
 * program of tests/ibex/programs and tests/ibex/profile (built here with Debian's
 * riscv64-unknown-elf-gcc) and the committed ELFs of tests/cli/baseline/elf runs twice in each
 * configuration: once with the profile on (as `socmon record` runs it, with per-function
 * attribution too), once stepping (smn_ibex_set_attribution with every instruction on its own, the
 * reference). Per PC the two must agree on every counter; per function, with the attribution;
 * the call tree's self counts must sum to the counters; and callgraph's tree must have the shape
 * its source gives (recursion, mutual recursion, a tail call, a function pointer, a trap), and
 * trapframes' its own (trap frames, a tail call, a fall-through; also its committed image).
 *
 * Skips only when the cross compiler is missing (scripts/install-deps.sh installs it); the
 * committed ELFs are checked even then. */
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include "models/ibex/ibex_model.h"

#define NK IBEX_ATTR_COUNTERS
#define PCS (1u << 19)   /* halfwords of RAM, plus one for fetches outside it */

static char src[1024], out_dir[1100];
static int built;

static int setup(void **state)
{
    const char *s = getenv("SOCMON_SRC");
    char cwd[512], cmd[8192];
    (void)state;
    snprintf(src, sizeof src, "%s", s ? s : ".");
    if (!getcwd(cwd, sizeof cwd))
        return -1;
    snprintf(out_dir, sizeof out_dir, "%s/ibex_profile_build", cwd);
    if (system("riscv64-unknown-elf-gcc --version >/dev/null 2>&1") != 0)
        return 0;
    snprintf(cmd, sizeof cmd,
             "make -s -C '%s/tests/ibex/programs' O='%s' >ibex_profile_make.log 2>&1 && "
             "make -s -C '%s/tests/ibex/profile' O='%s' >>ibex_profile_make.log 2>&1",
             src, out_dir, src, out_dir);
    if (system(cmd) != 0) {
        fprintf(stderr, "building the programs failed; see ibex_profile_make.log\n");
        return -1;
    }
    built = 1;
    return 0;
}

/* the reference: every instruction's deltas to its PC, and the slots stepping touched (the
 * 54 MB table stays mostly unmapped: scanning all of it for each of 72 runs was most of this
 * test's time, in page faults) */
typedef struct stepped {
    uint64_t (*pc)[NK];
    uint8_t *touched;
    uint32_t *slots;
    size_t nslots;
} stepped;

static uint32_t slot_of(uint32_t pc)
{
    uint32_t off = pc - 0x100000u;
    return off < (1u << 20) ? off >> 1 : PCS;
}

static void step_fn(void *ctx, uint32_t pc, const uint64_t *d)
{
    stepped *s = ctx;
    uint32_t slot = slot_of(pc);
    if (!s->touched[slot]) {
        s->touched[slot] = 1;
        s->slots[s->nslots++] = slot;
    }
    for (unsigned k = 0; k < NK; k++)
        s->pc[slot][k] += d[k];
}

/* what the ibex target does: per-function rows through function ranges */
typedef struct byfunc {
    const ibex_symbol *syms;
    size_t n;
    uint64_t (*row)[NK];
} byfunc;

static size_t func_of(const byfunc *b, uint32_t pc)
{
    size_t lo = 0, hi = b->n;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (b->syms[mid].addr <= pc)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo && pc < b->syms[lo - 1].end ? lo : 0;
}

static void fn_range(void *ctx, uint32_t pc, uint32_t *lo, uint32_t *hi)
{
    const byfunc *b = ctx;
    size_t f = func_of(b, pc);
    *lo = f ? b->syms[f - 1].addr : pc;
    *hi = f ? b->syms[f - 1].end : pc + 1;
}

static void fn_add(void *ctx, uint32_t pc, const uint64_t *d)
{
    byfunc *b = ctx;
    for (unsigned k = 0; k < NK; k++)
        b->row[func_of(b, pc)][k] += d[k];
}

static uint64_t mask_of(const ibex_config *cfg, unsigned k)
{
    return k < 3 || cfg->mhpm_width >= 64 ? UINT64_MAX : (UINT64_C(1) << cfg->mhpm_width) - 1;
}

static ibex_core *load(const char *cfgname, const char *elf)
{
    ibex_config cfg;
    ibex_core *c = NULL;
    assert_int_equal(smn_ibex_config_preset(&cfg, cfgname), SOCMON_OK);
    assert_int_equal(smn_ibex_create(&cfg, &c), SOCMON_OK);
    if (smn_ibex_load_elf_file(c, elf) != SOCMON_OK)
        fail_msg("%s: %s", elf, socmon_errmsg());
    return c;
}

static int node_named(const ibex_prof_node *nodes, size_t n, const ibex_symbol *syms, size_t nsyms,
                      const char *name, size_t from)
{
    for (size_t i = from; i < n; i++)
        if (nodes[i].func && nodes[i].func <= nsyms && strcmp(syms[nodes[i].func - 1].name, name) == 0)
            return (int)i;
    return -1;
}

static const char *fname(const ibex_symbol *syms, uint32_t f)
{
    return f ? syms[f - 1].name : "(none)";
}

/* callgraph's tree: the shapes of its source */
static void check_shape(const ibex_prof_node *nodes, size_t n, const ibex_symbol *syms, size_t nsyms,
                        const ibex_prof_pc *pcs, size_t npcs)
{
    int fib = node_named(nodes, n, syms, nsyms, "fib", 0);
    assert_true(fib > 0);
    assert_string_equal(fname(syms, nodes[nodes[fib].parent].func), "main");
    assert_int_equal(nodes[fib].calls, 1);
    /* every call of fib, the recursive ones too, is a frame: as many as its first instruction ran
     * (gcc -O2 turns one of fib's two calls into a loop, so not 465) */
    uint64_t fib_calls = 0, entries = 0;
    for (size_t i = 0; i < n; i++)
        if (nodes[i].func == nodes[fib].func)
            fib_calls += nodes[i].calls;
    for (size_t i = 0; i < npcs; i++)
        if (pcs[i].pc == syms[nodes[fib].func - 1].addr)
            entries = pcs[i].v[2];
    assert_true(fib_calls > 100);
    assert_int_equal(fib_calls, entries);
    int inner = node_named(nodes, n, syms, nsyms, "fib", (size_t)fib + 1);
    assert_true(inner > 0);
    assert_string_equal(fname(syms, nodes[nodes[inner].parent].func), "fib");
    /* is_even(21) -> is_odd(20) -> is_even(19) ... */
    int even = node_named(nodes, n, syms, nsyms, "is_even", 0);
    assert_true(even > 0);
    int odd = -1;
    for (size_t i = 0; i < n; i++)
        if ((int)nodes[i].parent == even && strcmp(fname(syms, nodes[i].func), "is_odd") == 0)
            odd = (int)i;
    assert_true(odd > 0);
    /* the tail call: tail_callee runs in place of tail_caller, under main */
    int callee = node_named(nodes, n, syms, nsyms, "tail_callee", 0);
    assert_true(callee > 0);
    assert_string_equal(fname(syms, nodes[nodes[callee].parent].func), "main");
    assert_true(nodes[callee].v[0] > 30 * 3);   /* its loop's cycles are its own */
    int caller = node_named(nodes, n, syms, nsyms, "tail_caller", 0);
    assert_true(caller > 0);
    assert_string_equal(fname(syms, nodes[nodes[caller].parent].func), "main");
    /* through a function pointer */
    int sq = node_named(nodes, n, syms, nsyms, "square", 0);
    assert_true(sq > 0);
    assert_string_equal(fname(syms, nodes[nodes[sq].parent].func), "apply");
    /* the trap's handler is a frame of its own under the function that trapped */
    int h = node_named(nodes, n, syms, nsyms, "sm_exception", 0);
    assert_true(h > 0);
    assert_int_equal(nodes[h].trap, 1);
    assert_string_equal(fname(syms, nodes[nodes[h].parent].func), "raise_trap");
    /* after the handler's mret the program went on in main: hot is main's child */
    int hot = node_named(nodes, n, syms, nsyms, "hot", 0);
    assert_true(hot > 0);
    assert_string_equal(fname(syms, nodes[nodes[hot].parent].func), "main");
}

/* The node of func under a node of parent (any, when parent is NULL), entered by a trap or not;
 * -1 when there is none; fails on two. */
static int node_under(const ibex_prof_node *nodes, size_t n, const ibex_symbol *syms, size_t nsyms,
                      const char *parent, const char *name, int trap)
{
    int found = -1;
    for (int i = node_named(nodes, n, syms, nsyms, name, 0); i > 0;
         i = node_named(nodes, n, syms, nsyms, name, (size_t)i + 1))
        if ((!parent || strcmp(fname(syms, nodes[nodes[i].parent].func), parent) == 0) && nodes[i].trap == (uint32_t)trap) {
            if (found >= 0)
                fail_msg("two frames of %s under %s", name, parent ? parent : "(any)");
            found = i;
        }
    return found;
}

/* the sum of a function's PCs for counter k */
static uint64_t pcs_of(const ibex_prof_pc *pcs, size_t npcs, const ibex_symbol *syms, uint32_t func, unsigned k)
{
    uint64_t s = 0;
    for (size_t i = 0; i < npcs; i++)
        if (pcs[i].pc >= syms[func - 1].addr && pcs[i].pc < syms[func - 1].end)
            s += pcs[i].v[k];
    return s;
}

/* trapframes' tree (issue 39, item 3): each trap a frame (trap set) under the function it
 * interrupted, the vector's jump to the handler a trap frame too; mret back in the interrupted
 * frame, which is entered once and counts all of its own instructions; the tail call and the
 * fall-through as calls from main, in place of the function they left */
static void check_trapframes(const ibex_prof_node *nodes, size_t n, const ibex_symbol *syms, size_t nsyms,
                             const ibex_prof_pc *pcs, size_t npcs)
{
    static const char *const traps[][2] = {{"do_ecall", "sm_vectors"}, {"do_ecall", "sm_exception"},
                                           {"spin", "sm_vectors"}, {"spin", "sm_timer_irq"}};
    for (size_t i = 0; i < 4; i++) {
        int t = node_under(nodes, n, syms, nsyms, traps[i][0], traps[i][1], 1);
        if (t < 0)
            fail_msg("no trap frame %s under %s", traps[i][1], traps[i][0]);
        assert_int_equal(nodes[t].calls, 1);
        assert_true(nodes[t].v[0] > 0);
    }
    for (size_t i = 0; i < n; i++)   /* no handler entered as a call */
        if (nodes[i].func && (strcmp(fname(syms, nodes[i].func), "sm_exception") == 0 ||
                              strcmp(fname(syms, nodes[i].func), "sm_timer_irq") == 0 ||
                              strcmp(fname(syms, nodes[i].func), "sm_vectors") == 0))
            assert_int_equal(nodes[i].trap, 1);
    static const char *const interrupted[] = {"do_ecall", "spin"};
    for (size_t i = 0; i < 2; i++) {
        int f = node_under(nodes, n, syms, nsyms, "main", interrupted[i], 0);
        assert_true(f > 0);
        assert_int_equal(nodes[f].calls, 1);
        assert_int_equal(node_named(nodes, n, syms, nsyms, interrupted[i], (size_t)f + 1), -1);
        for (unsigned k = 0; k < NK; k++)   /* every instruction of it, after the trap too */
            assert_int_equal(nodes[f].v[k], pcs_of(pcs, npcs, syms, nodes[f].func, k));
    }
    int leaf = node_under(nodes, n, syms, nsyms, "main", "leaf", 0);
    int hop = node_under(nodes, n, syms, nsyms, "main", "hop", 0);
    assert_true(leaf > 0 && hop > 0);
    assert_int_equal(nodes[leaf].calls, 2);   /* hop(20) and hop(10), each `j leaf` */
    assert_int_equal(nodes[hop].calls, 2);
    assert_int_equal(node_under(nodes, n, syms, nsyms, "hop", "leaf", 0), -1);
    int fa = node_under(nodes, n, syms, nsyms, "main", "fall_a", 0);
    int fb = node_under(nodes, n, syms, nsyms, "main", "fall_b", 0);
    assert_true(fa > 0 && fb > 0);
    assert_int_equal(nodes[fa].calls, 1);
    assert_int_equal(nodes[fb].calls, 1);
    assert_int_equal(nodes[fa].v[2], 1);   /* instret (counter 2, minstret): its one instruction */
}

static unsigned check_program(const char *cfgname, const char *elf)
{
    ibex_symbol *syms = NULL;
    size_t nsyms = 0;
    unsigned bad = 0;
    if (smn_ibex_symbols_read(elf, &syms, &nsyms) != SOCMON_OK)
        fail_msg("%s: %s", elf, socmon_errmsg());
    stepped ref = {calloc(PCS + 1, sizeof *ref.pc), calloc(PCS + 1, 1), calloc(PCS + 1, sizeof *ref.slots), 0};
    byfunc bf = {syms, nsyms, calloc(nsyms + 1, sizeof *bf.row)};
    assert_non_null(ref.pc);
    assert_non_null(ref.touched);
    assert_non_null(ref.slots);
    assert_non_null(bf.row);

    ibex_core *a = load(cfgname, elf), *b = load(cfgname, elf);
    smn_ibex_set_attribution(a, fn_add, fn_range, &bf);
    assert_int_equal(smn_ibex_profile_start(a, syms, nsyms, 1000), SOCMON_OK);
    smn_ibex_set_attribution(b, step_fn, NULL, &ref);
    ibex_stop wa, wb;
    /* in pieces, as the target runs it between samples */
    for (uint64_t until = 5000;; until += 5000) {
        assert_int_equal(smn_ibex_run(a, until, &wa), SOCMON_OK);
        if (wa != IBEX_STOP_LIMIT || until > 50000000)
            break;
    }
    assert_int_equal(smn_ibex_run(b, 50005000, &wb), SOCMON_OK);
    assert_int_equal(wa, wb);
    const ibex_config *cfg = smn_ibex_get_config(a);

    ibex_prof_pc *pcs = NULL;
    size_t npcs = 0;
    assert_int_equal(smn_ibex_profile_pcs(a, 0, &pcs, &npcs), SOCMON_OK);
    assert_true(npcs > 0);
    uint64_t sum[NK] = {0}, (*byf)[NK] = calloc(nsyms + 1, sizeof *byf);
    size_t seen = 0;
    for (size_t i = 0; i < npcs; i++) {
        const uint64_t *want = ref.pc[slot_of(pcs[i].pc)];
        for (unsigned k = 0; k < NK; k++) {
            if (pcs[i].v[k] != (want[k] & mask_of(cfg, k)) && bad++ < 10)
                fprintf(stderr, "%s %s: pc 0x%08x counter %u: profile %llu, stepping %llu\n", cfgname, elf,
                        pcs[i].pc, k, (unsigned long long)pcs[i].v[k], (unsigned long long)want[k]);
            sum[k] += pcs[i].v[k];
            byf[pcs[i].func][k] += pcs[i].v[k];
        }
        assert_int_equal(pcs[i].func, pcs[i].pc == 0xffffffffu ? 0 : func_of(&bf, pcs[i].pc));
    }
    /* every PC stepping counted is in the profile (a slot never stepped holds zeros) */
    for (size_t i = 0; i < ref.nslots; i++)
        for (unsigned k = 0; k < NK; k++)
            if (ref.pc[ref.slots[i]][k] & mask_of(cfg, k)) {
                seen++;
                break;
            }
    assert_int_equal(seen, npcs);
    /* per function: the PCs' sums are the attribution's rows */
    for (size_t f = 0; f <= nsyms; f++)
        for (unsigned k = 0; k < NK; k++)
            if ((byf[f][k] & mask_of(cfg, k)) != (bf.row[f][k] & mask_of(cfg, k)) && bad++ < 10)
                fprintf(stderr, "%s %s: function %s counter %u: PCs %llu, attribution %llu\n", cfgname, elf,
                        fname(syms, (uint32_t)f), k, (unsigned long long)byf[f][k],
                        (unsigned long long)bf.row[f][k]);
    /* the whole: PCs and the tree's nodes sum to the counters */
    size_t nn = 0;
    const ibex_prof_node *nodes = smn_ibex_profile_nodes(a, &nn);
    uint64_t nsum[NK] = {0};
    for (size_t i = 0; i < nn; i++) {
        assert_true(nodes[i].parent < (i ? i : 1));
        for (unsigned k = 0; k < NK; k++)
            nsum[k] += nodes[i].v[k];
    }
    for (unsigned k = 0; k < NK; k++) {
        uint64_t want = smn_ibex_counter(a, k);
        if ((sum[k] & mask_of(cfg, k)) != want || (nsum[k] & mask_of(cfg, k)) != want) {
            if (bad++ < 10)
                fprintf(stderr, "%s %s: counter %u = %llu: PCs sum to %llu, nodes to %llu\n", cfgname, elf, k,
                        (unsigned long long)want, (unsigned long long)(sum[k] & mask_of(cfg, k)),
                        (unsigned long long)(nsum[k] & mask_of(cfg, k)));
        }
    }
    if (strstr(elf, "callgraph"))
        check_shape(nodes, nn, syms, nsyms, pcs, npcs);
    if (strstr(elf, "trapframes"))
        check_trapframes(nodes, nn, syms, nsyms, pcs, npcs);
    /* slices nest: each lies inside the one it was entered from */
    size_t ns = 0;
    const ibex_prof_slice *sl = smn_ibex_profile_slices(a, &ns, NULL);
    for (size_t i = 0; i < ns; i++)
        assert_true(sl[i].t0 <= sl[i].t1);

    free(pcs);
    free(byf);
    free(ref.pc);
    free(ref.touched);
    free(ref.slots);
    free(bf.row);
    smn_ibex_destroy(a);
    smn_ibex_destroy(b);
    smn_ibex_symbols_free(syms, nsyms);
    return bad;
}

static void test_profile_equals_stepping(void **state)
{
    (void)state;
    char path[2048];
    unsigned bad = 0, n = 0;
    static const char *const cfgs[] = {"small", "maxperf"};
    static const char *const committed[] = {"cprog", "whole", "riscv_phases"};
    for (int c = 0; c < 2; c++) {
        for (size_t i = 0; i < sizeof committed / sizeof *committed; i++) {
            snprintf(path, sizeof path, "%s/tests/cli/baseline/elf/%s.elf", src, committed[i]);
            bad += check_program(cfgs[c], path);
            n++;
        }
        snprintf(path, sizeof path, "%s/tests/ibex/profile/elf/trapframes.elf", src);   /* committed */
        bad += check_program(cfgs[c], path);
        n++;
        if (!built)
            continue;
        DIR *d = opendir(out_dir);
        assert_non_null(d);
        for (struct dirent *e; (e = readdir(d));) {
            size_t len = strlen(e->d_name);
            if (len < 5 || strcmp(e->d_name + len - 4, ".elf") != 0)
                continue;
            snprintf(path, sizeof path, "%s/%s", out_dir, e->d_name);
            bad += check_program(cfgs[c], path);
            n++;
        }
        closedir(d);
    }
    printf("%u program runs compared\n", n);
    if (!built)
        printf("SKIPPED in part: riscv64-unknown-elf-gcc is not installed (scripts/install-deps.sh)\n");
    assert_int_equal(bad, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_profile_equals_stepping),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}
