/* Internal: a small file read whole (rules, sweep files, sweep tables). One reader, so every such
 * file fails the same way: a missing file is SOCMON_ENOENT naming it, an unreadable one
 * SOCMON_EIO with the system's words, one beyond its size limit SOCMON_EINVAL ("over N bytes: not
 * a WHAT"), never half read. */
#ifndef SOCMON_CORE_FILE_H
#define SOCMON_CORE_FILE_H

#include <stddef.h>
#include "socmon/status.h"

/* *buf (malloc'd, NUL-terminated; the caller frees it) and *len get the file's bytes. max: the
 * most a file of this kind can hold; what: its kind, for the message ("rules file"). */
socmon_status smn_file_read(const char *path, size_t max, const char *what, char **buf, size_t *len);

#endif
