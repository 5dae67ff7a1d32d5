/* A mapped file that shrinks under the mmio bus: the access that faults
 * returns SOCMON_EIO naming the file and the address instead of SIGBUS killing
 * the process; a SIGBUS that is not ours still reaches the handler that was
 * installed before the bus's; two threads faulting at once each get their own
 * error (docs/bus.md, "Faults"). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <sys/wait.h>

#include "socmon/bus.h"

/* cmocka puts its own SIGBUS handler in place around each test and restores
 * the one before afterwards, which would take the bus's handler away after the
 * first test. Each scenario therefore runs in a child process whose first mmio
 * access is its first ever, as in a fresh program; the child reports a failed
 * check by its exit status. */
#define CHECK(c)                                                                       \
    do {                                                                               \
        if (!(c)) {                                                                    \
            fprintf(stderr, "%s:%d: check failed: %s (%s)\n", __FILE__, __LINE__, #c,  \
                    socmon_errmsg());                                                  \
            _exit(1);                                                                  \
        }                                                                              \
    } while (0)

static void in_child(void (*scenario)(void))
{
    fflush(NULL);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        scenario();
        _exit(0);
    }
    int ws = 0;
    assert_int_equal(waitpid(pid, &ws, 0), pid);
    if (WIFSIGNALED(ws))
        fail_msg("the scenario died of signal %d", WTERMSIG(ws));
    assert_true(WIFEXITED(ws));
    assert_int_equal(WEXITSTATUS(ws), 0);
}

#define FSIZE 8192

static int make_file(char *path)
{
    strcpy(path, "/tmp/socmon-test-fault-XXXXXX");
    int fd = mkstemp(path);
    CHECK(fd >= 0);
    CHECK(ftruncate(fd, FSIZE) == 0);
    uint32_t v = 0x1234abcd;
    CHECK(pwrite(fd, &v, 4, 0x1000) == 4);
    return fd;
}

static void shrunk_file_is_an_error_naming_file_and_address(void)
{
    char path[64];
    int fd = make_file(path);
    socmon_bus *bus = NULL;
    CHECK(socmon_bus_mmio_open(path, 0, FSIZE, &bus) == SOCMON_OK);
    uint32_t v = 0;
    CHECK(socmon_bus_read32(bus, 0x1000, &v) == SOCMON_OK);
    CHECK(v == 0x1234abcd);
    CHECK(ftruncate(fd, 4096) == 0);   /* the second page goes away */
    CHECK(socmon_bus_read32(bus, 0x0, &v) == SOCMON_OK);   /* the first is still there */
    CHECK(socmon_bus_read32(bus, 0x1004, &v) == SOCMON_EIO);
    CHECK(strstr(socmon_errmsg(), path) != NULL);
    CHECK(strstr(socmon_errmsg(), "0x1004") != NULL);
    CHECK(strstr(socmon_errmsg(), "SIGBUS") != NULL);
    CHECK(socmon_bus_write32(bus, 0x1008, 1) == SOCMON_EIO);
    CHECK(strstr(socmon_errmsg(), "write at 0x1008") != NULL);
    /* the bus keeps working after a fault: the signal is not left blocked */
    CHECK(socmon_bus_read32(bus, 0x1000, &v) == SOCMON_EIO);
    CHECK(ftruncate(fd, FSIZE) == 0);
    CHECK(socmon_bus_read32(bus, 0x1000, &v) == SOCMON_OK);
    CHECK(v == 0);   /* the page came back as zeros */
    socmon_bus_stats st;
    socmon_bus_stats_get(bus, &st);
    CHECK(st.errors == 3);
    socmon_bus_free(bus);
    close(fd);
    unlink(path);
}

/* ---- the user's own SIGBUS handler, installed before the bus's ---- */

static volatile sig_atomic_t user_calls;
static sigjmp_buf user_env;

static void user_handler(int sig, siginfo_t *si, void *ctx)
{
    (void)sig;
    (void)ctx;
    user_calls++;
    if (si->si_code > 0)   /* a real fault: the user recovers it their own way */
        siglongjmp(user_env, 1);
}

static void other_faults_reach_the_previous_handler(void)
{
    struct sigaction sa, old;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = user_handler;
    sa.sa_flags = SA_SIGINFO;
    sigemptyset(&sa.sa_mask);
    /* the user's handler first; the bus's, installed by the first access, chains to it */
    CHECK(sigaction(SIGBUS, &sa, &old) == 0);
    char path[64];
    int fd = make_file(path);
    socmon_bus *bus = NULL;
    CHECK(socmon_bus_mmio_open(path, 0, FSIZE, &bus) == SOCMON_OK);
    uint32_t v = 0;
    CHECK(socmon_bus_read32(bus, 0x1000, &v) == SOCMON_OK);   /* installs the bus's handler */
    struct sigaction now;
    CHECK(sigaction(SIGBUS, NULL, &now) == 0);
    CHECK(now.sa_sigaction != user_handler);

    /* a SIGBUS sent by someone reaches the user */
    user_calls = 0;
    CHECK(raise(SIGBUS) == 0);
    CHECK(user_calls == 1);

    /* a fault outside any bus access (the user's own mapping) reaches the user */
    volatile uint32_t *own = mmap(NULL, FSIZE, PROT_READ, MAP_SHARED, fd, 0);
    CHECK(own != MAP_FAILED);
    CHECK(ftruncate(fd, 4096) == 0);
    user_calls = 0;
    if (sigsetjmp(user_env, 1) == 0) {
        v = own[0x1000 / 4];
        CHECK(!"the read past the end of the file did not fault");
    }
    CHECK(user_calls == 1);
    /* and a fault inside a bus access does not */
    CHECK(socmon_bus_read32(bus, 0x1000, &v) == SOCMON_EIO);
    CHECK(user_calls == 1);
    munmap((void *)own, FSIZE);
    socmon_bus_free(bus);
    close(fd);
    unlink(path);
}

/* ---- two threads, each with its own recovery point ---- */

typedef struct worker {
    socmon_bus *bus;
    int faults, oks;
} worker;

static void *work(void *arg)
{
    worker *w = arg;
    for (int i = 0; i < 2000; i++) {
        uint32_t v;
        socmon_status st = socmon_bus_read32(w->bus, (i & 1) ? 0x1000 : 0x0, &v);
        if (st == SOCMON_EIO && strstr(socmon_errmsg(), "0x1000"))
            w->faults++;
        else if (st == SOCMON_OK && !(i & 1))
            w->oks++;
    }
    return NULL;
}

static void threads_fault_independently(void)
{
    char path[64];
    int fd = make_file(path);
    worker w[2] = {{0}, {0}};
    for (int i = 0; i < 2; i++)
        CHECK(socmon_bus_mmio_open(path, 0, FSIZE, &w[i].bus) == SOCMON_OK);
    CHECK(ftruncate(fd, 4096) == 0);
    pthread_t th[2];
    for (int i = 0; i < 2; i++)
        CHECK(pthread_create(&th[i], NULL, work, &w[i]) == 0);
    for (int i = 0; i < 2; i++)
        CHECK(pthread_join(th[i], NULL) == 0);
    for (int i = 0; i < 2; i++) {
        CHECK(w[i].faults == 1000);
        CHECK(w[i].oks == 1000);
        socmon_bus_free(w[i].bus);
    }
    close(fd);
    unlink(path);
}

static void test_shrunk_file_is_an_error_naming_file_and_address(void **state)
{
    (void)state;
    in_child(shrunk_file_is_an_error_naming_file_and_address);
}

static void test_other_faults_reach_the_previous_handler(void **state)
{
    (void)state;
    in_child(other_faults_reach_the_previous_handler);
}

static void test_threads_fault_independently(void **state)
{
    (void)state;
    in_child(threads_fault_independently);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_other_faults_reach_the_previous_handler),
        cmocka_unit_test(test_shrunk_file_is_an_error_naming_file_and_address),
        cmocka_unit_test(test_threads_fault_independently),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
