/* socmon's version: the macros say which headers a program was compiled
 * against, the functions which library it runs with.
 *
 * This header is the one place the version is written: CMakeLists.txt reads
 * SOCMON_VERSION_MAJOR/MINOR/PATCH from it for project(VERSION), the shared
 * library's VERSION and SOVERSION (the major number), socmon.pc and the CMake
 * package's version file. A program can refuse a library older than its
 * headers with socmon_version_number() < SOCMON_VERSION_NUMBER. */
#ifndef SOCMON_VERSION_H
#define SOCMON_VERSION_H

#include "socmon/export.h"

#define SOCMON_VERSION_MAJOR 0
#define SOCMON_VERSION_MINOR 1
#define SOCMON_VERSION_PATCH 0

#define SOCMON_VERSION_STR_(x) #x
#define SOCMON_VERSION_STR(x) SOCMON_VERSION_STR_(x)
/* "0.1.0" */
#define SOCMON_VERSION                                                                     \
    SOCMON_VERSION_STR(SOCMON_VERSION_MAJOR)                                               \
    "." SOCMON_VERSION_STR(SOCMON_VERSION_MINOR) "." SOCMON_VERSION_STR(SOCMON_VERSION_PATCH)
/* major * 10000 + minor * 100 + patch: 0.1.0 is 100; compares in order. */
#define SOCMON_VERSION_NUMBER                                                              \
    (SOCMON_VERSION_MAJOR * 10000 + SOCMON_VERSION_MINOR * 100 + SOCMON_VERSION_PATCH)

SOCMON_BEGIN_DECLS

/* The running library's version, "MAJOR.MINOR.PATCH". */
const char *socmon_version(void);
/* The running library's SOCMON_VERSION_NUMBER. */
int socmon_version_number(void);

SOCMON_END_DECLS
#endif
