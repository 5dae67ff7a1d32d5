/* Fuzzes the DWARF reading path of a profile's source lines (src/analysis/profile_lines.c:
 * smn_dwarf_lines, through elfutils' libdw) with ELF images of any shape: an image libelf or
 * libdw refuses is "no lines", one they take gives lines or none; never a crash, a hang or a
 * line number without its file. */
#include <libelf.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/profile_internal.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (elf_version(EV_CURRENT) == EV_NONE)
        return 0;
    char *img = malloc(size ? size : 1);
    if (!img)
        return 0;
    memcpy(img, data, size);
    Elf *e = elf_memory(img, size);
    if (e) {
        uint64_t pcs[48];
        char *file[48];
        unsigned line[48];
        for (size_t i = 0; i < 48; i++)   /* simple_system's code, and a few addresses elsewhere */
            pcs[i] = i < 40 ? 0x100080u + 2 * i : (uint64_t)i << 28;
        int n = smn_dwarf_lines(e, pcs, 48, file, line);
        if (n > 48)
            abort();
        for (size_t i = 0; n >= 0 && i < 48; i++) {
            if (!file[i] && line[i])
                abort();
            free(file[i]);
        }
        elf_end(e);
    }
    free(img);
    return 0;
}
