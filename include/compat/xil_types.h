/* Xilinx standalone BSP's xil_types.h, the names BSP code uses (u8..u64,
 * s8..s64, UINTPTR, INTPTR, TRUE/FALSE), for compiling BSP code against
 * socmon (socmon_xil.h). Same meanings as the BSP's (embeddedsw
 * lib/bsp/standalone/src/common/xil_types.h): written from them, not copied. */
#ifndef XIL_TYPES_H
#define XIL_TYPES_H

#include <stddef.h>
#include <stdint.h>

typedef uint8_t u8;
typedef uint16_t u16;
typedef uint32_t u32;
typedef uint64_t u64;
typedef int8_t s8;
typedef int16_t s16;
typedef int32_t s32;
typedef int64_t s64;
typedef char char8;
typedef int sint32;
typedef uintptr_t UINTPTR;
typedef intptr_t INTPTR;
typedef ptrdiff_t PTRDIFF;

#ifndef TRUE
#define TRUE 1U
#endif
#ifndef FALSE
#define FALSE 0U
#endif

#endif
