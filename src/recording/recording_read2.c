/* The v2 reader: a header that must be whole, then blocks read one by one,
 * each trusted only when its header CRC, its payload CRC, its zstd frame and
 * its decoded columns all check.
 *
 * A recorder can be killed mid-block and a disk can damage a sector, so
 * unlike v1 a damaged v2 file is not refused: a bad block is skipped (the
 * reader looks for the next block marker whose header CRC checks), a cut-off
 * tail is dropped, and socmon_recording_get_info says how many blocks, bytes,
 * samples and nanoseconds were lost. Only a damaged header is an error, since
 * without the schema no sample can be read. Nothing is allocated from a
 * count before it is checked against the bytes that could hold it or against
 * the per-block cap (SOCMON_REC2_MAX_BLOCK_VALUES); a block's zstd frame is
 * decompressed as a stream into a buffer that grows only as bytes actually
 * come out, never past what the header's sample count allows. Columns of
 * constant counters compress thousands to one, so no compression ratio is
 * refused: instead a load holds at most SOCMON_REC2_MAX_LOAD_VALUES values,
 * and a file that decodes to more is SOCMON_ERANGE. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <zstd.h>

#include "core/error.h"
#include "recording/recording_internal.h"
#include "recording/recording_v2.h"
#include "recording/timeline_internal.h"

typedef struct rd {
    const uint8_t *p;
    size_t len;
    size_t nc;
    uint32_t block_samples;
    uint8_t *widths;
    smn_rec2_block blk;
    uint8_t *raw;
    size_t raw_cap;
    ZSTD_DCtx *dctx;
    socmon_sample s;
    socmon_recording *rec;
    /* progress */
    uint64_t next_index;  /* the sample index a following block should start at */
    uint64_t last_t;
    int have_block;
    uint64_t first_damage; /* file offset of the first damaged region, or UINT64_MAX */
    uint64_t loaded;       /* samples appended so far */
    uint64_t max_values;   /* most samples x counters a load holds */
    int damage_pending;    /* bytes were skipped since the last good block: a gap there is damage */
    int scan_only;         /* check every block but keep no sample (smn_rec2_scan_file) */
    int open_only;         /* the same, keeping the attachments (smn_rec2_open) */
    smn_rec2_each_fn each; /* ... or handing every sample to each(user, s) (smn_rec2_each) */
    void *user;
    int mapped;            /* p is a page-aligned read-only mapping of the file */
    size_t released;       /* bytes before this offset were given back to the kernel (a mapping) */
    smn_rec2_scan *scan; /* a scan's result: it gets the attachments' names */
    size_t good_end;       /* offset just after the last good block */
    int ended;             /* the file had its end record */
    uint64_t good_samples; /* samples in the good blocks */
} rd;

enum { BLOCK_OK, BLOCK_CUT, BLOCK_DAMAGED, BLOCK_FATAL };

/* A scan keeps no attachment but their names, for a writer that continues the file: the
 * reader takes the first of a name and at most SOCMON_REC2_MAX_ATTACHMENTS, so does this. */
static void scan_attachment(smn_rec2_scan *scan, const uint8_t *p)
{
    char name[SOCMON_REC2_MAX_ATTACH_NAME + 1];
    if (!scan || scan->nattach >= SOCMON_REC2_MAX_ATTACHMENTS || !smn_rec2_attach_name(p, name))
        return;
    for (unsigned i = 0; i < scan->nattach; i++)
        if (strcmp(scan->attach_names[i], name) == 0)
            return;
    memcpy(scan->attach_names[scan->nattach++], name, sizeof name);
}

/* A jump in the sample index with no damaged bytes before it: the writer
 * skipped those indices (socmon_recwriter_skip_to), the samples never reached
 * it. row is where the first sample after the gap lands in the timeline. */
static void note_gap(socmon_recording_info *in, uint64_t samples, uint64_t ns, uint64_t row)
{
    if (in->gaps++ == 0)
        in->gap_first_row = row;
    in->gap_samples += samples;
    in->gap_ns += ns;
}

/* A sample stamped before the one before it (across damaged blocks too): the
 * writer refuses them now, but a crafted file or an older writer's has them.
 * row is its timeline position. */
static void note_backwards(socmon_recording_info *in, uint64_t row, uint64_t t, uint64_t prev)
{
    if (in->time_backwards++ == 0) {
        in->time_backwards_row = row;
        in->time_backwards_t_ns = t;
        in->time_backwards_prev_ns = prev;
    }
}

/* The timestamp of sample `row`, for what the loss notes quote of an opened recording, which
 * keeps no timeline (smn_recording_time_at). */
static void know_t(socmon_recording *rec, uint64_t row, uint64_t t)
{
    if (rec->nknown < sizeof rec->known / sizeof rec->known[0])
        rec->known[rec->nknown].row = row, rec->known[rec->nknown++].t = t;
}

/* A file read from a mapping one block at a time: the pages behind the block just read go back to
 * the kernel (they are the file's, read again if touched), so a pass over a file of any length
 * holds about one block of it in memory. */
static void release_behind(rd *r, size_t pos)
{
    size_t page = (size_t)sysconf(_SC_PAGESIZE), keep = (size_t)16 << 20;
    if (!r->mapped || pos < r->released + keep || !page)
        return;
    size_t upto = (pos - keep / 2) / page * page;
    if (upto > r->released && madvise((void *)(uintptr_t)(r->p + r->released), upto - r->released, MADV_DONTNEED) == 0)
        r->released = upto;
}

static int block_header_ok(const rd *r, size_t pos)
{
    if (r->len - pos < SOCMON_REC2_BLOCK_HDR || memcmp(r->p + pos, SOCMON_REC2_BLOCK_MARK, 8) != 0)
        return 0;
    return smn_crc32(0, r->p + pos, 40) == (uint32_t)socmon_rec2_get(r->p + pos + 40, 4);
}

static int end_record_ok(const rd *r, size_t pos)
{
    if (r->len - pos < SOCMON_REC2_END_LEN || memcmp(r->p + pos, SOCMON_REC2_END_MARK, 8) != 0)
        return 0;
    return smn_crc32(0, r->p + pos, 32) == (uint32_t)socmon_rec2_get(r->p + pos + 32, 4);
}

/* The next offset >= from holding a block header or end record that checks,
 * or len; *marks counts the block markers (with a bad header) passed on the way. */
static size_t resync(const rd *r, size_t from, uint64_t *marks)
{
    for (size_t i = from; i < r->len; i++) {
        const uint8_t *q = memchr(r->p + i, 0x89, r->len - i);
        if (!q)
            break;
        i = (size_t)(q - r->p);
        if (block_header_ok(r, i) || end_record_ok(r, i) || smn_rec2_attach_len(r->p + i, r->len - i))
            return i;
        if (r->len - i >= 8 && memcmp(q, SOCMON_REC2_BLOCK_MARK, 8) == 0)
            (*marks)++;
    }
    return r->len;
}

static socmon_status grow_block(rd *r, size_t n)
{
    if (r->blk.cap >= n)
        return SOCMON_OK;
    smn_rec2_block_free(&r->blk);
    return smn_rec2_block_init(&r->blk, r->nc, n);
}

/* Reads the block at pos; on BLOCK_OK appends its samples and sets *end. */
static int read_block(rd *r, size_t pos, size_t *end, socmon_status *fatal)
{
    if (r->len - pos < SOCMON_REC2_BLOCK_HDR)
        return memcmp(r->p + pos, SOCMON_REC2_BLOCK_MARK, r->len - pos < 8 ? r->len - pos : 8) == 0 ? BLOCK_CUT
                                                                                                    : BLOCK_DAMAGED;
    if (!block_header_ok(r, pos))
        return BLOCK_DAMAGED;
    const uint8_t *h = r->p + pos;
    uint64_t first = socmon_rec2_get(h + 8, 8), t0 = socmon_rec2_get(h + 16, 8);
    uint32_t n = (uint32_t)socmon_rec2_get(h + 24, 4), comp = (uint32_t)socmon_rec2_get(h + 28, 4);
    uint32_t raw = (uint32_t)socmon_rec2_get(h + 32, 4), crc = (uint32_t)socmon_rec2_get(h + 36, 4);
    if (n < 1 || n > r->block_samples || (uint64_t)n * (r->nc + 3) > SOCMON_REC2_MAX_BLOCK_VALUES ||
        raw > smn_rec2_raw_bound(r->nc, n) || first < r->next_index || first > UINT64_MAX - n)
        return BLOCK_DAMAGED;
    if (comp > r->len - pos - SOCMON_REC2_BLOCK_HDR)
        return BLOCK_CUT;
    const uint8_t *payload = h + SOCMON_REC2_BLOCK_HDR;
    if (smn_crc32(0, payload, comp) != crc)
        return BLOCK_DAMAGED;
    /* the whole load's cap, before this block's columns are allocated */
    uint64_t per = r->nc ? r->nc : 1;
    if (!r->scan_only && !r->open_only && !r->each && (r->loaded + n) > r->max_values / per) {
        *fatal = socmon_fail(SOCMON_ERANGE,
                             "recording: block at offset %zu would bring the load to %llu samples x %llu counters "
                             "= %llu values, more than the %llu a load may hold",
                             pos, (unsigned long long)(r->loaded + n), (unsigned long long)per,
                             (unsigned long long)((r->loaded + n) * per), (unsigned long long)r->max_values);
        return BLOCK_FATAL;
    }
    int k = smn_rec2_inflate(r->dctx, payload, comp, raw, &r->raw, &r->raw_cap);
    if (k < 0) {
        *fatal = socmon_fail(SOCMON_ENOMEM, "recording: out of memory for a block of %u bytes", raw);
        return BLOCK_FATAL;
    }
    if (k > 0)
        return BLOCK_DAMAGED;
    if ((*fatal = grow_block(r, n)) != SOCMON_OK)
        return BLOCK_FATAL;
    if (smn_rec2_decode(r->raw, raw, r->widths, n, t0, &r->blk) != SOCMON_OK)
        return BLOCK_DAMAGED;

    socmon_recording_info *in = &r->rec->info;
    uint64_t gap = first - r->next_index;
    if (gap) {
        uint64_t ns = r->have_block && t0 > r->last_t ? t0 - r->last_t : 0;
        in->samples_lost += gap;
        in->ns_lost += ns;
        if (!r->damage_pending) {
            if (in->gaps == 0 && r->have_block)
                know_t(r->rec, r->loaded - 1, r->last_t);
            if (in->gaps == 0)
                know_t(r->rec, r->loaded, t0);
            note_gap(in, gap, ns, r->loaded);
        }
    }
    if (!r->have_block)
        know_t(r->rec, 0, t0);
    smn_rec2_block *b = &r->blk;
    for (size_t i = 0; i < n; i++) {
        uint64_t prev = i ? b->t[i - 1] : r->last_t;
        if ((i || r->have_block) && b->t[i] < prev)
            note_backwards(in, r->loaded + i, b->t[i], prev);
    }
    for (size_t i = 0; i < n && !r->scan_only && !r->open_only; i++) {
        r->s.t_ns = b->t[i];
        r->s.flags = b->flags[i];
        r->s.missed = b->missed[i];
        /* the samples that could not be read show as missed intervals */
        if (i == 0 && gap) {
            r->s.flags |= SOCMON_SAMPLE_MISSED;
            r->s.missed = gap > UINT32_MAX - (uint64_t)r->s.missed ? UINT32_MAX : r->s.missed + (uint32_t)gap;
        }
        for (size_t j = 0; j < r->nc; j++)
            r->s.v[j] = b->v[j * b->cap + i];
        if ((*fatal = r->each ? r->each(r->user, &r->s) : socmon_timeline_append(r->rec->tl, &r->s)) != SOCMON_OK)
            return BLOCK_FATAL;
    }
    r->loaded += n;
    r->good_samples += n;
    r->damage_pending = 0;
    r->good_end = pos + SOCMON_REC2_BLOCK_HDR + comp;
    in->blocks++;
    r->next_index = first + n;
    r->last_t = b->t[n - 1];
    r->have_block = 1;
    *end = pos + SOCMON_REC2_BLOCK_HDR + comp;
    return BLOCK_OK;
}

/* Which of the end record's figures disagree with the blocks read (SOCMON_REC_END_*). Damaged
 * blocks may hide blocks and samples, so with damage only what no damage explains counts: fewer
 * blocks or samples than were read. A recording continued after a damaged one
 * (socmon_recwriter_reopen) counts only the blocks that were good, hence no lower bound then. The
 * last timestamp is checked when the last block read is the last one written (no damage after it). */
static unsigned end_check(const rd *r, uint64_t total, uint64_t end_t, uint64_t end_blocks)
{
    const socmon_recording_info *in = &r->rec->info;
    unsigned bad = 0;
    if (end_blocks < in->blocks || (!in->blocks_lost && end_blocks != in->blocks))
        bad |= SOCMON_REC_END_BLOCKS;
    if (total < r->next_index)
        bad |= SOCMON_REC_END_SAMPLES;
    if (!r->damage_pending && end_t != r->last_t)
        bad |= SOCMON_REC_END_LAST_T;
    return bad;
}

/* "4.096 s", "40.960 ms", "4.096 us", "512 ns": a time in the unit that reads best. */
static const char *span_text(char *buf, size_t len, double ns)
{
    if (ns >= 1e9)
        snprintf(buf, len, "%.3f s", ns / 1e9);
    else if (ns >= 1e6)
        snprintf(buf, len, "%.3f ms", ns / 1e6);
    else if (ns >= 1e3)
        snprintf(buf, len, "%.3f us", ns / 1e3);
    else
        snprintf(buf, len, "%.0f ns", ns);
    return buf;
}

static void append_what(socmon_recording_info *in, const char *fmt, ...) SOCMON_PRINTF(2, 3);
static void append_what(socmon_recording_info *in, const char *fmt, ...)
{
    size_t used = strlen(in->what);
    if (used + 3 >= sizeof in->what)
        return;
    if (used)
        used += (size_t)snprintf(in->what + used, sizeof in->what - used, "; ");
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(in->what + used, sizeof in->what - used, fmt, ap);
    va_end(ap);
}

/* The header: fixed part, schema, v2's fields, CRC. */
static socmon_status parse_header(rd *r, size_t *body_end)
{
    if (r->len < SOCMON_REC2_FIXED_HDR)
        return smn_rec_bad(12, "file ends inside the header length (needs 4 bytes, %zu left)", r->len - 12);
    uint32_t hl = (uint32_t)socmon_rec2_get(r->p + 12, 4);
    if (hl > r->len - SOCMON_REC2_FIXED_HDR || r->len - SOCMON_REC2_FIXED_HDR - hl < 4)
        return smn_rec_bad(12, "header length %u exceeds the %zu bytes that follow it", hl,
                              r->len - SOCMON_REC2_FIXED_HDR);
    size_t end = SOCMON_REC2_FIXED_HDR + hl;
    uint32_t stored = (uint32_t)socmon_rec2_get(r->p + end, 4), crc = smn_crc32(0, r->p, end);
    if (stored != crc)
        return smn_rec_bad(end, "header checksum mismatch: file says 0x%08x, header gives 0x%08x", stored, crc);
    smn_rec_reader hr = {r->p, end, SOCMON_REC2_FIXED_HDR};
    socmon_status st = smn_rec_parse_schema(&hr, r->rec);
    if (st != SOCMON_OK)
        return st;
    if (end - hr.pos != 24)
        return smn_rec_bad(hr.pos, "header holds %zu bytes after the schema, expected 24", end - hr.pos);
    r->rec->start_wall_ns = socmon_rec2_get(r->p + hr.pos, 8);
    r->rec->info.flush_ns = socmon_rec2_get(r->p + hr.pos + 8, 8);
    r->block_samples = r->rec->info.block_samples = (uint32_t)socmon_rec2_get(r->p + hr.pos + 16, 4);
    uint32_t flags = (uint32_t)socmon_rec2_get(r->p + hr.pos + 20, 4);
    r->nc = r->rec->ncounters;
    /* unknown bits are refused: a later writer that sets one means something
     * this reader would silently get wrong */
    const uint32_t known = SOCMON_REC2_FLAG_SIMULATED | SOCMON_REC2_FLAG_REAL_CLOCK;
    if ((flags & ~known) || (flags & known) == known)
        return smn_rec_bad(hr.pos + 20, "header flags 0x%08x: %s (known: 0x1 simulated clock, 0x2 real clock)",
                              flags, flags & ~known ? "unknown bits set" : "both clocks set");
    r->rec->info.simulated = (flags & SOCMON_REC2_FLAG_SIMULATED) != 0;
    r->rec->info.clock_known = (flags & known) != 0;
    if (r->block_samples < 1 || r->block_samples > SOCMON_REC2_MAX_BLOCK_SAMPLES)
        return smn_rec_bad(hr.pos + 16, "block size %u samples out of range 1..%u", r->block_samples,
                              SOCMON_REC2_MAX_BLOCK_SAMPLES);
    *body_end = end + 4;
    return SOCMON_OK;
}

static socmon_status read_all(rd *r)
{
    size_t pos = 0;
    socmon_status st = parse_header(r, &pos);
    if (st != SOCMON_OK)
        return st;
    socmon_recording *rec = r->rec;
    socmon_recording_info *in = &rec->info;
    r->widths = malloc(r->nc + 1);
    r->s.n = r->nc;
    r->s.v = calloc(r->nc + 1, sizeof *r->s.v);
    r->dctx = ZSTD_createDCtx();
    if (!r->widths || !r->s.v || !r->dctx)
        return socmon_fail(SOCMON_ENOMEM, "recording: out of memory for %zu counters", r->nc);
    for (size_t j = 0; j < r->nc; j++)
        r->widths[j] = (uint8_t)rec->counters[j].width;
    if ((st = socmon_timeline_new(r->nc, &rec->tl)) != SOCMON_OK)
        return st;

    int ended = 0, cut = 0;
    r->good_end = pos;
    uint64_t total = 0, end_t = 0, end_blocks = 0;
    size_t cut_at = 0;
    while (pos < r->len) {
        if (end_record_ok(r, pos)) {
            ended = 1;
            total = socmon_rec2_get(r->p + pos + 8, 8);
            end_t = socmon_rec2_get(r->p + pos + 16, 8);
            end_blocks = socmon_rec2_get(r->p + pos + 24, 8);
            pos += SOCMON_REC2_END_LEN;
            if (pos < r->len) {
                in->bytes_lost += r->len - pos;
                append_what(in, "%zu bytes after the end record at offset %zu ignored", r->len - pos, pos);
            }
            break;
        }
        size_t alen = smn_rec2_attach_len(r->p + pos, r->len - pos);
        if (alen) {
            /* an attachment: kept when its payload checks, else damage (the samples are not affected) */
            if (r->scan_only)
                scan_attachment(r->scan, r->p + pos);
            else if (r->each)
                ;   /* the pass that opened the file kept them */
            else if ((st = smn_rec2_attach_decode(r->rec, r->p + pos, alen)) != SOCMON_OK) {
                if (st == SOCMON_ENOMEM)
                    return st;
                in->bytes_lost += alen;
                append_what(in, "an attachment at offset %zu is damaged (%s): skipped", pos, socmon_errmsg());
                socmon_clear_error();
            }
            pos += alen;
            r->good_end = pos;
            release_behind(r, pos);
            continue;
        }
        size_t next = 0;
        int k = read_block(r, pos, &next, &st);
        if (k == BLOCK_FATAL)
            return st;
        if (k == BLOCK_OK) {
            pos = next;
            release_behind(r, pos);
            continue;
        }
        uint64_t marks = 0;
        size_t q = k == BLOCK_CUT ? r->len : resync(r, pos + 1, &marks);
        if (q == r->len) {
            /* the rest of the file: a block cut off by the end of the file,
             * or damage that runs to the end */
            int damaged = k == BLOCK_DAMAGED && r->len - pos >= SOCMON_REC2_BLOCK_HDR;
            in->blocks_lost += damaged ? 1 + marks : 0;
            in->bytes_lost += r->len - pos;
            cut = 1;
            cut_at = pos;
            if (damaged && r->first_damage == UINT64_MAX)
                r->first_damage = pos;
            break;
        }
        in->blocks_lost += 1 + marks; /* the one at pos, and each marker passed after it */
        in->bytes_lost += q - pos;
        r->damage_pending = 1;
        if (r->first_damage == UINT64_MAX)
            r->first_damage = pos;
        pos = q;
    }

    in->samples_lost_known = ended;
    in->ended = ended;
    in->read_next_index = r->next_index;
    in->read_last_t_ns = r->last_t;
    if (ended) {
        in->end_blocks = end_blocks;
        in->end_samples = total;
        in->end_last_t_ns = end_t;
        in->end_mismatch = end_check(r, total, end_t, end_blocks);
    }
    if (ended && !in->end_mismatch) {
        uint64_t ns = end_t > r->last_t && total > r->next_index ? end_t - r->last_t : 0;
        in->samples_lost += total - r->next_index;
        in->ns_lost += ns;
        if (total > r->next_index && !r->damage_pending)
            note_gap(in, total - r->next_index, ns, r->loaded); /* a skip the writer closed after */
    } else if (ended) {
        /* figures that disagree cannot measure a loss: which one is wrong is unknown */
        in->samples_lost_known = 0;
        char d[320] = "";
        size_t u = 0;
        if (in->end_mismatch & SOCMON_REC_END_BLOCKS)
            u += (size_t)snprintf(d + u, sizeof d - u, "; %llu blocks, the file holds %llu%s",
                                  (unsigned long long)end_blocks, (unsigned long long)in->blocks,
                                  in->blocks_lost ? " and damaged ones" : "");
        if (in->end_mismatch & SOCMON_REC_END_SAMPLES && u < sizeof d)
            u += (size_t)snprintf(d + u, sizeof d - u, "; %llu samples, the blocks hold %llu",
                                  (unsigned long long)total, (unsigned long long)r->next_index);
        if (in->end_mismatch & SOCMON_REC_END_LAST_T && u < sizeof d)
            snprintf(d + u, sizeof d - u, "; the last sample at %llu ns, the last block's is at %llu ns",
                     (unsigned long long)end_t, (unsigned long long)r->last_t);
        append_what(in, "damaged: the end record disagrees with the blocks: it says %s", d + 2);
    }
    if (in->blocks_lost)
        append_what(in, "%llu damaged block%s skipped (first at offset %llu)", (unsigned long long)in->blocks_lost,
                    in->blocks_lost == 1 ? "" : "s", (unsigned long long)r->first_damage);
    uint64_t dmg = in->samples_lost - in->gap_samples, dmg_ns = in->ns_lost - in->gap_ns;
    if (dmg && dmg_ns)
        append_what(in, "%llu samples (%.3f ms) not read%s", (unsigned long long)dmg, (double)dmg_ns / 1e6,
                    ended ? "" : " before the tail");
    else if (dmg)
        append_what(in, "%llu samples not read%s", (unsigned long long)dmg, ended ? "" : " before the tail");
    if (in->gaps)
        append_what(in, "%llu gap%s in the recording: %llu samples (%.3f ms) the recorder never received",
                    (unsigned long long)in->gaps, in->gaps == 1 ? "" : "s", (unsigned long long)in->gap_samples,
                    (double)in->gap_ns / 1e6);
    if (in->time_backwards)
        append_what(in, "%llu timestamp%s go%s backwards (first: sample %llu at %llu ns, after %llu ns)",
                    (unsigned long long)in->time_backwards, in->time_backwards == 1 ? "" : "s",
                    in->time_backwards == 1 ? "es" : "", (unsigned long long)in->time_backwards_row,
                    (unsigned long long)in->time_backwards_t_ns, (unsigned long long)in->time_backwards_prev_ns);
    /* A killed recorder had written every block but the one it was filling (or writing): the
     * flush period is wall-clock time, which bounds the recording's own time only on a real clock
     * (an unpaced model runs many times faster), so the bound stated is one block. */
    char span[32];
    if (!ended && in->flush_ns)
        append_what(in, "cut short at offset %zu (no end record: recorder killed or disk full?); "
                        "what followed is unknown: if the recorder was killed, at most one block (%u samples, "
                        "%s at the recorded interval%s)",
                    cut ? cut_at : r->len, r->block_samples,
                    span_text(span, sizeof span, (double)r->block_samples * (double)r->rec->interval_ns),
                    in->clock_known && !in->simulated ? ", or the flush period if less" : "");
    else if (!ended)
        append_what(in, "cut short at offset %zu (no end record: recorder killed or disk full?); "
                        "what followed is unknown, samples of an unknown time (no flush period recorded)",
                    cut ? cut_at : r->len);
    r->ended = ended;
    r->rec->nsamples = r->loaded;
    if (r->have_block)
        know_t(r->rec, r->loaded - 1, r->last_t);
    in->complete = ended && !in->blocks_lost && !in->bytes_lost && !in->samples_lost && in->samples_lost_known &&
                   !in->end_mismatch && !in->time_backwards;
    return SOCMON_OK;
}

int smn_rec2_inflate(ZSTD_DCtx *dctx, const uint8_t *src, size_t comp, size_t raw, uint8_t **buf, size_t *cap)
{
    if (ZSTD_getFrameContentSize(src, comp) != raw || raw == 0)
        return 1;
    ZSTD_DCtx_reset(dctx, ZSTD_reset_session_only);
    ZSTD_inBuffer in = {src, comp, 0};
    size_t done = 0;
    for (;;) {
        size_t room = *cap < raw ? *cap : raw;
        if (done == room) {
            if (room == raw)
                return 1; /* more bytes than the frame said */
            size_t want = *cap ? *cap * 2 : SOCMON_REC2_INFLATE_START;
            if (want > raw)
                want = raw;
            uint8_t *b = realloc(*buf, want);
            if (!b)
                return -1;
            *buf = b;
            *cap = want;
            room = want;
        }
        ZSTD_outBuffer out = {*buf, room, done};
        size_t left = ZSTD_decompressStream(dctx, &out, &in);
        if (ZSTD_isError(left))
            return 1;
        done = out.pos;
        if (left == 0)
            break;
        if (in.pos == in.size && out.pos < out.size)
            return 1; /* the frame stops before its end */
    }
    return done == raw && in.pos == in.size ? 0 : 1;
}

static socmon_status run(rd *rp, socmon_recording **out);

socmon_status smn_rec2_scan_file(const uint8_t *buf, size_t len, smn_rec2_scan *scan, socmon_recording **out)
{
    memset(scan, 0, sizeof *scan);
    rd r = {.p = buf, .len = len, .first_damage = UINT64_MAX, .max_values = UINT64_MAX, .scan_only = 1, .scan = scan};
    socmon_status st = run(&r, out);
    if (st == SOCMON_OK) {
        socmon_recording_info in;
        socmon_recording_get_info(*out, &in);
        scan->good_end = r.good_end;
        scan->next_index = r.next_index;
        scan->last_t = r.last_t;
        scan->blocks = in.blocks;
        scan->samples = r.good_samples;
        scan->block_samples = r.block_samples;
        scan->ended = r.ended;
    }
    return st;
}

socmon_status smn_rec2_open(const uint8_t *buf, size_t len, int mapped, socmon_recording **out)
{
    rd r = {.p = buf, .len = len, .first_damage = UINT64_MAX, .max_values = UINT64_MAX, .open_only = 1,
            .mapped = mapped};
    socmon_status st = run(&r, out);
    if (st == SOCMON_OK)
        (*out)->streamed = 1;
    return st;
}

socmon_status smn_rec2_each(const uint8_t *buf, size_t len, int mapped, smn_rec2_each_fn each, void *user)
{
    rd r = {.p = buf, .len = len, .first_damage = UINT64_MAX, .max_values = UINT64_MAX, .each = each,
            .user = user, .mapped = mapped};
    socmon_recording *rec = NULL;
    socmon_status st = run(&r, &rec);
    socmon_recording_free(rec);
    return st;
}

socmon_status smn_rec2_parse(const uint8_t *buf, size_t len, socmon_recording **out)
{
    return smn_rec2_parse_limit(buf, len, SOCMON_REC2_MAX_LOAD_VALUES, out);
}

socmon_status smn_rec2_parse_limit(const uint8_t *buf, size_t len, uint64_t max_values, socmon_recording **out)
{
    rd r = {.p = buf, .len = len, .first_damage = UINT64_MAX, .max_values = max_values};
    return run(&r, out);
}

/* Reads the file r describes into a new recording. */
static socmon_status run(rd *rp, socmon_recording **out)
{
    rd r = *rp;
    r.rec = calloc(1, sizeof *r.rec);
    if (!r.rec)
        return socmon_fail(SOCMON_ENOMEM, "recording: out of memory");
    r.rec->info.version = 2;
    r.rec->info.file_bytes = r.len;
    socmon_status st = read_all(&r);
    free(r.widths);
    free(r.s.v);
    free(r.raw);
    ZSTD_freeDCtx(r.dctx);
    smn_rec2_block_free(&r.blk);
    *rp = r;
    if (st != SOCMON_OK) {
        socmon_recording_free(r.rec);
        return st;
    }
    *out = r.rec;
    return SOCMON_OK;
}
