/* Fuzzes the Ibex predecoder and interpreter with raw instruction bytes:
 * every halfword pair must decode to a sane op (length 2 or 4, registers
 * below 32, compressed exactly when the low bits are not 11), and the bytes
 * run as a program from the reset entry (with a few registers pointing into
 * RAM, SimCtrl and the timer) must stop within the cycle limit without a
 * crash or a sanitizer report.
 *
 * Input: byte 0 picks the configuration, the rest is code. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "hw/ibex_csr.h"
#include "models/ibex/ibex_model.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const ibex_rv32m m[] = {IBEX_RV32M_FAST, IBEX_RV32M_SINGLE, IBEX_RV32M_SLOW, IBEX_RV32M_NONE};
    ibex_config cfg;
    ibex_core *c = NULL;
    ibex_stop why;
    if (size < 1)
        return 0;
    if (smn_ibex_config_preset(&cfg, (data[0] & 1) ? "maxperf" : "small") != SOCMON_OK)
        abort();
    cfg.rv32m = m[data[0] >> 1 & 3];
    cfg.mhpm_width = 1 + (data[0] >> 3) % 64;
    for (size_t i = 1; i + 1 < size; i += 2) {
        ibex_decoded d;
        uint16_t lo = (uint16_t)(data[i] | data[i + 1] << 8);
        uint16_t hi = i + 3 < size ? (uint16_t)(data[i + 2] | data[i + 3] << 8) : 0;
        smn_ibex_decode(&cfg, lo, hi, &d);
        if ((d.len != 2 && d.len != 4) || d.rd > 31 || d.rs1 > 31 || d.rs2 > 31 || !d.mnemonic ||
            (d.len == 2) != ((lo & 3) != 3))
            abort();
    }
    if (smn_ibex_create(&cfg, &c) != SOCMON_OK)
        abort();
    if (size > 1 && smn_ibex_load(c, IBEX_SS_RESET_PC, data + 1,
                              size - 1 > 0x10000 ? 0x10000 : size - 1) != SOCMON_OK)
        abort();
    smn_ibex_set_reg(c, 1, IBEX_SS_RAM_BASE + 0x8000);
    smn_ibex_set_reg(c, 2, IBEX_SS_SIMCTRL_BASE);
    smn_ibex_set_reg(c, 3, IBEX_SS_TIMER_BASE);
    smn_ibex_set_reg(c, 4, 0x80000000u);
    (void)smn_ibex_run(c, 20000, &why);
    smn_ibex_destroy(c);
    return 0;
}
