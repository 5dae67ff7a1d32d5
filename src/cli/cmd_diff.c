/* socmon diff A B: two runs compared value by value (socmon/compare.h; docs/compare.md). */
#include <stdio.h>
#include <string.h>

#include "cli/run_pair.h"
#include "export/web_assets.h"

#define DIFF_OPTS (OPT_FILES | OPT_DIFF | OPT_FORMAT | OPT_BIG_NUM | OPT_METRIC_FILE)

static void help(FILE *fp)
{
    fprintf(fp, "usage: socmon diff [options] BASELINE NEW\n\n"
                "Compares two runs value by value: every counter, every metric and, for programs'\n"
                "recordings (record -t ibex -- prog.elf), every function's counts. BASELINE and NEW are\n"
                "each a recording (socmon record) or the JSON of socmon stat (also stat -r N). Values\n"
                "pair by kind, name and instance; tiles of two layouts (ESP 2x3 against 4x4) pair by\n"
                "their kind and order among the tiles of that kind, never by index (the table says\n"
                "so; stderr warns where kinds differ). The table shows baseline, new, delta and relative\n"
                "change, largest change first, then what only one run has (another SoC size, another\n"
                "target). A model's run is exact: any change is real. With stat -r N on either side\n"
                "(hardware, the host) a change is called significant only when the two means' 95%%\n"
                "confidence intervals do not overlap (Welch's p is shown beside it). Exit status 0,\n"
                "2 for bad input, 1 when the output cannot be written.\n\n");
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
