/* Fuzzes the BSP shims' coprocessor operand parser ("p15, 0, %0, c9, c12, 0",
 * socmon_xil_cp_parse) and the mfcp/mtcp path behind it on a model core:
 * a parsed operand is in range and parses the same when printed back; a
 * refusal always explains itself; nothing crashes. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "models/zynq/zynq_model.h"
#include "socmon_xil.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static socmon_zynq_soc *soc;
    if (!soc) {
        socmon_zynq_desc d;
        socmon_cp15 cp;
        socmon_zynq_desc_default(&d);
        if (smn_zynq_soc_new(&d, &soc) || socmon_zynq_cp15_of(soc, 0, &cp) ||
            socmon_xil_bind_cp15(&cp))
            abort();
    }
    if (size > 256)
        return 0;
    char *s = malloc(size + 1);
    if (!s)
        return 0;
    memcpy(s, data, size);
    s[size] = '\0';
    socmon_xil_cp_op op;
    if (socmon_xil_cp_parse(s, &op) == SOCMON_OK) {
        if (op.coproc > 15 || op.opc1 > 7 || op.crn > 15 || op.crm > 15 || op.opc2 > 7)
            abort();
        char back[64];
        socmon_xil_cp_op again;
        snprintf(back, sizeof back, "p%u, %u, %%0, c%u, c%u, %u", op.coproc, op.opc1, op.crn,
                 op.crm, op.opc2);
        if (socmon_xil_cp_parse(back, &again) || memcmp(&op, &again, sizeof op))
            abort();
    } else if (!*socmon_errmsg()) {
        abort();
    }
    uint32_t v = socmon_xil_mfcp(s);
    socmon_xil_mtcp(s, v ^ (uint32_t)size);
    if (socmon_xil_status() != SOCMON_OK && !*socmon_errmsg())
        abort();
    free(s);
    return 0;
}
