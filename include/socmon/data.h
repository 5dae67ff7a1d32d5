/* socmon's data files: SoC descriptions (socs/NAME.soc) and metric files
 * (metrics/NAME.json), found by name wherever socmon is installed.
 *
 * `socmon -t esp:soc=esp_4x4` and SOCMON_ESP_SOC=esp_4x4 name a file this way.
 * A name is looked up in KIND/ under the first of these data roots that
 * applies:
 *   1. $SOCMON_DATADIR, when set and not empty (a directory laid out as
 *      share/socmon: socs/, metrics/); ctest sets it to the source tree;
 *   2. a program (or libsocmon.so) of a build tree: the source tree that
 *      build tree was configured from, named by the file socmon-source-tree
 *      beside it (CMake writes it; an install has none);
 *   3. the install holding the code: share/socmon found from the directory
 *      of libsocmon.so (or of the program the static library is linked
 *      into) the way the configured LIBDIR (or BINDIR) leads to it, when
 *      that directory exists; so a copy installed with
 *      `cmake --install --prefix OTHER`, or a moved prefix, finds its own;
 *   4. the configured install datadir, PREFIX/share/socmon.
 * No path into the source tree is compiled in: an installed socmon never
 * reads the tree it was built from. docs/install.md describes the layout. */
#ifndef SOCMON_DATA_H
#define SOCMON_DATA_H

#include "socmon/export.h"

#include <stddef.h>
#include "socmon/status.h"

SOCMON_BEGIN_DECLS

/* Resolves the data file NAME of KIND ("socs" or "metrics") into buf (len
 * bytes, NUL-terminated). NAME is a bare file name, with or without its
 * extension (".soc" for socs, ".json" for metrics): "esp_4x4" and
 * "esp_4x4.soc" both find socs/esp_4x4.soc. A NAME holding a '/' is a path
 * and is copied unchanged. Errors: SOCMON_EINVAL (NULL argument, unknown
 * kind, empty name), SOCMON_ENOENT (not found; the message names every
 * directory tried), SOCMON_ERANGE (buf too small). */
socmon_status socmon_data_path(const char *kind, const char *name, char *buf, size_t len);

/* The directory the rules above would search for KIND, without checking
 * that a file is there (e.g. for `socmon list` to print). Same errors. */
socmon_status socmon_data_dir(const char *kind, char *buf, size_t len);

SOCMON_END_DECLS
#endif
