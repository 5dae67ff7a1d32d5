/* One run over several targets on one clock (socmon_target_combine): the host program and the
 * device counters on one timeline.
 *
 * The device is the union of the members' counters, names unchanged (so each member's metric
 * file still binds; two members with a counter of the same full name are an error naming
 * both). Time: if any member is real (the host, a board), the combination is real and runs on
 * CLOCK_MONOTONIC; each model member is advanced by exactly the real time that passed, so its
 * simulated clock tracks the shared one from the run's start. All models: simulated time, all
 * advanced by the same steps. The run ends when the member that has a command (the host's)
 * ends, or else when the first member's workload ends. */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/clock.h"
#include "core/error.h"
#include "socmon/host.h"
#include "targets/target_internal.h"

#define MAX_MEMBERS 8

typedef struct member_ref {
    size_t m;      /* member */
    uint32_t idx;  /* its device's counter */
} member_ref;

typedef struct combined {
    socmon_target_ops ops;      /* this combination's own ops (impl: unused) */
    socmon_target *m[MAX_MEMBERS];
    size_t n;
    socmon_device *dev;
    member_ref *ref;
    int real;                   /* a member is real: the shared clock is CLOCK_MONOTONIC */
    int ender;                  /* the member whose end ends the run (-1: the first to end) */
} combined;

static socmon_status comb_read(void *p, const uint32_t *idx, size_t n, uint64_t *out)
{
    combined *c = p;
    /* one read per member, of the counters asked of it, in the order asked */
    uint32_t *sub = malloc((n + 1) * sizeof *sub);
    uint64_t *val = malloc((n + 1) * sizeof *val);
    size_t *pos = malloc((n + 1) * sizeof *pos);
    socmon_status st = sub && val && pos ? SOCMON_OK : socmon_fail(SOCMON_ENOMEM, "combined: out of memory");
    for (size_t mb = 0; mb < c->n && st == SOCMON_OK; mb++) {
        size_t k = 0;
        for (size_t i = 0; i < n; i++)
            if (c->ref[idx[i]].m == mb) {
                sub[k] = c->ref[idx[i]].idx;
                pos[k++] = i;
            }
        if (!k)
            continue;
        st = socmon_device_read(socmon_target_device(c->m[mb]), sub, k, val);
        for (size_t j = 0; j < k && (st == SOCMON_OK || st == SOCMON_EUNDEF); j++)
            out[pos[j]] = val[j];
    }
    free(sub);
    free(val);
    free(pos);
    return st;
}

static void comb_free_members(combined *c)
{
    for (size_t i = 0; i < c->n; i++)
        socmon_target_close(c->m[i]);
    free(c->ref);
    free(c);
}

static void comb_close(void *priv)
{
    combined *c = priv;
    socmon_device_free(c->dev); /* its driver (c) stays: freed here with the members */
    comb_free_members(c);
}

static socmon_status comb_open(const socmon_target_ops *self, const socmon_kv *kv, size_t nkv, void **priv,
                               socmon_device **dev)
{
    (void)kv;
    (void)nkv;
    combined *c = (combined *)self; /* ops is the first member of the state it was made from */
    *priv = c;
    *dev = c->dev;
    return SOCMON_OK;
}

static socmon_status comb_start(void *priv, const char *workload)
{
    combined *c = priv;
    int taken = workload == NULL;
    for (size_t i = 0; i < c->n; i++) {
        const socmon_target_ops *o = socmon_target_ops_of(c->m[i]);
        const char *w = socmon_target_has_workload(o, workload) ? workload : NULL;
        taken |= w != NULL;
        socmon_status st = socmon_target_start(c->m[i], w);
        if (st)
            return socmon_fail_prefix(st, "member '%s': ", o->name);
    }
    if (!taken)
        return socmon_fail(SOCMON_EINVAL, "combined: no member runs workload '%s'", workload);
    return SOCMON_OK;
}

static socmon_status comb_advance(void *priv, uint64_t ns, int *done)
{
    combined *c = priv;
    int any = 0;
    for (size_t i = 0; i < c->n; i++) {
        int d = 0;
        socmon_status st = smn_target_step(c->m[i], ns, &d);
        if (st)
            return socmon_fail_prefix(st, "member '%s': ", socmon_target_ops_of(c->m[i])->name);
        if (c->ender < 0 ? d : (int)i == c->ender && d)
            any = 1;
    }
    *done = any;
    return SOCMON_OK;
}

static uint64_t comb_now(void *priv)
{
    combined *c = priv;
    return c->real ? smn_mono_ns() : socmon_target_now_ns(c->m[0]);
}

static int comb_hardware(void *priv)
{
    return ((combined *)priv)->real;
}

static int comb_wait(void *priv, uint64_t deadline_ns)
{
    combined *c = priv;
    if (c->ender >= 0) {
        int r = smn_target_wait(c->m[c->ender], deadline_ns);
        if (r >= 0)
            return r;
    }
    uint64_t now = smn_mono_ns();
    if (now < deadline_ns) {
        struct timespec ts = {(time_t)((deadline_ns - now) / 1000000000u), (long)((deadline_ns - now) % 1000000000u)};
        nanosleep(&ts, NULL);
    }
    return 0;
}

socmon_status socmon_target_combine(socmon_target *const *members, size_t n, socmon_target **out)
{
    if (!members || !out || n < 2 || n > MAX_MEMBERS)
        return socmon_fail(SOCMON_EINVAL, "socmon_target_combine: %zu members (2..%d)", n, MAX_MEMBERS);
    *out = NULL;
    combined *c = calloc(1, sizeof *c);
    size_t total = 0, speclen = 1;
    for (size_t i = 0; i < n; i++) {
        if (!members[i])
            return free(c), socmon_fail(SOCMON_EINVAL, "socmon_target_combine: member %zu is NULL", i);
        total += socmon_device_ncounters(socmon_target_device(members[i]));
        speclen += strlen(socmon_target_spec(members[i])) + 1;
    }
    if (!c || !(c->ref = calloc(total + 1, sizeof *c->ref))) {
        free(c);
        return socmon_fail(SOCMON_ENOMEM, "combined: out of memory");
    }
    c->ender = -1;
    socmon_status st = SOCMON_OK;
    for (size_t i = 0; i < n; i++) {
        c->real |= socmon_target_is_hardware(members[i]);
        if (socmon_host_target_pid(members[i]))
            c->ender = (int)i;
    }
    static const socmon_device_ops ops = {.read = comb_read, .destroy = NULL};
    st = socmon_device_new("combined", &ops, c, &c->dev);
    size_t k = 0;
    for (size_t i = 0; i < n && st == SOCMON_OK; i++) {
        socmon_device *d = socmon_target_device(members[i]);
        for (size_t j = 0; j < socmon_device_ncounters(d) && st == SOCMON_OK; j++) {
            uint32_t at;
            if ((st = socmon_device_add_counter(c->dev, socmon_device_counter(d, j), &at)) != SOCMON_OK) {
                st = socmon_fail(SOCMON_EINVAL, "combined: counter '%s' of '%s' is also another member's: the "
                                 "members' counter names must differ", socmon_device_full_name(d, j),
                                 socmon_target_spec(members[i]));
                break;
            }
            c->ref[at] = (member_ref){i, (uint32_t)j};
            k++;
        }
        /* parameters: the first member to publish a name keeps it */
        for (size_t j = 0; j < socmon_device_nparams(d) && st == SOCMON_OK; j++) {
            const char *pn;
            double pv, old;
            socmon_device_param_at(d, j, &pn, &pv);
            if (socmon_device_param(c->dev, pn, &old) != SOCMON_OK) {
                socmon_clear_error();
                st = socmon_device_set_param(c->dev, pn, pv);
            }
        }
    }
    char *spec = calloc(speclen, 1);
    if (st == SOCMON_OK && !spec)
        st = socmon_fail(SOCMON_ENOMEM, "combined: out of memory");
    for (size_t i = 0; st == SOCMON_OK && i < n; i++) {
        if (i)
            strcat(spec, ";");
        strcat(spec, socmon_target_spec(members[i]));
    }
    c->ops = (socmon_target_ops){.name = "combined", .desc = "several targets on one clock",
        .simulated = !c->real,
                                 .open = comb_open, .start = comb_start, .advance = comb_advance, .now_ns = comb_now,
                                 .close = comb_close, .hardware = comb_hardware, .wait = comb_wait};
    memcpy(c->m, members, n * sizeof *members);
    c->n = n;
    if (st == SOCMON_OK)
        st = socmon_target_open_ops(&c->ops, NULL, 0, out);
    if (st != SOCMON_OK) { /* never taken: the members stay the caller's */
        socmon_device_free(c->dev);
        free(c->ref);
        free(c);
        free(spec);
        return st;
    }
    st = smn_target_set_spec(*out, spec);
    free(spec);
    if (st != SOCMON_OK) {
        c->n = 0; /* the members stay the caller's */
        socmon_target_close(*out);
        *out = NULL;
        return st;
    }
    return SOCMON_OK;
}

socmon_target *socmon_target_member(const socmon_target *t, size_t i)
{
    const socmon_target_ops *ops = socmon_target_ops_of(t);
    if (!ops || ops->open != comb_open)
        return NULL;
    const combined *c = smn_target_priv(t);
    return i < c->n ? c->m[i] : NULL;
}
