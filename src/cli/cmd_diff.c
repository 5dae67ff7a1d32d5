/* socmon diff A B: two runs compared value by value (socmon/compare.h; docs/compare.md). */
#include <stdio.h>
#include <string.h>

#include "cli/help.h"
#include "cli/run_pair.h"
#include "export/web_assets.h"

#define DIFF_OPTS (OPT_FILES | OPT_DIFF | OPT_FORMAT | OPT_BIG_NUM | OPT_METRIC_FILE)

static void help(FILE *fp)
{
    cli_help_intro(fp, "diff");
    cli_help_opts(fp, DIFF_OPTS);
    fprintf(fp, "\nexamples:\n"
                "  socmon diff base.rec new.rec -e 'fn.*.cycles' --only-changed\n"
                "  socmon diff base.json new.json --json > diff.json\n"
                "  socmon diff esp-2x3.rec esp-4x4.rec --html diff.html\n"
                "Gate changes in CI with 'socmon check' (docs/check.md).\n");
}

int cmd_diff(int argc, char **argv)
{
    cli_opts o;
    int rc = cli_parse_opts(argc, argv, DIFF_OPTS, help, &o);
    if (rc >= 0)
        return rc;
    socmon_status web = o.html ? smn_web_require("--html") : SOCMON_OK;   /* before any file is made */
    if (web != SOCMON_OK)
        return cli_error("diff", web);
    cli_compare c;
    if ((rc = cli_compare_open(&c, &o, "diff", help)) != 0)
        return rc;
    /* --html - puts the page on stdout: the table goes there only when -o sends it elsewhere */
    int page_out = o.html && strcmp(o.html, "-") == 0;
    rc = page_out && !o.output ? 0 : cli_compare_write(&o, "diff", NULL, o.output, c.d, NULL);
    if (rc == 0 && o.html)
        rc = cli_compare_write(&o, "diff", "html", page_out ? NULL : o.html, c.d, NULL);
    cli_compare_close(&c);
    return rc;
}
