/* The Zynq monitor models, internal side: what tests, the fuzzer and the
 * "zynq" target use beyond the public API (include/socmon/zynq.h).
 *
 * The model is driven through the public calls on the model behind a "zynq"
 * target; this header adds creating, mapping and freeing it (the target's
 * job, and the tests'), the register facts (src/hw/zynq_apm.h, src/hw/a9_pmu.h)
 * and back doors for tests: peeking at and setting live counters, and the
 * traffic model's stall count. Behaviour: docs/zynq.md. */
#ifndef SOCMON_MODELS_ZYNQ_MODEL_H
#define SOCMON_MODELS_ZYNQ_MODEL_H

#include <stddef.h>
#include <stdint.h>
#include "hw/a9_pmu.h"
#include "hw/zynq_apm.h"
#include "socmon/bus.h"
#include "socmon/status.h"
#include "socmon/zynq.h"

/* A model at time 0 with every register at its reset value and no traffic
 * until socmon_zynq_soc_start (or set_traffic/set_cpu). d is copied. */
socmon_status smn_zynq_soc_new(const socmon_zynq_desc *d, socmon_zynq_soc **out);
void smn_zynq_soc_free(socmon_zynq_soc *soc);
/* Maps the APM window (64 KiB at apm_base) and both PMU windows (4 KiB each)
 * onto a bus made by socmon_bus_model_new. The model must outlive the bus's
 * use of it. Fails if a window overlaps one already mapped. */
socmon_status smn_zynq_soc_map(socmon_zynq_soc *soc, socmon_bus *model_bus);

/* Live APM metric counter k (Profile: 6*slot + j; Advanced: counter k, as
 * its register shows it), and setting it; PMU counters n = 0..5 and 31 for
 * CCNT. */
uint32_t smn_zynq_apm_peek(const socmon_zynq_soc *soc, unsigned k);
socmon_status smn_zynq_apm_poke(socmon_zynq_soc *soc, unsigned k, uint32_t v);
socmon_status smn_zynq_pmu_poke(socmon_zynq_soc *soc, unsigned core, unsigned n, uint32_t v);
/* Bytes the workload asked slot (0..nslots-1) to write and to read since the model was made,
 * phase by phase (0 for a slot out of range): what the findings weigh each port against. */
void smn_zynq_soc_asked(const socmon_zynq_soc *soc, unsigned slot, double *wr_bytes, double *rd_bytes);
/* Transactions the traffic model could not issue on time because 32 were
 * already outstanding on that slot and direction (0 unless overloaded). */
uint64_t smn_zynq_apm_stalls(const socmon_zynq_soc *soc, unsigned slot);
/* socmon_zynq_soc_start with the workload's clock started at start_ns (at
 * most now): the "zynq" target starts it on its sampling grid although its
 * register reads have moved the model on since (docs/zynq.md, "Time on the
 * bus"). SOCMON_ERANGE if start_ns is after now. */
socmon_status smn_zynq_soc_start_at(socmon_zynq_soc *soc, const char *workload,
                                       uint64_t duration_ns, uint64_t start_ns);

#endif
