/* The function symbols of an RV32 ELF, for attributing counts to functions:
 * sorted by address, each covering [addr, end). Functions (STT_FUNC) and
 * untyped labels (STT_NOTYPE, what hand-written assembly defines) in
 * executable sections count; mapping symbols ("$x") and .L labels do not.
 * A symbol without a size ends where the next one starts (end of RAM for
 * the last), so assembly routines get the code up to the next label; where
 * a sized function ends before the next symbol, the gap belongs to nobody.
 * Of several symbols at one address the first (a sized one if any) stays. */
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "core/error.h"
#include "models/ibex/ibex_internal.h"

static int by_addr(const void *a, const void *b)
{
    const ibex_symbol *x = a, *y = b;
    if (x->addr != y->addr)
        return x->addr < y->addr ? -1 : 1;
    /* at one address a sized FUNC wins over a label */
    return (y->end > y->addr) - (x->end > x->addr);
}

void smn_ibex_symbols_free(ibex_symbol *syms, size_t n)
{
    for (size_t i = 0; syms && i < n; i++)
        free(syms[i].name);
    free(syms);
}

static int wanted(Elf *e, const GElf_Sym *s, const char *name)
{
    int type = GELF_ST_TYPE(s->st_info);
    GElf_Shdr sh;
    Elf_Scn *scn;
    if (!name || !*name || name[0] == '$' || strncmp(name, ".L", 2) == 0)
        return 0;
    if (type != STT_FUNC && type != STT_NOTYPE)
        return 0;
    if (s->st_shndx == SHN_UNDEF || s->st_shndx >= SHN_LORESERVE)
        return 0;
    scn = elf_getscn(e, s->st_shndx);
    return scn && gelf_getshdr(scn, &sh) && (sh.sh_flags & SHF_EXECINSTR);
}

socmon_status smn_ibex_symbols_read(const char *path, ibex_symbol **out, size_t *nout)
{
    *out = NULL;
    *nout = 0;
    if (elf_version(EV_CURRENT) == EV_NONE)
        return socmon_fail(SOCMON_EPARSE, "ibex: libelf: %s", elf_errmsg(-1));
    int fd = open(path, O_RDONLY);
    if (fd < 0)
        return socmon_fail(SOCMON_ENOENT, "ibex: cannot open '%s': %s", path, strerror(errno));
    Elf *e = elf_begin(fd, ELF_C_READ, NULL);
    ibex_symbol *v = NULL;
    size_t n = 0, cap = 0;
    socmon_status st = SOCMON_OK;
    if (!e || elf_kind(e) != ELF_K_ELF) {
        st = socmon_fail(SOCMON_EPARSE, "ibex: '%s' is not an ELF file", path);
        goto done;
    }
    for (Elf_Scn *scn = NULL; st == SOCMON_OK && (scn = elf_nextscn(e, scn));) {
        GElf_Shdr sh;
        if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_SYMTAB || !sh.sh_entsize)
            continue;
        Elf_Data *d = elf_getdata(scn, NULL);
        size_t count = d ? d->d_size / sh.sh_entsize : 0;
        for (size_t i = 0; i < count; i++) {
            GElf_Sym s;
            if (!gelf_getsym(d, (int)i, &s))
                continue;
            const char *name = elf_strptr(e, sh.sh_link, s.st_name);
            if (!wanted(e, &s, name))
                continue;
            if (n == cap) {
                size_t nc = cap ? cap * 2 : 64;
                ibex_symbol *p = realloc(v, nc * sizeof *v);
                if (!p) {
                    st = socmon_fail(SOCMON_ENOMEM, "ibex: out of memory for symbols");
                    break;
                }
                v = p;
                cap = nc;
            }
            v[n].addr = (uint32_t)s.st_value;
            v[n].end = (uint32_t)(s.st_value + s.st_size);
            v[n].name = strdup(name);
            if (!v[n].name) {
                st = socmon_fail(SOCMON_ENOMEM, "ibex: out of memory for symbols");
                break;
            }
            n++;
        }
    }
    if (st == SOCMON_OK && n) {
        qsort(v, n, sizeof *v, by_addr);
        /* one symbol per address (aliases: the first after sorting) */
        size_t k = 0;
        for (size_t i = 0; i < n; i++) {
            if (k && v[k - 1].addr == v[i].addr) {
                free(v[i].name);
                continue;
            }
            v[k++] = v[i];
        }
        n = k;
        for (size_t i = 0; i < n; i++) {
            uint32_t next = i + 1 < n ? v[i + 1].addr : IBEX_SS_RAM_BASE + IBEX_SS_RAM_SIZE;
            if (v[i].end <= v[i].addr || v[i].end > next)
                v[i].end = next;
        }
    }
done:
    if (e)
        elf_end(e);
    close(fd);
    if (st != SOCMON_OK) {
        smn_ibex_symbols_free(v, n);
        return st;
    }
    *out = v;
    *nout = n;
    return SOCMON_OK;
}
