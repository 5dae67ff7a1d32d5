/* Byte sinks: where an output format's bytes go (a FILE such as stdout, a file the sink opens
 * itself by path, a growable memory buffer; later a socket).
 *
 * A sink is a small ops table (write, flush, close) so a new destination is one file. Errors
 * are never lost: every write returns a status, and a sink remembers its first failure, so a
 * format may write many pieces and the caller still learns of a full disk from flush or close
 * (stdio buffers, so a write to a full device often only fails when flushed). */
#ifndef SOCMON_EXPORT_SINK_H
#define SOCMON_EXPORT_SINK_H

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include "socmon/status.h"

typedef struct smn_sink smn_sink;

typedef struct smn_sink_ops {
    /* Writes all len bytes or fails. */
    socmon_status (*write)(smn_sink *s, const void *buf, size_t len);
    /* Pushes buffered bytes to their destination. */
    socmon_status (*flush)(smn_sink *s);
    /* Flushes, releases what the sink holds and frees s (even on failure). */
    socmon_status (*close)(smn_sink *s);
} smn_sink_ops;

/* Every sink starts with this; a sink implementation embeds it as its first member. */
struct smn_sink {
    const smn_sink_ops *ops;
    socmon_status err;   /* the first failure, repeated by every later call */
    char msg[200];       /* its message, for the repeats */
};

/* A sink over a FILE the caller keeps (stdout, stderr, a tmpfile): close flushes, never fcloses.
 * name names it in error messages ("stdout"). */
socmon_status smn_sink_file(FILE *fp, const char *name, smn_sink **out);
/* How a sink by path (sink_path.c, docs/output-paths.md) writes PATH. */
typedef enum smn_path_mode {
    SOCMON_PATH_PLAIN,     /* created (truncated) in place */
    SOCMON_PATH_APPEND,    /* added to the end, created if absent */
    /* a new file in PATH's directory renamed over PATH when the sink closes with no failure, so a
     * reader sees the old file or the new one, never part of one (an exposition); a device node,
     * FIFO or symlink at PATH is written through */
    SOCMON_PATH_REPLACE,
    /* a new file, unnamed (O_TMPFILE) or uniquely named, locked (flock), that PATH names only
     * after smn_sink_publish; checked first: the directory exists, is writable and has
     * SOCMON_SINK_MIN_FREE bytes free, PATH is no directory, no other recorder's file, and a
     * device node, FIFO or symlink only with force (then written through, never replaced) */
    SOCMON_PATH_PUBLISH,
    /* an existing regular file continued, read-write and locked (record --append); none
     * there: as SOCMON_PATH_PUBLISH */
    SOCMON_PATH_CONTINUE,
} smn_path_mode;

/* Free space a published file's filesystem must have: room for the first blocks of a recording
 * (a block holds at most 4 MiB of unencoded values, far less once compressed). */
#define SOCMON_SINK_MIN_FREE (4u << 20)

/* A sink that writes path as mode says; force: PUBLISH's --force (an existing file is replaced,
 * not moved to PATH.old; a special file is written through). On failure nothing was changed on
 * disk and the message names the path and what is wrong. Closing a sink never published
 * removes its new file; a failed or cancelled REPLACE leaves PATH as it was. */
socmon_status smn_sink_path(const char *path, smn_path_mode mode, int force, smn_sink **out);
/* Makes PATH name a PUBLISH sink's file (its bytes flushed): under a lock on the directory (so
 * two recorders publish one after the other), fails if PATH is being written by another
 * recorder (naming its pid when /proc/locks tells), moves an existing file to PATH.old (*moved_old
 * set; with force: replaces it), then links the file to PATH, which never replaces anything.
 * Nothing more to do when PATH already names it (through a special file, continued). */
socmon_status smn_sink_publish(smn_sink *s, int *moved_old);
/* The file descriptor of a sink by path (for a writer of its own, e.g. the recording's), else -1. */
int smn_sink_fd(const smn_sink *s);
/* PATH names the sink's file: written in place, continued, through a special file, or published. */
int smn_sink_is_published(const smn_sink *s);
/* The checks that fit a small file written at the end of a run (stat -o): PATH is no directory,
 * its directory exists and is writable. Device nodes, FIFOs and symlinks are fine there
 * (stat -o /dev/stderr). Nothing is created. */
socmon_status smn_sink_check_path(const char *path);
/* Marks s failed with why (if it has not failed yet): later writes fail, and a replacing sink
 * leaves its path untouched at close. For a document abandoned half way. */
void smn_sink_cancel(smn_sink *s, socmon_status why);
/* A sink that collects the bytes in memory (tests; later network frames). */
socmon_status smn_sink_memory(smn_sink **out);
/* The bytes a memory sink holds so far, NUL-terminated (len may be NULL); NULL for another sink. */
const char *smn_sink_memory_data(const smn_sink *s, size_t *len);

socmon_status smn_sink_write(smn_sink *s, const void *buf, size_t len);
socmon_status smn_sink_puts(smn_sink *s, const char *str);
socmon_status smn_sink_putc(smn_sink *s, char c);
socmon_status smn_sink_printf(smn_sink *s, const char *fmt, ...) SOCMON_PRINTF(2, 3);
socmon_status smn_sink_vprintf(smn_sink *s, const char *fmt, va_list ap) SOCMON_PRINTF(2, 0);
socmon_status smn_sink_flush(smn_sink *s);
/* Closes and frees s (NULL is fine): the first failure of its life, else the close's own. */
socmon_status smn_sink_close(smn_sink *s);

#endif
