/* examples/riscv_hpm: measuring a region of RV32 firmware with socmon/riscv_hpm.h.
 *
 * Runs on Ibex's examples/simple_system (silicon or RTL simulation) and on socmon's Ibex
 * model. It stops and zeroes every counter, runs a small kernel between start and stop
 * (loads, multiplies, stores, one division), then prints through SimCtrl (a byte written
 * to 0x20000) what each counter counted and the CPI stack: the share of cycles lost to
 * data memory (NumCyclesLSU), instruction fetch (NumCyclesIF), the multiplier and the
 * divider. Printing happens after the stop, so its own cycles are not in the numbers.
 * The window's fixed cost (start, the stop's li and csrw) is in them: 4 cycles and 2
 * instructions on Ibex's small configuration.
 *
 * No libc, no libgcc: 64-bit numbers are printed by repeated subtraction and the
 * percentages use 32-bit division only (rv32imc has no 64-bit divide instruction). */
#include <stdint.h>
#include <socmon/riscv_hpm.h>

#define SIMCTRL_OUT ((volatile uint32_t *)0x20000)
#define N 64

static volatile uint32_t data[N];
static volatile uint32_t divisor = 7;

static void put(char c) { *SIMCTRL_OUT = (uint8_t)c; }

static void put_str(const char *s)
{
    while (*s)
        put(*s++);
}

static void put_u64(uint64_t v)
{
    static const uint64_t pow10[] = {
        10000000000000000000u, 1000000000000000000u, 100000000000000000u, 10000000000000000u,
        1000000000000000u, 100000000000000u, 10000000000000u, 1000000000000u, 100000000000u,
        10000000000u, 1000000000u, 100000000u, 10000000u, 1000000u, 100000u, 10000u, 1000u,
        100u, 10u, 1u};
    unsigned i, started = 0;
    for (i = 0; i < sizeof pow10 / sizeof pow10[0]; i++) {
        char d = '0';
        while (v >= pow10[i]) {
            v -= pow10[i];
            d++;
        }
        if (d != '0' || started || i == sizeof pow10 / sizeof pow10[0] - 1) {
            put(d);
            started = 1;
        }
    }
}

/* part/whole in tenths of a percent (whole > 0): both are shifted right until whole fits
 * in 22 bits, so part * 1000 stays within 32 bits. */
static uint32_t permille(uint64_t part, uint64_t whole)
{
    while (whole >= (1u << 22)) {
        part >>= 1;
        whole >>= 1;
    }
    return (uint32_t)part * 1000u / (uint32_t)whole;
}

static void put_permille(const char *name, uint32_t pm)
{
    put_str(name);
    put(' ');
    put_u64(pm / 10);
    put('.');
    put((char)('0' + pm % 10));
    put_str("%\n");
}

/* The measured kernel: a running product-sum over the array, written back. The
 * multiplier comes from memory, so the compiler cannot turn it into shifts. */
static uint32_t kernel(void)
{
    uint32_t sum = 1;
    unsigned i;
    for (i = 0; i < N; i++) {
        sum = sum * data[i] + i;
        data[i] = sum;
    }
    return sum / divisor;
}

int main(void)
{
    socmon_hpm_snapshot s;
    uint64_t cycles, instret, lost;
    uint32_t pm_lsu, pm_if, pm_mul, pm_div, have;
    uint32_t result;
    unsigned i;

    for (i = 0; i < N; i++)
        data[i] = i * 3 + 1;
    have = socmon_hpm_implemented();

    socmon_hpm_stop();
    socmon_hpm_zero(SOCMON_HPM_ALL);
    socmon_hpm_start();
    result = kernel();
    socmon_hpm_stop();
    socmon_hpm_snapshot_read(&s, have);

    put_str("result ");
    put_u64(result);
    put('\n');
    for (i = 0; i < SOCMON_HPM_COUNT; i++) {
        const char *ev = socmon_hpm_ibex_event_name(i);
        if (!ev || !(have & SOCMON_HPM_BIT(i)))
            continue;
        put_str(socmon_hpm_csr_name(i));
        put(' ');
        put_str(ev);
        put(' ');
        put_u64(s.value[i]);
        put('\n');
    }

    cycles = s.value[SOCMON_HPM_MCYCLE];
    instret = s.value[SOCMON_HPM_MINSTRET];
    if (cycles == 0 || instret == 0)
        return 0;
    /* CPI in hundredths, with the same 32-bit scaling as the shares */
    put_str("CPI ");
    {
        uint32_t cpi = permille(cycles, instret) / 10;
        put_u64(cpi / 100);
        put('.');
        put((char)('0' + cpi / 10 % 10));
        put((char)('0' + cpi % 10));
        put('\n');
    }
    pm_lsu = permille(s.value[SOCMON_HPM_IBEX_CYCLES_LSU], cycles);
    pm_if = permille(s.value[SOCMON_HPM_IBEX_CYCLES_IF], cycles);
    pm_mul = permille(s.value[SOCMON_HPM_IBEX_CYCLES_MUL_WAIT], cycles);
    pm_div = permille(s.value[SOCMON_HPM_IBEX_CYCLES_DIV_WAIT], cycles);
    lost = (uint64_t)pm_lsu + pm_if + pm_mul + pm_div;
    put_permille("stack.lsu_wait", pm_lsu);
    put_permille("stack.fetch_wait", pm_if);
    put_permille("stack.mul_wait", pm_mul);
    put_permille("stack.div_wait", pm_div);
    put_permille("stack.other", lost > 1000 ? 0 : 1000 - (uint32_t)lost);
    return 0;
}
