/* The "ibex" target: an RV32 program (an ELF for Ibex's simple_system) on
 * the Ibex core model, its counters read as CSRs by the Ibex driver. Time is
 * the core clock: advance(ns) runs ns * clock_mhz / 1000 cycles; the
 * workload ("program") is done when the program halts, traps out, runs out
 * of max_cycles or can never make progress (ibex_target.h says which).
 *
 * With symbols=1 every instruction's counter changes are added to the
 * function (ELF symbol) it belongs to; the table of those sums (the model's
 * per-function table, src/models/ibex/ibex_fntable.c) is mapped on
 * the bus after the CSRs (src/hw/ibex_csr.h) and the driver lists them as
 * counters f.fn_cycles, f.fn_instret, ..., so they are sampled, recorded and
 * reported like any other counter (`socmon report --by-symbol`). */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "drivers/ibex/ibex_drv.h"
#include "hw/ibex_csr.h"
#include "models/ibex/ibex_model.h"
#include "targets/ibex_config.h"
#include "targets/model_target.h"

/* Ibex's examples/simple_system is simulation-only (Verilator) and has no
 * clock frequency. On a board Ibex runs at 50 MHz: the clock generator of
 * its Arty A7 example (shared/rtl/fpga/xilinx/clkgen_xil7series.sv, 50 MHz
 * from the board's 100 MHz) and lowRISC's ibex-demo-system (top_artya7:
 * SysClkFreq = 50_000_000). */
#define IBEX_DEFAULT_MHZ "50"

typedef struct ibex_opts {
    unsigned config, rv32m, entry;
    int wb_stage, bt_alu, symbols;
    uint64_t mhpm_num, mhpm_width, max_cycles, slices;
    double clock_mhz;
    const char *program, *trace_bus;
} ibex_opts;

static const char *const rv32ms[] = {"fast", "single", "slow", "none", NULL};
static const char *const entries[] = {"boot", "elf", NULL};   /* ibex_entry order */
static const ibex_rv32m rv32m_of[] = {IBEX_RV32M_FAST, IBEX_RV32M_SINGLE, IBEX_RV32M_SLOW, IBEX_RV32M_NONE};

static const socmon_option ibex_options[] = {
    {.name = "config", .type = SOCMON_OPT_CHOICE, .help = "preset of ibex_configs.yaml", .def = "small",
     .choices = smn_ibex_config_names, .offset = offsetof(ibex_opts, config)},
    {.name = "rv32m", .type = SOCMON_OPT_CHOICE, .help = "multiplier/divider (default: the preset's: small fast, "
     "maxperf single)", .choices = rv32ms, .offset = offsetof(ibex_opts, rv32m)},
    {.name = "wb_stage", .type = SOCMON_OPT_BOOL, .help = "writeback stage (default: the preset's: small 0, maxperf 1)",
     .offset = offsetof(ibex_opts, wb_stage)},
    {.name = "bt_alu", .type = SOCMON_OPT_BOOL, .help = "branch target ALU (default: the preset's: small 0, maxperf 1)",
     .offset = offsetof(ibex_opts, bt_alu)},
    {.name = "mhpm_num", .type = SOCMON_OPT_UINT, .help = "MHPMCounterNum: mhpmcounter3..(2+N)", .def = "10",
     .lo = 0, .hi = IBEX_MHPM_NUM_MAX, .offset = offsetof(ibex_opts, mhpm_num)},
    {.name = "mhpm_width", .type = SOCMON_OPT_UINT, .help = "MHPMCounterWidth in bits", .def = "40", .lo = 1,
     .hi = IBEX_MHPM_WIDTH_MAX, .offset = offsetof(ibex_opts, mhpm_width)},
    {.name = "clock_mhz", .type = SOCMON_OPT_DOUBLE, .help = "simulated core clock (ns <-> cycles)",
     .def = IBEX_DEFAULT_MHZ, .lo = 0.001, .hi = 10000, .offset = offsetof(ibex_opts, clock_mhz)},
    {.name = "entry", .type = SOCMON_OPT_CHOICE, .help = "where the program starts: 0x100080, as the RTL "
     "(boot), or the ELF's entry point (elf: other linker scripts)", .def = "boot",
     .choices = entries, .offset = offsetof(ibex_opts, entry)},
    {.name = "program", .type = SOCMON_OPT_PATH, .help = "the RV32 ELF to run (the CLI's '-- PROGRAM.elf')",
     .offset = offsetof(ibex_opts, program)},
    {.name = "max_cycles", .type = SOCMON_OPT_UINT, .help = "stop after this many core cycles, 0 = no limit "
     "(the CLI's --max-cycles)", .def = "0", .lo = 0, .hi = 9007199254740992.0,
     .offset = offsetof(ibex_opts, max_cycles)},
    {.name = "symbols", .type = SOCMON_OPT_BOOL, .help = "per-function counters f.fn_* from the ELF's symbols "
     "('socmon record' turns it on), and the exact profile: call tree, PCs, slices", .def = "0",
     .offset = offsetof(ibex_opts, symbols)},
    {.name = "slices", .type = SOCMON_OPT_UINT, .help = "with symbols: function entries and exits kept for "
     "the timeline (Perfetto), the rest counted as dropped", .def = "100000", .lo = 0, .hi = 4000000,
     .offset = offsetof(ibex_opts, slices)},
    SOCMON_OPTION_TRACE_BUS(ibex_opts),
    {0},
};

static const char *const ibex_workloads[] = {"program", NULL};

/* The model instance: the core plus what the target adds around it. */
typedef struct ibex_sim {
    ibex_core *core;
    ibex_config cfg;
    double hz;
    uint64_t max_cycles;
    uint64_t t_ns;              /* simulated time asked for so far */
    int has_program, done;
    socmon_program_end outcome;
    char why[200];
    smn_ibex_fntable *fns;      /* with symbols=1: the per-function table (the f.fn_* counters) */
    uint64_t hpm_mask;
    char *program;              /* the ELF's path, as given */
} ibex_sim;

/* 1 if option name was given (bit i of given: ibex_options[i]). */
static int given_in(uint64_t given, const char *name)
{
    for (size_t i = 0; ibex_options[i].name && i < 64; i++)
        if (strcmp(ibex_options[i].name, name) == 0)
            return (given >> i) & 1;
    return 0;
}

/* The model's configuration from the options: the preset, then what was given over it. */
static socmon_status config_of(const ibex_opts *o, uint64_t given, ibex_config *cfg)
{
    socmon_status st = smn_ibex_config_preset(cfg, smn_ibex_config_names[o->config]);
    if (st)
        return st;
    if (given_in(given, "rv32m"))
        cfg->rv32m = rv32m_of[o->rv32m];
    if (given_in(given, "wb_stage"))
        cfg->wb_stage = o->wb_stage;
    if (given_in(given, "bt_alu"))
        cfg->bt_alu = o->bt_alu;
    cfg->mhpm_num = (unsigned)o->mhpm_num;
    cfg->mhpm_width = (unsigned)o->mhpm_width;
    cfg->entry = o->entry ? IBEX_ENTRY_ELF : IBEX_ENTRY_BOOT;
    return SOCMON_OK;
}

static socmon_status ibex_prepare(smn_model_target *mt)
{
    return config_of(mt->opts, mt->given, mt->priv);
}

socmon_status smn_ibex_config(const char *options, ibex_config *cfg)
{
    char text[512];
    socmon_spec *s = NULL;
    snprintf(text, sizeof text, "ibex%s%s", options && *options ? ":" : "", options ? options : "");
    socmon_status st = socmon_spec_parse(text, &s);
    const socmon_kv *kv = NULL;
    size_t n = socmon_spec_options(s, &kv);
    ibex_opts o;
    uint64_t given = 0;
    memset(&o, 0, sizeof o);
    if (st == SOCMON_OK)
        st = socmon_options_parse("ibex", ibex_options, kv, n, &o, &given);
    if (st == SOCMON_OK)
        st = config_of(&o, given, cfg);
    socmon_spec_free(s);
    return st;
}

static void sim_free(ibex_sim *s)
{
    if (!s)
        return;
    smn_ibex_destroy(s->core);
    smn_ibex_fntable_free(s->fns);
    free(s->program);
    free(s);
}

static socmon_status ibex_model_new(smn_model_target *mt, void **model)
{
    const ibex_opts *o = mt->opts;
    ibex_sim *s = calloc(1, sizeof *s);
    if (!s)
        return socmon_fail(SOCMON_ENOMEM, "ibex: out of memory");
    s->cfg = *(const ibex_config *)mt->priv;
    s->hz = o->clock_mhz * 1e6;
    s->max_cycles = o->max_cycles;
    s->hpm_mask = s->cfg.mhpm_width >= 64 ? UINT64_MAX : (UINT64_C(1) << s->cfg.mhpm_width) - 1;
    socmon_status st = smn_ibex_create(&s->cfg, &s->core);
    if (st == SOCMON_OK && o->program) {
        s->has_program = 1;
        st = smn_ibex_load_elf_file(s->core, o->program);
        if (st == SOCMON_OK && o->symbols)
            st = smn_ibex_fntable_new(s->core, &s->cfg, o->program, (size_t)o->slices, &s->fns);
        /* as given, like the target's spec: report finds a relative one beside the recording too */
        if (st == SOCMON_OK && !(s->program = strdup(o->program)))
            st = socmon_fail(SOCMON_ENOMEM, "ibex: out of memory");
    } else if (st == SOCMON_OK && o->symbols) {
        st = socmon_fail(SOCMON_EINVAL, "ibex: symbols=1 needs a program (program=PATH)");
    }
    if (st) {
        sim_free(s);
        return st;
    }
    *model = s;
    return SOCMON_OK;
}

static socmon_status ibex_map(smn_model_target *mt, socmon_bus *bus)
{
    ibex_sim *s = mt->model;
    socmon_status st = smn_ibex_map_csrs(s->core, bus);
    if (st == SOCMON_OK && s->fns)
        st = smn_ibex_fntable_map(s->fns, bus);
    return st;
}

static socmon_status ibex_device_new_cb(smn_model_target *mt, socmon_bus *bus, socmon_device **dev)
{
    const ibex_sim *s = mt->model;
    ibex_drv_config dc = {s->cfg.mhpm_num, s->cfg.mhpm_width, s->hz, smn_ibex_fntable_rows(s->fns),
                          smn_ibex_fntable_names(s->fns)};
    return smn_ibex_device_new(bus, &dc, dev);
}

static socmon_status ibex_start(smn_model_target *mt, const char *workload)
{
    const ibex_sim *s = mt->model;
    if (workload && strcmp(workload, "program") != 0)
        return socmon_fail(SOCMON_EINVAL, "ibex: workload '%s' unknown: the workload is the program "
                           "(valid: program)", workload);
    if (!s->has_program)
        return socmon_fail(SOCMON_EINVAL, "ibex: no program to run: give the ELF after '--' "
                           "(socmon stat -t ibex -- prog.elf) or as program=PATH");
    return SOCMON_OK;
}

static void finish(ibex_sim *s, ibex_stop why)
{
    ibex_stats st;
    smn_ibex_get_stats(s->core, &st);
    uint32_t pc = smn_ibex_pc(s->core);
    s->done = 1;
    /* the run ends when the program did, not at the end of the interval */
    uint64_t end_ns = (uint64_t)((double)smn_ibex_time(s->core) * 1e9 / s->hz + 0.5);
    if (end_ns < s->t_ns)
        s->t_ns = end_ns;
    switch (why) {
    case IBEX_STOP_HALT:
        s->outcome = SOCMON_PROGRAM_HALTED;
        snprintf(s->why, sizeof s->why, "program halted");
        return;
    case IBEX_STOP_LIMIT:
        s->outcome = SOCMON_PROGRAM_LIMIT;
        snprintf(s->why, sizeof s->why, "program did not halt within %llu cycles (pc 0x%08x)",
                 (unsigned long long)s->max_cycles, pc);
        return;
    case IBEX_STOP_SLEEP:
        s->outcome = SOCMON_PROGRAM_HANG;
        snprintf(s->why, sizeof s->why, "program sleeps forever: WFI with no interrupt that could wake it "
                 "(pc 0x%08x)", pc);
        return;
    case IBEX_STOP_SPIN:
        if (st.exceptions && !(st.last_cause & IBEX_MCAUSE_IRQ)) {
            s->outcome = SOCMON_PROGRAM_TRAPPED;
            snprintf(s->why, sizeof s->why, "program trapped out: exception mcause %u at mepc 0x%08x, "
                     "and its handler loops forever at 0x%08x", st.last_cause, st.last_epc, pc);
        } else {
            s->outcome = SOCMON_PROGRAM_HANG;
            snprintf(s->why, sizeof s->why, "program hangs: a jump to itself at 0x%08x with interrupts off",
                     pc);
        }
        return;
    }
}

static socmon_status ibex_advance(smn_model_target *mt, uint64_t ns, int *done)
{
    ibex_sim *s = mt->model;
    if (s->done) {
        /* The program is over (its clock stopped where it ended); time goes
         * on with the core halted, so a run given a duration lasts it. */
        s->t_ns += ns;
        *done = 1;
        return SOCMON_OK;
    }
    s->t_ns += ns;
    uint64_t until = (uint64_t)((double)s->t_ns * s->hz / 1e9);
    if (s->max_cycles && until > s->max_cycles)
        until = s->max_cycles;
    if (until == 0) {
        *done = 0;
        return SOCMON_OK;
    }
    ibex_stop why = IBEX_STOP_LIMIT;
    socmon_status st = smn_ibex_run(s->core, until, &why);
    if (st == SOCMON_ESTATE) {
        /* a fetch fault at the trap vector: the core cannot go on */
        finish(s, IBEX_STOP_SPIN);
        s->outcome = SOCMON_PROGRAM_TRAPPED;
        snprintf(s->why, sizeof s->why, "program trapped out: %s", socmon_errmsg());
        socmon_clear_error();
        *done = 1;
        return SOCMON_OK;
    }
    if (st)
        return st;
    if (why != IBEX_STOP_LIMIT || (s->max_cycles && smn_ibex_time(s->core) >= s->max_cycles))
        finish(s, why);
    *done = s->done;
    return SOCMON_OK;
}

static uint64_t ibex_now_ns(smn_model_target *mt)
{
    return ((ibex_sim *)mt->model)->t_ns;
}

static void ibex_model_free(void *model)
{
    sim_free(model);
}

static const smn_model_target_decl ibex_decl = {
    .opts_size = sizeof(ibex_opts),
    .priv_size = sizeof(ibex_config),
    .prepare = ibex_prepare,
    .model_new = ibex_model_new,
    .map = ibex_map,
    .device_new = ibex_device_new_cb,
    .start = ibex_start,
    .advance = ibex_advance,
    .now_ns = ibex_now_ns,
    .model_free = ibex_model_free,
};

/* program_output and program_end: the program's SimCtrl bytes and how it ended, for the CLI
 * (socmon_target_program_output, socmon_target_program_end). priv is the generic model
 * target's instance. */
static void ibex_program_output(void *priv, void (*fn)(void *ctx, uint8_t byte), void *ctx)
{
    ibex_sim *s = smn_model_target_model(priv);
    if (s)
        smn_ibex_set_output(s->core, fn, ctx);
}

static socmon_program_end ibex_program_end(void *priv, char *msg, size_t len)
{
    const ibex_sim *s = smn_model_target_model(priv);
    if (msg && len)
        snprintf(msg, len, "%s", s && s->done ? s->why : "program still running");
    return s ? s->outcome : SOCMON_PROGRAM_RUNNING;
}

/* The counters the program stopped (mcountinhibit) for part of the run, in counter order. */
static size_t ibex_inhibited(void *priv, socmon_inhibited *out, size_t max)
{
    ibex_sim *s = smn_model_target_model(priv);
    if (!s)
        return 0;
    size_t n = 0;
    uint64_t run = smn_ibex_core_cycles(s->core);
    for (unsigned k = 0; k < IBEX_ATTR_COUNTERS; k++) {
        if (!(k == 0 || k == 2 || (k >= 3 && k < 3 + s->cfg.mhpm_num)))
            continue;
        uint64_t inh = smn_ibex_inhibited_cycles(s->core, k);
        if (!inh)
            continue;
        if (n < max) {
            socmon_inhibited *x = &out[n];
            snprintf(x->counter, sizeof x->counter, "%s", smn_ibex_drv_counter_name(k));
            if (k == 0 || k == 2)
                snprintf(x->reg, sizeof x->reg, "%s", k ? "minstret" : "mcycle");
            else
                snprintf(x->reg, sizeof x->reg, "mhpmcounter%u", k);
            x->inhibited_cycles = inh;
            x->run_cycles = run;
        }
        n++;
    }
    return n;
}

/* ibex_profile's walk of the model's rows (smn_ibex_profile_pcs_each): the profile made when
 * their number is known, each row into it as it comes. */
typedef struct prof_build {
    ibex_sim *s;
    unsigned ev[IBEX_ATTR_COUNTERS], nev;
    size_t nnodes, nslices;
    socmon_profile *p;
    int bad;
} prof_build;

static socmon_status take_row(void *ctx, const ibex_prof_pc *row, size_t i)
{
    prof_build *b = ctx;
    if (!row) {
        size_t nsyms = 0;
        smn_ibex_fntable_symbols(b->s->fns, &nsyms);
        return socmon_profile_new(b->nev, nsyms + 1, i, b->nnodes, 0, &b->p);   /* the slices: below */
    }
    socmon_profile_insn *in = &b->p->insns[i];
    in->pc = row->pc == 0xffffffffu ? UINT64_MAX : row->pc;
    in->word = row->word;
    in->func = row->func;
    b->bad |= !(in->text = strdup(row->text));
    /* the values are zeros already (socmon_profile_new): most of a program's instructions never
     * ran (CoreMark: 11,290 of 14,687), and writing their zeros would give 1 MB of pages of their
     * own, where reading them maps the zero page (on this VM 0.65 us a page against 2.3) */
    uint64_t any = 0;
    for (unsigned j = 0; j < b->nev; j++)
        any |= row->v[b->ev[j]];
    if (any)
        for (unsigned j = 0; j < b->nev; j++)
            in->v[j] = row->v[b->ev[j]];
    return SOCMON_OK;
}

/* The model's slices (taken from it) become the profile's in their own memory, grown by realloc
 * and turned from the end down (an element of the profile's is as large or larger, so the one
 * turned never lies over one still to turn): CoreMark's 100,000 are 2.4 MB of pages already
 * there, where a copy would map 3.2 MB more. Cycles become the target's nanoseconds. 1 if out of
 * memory. */
static int slices_in_place(socmon_profile *p, ibex_prof_slice *slices, size_t n, double hz)
{
    _Static_assert(sizeof(socmon_profile_slice) >= sizeof(ibex_prof_slice), "turned from the end down");
    if (!n) {
        free(slices);
        return 0;
    }
    unsigned char *b = realloc(slices, n * sizeof(socmon_profile_slice));
    if (!b) {
        free(slices);
        return 1;
    }
    for (size_t i = n; i-- > 0;) {
        ibex_prof_slice m;
        memcpy(&m, b + i * sizeof m, sizeof m);
        socmon_profile_slice q = {.t0_ns = (uint64_t)((double)m.t0 * 1e9 / hz + 0.5),
                                  .t1_ns = (uint64_t)((double)m.t1 * 1e9 / hz + 0.5),
                                  .func = m.func,
                                  .depth = m.depth};
        memcpy(b + i * sizeof q, &q, sizeof q);
    }
    free(p->slices);   /* (socmon_profile_new's, of none) */
    p->slices = (socmon_profile_slice *)(void *)b;
    p->nslices = n;
    return 0;
}

/* The model's exact profile as socmon/profile.h has it: the implemented counters as events
 * (under the driver's names, as --by-symbol shows them), the attribution table's function
 * names, cycles turned into the target's nanoseconds. */
static socmon_status ibex_profile(void *priv, socmon_profile **out)
{
    ibex_sim *s = smn_model_target_model(priv);
    if (!s || !s->fns)
        return socmon_fail(SOCMON_ENOENT, "ibex: no profile: it needs a program and symbols=1 "
                           "('socmon record' turns it on)");
    prof_build b = {.s = s};
    for (unsigned k = 0; k < IBEX_ATTR_COUNTERS; k++)
        if (k == 0 || k == 2 || (k >= 3 && k < 3 + s->cfg.mhpm_num))
            b.ev[b.nev++] = k;
    uint64_t dropped = 0;
    /* (the nodes and slices first, for their numbers: reading them syncs the counters, which the
     * rows of PCs do not read) */
    const ibex_prof_node *nodes = smn_ibex_profile_nodes(s->core, &b.nnodes);
    ibex_prof_slice *slices = smn_ibex_profile_slices_take(s->core, &b.nslices, &dropped);
    socmon_status st = smn_ibex_profile_pcs_each(s->core, 1, take_row, &b);
    socmon_profile *p = b.p;
    if (st) {
        free(slices);
        socmon_profile_free(p);
        return st;
    }
    size_t nsyms = 0;
    const ibex_symbol *syms = smn_ibex_fntable_symbols(s->fns, &nsyms);
    const char *const *names = smn_ibex_fntable_names(s->fns);
    int bad = b.bad || !(p->program = strdup(s->program ? s->program : "")) || !(p->arch = strdup("rv32imc"));
    for (unsigned j = 0; j < b.nev; j++) {
        bad |= !(p->events[j] = strdup(smn_ibex_drv_counter_name(b.ev[j])));
        p->widths[j] = b.ev[j] < 3 ? 64 : s->cfg.mhpm_width;
        p->total[j] = smn_ibex_counter(s->core, b.ev[j]);
    }
    for (size_t f = 0; f <= nsyms; f++) {
        bad |= !(p->funcs[f].name = strdup(names[f]));
        p->funcs[f].lo = f ? syms[f - 1].addr : 0;
        p->funcs[f].hi = f ? syms[f - 1].end : 0;
    }
    for (size_t i = 0; i < b.nnodes; i++) {
        p->nodes[i].parent = nodes[i].parent;
        p->nodes[i].func = nodes[i].func;
        p->nodes[i].trap = (int)nodes[i].trap;
        p->nodes[i].calls = nodes[i].calls;
        for (unsigned j = 0; j < b.nev; j++)
            p->nodes[i].v[j] = nodes[i].v[b.ev[j]];
    }
    bad |= slices_in_place(p, slices, b.nslices, s->hz);
    p->slices_dropped = dropped;
    socmon_inhibited ih[IBEX_ATTR_COUNTERS];
    size_t nih = ibex_inhibited(priv, ih, IBEX_ATTR_COUNTERS);
    if (nih && (p->inhibited = malloc(nih * sizeof *p->inhibited))) {
        memcpy(p->inhibited, ih, nih * sizeof *ih);
        p->ninhibited = nih;
    }
    bad |= nih && !p->inhibited;
    if (bad) {
        socmon_profile_free(p);
        return socmon_fail(SOCMON_ENOMEM, "ibex: out of memory for the profile");
    }
    *out = p;
    return SOCMON_OK;
}

const socmon_target_ops smn_target_ibex_ops = {
    .name = "ibex",
    .desc = "Ibex RV32IMC core model running an ELF (simple_system): mcycle, minstret, mhpmcounters",
    .options = ibex_options,
    .workloads = ibex_workloads,
    .metrics = "ibex",
    .simulated = 1,
    .default_interval_ns = 1000000,
    SOCMON_MODEL_TARGET_OPS(ibex_decl),
    .program_output = ibex_program_output,
    .program_end = ibex_program_end,
    .profile = ibex_profile,
    .inhibited = ibex_inhibited,
    .min_interval_ns = 1000, /* one sample reads every hpm counter hi-lo-hi by CSR */
};
