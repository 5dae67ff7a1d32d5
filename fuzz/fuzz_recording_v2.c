/* Fuzzes the recording loader on format v2 (streaming, zstd blocks, resync
 * after damage). Besides "never crash, never a huge allocation", it checks
 * that an accepted file is consistent: it decodes sample by sample, its
 * loss report adds up (a complete file lost nothing, has no timestamp going
 * backwards and an end record that agrees with its blocks), and it can be written
 * out again (the reader accepts only what the writer's rules allow); the
 * scan that appending uses (smn_rec2_scan_file) finds the same blocks; and an open of it
 * (socmon_recording_open_buffer, which keeps no sample) gives the same info and, pass by pass,
 * the same samples.
 *
 * A mutated file almost never carries matching CRCs, which would stop the
 * fuzzer at the header or the first block; so each input is also tried with
 * the header's, every block's and the end record's CRCs recomputed, to reach
 * zstd and the column decoder behind them (and attachments' payloads). Seeds: fuzz/corpus/fuzz_recording_v2,
 * made by tools/rec2_corpus.c. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "recording/recording_internal.h"
#include "recording/recording_v2.h"
#include "recording_check.h"

/* An opened recording's pass (socmon_recording_open_buffer, smn_recording_each) against the
 * loaded timeline: the same samples, one by one. */
typedef struct same {
    socmon_timeline_iter it;
    socmon_sample s;
    uint64_t n;
} same;

static socmon_status same_sample(void *user, const socmon_sample *s)
{
    same *c = user;
    if (socmon_timeline_iter_next(&c->it, &c->s) != SOCMON_OK || c->s.t_ns != s->t_ns || c->s.flags != s->flags ||
        c->s.missed != s->missed || c->s.n != s->n || (s->n && memcmp(c->s.v, s->v, s->n * sizeof *s->v) != 0))
        __builtin_trap();
    c->n++;
    return SOCMON_OK;
}

/* What a load of the file gives, an open gives too: the same info, sample count and samples (the
 * open pass keeps no sample; each pass reads them from the bytes again). */
static void check_open(const uint8_t *data, size_t size, socmon_recording *rec)
{
    socmon_recording *o = NULL;
    if (socmon_recording_open_buffer(data, size, &o) != SOCMON_OK)
        __builtin_trap();
    socmon_recording_info a, b;
    socmon_recording_get_info(rec, &a);
    socmon_recording_get_info(o, &b);
#define DIFF(f) (a.f != b.f)
    if (DIFF(version) || DIFF(file_bytes) || DIFF(blocks) || DIFF(complete) || DIFF(blocks_lost) ||
        DIFF(bytes_lost) || DIFF(samples_lost) || DIFF(samples_lost_known) || DIFF(ns_lost) || DIFF(flush_ns) ||
        strcmp(a.what, b.what) != 0 || DIFF(simulated) || DIFF(clock_known) || DIFF(gaps) || DIFF(gap_samples) ||
        DIFF(gap_ns) || DIFF(gap_first_row) || DIFF(block_samples) || DIFF(time_backwards) ||
        DIFF(time_backwards_row) || DIFF(time_backwards_t_ns) || DIFF(time_backwards_prev_ns) || DIFF(ended) ||
        DIFF(end_mismatch) || DIFF(end_blocks) || DIFF(end_samples) || DIFF(end_last_t_ns) ||
        DIFF(read_next_index) || DIFF(read_last_t_ns))
        __builtin_trap();
#undef DIFF
    if (socmon_recording_nsamples(o) != socmon_recording_nsamples(rec) ||
        socmon_recording_nattachments(o) != socmon_recording_nattachments(rec))
        __builtin_trap();
    same c = {.s = {.n = socmon_recording_ncounters(rec)}};
    c.s.v = calloc(c.s.n + 1, sizeof *c.s.v);
    if (c.s.v && socmon_timeline_iter_init(socmon_recording_timeline(rec), &c.it) == SOCMON_OK) {
        if (smn_recording_each(o, same_sample, &c) != SOCMON_OK || c.n != socmon_recording_nsamples(rec))
            __builtin_trap();
        socmon_timeline_iter_free(&c.it);
    }
    free(c.s.v);
    socmon_recording_free(o);
}

static void check(const uint8_t *data, size_t size)
{
    /* the scan socmon_recwriter_reopen relies on: the same blocks as a load */
    smn_rec2_scan scan;
    socmon_recording *srec = NULL;
    int scanned = size >= 12 && socmon_rec2_get(data + 8, 4) == SOCMON_REC2_VERSION &&
                  smn_rec2_scan_file(data, size, &scan, &srec) == SOCMON_OK;
    socmon_recording *rec = NULL;
    if (socmon_recording_parse(data, size, &rec) != SOCMON_OK) {
        socmon_recording_free(srec);
        return;
    }
    socmon_recording_info in;
    socmon_recording_get_info(rec, &in);
    if (in.file_bytes != size || (in.complete && (in.blocks_lost || in.bytes_lost || in.samples_lost)) ||
        in.bytes_lost > size || in.gap_samples > in.samples_lost || in.gap_ns > in.ns_lost ||
        (in.gaps && in.gap_first_row > socmon_timeline_len(socmon_recording_timeline(rec))))
        __builtin_trap();
    /* timestamps that go backwards and an end record that disagrees are damage: never complete;
     * the first backwards sample is a sample of the file, stamped before the one before it */
    if ((in.complete && (in.time_backwards || in.end_mismatch)) || (in.end_mismatch && !in.ended) ||
        (in.time_backwards && (in.time_backwards_row == 0 ||
                               in.time_backwards_row >= socmon_timeline_len(socmon_recording_timeline(rec)) ||
                               in.time_backwards_t_ns >= in.time_backwards_prev_ns)))
        __builtin_trap();
    if (scanned && (scan.samples != socmon_timeline_len(socmon_recording_timeline(rec)) || scan.good_end > size ||
                    scan.blocks != in.blocks))
        __builtin_trap();
    socmon_recording_free(srec);
    /* phases the file carries (its attachment "phases"): read only when in order, not overlapping */
    socmon_phase *ph = NULL;
    size_t nph = 0;
    if (socmon_recording_phases(rec, &ph, &nph) == SOCMON_OK)
        for (size_t i = 0; i < nph; i++)
            if (ph[i].t1_ns <= ph[i].t0_ns || (i && ph[i].t0_ns < ph[i - 1].t1_ns) || !ph[i].name[0])
                __builtin_trap();
    free(ph);
    if (socmon_rec2_get(data + 8, 4) == SOCMON_REC2_VERSION)
        check_open(data, size, rec);
    size_t len;
    free(check_decodes(rec, &len));
    socmon_recording_free(rec);
}

/* Recomputes the CRCs of whatever v2 structure the bytes hold. */
static void fix_crcs(uint8_t *p, size_t len)
{
    if (len < SOCMON_REC2_FIXED_HDR + 4 || socmon_rec2_get(p + 8, 4) != SOCMON_REC2_VERSION)
        return;
    size_t hl = (size_t)socmon_rec2_get(p + 12, 4);
    if (hl > len - SOCMON_REC2_FIXED_HDR - 4)
        return;
    size_t pos = SOCMON_REC2_FIXED_HDR + hl;
    socmon_rec2_put32(p + pos, smn_crc32(0, p, pos));
    pos += 4;
    while (len - pos >= SOCMON_REC2_END_LEN) {
        if (memcmp(p + pos, SOCMON_REC2_END_MARK, 8) == 0) {
            socmon_rec2_put32(p + pos + 32, smn_crc32(0, p + pos, 32));
            pos += SOCMON_REC2_END_LEN;
            continue;
        }
        if (len - pos > SOCMON_REC2_ATTACH_FIXED && memcmp(p + pos, SOCMON_REC2_ATTACH_MARK, 8) == 0) {
            size_t nl = (size_t)socmon_rec2_get(p + pos + 8, 4);
            if (nl > SOCMON_REC2_MAX_ATTACH_NAME || len - pos < SOCMON_REC2_ATTACH_FIXED + nl)
                return;
            size_t comp = (size_t)socmon_rec2_get(p + pos + 16 + nl, 4), hdr = SOCMON_REC2_ATTACH_FIXED + nl;
            if (comp > len - pos - hdr)
                return;
            socmon_rec2_put32(p + pos + 20 + nl, smn_crc32(0, p + pos + hdr, comp));
            socmon_rec2_put32(p + pos + 24 + nl, smn_crc32(0, p + pos, 24 + nl));
            pos += hdr + comp;
            continue;
        }
        if (len - pos < SOCMON_REC2_BLOCK_HDR || memcmp(p + pos, SOCMON_REC2_BLOCK_MARK, 8) != 0)
            return;
        size_t comp = (size_t)socmon_rec2_get(p + pos + 28, 4);
        if (comp > len - pos - SOCMON_REC2_BLOCK_HDR)
            return;
        socmon_rec2_put32(p + pos + 36, smn_crc32(0, p + pos + SOCMON_REC2_BLOCK_HDR, comp));
        socmon_rec2_put32(p + pos + 40, smn_crc32(0, p + pos, 40));
        pos += SOCMON_REC2_BLOCK_HDR + comp;
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    check(data, size);
    uint8_t *fixed = malloc(size + 1);
    if (!fixed)
        return 0;
    memcpy(fixed, data, size);
    fix_crcs(fixed, size);
    if (memcmp(fixed, data, size) != 0)
        check(fixed, size);
    free(fixed);
    return 0;
}
