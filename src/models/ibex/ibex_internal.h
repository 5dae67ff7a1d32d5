/* Internal to src/models/ibex: the predecoded op, the core state and the
 * functions the interpreter's files share.
 *
 * Speed comes from two things: each RAM halfword has a slot holding its
 * instruction decoded once (handler index + operands + the static part of its
 * timing), and events are summed raw in ev[] and only applied to the
 * architectural counters (with mcountinhibit and the counter width) when a
 * CSR instruction, the bus or the caller needs them: between two such
 * points mcountinhibit cannot change, so summing first is exact. */
#ifndef SOCMON_MODELS_IBEX_INTERNAL_H
#define SOCMON_MODELS_IBEX_INTERNAL_H

#include <stdint.h>
#include "hw/ibex_csr.h"
#include "models/ibex/ibex_model.h"

/* Handler indices (op.h). H_DECODE marks a slot not decoded yet (or
 * invalidated by a store). */
enum {
    H_DECODE = 0,
    H_LUI, H_AUIPC, H_JAL, H_JALR,
    H_BEQ, H_BNE, H_BLT, H_BGE, H_BLTU, H_BGEU,
    H_LB, H_LH, H_LW, H_LBU, H_LHU, H_SB, H_SH, H_SW,
    H_ADDI, H_SLTI, H_SLTIU, H_XORI, H_ORI, H_ANDI, H_SLLI, H_SRLI, H_SRAI,
    H_ADD, H_SUB, H_SLL, H_SLT, H_SLTU, H_XOR, H_SRL, H_SRA, H_OR, H_AND,
    H_MUL, H_MULH, H_MULHSU, H_MULHU, H_DIV, H_DIVU, H_REM, H_REMU,
    H_FENCE, H_FENCEI, H_CSR, H_ECALL, H_EBREAK, H_MRET, H_WFI, H_ILLEGAL,
    H_COUNT
};

#define IBEX_BOOT_CYCLES 3u  /* reset to the first instruction in ID */
#define IBEX_RD_DISCARD 32u   /* rd = x0 writes go to x[32], so handlers never test rd */

/* CSR op kinds in op.sub (after the decoder's rule: csrrs/csrrc with
 * rs1 = x0 or uimm = 0 are reads). */
enum { CSROP_READ = 0, CSROP_WRITE = 1, CSROP_SET = 2, CSROP_CLEAR = 3, CSROP_IMM = 4 };

typedef struct ibex_op {
    uint8_t h;           /* handler */
    uint8_t rd;          /* 1..31, or IBEX_RD_DISCARD */
    uint8_t rs1, rs2;    /* registers read (0 if not read: the load-use check relies on it) */
    uint8_t len;         /* 2 or 4 */
    uint8_t cyc;         /* static cycles charged before the handler runs */
    uint8_t compressed;  /* 1 for a 16-bit instruction */
    uint8_t sub;         /* CSR op kind (CSROP_*) */
    int32_t imm;         /* immediate; for CSR ops the raw instruction */
    uint32_t aux;        /* CSR address, or the raw instruction (mtval of an illegal one) */
} ibex_op;

/* Per-configuration timing, filled once from the config (ibex_timing.c). */
typedef struct ibex_timing {
    uint8_t mem;          /* aligned load/store cycles: 2 (no WB stage) or 1 */
    uint8_t mem_lsu;      /* NumCyclesLSU of an aligned access: 1 or 0 */
    uint8_t split_lsu;    /* extra NumCyclesLSU of a split access: 1 or 0 */
    uint8_t br_taken;     /* taken branch: cycles, of which 1 is NumCyclesIF */
    uint8_t jump;         /* jump cycles */
    uint8_t jump_if;      /* NumCyclesIF of a jump */
    uint8_t mul, mulh;    /* total cycles (stalls = cycles - 1); slow: computed */
} ibex_timing;

typedef struct ibex_prof ibex_prof;   /* below */

struct ibex_core {
    ibex_config cfg;
    ibex_timing t;
    uint32_t x[33];                /* x[0] stays 0; x[32] absorbs writes to x0 */
    uint32_t pc;
    uint8_t *ram;
    ibex_op *ops;                  /* one slot per RAM halfword */
    /* ram and ops are as calloc left them (nothing loaded, stored or run yet): loading an ELF
     * need not clear their 17 MiB, which would touch every page of a core that runs a program
     * of a few KiB (a sweep or a test creates one per run) */
    int untouched;
    int ran;                       /* smn_ibex_run was called: ops may hold decoded instructions */

    /* CSRs */
    unsigned priv;                 /* 3 = M, 0 = U */
    uint32_t mstatus, mie, mtvec, mscratch, mepc, mcause, mtval, cpuctrlsts;
    uint32_t misa;
    uint32_t inhibit, inhibit_mask;

    /* counters: cnt[] holds what the RTL holds; ev[] raw events not yet applied */
    uint64_t cnt[IBEX_CNT_MAX];
    uint64_t ev[IBEX_CNT_EVENTS];
    uint64_t hpm_mask;
    uint64_t now;                  /* ungated cycles already applied (ev[0] excluded) */
    uint64_t core_cycles;          /* core clock cycles applied (what mcycle counts when it counts) */
    uint64_t inhibited[IBEX_CNT_EVENTS];   /* of them, those with counter i's inhibit bit set */

    /* pipeline state the counters depend on (see ibex_exec.c) */
    uint64_t seq;                  /* instructions started */
    uint64_t bubble_at;            /* seq of an instruction that follows a bubble */
    const ibex_op *wb_op;          /* last instruction that completed (entered WB) */

    /* simple_system devices */
    uint64_t mtimecmp;
    int timer_irq;                 /* timer.sv's sticky interrupt_q */
    uint64_t mtime_adj;            /* mtime_q at cycle t is t + mtime_adj */
    uint64_t irq_not_before;       /* a mtimecmp write at cycle w: interrupt_q from w+2 */
    uint64_t req_ago;              /* cycles of the current instruction charged after its bus request */
    int id_empty;                  /* ID holds no instruction now (a woken WFI's FIRST_FETCH, a refetch
                                    * cut short): a pending interrupt is taken in this cycle */
    uint32_t fault_addr;           /* address of the bus transaction that got an error (mtval) */
    int halted;
    uint64_t halt_time;            /* cycle of the halting write's request */
    int finishing;                 /* its last edges run or ran (ibex_halt.c); SimCtrl's sim_finish != 0 */
    uint64_t *raw_ev;              /* if set, smn_ibex_sync adds the events it applies, inhibited or not */
    unsigned ld_rd;                /* WB stage: rd of the load now in WB, else 0 */

    ibex_output_fn out_fn;
    void *out_ctx;
    char *out_buf;
    size_t out_len, out_cap;

    ibex_stats stats;
    int boot_pending;              /* reset's boot cycles are charged by the first run */

    /* per-instruction attribution (smn_ibex_set_attribution) */
    ibex_attr_fn attr_fn;
    ibex_attr_range_fn attr_range;
    void *attr_ctx;
    uint32_t attr_pc;              /* the instruction the next deltas belong to */
    uint64_t attr_prev[IBEX_ATTR_COUNTERS];

    ibex_prof *prof;               /* the exact profile, or NULL */
};

/* The exact profile (ibex_prof.c, smn_ibex_profile_start). While no counter is inhibited ("fast"),
 * each RAM halfword's slot counts its executions (n) and every event of its instruction that is
 * not the static n * (op cycles, 1 instret, compressed) in d[]; with counters inhibited the loop
 * steps one instruction at a time and the attribution flush adds the counted deltas to d[]. */
typedef struct ibex_pslot {
    uint64_t d[IBEX_ATTR_COUNTERS];
} ibex_pslot;
typedef struct ibex_frame {
    uint32_t node, func, lo, hi;   /* hi == 0: to the end of the address space */
    uint32_t trap;
    uint32_t slice;                /* 1 + index into slices, 0: none */
} ibex_frame;
#define IBEX_PROF_OUTSIDE (IBEX_SS_RAM_SIZE / 2)   /* the slot of fetches outside RAM */
/* 32 slots (64 bytes of code, 3.3 KiB of slots) a chunk: reading the slots of a chunk that never
 * counted maps pages of zeros, and the functions' code that never ran is most of a program's */
#define IBEX_PROF_CHUNK_SHIFT 5u
#define IBEX_PROF_CHUNKS (IBEX_PROF_OUTSIDE >> IBEX_PROF_CHUNK_SHIFT)
struct ibex_prof {
    ibex_pslot *slots;             /* one per RAM halfword, then one for fetches outside RAM */
    /* where the loop's slot counts go while stepping (the per-PC counts come from the attribution's
     * flush then): as large as slots and n, so the loop indexes them as it does those, with no
     * mask in a register; calloc'd (a mapping of its own, of which the halt's steps touch a page
     * or two) and never read; junk_n is its first words */
    ibex_pslot *junk;
    /* each slot's executions n, apart from its events: the loop adds to n every instruction and
     * to d[] only at an event, so what it touches per instruction is 8 bytes a halfword, not the
     * 104 of a slot (on CoreMark half a MiB of slots, out of the caches) */
    uint64_t *n;
    uint64_t *junk_n;
    /* the handler each slot's n counts (the op's h when decoded: a store that invalidates the op
     * leaves it), for the events every execution of it has (smn_ibex_prof_fold) */
    uint8_t *h;
    int fast;
    int stepping;                  /* step whatever the inhibit (the halt's last edges, ibex_halt.c) */
    uint32_t *addr, *end;          /* the symbols' ranges */
    size_t nsyms;
    struct {
        uint32_t pc, k1;           /* 1 + how many symbols start at or below pc; 0: empty */
    } upto[512];
    ibex_prof_node *nodes;
    size_t nnodes, ncap;
    uint32_t *hash;                /* open addressing: 1 + node index, 0 empty */
    size_t hcap;
    ibex_frame stack[IBEX_PROF_MAX_DEPTH];
    size_t depth;
    uint64_t prev[IBEX_ATTR_COUNTERS];   /* the counters at the last node flush */
    uint64_t mask[IBEX_ATTR_COUNTERS];   /* each counter's width as a mask */
    uint64_t evmask[IBEX_ATTR_COUNTERS]; /* all ones for a counter that exists (takes its events) */
    ibex_prof_slice *slices;
    size_t nslices, max_slices;
    uint64_t dropped;
    /* Chunks of slots that may be non-zero. slots is 57 MiB, calloc'd, of which a program of a
     * few KiB runs a few pages: reading or clearing all of it (every smn_ibex_profile_pcs and
     * reset) cost most of a short record's time in page faults. A slot counts only at a PC the
     * run decoded (or the boot, an interrupt entry or a fetch fault put cycles on), so those
     * mark their chunk; a core that ran before the profile started may hold decoded ops, and
     * then every chunk is marked. Marks stay until the profile ends (decoded ops stay too). */
    uint8_t chunk[IBEX_PROF_CHUNKS];
};
/* Marks the chunk of slot (a RAM slot; the outside slot is always looked at). */
static inline void ibex_prof_mark(ibex_prof *p, uint32_t slot)
{
    if (slot < IBEX_PROF_OUTSIDE)
        p->chunk[slot >> IBEX_PROF_CHUNK_SHIFT] = 1;
}

/* ibex_prof.c. The stack operations run with the locals saved (c->pc the new PC) and sync. */
void smn_ibex_prof_call(ibex_core *c);
void smn_ibex_prof_ret(ibex_core *c);
void smn_ibex_prof_trap(ibex_core *c);
/* The frames on the stack (smn_ibex_prof_flush_to's depth). */
size_t smn_ibex_prof_depth(const ibex_core *c);
/* The counter changes since the last flush go to the frame at depth - 1: the halt's last step
 * (ibex_halt.c) gives what it takes back of a step that ran past the end, and the speculative
 * count of the instruction in WB, to the frame that instruction ran in, not to a frame the step
 * pushed for a trap entry that never ran. */
void smn_ibex_prof_flush_to(ibex_core *c, size_t depth);
void smn_ibex_prof_mret(ibex_core *c);
/* At a range exit: the top frame follows the PC (tail calls, longjmp). */
void smn_ibex_prof_resync(ibex_core *c);
/* After a call or a return (which, counting fast, flushed the attribution with the frame): when
 * the loop's check at the next instruction would find nothing of the profile to do (counting
 * fast, c->pc in the top frame), does what it would (the attribution's range [*lo, *lo + *span)
 * the frame's) and returns 1; else 0. */
int smn_ibex_prof_settle(ibex_core *c, uint32_t *lo, uint32_t *span);
/* Counts a slot's static events into d[] before it is decoded anew. */
void smn_ibex_prof_fold(ibex_core *c, uint32_t slot);
/* The range of PCs of pc's function (or of the gap between symbols). */
void smn_ibex_prof_range(const ibex_core *c, uint32_t pc, uint32_t *lo, uint32_t *hi);
/* The top frame's range [*lo, *hi) (hi == 0: to the end of the address space) if it holds pc:
 * returns 1; else 0. */
int smn_ibex_prof_frame_range(const ibex_core *c, uint32_t pc, uint32_t *lo, uint32_t *hi);
/* pc's function in the profile's numbering: 1 + its symbol's index, 0 outside every symbol
 * (the per-function table's rows are the same: ibex_fntable.c). */
uint32_t smn_ibex_prof_func(const ibex_core *c, uint32_t pc);
/* Counted deltas of the instruction at pc while stepping (from smn_ibex_attr_flush). */
void smn_ibex_prof_step_add(ibex_core *c, uint32_t pc, const uint64_t *d);
void smn_ibex_prof_free(ibex_core *c);
void smn_ibex_prof_reset(ibex_core *c);

/* ibex_core.c: hands the counter changes since the last call to the
 * attribution callback (if any), for the instruction at c->attr_pc. */
void smn_ibex_attr_flush(ibex_core *c);
/* smn_ibex_attr_flush while the exact profile counts fast (nothing inhibited, nothing stepping), of the
 * counters as smn_ibex_sync would make them (the events stay pending), and in the same pass their
 * change since prev added to v (the frame on top: what a call or a return flushes), prev moved on. */
void smn_ibex_attr_flush_frame(ibex_core *c, uint64_t *restrict v, uint64_t *restrict prev);
/* Starts attributing to the instruction at pc: c->attr_pc = pc, and the
 * range [*lo, *lo + *span) of PCs that belong with it. */
void smn_ibex_attr_enter(ibex_core *c, uint32_t pc, uint32_t *lo, uint32_t *span);

/* ibex_decode.c: fills *op for the instruction at RAM halfword lo/hi. */
void smn_ibex_predecode(const ibex_core *c, uint16_t lo, uint16_t hi, ibex_op *op);
/* ibex_timing.c */
void smn_ibex_timing_init(const ibex_config *cfg, ibex_timing *t);
unsigned smn_ibex_slow_mul_cycles(uint32_t op_b);

/* ibex_counters.c: apply pending events (with the current inhibit). */
void smn_ibex_sync(ibex_core *c);
/* Executes the CSR instruction op (at sequence number seq). Returns 0, or 1
 * if it is illegal (nothing done; the caller traps). smn_ibex_sync must have run. */
int smn_ibex_csr_exec(ibex_core *c, const ibex_op *op, uint64_t seq);
unsigned smn_ibex_irq_cut_refetch(ibex_core *c, uint64_t end, unsigned refetch);
/* A CSR's value as csrr reads it, or -1 if the access is illegal. */
int smn_ibex_csr_read(ibex_core *c, uint32_t addr, uint32_t *val, uint64_t seq);
/* The same read in M-mode whatever the core's privilege: what a debugger or
 * the monitor sees (smn_ibex_csr_peek, the CSR bus), not the program. */
int smn_ibex_csr_read_m(ibex_core *c, uint32_t addr, uint32_t *val, uint64_t seq);
void smn_ibex_counters_reset(ibex_core *c);

/* ibex_mem.c: device and out-of-RAM accesses. size 1, 2, 4. Return 0, or 1
 * on a bus error. Callers have synced the counters (the timer reads mtime). */
int smn_ibex_bus_load(ibex_core *c, uint32_t addr, unsigned size, uint32_t *val);
int smn_ibex_bus_store(ibex_core *c, uint32_t addr, unsigned size, uint32_t val);
int smn_ibex_timer_pending(const ibex_core *c);
/* The first cycle in which the timer interrupt is pending (interrupt_q = 1),
 * UINT64_MAX if never (until software writes the timer). */
uint64_t smn_ibex_timer_irq_cycle(const ibex_core *c);
/* Marks the predecoded slots covering [addr, addr+size) stale. */
static inline void ibex_invalidate(ibex_core *c, uint32_t off, unsigned size)
{
    uint32_t first = off >> 1, last = (off + size - 1) >> 1;
    if (first > 0)
        first--;   /* a 32-bit instruction starting 2 bytes before */
    for (uint32_t i = first; i <= last; i++)
        c->ops[i].h = H_DECODE;
}

/* ibex_halt.c: after the halting write, runs the core's remaining clock
 * edges (smn_ibex_run calls it once, when it stops at the halt). */
void smn_ibex_halt_edges(ibex_core *c);

/* ibex_trap.c */
void smn_ibex_trap(ibex_core *c, uint32_t cause, uint32_t tval, uint32_t epc);
void smn_ibex_output_byte(ibex_core *c, uint8_t b);

static inline uint64_t ibex_now(const ibex_core *c)
{
    return c->now + c->ev[IBEX_CNT_CYCLE];
}

#endif
