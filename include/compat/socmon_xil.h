/* Binding for the Xilinx standalone-BSP compatibility headers (xil_io.h,
 * xpseudo_asm.h, xreg_cortexa9.h, xil_types.h, xstatus.h in this folder):
 * BSP code such as xpm_counter.c or an xaxipmon-based driver compiles
 * unchanged and runs against socmon's models (or any socmon_bus).
 *
 * On the board Xil_In32/Xil_Out32 are loads and stores and mtcp/mfcp are
 * MCR/MRC instructions; here they call the functions below, which reach the
 * bus and the CP15 interface bound to the calling thread. The rn argument of
 * mtcp/mfcp is the BSP's operand string ("p15, 0, %0,  c9, c12, 0", as
 * xreg_cortexa9.h defines it), parsed at run time.
 *
 * The BSP's calls return no error, so a failure (nothing bound, a bad rn
 * string, an encoding the PMU lacks, a bus error) makes the access read 0 or
 * write nothing and is remembered: socmon_xil_status() returns the first one
 * since the last check, with its message (socmon_errmsg()). Behaviour:
 * docs/zynq.md, "CP15 and the Xilinx BSP shims". */
#ifndef SOCMON_COMPAT_SOCMON_XIL_H
#define SOCMON_COMPAT_SOCMON_XIL_H

#include "socmon/export.h"

#include <stdint.h>
#include "socmon/bus.h"
#include "socmon/status.h"
#include "socmon/zynq.h"

SOCMON_BEGIN_DECLS

/* The calling thread's bus for Xil_In32/Xil_Out32 (addresses as on the
 * board) and its coprocessor for mtcp/mfcp; bus or cp NULL unbinds. The bus and the
 * coprocessor's context must outlive the binding. bind_cp15 copies *cp;
 * SOCMON_EINVAL if its read or write is NULL. */
socmon_status socmon_xil_bind_bus(socmon_bus *bus);
socmon_status socmon_xil_bind_cp15(const socmon_cp15 *cp);

/* The first failure of this thread's shim calls since the previous call
 * (SOCMON_OK if none), its message restored for socmon_errmsg(); clears it. */
socmon_status socmon_xil_status(void);

/* A coprocessor operand string "pN, opc1, %0, cN, cM[, opc2]" (spaces free;
 * "#" before numbers and "cr" for "c" accepted, as GNU as accepts them). */
typedef struct socmon_xil_cp_op {
    unsigned coproc;    /* 15 for p15 */
    unsigned opc1, crn, crm, opc2;
} socmon_xil_cp_op;
/* SOCMON_EPARSE naming the string and what is wrong at which column;
 * SOCMON_EINVAL for NULL. */
socmon_status socmon_xil_cp_parse(const char *rn, socmon_xil_cp_op *out);

/* What the macros call. */
uint32_t socmon_xil_in32(uintptr_t addr);
void socmon_xil_out32(uintptr_t addr, uint32_t val);
uint32_t socmon_xil_mfcp(const char *rn);
void socmon_xil_mtcp(const char *rn, uint32_t val);

SOCMON_END_DECLS
#endif
