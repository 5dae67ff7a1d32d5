/* Fuzzes the Ibex model's ELF loader, and through it the interpreter: any
 * bytes must be either rejected with a message or loaded and run (bounded
 * by a cycle limit) without a crash, a hang or a sanitizer report. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "models/ibex/ibex_model.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    ibex_config cfg;
    ibex_core *c = NULL;
    ibex_stop why;
    socmon_status st;
    if (smn_ibex_config_preset(&cfg, (size & 1) ? "maxperf" : "small") != SOCMON_OK ||
        smn_ibex_create(&cfg, &c) != SOCMON_OK)
        abort();
    st = smn_ibex_load_elf_mem(c, data, size);
    if (st != SOCMON_OK) {
        if (!socmon_errmsg()[0])
            abort();   /* a failure must say why */
    } else {
        (void)smn_ibex_run(c, 20000, &why);
    }
    smn_ibex_destroy(c);
    return 0;
}
