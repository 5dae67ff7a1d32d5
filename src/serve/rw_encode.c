/* Remote-Write bodies from the text exposition (rw_encode.h).
 *
 * The series are taken from the text that socmon's "prometheus" format writes, not built a
 * second time from counters and metrics: the names, the units' scaling, the labels and the
 * run's own series (target_info, samples, missed intervals) are then the ones /metrics serves,
 * by construction, and stay so when that format changes. The text is socmon's own, but it is
 * parsed as if it were not (every line checked, names quoted in the error) because a parser
 * that trusts its input is the one that breaks first. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <snappy-c.h>

#include "socmon/status.h"
#include "core/text.h"
#include "serve/remote_write.pb-c.h"
#include "serve/rw_encode.h"

static socmon_status nomem(void)
{
    return socmon_fail(SOCMON_ENOMEM, "remote write: out of memory");
}

static void series_free(smn_rw_series *s)
{
    for (size_t i = 0; i < s->nlabels; i++) {
        free(s->labels[i].name);
        free(s->labels[i].value);
    }
    free(s->labels);
    free(s->key);
    free(s->v);
    free(s->t);
}

void smn_rw_batch_clear(smn_rw_batch *b)
{
    for (size_t i = 0; i < b->n; i++)
        series_free(&b->s[i]);
    free(b->s);
    memset(b, 0, sizeof *b);
}

static int name_char(char c, int first)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == ':' || (!first && c >= '0' && c <= '9');
}

/* One line's parts, pointing into a scratch copy of it. */
typedef struct parsed {
    const char *name;
    smn_rw_label labels[32];
    size_t nlabels;
    double value;
    size_t keylen;              /* the line's "name{labels}" */
} parsed;

static socmon_status bad_line(const char *line, size_t len, const char *why)
{
    char esc[200], cut[120];
    size_t n = len < sizeof cut - 1 ? len : sizeof cut - 1;
    memcpy(cut, line, n);
    cut[n] = '\0';
    smn_text_escape(esc, sizeof esc, cut);
    return socmon_fail(SOCMON_EPARSE, "remote write: exposition line '%s%s': %s", esc, n < len ? "..." : "", why);
}

/* A label value "..." at *p (past the quote) unescaped in place; *p ends past the closing quote. */
static int unquote(char **p, char *end)
{
    char *w = *p, *r = *p;
    while (r < end && *r != '"') {
        if (*r == '\\') {
            if (++r == end)
                return -1;
            *w++ = *r == 'n' ? '\n' : *r;   /* \\ and \" are themselves */
            r++;
        } else {
            *w++ = *r++;
        }
    }
    if (r == end)
        return -1;
    *w = '\0';
    *p = r + 1;
    return 0;
}

/* Splits line (a NUL-terminated copy of len bytes) into pl; the original is for messages. */
static socmon_status parse_line(char *line, size_t len, const char *orig, parsed *pl)
{
    char *p = line, *end = line + len;
    if (!name_char(*p, 1))
        return bad_line(orig, len, "no metric name");
    pl->name = p;
    while (p < end && name_char(*p, 0))
        p++;
    pl->nlabels = 0;
    char *name_end = p;
    if (p < end && *p == '{') {
        *name_end = '\0';
        p++;
        while (p < end && *p != '}') {
            if (pl->nlabels == sizeof pl->labels / sizeof pl->labels[0])
                return bad_line(orig, len, "more than 32 labels");
            smn_rw_label *l = &pl->labels[pl->nlabels++];
            l->name = p;
            if (!name_char(*p, 1))
                return bad_line(orig, len, "a label without a name");
            while (p < end && name_char(*p, 0))
                p++;
            if (end - p < 2 || p[0] != '=' || p[1] != '"')
                return bad_line(orig, len, "a label without =\"value\"");
            *p = '\0';
            p += 2;
            l->value = p;
            if (unquote(&p, end) != 0)
                return bad_line(orig, len, "a label value without its closing quote");
            if (p < end && *p == ',')
                p++;
            else if (p < end && *p != '}')
                return bad_line(orig, len, "no ',' or '}' after a label value");
        }
        if (p == end)
            return bad_line(orig, len, "labels without their closing '}'");
        p++;
    }
    pl->keylen = (size_t)(p - line);
    if (p == end || *p != ' ')
        return bad_line(orig, len, "no value after the name");
    *name_end = '\0';
    char *num = ++p, *stop = NULL;
    pl->value = strtod(num, &stop);
    /* strtod spells infinity "inf"; the format writes +Inf / -Inf, which strtod also takes */
    if (stop == num || (*stop && *stop != ' '))
        return bad_line(orig, len, "the value is not a number");
    return SOCMON_OK;
}

static int label_cmp(const void *a, const void *b)
{
    return strcmp(((const smn_rw_label *)a)->name, ((const smn_rw_label *)b)->name);
}

/* A new series for the parsed line: __name__, its labels and the extra ones, sorted. */
static socmon_status new_series(smn_rw_batch *b, const char *key, size_t keylen, const parsed *pl,
                                const smn_rw_label *extra, size_t nextra)
{
    if (b->n == b->cap) {
        size_t cap = b->cap ? b->cap * 2 : 64;
        smn_rw_series *s = realloc(b->s, cap * sizeof *s);
        if (!s)
            return nomem();
        b->s = s;
        b->cap = cap;
    }
    smn_rw_series *s = &b->s[b->n];
    memset(s, 0, sizeof *s);
    s->labels = calloc(pl->nlabels + nextra + 1, sizeof *s->labels);
    s->key = strndup(key, keylen);
    if (!s->labels || !s->key) {
        series_free(s);
        return nomem();
    }
    b->n++;   /* from here series_free via clear frees what was made */
    smn_rw_label all[32 + 8];
    size_t n = 0;
    for (size_t i = 0; i < pl->nlabels; i++)
        if (*pl->labels[i].value)
            all[n++] = pl->labels[i];   /* an empty value is no label to Prometheus */
    for (size_t i = 0; i < nextra && n < sizeof all / sizeof all[0]; i++) {
        int have = 0;
        for (size_t j = 0; j < pl->nlabels; j++)
            have |= strcmp(pl->labels[j].name, extra[i].name) == 0;
        if (!have && extra[i].value && *extra[i].value)
            all[n++] = extra[i];
    }
    qsort(all, n, sizeof *all, label_cmp);
    s->labels[0] = (smn_rw_label){strdup("__name__"), strdup(pl->name)};
    s->nlabels = 1;
    if (!s->labels[0].name || !s->labels[0].value)
        return nomem();
    for (size_t i = 0; i < n; i++) {
        s->labels[s->nlabels++] = (smn_rw_label){strdup(all[i].name), strdup(all[i].value)};
        if (!s->labels[s->nlabels - 1].name || !s->labels[s->nlabels - 1].value)
            return nomem();
    }
    return SOCMON_OK;
}

static smn_rw_series *find(smn_rw_batch *b, const char *key, size_t keylen)
{
    for (size_t k = 0; k < b->n; k++) {
        size_t i = (b->hint + k) % b->n;
        if (strlen(b->s[i].key) == keylen && memcmp(b->s[i].key, key, keylen) == 0) {
            b->hint = i + 1;
            return &b->s[i];
        }
    }
    return NULL;
}

static socmon_status add_sample(smn_rw_series *s, double v, int64_t t)
{
    if (s->nsamples == s->cap) {
        size_t cap = s->cap ? s->cap * 2 : 4;
        double *nv = realloc(s->v, cap * sizeof *nv);
        if (!nv)
            return nomem();
        s->v = nv;
        int64_t *nt = realloc(s->t, cap * sizeof *nt);
        if (!nt)
            return nomem();
        s->t = nt;
        s->cap = cap;
    }
    s->v[s->nsamples] = v;
    s->t[s->nsamples++] = t;
    return SOCMON_OK;
}

socmon_status smn_rw_batch_add_text(smn_rw_batch *b, const char *text, size_t len, int64_t t_ms,
                                    const smn_rw_label *extra, size_t nextra)
{
    if (!b || (!text && len))
        return socmon_fail(SOCMON_EINVAL, "smn_rw_batch_add_text: b or text is NULL");
    char *scratch = NULL;
    size_t scap = 0;
    socmon_status st = SOCMON_OK;
    for (size_t pos = 0; st == SOCMON_OK && pos < len;) {
        const char *line = text + pos;
        const char *nl = memchr(line, '\n', len - pos);
        size_t ll = nl ? (size_t)(nl - line) : len - pos;
        pos += ll + (nl ? 1 : 0);
        if (ll == 0 || line[0] == '#')
            continue;
        if (memchr(line, '\0', ll)) {
            st = bad_line(line, ll, "a NUL byte");
            break;
        }
        if (ll + 1 > scap) {
            char *ns = realloc(scratch, ll + 1);
            if (!ns) {
                st = nomem();
                break;
            }
            scratch = ns;
            scap = ll + 1;
        }
        memcpy(scratch, line, ll);
        scratch[ll] = '\0';
        parsed pl = {0};
        if ((st = parse_line(scratch, ll, line, &pl)) != SOCMON_OK)
            break;
        smn_rw_series *s = find(b, line, pl.keylen);
        if (!s) {
            if ((st = new_series(b, line, pl.keylen, &pl, extra, nextra)) != SOCMON_OK)
                break;
            s = &b->s[b->n - 1];
        }
        st = add_sample(s, pl.value, t_ms);
    }
    free(scratch);
    return st;
}

socmon_status smn_rw_batch_encode(const smn_rw_batch *b, uint8_t **out, size_t *len)
{
    if (!b || !out || !len)
        return socmon_fail(SOCMON_EINVAL, "smn_rw_batch_encode: an argument is NULL");
    *out = NULL;
    *len = 0;
    /* protobuf-c packs from structs that point at the batch's own arrays: nothing is copied */
    size_t nl = 0, ns = 0;
    for (size_t i = 0; i < b->n; i++) {
        nl += b->s[i].nlabels;
        ns += b->s[i].nsamples;
    }
    Smnrw__TimeSeries *ts = calloc(b->n + 1, sizeof *ts);
    Smnrw__TimeSeries **tsp = calloc(b->n + 1, sizeof *tsp);
    Smnrw__Label *lab = calloc(nl + 1, sizeof *lab);
    Smnrw__Label **labp = calloc(nl + 1, sizeof *labp);
    Smnrw__Sample *sam = calloc(ns + 1, sizeof *sam);
    Smnrw__Sample **samp = calloc(ns + 1, sizeof *samp);
    uint8_t *pb = NULL, *z = NULL;
    socmon_status st = ts && tsp && lab && labp && sam && samp ? SOCMON_OK : nomem();
    size_t li = 0, si = 0;
    for (size_t i = 0; st == SOCMON_OK && i < b->n; i++) {
        const smn_rw_series *s = &b->s[i];
        smnrw__time_series__init(&ts[i]);
        tsp[i] = &ts[i];
        ts[i].n_labels = s->nlabels;
        ts[i].labels = labp + li;
        for (size_t k = 0; k < s->nlabels; k++, li++) {
            smnrw__label__init(&lab[li]);
            lab[li].name = s->labels[k].name;
            lab[li].value = s->labels[k].value;
            labp[li] = &lab[li];
        }
        ts[i].n_samples = s->nsamples;
        ts[i].samples = samp + si;
        for (size_t k = 0; k < s->nsamples; k++, si++) {
            smnrw__sample__init(&sam[si]);
            sam[si].value = s->v[k];
            sam[si].timestamp = s->t[k];
            samp[si] = &sam[si];
        }
    }
    Smnrw__WriteRequest wr;
    smnrw__write_request__init(&wr);
    wr.n_timeseries = b->n;
    wr.timeseries = tsp;
    size_t plen = st == SOCMON_OK ? smnrw__write_request__get_packed_size(&wr) : 0;
    size_t zlen = snappy_max_compressed_length(plen);
    if (st == SOCMON_OK && (!(pb = malloc(plen + 1)) || !(z = malloc(zlen + 1))))
        st = nomem();
    if (st == SOCMON_OK) {
        smnrw__write_request__pack(&wr, pb);
        if (snappy_compress((const char *)pb, plen, (char *)z, &zlen) != SNAPPY_OK)
            st = socmon_fail(SOCMON_EIO, "remote write: snappy could not compress a %zu-byte request", plen);
    }
    if (st == SOCMON_OK) {
        *out = z;
        *len = zlen;
        z = NULL;
    }
    free(z);
    free(pb);
    free(samp);
    free(sam);
    free(labp);
    free(lab);
    free(tsp);
    free(ts);
    return st;
}

void smn_rw_answer_text(char *out, size_t cap, long status, const char *body, size_t len)
{
    if (!cap)
        return;
    int n = snprintf(out, cap, "HTTP %ld", status);
    size_t w = n < 0 ? 0 : (size_t)n >= cap ? cap - 1 : (size_t)n;
    /* a body ends with a newline as a rule: it says nothing */
    while (len && (body[len - 1] == '\n' || body[len - 1] == '\r'))
        len--;
    size_t take = len > 200 ? 200 : len;
    if (take && w + 2 < cap) {
        memcpy(out + w, ": ", 3);
        w += 2;
    }
    char piece[208];
    for (size_t i = 0; i < take && w + 1 < cap;) {
        const char *nul = memchr(body + i, '\0', take - i);
        size_t k = nul ? (size_t)(nul - (body + i)) : take - i;
        memcpy(piece, body + i, k);
        piece[k] = '\0';
        size_t e = smn_text_escape(out + w, cap - w, piece);
        w += e < cap - w ? e : strlen(out + w);
        i += k;
        if (nul && i < take) {
            w += (size_t)snprintf(out + w, cap - w, "\\x00");
            w = w >= cap ? cap - 1 : w;
            i++;
        }
    }
    if (take < len && w + 4 < cap) {
        memcpy(out + w, "...", 4);
        w += 3;
    }
    out[w < cap ? w : cap - 1] = '\0';
}

int smn_rw_status_retryable(long status)
{
    return status >= 500 || status == 429;
}
