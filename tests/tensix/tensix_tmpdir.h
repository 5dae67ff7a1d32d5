/* A scratch directory for the host-API tests that export files (one per test
 * program, made by a group setup and removed by its teardown), and reading
 * back what was written. Include after <cmocka.h>, <stdio.h>, <stdlib.h>,
 * <string.h> and <unistd.h>. */
#ifndef SOCMON_TESTS_TENSIX_TMPDIR_H
#define SOCMON_TESTS_TENSIX_TMPDIR_H

static char dir[64];

static int make_dir(void **state)
{
    (void)state;
    snprintf(dir, sizeof dir, "/tmp/socmon-tensix-XXXXXX");
    return mkdtemp(dir) ? 0 : -1;
}

static int remove_dir(void **state)
{
    (void)state;
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    return system(cmd) == 0 ? 0 : -1;
}

/* Longest line read_lines keeps whole: a metrics CSV header names every metric of the file. */
#define TX_LINE_MAX 1024

/* Lines of path (all counted, the first max kept in lines). */
static size_t read_lines(const char *path, char lines[][TX_LINE_MAX], size_t max)
{
    FILE *fp = fopen(path, "r");
    assert_non_null(fp);
    size_t n = 0;
    char buf[TX_LINE_MAX];
    while (fgets(buf, sizeof buf, fp)) {
        if (n < max)
            memcpy(lines[n], buf, sizeof buf);
        n++;
    }
    fclose(fp);
    return n;
}

#endif
