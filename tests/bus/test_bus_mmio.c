/* The mmio bus over a temp file: the mapping really is the file, and every
 * kind of bad input is refused with a message naming it. */
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

#include "socmon/bus.h"

#define PAGES 3
#define FSIZE (PAGES * 4096)

typedef struct fixture {
    char path[64];
    uint8_t bytes[FSIZE];  /* what the file holds */
} fixture;

static int setup(void **state)
{
    fixture *f = calloc(1, sizeof *f);
    strcpy(f->path, "/tmp/socmon-test-mmio-XXXXXX");
    int fd = mkstemp(f->path);
    if (fd < 0)
        return -1;
    for (size_t i = 0; i < FSIZE; i++)
        f->bytes[i] = (uint8_t)(i * 131 + 7);
    if (write(fd, f->bytes, FSIZE) != FSIZE)
        return -1;
    close(fd);
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    fixture *f = *state;
    unlink(f->path);
    free(f);
    return 0;
}

static uint32_t word_at(const fixture *f, size_t off)
{
    uint32_t w;
    memcpy(&w, f->bytes + off, 4);
    return w;
}

static uint32_t file_word(const char *path, off_t off)
{
    uint32_t w = 0;
    int fd = open(path, O_RDONLY);
    assert_true(fd >= 0);
    assert_int_equal(pread(fd, &w, 4, off), 4);
    close(fd);
    return w;
}

static void test_reads_see_file(void **state)
{
    fixture *f = *state;
    socmon_bus *bus;
    assert_int_equal(socmon_bus_mmio_open(f->path, 0, FSIZE, &bus), SOCMON_OK);
    assert_non_null(strstr(socmon_bus_name(bus), f->path));
    for (size_t a = 0; a < FSIZE; a += 4) {
        uint32_t v;
        assert_int_equal(socmon_bus_read32(bus, a, &v), SOCMON_OK);
        assert_int_equal(v, word_at(f, a));
    }
    socmon_bus_free(bus);
}

static void test_writes_reach_file_and_back(void **state)
{
    fixture *f = *state;
    socmon_bus *bus;
    assert_int_equal(socmon_bus_mmio_open(f->path, 0, FSIZE, &bus), SOCMON_OK);
    assert_int_equal(socmon_bus_write32(bus, 0x104, 0xdeadbeef), SOCMON_OK);
    socmon_bus_fence(bus);
    assert_int_equal(file_word(f->path, 0x104), 0xdeadbeef);

    /* and the other way: a write to the file shows through the bus */
    int fd = open(f->path, O_WRONLY);
    uint32_t w = 0x12345678;
    assert_int_equal(pwrite(fd, &w, 4, 0x2000), 4);
    close(fd);
    uint32_t v;
    assert_int_equal(socmon_bus_read32(bus, 0x2000, &v), SOCMON_OK);
    assert_int_equal(v, 0x12345678);

    socmon_bus_stats s;
    socmon_bus_stats_get(bus, &s);
    assert_int_equal(s.reads, 1);
    assert_int_equal(s.writes, 1);
    assert_int_equal(s.fences, 1);
    assert_int_equal(s.errors, 0);
    socmon_bus_free(bus);
}

/* Offsets not on a page boundary: address 0 is the byte at `offset`. */
static void test_unaligned_window_offset(void **state)
{
    fixture *f = *state;
    const uint64_t offs[] = {4, 0x1004, 0x1ff0, 0x2ffc};
    for (size_t i = 0; i < sizeof offs / sizeof offs[0]; i++) {
        uint64_t off = offs[i], size = FSIZE - off < 0x20 ? FSIZE - off : 0x20;
        socmon_bus *bus;
        assert_int_equal(socmon_bus_mmio_open(f->path, off, size, &bus), SOCMON_OK);
        for (uint64_t a = 0; a + 4 <= size; a += 4) {
            uint32_t v;
            assert_int_equal(socmon_bus_read32(bus, a, &v), SOCMON_OK);
            assert_int_equal(v, word_at(f, off + a));
        }
        assert_int_equal(socmon_bus_write32(bus, 0, 0xa5a5a5a5), SOCMON_OK);
        assert_int_equal(file_word(f->path, (off_t)off), 0xa5a5a5a5);
        socmon_bus_free(bus);
    }
}

static void test_bad_access(void **state)
{
    fixture *f = *state;
    socmon_bus *bus;
    uint32_t v;
    assert_int_equal(socmon_bus_mmio_open(f->path, 0x1000, 0x20, &bus), SOCMON_OK);

    assert_int_equal(socmon_bus_read32(bus, 0x2, &v), SOCMON_EIO);
    assert_non_null(strstr(socmon_errmsg(), "0x2 not 4-byte aligned"));
    assert_int_equal(socmon_bus_write32(bus, 0x13, 1), SOCMON_EIO);
    assert_non_null(strstr(socmon_errmsg(), "0x13"));

    assert_int_equal(socmon_bus_read32(bus, 0x1c, &v), SOCMON_OK); /* last word */
    assert_int_equal(socmon_bus_read32(bus, 0x20, &v), SOCMON_EIO);
    assert_non_null(strstr(socmon_errmsg(), "0x20 outside window 0x0..0x1f"));
    assert_int_equal(socmon_bus_write32(bus, 0x1000, 1), SOCMON_EIO);
    assert_non_null(strstr(socmon_errmsg(), "0x1000 outside"));
    /* no wrap-around: an address near 2^64 is outside too */
    assert_int_equal(socmon_bus_read32(bus, UINT64_MAX - 3, &v), SOCMON_EIO);
    assert_non_null(strstr(socmon_errmsg(), "0xfffffffffffffffc"));
    assert_int_equal(file_word(f->path, 0x1000 + 0x20), word_at(f, 0x1000 + 0x20));

    socmon_bus_stats s;
    socmon_bus_stats_get(bus, &s);
    assert_int_equal(s.errors, 5);
    socmon_bus_free(bus);
}

static void test_bad_open(void **state)
{
    fixture *f = *state;
    socmon_bus *bus = (socmon_bus *)1;

    assert_int_equal(socmon_bus_mmio_open("/nonexistent/socmon-regs", 0, 16, &bus), SOCMON_ENOENT);
    assert_null(bus);
    assert_non_null(strstr(socmon_errmsg(), "/nonexistent/socmon-regs"));

    assert_int_equal(socmon_bus_mmio_open(f->path, 0, 0, &bus), SOCMON_EINVAL);
    assert_non_null(strstr(socmon_errmsg(), "size 0"));
    assert_non_null(strstr(socmon_errmsg(), f->path));
    assert_int_equal(socmon_bus_mmio_open(f->path, 0, 3, &bus), SOCMON_EINVAL);
    assert_non_null(strstr(socmon_errmsg(), "size 3"));

    assert_int_equal(socmon_bus_mmio_open(f->path, 0, FSIZE + 4, &bus), SOCMON_ERANGE);
    assert_non_null(strstr(socmon_errmsg(), "past the end"));
    assert_non_null(strstr(socmon_errmsg(), "0x3000")); /* the file's size */
    assert_int_equal(socmon_bus_mmio_open(f->path, FSIZE - 4, 8, &bus), SOCMON_ERANGE);
    assert_int_equal(socmon_bus_mmio_open(f->path, FSIZE + 0x1000, 4, &bus), SOCMON_ERANGE);
    assert_int_equal(socmon_bus_mmio_open(f->path, UINT64_MAX - 3, 4, &bus), SOCMON_ERANGE);
    assert_int_equal(socmon_bus_mmio_open(f->path, 4, UINT64_MAX - 3, &bus), SOCMON_ERANGE);

    assert_int_equal(socmon_bus_mmio_open(f->path, 2, 16, &bus), SOCMON_EINVAL);
    assert_non_null(strstr(socmon_errmsg(), "offset 0x2 not 4-byte aligned"));

    assert_int_equal(socmon_bus_mmio_open("/tmp", 0, 16, &bus), SOCMON_EINVAL);
    assert_non_null(strstr(socmon_errmsg(), "directory"));
    assert_int_equal(socmon_bus_mmio_open(NULL, 0, 16, &bus), SOCMON_EINVAL);
    assert_int_equal(socmon_bus_mmio_open("", 0, 16, &bus), SOCMON_EINVAL);
    assert_int_equal(socmon_bus_mmio_open(f->path, 0, 16, NULL), SOCMON_EINVAL);
    assert_null(bus);
}

/* Permission: root ignores file modes, so when run as root the check runs in
 * a child that has dropped to an unprivileged user. */
static int try_denied(const char *path)
{
    socmon_bus *bus;
    if (socmon_bus_mmio_open(path, 0, 16, &bus) != SOCMON_EPERM)
        return 1;
    if (!strstr(socmon_errmsg(), path) || !strstr(socmon_errmsg(), "permission denied") ||
        !strstr(socmon_errmsg(), "root"))
        return 2;
    return 0;
}

static void test_permission_denied(void **state)
{
    fixture *f = *state;
    assert_int_equal(chmod(f->path, 0), 0);
    if (geteuid() != 0) {
        assert_int_equal(try_denied(f->path), 0);
        return;
    }
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        if (setgid(65534) != 0 || setuid(65534) != 0)
            _exit(3);
        _exit(try_denied(f->path));
    }
    int status;
    assert_int_equal(waitpid(pid, &status, 0), pid);
    assert_true(WIFEXITED(status));
    if (WEXITSTATUS(status) == 3) /* e.g. a user namespace without uid 65534 */
        skip();
    assert_int_equal(WEXITSTATUS(status), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_reads_see_file, setup, teardown),
        cmocka_unit_test_setup_teardown(test_writes_reach_file_and_back, setup, teardown),
        cmocka_unit_test_setup_teardown(test_unaligned_window_offset, setup, teardown),
        cmocka_unit_test_setup_teardown(test_bad_access, setup, teardown),
        cmocka_unit_test_setup_teardown(test_bad_open, setup, teardown),
        cmocka_unit_test_setup_teardown(test_permission_denied, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
