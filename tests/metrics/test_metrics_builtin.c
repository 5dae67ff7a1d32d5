/* Every metric file of the source tree (metrics/NAME.json) loads, and the
 * copy compiled into the library (socmon_builtin_metrics) is the same file;
 * so is each findings file beside them (NAME.findings.json,
 * socmon_builtin_findings), which is not a metric file. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "socmon/findings.h"
#include "socmon/metrics.h"
#include "socmon/target.h"

static void test_builtin_files_load(void **state)
{
    (void)state;
    const char *src = getenv("SOCMON_SRC");
    if (!src) {
        skip();
        return;
    }
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/metrics", src);
    DIR *d = opendir(dir);
    if (!d) {
        skip();   /* no metric files in this tree */
        return;
    }
    int nfiles = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        size_t len = strlen(e->d_name);
        if (len < 6 || strcmp(e->d_name + len - 5, ".json") != 0)
            continue;
        char path[8192], name[256];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        snprintf(name, sizeof name, "%.*s", (int)(len - 5), e->d_name);
        size_t nl = strlen(name);
        if (nl > 9 && strcmp(name + nl - 9, ".findings") == 0) {
            name[nl - 9] = 0;
            const char *text = socmon_builtin_findings(name);
            if (!text)
                fail_msg("metrics/%s.findings.json is not compiled in as '%s'", name, name);
            FILE *fp = fopen(path, "rb");
            assert_non_null(fp);
            static char buf[1 << 20];
            size_t n = fread(buf, 1, sizeof buf - 1, fp);
            fclose(fp);
            buf[n] = 0;
            assert_string_equal(buf, text);
            continue;
        }
        socmon_metricset *from_file, *builtin;
        if (socmon_metricset_load_file(path, &from_file) != SOCMON_OK)
            fail_msg("%s", socmon_errmsg());
        const char *text = socmon_builtin_metrics(name);
        if (!text)
            fail_msg("metrics/%s.json is not compiled in as '%s'", name, name);
        if (socmon_metricset_load_string(text, name, &builtin) != SOCMON_OK)
            fail_msg("builtin %s: %s", name, socmon_errmsg());
        assert_true(socmon_metricset_count(from_file) > 0);
        assert_int_equal(socmon_metricset_count(builtin), socmon_metricset_count(from_file));
        for (size_t i = 0; i < socmon_metricset_count(builtin); i++)
            assert_string_equal(socmon_metricset_def(builtin, i)->expr,
                                socmon_metricset_def(from_file, i)->expr);
        socmon_metricset_free(from_file);
        socmon_metricset_free(builtin);
        nfiles++;
    }
    closedir(d);
    assert_null(socmon_builtin_metrics("no_such_metric_file"));
    print_message("checked %d metric files\n", nfiles);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_builtin_files_load),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
