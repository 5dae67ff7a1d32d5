/* The workload primitives produce exactly the counts docs/esp-model.md
 * promises, and reject bad arguments naming the value. Default 2x3 SoC:
 * tile 0 cpu, 1 mem, 2 acc0 (with L2), 3 acc1, 4 acc2, 5 io. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <string.h>

#include "esp/esp_model_laws.h"
#include "hw/esp_monitor.h"
#include "models/esp/esp_soc.h"

enum { CPU = 0, MEM = 1, ACC0 = 2, ACC1 = 3 };

static int setup(void **state)
{
    socmon_esp_soc_desc d;
    socmon_esp_soc *soc;
    socmon_esp_soc_desc_default(&d);
    if (smn_esp_soc_new(&d, &soc) != SOCMON_OK)
        return -1;
    *state = soc;
    return 0;
}

static int teardown(void **state)
{
    smn_esp_soc_free(*state);
    return 0;
}

static uint32_t pk(void **state, unsigned t, unsigned m)
{
    return socmon_esp_soc_peek(*state, t, m);
}

/* Packets tile t injected into plane: the model-only counter (tile_inject counts flits). */
static uint32_t inj(void **state, unsigned t, unsigned plane)
{
    return smn_esp_soc_peek_xmon(*state, t, ESP_XMON_PKTS + plane);
}

/* 1000 bytes = 63 lines: 32 read, then 31 written back in place. The memory tile's queue
 * monitors count flits (a read request 2, a write request 4, a data response 3), DDR AHB beats
 * (2 per line). */
#define REQ_FLITS (32 * 2 + 31 * 4)
#define RSP_FLITS (32 * 3)
static void test_noncoherent_dma(void **state)
{
    assert_int_equal(socmon_esp_soc_acc_invoke(*state, 1, 1000, SOCMON_ESP_COH_NONE), SOCMON_OK);
    assert_int_equal(pk(state, MEM, SOCMON_ESP_MON_DMA_REQ), REQ_FLITS);
    assert_int_equal(pk(state, MEM, SOCMON_ESP_MON_DMA_RSP), RSP_FLITS);
    assert_int_equal(pk(state, MEM, SOCMON_ESP_MON_DDR), 63 * 2);
    assert_int_equal(pk(state, MEM, SOCMON_ESP_MON_LLC_HIT) + pk(state, MEM, SOCMON_ESP_MON_LLC_MISS), 0);
    assert_int_equal(pk(state, MEM, SOCMON_ESP_MON_COH_DMA_REQ), 0);
    assert_int_equal(inj(state, ACC1, 5), 63); /* requests on NoC6 */
    assert_int_equal(inj(state, MEM, 3), 32);  /* responses on NoC4 */
    assert_int_equal(pk(state, ACC1, SOCMON_ESP_MON_ACC_INVOC), 1);
    assert_int_equal(pk(state, ACC1, SOCMON_ESP_MON_ACC_TLB), 16 + 1);
    uint64_t tot = law_acc64(*state, ACC1, SOCMON_ESP_MON_ACC_TOT_LO);
    uint64_t mem = law_acc64(*state, ACC1, SOCMON_ESP_MON_ACC_MEM_LO);
    assert_true(mem >= 63);                       /* a cycle per line issued at least */
    assert_true(tot >= 17 + mem + 2 * 32);        /* TLB + DMA + compute */
    assert_int_equal(pk(state, ACC0, SOCMON_ESP_MON_ACC_INVOC), 0);
    /* ESP's RTL hard-wires every tile's op point to 3: it counts every cycle, 0..2 none. */
    for (unsigned op = 0; op < 3; op++)
        assert_int_equal(pk(state, ACC1, SOCMON_ESP_MON_DVFS + op), 0);
    assert_int_equal(pk(state, ACC1, SOCMON_ESP_MON_DVFS + 3), socmon_esp_soc_cycles(*state));
    assert_int_equal(pk(state, MEM, SOCMON_ESP_MON_DVFS + 3), socmon_esp_soc_cycles(*state));
    check_laws(*state, "non-coherent DMA");
}

static void test_llc_coherent_dma(void **state)
{
    assert_int_equal(socmon_esp_soc_acc_invoke(*state, 1, 1000, SOCMON_ESP_COH_LLC), SOCMON_OK);
    /* the RTL's LLC-coherent DMA takes the LLC's (coherent-DMA) queues and planes, as coherent
     * DMA does (esp_acc_dma.vhd, tile_mem.vhd) */
    assert_int_equal(pk(state, MEM, SOCMON_ESP_MON_COH_DMA_REQ), REQ_FLITS);
    assert_int_equal(pk(state, MEM, SOCMON_ESP_MON_COH_DMA_RSP), RSP_FLITS);
    assert_int_equal(pk(state, MEM, SOCMON_ESP_MON_DMA_REQ) + pk(state, MEM, SOCMON_ESP_MON_DMA_RSP), 0);
    assert_int_equal(inj(state, ACC1, 3), 63); /* requests on NoC4 */
    assert_int_equal(inj(state, MEM, 5), 32);  /* responses on NoC6 */
    assert_int_equal(pk(state, MEM, SOCMON_ESP_MON_LLC_MISS), 32);  /* cold reads */
    assert_int_equal(pk(state, MEM, SOCMON_ESP_MON_LLC_HIT), 31);   /* writes in place */
    assert_int_equal(pk(state, MEM, SOCMON_ESP_MON_DDR), 32 * 2);
    assert_int_equal(socmon_esp_soc_acc_invoke(*state, 1, 1000, SOCMON_ESP_COH_LLC), SOCMON_OK);
    assert_int_equal(pk(state, MEM, SOCMON_ESP_MON_LLC_HIT), 31 + 63);
    assert_int_equal(pk(state, MEM, SOCMON_ESP_MON_DDR), 32 * 2);
    assert_int_equal(pk(state, ACC1, SOCMON_ESP_MON_ACC_INVOC), 2);
    check_laws(*state, "LLC-coherent DMA");
}

static void test_coherent_dma(void **state)
{
    assert_int_equal(socmon_esp_soc_acc_invoke(*state, 2, 1000, SOCMON_ESP_COH_DMA), SOCMON_OK);
    assert_int_equal(pk(state, MEM, SOCMON_ESP_MON_COH_DMA_REQ), REQ_FLITS);
    assert_int_equal(pk(state, MEM, SOCMON_ESP_MON_COH_DMA_RSP), RSP_FLITS);
    assert_int_equal(pk(state, MEM, SOCMON_ESP_MON_DMA_REQ), 0);
    /* Coherent DMA crosses the other way: requests on NoC4, responses on NoC6. */
    assert_int_equal(inj(state, 4, 3), 63);
    assert_int_equal(inj(state, 4, 5), 0);
    assert_int_equal(inj(state, MEM, 5), 32);
    assert_int_equal(inj(state, MEM, 3), 0);
    assert_int_equal(pk(state, MEM, SOCMON_ESP_MON_LLC_MISS), 32);
    assert_int_equal(pk(state, MEM, SOCMON_ESP_MON_LLC_HIT), 31);
    assert_int_equal(pk(state, MEM, SOCMON_ESP_MON_COH_FWD), 0);
    check_laws(*state, "coherent DMA");
}

static void test_fully_coherent_then_recall(void **state)
{
    assert_int_equal(socmon_esp_soc_acc_invoke(*state, 0, 1000, SOCMON_ESP_COH_FULL), SOCMON_OK);
    assert_int_equal(pk(state, ACC0, SOCMON_ESP_MON_L2_MISS), 32);
    assert_int_equal(pk(state, ACC0, SOCMON_ESP_MON_L2_HIT), 31);
    assert_int_equal(pk(state, MEM, SOCMON_ESP_MON_COH_REQ), 32 * 2);      /* Gets: 2 flits */
    assert_int_equal(pk(state, MEM, SOCMON_ESP_MON_COH_RSP_SND), 32 * 3);  /* data: 3 flits */
    assert_int_equal(pk(state, MEM, SOCMON_ESP_MON_LLC_MISS), 32);
    assert_int_equal(pk(state, MEM, SOCMON_ESP_MON_DDR), 32 * 2);
    assert_int_equal(pk(state, MEM, SOCMON_ESP_MON_DMA_REQ), 0);
    assert_int_equal(inj(state, ACC0, 0), 32);
    assert_int_equal(inj(state, MEM, 2), 32);
    /* The same buffer by coherent DMA: the 32 lines in the accelerator's L2
     * are recalled (forward + response each); the 31 writes find them gone. */
    assert_int_equal(socmon_esp_soc_acc_invoke(*state, 0, 1000, SOCMON_ESP_COH_DMA), SOCMON_OK);
    assert_int_equal(pk(state, MEM, SOCMON_ESP_MON_COH_FWD), 32 * 2);
    /* the answers: 31 lines the writes left dirty come back with data, 1 without */
    assert_int_equal(pk(state, MEM, SOCMON_ESP_MON_COH_RSP_RCV), 31 * 3 + 1 * 2);
    assert_int_equal(inj(state, ACC0, 2), 32);
    assert_int_equal(pk(state, MEM, SOCMON_ESP_MON_LLC_HIT), 63);
    assert_int_equal(pk(state, MEM, SOCMON_ESP_MON_LLC_MISS), 32);
    check_laws(*state, "full, then recall");
}

static void test_cpu_hits_and_misses(void **state)
{
    /* 128 accesses of 8 bytes over 4 KiB touch 64 lines: a miss and a hit each. */
    assert_int_equal(socmon_esp_soc_cpu_access(*state, 0, 100, 28, 4096), SOCMON_OK);
    assert_int_equal(pk(state, CPU, SOCMON_ESP_MON_L2_MISS), 64);
    assert_int_equal(pk(state, CPU, SOCMON_ESP_MON_L2_HIT), 64);
    assert_int_equal(pk(state, MEM, SOCMON_ESP_MON_COH_REQ), 64 * 2);
    assert_int_equal(pk(state, MEM, SOCMON_ESP_MON_LLC_MISS), 64);
    assert_int_equal(pk(state, MEM, SOCMON_ESP_MON_DDR), 64 * 2);
    assert_int_equal(socmon_esp_soc_cpu_access(*state, 0, 100, 28, 4096), SOCMON_OK);
    assert_int_equal(pk(state, CPU, SOCMON_ESP_MON_L2_HIT), 64 + 128);
    assert_int_equal(pk(state, CPU, SOCMON_ESP_MON_L2_MISS), 64);
    check_laws(*state, "cpu hits");
}

static void test_cpu_evictions(void **state)
{
    /* 64 KiB is twice the L2: 4096 misses, and the second half evicts the
     * first (2048 Puts, each a coherence request with its own response). */
    assert_int_equal(socmon_esp_soc_cpu_access(*state, 0, 8192, 0, 65536), SOCMON_OK);
    assert_int_equal(pk(state, CPU, SOCMON_ESP_MON_L2_MISS), 4096);
    assert_int_equal(pk(state, CPU, SOCMON_ESP_MON_L2_HIT), 4096);
    /* in flits: Gets 2, clean Puts 2; data 3, acks 2 */
    assert_int_equal(pk(state, MEM, SOCMON_ESP_MON_COH_REQ), 4096 * 2 + 2048 * 2);
    assert_int_equal(pk(state, MEM, SOCMON_ESP_MON_COH_RSP_SND), 4096 * 3 + 2048 * 2);
    assert_int_equal(pk(state, MEM, SOCMON_ESP_MON_LLC_MISS), 4096);
    assert_int_equal(pk(state, MEM, SOCMON_ESP_MON_DDR), 4096 * 2);
    assert_int_equal(inj(state, CPU, 0), 4096 + 2048);
    check_laws(*state, "cpu evictions");
}

static void test_flush(void **state)
{
    smn_esp_model_stats st;
    assert_int_equal(socmon_esp_soc_cpu_access(*state, 0, 0, 128, 1024), SOCMON_OK); /* 64 dirty lines */
    assert_int_equal(socmon_esp_soc_flush(*state, 0), SOCMON_OK);
    assert_int_equal(pk(state, MEM, SOCMON_ESP_MON_COH_REQ), 64 * 2 + 64 * 3); /* Gets, dirty Puts */
    assert_int_equal(pk(state, MEM, SOCMON_ESP_MON_DDR), 64 * 2);
    assert_int_equal(socmon_esp_soc_flush(*state, 1), SOCMON_OK);    /* L2 empty: LLC only */
    assert_int_equal(pk(state, MEM, SOCMON_ESP_MON_COH_REQ), 64 * 2 + 64 * 3);
    assert_int_equal(pk(state, MEM, SOCMON_ESP_MON_DDR), (64 + 64) * 2); /* dirty lines to DDR */
    smn_esp_soc_stats(*state, &st);
    assert_int_equal(st.llc_flush_writebacks, 64);
    assert_int_equal(socmon_esp_soc_cpu_access(*state, 0, 128, 0, 1024), SOCMON_OK);
    assert_int_equal(pk(state, CPU, SOCMON_ESP_MON_L2_MISS), 128);   /* 64 + 64 again */
    assert_int_equal(pk(state, MEM, SOCMON_ESP_MON_LLC_MISS), 128);
    check_laws(*state, "flush");
}

static void test_without_cache_hierarchy(void **state)
{
    socmon_esp_soc_desc d;
    socmon_esp_soc *soc;
    socmon_esp_soc_desc_default(&d);
    d.cache_hierarchy = 0;
    assert_int_equal(smn_esp_soc_new(&d, &soc), SOCMON_OK);
    assert_int_equal(socmon_esp_soc_cpu_access(soc, 0, 10, 5, 4096), SOCMON_OK);
    /* all uncached: one AHB beat a word; on the coherence planes (ESP's ahbslv2noc, noc2ahbmst),
     * counted by the memory tile's coherence queues */
    assert_int_equal(socmon_esp_soc_peek(soc, MEM, SOCMON_ESP_MON_DDR), 15);
    assert_int_equal(smn_esp_soc_peek_xmon(soc, CPU, ESP_XMON_PKTS + 0), 15); /* packets */
    assert_int_equal(smn_esp_soc_peek_xmon(soc, MEM, ESP_XMON_PKTS + 2), 10);
    assert_int_equal(smn_esp_soc_peek_xmon(soc, CPU, ESP_XMON_PKTS + 4), 0);
    /* tile_inject counts flits: 10 load requests of 2, 5 stores of 3 (header, address, data) */
    assert_int_equal(socmon_esp_soc_peek(soc, CPU, SOCMON_ESP_MON_NOC_INJ + 0), 10 * 2 + 5 * 3);
    assert_int_equal(socmon_esp_soc_peek(soc, MEM, SOCMON_ESP_MON_COH_REQ), 10 * 2 + 5 * 3);
    assert_int_equal(socmon_esp_soc_peek(soc, MEM, SOCMON_ESP_MON_COH_RSP_SND), 10 * 2); /* answers to loads */
    assert_int_equal(socmon_esp_soc_acc_invoke(soc, 1, 64, SOCMON_ESP_COH_LLC), SOCMON_ENOTSUP);
    assert_non_null(strstr(socmon_errmsg(), "cache_hierarchy"));
    assert_int_equal(socmon_esp_soc_acc_invoke(soc, 1, 64, SOCMON_ESP_COH_NONE), SOCMON_OK);
    assert_int_equal(socmon_esp_soc_peek(soc, MEM, SOCMON_ESP_MON_DDR), 15 + 4 * 2);
    /* noc2ahbmst takes DMA from the DMA queue without the LLC too: 2 reads of 2 flits, 2 writes of 4 */
    assert_int_equal(socmon_esp_soc_peek(soc, MEM, SOCMON_ESP_MON_DMA_REQ), 2 * 2 + 2 * 4);
    assert_int_equal(socmon_esp_soc_peek(soc, MEM, SOCMON_ESP_MON_LLC_HIT), 0); /* undefined */
    check_laws(soc, "no cache hierarchy");
    smn_esp_soc_free(soc);
}

static void test_bad_arguments(void **state)
{
    socmon_esp_soc *soc = *state;
    assert_int_equal(socmon_esp_soc_cpu_access(soc, 1, 1, 0, 64), SOCMON_ERANGE);
    assert_non_null(strstr(socmon_errmsg(), "cpu_ordinal 1 out of range 0..0"));
    assert_int_equal(socmon_esp_soc_cpu_access(soc, 0, 1, 0, 0), SOCMON_ERANGE);
    assert_non_null(strstr(socmon_errmsg(), "footprint_bytes 0"));
    assert_int_equal(socmon_esp_soc_cpu_access(soc, 0, 1, 0, (1u << 28) + 1), SOCMON_ERANGE);
    assert_int_equal(socmon_esp_soc_cpu_access(soc, 0, UINT64_MAX, 1, 64), SOCMON_ERANGE);
    assert_non_null(strstr(socmon_errmsg(), "loads+stores"));
    assert_int_equal(socmon_esp_soc_cpu_access(soc, 0, UINT64_C(1) << 30, (UINT64_C(1) << 30) + 1, 64),
                     SOCMON_ERANGE);
    assert_non_null(strstr(socmon_errmsg(), "2^31"));
    assert_int_equal(socmon_esp_soc_acc_invoke(soc, 3, 64, SOCMON_ESP_COH_NONE), SOCMON_ERANGE);
    assert_non_null(strstr(socmon_errmsg(), "acc_ordinal 3 out of range 0..2"));
    assert_int_equal(socmon_esp_soc_acc_invoke(soc, 0, 0, SOCMON_ESP_COH_NONE), SOCMON_ERANGE);
    assert_non_null(strstr(socmon_errmsg(), "bytes 0 out of range 1..268435456"));
    assert_int_equal(socmon_esp_soc_acc_invoke(soc, 0, (1u << 28) + 1, SOCMON_ESP_COH_NONE), SOCMON_ERANGE);
    assert_int_equal(socmon_esp_soc_acc_invoke(soc, 0, 64, (socmon_esp_coherence)4), SOCMON_EINVAL);
    assert_non_null(strstr(socmon_errmsg(), "mode 4"));
    assert_int_equal(socmon_esp_soc_acc_invoke(soc, 1, 64, SOCMON_ESP_COH_FULL), SOCMON_ENOTSUP);
    assert_non_null(strstr(socmon_errmsg(), "acc 1 (tile 3) has no L2"));
    assert_int_equal(socmon_esp_soc_cpu_access(NULL, 0, 1, 0, 64), SOCMON_EINVAL);
    assert_int_equal(socmon_esp_soc_flush(NULL, 0), SOCMON_EINVAL);
    /* Nothing moved. */
    for (unsigned t = 0; t < 6; t++)
        for (unsigned m = 0; m < SOCMON_ESP_NMON; m++)
            assert_int_equal(socmon_esp_soc_peek(soc, t, m), 0);
    /* No accesses at all is fine and costs nothing. */
    assert_int_equal(socmon_esp_soc_cpu_access(soc, 0, 0, 0, 0), SOCMON_OK);
    /* An SoC without accelerators says so. */
    socmon_esp_soc_desc d;
    socmon_esp_soc *s2;
    assert_int_equal(socmon_esp_soc_desc_parse("rows 1\ncols 2\ntile 0 0 cpu\ntile 0 1 mem\n", "x", &d),
                     SOCMON_OK);
    assert_int_equal(smn_esp_soc_new(&d, &s2), SOCMON_OK);
    assert_int_equal(socmon_esp_soc_acc_invoke(s2, 0, 64, SOCMON_ESP_COH_NONE), SOCMON_ERANGE);
    assert_non_null(strstr(socmon_errmsg(), "no accelerator tiles"));
    smn_esp_soc_free(s2);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_noncoherent_dma, setup, teardown),
        cmocka_unit_test_setup_teardown(test_llc_coherent_dma, setup, teardown),
        cmocka_unit_test_setup_teardown(test_coherent_dma, setup, teardown),
        cmocka_unit_test_setup_teardown(test_fully_coherent_then_recall, setup, teardown),
        cmocka_unit_test_setup_teardown(test_cpu_hits_and_misses, setup, teardown),
        cmocka_unit_test_setup_teardown(test_cpu_evictions, setup, teardown),
        cmocka_unit_test_setup_teardown(test_flush, setup, teardown),
        cmocka_unit_test(test_without_cache_hierarchy),
        cmocka_unit_test_setup_teardown(test_bad_arguments, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
