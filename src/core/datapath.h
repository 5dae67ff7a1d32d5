/* Internal to socmon_data_path (datapath.c), declared here for its test:
 * where an installed socmon's data lives relative to the file that holds
 * its code. */
#ifndef SOCMON_CORE_DATAPATH_H
#define SOCMON_CORE_DATAPATH_H

#include <stddef.h>
#include "socmon/status.h"

/* The file a build tree holds beside its programs and libsocmon.so: one line, the path of the
 * source tree it was configured from (CMakeLists.txt writes it; an install copies none). */
#define SMN_BUILD_TREE_FILE "socmon-source-tree"

/* The data root of an install that holds the file OBJ: OBJ's directory
 * followed by the configured way from BINDIR to DATADIR/socmon (OBJ is a
 * program) or from LIBDIR (OBJ is libsocmon.so), the first that exists,
 * resolved with realpath into buf. SOCMON_ENOENT when neither exists,
 * SOCMON_ERANGE when the result does not fit in len bytes. */
socmon_status smn_data_root_near(const char *obj, char *buf, size_t len);

#endif
