/* What a recording holds and what of its run it lost (recording_facts.h), in the words report
 * has always used for them: the lines of a file that was damaged, cut short or has gaps
 * (docs/recording-format.md), and the figures of --stats. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/recording_facts.h"
#include "core/error.h"
#include "recording/recording_internal.h"
#include "core/text.h"
#include "socmon/export.h"

void smn_recording_facts(socmon_recording *rec, const char *file, smn_file_facts *out)
{
    *out = (smn_file_facts){.file = file, .counters = socmon_recording_ncounters(rec)};
    socmon_recording_get_info(rec, &out->info);
    out->samples = socmon_recording_nsamples(rec);
    uint64_t values = out->samples * out->counters;
    /* the samples' bytes: a document attached to the file is no part of them */
    uint64_t attached = 0, fb = 0;
    const char *name;
    size_t used = 0, cap = sizeof out->attachment_names;
    for (size_t i = 0; (name = socmon_recording_attachment_at(rec, i, NULL, &fb)) != NULL; i++) {
        attached += fb;
        if (used >= cap - 1)
            continue;   /* the list is full: the bytes still count */
        char esc[64];
        smn_text_escape(esc, sizeof esc, name);
        int n = snprintf(out->attachment_names + used, cap - used, "%s%s", i ? ", " : "", esc);
        if (n < 0 || (size_t)n >= cap - used) {   /* the rest does not fit: ", ..." ends the list */
            memcpy(out->attachment_names + (used < cap - 6 ? used : cap - 6), ", ...", 6);
            used = cap - 1;
            continue;
        }
        used += (size_t)n;
    }
    out->attachments = socmon_recording_nattachments(rec);
    out->attachment_bytes = attached;
    out->bytes_per_value = values ? (double)(out->info.file_bytes - attached) / (double)values : 0;
    out->clock = !out->info.clock_known ? "unknown" : out->info.simulated ? "simulated" : "real";
}

/* Appends one line (and its newline) to the text being built; a line that does not fit is cut. */
typedef struct notes {
    char *buf;
    size_t cap, used;
} notes;

static void add(notes *l, const char *fmt, ...) SOCMON_PRINTF(2, 3);
static void add(notes *l, const char *fmt, ...)
{
    /* the line, cut to what fits with its newline after it */
    size_t room = l->cap > l->used + 1 ? l->cap - l->used - 1 : 0;
    if (room > 0) {
        va_list ap;
        va_start(ap, fmt);
        int n = vsnprintf(l->buf + l->used, room, fmt, ap);
        va_end(ap);
        l->used += n < 0 ? 0 : (size_t)n < room ? (size_t)n : room - 1;
    }
    if (l->used + 1 < l->cap)
        l->buf[l->used++] = '\n', l->buf[l->used] = '\0';
}

/* The timestamp of sample i; *ok 0 (and 0 returned) when it cannot be read. */
static uint64_t t_of(socmon_recording *rec, size_t i, int *ok)
{
    uint64_t t = 0;
    *ok = smn_recording_time_at(rec, i, &t);
    return t;
}

/* Gaps the writer recorded (samples that never reached the recorder, socmon_recwriter_skip_to):
 * how many, how long, where the first one is in the rows' time (from the first sample, as the
 * rows show it). */
static void gap_note(notes *l, socmon_recording *rec, const socmon_recording_info *in)
{
    size_t n = (size_t)socmon_recording_nsamples(rec), row = (size_t)in->gap_first_row;
    int ok0, have_before = 0, have_after = 0;
    uint64_t t0 = t_of(rec, 0, &ok0), before = 0, after = 0;
    /* a file whose timestamps go backwards (said in a line of its own) must not wrap here */
    if (ok0 && row > 0 && row <= n && (before = t_of(rec, row - 1, &have_before)) > t0)
        before -= t0;
    else
        before = 0;
    if (ok0 && row < n && (after = t_of(rec, row, &have_after)) > t0)
        after -= t0;
    else
        after = 0;
    char a[32], b[32], c[32], d[32], where[96];
    smn_format_count(a, sizeof a, in->gap_samples, 1);
    smn_format_ns(b, sizeof b, in->gap_ns);
    smn_format_ns(c, sizeof c, before);
    smn_format_ns(d, sizeof d, after);
    if (have_before && have_after)
        snprintf(where, sizeof where, "between %s and %s", c, d);
    else if (have_before)
        snprintf(where, sizeof where, "after %s, at the end", c);
    else
        snprintf(where, sizeof where, "before the first sample");
    add(l, "%llu gap%s in the recording: %s samples (%s) the recorder never received; %s %s; the row after a gap "
           "is flagged missed=N", (unsigned long long)in->gaps, in->gaps == 1 ? "" : "s", a, b,
        in->gaps == 1 ? "it is" : "the first is", where);
}

/* Timestamps that go backwards (an old or crafted file): where the first is, and what the rows
 * make of them. */
static void backwards_note(notes *l, const socmon_recording_info *in)
{
    char a[32], b[32];
    smn_format_count(a, sizeof a, in->time_backwards, 1);
    smn_format_count(b, sizeof b, in->time_backwards_row, 1);
    add(l, "damaged: %s sample%s stamped before the sample before %s (the first: sample %s at %llu ns, after "
           "%llu ns); such an interval is shown 0 ns long, with no rates", a, in->time_backwards == 1 ? "" : "s",
        in->time_backwards == 1 ? "it" : "them", b, (unsigned long long)in->time_backwards_t_ns,
        (unsigned long long)in->time_backwards_prev_ns);
}

/* An end record that disagrees with the blocks: which figures, both ways. */
static void end_note(notes *l, const socmon_recording_info *in)
{
    char line[400];
    int used = 0;
    if (in->end_mismatch & SOCMON_REC_END_BLOCKS)
        used += snprintf(line + used, sizeof line - used, "; %llu blocks, the file holds %llu%s",
                         (unsigned long long)in->end_blocks, (unsigned long long)in->blocks,
                         in->blocks_lost ? " and damaged ones" : "");
    if (in->end_mismatch & SOCMON_REC_END_SAMPLES)
        used += snprintf(line + used, sizeof line - used, "; %llu samples, the blocks hold %llu",
                         (unsigned long long)in->end_samples, (unsigned long long)in->read_next_index);
    if (in->end_mismatch & SOCMON_REC_END_LAST_T)
        snprintf(line + used, sizeof line - used, "; the last sample at %llu ns, the last block's is at %llu ns",
                 (unsigned long long)in->end_last_t_ns, (unsigned long long)in->read_last_t_ns);
    add(l, "damaged: the end record disagrees with the blocks: it says %s; the rows are the blocks'", line + 2);
}

/* What a killed recorder may have lost after its last whole block: the block it was filling. The
 * flush period is wall-clock time, so it bounds the recording's own time only on a real clock; an
 * unpaced model runs far faster (a 1 s flush period let 4 s of simulated time go). */
static void cut_bound(char *buf, size_t len, const socmon_recording *rec, const socmon_recording_info *in)
{
    if (!in->flush_ns || !in->block_samples) {
        snprintf(buf, len, "an unknown time");
        return;
    }
    char a[32], b[32], c[32], block[160];
    smn_format_count(a, sizeof a, in->block_samples, 1);
    double span = (double)in->block_samples * (double)socmon_recording_interval_ns(rec);
    smn_format_ns(b, sizeof b, span < 1.8e19 ? (uint64_t)span : UINT64_MAX);
    smn_format_ns(c, sizeof c, socmon_recording_interval_ns(rec));
    snprintf(block, sizeof block, "one block (%s samples, %s at the %s interval)", a, b, c);
    if (in->clock_known && !in->simulated)
        snprintf(buf, len, "at most the flush period (%g s) or %s, whichever is less,", (double)in->flush_ns / 1e9,
                 block);
    else
        snprintf(buf, len, "at most %s", block);
}

/* Damaged blocks and a cut-short end, in one line: the rows that follow are real, but not the
 * whole run. */
static void damage_note(notes *l, socmon_recording *rec, const socmon_recording_info *in)
{
    char a[32], b[32], c[32], line[600];
    int used = 0;
    /* the gaps have a line of their own: what is left was lost to damage */
    uint64_t lost = in->samples_lost - in->gap_samples, lost_ns = in->ns_lost - in->gap_ns;
    if (in->blocks_lost || lost) {
        char span[48] = "";
        if (lost_ns) { /* unknown when the first block was the one lost */
            smn_format_ns(c, sizeof c, lost_ns);
            snprintf(span, sizeof span, " (%s)", c);
        }
        smn_format_count(a, sizeof a, in->blocks_lost, 1);
        smn_format_count(b, sizeof b, lost, 1);
        used += snprintf(line + used, sizeof line - used, "%s damaged block%s skipped: %s samples%s not read", a,
                         in->blocks_lost == 1 ? "" : "s", b, span);
    }
    if (!in->samples_lost_known && !in->ended) {
        size_t n = (size_t)socmon_recording_nsamples(rec);
        int ok0, ok1;
        uint64_t t0 = t_of(rec, 0, &ok0), t1 = ok0 && n ? t_of(rec, n - 1, &ok1) : 0;
        char flush[260];
        cut_bound(flush, sizeof flush, rec, in);
        smn_format_count(a, sizeof a, n, 1);
        smn_format_ns(c, sizeof c, t1 > t0 ? t1 - t0 : 0);
        used += snprintf(line + used, sizeof line - used, "%srecording cut short (recorder killed?): read %s samples "
                         "to %s; %s after that is missing", used ? "; " : "", a, c, flush);
    }
    if (used)
        add(l, "%s", line);
}

void smn_recording_loss(socmon_recording *rec, char *buf, size_t cap)
{
    if (!buf || !cap)
        return;
    *buf = '\0';
    socmon_recording_info in;
    socmon_recording_get_info(rec, &in);
    if (in.complete)
        return;
    notes l = {buf, cap, 0};
    if (in.gaps)
        gap_note(&l, rec, &in);
    if (in.time_backwards)
        backwards_note(&l, &in);
    if (in.end_mismatch)
        end_note(&l, &in);
    damage_note(&l, rec, &in);
    /* incomplete for another reason (a damaged attachment: a profile, phases): said as the reader
     * said it, so nothing is skipped in silence */
    if (!*buf && in.what[0])
        add(&l, "%s", in.what);
}
