/* Two runs paired (run_pair.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "results/run_pair.h"

/* Splits a comma-separated glob list in place; returns how many, or -1 past max. */
static int split(char *list, const char **out, int max)
{
    int n = 0;
    char *save = NULL;
    for (char *p = list ? strtok_r(list, ",", &save) : NULL; p; p = strtok_r(NULL, ",", &save)) {
        while (*p == ' ')
            p++;
        if (!*p)
            continue;
        if (n == max)
            return -1;
        out[n++] = p;
    }
    return n;
}

socmon_status smn_run_pair_open(smn_run_pair *c, const char *baseline, const char *next, const char *metric_file,
                                const char *events, const char *metrics, int only_changed)
{
    memset(c, 0, sizeof *c);
    const char *ev[SMN_RUN_PAIR_MAX_GLOBS], *mv[SMN_RUN_PAIR_MAX_GLOBS];
    c->ebuf = events ? strdup(events) : NULL;
    c->mbuf = metrics ? strdup(metrics) : NULL;
    int ne = split(c->ebuf, ev, SMN_RUN_PAIR_MAX_GLOBS), nm = split(c->mbuf, mv, SMN_RUN_PAIR_MAX_GLOBS);
    socmon_run_opts ro = {.size = sizeof ro, .metric_file = metric_file};
    socmon_status st = ne < 0 || nm < 0 ? socmon_fail(SOCMON_EINVAL, "more than %d globs in %s", SMN_RUN_PAIR_MAX_GLOBS,
                                                      ne < 0 ? "-e" : "-M")
                                        : SOCMON_OK;
    if (st == SOCMON_OK)
        st = socmon_run_open(baseline, &ro, &c->a);
    if (st == SOCMON_OK)
        st = socmon_run_open(next, &ro, &c->b);
    socmon_diff_opts dopts = {.size = sizeof dopts, .events = ev, .nevents = ne > 0 ? (size_t)ne : 0, .metrics = mv,
                              .nmetrics = nm > 0 ? (size_t)nm : 0, .only_changed = only_changed};
    if (st == SOCMON_OK)
        st = socmon_diff_new(c->a, c->b, &dopts, &c->d);
    if (st != SOCMON_OK) {
        char msg[1024];
        snprintf(msg, sizeof msg, "%s", socmon_errmsg());
        smn_run_pair_close(c);
        st = socmon_fail(st, "%s", msg);
    }
    return st;
}

void smn_run_pair_close(smn_run_pair *c)
{
    socmon_diff_free(c->d);
    socmon_run_free(c->a);
    socmon_run_free(c->b);
    free(c->ebuf);
    free(c->mbuf);
    memset(c, 0, sizeof *c);
}
