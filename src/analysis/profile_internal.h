/* Internal to the profile's views: the DWARF reading path, on its own for the fuzzer. */
#ifndef SOCMON_ANALYSIS_PROFILE_INTERNAL_H
#define SOCMON_ANALYSIS_PROFILE_INTERNAL_H

#include <libelf.h>
#include <stddef.h>
#include <stdint.h>

/* file[i], line[i]: pcs[i]'s source line from e's DWARF (file[i] malloc'd, NULL when none).
 * Returns how many have one, or -1 when e has no DWARF libdw can read. */
int smn_dwarf_lines(Elf *e, const uint64_t *pcs, size_t n, char **file, unsigned *line);

#endif
