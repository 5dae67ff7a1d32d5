/* The register and L1 layout macros of counters.h (llk_perf_regs.h, plain C
 * macros) against socmon's register facts, src/hw/tensix_bank.h: the base
 * (RISCV_DEBUG_REGS_START_ADDR, tt-metal tensix.h), each bank's three control
 * registers, PERF_CNT_ALL, MUX_CTRL, the OUT_L/OUT_H pairs (spec
 * tensix_counters.md §1; tt-llk 9fa02aa counters.h lines 17-44), and the
 * per-thread L1 buffers (spec §4; counters.h lines 51-62). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "counters.h"
#include "hw/tensix_bank.h"
#include "socmon/tensix.h"

#define AT(off) ((uint32_t)(TENSIX_REGS_BASE + (off)))

static void test_register_macros(void **state)
{
    assert_int_equal(RISCV_DEBUG_REGS_START_ADDR, TENSIX_REGS_BASE);
    assert_int_equal(RISCV_DEBUG_REG_PERF_CNT_INSTRN_THREAD0, AT(A_TENSIX_INSTRN_THREAD_REF));
    assert_int_equal(RISCV_DEBUG_REG_PERF_CNT_INSTRN_THREAD1, AT(A_TENSIX_INSTRN_THREAD_MODE));
    assert_int_equal(RISCV_DEBUG_REG_PERF_CNT_INSTRN_THREAD2, AT(A_TENSIX_INSTRN_THREAD_CTRL));
    assert_int_equal(RISCV_DEBUG_REG_PERF_CNT_TDMA_UNPACK0, AT(A_TENSIX_TDMA_UNPACK_REF));
    assert_int_equal(RISCV_DEBUG_REG_PERF_CNT_TDMA_UNPACK1, AT(A_TENSIX_TDMA_UNPACK_MODE));
    assert_int_equal(RISCV_DEBUG_REG_PERF_CNT_TDMA_UNPACK2, AT(A_TENSIX_TDMA_UNPACK_CTRL));
    assert_int_equal(RISCV_DEBUG_REG_PERF_CNT_FPU0, AT(A_TENSIX_FPU_REF));
    assert_int_equal(RISCV_DEBUG_REG_PERF_CNT_FPU1, AT(A_TENSIX_FPU_MODE));
    assert_int_equal(RISCV_DEBUG_REG_PERF_CNT_FPU2, AT(A_TENSIX_FPU_CTRL));
    assert_int_equal(RISCV_DEBUG_REG_PERF_CNT_L1_0, AT(A_TENSIX_L1_REF));
    assert_int_equal(RISCV_DEBUG_REG_PERF_CNT_L1_1, AT(A_TENSIX_L1_MODE));
    assert_int_equal(RISCV_DEBUG_REG_PERF_CNT_L1_2, AT(A_TENSIX_L1_CTRL));
    assert_int_equal(RISCV_DEBUG_REG_PERF_CNT_TDMA_PACK0, AT(A_TENSIX_TDMA_PACK_REF));
    assert_int_equal(RISCV_DEBUG_REG_PERF_CNT_TDMA_PACK1, AT(A_TENSIX_TDMA_PACK_MODE));
    assert_int_equal(RISCV_DEBUG_REG_PERF_CNT_TDMA_PACK2, AT(A_TENSIX_TDMA_PACK_CTRL));
    assert_int_equal(RISCV_DEBUG_REG_PERF_CNT_ALL, AT(A_TENSIX_PERF_CNT_ALL));
    assert_int_equal(RISCV_DEBUG_REG_PERF_CNT_MUX_CTRL, AT(A_TENSIX_PERF_CNT_MUX_CTRL));
    assert_int_equal(RISCV_DEBUG_REG_PERF_CNT_OUT_L_INSTRN_THREAD, AT(A_TENSIX_INSTRN_THREAD_OUT_L));
    assert_int_equal(RISCV_DEBUG_REG_PERF_CNT_OUT_H_INSTRN_THREAD, AT(A_TENSIX_INSTRN_THREAD_OUT_H));
    assert_int_equal(RISCV_DEBUG_REG_PERF_CNT_OUT_L_TDMA_UNPACK, AT(A_TENSIX_TDMA_UNPACK_OUT_L));
    assert_int_equal(RISCV_DEBUG_REG_PERF_CNT_OUT_H_TDMA_UNPACK, AT(A_TENSIX_TDMA_UNPACK_OUT_H));
    assert_int_equal(RISCV_DEBUG_REG_PERF_CNT_OUT_L_TDMA_PACK, AT(A_TENSIX_TDMA_PACK_OUT_L));
    assert_int_equal(RISCV_DEBUG_REG_PERF_CNT_OUT_H_TDMA_PACK, AT(A_TENSIX_TDMA_PACK_OUT_H));
    assert_int_equal(RISCV_DEBUG_REG_PERF_CNT_OUT_L_DBG_L1, AT(A_TENSIX_L1_OUT_L));
    assert_int_equal(RISCV_DEBUG_REG_PERF_CNT_OUT_H_DBG_L1, AT(A_TENSIX_L1_OUT_H));
    assert_int_equal(RISCV_DEBUG_REG_PERF_CNT_OUT_L_FPU, AT(A_TENSIX_FPU_OUT_L));
    assert_int_equal(RISCV_DEBUG_REG_PERF_CNT_OUT_H_FPU, AT(A_TENSIX_FPU_OUT_H));
    /* and each bank's control base is where the bank map says (bank-id order) */
    const uint32_t base[TENSIX_NBANKS] = {
        RISCV_DEBUG_REG_PERF_CNT_INSTRN_THREAD0, RISCV_DEBUG_REG_PERF_CNT_FPU0,
        RISCV_DEBUG_REG_PERF_CNT_TDMA_UNPACK0, RISCV_DEBUG_REG_PERF_CNT_L1_0,
        RISCV_DEBUG_REG_PERF_CNT_TDMA_PACK0};
    for (unsigned b = 0; b < TENSIX_NBANKS; b++)
        assert_int_equal(base[b], AT(tensix_bank(b)->ref));
}

static void test_l1_layout_macros(void **state)
{
    assert_int_equal(PERF_COUNTERS_BASE_ADDR, TENSIX_COUNTERS_BASE);
    assert_int_equal(PERF_COUNTERS_CONFIG_WORDS, TENSIX_CONFIG_WORDS);
    assert_int_equal(PERF_COUNTERS_DATA_WORDS, TENSIX_DATA_WORDS);
    assert_int_equal(PERF_COUNTERS_THREAD_SIZE, TENSIX_THREAD_SIZE);
    assert_int_equal(PERF_COUNTERS_SIZE, TENSIX_NTHREADS * TENSIX_THREAD_SIZE);
    const uint32_t cfg[3] = {PERF_COUNTER_UNPACK_CONFIG_ADDR, PERF_COUNTER_MATH_CONFIG_ADDR,
                             PERF_COUNTER_PACK_CONFIG_ADDR};
    const uint32_t data[3] = {PERF_COUNTER_UNPACK_DATA_ADDR, PERF_COUNTER_MATH_DATA_ADDR,
                              PERF_COUNTER_PACK_DATA_ADDR};
    for (unsigned t = 0; t < TENSIX_NTHREADS; t++) {
        assert_int_equal(cfg[t], tensix_config_addr(t));
        assert_int_equal(data[t], tensix_data_addr(t));
        assert_int_equal(data[t], socmon_tensix_data_addr(t));
    }
    /* spec §4's table, by value */
    assert_int_equal(PERF_COUNTER_MATH_CONFIG_ADDR, 0x16A408);
    assert_int_equal(PERF_COUNTER_PACK_DATA_ADDR, 0x16A968);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_register_macros),
        cmocka_unit_test(test_l1_layout_macros),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
