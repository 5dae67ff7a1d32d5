/* Shared fixture of the Advanced-mode APM model tests (test_zynq_apm_adv*.c):
 * a model built in Advanced mode, register access, and the known traffic
 * whose counts the tests expect (see test_zynq_apm_adv.c's opening comment). */
#ifndef SOCMON_TESTS_ZYNQ_APM_ADV_FX_H
#define SOCMON_TESTS_ZYNQ_APM_ADV_FX_H

#define APM(off) (SOCMON_ZYNQ_APM_DEFAULT_BASE + (off))
#define NS_PER_CYCLE 5u
#define RUN 6400u
#define WR_N 100u
#define RD_N 200u
#define RD_DONE 199u

typedef struct fx {
    socmon_zynq_soc *soc;
    socmon_bus *bus;
} fx;

static inline fx *make(unsigned ncounters, unsigned scale, int id32, int gcc_width)
{
    fx *f = calloc(1, sizeof *f);
    socmon_zynq_desc d;
    socmon_zynq_desc_default(&d);
    d.nslots = 2;
    d.gcc_width = gcc_width;
    d.apm.mode = SOCMON_ZAPM_ADVANCED;
    d.apm.ncounters = ncounters;
    d.apm.scale = scale;
    d.apm.id32 = id32;
    assert_int_equal(smn_zynq_soc_new(&d, &f->soc), SOCMON_OK);
    /* exact counts over exactly the advanced time: accesses take no time (issue 13) */
    assert_int_equal(socmon_zynq_soc_set_access_ns(f->soc, 0), SOCMON_OK);
    assert_int_equal(socmon_bus_model_new(&f->bus), SOCMON_OK);
    assert_int_equal(smn_zynq_soc_map(f->soc, f->bus), SOCMON_OK);
    return f;
}

static inline int setup(void **state)
{
    *state = make(10, 1, 0, 64);
    return 0;
}

static inline int teardown(void **state)
{
    fx *f = *state;
    socmon_bus_free(f->bus);
    smn_zynq_soc_free(f->soc);
    free(f);
    return 0;
}

static inline uint32_t rd(fx *f, uint32_t off)
{
    uint32_t v = 0xDEADBEEF;
    assert_int_equal(socmon_bus_read32(f->bus, APM(off), &v), SOCMON_OK);
    return v;
}

static inline void wr(fx *f, uint32_t off, uint32_t v)
{
    assert_int_equal(socmon_bus_write32(f->bus, APM(off), v), SOCMON_OK);
}

static inline void cycles(fx *f, uint64_t n)
{
    assert_int_equal(socmon_zynq_soc_advance(f->soc, n * NS_PER_CYCLE, NULL), SOCMON_OK);
}

static inline uint32_t msr(const uint8_t *sel, unsigned first)
{
    uint32_t v = 0;
    for (unsigned b = 0; b < 4; b++)
        v |= (uint32_t)sel[first + b] << (8 * b);
    return v;
}

/* Selects sel[0..9] (zapm_msr_byte), enables counting with SPA's latency
 * points, starts the traffic with IDs id_base + k mod id_count, runs RUN
 * cycles. */
static inline void run(fx *f, const uint8_t sel[12], uint32_t id_base, uint32_t id_count)
{
    wr(f, A_ZAPM_MSR0, msr(sel, 0));
    wr(f, A_ZAPM_MSR1, msr(sel, 4));
    wr(f, A_ZAPM_MSR2, msr(sel, 8));
    wr(f, A_ZAPM_CTL, R_ZAPM_CTL_MCNTR_EN_MASK | ZAPM_CR_SPA_LATENCY |
                          (rd(f, A_ZAPM_CTL) & R_ZAPM_CTL_IDFILTER_MASK));
    socmon_zynq_traffic t = {.wr_mbps = 400, .rd_mbps = 800, .burst_bytes = 128, .lat_ns = 250,
        .lat_jitter_ns = 0, .id_base = id_base, .id_count = id_count};
    assert_int_equal(socmon_zynq_soc_set_traffic(f->soc, 0, &t), SOCMON_OK);
    cycles(f, RUN);
}

#define S0(m) zapm_msr_byte(0, (m))
#define S1(m) zapm_msr_byte(1, (m))


#endif
