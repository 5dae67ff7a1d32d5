/* Safe output paths for socmon record: check the destination before the run, never write
 * through or replace a device node, FIFO or symlink unless asked, move an existing recording to
 * PATH.old, and make PATH appear only once it holds a header, exclusively and locked, so that of
 * two recorders on one path exactly one gets it. The scheme is described in docs/output-paths.md. */
#ifndef SOCMON_CLI_DEST_H
#define SOCMON_CLI_DEST_H

#include <stdint.h>
#include "socmon/status.h"

/* Free space the filesystem must have before a run starts: room for the first blocks of a
 * recording (a block holds at most 4 MiB of unencoded values, far less once compressed). */
#define CLI_DEST_MIN_FREE (4u << 20)

typedef struct cli_dest {
    char *path;       /* PATH as given */
    char *dir;        /* its directory */
    char *tmpname;    /* the unique name while unpublished (mkstemp fallback); NULL otherwise */
    int fd;           /* the file the run writes; -1 when closed */
    int force;        /* --force */
    int through;      /* writing through an existing device node, FIFO or symlink (--force) */
    int published;    /* PATH names our file */
    int moved_old;    /* an existing file was moved to PATH.old */
} cli_dest;

/* Checks PATH (its directory exists and is writable, enough free space, not a directory; a
 * device node, FIFO, socket or symlink only with force) and opens the file the run writes: an
 * unnamed (O_TMPFILE) or uniquely named file in PATH's directory, locked (flock LOCK_EX); with
 * force and a special file, that file itself, locked. d->fd is then ready for writing. On
 * failure nothing was changed on disk and the message names the path and what is wrong. */
socmon_status cli_dest_open(cli_dest *d, const char *path, int force);

/* The checks that fit a small file written at the end of a run (stat -o): PATH is no directory,
 * its directory exists and is writable. Device nodes, FIFOs and symlinks are fine there
 * (stat -o /dev/stderr). Nothing is created. */
socmon_status cli_dest_check_plain(const char *path);

/* Makes PATH name the file once its header is written: under a lock on the directory (so two
 * socmon records publish one after the other), fails if PATH is being written by another
 * recorder (naming its pid when /proc/locks tells), moves an existing file to PATH.old (with
 * force: replaces it), then links the file to PATH with an exclusive create. Nothing to do when
 * writing through a special file. */
socmon_status cli_dest_publish(cli_dest *d);

/* The size of the file written when it is a regular file (fstat), else `written`. */
uint64_t cli_dest_size(const cli_dest *d, uint64_t written);

/* Closes the file (the lock goes with it). An unpublished file is removed. Returns a failure
 * of close(2) (a delayed write error) on a published file. */
socmon_status cli_dest_close(cli_dest *d);

#endif
