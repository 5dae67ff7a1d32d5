/* A user's own APM driver against socmon's Zynq model, with public headers only.
 *
 * This is what a team does in CI to test its bare-metal code before a board
 * exists: its driver reaches registers through Xil_In32/Xil_Out32, so a
 * two-function shim over socmon_bus runs that driver unchanged against the
 * model. The register sequence below is the one Xilinx's standalone xaxipmon
 * driver performs in Profile mode (reset the metric counters, choose latency
 * points, enable counting, set and start the sample interval, read the
 * sample register, read the sampled counters), written here from the facts
 * in ../shared/specs/xilinx_apm_pmu.md §1.2-1.5 and §1.8. Nothing from
 * socmon's internals is used: the offsets are the "user's" own.
 *
 * The counts must equal what the configured traffic implies, and change
 * when a traffic knob changes. A second test does the same through socmon's
 * public driver calls instead of raw registers. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include "drivers/zynq/zynq_drv.h"
#include "models/zynq/zynq_model.h"
#include "socmon/bus.h"
#include "socmon/zynq.h"

/* ---- the user's side: register map and a Xil_In32/Xil_Out32 shim ---- */

#define XAPM_SI_LOW 0x024u
#define XAPM_SICR 0x028u
#define XAPM_SR 0x02Cu
#define XAPM_CTL 0x300u
#define XAPM_CR_MCNTR_EN 0x1u
#define XAPM_CR_MCNTR_RESET 0x2u
#define XAPM_CR_WRLAT_ADDR_ACCEPT 0x10u   /* start at AW handshake; bit 5 = 0: end at last beat */
#define XAPM_CR_RDLAT_ADDR_ACCEPT 0x40u
#define XAPM_SICR_EN 0x1u
#define XAPM_SICR_LOAD 0x2u
/* Profile mode: six counters per slot, k = 6 * slot + j. */
enum { WR_BYTES, WR_TXNS, WR_LAT, RD_BYTES, RD_TXNS, RD_LAT };

/* Xil_In32 takes no context: on a board the address is the context. The
 * shim keeps its bus in one place, as a BSP keeps its memory map. */
static socmon_bus *xil_bus;

static uint32_t Xil_In32(uint64_t addr)
{
    uint32_t v = 0;
    assert_int_equal(socmon_bus_read32(xil_bus, addr, &v), SOCMON_OK);
    return v;
}

static void Xil_Out32(uint64_t addr, uint32_t v)
{
    assert_int_equal(socmon_bus_write32(xil_bus, addr, v), SOCMON_OK);
}

/* Sampled metric counter k: 0x200 + 16k for k < 12, then banks of twelve at
 * 0x600, 0x800, 0xA00 (the live counters are 0x100 lower). */
static uint64_t smc_addr(uint64_t base, unsigned k)
{
    if (k < 12)
        return base + 0x200u + 16u * k;
    return base + 0x600u + 0x200u * ((k - 12) / 12) + 16u * ((k - 12) % 12);
}

static void apm_init(uint64_t base, uint32_t interval_clocks)
{
    uint32_t cr = Xil_In32(base + XAPM_CTL);
    Xil_Out32(base + XAPM_CTL, cr | XAPM_CR_MCNTR_RESET);   /* reset is a level: pulse it */
    Xil_Out32(base + XAPM_CTL, cr & ~XAPM_CR_MCNTR_RESET);
    cr = Xil_In32(base + XAPM_CTL) & ~0xF0u;
    Xil_Out32(base + XAPM_CTL, cr | XAPM_CR_WRLAT_ADDR_ACCEPT | XAPM_CR_RDLAT_ADDR_ACCEPT);
    Xil_Out32(base + XAPM_CTL, Xil_In32(base + XAPM_CTL) | XAPM_CR_MCNTR_EN);
    Xil_Out32(base + XAPM_SI_LOW, interval_clocks);
    Xil_Out32(base + XAPM_SICR, XAPM_SICR_LOAD);   /* whole-word writes: reset-on-sample goes off */
    Xil_Out32(base + XAPM_SICR, XAPM_SICR_EN);
}

typedef struct slot_counts {
    uint32_t c[6];
} slot_counts;

/* One sample: reading SR latches every counter, then the copies are read. */
static void apm_sample(uint64_t base, unsigned nslots, slot_counts *out)
{
    (void)Xil_In32(base + XAPM_SR);
    for (unsigned s = 0; s < nslots; s++)
        for (unsigned j = 0; j < 6; j++)
            out[s].c[j] = Xil_In32(smc_addr(base, 6 * s + j));
}

/* ---- the test's side: the model and what its knobs imply ---- */

typedef struct fx {
    socmon_zynq_desc d;
    socmon_zynq_soc *soc;
    socmon_bus *bus;
} fx;

static void fx_open(fx *f)
{
    assert_int_equal(smn_zynq_soc_new(&f->d, &f->soc), SOCMON_OK);
    /* exact counts over exactly the advanced time: accesses take no time
     * (test_zynq_access_time.c runs this driver with the default access time) */
    assert_int_equal(socmon_zynq_soc_set_access_ns(f->soc, 0), SOCMON_OK);
    assert_int_equal(socmon_bus_model_new(&f->bus), SOCMON_OK);
    assert_int_equal(smn_zynq_soc_map(f->soc, f->bus), SOCMON_OK);
    xil_bus = f->bus;
}

static void fx_close(fx *f)
{
    xil_bus = NULL;
    socmon_bus_free(f->bus);
    smn_zynq_soc_free(f->soc);
}

/* Counts over an interval are exact up to the one transaction in flight at
 * each end: transactions count at the address, bytes as the data moves. */
static void check_interval(const slot_counts *a, const slot_counts *b, double wr_mbps,
                           double rd_mbps, uint32_t burst, double ms, double lat_cycles)
{
    double wr_bytes = wr_mbps * 1e3 * ms, rd_bytes = rd_mbps * 1e3 * ms;
    uint32_t d[6];
    for (unsigned j = 0; j < 6; j++)
        d[j] = b->c[j] - a->c[j];   /* wrap-safe: the counters are 32-bit */
    assert_true(d[WR_BYTES] >= wr_bytes - burst && d[WR_BYTES] <= wr_bytes + burst);
    assert_true(d[RD_BYTES] >= rd_bytes - burst && d[RD_BYTES] <= rd_bytes + burst);
    assert_true(d[WR_TXNS] >= wr_bytes / burst - 1 && d[WR_TXNS] <= wr_bytes / burst + 1);
    assert_true(d[RD_TXNS] >= rd_bytes / burst - 1 && d[RD_TXNS] <= rd_bytes / burst + 1);
    if (d[WR_TXNS] > 1) {
        /* address accept to last beat: the configured latency, in APM cycles */
        double avg = (double)d[WR_LAT] / d[WR_TXNS];
        assert_true(avg > lat_cycles - 1 && avg < lat_cycles + 1);
    }
    if (d[RD_TXNS] > 1) {
        double avg = (double)d[RD_LAT] / d[RD_TXNS];
        assert_true(avg > lat_cycles - 1 && avg < lat_cycles + 1);
    }
}

static void test_xaxipmon_sequence_counts_configured_traffic(void **state)
{
    (void)state;
    fx f;
    socmon_zynq_desc_default(&f.d);
    f.d.nslots = 2;
    fx_open(&f);
    const uint64_t apm = f.d.apm_base;
    /* 200 MHz APM, 250 ns: 50 cycles; sample interval 1 ms */
    apm_init(apm, 200000);
    assert_int_equal(Xil_In32(apm + XAPM_SICR), XAPM_SICR_EN);
    assert_int_equal(socmon_zynq_soc_start(f.soc, "steady", 0), SOCMON_OK);

    slot_counts s0[2], s1[2], s2[2];
    apm_sample(apm, 2, s0);
    assert_int_equal(socmon_zynq_soc_advance(f.soc, 10000000, NULL), SOCMON_OK);   /* 10 ms */
    apm_sample(apm, 2, s1);
    for (unsigned s = 0; s < 2; s++)
        check_interval(&s0[s], &s1[s], 400, 800, 128, 10, 50);
    /* exactly: 31250 writes of 128 bytes, issued every 64 cycles, all done */
    assert_int_equal(s1[0].c[WR_BYTES] - s0[0].c[WR_BYTES], 4000000u);
    assert_int_equal(s1[0].c[WR_TXNS] - s0[0].c[WR_TXNS], 31250u);

    /* turn a knob on slot 1: a quarter of the write rate, reads off, 500 ns */
    socmon_zynq_traffic t = f.d.traffic;
    t.wr_mbps = 100;
    t.rd_mbps = 0;
    t.lat_ns = 500;
    assert_int_equal(socmon_zynq_soc_set_traffic(f.soc, 1, &t), SOCMON_OK);
    /* let the transactions issued under the old setting finish first */
    assert_int_equal(socmon_zynq_soc_advance(f.soc, 2000, NULL), SOCMON_OK);
    apm_sample(apm, 2, s1);
    assert_int_equal(socmon_zynq_soc_advance(f.soc, 10000000, NULL), SOCMON_OK);
    apm_sample(apm, 2, s2);
    check_interval(&s1[0], &s2[0], 400, 800, 128, 10, 50);   /* slot 0 untouched */
    check_interval(&s1[1], &s2[1], 100, 0, 128, 10, 100);
    assert_int_equal(s2[1].c[RD_TXNS], s1[1].c[RD_TXNS]);

    /* counting off: the counters stop where they are */
    Xil_Out32(apm + XAPM_CTL, Xil_In32(apm + XAPM_CTL) & ~XAPM_CR_MCNTR_EN);
    assert_int_equal(socmon_zynq_soc_advance(f.soc, 1000000, NULL), SOCMON_OK);
    slot_counts s3[2];
    apm_sample(apm, 2, s3);
    assert_memory_equal(s2, s3, sizeof s2);
    fx_close(&f);
}

static void test_description_knobs_reach_the_counters(void **state)
{
    (void)state;
    fx f;
    socmon_zynq_desc_default(&f.d);
    f.d.nslots = 8;   /* counters 36..47 live in the last bank at 0x900 */
    f.d.apm_base = 0x80000000ull;
    f.d.apm_hz = 100e6;
    f.d.traffic.wr_mbps = 250;
    f.d.traffic.rd_mbps = 50;
    f.d.traffic.burst_bytes = 256;
    f.d.traffic.lat_ns = 400;   /* 40 cycles at 100 MHz */
    fx_open(&f);
    apm_init(f.d.apm_base, 100000);
    assert_int_equal(socmon_zynq_soc_start(f.soc, "steady", 0), SOCMON_OK);
    slot_counts a[8], b[8];
    apm_sample(f.d.apm_base, 8, a);
    assert_int_equal(socmon_zynq_soc_advance(f.soc, 20000000, NULL), SOCMON_OK);   /* 20 ms */
    apm_sample(f.d.apm_base, 8, b);
    for (unsigned s = 0; s < 8; s++)
        check_interval(&a[s], &b[s], 250, 50, 256, 20, 40);
    /* the "idle" workload is the zero-traffic knob setting */
    assert_int_equal(socmon_zynq_soc_start(f.soc, "idle", 0), SOCMON_OK);
    assert_int_equal(socmon_zynq_soc_advance(f.soc, 10000, NULL), SOCMON_OK);
    apm_sample(f.d.apm_base, 8, a);
    assert_int_equal(socmon_zynq_soc_advance(f.soc, 5000000, NULL), SOCMON_OK);
    apm_sample(f.d.apm_base, 8, b);
    assert_memory_equal(a, b, sizeof a);
    fx_close(&f);
}

/* The same model read through socmon's public drivers: a socmon_device. */
static void test_public_driver_reads_the_model(void **state)
{
    (void)state;
    fx f;
    socmon_zynq_desc_default(&f.d);
    f.d.nslots = 3;
    fx_open(&f);
    smn_zapm_config ac = {.nslots = f.d.nslots, .clock_hz = f.d.apm_hz, .bus_width_bytes = f.d.bus_width_bytes};
    smn_za9_config pc;
    smn_za9_config_spa(&pc, f.d.cpu_hz);
    socmon_device *dev = NULL;
    assert_int_equal(smn_zynq_device_new(f.bus, f.d.apm_base, &ac, &pc, &dev), SOCMON_OK);
    /* 3 slots x 6, then 2 cores x (ccnt + 6 events) */
    assert_int_equal(socmon_device_ncounters(dev), 3 * 6 + 2 * 7);
    double hz = 0;
    assert_int_equal(socmon_device_param(dev, "apm_clock_hz", &hz), SOCMON_OK);
    assert_true(hz == f.d.apm_hz);
    assert_int_equal(socmon_device_param(dev, "ref_clock_hz", &hz), SOCMON_OK);
    assert_true(hz == f.d.cpu_hz / 2);

    uint32_t idx[4];
    assert_int_equal(socmon_device_find(dev, "slot2.wr_bytes", &idx[0]), SOCMON_OK);
    assert_int_equal(socmon_device_find(dev, "slot2.rd_txns", &idx[1]), SOCMON_OK);
    assert_int_equal(socmon_device_find(dev, "cpu0.ccnt", &idx[2]), SOCMON_OK);
    assert_int_equal(socmon_device_find(dev, "cpu1.inst_rename", &idx[3]), SOCMON_OK);
    assert_int_equal(socmon_zynq_soc_start(f.soc, "steady", 0), SOCMON_OK);
    uint64_t v0[4], v1[4], v2[4];
    assert_int_equal(socmon_device_read(dev, idx, 4, v0), SOCMON_OK);
    assert_int_equal(socmon_zynq_soc_advance(f.soc, 10000000, NULL), SOCMON_OK);
    assert_int_equal(socmon_device_read(dev, idx, 4, v1), SOCMON_OK);
    assert_int_equal(v1[0] - v0[0], 4000000u);                /* 400 MB/s for 10 ms */
    assert_true(v1[1] - v0[1] >= 62499 && v1[1] - v0[1] <= 62501);   /* 800 MB/s / 128 B */
    assert_true(v1[2] > v0[2] && v1[3] > v0[3]);

    /* knobs: slot 2 writes twice as fast; core 0 goes idle */
    socmon_zynq_traffic t = f.d.traffic;
    t.wr_mbps = 800;
    assert_int_equal(socmon_zynq_soc_set_traffic(f.soc, 2, &t), SOCMON_OK);
    socmon_zynq_cpu_profile idle = {0};
    assert_int_equal(socmon_zynq_soc_set_cpu(f.soc, 0, &idle), SOCMON_OK);
    assert_int_equal(socmon_zynq_soc_advance(f.soc, 1000, NULL), SOCMON_OK);
    assert_int_equal(socmon_device_read(dev, idx, 4, v1), SOCMON_OK);
    assert_int_equal(socmon_zynq_soc_advance(f.soc, 10000000, NULL), SOCMON_OK);
    assert_int_equal(socmon_device_read(dev, idx, 4, v2), SOCMON_OK);
    assert_true(v2[0] - v1[0] >= 8000000u - 128 && v2[0] - v1[0] <= 8000000u + 128);
    assert_int_equal(v2[2], v1[2]);   /* util 0: CCNT stops, as in WFI */
    assert_true(v2[3] > v1[3]);       /* core 1 keeps running */

    /* bad arguments are refused with a message naming the value */
    smn_zapm_config bad = ac;
    bad.nslots = 9;
    socmon_device *d2 = NULL;
    assert_int_equal(smn_zapm_device_new(f.bus, f.d.apm_base, &bad, &d2), SOCMON_ERANGE);
    assert_non_null(strstr(socmon_errmsg(), "9"));
    assert_int_equal(socmon_zynq_soc_set_traffic(f.soc, 3, &t), SOCMON_ERANGE);
    socmon_device_free(dev);
    fx_close(&f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_xaxipmon_sequence_counts_configured_traffic),
        cmocka_unit_test(test_description_knobs_reach_the_counters),
        cmocka_unit_test(test_public_driver_reads_the_model),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
