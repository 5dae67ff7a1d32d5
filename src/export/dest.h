/* Where a document goes: a format on a file (replaced whole, added to, or plain), on stdout or
 * on stderr, and the pipeline's consumer that writes a document there (export/feed.h). What a
 * command's options name is its own business; this is what they come to. */
#ifndef SOCMON_EXPORT_DEST_H
#define SOCMON_EXPORT_DEST_H

#include "export/feed.h"
#include "export/output.h"
#include "export/sink.h"

typedef struct smn_dest {
    const char *format;      /* the output format's name */
    const char *path;        /* NULL: stdout, or stderr with to_stderr */
    int append;              /* path: added to, not replaced */
    int to_stderr;
    smn_output_opts opts;
} smn_dest;

/* An output open on its sink. */
typedef struct smn_dest_output {
    smn_sink *sink;
    smn_output *out;
} smn_dest_output;

/* 1 for the Prometheus formats ("prometheus", "openmetrics"): one document per file. */
int smn_format_is_exposition(const char *format);
/* Opens d's format on d's place. An exposition or a Parquet file is replaced whole when its
 * document ends without error (a collector reads it whenever it likes; half a Parquet file is
 * no file at all), any other file is written in place or added to. */
socmon_status smn_dest_open(smn_dest_output *co, const smn_dest *d);
/* Opens d's format on d's path replaced whole (never half a file), or on stdout (no path);
 * d's deltas, append and to_stderr do not apply. */
socmon_status smn_dest_open_whole(smn_dest_output *co, const smn_dest *d);
/* Ends the document if st is still SOCMON_OK, closes the sink and frees; returns the first
 * failure, its message kept (a file being replaced keeps its old content). */
socmon_status smn_dest_finish(smn_dest_output *co, socmon_status st);
/* Frees an output that wrote nothing, without ending its document. */
void smn_dest_discard(smn_dest_output *co);

/* A document written through the pipeline: totals open the output only when they are ready
 * (so a file is written only after a run that succeeded), a timeline at once. */
typedef struct smn_dest_doc {
    smn_dest_output co;
    smn_dest dest;
    smn_feed *feed;
} smn_dest_doc;
socmon_status smn_dest_doc_open(smn_dest_doc *d, const smn_dest *dest, smn_feed_opts *fo);
/* Frees the feed, then smn_dest_finish (nothing to finish if the output never opened). */
socmon_status smn_dest_doc_finish(smn_dest_doc *d, socmon_status st);

/* Makes `to` a copy of the file `from` (at most 1 GiB), whole or not at all: `to` is replaced
 * only once every byte is written (check --update's new baseline). */
socmon_status smn_dest_copy_file(const char *to, const char *from);

#endif
