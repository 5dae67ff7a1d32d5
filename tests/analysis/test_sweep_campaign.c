/* A sweep campaign through the library (export/sweep_campaign.c, results/sweep_exec.c), as the
 * CLI drives it: points run as processes of socmon ($SOCMON_BIN), a failing one kept in the table,
 * resume, a stop asked before any point, the refusals of bad input, merge, and the caller's own
 * children left alone (the points are waited for by pid). What the campaign says
 * reaches the talk's callbacks only: the library writes nothing to stderr or stdout. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "export/sweep_campaign.h"

typedef struct heard {
    char said[8192];
    char errors[2048];
    int stop;
} heard;

static void say(void *user, const char *text)
{
    heard *h = user;
    strncat(h->said, text, sizeof h->said - strlen(h->said) - 1);
}

static void error(void *user, const char *what, socmon_status st)
{
    heard *h = user;
    char line[1024];
    snprintf(line, sizeof line, "%s: %s (%d)\n", what, socmon_errmsg(), (int)st);
    strncat(h->errors, line, sizeof h->errors - strlen(h->errors) - 1);
}

static int should_stop(void *user)
{
    return ((heard *)user)->stop;
}

typedef struct fixture {
    char dir[64];
    char table[128];
    socmon_sweep_grid *grid;
    heard h;
    smn_sweep_campaign c;
    int saved_fd[2];
    char out_path[2][128];
} fixture;

/* stdout and stderr into files, to see the library wrote nothing there */
static void capture(fixture *f)
{
    for (int i = 0; i < 2; i++) {
        fflush(i ? stderr : stdout);
        char dir[sizeof f->dir];   /* a copy: the one struct as both source and destination trips -Wrestrict */
        memcpy(dir, f->dir, sizeof dir);
        snprintf(f->out_path[i], sizeof f->out_path[i], "%s/fd%d", dir, i + 1);
        int fd = open(f->out_path[i], O_WRONLY | O_CREAT | O_TRUNC, 0600);
        assert_true(fd >= 0);
        f->saved_fd[i] = dup(i + 1);
        assert_true(dup2(fd, i + 1) >= 0);
        close(fd);
    }
}

static void release(fixture *f)
{
    for (int i = 0; i < 2; i++) {
        fflush(i ? stderr : stdout);
        assert_true(dup2(f->saved_fd[i], i + 1) >= 0);
        close(f->saved_fd[i]);
        struct stat sb;
        assert_int_equal(stat(f->out_path[i], &sb), 0);
        if (sb.st_size != 0)
            fail_msg("the campaign wrote %lld bytes to fd %d", (long long)sb.st_size, i + 1);
        unlink(f->out_path[i]);
    }
}

static int setup(void **state)
{
    fixture *f = calloc(1, sizeof *f);
    assert_non_null(f);
    const char *bin = getenv("SOCMON_BIN");
    if (!bin) {
        free(f);
        return -1;
    }
    snprintf(f->dir, sizeof f->dir, "/tmp/socmon-campaign-XXXXXX");
    assert_non_null(mkdtemp(f->dir));
    snprintf(f->table, sizeof f->table, "%s/t.json", f->dir);
    const char *target = "esp:soc={esp_2x3,no_such_soc}";
    socmon_sweep_spec s = {.size = sizeof s, .targets = &target, .ntargets = 1, .workloads = "multifft"};
    assert_int_equal(socmon_sweep_grid_new(&s, &f->grid), SOCMON_OK);
    f->c = (smn_sweep_campaign){.grid = f->grid, .output = f->table, .json = 1, .jobs = 2, .exe = bin,
                                .progress = SMN_SWEEP_PROGRESS_NONE, .should_stop = should_stop,
                                .talk = {.say = say, .error = error, .user = &f->h}};
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    fixture *f = *state;
    socmon_sweep_grid_free(f->grid);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", f->dir);
    assert_int_equal(system(cmd), 0);
    free(f);
    return 0;
}

static smn_sweep_outcome run(fixture *f, socmon_status want)
{
    memset(&f->h.said, 0, sizeof f->h.said);
    memset(&f->h.errors, 0, sizeof f->h.errors);
    smn_sweep_outcome out;
    capture(f);
    socmon_status st = smn_sweep_campaign_run(&f->c, &out);
    release(f);
    assert_int_equal(st, want);
    return out;
}

/* Points run as processes of SOCMON_BIN. Under the cross build's qemu-user a point's process
 * cannot run the armhf binary it execs (no binfmt handler), so the cases that run points are
 * skipped there, saying so; their refusals and the campaign's bookkeeping still run. */
static int points_cannot_run(void)
{
    if (!getenv("SOCMON_UNDER_EMULATOR"))
        return 0;
    print_message("points not run: under an emulator a point's process cannot exec the target binary\n");
    return 1;
}

/* a failing point is said and kept; the table then resumes with it alone */
static void failed_point_and_resume(void **state)
{
    fixture *f = *state;
    if (points_cannot_run())
        skip();
    smn_sweep_outcome out = run(f, SOCMON_OK);
    assert_int_equal(out.exit, 1);
    assert_false(out.stopped);
    assert_non_null(strstr(f->h.said, "socmon sweep: point 1 (esp:soc=no_such_soc, multifft) failed: "));
    assert_non_null(strstr(f->h.said, "socmon sweep: 2 of 2 points ran in "));
    assert_non_null(strstr(f->h.said, " (1 ok, 1 failed); table: "));
    assert_string_equal(f->h.errors, "");
    socmon_sweep *t = NULL;
    assert_int_equal(socmon_sweep_load(f->table, &t), SOCMON_OK);
    assert_int_equal(socmon_sweep_count(t), 2);
    assert_true(socmon_sweep_find(t, 0)->ok);
    assert_false(socmon_sweep_find(t, 1)->ok);
    socmon_sweep_free(t);

    out = run(f, SOCMON_OK);
    assert_int_equal(out.exit, 1);
    assert_non_null(strstr(f->h.said, "resuming "));
    assert_non_null(strstr(f->h.said, ": 1 of 2 points done, 1 to run\n"));

    f->c.quiet = 1;   /* quiet: only the failure */
    out = run(f, SOCMON_OK);
    assert_null(strstr(f->h.said, "resuming"));
    assert_null(strstr(f->h.said, "points ran"));
    assert_non_null(strstr(f->h.said, "point 1 ("));
}

/* a stop asked before the first point: none runs, the summary says so, the table is written */
static void stopped_before_any_point(void **state)
{
    fixture *f = *state;
    f->h.stop = 1;
    f->c.quiet = 1;   /* the summary of a stopped sweep is said even so */
    smn_sweep_outcome out = run(f, SOCMON_OK);
    assert_true(out.stopped);
    assert_int_equal(out.exit, 0);
    assert_non_null(strstr(f->h.said, "socmon sweep: 0 of 2 points ran in "));
    socmon_sweep *t = NULL;
    assert_int_equal(socmon_sweep_load(f->table, &t), SOCMON_OK);
    assert_int_equal(socmon_sweep_count(t), 0);
    socmon_sweep_free(t);
}

/* bad input: exit status 2, the message said whole, the status and its message returned */
static void refusals(void **state)
{
    fixture *f = *state;
    f->c.shard = "3/2";
    smn_sweep_outcome out = run(f, SOCMON_EINVAL);
    assert_int_equal(out.exit, 2);
    assert_non_null(strstr(f->h.errors, "sweep: --shard 3/2: expected K/N"));
    f->c.shard = NULL;

    char pq[160];
    snprintf(pq, sizeof pq, "%s/t.parquet", f->dir);
    FILE *fp = fopen(pq, "w");
    assert_non_null(fp);
    fputs("PAR1", fp);
    fclose(fp);
    f->c.output = pq;
    f->c.json = 0;
    out = run(f, SOCMON_ENOTSUP);
    assert_int_equal(out.exit, 2);
    assert_non_null(strstr(f->h.said, "socmon sweep: -o "));
    assert_non_null(strstr(f->h.said, "a Parquet table is not resumed"));
    assert_non_null(strstr(socmon_errmsg(), "a Parquet table is not resumed"));

    /* -o DIR/: the shard's own file in it, made with the directory */
    if (points_cannot_run())
        return;
    char dir[160];
    snprintf(dir, sizeof dir, "%s/camp/", f->dir);
    f->c.output = dir;
    f->c.json = 1;
    f->c.shard = "1/2";
    out = run(f, SOCMON_OK);
    assert_int_equal(out.exit, 0);
    assert_non_null(strstr(f->h.said, "1 of 1 points ran in "));
    assert_non_null(strstr(f->h.said, "; table: "));
    assert_non_null(strstr(f->h.said, "/camp/shard-1-of-2.json\n"));
}

/* merge: the tables joined, the points missing and failed said, exit status 1 */
static void merging(void **state)
{
    fixture *f = *state;
    f->c.shard = "2/2";
    run(f, SOCMON_OK);
    char merged[160];
    snprintf(merged, sizeof merged, "%s/m.csv", f->dir);
    const char *paths[] = {f->table};
    smn_sweep_outcome out;
    memset(&f->h.said, 0, sizeof f->h.said);
    capture(f);
    assert_int_equal(smn_sweep_campaign_merge(paths, 1, 0, merged, &f->c.talk, &out), SOCMON_OK);
    release(f);
    assert_int_equal(out.exit, 1);
    assert_string_equal(f->h.said, "socmon sweep merge: the tables hold 1 of the sweep's 2 points; missing: 0\n"
                                   "socmon sweep merge: 1 point failed\n");
    assert_int_equal(access(merged, F_OK), 0);

    const char *none[] = {"/nonexistent/t.json"};
    memset(&f->h.errors, 0, sizeof f->h.errors);
    assert_int_not_equal(smn_sweep_campaign_merge(none, 1, 0, NULL, &f->c.talk, &out), SOCMON_OK);
    assert_int_equal(out.exit, 2);
    assert_non_null(strstr(f->h.errors, "sweep merge: /nonexistent/t.json"));
}

/* the process pool needs the program to run */
static void exec_needs_a_program(void **state)
{
    fixture *f = *state;
    size_t todo[] = {0};
    smn_sweep_exec_opts o = {.grid = f->grid, .todo = todo, .ntodo = 1, .jobs = 1};
    smn_sweep_exec_result res;
    assert_int_equal(smn_sweep_exec(&o, &res), SOCMON_EINVAL);
    assert_non_null(strstr(socmon_errmsg(), "no program"));
}

/* the caller's own children are not the sweep's to reap: one that ended before the sweep still
 * has its status for the caller afterwards (waitpid(-1) in the library took it) */
static void callers_children_kept(void **state)
{
    fixture *f = *state;
    if (points_cannot_run())
        skip();
    pid_t child = fork();
    assert_true(child >= 0);
    if (child == 0)
        _exit(7);
    smn_sweep_outcome out = run(f, SOCMON_OK);
    assert_int_equal(out.exit, 1);   /* the failing point, as ever */
    int status = 0;
    assert_int_equal(waitpid(child, &status, 0), child);
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 7);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(failed_point_and_resume, setup, teardown),
        cmocka_unit_test_setup_teardown(stopped_before_any_point, setup, teardown),
        cmocka_unit_test_setup_teardown(refusals, setup, teardown),
        cmocka_unit_test_setup_teardown(merging, setup, teardown),
        cmocka_unit_test_setup_teardown(exec_needs_a_program, setup, teardown),
        cmocka_unit_test_setup_teardown(callers_children_kept, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
