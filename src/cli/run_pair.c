/* The two runs socmon diff and socmon check compare (cli/run_pair.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/run_pair.h"
#include "core/text.h"

#define MAX_GLOBS 64

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

int cli_compare_open(cli_compare *c, const cli_opts *o, const char *cmd, void (*help)(FILE *))
{
    memset(c, 0, sizeof *c);
    if (o->nfiles != 2) {
        fprintf(stderr, "socmon %s: needs two files, BASELINE and NEW (%s)\n", cmd,
                o->nfiles ? "only one given" : "none given");
        help(stderr);
        return 2;
    }
    const char *ev[MAX_GLOBS], *mv[MAX_GLOBS];
    c->ebuf = o->events ? strdup(o->events) : NULL;
    c->mbuf = o->metrics ? strdup(o->metrics) : NULL;
    int ne = split(c->ebuf, ev, MAX_GLOBS), nm = split(c->mbuf, mv, MAX_GLOBS);
    socmon_run_opts ro = {.size = sizeof ro, .metric_file = o->metric_file};
    socmon_status st = ne < 0 || nm < 0 ? socmon_fail(SOCMON_EINVAL, "more than %d globs in %s", MAX_GLOBS,
                                                      ne < 0 ? "-e" : "-M")
                                        : SOCMON_OK;
    if (st == SOCMON_OK)
        st = socmon_run_open(o->files[0], &ro, &c->a);
    if (st == SOCMON_OK)
        st = socmon_run_open(o->files[1], &ro, &c->b);
    socmon_diff_opts dopts = {.size = sizeof dopts, .events = ev, .nevents = ne > 0 ? (size_t)ne : 0, .metrics = mv,
                              .nmetrics = nm > 0 ? (size_t)nm : 0, .only_changed = o->only_changed};
    if (st == SOCMON_OK)
        st = socmon_diff_new(c->a, c->b, &dopts, &c->d);
    for (size_t i = 0; st == SOCMON_OK && i < socmon_diff_warning_count(c->d); i++) {
        char *w = smn_text_escape_dup(socmon_diff_warning(c->d, i));
        fprintf(stderr, "socmon %s: warning: %s\n", cmd, w ? w : "out of memory");
        free(w);
    }
    if (st == SOCMON_OK)
        return 0;
    char *msg = smn_text_escape_dup(socmon_errmsg());
    fprintf(stderr, "socmon %s: %s\n", cmd, msg ? msg : "out of memory");
    free(msg);
    cli_compare_close(c);
    return 2;
}

void cli_compare_close(cli_compare *c)
{
    socmon_diff_free(c->d);
    socmon_run_free(c->a);
    socmon_run_free(c->b);
    free(c->ebuf);
    free(c->mbuf);
    memset(c, 0, sizeof *c);
}

int cli_compare_write(const cli_opts *o, const char *cmd, const char *format, const char *path,
                      const socmon_diff *d, const socmon_check *k)
{
    cli_output co = {0};
    socmon_status st = cli_output_open_whole(&co, o, format, path);
    if (st == SOCMON_OK)
        st = k ? smn_output_check(co.out, k) : smn_output_diff(co.out, d);
    int rc = cli_output_close(&co, cmd, st);
    struct stat sb;
    if (rc == 0 && path && format && stat(path, &sb) == 0) {
        char size[32];   /* grouped, as every count a person reads (--no-big-num: plain) */
        smn_format_count(size, sizeof size, (uint64_t)sb.st_size, !o->no_big_num);
        fprintf(stderr, "socmon %s: wrote %s (%s bytes)\n", cmd, path, size);
    }
    return rc;
}
