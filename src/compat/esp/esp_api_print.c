/* ESP Monitors API: differences and the text report. Stateless except for
 * reading the SoC description (esp_api.c). */
#include <string.h>

#include "socmon/delta.h"
#include "compat/esp/esp_api.h"

/* ESP's reference returns 0xFFFFFFFF - s + e on wrap, one short; the count of
 * events is (e - s) mod 2^32, which unsigned arithmetic gives directly. */
uint32_t sub_monitor_vals(uint32_t val_start, uint32_t val_end)
{
    return (uint32_t)socmon_delta(val_start, val_end, 32);
}

uint64_t sub_monitor_vals64(uint64_t val_start, uint64_t val_end)
{
    return socmon_delta(val_start, val_end, 64);
}

static uint32_t word(const unsigned char *p, size_t off)
{
    uint32_t v;
    memcpy(&v, p + off, sizeof v);
    return v;
}

static void put(unsigned char *p, size_t off, uint32_t v)
{
    memcpy(p + off, &v, sizeof v);
}

void socmon_esp_api_diff(const socmon_esp_api_layout *l, const void *start, const void *end,
                         void *out)
{
    const unsigned char *s = start, *e = end;
    unsigned char *d = out;
    /* Every field is a 32-bit monitor... */
    for (size_t off = 0; off + 4 <= l->size; off += 4)
        put(d, off, sub_monitor_vals(word(s, off), word(e, off)));
    /* ...except the two accelerator cycle counts, which are 64-bit values
     * split lo/hi: borrow from hi when lo wrapped. */
    for (unsigned a = 0; a < l->nacc; a++) {
        for (unsigned k = 0; k < 2; k++) {
            size_t lo = l->off_acc + 24u * a + 4u + 8u * k, hi = lo + 4;
            uint64_t vs = (uint64_t)word(s, hi) << 32 | word(s, lo);
            uint64_t ve = (uint64_t)word(e, hi) << 32 | word(e, lo);
            uint64_t dv = sub_monitor_vals64(vs, ve);
            put(d, lo, (uint32_t)dv);
            put(d, hi, (uint32_t)(dv >> 32));
        }
    }
    smn_esp_api_set_status(SOCMON_OK);
}

static const char *const mem_lines[8] = {
    "Coherence requests to LLC", "Coherence forwards from LLC",
    "Coherence responses received by LLC", "Coherence responses sent by LLC",
    "DMA requests to mem tile", "DMA responses from mem tile",
    "Coherent DMA requests to LLC", "Coherent DMA responses from LLC",
};

static void print_acc(FILE *fp, const socmon_esp_api_layout *l, const unsigned char *v, unsigned a)
{
    size_t o = l->off_acc + 24u * a;
    unsigned long long mem = (unsigned long long)word(v, o + 8) << 32 | word(v, o + 4);
    unsigned long long tot = (unsigned long long)word(v, o + 16) << 32 | word(v, o + 12);
    fprintf(fp, "Accelerator %u TLB-loading cycles: %u\n", a, word(v, o));
    fprintf(fp, "Accelerator %u mem cycles: %llu\n", a, mem);
    fprintf(fp, "Accelerator %u total cycles: %llu\n", a, tot);
    fprintf(fp, "Accelerator %u invocations: %u\n", a, word(v, o + 20));
}

static void print_qfull(FILE *fp, const socmon_esp_api_layout *l, const unsigned char *v,
                        unsigned t, unsigned p)
{
    for (unsigned q = 0; q < NOC_QUEUES; q++)
        fprintf(fp, "NoC backpressure cycles at tile %u on plane %u for queue %u: %u\n", t, p, q,
                word(v, l->off_qfull + 4u * ((t * NOC_PLANES + p) * NOC_QUEUES + q)));
}

void socmon_esp_api_print(const socmon_esp_api_layout *l, const esp_monitor_args_t *args,
                          const void *vals, FILE *fp)
{
    socmon_esp_soc_desc d;
    socmon_status st = SOCMON_OK;
    if (!fp)
        st = socmon_fail(SOCMON_EINVAL, "esp_monitor_print: fp is NULL");
    else if ((unsigned)args->read_mode > ESP_MON_READ_MANY)
        st = socmon_fail(SOCMON_EINVAL,
                         "esp_monitor_print: read_mode %d unknown (0 ALL, 1 SINGLE, 2 MANY)",
                         (int)args->read_mode);
    if (st == SOCMON_OK)
        st = smn_esp_api_desc(l, &d);
    if (st != SOCMON_OK) {
        smn_esp_api_set_status(st);
        return;
    }
    const unsigned char *v = vals;
    int all = args->read_mode == ESP_MON_READ_ALL;
    /* SINGLE results are not in vals: nothing but the banners to print. */
    unsigned mask = all ? 0x1ffu : args->read_mode == ESP_MON_READ_MANY ? args->read_mask : 0;
#define BIT(b) (mask & (1u << (b)))
    unsigned idx[SOCMON_ESP_MAX_TILES];
    unsigned nt = d.rows * d.cols;

    fprintf(fp, "\n***************************************************\n");
    fprintf(fp, "******************ESP MONITOR STATS****************\n");
    fprintf(fp, "***************************************************\n");

    fprintf(fp, "\n********************MEMORY STATS*******************\n");
    unsigned nmem = socmon_esp_desc_tiles_of(&d, SOCMON_ESP_TILE_MEM, idx, SOCMON_ESP_MAX_TILES);
    if (BIT(ESP_MON_READ_DDR_ACCESSES))
        for (unsigned m = 0; m < nmem; m++)
            fprintf(fp, "Off-chip memory accesses at mem tile %u: %u\n", m, word(v, 4u * m));
    if (BIT(ESP_MON_READ_MEM_REQS))
        for (unsigned m = 0; m < nmem; m++)
            for (unsigned k = 0; k < 8; k++)
                fprintf(fp, "%s %u: %u\n", mem_lines[k], m, word(v, l->off_mem_reqs + 32u * m + 4u * k));

    fprintf(fp, "\n********************CACHE STATS********************\n");
    if (BIT(ESP_MON_READ_L2_STATS)) {
        unsigned ncpu = socmon_esp_desc_tiles_of(&d, SOCMON_ESP_TILE_CPU, idx, SOCMON_ESP_MAX_TILES);
        for (unsigned c = 0; c < ncpu; c++) {
            fprintf(fp, "L2 hits for CPU %u: %u\n", c, word(v, l->off_l2 + 8u * idx[c]));
            fprintf(fp, "L2 misses for CPU %u: %u\n", c, word(v, l->off_l2 + 8u * idx[c] + 4));
        }
        unsigned nacc = socmon_esp_desc_tiles_of(&d, SOCMON_ESP_TILE_ACC, idx, SOCMON_ESP_MAX_TILES);
        for (unsigned a = 0; a < nacc; a++)
            if (d.tiles[idx[a]].has_l2) {
                fprintf(fp, "L2 hits for acc %u: %u\n", a, word(v, l->off_l2 + 8u * idx[a]));
                fprintf(fp, "L2 misses for acc %u: %u\n", a, word(v, l->off_l2 + 8u * idx[a] + 4));
            }
    }
    if (BIT(ESP_MON_READ_LLC_STATS))
        for (unsigned m = 0; m < nmem; m++) {
            fprintf(fp, "Hits at LLC %u: %u\n", m, word(v, l->off_llc + 8u * m));
            fprintf(fp, "Misses at LLC %u: %u\n", m, word(v, l->off_llc + 8u * m + 4));
        }

    fprintf(fp, "\n****************ACCELERATOR STATS******************\n");
    if (all)
        for (unsigned a = 0; a < l->nacc; a++)
            print_acc(fp, l, v, a);
    else if (BIT(ESP_MON_READ_ACC_STATS) && args->acc_index < l->nacc)
        print_acc(fp, l, v, args->acc_index);

    fprintf(fp, "\n*********************DVFS STATS********************\n");
    for (unsigned t = 0; t < nt; t++)
        if (all || (BIT(ESP_MON_READ_DVFS_OP) && t == args->tile_index))
            for (unsigned p = 0; p < DVFS_OP_POINTS; p++)
                fprintf(fp, "DVFS Cycles for tile %u at operating point %u: %u\n", t, p,
                        word(v, l->off_dvfs + 4u * (t * DVFS_OP_POINTS + p)));

    fprintf(fp, "\n*********************NOC STATS*********************\n");
    for (unsigned t = 0; t < nt; t++)
        if (all || (BIT(ESP_MON_READ_NOC_INJECTS) && t == args->tile_index))
            for (unsigned p = 0; p < NOC_PLANES; p++) /* ESP's words; the register counts flits */
                fprintf(fp, "NoC packets injected at tile %u on plane %u: %u\n", t, p,
                        word(v, l->off_inj + 4u * (t * NOC_PLANES + p)));
    /* As ESP prints it: the tile block wins when both queue-full bits are set. */
    if (all) {
        for (unsigned t = 0; t < nt; t++)
            for (unsigned p = 0; p < NOC_PLANES; p++)
                print_qfull(fp, l, v, t, p);
    } else if (BIT(ESP_MON_READ_NOC_QUEUE_FULL_TILE)) {
        if (args->tile_index < nt)
            for (unsigned p = 0; p < NOC_PLANES; p++)
                print_qfull(fp, l, v, args->tile_index, p);
    } else if (BIT(ESP_MON_READ_NOC_QUEUE_FULL_PLANE) && args->noc_index < NOC_PLANES) {
        for (unsigned t = 0; t < nt; t++)
            print_qfull(fp, l, v, t, args->noc_index);
    }
#undef BIT
    smn_esp_api_set_status(SOCMON_OK);
}
