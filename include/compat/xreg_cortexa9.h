/* Xilinx standalone BSP's xreg_cortexa9.h, its CP15 C9 (performance
 * monitor) operand strings: the exact strings the BSP defines (embeddedsw
 * lib/bsp/standalone/src/arm/cortexa9/xreg_cortexa9.h, "C9 Register
 * Defines"), which mtcp/mfcp (xpseudo_asm.h) parse at run time. The BSP's
 * other registers (cache, MMU, ...) are not modelled and not defined. */
#ifndef XREG_CORTEXA9_H
#define XREG_CORTEXA9_H

#include "xil_types.h"

#define XREG_CP15_PERF_MONITOR_CTRL   "p15, 0, %0,  c9, c12, 0"   /* PMCR */
#define XREG_CP15_COUNT_ENABLE_SET    "p15, 0, %0,  c9, c12, 1"   /* PMCNTENSET */
#define XREG_CP15_COUNT_ENABLE_CLR    "p15, 0, %0,  c9, c12, 2"   /* PMCNTENCLR */
#define XREG_CP15_V_FLAG_STATUS       "p15, 0, %0,  c9, c12, 3"   /* PMOVSR */
#define XREG_CP15_SW_INC              "p15, 0, %0,  c9, c12, 4"   /* PMSWINC */
#define XREG_CP15_EVENT_CNTR_SEL      "p15, 0, %0,  c9, c12, 5"   /* PMSELR */
#define XREG_CP15_PERF_CYCLE_COUNTER  "p15, 0, %0,  c9, c13, 0"   /* PMCCNTR */
#define XREG_CP15_EVENT_TYPE_SEL      "p15, 0, %0,  c9, c13, 1"   /* PMXEVTYPER */
#define XREG_CP15_PERF_MONITOR_COUNT  "p15, 0, %0,  c9, c13, 2"   /* PMXEVCNTR */
#define XREG_CP15_USER_ENABLE         "p15, 0, %0,  c9, c14, 0"   /* PMUSERENR */
#define XREG_CP15_INTR_ENABLE_SET     "p15, 0, %0,  c9, c14, 1"   /* PMINTENSET */
#define XREG_CP15_INTR_ENABLE_CLR     "p15, 0, %0,  c9, c14, 2"   /* PMINTENCLR */

#endif
