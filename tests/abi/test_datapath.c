/* socmon_data_path: bare names of SoC descriptions and metric files resolve
 * through $SOCMON_DATADIR (ctest points it at the source tree), else the
 * install holding the code (share/socmon next to its bin/ or lib/), else the
 * configured install datadir, never the source tree; the ESP SoC loader uses
 * it for soc=NAME. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/datapath.h"
#include "socmon/socmon.h"
#include "models/esp/esp_soc.h"

typedef struct tmpdata {
    char root[64];
    char socs[96];
    char file[160];
} tmpdata;

static int setup(void **state)
{
    tmpdata *t = calloc(1, sizeof *t);
    if (!t)
        return -1;
    snprintf(t->root, sizeof t->root, "/tmp/socmon_datapath_XXXXXX");
    if (!mkdtemp(t->root))
        return -1;
    snprintf(t->socs, sizeof t->socs, "%s/socs", t->root);
    snprintf(t->file, sizeof t->file, "%s/tiny.soc", t->socs);
    if (mkdir(t->socs, 0700) != 0)
        return -1;
    FILE *fp = fopen(t->file, "w");
    if (!fp)
        return -1;
    fputs("rows 1\ncols 2\ntile 0 0 cpu\ntile 0 1 mem\n", fp);
    fclose(fp);
    *state = t;
    return 0;
}

static int teardown(void **state)
{
    tmpdata *t = *state;
    unlink(t->file);
    rmdir(t->socs);
    rmdir(t->root);
    free(t);
    unsetenv("SOCMON_DATADIR");
    return 0;
}

static void test_datadir_env_wins(void **state)
{
    tmpdata *t = *state;
    char buf[512];
    setenv("SOCMON_DATADIR", t->root, 1);
    assert_int_equal(socmon_data_path("socs", "tiny", buf, sizeof buf), SOCMON_OK);
    assert_string_equal(buf, t->file);
    assert_int_equal(socmon_data_path("socs", "tiny.soc", buf, sizeof buf), SOCMON_OK);
    assert_string_equal(buf, t->file);
    assert_int_equal(socmon_data_dir("socs", buf, sizeof buf), SOCMON_OK);
    assert_string_equal(buf, t->socs);
    /* Only SOCMON_DATADIR is searched when it is set. */
    assert_int_equal(socmon_data_path("socs", "esp_4x4", buf, sizeof buf), SOCMON_ENOENT);
    assert_non_null(strstr(socmon_errmsg(), "esp_4x4.soc"));
    assert_non_null(strstr(socmon_errmsg(), t->socs));
    assert_non_null(strstr(socmon_errmsg(), "SOCMON_DATADIR"));
}

static void test_bad_arguments(void **state)
{
    char buf[512], tiny[8];
    assert_int_equal(socmon_data_path("soc", "esp_4x4", buf, sizeof buf), SOCMON_EINVAL);
    assert_non_null(strstr(socmon_errmsg(), "unknown kind 'soc' (valid: socs, metrics)"));
    assert_int_equal(socmon_data_path("socs", "", buf, sizeof buf), SOCMON_EINVAL);
    assert_int_equal(socmon_data_path("socs", NULL, buf, sizeof buf), SOCMON_EINVAL);
    assert_int_equal(socmon_data_path(NULL, "x", buf, sizeof buf), SOCMON_EINVAL);
    assert_int_equal(socmon_data_path("socs", "x", NULL, 10), SOCMON_EINVAL);
    assert_int_equal(socmon_data_path("socs", "x", buf, 0), SOCMON_ERANGE);
    assert_int_equal(socmon_data_path("socs", "esp_4x4", tiny, sizeof tiny), SOCMON_ERANGE);
    assert_int_equal(tiny[0], 0); /* no partial path */
    assert_int_equal(socmon_data_dir("nope", buf, sizeof buf), SOCMON_EINVAL);
}

static void test_path_passes_through(void **state)
{
    char buf[64];
    assert_int_equal(socmon_data_path("socs", "./here.soc", buf, sizeof buf), SOCMON_OK);
    assert_string_equal(buf, "./here.soc");
}

/* SOCMON_DATADIR at the source tree (as ctest sets it) finds the shipped
 * files, with or without their extension. */
static void test_shipped_files_found(void **state)
{
    const char *src = getenv("SOCMON_SRC");
    assert_non_null(src);
    setenv("SOCMON_DATADIR", src, 1);
    char buf[4096], want[4096], a[8192], b[8192];
    const char *pairs[][2] = {{"socs", "esp_4x4"}, {"metrics", "esp"}, {"socs", "esp_8x8.soc"}};
    for (size_t i = 0; i < 3; i++) {
        assert_int_equal(socmon_data_path(pairs[i][0], pairs[i][1], buf, sizeof buf), SOCMON_OK);
        snprintf(want, sizeof want, "%s/%s/%s%s", src, pairs[i][0], pairs[i][1],
                 strchr(pairs[i][1], '.') ? "" : i == 1 ? ".json" : ".soc");
        FILE *fa = fopen(buf, "rb"), *fb = fopen(want, "rb");
        assert_non_null(fa);
        assert_non_null(fb);
        size_t na = fread(a, 1, sizeof a, fa), nb = fread(b, 1, sizeof b, fb);
        fclose(fa);
        fclose(fb);
        assert_int_equal(na, nb);
        assert_memory_equal(a, b, na);
    }
}

static void test_esp_loader_resolves_bare_names(void **state)
{
    tmpdata *t = *state;
    socmon_esp_soc_desc d;
    assert_non_null(getenv("SOCMON_SRC"));
    setenv("SOCMON_DATADIR", getenv("SOCMON_SRC"), 1);
    assert_int_equal(socmon_esp_soc_desc_load("esp_4x4", &d), SOCMON_OK);
    assert_int_equal(d.rows, 4);
    assert_int_equal(d.cols, 4);
    setenv("SOCMON_DATADIR", t->root, 1);
    assert_int_equal(socmon_esp_soc_desc_load("tiny", &d), SOCMON_OK);
    assert_int_equal(d.rows, 1);
    assert_int_equal(d.cols, 2);
    assert_int_equal(socmon_esp_soc_desc_load("nosuch", &d), SOCMON_ENOENT);
    assert_non_null(strstr(socmon_errmsg(), "esp soc file: 'nosuch' is no file in the current directory; "));
    assert_non_null(strstr(socmon_errmsg(), "nosuch.soc"));
    /* A path is never looked up. */
    assert_int_equal(socmon_esp_soc_desc_load("./tiny", &d), SOCMON_ENOENT);
    assert_non_null(strstr(socmon_errmsg(), "'./tiny'"));
}

/* Without SOCMON_DATADIR a program of the build tree reads the source tree it was configured
 * from, named by build/socmon-source-tree beside it (this program is build/test_datapath), not
 * a path compiled into the library; the program without that file is checked by
 * tests/cli/build_tree_data.test.sh (a copy of socmon elsewhere finds no source tree). */
static void test_build_tree_reads_its_source(void **state)
{
    (void)state;
    const char *src = getenv("SOCMON_SRC");
    char buf[4096], srcsocs[4200], realsrc[4096];
    assert_non_null(src);
    assert_non_null(realpath(src, realsrc));
    char *saved = strdup(getenv("SOCMON_DATADIR") ? getenv("SOCMON_DATADIR") : "");
    unsetenv("SOCMON_DATADIR");
    assert_int_equal(socmon_data_dir("socs", buf, sizeof buf), SOCMON_OK);
    char realbuf[4096];
    assert_non_null(realpath(buf, realbuf));
    snprintf(srcsocs, sizeof srcsocs, "%s/socs", realsrc);
    assert_string_equal(realbuf, srcsocs);
    assert_int_equal(socmon_data_path("socs", "esp_4x4", buf, sizeof buf), SOCMON_OK);
    assert_non_null(realpath(buf, realbuf));
    assert_non_null(strstr(realbuf, realsrc));
    if (*saved)
        setenv("SOCMON_DATADIR", saved, 1);
    free(saved);
}

/* share/socmon next to a program's bin/ (the default layout), resolved. */
static void test_root_near_program(void **state)
{
    tmpdata *t = *state;
    char bin[128], share[128], data[160], prog[192], buf[4096], want[4096];
    snprintf(bin, sizeof bin, "%s/bin", t->root);
    snprintf(share, sizeof share, "%s/share", t->root);
    snprintf(data, sizeof data, "%s/share/socmon", t->root);
    snprintf(prog, sizeof prog, "%s/bin/prog", t->root);
    assert_int_equal(mkdir(bin, 0700), 0);
    assert_int_equal(smn_data_root_near(prog, buf, sizeof buf), SOCMON_ENOENT);
    assert_int_equal(mkdir(share, 0700), 0);
    assert_int_equal(mkdir(data, 0700), 0);
    assert_int_equal(smn_data_root_near(prog, buf, sizeof buf), SOCMON_OK);
    assert_non_null(realpath(data, want));
    assert_string_equal(buf, want);
    assert_int_equal(smn_data_root_near(prog, buf, 4), SOCMON_ERANGE);
    assert_int_equal(smn_data_root_near("prog", buf, sizeof buf), SOCMON_EINVAL);
    rmdir(data);
    rmdir(share);
    rmdir(bin);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_datadir_env_wins, setup, teardown),
        cmocka_unit_test(test_bad_arguments),
        cmocka_unit_test(test_path_passes_through),
        cmocka_unit_test(test_shipped_files_found),
        cmocka_unit_test(test_build_tree_reads_its_source),
        cmocka_unit_test_setup_teardown(test_root_near_program, setup, teardown),
        cmocka_unit_test_setup_teardown(test_esp_loader_resolves_bare_names, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
