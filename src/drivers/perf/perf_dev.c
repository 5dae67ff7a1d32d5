/* Opening a perf device: the events in groups, per thread or per CPU, with the
 * read format every read decodes (GROUP | TOTAL_TIME_ENABLED | TOTAL_TIME_RUNNING
 * | ID), and the counters the device shows: NAME, NAME@enabled, NAME@running per
 * event (socmon/scaling.h). An event the kernel cannot count here is left out
 * and listed; a permission error stops the open with what to change. */
#include <errno.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/device_kind.h"
#include "core/error.h"
#include "drivers/perf/perf_cpus.h"
#include "drivers/perf/perf_drv.h"

static void drv_free(void *p)
{
    perf_drv *d = p;
    if (!d)
        return;
    /* members before their leader, as perf closes groups */
    for (size_t i = d->nev; i-- > 0;) {
        if (d->ev[i].page)
            d->sys->munmap_page(d->sys->ctx, d->ev[i].page);
        d->sys->close(d->sys->ctx, d->ev[i].fd);
    }
    free(d->ev);
    free(d->g);
    free(d->val);
    free(d->buf);
    free(d->unsup);
    free(d->want);
    free(d);
}

static socmon_status drv_read(void *p, const uint32_t *idx, size_t n, uint64_t *out)
{
    perf_drv *d = p;
    /* each group the request touches is read once */
    unsigned char *want = d->want;
    memset(want, 0, d->ng);
    for (size_t i = 0; i < n; i++)
        want[d->ev[idx[i] / 3].group] = 1;
    d->used_rdpmc = 0;
    socmon_status st = SOCMON_OK;
    for (size_t g = 0; g < d->ng && st == SOCMON_OK; g++)
        if (want[g])
            st = smn_perf_read_group(d, g);
    if (st)
        return st;
    for (size_t i = 0; i < n; i++)
        out[i] = d->val[idx[i]];
    return SOCMON_OK;
}

static const socmon_device_ops perf_ops = {.read = drv_read, .destroy = drv_free};

static int perf_paranoid(void)
{
    int v = -100;
    FILE *f = fopen("/proc/sys/kernel/perf_event_paranoid", "r");
    if (f) {
        if (fscanf(f, "%d", &v) != 1)
            v = -100;
        fclose(f);
    }
    return v;
}

/* The open's errno as a status, for errors that stop the open. */
static socmon_status open_error(int e, const socmon_perf_attr *a, int cpu, const socmon_perf_opts *o)
{
    char where[32] = "";
    if (cpu >= 0)
        snprintf(where, sizeof where, " on cpu%d", cpu);
    if (e == EACCES || e == EPERM) {
        int lvl = perf_paranoid();
        char lv[16] = "unknown";
        if (lvl != -100)
            snprintf(lv, sizeof lv, "%d", lvl);
        const char *need = o->mode == SOCMON_PERF_CPU ? "counting a whole CPU needs perf_event_paranoid <= 0"
                           : !a->exclude_kernel ? "counting kernel time needs perf_event_paranoid <= 1 (or "
                                                  "count user time only: add :u to the event)"
                                                : "counting needs perf_event_paranoid <= 2";
        return socmon_fail(SOCMON_EPERM, "perf: '%s'%s: permission denied: %s (it is %s: `sysctl "
                           "kernel.perf_event_paranoid=%d` as root), or the CAP_PERFMON capability (`setcap "
                           "cap_perfmon+ep` on the program, or run as root)", a->name, where, need, lv,
                           o->mode == SOCMON_PERF_CPU ? 0 : !a->exclude_kernel ? 1 : 2);
    }
    if (e == ENOSYS)
        return socmon_fail(SOCMON_ENOTSUP, "perf: perf_event_open is not available here (a kernel without "
                           "CONFIG_PERF_EVENTS, a seccomp filter, or an emulator such as qemu-user)");
    if (e == EMFILE || e == ENFILE)
        return socmon_fail(SOCMON_ERANGE, "perf: '%s'%s: too many open files (each event and CPU takes one; "
                           "raise `ulimit -n`)", a->name, where);
    if (e == ENODEV || e == ENXIO)
        return socmon_fail(SOCMON_ERANGE, "perf: cpu%d is offline or absent", cpu);
    return socmon_fail(SOCMON_EIO, "perf: '%s'%s: perf_event_open: %s", a->name, where, strerror(e));
}

/* errnos that mean "this event cannot be counted here", not "stop" */
static int unsupported_errno(int e)
{
    return e == ENOENT || e == EOPNOTSUPP || e == EINVAL || e == E2BIG;
}

static void note_unsupported(perf_drv *d, const char *name, int e)
{
    for (size_t i = 0; i < d->nunsup; i++)
        if (strcmp(d->unsup[i][0], name) == 0)
            return;
    snprintf(d->unsup[d->nunsup][0], sizeof d->unsup[0][0], "%s", name);
    snprintf(d->unsup[d->nunsup][1], sizeof d->unsup[0][1], "not supported: %s",
             e == ENOENT ? "no PMU here counts it (a VM or container without a hardware PMU?)"
             : e == EOPNOTSUPP ? "the PMU cannot count it in this mode"
                               : "the kernel refused its attributes");
    d->nunsup++;
}

static void fill_attr(struct perf_event_attr *pa, const socmon_perf_attr *a, const socmon_perf_opts *o, int leader)
{
    memset(pa, 0, sizeof *pa);
    pa->size = sizeof *pa;
    pa->type = a->type;
    pa->config = a->config;
    pa->config1 = a->config1;
    pa->config2 = a->config2;
    pa->exclude_user = (unsigned)!!a->exclude_user;
    pa->exclude_kernel = (unsigned)!!a->exclude_kernel;
    pa->exclude_hv = (unsigned)!!a->exclude_hv;
    pa->read_format = PERF_RF_USED;
    if (o->mode == SOCMON_PERF_THREAD)
        pa->inherit = (unsigned)!!o->inherit;
    if (leader) {
        pa->disabled = (unsigned)(o->disabled || o->enable_on_exec);
        pa->enable_on_exec = (unsigned)!!o->enable_on_exec;
        pa->pinned = (unsigned)!!o->pinned;
    }
}

/* The counter name of an event: an identifier, so that metric files can name it
 * ([A-Za-z0-9_]: docs/metrics.md): every run of other characters becomes one '_'
 * ("page-faults" -> "page_faults", "msr/tsc/" -> "msr_tsc", "cs:u" -> "cs_u"). So no
 * counter name holds "--", the time counters' mark. The event as written is the
 * counter's description. */
static void counter_name(const char *ev, char *out, size_t len)
{
    size_t k = 0;
    for (const char *p = ev; *p && k + 1 < len; p++) {
        char c = *p;
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_'))
            c = '_';
        if (c == '_' && k && out[k - 1] == '_')
            continue;
        out[k++] = c;
    }
    while (k > 1 && out[k - 1] == '_')
        k--;
    out[k] = 0;
    if (!k || (k == 1 && out[0] == '_'))
        snprintf(out, len, "event");
}

/* Opens one group (events idx[0..n)) for one task/CPU; appends what opened to d. */
static socmon_status open_group(perf_drv *d, socmon_device *dev, const socmon_perf_opts *o, const size_t *idx,
                                size_t n, int cpu)
{
    const socmon_perf_sys *s = d->sys;
    int pid = o->mode == SOCMON_PERF_CPU ? -1 : o->pid;
    int leader = -1;
    size_t first = d->nev;
    char inst[16] = "";
    if (o->mode == SOCMON_PERF_CPU)
        snprintf(inst, sizeof inst, "cpu%d", cpu);
    for (size_t k = 0; k < n; k++) {
        const socmon_perf_attr *a = &o->events[idx[k]];
        struct perf_event_attr pa;
        fill_attr(&pa, a, o, leader < 0);
        int fd = s->open(s->ctx, &pa, pid, o->mode == SOCMON_PERF_CPU ? cpu : -1, leader, PERF_FLAG_FD_CLOEXEC);
        if (fd < 0 && unsupported_errno(-fd)) {
            note_unsupported(d, a->name, -fd);
            continue;
        }
        if (fd < 0)
            return open_error(-fd, a, o->mode == SOCMON_PERF_CPU ? cpu : -1, o);
        perf_ev *e = &d->ev[d->nev++];
        e->fd = fd;
        e->group = d->ng;
        if (s->ioctl(s->ctx, fd, PERF_EVENT_IOC_ID, (unsigned long)(uintptr_t)&e->id) < 0)
            return socmon_fail(SOCMON_EIO, "perf: '%s': cannot get its id (PERF_EVENT_IOC_ID)", a->name);
        if (leader < 0)
            leader = fd;
        if (d->rdpmc_ok && s->mmap_page)
            e->page = s->mmap_page(s->ctx, fd);
        char nm[3][160], base[128];
        counter_name(a->name, base, sizeof base);
        snprintf(nm[0], sizeof nm[0], "%s", base);
        snprintf(nm[1], sizeof nm[1], "%s--enabled", base);
        snprintf(nm[2], sizeof nm[2], "%s--running", base);
        for (int j = 0; j < 3; j++) {
            /* The most a count can move per second (what the pipeline judges deltas by,
             * SOCMON_VALUE_IMPLAUSIBLE): an event 16 times a cycle at 6 GHz on every CPU, more
             * than any core retires or any software event fires; a time counter 1 ns per ns on
             * every CPU (an inherited event sums its threads' times). A perf count never goes
             * back, so this only catches a broken read. */
            double cpus = (double)(sysconf(_SC_NPROCESSORS_CONF) > 0 ? sysconf(_SC_NPROCESSORS_CONF) : 1);
            socmon_counter c = {.name = nm[j], .instance = inst,
                .desc = j == 0 ? a->name : j == 1 ? "time the event was enabled"
                                                                    : "time the event was counting",
                                .unit = j == 0 ? a->unit : "ns", .width = 64, .reg = 0, .reg_hi = 0,
                                .max_rate_hz = cpus * (j == 0 ? 16 * 6e9 : 1e9)};
            socmon_status st = socmon_device_add_counter(dev, &c, NULL);
            if (st)
                return st;
        }
        e->name = socmon_device_counter(dev, socmon_device_ncounters(dev) - 3)->name;
    }
    if (leader >= 0) {
        d->g[d->ng].first = first;
        d->g[d->ng].n = d->nev - first;
        d->g[d->ng].leader_fd = leader;
        d->ng++;
    }
    return SOCMON_OK;
}

static socmon_status open_all(perf_drv *d, socmon_device *dev, const socmon_perf_opts *o, const int *cpus,
                              size_t ncpu)
{
    size_t *idx = malloc(o->nevents * sizeof *idx);
    if (!idx)
        return socmon_fail(SOCMON_ENOMEM, "perf: out of memory");
    socmon_status st = SOCMON_OK;
    for (size_t c = 0; c < ncpu && st == SOCMON_OK; c++)
        for (size_t i = 0; i < o->nevents && st == SOCMON_OK; i++) {
            int g = o->events[i].group;
            size_t n = 0;
            if (g >= 0) {
                int seen = 0; /* a group opens at its first member */
                for (size_t j = 0; j < i; j++)
                    seen |= o->events[j].group == g;
                if (seen)
                    continue;
                for (size_t j = i; j < o->nevents; j++)
                    if (o->events[j].group == g)
                        idx[n++] = j;
            } else {
                idx[n++] = i;
            }
            st = open_group(d, dev, o, idx, n, cpus ? cpus[c] : -1);
        }
    free(idx);
    return st;
}

/* Every CPU of a -C list must be online here: the kernel says EINVAL (as for a bad attribute)
 * for a CPU number beyond the machine's, which would read as "event not supported". */
static socmon_status check_online(const char *list, const int *cpus, size_t n)
{
    int *on = NULL;
    size_t non = 0;
    if (smn_perf_cpu_list(NULL, &on, &non) != SOCMON_OK) {
        socmon_clear_error();
        return SOCMON_OK;   /* no online list to check against: the kernel will say */
    }
    socmon_status st = SOCMON_OK;
    for (size_t i = 0, j = 0; i < n && st == SOCMON_OK; i++) {
        while (j < non && on[j] < cpus[i])
            j++;
        if (j == non || on[j] != cpus[i])
            st = socmon_fail(SOCMON_ERANGE, "perf: CPU list '%s': cpu%d is not online here (online: %d-%d%s)",
                             list, cpus[i], on[0], on[non - 1],
                             (size_t)(on[non - 1] - on[0] + 1) == non ? "" : ", with gaps");
    }
    free(on);
    return st;
}

socmon_status socmon_perf_device_new(const char *name, const socmon_perf_opts *o, socmon_device **out)
{
    if (!name || !o || !out || (!o->events && o->nevents))
        return socmon_fail(SOCMON_EINVAL, "perf: NULL argument");
    *out = NULL;
    socmon_status sz = smn_check_size("socmon_perf_opts", o->size, sizeof *o);
    if (sz != SOCMON_OK)
        return sz;
    if (!o->nevents)
        return socmon_fail(SOCMON_EINVAL, "perf: no events to count");
    if (o->mode != SOCMON_PERF_THREAD && o->mode != SOCMON_PERF_CPU)
        return socmon_fail(SOCMON_EINVAL, "perf: mode %d is neither SOCMON_PERF_THREAD nor SOCMON_PERF_CPU", o->mode);
    if (o->mode == SOCMON_PERF_CPU && (o->inherit || o->enable_on_exec || o->pid))
        return socmon_fail(SOCMON_EINVAL, "perf: per-CPU counting takes no pid, inherit or enable_on_exec");
    if (o->pid < 0)
        return socmon_fail(SOCMON_EINVAL, "perf: pid %d is negative", o->pid);
    int *cpus = NULL;
    size_t ncpu = 1;
    socmon_status st = SOCMON_OK;
    if (o->mode == SOCMON_PERF_CPU && (st = smn_perf_cpu_list(o->cpus, &cpus, &ncpu)) != SOCMON_OK)
        return st;
    if (cpus && o->cpus && (!o->sys || o->sys == socmon_perf_sys_kernel()) && (st = check_online(o->cpus, cpus, ncpu))) {
        free(cpus);
        return st;
    }
    perf_drv *d = calloc(1, sizeof *d);
    size_t maxev = o->nevents * ncpu;
    if (d) {
        d->sys = o->sys ? o->sys : socmon_perf_sys_kernel();
        d->ev = calloc(maxev, sizeof *d->ev);
        d->g = calloc(maxev, sizeof *d->g);
        d->unsup = calloc(o->nevents, sizeof *d->unsup);
        d->want = calloc(maxev + 1, 1);
        d->buf = calloc(3 + 2 * o->nevents, sizeof *d->buf);
        d->buflen = 3 + 2 * o->nevents;
        /* rdpmc reads the calling thread's own counters only (the UAPI's "self-monitoring"; PAPI
         * PR #39: never for another task or a whole CPU, where it returns garbage silently) */
        d->rdpmc_ok = o->mode == SOCMON_PERF_THREAD && o->pid == 0 && !o->inherit && !o->no_rdpmc &&
                      d->sys->rdpmc != NULL;
    }
    if (!d || !d->ev || !d->g || !d->unsup || !d->buf || !d->want) {
        free(cpus);
        drv_free(d);
        return socmon_fail(SOCMON_ENOMEM, "perf: out of memory");
    }
    socmon_device *dev = NULL;
    if ((st = socmon_device_new(name, &perf_ops, d, &dev)) != SOCMON_OK) {
        free(cpus);
        drv_free(d);
        return st;
    }
    st = open_all(d, dev, o, cpus, ncpu);
    free(cpus);
    if (st == SOCMON_OK && d->nev == 0) {
        char list[512] = "";
        for (size_t i = 0; i < d->nunsup; i++)
            snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s", i ? ", " : "", d->unsup[i][0]);
        st = socmon_fail(SOCMON_ENOTSUP, "perf: none of the events can be counted here (%s: %s)", list,
                         d->nunsup ? d->unsup[0][1] : "?");
    }
    if (st == SOCMON_OK && !(d->val = calloc(3 * d->nev, sizeof *d->val)))
        st = socmon_fail(SOCMON_ENOMEM, "perf: out of memory");
    if (st) {
        socmon_device_free(dev); /* frees d through drv_free */
        return st;
    }
    *out = dev;
    return SOCMON_OK;
}

static perf_drv *drv_of(const socmon_device *dev)
{
    return smn_device_reads_with(dev, drv_read) ? socmon_device_driver(dev) : NULL;
}

socmon_status socmon_perf_device_unsupported(const socmon_device *dev, size_t i, const char **event,
                                             const char **reason)
{
    perf_drv *d = drv_of(dev);
    if (!d)
        return socmon_fail(SOCMON_EINVAL, "perf: not a perf device");
    if (i >= d->nunsup)
        return SOCMON_ERANGE;
    if (event)
        *event = d->unsup[i][0];
    if (reason)
        *reason = d->unsup[i][1];
    return SOCMON_OK;
}

static socmon_status group_ioctl(socmon_device *dev, unsigned long req, const char *what)
{
    perf_drv *d = drv_of(dev);
    if (!d)
        return socmon_fail(SOCMON_EINVAL, "perf: not a perf device");
    for (size_t g = 0; g < d->ng; g++) {
        int r = d->sys->ioctl(d->sys->ctx, d->g[g].leader_fd, req, PERF_IOC_FLAG_GROUP);
        if (r < 0)
            return socmon_fail(SOCMON_EIO, "perf: %s group of '%s': %s", what, d->ev[d->g[g].first].name,
                               strerror(-r));
    }
    return SOCMON_OK;
}

socmon_status socmon_perf_device_enable(socmon_device *dev)
{
    return group_ioctl(dev, PERF_EVENT_IOC_ENABLE, "enabling");
}

socmon_status socmon_perf_device_disable(socmon_device *dev)
{
    return group_ioctl(dev, PERF_EVENT_IOC_DISABLE, "disabling");
}

int socmon_perf_device_used_rdpmc(const socmon_device *dev)
{
    perf_drv *d = drv_of(dev);
    return d ? d->used_rdpmc : 0;
}
