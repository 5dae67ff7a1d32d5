/* Interrupts of the Zynq model, as a driver sees them: the APM's
 * sample-interval lapse through GIE/IE/IS, waited for with
 * socmon_zynq_soc_wait_irq, taken by a handler, or read through the UIO
 * device's read(); the A9 PMU's overflow interrupt.
 *
 * The driver side uses the register map a user's code has (offsets and masks
 * written here from ../shared/specs/xilinx_apm_pmu.md, with ESW's names):
 *  - spec §1.2 (ESW xaxipmon_hw.h): SI_LOW 0x24, SICR 0x28, GIE 0x30, IE
 *    0x34, IS 0x38, CTL 0x300; sampled counters 0x200 + 16k, then 0x600,
 *    0x800, 0xA00 banks (§1.5);
 *  - spec §1.6 (HDL axi_perf_mon_v5_0_profile.v Bus2IP_Data[2:1],
 *    _register_module_profile.v {ISR,1'b0}): the lapse is IS/IE bit 1, 0x2 =
 *    XAPM_IXR_SIC_OVERFLOW_MASK; IS is W1C; IRQ = GIE & |(IS & IE); IS is
 *    set whatever IE says;
 *  - spec §1.4 (HDL *_samp_intl_cnt.v, *_counter.v): the lapse period is
 *    SI + 3 core cycles load to load, and a lapse copies the counters into
 *    their sampled registers;
 *  - spec §1.8: the interval read recipe (reset counters, SI_LOW, SICR =
 *    LOAD, IE, GIE, CR enable, SICR = EN, wait, check isr & 0x2, read SMC);
 *  - spec §3 (linux-xlnx uio_xilinx_apm.c): the UIO handler reads IS,
 *    writes it back, copies struct xapm_param with the new isr into map 1;
 *    read() of 4 bytes returns the event count;
 *  - spec §5.1: PMU offsets PMOVSR 0xC80, PMINTENSET 0xC40, PMINTENCLR
 *    0xC60, PMCNTENSET 0xC00, PMCR 0xE04, PMXEVTYPER0 0x400, PMXEVCNTR0
 *    0x000, PMLAR 0xFB0 (key 0xC5ACCE55); 32-bit counters wrap and set
 *    their PMOVSR bit; IRQ = |(PMOVSR & PMINTEN).
 *
 * Traffic-implied counts use the model's default traffic (include/socmon/
 * zynq.h, socmon_zynq_desc_default): per slot 400 MB/s written and 800 MB/s
 * read in 128-byte bursts on a 64-bit port, 250 ns latency, APM at 200 MHz.
 * A write is issued every 128 / 400e6 s = 64 cycles, a read every 32; the
 * latency is 50 cycles. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "models/zynq/zynq_model.h"
#include "socmon/bus.h"
#include "socmon/zynq.h"

/* ---- the driver's register map ---- */
#define XAPM_SI_LOW 0x024u
#define XAPM_SICR 0x028u
#define XAPM_GIE 0x030u
#define XAPM_IE 0x034u
#define XAPM_IS 0x038u
#define XAPM_CTL 0x300u
#define XAPM_CR_MCNTR_EN 0x1u
#define XAPM_CR_MCNTR_RESET 0x2u
#define XAPM_SICR_EN 0x1u
#define XAPM_SICR_LOAD 0x2u
#define XAPM_IXR_SIC_OVERFLOW_MASK 0x2u

#define PMU_EVCNTR0 0x000u
#define PMU_EVTYPER0 0x400u
#define PMU_CNTENSET 0xC00u
#define PMU_INTENSET 0xC40u
#define PMU_INTENCLR 0xC60u
#define PMU_OVSR 0xC80u
#define PMU_PMCR 0xE04u
#define PMU_LAR 0xFB0u

enum { WR_BYTES, WR_TXNS, WR_LAT, RD_BYTES, RD_TXNS, RD_LAT };

/* Load to load: SI + 3 cycles (spec §1.4). 64000 cycles = 1000 write and
 * 2000 read issue periods exactly: 320 us at 5 ns a cycle. */
#define SI 63997u
#define PERIOD_CYCLES (SI + 3u)
#define PERIOD_NS (PERIOD_CYCLES * 5u)

typedef struct fx {
    socmon_zynq_desc d;
    socmon_zynq_soc *soc;
    socmon_bus *bus;    /* what the driver uses: the model bus, or UIO map 0 */
    socmon_bus *mbus;
    uint64_t base;      /* the APM on `bus` */
} fx;

static void fx_open(fx *f)
{
    memset(f, 0, sizeof *f);
    socmon_zynq_desc_default(&f->d);
    assert_int_equal(smn_zynq_soc_new(&f->d, &f->soc), SOCMON_OK);
    assert_int_equal(socmon_bus_model_new(&f->mbus), SOCMON_OK);
    assert_int_equal(smn_zynq_soc_map(f->soc, f->mbus), SOCMON_OK);
    f->bus = f->mbus;
    f->base = f->d.apm_base;
    assert_int_equal(socmon_zynq_soc_start(f->soc, "steady", 0), SOCMON_OK);
}

static void fx_close(fx *f)
{
    socmon_bus_free(f->mbus);
    smn_zynq_soc_free(f->soc);
}

static uint32_t rd(fx *f, uint32_t off)
{
    uint32_t v = 0xDEADBEEF;
    assert_int_equal(socmon_bus_read32(f->bus, f->base + off, &v), SOCMON_OK);
    return v;
}

static void wr(fx *f, uint32_t off, uint32_t v)
{
    assert_int_equal(socmon_bus_write32(f->bus, f->base + off, v), SOCMON_OK);
}

static uint32_t smc_off(unsigned k)
{
    if (k < 12)
        return 0x200u + 16u * k;
    return 0x600u + 0x200u * ((k - 12) / 12) + 16u * ((k - 12) % 12);
}

static void read_smc(fx *f, unsigned slot, uint32_t c[6])
{
    for (unsigned j = 0; j < 6; j++)
        c[j] = rd(f, smc_off(6 * slot + j));
}

/* spec §1.8 up to the wait, with the interrupt enables given */
static void program_interval(fx *f, uint32_t si, uint32_t ie, uint32_t gie)
{
    uint32_t cr = rd(f, XAPM_CTL);
    wr(f, XAPM_CTL, cr | XAPM_CR_MCNTR_RESET);
    wr(f, XAPM_CTL, cr & ~XAPM_CR_MCNTR_RESET);
    wr(f, XAPM_SI_LOW, si);
    wr(f, XAPM_SICR, XAPM_SICR_LOAD);
    wr(f, XAPM_IE, rd(f, XAPM_IE) | ie);
    wr(f, XAPM_GIE, gie);
    wr(f, XAPM_CTL, rd(f, XAPM_CTL) | XAPM_CR_MCNTR_EN);
    wr(f, XAPM_SICR, XAPM_SICR_EN);
}

/* The six counters of one slot over exactly one lapse period. */
static void check_period(const uint32_t a[6], const uint32_t b[6])
{
    assert_int_equal(b[WR_TXNS] - a[WR_TXNS], 1000u);
    assert_int_equal(b[WR_BYTES] - a[WR_BYTES], 1000u * 128u);
    assert_int_equal(b[WR_LAT] - a[WR_LAT], 1000u * 50u);
    assert_int_equal(b[RD_TXNS] - a[RD_TXNS], 2000u);
    assert_int_equal(b[RD_BYTES] - a[RD_BYTES], 2000u * 128u);
    assert_int_equal(b[RD_LAT] - a[RD_LAT], 2000u * 50u);
}

/* The acceptance: enable the lapse interrupt through 0x2, wait for it
 * with no timeout hack or poll loop, read the sampled counters. */
static void test_interval_read_with_wait_irq(void **state)
{
    (void)state;
    fx f;
    fx_open(&f);
    program_interval(&f, SI, XAPM_IXR_SIC_OVERFLOW_MASK, 1);
    uint64_t waited = 0;
    assert_int_equal(socmon_zynq_soc_wait_irq(f.soc, SOCMON_ZYNQ_IRQ_APM, 10 * PERIOD_NS, &waited),
                     SOCMON_OK);
    /* the lapse counter started at the last write (SICR = EN): one period */
    assert_int_equal(waited, PERIOD_NS);
    assert_int_equal(socmon_zynq_apm_irq(f.soc), 1);
    assert_true(rd(&f, XAPM_IS) & XAPM_IXR_SIC_OVERFLOW_MASK);
    wr(&f, XAPM_IS, XAPM_IXR_SIC_OVERFLOW_MASK);   /* W1C */
    assert_int_equal(socmon_zynq_apm_irq(f.soc), 0);   /* the line drops */
    assert_int_equal(rd(&f, XAPM_IS), 0);
    uint32_t a0[6], a4[6], b0[6], b4[6];
    read_smc(&f, 0, a0);
    read_smc(&f, 4, a4);   /* slot 4: counters 24..29 in the 0x800 bank */
    assert_true(a0[WR_TXNS] >= 1000 && a0[RD_TXNS] >= 2000);
    /* 15 accesses of 200 ns since the edge (3 on IS, 12 counters): the next
     * lapse is a period after the first, so the wait is the period less that */
    uint64_t t1 = socmon_zynq_soc_now_ns(f.soc);
    assert_int_equal(socmon_zynq_soc_wait_irq(f.soc, SOCMON_ZYNQ_IRQ_APM, 10 * PERIOD_NS, &waited),
                     SOCMON_OK);
    assert_int_equal(waited, PERIOD_NS - 15 * SOCMON_ZYNQ_ACCESS_NS_DEFAULT);
    assert_int_equal(socmon_zynq_soc_now_ns(f.soc), t1 + waited);
    assert_true(rd(&f, XAPM_IS) & XAPM_IXR_SIC_OVERFLOW_MASK);
    read_smc(&f, 0, b0);
    read_smc(&f, 4, b4);
    check_period(a0, b0);
    check_period(a4, b4);
    wr(&f, XAPM_IS, XAPM_IXR_SIC_OVERFLOW_MASK);
    assert_int_equal(socmon_zynq_apm_irq(f.soc), 0);
    /* disable: counting stops, no more lapses */
    wr(&f, XAPM_CTL, rd(&f, XAPM_CTL) & ~XAPM_CR_MCNTR_EN);
    assert_int_equal(socmon_zynq_soc_wait_irq(f.soc, SOCMON_ZYNQ_IRQ_APM, 3 * PERIOD_NS, NULL),
                     SOCMON_EAGAIN);
    fx_close(&f);
}

/* The same through the UIO device: map 0 for the registers, read() to wait,
 * map 1's isr to see why. */
static void test_interval_read_with_uio(void **state)
{
    (void)state;
    fx f;
    fx_open(&f);
    socmon_zynq_uio *u = NULL;
    assert_int_equal(socmon_zynq_uio_new(f.soc, &u), SOCMON_OK);
    f.bus = socmon_zynq_uio_bus(u);
    f.base = 0;   /* map 0 starts at the APM's register 0 */
    const socmon_zynq_xapm_param *par = socmon_zynq_uio_map1(u);
    assert_int_equal(par->mode, 2);   /* UIO numbering: Profile = 2 (spec §1.1) */
    assert_int_equal(par->isr, 0);
    program_interval(&f, SI, XAPM_IXR_SIC_OVERFLOW_MASK, 1);
    uint32_t n = 0;
    uint64_t t0 = socmon_zynq_soc_now_ns(f.soc);
    assert_int_equal(socmon_zynq_uio_read(u, &n, 4), SOCMON_OK);
    assert_int_equal(n, 1);
    /* the kernel's handler ran at the edge: read IS, wrote it back (two
     * accesses), so the line is low and IS is clear */
    assert_int_equal(socmon_zynq_soc_now_ns(f.soc), t0 + PERIOD_NS + 2 * SOCMON_ZYNQ_ACCESS_NS_DEFAULT);
    assert_true(par->isr & XAPM_IXR_SIC_OVERFLOW_MASK);
    assert_int_equal(socmon_zynq_apm_irq(f.soc), 0);
    assert_int_equal(rd(&f, XAPM_IS), 0);
    uint32_t a[6], b[6];
    read_smc(&f, 2, a);
    assert_int_equal(socmon_zynq_uio_read(u, &n, 4), SOCMON_OK);
    assert_int_equal(n, 2);
    assert_true(par->isr & XAPM_IXR_SIC_OVERFLOW_MASK);
    read_smc(&f, 2, b);
    check_period(a, b);

    /* an interrupt while nobody reads is counted; the next read returns at
     * once with it, as UIO's event count does */
    assert_int_equal(socmon_zynq_soc_advance(f.soc, PERIOD_NS, NULL), SOCMON_OK);
    uint64_t t = socmon_zynq_soc_now_ns(f.soc);
    assert_int_equal(socmon_zynq_uio_read(u, &n, 4), SOCMON_OK);
    assert_int_equal(n, 3);
    assert_int_equal(socmon_zynq_soc_now_ns(f.soc), t);

    /* UIO reads exactly 4 bytes; anything else is EINVAL */
    uint64_t big = 0;
    assert_int_equal(socmon_zynq_uio_read(u, &big, 8), SOCMON_EINVAL);
    assert_non_null(strstr(socmon_errmsg(), "8 bytes"));
    assert_int_equal(socmon_zynq_uio_read(u, &n, 0), SOCMON_EINVAL);
    assert_int_equal(socmon_zynq_uio_read(u, NULL, 4), SOCMON_EINVAL);
    /* one UIO device per APM */
    socmon_zynq_uio *u2 = NULL;
    assert_int_equal(socmon_zynq_uio_new(f.soc, &u2), SOCMON_ESTATE);
    assert_null(u2);

    /* no interrupt coming (GIE off): the read gives up after its timeout,
     * saying what gates the line */
    wr(&f, XAPM_GIE, 0);
    assert_int_equal(socmon_zynq_uio_set_timeout(u, 2 * PERIOD_NS), SOCMON_OK);
    t = socmon_zynq_soc_now_ns(f.soc);
    assert_int_equal(socmon_zynq_uio_read(u, &n, 4), SOCMON_EAGAIN);
    assert_non_null(strstr(socmon_errmsg(), "GIE=0x0"));
    assert_non_null(strstr(socmon_errmsg(), "IS=0x2"));   /* IS set regardless */
    assert_int_equal(socmon_zynq_soc_now_ns(f.soc), t + 2 * PERIOD_NS);
    assert_int_equal(socmon_zynq_uio_set_timeout(u, UINT64_MAX), SOCMON_ERANGE);
    socmon_zynq_uio_free(u);
    fx_close(&f);
}

/* The parameter page has struct xapm_param's layout: eleven u32 then the
 * bool (spec §3); the rest of the 4096 bytes reads 0. */
/* An Advanced-mode APM's page carries its configuration (spec §3: the driver
 * copies the DT's parameters; mode numbering Advanced 1). */
static void test_uio_param_page_advanced(void **state)
{
    (void)state;
    socmon_zynq_desc d;
    socmon_zynq_desc_default(&d);
    d.apm.mode = SOCMON_ZAPM_ADVANCED;
    d.apm.ncounters = 7;
    d.apm.event_count = 0;
    d.apm.sampled = 1;
    d.apm.scale = 4;
    d.apm.id32 = 1;
    d.gcc_width = 32;
    socmon_zynq_soc *soc;
    assert_int_equal(smn_zynq_soc_new(&d, &soc), SOCMON_OK);
    socmon_zynq_uio *u = NULL;
    assert_int_equal(socmon_zynq_uio_new(soc, &u), SOCMON_OK);
    const unsigned char *p = socmon_zynq_uio_map1(u);
    uint32_t w[11];
    memcpy(w, p, sizeof w);
    assert_int_equal(w[0], 1);    /* mode: Advanced (UIO numbering) */
    assert_int_equal(w[2], 0);    /* eventcnt */
    assert_int_equal(w[4], 1);    /* sampledcnt */
    assert_int_equal(w[5], 7);    /* numcounters */
    assert_int_equal(w[8], 32);   /* globalcntwidth */
    assert_int_equal(w[9], 4);    /* scalefactor */
    assert_int_equal(p[44], 1);   /* is_32bit_filter */
    socmon_zynq_uio_free(u);
    smn_zynq_soc_free(soc);
}

static void test_uio_param_page_layout(void **state)
{
    (void)state;
    fx f;
    fx_open(&f);
    socmon_zynq_uio *u = NULL;
    assert_int_equal(socmon_zynq_uio_new(f.soc, &u), SOCMON_OK);
    const unsigned char *p = socmon_zynq_uio_map1(u);
    uint32_t w[11];
    memcpy(w, p, sizeof w);
    assert_int_equal(w[0], 2);                    /* mode: Profile (UIO numbering) */
    assert_int_equal(w[1], f.d.nslots);           /* maxslots */
    assert_int_equal(w[2], 0);                    /* eventcnt: no incrementers in Profile mode */
    assert_int_equal(w[4], 1);                    /* sampledcnt */
    assert_int_equal(w[5], 6 * f.d.nslots);       /* numcounters: 6 per slot */
    assert_int_equal(w[8], 0);                    /* globalcntwidth: no GCC in Profile (spec §1.6) */
    assert_int_equal(w[6], 32);                   /* metricwidth */
    assert_int_equal(w[9], 1);                    /* scalefactor */
    assert_int_equal(w[10], 0);                   /* isr */
    assert_int_equal(p[44], 0);                   /* is_32bit_filter */
    assert_int_equal(offsetof(socmon_zynq_xapm_param, isr), 40);
    assert_int_equal(offsetof(socmon_zynq_xapm_param, is_32bit_filter), 44);
    for (unsigned i = 48; i < SOCMON_ZYNQ_UIO_MAP1_SIZE; i++)
        assert_int_equal(p[i], 0);
    socmon_zynq_uio_free(u);
    fx_close(&f);
}

/* ---- the handler ---- */

typedef struct hrec {
    fx *f;
    unsigned calls, depth, max_depth;
    socmon_zynq_irq line[16];
    uint64_t edge[16], now[16];
    uint32_t is[16];
    int clear;   /* W1C IS in the handler */
    unsigned extra_reads;   /* counter reads after clearing */
    unsigned late;          /* calls after their edge (queued while another ran) */
    uint64_t first_edge;
} hrec;

static void handler(void *ctx, socmon_zynq_soc *soc, socmon_zynq_irq line, uint64_t edge_ns)
{
    hrec *h = ctx;
    h->depth++;
    if (h->depth > h->max_depth)
        h->max_depth = h->depth;
    if (!h->calls)
        h->first_edge = edge_ns;
    unsigned i = h->calls++ % 16;
    h->line[i] = line;
    h->edge[i] = edge_ns;
    h->now[i] = socmon_zynq_soc_now_ns(soc);
    if (line == SOCMON_ZYNQ_IRQ_APM) {
        h->is[i] = rd(h->f, XAPM_IS);
        if (h->clear)
            wr(h->f, XAPM_IS, h->is[i]);
        for (unsigned k = 0; k < h->extra_reads; k++)
            (void)rd(h->f, smc_off(k));
    }
    if (h->now[i] > edge_ns)
        h->late++;
    h->depth--;
}

/* One call per lapse over N intervals, each at the edge's nanosecond with
 * the registers as of that moment; the handler clears IS itself. */
static void test_handler_once_per_lapse(void **state)
{
    (void)state;
    fx f;
    fx_open(&f);
    hrec h = {.f = &f, .clear = 1};
    assert_int_equal(socmon_zynq_soc_set_irq_handler(f.soc, handler, &h), SOCMON_OK);
    program_interval(&f, SI, XAPM_IXR_SIC_OVERFLOW_MASK, 1);
    uint64_t t0 = socmon_zynq_soc_now_ns(f.soc);
    /* seven periods and a bit, in steps that do not line up with them */
    for (int i = 0; i < 9; i++)
        assert_int_equal(socmon_zynq_soc_advance(f.soc, 7 * PERIOD_NS / 9 + 1, NULL), SOCMON_OK);
    assert_int_equal(socmon_zynq_soc_advance(f.soc, PERIOD_NS / 2, NULL), SOCMON_OK);
    assert_int_equal(h.calls, 7);
    for (unsigned i = 0; i < 7; i++) {
        assert_int_equal(h.line[i], SOCMON_ZYNQ_IRQ_APM);
        assert_int_equal(h.edge[i], t0 + (i + 1) * PERIOD_NS);
        assert_int_equal(h.now[i], h.edge[i]);   /* split at the edge */
        assert_int_equal(h.is[i], XAPM_IXR_SIC_OVERFLOW_MASK);
    }
    assert_int_equal(h.max_depth, 1);
    assert_int_equal(socmon_zynq_apm_irq(f.soc), 0);
    /* removed: no more calls */
    assert_int_equal(socmon_zynq_soc_set_irq_handler(f.soc, NULL, NULL), SOCMON_OK);
    assert_int_equal(socmon_zynq_soc_advance(f.soc, 2 * PERIOD_NS, NULL), SOCMON_OK);
    assert_int_equal(h.calls, 7);
    fx_close(&f);
}

/* A handler that does not clear IS leaves the line high: no new edge, so
 * one call however many lapses follow. */
static void test_handler_edges_not_levels(void **state)
{
    (void)state;
    fx f;
    fx_open(&f);
    hrec h = {.f = &f, .clear = 0};
    assert_int_equal(socmon_zynq_soc_set_irq_handler(f.soc, handler, &h), SOCMON_OK);
    program_interval(&f, SI, XAPM_IXR_SIC_OVERFLOW_MASK, 1);
    assert_int_equal(socmon_zynq_soc_advance(f.soc, 5 * PERIOD_NS, NULL), SOCMON_OK);
    assert_int_equal(h.calls, 1);
    assert_int_equal(socmon_zynq_apm_irq(f.soc), 1);
    /* clearing drops it; the next lapse is a new edge */
    wr(&f, XAPM_IS, XAPM_IXR_SIC_OVERFLOW_MASK);
    assert_int_equal(socmon_zynq_apm_irq(f.soc), 0);
    assert_int_equal(socmon_zynq_soc_advance(f.soc, PERIOD_NS, NULL), SOCMON_OK);
    assert_int_equal(h.calls, 2);
    fx_close(&f);
}

/* A lapse every 23 cycles (115 ns, SI = 20) comes while the handler, having
 * cleared IS, reads four counters (800 ns): that edge waits for the handler
 * to return and is delivered then, late, never nested. */
static void test_handler_not_reentered(void **state)
{
    (void)state;
    fx f;
    fx_open(&f);
    hrec h = {.f = &f, .clear = 1, .extra_reads = 4};
    assert_int_equal(socmon_zynq_soc_set_irq_handler(f.soc, handler, &h), SOCMON_OK);
    program_interval(&f, 20, XAPM_IXR_SIC_OVERFLOW_MASK, 1);
    uint64_t t0 = socmon_zynq_soc_now_ns(f.soc);
    assert_int_equal(socmon_zynq_soc_advance(f.soc, 20000, NULL), SOCMON_OK);
    /* each call: 1 read + 1 write + 4 reads = 1.2 us, then the edge that came
     * meanwhile: about 20000 / 1200 calls */
    assert_true(h.calls >= 15 && h.calls <= 18);
    assert_int_equal(h.max_depth, 1);
    assert_int_equal(h.late, h.calls - 1);   /* all but the first were queued */
    assert_int_equal(h.first_edge, t0 + 23 * 5);
    fx_close(&f);
}

/* GIE and IE gate the line; IS is set regardless (spec §1.6). Enabling over
 * a pending flag raises the line at that write. */
static void test_gie_ie_gating(void **state)
{
    (void)state;
    fx f;
    fx_open(&f);
    hrec h = {.f = &f, .clear = 0};
    assert_int_equal(socmon_zynq_soc_set_irq_handler(f.soc, handler, &h), SOCMON_OK);
    program_interval(&f, SI, XAPM_IXR_SIC_OVERFLOW_MASK, 0);   /* GIE off */
    assert_int_equal(socmon_zynq_soc_wait_irq(f.soc, SOCMON_ZYNQ_IRQ_APM, 2 * PERIOD_NS, NULL),
                     SOCMON_EAGAIN);
    assert_non_null(strstr(socmon_errmsg(), "apm"));
    assert_non_null(strstr(socmon_errmsg(), "GIE=0x0 IE=0x2 IS=0x2"));
    assert_int_equal(rd(&f, XAPM_IS), XAPM_IXR_SIC_OVERFLOW_MASK);
    assert_int_equal(h.calls, 0);
    wr(&f, XAPM_GIE, 1);   /* over the pending lapse: the line rises now */
    assert_int_equal(h.calls, 1);
    assert_int_equal(socmon_zynq_apm_irq(f.soc), 1);
    uint64_t waited = 1;
    assert_int_equal(socmon_zynq_soc_wait_irq(f.soc, SOCMON_ZYNQ_IRQ_APM, 0, &waited), SOCMON_OK);
    assert_int_equal(waited, 0);   /* already asserted */

    /* IE off, GIE on: IS still sets, the line stays low */
    wr(&f, XAPM_IE, 0);
    assert_int_equal(socmon_zynq_apm_irq(f.soc), 0);
    wr(&f, XAPM_IS, XAPM_IXR_SIC_OVERFLOW_MASK);
    assert_int_equal(socmon_zynq_soc_wait_irq(f.soc, SOCMON_ZYNQ_IRQ_APM, 2 * PERIOD_NS, NULL),
                     SOCMON_EAGAIN);
    assert_non_null(strstr(socmon_errmsg(), "GIE=0x1 IE=0x0 IS=0x2"));
    assert_int_equal(h.calls, 1);
    fx_close(&f);
}

/* W1C clears exactly the bits written as 1 (HDL *_interrupt_module.v via
 * spec §1.6): writing another bit, or 0, leaves the lapse flag. */
static void test_is_w1c_one_bit(void **state)
{
    (void)state;
    fx f;
    fx_open(&f);
    program_interval(&f, SI, 0, 0);
    assert_int_equal(socmon_zynq_soc_advance(f.soc, PERIOD_NS + 1000, NULL), SOCMON_OK);
    assert_int_equal(rd(&f, XAPM_IS), 0x2);
    wr(&f, XAPM_IS, 0x4);   /* FIFO full's bit: not set, nothing clears */
    assert_int_equal(rd(&f, XAPM_IS), 0x2);
    wr(&f, XAPM_IS, 0x1);
    wr(&f, XAPM_IS, 0x0);
    assert_int_equal(rd(&f, XAPM_IS), 0x2);
    wr(&f, XAPM_IS, 0xFFFFFFFDu);   /* every bit but the lapse's */
    assert_int_equal(rd(&f, XAPM_IS), 0x2);
    wr(&f, XAPM_IS, 0x2);
    assert_int_equal(rd(&f, XAPM_IS), 0);
    fx_close(&f);
}

/* PMU overflow: PMINTENSET arms the line, a 32-bit wrap sets PMOVSR and
 * raises it, PMOVSR W1C drops it; PMINTENCLR gates it. */
static void test_pmu_overflow_irq(void **state)
{
    (void)state;
    socmon_zynq_desc d;
    socmon_zynq_desc_default(&d);
    d.cpu_hz = 500e6;   /* 2 ns a cycle */
    socmon_zynq_soc *soc;
    socmon_bus *bus;
    assert_int_equal(smn_zynq_soc_new(&d, &soc), SOCMON_OK);
    assert_int_equal(socmon_bus_model_new(&bus), SOCMON_OK);
    assert_int_equal(smn_zynq_soc_map(soc, bus), SOCMON_OK);
    socmon_zynq_cpu_profile busy = {.util = 1.0, .ipc = 1.0, .ldst_per_inst = 0.4,
        .store_frac = 0.25, .l1d_miss = 0.1, .stall_per_miss = 10, .wstall_per_store = 0.5,
        .br_per_inst = 0.1, .br_miss = 0.05};
    assert_int_equal(socmon_zynq_soc_set_cpu(soc, 1, &busy), SOCMON_OK);
    hrec h = {0};
    assert_int_equal(socmon_zynq_soc_set_irq_handler(soc, handler, &h), SOCMON_OK);
    uint64_t b = d.pmu_base[1];
    assert_int_equal(socmon_bus_write32(bus, b + PMU_LAR, 0xC5ACCE55u), SOCMON_OK);
    assert_int_equal(socmon_bus_write32(bus, b + PMU_EVTYPER0, 0x11), SOCMON_OK);   /* CPU_CYCLES */
    assert_int_equal(socmon_bus_write32(bus, b + PMU_EVCNTR0, 0xFFFFFFFFu - 999), SOCMON_OK);
    assert_int_equal(socmon_bus_write32(bus, b + PMU_INTENSET, 0x1), SOCMON_OK);
    assert_int_equal(socmon_bus_write32(bus, b + PMU_CNTENSET, 0x1), SOCMON_OK);
    assert_int_equal(socmon_bus_write32(bus, b + PMU_PMCR, 0x1), SOCMON_OK);   /* E */
    /* counting from the end of that write: the 1000th cycle wraps it */
    uint64_t waited = 0;
    assert_int_equal(socmon_zynq_soc_wait_irq(soc, SOCMON_ZYNQ_IRQ_PMU1, 1000000, &waited), SOCMON_OK);
    assert_int_equal(waited, 1000 * 2);
    assert_int_equal(h.calls, 1);
    assert_int_equal(h.line[0], SOCMON_ZYNQ_IRQ_PMU1);
    assert_int_equal(socmon_zynq_pmu_irq(soc, 1), 1);
    assert_int_equal(socmon_zynq_pmu_irq(soc, 0), 0);
    uint32_t v = 0;
    assert_int_equal(socmon_bus_read32(bus, b + PMU_OVSR, &v), SOCMON_OK);
    assert_int_equal(v, 0x1);
    assert_int_equal(socmon_bus_write32(bus, b + PMU_OVSR, 0x1), SOCMON_OK);   /* W1C */
    assert_int_equal(socmon_zynq_pmu_irq(soc, 1), 0);
    /* gated: the next wrap (2^32 cycles on) sets the flag but no line */
    assert_int_equal(socmon_bus_write32(bus, b + PMU_INTENCLR, 0x1), SOCMON_OK);
    assert_int_equal(socmon_bus_write32(bus, b + PMU_EVCNTR0, 0xFFFFFFFFu - 99), SOCMON_OK);
    assert_int_equal(socmon_zynq_soc_wait_irq(soc, SOCMON_ZYNQ_IRQ_PMU1, 10000, NULL), SOCMON_EAGAIN);
    assert_non_null(strstr(socmon_errmsg(), "pmu1"));
    assert_non_null(strstr(socmon_errmsg(), "PMINTEN=0x0 PMOVSR=0x1"));
    assert_int_equal(h.calls, 1);
    socmon_bus_free(bus);
    smn_zynq_soc_free(soc);
}

static void test_irq_api_errors(void **state)
{
    (void)state;
    fx f;
    fx_open(&f);
    assert_int_equal(socmon_zynq_soc_wait_irq(f.soc, (socmon_zynq_irq)3, 10, NULL), SOCMON_ERANGE);
    assert_non_null(strstr(socmon_errmsg(), "3"));
    assert_int_equal(socmon_zynq_soc_wait_irq(f.soc, SOCMON_ZYNQ_IRQ_APM, UINT64_MAX, NULL),
                     SOCMON_ERANGE);
    assert_int_equal(socmon_zynq_soc_wait_irq(NULL, SOCMON_ZYNQ_IRQ_APM, 1, NULL), SOCMON_EINVAL);
    assert_int_equal(socmon_zynq_soc_set_irq_handler(NULL, handler, NULL), SOCMON_EINVAL);
    assert_int_equal(socmon_zynq_uio_new(NULL, NULL), SOCMON_EINVAL);
    assert_null(socmon_zynq_uio_bus(NULL));
    assert_null(socmon_zynq_uio_map1(NULL));
    socmon_zynq_uio_free(NULL);
    /* nothing armed: a wait fails after max_ns of simulated time, not never */
    uint64_t t = socmon_zynq_soc_now_ns(f.soc), waited = 0;
    assert_int_equal(socmon_zynq_soc_wait_irq(f.soc, SOCMON_ZYNQ_IRQ_PMU0, 5000000, &waited),
                     SOCMON_EAGAIN);
    assert_int_equal(waited, 5000000);
    assert_int_equal(socmon_zynq_soc_now_ns(f.soc), t + 5000000);
    fx_close(&f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_interval_read_with_wait_irq),
        cmocka_unit_test(test_interval_read_with_uio),
        cmocka_unit_test(test_uio_param_page_layout),
        cmocka_unit_test(test_uio_param_page_advanced),
        cmocka_unit_test(test_handler_once_per_lapse),
        cmocka_unit_test(test_handler_edges_not_levels),
        cmocka_unit_test(test_handler_not_reentered),
        cmocka_unit_test(test_gie_ie_gating),
        cmocka_unit_test(test_is_w1c_one_bit),
        cmocka_unit_test(test_pmu_overflow_irq),
        cmocka_unit_test(test_irq_api_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
