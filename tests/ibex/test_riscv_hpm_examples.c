/* include/socmon/riscv_hpm.h: its portable part on the host, and its CSR part
 * in RV32 firmware on the Ibex model.
 *
 * Builds with riscv64-unknown-elf-gcc (a) examples/riscv_hpm (main.c and
 * phases.c) through its own Makefile and (b) tests/ibex/riscv_hpm/hpm_api.c, which calls every function
 * of the header, then runs both on the model in several configurations and
 * checks what they print: against the values the configuration implies
 * (implemented counters, widths, hardwired mhpmevent, masked writes, the
 * window costs of spec §7 on small), against the model's own counters after
 * the halt (the programs stop counting before printing), and the hi-lo-hi
 * read against a carry between the halves (a naive high-then-low read in the
 * same sweep must tear at least once, proving the carry was hit).
 *
 * The firmware parts skip, saying why, only if the cross compiler is missing
 * (scripts/install-deps.sh installs it). */
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
#include "targets/ibex_config.h"
#include "socmon/riscv_hpm.h"

static char src[1024], out[1200];
static int have_cc;

static int setup(void **state)
{
    const char *s = getenv("SOCMON_SRC");
    char cmd[16384], cwd[512];
    (void)state;
    snprintf(src, sizeof src, "%s", s ? s : ".");
    if (!getcwd(cwd, sizeof cwd))
        return -1;
    snprintf(out, sizeof out, "%s/riscv_hpm_build", cwd);
    have_cc = system("riscv64-unknown-elf-gcc --version >/dev/null 2>&1") == 0;
    if (!have_cc)
        return 0;
    if (snprintf(cmd, sizeof cmd,
             "mkdir -p '%s' && make -s -C '%s/examples/riscv_hpm' O='%s' SOCMON_INCLUDE='%s/include' "
             ">riscv_hpm_make.log 2>&1 && "
             "riscv64-unknown-elf-gcc -march=rv32imc_zicsr_zifencei -mabi=ilp32 -mno-relax -O2 "
             "-nostdlib -ffreestanding -static -fno-builtin -Wall -Wextra -Werror "
             "-I'%s/tests/ibex/programs' -I'%s/include' -T '%s/tests/ibex/programs/link.ld' "
             "-Wl,--no-relax -Wl,--no-warn-rwx-segments -o '%s/hpm_api.elf' "
             "'%s/tests/ibex/programs/crt0.S' '%s/tests/ibex/riscv_hpm/hpm_api.c' "
             ">>riscv_hpm_make.log 2>&1",
             out, src, out, src, src, src, src, out, src, src) >= (int)sizeof cmd)
        return -1;
    if (system(cmd) != 0) {
        fprintf(stderr, "building the firmware failed; see riscv_hpm_make.log\n");
        return -1;
    }
    return 0;
}

static void need_cc(void)
{
    if (!have_cc) {
        fprintf(stderr, "SKIP: riscv64-unknown-elf-gcc not installed (scripts/install-deps.sh "
                        "installs gcc-riscv64-unknown-elf)\n");
        skip();
    }
}

/* Runs ELF name in preset with options "key=value,..." (may be ""); returns
 * the halted core; its SimCtrl output through smn_ibex_output. */
static ibex_core *run(const char *name, const char *preset, const char *opts)
{
    ibex_config cfg;
    ibex_core *c = NULL;
    ibex_stop why;
    char path[1400], buf[160];
    snprintf(buf, sizeof buf, "config=%s%s%s", preset, *opts ? "," : "", opts);
    assert_int_equal(smn_ibex_config(buf, &cfg), SOCMON_OK);
    assert_int_equal(smn_ibex_create(&cfg, &c), SOCMON_OK);
    snprintf(path, sizeof path, "%s/%s.elf", out, name);
    assert_int_equal(smn_ibex_load_elf_file(c, path), SOCMON_OK);
    assert_int_equal(smn_ibex_run(c, 100000000, &why), SOCMON_OK);
    assert_int_equal(why, IBEX_STOP_HALT);
    return c;
}

/* The value after "key " at the start of a line of the output; base 16 or
 * 10. Fails the test if the line is missing. */
static uint64_t field(ibex_core *c, const char *key, int base)
{
    size_t len, kl = strlen(key);
    const char *o = smn_ibex_output(c, &len), *p = o;
    while (p && p < o + len) {
        if (strncmp(p, key, kl) == 0 && p[kl] == ' ')
            return strtoull(p + kl + 1, NULL, base);
        p = memchr(p, '\n', (size_t)(o + len - p));
        p = p ? p + 1 : NULL;
    }
    fail_msg("no line '%s' in the output:\n%.*s", key, (int)len, o);
    return 0;
}

static uint64_t fieldn(ibex_core *c, const char *key, unsigned n)
{
    char k[64];
    snprintf(k, sizeof k, "%s.%u", key, n);
    return field(c, k, 16);
}

/* ---- the portable part, on the host ---- */

static void test_names(void **state)
{
    (void)state;
    assert_string_equal(socmon_hpm_ibex_event_name(0), "NumCycles");
    assert_string_equal(socmon_hpm_ibex_event_name(2), "NumInstrRet");
    assert_string_equal(socmon_hpm_ibex_event_name(SOCMON_HPM_IBEX_CYCLES_LSU), "NumCyclesLSU");
    assert_string_equal(socmon_hpm_ibex_event_name(4), "NumCyclesIF");
    assert_string_equal(socmon_hpm_ibex_event_name(5), "NumLoads");
    assert_string_equal(socmon_hpm_ibex_event_name(6), "NumStores");
    assert_string_equal(socmon_hpm_ibex_event_name(7), "NumJumps");
    assert_string_equal(socmon_hpm_ibex_event_name(8), "NumBranches");
    assert_string_equal(socmon_hpm_ibex_event_name(9), "NumBranchesTaken");
    assert_string_equal(socmon_hpm_ibex_event_name(10), "NumInstrRetC");
    assert_string_equal(socmon_hpm_ibex_event_name(11), "NumCyclesMulWait");
    assert_string_equal(socmon_hpm_ibex_event_name(SOCMON_HPM_IBEX_CYCLES_DIV_WAIT), "NumCyclesDivWait");
    assert_null(socmon_hpm_ibex_event_name(1));
    assert_null(socmon_hpm_ibex_event_name(13));
    assert_null(socmon_hpm_ibex_event_name(31));
    assert_null(socmon_hpm_ibex_event_name(1000));
    assert_string_equal(socmon_hpm_csr_name(0), "mcycle");
    assert_string_equal(socmon_hpm_csr_name(2), "minstret");
    assert_string_equal(socmon_hpm_csr_name(3), "mhpmcounter3");
    assert_string_equal(socmon_hpm_csr_name(31), "mhpmcounter31");
    assert_null(socmon_hpm_csr_name(1));
    assert_null(socmon_hpm_csr_name(32));
    assert_int_equal(SOCMON_HPM_IBEX_EVENTS, 0x1ffd);   /* mcountinhibit reads with ten counters */
}

static void test_delta(void **state)
{
    socmon_hpm_snapshot a, b, d;
    unsigned i;
    (void)state;
    assert_int_equal(socmon_hpm_delta(10, 25, 40), 15);
    assert_int_equal(socmon_hpm_delta(0xFFFFFFFFF0u, 0x10, 40), 0x20);       /* one wrap */
    assert_int_equal(socmon_hpm_delta(0xFFFFFFF0u, 0x10, 32), 0x20);
    assert_int_equal(socmon_hpm_delta(0xFFFFFFF0u, 0x100000010u, 33), 0x20);
    assert_int_equal(socmon_hpm_delta(1, 0, 1), 1);
    assert_int_equal(socmon_hpm_delta(UINT64_MAX - 1, 3, 64), 5);
    assert_int_equal(socmon_hpm_delta(UINT64_MAX - 1, 3, 99), 5);
    assert_int_equal(socmon_hpm_delta(5, 9, 0), 0);
    for (i = 0; i < SOCMON_HPM_COUNT; i++) {
        a.value[i] = 0xFFFFFFFFF0u + i;
        b.value[i] = 0x10000000010u + 2 * i;   /* 40-bit counters wrapped */
    }
    socmon_hpm_snapshot_delta(&a, &b, 40, &d);
    assert_int_equal(d.value[0], 0x10000000010u - 0xFFFFFFFFF0u + 0);   /* 64 bits: no wrap */
    assert_int_equal(d.value[1], 0);
    assert_int_equal(d.value[2], 0x10000000010u - 0xFFFFFFFFF0u + 2);
    for (i = 3; i < SOCMON_HPM_COUNT; i++)
        assert_int_equal(d.value[i], 0x20 + i);
    socmon_hpm_snapshot_delta(&a, &b, 40, &a);   /* in place */
    assert_memory_equal(&a, &d, sizeof d);
}

/* ---- examples/riscv_hpm on the model ---- */

static void check_example(const char *preset, uint64_t mul_wait)
{
    ibex_core *c;
    static const char *const names[] = {
        "mcycle", NULL, "minstret", "mhpmcounter3", "mhpmcounter4", "mhpmcounter5",
        "mhpmcounter6", "mhpmcounter7", "mhpmcounter8", "mhpmcounter9", "mhpmcounter10",
        "mhpmcounter11", "mhpmcounter12"};
    uint64_t v[13], cyc;
    unsigned i;
    char key[64];
    need_cc();
    c = run("riscv_hpm", preset, "");
    for (i = 0; i < 13; i++) {
        if (!names[i])
            continue;
        snprintf(key, sizeof key, "%s %s", names[i], socmon_hpm_ibex_event_name(i));
        v[i] = field(c, key, 10);
        /* counting stopped before the printout: the model still holds these values */
        assert_int_equal(v[i], smn_ibex_counter(c, i));
    }
    /* what the kernel does, whatever the compiler made of the loop: 64 loads of data[]
     * plus the volatile divisor, 64 stores, 64 MULs, one DIV (by 7: 36 wait cycles) */
    assert_int_equal(v[5], 65);
    assert_int_equal(v[6], 64);
    assert_int_equal(v[11], mul_wait);
    assert_int_equal(v[12], 36);
    assert_true(v[8] >= 64 && v[9] >= 63);
    {
        uint32_t sum = 1;
        for (i = 0; i < 64; i++)
            sum = sum * (i * 3 + 1) + i;
        assert_int_equal(field(c, "result", 10), sum / 7);
    }
    /* the CPI stack uses the firmware's integer formula: recompute it */
    cyc = v[0];
    while (cyc >= (1u << 22))
        cyc >>= 1;
    {
        char want[64], key2[32];
        size_t len;
        const char *o = smn_ibex_output(c, &len);
        uint32_t pm = (uint32_t)v[3] * 1000u / (uint32_t)cyc;
        snprintf(want, sizeof want, "stack.lsu_wait %u.%u%%\n", pm / 10, pm % 10);
        assert_non_null(strstr(o, want));
        pm = (uint32_t)v[12] * 1000u / (uint32_t)cyc;
        snprintf(want, sizeof want, "stack.div_wait %u.%u%%\n", pm / 10, pm % 10);
        assert_non_null(strstr(o, want));
        pm = (uint32_t)v[0] * 1000u / (uint32_t)v[2] / 10;
        snprintf(key2, sizeof key2, "CPI %u.%02u\n", pm / 100, pm % 100);
        assert_non_null(strstr(o, key2));
    }
    smn_ibex_destroy(c);
}

static void test_example_small(void **state)
{
    (void)state;
    check_example("small", 2 * 64);    /* fast multiplier: MUL waits 2 */
}

static void test_example_maxperf(void **state)
{
    (void)state;
    check_example("maxperf", 0);       /* single-cycle multiplier */
}

/* ---- examples/riscv_hpm/phases.c: per-phase counts by snapshot deltas ---- */

/* The numbers of line "name cycles C instret I loads L stores S taken T top EVENT P%". */
static void phase_line(ibex_core *c, const char *name, unsigned v[5], char top[32])
{
    size_t len, nl = strlen(name);
    const char *o = smn_ibex_output(c, &len), *p = o;
    while (p && !(strncmp(p, name, nl) == 0 && p[nl] == ' ')) {
        p = strchr(p, '\n');
        p = p ? p + 1 : NULL;
    }
    assert_non_null(p);
    assert_int_equal(sscanf(p + nl, " cycles %u instret %u loads %u stores %u taken %u top %31s",
                            &v[0], &v[1], &v[2], &v[3], &v[4], top), 6);
}

static void check_phases(const char *preset, const char *mul_top)
{
    static const char *const names[] = {"copy", "mul", "div", "branch"};
    /* loads and stores of each phase: volatile accesses only, so exact */
    static const unsigned loads[] = {128, 128, 16, 0}, stores[] = {128, 0, 0, 0};
    unsigned v[5], sum[5] = {0}, i, k;
    char top[32];
    uint32_t x = 1;
    ibex_core *c;
    need_cc();
    c = run("riscv_phases", preset, "");
    for (i = 0; i < 4; i++) {
        phase_line(c, names[i], v, top);
        assert_int_equal(v[2], loads[i]);
        assert_int_equal(v[3], stores[i]);
        for (k = 0; k < 5; k++)
            sum[k] += v[k];
        if (i == 1)
            assert_string_equal(top, mul_top);
        if (i == 2)
            assert_string_equal(top, "NumCyclesDivWait");
        if (i == 3)
            assert_string_equal(top, "NumCyclesIF");
    }
    /* the total is the delta of the first and the last snapshot: the phases add up */
    phase_line(c, "total", v, top);
    for (k = 0; k < 5; k++)
        assert_int_equal(v[k], sum[k]);
    /* the program's own result, computed here the same way */
    for (i = 0; i < 128; i++)
        x = x * 2654435761u + i;
    for (i = 0; i < 16; i++)
        x = x / 1000003u + x;
    for (i = 0; i < 128; i++)
        x = (x & 1) ? x * 3 + 1 : x >> 1;
    assert_int_equal(field(c, "x", 10), x);
    smn_ibex_destroy(c);
}

static void test_phases(void **state)
{
    (void)state;
    check_phases("small", "NumCyclesMulWait");
    check_phases("maxperf", "NumCyclesIF");   /* single-cycle multiplier: no mul wait */
}

/* ---- every header call (tests/ibex/riscv_hpm/hpm_api.c) ---- */

static uint64_t mask_of(unsigned w)
{
    return w >= 64 ? UINT64_MAX : ((uint64_t)1 << w) - 1;
}

static void check_api(const char *preset, const char *opts, unsigned num, unsigned width)
{
    ibex_core *c;
    uint32_t impl = 0x5u | (uint32_t)(((1u << num) - 1) << 3);
    uint64_t lo_min = UINT64_MAX, lo_max = 0;
    unsigned i, torn = 0, before = 0, after = 0;
    need_cc();
    c = run("hpm_api", preset, opts);

    assert_int_equal(field(c, "implemented", 16), impl);
    assert_int_equal(field(c, "inhibit.after_probe", 16), 0);
    for (i = 0; i < 32; i++) {
        unsigned w = (i == 0 || i == 2) ? 64 : (impl >> i) & 1 ? width : 0;
        assert_int_equal(fieldn(c, "width", i), w);
    }
    for (i = 3; i < 32; i++)
        assert_int_equal(fieldn(c, "event", i), (impl >> i) & 1 ? 1u << (i - 3) : 0);
    assert_int_equal(field(c, "event3.after_write", 16), num ? 1 : 0);
    assert_int_equal(field(c, "inhibit.set35", 16), impl & 0x28);
    assert_int_equal(field(c, "inhibit.clear04", 16), impl & ~0x11u);
    assert_int_equal(field(c, "inhibit.none", 16), 0);

    for (i = 0; i < 32; i++) {
        uint64_t want = ((uint64_t)(0xA5000000u + i) << 32) | (0x5A000000u + i);
        if (i == 1 || !((impl >> i) & 1))
            want = 0;
        else if (i > 2)
            want &= mask_of(width);
        assert_int_equal(fieldn(c, "rw.hi", i), want >> 32);
        assert_int_equal(fieldn(c, "rw.lo", i), (uint32_t)want);
    }
    assert_int_equal(field(c, "read.mcycle.hi", 16), 0xA5000000u);
    assert_int_equal(field(c, "read.mcycle.lo", 16), 0x5A000000u);
    assert_int_equal(field(c, "read.minstret.hi", 16), 0xA5000002u);
    assert_int_equal(field(c, "read.minstret.lo", 16), 0x5A000002u);
    assert_int_equal(fieldn(c, "zero.lo", 3), 0);
    assert_int_equal(fieldn(c, "zero.lo", 4), num >= 2 ? (0x5A000004u & mask_of(width)) : 0);
    assert_int_equal(fieldn(c, "zero.hi", 0), 0);

    /* the carry sweep: hi-lo-hi is never torn and saw the carry both before and after
     * its reads; its cost grows by a retry where the carry fell between them; the naive
     * read tore at least once */
    for (i = 0; i < 64; i++) {
        uint64_t start = 0xFFFFFFC0u + i;
        uint64_t h = fieldn(c, "hlh.hi", i) << 32 | fieldn(c, "hlh.lo", i);
        uint64_t n = fieldn(c, "naive.hi", i) << 32 | fieldn(c, "naive.lo", i);
        assert_true(h >= start && h - start < 64);
        lo_min = h - start < lo_min ? h - start : lo_min;
        lo_max = h - start > lo_max ? h - start : lo_max;
        before += h < 0x100000000u;
        after += h >= 0x100000000u;
        torn += n < start || n - start >= 64;
    }
    assert_true(before > 0 && after > 0);
    assert_true(lo_max > lo_min);
    assert_true(torn > 0);

    /* the last snapshot is what the model holds at the halt */
    assert_true(fieldn(c, "final.lo", 0) > 0);
    for (i = 0; i < 32; i++) {
        if (i == 1)
            continue;
        assert_int_equal(fieldn(c, "final.lo", i) | fieldn(c, "final.hi", i) << 32, smn_ibex_counter(c, i));
    }
    smn_ibex_destroy(c);
}

/* The windows' counts on small, from spec §7's measured costs: the start's flush
 * (3 cycles, IF 1, not retired), the stop's li (1) and its csrw (1 cycle, retired, judged
 * by the old inhibit): mcycle 4, minstret 2. Three loads 2 each (LSU 1 each), MUL 3
 * (wait 2) twice, DIV 37 (wait 36). */
/* The "snap.N value" lines under title "== NAME" into v[0..31]. */
static void window(ibex_core *c, const char *title, unsigned v[32])
{
    size_t len;
    const char *w = strstr(smn_ibex_output(c, &len), title);
    unsigned n, x, got = 0;
    assert_non_null(w);
    memset(v, 0, 32 * sizeof v[0]);
    w = strchr(w, '\n') + 1;
    while (sscanf(w, "snap.%u %x", &n, &x) == 2 && n < 32) {
        v[n] = x;
        got++;
        w = strchr(w, '\n') + 1;
    }
    assert_int_equal(got, 31);
}

static void check_windows_small(ibex_core *c)
{
    unsigned v[32];
    window(c, "== empty window\n", v);
    assert_int_equal(v[0], 4);
    assert_int_equal(v[2], 2);
    assert_int_equal(v[4], 1);
    assert_int_equal(v[3] | v[5] | v[6] | v[7] | v[8] | v[9] | v[11] | v[12], 0);
    assert_int_equal(v[10], 1);          /* the stop's li is c.li */
    window(c, "== work window\n", v);
    assert_int_equal(v[0], 4 + 3 * 2 + 2 * 3 + 37);
    assert_int_equal(v[2], 2 + 6);
    assert_int_equal(v[3], 3);
    assert_int_equal(v[4], 1);
    assert_int_equal(v[5], 3);
    assert_int_equal(v[6], 0);
    assert_int_equal(v[7] | v[8] | v[9], 0);
    assert_int_equal(v[11], 4);
    assert_int_equal(v[12], 36);
}

static void test_api_small(void **state)
{
    ibex_core *c;
    (void)state;
    check_api("small", "", 10, 40);
    c = run("hpm_api", "small", "");
    check_windows_small(c);
    smn_ibex_destroy(c);
}

static void test_api_maxperf(void **state)
{
    (void)state;
    check_api("maxperf", "", 10, 40);
}

static void test_api_counter_sets(void **state)
{
    (void)state;
    check_api("small", "mhpm_num=3", 3, 40);
    check_api("small", "mhpm_num=29,mhpm_width=64", 29, 64);
    check_api("small", "mhpm_width=32", 10, 32);
    check_api("small", "mhpm_width=33", 10, 33);
    check_api("maxperf", "mhpm_width=1", 10, 1);
    check_api("small", "mhpm_num=0", 0, 40);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_names),
        cmocka_unit_test(test_delta),
        cmocka_unit_test(test_example_small),
        cmocka_unit_test(test_example_maxperf),
        cmocka_unit_test(test_phases),
        cmocka_unit_test(test_api_small),
        cmocka_unit_test(test_api_maxperf),
        cmocka_unit_test(test_api_counter_sets),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}
