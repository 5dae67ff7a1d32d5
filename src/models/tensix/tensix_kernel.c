/* The kernel model: unpack -> math -> pack over N tiles.
 *
 * The kernel runs in phases (fill: the first tile is unpacked while math and
 * pack wait; steady: one tile per period; drain: the last tile is packed;
 * idle). In each phase a signal counts floor(ratio * parent) where parent is
 * the cycle count or another signal, so every documented relation (count <=
 * cycles, FPU_OR_SFPU >= FPU and SFPU, writes <= write-port-available <= busy,
 * waits <= stalls) holds exactly over any window a bank can measure. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/error.h"
#include "models/tensix/tensix_internal.h"

static const socmon_tensix_platform platforms[] = {
    /* From the guide's platform table; clocks are nominal, for ns <-> cycles. */
    {.name = "wormhole_b0", .noc_word_bytes = 32, .unpack_peak_bpc = 80.0, .pack_peak_bpc = 80.0,
        .clock_hz = 1.0e9},
    {.name = "blackhole", .noc_word_bytes = 256, .unpack_peak_bpc = 120.0, .pack_peak_bpc = 120.0,
        .clock_hz = 1.35e9},
    {.name = "quasar", .noc_word_bytes = 32, .unpack_peak_bpc = 80.0, .pack_peak_bpc = 80.0,
        .clock_hz = 1.0e9},
};
#define NPLATFORMS (sizeof platforms / sizeof platforms[0])

const socmon_tensix_platform *socmon_tensix_platform_at(size_t i)
{
    return i < NPLATFORMS ? &platforms[i] : NULL;
}

socmon_status socmon_tensix_platform_find(const char *name, const socmon_tensix_platform **out)
{
    /* tt-llk's ChipArchitecture.from_string spells Wormhole B0 "wormhole" (any case;
     * a73bae96f helpers/chip_architecture.py:29-34, get_chip_architecture maps
     * "wormhole_b0" to it). */
    if (name && strcasecmp(name, "wormhole") == 0)
        name = platforms[0].name;
    for (size_t i = 0; name && i < NPLATFORMS; i++) {
        if (strcasecmp(name, platforms[i].name) == 0) {
            *out = &platforms[i];
            return SOCMON_OK;
        }
    }
    return socmon_fail(SOCMON_ENOENT, "platform '%s' unknown (valid: wormhole_b0 or wormhole, blackhole, quasar)",
                       name ? name : "(null)");
}

static const char *const format_names[] = {"Float32", "Float16", "Float16_b", "Bfp8_b", "Bfp4_b"};
static const unsigned format_tile_bytes[] = {4096, 2048, 2048, 1088, 576};
static const char *const fidelity_names[] = {"LoFi", "HiFi2", "HiFi3", "HiFi4"};
static const char *const bound_names[] = {"natural", "math", "unpack", "pack", "balanced"};

const char *socmon_tensix_format_name(socmon_tensix_format f)
{
    return (unsigned)f < SOCMON_TENSIX_NFORMATS ? format_names[f] : "?";
}

const char *socmon_tensix_fidelity_name(socmon_tensix_fidelity f)
{
    return (unsigned)f < SOCMON_TENSIX_NFIDELITIES ? fidelity_names[f] : "?";
}

const char *socmon_tensix_bound_name(socmon_tensix_bound b)
{
    return (unsigned)b < SOCMON_TENSIX_NBOUNDS ? bound_names[b] : "?";
}

/* The index of s in names (case-insensitive); else an error naming what and the valid set. Its
 * callers start *out at 0: -O3 cannot tell that socmon_fail never returns SOCMON_OK. */
static socmon_status lookup(const char *what, const char *s, const char *const *names, unsigned n,
                            int *out)
{
    char valid[128] = "";
    size_t len = 0;
    for (unsigned i = 0; i < n; i++) {
        if (s && strcasecmp(s, names[i]) == 0) {
            *out = (int)i;
            return SOCMON_OK;
        }
        len += (size_t)snprintf(valid + len, sizeof valid - len, "%s%s", i ? ", " : "", names[i]);
        if (len >= sizeof valid)
            len = sizeof valid - 1;
    }
    return socmon_fail(SOCMON_EINVAL, "%s '%s' unknown (valid: %s)", what, s ? s : "(null)", valid);
}

socmon_status socmon_tensix_format_parse(const char *s, socmon_tensix_format *out)
{
    int i = 0;
    socmon_status st = lookup("format", s, format_names, SOCMON_TENSIX_NFORMATS, &i);
    if (st == SOCMON_OK)
        *out = (socmon_tensix_format)i;
    return st;
}

socmon_status socmon_tensix_fidelity_parse(const char *s, socmon_tensix_fidelity *out)
{
    int i = 0;
    socmon_status st = lookup("fidelity", s, fidelity_names, SOCMON_TENSIX_NFIDELITIES, &i);
    if (st == SOCMON_OK)
        *out = (socmon_tensix_fidelity)i;
    return st;
}

socmon_status socmon_tensix_bound_parse(const char *s, socmon_tensix_bound *out)
{
    int i = 0;
    socmon_status st = lookup("bound", s, bound_names, SOCMON_TENSIX_NBOUNDS, &i);
    if (st == SOCMON_OK)
        *out = (socmon_tensix_bound)i;
    return st;
}

void socmon_tensix_kernel_params_default(socmon_tensix_kernel_params *p)
{
    p->tiles = 64;
    p->format = SOCMON_TENSIX_FMT_FLOAT16_B;
    p->fidelity = SOCMON_TENSIX_LOFI;
    p->bound = SOCMON_TENSIX_BOUND_NATURAL;
    p->platform = &platforms[0];
    p->kernel = SOCMON_TENSIX_KERNEL_MATMUL;
}

#define TX_MAX_TILES (1ull << 24)

socmon_status socmon_tensix_kernel_params_set(socmon_tensix_kernel_params *p, const char *key,
                                              const char *value)
{
    if (!p || !key || !value)
        return socmon_fail(SOCMON_EINVAL, "tensix option: NULL argument");
    if (strcmp(key, "tiles") == 0) {
        char *end;
        errno = 0;
        unsigned long long v = strtoull(value, &end, 10);
        if (end == value || *end || value[0] == '-' || value[0] == '+')
            return socmon_fail(SOCMON_EINVAL, "tiles '%s' is not a whole number (1..%llu)", value,
                               (unsigned long long)TX_MAX_TILES);
        if (errno || v < 1 || v > TX_MAX_TILES)
            return socmon_fail(SOCMON_ERANGE, "tiles '%s' out of range 1..%llu", value,
                               (unsigned long long)TX_MAX_TILES);
        p->tiles = v;
        return SOCMON_OK;
    }
    if (strcmp(key, "format") == 0)
        return socmon_tensix_format_parse(value, &p->format);
    if (strcmp(key, "fidelity") == 0)
        return socmon_tensix_fidelity_parse(value, &p->fidelity);
    if (strcmp(key, "bound") == 0)
        return socmon_tensix_bound_parse(value, &p->bound);
    if (strcmp(key, "platform") == 0)
        return socmon_tensix_platform_find(value, &p->platform);
    if (strcmp(key, "kernel") == 0)
        return socmon_tensix_kernel_parse(value, &p->kernel);
    return socmon_fail(SOCMON_EINVAL, "tensix option '%s' unknown (valid: %s)", key,
                       SOCMON_TENSIX_OPTION_KEYS);
}

static uint64_t div_up(uint64_t a, uint64_t b)
{
    return (a + b - 1) / b;
}

static uint64_t max2(uint64_t a, uint64_t b)
{
    return a > b ? a : b;
}

#define TX_ISSUE_GAP 6u   /* cycles the unpack thread needs to issue the next tile */

socmon_status socmon_tensix_kernel_costs(const socmon_tensix_kernel_params *p,
                                         socmon_tensix_stage_costs *o)
{
    if (!p || !o)
        return socmon_fail(SOCMON_EINVAL, "socmon_tensix_kernel_costs: %s is NULL",
                           !p ? "p (the kernel parameters)" : "out (the costs)");
    if (p->tiles < 1 || p->tiles > TX_MAX_TILES)
        return socmon_fail(SOCMON_ERANGE, "tiles %llu out of range 1..%llu",
                           (unsigned long long)p->tiles, (unsigned long long)TX_MAX_TILES);
    if ((unsigned)p->format >= SOCMON_TENSIX_NFORMATS || (unsigned)p->fidelity >= SOCMON_TENSIX_NFIDELITIES ||
        (unsigned)p->bound >= SOCMON_TENSIX_NBOUNDS || !smn_tx_shape_of(p->kernel))
        return socmon_fail(SOCMON_EINVAL,
                           "kernel parameters out of range (format %d, fidelity %d, bound %d, kernel %d)",
                           (int)p->format, (int)p->fidelity, (int)p->bound, (int)p->kernel);
    const socmon_tensix_platform *pf = p->platform ? p->platform : &platforms[0];
    uint64_t bytes = format_tile_bytes[p->format];
    /* Each of the two unpackers moves one operand at half the unpack peak. */
    o->unpack = div_up(bytes * 2, (uint64_t)pf->unpack_peak_bpc);
    const tx_shape *shape = smn_tx_shape_of(p->kernel);
    double fpu, sfpu, move;
    smn_tx_shape_math(shape, p->fidelity + 1u, p->format == SOCMON_TENSIX_FMT_FLOAT32, &fpu, &sfpu, &move);
    o->math = (uint64_t)(fpu + sfpu + move);
    o->pack = div_up(bytes * smn_tx_shape_out_tiles(shape), (uint64_t)pf->pack_peak_bpc);
    o->noc = div_up(bytes, (uint64_t)pf->noc_word_bytes);
    o->overhead = TX_ISSUE_GAP;
    uint64_t g = o->overhead;
    switch (p->bound) {
    case SOCMON_TENSIX_BOUND_MATH:
        o->math = 3 * max2(max2(o->unpack + g, o->pack), o->noc);
        break;
    case SOCMON_TENSIX_BOUND_UNPACK:
        o->unpack = 3 * max2(max2(o->math, o->pack), o->noc);
        break;
    case SOCMON_TENSIX_BOUND_PACK:
        o->pack = 3 * max2(max2(o->unpack + g, o->math), o->noc);
        break;
    case SOCMON_TENSIX_BOUND_BALANCED: {
        uint64_t s = max2(max2(o->unpack + g, o->math), max2(o->pack, o->noc));
        o->unpack = s - g;
        o->math = s;
        o->pack = s;
        break;
    }
    default:
        break;
    }
    o->period = max2(max2(o->unpack + g, o->math), max2(o->pack, o->noc));
    o->total = (o->unpack + g) + p->tiles * o->period + o->pack;
    return SOCMON_OK;
}

int smn_tx_signal_index(unsigned bank, unsigned counter_id, unsigned l1_mux)
{
    return tensix_event_index(bank, counter_id, l1_mux);
}

static int sig(const char *name)
{
    return tensix_event_index_by_name(name);
}

/* Parent relations: child counts a subset of its parent's cycles. */
static const char *const chains[][2] = {
    {"FPU_INSTRUCTION", "FPU_OR_SFPU_INSTRN"},
    {"SFPU_INSTRUCTION", "FPU_OR_SFPU_INSTRN"},
    {"SRCA_WRITE_AVAILABLE", "UNPACK0_BUSY_THREAD0"},
    {"SRCA_WRITE", "SRCA_WRITE_AVAILABLE"},
    {"SRCB_WRITE_AVAILABLE", "UNPACK1_BUSY_THREAD0"},
    {"SRCB_WRITE", "SRCB_WRITE_AVAILABLE"},
    {"MATH_INSTRN_STARTED", "MATH_INSTRN_AVAILABLE"},
    {"PACKER_DEST_READ_AVAILABLE", "PACKER_BUSY"},
    {"WAITING_FOR_SRCA_CLEAR", "THREAD_STALLS_0"},
    {"WAITING_FOR_SRCB_CLEAR", "THREAD_STALLS_0"},
    {"SYNC_INSTRN_AVAILABLE_0", "THREAD_STALLS_0"},
    {"WAITING_FOR_SRCA_VALID", "THREAD_STALLS_1"},
    {"WAITING_FOR_SRCB_VALID", "THREAD_STALLS_1"},
    {"WAITING_FOR_NONFULL_SEM_1", "THREAD_STALLS_1"},
    {"SYNC_INSTRN_AVAILABLE_1", "THREAD_STALLS_1"},
    {"WAITING_FOR_NONZERO_SEM_2", "THREAD_STALLS_2"},
    {"SYNC_INSTRN_AVAILABLE_2", "THREAD_STALLS_2"},
    {"WAITING_FOR_UNPACK_IDLE_0", "THREAD_STALLS_0"},
    {"WAITING_FOR_MATH_IDLE_1", "THREAD_STALLS_1"},
    {"WAITING_FOR_PACK_IDLE_2", "THREAD_STALLS_2"},
};

void smn_tx_set_ratio(socmon_tensix_core *c, int ph, const char *name, double r)
{
    int s = sig(name);
    if (s < 0)
        return;   /* cannot happen: names are the event table's */
    if (!(r > 0))
        r = 0;
    if (r > 1)
        r = 1;
    c->ratio[ph][s] = (uint32_t)llround(r * TX_RATIO_ONE);
}

static double frac(double n, double d)
{
    return d > 0 ? n / d : 0;
}

static void rates(socmon_tensix_core *c, int ph, const tx_activity *a)
{
    double P = a->P, U = a->U0 > a->U1 ? a->U0 : a->U1;
    double work0 = U + a->g;
    double stall0 = a->tu && P > work0 ? P - work0 : 0;
    double stall1 = a->tm && P > a->M ? P - a->M : 0;
    double stall2 = a->tk && P > a->K ? P - a->K : 0;
    double src_wait = 0, dest_wait = 0;
    if (a->tm) {
        /* Math waits for sources when unpack paces it more than pack does,
         * and for a free destination the rest of its stall. */
        src_wait = work0 >= a->K ? (work0 < P ? work0 : P) - a->M : 0;
        if (src_wait < 0)
            src_wait = 0;
        if (src_wait > stall1)
            src_wait = stall1;
        dest_wait = stall1 - src_wait;
    }
    const int act[3] = {a->tu, a->tm, a->tk};
    const double stall[3] = {stall0, stall1, stall2};
    const double instr[3] = {a->iu, a->im, a->ik};
    char name[48];
    for (int t = 0; t < 3; t++) {
        snprintf(name, sizeof name, "CFG_INSTRN_AVAILABLE_%d", t);
        smn_tx_set_ratio(c, ph, name, act[t] ? frac(2, P) : 0);
        snprintf(name, sizeof name, "SYNC_INSTRN_AVAILABLE_%d", t);
        smn_tx_set_ratio(c, ph, name, stall[t] > 0 ? 1 : 0);
        snprintf(name, sizeof name, "THREAD_STALLS_%d", t);
        smn_tx_set_ratio(c, ph, name, frac(stall[t], P));
        snprintf(name, sizeof name, "THREAD_INSTRUCTIONS_%d", t);
        smn_tx_set_ratio(c, ph, name, frac(instr[t], P));
    }
    smn_tx_set_ratio(c, ph, "THCON_INSTRN_AVAILABLE_0", a->tu ? frac(1, P) : 0);
    smn_tx_set_ratio(c, ph, "UNPACK_INSTRN_AVAILABLE_0", a->tu ? frac(P - a->g, P) : 0);
    smn_tx_set_ratio(c, ph, "MOVE_INSTRN_AVAILABLE_1", a->tm ? frac(1, P) : 0);
    smn_tx_set_ratio(c, ph, "FPU_INSTRN_AVAILABLE_1", a->tm ? frac(a->M + src_wait, P) : 0);
    smn_tx_set_ratio(c, ph, "PACK_INSTRN_AVAILABLE_2", a->tk ? frac(a->K, P) : 0);
    smn_tx_set_ratio(c, ph, "WAITING_FOR_SRCA_CLEAR", 1);
    smn_tx_set_ratio(c, ph, "WAITING_FOR_SRCB_CLEAR", 1);
    smn_tx_set_ratio(c, ph, "WAITING_FOR_SRCA_VALID", frac(src_wait, stall1));
    smn_tx_set_ratio(c, ph, "WAITING_FOR_SRCB_VALID", frac(src_wait, stall1));
    smn_tx_set_ratio(c, ph, "WAITING_FOR_NONFULL_SEM_1", frac(dest_wait, stall1));
    smn_tx_set_ratio(c, ph, "WAITING_FOR_NONZERO_SEM_2", 1);
    /* The engine a thread drives is often still busy when it stalls. */
    smn_tx_set_ratio(c, ph, "WAITING_FOR_UNPACK_IDLE_0", 0.5);
    smn_tx_set_ratio(c, ph, "WAITING_FOR_MATH_IDLE_1", 0.1);
    smn_tx_set_ratio(c, ph, "WAITING_FOR_PACK_IDLE_2", 0.5);

    /* Math: 15/16 of the math cycles run FPU ops, 2/16 SFPU, overlapping 1/16. */
    smn_tx_set_ratio(c, ph, "FPU_OR_SFPU_INSTRN", a->tm ? frac(a->M, P) : 0);
    smn_tx_set_ratio(c, ph, "FPU_INSTRUCTION", 15.0 / 16);
    smn_tx_set_ratio(c, ph, "SFPU_INSTRUCTION", 2.0 / 16);

    /* An unpacker is busy from issue until its data is written: while math
     * holds the source register it stays busy with the write port blocked. */
    double busy = a->tu ? frac(P - a->g, P) : 0;
    smn_tx_set_ratio(c, ph, "UNPACK0_BUSY_THREAD0", busy);
    smn_tx_set_ratio(c, ph, "UNPACK1_BUSY_THREAD0", busy);
    smn_tx_set_ratio(c, ph, "SRCA_WRITE_AVAILABLE", frac(a->U0, P - a->g));
    smn_tx_set_ratio(c, ph, "SRCB_WRITE_AVAILABLE", frac(a->U1, P - a->g));
    smn_tx_set_ratio(c, ph, "SRCA_WRITE", 0.97);   /* 3% of write slots lost to L1 arbitration */
    smn_tx_set_ratio(c, ph, "SRCB_WRITE", 0.97);
    smn_tx_set_ratio(c, ph, "UNPACK0_BUSY_THREAD1", a->tm ? frac(1, P) : 0);
    smn_tx_set_ratio(c, ph, "UNPACK1_BUSY_THREAD1", a->tm ? frac(1, P) : 0);
    smn_tx_set_ratio(c, ph, "DATA_HAZARD_STALLS_MOVD2A", a->tm ? frac(1, P) : 0);
    smn_tx_set_ratio(c, ph, "MATH_INSTRN_AVAILABLE", a->tm ? frac(a->M + src_wait, P) : 0);
    smn_tx_set_ratio(c, ph, "MATH_INSTRN_STARTED", frac(a->im, a->M + src_wait));

    smn_tx_set_ratio(c, ph, "PACKER_BUSY", a->tk ? frac(a->K, P) : 0);
    smn_tx_set_ratio(c, ph, "PACKER_DEST_READ_AVAILABLE", 0.9);
    smn_tx_set_ratio(c, ph, "AVAILABLE_MATH", a->tk ? frac(a->K + dest_wait, P) : 0);

    /* L1: inputs arrive on ring 0 (one operand per channel), outputs leave on ring 1. */
    double req = a->nin > 0 ? ceil(a->nin / 8) : 0;
    smn_tx_set_ratio(c, ph, "NOC_RING0_INCOMING_0", frac(a->nin, P));
    smn_tx_set_ratio(c, ph, "NOC_RING0_INCOMING_1", frac(a->nin, P));
    smn_tx_set_ratio(c, ph, "NOC_RING0_OUTGOING_0", frac(req, P));
    smn_tx_set_ratio(c, ph, "NOC_RING0_OUTGOING_1", frac(req, P));
    smn_tx_set_ratio(c, ph, "L1_ARB_TDMA_BUNDLE_1", frac(0.03 * a->K, P));
    smn_tx_set_ratio(c, ph, "L1_ARB_TDMA_BUNDLE_0", frac(0.03 * U, P));
    smn_tx_set_ratio(c, ph, "L1_ARB_UNPACKER", frac(0.03 * (a->U0 + a->U1), P));
    smn_tx_set_ratio(c, ph, "L1_NO_ARB_UNPACKER", frac(0.97 * U, P));
    /* Output is split over both ring-1 channels. */
    smn_tx_set_ratio(c, ph, "NOC_RING1_OUTGOING_0", frac(ceil(a->nout / 2), P));
    smn_tx_set_ratio(c, ph, "NOC_RING1_OUTGOING_1", frac(floor(a->nout / 2), P));
    smn_tx_set_ratio(c, ph, "NOC_RING1_INCOMING_0", frac(a->nout > 0 ? ceil(a->nout / 8) : 0, P));
    smn_tx_set_ratio(c, ph, "NOC_RING1_INCOMING_1", frac(req, P));
    smn_tx_set_ratio(c, ph, "TDMA_BUNDLE_1_ARB", frac(0.02 * a->K, P));
    smn_tx_set_ratio(c, ph, "TDMA_BUNDLE_0_ARB", frac(0.02 * U, P));
    smn_tx_set_ratio(c, ph, "TDMA_EXT_UNPACK_9_10", a->tm ? frac(1, P) : 0);
    smn_tx_set_ratio(c, ph, "TDMA_PACKER_2_WR", frac(0.5 * a->K, P));
}

static void order_signals(socmon_tensix_core *c)
{
    unsigned depth[TX_NSIG], n = 0;
    for (unsigned s = 0; s < TX_NSIG; s++) {
        unsigned d = 0;
        for (int p = c->parent[s]; p >= 0; p = c->parent[p])
            d++;
        depth[s] = d;
    }
    for (unsigned d = 0; n < TX_NSIG; d++)
        for (unsigned s = 0; s < TX_NSIG; s++)
            if (depth[s] == d)
                c->order[n++] = s;
}

socmon_status smn_tx_kernel_init(socmon_tensix_core *c)
{
    socmon_status st = socmon_tensix_kernel_costs(&c->p, &c->costs);
    if (st != SOCMON_OK)
        return st;
    for (unsigned s = 0; s < TX_NSIG; s++)
        c->parent[s] = -1;
    for (size_t i = 0; i < sizeof chains / sizeof chains[0]; i++)
        c->parent[sig(chains[i][0])] = sig(chains[i][1]);
    /* Every per-thread wait reason is part of that thread's stalls. */
    static const char *const waits[] = {"THCON_IDLE", "UNPACK_IDLE", "PACK_IDLE", "MATH_IDLE",
                                        "NONZERO_SEM", "NONFULL_SEM", "MOVE_IDLE", "MMIO_IDLE",
                                        "SFPU_IDLE"};
    for (size_t w = 0; w < sizeof waits / sizeof waits[0]; w++)
        for (int t = 0; t < 3; t++) {
            char name[48], stalls[32];
            snprintf(name, sizeof name, "WAITING_FOR_%s_%d", waits[w], t);
            snprintf(stalls, sizeof stalls, "THREAD_STALLS_%d", t);
            c->parent[sig(name)] = sig(stalls);
        }
    order_signals(c);

    const socmon_tensix_stage_costs *k = &c->costs;
    double U = (double)k->unpack, g = (double)k->overhead;
    double phases = (double)c->p.fidelity + 1;
    double fmt = (double)format_tile_bytes[c->p.format];
    const socmon_tensix_platform *pf = c->p.platform;
    double flits = ceil(fmt / pf->noc_word_bytes);
    double U1 = smn_tx_shape_operands(smn_tx_shape_of(c->p.kernel)) > 1 ? U : 0;

    tx_activity fill = {.P = U + g, .U0 = U, .U1 = U1, .g = g, .nin = flits, .iu = 6,
                        .tu = 1, .tm = 1, .tk = 1};
    tx_activity steady = {.P = (double)k->period, .U0 = U, .U1 = U1, .g = g, .M = (double)k->math,
                          .K = (double)k->pack, .nin = flits, .nout = flits, .iu = 6,
                          .im = 4 + 2 * phases, .ik = 6, .tu = 1, .tm = 1, .tk = 1};
    tx_activity drain = {.P = (double)k->pack, .K = (double)k->pack, .nout = flits, .ik = 6,
                         .tk = 1};
    memset(c->ratio, 0, sizeof c->ratio);
    rates(c, TX_PH_FILL, &fill);
    rates(c, TX_PH_STEADY, &steady);
    rates(c, TX_PH_DRAIN, &drain);
    smn_tx_shape_rates(c, TX_PH_FILL, &fill);
    smn_tx_shape_rates(c, TX_PH_STEADY, &steady);
    smn_tx_shape_rates(c, TX_PH_DRAIN, &drain);
    c->phase = TX_PH_IDLE;
    c->phase_left = 0;
    return SOCMON_OK;
}

static void enter_phase(socmon_tensix_core *c, int ph)
{
    for (unsigned s = 0; s < TX_NSIG; s++) {
        c->base[s] += c->inphase[s];
        c->inphase[s] = 0;
    }
    c->phase = ph;
    c->phase_root = 0;
    switch (ph) {
    case TX_PH_FILL:
        c->phase_left = c->costs.unpack + c->costs.overhead;
        break;
    case TX_PH_STEADY:
        c->phase_left = c->p.tiles * c->costs.period;
        break;
    case TX_PH_DRAIN:
        c->phase_left = c->costs.pack;
        break;
    default:
        c->phase_left = 0;
        break;
    }
}

void smn_tx_kernel_begin(socmon_tensix_core *c)
{
    enter_phase(c, TX_PH_FILL);
}

static void recompute(socmon_tensix_core *c)
{
    const uint32_t *r = c->ratio[c->phase];
    for (unsigned i = 0; i < TX_NSIG; i++) {
        unsigned s = c->order[i];
        uint64_t parent = c->parent[s] < 0 ? c->phase_root : c->inphase[c->parent[s]];
        c->inphase[s] = (parent * r[s]) >> 20;
    }
}

void smn_tx_kernel_step(socmon_tensix_core *c, uint64_t n)
{
    while (n > 0) {
        if (c->phase == TX_PH_IDLE) {
            c->now += n;
            return;
        }
        uint64_t k = n < c->phase_left ? n : c->phase_left;
        c->phase_root += k;
        c->phase_left -= k;
        c->now += k;
        n -= k;
        recompute(c);
        if (c->phase_left == 0)
            enter_phase(c, c->phase + 1);
    }
}

socmon_status socmon_tensix_core_set_kernel(socmon_tensix_core *c, socmon_tensix_kernel k)
{
    if (!c)
        return socmon_fail(SOCMON_EINVAL, "tensix core: NULL");
    if (!smn_tx_shape_of(k))
        return socmon_fail(SOCMON_EINVAL, "tensix core: kernel %d out of range 0..%d", (int)k,
                           SOCMON_TENSIX_NKERNELS - 1);
    /* Bank counts so far into the totals, so new ratios never lower them. */
    enter_phase(c, TX_PH_IDLE);
    socmon_tensix_kernel old = c->p.kernel;
    c->p.kernel = k;
    socmon_status st = smn_tx_kernel_init(c);
    if (st != SOCMON_OK) {
        c->p.kernel = old;
        (void)smn_tx_kernel_init(c);
    }
    return st;
}

uint64_t smn_tx_signal_total(const socmon_tensix_core *c, unsigned s)
{
    return c->base[s] + c->inphase[s];
}
