/* The HTTP server's log (http_internal.h): every line goes through a budget per kind of line.
 *
 * A peer decides how often the server has something to say: a client that sends a thousand bad
 * requests a second, or libmicrohttpd retrying accept() at its fd limit (two lines per retry,
 * hundreds of MB a second before this existed, issue 23), must not fill a board's disk. Lines
 * with the same key share a window of HTTP_LOG_WINDOW_MS: the first HTTP_LOG_BURST of a window
 * are written, the rest only counted, and the count is said once the window is over ("... 1234
 * more like it in the last 10 s"). A few keys at a time are tracked; a new key takes the slot
 * of the one heard from least recently, after saying what that one still owed. Since a peer can
 * make more kinds of line than there are slots (and so evict each before its budget is spent),
 * all lines together also have a budget, HTTP_LOG_TOTAL a window: at most that many lines plus
 * one count per 10 s, whatever the peer does. */
#include <stdarg.h>
#include <string.h>
#include <time.h>

#include "serve/http_internal.h"
#include "core/text.h"

#define HTTP_LOG_WINDOW_MS 10000
#define HTTP_LOG_BURST 5
#define HTTP_LOG_TOTAL 40

static uint64_t now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

void http_log_init(http_log *l, FILE *fp, const char *who)
{
    memset(l, 0, sizeof *l);
    l->fp = fp;
    l->who = who;
    pthread_mutex_init(&l->mu, NULL);
}

void http_log_destroy(http_log *l)
{
    http_log_tick(l, 1);
    pthread_mutex_destroy(&l->mu);
}

/* Caller holds mu. One fprintf per line: stdio locks the stream, so lines of two threads (ours
 * and the rest of the program's) never mix. */
static void put_line(http_log *l, const char *line)
{
    uint64_t now = now_ms();
    if (now - l->all_start_ms >= HTTP_LOG_WINDOW_MS) {
        if (l->all_suppressed)
            fprintf(l->fp, "%s: ... %u more lines of all kinds in the last %u s, not logged\n", l->who,
                    l->all_suppressed, (unsigned)((now - l->all_start_ms + 999) / 1000));
        l->all_start_ms = now;
        l->all_printed = l->all_suppressed = 0;
    }
    if (l->all_printed >= HTTP_LOG_TOTAL) {
        l->all_suppressed++;
        return;
    }
    l->all_printed++;
    fprintf(l->fp, "%s: %s\n", l->who, line);
    fflush(l->fp);
}

/* Caller holds mu: says what slot s did not log, and starts its next window. */
static void close_window(http_log *l, http_log_slot *s, uint64_t now)
{
    if (s->suppressed) {
        char line[HTTP_LOG_LINE + 96];
        snprintf(line, sizeof line, "... %u more like \"%s\" in the last %u s, not logged", s->suppressed,
                 s->first, (unsigned)((now - s->start_ms + 999) / 1000));
        put_line(l, line);
    }
    s->start_ms = now;
    s->printed = s->suppressed = 0;
}

void http_log_tick(http_log *l, int all)
{
    uint64_t now = now_ms();
    pthread_mutex_lock(&l->mu);
    for (size_t i = 0; i < HTTP_LOG_SLOTS; i++) {
        http_log_slot *s = &l->slot[i];
        if (s->key[0] && s->suppressed && (all || now - s->start_ms >= HTTP_LOG_WINDOW_MS))
            close_window(l, s, now);
    }
    pthread_mutex_unlock(&l->mu);
}

void http_logv(http_log *l, const char *key, const char *fmt, va_list ap)
{
    char raw[HTTP_LOG_LINE], line[HTTP_LOG_LINE];
    vsnprintf(raw, sizeof raw, fmt, ap);
    /* one printable line whatever a peer or the library put into it: libmicrohttpd's own lines end
       in a newline (not the peer's: dropped rather than shown as \x0a); any other CR or LF is
       escaped with the rest, so a peer cannot cut off the end of the line that names it */
    size_t n = strlen(raw);
    while (n && (raw[n - 1] == '\n' || raw[n - 1] == '\r'))
        raw[--n] = '\0';
    smn_text_escape(line, sizeof line, raw);
    uint64_t now = now_ms();
    pthread_mutex_lock(&l->mu);
    http_log_slot *s = NULL, *lru = &l->slot[0];
    for (size_t i = 0; i < HTTP_LOG_SLOTS && !s; i++) {
        if (strncmp(l->slot[i].key, key, sizeof l->slot[i].key - 1) == 0 && l->slot[i].key[0])
            s = &l->slot[i];
        else if (l->slot[i].last_ms < lru->last_ms)
            lru = &l->slot[i];
    }
    if (!s) {
        s = lru;
        if (s->key[0])
            close_window(l, s, now);
        memset(s, 0, sizeof *s);
        snprintf(s->key, sizeof s->key, "%s", key);
        s->start_ms = now;
    } else if (now - s->start_ms >= HTTP_LOG_WINDOW_MS) {
        close_window(l, s, now);
    }
    s->last_ms = now;
    if (s->printed < HTTP_LOG_BURST) {
        if (s->printed++ == 0)
            snprintf(s->first, sizeof s->first, "%.60s", line);
        put_line(l, line);
    } else {
        s->suppressed++;
    }
    pthread_mutex_unlock(&l->mu);
}

void http_logf(http_log *l, const char *key, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    http_logv(l, key, fmt, ap);
    va_end(ap);
}
