/* Time on the Zynq model's bus: every register access takes access_ns of
 * simulated time and acts at its end (docs/zynq.md, "Time on the bus").
 *
 * Sources of the expected values:
 *  - spec §1.4 (HDL *_register_module.v): SR returns the register-clock count
 *    since the first SR read (0 on that read) and latches the counters; the
 *    model's register clock is its core clock, 200 MHz by default (5 ns);
 *  - spec §1.4 (HDL *_samp_intl_cnt.v): the lapse period is SI + 3 cycles and
 *    sets IS bit 1 (spec §1.6); offsets from spec §1.2;
 *  - the default traffic (socmon_zynq_desc_default): 400 MB/s written and
 *    800 MB/s read per slot in 128-byte bursts, so a write every 64 cycles
 *    and a read every 32;
 *  - SOCMON_ZYNQ_ACCESS_NS_DEFAULT: 200 ns, our estimate (docs/zynq.md). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include "models/zynq/zynq_model.h"
#include "socmon/socmon.h"

#define XAPM_SI_LOW 0x024u
#define XAPM_SICR 0x028u
#define XAPM_SR 0x02Cu
#define XAPM_IE 0x034u
#define XAPM_IS 0x038u
#define XAPM_CTL 0x300u
#define PMU_PMCR 0xE04u

typedef struct fx {
    socmon_zynq_desc d;
    socmon_zynq_soc *soc;
    socmon_bus *bus;
} fx;

static void fx_open(fx *f)
{
    socmon_zynq_desc_default(&f->d);
    assert_int_equal(smn_zynq_soc_new(&f->d, &f->soc), SOCMON_OK);
    assert_int_equal(socmon_bus_model_new(&f->bus), SOCMON_OK);
    assert_int_equal(smn_zynq_soc_map(f->soc, f->bus), SOCMON_OK);
}

static void fx_close(fx *f)
{
    socmon_bus_free(f->bus);
    smn_zynq_soc_free(f->soc);
}

static uint32_t rd(fx *f, uint64_t addr)
{
    uint32_t v = 0xDEADBEEF;
    assert_int_equal(socmon_bus_read32(f->bus, addr, &v), SOCMON_OK);
    return v;
}

static void wr(fx *f, uint64_t addr, uint32_t v)
{
    assert_int_equal(socmon_bus_write32(f->bus, addr, v), SOCMON_OK);
}

/* N accesses (reads and writes, APM and both PMU windows) advance the clock
 * by N * access_ns; 0 restores zero-time accesses. */
static void test_accesses_advance_time(void **state)
{
    (void)state;
    fx f;
    fx_open(&f);
    assert_int_equal(socmon_zynq_soc_access_ns(f.soc), SOCMON_ZYNQ_ACCESS_NS_DEFAULT);
    assert_int_equal(SOCMON_ZYNQ_ACCESS_NS_DEFAULT, 200);
    uint64_t t0 = socmon_zynq_soc_now_ns(f.soc);
    assert_int_equal(t0, 0);
    for (int i = 0; i < 10; i++)
        (void)rd(&f, f.d.apm_base + XAPM_IE);
    for (int i = 0; i < 3; i++)
        (void)rd(&f, f.d.pmu_base[i & 1] + PMU_PMCR);
    wr(&f, f.d.apm_base + XAPM_SI_LOW, 5);
    wr(&f, f.d.pmu_base[1] + PMU_PMCR, 0);
    assert_int_equal(socmon_zynq_soc_now_ns(f.soc), 15 * 200);
    /* a 64-bit access is two 32-bit ones on this bus */
    uint64_t v64 = 0;
    assert_int_equal(socmon_bus_read64(f.bus, f.d.apm_base + XAPM_SI_LOW, &v64), SOCMON_OK);
    assert_true(socmon_zynq_soc_now_ns(f.soc) >= 17 * 200);
    uint64_t t1 = socmon_zynq_soc_now_ns(f.soc);

    assert_int_equal(socmon_zynq_soc_set_access_ns(f.soc, 0), SOCMON_OK);
    for (int i = 0; i < 100; i++)
        (void)rd(&f, f.d.apm_base + XAPM_IE);
    assert_int_equal(socmon_zynq_soc_now_ns(f.soc), t1);

    assert_int_equal(socmon_zynq_soc_set_access_ns(f.soc, 37), SOCMON_OK);
    for (int i = 0; i < 7; i++)
        wr(&f, f.d.apm_base + XAPM_IE, 0);
    assert_int_equal(socmon_zynq_soc_now_ns(f.soc), t1 + 7 * 37);
    /* an access outside the windows fails and takes no model time */
    uint32_t v;
    assert_int_equal(socmon_bus_read32(f.bus, 0x1000, &v), SOCMON_EIO);
    assert_int_equal(socmon_zynq_soc_now_ns(f.soc), t1 + 7 * 37);
    fx_close(&f);
}

/* A read returns the register as of the end of its access: SR counts the
 * register clock from the end of the first SR read, so the second read,
 * one access later, sees 200 ns = 40 cycles. */
static void test_read_acts_at_end_of_access(void **state)
{
    (void)state;
    fx f;
    fx_open(&f);
    assert_int_equal(rd(&f, f.d.apm_base + XAPM_SR), 0);
    assert_int_equal(rd(&f, f.d.apm_base + XAPM_SR), 40);
    assert_int_equal(rd(&f, f.d.apm_base + XAPM_SR), 80);
    assert_int_equal(socmon_zynq_soc_set_access_ns(f.soc, 0), SOCMON_OK);
    assert_int_equal(rd(&f, f.d.apm_base + XAPM_SR), 80);
    fx_close(&f);
}

static void test_access_ns_range(void **state)
{
    (void)state;
    fx f;
    fx_open(&f);
    assert_int_equal(socmon_zynq_soc_set_access_ns(f.soc, SOCMON_ZYNQ_ACCESS_NS_MAX), SOCMON_OK);
    assert_int_equal(socmon_zynq_soc_access_ns(f.soc), 1000000);
    assert_int_equal(socmon_zynq_soc_set_access_ns(f.soc, 1000001), SOCMON_ERANGE);
    assert_non_null(strstr(socmon_errmsg(), "access_ns 1000001 out of range 0..1000000"));
    assert_int_equal(socmon_zynq_soc_access_ns(f.soc), 1000000);   /* unchanged */
    assert_int_equal(socmon_zynq_soc_set_access_ns(NULL, 1), SOCMON_EINVAL);
    assert_int_equal(socmon_zynq_soc_access_ns(NULL), 0);
    fx_close(&f);
}

/* A driver that waits for the lapse by polling IS (no interrupt, no advance
 * call) terminates: SI = 63997 lapses 64000 cycles = 320 us after SICR's
 * enable, and each poll is 200 ns, so the 1600th read is the first to see it. */
static void test_polling_loop_terminates(void **state)
{
    (void)state;
    fx f;
    fx_open(&f);
    uint64_t apm = f.d.apm_base;
    wr(&f, apm + XAPM_SI_LOW, 63997);
    wr(&f, apm + XAPM_SICR, 0x2);   /* LOAD */
    wr(&f, apm + XAPM_CTL, 0x1);    /* counters on: the interval counter runs only then */
    wr(&f, apm + XAPM_SICR, 0x1);   /* EN */
    uint64_t t0 = socmon_zynq_soc_now_ns(f.soc);
    unsigned polls = 0;
    while (!(rd(&f, apm + XAPM_IS) & 0x2)) {
        polls++;
        assert_true(polls < 1000000);   /* a failure, never a hang */
    }
    assert_int_equal(polls + 1, 1600);
    assert_int_equal(socmon_zynq_soc_now_ns(f.soc), t0 + 1600 * 200);
    fx_close(&f);
}

/* The xaxipmon-style sampling sequence of test_zynq_user_driver.c with
 * accesses taking time: the interval between two samples is longer than the
 * advance by the reads in it, and the SR difference says by how much; the
 * counts follow the SR interval (to a transaction at each end). */
static void test_driver_intervals_follow_sr(void **state)
{
    (void)state;
    fx f;
    fx_open(&f);
    uint64_t apm = f.d.apm_base;
    wr(&f, apm + XAPM_CTL, 0x2);
    wr(&f, apm + XAPM_CTL, 0x0);
    wr(&f, apm + XAPM_CTL, 0x1 | 0x10 | 0x40);
    wr(&f, apm + XAPM_SICR, 0);   /* no reset on sample */
    assert_int_equal(socmon_zynq_soc_start(f.soc, "steady", 0), SOCMON_OK);
    uint32_t sr[3], c[3][6];
    for (int s = 0; s < 3; s++) {
        if (s)
            assert_int_equal(socmon_zynq_soc_advance(f.soc, 1000000, NULL), SOCMON_OK);
        sr[s] = rd(&f, apm + XAPM_SR);
        for (unsigned j = 0; j < 6; j++)
            c[s][j] = rd(&f, apm + 0x200u + 16u * j);   /* slot 0's sampled counters */
    }
    for (int s = 1; s < 3; s++) {
        uint32_t cyc = sr[s] - sr[s - 1];
        /* 1 ms plus the six counter reads and the SR read: 7 x 40 cycles */
        assert_int_equal(cyc, 200000 + 7 * 40);
        uint32_t wb = c[s][0] - c[s - 1][0], wt = c[s][1] - c[s - 1][1];
        uint32_t rb = c[s][3] - c[s - 1][3], rt = c[s][4] - c[s - 1][4];
        /* 2 bytes a cycle written, 4 read; a transaction is 128 bytes */
        assert_true(wb >= 2 * cyc - 128 && wb <= 2 * cyc + 128);
        assert_true(rb >= 4 * cyc - 128 && rb <= 4 * cyc + 128);
        assert_true(wt >= cyc / 64 - 1 && wt <= cyc / 64 + 1);
        assert_true(rt >= cyc / 32 - 1 && rt <= cyc / 32 + 1);
        /* not what 1 ms alone implies: the reads' time is in the counts */
        assert_true(wb > 400000 + 128);
    }
    fx_close(&f);
}

/* ---- the target ---- */

typedef struct grid {
    unsigned n;
    uint64_t t[16];
    uint64_t wr[16];
} grid;

static socmon_status on_sample(void *user, const socmon_sample *prev, const socmon_sample *cur,
                               const uint64_t *deltas)
{
    (void)prev;
    grid *g = user;
    assert_true(g->n < 16);
    g->t[g->n] = cur->t_ns;
    g->wr[g->n] = deltas[0];
    g->n++;
    return SOCMON_OK;
}

/* access_ns=N on the target reaches the model; sampling with access time
 * keeps every sample on the interval grid, each counter read at the same
 * offset into each interval, so a 1 ms delta of steady traffic is exactly
 * 1 ms of it: 400 MB/s x 1 ms = 400000 bytes. */
static void test_target_option_and_grid(void **state)
{
    (void)state;
    for (int zero = 0; zero < 2; zero++) {
        socmon_target *t = NULL;
        assert_int_equal(socmon_target_open(zero ? "zynq:access_ns=0" : "zynq", &t), SOCMON_OK);
        socmon_zynq_soc *soc = socmon_zynq_soc_of_target(t);
        assert_non_null(soc);
        assert_int_equal(socmon_zynq_soc_access_ns(soc), zero ? 0 : 200);
        assert_int_equal(socmon_target_now_ns(t), 0);   /* starts after the driver programmed */
        assert_int_equal(socmon_target_start(t, "steady"), SOCMON_OK);
        socmon_set *set = NULL;
        assert_int_equal(socmon_set_new(socmon_target_device(t), "slot0.wr_bytes,cpu1.*", &set),
                         SOCMON_OK);
        socmon_sampler_opts o = {.interval_ns = 1000000, .duration_ns = 5000000, .realtime = 0,
            .max_intervals = 0};
        grid g = {0};
        assert_int_equal(socmon_sampler_run(t, set, &o, NULL, on_sample, &g, NULL), SOCMON_OK);
        assert_int_equal(g.n, 5);
        for (unsigned i = 0; i < 5; i++) {
            assert_int_equal(g.t[i], (i + 1) * 1000000ull);
            assert_int_equal(g.wr[i], 400000);
        }
        assert_int_equal(socmon_target_now_ns(t), 5000000);
        /* the model's own clock is ahead by the driver's accesses: the
         * programming at open, then the last sample's reads */
        if (zero)
            assert_int_equal(socmon_zynq_soc_now_ns(soc), 5000000);
        else
            assert_true(socmon_zynq_soc_now_ns(soc) > 5000000 + 8 * 200);
        socmon_set_free(set);
        socmon_target_close(t);
    }
    socmon_target *t = NULL;
    assert_int_equal(socmon_target_open("zynq:access_ns=1000001", &t), SOCMON_ERANGE);
    assert_non_null(strstr(socmon_errmsg(), "access_ns"));
    assert_non_null(strstr(socmon_errmsg(), "1000001"));
}

/* A workload of set length ends on the grid, whatever the reads cost. */
static void test_target_duration_exact(void **state)
{
    (void)state;
    socmon_target *t = NULL;
    assert_int_equal(socmon_target_open("zynq:duration_ms=10,access_ns=5000", &t), SOCMON_OK);
    socmon_set *set = NULL;
    assert_int_equal(socmon_set_new(socmon_target_device(t), "slot0.wr_bytes,cpu*", &set), SOCMON_OK);
    socmon_sampler_opts o = {.interval_ns = 3000000, .duration_ns = 0, .realtime = 0,
        .max_intervals = 0};
    grid g = {0};
    assert_int_equal(socmon_sampler_run(t, set, &o, NULL, on_sample, &g, NULL), SOCMON_OK);
    assert_int_equal(g.n, 4);
    assert_int_equal(g.t[0], 3000000);
    assert_int_equal(g.t[3], 10000000);
    assert_int_equal(socmon_target_now_ns(t), 10000000);
    socmon_set_free(set);
    socmon_target_close(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_accesses_advance_time),
        cmocka_unit_test(test_read_acts_at_end_of_access),
        cmocka_unit_test(test_access_ns_range),
        cmocka_unit_test(test_polling_loop_terminates),
        cmocka_unit_test(test_driver_intervals_follow_sr),
        cmocka_unit_test(test_target_option_and_grid),
        cmocka_unit_test(test_target_duration_exact),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
