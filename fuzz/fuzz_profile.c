/* Fuzzes the reader of program profiles (src/core/profile.c, socmon_profile_from_json), which
 * report trusts with what a recording's attachment says, and the views computed over what it
 * accepts (src/analysis/profile_calls.c, profile_lines.c). Besides "never crash or hang": an
 * accepted profile writes back to JSON that reads again to the same sizes and values; the call
 * tree's root holds every node's self counts; the folded stacks of each event sum to the nodes'
 * self counts; lines without an ELF are one row per instruction that counted, with a note; the
 * inhibit notes cover every counter the profile says the program stopped. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "socmon/profile.h"

static uint64_t mask(const socmon_profile *p, size_t k)
{
    return p->widths[k] >= 64 ? UINT64_MAX : (UINT64_C(1) << p->widths[k]) - 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    socmon_profile *p = NULL;
    if (socmon_profile_from_json((const char *)data, size, &p) != SOCMON_OK)
        return 0;
    char *json = NULL;
    size_t len = 0;
    socmon_profile *q = NULL;
    if (socmon_profile_to_json(p, &json, &len) != SOCMON_OK || socmon_profile_from_json(json, len, &q) != SOCMON_OK)
        abort();
    if (q->nevents != p->nevents || q->nfuncs != p->nfuncs || q->ninsns != p->ninsns || q->nnodes != p->nnodes ||
        q->nslices != p->nslices)
        abort();
    for (size_t i = 0; i < p->nnodes; i++)
        if (memcmp(q->nodes[i].v, p->nodes[i].v, p->nevents * sizeof *p->nodes[i].v) != 0)
            abort();
    /* the inhibit notes: each sentence covers at least one entry, all of them in the end */
    for (size_t i = 0; i < p->ninhibited;) {
        char text[320];
        size_t k = socmon_inhibited_text(&p->inhibited[i], p->ninhibited - i, text, sizeof text);
        if (k < 1 || k > p->ninhibited - i || !strstr(text, "inhibited"))
            abort();
        i += k;
    }
    if (q->ninhibited != p->ninhibited)
        abort();
    socmon_profile_calls *c = NULL;
    if (socmon_profile_calls_new(p, &c) != SOCMON_OK)
        abort();
    for (size_t k = 0; k < p->nevents; k++) {
        uint64_t self = 0;
        for (size_t i = 0; i < p->nnodes; i++)
            self += p->nodes[i].v[k];
        if (c->root[k] != (self & mask(p, k)))
            abort();
        char *folded = NULL;
        if (socmon_profile_folded(p, k, &folded, NULL) != SOCMON_OK)
            abort();
        uint64_t sum = 0;
        for (char *s = folded; *s;) {
            char *nl = strchr(s, '\n'), *sp = NULL;
            for (char *q2 = s; nl && q2 < nl; q2++)
                if (*q2 == ' ')
                    sp = q2;
            if (!nl || !sp)
                abort();
            sum += (uint64_t)strtoll(sp + 1, NULL, 10);
            s = nl + 1;
        }
        /* the root's own counts are in no stack (it is no function) */
        if ((sum & mask(p, k)) != ((self - p->nodes[0].v[k]) & mask(p, k)))
            abort();
        free(folded);
    }
    socmon_profile_lines *l = NULL;
    if (socmon_profile_lines_new(p, NULL, &l) != SOCMON_OK || !l->note)
        abort();
    if (l->n > p->ninsns)   /* one row per instruction at most */
        abort();
    socmon_profile_annotation *a = NULL;
    if (p->nfuncs > 1 && socmon_profile_annotate(p, p->funcs[1].name, NULL, &a) != SOCMON_OK)
        abort();
    socmon_profile_annotation_free(a);
    socmon_profile_lines_free(l);
    socmon_profile_calls_free(c);
    free(json);
    socmon_profile_free(q);
    socmon_profile_free(p);
    return 0;
}
