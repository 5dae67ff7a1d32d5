/* hpm_api.c: every call of socmon/riscv_hpm.h on Ibex, for test_riscv_hpm_examples.c.
 *
 * Built with tests/ibex/programs' crt0.S, link.ld and ibex_test.h (SimCtrl printing). Each
 * result is printed as "name xxxxxxxx" (hex, 32 bits; 64-bit values as name.hi / name.lo),
 * and the host test checks each against the configuration it ran (mhpm_num, mhpm_width)
 * and, for the last snapshot, against the model's own counters after the halt.
 * Counter indices come from a volatile, so the switch-over-index paths of the header are
 * the ones exercised, not just the constant-folded ones. */
#include <stdint.h>
#include <socmon/riscv_hpm.h>
#include "ibex_test.h"

static volatile unsigned vidx[32];
static volatile uint32_t ldata[4] = {1, 2, 3, 4};

static void print64(const char *hi_name, const char *lo_name, uint64_t v)
{
    sm_print_named(hi_name, (uint32_t)(v >> 32));
    sm_print_named(lo_name, (uint32_t)v);
}

/* Prints "name.N xxxxxxxx" */
static void print_idx(const char *name, unsigned n, uint32_t v)
{
    sm_puts(name);
    sm_putc('.');
    if (n >= 10)
        sm_putc('0' + (int)(n / 10));
    sm_putc('0' + (int)(n % 10));
    sm_putc(' ');
    sm_puthex(v);
    sm_putc('\n');
}

/* The carry sweep: mcycle = 0x00000000_FFFFFFC0 + k while inhibited, then only mcycle
 * starts and is read at once, naively (high then low) and hi-lo-hi. Over k = 0..63 the
 * carry out of the low half lands on every instruction of both read sequences (from the
 * uninhibiting write to the read is well under 64 cycles). */
#define SWEEP 64
static uint64_t naive[SWEEP], hlh[SWEEP];

static uint64_t read_naive_mcycle(void)
{
    uint32_t hi, lo;
    __asm__ volatile("csrr %0, mcycleh\n\tcsrr %1, mcycle" : "=&r"(hi), "=&r"(lo));
    return ((uint64_t)hi << 32) | lo;
}

static void carry_sweep(void)
{
    unsigned k;
    for (k = 0; k < SWEEP; k++) {
        socmon_hpm_stop();
        socmon_hpm_write_hi(SOCMON_HPM_MCYCLE, 0);
        socmon_hpm_write_lo(SOCMON_HPM_MCYCLE, 0xFFFFFFC0u + k);
        socmon_hpm_uninhibit(SOCMON_HPM_BIT(SOCMON_HPM_MCYCLE));
        hlh[k] = socmon_hpm_read_mcycle();
        socmon_hpm_stop();
        socmon_hpm_write_hi(SOCMON_HPM_MCYCLE, 0);
        socmon_hpm_write_lo(SOCMON_HPM_MCYCLE, 0xFFFFFFC0u + k);
        socmon_hpm_uninhibit(SOCMON_HPM_BIT(SOCMON_HPM_MCYCLE));
        naive[k] = read_naive_mcycle();
    }
    socmon_hpm_stop();
    for (k = 0; k < SWEEP; k++) {
        print_idx("hlh.hi", k, (uint32_t)(hlh[k] >> 32));
        print_idx("hlh.lo", k, (uint32_t)hlh[k]);
        print_idx("naive.hi", k, (uint32_t)(naive[k] >> 32));
        print_idx("naive.lo", k, (uint32_t)naive[k]);
    }
}

static void print_snapshot(const char *title, const socmon_hpm_snapshot *s)
{
    unsigned i;
    sm_puts(title);
    sm_putc('\n');
    for (i = 0; i < SOCMON_HPM_COUNT; i++)
        if (socmon_hpm_csr_name(i))
            print_idx("snap", i, (uint32_t)s->value[i]);
}

int main(void)
{
    socmon_hpm_snapshot s, a, d;
    unsigned i, n;
    uint32_t t0, t1, t2;

    for (i = 0; i < 32; i++)
        vidx[i] = i;

    /* probes */
    sm_print_named("implemented", socmon_hpm_implemented());
    sm_print_named("inhibit.after_probe", socmon_hpm_get_inhibit());
    for (i = 0; i < 32; i++)
        print_idx("width", i, socmon_hpm_width(vidx[i]));

    /* mhpmevent: hardwired, writes ignored */
    for (n = 3; n < 32; n++)
        print_idx("event", n, (uint32_t)socmon_hpm_read_event(vidx[n]));
    socmon_hpm_write_event(vidx[3], 0x55);
    sm_print_named("event3.after_write", (uint32_t)socmon_hpm_read_event(3));

    /* inhibit / uninhibit masks */
    socmon_hpm_set_inhibit(0);
    socmon_hpm_inhibit(SOCMON_HPM_BIT(3) | SOCMON_HPM_BIT(5));
    sm_print_named("inhibit.set35", socmon_hpm_get_inhibit());
    socmon_hpm_inhibit_all();
    socmon_hpm_uninhibit(SOCMON_HPM_BIT(0) | SOCMON_HPM_BIT(4));
    sm_print_named("inhibit.clear04", socmon_hpm_get_inhibit());
    socmon_hpm_uninhibit_all();
    sm_print_named("inhibit.none", socmon_hpm_get_inhibit());

    /* write/read every index through the variable-index paths, counters stopped */
    socmon_hpm_stop();
    for (i = 0; i < 32; i++)
        socmon_hpm_write(vidx[i], ((uint64_t)(0xA5000000u + i) << 32) | (0x5A000000u + i));
    socmon_hpm_snapshot_read(&s, SOCMON_HPM_ALL);
    for (i = 0; i < 32; i++) {
        print_idx("rw.hi", i, (uint32_t)(s.value[i] >> 32));
        print_idx("rw.lo", i, (uint32_t)s.value[i]);
    }
    print64("read.mcycle.hi", "read.mcycle.lo", socmon_hpm_read_mcycle());
    print64("read.minstret.hi", "read.minstret.lo", socmon_hpm_read_minstret());

    /* zero by mask: everything but mhpmcounter4 */
    socmon_hpm_zero(SOCMON_HPM_ALL & ~SOCMON_HPM_BIT(4));
    socmon_hpm_snapshot_read(&s, SOCMON_HPM_ALL);
    print_idx("zero.lo", 3, (uint32_t)s.value[3]);
    print_idx("zero.lo", 4, (uint32_t)s.value[4]);
    print_idx("zero.hi", 0, (uint32_t)(s.value[0] >> 32));

    /* an empty window, then a window of three loads, two MULs and one DIV */
    socmon_hpm_zero(SOCMON_HPM_ALL);
    socmon_hpm_start();
    socmon_hpm_stop();
    socmon_hpm_snapshot_read(&s, SOCMON_HPM_IBEX_EVENTS);
    print_snapshot("== empty window", &s);

    socmon_hpm_zero(SOCMON_HPM_ALL);
    socmon_hpm_snapshot_read(&a, SOCMON_HPM_ALL);
    t0 = (uint32_t)(uintptr_t)ldata;
    socmon_hpm_start();
    __asm__ volatile("lw %0, 0(%3)\n\tlw %1, 4(%3)\n\tlw %2, 8(%3)\n\t"
                     "mul %0, %0, %1\n\tmul %1, %1, %2\n\tdiv %2, %0, %1"
                     : "=&r"(t0), "=&r"(t1), "=&r"(t2) : "r"(t0));
    socmon_hpm_stop();
    socmon_hpm_snapshot_read(&s, SOCMON_HPM_ALL);
    socmon_hpm_snapshot_delta(&a, &s, 40, &d);
    sm_print_named("window.result", t2);
    print_snapshot("== work window", &d);

    /* hi-lo-hi against a carry */
    carry_sweep();

    /* the last snapshot: counters stopped from here to the halt, so the model's final
     * counters must read the same */
    socmon_hpm_zero(SOCMON_HPM_ALL);
    socmon_hpm_start();
    for (i = 0; i < 8; i++)
        ldata[i & 3] += i;
    socmon_hpm_stop();
    socmon_hpm_snapshot_read(&s, SOCMON_HPM_ALL);
    for (i = 0; i < 32; i++) {
        print_idx("final.hi", i, (uint32_t)(s.value[i] >> 32));
        print_idx("final.lo", i, (uint32_t)s.value[i]);
    }
    return 0;
}
