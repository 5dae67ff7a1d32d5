/* GET /api/stream: the live view's rows as server-sent events (text/event-stream).
 *
 * A stream opens with `event: counters` (the full names whose deltas its rows carry, chosen by
 * ?counters=GLOBS), then replays the history the view still holds and goes on live:
 *   data: {"seq",...}             one row (export/web_json.h's shape)
 *   event: gap   data: {...}      samples lost: {"count","t0_ns","t1_ns"}
 *   event: end   data: {}         the run ended; the stream stays open (comments keep it alive)
 * so EventSource does not reconnect and replay the run again. A stream that falls more than the
 * history behind (a page that stopped reading) is told with a gap event for the rows it lost.
 * Each stream runs in its connection's own thread (http.c), waiting on the view for its next
 * entry; an idle second sends a comment line, which also finds clients that went away. */
#include <fnmatch.h>
#include <inttypes.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "serve/http_internal.h"
#include "export/web_json.h"

#define STREAM_WAIT_MS 1000

typedef struct stream {
    smn_live *lv;
    uint64_t cursor;
    size_t nc, nm, nsel;
    size_t *sel;            /* counters whose deltas rows carry */
    double *m;
    uint64_t *d, *dsel;
    char *buf;              /* the text being sent: buf[off..len) is still to go */
    size_t cap, len, off;
    char *head;             /* the opening events */
    int ended;
    int have_last;          /* a row was sent: last_seq/last_t are its */
    uint64_t last_seq, last_t;
} stream;

static void stream_free(void *cls)
{
    stream *s = cls;
    if (!s)
        return;
    free(s->sel);
    free(s->m);
    free(s->d);
    free(s->dsel);
    free(s->buf);
    free(s->head);
    free(s);
}

static int reserve(stream *s, size_t need)
{
    if (need <= s->cap)
        return 0;
    size_t cap = s->cap ? s->cap : 256;
    while (cap < need)
        cap *= 2;
    char *nb = realloc(s->buf, cap);
    if (!nb)
        return -1;
    s->buf = nb;
    s->cap = cap;
    return 0;
}

/* buf = text (replacing what was sent). */
static int set_text(stream *s, const char *text, size_t len)
{
    if (reserve(s, len + 1) != 0)
        return -1;
    memcpy(s->buf, text, len);
    s->len = len;
    s->off = 0;
    return 0;
}

static int put_row(stream *s, const smn_live_entry *e)
{
    for (size_t i = 0; i < s->nsel; i++)
        s->dsel[i] = s->d[s->sel[i]];
    static const char pre[] = "data: ";
    size_t room = s->cap > sizeof pre + 2 ? s->cap - (sizeof pre - 1) - 2 : 0;
    size_t n = smn_web_row_text(s->cap ? s->buf + sizeof pre - 1 : NULL, room, e->seq, e->t_ns, e->dt_ns,
                                   e->flags, e->missed, s->m, s->nm, s->dsel, s->nsel, NULL);
    if (n >= room) {
        if (reserve(s, n + sizeof pre + 3) != 0)
            return -1;
        room = s->cap - (sizeof pre - 1) - 2;
        n = smn_web_row_text(s->buf + sizeof pre - 1, room, e->seq, e->t_ns, e->dt_ns, e->flags, e->missed,
                                s->m, s->nm, s->dsel, s->nsel, NULL);
    }
    memcpy(s->buf, pre, sizeof pre - 1);
    memcpy(s->buf + sizeof pre - 1 + n, "\n\n", 2);
    s->len = sizeof pre - 1 + n + 2;
    s->off = 0;
    s->have_last = 1;
    s->last_seq = e->seq;
    s->last_t = e->t_ns;
    return 0;
}

static int put_gap(stream *s, uint64_t count, uint64_t t0, uint64_t t1)
{
    char text[160];
    int n = snprintf(text, sizeof text, "event: gap\ndata: {\"count\":%" PRIu64 ",\"t0_ns\":%" PRIu64
                     ",\"t1_ns\":%" PRIu64 "}\n\n", count, t0, t1);
    return set_text(s, text, (size_t)n);
}

/* The next piece of text into buf; -1 when the stream is over (server stopping, out of memory). */
static int fill(stream *s)
{
    if (s->head) {
        int rc = set_text(s, s->head, strlen(s->head));
        free(s->head);
        s->head = NULL;
        return rc;
    }
    smn_live_entry e;
    int rc = socmon_live_next(s->lv, &s->cursor, &e, s->m, s->d, STREAM_WAIT_MS);
    if (rc < 0)
        return -1;
    if (rc == 0)
        return set_text(s, ": idle\n\n", 8);
    if (e.skipped && s->have_last && e.kind == SOCMON_LIVE_ROW && e.first_seq > s->last_seq + 1) {
        /* this reader fell behind the history: say what it lost, then go back for the row */
        s->cursor--;
        uint64_t count = e.first_seq - s->last_seq - 1, t0 = s->last_t, t1 = e.t_ns - e.dt_ns;
        s->last_seq = e.first_seq - 1;
        s->last_t = t1;
        return put_gap(s, count, t0, t1);
    }
    switch (e.kind) {
    case SOCMON_LIVE_ROW:
        return put_row(s, &e);
    case SOCMON_LIVE_GAP:
        return put_gap(s, e.count, e.t0_ns, e.t1_ns);
    case SOCMON_LIVE_END:
        s->ended = 1;
        return set_text(s, "event: end\ndata: {}\n\n", 21);
    }
    return -1;
}

static ssize_t on_read(void *cls, uint64_t pos, char *out, size_t max)
{
    stream *s = cls;
    (void)pos;
    while (s->off >= s->len)
        if (fill(s) != 0)
            return MHD_CONTENT_READER_END_OF_STREAM;
    size_t n = s->len - s->off < max ? s->len - s->off : max;
    memcpy(out, s->buf + s->off, n);
    s->off += n;
    return (ssize_t)n;
}

/* 1 if name matches one of the comma-separated globs. */
static int selected(const char *name, const char *globs)
{
    for (const char *p = globs; *p;) {
        size_t n = strcspn(p, ",");
        char g[256];
        if (n > 0 && n < sizeof g) {
            memcpy(g, p, n);
            g[n] = '\0';
            if (fnmatch(g, name, 0) == 0)
                return 1;
        }
        p += n + (p[n] == ',');
    }
    return 0;
}

/* retry, then the counters event naming the deltas' order. */
static int make_head(stream *s, const smn_live_schema *sch)
{
    json_t *names = json_array(), *o = json_object();
    int bad = !names || !o;
    for (size_t i = 0; !bad && i < s->nsel; i++)
        bad = json_array_append_new(names, json_string(sch->names[s->sel[i]])) != 0;
    bad = bad || json_object_set(o, "counters", names) != 0;
    char *text = bad ? NULL : json_dumps(o, JSON_COMPACT);
    json_decref(names);
    json_decref(o);
    if (!text)
        return -1;
    size_t len = strlen(text) + 64;
    s->head = malloc(len);
    if (s->head)
        snprintf(s->head, len, "retry: 2000\nevent: counters\ndata: %s\n\n", text);
    free(text);
    return s->head ? 0 : -1;
}

struct MHD_Response *http_stream_response(smn_live *lv, const char *counters)
{
    const smn_live_schema *sch = socmon_live_schema_of(lv);
    stream *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->lv = lv;
    s->nc = sch->ncounters;
    s->nm = socmon_live_nmetrics(lv);
    s->sel = calloc(s->nc + 1, sizeof *s->sel);
    s->m = calloc(s->nm + 1, sizeof *s->m);
    s->d = calloc(s->nc + 1, sizeof *s->d);
    s->dsel = calloc(s->nc + 1, sizeof *s->dsel);
    if (!s->sel || !s->m || !s->d || !s->dsel) {
        stream_free(s);
        return NULL;
    }
    for (size_t i = 0; counters && i < s->nc; i++)
        if (selected(sch->names[i], counters))
            s->sel[s->nsel++] = i;
    s->cursor = socmon_live_oldest(lv);
    if (make_head(s, sch) != 0 || reserve(s, 256 + 32 * (s->nm + s->nsel)) != 0) {
        stream_free(s);
        return NULL;
    }
    struct MHD_Response *r = MHD_create_response_from_callback(MHD_SIZE_UNKNOWN, 16384, on_read, s, stream_free);
    if (!r) {
        stream_free(s);
        return NULL;
    }
    MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, "text/event-stream; charset=utf-8");
    MHD_add_response_header(r, MHD_HTTP_HEADER_CACHE_CONTROL, "no-store");
    MHD_add_response_header(r, "X-Accel-Buffering", "no");
    return r;
}
