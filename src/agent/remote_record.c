/* socmon record --remote's side of the stream (remote_record.h). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "agent/remote_record.h"
#include "core/clock.h"
#include "core/text.h"

/* The attachment naming the agent's seq of the file's index 0. A start asked for (--from, -d's
 * now) makes index 0 that seq (the collector source rebases); a whole run's file is indexed by
 * the agent's seqs and has none. */
#define REMOTE_BASE "agent_seq_base"

static void say(const remote_record *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void say(const remote_record *r, const char *fmt, ...)
{
    char line[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    r->say(r->user, line);
}

void remote_record_arrived(const remote_record *r, char *buf, size_t len)
{
    char n[32], span[32];
    int have = 0;
    uint64_t base = collector_source_base(r->src, &have);
    smn_format_count(n, sizeof n, r->samples, r->big);
    smn_format_ns(span, sizeof span, r->samples ? r->last_t - r->first_t : 0);
    int k = snprintf(buf, len, "%s sample%s from agent %s (target %s)", n, r->samples == 1 ? "" : "s", r->agent,
                     r->target);
    if (k < 0 || (size_t)k >= len || !r->samples)
        return;
    if (r->first_seq == r->last_seq)
        snprintf(buf + k, len - (size_t)k, " over %s of target time (seq %llu)", span,
                 (unsigned long long)(base + r->first_seq));
    else
        snprintf(buf + k, len - (size_t)k, " over %s of target time (seq %llu..%llu)", span,
                 (unsigned long long)(base + r->first_seq), (unsigned long long)(base + r->last_seq));
}

void remote_record_wrote(const remote_record *r, const char *path, char *buf, size_t len)
{
    collector_stats cs;
    collector_get_stats(collector_source_collector(r->src), &cs);
    char what[512], bbuf[32], nbuf[32], lbuf[32];
    remote_record_arrived(r, what, sizeof what);
    smn_format_count(bbuf, sizeof bbuf, cs.bytes, r->big);
    smn_format_count(nbuf, sizeof nbuf, r->samples, r->big);
    smn_format_count(lbuf, sizeof lbuf, *r->lost, r->big);
    snprintf(buf, len, "wrote %s sample%s (%s lost at the agent): %s, to %s (%s bytes received)", nbuf,
             r->samples == 1 ? "" : "s", lbuf, what, path, bbuf);
}

static socmon_status remember_base(remote_record *r)
{
    int have = 0;
    char doc[64];
    uint64_t base = collector_source_base(r->src, &have);
    int n = snprintf(doc, sizeof doc, "{\"first_seq\": %llu}", (unsigned long long)base);
    return have ? socmon_recwriter_attach(r->w, REMOTE_BASE, doc, (size_t)n) : SOCMON_OK;
}

/* The file's REMOTE_BASE (0 for a file that starts at the agent's seq 0). */
static socmon_status remembered_base(const char *path, uint64_t *base)
{
    socmon_recording *file = NULL;
    const void *data = NULL;
    size_t len = 0;
    *base = 0;
    /* opened, not loaded: only its attachment is wanted, and a long file is no load's to hold */
    socmon_status st = socmon_recording_open(path, &file);
    if (st == SOCMON_OK && socmon_recording_attachment(file, REMOTE_BASE, &data, &len) == SOCMON_OK) {
        char doc[64];
        snprintf(doc, sizeof doc, "%.*s", (int)(len < sizeof doc ? len : sizeof doc - 1), (const char *)data);
        const char *p = strchr(doc, ':');
        char *end = NULL;
        *base = p ? strtoull(p + 1, &end, 10) : 0;
        if (!p || end == p + 1)
            st = socmon_fail(SOCMON_EPARSE, "--append '%s': its %s attachment '%s' holds no seq", path, REMOTE_BASE,
                             doc);
    }
    socmon_recording_free(file);
    if (st == SOCMON_EPARSE)
        return st;
    socmon_clear_error();   /* a file the reader refuses: reopen says why */
    return SOCMON_OK;
}

socmon_status remote_record_continue(remote_record *r, const char *path)
{
    uint64_t base = 0;
    socmon_status st = remembered_base(path, &base);
    if (st != SOCMON_OK)
        return st;
    if (base)
        collector_source_set_base(r->src, base);
    collector_source_start(r->src, WIRE_SUB_SEQ, base + socmon_recwriter_next_index(r->w));
    return SOCMON_OK;
}

/* What the agent no longer had, and a progress line a second. */
static socmon_status note_sample(void *self, uint64_t seq, const socmon_sample *s)
{
    remote_record *r = self;
    uint64_t next = socmon_recwriter_next_index(r->w);
    if (!r->samples && !r->appending) {
        socmon_status st = remember_base(r);
        if (st != SOCMON_OK)
            return st;
    }
    if (!r->samples)
        r->first_seq = seq, r->first_t = s->t_ns;
    r->last_seq = seq, r->last_t = s->t_ns;
    if (seq > next)
        say(r, "the agent's ring starts at seq %llu: samples %llu..%llu are gone (%llu lost); the file records "
            "them as a gap", (unsigned long long)seq, (unsigned long long)next, (unsigned long long)seq - 1,
            (unsigned long long)(seq - next));
    r->samples++;
    uint64_t now = smn_mono_ns();
    if (r->progress && now >= r->next_progress) {
        char what[512];
        remote_record_arrived(r, what, sizeof what);
        say(r, "%s, %llu lost so far", what, (unsigned long long)(*r->lost + (seq > next ? seq - next : 0)));
        r->next_progress = now + 1000000000u;
    }
    return SOCMON_OK;
}

static socmon_status note_gap(void *self, const socmon_gap *g)
{
    remote_record *r = self;
    uint64_t next = socmon_recwriter_next_index(r->w), to = g->first_seq + g->count;
    if (to > next)
        say(r, "the agent no longer had samples %llu..%llu (%llu lost: its ring is too small for how late this "
            "collector was); the file says so", (unsigned long long)next, (unsigned long long)(to - 1),
            (unsigned long long)(to - next));
    return SOCMON_OK;
}

static const socmon_consumer_ops notes_ops = {.size = sizeof notes_ops, .sample = note_sample, .gap = note_gap};

socmon_consumer remote_record_consumer(remote_record *r)
{
    return (socmon_consumer){.ops = &notes_ops, .self = r};
}

void remote_record_start_line(const remote_record *r, int from_now, int duration, size_t ncounters,
                              uint64_t interval_ns, char *buf, size_t len)
{
    const wire_hello *h = collector_hello(collector_source_collector(r->src));
    char start[200];
    if (r->appending)
        snprintf(start, sizeof start, "appending after the file's last sample");
    else if (from_now)
        snprintf(start, sizeof start, "--from now: from its next sample (after the %llu it has taken)%s",
                 (unsigned long long)h->next_seq, duration ? ", -d counted from it" : "");
    else
        snprintf(start, sizeof start, "--from oldest: from the oldest sample it holds (seq %llu of %llu taken)",
                 (unsigned long long)h->oldest_seq, (unsigned long long)h->next_seq);
    snprintf(buf, len, "from agent %s (target %s, %zu counters, interval %.6g ms), %s", r->agent, r->target,
             ncounters, (double)interval_ns / 1e6, start);
}

/* What an agent whose run is over still holds: "its ring holds 6 samples (seq 0..5)". The ring
 * keeps the newest of what was taken (next_seq - 1 the last), at most its capacity. */
static void ring_held(const wire_hello *h, uint64_t next_seq, int big, char *buf, size_t len)
{
    uint64_t oldest = h->oldest_seq;
    if (next_seq > oldest && next_seq - oldest > h->ring_capacity)
        oldest = next_seq - h->ring_capacity;
    char n[32];
    smn_format_count(n, sizeof n, next_seq > oldest ? next_seq - oldest : 0, big);
    if (next_seq <= oldest)
        snprintf(buf, len, "its ring holds no sample");
    else if (next_seq - oldest == 1)
        snprintf(buf, len, "its ring holds 1 sample (seq %llu)", (unsigned long long)oldest);
    else
        snprintf(buf, len, "its ring holds %s samples (seq %llu..%llu)", n, (unsigned long long)oldest,
                 (unsigned long long)next_seq - 1);
}

/* The HELLO says the run is over (WIRE_HELLO_ENDED): issue 37 item 8. */
int remote_record_ended(const remote_record *r, int from_given, char *buf, size_t len)
{
    const wire_hello *h = collector_hello(collector_source_collector(r->src));
    if (!(h->flags & WIRE_HELLO_ENDED))
        return 0;
    char held[128], taken[32];
    ring_held(h, h->next_seq, r->big, held, sizeof held);
    smn_format_count(taken, sizeof taken, h->next_seq, r->big);
    snprintf(buf, len, "the run of agent %s has ended (it took %s sample%s): --from now%s would wait for a sample "
             "that never comes, so nothing was recorded; %s: 'socmon record --remote %s --from oldest' records %s",
             r->agent, taken, h->next_seq == 1 ? "" : "s", from_given ? "" : " (where -d counts from)", held,
             r->agent, h->next_seq - h->oldest_seq == 1 ? "it" : "them");
    return 1;
}

int remote_record_nothing(const remote_record *r, const char *end_reason, int from_now, char *buf, size_t len)
{
    if (r->appending ? r->samples > 0 : r->samples > 1)
        return 0;
    collector *c = collector_source_collector(r->src);
    collector_stats cs;
    collector_get_stats(c, &cs);
    char held[128];
    ring_held(collector_hello(c), cs.next_seq, r->big, held, sizeof held);
    snprintf(buf, len, "recorded no interval: the agent's run ended (%s) before %s; %s%s",
             end_reason ? end_reason : "its END came",
             r->appending ? "a sample after the file's last" : r->samples ? "a second sample" : "its first sample",
             held, from_now && !r->appending ? ", which --from oldest records" : "");
    return 1;
}
