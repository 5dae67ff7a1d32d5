/* The executing core's own CP15 PMU registers, for code running on a
 * Cortex-A9 (32-bit Arm builds only): the real-silicon side of socmon_cp15.
 *
 * MRC/MCR take the register as immediates, so each of the twelve encodings
 * of src/hw/a9_pmu.h's ZA9_CP15 table gets its own instruction; anything
 * else is refused before it could become an Undefined Instruction. Elsewhere
 * (the host build) socmon_cp15_native reports SOCMON_ENOTSUP. */
#include "core/error.h"
#include "hw/a9_pmu.h"
#include "socmon/zynq.h"

#if defined(__arm__) && !defined(__aarch64__)

/* One case per encoding: "mrc p15, 0, %0, c9, cCRM, OPC2". */
#define A9_MRC(crm, opc2) __asm__ volatile("mrc p15, 0, %0, c9, c" #crm ", " #opc2 : "=r"(v))
#define A9_MCR(crm, opc2) __asm__ volatile("mcr p15, 0, %0, c9, c" #crm ", " #opc2 ::"r"(v))
#define A9_KEY(crm, opc2) ((crm) * 8u + (opc2))

static socmon_status check(const char *op, unsigned opc1, unsigned crn, unsigned crm,
                           unsigned opc2)
{
    if (!za9_cp15_find(opc1, crn, crm, opc2))
        return socmon_fail(SOCMON_ENOTSUP,
                           "%s p15, %u, <Rt>, c%u, c%u, %u: not a Cortex-A9 PMU register; "
                           "refused rather than executed", op, opc1, crn, crm, opc2);
    return SOCMON_OK;
}

static socmon_status native_read(void *ctx, unsigned opc1, unsigned crn, unsigned crm,
                                 unsigned opc2, uint32_t *val)
{
    (void)ctx;
    uint32_t v = 0;
    socmon_status st = val ? check("MRC", opc1, crn, crm, opc2)
                           : socmon_fail(SOCMON_EINVAL, "cp15: NULL value pointer");
    if (st)
        return st;
    switch (A9_KEY(crm, opc2)) {
    case A9_KEY(12, 0): A9_MRC(12, 0); break;
    case A9_KEY(12, 1): A9_MRC(12, 1); break;
    case A9_KEY(12, 2): A9_MRC(12, 2); break;
    case A9_KEY(12, 3): A9_MRC(12, 3); break;
    case A9_KEY(12, 4): v = 0; break;   /* PMSWINC is write-only */
    case A9_KEY(12, 5): A9_MRC(12, 5); break;
    case A9_KEY(13, 0): A9_MRC(13, 0); break;
    case A9_KEY(13, 1): A9_MRC(13, 1); break;
    case A9_KEY(13, 2): A9_MRC(13, 2); break;
    case A9_KEY(14, 0): A9_MRC(14, 0); break;
    case A9_KEY(14, 1): A9_MRC(14, 1); break;
    case A9_KEY(14, 2): A9_MRC(14, 2); break;
    default: break;
    }
    *val = v;
    return SOCMON_OK;
}

static socmon_status native_write(void *ctx, unsigned opc1, unsigned crn, unsigned crm,
                                  unsigned opc2, uint32_t v)
{
    (void)ctx;
    socmon_status st = check("MCR", opc1, crn, crm, opc2);
    if (st)
        return st;
    switch (A9_KEY(crm, opc2)) {
    case A9_KEY(12, 0): A9_MCR(12, 0); break;
    case A9_KEY(12, 1): A9_MCR(12, 1); break;
    case A9_KEY(12, 2): A9_MCR(12, 2); break;
    case A9_KEY(12, 3): A9_MCR(12, 3); break;
    case A9_KEY(12, 4): A9_MCR(12, 4); break;
    case A9_KEY(12, 5):
        A9_MCR(12, 5);
        __asm__ volatile("isb" ::: "memory");   /* the selection reaches PMXEV* (LNXPMU) */
        break;
    case A9_KEY(13, 0): A9_MCR(13, 0); break;
    case A9_KEY(13, 1): A9_MCR(13, 1); break;
    case A9_KEY(13, 2): A9_MCR(13, 2); break;
    case A9_KEY(14, 0): A9_MCR(14, 0); break;
    case A9_KEY(14, 1): A9_MCR(14, 1); break;
    case A9_KEY(14, 2): A9_MCR(14, 2); break;
    default: break;
    }
    return SOCMON_OK;
}

socmon_status socmon_cp15_native(socmon_cp15 *out)
{
    if (!out)
        return socmon_fail(SOCMON_EINVAL, "cp15: NULL output");
    out->read = native_read;
    out->write = native_write;
    out->ctx = NULL;
    return SOCMON_OK;
}

#else

socmon_status socmon_cp15_native(socmon_cp15 *out)
{
    if (out)
        out->read = NULL, out->write = NULL, out->ctx = NULL;
    return socmon_fail(SOCMON_ENOTSUP,
                       "cp15: the native coprocessor exists only on 32-bit Arm builds "
                       "(use socmon_zynq_cp15_of for the model)");
}

#endif
