/* ELF loading through libelf: RV32 little-endian executables only, every
 * PT_LOAD segment into the simple_system RAM at its physical address (bss
 * zeroed), then reset with the PC where the RTL starts: simple_system's core
 * fetches its first instruction at boot_addr + 0x80 = 0x100080 and never
 * looks at the ELF header (ibex_simple_system.sv ties boot_addr_i to
 * 0x100000; the testbench's loader only copies the segments). With
 * entry = elf in the config the PC is e_entry instead, for programs linked
 * for another boot convention.
 *
 * Every way a file can be wrong gets its own message: not ELF, not 32-bit,
 * not little-endian, not RISC-V, not an executable, truncated (headers or a
 * segment's bytes past the end of the file), no loadable segment, a segment
 * or (entry = elf) the entry point outside RAM. Nothing is loaded unless all
 * checks pass. */
#include <errno.h>
#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/error.h"
#include "models/ibex/ibex_internal.h"

#ifndef EM_RISCV
#define EM_RISCV 243
#endif

static int in_ram(uint64_t addr, uint64_t size)
{
    return addr >= IBEX_SS_RAM_BASE && addr - IBEX_SS_RAM_BASE <= IBEX_SS_RAM_SIZE &&
           size <= IBEX_SS_RAM_SIZE - (addr - IBEX_SS_RAM_BASE);
}

/* Checks the image and, if load is set, loads it. */
static socmon_status check_and_load(ibex_core *c, char *img, size_t n, int load)
{
    Elf *e;
    Elf32_Ehdr *eh;
    size_t nph, nload = 0;
    socmon_status st = SOCMON_OK;

    if (n < EI_NIDENT || memcmp(img, ELFMAG, SELFMAG) != 0)
        return socmon_fail(SOCMON_EPARSE, "ibex: not an ELF file (no \\177ELF magic)");
    if ((unsigned char)img[EI_CLASS] != ELFCLASS32)
        return socmon_fail(SOCMON_EPARSE, "ibex: not an RV32 ELF file (class %u, want ELFCLASS32)",
                           (unsigned char)img[EI_CLASS]);
    if ((unsigned char)img[EI_DATA] != ELFDATA2LSB)
        return socmon_fail(SOCMON_EPARSE, "ibex: not a little-endian ELF file (data encoding %u)",
                           (unsigned char)img[EI_DATA]);
    if (n < sizeof(Elf32_Ehdr))
        return socmon_fail(SOCMON_EPARSE, "ibex: truncated ELF file: %zu bytes, the header needs %zu",
                           n, sizeof(Elf32_Ehdr));
    if (elf_version(EV_CURRENT) == EV_NONE)
        return socmon_fail(SOCMON_ENOTSUP, "ibex: libelf is out of date: %s", elf_errmsg(-1));
    e = elf_memory(img, n);
    if (!e)
        return socmon_fail(SOCMON_EPARSE, "ibex: not a readable ELF file: %s", elf_errmsg(-1));
    if (elf_kind(e) != ELF_K_ELF) {
        st = socmon_fail(SOCMON_EPARSE, "ibex: not an ELF file");
        goto done;
    }
    eh = elf32_getehdr(e);
    if (!eh) {
        st = socmon_fail(SOCMON_EPARSE, "ibex: bad ELF header: %s", elf_errmsg(-1));
        goto done;
    }
    if (eh->e_machine != EM_RISCV) {
        st = socmon_fail(SOCMON_EPARSE, "ibex: not a RISC-V ELF file (e_machine %u, want %u)",
                         eh->e_machine, EM_RISCV);
        goto done;
    }
    if (eh->e_type != ET_EXEC) {
        st = socmon_fail(SOCMON_EPARSE, "ibex: not an executable (e_type %u, want ET_EXEC)",
                         eh->e_type);
        goto done;
    }
    /* libelf quietly reports fewer program headers when the table is cut
     * off, so check the header's own count against the file size first. */
    if (eh->e_phnum && eh->e_phnum != PN_XNUM &&
        (eh->e_phoff > n || (uint64_t)eh->e_phnum * sizeof(Elf32_Phdr) > n - eh->e_phoff)) {
        st = socmon_fail(SOCMON_EPARSE,
                         "ibex: truncated ELF file: %u program headers at offset %u, file is %zu "
                         "bytes", eh->e_phnum, eh->e_phoff, n);
        goto done;
    }
    if (elf_getphdrnum(e, &nph) != 0) {
        st = socmon_fail(SOCMON_EPARSE, "ibex: bad program header count: %s", elf_errmsg(-1));
        goto done;
    }
    if (nph && (eh->e_phoff > n || (uint64_t)nph * sizeof(Elf32_Phdr) > n - eh->e_phoff)) {
        st = socmon_fail(SOCMON_EPARSE,
                         "ibex: truncated ELF file: %zu program headers at offset %u, file is %zu "
                         "bytes", nph, eh->e_phoff, n);
        goto done;
    }
    if (nph && eh->e_phentsize != sizeof(Elf32_Phdr)) {
        st = socmon_fail(SOCMON_EPARSE, "ibex: program header size %u, want %zu",
                         eh->e_phentsize, sizeof(Elf32_Phdr));
        goto done;
    }
    {
        if (nph && !elf32_getphdr(e)) {
            st = socmon_fail(SOCMON_EPARSE, "ibex: bad program headers: %s", elf_errmsg(-1));
            goto done;
        }
        for (size_t i = 0; i < nph; i++) {
            /* libelf hands out the table in place when it needs no
             * conversion, at whatever alignment e_phoff gives: copy each
             * entry out (the table is inside the file, checked above). */
            Elf32_Phdr ph;
            const Elf32_Phdr *p = &ph;
            memcpy(&ph, img + eh->e_phoff + i * sizeof ph, sizeof ph);
            if (p->p_type != PT_LOAD || p->p_memsz == 0)
                continue;
            if (p->p_filesz > p->p_memsz) {
                st = socmon_fail(SOCMON_EPARSE,
                                 "ibex: segment %zu: file size %u larger than memory size %u", i,
                                 p->p_filesz, p->p_memsz);
                goto done;
            }
            if (p->p_offset > n || p->p_filesz > n - p->p_offset) {
                st = socmon_fail(SOCMON_EPARSE,
                                 "ibex: truncated ELF file: segment %zu needs bytes %u..%u, file "
                                 "is %zu bytes", i, p->p_offset,
                                 (unsigned)((uint64_t)p->p_offset + p->p_filesz), n);
                goto done;
            }
            if (!in_ram(p->p_paddr, p->p_memsz)) {
                st = socmon_fail(SOCMON_ERANGE,
                                 "ibex: segment %zu at 0x%08x (%u bytes) is outside RAM "
                                 "0x%08x..0x%08x", i, p->p_paddr, p->p_memsz, IBEX_SS_RAM_BASE,
                                 IBEX_SS_RAM_BASE + IBEX_SS_RAM_SIZE - 1);
                goto done;
            }
            nload++;
            if (load) {
                uint8_t *dst = c->ram + (p->p_paddr - IBEX_SS_RAM_BASE);
                memcpy(dst, img + p->p_offset, p->p_filesz);
                memset(dst + p->p_filesz, 0, p->p_memsz - p->p_filesz);
            }
        }
    }
    if (nload == 0) {
        st = socmon_fail(SOCMON_EPARSE, "ibex: no loadable segment (PT_LOAD) in the ELF file");
        goto done;
    }
    if (c->cfg.entry == IBEX_ENTRY_ELF && (!in_ram(eh->e_entry, 2) || (eh->e_entry & 1))) {
        st = socmon_fail(SOCMON_ERANGE,
                         "ibex: entry point 0x%08x is outside RAM 0x%08x..0x%08x (entry=elf starts "
                         "there)", eh->e_entry, IBEX_SS_RAM_BASE, IBEX_SS_RAM_BASE + IBEX_SS_RAM_SIZE - 1);
        goto done;
    }
    if (load) {
        smn_ibex_reset(c);   /* PC at the boot address */
        if (c->cfg.entry == IBEX_ENTRY_ELF)
            c->pc = c->attr_pc = eh->e_entry;
    }
done:
    elf_end(e);
    return st;
}

socmon_status smn_ibex_load_elf_mem(ibex_core *c, const void *image, size_t n)
{
    char *img;
    socmon_status st;
    if (!c || (!image && n))
        return socmon_fail(SOCMON_EINVAL, "ibex: NULL core or ELF image");
    /* libelf may convert data in place: work on a private copy */
    img = malloc(n ? n : 1);
    if (!img)
        return socmon_fail(SOCMON_ENOMEM, "ibex: out of memory for a %zu-byte ELF image", n);
    if (n)
        memcpy(img, image, n);
    st = check_and_load(c, img, n, 0);
    if (st == SOCMON_OK) {
        if (!c->untouched) {   /* a core that ran or held something: the program alone in RAM */
            memset(c->ram, 0, IBEX_SS_RAM_SIZE);
            memset(c->ops, 0, (IBEX_SS_RAM_SIZE / 2) * sizeof *c->ops);
        }
        st = check_and_load(c, img, n, 1);
        c->untouched = 0;
    }
    free(img);
    return st;
}

socmon_status smn_ibex_load_elf_file(ibex_core *c, const char *path)
{
    FILE *f;
    char *buf = NULL;
    size_t len = 0, cap = 0;
    socmon_status st;
    if (!c || !path)
        return socmon_fail(SOCMON_EINVAL, "ibex: NULL core or path");
    f = fopen(path, "rb");
    if (!f)
        return socmon_fail(SOCMON_ENOENT, "ibex: cannot open '%s': %s", path, strerror(errno));
    for (;;) {
        size_t got;
        if (len == cap) {
            size_t ncap = cap ? cap * 2 : 65536;
            char *p = ncap > (64u << 20) ? NULL : realloc(buf, ncap);
            if (!p) {
                free(buf);
                fclose(f);
                return socmon_fail(SOCMON_ENOMEM, "ibex: '%s' is too large to load", path);
            }
            buf = p;
            cap = ncap;
        }
        got = fread(buf + len, 1, cap - len, f);
        len += got;
        if (got == 0)
            break;
    }
    if (ferror(f)) {
        free(buf);
        fclose(f);
        return socmon_fail(SOCMON_EIO, "ibex: cannot read '%s'", path);
    }
    fclose(f);
    st = smn_ibex_load_elf_mem(c, buf, len);
    free(buf);
    if (st != SOCMON_OK)
        return socmon_fail_prefix(st, "%s: ", path);
    return st;
}
