/* The byte sinks: a borrowed FILE, a memory buffer (the sinks by path: sink_path.c); and the checked
 * writes every format goes through.
 *
 * The generic functions make a failure sticky: once a write, flush or close has failed, every
 * later call returns the same status and message without touching the destination, so a
 * format that writes a document in many pieces need not check each one and the command still
 * reports the first error (a full disk, a closed pipe) instead of a truncated file and exit 0. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "export/sink.h"

static socmon_status remember(smn_sink *s, socmon_status st)
{
    if (st != SOCMON_OK && s->err == SOCMON_OK) {
        s->err = st;
        snprintf(s->msg, sizeof s->msg, "%s", socmon_errmsg());
    }
    return st;
}

static socmon_status repeat(const smn_sink *s)
{
    return socmon_fail(s->err, "%s", s->msg);
}

socmon_status smn_sink_write(smn_sink *s, const void *buf, size_t len)
{
    if (!s || (!buf && len))
        return socmon_fail(SOCMON_EINVAL, "smn_sink_write: NULL argument");
    if (s->err != SOCMON_OK)
        return repeat(s);
    return len ? remember(s, s->ops->write(s, buf, len)) : SOCMON_OK;
}

socmon_status smn_sink_puts(smn_sink *s, const char *str)
{
    return smn_sink_write(s, str ? str : "", str ? strlen(str) : 0);
}

socmon_status smn_sink_putc(smn_sink *s, char c)
{
    return smn_sink_write(s, &c, 1);
}

socmon_status smn_sink_vprintf(smn_sink *s, const char *fmt, va_list ap)
{
    char small[256];
    va_list ap2;
    va_copy(ap2, ap);
    int n = vsnprintf(small, sizeof small, fmt, ap);
    if (n < 0) {
        va_end(ap2);
        return socmon_fail(SOCMON_EINVAL, "smn_sink_printf: bad format '%s'", fmt);
    }
    if ((size_t)n < sizeof small) {
        va_end(ap2);
        return smn_sink_write(s, small, (size_t)n);
    }
    char *big = malloc((size_t)n + 1);
    if (!big) {
        va_end(ap2);
        return socmon_fail(SOCMON_ENOMEM, "smn_sink_printf: out of memory for %d bytes", n);
    }
    vsnprintf(big, (size_t)n + 1, fmt, ap2);
    va_end(ap2);
    socmon_status st = smn_sink_write(s, big, (size_t)n);
    free(big);
    return st;
}

socmon_status smn_sink_printf(smn_sink *s, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    socmon_status st = smn_sink_vprintf(s, fmt, ap);
    va_end(ap);
    return st;
}

socmon_status smn_sink_flush(smn_sink *s)
{
    if (!s)
        return socmon_fail(SOCMON_EINVAL, "smn_sink_flush: NULL sink");
    if (s->err != SOCMON_OK)
        return repeat(s);
    return remember(s, s->ops->flush(s));
}

socmon_status smn_sink_close(smn_sink *s)
{
    if (!s)
        return SOCMON_OK;
    socmon_status first = s->err;
    char msg[sizeof s->msg];
    memcpy(msg, s->msg, sizeof msg);
    socmon_status st = s->ops->close(s); /* frees s */
    if (first != SOCMON_OK)
        return socmon_fail(first, "%s", msg);
    return st;
}

/* ---- a borrowed FILE (stdout); the sinks by path are sink_path.c ---- */

typedef struct file_sink {
    smn_sink base;
    FILE *fp;
    char name[];   /* for messages */
} file_sink;

static socmon_status file_failed(const file_sink *f, const char *what)
{
    int e = errno ? errno : EIO;
    return socmon_fail(SOCMON_EIO, "%s %s: %s", what, f->name, strerror(e));
}

static socmon_status file_write(smn_sink *s, const void *buf, size_t len)
{
    file_sink *f = (file_sink *)s;
    errno = 0;
    if (fwrite(buf, 1, len, f->fp) != len)
        return file_failed(f, "writing");
    return SOCMON_OK;
}

static socmon_status file_flush(smn_sink *s)
{
    file_sink *f = (file_sink *)s;
    errno = 0;
    if (fflush(f->fp) != 0 || ferror(f->fp))
        return file_failed(f, "writing");
    return SOCMON_OK;
}

static socmon_status file_close(smn_sink *s)
{
    file_sink *f = (file_sink *)s;
    socmon_status st = s->err == SOCMON_OK ? file_flush(s) : SOCMON_OK;
    free(f);
    return st;
}

static const smn_sink_ops file_ops = {file_write, file_flush, file_close};

socmon_status smn_sink_file(FILE *fp, const char *name, smn_sink **out)
{
    if (!fp || !out)
        return socmon_fail(SOCMON_EINVAL, "smn_sink_file: NULL argument");
    name = name ? name : "output";
    size_t len = strlen(name) + 1;
    file_sink *f = calloc(1, sizeof *f + len);
    if (!f)
        return socmon_fail(SOCMON_ENOMEM, "sink for %s: out of memory", name);
    f->base.ops = &file_ops;
    f->fp = fp;
    memcpy(f->name, name, len);
    *out = &f->base;
    return SOCMON_OK;
}

void smn_sink_cancel(smn_sink *s, socmon_status why)
{
    if (s && s->err == SOCMON_OK) {
        s->err = why != SOCMON_OK ? why : SOCMON_ESTATE;
        snprintf(s->msg, sizeof s->msg, "output cancelled");
    }
}

/* ---- memory sink ---- */

typedef struct mem_sink {
    smn_sink base;
    char *buf;     /* always NUL-terminated once allocated */
    size_t len, cap;
} mem_sink;

static socmon_status mem_write(smn_sink *s, const void *buf, size_t len)
{
    mem_sink *m = (mem_sink *)s;
    if (len > SIZE_MAX / 2 - m->len)
        return socmon_fail(SOCMON_ENOMEM, "memory sink: %zu more bytes overflow", len);
    if (m->len + len + 1 > m->cap) {
        size_t cap = m->cap ? m->cap : 256;
        while (cap < m->len + len + 1)
            cap *= 2;
        char *b = realloc(m->buf, cap);
        if (!b)
            return socmon_fail(SOCMON_ENOMEM, "memory sink: out of memory for %zu bytes", cap);
        m->buf = b;
        m->cap = cap;
    }
    memcpy(m->buf + m->len, buf, len);
    m->len += len;
    m->buf[m->len] = '\0';
    return SOCMON_OK;
}

static socmon_status mem_flush(smn_sink *s)
{
    return SOCMON_OK;
}

static socmon_status mem_close(smn_sink *s)
{
    mem_sink *m = (mem_sink *)s;
    free(m->buf);
    free(m);
    return SOCMON_OK;
}

static const smn_sink_ops mem_ops = {mem_write, mem_flush, mem_close};

socmon_status smn_sink_memory(smn_sink **out)
{
    if (!out)
        return socmon_fail(SOCMON_EINVAL, "smn_sink_memory: NULL argument");
    mem_sink *m = calloc(1, sizeof *m);
    if (!m)
        return socmon_fail(SOCMON_ENOMEM, "memory sink: out of memory");
    m->base.ops = &mem_ops;
    *out = &m->base;
    return SOCMON_OK;
}

const char *smn_sink_memory_data(const smn_sink *s, size_t *len)
{
    if (!s || s->ops != &mem_ops)
        return NULL;
    const mem_sink *m = (const mem_sink *)s;
    if (len)
        *len = m->len;
    return m->buf ? m->buf : "";
}
