/* The mmio bus: registers reached through mmap of a file or device.
 *
 * The same code serves /dev/mem (physical addresses, needs root), /dev/uioN
 * (a UIO device's maps, selected by offset N * page size) and plain files
 * (tests, and replaying register dumps). Bus addresses are byte offsets into
 * the window the caller asked for, so a driver never sees the page rounding
 * that mmap requires. A fault in an access (the file shrank, the device went
 * away) is an error naming the path and address, not a SIGBUS (mmio_guard.c). */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bus/bus_internal.h"
#include "core/error.h"
#include "socmon/bus.h"

typedef struct mmio {
    void *map;              /* what mmap returned (page-aligned) */
    size_t map_len;
    volatile uint8_t *win;  /* map + the offset's distance from its page start */
    uint64_t size;
    uint64_t offset;        /* of the window in the file or device */
    char *path;
} mmio;

static socmon_status check_access(const mmio *m, uint64_t addr, const char *what)
{
    if (addr % 4)
        return socmon_fail(SOCMON_EIO, "mmio %s: %s at 0x%" PRIx64 " not 4-byte aligned",
                           m->path, what, addr);
    if (m->size < 4 || addr > m->size - 4)
        return socmon_fail(SOCMON_EIO,
                           "mmio %s: %s at 0x%" PRIx64 " outside window 0x0..0x%" PRIx64,
                           m->path, what, addr, m->size - 1);
    return SOCMON_OK;
}

/* The access raised SIGBUS (mmio_guard.c): the pages behind the window are
 * gone. A window that starts inside the device also gets the device's own
 * address (offset + addr), which is what a /dev/mem user knows a register by. */
static socmon_status fault(const mmio *m, const char *what, uint64_t addr)
{
    char at[64] = "";
    if (m->offset)
        snprintf(at, sizeof at, " (0x%" PRIx64 " in the device)", m->offset + addr);
    return socmon_fail(SOCMON_EIO,
                       "mmio %s: %s at 0x%" PRIx64 "%s faulted (SIGBUS): the file shrank or went "
                       "away, the device was unbound, or no slave answers at that address",
                       m->path, what, addr, at);
}

/* Acquire/release on a volatile pointer (in mmio_guard.c): one 32-bit access the compiler may
 * neither split, merge nor drop, and which the CPU keeps in program order with
 * the neighbouring accesses. hi-lo-hi reads rely on that order; device memory
 * gives it for free, but a plain file mapped on a weakly ordered CPU does not. */
static socmon_status mmio_read32(void *priv, uint64_t addr, uint32_t *val)
{
    mmio *m = priv;
    socmon_status st = check_access(m, addr, "read");
    if (st != SOCMON_OK)
        return st;
    if (smn_mmio_guarded_load((volatile uint32_t *)(m->win + addr), val))
        return fault(m, "read", addr);
    return SOCMON_OK;
}

static socmon_status mmio_write32(void *priv, uint64_t addr, uint32_t val)
{
    mmio *m = priv;
    socmon_status st = check_access(m, addr, "write");
    if (st != SOCMON_OK)
        return st;
    if (smn_mmio_guarded_store((volatile uint32_t *)(m->win + addr), val))
        return fault(m, "write", addr);
    return SOCMON_OK;
}

static void mmio_fence(void *priv)
{
    (void)priv;
#if defined(__SANITIZE_THREAD__) /* GCC's TSan models no lone fence (-Wtsan); what it orders here
                                    are the atomic accesses above, which TSan sees */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wtsan"
#endif
    __atomic_thread_fence(__ATOMIC_SEQ_CST);
#if defined(__SANITIZE_THREAD__)
#pragma GCC diagnostic pop
#endif
#if defined(__riscv)
    /* The C fence orders memory only; device I/O needs the I/O bits too. */
    __asm__ volatile("fence iorw, iorw" ::: "memory");
#endif
}

static void mmio_destroy(void *priv)
{
    mmio *m = priv;
    if (m->map)
        munmap(m->map, m->map_len);
    free(m->path);
    free(m);
}

static const socmon_bus_ops mmio_ops = {
    .read32 = mmio_read32,
    .write32 = mmio_write32,
    .fence = mmio_fence,
    .destroy = mmio_destroy,
};

static socmon_status open_error(const char *path, int err)
{
    if (err == ENOENT || err == ENOTDIR)
        return socmon_fail(SOCMON_ENOENT, "mmio %s: no such file or device", path);
    if (err == EISDIR)
        return socmon_fail(SOCMON_EINVAL, "mmio %s: is a directory, not a file or device", path);
    if (err == EACCES || err == EPERM)
        return socmon_fail(SOCMON_EPERM,
                           "mmio %s: permission denied (run as root, or add the user to the "
                           "group that owns it, e.g. uio)",
                           path);
    return socmon_fail(SOCMON_EIO, "mmio %s: cannot open: %s", path, strerror(err));
}

/* Refuses windows mmap would accept but that cannot work: past the end of a
 * regular file the pages exist but touching them raises SIGBUS. */
static socmon_status check_window(const char *path, int fd, uint64_t offset, uint64_t size)
{
    struct stat sb;
    if (fstat(fd, &sb) != 0)
        return socmon_fail(SOCMON_EIO, "mmio %s: cannot stat: %s", path, strerror(errno));
    if (S_ISDIR(sb.st_mode))
        return socmon_fail(SOCMON_EINVAL, "mmio %s: is a directory, not a file or device", path);
    if (S_ISREG(sb.st_mode)) {
        uint64_t fsize = (uint64_t)sb.st_size;
        if (offset > fsize || size > fsize - offset)
            return socmon_fail(SOCMON_ERANGE,
                               "mmio %s: window 0x%" PRIx64 "+0x%" PRIx64
                               " past the end of the file (size 0x%" PRIx64 ")",
                               path, offset, size, fsize);
    }
    return SOCMON_OK;
}

socmon_status socmon_bus_mmio_open(const char *path, uint64_t offset, uint64_t size,
                                   socmon_bus **out)
{
    if (!out)
        return socmon_fail(SOCMON_EINVAL, "mmio: out is NULL");
    *out = NULL;
    if (!path || !*path)
        return socmon_fail(SOCMON_EINVAL, "mmio: path is NULL or empty");
    if (size < 4)
        return socmon_fail(SOCMON_EINVAL,
                           "mmio %s: window size %" PRIu64 " too small (need at least 4 bytes)", path,
                           size);
    if (offset % 4)
        return socmon_fail(SOCMON_EINVAL, "mmio %s: offset 0x%" PRIx64 " not 4-byte aligned",
                           path, offset);

    long pg = sysconf(_SC_PAGESIZE);
    uint64_t page = pg > 0 ? (uint64_t)pg : 4096;
    uint64_t start = offset - offset % page;
    uint64_t lead = offset - start;
    if (start > (uint64_t)INT64_MAX || size > SIZE_MAX - lead)
        return socmon_fail(SOCMON_ERANGE,
                           "mmio %s: window 0x%" PRIx64 "+0x%" PRIx64 " too large to map",
                           path, offset, size);

    /* O_SYNC: on /dev/mem it asks for an uncached mapping, which registers need. */
    int fd = open(path, O_RDWR | O_SYNC | O_CLOEXEC);
    if (fd < 0)
        return open_error(path, errno);
    socmon_status st = check_window(path, fd, offset, size);
    if (st != SOCMON_OK) {
        close(fd);
        return st;
    }

    mmio *m = calloc(1, sizeof *m);
    char *pathcopy = strdup(path);
    if (!m || !pathcopy) {
        close(fd);
        free(m);
        free(pathcopy);
        return socmon_fail(SOCMON_ENOMEM, "mmio %s: out of memory", path);
    }
    m->path = pathcopy;
    m->size = size;
    m->offset = offset;
    m->map_len = (size_t)(size + lead);
    m->map = mmap(NULL, m->map_len, PROT_READ | PROT_WRITE, MAP_SHARED, fd, (off_t)start);
    int err = errno;
    close(fd); /* the mapping keeps its own reference */
    if (m->map == MAP_FAILED) {
        m->map = NULL;
        mmio_destroy(m);
        if (err == EPERM || err == EACCES)
            /* open passed, so this is the kernel's range check (STRICT_DEVMEM), not file modes */
            return socmon_fail(SOCMON_EPERM,
                               "mmio %s: mmap of 0x%" PRIx64 "+0x%" PRIx64
                               " refused: the kernel restricts this range (CONFIG_STRICT_DEVMEM; "
                               "use the device's UIO node instead)",
                               path, offset, size);
        return socmon_fail(SOCMON_EIO, "mmio %s: mmap of 0x%" PRIx64 "+0x%" PRIx64 " failed: %s",
                           path, offset, size, strerror(err));
    }
    m->win = (volatile uint8_t *)m->map + lead;

    char name[300];
    snprintf(name, sizeof name, "mmio:%s@0x%" PRIx64, path, offset);
    st = socmon_bus_new(name, &mmio_ops, m, out);
    if (st != SOCMON_OK) {
        mmio_destroy(m);
        return st;
    }
    return SOCMON_OK;
}
