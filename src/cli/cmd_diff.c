/* socmon diff A B: two runs compared value by value (socmon/compare.h; docs/compare.md). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/opts.h"
#include "cli/output.h"
#include "export/table.h"
#include "socmon/compare.h"

#define DIFF_OPTS (OPT_FILES | OPT_DIFF | OPT_FORMAT | OPT_BIG_NUM | OPT_METRIC_FILE)
#define MAX_GLOBS 64

static void help(FILE *fp)
{
    fprintf(fp, "usage: socmon diff [options] BASELINE NEW\n\n"
                "Compares two runs value by value: every counter, every metric and, for programs'\n"
                "recordings (record -t ibex -- prog.elf), every function's counts. BASELINE and NEW are\n"
                "each a recording (socmon record) or the JSON of socmon stat (also stat -r N). Values\n"
                "pair by kind, name and instance; the table shows baseline, new, delta and relative\n"
                "change, largest change first, then what only one run has (another SoC size, another\n"
                "target). A model's run is exact: any change is real. With stat -r N on either side\n"
                "(hardware, the host) a change is called significant only when the two means' 95%%\n"
                "confidence intervals do not overlap (Welch's p is shown beside it). Exit status 0,\n"
                "or 2 for bad input.\n\n");
    cli_help_opts(fp, DIFF_OPTS);
    fprintf(fp, "\nexamples:\n"
                "  socmon diff base.rec new.rec -e 'fn.*.cycles' --only-changed\n"
                "  socmon diff base.json new.json --json > diff.json\n"
                "  socmon diff esp-2x3.rec esp-4x4.rec --html diff.html\n"
                "Gate changes in CI with 'socmon check' (docs/compare.md).\n");
}

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

/* Writes the diff in `format` to path (NULL: stdout). */
static int write_doc(const cli_opts *o, const char *format, const char *path, const socmon_diff *d)
{
    cli_opts wo = *o;
    wo.print_path = path;
    wo.append = 0;
    cli_output co = {0};
    socmon_status st = cli_output_open(&co, &wo, format);
    if (st == SOCMON_OK)
        st = smn_output_diff(co.out, d);
    return cli_output_close(&co, "diff", st);
}

int cmd_diff(int argc, char **argv)
{
    cli_opts o;
    int rc = cli_parse_opts(argc, argv, DIFF_OPTS, help, &o);
    if (rc >= 0)
        return rc;
    if (o.nfiles != 2) {
        fprintf(stderr, "socmon diff: needs two files, BASELINE and NEW (%s)\n",
                o.nfiles ? "only one given" : "none given");
        help(stderr);
        return 2;
    }
    const char *ev[MAX_GLOBS], *mv[MAX_GLOBS];
    char *ebuf = o.events ? strdup(o.events) : NULL, *mbuf = o.metrics ? strdup(o.metrics) : NULL;
    int ne = split(ebuf, ev, MAX_GLOBS), nm = split(mbuf, mv, MAX_GLOBS);
    socmon_run *a = NULL, *b = NULL;
    socmon_diff *d = NULL;
    socmon_run_opts ro = {.size = sizeof ro, .metric_file = o.metric_file};
    socmon_status st = ne < 0 || nm < 0 ? socmon_fail(SOCMON_EINVAL, "more than %d globs in %s", MAX_GLOBS,
                                                      ne < 0 ? "-e" : "-M")
                                        : SOCMON_OK;
    if (st == SOCMON_OK)
        st = socmon_run_open(o.files[0], &ro, &a);
    if (st == SOCMON_OK)
        st = socmon_run_open(o.files[1], &ro, &b);
    socmon_diff_opts dopts = {.size = sizeof dopts, .events = ev, .nevents = ne > 0 ? (size_t)ne : 0, .metrics = mv,
                              .nmetrics = nm > 0 ? (size_t)nm : 0, .only_changed = o.only_changed};
    if (st == SOCMON_OK)
        st = socmon_diff_new(a, b, &dopts, &d);
    if (st != SOCMON_OK) {   /* bad input: a file, a glob */
        char *msg = smn_text_escape_dup(socmon_errmsg());
        fprintf(stderr, "socmon diff: %s\n", msg ? msg : "out of memory");
        free(msg);
        rc = 2;
    } else {
        rc = write_doc(&o, NULL, o.output, d);
        if (rc == 0 && o.html) {
            int to_stdout = strcmp(o.html, "-") == 0;
            rc = write_doc(&o, "html", to_stdout ? NULL : o.html, d);
            struct stat sb;
            if (rc == 0 && !to_stdout && stat(o.html, &sb) == 0)
                fprintf(stderr, "socmon diff: wrote %s (%lld bytes): open it in a browser\n", o.html,
                        (long long)sb.st_size);
        }
    }
    socmon_diff_free(d);
    socmon_run_free(a);
    socmon_run_free(b);
    free(ebuf);
    free(mbuf);
    return rc;
}
