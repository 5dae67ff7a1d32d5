/* The Ibex model against the RTL: builds every program of tests/ibex/programs
 * with Debian's riscv64-unknown-elf-gcc (their Makefile), runs each in every
 * configuration that has fixtures (tests/ibex/fixtures/<config>/), and
 * compares the SimCtrl output byte for byte and mcycle, minstret and
 * mhpmcounter3..12 at the halt with the RTL's values.
 *
 * Skips, saying why, only when the cross compiler is not installed
 * (scripts/install-deps.sh installs it, so CI never skips). The interrupt
 * programs (irq_*) are among them: their .out holds every mid-run read.
 * Every mismatch is printed before the test fails, so one run shows them
 * all (tests/ibex/irq_agreement.py explains an irq_* one). */
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include "models/ibex/ibex_model.h"
#include "targets/ibex_config.h"

static char src_dir[1024], out_dir[1100];

static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    char *buf;
    long n;
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    n = ftell(f);
    fseek(f, 0, SEEK_SET);
    buf = malloc((size_t)n + 1);
    if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
        free(buf);
        buf = NULL;
    }
    fclose(f);
    if (buf) {
        buf[n] = '\0';
        *len = (size_t)n;
    }
    return buf;
}

static int compiler_present(void)
{
    return system("riscv64-unknown-elf-gcc --version >/dev/null 2>&1") == 0;
}

static int setup(void **state)
{
    const char *src = getenv("SOCMON_SRC");
    char cmd[4096], cwd[512];
    (void)state;
    snprintf(src_dir, sizeof src_dir, "%s/tests/ibex", src ? src : ".");
    if (!getcwd(cwd, sizeof cwd))
        return -1;
    snprintf(out_dir, sizeof out_dir, "%s/ibex_programs_build", cwd);
    if (!compiler_present())
        return 0;
    snprintf(cmd, sizeof cmd, "make -s -C '%s/programs' O='%s' >ibex_programs_make.log 2>&1",
             src_dir, out_dir);
    if (system(cmd) != 0) {
        fprintf(stderr, "building the programs failed; see ibex_programs_make.log\n");
        return -1;
    }
    return 0;
}

/* Prints the lines of the two outputs that differ (with the section header
 * "== ..." above them, which names the measurement). */
static void diff_lines(const char *cfgname, const char *name, const char *want, const char *got)
{
    char section[128] = "";
    unsigned lineno = 1, shown = 0;
    while ((*want || *got) && shown < 40) {
        const char *we = strchr(want, '\n'), *ge = strchr(got, '\n');
        size_t wl = we ? (size_t)(we - want) : strlen(want), gl = ge ? (size_t)(ge - got) : strlen(got);
        if (wl > 2 && want[0] == '=' && want[1] == '=')
            snprintf(section, sizeof section, "%.*s", (int)wl, want);
        if (wl != gl || memcmp(want, got, wl) != 0) {
            fprintf(stderr, "%s/%s:%u [%s]: RTL '%.*s' model '%.*s'\n", cfgname, name, lineno,
                    section, (int)wl, want, (int)gl, got);
            shown++;
        }
        want += wl + (we ? 1 : 0);
        got += gl + (ge ? 1 : 0);
        lineno++;
    }
}

/* A fixture directory name: a preset, optionally with _w<width> or
 * _n<count> (tests/ibex/fixtures/README.md). */
static int config_of(const char *dir, ibex_config *cfg)
{
    char preset[32], opt[80];
    const char *us = strchr(dir, '_');
    size_t n = us ? (size_t)(us - dir) : strlen(dir);
    if (n >= sizeof preset)
        return -1;
    memcpy(preset, dir, n);
    preset[n] = '\0';
    if (smn_ibex_config_preset(cfg, preset) != SOCMON_OK)
        return -1;
    if (!us)
        return 0;
    if (us[1] != 'w' && us[1] != 'n')
        return -1;
    snprintf(opt, sizeof opt, "config=%s,%s=%s", preset, us[1] == 'w' ? "mhpm_width" : "mhpm_num", us + 2);
    return smn_ibex_config(opt, cfg) == SOCMON_OK ? 0 : -1;
}

/* Runs program name in config cfgname; returns the number of mismatches. */
static int check_program(const char *cfgname, const char *name)
{
    char path[2400], *want_out, *want_cnt, *line, *save = NULL;
    size_t want_len, cnt_len, got_len;
    const char *got;
    ibex_config cfg;
    ibex_core *c = NULL;
    ibex_stop why;
    int bad = 0;

    snprintf(path, sizeof path, "%s/fixtures/%s/%s.out", src_dir, cfgname, name);
    want_out = slurp(path, &want_len);
    snprintf(path, sizeof path, "%s/fixtures/%s/%s.counters", src_dir, cfgname, name);
    want_cnt = slurp(path, &cnt_len);
    if (!want_out || !want_cnt) {
        print_error("%s/%s: fixture files missing\n", cfgname, name);
        free(want_out);
        free(want_cnt);
        return 1;
    }
    if (config_of(cfgname, &cfg) != 0) {
        print_error("%s: not a configuration name: %s\n", cfgname, socmon_errmsg());
        free(want_out);
        free(want_cnt);
        return 1;
    }
    assert_int_equal(smn_ibex_create(&cfg, &c), SOCMON_OK);
    snprintf(path, sizeof path, "%s/%s.elf", out_dir, name);
    if (smn_ibex_load_elf_file(c, path) != SOCMON_OK) {
        print_error("%s/%s: %s\n", cfgname, name, socmon_errmsg());
        bad = 1;
        goto out;
    }
    assert_int_equal(smn_ibex_run(c, 200000000, &why), SOCMON_OK);
    if (why != IBEX_STOP_HALT) {
        print_error("%s/%s: did not halt (stop reason %d)\n", cfgname, name, (int)why);
        bad++;
    }
    got = smn_ibex_output(c, &got_len);
    if (got_len != want_len || memcmp(got, want_out, want_len) != 0) {
        diff_lines(cfgname, name, want_out, got);
        bad++;
    }
    for (line = strtok_r(want_cnt, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        char cname[32];
        unsigned long long v;
        unsigned idx;
        if (sscanf(line, "%31s %llu", cname, &v) != 2)
            continue;
        if (strcmp(cname, "mcycle") == 0)
            idx = 0;
        else if (strcmp(cname, "minstret") == 0)
            idx = 2;
        else if (sscanf(cname, "mhpmcounter%u", &idx) != 1)
            continue;
        if (smn_ibex_counter(c, idx) != v) {
            fprintf(stderr, "%s/%s: final %s: RTL %llu, model %llu\n", cfgname, name, cname, v,
                        (unsigned long long)smn_ibex_counter(c, idx));
            bad++;
        }
    }
out:
    smn_ibex_destroy(c);
    free(want_out);
    free(want_cnt);
    return bad;
}

static void test_programs_match_rtl(void **state)
{
    char dir[1600];
    int bad = 0, ran = 0, both = 0;
    DIR *top;
    struct dirent *ce;
    (void)state;
    if (!compiler_present()) {
        fprintf(stderr, "SKIP: riscv64-unknown-elf-gcc not installed (scripts/install-deps.sh "
                        "installs gcc-riscv64-unknown-elf)\n");
        skip();
    }
    snprintf(dir, sizeof dir, "%s/fixtures", src_dir);
    top = opendir(dir);
    assert_non_null(top);
    while ((ce = readdir(top)) != NULL) {
        DIR *d;
        struct dirent *e;
        char cfgname[256];
        if (ce->d_name[0] == '.' || strlen(ce->d_name) >= sizeof cfgname)
            continue;
        snprintf(cfgname, sizeof cfgname, "%s", ce->d_name);
        snprintf(dir, sizeof dir, "%s/fixtures/%s", src_dir, cfgname);
        d = opendir(dir);
        if (!d)
            continue;
        both += strcmp(cfgname, "small") == 0 || strcmp(cfgname, "maxperf") == 0;
        while ((e = readdir(d)) != NULL) {
            size_t n = strlen(e->d_name);
            char name[256];
            if (n < 5 || strcmp(e->d_name + n - 4, ".out") != 0 || n - 4 >= sizeof name)
                continue;
            memcpy(name, e->d_name, n - 4);
            name[n - 4] = '\0';
            bad += check_program(cfgname, name);
            ran++;
        }
        closedir(d);
    }
    closedir(top);
    fprintf(stderr, "ibex programs: %d runs, %d mismatches\n", ran, bad);
    assert_int_equal(both, 2);   /* small and maxperf are always there */
    assert_true(ran > 0);
    assert_int_equal(bad, 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_programs_match_rtl),
    };
    return cmocka_run_group_tests(tests, setup, NULL);
}
