/* What the CLI needs from an opened "ibex" target beyond the generic target
 * interface: where the program's SimCtrl output goes, and how the program
 * ended (halted, trapped out, ran out of cycles, hangs). */
#ifndef SOCMON_TARGETS_IBEX_TARGET_H
#define SOCMON_TARGETS_IBEX_TARGET_H

#include <stdint.h>
#include "socmon/target.h"

typedef enum ibex_outcome {
    IBEX_OUTCOME_RUNNING,     /* not finished (yet) */
    IBEX_OUTCOME_HALTED,      /* wrote 1 to SimCtrl's halt register */
    IBEX_OUTCOME_TRAPPED,     /* an exception whose handler never returns (spins, or faults at the vector) */
    IBEX_OUTCOME_LIMIT,       /* max_cycles elapsed */
    IBEX_OUTCOME_HANG,        /* asleep forever (WFI, no wake-up) or `j .` with interrupts off, no exception */
} ibex_outcome;

/* The program's SimCtrl bytes go to fn (one call per byte, as produced) on
 * an opened ibex target; without it they collect in the model. 0, or -1 if
 * t is not an ibex model target. */
int socmon_ibex_target_set_output(socmon_target *t, void (*fn)(void *ctx, uint8_t byte), void *ctx);
/* How the run ended; msg (may be NULL) gets one line saying it. */
ibex_outcome socmon_ibex_target_outcome(const socmon_target *t, char *msg, size_t len);

#endif
