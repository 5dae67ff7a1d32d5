/* Internal to the profile's views: the DWARF reading path, on its own for the fuzzer. */
#ifndef SOCMON_ANALYSIS_PROFILE_INTERNAL_H
#define SOCMON_ANALYSIS_PROFILE_INTERNAL_H

#include <libelf.h>
#include <stddef.h>
#include <stdint.h>

/* file[i], line[i]: pcs[i]'s source line from e's DWARF (file[i] malloc'd, NULL when none).
 * Returns how many have one, -1 when e has no DWARF libdw can read, or -2 when a DWARF string
 * section is damaged (smn_dwarf_strings_check: libdw is not given it). */
int smn_dwarf_lines(Elf *e, const uint64_t *pcs, size_t n, char **file, unsigned *line);
/* A line's file name as binutils gives it: name (as libdw gives it) when absolute or comp_dir
 * (the unit's DW_AT_comp_dir) is NULL or empty, else comp_dir/name. malloc'd (NULL: no memory). */
char *smn_dwarf_file_name(const char *comp_dir, const char *name);
/* 0 when every DWARF string section of e (.debug_str, .debug_line_str, their .dwo and .zdebug
 * forms) is empty or ends with its NUL byte; else -1 and the first bad one's name in why. libdw
 * takes a string at an offset into such a section as running to the next NUL: in a section that
 * lacks its last one, it reads past the section's buffer (issue 37, item 17). */
int smn_dwarf_strings_check(Elf *e, char *why, size_t len);

#endif
