/* Runs for the comparison tests (test_diff.c, test_check.c): stat-JSON documents written to a
 * scratch directory (one per test program, made by the group setup, removed by its teardown)
 * and read back with socmon_run_open. Include after <cmocka.h>, <stdio.h>, <stdlib.h> and
 * <unistd.h>. */
#ifndef SOCMON_TESTS_ANALYSIS_RUN_FILES_H
#define SOCMON_TESTS_ANALYSIS_RUN_FILES_H

#include "socmon/compare.h"

static char dir[64];

static int make_dir(void **state)
{
    (void)state;
    snprintf(dir, sizeof dir, "/tmp/socmon-compare-XXXXXX");
    return mkdtemp(dir) ? 0 : -1;
}

static int remove_dir(void **state)
{
    (void)state;
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    return system(cmd) == 0 ? 0 : -1;
}

/* Writes text to dir/name; the path stays valid for the next seven calls. */
static const char *write_doc(const char *name, const char *text)
{
    static char path[8][128];
    static int k;
    char *p = path[k++ % 8];
    snprintf(p, sizeof path[0], "%s/%s", dir, name);
    FILE *fp = fopen(p, "w");
    assert_non_null(fp);
    fputs(text, fp);
    fclose(fp);
    return p;
}

static socmon_run *load(const char *name, const char *text)
{
    socmon_run *r = NULL;
    assert_int_equal(socmon_run_open(write_doc(name, text), NULL, &r), SOCMON_OK);
    return r;
}

#endif
