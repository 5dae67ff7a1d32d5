/* Ibex model speed: simulated instructions per second with every counter
 * counting (mcountinhibit = 0, 10 counters of 40 bits), on a loop-heavy
 * program (load/add/store, ALU chain, multiply, compressed ops, a taken
 * branch per iteration), in the small and maxperf configurations.
 * Goal (issue 10): at least 50 M instructions/s, RelWithDebInfo.
 * Then the same with per-function attribution on (smn_ibex_set_attribution,
 * what `socmon record -t ibex` and `report --by-symbol` use), with a callback
 * doing what the ibex target does: find the PC's function (a cached hit, else
 * a binary search of 64 symbols) and add the deltas to its row; with the exact
 * profile on as `socmon record` runs it (smn_ibex_profile_start: every instruction
 * counted to its PC and its call-stack frame, plus the per-function
 * attribution; goal (issue 27): at most 1.5x the plain run); and, for
 * reference, stepping: attributing every instruction on its own through the
 * callback (what the profile does while counters are inhibited).
 *
 * Then real code (issue 39): CoreMark (10 and 100 iterations) and Embench's sglib-combined,
 * the ELF images in bench/ibex (bench/ibex/README.md), through the socmon command as a user runs it, in both
 * configurations: the CPU time (user + system, the child's rusage) of `stat`, of `record` without
 * a profile (`-t ibex:symbols=0`), of `record` with the exact profile but no slices (`slices=0`)
 * and of `record` as it comes (the profile and its slices), best of $BENCH_IBEX_RUNS (default 9:
 * on this project's shared VM a short run's CPU time jumps by 10 ms now and then, and best of 5
 * once gave coremark_i10 2.01x where the same build gave 1.70-1.76x around it)
 * runs interleaved, each with its ratio to record without a profile. Goal (issue 39): record as it
 * comes at most 1.5x record without a profile on coremark_i100, at most 2x on coremark_i10. The
 * socmon binary is $SOCMON_BIN or ./socmon (the bench target runs in the build directory), the
 * programs $SOCMON_SRC/bench/ibex or the source tree's. */
#include <spawn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "hw/ibex_csr.h"
#include "models/ibex/ibex_model.h"

static uint32_t enc_i(int32_t imm, unsigned rs1, unsigned f3, unsigned rd, unsigned opc)
{
    return ((uint32_t)imm & 0xFFF) << 20 | rs1 << 15 | f3 << 12 | rd << 7 | opc;
}
static uint32_t enc_r(unsigned f7, unsigned rs2, unsigned rs1, unsigned f3, unsigned rd)
{
    return f7 << 25 | rs2 << 20 | rs1 << 15 | f3 << 12 | rd << 7 | 0x33;
}
static uint32_t enc_s(int32_t imm, unsigned rs2, unsigned rs1)
{
    uint32_t u = (uint32_t)imm;
    return (u >> 5 & 0x7F) << 25 | rs2 << 20 | rs1 << 15 | 2u << 12 | (u & 31) << 7 | 0x23;
}
static uint32_t enc_bne(int32_t off, unsigned rs1, unsigned rs2)
{
    uint32_t u = (uint32_t)off;
    return (u >> 12 & 1) << 31 | (u >> 5 & 0x3F) << 25 | rs2 << 20 | rs1 << 15 | 1u << 12 |
           (u >> 1 & 0xF) << 8 | (u >> 11 & 1) << 7 | 0x63;
}

typedef struct prog {
    uint8_t mem[4096];
    size_t n;
} prog;

static void w32(prog *p, uint32_t w)
{
    memcpy(p->mem + p->n, &(uint8_t[4]){(uint8_t)w, (uint8_t)(w >> 8), (uint8_t)(w >> 16),
                                        (uint8_t)(w >> 24)}, 4);
    p->n += 4;
}
static void w16(prog *p, uint16_t h)
{
    p->mem[p->n++] = (uint8_t)h;
    p->mem[p->n++] = (uint8_t)(h >> 8);
}

/* x1 = data, x5 = iterations; 12 instructions per iteration. */
static void build(prog *p, uint32_t iters)
{
    size_t loop;
    p->n = 0;
    w32(p, 0x00100000u | 1u << 7 | 0x37);                    /* lui x1, 0x100 */
    w32(p, enc_i(0x400, 1, 0, 1, 0x13));                       /* addi x1, x1, 0x400 */
    w32(p, ((iters + 0x800) >> 12) << 12 | 5u << 7 | 0x37);   /* lui x5, hi(iters) */
    w32(p, enc_i((int32_t)((iters & 0xFFF) ^ 0x800) - 0x800, 5, 0, 5, 0x13));
    loop = p->n;
    w32(p, enc_i(0, 1, 2, 6, 0x03));          /* lw x6, 0(x1) */
    w32(p, enc_i(1, 6, 0, 6, 0x13));          /* addi x6, x6, 1 */
    w32(p, enc_s(0, 6, 1));                   /* sw x6, 0(x1) */
    w32(p, enc_r(0, 6, 7, 0, 7));             /* add x7, x7, x6 */
    w32(p, enc_r(0, 7, 8, 4, 8));             /* xor x8, x8, x7 */
    w32(p, enc_i(3, 8, 1, 9, 0x13));          /* slli x9, x8, 3 */
    w32(p, enc_r(1, 6, 9, 0, 10));            /* mul x10, x9, x6 */
    w16(p, 0x0505);                           /* c.addi x10, 1 */
    w16(p, 0x0585);                           /* c.addi x11, 1 */
    w32(p, enc_r(0, 10, 11, 6, 11));          /* or x11, x11, x10 */
    w32(p, enc_i(-1, 5, 0, 5, 0x13));         /* addi x5, x5, -1 */
    w32(p, enc_bne((int32_t)(loop - p->n), 5, 0));
    /* halt: sw 1 -> SimCtrl 0x20008 */
    w32(p, 0x20u << 12 | 30u << 7 | 0x37);    /* lui x30, 0x20 */
    w32(p, enc_i(1, 0, 0, 29, 0x13));
    w32(p, enc_s(8, 29, 30));
    w32(p, 0x0000006Fu);
}

static double seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* what src/targets/ibex.c's attribution does per instruction */
typedef struct attr_table {
    uint32_t start[64], end[64];
    uint64_t sums[65][IBEX_ATTR_COUNTERS];
    size_t last;
} attr_table;

static size_t find_row(attr_table *a, uint32_t pc)
{
    size_t row = a->last;
    if (!row || pc < a->start[row - 1] || pc >= a->end[row - 1]) {
        size_t lo = 0, hi = 64;
        while (lo < hi) {
            size_t mid = (lo + hi) / 2;
            if (a->start[mid] <= pc)
                lo = mid + 1;
            else
                hi = mid;
        }
        row = lo && pc < a->end[lo - 1] ? lo : 0;
        a->last = row;
    }
    return row;
}

static void range(void *ctx, uint32_t pc, uint32_t *lo, uint32_t *hi)
{
    attr_table *a = ctx;
    size_t row = find_row(a, pc);
    *lo = row ? a->start[row - 1] : pc;
    *hi = row ? a->end[row - 1] : pc + 1;
}

static void attribute(void *ctx, uint32_t pc, const uint64_t *delta)
{
    attr_table *a = ctx;
    size_t row = find_row(a, pc);
    for (unsigned i = 0; i < IBEX_ATTR_COUNTERS; i++)
        a->sums[row][i] += delta[i];
}

extern char **environ;

/* CPU seconds (user + system) one run of argv took, output to /dev/null; -1 if it failed */
static double cpu_of(char *const argv[])
{
    posix_spawn_file_actions_t fa;
    pid_t pid;
    int ws, rc;
    struct rusage ru;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", 1 /* O_WRONLY */, 0);
    posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", 1, 0);
    rc = posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    if (rc != 0 || wait4(pid, &ws, 0, &ru) != pid || !WIFEXITED(ws) || WEXITSTATUS(ws) != 0)
        return -1;
    return (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec * 1e-6 + (double)ru.ru_stime.tv_sec +
           (double)ru.ru_stime.tv_usec * 1e-6;
}

#ifndef SOCMON_SOURCE_DIR
#define SOCMON_SOURCE_DIR "."
#endif

/* stat, record without a profile, with the profile (no slices), as it comes; 1 if one failed */
static int programs(void)
{
    static const char *const progs[] = {"coremark_i100", "coremark_i10", "embench_sglib"};
    static const char *const presets[] = {"small", "maxperf"};
    static const char *const modes[] = {"stat", "record symbols=0", "record slices=0", "record"};
    const char *bin = getenv("SOCMON_BIN") ? getenv("SOCMON_BIN") : "./socmon";
    const char *src = getenv("SOCMON_SRC") ? getenv("SOCMON_SRC") : SOCMON_SOURCE_DIR;
    int runs = getenv("BENCH_IBEX_RUNS") ? atoi(getenv("BENCH_IBEX_RUNS")) : 9;
    char dir[] = "/tmp/bench_ibex.XXXXXX", out[64], missed[512] = "";
    if (runs < 1)
        runs = 1;
    if (!mkdtemp(dir)) {
        perror("bench_ibex: mkdtemp");
        return 1;
    }
    snprintf(out, sizeof out, "%s/run.rec", dir);
    printf("\nibex programs: CPU time (user + system), best of %d, ratio to record without a profile\n", runs);
    for (size_t g = 0; g < sizeof progs / sizeof progs[0]; g++) {
        for (size_t k = 0; k < 2; k++) {
            char elf[4096], tgt[4][64];
            double best[4];
            snprintf(elf, sizeof elf, "%s/bench/ibex/%s.elf", src, progs[g]);
            snprintf(tgt[0], sizeof tgt[0], "ibex:config=%s", presets[k]);
            snprintf(tgt[1], sizeof tgt[1], "ibex:config=%s,symbols=0", presets[k]);
            snprintf(tgt[2], sizeof tgt[2], "ibex:config=%s,slices=0", presets[k]);
            snprintf(tgt[3], sizeof tgt[3], "ibex:config=%s", presets[k]);
            for (int m = 0; m < 4; m++)
                best[m] = 1e30;
            for (int r = 0; r < runs; r++) {
                for (int m = 0; m < 4; m++) {
                    char *stat_argv[] = {(char *)bin, "stat", "-t", tgt[m], "--", elf, NULL};
                    char *rec_argv[] = {(char *)bin, "record", "-t", tgt[m], "-o", out, "--", elf, NULL};
                    double t = cpu_of(m == 0 ? stat_argv : rec_argv);
                    if (t < 0) {
                        fprintf(stderr, "bench_ibex: %s %s -t %s -- %s failed\n", bin, m ? "record" : "stat",
                                tgt[m], elf);
                        unlink(out);
                        rmdir(dir);
                        return 1;
                    }
                    if (t < best[m])
                        best[m] = t;
                }
            }
            printf("%-13s %-7s:", progs[g], presets[k]);
            for (int m = 0; m < 4; m++)
                printf(" %s %.3f s (%.2fx)%s", modes[m], best[m], best[m] / best[1], m < 3 ? "," : "\n");
            /* the goal's programs: record as it comes against record without a profile */
            double goal = strcmp(progs[g], "coremark_i100") == 0 ? 1.5 : strcmp(progs[g], "coremark_i10") == 0 ? 2 : 0;
            if (goal > 0 && best[3] / best[1] > goal) {
                snprintf(missed + strlen(missed), sizeof missed - strlen(missed), " %s %s %.2fx > %.1fx;",
                         progs[g], presets[k], best[3] / best[1], goal);
            }
        }
    }
    printf("goal (issue 39): record <= 1.5x record symbols=0 on coremark_i100, <= 2x on coremark_i10: %s%s\n",
           missed[0] ? "MISSED:" : "met in this run", missed);
    unlink(out);
    rmdir(dir);
    return 0;   /* a figure, not a test (the host's load moves it): the line above says met or MISSED */
}

int main(void)
{
    static const char *const presets[] = {"small", "maxperf"};
    const uint32_t iters = 4000000;   /* 48 M instructions */
    static attr_table at;
    double rate[4][2] = {{0}};
    ibex_symbol syms[64];
    prog p;
    build(&p, iters);
    for (unsigned i = 0; i < 64; i++) {   /* the loop is in symbol 0, the halt in symbol 1 */
        at.start[i] = IBEX_SS_RESET_PC + 0x40 * i;
        at.end[i] = at.start[i] + 0x40;
        syms[i] = (ibex_symbol){at.start[i], at.end[i], NULL};
    }
    for (int run = 0; run < 8; run++) {
        /* 0: off, 1: by function (the target), 2: the exact profile, 3: stepping */
        int k = run % 2, attr = run / 2;
        ibex_config cfg;
        ibex_core *c;
        ibex_stop why;
        ibex_stats st;
        double t0, dt;
        if (smn_ibex_config_preset(&cfg, presets[k]) != SOCMON_OK || smn_ibex_create(&cfg, &c) != SOCMON_OK ||
            smn_ibex_load(c, IBEX_SS_RESET_PC, p.mem, p.n) != SOCMON_OK) {
            fprintf(stderr, "bench_ibex: %s\n", socmon_errmsg());
            return 1;
        }
        if (attr)
            smn_ibex_set_attribution(c, attribute, attr == 3 ? NULL : range, &at);
        if (attr == 2 && smn_ibex_profile_start(c, syms, 64, 100000) != SOCMON_OK) {
            fprintf(stderr, "bench_ibex: %s\n", socmon_errmsg());
            return 1;
        }
        t0 = seconds();
        if (smn_ibex_run(c, 0, &why) != SOCMON_OK || why != IBEX_STOP_HALT) {
            fprintf(stderr, "bench_ibex: run did not halt\n");
            return 1;
        }
        dt = seconds() - t0;
        smn_ibex_get_stats(c, &st);
        rate[attr][k] = (double)st.instructions / dt / 1e6;
        printf("ibex %-7s: %llu instructions, %llu cycles (IPC %.3f) in %.3f s: %.1f M instr/s "
               "%s\n",
               presets[k], (unsigned long long)st.instructions,
               (unsigned long long)smn_ibex_counter(c, 0),
               (double)smn_ibex_counter(c, 2) / (double)smn_ibex_counter(c, 0), dt,
               (double)st.instructions / dt / 1e6,
               attr == 3   ? "stepping: attributing every instruction on its own"
               : attr == 2 ? "with the exact profile (per PC and call stack)"
               : attr      ? "with per-function attribution"
                           : "(goal >= 50), all counters on");
        smn_ibex_destroy(c);
    }
    for (int k = 0; k < 2; k++)
        printf("ibex %-7s: per-function attribution costs %.2fx (%.1f -> %.1f M instr/s); the exact profile "
               "%.2fx (%.1f M instr/s, goal <= 1.5x); stepping %.1fx\n", presets[k], rate[0][k] / rate[1][k],
               rate[0][k], rate[1][k], rate[0][k] / rate[2][k], rate[2][k], rate[0][k] / rate[3][k]);
    return programs();
}
