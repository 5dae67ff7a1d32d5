/* Xilinx standalone BSP's xpseudo_asm.h (with xpseudo_asm_gcc.h's macros)
 * for 32-bit Arm code run against socmon: mtcp(rn, v) and mfcp(rn) take the
 * BSP's operand strings (xreg_cortexa9.h) and reach the CP15 interface bound
 * to the calling thread (socmon_xil_bind_cp15) instead of executing MCR/MRC.
 * The shapes are the BSP's: mtcp is a statement that brings its own ";",
 * mfcp an expression of type u32. isb/dsb/dmb are no-ops: the model applies
 * every access at once, which is what the barriers ensure on silicon. */
#ifndef XPSEUDO_ASM_H
#define XPSEUDO_ASM_H

#include "socmon_xil.h"
#include "xil_types.h"
#include "xreg_cortexa9.h"

#define mtcp(rn, v) socmon_xil_mtcp((rn), (u32)(v));
#define mfcp(rn) ((u32)socmon_xil_mfcp(rn))
#define isb() ((void)0)
#define dsb() ((void)0)
#define dmb() ((void)0)

#endif
