/* The recording bus: every access of an inner bus, reported as it completes.
 *
 * It sits between a driver and its real bus, so the trace shows exactly what
 * the driver did (the CLI's --trace-bus), failed accesses included. The inner
 * bus is not owned: the caller frees it after the recording bus. */
#include <inttypes.h>
#include <stdlib.h>

#include "bus/bus_internal.h"
#include "core/error.h"
#include "socmon/bus.h"

typedef struct recorder {
    socmon_bus *inner;
    socmon_bus_access_fn fn;      /* one of the two is set */
    socmon_bus_check_fn check;
    void *user;
} recorder;

/* Reports a completed access; returns its status, or the checking callback's. */
static socmon_status report(recorder *r, char op, uint64_t addr, uint64_t val, socmon_status st, unsigned bits)
{
    socmon_bus_access acc = {.op = op, .addr = addr, .val = val, .st = st, .bits = bits};
    if (r->check)
        return r->check(r->user, &acc);
    r->fn(r->user, &acc);
    return st;
}

/* Forwards one access of `bits` (32, or 64 forwarded whole, so the trace
 * shows the access the driver made) and reports it. */
static socmon_status forward(recorder *r, char op, unsigned bits, uint64_t addr, uint64_t *val)
{
    socmon_status st;
    uint32_t v32 = (uint32_t)*val;
    if (op == 'R' && bits == 32) {
        v32 = 0;
        st = socmon_bus_read32(r->inner, addr, &v32);
        *val = v32;
    } else if (op == 'R') {
        *val = 0;
        st = socmon_bus_read64(r->inner, addr, val);
    } else {
        st = bits == 32 ? socmon_bus_write32(r->inner, addr, v32) : socmon_bus_write64(r->inner, addr, *val);
    }
    return report(r, op, addr, *val, st, bits);
}

static socmon_status rec_read32(void *priv, uint64_t addr, uint32_t *val)
{
    uint64_t v = 0;
    socmon_status st = forward(priv, 'R', 32, addr, &v);
    *val = (uint32_t)v;
    return st;
}

static socmon_status rec_write32(void *priv, uint64_t addr, uint32_t val)
{
    uint64_t v = val;
    return forward(priv, 'W', 32, addr, &v);
}

static socmon_status rec_read64(void *priv, uint64_t addr, uint64_t *val)
{
    return forward(priv, 'R', 64, addr, val);
}

static socmon_status rec_write64(void *priv, uint64_t addr, uint64_t val)
{
    return forward(priv, 'W', 64, addr, &val);
}

static void rec_fence(void *priv)
{
    recorder *r = priv;
    socmon_bus_fence(r->inner);
    report(r, 'F', 0, 0, SOCMON_OK, 0);
}

static void rec_destroy(void *priv)
{
    free(priv);
}

static const socmon_bus_ops rec_ops = {
    .read32 = rec_read32,
    .write32 = rec_write32,
    .fence = rec_fence,
    .destroy = rec_destroy,
    .read64 = rec_read64,
    .write64 = rec_write64,
};

static socmon_status record_new(socmon_bus *inner, socmon_bus_access_fn fn, socmon_bus_check_fn check,
                                void *user, socmon_bus **out)
{
    if (!out)
        return socmon_fail(SOCMON_EINVAL, "record bus: out is NULL");
    *out = NULL;
    if (!inner)
        return socmon_fail(SOCMON_EINVAL, "record bus: inner bus is NULL");
    if (!fn && !check)
        return socmon_fail(SOCMON_EINVAL, "record bus: callback is NULL");
    recorder *r = malloc(sizeof *r);
    if (!r)
        return socmon_fail(SOCMON_ENOMEM, "record bus: out of memory");
    r->inner = inner;
    r->fn = fn;
    r->check = check;
    r->user = user;

    char name[256];
    snprintf(name, sizeof name, "record:%s", socmon_bus_name(inner));
    socmon_status st = socmon_bus_new(name, &rec_ops, r, out);
    if (st != SOCMON_OK)
        free(r);
    return st;
}

socmon_status socmon_bus_record_new(socmon_bus *inner, socmon_bus_access_fn fn, void *user,
                                    socmon_bus **out)
{
    return record_new(inner, fn, NULL, user, out);
}

socmon_status smn_bus_record_checked(socmon_bus *inner, socmon_bus_check_fn check, void *user,
                                        socmon_bus **out)
{
    return record_new(inner, NULL, check, user, out);
}

void *smn_bus_record_user(socmon_bus *bus, socmon_bus_check_fn check)
{
    recorder *r = smn_bus_backend_priv(bus, rec_read32);
    return r && check && r->check == check ? r->user : NULL;
}

/* One line per access, fixed-width hex so traces diff and grep well:
 *   R 0x00000104 = 0x0000002a
 *   W 0x00000100 = 0x00000001
 *   F
 * A failed access ends in " ! SOCMON_EIO" (its status name). */
int smn_bus_access_print(FILE *fp, const socmon_bus_access *acc)
{
    int r;
    if (acc->op == 'F')
        r = fputs("F", fp);
    else if (acc->bits == 64)
        r = fprintf(fp, "%c 0x%08" PRIx64 " = 0x%016" PRIx64, acc->op, acc->addr, acc->val);
    else
        r = fprintf(fp, "%c 0x%08" PRIx64 " = 0x%08" PRIx64, acc->op, acc->addr, acc->val);
    if (r >= 0 && acc->st != SOCMON_OK)
        r = fprintf(fp, " ! %s", socmon_status_name(acc->st));
    if (r >= 0)
        r = fputc('\n', fp);
    return r < 0 ? -1 : 0;
}

static void write_line(void *user, const socmon_bus_access *acc)
{
    smn_bus_access_print(user, acc);
}

socmon_status socmon_bus_record_file(socmon_bus *inner, FILE *fp, socmon_bus **out)
{
    if (!fp) {
        if (out)
            *out = NULL;
        return socmon_fail(SOCMON_EINVAL, "record bus: FILE is NULL");
    }
    return socmon_bus_record_new(inner, write_line, fp, out);
}
