/* The real kernel behind socmon_perf_sys: perf_event_open(2), read, ioctl, the
 * event's first mmap page, and the rdpmc instruction. This is the perf driver's
 * "bus": the driver (src/drivers/perf/) makes every kernel call through this
 * table, so the kernel model (src/models/perf/) can stand in for it in tests.
 * Every call returns -errno on failure and leaves errno alone for the caller's
 * caller to not depend on. */
#include "socmon/perf.h"

#if defined(__linux__)
#include <errno.h>
#include <linux/perf_event.h>
#include <stdint.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

static int k_open(void *ctx, void *attr, int pid, int cpu, int group_fd, unsigned long flags)
{
    (void)ctx;
    long fd = syscall(__NR_perf_event_open, attr, pid, cpu, group_fd, flags);
    return fd < 0 ? -errno : (int)fd;
}

static long k_read(void *ctx, int fd, void *buf, size_t len)
{
    (void)ctx;
    ssize_t n;
    do
        n = read(fd, buf, len);
    while (n < 0 && errno == EINTR);
    return n < 0 ? -errno : (long)n;
}

static int k_ioctl(void *ctx, int fd, unsigned long request, unsigned long arg)
{
    (void)ctx;
    return ioctl(fd, request, arg) < 0 ? -errno : 0;
}

static void *k_mmap_page(void *ctx, int fd)
{
    (void)ctx;
    void *p = mmap(NULL, (size_t)sysconf(_SC_PAGESIZE), PROT_READ, MAP_SHARED, fd, 0);
    return p == MAP_FAILED ? NULL : p;
}

static void k_munmap_page(void *ctx, void *page)
{
    (void)ctx;
    if (page)
        munmap(page, (size_t)sysconf(_SC_PAGESIZE));
}

static int k_close(void *ctx, int fd)
{
    (void)ctx;
    return close(fd) < 0 ? -errno : 0;
}

#if defined(__x86_64__) || defined(__i386__)
/* The instruction itself: ECX selects the counter (the mmap page's index - 1). */
static uint64_t k_rdpmc(void *ctx, unsigned idx)
{
    (void)ctx;
    uint32_t lo, hi;
    __asm__ volatile("rdpmc" : "=a"(lo), "=d"(hi) : "c"(idx));
    return (uint64_t)hi << 32 | lo;
}
#define K_RDPMC k_rdpmc
#else
#define K_RDPMC NULL /* no user-mode counter read wired up on this architecture: read() */
#endif

static const socmon_perf_sys kernel = {.open = k_open, .read = k_read, .ioctl = k_ioctl,
    .mmap_page = k_mmap_page, .munmap_page = k_munmap_page, .close = k_close, .rdpmc = K_RDPMC,
                                       .ctx = NULL};

#else /* not Linux: every open fails as a kernel without perf_event would */

#include <errno.h>
static int k_open(void *ctx, void *attr, int pid, int cpu, int group_fd, unsigned long flags)
{
    (void)ctx, (void)attr, (void)pid, (void)cpu, (void)group_fd, (void)flags;
    return -ENOSYS;
}
static long k_read(void *ctx, int fd, void *buf, size_t len)
{
    (void)ctx, (void)fd, (void)buf, (void)len;
    return -EBADF;
}
static int k_ioctl(void *ctx, int fd, unsigned long request, unsigned long arg)
{
    (void)ctx, (void)fd, (void)request, (void)arg;
    return -EBADF;
}
static void *k_mmap_page(void *ctx, int fd)
{
    (void)ctx, (void)fd;
    return NULL;
}
static void k_munmap_page(void *ctx, void *page)
{
    (void)ctx, (void)page;
}
static int k_close(void *ctx, int fd)
{
    (void)ctx, (void)fd;
    return 0;
}
static const socmon_perf_sys kernel = {.open = k_open, .read = k_read, .ioctl = k_ioctl,
    .mmap_page = k_mmap_page, .munmap_page = k_munmap_page, .close = k_close, .rdpmc = NULL,
    .ctx = NULL};
#endif

const socmon_perf_sys *socmon_perf_sys_kernel(void)
{
    return &kernel;
}
