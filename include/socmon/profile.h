/* A program's exact profile: what every instruction counted, per PC and per frame of its call
 * tree, and when each frame ran (function slices), as a model that sees every instruction
 * counts it (the ibex target with symbols=1: `socmon record -t ibex -- prog.elf`). A recording
 * carries it as its attachment "profile" (socmon_recwriter_attach), in the JSON this header's
 * functions write and read (docs/profile.md gives the format), and the views `socmon report`
 * shows of it: inclusive counts, call edges, folded stacks, source lines, annotation. */
#ifndef SOCMON_PROFILE_H
#define SOCMON_PROFILE_H

#include "socmon/export.h"

#include <stddef.h>
#include <stdint.h>
#include "socmon/status.h"

SOCMON_BEGIN_DECLS

typedef struct socmon_profile_func {
    char *name;                   /* funcs[0] is "_unknown": code outside every symbol */
    uint64_t lo, hi;              /* its addresses [lo, hi) (0, 0 for _unknown) */
} socmon_profile_func;

typedef struct socmon_profile_insn {
    uint64_t pc;                  /* UINT64_MAX: fetches outside memory (their faults) */
    uint32_t word;                /* the instruction's bytes, little-endian (16 bits if compressed) */
    size_t func;
    uint64_t *v;                  /* per event, counted modulo its width */
    char *text;                   /* the decoder's text ("lw ra, 12(sp)"), or NULL */
} socmon_profile_insn;

typedef struct socmon_profile_node {
    size_t parent;                /* nodes[0] is the root (the run), its own parent; parents come first */
    size_t func;
    int trap;                     /* entered by a trap or interrupt (a handler's frame) */
    uint64_t calls;               /* times the frame was entered */
    uint64_t *v;                  /* self counts, per event */
} socmon_profile_node;

typedef struct socmon_profile_slice {
    uint64_t t0_ns, t1_ns;        /* entry and exit, in the recording's (simulated) time */
    size_t func;
    unsigned depth;               /* 0: the outermost frame */
} socmon_profile_slice;

/* A counter the program stopped (mcountinhibit) for part of its run, so it counted less than the
 * run: what stat and report say instead of leaving a silent hole (docs/profile.md). */
typedef struct socmon_inhibited {
    char counter[48];             /* the counter's name, as the device lists it ("cycles") */
    char reg[24];                 /* its register ("mcycle") */
    uint64_t inhibited_cycles;    /* core cycles during which the program had it stopped */
    uint64_t run_cycles;          /* the run's core cycles (what it would have seen) */
} socmon_inhibited;
/* One sentence for a person about x[0] and the entries after it that were stopped for the same
 * cycles (a program usually stops them all at once): "cycles (mcycle) counted 68.0 % of the run's
 * cycles: the program inhibited it for 47,519 cycles", or "cycles (mcycle), instret (minstret)
 * and 10 more counted ...: the program inhibited them for ...". Returns how many of x[0..n) it
 * covered (at least 1 when n > 0). */
size_t socmon_inhibited_text(const socmon_inhibited *x, size_t n, char *buf, size_t len);

typedef struct socmon_profile {
    char *program;                /* the program file it ran (its ELF, for lines and annotation) */
    char *arch;                   /* the instruction set, "rv32imc" */
    size_t nevents;
    char **events;                /* "cycles", "instret", ...: the counters' names in --by-symbol */
    unsigned *widths;             /* bits of each */
    size_t nfuncs;
    socmon_profile_func *funcs;
    size_t ninsns;
    socmon_profile_insn *insns;   /* by address: every instruction of every function, and any
                                     other PC that counted */
    size_t nnodes;
    socmon_profile_node *nodes;
    size_t nslices;
    socmon_profile_slice *slices; /* in entry order */
    uint64_t slices_dropped;      /* entries past the limit kept */
    uint64_t *total;              /* per event: the whole program's counters at the end */
    size_t ninhibited;            /* counters the program stopped for part of the run */
    socmon_inhibited *inhibited;
} socmon_profile;

/* v, a count of event k modulo its width, as the signed number of that width: a program that
 * writes a counter (zeroes mcycle) has that change counted to the writing instruction, so a
 * PC, line, frame or function can count less than nothing, as --by-symbol shows it. */
int64_t socmon_profile_signed(const socmon_profile *p, size_t k, uint64_t v);

/* An empty profile for nevents events and the given sizes, every array zeroed (values too),
 * for a target filling one in. */
socmon_status socmon_profile_new(size_t nevents, size_t nfuncs, size_t ninsns, size_t nnodes, size_t nslices,
                                 socmon_profile **out);
void socmon_profile_free(socmon_profile *p);
/* The profile as JSON (malloc'd, NUL-terminated), and back: from_json checks every index, count
 * and width and refuses a document that breaks one (SOCMON_EPARSE naming what). to_json's len
 * may be NULL. */
socmon_status socmon_profile_to_json(const socmon_profile *p, char **out, size_t *len);
socmon_status socmon_profile_from_json(const char *text, size_t len, socmon_profile **out);

/* ---- views (src/analysis/profile_*.c) ---- */

/* One function over the whole run: self is what its own instructions counted; inclusive adds
 * every frame it called, directly or not, with a recursive function counted once (a frame
 * inside another frame of the same function adds nothing more to it). */
typedef struct socmon_profile_fn {
    size_t func;
    uint64_t calls;               /* its frames entered */
    uint64_t *self, *incl;        /* per event */
} socmon_profile_fn;

/* caller -> callee: the callee's frames entered from the caller's, and their inclusive counts
 * (an edge inside a recursion of the same edge counted once). A trap or interrupt taken in the
 * caller's frame is an edge of its own, trap set: caller -> [trap] handler, apart from any
 * ordinary call of the same function from the same caller. */
typedef struct socmon_profile_edge {
    size_t caller, callee;
    uint64_t calls;               /* frames entered: calls, or traps taken when trap is set */
    uint64_t *incl;
    int trap;                     /* 1: the callee's frames were entered by a trap or interrupt */
} socmon_profile_edge;

typedef struct socmon_profile_calls {
    size_t nevents;
    size_t nfns;
    socmon_profile_fn *fns;       /* functions that ran, by inclusive value of event 0, most first */
    size_t nedges;
    socmon_profile_edge *edges;   /* by inclusive value of event 0, most first */
    uint64_t *root;               /* the root's inclusive counts: everything counted */
    /* 1 if a chain of totals breaks: the root's inclusive not the profile's total, or a
     * function's self from the tree not that of its instructions (never, for a sound profile) */
    int mismatch;
} socmon_profile_calls;
socmon_status socmon_profile_calls_new(const socmon_profile *p, socmon_profile_calls **out);
void socmon_profile_calls_free(socmon_profile_calls *c);

/* The event's name to its index (SOCMON_ENOENT naming the events there are). */
socmon_status socmon_profile_event(const socmon_profile *p, const char *name, size_t *k);

/* Folded stacks of event k, the input of flamegraph.pl, inferno and speedscope: one line per
 * call path whose own frame counted something, "outer;...;inner VALUE\n", sorted; the values
 * (signed, socmon_profile_signed) sum to the event's total. A frame entered by a trap or an
 * interrupt is named "[trap] handler" ("main;[trap] sm_vectors 2"). text is malloc'd. */
socmon_status socmon_profile_folded(const socmon_profile *p, size_t k, char **text, size_t *len);

/* Source lines (DWARF, read with elfutils' libdw from elf, the program's ELF): one row per
 * file:line and function, every event summed over its instructions, by event 0, most first.
 * Instructions without a line are a row of file "??", line 0, per function. When the ELF gives
 * no line at all (no DWARF, stripped, unreadable), note says why and each instruction that
 * counted is a row of its own (pc set). */
typedef struct socmon_profile_line {
    char *file;
    unsigned line;
    size_t func;
    uint64_t pc;                  /* a row per instruction (no lines at all): its PC; else UINT64_MAX */
    uint64_t *v;
} socmon_profile_line;
typedef struct socmon_profile_lines {
    size_t nevents, n;
    socmon_profile_line *rows;
    char *note;
} socmon_profile_lines;
/* The profile's rows by source line, from the DWARF line table of elf (NULL: the profile's own
 * program, when it names one). */
socmon_status socmon_profile_lines_new(const socmon_profile *p, const char *elf, socmon_profile_lines **out);
void socmon_profile_lines_free(socmon_profile_lines *l);

/* One function's instructions, like perf annotate: each with its text, source line (when the ELF
 * has DWARF) and counts; the one of most event 0 is marked hottest. SOCMON_ENOENT for a function
 * the profile does not have, its message naming the nearest names. */
typedef struct socmon_profile_asm {
    const socmon_profile_insn *insn;
    char *file;                   /* NULL without a line */
    unsigned line;
    int hottest;
} socmon_profile_asm;
typedef struct socmon_profile_annotation {
    size_t func, n;
    socmon_profile_asm *rows;
    char *note;                   /* why there are no source lines, or NULL */
} socmon_profile_annotation;
socmon_status socmon_profile_annotate(const socmon_profile *p, const char *func, const char *elf,
                                      socmon_profile_annotation **out);
void socmon_profile_annotation_free(socmon_profile_annotation *a);

SOCMON_END_DECLS

#endif
