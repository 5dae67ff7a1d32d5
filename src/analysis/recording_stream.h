/* A recording read from a stream that has no size to ask for and cannot be read twice (report
 * -i -: a pipe): all of it into memory, then opened over those bytes as a file is. */
#ifndef SOCMON_ANALYSIS_RECORDING_STREAM_H
#define SOCMON_ANALYSIS_RECORDING_STREAM_H

#include <stdio.h>
#include "socmon/recording.h"

/* name: the stream in messages ("stdin"); empty: the message for a stream with no byte. *keep:
 * the bytes an opened recording reads from, the caller's to free after it (NULL when they were
 * parsed whole). */
socmon_status smn_recording_read_stream(FILE *fp, const char *name, const char *empty, socmon_recording **out,
                                        void **keep);

#endif
