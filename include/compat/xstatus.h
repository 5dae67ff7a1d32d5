/* Xilinx standalone BSP's xstatus.h, the two codes BSP helpers such as
 * xpm_counter.c return (XST_SUCCESS 0, XST_FAILURE 1, as embeddedsw's
 * lib/bsp/standalone/src/common/xstatus.h defines them). */
#ifndef XSTATUS_H
#define XSTATUS_H

#include "xil_types.h"

#define XST_SUCCESS 0L
#define XST_FAILURE 1L

#endif
