/* ESP Monitors API: what a call reads. Validates esp_monitor's arguments and
 * turns a mode and mask into the list of (tile, monitor, destination) reads,
 * skipping monitors undefined for a tile's type. Stateless. */
#include <string.h>

#include "compat/esp/esp_api.h"
#include "socmon/esp.h"

void smn_esp_api_soc_init(smn_esp_api_soc *s)
{
    const socmon_esp_soc_desc *d = &s->desc;
    s->nmem = socmon_esp_desc_tiles_of(d, SOCMON_ESP_TILE_MEM, s->mem, SOCMON_ESP_MAX_TILES);
    s->nacc = socmon_esp_desc_tiles_of(d, SOCMON_ESP_TILE_ACC, s->acc, SOCMON_ESP_MAX_TILES);
    for (unsigned t = 0; t < d->rows * d->cols; t++) {
        s->defined[t] = 0;
        for (unsigned m = 0; m < SOCMON_ESP_NMON; m++)
            if (socmon_esp_mon_defined(d, t, m))
                s->defined[t] |= (uint64_t)1 << m;
    }
}

socmon_status smn_esp_api_check_args(const smn_esp_api_soc *s, const esp_monitor_args_t *a,
                                 const void *vals)
{
    unsigned nt = s->desc.rows * s->desc.cols;
    unsigned nacc = s->nacc;
    switch (a->read_mode) {
    case ESP_MON_READ_SINGLE:
        if (a->tile_index >= nt)
            return socmon_fail(SOCMON_ERANGE, "esp_monitor: tile_index %u out of range 0..%u",
                               a->tile_index, nt - 1);
        if (a->mon_index >= SOCMON_ESP_NMON)
            return socmon_fail(SOCMON_ERANGE, "esp_monitor: mon_index %u out of range 0..%u",
                               a->mon_index, SOCMON_ESP_NMON - 1);
        return SOCMON_OK;
    case ESP_MON_READ_ALL:
    case ESP_MON_READ_MANY:
        break;
    default:
        return socmon_fail(SOCMON_EINVAL,
                           "esp_monitor: read_mode %d unknown (0 ALL, 1 SINGLE, 2 MANY)",
                           (int)a->read_mode);
    }
    if (!vals)
        return socmon_fail(SOCMON_EINVAL, "esp_monitor: vals is NULL (ALL and MANY modes "
                                          "write their results there)");
    if (a->read_mode == ESP_MON_READ_ALL)
        return SOCMON_OK;
    unsigned m = a->read_mask;
    if (m & ~0x1ffu)
        return socmon_fail(SOCMON_ERANGE,
                           "esp_monitor: read_mask 0x%x has unknown bits 0x%x (valid bits 0..8, "
                           "mask 0x1ff)", m, m & ~0x1ffu);
    if ((m & (1u << ESP_MON_READ_ACC_STATS)) && a->acc_index >= nacc) {
        if (nacc == 0)
            return socmon_fail(SOCMON_ERANGE, "esp_monitor: acc_index %u: the SoC has no "
                                              "accelerators", a->acc_index);
        return socmon_fail(SOCMON_ERANGE, "esp_monitor: acc_index %u out of range 0..%u",
                           a->acc_index, nacc - 1);
    }
    unsigned tile_bits = (1u << ESP_MON_READ_DVFS_OP) | (1u << ESP_MON_READ_NOC_INJECTS) |
                         (1u << ESP_MON_READ_NOC_QUEUE_FULL_TILE);
    if ((m & tile_bits) && a->tile_index >= nt)
        return socmon_fail(SOCMON_ERANGE, "esp_monitor: tile_index %u out of range 0..%u",
                           a->tile_index, nt - 1);
    if ((m & (1u << ESP_MON_READ_NOC_QUEUE_FULL_PLANE)) && a->noc_index >= NOC_PLANES)
        return socmon_fail(SOCMON_ERANGE, "esp_monitor: noc_index %u out of range 0..%u",
                           a->noc_index, NOC_PLANES - 1);
    return SOCMON_OK;
}

void smn_esp_api_plan(const smn_esp_api_soc *s, const socmon_esp_api_layout *l,
                  const esp_monitor_args_t *a, socmon_esp_api_emit_fn emit, void *user)
{
    const socmon_esp_soc_desc *d = &s->desc;
    const size_t none = SOCMON_ESP_API_NO_DST;
    int all = a->read_mode == ESP_MON_READ_ALL;
    unsigned mask = all ? 0x1ffu : a->read_mask;
    const unsigned *idx = s->mem;
    unsigned nt = d->rows * d->cols;
#define EMIT(t, m, dst, dst2)                                                                  \
    do {                                                                                       \
        if (s->defined[t] & ((uint64_t)1 << (m)))                                             \
            emit(user, (t), (m), (dst), (dst2));                                               \
    } while (0)
    for (unsigned m = 0; m < s->nmem; m++) {
        if (mask & (1u << ESP_MON_READ_DDR_ACCESSES))
            EMIT(idx[m], SOCMON_ESP_MON_DDR, 4u * m, none);
        if (mask & (1u << ESP_MON_READ_MEM_REQS))
            for (unsigned k = 0; k < 8; k++)
                EMIT(idx[m], SOCMON_ESP_MON_COH_REQ + k, l->off_mem_reqs + 32u * m + 4u * k, none);
        /* LLC counts go to llc_stats[m] and, as ESP's library puts them, to
         * l2_stats[memory tile]. */
        if (mask & (1u << ESP_MON_READ_LLC_STATS))
            for (unsigned k = 0; k < 2; k++)
                EMIT(idx[m], SOCMON_ESP_MON_LLC_HIT + k, l->off_llc + 8u * m + 4u * k,
                     l->off_l2 + 8u * idx[m] + 4u * k);
    }
    if (mask & (1u << ESP_MON_READ_L2_STATS))
        for (unsigned t = 0; t < nt; t++)
            if (d->tiles[t].type != SOCMON_ESP_TILE_MEM)
                for (unsigned k = 0; k < 2; k++)
                    EMIT(t, SOCMON_ESP_MON_L2_HIT + k, l->off_l2 + 8u * t + 4u * k, none);
    if (mask & (1u << ESP_MON_READ_ACC_STATS)) {
        idx = s->acc;
        for (unsigned x = 0; x < s->nacc; x++)
            if (all || x == a->acc_index)
                for (unsigned k = 0; k < 6; k++)
                    EMIT(idx[x], SOCMON_ESP_MON_ACC_TLB + k, l->off_acc + 24u * x + 4u * k, none);
    }
    for (unsigned t = 0; t < nt; t++) {
        int this_tile = all || t == a->tile_index;
        if (this_tile && (mask & (1u << ESP_MON_READ_DVFS_OP)))
            for (unsigned p = 0; p < DVFS_OP_POINTS; p++)
                EMIT(t, SOCMON_ESP_MON_DVFS + p, l->off_dvfs + 4u * (t * DVFS_OP_POINTS + p), none);
        if (this_tile && (mask & (1u << ESP_MON_READ_NOC_INJECTS)))
            for (unsigned p = 0; p < NOC_PLANES; p++)
                EMIT(t, SOCMON_ESP_MON_NOC_INJ + p, l->off_inj + 4u * (t * NOC_PLANES + p), none);
        for (unsigned p = 0; p < NOC_PLANES; p++) {
            int want = (this_tile && (mask & (1u << ESP_MON_READ_NOC_QUEUE_FULL_TILE))) ||
                       (p == a->noc_index && (mask & (1u << ESP_MON_READ_NOC_QUEUE_FULL_PLANE)));
            if (want)
                for (unsigned q = 0; q < NOC_QUEUES; q++)
                    EMIT(t, SOCMON_ESP_MON_NOC_QFULL + p * NOC_QUEUES + q,
                         l->off_qfull + 4u * ((t * NOC_PLANES + p) * NOC_QUEUES + q), none);
        }
    }
#undef EMIT
}
