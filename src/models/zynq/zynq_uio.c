/* The model's APM as a board user sees it through Linux's uio_xilinx_apm
 * driver (spec §3, linux-xlnx drivers/uio/uio_xilinx_apm.c): /dev/uioN with
 * map 0 = the register window, map 1 = a page holding the driver's
 * struct xapm_param, and read() blocking until the next interrupt.
 *
 * The driver's interrupt handler is the "kernel" here: on each APM
 * interrupt it reads IS, writes the value back (IS is W1C, so everything
 * pending clears), copies its parameters with that isr into map 1 and
 * counts the event; read() returns the count. As on the board the kernel
 * runs at the interrupt whether or not anyone is reading, and a read
 * returns at once if an interrupt came since the previous one (UIO keeps
 * the count per open file; the model has one reader). Its register
 * accesses go over map 0 and take time like any other. The line is level
 * sensitive for it, as the GIC is configured for a PL interrupt: if it is
 * still high when the handler returns, the handler runs again. */
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "models/zynq/zynq_soc.h"

/* UIO numbering of struct xapm_param.mode (spec §1.1) */
enum { XAPM_UIO_MODE_ADVANCED = 1, XAPM_UIO_MODE_PROFILE = 2, XAPM_UIO_MODE_TRACE = 3 };

struct socmon_zynq_uio {
    socmon_zynq_soc *soc;
    socmon_bus *bus;                 /* map 0 */
    socmon_zynq_xapm_param param;    /* the driver's copy; map 1 gets it at each interrupt */
    unsigned char page[SOCMON_ZYNQ_UIO_MAP1_SIZE];   /* map 1 */
    uint32_t events;                 /* interrupts handled (UIO's event count) */
    uint32_t seen;                   /* the count the reader last got */
    uint64_t timeout_ns;
};

/* The parameters uio_xilinx_apm reads from the device tree at probe, as the
 * model's APM would be described. Profile mode: every counter has a sampled
 * copy, counters are 32 bits (Profile accumulators are plain 32-bit, spec
 * §1.7), numcounters = 6 per slot, the Profile layout (the DT property counts
 * Advanced-mode counters; a Profile design's value is not in the sources),
 * no incrementers and no global clock counter (globalcntwidth 0: the Profile
 * HDL decodes none, whatever the IP parameter says). Advanced mode: the
 * model's configuration (socmon_zapm_hw, gcc_width). Read once, at
 * socmon_zynq_uio_new, as the driver reads the DT once at probe. */
static void probe_params(const socmon_zynq_soc *soc, socmon_zynq_xapm_param *p)
{
    memset(p, 0, sizeof *p);
    const socmon_zapm_hw *hw = &soc->d.apm;
    int adv = hw->mode == SOCMON_ZAPM_ADVANCED;
    p->mode = adv ? XAPM_UIO_MODE_ADVANCED : XAPM_UIO_MODE_PROFILE;
    p->maxslots = soc->d.nslots;
    p->eventcnt = adv ? (hw->event_count != 0) : 0;
    p->eventlog = 0;
    p->sampledcnt = adv ? (hw->sampled != 0) : 1;
    p->numcounters = adv ? hw->ncounters : SOCMON_ZAPM_PER_SLOT * soc->d.nslots;
    p->metricwidth = 32;
    p->sampledwidth = 32;
    p->globalcntwidth = adv ? (unsigned)soc->d.gcc_width : 0;
    p->scalefactor = adv ? hw->scale : 1;
    p->isr = 0;
    p->is_32bit_filter = adv ? (hw->id32 != 0) : 0;
}

socmon_status socmon_zynq_uio_new(socmon_zynq_soc *soc, socmon_zynq_uio **out)
{
    if (!soc || !out)
        return socmon_fail(SOCMON_EINVAL, "zynq uio: NULL %s", soc ? "output" : "model");
    *out = NULL;
    if (soc->irq.uio)
        return socmon_fail(SOCMON_ESTATE, "zynq uio: the model's APM is already bound to a UIO device");
    socmon_zynq_uio *u = calloc(1, sizeof *u);
    if (!u)
        return socmon_fail(SOCMON_ENOMEM, "zynq uio: out of memory");
    u->soc = soc;
    u->timeout_ns = SOCMON_ZYNQ_UIO_TIMEOUT_NS_DEFAULT;
    probe_params(soc, &u->param);
    memcpy(u->page, &u->param, sizeof u->param);
    socmon_status st = socmon_bus_model_new(&u->bus);
    if (!st)
        st = socmon_bus_model_map(u->bus, 0, SOCMON_ZAPM_WINDOW, &smn_zynq_window_ops, &soc->irq.win[0]);
    if (st) {
        socmon_bus_free(u->bus);
        free(u);
        return socmon_fail_prefix(st, "zynq uio: ");
    }
    smn_zynq_irq_note(soc);
    soc->irq.uio = u;
    /* level sensitive: a line already high is served as soon as the
     * handler is registered */
    if (smn_zynq_irq_lines(soc) & (1u << SOCMON_ZYNQ_IRQ_APM)) {
        soc->irq.pending |= 1u << SOCMON_ZYNQ_IRQ_APM;
        soc->irq.edge_ns[SOCMON_ZYNQ_IRQ_APM] = soc->now_ns;
    }
    smn_zynq_irq_deliver(soc);
    *out = u;
    return SOCMON_OK;
}

void socmon_zynq_uio_free(socmon_zynq_uio *u)
{
    if (!u)
        return;
    if (u->soc->irq.uio == u) {
        u->soc->irq.uio = NULL;
        if (!u->soc->irq.fn)
            u->soc->irq.pending &= ~(1u << SOCMON_ZYNQ_IRQ_APM);
    }
    socmon_bus_free(u->bus);
    free(u);
}

socmon_bus *socmon_zynq_uio_bus(socmon_zynq_uio *u)
{
    return u ? u->bus : NULL;
}

const void *socmon_zynq_uio_map1(const socmon_zynq_uio *u)
{
    return u ? u->page : NULL;
}

void smn_zynq_uio_kernel_irq(socmon_zynq_uio *u)
{
    uint32_t isr = 0;
    /* a failed access leaves isr 0, as a bus error would leave the
     * kernel's readl undefined; the model bus cannot fail here */
    if (socmon_bus_read32(u->bus, A_ZAPM_IS, &isr) == SOCMON_OK)
        socmon_bus_write32(u->bus, A_ZAPM_IS, isr);
    u->param.isr = isr;
    memcpy(u->page, &u->param, sizeof u->param);
    u->events++;
}

socmon_status socmon_zynq_uio_set_timeout(socmon_zynq_uio *u, uint64_t max_ns)
{
    if (!u)
        return socmon_fail(SOCMON_EINVAL, "zynq uio: NULL device");
    if (max_ns > ZYNQ_TIME_MAX)
        return socmon_fail(SOCMON_ERANGE, "zynq uio: timeout %llu ns out of range 0..1e17",
                           (unsigned long long)max_ns);
    u->timeout_ns = max_ns;
    return SOCMON_OK;
}

socmon_status socmon_zynq_uio_read(socmon_zynq_uio *u, void *buf, size_t count)
{
    if (!u || !buf)
        return socmon_fail(SOCMON_EINVAL, "zynq uio: read with NULL %s", u ? "buffer" : "device");
    if (count != sizeof(uint32_t))
        return socmon_fail(SOCMON_EINVAL,
                           "zynq uio: read of %zu bytes: a UIO device reads exactly 4 (the interrupt "
                           "count), other sizes fail with EINVAL",
                           count);
    socmon_zynq_soc *soc = u->soc;
    smn_zynq_irq_sync(soc);
    if (u->events == u->seen) {
        uint64_t max = u->timeout_ns;
        if (max > ZYNQ_TIME_MAX - soc->now_ns)
            max = ZYNQ_TIME_MAX - soc->now_ns;
        uint64_t deadline = soc->now_ns + max;
        /* an edge whose handler cannot run yet (a read from inside a
         * handler) leaves the count alone: wait on to the deadline */
        while (u->events == u->seen && soc->now_ns < deadline)
            if (!smn_zynq_time_to(soc, deadline, 1u << SOCMON_ZYNQ_IRQ_APM))
                break;
        if (u->events == u->seen)
            return socmon_fail_prefix(smn_zynq_irq_wait_failed(soc, SOCMON_ZYNQ_IRQ_APM, max),
                                      "zynq uio read: ");
    }
    u->seen = u->events;
    memcpy(buf, &u->events, sizeof u->events);
    return SOCMON_OK;
}
