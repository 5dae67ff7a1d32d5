/* socmon's data files: SoC descriptions (socs/NAME.soc) and metric files
 * (metrics/NAME.json), found by name wherever socmon is installed.
 *
 * `socmon -t esp:soc=esp_4x4` and SOCMON_ESP_SOC=esp_4x4 name a file this way.
 * A name is looked up, in order, in
 *   1. $SOCMON_DATADIR/KIND/, when SOCMON_DATADIR is set and not empty (a
 *      directory laid out as share/socmon: socs/, metrics/);
 *   2. the install datadir compiled in, PREFIX/share/socmon/KIND/ (as
 *      configured by CMAKE_INSTALL_PREFIX);
 *   3. only when that install datadir does not exist (a build tree that was
 *      never installed), the source tree's KIND/ folder.
 * An installed socmon therefore never reads the source tree it was built
 * from. docs/install.md describes the layout. */
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

/* The directory step 2 or 3 above would search for KIND, without checking
 * that a file is there (e.g. for `socmon list` to print). Same errors. */
socmon_status socmon_data_dir(const char *kind, char *buf, size_t len);

SOCMON_END_DECLS
#endif
