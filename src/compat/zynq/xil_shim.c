/* The Xilinx standalone-BSP shims' run time (include/compat/socmon_xil.h):
 * the per-thread bindings Xil_In32/Xil_Out32 and mtcp/mfcp reach, the
 * parser of the BSP's coprocessor operand strings, and the first-failure
 * record that stands in for the error return the BSP's calls lack.
 *
 * Per thread because BSP code has no context argument: on the board the
 * address or the instruction is the context; here each thread says once
 * which model it runs against. Built on the public API only. */
#include <stdio.h>
#include <string.h>

#include "socmon_xil.h"

static _Thread_local socmon_bus *xil_bus;
static _Thread_local socmon_cp15 xil_cp;
static _Thread_local socmon_status xil_first;
static _Thread_local char xil_first_msg[256];

/* A new binding starts a new run: a failure recorded against the previous
 * model must not be reported against this one. */
static void forget_failure(void)
{
    xil_first = SOCMON_OK;
    xil_first_msg[0] = '\0';
}

socmon_status socmon_xil_bind_bus(socmon_bus *bus)
{
    forget_failure();
    xil_bus = bus;
    return SOCMON_OK;
}

socmon_status socmon_xil_bind_cp15(const socmon_cp15 *cp)
{
    if (cp && (!cp->read || !cp->write))
        return socmon_fail(SOCMON_EINVAL, "socmon_xil_bind_cp15: the interface has a NULL %s",
                           cp->read ? "write" : "read");
    forget_failure();
    if (cp)
        xil_cp = *cp;
    else
        memset(&xil_cp, 0, sizeof xil_cp);
    return SOCMON_OK;
}

/* Keeps the first failure (and its message) until socmon_xil_status. */
static void note(socmon_status st)
{
    if (st && !xil_first) {
        xil_first = st;
        snprintf(xil_first_msg, sizeof xil_first_msg, "%s", socmon_errmsg());
    }
}

socmon_status socmon_xil_status(void)
{
    socmon_status st = xil_first;
    xil_first = SOCMON_OK;
    return st ? socmon_fail(st, "%s", xil_first_msg) : SOCMON_OK;
}

/* ---- the operand string: "p15, 0, %0,  c9, c12, 0" ---- */

typedef struct cur {
    const char *s, *p;
} cur;

static void skip_ws(cur *c)
{
    while (*c->p == ' ' || *c->p == '\t')
        c->p++;
}

static socmon_status bad(const cur *c, const char *what)
{
    /* the string may be anything: show at most 64 characters of it */
    return socmon_fail(SOCMON_EPARSE, "coprocessor operand \"%.64s%s\": %s at column %u", c->s,
                       strlen(c->s) > 64 ? "..." : "", what, (unsigned)(c->p - c->s) + 1);
}

/* A decimal number 0..max, optionally after '#'; a failure points at from
 * (the start of the whole token). */
static socmon_status number(cur *c, const char *from, unsigned max, const char *what,
                            unsigned *out)
{
    if (*c->p == '#')
        c->p++;
    unsigned v = 0;
    int digits = 0;
    while (*c->p >= '0' && *c->p <= '9') {
        v = v * 10u + (unsigned)(*c->p++ - '0');
        digits = 1;
        if (v > max)
            break;
    }
    if (!digits || v > max) {
        c->p = from;
        return bad(c, what);
    }
    *out = v;
    return SOCMON_OK;
}

static socmon_status plain(cur *c, unsigned max, const char *what, unsigned *out)
{
    skip_ws(c);
    return number(c, c->p, max, what, out);
}

/* A prefixed register number: "p15", "c9" or "cr9". */
static socmon_status reg(cur *c, char prefix, unsigned max, const char *what, unsigned *out)
{
    skip_ws(c);
    const char *from = c->p;
    if ((*c->p | 0x20) != prefix)
        return bad(c, what);
    c->p++;
    if (prefix == 'c' && (*c->p | 0x20) == 'r')
        c->p++;
    if (*c->p < '0' || *c->p > '9') {
        c->p = from;
        return bad(c, what);
    }
    return number(c, from, max, what, out);
}

static socmon_status comma(cur *c)
{
    skip_ws(c);
    if (*c->p != ',')
        return bad(c, "expected ','");
    c->p++;
    return SOCMON_OK;
}

socmon_status socmon_xil_cp_parse(const char *rn, socmon_xil_cp_op *out)
{
    if (!rn || !out)
        return socmon_fail(SOCMON_EINVAL, "socmon_xil_cp_parse: NULL %s", rn ? "output" : "string");
    cur c = {rn, rn};
    socmon_xil_cp_op op = {0, 0, 0, 0, 0};
    socmon_status st = reg(&c, 'p', 15, "expected a coprocessor p0..p15", &op.coproc);
    if (!st)
        st = comma(&c);
    if (!st)
        st = plain(&c, 7, "expected opc1 0..7", &op.opc1);
    if (!st)
        st = comma(&c);
    if (!st) {
        /* the general register is the asm operand; the shim moves the value */
        skip_ws(&c);
        if (c.p[0] != '%' || c.p[1] != '0')
            st = bad(&c, "expected the operand %0 as Rt");
        else
            c.p += 2;
    }
    if (!st)
        st = comma(&c);
    if (!st)
        st = reg(&c, 'c', 15, "expected CRn c0..c15", &op.crn);
    if (!st)
        st = comma(&c);
    if (!st)
        st = reg(&c, 'c', 15, "expected CRm c0..c15", &op.crm);
    if (!st) {
        skip_ws(&c);
        if (*c.p == ',') {   /* opc2 may be left out, as GNU as allows: 0 */
            c.p++;
            st = plain(&c, 7, "expected opc2 0..7", &op.opc2);
        }
    }
    if (!st) {
        skip_ws(&c);
        if (*c.p == '\n')   /* some code ends the string with the line break */
            c.p++;
        if (*c.p)
            st = bad(&c, "unexpected text after the operands");
    }
    if (!st)
        *out = op;
    return st;
}

/* ---- what the macros call ---- */

static socmon_status cp_target(const char *rn, const char *op, socmon_xil_cp_op *o)
{
    socmon_status st = socmon_xil_cp_parse(rn, o);
    if (st)
        return st;
    if (o->coproc != 15)
        return socmon_fail(SOCMON_ENOTSUP, "%s p%u, ...: only CP15 is modelled", op, o->coproc);
    if (!xil_cp.read)
        return socmon_fail(SOCMON_ESTATE, "%s \"%s\": no CP15 bound to this thread "
                                          "(socmon_xil_bind_cp15)", op, rn);
    return SOCMON_OK;
}

uint32_t socmon_xil_mfcp(const char *rn)
{
    socmon_xil_cp_op o;
    uint32_t v = 0;
    socmon_status st = cp_target(rn, "mrc", &o);
    if (!st)
        st = xil_cp.read(xil_cp.ctx, o.opc1, o.crn, o.crm, o.opc2, &v);
    note(st);
    return st ? 0 : v;
}

void socmon_xil_mtcp(const char *rn, uint32_t val)
{
    socmon_xil_cp_op o;
    socmon_status st = cp_target(rn, "mcr", &o);
    if (!st)
        st = xil_cp.write(xil_cp.ctx, o.opc1, o.crn, o.crm, o.opc2, val);
    note(st);
}

uint32_t socmon_xil_in32(uintptr_t addr)
{
    uint32_t v = 0;
    socmon_status st = xil_bus ? socmon_bus_read32(xil_bus, addr, &v)
                               : socmon_fail(SOCMON_ESTATE, "Xil_In32(0x%llx): no bus bound to "
                                             "this thread (socmon_xil_bind_bus)",
                                             (unsigned long long)addr);
    note(st);
    return st ? 0 : v;
}

void socmon_xil_out32(uintptr_t addr, uint32_t val)
{
    socmon_status st = xil_bus ? socmon_bus_write32(xil_bus, addr, val)
                               : socmon_fail(SOCMON_ESTATE, "Xil_Out32(0x%llx): no bus bound to "
                                             "this thread (socmon_xil_bind_bus)",
                                             (unsigned long long)addr);
    note(st);
}
