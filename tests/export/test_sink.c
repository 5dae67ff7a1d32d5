/* Byte sinks: what they collect, and that no write error is lost: a full device (/dev/full)
 * fails at the write or at the flush that stdio defers it to, the failure sticks, close
 * repeats it, and an output on a failing sink ends with the error instead of success. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "export/output_fixture.h"
#include "export/table.h"

static void test_memory_sink(void **state)
{
    smn_sink *s;
    assert_int_equal(smn_sink_memory(&s), SOCMON_OK);
    size_t len = 99;
    assert_string_equal(smn_sink_memory_data(s, &len), "");
    assert_int_equal(len, 0);
    assert_int_equal(smn_sink_puts(s, "ab"), SOCMON_OK);
    assert_int_equal(smn_sink_putc(s, 'c'), SOCMON_OK);
    assert_int_equal(smn_sink_write(s, "d\0e", 3), SOCMON_OK); /* bytes, not strings */
    /* Longer than printf's stack buffer. */
    char big[1000];
    memset(big, 'x', sizeof big - 1);
    big[sizeof big - 1] = '\0';
    assert_int_equal(smn_sink_printf(s, "[%s]%d", big, 42), SOCMON_OK);
    const char *d = smn_sink_memory_data(s, &len);
    assert_int_equal(len, 6 + 999 + 4);
    assert_memory_equal(d, "abcd\0e[x", 8);
    assert_string_equal(d + len - 4, "x]42");
    assert_int_equal(smn_sink_flush(s), SOCMON_OK);
    assert_int_equal(smn_sink_close(s), SOCMON_OK);
    assert_int_equal(smn_sink_close(NULL), SOCMON_OK);
}

static void test_path_sink_roundtrip(void **state)
{
    char path[] = "/tmp/socmon_sink_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    close(fd);
    smn_sink *s;
    assert_int_equal(smn_sink_path(path, SOCMON_PATH_PLAIN, 0, &s), SOCMON_OK);
    assert_int_equal(smn_sink_printf(s, "%s=%d\n", "n", 7), SOCMON_OK);
    assert_int_equal(smn_sink_close(s), SOCMON_OK);
    FILE *fp = fopen(path, "r");
    assert_non_null(fp);
    char buf[32] = "";
    assert_non_null(fgets(buf, sizeof buf, fp));
    fclose(fp);
    remove(path);
    assert_string_equal(buf, "n=7\n");
}

static void test_path_sink_bad_path(void **state)
{
    smn_sink *s = NULL;
    assert_int_equal(smn_sink_path("/nonexistent-dir/x.csv", SOCMON_PATH_PLAIN, 0, &s), SOCMON_ENOENT);
    assert_null(s);
    assert_non_null(strstr(socmon_errmsg(), "/nonexistent-dir/x.csv"));
}

/* /dev/full accepts the open and fails every write with ENOSPC. */
static void test_file_sink_full_device(void **state)
{
    FILE *fp = fopen("/dev/full", "w");
    if (!fp)
        skip();
    smn_sink *s;
    assert_int_equal(smn_sink_file(fp, "/dev/full", &s), SOCMON_OK);
    /* A small write only fills stdio's buffer; the flush is where the device says no. */
    assert_int_equal(smn_sink_puts(s, "hello\n"), SOCMON_OK);
    assert_int_equal(smn_sink_flush(s), SOCMON_EIO);
    assert_non_null(strstr(socmon_errmsg(), "writing /dev/full"));
    assert_non_null(strstr(socmon_errmsg(), "No space"));
    /* The failure sticks, with its message, even after other errors elsewhere. */
    socmon_fail(SOCMON_EINVAL, "something else");
    assert_int_equal(smn_sink_puts(s, "more"), SOCMON_EIO);
    assert_non_null(strstr(socmon_errmsg(), "No space"));
    assert_int_equal(smn_sink_close(s), SOCMON_EIO);
    fclose(fp); /* borrowed: the sink never closes it */
}

static void test_path_sink_full_device(void **state)
{
    smn_sink *s;
    if (smn_sink_path("/dev/full", SOCMON_PATH_PLAIN, 0, &s) != SOCMON_OK)
        skip();
    /* More than any stdio buffer: fails at the write itself. */
    char *big = calloc(1, 1 << 20);
    assert_non_null(big);
    assert_int_equal(smn_sink_write(s, big, 1 << 20), SOCMON_EIO);
    free(big);
    assert_int_equal(smn_sink_close(s), SOCMON_EIO);
    assert_non_null(strstr(socmon_errmsg(), "No space"));
}

/* A sink that takes `budget` bytes and then fails, as a socket whose peer went away would. */
typedef struct failing {
    smn_sink base;
    size_t budget, written;
} failing;

static socmon_status failing_write(smn_sink *s, const void *buf, size_t len)
{
    failing *f = (failing *)s;
    if (f->written + len > f->budget)
        return socmon_fail(SOCMON_EIO, "peer went away after %zu bytes", f->written);
    f->written += len;
    return SOCMON_OK;
}

static socmon_status failing_flush(smn_sink *s)
{
    return SOCMON_OK;
}

static socmon_status failing_close(smn_sink *s)
{
    free(s);
    return SOCMON_OK;
}

static const smn_sink_ops failing_ops = {failing_write, failing_flush, failing_close};

static smn_sink *failing_new(size_t budget)
{
    failing *f = calloc(1, sizeof *f);
    assert_non_null(f);
    f->base.ops = &failing_ops;
    f->budget = budget;
    return &f->base;
}

/* Every format reports a sink that fails part-way through the document, wherever it fails. */
static void test_output_on_failing_sink(void **state)
{
    const char *formats[] = {"table", "csv", "json", "live"};
    const size_t budgets[] = {0, 10, 200};
    for (size_t i = 0; i < 4; i++)
        for (size_t b = 0; b < 3; b++) {
            fx f;
            fx_setup(&f);
            smn_sink *s = failing_new(budgets[b]);
            smn_output *o;
            smn_output_opts oo = {.sep = ',', .deltas = 1};
            assert_int_equal(smn_output_open(formats[i], s, &oo, &o), SOCMON_OK);
            smn_run_info run = {.doc = SOCMON_DOC_TOTALS, .title = "T", .target = "fx"};
            socmon_status st = smn_output_begin(o, &run);
            if (st == SOCMON_OK)
                st = smn_output_counters(o, &fx_list, fx_values);
            if (st == SOCMON_OK)
                st = smn_output_metrics(o, f.ms, f.m, f.mv);
            if (st == SOCMON_OK)
                st = smn_output_end(o);
            if (st != SOCMON_EIO)
                fail_msg("%s with %zu bytes: %s (%s)", formats[i], budgets[b], socmon_status_name(st),
                         socmon_errmsg());
            assert_non_null(strstr(socmon_errmsg(), "peer went away"));
            smn_output_free(o);
            assert_int_equal(smn_sink_close(s), SOCMON_EIO);
            fx_teardown(&f);
        }
}

static void test_table_and_csv_report_sink_errors(void **state)
{
    const char *hdr[] = {"a", "b"};
    smn_table *t;
    assert_int_equal(smn_table_new(2, "lr", hdr, &t), SOCMON_OK);
    smn_sink *s = failing_new(3);
    assert_int_equal(smn_table_write(t, s, "  "), SOCMON_EIO);
    smn_table_free(t);
    assert_int_equal(smn_sink_close(s), SOCMON_EIO);
    s = failing_new(2);
    assert_int_equal(smn_csv_write(s, "a,\"b\"", ','), SOCMON_EIO);
    assert_int_equal(smn_sink_close(s), SOCMON_EIO);
}

static int count_entries(const char *dir)
{
    char cmd[160];
    snprintf(cmd, sizeof cmd, "exit $(ls -A %s | wc -l)", dir);
    return WEXITSTATUS(system(cmd));
}

static const char *slurp(const char *path)
{
    static char buf[64];
    FILE *fp = fopen(path, "r");
    size_t n = fp ? fread(buf, 1, sizeof buf - 1, fp) : 0;
    buf[n] = '\0';
    if (fp)
        fclose(fp);
    return fp ? buf : NULL;
}

/* The publishing sink (record -o, report --perfetto): PATH appears only at publish, an existing
 * file moves to PATH.old (force: replaced), an abandoned one leaves nothing; the continuing sink
 * (record --append) writes the existing file in place and refuses a second writer. */
static void test_publish_and_continue(void **state)
{
    char dir[] = "/tmp/socmon_pub_XXXXXX", path[64], old[80];
    assert_non_null(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/a.rec", dir);
    snprintf(old, sizeof old, "%s.old", path);
    smn_sink *s, *s2;
    int moved = 7;
    /* abandoned before publish: nothing left in the directory */
    assert_int_equal(smn_sink_path(path, SOCMON_PATH_PUBLISH, 0, &s), SOCMON_OK);
    assert_int_equal(smn_sink_puts(s, "x"), SOCMON_OK);
    assert_int_equal(smn_sink_close(s), SOCMON_OK);
    assert_int_equal(count_entries(dir), 0);
    /* published: the bytes written so far are there when PATH appears */
    assert_int_equal(smn_sink_path(path, SOCMON_PATH_PUBLISH, 0, &s), SOCMON_OK);
    assert_true(smn_sink_fd(s) >= 0);
    assert_int_equal(smn_sink_puts(s, "one"), SOCMON_OK);
    assert_null(slurp(path));
    assert_int_equal(smn_sink_publish(s, &moved), SOCMON_OK);
    assert_int_equal(moved, 0);
    assert_string_equal(slurp(path), "one");
    /* a second writer while the first holds it: refused, naming the path */
    assert_int_equal(smn_sink_path(path, SOCMON_PATH_PUBLISH, 0, &s2), SOCMON_ESTATE);
    assert_non_null(strstr(socmon_errmsg(), "being written by another socmon record"));
    assert_int_equal(smn_sink_path(path, SOCMON_PATH_CONTINUE, 0, &s2), SOCMON_ESTATE);
    assert_non_null(strstr(socmon_errmsg(), "being written by another recorder"));
    assert_int_equal(smn_sink_close(s), SOCMON_OK);
    /* the next one moves it to PATH.old; with force it is replaced */
    assert_int_equal(smn_sink_path(path, SOCMON_PATH_PUBLISH, 0, &s), SOCMON_OK);
    assert_int_equal(smn_sink_puts(s, "two"), SOCMON_OK);
    assert_int_equal(smn_sink_publish(s, &moved), SOCMON_OK);
    assert_int_equal(smn_sink_close(s), SOCMON_OK);
    assert_int_equal(moved, 1);
    assert_string_equal(slurp(old), "one");
    assert_int_equal(smn_sink_path(path, SOCMON_PATH_PUBLISH, 1, &s), SOCMON_OK);
    assert_int_equal(smn_sink_puts(s, "three"), SOCMON_OK);
    assert_int_equal(smn_sink_publish(s, &moved), SOCMON_OK);
    assert_int_equal(smn_sink_close(s), SOCMON_OK);
    assert_int_equal(moved, 0);
    assert_string_equal(slurp(path), "three");
    assert_string_equal(slurp(old), "one");
    /* continued: the same file, already named PATH */
    assert_int_equal(smn_sink_path(path, SOCMON_PATH_CONTINUE, 0, &s), SOCMON_OK);
    assert_true(smn_sink_is_published(s));
    assert_true(lseek(smn_sink_fd(s), 0, SEEK_END) == 5);
    assert_int_equal(smn_sink_close(s), SOCMON_OK);
    assert_string_equal(slurp(path), "three");
    /* a directory is refused, even forced */
    assert_int_equal(smn_sink_path(dir, SOCMON_PATH_PUBLISH, 1, &s), SOCMON_EINVAL);
    assert_int_equal(count_entries(dir), 2);
    char cmd[96];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    assert_int_equal(system(cmd), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_memory_sink),
        cmocka_unit_test(test_path_sink_roundtrip),
        cmocka_unit_test(test_path_sink_bad_path),
        cmocka_unit_test(test_publish_and_continue),
        cmocka_unit_test(test_file_sink_full_device),
        cmocka_unit_test(test_path_sink_full_device),
        cmocka_unit_test(test_output_on_failing_sink),
        cmocka_unit_test(test_table_and_csv_report_sink_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
