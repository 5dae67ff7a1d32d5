/* Counters wrap modulo 2^32 like ESP's (GRLIB "+" on 32-bit vectors), and
 * the accelerator's lo/hi pairs carry like one 64-bit counter. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "esp/esp_model_laws.h"
#include "models/esp/esp_soc.h"

enum { CPU = 0, MEM = 1, ACC1 = 3 };

static socmon_esp_soc *fresh(void)
{
    socmon_esp_soc_desc d;
    socmon_esp_soc *soc;
    socmon_esp_soc_desc_default(&d);
    assert_int_equal(smn_esp_soc_new(&d, &soc), SOCMON_OK);
    return soc;
}

static void test_wrap_32(void **state)
{
    socmon_esp_soc *soc = fresh();
    assert_int_equal(socmon_esp_soc_poke(soc, CPU, SOCMON_ESP_MON_L2_HIT, 0xFFFFFFF0u), SOCMON_OK);
    assert_int_equal(socmon_esp_soc_poke(soc, MEM, SOCMON_ESP_MON_DDR, 0xFFFFFFF6u), SOCMON_OK);
    assert_int_equal(socmon_esp_soc_poke(soc, ACC1, SOCMON_ESP_MON_NOC_INJ + 5, 0xFFFFFFFFu), SOCMON_OK);
    assert_int_equal(socmon_esp_soc_poke(soc, MEM, SOCMON_ESP_MON_COH_REQ, 0xFFFFFF00u), SOCMON_OK);
    assert_int_equal(socmon_esp_soc_poke(soc, MEM, SOCMON_ESP_MON_COH_RSP_SND, 0xFFFFFF00u), SOCMON_OK);
    assert_int_equal(socmon_esp_soc_cpu_access(soc, 0, 128, 0, 1024), SOCMON_OK);         /* 64 hits */
    assert_int_equal(socmon_esp_soc_peek(soc, CPU, SOCMON_ESP_MON_L2_HIT), 0x30);
    assert_int_equal(socmon_esp_soc_acc_invoke(soc, 1, 1000, SOCMON_ESP_COH_NONE), SOCMON_OK); /* 63 lines */
    /* DDR counts AHB beats, 2 per line */
    assert_int_equal(socmon_esp_soc_peek(soc, MEM, SOCMON_ESP_MON_DDR), (0xFFFFFFF6u + 2 * (64 + 63)) & 0xFFFFFFFFu);
    /* tile_inject counts flits: 32 read requests of 2 flits, 31 writes of 4 (header, address, line) */
    assert_int_equal(socmon_esp_soc_peek(soc, ACC1, SOCMON_ESP_MON_NOC_INJ + 5), (uint32_t)(0xFFFFFFFFu + 32 * 2 + 31 * 4));
    /* 8192 loads over 64 KiB: 6144 coherence requests, each answered; with the first 64, 4096
     * Gets (2 flits, answered with 3) and 2048 clean Puts (2 flits, acked with 2). */
    assert_int_equal(socmon_esp_soc_cpu_access(soc, 0, 8192, 0, 65536), SOCMON_OK);
    uint32_t gets = 64 + 4096 - 1024 /* 1 KiB already in L2 */ / 16, puts = 6144 - 4096;
    assert_int_equal(socmon_esp_soc_peek(soc, MEM, SOCMON_ESP_MON_COH_REQ), (uint32_t)(0xFFFFFF00u + 2 * (gets + puts)));
    assert_int_equal(socmon_esp_soc_peek(soc, MEM, SOCMON_ESP_MON_COH_RSP_SND),
                     (uint32_t)(0xFFFFFF00u + 3 * gets + 2 * puts));
    smn_esp_soc_free(soc);
}

static void test_wrap_dvfs_cycles(void **state)
{
    socmon_esp_soc *soc = fresh();
    int done;
    assert_int_equal(socmon_esp_soc_poke(soc, CPU, SOCMON_ESP_MON_DVFS + 3, 0xFFFFFF00u), SOCMON_OK);
    assert_int_equal(socmon_esp_soc_advance(soc, 1000000, &done), SOCMON_OK); /* 78000 cycles */
    assert_int_equal(socmon_esp_soc_peek(soc, CPU, SOCMON_ESP_MON_DVFS + 3), 78000 - 256);
    smn_esp_soc_free(soc);
}

/* acc_tot and acc_mem are 64-bit: lo carries into hi, and the pair wraps at 2^64. */
static void test_carry_64(void **state)
{
    socmon_esp_soc *ref = fresh(), *soc = fresh();
    assert_int_equal(socmon_esp_soc_acc_invoke(ref, 1, 5000, SOCMON_ESP_COH_NONE), SOCMON_OK);
    uint64_t tot = law_acc64(ref, ACC1, SOCMON_ESP_MON_ACC_TOT_LO);
    uint64_t mem = law_acc64(ref, ACC1, SOCMON_ESP_MON_ACC_MEM_LO);
    assert_true(tot > 16 && mem > 6);
    assert_int_equal(socmon_esp_soc_poke(soc, ACC1, SOCMON_ESP_MON_ACC_TOT_LO, 0xFFFFFFFAu), SOCMON_OK);
    assert_int_equal(socmon_esp_soc_poke(soc, ACC1, SOCMON_ESP_MON_ACC_TOT_HI, 7), SOCMON_OK);
    assert_int_equal(socmon_esp_soc_poke(soc, ACC1, SOCMON_ESP_MON_ACC_MEM_LO, 0xFFFFFFFFu), SOCMON_OK);
    assert_int_equal(socmon_esp_soc_poke(soc, ACC1, SOCMON_ESP_MON_ACC_MEM_HI, 0xFFFFFFFFu), SOCMON_OK);
    assert_int_equal(socmon_esp_soc_acc_invoke(soc, 1, 5000, SOCMON_ESP_COH_NONE), SOCMON_OK);
    assert_true(law_acc64(soc, ACC1, SOCMON_ESP_MON_ACC_TOT_LO) == (UINT64_C(7) << 32 | 0xFFFFFFFAu) + tot);
    assert_int_equal(socmon_esp_soc_peek(soc, ACC1, SOCMON_ESP_MON_ACC_TOT_HI), 8);
    assert_true(law_acc64(soc, ACC1, SOCMON_ESP_MON_ACC_MEM_LO) == mem - 1);
    smn_esp_soc_free(ref);
    smn_esp_soc_free(soc);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_wrap_32),
        cmocka_unit_test(test_wrap_dvfs_cycles),
        cmocka_unit_test(test_carry_64),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
