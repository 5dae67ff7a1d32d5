/* Xilinx standalone BSP's xil_io.h: Xil_In32/Xil_Out32 over the socmon_bus
 * bound to the calling thread (socmon_xil_bind_bus), so a BSP driver's
 * register accesses reach socmon's models. Barriers are no-ops: the model
 * orders accesses as they are made. Only the 32-bit accessors: the monitors
 * socmon models have 32-bit registers. */
#ifndef XIL_IO_H
#define XIL_IO_H

#include "socmon_xil.h"
#include "xil_types.h"

static inline u32 Xil_In32(UINTPTR Addr)
{
    return socmon_xil_in32(Addr);
}

static inline void Xil_Out32(UINTPTR Addr, u32 Value)
{
    socmon_xil_out32(Addr, Value);
}

#endif
