/* examples/riscv_hpm/phases.c: where the cycles of a program go, phase by phase.
 *
 * Four phases, each bound by something else: copying memory (data side), multiplying
 * (the multiplier), dividing (the divider), and a chain of short taken branches (fetch).
 * The counters are never zeroed: each phase runs between socmon_hpm_start() and
 * socmon_hpm_stop(), a snapshot is taken while they are stopped, and
 * socmon_hpm_snapshot_delta of two consecutive snapshots gives the phase's own counts (wrap-safe, with the width
 * socmon_hpm_width measured). The printout per phase: cycles, instructions, the largest
 * stall and its share; then the totals, which the phases add up to exactly. */
#include <stdint.h>
#include <socmon/riscv_hpm.h>

#define SIMCTRL_OUT ((volatile uint32_t *)0x20000)
#define N 128

static volatile uint32_t src[N], dst[N];
static volatile uint32_t factor = 2654435761u, divisor = 1000003u;

static void put(char c) { *SIMCTRL_OUT = (uint8_t)c; }

static void put_str(const char *s)
{
    while (*s)
        put(*s++);
}

/* values below 2^32 only: the counts here are small */
static void put_u32(uint32_t v)
{
    char buf[10];
    int n = 0;
    do {
        buf[n++] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    while (n)
        put(buf[--n]);
}

__attribute__((noinline)) static void copy_phase(void)
{
    unsigned i;
    for (i = 0; i < N; i++)
        dst[i] = src[i];
}

__attribute__((noinline)) static uint32_t mul_phase(void)
{
    uint32_t h = 1;
    unsigned i;
    for (i = 0; i < N; i++)
        h = h * factor + i;
    return h;
}

__attribute__((noinline)) static uint32_t div_phase(uint32_t x)
{
    unsigned i;
    for (i = 0; i < 16; i++)
        x = x / divisor + x;
    return x;
}

__attribute__((noinline)) static uint32_t branch_phase(uint32_t x)
{
    unsigned i;
    for (i = 0; i < N; i++) {
        if (x & 1)
            x = x * 3 + 1;
        else
            x >>= 1;
    }
    return x;
}

static const char *const phase_name[] = {"copy", "mul", "div", "branch"};
static const unsigned stall_counter[] = {
    SOCMON_HPM_IBEX_CYCLES_LSU, SOCMON_HPM_IBEX_CYCLES_IF,
    SOCMON_HPM_IBEX_CYCLES_MUL_WAIT, SOCMON_HPM_IBEX_CYCLES_DIV_WAIT};

static void print_phase(const char *name, const socmon_hpm_snapshot *d)
{
    unsigned k, worst = stall_counter[0];
    uint32_t cycles = (uint32_t)d->value[SOCMON_HPM_MCYCLE];
    for (k = 1; k < sizeof stall_counter / sizeof stall_counter[0]; k++)
        if (d->value[stall_counter[k]] > d->value[worst])
            worst = stall_counter[k];
    put_str(name);
    put_str(" cycles ");
    put_u32(cycles);
    put_str(" instret ");
    put_u32((uint32_t)d->value[SOCMON_HPM_MINSTRET]);
    put_str(" loads ");
    put_u32((uint32_t)d->value[SOCMON_HPM_IBEX_LOADS]);
    put_str(" stores ");
    put_u32((uint32_t)d->value[SOCMON_HPM_IBEX_STORES]);
    put_str(" taken ");
    put_u32((uint32_t)d->value[SOCMON_HPM_IBEX_BRANCHES_TAKEN]);
    put_str(" top ");
    put_str(socmon_hpm_ibex_event_name(worst));
    put(' ');
    put_u32(cycles ? (uint32_t)d->value[worst] * 100u / cycles : 0);
    put_str("%\n");
}

/* Global, so the compiler treats every snapshot as memory the start/stop asm may touch:
 * no store of a snapshot can sink into the next phase's window. */
static socmon_hpm_snapshot snap[5];

/* A phase between start and stop. The phases are not inlined, so nothing of main's
 * own (spills, loop bookkeeping) lands in a window: what is counted is the call, the
 * phase and the start/stop pair. */
#define PHASE(k, call)                                          \
    do {                                                        \
        socmon_hpm_start();                                     \
        call;                                                   \
        socmon_hpm_stop();                                      \
        socmon_hpm_snapshot_read(&snap[k], SOCMON_HPM_IBEX_EVENTS); \
    } while (0)

int main(void)
{
    socmon_hpm_snapshot d;
    unsigned i, width = socmon_hpm_width(SOCMON_HPM_FIRST);
    uint32_t x = 0;

    for (i = 0; i < N; i++)
        src[i] = i;
    socmon_hpm_stop();
    socmon_hpm_snapshot_read(&snap[0], SOCMON_HPM_IBEX_EVENTS);   /* not zeroed: any start value */
    PHASE(1, copy_phase());
    PHASE(2, x = mul_phase());
    PHASE(3, x = div_phase(x));
    PHASE(4, x = branch_phase(x));
    for (i = 0; i < 4; i++) {
        socmon_hpm_snapshot_delta(&snap[i], &snap[i + 1], width, &d);
        print_phase(phase_name[i], &d);
    }
    socmon_hpm_snapshot_delta(&snap[0], &snap[4], width, &d);
    print_phase("total", &d);
    put_str("x ");
    put_u32(x);
    put('\n');
    return 0;
}
