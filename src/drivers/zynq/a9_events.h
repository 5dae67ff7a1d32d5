/* The Cortex-A9 PMU event numbers (PMUv1 architectural events the A9
 * implements, plus the A9-specific ones), with short names for counters. */
#ifndef SOCMON_DRIVERS_ZYNQ_A9_EVENTS_H
#define SOCMON_DRIVERS_ZYNQ_A9_EVENTS_H

#include <stddef.h>
#include <stdint.h>
#include "socmon/status.h"

typedef struct smn_za9_event {
    uint8_t code;
    const char *name;   /* socmon counter name, e.g. "inst_rename" */
    const char *desc;
} smn_za9_event;

/* NULL if code is not an event the Cortex-A9 implements. */
const smn_za9_event *smn_za9_event_by_code(unsigned code);
/* Accepts a name ("l1d_refill") or a number ("0x03", "3"). Errors name the
 * string. */
socmon_status smn_za9_event_parse(const char *s, uint8_t *code);
size_t smn_za9_event_count(void);
const smn_za9_event *smn_za9_event_at(size_t i);

#endif
