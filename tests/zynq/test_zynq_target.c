/* The "zynq" target: options, counters, workloads on the timeline, missed
 * intervals, and the drivers' protocol and errors. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

#include "drivers/zynq/zynq_drv.h"
#include "models/zynq/zynq_model.h"
#include "zynq/zynq_metrics_helper.h"

extern const socmon_target_ops smn_target_zynq_ops;

static void open_fails(const char *spec, socmon_status want, const char *needle)
{
    socmon_target *t = NULL;
    assert_int_equal(socmon_target_open(spec, &t), want);
    assert_null(t);
    if (!strstr(socmon_errmsg(), needle))
        fail_msg("'%s': message '%s' does not name '%s'", spec, socmon_errmsg(), needle);
}

static void test_bad_options(void **state)
{
    (void)state;
    open_fails("zynq:burst=100", SOCMON_ERANGE, "zynq: burst=100 is not a multiple of 8");
    open_fails("zynq:burst=100", SOCMON_ERANGE, "e.g. 96 or 104");
    open_fails("zynq:burst=4096", SOCMON_ERANGE, "burst=4096 out of range 8..2048");
    open_fails("zynq:burst=4", SOCMON_ERANGE, "burst=4 out of range 8..2048");
    open_fails("zynq:burst=2056", SOCMON_ERANGE, "burst=2056 out of range 8..2048");
    open_fails("zynq:wr_mbps=fast", SOCMON_EINVAL, "wr_mbps=fast");
    open_fails("zynq:rd_mbps=-5", SOCMON_ERANGE, "rd_mbps=-5");
    open_fails("zynq:wr_mbps=1e-300", SOCMON_ERANGE, "wr_mbps 1e-300");
    open_fails("zynq:slots=9", SOCMON_ERANGE, "slots=9");
    open_fails("zynq:slots=0", SOCMON_ERANGE, "slots=0");
    open_fails("zynq:ccnt_div=8", SOCMON_EINVAL, "ccnt_div=8");
    open_fails("zynq:lat_ns=100,jitter_ns=200", SOCMON_ERANGE, "lat_jitter_ns 200");
    open_fails("zynq:lat_ns=", SOCMON_EINVAL, "lat_ns=");
    open_fails("zynq:colour=red", SOCMON_EINVAL, "colour");
    open_fails("zynq:pmu_events=inst_rename+0x08", SOCMON_ENOENT, "0x08");
    open_fails("zynq:pmu_events=0x68+0x68", SOCMON_EINVAL, "0x68");
    open_fails("zynq:pmu_events=1+2+3+4+5+6+7", SOCMON_ERANGE, "more than 6");
    open_fails("zynq:pmu_events=+", SOCMON_EINVAL, "empty");
    socmon_target *t = NULL;
    assert_int_equal(socmon_target_open("zynq", &t), SOCMON_OK);
    assert_int_equal(socmon_target_start(t, "turbo"), SOCMON_ENOENT);
    assert_non_null(strstr(socmon_errmsg(), "turbo"));
    socmon_target_close(t);
}

/* Other A9 events on the PS side: counts follow the CPU model's mix. */
static void test_pmu_event_choice(void **state)
{
    (void)state;
    socmon_target *t = NULL;
    socmon_set *set = NULL;
    assert_int_equal(socmon_target_open("zynq:slots=1,pmu_events=mem_read+0x07+cpu_cycles", &t),
                     SOCMON_OK);
    assert_int_equal(socmon_target_start(t, "steady"), SOCMON_OK);
    assert_int_equal(socmon_device_ncounters(socmon_target_device(t)), 6 + 2 * 4);
    assert_int_equal(socmon_set_new(socmon_target_device(t), "cpu0.*", &set), SOCMON_OK);
    socmon_sample a, b;
    uint64_t d[4];
    assert_int_equal(socmon_sample_alloc(set, &a), SOCMON_OK);
    assert_int_equal(socmon_sample_alloc(set, &b), SOCMON_OK);
    assert_int_equal(socmon_set_read(set, 0, &a), SOCMON_OK);
    assert_int_equal(socmon_target_advance(t, 100000000, NULL), SOCMON_OK);
    assert_int_equal(socmon_set_read(set, 100000000, &b), SOCMON_OK);
    assert_int_equal(socmon_set_diff(set, &a, &b, d), SOCMON_OK);
    assert_string_equal(socmon_set_full_name(set, 1), "cpu0.mem_read");
    /* steady core 0: IPC 0.7, 0.35 loads/stores per instruction, 35 % stores */
    assert_true(d[3] == d[0]);                             /* cpu_cycles event == CCNT */
    assert_true(fabs((double)d[1] / d[0] - 0.7 * 0.35 * 0.65) < 1e-4);
    assert_true(fabs((double)d[2] / d[0] - 0.7 * 0.35 * 0.35) < 1e-4);
    /* the SPA metrics that need absent events are skipped, the rest still bind */
    zm z;
    assert_int_equal(zm_bind(&z, set), SOCMON_OK);
    assert_int_equal(zm_find(&z, "ipc", "cpu0"), -1);
    assert_true(zm_find(&z, "cpu_util", "cpu0") >= 0);
    zm_free(&z);
    socmon_sample_free(&a);
    socmon_sample_free(&b);
    socmon_set_free(set);
    socmon_target_close(t);
}

static void test_counters_and_params(void **state)
{
    (void)state;
    socmon_target *t = NULL;
    assert_int_equal(socmon_target_open("zynq", &t), SOCMON_OK);
    socmon_device *dev = socmon_target_device(t);
    /* 5 slots x 6 APM counters, then 2 cores x (CCNT + 6 events) */
    assert_int_equal(socmon_device_ncounters(dev), 5 * 6 + 2 * 7);
    uint32_t i;
    assert_int_equal(socmon_device_find(dev, "slot0.wr_bytes", &i), SOCMON_OK);
    assert_int_equal(i, 0);
    assert_int_equal(socmon_device_find(dev, "slot4.rd_lat", &i), SOCMON_OK);
    assert_int_equal(i, 29);
    assert_int_equal(socmon_device_find(dev, "cpu0.ccnt", &i), SOCMON_OK);
    assert_int_equal(i, 30);
    assert_int_equal(socmon_device_find(dev, "cpu1.mem_write_stall", &i), SOCMON_OK);
    assert_int_equal(socmon_device_counter(dev, i)->width, 32);
    const char *pn[] = {"apm_clock_hz", "cpu_clock_hz", "ref_clock_hz", "pmu_ccnt_div",
                        "bus_width_bytes"};
    for (size_t k = 0; k < sizeof pn / sizeof pn[0]; k++) {
        double v = 0;
        assert_int_equal(socmon_device_param(dev, pn[k], &v), SOCMON_OK);
        assert_true(v > 0);
    }
    assert_string_equal(socmon_target_ops_of(t)->metrics, "zynq");
    socmon_target_close(t);
}

typedef struct mixed {
    zm z;
    unsigned n;
    double wr0[64], wr1[64], util0[64];
} mixed;

static socmon_status collect(void *user, const socmon_sample *prev, const socmon_sample *cur,
                             const uint64_t *deltas)
{
    mixed *m = user;
    double dt = (double)(cur->t_ns - prev->t_ns) / 1e9;
    assert_int_equal(socmon_metrics_eval(m->z.m, deltas, dt, m->z.out), SOCMON_OK);
    assert_true(m->n < 64);
    m->wr0[m->n] = m->z.out[zm_find(&m->z, "wr_throughput", "slot0")];
    m->wr1[m->n] = m->z.out[zm_find(&m->z, "wr_throughput", "slot1")];
    m->util0[m->n] = m->z.out[zm_find(&m->z, "cpu_util", "cpu0")];
    m->n++;
    return SOCMON_OK;
}

/* PL and PS on one timeline: the phases of "mixed" show in both at once. */
static void test_mixed_phases_on_one_timeline(void **state)
{
    (void)state;
    socmon_target *t = NULL;
    socmon_set *set = NULL;
    socmon_timeline *tl = NULL;
    assert_int_equal(socmon_target_open("zynq:duration_ms=750", &t), SOCMON_OK);
    assert_int_equal(socmon_target_start(t, NULL), SOCMON_OK);
    assert_int_equal(socmon_set_new(socmon_target_device(t), "slot*.wr_*,cpu0.*", &set), SOCMON_OK);
    assert_int_equal(socmon_timeline_new(socmon_set_size(set), &tl), SOCMON_OK);
    mixed m = {0};
    assert_int_equal(zm_bind(&m.z, set), SOCMON_OK);
    socmon_sampler_opts o = {.interval_ns = 50000000, .duration_ns = 0, .realtime = 0,
        .max_intervals = 0};
    assert_int_equal(socmon_sampler_run(t, set, &o, tl, collect, &m, NULL), SOCMON_OK);
    assert_int_equal(m.n, 15);
    assert_int_equal(socmon_timeline_len(tl), 16);
    for (unsigned i = 0; i < 15; i++) {
        int ph = (int)(i / 5);
        double want0 = ph == 0 ? 100 : (ph == 1 ? 400 : 0);   /* 25 %, 100 %, idle */
        double want_u = ph == 0 ? 95 : (ph == 1 ? 90 : 3);
        if (ph < 2) {
            assert_true(fabs(m.wr0[i] - want0) <= 0.01 * want0);
            assert_true(fabs(m.wr1[i] - 0.85 * want0) <= 0.01 * 0.85 * want0);
        } else {
            assert_true(m.wr0[i] < 0.1);   /* at most a burst in flight at the switch */
        }
        assert_true(fabs(m.util0[i] - want_u) <= 0.01 * want_u);
    }
    zm_free(&m.z);
    socmon_timeline_free(tl);
    socmon_set_free(set);
    socmon_target_close(t);
}

/* ---- a target made late on purpose ---- */

typedef struct late {
    int calls;
    socmon_target_ops ops;
} late;
static late L;

static socmon_status late_advance(void *priv, uint64_t ns, int *done)
{
    if (++L.calls == 3) {
        struct timespec ts = {0, 45000000};   /* 45 ms inside a 10 ms interval */
        nanosleep(&ts, NULL);
    }
    return smn_target_zynq_ops.advance(priv, ns, done);
}

static int as_hardware(void *priv)
{
    (void)priv;
    return 1;
}

/* A model paced in real time loses nothing when the host stalls: its clock
 * waited, so the sampler catches up at the exact simulated instants. */
static void test_late_model_catches_up(void **state)
{
    (void)state;
    L.calls = 0;
    L.ops = smn_target_zynq_ops;
    L.ops.advance = late_advance;
    socmon_target *t = NULL;
    socmon_set *set = NULL;
    socmon_kv kv[] = {{.key = "slots", .value = "1"}};
    assert_int_equal(socmon_target_open_ops(&L.ops, kv, 1, &t), SOCMON_OK);
    assert_int_equal(socmon_target_start(t, "steady"), SOCMON_OK);
    assert_int_equal(socmon_set_new(socmon_target_device(t), "slot0.*", &set), SOCMON_OK);
    socmon_sampler_opts o = {.interval_ns = 10000000, .duration_ns = 200000000, .realtime = 1,
        .max_intervals = 0};
    socmon_sampler_stats st;
    assert_int_equal(socmon_sampler_run(t, set, &o, NULL, NULL, NULL, &st), SOCMON_OK);
    assert_int_equal(st.missed, 0);
    assert_int_equal(st.samples, 21);
    assert_true(st.jitter_max_ns >= 30000000);   /* the stall shows as lateness */
    socmon_set_free(set);
    socmon_target_close(t);
}

/* On hardware the intervals a late sampler slept through are gone: marked. */
static void test_missed_intervals_are_marked(void **state)
{
    (void)state;
    L.calls = 0;
    L.ops = smn_target_zynq_ops;
    L.ops.advance = late_advance;
    L.ops.hardware = as_hardware;
    socmon_target *t = NULL;
    socmon_set *set = NULL;
    socmon_timeline *tl = NULL;
    socmon_kv kv[] = {{.key = "slots", .value = "1"}};
    assert_int_equal(socmon_target_open_ops(&L.ops, kv, 1, &t), SOCMON_OK);
    assert_int_equal(socmon_target_start(t, "steady"), SOCMON_OK);
    assert_int_equal(socmon_set_new(socmon_target_device(t), "slot0.*", &set), SOCMON_OK);
    assert_int_equal(socmon_timeline_new(socmon_set_size(set), &tl), SOCMON_OK);
    socmon_sampler_opts o = {.interval_ns = 10000000, .duration_ns = 200000000, .realtime = 1,
        .max_intervals = 0};
    socmon_sampler_stats st;
    assert_int_equal(socmon_sampler_run(t, set, &o, tl, NULL, NULL, &st), SOCMON_OK);
    assert_true(st.missed >= 2);
    socmon_sample s, p;
    assert_int_equal(socmon_sample_alloc(set, &s), SOCMON_OK);
    assert_int_equal(socmon_sample_alloc(set, &p), SOCMON_OK);
    uint64_t marked = 0;
    for (size_t i = 1; i < socmon_timeline_len(tl); i++) {
        assert_int_equal(socmon_timeline_get(tl, i - 1, &p), SOCMON_OK);
        assert_int_equal(socmon_timeline_get(tl, i, &s), SOCMON_OK);
        uint64_t span = s.t_ns - p.t_ns;
        if (s.flags & SOCMON_SAMPLE_MISSED) {
            /* the sample says how many intervals it covers; none vanished */
            assert_int_equal(span, (uint64_t)(s.missed + 1) * o.interval_ns);
            marked += s.missed;
            /* and its deltas still measure the configured bandwidth */
            double mbps = (double)socmon_delta(p.v[0], s.v[0], 32) / ((double)span / 1e9) / 1e6;
            assert_true(fabs(mbps - 400) <= 4);
        } else {
            assert_int_equal(span, o.interval_ns);
        }
    }
    assert_int_equal(marked, st.missed);
    socmon_sample_free(&s);
    socmon_sample_free(&p);
    socmon_timeline_free(tl);
    socmon_set_free(set);
    socmon_target_close(t);
}

/* ---- drivers ---- */

typedef struct sr_count {
    unsigned sr_reads, reads;
} sr_count;

static void count_sr(void *user, const socmon_bus_access *a)
{
    sr_count *c = user;
    if (a->op == 'R') {
        c->reads++;
        if (a->addr == SOCMON_ZYNQ_APM_DEFAULT_BASE + A_ZAPM_SR)
            c->sr_reads++;
    }
}

static void test_driver_protocol(void **state)
{
    (void)state;
    socmon_zynq_desc d;
    socmon_zynq_desc_default(&d);
    d.nslots = 2;
    socmon_zynq_soc *soc;
    socmon_bus *mb, *rb;
    sr_count c = {0, 0};
    assert_int_equal(smn_zynq_soc_new(&d, &soc), SOCMON_OK);
    /* "no time passed" between reads below: accesses take none */
    assert_int_equal(socmon_zynq_soc_set_access_ns(soc, 0), SOCMON_OK);
    assert_int_equal(socmon_bus_model_new(&mb), SOCMON_OK);
    assert_int_equal(smn_zynq_soc_map(soc, mb), SOCMON_OK);
    assert_int_equal(socmon_bus_record_new(mb, count_sr, &c, &rb), SOCMON_OK);
    smn_zynq_part parts[2];
    smn_zapm_config ac = {.nslots = 2, .clock_hz = 200e6, .bus_width_bytes = 8};
    assert_int_equal(smn_zapm_part_new(rb, d.apm_base, &ac, &parts[0]), SOCMON_OK);
    smn_za9_config pc;
    smn_za9_config_spa(&pc, d.cpu_hz);
    assert_int_equal(smn_za9_part_new(rb, &pc, &parts[1]), SOCMON_OK);
    socmon_device *dev;
    assert_int_equal(smn_zynq_parts_device_new("z", parts, 2, &dev), SOCMON_OK);
    /* the driver left SICR at 0: reading samples must not reset counters */
    uint32_t v;
    assert_int_equal(socmon_bus_read32(mb, d.apm_base + A_ZAPM_SICR, &v), SOCMON_OK);
    assert_int_equal(v, 0);
    assert_int_equal(socmon_bus_read32(mb, d.apm_base + A_ZAPM_CTL, &v), SOCMON_OK);
    assert_int_equal(v & 0xFF, R_ZAPM_CTL_MCNTR_EN_MASK | ZAPM_CR_SPA_LATENCY);
    assert_int_equal(socmon_zynq_soc_start(soc, "steady", 0), SOCMON_OK);
    assert_int_equal(socmon_zynq_soc_advance(soc, 1000000, NULL), SOCMON_OK);
    /* PL and PS counters, in any order, in one read: one latch of the APM */
    uint32_t idx[] = {13, 0, 5, 12, 7, 19};
    uint64_t a[6], b[6];
    c.sr_reads = c.reads = 0;
    assert_int_equal(socmon_device_read(dev, idx, 6, a), SOCMON_OK);
    assert_int_equal(c.sr_reads, 1);
    assert_int_equal(c.reads, 1 + 6);
    for (int k = 0; k < 6; k++) {
        assert_int_equal(socmon_device_read(dev, &idx[k], 1, &b[k]), SOCMON_OK);
        assert_true(b[k] == a[k]);   /* no time passed */
    }
    assert_true(a[1] > 0 && a[0] > 0);                           /* slot0 bytes, cpu1 insts */
    assert_int_equal(smn_zynq_apm_peek(soc, 0), (uint32_t)a[1]);   /* latched = live */
    socmon_device_free(dev);
    socmon_bus_free(rb);
    socmon_bus_free(mb);
    smn_zynq_soc_free(soc);
}

static void test_driver_errors(void **state)
{
    (void)state;
    socmon_bus *mb;
    smn_zynq_part p;
    assert_int_equal(socmon_bus_model_new(&mb), SOCMON_OK);
    smn_zapm_config ac = {.nslots = 9, .clock_hz = 200e6, .bus_width_bytes = 8};
    assert_int_equal(smn_zapm_part_new(mb, 0, &ac, &p), SOCMON_ERANGE);
    assert_non_null(strstr(socmon_errmsg(), "slots 9"));
    ac.nslots = 1;
    /* nothing mapped there: the bus error comes back with the address */
    assert_int_equal(smn_zapm_part_new(mb, 0x1000, &ac, &p), SOCMON_EIO);
    assert_non_null(strstr(socmon_errmsg(), "0x1000"));
    smn_za9_config pc;
    smn_za9_config_spa(&pc, 666e6);
    pc.events[1] = pc.events[0];
    assert_int_equal(smn_za9_part_new(mb, &pc, &p), SOCMON_EINVAL);
    assert_non_null(strstr(socmon_errmsg(), "0x68"));
    smn_za9_config_spa(&pc, 666e6);
    pc.events[2] = 0x08;
    assert_int_equal(smn_za9_part_new(mb, &pc, &p), SOCMON_ENOENT);
    assert_non_null(strstr(socmon_errmsg(), "0x08"));
    smn_za9_config_spa(&pc, 666e6);
    pc.ncores = 5;
    assert_int_equal(smn_za9_part_new(mb, &pc, &p), SOCMON_ERANGE);
    assert_non_null(strstr(socmon_errmsg(), "cores 5"));
#if !(defined(__linux__) && (defined(__arm__) || defined(__aarch64__)))
    smn_za9_config_spa(&pc, 666e6);
    assert_int_equal(smn_za9_perf_part_new(&pc, &p), SOCMON_ENOTSUP);
    assert_non_null(strstr(socmon_errmsg(), "Arm Linux"));
#endif
    socmon_bus_free(mb);
}

/* ---- hw=1 over plain files standing in for /dev/uioN and /dev/mem ---- */

static void put32(int fd, uint64_t off, uint32_t v)
{
    assert_int_equal(pwrite(fd, &v, 4, (off_t)off), 4);
}

static uint32_t get32(int fd, uint64_t off)
{
    uint32_t v = 0;
    assert_int_equal(pread(fd, &v, 4, (off_t)off), 4);
    return v;
}

static void test_board_path_over_files(void **state)
{
    (void)state;
    char apm[] = "/tmp/socmon_zynq_apmXXXXXX", mem[] = "/tmp/socmon_zynq_memXXXXXX";
    int fa = mkstemp(apm), fm = mkstemp(mem);
    assert_true(fa >= 0 && fm >= 0);
    assert_int_equal(ftruncate(fa, SOCMON_ZAPM_WINDOW), 0);
    assert_int_equal(ftruncate(fm, (off_t)(SOCMON_ZA9_CPU1_BASE + SOCMON_ZA9_WINDOW)), 0);
    /* what a real A9 PMU shows before anyone touches it */
    put32(fm, SOCMON_ZA9_CPU0_BASE + A_ZA9_PMCR, ZA9_PMCR_RESET);
    put32(fm, SOCMON_ZA9_CPU1_BASE + A_ZA9_PMCR, ZA9_PMCR_RESET);
    char spec[200];
    snprintf(spec, sizeof spec, "zynq:hw=1,slots=2,apm_dev=%s,mem_dev=%s", apm, mem);
    socmon_target *t = NULL;
    assert_int_equal(socmon_target_open(spec, &t), SOCMON_OK);
    /* the drivers programmed the "hardware" */
    assert_int_equal(get32(fa, A_ZAPM_CTL) & 0xFF,
                     R_ZAPM_CTL_MCNTR_EN_MASK | ZAPM_CR_SPA_LATENCY);
    assert_int_equal(get32(fa, A_ZAPM_SICR), 0);
    assert_int_equal(get32(fm, SOCMON_ZA9_CPU1_BASE + A_ZA9_PMLAR), ZA9_LAR_KEY);
    assert_int_equal(get32(fm, SOCMON_ZA9_CPU1_BASE + za9_pmxevtyper(0)), 0x68);
    assert_int_equal(get32(fm, SOCMON_ZA9_CPU0_BASE + A_ZA9_PMCNTENSET), 0x8000003Fu);
    /* and reads come from the sampled APM copies and the PMU counters */
    put32(fa, socmon_zapm_smc_offset(6 + SOCMON_ZAPM_RD_BYTES), 12345);
    put32(fm, SOCMON_ZA9_CPU1_BASE + A_ZA9_PMCCNTR, 777);
    socmon_device *dev = socmon_target_device(t);
    uint32_t idx[2];
    uint64_t v[2];
    assert_int_equal(socmon_device_find(dev, "slot1.rd_bytes", &idx[0]), SOCMON_OK);
    assert_int_equal(socmon_device_find(dev, "cpu1.ccnt", &idx[1]), SOCMON_OK);
    assert_int_equal(socmon_device_read(dev, idx, 2, v), SOCMON_OK);
    assert_int_equal(v[0], 12345);
    assert_int_equal(v[1], 777);
    /* the target's bus reaches the board at the model's addresses; no model behind it */
    uint32_t raw = 0;
    assert_int_equal(socmon_bus_read32(socmon_target_bus(t),
                                       SOCMON_ZYNQ_APM_DEFAULT_BASE + socmon_zapm_smc_offset(6 + SOCMON_ZAPM_RD_BYTES),
                                       &raw),
                     SOCMON_OK);
    assert_int_equal(raw, 12345);
    assert_null(socmon_target_model(t, "zynq"));
    assert_true(socmon_target_is_hardware(t));
    /* a board has no workloads and its time is the wall clock */
    assert_int_equal(socmon_target_start(t, "steady"), SOCMON_ENOTSUP);
    assert_non_null(strstr(socmon_errmsg(), "steady"));
    uint64_t t1 = socmon_target_now_ns(t);
    int done = 1;
    assert_int_equal(socmon_target_advance(t, 2000000, &done), SOCMON_OK);
    assert_int_equal(done, 0);
    assert_true(socmon_target_now_ns(t) - t1 >= 2000000);
    socmon_target_close(t);
    snprintf(spec, sizeof spec, "zynq:hw=1,apm_dev=/nonexistent/uio7,mem_dev=%s", mem);
    open_fails(spec, SOCMON_ENOENT, "/nonexistent/uio7");
    snprintf(spec, sizeof spec, "zynq:apm_dev=%s", apm);
    open_fails(spec, SOCMON_EINVAL, "hw=1");
    snprintf(spec, sizeof spec, "zynq:hw=1,apm_dev=%s", apm);
    open_fails(spec, SOCMON_EINVAL, "mem_dev");
    close(fa);
    close(fm);
    unlink(apm);
    unlink(mem);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bad_options),
        cmocka_unit_test(test_counters_and_params),
        cmocka_unit_test(test_pmu_event_choice),
        cmocka_unit_test(test_mixed_phases_on_one_timeline),
        cmocka_unit_test(test_late_model_catches_up),
        cmocka_unit_test(test_missed_intervals_are_marked),
        cmocka_unit_test(test_driver_protocol),
        cmocka_unit_test(test_driver_errors),
        cmocka_unit_test(test_board_path_over_files),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
