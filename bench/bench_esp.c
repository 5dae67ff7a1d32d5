/* bench_esp: what reading ESP's tile monitors costs, per call of the ESP
 * Monitors API (and per socmon device read), on 2x3, 4x4 and 8x8 SoCs.
 *
 * On silicon every monitor read is a NoC round trip, so bus accesses per call
 * are the figure that matters; each row shows them next to the accesses ESP's
 * reference library makes for the same call (it freezes every tile and reads
 * every monitor a mode covers, defined for the tile type or not, per
 * docs/esp.md), and the host time per call over the in-process model bus. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "drivers/esp/esp_driver.h"
#include "models/esp/esp_soc.h"
#include "socmon/socmon.h"
#include "compat/esp/esp_api.h"

typedef struct soc_counts {
    unsigned nt, ncpu, nmem, nacc, nacc_l2;
} soc_counts;

static soc_counts counts(const socmon_esp_soc_desc *d)
{
    unsigned idx[SOCMON_ESP_MAX_TILES];
    soc_counts c = {d->rows * d->cols, socmon_esp_desc_tiles_of(d, SOCMON_ESP_TILE_CPU, NULL, 0),
                    socmon_esp_desc_tiles_of(d, SOCMON_ESP_TILE_MEM, NULL, 0),
                    socmon_esp_desc_tiles_of(d, SOCMON_ESP_TILE_ACC, idx, SOCMON_ESP_MAX_TILES), 0};
    for (unsigned a = 0; a < c.nacc; a++)
        c.nacc_l2 += d->tiles[idx[a]].has_l2 != 0;
    return c;
}

/* The esp_monitor_vals_t layout soc_defs.h would give this SoC. */
static socmon_esp_api_layout layout_for(const socmon_esp_soc_desc *d)
{
    soc_counts c = counts(d);
    socmon_esp_api_layout l = {0};
    l.rows = d->rows;
    l.cols = d->cols;
    l.ntiles = c.nt;
    l.ncpu = c.ncpu;
    l.nmem = c.nmem;
    l.nacc = c.nacc;
    l.off_mem_reqs = 4u * c.nmem;
    l.off_l2 = l.off_mem_reqs + 32u * c.nmem;
    l.off_llc = l.off_l2 + 8u * c.nt;
    l.off_acc = l.off_llc + 8u * c.nmem;
    l.off_dvfs = l.off_acc + 24u * (c.nacc ? c.nacc : 1);
    l.off_inj = l.off_dvfs + 16u * c.nt;
    l.off_qfull = l.off_inj + 24u * c.nt;
    l.size = l.off_qfull + 120u * c.nt;
    return l;
}

/* Reads and writes of ESP's reference libmonitors for the same call. */
static void reference(const soc_counts *c, const esp_monitor_args_t *a, unsigned *r, unsigned *w)
{
    if (a->read_mode == ESP_MON_READ_SINGLE) {
        *r = 1;
        *w = 0;
        return;
    }
    *w = 2 * c->nt;   /* burst on and off in every tile, whatever is read */
    if (a->read_mode == ESP_MON_READ_ALL) {
        *r = 11 * c->nmem + 2 * (c->ncpu + c->nacc_l2) + 6 * c->nacc + 40 * c->nt;
        return;
    }
    static const unsigned per_bit_fixed[9] = {0, 0, 0, 0, 6, 4, 6, 30, 0};
    *r = 0;
    for (unsigned b = 0; b < 9; b++) {
        if (!(a->read_mask & (1u << b)))
            continue;
        *r += per_bit_fixed[b];
        if (b == 0)
            *r += c->nmem;
        if (b == 1)
            *r += 8 * c->nmem;
        if (b == 2)
            *r += 2 * (c->ncpu + c->nacc_l2);
        if (b == 3)
            *r += 2 * c->nmem;
        if (b == 8)
            *r += 5 * c->nt;
    }
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void row(const char *soc, const char *mode, const socmon_bus_stats *s, unsigned long calls,
                unsigned rr, unsigned rw, double ns)
{
    double reads = (double)s->reads / calls, writes = (double)s->writes / calls;
    printf("  %-5s %-24s %8.0f %7.0f %10u %8u %9.0f%% %10.0f\n", soc, mode, reads, writes, rr, rw,
           100.0 * (reads + writes) / (rr + rw), ns);
}

static int bench_api(const char *name, const socmon_esp_soc_desc *d)
{
    socmon_esp_api_layout l = layout_for(d);
    soc_counts c = counts(d);
    unsigned acc_idx[SOCMON_ESP_MAX_TILES], mem_idx[SOCMON_ESP_MAX_TILES];
    socmon_esp_desc_tiles_of(d, SOCMON_ESP_TILE_ACC, acc_idx, SOCMON_ESP_MAX_TILES);
    socmon_esp_desc_tiles_of(d, SOCMON_ESP_TILE_MEM, mem_idx, SOCMON_ESP_MAX_TILES);
    unsigned char *vals = calloc(1, l.size);
    if (!vals)
        return 1;
    unsigned ex3 = 1u << ESP_MON_READ_DDR_ACCESSES | 1u << ESP_MON_READ_L2_STATS |
                   1u << ESP_MON_READ_LLC_STATS | 1u << ESP_MON_READ_ACC_STATS |
                   1u << ESP_MON_READ_NOC_INJECTS | 1u << ESP_MON_READ_NOC_QUEUE_FULL_PLANE;
    const struct {
        const char *label;
        esp_monitor_args_t a;
    } modes[] = {
        {"SINGLE", {ESP_MON_READ_SINGLE, 0, (uint8_t)mem_idx[0], 0, 0, 0}},
        {"ALL", {ESP_MON_READ_ALL, 0, 0, 0, 0, 0}},
        {"MANY guide example 3", {ESP_MON_READ_MANY, (uint16_t)ex3, (uint8_t)acc_idx[0], 0, 0, 0}},
        {"MANY DDR only", {ESP_MON_READ_MANY, 1, 0, 0, 0, 0}},
        {"MANY queue-full plane", {ESP_MON_READ_MANY, 1u << 8, 0, 0, 0, 0}},
    };
    for (size_t m = 0; m < sizeof modes / sizeof modes[0]; m++) {
        const esp_monitor_args_t *a = &modes[m].a;
        socmon_esp_api_monitor(&l, a, vals);   /* maps on first use */
        if (esp_monitor_status() != SOCMON_OK) {
            fprintf(stderr, "bench_esp: %s %s: %s\n", name, modes[m].label, esp_monitor_errmsg());
            free(vals);
            return 1;
        }
        socmon_bus *bus = smn_esp_api_bus();
        socmon_bus_stats_reset(bus);
        unsigned long calls = 0;
        double t0 = now_s(), t1 = t0;
        while (t1 - t0 < 0.1 && calls < 200000) {
            for (int k = 0; k < 16; k++)
                socmon_esp_api_monitor(&l, a, vals);
            calls += 16;
            t1 = now_s();
        }
        socmon_bus_stats s;
        socmon_bus_stats_get(bus, &s);
        unsigned rr, rw;
        reference(&c, a, &rr, &rw);
        row(name, modes[m].label, &s, calls, rr, rw, (t1 - t0) * 1e9 / calls);
    }
    free(vals);
    return 0;
}

/* The same snapshot protocol through the core: a set of every counter. */
static int bench_device(const char *name, const socmon_esp_soc_desc *d)
{
    socmon_bus *bus = NULL;
    socmon_esp_soc *soc = NULL;
    socmon_device *dev = NULL;
    socmon_set *set = NULL;
    socmon_sample s = {0};
    int rc = 1;
    if (socmon_bus_model_new(&bus) || smn_esp_soc_new(d, &soc) || smn_esp_soc_map(soc, bus) ||
        smn_esp_device_new(bus, d, "esp", 1, &dev) || socmon_set_new(dev, NULL, &set) ||
        socmon_sample_alloc(set, &s)) {
        fprintf(stderr, "bench_esp: %s device: %s\n", name, socmon_errmsg());
        goto out;
    }
    socmon_bus_stats_reset(bus);
    unsigned long calls = 0;
    double t0 = now_s(), t1 = t0;
    while (t1 - t0 < 0.1 && calls < 200000) {
        for (int k = 0; k < 16; k++)
            socmon_set_read(set, 0, &s);
        calls += 16;
        t1 = now_s();
    }
    socmon_bus_stats st;
    socmon_bus_stats_get(bus, &st);
    soc_counts c = counts(d);
    esp_monitor_args_t all = {ESP_MON_READ_ALL, 0, 0, 0, 0, 0};
    unsigned rr, rw;
    reference(&c, &all, &rr, &rw);
    char label[48];
    snprintf(label, sizeof label, "device read, %zu ctrs", socmon_set_size(set));
    row(name, label, &st, calls, rr, rw, (t1 - t0) * 1e9 / calls);
    rc = 0;
out:
    socmon_sample_free(&s);
    socmon_set_free(set);
    socmon_device_free(dev);
    socmon_bus_free(bus);
    smn_esp_soc_free(soc);
    return rc;
}

int main(void)
{
    /* socs/ next to this file's directory (CMake compiles it by absolute path). */
    char socs[1024];
    const char *src = getenv("SOCMON_SRC");
    if (src)
        snprintf(socs, sizeof socs, "%s/socs", src);
    else {
        snprintf(socs, sizeof socs, "%s", __FILE__);
        char *slash = strrchr(socs, '/');
        if (slash)
            strcpy(slash, "/../socs");
        else
            strcpy(socs, "socs");
    }
    printf("ESP tile monitors: bus accesses and host time per call (virtual SoC, model bus)\n");
    printf("  'ref' = ESP's reference libmonitors for the same call; 'share' = our accesses / ref\n\n");
    printf("  %-5s %-24s %8s %7s %10s %8s %10s %10s\n", "soc", "call", "reads", "writes",
           "ref reads", "ref wr", "share", "ns/call");
    const char *names[] = {"2x3", "4x4", "8x8"};
    int rc = 0;
    for (int i = 0; i < 3; i++) {
        socmon_esp_soc_desc d;
        char path[1100];
        if (i == 0) {
            socmon_esp_soc_desc_default(&d);
            unsetenv("SOCMON_ESP_SOC");
        } else {
            snprintf(path, sizeof path, "%s/esp_%s.soc", socs, names[i]);
            if (socmon_esp_soc_desc_load(path, &d) != SOCMON_OK) {
                printf("  %-5s skipped: %s\n", names[i], socmon_errmsg());
                continue;
            }
            setenv("SOCMON_ESP_SOC", path, 1);
        }
        esp_monitor_free();   /* next call maps the SoC named above */
        rc |= bench_api(names[i], &d);
        rc |= bench_device(names[i], &d);
    }
    esp_monitor_free();
    return rc;
}
