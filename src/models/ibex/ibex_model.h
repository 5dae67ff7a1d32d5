/* The Ibex core model: an RV32IMC + Zicsr + Zifencei interpreter with Ibex's
 * timing and performance counters (lowRISC/ibex at 0a13971f), running
 * programs written for Ibex's examples/simple_system (RAM, SimCtrl, timer).
 *
 * This is the interface a target (issue 9's generic model target), tests,
 * the fuzzers and the benchmark use; everything else is internal to
 * src/models/ibex. docs/ibex.md describes the model and its timing table. */
#ifndef SOCMON_MODELS_IBEX_MODEL_H
#define SOCMON_MODELS_IBEX_MODEL_H

#include <stddef.h>
#include <stdint.h>
#include "socmon/status.h"

/* Ibex's RV32M parameter. */
typedef enum ibex_rv32m {
    IBEX_RV32M_NONE,     /* M instructions are illegal */
    IBEX_RV32M_SLOW,     /* iterative multiplier: MUL ~clog2(op_b), MULH 32 stalls */
    IBEX_RV32M_FAST,     /* 3-cycle MUL, 4-cycle MULH */
    IBEX_RV32M_SINGLE,   /* single-cycle MUL, 2-cycle MULH */
} ibex_rv32m;

/* Where a loaded ELF starts. Ibex's RTL fetches its first instruction at
 * boot_addr + 0x80 (0x100080 in simple_system) whatever the ELF's entry
 * point says; IBEX_ENTRY_ELF starts at e_entry instead, for programs linked
 * with another entry convention. */
typedef enum ibex_entry {
    IBEX_ENTRY_BOOT,     /* the RTL: IBEX_SS_RESET_PC (the default) */
    IBEX_ENTRY_ELF,      /* the ELF header's e_entry */
} ibex_entry;

/* The parameters that change what the model does. A preset fills every
 * field; options then override single fields (the names are the issue's
 * target options: config, rv32m, wb_stage, bt_alu, mhpm_num, mhpm_width,
 * and entry). */
typedef struct ibex_config {
    char name[16];          /* preset it started from: "small" or "maxperf" */
    ibex_rv32m rv32m;
    int wb_stage;           /* WritebackStage */
    int bt_alu;             /* BranchTargetALU */
    unsigned mhpm_num;      /* MHPMCounterNum 0..29 */
    unsigned mhpm_width;    /* MHPMCounterWidth 1..64 */
    ibex_entry entry;       /* where ibex_load_elf_* starts the program */
} ibex_config;

/* "small" (the default) or "maxperf", as ibex_configs.yaml defines them,
 * with mhpm_num = 10, mhpm_width = 40 and entry = boot. */
socmon_status smn_ibex_config_preset(ibex_config *cfg, const char *name);
/* The presets' names, NULL-terminated (the ibex target's choices for config). */
extern const char *const smn_ibex_config_names[];
const char *smn_ibex_rv32m_name(ibex_rv32m m);

typedef struct ibex_core ibex_core;

socmon_status smn_ibex_create(const ibex_config *cfg, ibex_core **out);
void smn_ibex_destroy(ibex_core *c);
/* Back to the state after reset: registers, CSRs and counters 0, PC at the
 * reset entry (0x100080), timer and SimCtrl cleared. RAM is kept. */
void smn_ibex_reset(ibex_core *c);
const ibex_config *smn_ibex_get_config(const ibex_core *c);

/* Copies n bytes into RAM at addr (the whole range must be inside RAM). */
socmon_status smn_ibex_load(ibex_core *c, uint32_t addr, const void *data, size_t n);
/* Loads an RV32 little-endian ELF executable from memory or a file: every
 * PT_LOAD segment into RAM (bss zeroed), then resets the core with the PC
 * where the RTL starts, the boot address 0x100080, whatever e_entry says
 * (with entry = elf in the config: PC = e_entry). A bad file gets
 * SOCMON_EPARSE (not ELF, not RV32, truncated, no loadable segment) or
 * SOCMON_ERANGE (a segment outside RAM; with entry = elf, also e_entry
 * outside RAM) with a message. */
socmon_status smn_ibex_load_elf_mem(ibex_core *c, const void *image, size_t n);
socmon_status smn_ibex_load_elf_file(ibex_core *c, const char *path);

/* SimCtrl output: each byte the program writes to 0x20000 goes to fn
 * (called once per byte, in order). Without a callback the bytes collect in
 * a buffer that smn_ibex_output returns. */
typedef void (*ibex_output_fn)(void *ctx, uint8_t byte);
void smn_ibex_set_output(ibex_core *c, ibex_output_fn fn, void *ctx);
const char *smn_ibex_output(const ibex_core *c, size_t *len);

typedef enum ibex_stop {
    IBEX_STOP_HALT,      /* the program wrote 1 to SimCtrl's halt register */
    IBEX_STOP_LIMIT,     /* max_cycles elapsed */
    IBEX_STOP_SLEEP,     /* WFI with no interrupt that could ever wake it */
    IBEX_STOP_SPIN,      /* a jump to itself (`j .`) with interrupts disabled: loops forever
                            (simple_system's default trap handler is such a loop) */
} ibex_stop;

/* Runs until halt, until max_cycles core clock cycles have elapsed since
 * reset (0: no limit), or until the core sleeps forever. A halt ends as the
 * RTL's does, two clock edges after the halting write's request: the core
 * runs those cycles (the instructions that issue in them count, a store
 * there reaches SimCtrl) and the counters stay as they are then; running
 * again after a halt changes nothing. */
socmon_status smn_ibex_run(ibex_core *c, uint64_t max_cycles, ibex_stop *why);

/* Per-instruction attribution (for per-function profiles): with a callback
 * set, fn gets, for a run of consecutive instructions inside one range, the
 * PC of the first and what each counter (indices as smn_ibex_counter, 0..12)
 * changed by over them, modulo its width: increments as the RTL counts them
 * (mcountinhibit applied), a CSR write to a counter as the change it made.
 * A range is what range(ctx, pc, &lo, &hi) says contains pc (a function:
 * [lo, hi)); without range every instruction is its own. Cycles between
 * instructions go to the instruction after them (the 3 boot cycles to the
 * first, an interrupt's entry to the handler's first instruction); the
 * instructions issued in the two clock edges after the halting store get
 * what they counted there (with the WB stage, the halt's speculative extra
 * minstret/NumInstrRetC goes to the instruction it counts twice; docs/ibex.md
 * "The halt"). So one counter's deltas
 * summed over every call equal the counter's value (modulo its width) at
 * any point between runs. fn is called only when something changed. The
 * run looks at its world whenever the PC leaves the range (bench/bench_ibex
 * measures the cost). fn NULL turns it off. */
#define IBEX_ATTR_COUNTERS 13u
typedef void (*ibex_attr_fn)(void *ctx, uint32_t pc, const uint64_t *delta);
typedef void (*ibex_attr_range_fn)(void *ctx, uint32_t pc, uint32_t *lo, uint32_t *hi);
void smn_ibex_set_attribution(ibex_core *c, ibex_attr_fn fn, ibex_attr_range_fn range, void *ctx);

/* The exact profile (socmon record's call tree, source lines and annotation): with it on, the
 * model counts every instruction's events to its PC and to the frame of a call stack it follows
 * by the RISC-V calling convention: jal/jalr linking ra or t0 is a call, `jalr x0, 0(ra|t0)` a
 * return, a trap or interrupt a frame of the handler's function under the interrupted one, mret
 * its end. A jump that leaves the frame's function without either (a tail call, longjmp, a
 * fall-through into the next symbol) resynchronises: back to the innermost frame whose function
 * holds the PC, else the top frame becomes the new function, one call of it from the same caller
 * (a trap frame stays one: the vector's jump to its handler). Functions are syms (sorted, as
 * smn_ibex_symbols_read gives them; copied): function 0 is "outside every symbol", i + 1 is syms[i].
 * Counts follow smn_ibex_set_attribution's rules (mcountinhibit applied, a counter write counted to
 * the writer, cycles between instructions to the one after them), so a PC's counts summed over
 * a function equal that function's attribution, and nodes' self counts sum to the counters.
 * While no counter is inhibited the run keeps its speed within bench_ibex's budget (1.5x); with
 * some counters inhibited it steps instruction by instruction. Slices (function entries and
 * exits with their cycle) are kept up to max_slices (0: none), then counted as dropped. */
typedef struct ibex_symbol ibex_symbol;   /* below */
typedef struct ibex_prof_pc {
    uint32_t pc;                 /* 0xffffffff: fetches outside RAM (their faults) */
    uint32_t word;               /* the instruction (16 bits for a compressed one) */
    uint32_t func;
    uint64_t v[IBEX_ATTR_COUNTERS];
    char text[48];               /* as smn_ibex_disasm writes it */
} ibex_prof_pc;
typedef struct ibex_prof_node {
    uint32_t parent;             /* node 0 is the root (the run), its own parent */
    uint32_t func;
    uint32_t trap;               /* 1: entered by a trap or an interrupt */
    uint64_t calls;              /* times this frame was entered */
    uint64_t v[IBEX_ATTR_COUNTERS];   /* self counts */
} ibex_prof_node;
typedef struct ibex_prof_slice {
    uint64_t t0, t1;             /* ungated cycles (smn_ibex_time) of entry and exit */
    uint32_t func, depth;        /* depth 0: the outermost frame */
} ibex_prof_slice;
socmon_status smn_ibex_profile_start(ibex_core *c, const ibex_symbol *syms, size_t nsyms, size_t max_slices);
/* Every PC that counted something, by address (malloc'd; free it); with all, every instruction
 * of every function too (a symbol's range walked instruction by instruction; one of more than
 * 64 KiB, an unsized label's up to the next symbol, only up to its last PC that counted). */
socmon_status smn_ibex_profile_pcs(ibex_core *c, int all, ibex_prof_pc **out, size_t *n);
/* The same rows one at a time, without an array of them (some 170 bytes a row, 14,687 rows for
 * CoreMark: 2.4 MB of pages touched once, then copied): fn(ctx, NULL, n) first with how many
 * there are, then fn(ctx, row, i) for each in order; a status other than SOCMON_OK from fn ends
 * the walk and is returned. */
typedef socmon_status (*ibex_prof_pc_fn)(void *ctx, const ibex_prof_pc *row, size_t i);
socmon_status smn_ibex_profile_pcs_each(ibex_core *c, int all, ibex_prof_pc_fn fn, void *ctx);
/* The call tree so far (valid until the next run); nodes' parents come before them. */
const ibex_prof_node *smn_ibex_profile_nodes(ibex_core *c, size_t *n);
/* Slices so far (open frames end at the current time), those dropped past max_slices, and the
 * frames a stack deeper than its limit (IBEX_PROF_MAX_DEPTH) could not push. */
const ibex_prof_slice *smn_ibex_profile_slices(ibex_core *c, size_t *n, uint64_t *dropped);
/* The same slices, handed over (malloc'd: the caller frees them, or reallocs them as the ibex
 * target does to turn them into a socmon_profile's in place, 2.4 MB on CoreMark that need not be
 * copied): the profile keeps none from then on, and takes no more. */
ibex_prof_slice *smn_ibex_profile_slices_take(ibex_core *c, size_t *n, uint64_t *dropped);
#define IBEX_PROF_MAX_DEPTH 4096u
#define IBEX_PROF_MAX_NODES 262144u   /* further call paths count to their caller's node */

/* Counter i (0 = mcycle, 2 = minstret, 3.. = mhpmcounterN) as the RTL holds
 * it (0 if not implemented), the value a debugger would read after halt. */
uint64_t smn_ibex_counter(ibex_core *c, unsigned i);
/* Core clock cycles since reset (clock-gated sleep excluded: what mcycle counts while it counts),
 * and of them those during which the program had counter i (0..12) inhibited (mcountinhibit):
 * with no counter write, mcycle + smn_ibex_inhibited_cycles(c, 0) == smn_ibex_core_cycles(c). */
uint64_t smn_ibex_core_cycles(ibex_core *c);
uint64_t smn_ibex_inhibited_cycles(ibex_core *c, unsigned i);
/* Ungated clock cycles since reset (what mtime counts). */
uint64_t smn_ibex_time(ibex_core *c);
/* Architectural state, for tests and tools. */
uint32_t smn_ibex_pc(const ibex_core *c);
uint32_t smn_ibex_reg(const ibex_core *c, unsigned r);
void smn_ibex_set_reg(ibex_core *c, unsigned r, uint32_t v);
/* CSR value as a csrr in M-mode would read it now; SOCMON_ENOENT if the
 * access would trap. */
socmon_status smn_ibex_csr_peek(ibex_core *c, uint32_t csr, uint32_t *val);

typedef struct ibex_stats {
    uint64_t instructions;   /* executed (also those inhibited or trapping) */
    uint64_t exceptions;     /* synchronous traps taken */
    uint64_t interrupts;     /* interrupts taken */
    uint32_t last_cause;     /* mcause of the last trap */
    uint32_t last_epc;
} ibex_stats;
void smn_ibex_get_stats(const ibex_core *c, ibex_stats *st);

/* Function symbols of an ELF file (FUNC, and untyped labels of assembly, in
 * executable sections), sorted by address, one per address; each covers
 * [addr, end): its size, or up to the next symbol. */
struct ibex_symbol {
    uint32_t addr, end;
    char *name;
};
socmon_status smn_ibex_symbols_read(const char *path, ibex_symbol **syms, size_t *n);
void smn_ibex_symbols_free(ibex_symbol *syms, size_t n);

/* Maps the CSR file onto a socmon model bus: CSR N is the read-only 32-bit
 * register at IBEX_CSRBUS_ADDR(N) (src/hw/ibex_csr.h); a CSR csrr could not
 * read is a bus error. The driver (src/drivers/ibex) reads counters there. */
typedef struct socmon_bus socmon_bus;
socmon_status smn_ibex_map_csrs(ibex_core *c, socmon_bus *bus);

/* The per-function table (ibex_fntable.c): the ELF's function symbols at path, each a row of the
 * IBEX_ATTR_COUNTERS counters summed over its instructions (cut to cfg's widths), row 0 for code
 * outside every symbol. _new installs it as c's attribution and starts c's exact profile (up to
 * max_slices slices); the caller frees it after the core. _map answers it as read-only registers
 * at IBEX_ATTRBUS_BASE (src/hw/ibex_csr.h). _names: each row's counter instance ("_unknown",
 * then the symbols' names made [A-Za-z0-9_-]+ and unique); _symbols: the rows' symbols. */
typedef struct smn_ibex_fntable smn_ibex_fntable;
socmon_status smn_ibex_fntable_new(ibex_core *c, const ibex_config *cfg, const char *path, size_t max_slices,
                                   smn_ibex_fntable **out);
void smn_ibex_fntable_free(smn_ibex_fntable *t);
size_t smn_ibex_fntable_rows(const smn_ibex_fntable *t);
const char *const *smn_ibex_fntable_names(const smn_ibex_fntable *t);
const ibex_symbol *smn_ibex_fntable_symbols(const smn_ibex_fntable *t, size_t *n);
socmon_status smn_ibex_fntable_map(smn_ibex_fntable *t, socmon_bus *bus);

/* ---- the predecoder, exposed for tests and the decoder fuzzer ---- */
/* Instruction classes (what the timing table is indexed by). */
typedef enum ibex_iclass {
    IBEX_IC_ALU, IBEX_IC_LOAD, IBEX_IC_STORE, IBEX_IC_BRANCH, IBEX_IC_JUMP,
    IBEX_IC_MUL, IBEX_IC_MULH, IBEX_IC_DIV, IBEX_IC_CSR, IBEX_IC_FENCE, IBEX_IC_FENCEI,
    IBEX_IC_ECALL, IBEX_IC_EBREAK, IBEX_IC_MRET, IBEX_IC_WFI, IBEX_IC_ILLEGAL,
} ibex_iclass;

typedef struct ibex_decoded {
    ibex_iclass iclass;
    const char *mnemonic;   /* of the (expanded) 32-bit form, e.g. "addi" */
    unsigned len;           /* 2 or 4 */
    unsigned rd, rs1, rs2;  /* 0 when not used */
    int32_t imm;            /* immediate, uimm for csr*i, CSR address for CSR ops in csr */
    uint32_t csr;
} ibex_decoded;

/* Decodes the instruction whose low halfword is lo and next halfword hi
 * (ignored for a 16-bit instruction), as the model will execute it with
 * config cfg. Never fails: anything not RV32IMC/Zicsr/Zifencei (or M with
 * rv32m=none) is IBEX_IC_ILLEGAL. */
void smn_ibex_decode(const ibex_config *cfg, uint16_t lo, uint16_t hi, ibex_decoded *d);
/* The instruction at pc as text, the assembler's syntax with ABI register names ("lw ra, 12(sp)";
 * a compressed one as the instruction it expands to). */
void smn_ibex_disasm(const ibex_config *cfg, uint32_t pc, uint16_t lo, uint16_t hi, char *buf, size_t len);

#endif
