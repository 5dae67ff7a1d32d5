/* report's view of the recording file rather than its samples: --stats (format, blocks, bytes
 * per value, what was lost, the clock) and the lines on stderr for a file that was damaged, cut
 * short or has gaps (docs/recording-format.md). */
#include <jansson.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/report_file.h"
#include "export/table.h"

/* One line on stderr for gaps the writer recorded (samples that never reached
 * the recorder, socmon_recwriter_skip_to): how many, how long, where the
 * first one is in the rows' time (from the first sample, as the rows show it). */
static void gap_note(socmon_recording *rec, const char *path, const socmon_recording_info *in)
{
    socmon_timeline *tl = socmon_recording_timeline(rec);
    size_t n = socmon_timeline_len(tl), row = (size_t)in->gap_first_row;
    uint64_t *v = calloc(socmon_recording_ncounters(rec) + 1, sizeof *v);
    socmon_sample s = {0, 0, 0, socmon_recording_ncounters(rec), v};
    uint64_t t0 = 0, before = 0, after = 0;
    int have_before = 0, have_after = 0;
    if (v && n && socmon_timeline_get(tl, 0, &s) == SOCMON_OK) {
        t0 = s.t_ns;
        /* a file whose timestamps go backwards (said in a line of its own) must not wrap here */
        if (row > 0 && row <= n && socmon_timeline_get(tl, row - 1, &s) == SOCMON_OK)
            before = s.t_ns > t0 ? s.t_ns - t0 : 0, have_before = 1;
        if (row < n && socmon_timeline_get(tl, row, &s) == SOCMON_OK)
            after = s.t_ns > t0 ? s.t_ns - t0 : 0, have_after = 1;
    }
    free(v);
    char a[32], b[32], c[32], d[32], where[96];
    socmon_format_count(a, sizeof a, in->gap_samples, 1);
    socmon_format_ns(b, sizeof b, in->gap_ns);
    socmon_format_ns(c, sizeof c, before);
    socmon_format_ns(d, sizeof d, after);
    if (have_before && have_after)
        snprintf(where, sizeof where, "between %s and %s", c, d);
    else if (have_before)
        snprintf(where, sizeof where, "after %s, at the end", c);
    else
        snprintf(where, sizeof where, "before the first sample");
    fprintf(stderr, "socmon report: %s: %llu gap%s in the recording: %s samples (%s) the recorder never received; "
                    "%s %s; the row after a gap is flagged missed=N\n",
            path, (unsigned long long)in->gaps, in->gaps == 1 ? "" : "s", a, b,
            in->gaps == 1 ? "it is" : "the first is", where);
}

/* A line for timestamps that go backwards (an old or crafted file): where the first is, and what
 * the rows make of them. */
static void backwards_note(const char *path, const socmon_recording_info *in)
{
    char a[32], b[32];
    socmon_format_count(a, sizeof a, in->time_backwards, 1);
    socmon_format_count(b, sizeof b, in->time_backwards_row, 1);
    fprintf(stderr, "socmon report: %s: damaged: %s sample%s stamped before the sample before %s (the first: sample "
                    "%s at %llu ns, after %llu ns); such an interval is shown 0 ns long, with no rates\n",
            path, a, in->time_backwards == 1 ? "" : "s", in->time_backwards == 1 ? "it" : "them", b,
            (unsigned long long)in->time_backwards_t_ns, (unsigned long long)in->time_backwards_prev_ns);
}

/* A line for an end record that disagrees with the blocks: which figures, both ways. */
static void end_note(const char *path, const socmon_recording_info *in)
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
    fprintf(stderr, "socmon report: %s: damaged: the end record disagrees with the blocks: it says %s; the rows "
                    "are the blocks'\n", path, line + 2);
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
    socmon_format_count(a, sizeof a, in->block_samples, 1);
    double span = (double)in->block_samples * (double)socmon_recording_interval_ns(rec);
    socmon_format_ns(b, sizeof b, span < 1.8e19 ? (uint64_t)span : UINT64_MAX);
    socmon_format_ns(c, sizeof c, socmon_recording_interval_ns(rec));
    snprintf(block, sizeof block, "one block (%s samples, %s at the %s interval)", a, b, c);
    if (in->clock_known && !in->simulated)
        snprintf(buf, len, "at most the flush period (%g s) or %s, whichever is less,", (double)in->flush_ns / 1e9,
                 block);
    else
        snprintf(buf, len, "at most %s", block);
}

/* One line on stderr when the recording was damaged or cut short: the rows
 * that follow are real, but not the whole run; others for gaps, timestamps
 * that go backwards and an end record that disagrees with the blocks. */
void report_loss_note(socmon_recording *rec, const char *path)
{
    socmon_recording_info in;
    socmon_recording_get_info(rec, &in);
    if (in.complete)
        return;
    if (in.gaps)
        gap_note(rec, path, &in);
    if (in.time_backwards)
        backwards_note(path, &in);
    if (in.end_mismatch)
        end_note(path, &in);
    socmon_timeline *tl = socmon_recording_timeline(rec);
    size_t n = socmon_timeline_len(tl);
    char a[32], b[32], c[32], line[600];
    int used = 0;
    /* the gaps were said above: what is left was lost to damage */
    uint64_t lost = in.samples_lost - in.gap_samples, lost_ns = in.ns_lost - in.gap_ns;
    if (in.blocks_lost || lost) {
        char span[48] = "";
        if (lost_ns) /* unknown when the first block was the one lost */
        {
            socmon_format_ns(c, sizeof c, lost_ns);
            snprintf(span, sizeof span, " (%s)", c);
        }
        socmon_format_count(a, sizeof a, in.blocks_lost, 1);
        socmon_format_count(b, sizeof b, lost, 1);
        used += snprintf(line + used, sizeof line - used, "%s damaged block%s skipped: %s samples%s not read", a,
                         in.blocks_lost == 1 ? "" : "s", b, span);
    }
    if (!in.samples_lost_known && !in.ended) {
        uint64_t t0 = 0, t1 = 0;
        uint64_t *v = calloc(socmon_recording_ncounters(rec) + 1, sizeof *v);
        socmon_sample s = {0, 0, 0, socmon_recording_ncounters(rec), v};
        if (v && n && socmon_timeline_get(tl, 0, &s) == SOCMON_OK) {
            t0 = s.t_ns;
            if (socmon_timeline_get(tl, n - 1, &s) == SOCMON_OK)
                t1 = s.t_ns;
        }
        free(v);
        char flush[260];
        cut_bound(flush, sizeof flush, rec, &in);
        socmon_format_count(a, sizeof a, n, 1);
        socmon_format_ns(c, sizeof c, t1 > t0 ? t1 - t0 : 0);
        used += snprintf(line + used, sizeof line - used, "%srecording cut short (recorder killed?): read %s samples "
                         "to %s; %s after that is missing", used ? "; " : "", a, c, flush);
    }
    if (used)
        fprintf(stderr, "socmon report: %s: %s\n", path, line);
}

int report_print_stats(socmon_recording *rec, const cli_opts *o, const char *path)
{
    socmon_recording_info in;
    socmon_recording_get_info(rec, &in);
    size_t nc = socmon_recording_ncounters(rec);
    uint64_t samples = socmon_timeline_len(socmon_recording_timeline(rec)), values = samples * nc;
    double bpv = values ? (double)in.file_bytes / (double)values : 0;
    /* which clock stamped the samples, as the file says (v1 files do not say) */
    const char *clock = !in.clock_known ? "unknown" : in.simulated ? "simulated" : "real";
    if (o->format && strcmp(o->format, "json") == 0) {
        json_t *j = json_pack("{s:s, s:i, s:I, s:I, s:I, s:I, s:f, s:b, s:I, s:I, s:I, s:b, s:I, s:I, "
                              "s:I, s:I, s:I, s:s, s:s}",
                              "file", path, "version", (int)in.version, "samples", (json_int_t)samples,
                              "counters", (json_int_t)nc, "blocks", (json_int_t)in.blocks,
                              "file_bytes", (json_int_t)in.file_bytes, "bytes_per_value", bpv,
                              "complete", in.complete, "blocks_lost", (json_int_t)in.blocks_lost,
                              "bytes_lost", (json_int_t)in.bytes_lost, "samples_lost", (json_int_t)in.samples_lost,
                              "samples_lost_known", in.samples_lost_known, "ns_lost", (json_int_t)in.ns_lost,
                              "flush_ns", (json_int_t)in.flush_ns, "gaps", (json_int_t)in.gaps,
                              "gap_samples", (json_int_t)in.gap_samples, "gap_ns", (json_int_t)in.gap_ns,
                              "lost", in.what, "clock", clock);
        int bad = !j || json_dumpf(j, stdout, JSON_INDENT(2)) != 0;
        json_decref(j);
        printf("\n");
        return bad || fflush(stdout) ? cli_error("report", socmon_fail(SOCMON_EIO, "cannot write --stats")) : 0;
    }
    if (o->format && strcmp(o->format, "csv") == 0) {
        /* one header row and one row, the JSON object's fields in its order */
        static const char *const names[] = {"file", "version", "samples", "counters", "blocks", "file_bytes",
                                            "bytes_per_value", "complete", "blocks_lost", "bytes_lost",
                                            "samples_lost", "samples_lost_known", "ns_lost", "flush_ns", "gaps", "gap_samples",
                                            "gap_ns", "lost", "clock"};
        enum { NF = sizeof names / sizeof names[0] };
        char num[NF][32];
        const uint64_t u[] = {in.version, samples, nc, in.blocks, in.file_bytes};
        for (int i = 0; i < 5; i++)
            snprintf(num[i + 1], sizeof num[0], "%llu", (unsigned long long)u[i]);
        snprintf(num[6], sizeof num[0], "%.4f", bpv);
        const uint64_t u2[] = {(uint64_t)in.complete, in.blocks_lost, in.bytes_lost, in.samples_lost,
                               (uint64_t)in.samples_lost_known, in.ns_lost, in.flush_ns, in.gaps,
                               in.gap_samples, in.gap_ns};
        for (int i = 0; i < 10; i++)
            snprintf(num[i + 7], sizeof num[0], "%llu", (unsigned long long)u2[i]);
        for (int i = 0; i < NF; i++) {
            socmon_csv_field(stdout, names[i], o->sep);
            putchar(i == NF - 1 ? '\n' : o->sep);
        }
        for (int i = 0; i < NF; i++) {
            socmon_csv_field(stdout, i == 0 ? path : i == NF - 2 ? in.what : i == NF - 1 ? clock : num[i], o->sep);
            putchar(i == NF - 1 ? '\n' : o->sep);
        }
        return fflush(stdout) ? cli_error("report", socmon_fail(SOCMON_EIO, "cannot write --stats")) : 0;
    }
    /* a person reads these: counts grouped like every human output (--no-big-num: plain) */
    char a[32], b[32], c[32];
    socmon_format_count(a, sizeof a, samples, !o->no_big_num);
    socmon_format_count(b, sizeof b, in.blocks, !o->no_big_num);
    socmon_format_count(c, sizeof c, in.file_bytes, !o->no_big_num);
    printf("recording %s\n", path);
    printf("  format version:  %u\n", in.version);
    printf("  samples:         %s\n", a);
    printf("  counters:        %zu\n", nc);
    printf("  blocks:          %s\n", b);
    printf("  file bytes:      %s\n", c);
    printf("  bytes per value: %.2f\n", bpv);
    printf("  lost:            %s\n", in.complete ? "nothing" : in.what);
    printf("  clock:           %s\n", clock);
    return fflush(stdout) ? cli_error("report", socmon_fail(SOCMON_EIO, "cannot write --stats")) : 0;
}

