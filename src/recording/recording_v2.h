/* Internal: recording format version 2 (docs/recording-format.md), the
 * constants of its byte layout and the block codec shared by the writer
 * (recording_write.c) and the reader (recording_read2.c).
 *
 * A block holds samples in columns: timestamps, flags, missed counts, then
 * each counter. recording_codec.c turns a block into the bytes zstd
 * compresses (wrap-safe deltas, delta-of-delta, zigzag, then varints or byte
 * planes) and back; the fuzzer and the tests reach the same functions. */
#ifndef SOCMON_CORE_RECORDING_V2_H
#define SOCMON_CORE_RECORDING_V2_H

#include <stddef.h>
#include <stdint.h>
#include <zstd.h>
#include "socmon/recording.h"
#include "socmon/status.h"

#define SOCMON_REC2_VERSION 2u
/* 8-byte markers: a reader that lost its place looks for the next block
 * marker whose header CRC checks. The leading 0x89 and the CR LF make them
 * unlikely in text and catch a file mangled by a text-mode transfer. */
#define SOCMON_REC2_BLOCK_MARK "\x89SMBLK\r\n"
#define SOCMON_REC2_END_MARK "\x89SMEND\r\n"
#define SOCMON_REC2_ATTACH_MARK "\x89SMATT\r\n"
#define SOCMON_REC2_MARK_LEN 8u
#define SOCMON_REC2_ATTACH_FIXED 28u          /* an attachment's header without its name */
#define SOCMON_REC2_MAX_ATTACH_NAME 64u
#define SOCMON_REC2_MAX_ATTACH_RAW (64u << 20) /* bytes of one attachment, uncompressed */
#define SOCMON_REC2_MAX_ATTACHMENTS 16u
#define SOCMON_REC2_BLOCK_HDR 44u  /* marker, first index, first t, n, comp, raw, payload CRC, header CRC */
#define SOCMON_REC2_END_LEN 36u    /* marker, total samples, last t, blocks, CRC */
#define SOCMON_REC2_FIXED_HDR 16u  /* magic, version, header length */

#define SOCMON_REC2_DEFAULT_BLOCK_SAMPLES 4096u
#define SOCMON_REC2_MAX_BLOCK_SAMPLES 65536u
#define SOCMON_REC2_DEFAULT_BLOCK_BYTES (4u << 20)
/* Most values (samples x (counters + 3 columns)) one block may hold: 64 MiB
 * of uint64_t. The reader refuses more before allocating anything. */
#define SOCMON_REC2_MAX_BLOCK_VALUES (8u << 20)
#define SOCMON_REC2_DEFAULT_LEVEL 3
/* Most values (samples x counters; a sample of no counters counts as one) a
 * load holds: 2^30, 8 GiB of counter values. A v2 file compresses idle
 * counters thousands to one, so without it a 1 MB file could ask for ~150 GB.
 * A longer recording is refused with SOCMON_ERANGE naming the figures. */
#define SOCMON_REC2_MAX_LOAD_VALUES SOCMON_RECORDING_LOAD_MAX_VALUES
/* First size of the reader's decompression buffer; it doubles as a block's
 * frame actually yields bytes, up to the raw_len its header gave. */
#define SOCMON_REC2_INFLATE_START (64u << 10)
/* Header flags (u32 after block_samples). */
#define SOCMON_REC2_FLAG_SIMULATED 1u /* timestamps are a model's simulated time, not a real clock */
#define SOCMON_REC2_FLAG_REAL_CLOCK 2u /* timestamps are a real clock's; neither bit: the writer did not say */

/* Set in a counter's stored-width byte: the column holds plain wrap-safe
 * deltas instead of delta-of-delta (noisy counters, where the second
 * difference only doubles the noise). */
#define SOCMON_REC2_COL_DELTA 0x80u

/* How a block's columns are laid out before zstd (one byte in the payload). */
enum {
    SOCMON_REC2_LAYOUT_VARINT = 0,  /* LEB128 varints, one after another */
    SOCMON_REC2_LAYOUT_PLANES = 1   /* per column: byte count k, then k planes of one byte a value */
};
#define SOCMON_REC2_DEFAULT_LAYOUT SOCMON_REC2_LAYOUT_PLANES

/* Samples in columns: value i of counter j is v[j * cap + i]. */
typedef struct smn_rec2_block {
    size_t ncounters, cap, n;
    uint64_t *t;
    uint32_t *flags, *missed;
    uint64_t *v;
    uint64_t *tmp, *tmp2;  /* cap values each of scratch for the codec */
} smn_rec2_block;

socmon_status smn_rec2_block_init(smn_rec2_block *b, size_t ncounters, size_t cap);
void smn_rec2_block_free(smn_rec2_block *b);
/* Makes room for cap samples (more than b->cap; b->cap otherwise stays), keeping the n held: the
 * writer starts a block small and grows it as samples come, so a recording of a few samples of a
 * thousand counters touches the pages those samples take rather than a whole block's. */
socmon_status smn_rec2_block_grow(smn_rec2_block *b, size_t cap);

/* The most bytes the codec writes for n samples of ncounters counters (the
 * reader refuses a block that claims more). */
size_t smn_rec2_raw_bound(size_t ncounters, size_t n);

/* Encodes b's n >= 1 samples into out (room for smn_rec2_raw_bound bytes);
 * widths[j] is counter j's width (1..64). Returns the length. A value wider
 * than its counter (a driver that does not mask) makes that column 64 bits
 * wide in this block, so nothing is ever lost. */
size_t smn_rec2_encode(smn_rec2_block *b, const uint8_t *widths, int layout, uint8_t *out);

/* Decodes n samples (1..b->cap) from raw into b; t[0] comes from the block
 * header. Strict: every byte must be used, every value within its column's
 * width. Failures are SOCMON_EPARSE with a message (no offset: the caller
 * knows where the block is). */
socmon_status smn_rec2_decode(const uint8_t *raw, size_t len, const uint8_t *widths, size_t n,
                                 uint64_t first_t, smn_rec2_block *b);

/* Decompresses the one zstd frame src[0..comp) that must yield exactly raw
 * bytes into *buf (capacity *cap, grown by realloc as output arrives, so a
 * frame that claims more than it holds costs only what it holds). Returns 0,
 * 1 for a bad frame, -1 when out of memory. */
int smn_rec2_inflate(ZSTD_DCtx *dctx, const uint8_t *src, size_t comp, size_t raw, uint8_t **buf,
                        size_t *cap);

/* Little-endian helpers. */
static inline void socmon_rec2_put32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

static inline void socmon_rec2_put64(uint8_t *p, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

static inline uint64_t socmon_rec2_get(const uint8_t *p, int n)
{
    uint64_t v = 0;
    for (int i = n - 1; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}

#endif
