/* Status names and per-thread error messages. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <pthread.h>
#include <string.h>

#include "core/error.h"
#include "socmon/socmon.h"

static void test_names(void **state)
{
    assert_string_equal(socmon_status_name(SOCMON_ERANGE), "SOCMON_ERANGE");
    assert_string_equal(socmon_status_str(SOCMON_OK), "success");
    assert_string_equal(socmon_status_name((socmon_status)-99), "SOCMON_E?");
    assert_int_equal(socmon_fail(SOCMON_ERANGE, "tile_index %u out of range 0..%u", 9u, 8u), SOCMON_ERANGE);
    assert_string_equal(socmon_errmsg(), "tile_index 9 out of range 0..8");
    socmon_fail_prefix(SOCMON_ERANGE, "esp: ");
    assert_string_equal(socmon_errmsg(), "esp: tile_index 9 out of range 0..8");
    socmon_clear_error();
    assert_string_equal(socmon_errmsg(), "");
    char big[2000];
    memset(big, 'x', sizeof big - 1);
    big[sizeof big - 1] = '\0';
    socmon_fail(SOCMON_EINVAL, "%s", big);
    socmon_fail_prefix(SOCMON_EINVAL, "%s", big);
    assert_true(strlen(socmon_errmsg()) < 600);
}

typedef struct job {
    int id;
    int ok;
} job;

static void *worker(void *arg)
{
    job *j = arg;
    char want[64];
    snprintf(want, sizeof want, "thread %d: value %d", j->id, j->id * 7);
    j->ok = 1;
    for (int i = 0; i < 20000; i++) {
        socmon_fail(SOCMON_EINVAL, "thread %d: value %d", j->id, j->id * 7);
        if (strcmp(socmon_errmsg(), want) != 0)
            j->ok = 0;
    }
    return NULL;
}

static void test_threads_do_not_collide(void **state)
{
    pthread_t t[4];
    job j[4];
    for (int i = 0; i < 4; i++) {
        j[i] = (job){i, 0};
        assert_int_equal(pthread_create(&t[i], NULL, worker, &j[i]), 0);
    }
    for (int i = 0; i < 4; i++) {
        pthread_join(t[i], NULL);
        assert_true(j[i].ok);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_names),
        cmocka_unit_test(test_threads_do_not_collide),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
