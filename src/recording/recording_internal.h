/* Internal: the recording's layout (opaque in socmon/recording.h), the file
 * format's constants and an in-memory writer. The byte layout is described in
 * docs/recording-format.md. Tests and benchmarks include this header to build
 * recordings field by field. */
#ifndef SOCMON_CORE_RECORDING_INTERNAL_H
#define SOCMON_CORE_RECORDING_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include "recording/recording_v2.h"
#include "socmon/recording.h"

struct socmon_recording {
    char *target;              /* target spec, e.g. "esp" */
    char *device;              /* device name */
    uint64_t interval_ns;      /* requested sampling interval */
    size_t ncounters;
    socmon_counter *counters;  /* strings owned by the recording */
    size_t nparams;
    char **param_names;
    double *param_values;
    socmon_timeline *tl;       /* owned */
    uint64_t start_wall_ns;    /* wall clock at the start, ns since 1970 (v2 files; 0: unknown) */
    socmon_recording_info info;/* how the file it was loaded from read (version 0: not loaded) */
    size_t nattach;            /* named documents after the samples (recording_attach.c) */
    struct smn_rec_attachment {
        char *name;
        uint8_t *data;
        size_t len;
        uint64_t file_bytes;   /* its record in the file */
    } *attach;
    /* Opened rather than loaded (socmon_recording_open): tl stays empty and the samples are read
     * from the file's bytes again, one block at a time, whenever they are wanted
     * (smn_recording_each). */
    int streamed;
    uint64_t nsamples;         /* the samples the file holds (a loaded recording: tl's length) */
    const uint8_t *bytes;      /* the file: a mapping (mapped) or the caller's memory */
    size_t nbytes;
    int mapped;
    int fd;                    /* with mapped: the file, to see that it did not shrink before a pass */
    struct smn_rec_known_t {
        uint64_t row, t;
    } known[4];                /* timestamps the loss notes quote: first, last, around the first gap */
    size_t nknown;
};

/* recording_open.c: the samples of rec in file order, each handed to each(user, s) (s is valid
 * during the call): from the file, one block in memory, for an opened recording; from the
 * timeline for a loaded one. A status other than SOCMON_OK from each stops the pass and is
 * returned. */
typedef socmon_status (*smn_rec2_each_fn)(void *user, const socmon_sample *s);
socmon_status smn_recording_each(const socmon_recording *rec, smn_rec2_each_fn each, void *user);
/* The timestamp of sample `row`: 1 and *t, or 0 when it is not known (past the end; of an opened
 * recording, a row other than the first, the last and the two around the first gap). */
/* Unmaps an opened recording's file (socmon_recording_free). */
void smn_recording_close_file(socmon_recording *rec);
int smn_recording_time_at(const socmon_recording *rec, uint64_t row, uint64_t *t);
/* recording_read2.c: a v2 file opened (schema, info, attachments; samples counted, not kept;
 * mapped: buf is a page-aligned mapping whose pages may be given back as the pass goes), and a
 * pass over its samples. */
socmon_status smn_rec2_open(const uint8_t *buf, size_t len, int mapped, socmon_recording **out);
socmon_status smn_rec2_each(const uint8_t *buf, size_t len, int mapped, smn_rec2_each_fn each, void *user);

/* recording_attach.c: an attachment record (docs/recording-format.md, "Attachments"). */
/* The record's bytes (malloc'd) for name and data, compressed at level. */
socmon_status smn_rec2_attach_encode(const char *name, const void *data, size_t len, int level, uint8_t **out,
                                     size_t *outlen);
/* The length of the record at p (avail bytes there) when its header checks, else 0. */
size_t smn_rec2_attach_len(const uint8_t *p, size_t avail);
/* Adds the record at p (of length len, from smn_rec2_attach_len) to rec; SOCMON_EPARSE for a
 * payload that does not check (damage: the caller skips it), SOCMON_ENOMEM. */
socmon_status smn_rec2_attach_decode(socmon_recording *rec, const uint8_t *p, size_t len);
/* The name of the record at p (from smn_rec2_attach_len) into name, without decompressing it
 * (a scan keeps no data): 1, or 0 when the reader would skip the record as damaged (a NUL in the
 * name, a payload CRC that does not check). */
int smn_rec2_attach_name(const uint8_t *p, char name[SOCMON_REC2_MAX_ATTACH_NAME + 1]);
void smn_rec_attach_free(socmon_recording *rec);

#define SOCMON_REC_MAGIC "SOCMONRC"   /* 8 bytes at offset 0 */
#define SOCMON_REC_END "SOCMEND!"     /* 8 bytes before the final CRC-32 */
#define SOCMON_REC_VERSION 1u         /* what smn_recording_serialize writes */
#define SOCMON_REC_MAX_STRING 4096u   /* bytes in any one string */
#define SOCMON_REC_MAX_PARAMS 65536u

/* The exact bytes socmon_recording_save writes, in a malloc'd buffer. A
 * buffer that socmon_recording_parse accepts serialises back to itself. */
socmon_status smn_recording_serialize(const socmon_recording *rec, uint8_t **buf,
                                         size_t *len);

/* ---- shared by the v1 code (recording.c) and v2's (recording_v2*.c) ---- */

/* The writer's and reader's rules for a schema: what check_for_save refuses,
 * the reader refuses. */
socmon_status smn_rec_check(const socmon_recording *rec);
/* The index of a counter (a parameter) whose name is another's, -1 when none, -2 when out of
 * memory (the reader names it in its message). */
long smn_rec_dup_counter(const socmon_recording *rec);
long smn_rec_dup_param(const socmon_recording *rec);
/* The schema in v1's byte order (target, device, interval_ns, counters,
 * params), appended to a malloc'd buffer. */
socmon_status smn_rec_schema_bytes(const socmon_recording *rec, uint8_t **buf, size_t *len);

/* A bounds-checked cursor over untrusted bytes. */
typedef struct smn_rec_reader {
    const uint8_t *p;
    size_t len, pos;
} smn_rec_reader;
/* Reads the schema written by smn_rec_schema_bytes into rec (counters,
 * params, target, device, interval). Failures are SOCMON_EPARSE naming the
 * offset (r->p[0] is offset 0 of the file). */
socmon_status smn_rec_parse_schema(smn_rec_reader *r, socmon_recording *rec);
/* SOCMON_EPARSE "recording: offset N: ..." */
socmon_status smn_rec_bad(size_t off, const char *fmt, ...) SOCMON_PRINTF(2, 3);

/* The v2 reader (recording_read2.c): buf holds a whole file whose magic and
 * version 2 were checked. */
socmon_status smn_rec2_parse(const uint8_t *buf, size_t len, socmon_recording **out);
/* The same, holding at most max_values samples x counters (the tests lower
 * smn_rec2_parse's SOCMON_REC2_MAX_LOAD_VALUES to reach the limit). */
socmon_status smn_rec2_parse_limit(const uint8_t *buf, size_t len, uint64_t max_values, socmon_recording **out);

/* Writes rec to fd in format v2 through a socmon_recwriter (opts may be
 * NULL); what socmon_recording_save does to its temporary file. layout: a
 * SOCMON_REC2_LAYOUT_* (the bench compares them), -1 for the default. */
socmon_status smn_recording_write_fd(const socmon_recording *rec, int fd, const socmon_recwriter_opts *opts,
                                        int layout);

/* What smn_rec2_scan found in a v2 file: where its last good block ends
 * and how the writer should continue (socmon_recwriter_reopen). */
typedef struct smn_rec2_scan {
    uint64_t good_end;       /* file offset just after the last good block (after the header if none) */
    uint64_t next_index;     /* the last good sample's index + 1 (0 if none) */
    uint64_t last_t;         /* the last good sample's timestamp */
    uint64_t blocks;         /* good blocks */
    uint64_t samples;        /* samples in them */
    uint32_t block_samples;  /* the header's block size */
    int ended;               /* the file had an end record */
    /* the attachments the file holds: a writer that continues it refuses a second one of a name
     * and one past the reader's limit, which the reader would call damage */
    unsigned nattach;
    char attach_names[SOCMON_REC2_MAX_ATTACHMENTS][SOCMON_REC2_MAX_ATTACH_NAME + 1];
} smn_rec2_scan;
/* Reads a v2 file as smn_rec2_parse does (same checks) without keeping its
 * samples: *out gets the schema and info, an empty timeline; memory is one
 * block. */
socmon_status smn_rec2_scan_file(const uint8_t *buf, size_t len, smn_rec2_scan *scan, socmon_recording **out);
/* A new writer and its header (socmon_recwriter_open's core, for a
 * recording's schema); layout as for smn_recording_write_fd. */
socmon_status smn_rec2_writer_new(int fd, const socmon_recording *rec, const socmon_recwriter_opts *opts,
                                     int layout, socmon_recwriter **out);
/* "ENOSPC", "EFBIG", ... for the errnos a writer meets ("errno" for others). */
const char *smn_rec_errno_name(int e);
/* A writer that continues after scan->good_end of fd (recording_write.c). */
socmon_status smn_rec2_writer_resume(int fd, const socmon_recording *rec, const socmon_recwriter_opts *opts,
                                        const smn_rec2_scan *scan, socmon_recwriter **out);

/* CRC-32 (IEEE 802.3, reflected, as in zlib and PNG) of buf, continuing from
 * crc (0 to start). */
uint32_t smn_crc32(uint32_t crc, const void *buf, size_t len);

#endif
