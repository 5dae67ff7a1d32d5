/* Register facts as data, in the style of QEMU's registerfields.h.
 *
 * Each monitor block describes its registers once, in src/hw/<block>.h: a
 * macro per register gives its byte offset, a macro per field its shift and
 * width, and an access table gives, per register, the reset value and which
 * bits are read-only, write-1-to-clear, clear-on-read or reserved. The
 * block's driver includes the header for names and offsets; its model
 * includes the same header and applies the access table with
 * socmon_reg_read/socmon_reg_write, so a model file holds only the behaviour
 * that is really special (counting, snapshots, side effects). A register
 * fact is then written in exactly one place.
 *
 * Headers in src/hw/ include nothing from the rest of socmon: both sides of
 * the bus may include them, and they may include neither side. */
#ifndef SOCMON_HW_REGFIELDS_H
#define SOCMON_HW_REGFIELDS_H

#include <stddef.h>
#include <stdint.h>

#if defined(__GNUC__) || defined(__clang__)
#define SM_UNUSED __attribute__((unused))
#else
#define SM_UNUSED
#endif

/* SM_REG32(CTL, 0x300) gives A_CTL (byte offset) and R_CTL (word index). */
#define SM_REG32(reg, addr) enum { A_##reg = (addr), R_##reg = (addr) / 4 };

/* SM_FIELD(CTL, MCNTR_EN, 0, 1) gives R_CTL_MCNTR_EN_SHIFT, _LENGTH and _MASK. */
#define SM_FIELD(reg, field, shift, length)                                                  \
    enum { R_##reg##_##field##_SHIFT = (shift), R_##reg##_##field##_LENGTH = (length) };     \
    static const uint32_t SM_UNUSED R_##reg##_##field##_MASK =                               \
        (uint32_t)((((uint64_t)1 << (length)) - 1) << (shift));

/* Read or replace one field of a register value by name. */
#define SM_FIELD_EX32(v, reg, field)                                                          \
    (((uint32_t)(v) & R_##reg##_##field##_MASK) >> R_##reg##_##field##_SHIFT)
#define SM_FIELD_DP32(v, reg, field, x)                                                       \
    (((uint32_t)(v) & ~R_##reg##_##field##_MASK) |                                            \
     (((uint32_t)(x) << R_##reg##_##field##_SHIFT) & R_##reg##_##field##_MASK))

/* One register's access behaviour. Bits in none of the masks are plain
 * read/write storage. */
typedef struct smn_reginfo {
    const char *name;
    uint32_t addr;     /* byte offset in the block */
    uint32_t reset;    /* value after reset */
    uint32_t ro;       /* writes leave these bits alone */
    uint32_t w1c;      /* writing 1 clears the bit, writing 0 leaves it */
    uint32_t cor;      /* a read returns the bit, then clears it */
    uint32_t rsvd;     /* read 0, ignore writes */
} smn_reginfo;

/* The entry for byte offset addr in a table of n, or NULL. */
static inline const smn_reginfo *socmon_reginfo_find(const smn_reginfo *t, size_t n,
                                                       uint32_t addr)
{
    for (size_t i = 0; i < n; i++)
        if (t[i].addr == addr)
            return &t[i];
    return NULL;
}

/* The value a write of val leaves in a register holding old. */
static inline uint32_t socmon_reg_write(const smn_reginfo *ri, uint32_t old, uint32_t val)
{
    uint32_t keep = ri->ro | ri->w1c | ri->cor | ri->rsvd;
    uint32_t v = (old & keep) | (val & ~keep);
    v &= ~(val & ri->w1c);
    return v & ~ri->rsvd;
}

/* What a read returns; *storage loses its clear-on-read bits. */
static inline uint32_t socmon_reg_read(const smn_reginfo *ri, uint32_t *storage)
{
    uint32_t v = *storage & ~ri->rsvd;
    *storage &= ~ri->cor;
    return v;
}

#endif
