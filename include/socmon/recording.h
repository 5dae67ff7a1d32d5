/* Recordings: a timeline together with the schema needed to read it later.
 *
 * `socmon record` writes one; `socmon report` and the exporters read it. The
 * file holds the target spec, the device name, every counter's schema, the
 * device parameters, the sampling interval and the timeline. The format is
 * described in docs/recording-format.md. A version 1 file, or a version 2
 * file whose header is damaged, that is malformed or truncated is rejected
 * with SOCMON_EPARSE and a message naming the byte offset; a version 2 file
 * with damaged or missing blocks loads up to what was good, and
 * socmon_recording_get_info says what was lost. */
#ifndef SOCMON_RECORDING_H
#define SOCMON_RECORDING_H

#include "socmon/export.h"

#include <stddef.h>
#include <stdint.h>
#include "socmon/phase.h"
#include "socmon/sample.h"
#include "socmon/timeline.h"

SOCMON_BEGIN_DECLS

/* Opaque: a recording's layout is the library's own, so it can change (e.g.
 * for streaming recordings) without breaking programs built against an older
 * version. Read it through the accessors below. */
typedef struct socmon_recording socmon_recording;

/* Builds an empty recording whose schema is the set's counters and the
 * device's parameters. target (the spec it was recorded on) may be NULL: unknown. */
socmon_status socmon_recording_new(const socmon_set *set, const char *target,
                                   uint64_t interval_ns, socmon_recording **out);
void socmon_recording_free(socmon_recording *rec);
/* A document the recording carries (socmon_recwriter_attach): its bytes, owned by rec;
 * SOCMON_ENOENT when it has none of that name. */
socmon_status socmon_recording_attachment(const socmon_recording *rec, const char *name, const void **data,
                                          size_t *len);
/* The recording's attachments in file order: how many, and the i-th's name, its length and the
 * bytes its record takes in the file (compressed, with its header); NULL past the last. */
size_t socmon_recording_nattachments(const socmon_recording *rec);
const char *socmon_recording_attachment_at(const socmon_recording *rec, size_t i, size_t *len,
                                           uint64_t *file_bytes);
/* The workload phases the recording carries (its attachment "phases", socmon/phase.h): *out is
 * the caller's to free. SOCMON_ENOENT when it has none (a recording from before phases, or of a
 * target that reports none); SOCMON_EINVAL when the attachment does not parse. */
socmon_status socmon_recording_phases(const socmon_recording *rec, socmon_phase **out, size_t *n);

/* Says whether rec's timestamps are a model's simulated time (nonzero) or a
 * real clock; socmon_recording_save keeps it in the file's header. */
void socmon_recording_set_simulated(socmon_recording *rec, int simulated);
/* Writes format v2 (through a socmon_recwriter) to a temporary file created
 * next to path (a fresh name, mode 0666 less the umask), then renames it over
 * path. The file's flush period is 0 (unknown) by design: a saved recording
 * is written whole, so a file cut short was damaged after the save, not lost
 * to a killed recorder's unflushed samples. */
socmon_status socmon_recording_save(const socmon_recording *rec, const char *path);
/* Most values (samples x counters) a load holds: 2^30, 8 GiB of counter values (38 s of the 8x8
 * ESP SoC at -I 100us). A file that decodes to more is SOCMON_ERANGE naming the figures;
 * socmon_recording_open reads one of any length. */
#define SOCMON_RECORDING_LOAD_MAX_VALUES (UINT64_C(1) << 30)
socmon_status socmon_recording_load(const char *path, socmon_recording **out);
/* Same as load, from memory (used by the fuzzer). */
socmon_status socmon_recording_parse(const void *buf, size_t len, socmon_recording **out);
/* Opens a recording without loading its samples: one pass over the file, one block in memory at
 * a time, checks it as load does (the same errors, the same socmon_recording_get_info) and keeps
 * its schema and attachments; socmon_recording_nsamples counts its samples. Its timeline stays
 * empty: a recording source over it (socmon_source_recording) reads the samples from the file
 * again, a block at a time, whenever it runs. So a recording of any length can be summed, shown
 * or exported, with memory bounded by a block; a load holds at most 2^30 values (samples x
 * counters). The file is mapped read-only until socmon_recording_free; a version 1 file is
 * loaded. socmon_recording_save writes an opened recording too, its samples read from its file. */
socmon_status socmon_recording_open(const char *path, socmon_recording **out);
/* The same over len bytes in memory, which must stay unchanged until rec is freed (the samples
 * are read from them on every pass); a version 1 buffer is parsed. */
socmon_status socmon_recording_open_buffer(const void *buf, size_t len, socmon_recording **out);
/* 1 for a recording opened (socmon_recording_open*), whose samples stay in its file; 0 loaded
 * (rec must not be NULL). */
int socmon_recording_streamed(const socmon_recording *rec);
/* The samples it holds: its timeline's length, or those of its file for an opened one (rec must
 * not be NULL). */
uint64_t socmon_recording_nsamples(const socmon_recording *rec);

/* ---- what a recording holds (rec must not be NULL) ----
 * Strings and arrays belong to the recording: valid until it is freed. */

/* The target spec it was recorded from, e.g. "esp" or "tensix:bound=pack". The accessors below
 * need a recording: rec must not be NULL. */
const char *socmon_recording_target(const socmon_recording *rec);
/* The device's name (rec must not be NULL). */
const char *socmon_recording_device(const socmon_recording *rec);
/* The sampling interval that was requested, in ns (rec must not be NULL). */
uint64_t socmon_recording_interval_ns(const socmon_recording *rec);
/* The schema: ncounters counters, in the order of every sample's values (rec must not be NULL). */
size_t socmon_recording_ncounters(const socmon_recording *rec);
const socmon_counter *socmon_recording_counters(const socmon_recording *rec);
/* The device parameters (e.g. clock_hz): nparams names and values (rec must not be NULL). */
size_t socmon_recording_nparams(const socmon_recording *rec);
const char *const *socmon_recording_param_names(const socmon_recording *rec);
const double *socmon_recording_param_values(const socmon_recording *rec);
/* The samples. Writable, so that a sampler run can append to a new
 * recording (socmon_sampler_run(..., socmon_recording_timeline(rec), ...)). rec must not be
 * NULL. */
socmon_timeline *socmon_recording_timeline(socmon_recording *rec);

/* ---- streaming recordings (format v2, docs/recording-format.md) ----
 *
 * A writer puts a recording on a file descriptor as the run goes: a header
 * (schema, target, device parameters, units, interval, start time), then
 * self-checking compressed blocks of samples, then an end record. Memory stays
 * bounded by one block however long the run. A process killed at any point
 * leaves a file that socmon_recording_load reads up to its last whole block;
 * socmon_recording_get_info tells what could not be read. A write error
 * (ENOSPC, EFBIG, EIO, EPIPE, ...) is SOCMON_EIO (EPERM/EACCES: SOCMON_EPERM)
 * with a message naming the errno; the writer then stops (every later call
 * returns the error) and the file holds every whole block written before. */
typedef struct socmon_recwriter socmon_recwriter;

typedef struct socmon_recwriter_opts {
    uint32_t block_samples;  /* a block is written when it holds this many samples; 0: the default (4096) */
    uint32_t block_bytes;    /* ... or this many bytes of unencoded values; 0: the default (4 MiB) */
    int level;               /* zstd level, 1..19; 0: the default */
    uint64_t flush_ns;       /* the caller's flush period, kept in the header so a reader of a
                              * killed recording can say how much it may have lost; 0: unknown */
    int simulated;           /* the clock of the timestamps, kept in the header: 1 a model's simulated
                              * time, -1 a real clock, 0 not said (a reader then guesses, as for v1) */
    size_t size;            /* sizeof(socmon_recwriter_opts) as the caller was built, or 0 (the first
                               layout): members are only added after this one, and the library
                               reads them only where size covers them */
} socmon_recwriter_opts;

/* Writes the header to fd (opened for writing by the caller, who also closes
 * it, after socmon_recwriter_close). The schema is the set's counters and the
 * device's parameters, as socmon_recording_new takes them. opts and target may be NULL. */
socmon_status socmon_recwriter_open(int fd, const socmon_set *set, const char *target, uint64_t interval_ns,
                                    const socmon_recwriter_opts *opts, socmon_recwriter **out);
/* Adds one sample (s->n must equal the set's size); writes a block when one is full.
 * Timestamps must not go backwards: a sample stamped before the previous one
 * (of this file, reopened or not) is SOCMON_ERANGE naming both timestamps; it
 * is not written and the writer goes on. An equal timestamp is accepted (a
 * coarse clock can stamp two reads alike; that interval is 0 ns long). */
socmon_status socmon_recwriter_append(socmon_recwriter *w, const socmon_sample *s);
/* Writes the samples not yet written as one block (nothing if there are none)
 * and asks the kernel to keep them (fdatasync). Call it every flush period. */
socmon_status socmon_recwriter_flush(socmon_recwriter *w);
/* Writes a named document with the recording (at most 64 bytes of name, 64 MiB of data, 16 of
 * them; the samples so far are written first): a program's exact profile is "profile"
 * (socmon/profile.h). Read back with socmon_recording_attachment. A second one of a name
 * (SOCMON_EINVAL) and a 17th (SOCMON_ERANGE) are refused, counting those of a reopened file. */
socmon_status socmon_recwriter_attach(socmon_recwriter *w, const char *name, const void *data, size_t len);
/* Flushes, writes the end record and frees w (also when it fails: the file
 * then holds every block written before the failure). NULL is a no-op. */
socmon_status socmon_recwriter_close(socmon_recwriter *w);

/* Intentional gaps: the next appended sample gets index `index` (>= the
 * next index), so the samples in between are lost (e.g. a collector whose
 * agent dropped them: the collector uses the agent's sequence numbers as
 * indices). The pending samples are written as a block first (no fdatasync),
 * since a block's indices are consecutive. A reader reports the skipped
 * samples as lost (socmon_recording_info: samples_lost, ns_lost, and gaps,
 * gap_samples, gap_ns) and flags the next sample SOCMON_SAMPLE_MISSED with
 * them added to its missed count. A skip with no sample after it is recorded
 * by the end record (a lost tail of known size). index below the next index
 * is SOCMON_ERANGE naming both. */
socmon_status socmon_recwriter_skip_to(socmon_recwriter *w, uint64_t index);
/* The index the next appended sample gets: samples appended (in this file,
 * reopened or not) plus those skipped. 0 for NULL. */
uint64_t socmon_recwriter_next_index(const socmon_recwriter *w);
/* Continues an existing v2 recording on fd (a regular file opened O_RDWR;
 * the recording starts at offset 0): its header must match the set's schema,
 * target and interval_ns (else SOCMON_EINVAL naming the first difference:
 * target, device, interval, counter count, a counter's name, instance, width,
 * unit, description, registers or max rate, a parameter, or the clock when
 * both opts and the file say which). The end record and any damaged or cut
 * tail (a killed recorder's half block) are cut off with ftruncate; the next
 * sample's index is the last sample's index + 1, and a reader sees one
 * continuous recording. Damaged blocks in the middle stay (reported as
 * before). The file's block size and flush period stay those of its header;
 * opts (may be NULL) gives the zstd level. A version 1 file, a damaged
 * header or a descriptor that is not a readable and writable regular file is
 * refused (SOCMON_EPARSE / SOCMON_EINVAL). Stats count the whole file. */
socmon_status socmon_recwriter_reopen(int fd, const socmon_set *set, const char *target, uint64_t interval_ns,
                                      const socmon_recwriter_opts *opts, socmon_recwriter **out);

typedef struct socmon_recwriter_stats {
    uint64_t samples;        /* appended */
    uint64_t samples_written;/* in blocks already written */
    uint64_t blocks;         /* written */
    uint64_t bytes;          /* written to fd, header included */
} socmon_recwriter_stats;
void socmon_recwriter_get_stats(const socmon_recwriter *w, socmon_recwriter_stats *out);

/* What a loaded recording is made of, and what of it could not be read. A v2
 * file cut short (a killed recorder, a full disk) or with damaged blocks loads
 * with SOCMON_OK up to its last good block; only a damaged header is an error. */
typedef struct socmon_recording_info {
    unsigned version;        /* file format: 1 or 2; 0 for a recording not loaded from a file */
    uint64_t file_bytes;     /* the whole file */
    uint64_t blocks;         /* v2: blocks read; v1: chunks */
    int complete;            /* the file ended with its end record and nothing was lost */
    uint64_t blocks_lost;    /* damaged blocks skipped */
    uint64_t bytes_lost;     /* bytes not read: damaged blocks and a cut-off tail */
    uint64_t samples_lost;   /* samples known to be missing (0 if unknown, see samples_lost_known) */
    int samples_lost_known;  /* 0: the tail is missing and its size is unknown (no end record) */
    uint64_t ns_lost;        /* time the missing samples spanned, where known */
    uint64_t flush_ns;       /* the writer's flush period, of wall-clock time: with a real clock, about
                              * the most of the recording's time a killed recorder lost (0: unknown) */
    char what[256];          /* one line naming what was wrong and where, "" if complete */
    int simulated;           /* the timestamps are a model's simulated time (valid when clock_known) */
    int clock_known;         /* 1: the file says which clock it used, or socmon_recording_set_simulated
                              * said; 0: a v1 file or a writer that did not say (the caller guesses) */
    /* Of the samples lost, those the writer skipped on purpose (socmon_recwriter_skip_to: samples that
     * never reached the recorder) rather than damage: a jump in the sample index between two blocks
     * that follow each other in the file, or between the last block and the end record. Also counted
     * in samples_lost and ns_lost. */
    uint64_t gaps;           /* how many such gaps */
    uint64_t gap_samples;    /* samples in them */
    uint64_t gap_ns;         /* time they spanned: from the sample before to the sample after each gap */
    uint64_t gap_first_row;  /* where the first gap is: the timeline position of the sample after it
                              * (socmon_timeline_get; the timeline's length for a gap at the end) */
    uint32_t block_samples;  /* v2: the header's block size. A killed recorder lost at most one block
                              * (the samples it had not yet written), whatever its clock; 0 for v1 */
    /* Timestamps that go backwards: samples stamped before the sample before them (a crafted file, or
     * one written before the writer refused them). They load as they are, the file is not complete,
     * and what says how many and where; a reader taking intervals must not subtract them blindly. */
    uint64_t time_backwards;        /* how many samples */
    uint64_t time_backwards_row;    /* the first one's timeline position */
    uint64_t time_backwards_t_ns;   /* its timestamp */
    uint64_t time_backwards_prev_ns;/* the timestamp of the sample before it */
    /* The end record against the blocks read (v2): a file whose end record disagrees with its blocks
     * is damaged (spliced, or edited). end_mismatch holds SOCMON_REC_END_* bits; the file is then not
     * complete, and no loss is computed from the end record's figures. */
    int ended;               /* the file has its end record */
    unsigned end_mismatch;   /* 0: the end record agrees with the blocks */
    uint64_t end_blocks;     /* what the end record says: blocks written, */
    uint64_t end_samples;    /* the index after the last sample, */
    uint64_t end_last_t_ns;  /* and the last sample's timestamp */
    uint64_t read_next_index;/* what the blocks read give: the index after their last sample, */
    uint64_t read_last_t_ns; /* and its timestamp (0 when no block was read) */
} socmon_recording_info;

/* socmon_recording_info.end_mismatch: which of the end record's figures disagrees with the blocks. */
enum {
    SOCMON_REC_END_BLOCKS = 1u << 0,  /* its block count is below the blocks read, or differs from them
                                       * in a file with no damaged block */
    SOCMON_REC_END_SAMPLES = 1u << 1, /* its sample count is below the last sample's index + 1 */
    SOCMON_REC_END_LAST_T = 1u << 2   /* its last timestamp is not the last block's last one (checked
                                       * when that block is the last written: no damage after it) */
};
void socmon_recording_get_info(const socmon_recording *rec, socmon_recording_info *out);

SOCMON_END_DECLS
#endif
