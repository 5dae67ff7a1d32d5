/* Instruction text for annotation (report --annotate): the decoder's view of an instruction
 * (a compressed one as the 32-bit form it expands to, as Ibex executes it) in the assembler's
 * syntax with ABI register names: "addi a0, a0, 1", "lw ra, 12(sp)", "bne a5, a4, 0x100376". */
#include <string.h>
#include "models/ibex/ibex_internal.h"

static const char *const abi[32] = {"zero", "ra", "sp", "gp", "tp", "t0", "t1", "t2", "s0", "s1", "a0",
                                    "a1",   "a2", "a3", "a4", "a5", "a6", "a7", "s2", "s3", "s4", "s5",
                                    "s6",   "s7", "s8", "s9", "s10", "s11", "t3", "t4", "t5", "t6"};

static const char *r(unsigned i)
{
    return abi[i & 31];
}

/* The text built as snprintf built it (a profile disassembles every instruction of the program,
 * and snprintf was most of the time that took): truncated to len - 1 bytes, always terminated. */
typedef struct text {
    char *buf;
    size_t n, len;
} text;

static void put(text *t, const char *s)
{
    for (; *s; s++, t->n++)
        if (t->n + 1 < t->len)
            t->buf[t->n] = *s;
}

static void put_dec(text *t, int32_t v)
{
    char d[12];
    size_t i = sizeof d;
    uint32_t u = v < 0 ? 0u - (uint32_t)v : (uint32_t)v;
    d[--i] = '\0';
    do {
        d[--i] = (char)('0' + u % 10);
        u /= 10;
    } while (u);
    if (v < 0)
        d[--i] = '-';
    put(t, d + i);
}

static void put_hex(text *t, uint32_t v, unsigned digits)   /* "0x" and at least digits digits */
{
    char d[12];
    size_t i = sizeof d;
    d[--i] = '\0';
    do {
        d[--i] = "0123456789abcdef"[v & 15];
        v >>= 4;
    } while (v || sizeof d - 1 - i < digits);
    put(t, "0x");
    put(t, d + i);
}

static void end(text *t)
{
    if (t->len)
        t->buf[t->n < t->len ? t->n : t->len - 1] = '\0';
}

void smn_ibex_disasm(const ibex_config *cfg, uint32_t pc, uint16_t lo, uint16_t hi, char *buf, size_t len)
{
    ibex_decoded d;
    smn_ibex_decode(cfg, lo, hi, &d);
    const char *m = d.mnemonic;
    size_t ml = strlen(m);
    text t = {buf, 0, len};
    switch (d.iclass) {
    case IBEX_IC_LOAD:
    case IBEX_IC_STORE:   /* "%s %s, %d(%s)" */
        put(&t, m);
        put(&t, " ");
        put(&t, r(d.iclass == IBEX_IC_LOAD ? d.rd : d.rs2));
        put(&t, ", ");
        put_dec(&t, d.imm);
        put(&t, "(");
        put(&t, r(d.rs1));
        put(&t, ")");
        break;
    case IBEX_IC_BRANCH:   /* "%s %s, %s, 0x%x" */
        put(&t, m);
        put(&t, " ");
        put(&t, r(d.rs1));
        put(&t, ", ");
        put(&t, r(d.rs2));
        put(&t, ", ");
        put_hex(&t, pc + (uint32_t)d.imm, 1);
        break;
    case IBEX_IC_JUMP:
        if (strcmp(m, "jal") == 0) {   /* "jal %s, 0x%x" */
            put(&t, "jal ");
            put(&t, r(d.rd));
            put(&t, ", ");
            put_hex(&t, pc + (uint32_t)d.imm, 1);
        } else {   /* "jalr %s, %d(%s)" */
            put(&t, "jalr ");
            put(&t, r(d.rd));
            put(&t, ", ");
            put_dec(&t, d.imm);
            put(&t, "(");
            put(&t, r(d.rs1));
            put(&t, ")");
        }
        break;
    case IBEX_IC_CSR:   /* "%s %s, 0x%03x, %d" or "..., %s" */
        put(&t, m);
        put(&t, " ");
        put(&t, r(d.rd));
        put(&t, ", ");
        put_hex(&t, d.csr, 3);
        put(&t, ", ");
        if (m[ml - 1] == 'i')
            put_dec(&t, d.imm);
        else
            put(&t, r(d.rs1));
        break;
    case IBEX_IC_ALU:
        if (strcmp(m, "lui") == 0 || strcmp(m, "auipc") == 0) {   /* "%s %s, 0x%x" */
            put(&t, m);
            put(&t, " ");
            put(&t, r(d.rd));
            put(&t, ", ");
            put_hex(&t, (uint32_t)d.imm >> 12, 1);
            break;
        }
        if (m[ml - 1] == 'i' || strcmp(m, "sltiu") == 0) {   /* "%s %s, %s, %d" */
            put(&t, m);
            put(&t, " ");
            put(&t, r(d.rd));
            put(&t, ", ");
            put(&t, r(d.rs1));
            put(&t, ", ");
            put_dec(&t, d.imm);
            break;
        }
        __attribute__((fallthrough));   /* register-register */
    case IBEX_IC_MUL:
    case IBEX_IC_MULH:
    case IBEX_IC_DIV:   /* "%s %s, %s, %s" */
        put(&t, m);
        put(&t, " ");
        put(&t, r(d.rd));
        put(&t, ", ");
        put(&t, r(d.rs1));
        put(&t, ", ");
        put(&t, r(d.rs2));
        break;
    default:
        put(&t, m);
        break;
    }
    end(&t);
}
