/* The kernels the model can run, as data: what each costs per tile and what
 * it adds to the matmul pipeline's counter rules (tensix_kernel.c).
 *
 * matmul is the pipeline itself. The others reuse its phases and relations
 * and change the math mix (FPU, SFPU, MOVE cycles), the operands unpacked,
 * the tiles packed, which further instruction types each thread issues, and
 * why it waits. Every wait reason is a share of its thread's THREAD_STALLS
 * (its parent signal), every instruction type a number of cycles per period,
 * so the documented relations hold for every kernel as they do for matmul.
 * The instruction mixes are plausible for such LLK kernels, not measured. */
#include <string.h>
#include <strings.h>

#include "core/error.h"
#include "models/tensix/tensix_internal.h"

#define MAX_INSTR 16
#define MAX_WAITS 32

typedef struct tx_named {
    const char *name;
    double v;
} tx_named;

struct tx_shape {
    const char *name;
    unsigned operands;       /* 2: srcA and srcB; 1: srcA only */
    unsigned fpu_phase;      /* FPU cycles per tile per fidelity phase */
    unsigned sfpu;           /* SFPU cycles per tile (fidelity does not apply) */
    unsigned move;           /* MOVE cycles per tile: datacopy, transpose */
    unsigned out_tiles;      /* tiles packed per input tile */
    tx_named instr[MAX_INSTR];   /* instruction type available: cycles per period */
    tx_named waits[MAX_WAITS];   /* wait reason: share of the thread's stalls */
};

static const tx_shape shapes[SOCMON_TENSIX_NKERNELS] = {
    [SOCMON_TENSIX_KERNEL_MATMUL] = {"matmul", 2, 16, 0, 0, 1, {{0}}, {{0}}},
    /* Unary SFPU op (exp, gelu): MOVA2D copies srcA to dest, the SFPU works
     * in dest, the packer waits until the SFPU has written it. */
    [SOCMON_TENSIX_KERNEL_SFPU] = {
        "sfpu", 1, 0, 64, 8, 1,
        {{"MOVE_INSTRN_AVAILABLE_1", 9}},
        {{"WAITING_FOR_SFPU_IDLE_1", 0.6}, {"WAITING_FOR_MOVE_IDLE_1", 0.2},
         {"WAITING_FOR_SFPU_IDLE_2", 0.5}, {"WAITING_FOR_MATH_IDLE_2", 0.3}},
    },
    /* Reduce over rows: srcA input, srcB the scaler; math transposes with
     * MOVD2B/TRNSPSRCB and pools on the FPU; the math and pack threads
     * reprogram their units through THCON and wait for it to land. */
    [SOCMON_TENSIX_KERNEL_REDUCE] = {
        "reduce", 2, 16, 0, 16, 1,
        {{"MOVE_INSTRN_AVAILABLE_1", 17}, {"THCON_INSTRN_AVAILABLE_1", 2},
         {"THCON_INSTRN_AVAILABLE_2", 4}},
        {{"WAITING_FOR_THCON_IDLE_0", 0.2}, {"WAITING_FOR_THCON_IDLE_1", 0.2},
         {"WAITING_FOR_THCON_IDLE_2", 0.4}, {"WAITING_FOR_MOVE_IDLE_1", 0.5}},
    },
    /* Top-k: every thread locates its tile's index window with XSEARCH;
     * the SFPU sorts (compare/swap); values and indices are packed. */
    [SOCMON_TENSIX_KERNEL_TOPK] = {
        "topk", 1, 0, 96, 8, 2,
        {{"XSEARCH_INSTRN_AVAILABLE_0", 2}, {"XSEARCH_INSTRN_AVAILABLE_1", 4},
         {"XSEARCH_INSTRN_AVAILABLE_2", 2}, {"MOVE_INSTRN_AVAILABLE_1", 9}},
        {{"WAITING_FOR_SFPU_IDLE_1", 0.5}, {"WAITING_FOR_SFPU_IDLE_2", 0.5},
         {"WAITING_FOR_MMIO_IDLE_1", 0.1}},
    },
    /* Synthetic synchronisation stress: each thread issues every instruction
     * type and STALLWAITs or SEMWAITs on every condition, as a test of the
     * counters would; no real kernel is this evenly mixed. */
    [SOCMON_TENSIX_KERNEL_SYNC] = {
        "sync", 2, 16, 16, 8, 1,
        {{"FPU_INSTRN_AVAILABLE_0", 1}, {"FPU_INSTRN_AVAILABLE_2", 1},
         {"UNPACK_INSTRN_AVAILABLE_1", 1}, {"UNPACK_INSTRN_AVAILABLE_2", 1},
         {"PACK_INSTRN_AVAILABLE_0", 1}, {"PACK_INSTRN_AVAILABLE_1", 1},
         {"MOVE_INSTRN_AVAILABLE_0", 2}, {"MOVE_INSTRN_AVAILABLE_1", 9},
         {"MOVE_INSTRN_AVAILABLE_2", 2}, {"THCON_INSTRN_AVAILABLE_1", 1},
         {"THCON_INSTRN_AVAILABLE_2", 1}, {"XSEARCH_INSTRN_AVAILABLE_0", 1},
         {"XSEARCH_INSTRN_AVAILABLE_1", 1}, {"XSEARCH_INSTRN_AVAILABLE_2", 1}},
        {{"WAITING_FOR_THCON_IDLE_0", 0.1}, {"WAITING_FOR_THCON_IDLE_1", 0.1},
         {"WAITING_FOR_THCON_IDLE_2", 0.1}, {"WAITING_FOR_UNPACK_IDLE_1", 0.2},
         {"WAITING_FOR_UNPACK_IDLE_2", 0.1}, {"WAITING_FOR_PACK_IDLE_0", 0.1},
         {"WAITING_FOR_PACK_IDLE_1", 0.2}, {"WAITING_FOR_MATH_IDLE_0", 0.2},
         {"WAITING_FOR_MATH_IDLE_2", 0.3}, {"WAITING_FOR_NONZERO_SEM_0", 0.3},
         {"WAITING_FOR_NONZERO_SEM_1", 0.2}, {"WAITING_FOR_NONFULL_SEM_0", 0.2},
         {"WAITING_FOR_NONFULL_SEM_2", 0.3}, {"WAITING_FOR_MOVE_IDLE_0", 0.1},
         {"WAITING_FOR_MOVE_IDLE_1", 0.2}, {"WAITING_FOR_MOVE_IDLE_2", 0.1},
         {"WAITING_FOR_MMIO_IDLE_0", 0.1}, {"WAITING_FOR_MMIO_IDLE_1", 0.1},
         {"WAITING_FOR_MMIO_IDLE_2", 0.1}, {"WAITING_FOR_SFPU_IDLE_0", 0.1},
         {"WAITING_FOR_SFPU_IDLE_1", 0.2}, {"WAITING_FOR_SFPU_IDLE_2", 0.2}},
    },
};

const tx_shape *smn_tx_shape_of(socmon_tensix_kernel k)
{
    return (unsigned)k < SOCMON_TENSIX_NKERNELS ? &shapes[k] : NULL;
}

const char *socmon_tensix_kernel_name(socmon_tensix_kernel k)
{
    return (unsigned)k < SOCMON_TENSIX_NKERNELS ? shapes[k].name : "?";
}

socmon_status socmon_tensix_kernel_parse(const char *s, socmon_tensix_kernel *out)
{
    for (unsigned i = 0; s && i < SOCMON_TENSIX_NKERNELS; i++) {
        if (strcasecmp(s, shapes[i].name) == 0) {
            *out = (socmon_tensix_kernel)i;
            return SOCMON_OK;
        }
    }
    return socmon_fail(SOCMON_ENOENT, "kernel '%s' unknown (valid: %s)", s ? s : "(null)",
                       SOCMON_TENSIX_KERNEL_NAMES);
}

void smn_tx_shape_math(const tx_shape *s, unsigned fidelity_phases, int float32, double *fpu, double *sfpu,
                   double *move)
{
    double w = float32 ? 2 : 1;
    *fpu = (double)s->fpu_phase * fidelity_phases * w;
    *sfpu = (double)s->sfpu * w;
    *move = s->move;
}

unsigned smn_tx_shape_operands(const tx_shape *s)
{
    return s->operands;
}

unsigned smn_tx_shape_out_tiles(const tx_shape *s)
{
    return s->out_tiles;
}

static double frac(double n, double d)
{
    return d > 0 ? n / d : 0;
}

void smn_tx_shape_rates(socmon_tensix_core *c, int ph, const tx_activity *a)
{
    const tx_shape *s = &shapes[c->p.kernel];
    if (c->p.kernel == SOCMON_TENSIX_KERNEL_MATMUL)
        return;   /* matmul's rules are the pipeline's own */
    double fpu, sfpu, move;
    smn_tx_shape_math(s, (unsigned)c->p.fidelity + 1, c->p.format == SOCMON_TENSIX_FMT_FLOAT32, &fpu, &sfpu,
                  &move);
    /* MOVE cycles are math-thread work but neither FPU nor SFPU. */
    double compute = fpu + sfpu;
    smn_tx_set_ratio(c, ph, "FPU_OR_SFPU_INSTRN", a->tm ? frac(a->M * frac(compute, compute + move), a->P) : 0);
    smn_tx_set_ratio(c, ph, "FPU_INSTRUCTION", frac(fpu, compute));
    smn_tx_set_ratio(c, ph, "SFPU_INSTRUCTION", frac(sfpu, compute));
    if (s->operands < 2) {
        /* No srcB operand: unpacker 1 and its channel stay idle. */
        static const char *const idle[] = {"UNPACK1_BUSY_THREAD0", "UNPACK1_BUSY_THREAD1",
                                           "WAITING_FOR_SRCB_CLEAR", "WAITING_FOR_SRCB_VALID",
                                           "NOC_RING0_INCOMING_1"};
        for (size_t i = 0; i < sizeof idle / sizeof idle[0]; i++)
            smn_tx_set_ratio(c, ph, idle[i], 0);
    }
    const int act[3] = {a->tu, a->tm, a->tk};
    for (size_t i = 0; i < MAX_INSTR && s->instr[i].name; i++) {
        const char *n = s->instr[i].name;
        unsigned t = (unsigned)(n[strlen(n) - 1] - '0');
        smn_tx_set_ratio(c, ph, n, t < 3 && act[t] ? frac(s->instr[i].v, a->P) : 0);
    }
    for (size_t i = 0; i < MAX_WAITS && s->waits[i].name; i++)
        smn_tx_set_ratio(c, ph, s->waits[i].name, s->waits[i].v);
}
