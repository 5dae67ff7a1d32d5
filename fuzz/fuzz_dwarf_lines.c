/* Fuzzes the DWARF reading path of a profile's source lines (src/analysis/profile_lines.c:
 * smn_dwarf_lines, through elfutils' libdw) with ELF images of any shape: an image libelf or
 * libdw refuses is "no lines", one they take gives lines or none; never a crash, a hang or a
 * line number without its file.
 *
 * The image is read as report reads a program: from a file descriptor with ELF_C_READ, so libelf
 * reads each section into a heap buffer of exactly its size and the sanitizer sees a read past
 * one (elf_memory would hand out pointers into the one image, where a string that runs past its
 * section reads the next section's bytes unseen: issue 37, item 17, a .debug_line_str without its
 * final NUL). The seed nonul_line_str.elf is such a file. */
#define _GNU_SOURCE
#include <libelf.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "results/profile_internal.h"

static int image_fd(const uint8_t *data, size_t size)
{
    int fd = memfd_create("fuzz_dwarf_lines", MFD_CLOEXEC);
    if (fd < 0)
        return -1;
    for (size_t done = 0; done < size;) {
        ssize_t w = write(fd, data + done, size - done);
        if (w <= 0) {
            close(fd);
            return -1;
        }
        done += (size_t)w;
    }
    return fd;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (elf_version(EV_CURRENT) == EV_NONE)
        return 0;
    int fd = image_fd(data, size);
    if (fd < 0)
        return 0;
    Elf *e = elf_begin(fd, ELF_C_READ, NULL);
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
    close(fd);
    return 0;
}
