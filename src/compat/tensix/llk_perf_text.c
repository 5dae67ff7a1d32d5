/* Text and CSV output shared by the Tensix host API. */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "compat/tensix/llk_perf_text.h"

static int grow(tx_text *t, size_t more)
{
    if (t->oom)
        return 0;
    if (t->len + more + 1 <= t->cap)
        return 1;
    size_t cap = t->cap ? t->cap : 256;
    while (cap < t->len + more + 1)
        cap *= 2;
    char *b = realloc(t->buf, cap);
    if (!b) {
        t->oom = 1;
        return 0;
    }
    t->buf = b;
    t->cap = cap;
    return 1;
}

void smn_tx_text_add(tx_text *t, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0 || !grow(t, (size_t)n))
        return;
    va_start(ap, fmt);
    vsnprintf(t->buf + t->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    t->len += (size_t)n;
}

void smn_tx_text_rep(tx_text *t, const char *s, unsigned n)
{
    for (unsigned i = 0; i < n; i++)
        smn_tx_text_add(t, "%s", s);
}

void smn_tx_text_commas(tx_text *t, uint64_t v, int width)
{
    char digits[32], out[48];
    int nd = snprintf(digits, sizeof digits, "%llu", (unsigned long long)v), k = 0;
    for (int i = 0; i < nd; i++) {
        if (i && (nd - i) % 3 == 0)
            out[k++] = ',';
        out[k++] = digits[i];
    }
    out[k] = '\0';
    smn_tx_text_add(t, "%*s", width, out);
}

socmon_status smn_tx_text_finish(tx_text *t, char *buf, size_t cap, size_t *len)
{
    if (t->oom) {
        free(t->buf);
        return socmon_fail(SOCMON_ENOMEM, "tensix: out of memory formatting output");
    }
    if (len)
        *len = t->len;
    if (buf && cap) {
        size_t n = t->len < cap - 1 ? t->len : cap - 1;
        if (n)
            memcpy(buf, t->buf, n);
        buf[n] = '\0';
    }
    free(t->buf);
    return SOCMON_OK;
}

socmon_status smn_tx_text_print(tx_text *t, FILE *fp)
{
    socmon_status st = SOCMON_OK;
    if (t->oom)
        st = socmon_fail(SOCMON_ENOMEM, "tensix: out of memory formatting output");
    else if (!fp)
        st = socmon_fail(SOCMON_EINVAL, "tensix: print to a NULL stream");
    else if (t->len && fwrite(t->buf, 1, t->len, fp) != t->len)
        st = socmon_fail(SOCMON_EIO, "tensix: write failed: %s", strerror(errno));
    free(t->buf);
    return st;
}

/* socmon's CSV quoting rule (the one src/export uses): RFC 4180 (a comma,
 * quote or line break), plus a leading or trailing space, which readers would
 * otherwise trim. Restated here: a compat layer sees only the public API. */
static int needs_quotes(const char *s)
{
    size_t n = strlen(s);
    return (n && (s[0] == ' ' || s[n - 1] == ' ')) || strpbrk(s, ",\"\r\n") != NULL;
}

void smn_tx_csv_field(tx_text *t, const char *s)
{
    if (!needs_quotes(s)) {
        smn_tx_text_add(t, "%s", s);
        return;
    }
    smn_tx_text_add(t, "\"");
    for (const char *p = s; *p; p++)
        smn_tx_text_add(t, *p == '"' ? "\"\"" : "%c", *p);
    smn_tx_text_add(t, "\"");
}

void smn_tx_csv_params_header(tx_text *t, const socmon_kv *params, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        smn_tx_text_add(t, ",");
        smn_tx_csv_field(t, params[i].key ? params[i].key : "");
    }
}

void smn_tx_csv_params_values(tx_text *t, const socmon_kv *params, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        smn_tx_text_add(t, ",");
        smn_tx_csv_field(t, params[i].value ? params[i].value : "");
    }
}

static socmon_status csv_append(const char *filename, const char *worker_id, const char *header,
                                const tx_text *rows)
{
    if (!filename || !*filename)
        return socmon_fail(SOCMON_EINVAL, "tensix export: empty file name");
    char path[4096];
    if ((size_t)snprintf(path, sizeof path, "%s.%s.csv", filename, worker_id ? worker_id : "gw0") >=
        sizeof path)
        return socmon_fail(SOCMON_ERANGE, "tensix export: file name too long");
    int fresh = 1;
    FILE *fp = fopen(path, "r");
    if (fp) {
        char line[8192];
        if (fgets(line, sizeof line, fp)) {
            fresh = 0;
            line[strcspn(line, "\r\n")] = '\0';
            if (strcmp(line, header) != 0) {
                fclose(fp);
                return socmon_fail(SOCMON_EINVAL,
                                   "tensix export: %s has columns '%s', these rows have '%s'", path,
                                   line, header);
            }
        }
        fclose(fp);
    }
    fp = fopen(path, "a");
    if (!fp) {
        int e = errno;
        return socmon_fail(e == EACCES ? SOCMON_EPERM : SOCMON_ENOENT, "tensix export: cannot write %s: %s",
                           path, strerror(e));
    }
    int bad = (fresh && fprintf(fp, "%s\n", header) < 0) ||
              (rows->len && fwrite(rows->buf, 1, rows->len, fp) != rows->len);
    bad |= fclose(fp) != 0;
    if (bad)
        return socmon_fail(SOCMON_EIO, "tensix export: writing %s failed", path);
    return SOCMON_OK;
}

socmon_status smn_tx_csv_export(const char *filename, const char *worker_id, tx_text *head, tx_text *rows)
{
    socmon_status st = head->oom || rows->oom
                           ? socmon_fail(SOCMON_ENOMEM, "tensix export: out of memory")
                           : csv_append(filename, worker_id, head->buf ? head->buf : "", rows);
    free(head->buf);
    free(rows->buf);
    return st;
}
