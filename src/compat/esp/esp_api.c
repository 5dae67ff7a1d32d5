/* The ESP Monitors API's process-wide state and the calls that use it.
 *
 * ESP's API has no handle: esp_monitor maps the monitors on first use and
 * esp_monitor_free unmaps them. So this file holds the one piece of
 * process-wide mutable state in socmon, `ctx` below, which source
 * compatibility requires; it is guarded by a mutex. Everything it holds is
 * socmon's public objects: an opened "esp" target (the virtual SoC, or
 * silicon with devmem=1), whose device reads the monitors with the driver's
 * own freeze protocol (socmon_esp_monitors_read) and whose model runs
 * esp_run's accelerators. No register is touched here. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "libesp.h"
#include "socmon/esp.h"
#include "socmon/target.h"
#include "compat/esp/esp_api.h"

#define GRAVEYARD 64   /* freed vals blocks remembered to catch use after free */

typedef struct vals_node {
    void *vals;
    size_t size;
    struct vals_node *next;
} vals_node;

typedef struct buf_node {
    void *buf;
    size_t size;
    struct buf_node *next;
} buf_node;

static struct esp_api_ctx {
    pthread_mutex_t lock;
    int have_desc;
    smn_esp_api_soc info;               /* the SoC as the user sees it (real monitor base) */
    socmon_esp_api_layout checked;           /* last layout found to match desc */
    int have_checked;
    int mapped;
    int devmem;
    socmon_target *t;               /* the "esp" target the monitors are read through */
    socmon_esp_soc *soc;            /* its model: virtual SoC only */
    unsigned char *scratch;         /* a result is built here, then copied out */
    size_t scratch_size;
    unsigned *tiles, *mons;         /* one call's planned reads: (tile, monitor)... */
    size_t *dst, *dst2;             /* ...and where each word goes in the result */
    uint32_t *words;
    size_t nplan, plan_cap;
    vals_node *allocs;              /* esp_monitor_vals_alloc results */
    void *freed[GRAVEYARD];         /* freed by esp_monitor_free, kept poisoned */
    unsigned nfreed;
    buf_node *bufs;                 /* esp_alloc buffers */
} ctx = {.lock = PTHREAD_MUTEX_INITIALIZER};

/* Like errno and socmon_errmsg: each thread sees its own last status. */
static _Thread_local socmon_status last_status;

socmon_status smn_esp_api_set_status(socmon_status st)
{
    last_status = st;
    return st;
}

socmon_status esp_monitor_status(void)
{
    return last_status;
}

const char *esp_monitor_errmsg(void)
{
    return last_status == SOCMON_OK ? "" : socmon_errmsg();
}

/* ---- SoC description and mapping ---- */

static socmon_status load_desc(void)
{
    if (ctx.have_desc)
        return SOCMON_OK;
    const char *path = getenv("SOCMON_ESP_SOC");
    socmon_status st;
    if (path && *path) {
        st = socmon_esp_soc_desc_load(path, &ctx.info.desc);
        if (st != SOCMON_OK)
            return socmon_fail_prefix(st, "SOCMON_ESP_SOC: ");
    } else {
        socmon_esp_soc_desc_default(&ctx.info.desc);
    }
    if ((st = socmon_esp_desc_check(&ctx.info.desc)) != SOCMON_OK)
        return st;
    smn_esp_api_soc_init(&ctx.info);
    ctx.have_checked = 0;
    ctx.have_desc = 1;
    return SOCMON_OK;
}

socmon_status smn_esp_api_check_layout(const socmon_esp_api_layout *l, const socmon_esp_soc_desc *d)
{
    unsigned ncpu = socmon_esp_desc_tiles_of(d, SOCMON_ESP_TILE_CPU, NULL, 0);
    unsigned nmem = socmon_esp_desc_tiles_of(d, SOCMON_ESP_TILE_MEM, NULL, 0);
    unsigned nacc = socmon_esp_desc_tiles_of(d, SOCMON_ESP_TILE_ACC, NULL, 0);
    if (l->rows != d->rows || l->cols != d->cols || l->ntiles != d->rows * d->cols ||
        l->ncpu != ncpu || l->nmem != nmem || l->nacc != nacc)
        return socmon_fail(SOCMON_ESTATE,
                           "soc_defs.h describes a %ux%u SoC with %u CPU, %u memory and %u "
                           "accelerator tiles, but the SoC in use is %ux%u with %u, %u and %u: "
                           "regenerate soc_defs.h (tools/esp_socdefs) or set SOCMON_ESP_SOC",
                           l->rows, l->cols, l->ncpu, l->nmem, l->nacc, d->rows, d->cols, ncpu,
                           nmem, nacc);
    return SOCMON_OK;
}

socmon_status smn_esp_api_desc(const socmon_esp_api_layout *l, socmon_esp_soc_desc *out)
{
    pthread_mutex_lock(&ctx.lock);
    socmon_status st = load_desc();
    if (st == SOCMON_OK)
        st = smn_esp_api_check_layout(l, &ctx.info.desc);
    if (st == SOCMON_OK)
        *out = ctx.info.desc;
    pthread_mutex_unlock(&ctx.lock);
    return st;
}

static socmon_status parse_devmem(const char *spec, uint64_t *base)
{
    if (strcmp(spec, "devmem") == 0)
        return SOCMON_OK;
    if (strncmp(spec, "devmem:", 7) == 0) {
        char *end = NULL;
        unsigned long long v = strtoull(spec + 7, &end, 0);
        if (end != spec + 7 && *end == '\0' && v % 4 == 0) {
            *base = v;
            return SOCMON_OK;
        }
    }
    return socmon_fail(SOCMON_EINVAL,
                       "SOCMON_ESP '%s' not understood (valid: virtual, devmem, devmem:BASE "
                       "with BASE a 4-byte-aligned address such as 0x60090000)", spec);
}

static void unmap(void)
{
    socmon_target_close(ctx.t);
    ctx.t = NULL;
    ctx.soc = NULL;
    ctx.mapped = 0;
    ctx.devmem = 0;
}

/* Opens the "esp" target as the environment asks: the SoC of SOCMON_ESP_SOC (or the built-in
 * one), on the virtual SoC or, with SOCMON_ESP=devmem[:BASE], on the monitors mapped from
 * SOCMON_ESP_DEVMEM (default /dev/mem) at BASE (default: the SoC's monitor base). */
static socmon_status map(void)
{
    if (ctx.mapped)
        return SOCMON_OK;
    socmon_status st = load_desc();
    if (st != SOCMON_OK)
        return st;
    socmon_kv kv[4];
    size_t nkv = 0;
    char basebuf[32];
    const char *soc = getenv("SOCMON_ESP_SOC");
    if (soc && *soc)
        kv[nkv++] = (socmon_kv){.key = "soc", .value = soc};
    const char *mode = getenv("SOCMON_ESP");
    if (mode && *mode && strcmp(mode, "virtual") != 0) {
        uint64_t base = ctx.info.desc.monitor_base;
        if ((st = parse_devmem(mode, &base)) != SOCMON_OK)
            return st;
        /* SOCMON_ESP_DEVMEM names another device or file (e.g. /dev/uio0, or
         * a plain file in tests); the default is ESP Linux's /dev/mem. */
        const char *dev = getenv("SOCMON_ESP_DEVMEM");
        snprintf(basebuf, sizeof basebuf, "0x%llx", (unsigned long long)base);
        kv[nkv++] = (socmon_kv){.key = "devmem", .value = "1"};
        kv[nkv++] = (socmon_kv){.key = "dev", .value = dev && *dev ? dev : "/dev/mem"};
        kv[nkv++] = (socmon_kv){.key = "base", .value = basebuf};
        ctx.devmem = 1;
    }
    if ((st = socmon_target_open_kv("esp", kv, nkv, &ctx.t)) != SOCMON_OK) {
        int hw = ctx.devmem;
        ctx.t = NULL;
        ctx.devmem = 0;
        return hw ? socmon_fail_prefix(st, "esp_monitor: mapping the monitors: ") : st;
    }
    ctx.soc = socmon_esp_soc_of_target(ctx.t);
    ctx.mapped = 1;
    return SOCMON_OK;
}

socmon_esp_soc *smn_esp_api_virtual_soc(void)
{
    pthread_mutex_lock(&ctx.lock);
    socmon_esp_soc *soc = map() == SOCMON_OK ? ctx.soc : NULL;
    pthread_mutex_unlock(&ctx.lock);
    return soc;
}

socmon_bus *smn_esp_api_bus(void)
{
    pthread_mutex_lock(&ctx.lock);
    socmon_bus *bus = map() == SOCMON_OK ? socmon_target_bus(ctx.t) : NULL;
    pthread_mutex_unlock(&ctx.lock);
    return bus;
}

/* ---- esp_monitor ---- */

/* Collects the plan's reads into ctx's arrays (grown as needed). */
static void emit_plan(void *user, unsigned tile, unsigned mon, size_t dst, size_t dst2)
{
    socmon_status *st = user;
    if (*st != SOCMON_OK)
        return;
    if (ctx.nplan == ctx.plan_cap) {
        size_t cap = ctx.plan_cap ? 2 * ctx.plan_cap : 256;
        unsigned *t = realloc(ctx.tiles, cap * sizeof *t);
        if (t)
            ctx.tiles = t;
        unsigned *m = realloc(ctx.mons, cap * sizeof *m);
        if (m)
            ctx.mons = m;
        size_t *d = realloc(ctx.dst, cap * sizeof *d);
        if (d)
            ctx.dst = d;
        size_t *d2 = realloc(ctx.dst2, cap * sizeof *d2);
        if (d2)
            ctx.dst2 = d2;
        uint32_t *w = realloc(ctx.words, cap * sizeof *w);
        if (w)
            ctx.words = w;
        if (!t || !m || !d || !d2 || !w) {
            *st = socmon_fail(SOCMON_ENOMEM, "esp_monitor: out of memory");
            return;
        }
        ctx.plan_cap = cap;
    }
    ctx.tiles[ctx.nplan] = tile;
    ctx.mons[ctx.nplan] = mon;
    ctx.dst[ctx.nplan] = dst;
    ctx.dst2[ctx.nplan] = dst2;
    ctx.nplan++;
}

static void free_plan(void)
{
    free(ctx.tiles);
    free(ctx.mons);
    free(ctx.dst);
    free(ctx.dst2);
    free(ctx.words);
    ctx.tiles = ctx.mons = NULL;
    ctx.dst = ctx.dst2 = NULL;
    ctx.words = NULL;
    ctx.nplan = ctx.plan_cap = 0;
}

static int is_freed(const void *p)
{
    for (unsigned i = 0; i < ctx.nfreed && i < GRAVEYARD; i++)
        if (ctx.freed[i] == p)
            return 1;
    return 0;
}

static socmon_status monitor_locked(const socmon_esp_api_layout *l, const esp_monitor_args_t *a,
                                    void *vals, unsigned *ret)
{
    socmon_status st = load_desc();
    /* SINGLE writes no vals and takes a global tile index: the layout does not matter. */
    if (st == SOCMON_OK && a->read_mode != ESP_MON_READ_SINGLE &&
        !(ctx.have_checked && memcmp(&ctx.checked, l, sizeof *l) == 0)) {
        st = smn_esp_api_check_layout(l, &ctx.info.desc);
        ctx.have_checked = st == SOCMON_OK;
        if (st == SOCMON_OK)
            ctx.checked = *l;
    }
    if (st == SOCMON_OK)
        st = smn_esp_api_check_args(&ctx.info, a, vals);
    if (st == SOCMON_OK && a->read_mode != ESP_MON_READ_SINGLE && is_freed(vals))
        st = socmon_fail(SOCMON_ESTATE, "esp_monitor: vals %p was freed by esp_monitor_free "
                                        "(use after free)", vals);
    if (st == SOCMON_OK)
        st = map();
    if (st != SOCMON_OK)
        return st;
    socmon_device *dev = socmon_target_device(ctx.t);
    if (a->read_mode == ESP_MON_READ_SINGLE) {
        /* A live read, as ESP defines it: no snapshot, one bus access. */
        uint32_t v = 0;
        st = socmon_esp_monitor_read_live(dev, a->tile_index, a->mon_index, &v);
        *ret = st == SOCMON_OK ? v : 0;
        return st;
    }
    if (ctx.scratch_size < l->size) {
        unsigned char *p = realloc(ctx.scratch, l->size);
        if (!p)
            return socmon_fail(SOCMON_ENOMEM, "esp_monitor: out of memory");
        ctx.scratch = p;
        ctx.scratch_size = l->size;
    }
    memset(ctx.scratch, 0, l->size);
    ctx.nplan = 0;
    smn_esp_api_plan(&ctx.info, l, a, emit_plan, &st);
    /* One snapshot of every tile the call reads (the driver freezes each
     * once, reads, releases): values of one tile are from one instant. */
    if (st == SOCMON_OK)
        st = socmon_esp_monitors_read(dev, ctx.nplan, ctx.tiles, ctx.mons, ctx.words);
    if (st != SOCMON_OK)
        return st;
    for (size_t i = 0; i < ctx.nplan; i++) {
        memcpy(ctx.scratch + ctx.dst[i], &ctx.words[i], sizeof ctx.words[i]);
        if (ctx.dst2[i] != SOCMON_ESP_API_NO_DST)
            memcpy(ctx.scratch + ctx.dst2[i], &ctx.words[i], sizeof ctx.words[i]);
    }
    memcpy(vals, ctx.scratch, l->size);
    *ret = 0;
    return SOCMON_OK;
}

unsigned int socmon_esp_api_monitor(const socmon_esp_api_layout *l, const esp_monitor_args_t *args,
                                    void *vals)
{
    unsigned ret = 0;
    pthread_mutex_lock(&ctx.lock);
    socmon_status st = monitor_locked(l, args, vals, &ret);
    pthread_mutex_unlock(&ctx.lock);
    smn_esp_api_set_status(st);
    return st == SOCMON_OK ? ret : 0;
}

/* ---- allocation and teardown ---- */

void *socmon_esp_api_vals_alloc(const socmon_esp_api_layout *l)
{
    vals_node *n = malloc(sizeof *n);
    void *v = calloc(1, l->size);
    if (!n || !v) {
        free(n);
        free(v);
        socmon_fail(SOCMON_ENOMEM, "esp_monitor_vals_alloc: out of memory (%zu bytes)", l->size);
        smn_esp_api_set_status(SOCMON_ENOMEM);
        return NULL;
    }
    n->vals = v;
    n->size = l->size;
    pthread_mutex_lock(&ctx.lock);
    n->next = ctx.allocs;
    ctx.allocs = n;
    /* A fresh block may reuse a freed address: it is not freed any more. */
    for (unsigned i = 0; i < ctx.nfreed && i < GRAVEYARD; i++)
        if (ctx.freed[i] == v)
            ctx.freed[i] = NULL;
    pthread_mutex_unlock(&ctx.lock);
    smn_esp_api_set_status(SOCMON_OK);
    return v;
}

void esp_monitor_free(void)
{
    pthread_mutex_lock(&ctx.lock);
    if (ctx.mapped)
        socmon_esp_monitors_release(socmon_target_device(ctx.t));
    unmap();
    free_plan();
    while (ctx.allocs) {
        vals_node *n = ctx.allocs;
        ctx.allocs = n->next;
        /* Keep the last GRAVEYARD blocks allocated (their addresses cannot be
         * handed out again) so esp_monitor can name a use after free. */
        unsigned slot = ctx.nfreed % GRAVEYARD;
        if (ctx.nfreed >= GRAVEYARD)
            free(ctx.freed[slot]);
        ctx.freed[slot] = n->vals;
        ctx.nfreed++;
        free(n);
    }
    free(ctx.scratch);
    ctx.scratch = NULL;
    ctx.scratch_size = 0;
    /* The SoC description is read again on the next mapping, so a changed
     * SOCMON_ESP_SOC takes effect. */
    ctx.have_desc = 0;
    pthread_mutex_unlock(&ctx.lock);
    smn_esp_api_set_status(SOCMON_OK);
}

/* ---- libesp shims: buffers and accelerator runs on the virtual SoC ---- */

void *esp_alloc(size_t size)
{
    buf_node *n = malloc(sizeof *n);
    void *b = calloc(1, size ? size : 1);
    if (!n || !b) {
        free(n);
        free(b);
        smn_esp_api_set_status(
            socmon_fail(SOCMON_ENOMEM, "esp_alloc: out of memory (%zu bytes)", size));
        return NULL;
    }
    n->buf = b;
    n->size = size;
    pthread_mutex_lock(&ctx.lock);
    n->next = ctx.bufs;
    ctx.bufs = n;
    pthread_mutex_unlock(&ctx.lock);
    smn_esp_api_set_status(SOCMON_OK);
    return b;
}

void esp_free(void *buf)
{
    if (!buf)
        return;
    pthread_mutex_lock(&ctx.lock);
    socmon_status st = SOCMON_OK;
    buf_node **pp = &ctx.bufs;
    while (*pp && (*pp)->buf != buf)
        pp = &(*pp)->next;
    if (*pp) {
        buf_node *n = *pp;
        *pp = n->next;
        free(n->buf);
        free(n);
    } else {
        st = socmon_fail(SOCMON_EINVAL, "esp_free: %p is not a live esp_alloc buffer", buf);
    }
    pthread_mutex_unlock(&ctx.lock);
    smn_esp_api_set_status(st);
}

void esp_cleanup(void)
{
    pthread_mutex_lock(&ctx.lock);
    while (ctx.bufs) {
        buf_node *n = ctx.bufs;
        ctx.bufs = n->next;
        free(n->buf);
        free(n);
    }
    pthread_mutex_unlock(&ctx.lock);
    smn_esp_api_set_status(SOCMON_OK);
}

/* "fft_stratus.1" -> the second accelerator tile named "fft_stratus", or
 * named "fft" (a prefix followed by '_'). */
static socmon_status find_acc(const char *devname, unsigned *ordinal)
{
    if (!devname)
        return socmon_fail(SOCMON_EINVAL, "esp_run: devname is NULL");
    const char *dot = strrchr(devname, '.');
    size_t stem = dot ? (size_t)(dot - devname) : strlen(devname);
    unsigned k = 0;
    if (dot) {
        char *end = NULL;
        unsigned long v = strtoul(dot + 1, &end, 10);
        if (end == dot + 1 || *end || v > SOCMON_ESP_MAX_TILES)
            return socmon_fail(SOCMON_EINVAL, "esp_run: devname '%s': expected NAME.INDEX", devname);
        k = (unsigned)v;
    }
    const unsigned *idx = ctx.info.acc;
    unsigned nacc = ctx.info.nacc;
    unsigned seen = 0;
    for (unsigned a = 0; a < nacc; a++) {
        const char *name = ctx.info.desc.tiles[idx[a]].name;
        size_t len = strlen(name);
        int match = len > 0 && len <= stem && strncmp(devname, name, len) == 0 &&
                    (len == stem || devname[len] == '_');
        if (match && seen++ == k) {
            *ordinal = a;
            return SOCMON_OK;
        }
    }
    return socmon_fail(SOCMON_ENOENT,
                       "esp_run: devname '%s' matches no accelerator of the SoC (%u tiles named "
                       "like '%.*s'; index %u requested)", devname, seen, (int)stem, devname, k);
}

static size_t buf_size(const void *buf)
{
    for (buf_node *n = ctx.bufs; n; n = n->next)
        if (n->buf == buf)
            return n->size;
    return 0;
}

static const socmon_esp_coherence coh_map[] = {
    [ACC_COH_NONE] = SOCMON_ESP_COH_NONE,
    [ACC_COH_LLC] = SOCMON_ESP_COH_LLC,
    [ACC_COH_RECALL] = SOCMON_ESP_COH_DMA,
    [ACC_COH_FULL] = SOCMON_ESP_COH_FULL,
    [ACC_COH_AUTO] = SOCMON_ESP_COH_LLC,   /* ESP's runtime picks; LLC-coherent is its usual pick */
};

static socmon_status run_one(esp_thread_info_t *c)
{
    unsigned acc = 0;
    socmon_status st = find_acc(c->devname, &acc);
    if (st != SOCMON_OK)
        return st;
    enum accelerator_coherence coh = c->esp_desc ? c->esp_desc->coherence : ACC_COH_NONE;
    if ((unsigned)coh > ACC_COH_AUTO)
        return socmon_fail(SOCMON_EINVAL, "esp_run: %s: coherence %d unknown (0..4)", c->devname,
                           (int)coh);
    size_t bytes = c->esp_desc && c->esp_desc->footprint ? c->esp_desc->footprint
                                                          : buf_size(c->hw_buf);
    if (bytes == 0)
        return socmon_fail(SOCMON_EINVAL, "esp_run: %s: no footprint and hw_buf %p is not an "
                                          "esp_alloc buffer: how many bytes does it move?",
                           c->devname, c->hw_buf);
    uint64_t t0 = socmon_esp_soc_now_ns(ctx.soc);
    socmon_esp_coherence mode = coh_map[coh];
    /* As ESP's esp_run: private caches are flushed before a DMA that does not
     * recall them, and the LLC too before a non-coherent one. */
    if (mode == SOCMON_ESP_COH_NONE || mode == SOCMON_ESP_COH_LLC)
        st = socmon_esp_soc_flush(ctx.soc, mode == SOCMON_ESP_COH_NONE);
    if (st == SOCMON_OK)
        st = socmon_esp_soc_acc_invoke(ctx.soc, acc, bytes, mode);
    c->hw_ns = socmon_esp_soc_now_ns(ctx.soc) - t0;
    return st;
}

void esp_run(esp_thread_info_t cfg[], unsigned nacc)
{
    pthread_mutex_lock(&ctx.lock);
    socmon_status st = cfg || nacc == 0 ? map() : socmon_fail(SOCMON_EINVAL, "esp_run: cfg is NULL");
    if (st == SOCMON_OK && ctx.devmem)
        st = socmon_fail(SOCMON_ENOTSUP, "esp_run: runs accelerators of the virtual SoC only "
                                         "(SOCMON_ESP selects hardware; use ESP's own libesp there)");
    for (unsigned i = 0; i < nacc && st == SOCMON_OK; i++)
        if (cfg[i].run)
            st = run_one(&cfg[i]);
    pthread_mutex_unlock(&ctx.lock);
    smn_esp_api_set_status(st);
}
