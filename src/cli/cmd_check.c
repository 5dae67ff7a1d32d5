/* socmon check BASELINE NEW --rules FILE: the CI gate over a diff (socmon/check.h;
 * docs/check.md). Exit 0 when every rule holds, 1 when one fails, 2 for bad input. */
#include <stdio.h>
#include <stdlib.h>

#include "cli/help.h"
#include "cli/run_pair.h"
#include "core/text.h"

#define CHECK_OPTS (OPT_FILES | OPT_CHECK | OPT_METRIC_FILE | OPT_BIG_NUM)

static void help(FILE *fp)
{
    cli_help_intro(fp, "check");
    cli_help_opts(fp, CHECK_OPTS);
    fprintf(fp, "\nexample rules file:\n"
                "  # firmware: no function may get slower, the whole program by at most 0.5%%\n"
                "  fn.*.cycles     +0\n"
                "  cycles          +0.5%%\n"
                "  ipc             -2%%      # IPC may fall by 2%% at most\n"
                "  *.noc_backpressure  \xc2\xb1" "10%%\n"
                "docs/check.md has CI jobs for an Ibex firmware repository and an ESP SoC.\n");
}

/* --update: BASELINE becomes a byte-for-byte copy of NEW, never half a file. */
static int update(const char *baseline, const char *new_path)
{
    socmon_status st = smn_dest_copy_file(baseline, new_path);
    if (st != SOCMON_OK)
        return cli_error("check", socmon_fail_prefix(st, "--update: "));
    fprintf(stderr, "socmon check: %s is now a copy of %s (the new baseline)\n", baseline, new_path);
    return 0;
}

int cmd_check(int argc, char **argv)
{
    cli_opts o;
    int rc = cli_parse_opts(argc, argv, CHECK_OPTS, help, &o);
    if (rc >= 0)
        return rc;
    if (!o.rules) {
        fprintf(stderr, "socmon check: needs --rules FILE (lines 'PATTERN LIMIT', e.g. 'fn.*.cycles +0')\n");
        return 2;
    }
    socmon_rules *rules = NULL;
    socmon_check *k = NULL;
    cli_compare c = {0};
    socmon_status st = socmon_rules_load(o.rules, &rules);
    if (st != SOCMON_OK || (rc = cli_compare_open(&c, &o, "check", help)) != 0 ||
        (st = socmon_check_new(c.d, rules, &k)) != SOCMON_OK) {
        if (st != SOCMON_OK) {
            char *msg = smn_text_escape_dup(socmon_errmsg());
            fprintf(stderr, "socmon check: %s\n", msg ? msg : "out of memory");
            free(msg);
        }
        cli_compare_close(&c);
        socmon_rules_free(rules);
        return 2;
    }
    rc = cli_compare_write(&o, "check", NULL, NULL, NULL, k);
    if (rc == 0 && o.junit)
        rc = cli_compare_write(&o, "check", "junit", o.junit, NULL, k);
    if (rc == 0 && o.markdown)
        rc = cli_compare_write(&o, "check", "markdown", o.markdown, NULL, k);
    /* the verdict does not depend on the report files: a failed write is an error (2) */
    int failed = socmon_check_failed(k) > 0;
    if (rc == 0 && o.update)
        rc = update(o.files[0], o.files[1]);
    socmon_check_free(k);
    cli_compare_close(&c);
    socmon_rules_free(rules);
    return rc ? 2 : failed ? 1 : 0;
}
