/* A recording as a source (socmon_source_recording): its samples in file order, each one's
 * sequence number its position. A recording file is input like any other (it may come from
 * anywhere): its strings reach consumers with control bytes escaped (core/text.h), so a
 * counter's unit or the target's name cannot clear the terminal or forge a line of a report. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/recording_facts.h"
#include "analysis/source_internal.h"
#include "core/error.h"
#include "recording/recording_internal.h"
#include "core/text.h"

typedef struct rsrc {
    socmon_source_info info;
    socmon_recording *rec;
    socmon_counter *c;
    char **names;
    char **params;
    double *pvalues;   /* the header's, with the attachment "params" over them */
    char *target, *device;
    size_t n, np;
    char lost[SOCMON_LOSS_MAX];   /* smn_recording_loss */
} rsrc;

static void rsrc_close(void *self)
{
    rsrc *s = self;
    for (size_t i = 0; s->c && i < s->n; i++) {
        free((char *)s->c[i].name), free((char *)s->c[i].instance);
        free((char *)s->c[i].unit), free((char *)s->c[i].desc);
    }
    for (size_t i = 0; s->names && i < s->n; i++)
        free(s->names[i]);
    for (size_t i = 0; s->params && i < s->np; i++)
        free(s->params[i]);
    free(s->c), free(s->names), free(s->params), free(s->pvalues), free(s->target), free(s->device);
    free(s);
}

typedef struct feed {
    socmon_pipeline *p;
    uint64_t seq;
} feed;

static socmon_status feed_one(void *user, const socmon_sample *s)
{
    feed *f = user;
    socmon_status st = socmon_pipeline_sample(f->p, f->seq++, s, 0);
    if (st == SOCMON_OK && socmon_pipeline_should_stop(f->p))
        st = socmon_fail(SOCMON_ESTATE, "stopped");
    return st;
}

/* The samples from the timeline of a loaded recording, or from the file of an opened one, a block
 * at a time (socmon_recording_open): a recording of any length, in the memory of a block. */
static socmon_status rsrc_run(void *self, socmon_pipeline *p)
{
    rsrc *s = self;
    feed f = {.p = p};
    return smn_recording_each(s->rec, feed_one, &f);
}

int smn_source_spec_simulated(const char *spec)
{
    /* a combined run ("host;esp") is simulated only if every member is */
    size_t n = socmon_spec_members(spec);
    if (n > 1) {
        char m[256];
        for (size_t i = 0; i < n; i++)
            if (!socmon_spec_member(spec, i, m, sizeof m) || !smn_source_spec_simulated(m))
                return 0;
        return 1;
    }
    const socmon_target_ops *ops = socmon_spec_ops_of(spec);
    if (!ops || !ops->simulated)
        return 0;
    /* The options by which a model target runs on silicon instead; a v2 file says which clock
     * stamped it, so only v1 files are guessed this way. */
    socmon_spec *s = NULL;
    if (socmon_spec_parse(spec, &s) != SOCMON_OK) {
        socmon_clear_error();
        return 1;
    }
    const char *devmem = socmon_spec_get(s, "devmem"), *hw = socmon_spec_get(s, "hw");
    int sim = !(devmem && strcmp(devmem, "1") == 0) && !(hw && strcmp(hw, "1") == 0);
    socmon_spec_free(s);
    return sim;
}

static int safe_strings(rsrc *s)
{
    const socmon_counter *c = socmon_recording_counters(s->rec);
    const char *const *pn = socmon_recording_param_names(s->rec);
    const char *dev = socmon_recording_device(s->rec);
    if (!(s->c = calloc(s->n + 1, sizeof *s->c)) || !(s->names = calloc(s->n + 1, sizeof *s->names)) ||
        !(s->params = calloc(s->np + 1, sizeof *s->params)) ||
        !(s->target = smn_text_escape_dup(socmon_recording_target(s->rec))) ||
        (dev && !(s->device = smn_text_escape_dup(dev))))
        return -1;
    for (size_t i = 0; i < s->n; i++) {
        socmon_counter *k = &s->c[i];
        *k = c[i];
        k->name = smn_text_escape_dup(c[i].name);
        k->instance = smn_text_escape_dup(c[i].instance);
        k->unit = smn_text_escape_dup(c[i].unit);
        k->desc = smn_text_escape_dup(c[i].desc);
        if (!k->name || !k->instance || !k->unit || !k->desc)
            return -1;
        size_t len = strlen(k->instance) + strlen(k->name) + 2;
        if (!(s->names[i] = malloc(len)))
            return -1;
        snprintf(s->names[i], len, "%s%s%s", k->instance, *k->instance ? "." : "", k->name);
    }
    for (size_t i = 0; i < s->np; i++)
        if (!(s->params[i] = smn_text_escape_dup(pn[i])))
            return -1;
    return 0;
}

/* The attachment "params" (record writes it when a parameter followed the run: the traffic
 * Zynq's workload asked so far): "NAME VALUE" lines whose values replace the header's, so the
 * findings weigh the run as stat did at its end. A line naming no parameter of the header, or
 * whose value is not a number, is refused naming it. */
static socmon_status params_at_end(rsrc *s)
{
    const void *data;
    size_t len;
    socmon_status st = socmon_recording_attachment(s->rec, "params", &data, &len);
    if (st == SOCMON_ENOENT) {
        socmon_clear_error();
        return SOCMON_OK;
    }
    if (st != SOCMON_OK)
        return st;
    const char *const *pn = socmon_recording_param_names(s->rec);
    const char *p = data, *end = p + len;
    for (unsigned line = 1; p < end; line++) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
        char *buf = malloc(n + 1);
        if (!buf)
            return socmon_fail(SOCMON_ENOMEM, "recording: out of memory");
        memcpy(buf, p, n);
        buf[n] = 0;
        char *sp = strrchr(buf, ' '), *e = NULL;
        double v = sp ? strtod(sp + 1, &e) : 0;
        size_t i = 0;
        if (sp)
            *sp = 0;
        while (sp && i < s->np && strcmp(pn[i], buf) != 0)
            i++;
        if (!sp || !e || *e || e == sp + 1 || i == s->np) {
            char *shown = smn_text_escape_dup(buf);
            st = socmon_fail(SOCMON_EPARSE, "recording: attachment 'params' line %u ('%s'): expected NAME VALUE "
                             "naming one of the header's %zu parameters", line, shown ? shown : "?", s->np);
            free(shown);
            free(buf);
            return st;
        }
        free(buf);
        s->pvalues[i] = v;
        p += n + (nl != NULL);
    }
    return SOCMON_OK;
}

socmon_status socmon_source_recording(socmon_recording *rec, socmon_source **out)
{
    if (!rec || !out)
        return socmon_fail(SOCMON_EINVAL, "socmon_source_recording: NULL argument");
    *out = NULL;
    rsrc *s = calloc(1, sizeof *s);
    if (!s)
        return socmon_fail(SOCMON_ENOMEM, "source: out of memory");
    s->rec = rec;
    s->n = socmon_recording_ncounters(rec);
    s->np = socmon_recording_nparams(rec);
    if (safe_strings(s) != 0 || !(s->pvalues = calloc(s->np + 1, sizeof *s->pvalues))) {
        rsrc_close(s);
        return socmon_fail(SOCMON_ENOMEM, "recording: out of memory");
    }
    if (s->np)
        memcpy(s->pvalues, socmon_recording_param_values(rec), s->np * sizeof *s->pvalues);
    socmon_status pst = params_at_end(s);
    if (pst != SOCMON_OK) {
        rsrc_close(s);
        return pst;
    }
    smn_recording_loss(rec, s->lost, sizeof s->lost);
    socmon_recording_info in;
    socmon_recording_get_info(rec, &in);
    s->info = (socmon_source_info){.kind = "recording", .target = s->target, .device = s->device,
                                   .interval_ns = socmon_recording_interval_ns(rec),
                                   .simulated = in.clock_known ? in.simulated : smn_source_spec_simulated(s->target),
                                   .recording = 1, .samples = (size_t)socmon_recording_nsamples(rec),
                                   .ncounters = s->n, .counters = s->c, .names = (const char *const *)s->names,
                                   .nparams = s->np, .param_names = (const char *const *)s->params,
                                   .param_values = s->pvalues,
                                   .ops = socmon_spec_ops_of(s->target), .lost = s->lost};
    s->info.hardware = !s->info.simulated;
    static const socmon_source_ops sops = {.size = sizeof sops, .kind = "recording", .run = rsrc_run,
                                           .close = rsrc_close};
    socmon_status st = socmon_source_new(&sops, s, &s->info, out);
    if (st != SOCMON_OK)
        rsrc_close(s);
    return st;
}
