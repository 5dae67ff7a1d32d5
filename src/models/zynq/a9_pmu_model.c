/* Cortex-A9 PMU (ARMv7 PMUv1) memory-mapped window, driven by a CPU activity
 * model of one core.
 *
 * The activity model turns a profile (utilisation, IPC, load/store mix, miss
 * and stall rates) into events per non-idle cycle for every A9 event number,
 * all derived from the same few quantities so that counters agree with each
 * other (refills never exceed accesses, stalls never exceed cycles). Fractions
 * carry over between steps, so counts over any split of time add up exactly.
 *
 * Register facts come from src/hw/a9_pmu.h: the plain registers (counters,
 * event types, PMOVSR, PMCR, ...) live in p->reg[] and its access table does
 * their storing; this file adds the lock, the SET/CLR pairs and the actions. */
#include <math.h>
#include <string.h>

#include "models/zynq/zynq_internal.h"

void smn_za9_init(za9_model *p)
{
    memset(p, 0, sizeof *p);
    for (unsigned r = 0; r < ZA9_NREGS; r++)
        p->reg[r] = ZA9_REGINFO[r].reset;
    p->locked = 1;   /* CoreSight: memory-mapped writes need the LAR key first */
}

static double clamp01(double x)
{
    return x < 0 ? 0 : (x > 1 ? 1 : x);
}

double smn_za9_event_rate(const socmon_zynq_cpu_profile *p, unsigned code)
{
    double inst = p->ipc;
    double ldst = inst * p->ldst_per_inst;
    double st = ldst * p->store_frac;
    double refill = ldst * p->l1d_miss;
    double br = inst * p->br_per_inst;
    double ifill = inst * 0.002;
    double itlb = inst * 0.0002, dtlb = ldst * 0.001;
    switch (code) {
    case 0x01: return ifill;
    case 0x02: return itlb;
    case 0x03: return refill;
    case 0x04: return ldst;
    case 0x05: return dtlb;
    case 0x06: return ldst - st;
    case 0x07: return st;
    case 0x09: case 0x0A: return 1e-6;
    case 0x0B: return 1e-7;
    case 0x0C: return br;
    case 0x0D: return br * 0.7;
    case 0x0F: return ldst * 0.001;
    case 0x10: return br * p->br_miss;
    case 0x11: return 1.0;
    case 0x12: return br;
    case 0x50: return refill * 0.05;
    case 0x51: return refill * 0.02;
    case 0x60: return clamp01(ifill * 20);
    case 0x61: return clamp01(refill * p->stall_per_miss);
    case 0x62: return clamp01((itlb + dtlb) * 30);
    case 0x63: return inst * 1e-4;
    case 0x64: return inst * 1e-6;
    case 0x65: return refill * 0.5;
    case 0x66: return clamp01(1.0 - inst / 2.0);
    case 0x67: return clamp01(1.0 - inst / 2.0) * 0.3;
    case 0x68: return inst;
    case 0x6E: return br * 0.1;
    case 0x70: return inst * 0.6;
    case 0x71: return inst * 0.25;
    case 0x72: return ldst;
    case 0x73: return inst * 0.02;
    case 0x74: return inst * 0.01;
    case 0x81: return clamp01(st * p->wstall_per_store);
    case 0x82: return clamp01(itlb * 20);
    case 0x83: return clamp01(dtlb * 20);
    case 0x84: return clamp01(itlb * 2);
    case 0x85: return clamp01(dtlb * 2);
    case 0x86: return clamp01(inst * 1e-3);
    case 0x8A: return 1.0;
    case 0x8B: return 0.05;
    case 0x90: case 0x91: case 0x92: return inst * 1e-4;
    case 0x93: return 1e-6;
    default: return 0.0;   /* 0x00 (software only), Java, PLE, unimplemented numbers */
    }
}

static void add32(uint32_t *c, uint64_t inc, uint32_t *ovs, uint32_t bit)
{
    uint64_t s = (uint64_t)*c + inc;
    if (s > 0xFFFFFFFFull)
        *ovs |= bit;   /* 32-bit wrap sets the overflow flag */
    *c = (uint32_t)s;
}

void smn_za9_advance(za9_model *p, uint64_t cycles)
{
    double a = p->active_frac + clamp01(p->prof.util) * (double)cycles;
    uint64_t active = (uint64_t)a;
    p->active_frac = a - (double)active;
    if (!(p->reg[ZA9_REG_CR] & R_ZA9_PMCR_E_MASK) || active == 0)
        return;
    if (p->cnten & ZA9_CCNT_BIT) {
        uint64_t inc = active;
        if (p->reg[ZA9_REG_CR] & R_ZA9_PMCR_D_MASK) {
            p->div_left += active;
            inc = p->div_left / 64;
            p->div_left %= 64;
        }
        add32(&p->reg[ZA9_REG_CCNTR], inc, &p->reg[ZA9_REG_OVSR], ZA9_CCNT_BIT);
    }
    /* two counters on one event see the same count: draw each event once */
    unsigned seen_ev[SOCMON_ZA9_NCOUNTERS];
    uint64_t seen_cnt[SOCMON_ZA9_NCOUNTERS];
    unsigned nseen = 0;
    for (unsigned n = 0; n < SOCMON_ZA9_NCOUNTERS; n++) {
        if (!(p->cnten & (1u << n)))
            continue;
        unsigned ev = p->reg[ZA9_REG_EVTYPER0 + n] & 0xFFu;
        uint64_t cnt = 0;
        unsigned i;
        for (i = 0; i < nseen; i++)
            if (seen_ev[i] == ev)
                break;
        if (i < nseen) {
            cnt = seen_cnt[i];
        } else {
            double e = p->acc[ev] + smn_za9_event_rate(&p->prof, ev) * (double)active;
            cnt = (uint64_t)e;
            p->acc[ev] = e - (double)cnt;
            seen_ev[nseen] = ev;
            seen_cnt[nseen++] = cnt;
        }
        add32(&p->reg[ZA9_REG_EVCNTR0 + n], cnt, &p->reg[ZA9_REG_OVSR], 1u << n);
    }
}

int smn_za9_irq(const za9_model *p)
{
    return (p->reg[ZA9_REG_OVSR] & p->inten & ZA9_CNT_MASK) != 0;
}

uint32_t smn_za9_read(za9_model *p, uint64_t off)
{
    uint32_t v = 0;
    int r = za9_reg_index(off);
    if (r >= 0)
        return socmon_reg_read(&ZA9_REGINFO[r], &p->reg[r]);
    switch (off) {
    case A_ZA9_PMCNTENSET: case A_ZA9_PMCNTENCLR: v = p->cnten; break;
    case A_ZA9_PMINTENSET: case A_ZA9_PMINTENCLR: v = p->inten; break;
    case A_ZA9_PMLSR: v = R_ZA9_PMLSR_SLI_MASK | (p->locked ? R_ZA9_PMLSR_SLK_MASK : 0u); break;
    default: break;
    }
    return v;
}

static socmon_status pmu_read(void *model, uint64_t off, uint32_t *val)
{
    *val = smn_za9_read(model, off);
    return SOCMON_OK;
}

/* The access table does the storing (read-only, reserved and W1C bits);
 * what follows is the SET/CLR pairs and the actions. No lock here: CP15
 * writes come this way too, and the CoreSight lock guards only the
 * memory-mapped interface (pmu_write). */
void smn_za9_write(za9_model *p, uint64_t off, uint32_t v)
{
    int r = za9_reg_index(off);
    if (r >= 0)
        p->reg[r] = socmon_reg_write(&ZA9_REGINFO[r], p->reg[r], v);
    switch (off) {
    case A_ZA9_PMCNTENSET: p->cnten |= v & ZA9_CNT_MASK; break;
    case A_ZA9_PMCNTENCLR: p->cnten &= ~(v & ZA9_CNT_MASK); break;
    case A_ZA9_PMINTENSET: p->inten |= v & ZA9_CNT_MASK; break;
    case A_ZA9_PMINTENCLR: p->inten &= ~(v & ZA9_CNT_MASK); break;
    case A_ZA9_PMSWINC:
        if (p->reg[ZA9_REG_CR] & R_ZA9_PMCR_E_MASK)
            for (unsigned n = 0; n < SOCMON_ZA9_NCOUNTERS; n++)
                if ((v & (1u << n)) && (p->cnten & (1u << n)) &&
                    p->reg[ZA9_REG_EVTYPER0 + n] == 0x00)
                    add32(&p->reg[ZA9_REG_EVCNTR0 + n], 1, &p->reg[ZA9_REG_OVSR], 1u << n);
        break;
    case A_ZA9_PMCR:
        /* P and C act once and read as zero */
        if (v & R_ZA9_PMCR_P_MASK)
            for (unsigned n = 0; n < SOCMON_ZA9_NCOUNTERS; n++)
                p->reg[ZA9_REG_EVCNTR0 + n] = 0;
        if (v & R_ZA9_PMCR_C_MASK) {
            p->reg[ZA9_REG_CCNTR] = 0;
            p->div_left = 0;
        }
        p->reg[ZA9_REG_CR] &= ~(R_ZA9_PMCR_P_MASK | R_ZA9_PMCR_C_MASK);
        break;
    default:
        break;
    }
}

static socmon_status pmu_write(void *model, uint64_t off, uint32_t v)
{
    za9_model *p = model;
    if (off == A_ZA9_PMLAR) {
        p->locked = v != ZA9_LAR_KEY;
        return SOCMON_OK;
    }
    if (!p->locked)   /* writes are ignored while the lock is set */
        smn_za9_write(p, off, v);
    return SOCMON_OK;
}

const socmon_regmodel_ops smn_za9_regops = {.read = pmu_read, .write = pmu_write};
