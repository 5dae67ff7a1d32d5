/* Byte sinks: where an output format's bytes go (a FILE such as stdout, a file the sink opens
 * itself, a growable memory buffer; later a socket).
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

typedef struct socmon_sink socmon_sink;

typedef struct socmon_sink_ops {
    /* Writes all len bytes or fails. */
    socmon_status (*write)(socmon_sink *s, const void *buf, size_t len);
    /* Pushes buffered bytes to their destination. */
    socmon_status (*flush)(socmon_sink *s);
    /* Flushes, releases what the sink holds and frees s (even on failure). */
    socmon_status (*close)(socmon_sink *s);
} socmon_sink_ops;

/* Every sink starts with this; a sink implementation embeds it as its first member. */
struct socmon_sink {
    const socmon_sink_ops *ops;
    socmon_status err;   /* the first failure, repeated by every later call */
    char msg[200];       /* its message, for the repeats */
};

/* A sink over a FILE the caller keeps (stdout, stderr, a tmpfile): close flushes, never fcloses.
 * name names it in error messages ("stdout"). */
socmon_status socmon_sink_file(FILE *fp, const char *name, socmon_sink **out);
/* A sink that creates (truncates) path and closes it on close. */
socmon_status socmon_sink_open_path(const char *path, socmon_sink **out);
/* A sink that adds to the end of path (creating it if absent) and closes it on close. */
socmon_status socmon_sink_append_path(const char *path, socmon_sink **out);
/* A sink that replaces path in one step (sink_replace.c): the bytes go to a new file in path's
 * directory, renamed over path when the sink closes with no failure, so a reader sees the old
 * file or the new one, never part of one. A path that is a device node, FIFO or symlink is
 * written through, as socmon_sink_open_path does. */
socmon_status socmon_sink_replace_path(const char *path, socmon_sink **out);
/* Marks s failed with why (if it has not failed yet): later writes fail, and a replacing sink
 * leaves its path untouched at close. For a document abandoned half way. */
void socmon_sink_cancel(socmon_sink *s, socmon_status why);
/* A sink that collects the bytes in memory (tests; later network frames). */
socmon_status socmon_sink_memory(socmon_sink **out);
/* The bytes a memory sink holds so far, NUL-terminated (len may be NULL); NULL for another sink. */
const char *socmon_sink_memory_data(const socmon_sink *s, size_t *len);

socmon_status socmon_sink_write(socmon_sink *s, const void *buf, size_t len);
socmon_status socmon_sink_puts(socmon_sink *s, const char *str);
socmon_status socmon_sink_putc(socmon_sink *s, char c);
socmon_status socmon_sink_printf(socmon_sink *s, const char *fmt, ...) SOCMON_PRINTF(2, 3);
socmon_status socmon_sink_vprintf(socmon_sink *s, const char *fmt, va_list ap) SOCMON_PRINTF(2, 0);
socmon_status socmon_sink_flush(socmon_sink *s);
/* Closes and frees s (NULL is fine): the first failure of its life, else the close's own. */
socmon_status socmon_sink_close(socmon_sink *s);

#endif
