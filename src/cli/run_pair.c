/* The two runs socmon diff and socmon check compare (cli/run_pair.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/run_pair.h"
#include "core/text.h"

int cli_compare_open(cli_compare *c, const cli_opts *o, const char *cmd, void (*help)(FILE *))
{
    memset(c, 0, sizeof *c);
    if (o->nfiles != 2) {
        fprintf(stderr, "socmon %s: needs two files, BASELINE and NEW (%s)\n", cmd,
                o->nfiles ? "only one given" : "none given");
        help(stderr);
        return 2;
    }
    socmon_status st = smn_run_pair_open(c, o->files[0], o->files[1], o->metric_file, o->events, o->metrics,
                                         o->only_changed);
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
    return 2;
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
