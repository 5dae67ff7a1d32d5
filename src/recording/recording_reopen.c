/* Appending to a recording: socmon_recwriter_reopen continues an existing v2
 * file as if its writer had never stopped.
 *
 * A collector that restarts (or is killed, or loses its agent for a while)
 * keeps one file per run rather than a directory of pieces. The file is read
 * with the reader's own checks (smn_rec2_scan_file: every block's CRCs,
 * zstd frame and columns, one block in memory at a time over an mmap), so the
 * writer continues exactly after the last block a reader would accept: the
 * end record, a half-written block of a killed writer or damage at the tail
 * are cut off, and the next block's first index follows the last good one,
 * so a reader sees one continuous recording. The schema must match field by
 * field: samples written under another schema would be read as this one's. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/error.h"
#include "recording/recording_internal.h"
#include "recording/recording_v2.h"

static const char *nz(const char *s)
{
    return s ? s : "";
}

/* One counter's fields against the file's; SOCMON_OK when equal. */
static socmon_status same_counter(size_t j, const socmon_counter *f, const socmon_counter *c)
{
    if (strcmp(nz(f->instance), nz(c->instance)) != 0 || strcmp(f->name, c->name) != 0)
        return socmon_fail(SOCMON_EINVAL, "counter %zu is %s%s%s in the file, %s%s%s now", j, nz(f->instance),
                           *nz(f->instance) ? "." : "", f->name, nz(c->instance), *nz(c->instance) ? "." : "",
                           c->name);
    const char *what = NULL;
    char fv[64] = "", cv[64] = "";
    if (f->width != c->width) {
        what = "width";
        snprintf(fv, sizeof fv, "%u bits", f->width);
        snprintf(cv, sizeof cv, "%u bits", c->width);
    } else if (strcmp(nz(f->unit), nz(c->unit)) != 0) {
        what = "unit";
        snprintf(fv, sizeof fv, "'%.50s'", nz(f->unit));
        snprintf(cv, sizeof cv, "'%.50s'", nz(c->unit));
    } else if (strcmp(nz(f->desc), nz(c->desc)) != 0) {
        what = "description";
        snprintf(fv, sizeof fv, "'%.50s'", nz(f->desc));
        snprintf(cv, sizeof cv, "'%.50s'", nz(c->desc));
    } else if (f->reg != c->reg || f->reg_hi != c->reg_hi) {
        what = "register";
        snprintf(fv, sizeof fv, "0x%llx/0x%llx", (unsigned long long)f->reg, (unsigned long long)f->reg_hi);
        snprintf(cv, sizeof cv, "0x%llx/0x%llx", (unsigned long long)c->reg, (unsigned long long)c->reg_hi);
    } else if (f->max_rate_hz != c->max_rate_hz) {
        what = "max rate";
        snprintf(fv, sizeof fv, "%.17g Hz", f->max_rate_hz);
        snprintf(cv, sizeof cv, "%.17g Hz", c->max_rate_hz);
    }
    if (!what)
        return SOCMON_OK;
    return socmon_fail(SOCMON_EINVAL, "counter %zu (%s%s%s): %s is %s in the file, %s now", j, nz(c->instance),
                       *nz(c->instance) ? "." : "", c->name, what, fv, cv);
}

/* The file's schema (f) against the writer's (c): the first difference. */
static socmon_status same_schema(const socmon_recording *f, const socmon_recording *c, int file_sim, int sim)
{
    if (strcmp(f->target, c->target) != 0)
        return socmon_fail(SOCMON_EINVAL, "target is '%s' in the file, '%s' now", f->target, c->target);
    if (strcmp(f->device, c->device) != 0)
        return socmon_fail(SOCMON_EINVAL, "device is '%s' in the file, '%s' now", f->device, c->device);
    if (f->interval_ns != c->interval_ns)
        return socmon_fail(SOCMON_EINVAL, "interval is %llu ns in the file, %llu ns now",
                           (unsigned long long)f->interval_ns, (unsigned long long)c->interval_ns);
    size_t n = f->ncounters < c->ncounters ? f->ncounters : c->ncounters;
    for (size_t j = 0; j < n; j++) {
        socmon_status st = same_counter(j, &f->counters[j], &c->counters[j]);
        if (st != SOCMON_OK)
            return st;
    }
    if (f->ncounters != c->ncounters)
        return socmon_fail(SOCMON_EINVAL, "the file has %zu counters, the set %zu (first extra: %s)", f->ncounters,
                           c->ncounters, f->ncounters > c->ncounters ? f->counters[n].name : c->counters[n].name);
    size_t np = f->nparams < c->nparams ? f->nparams : c->nparams;
    for (size_t i = 0; i < np; i++) {
        if (strcmp(f->param_names[i], c->param_names[i]) != 0)
            return socmon_fail(SOCMON_EINVAL, "parameter %zu is '%s' in the file, '%s' now", i, f->param_names[i],
                               c->param_names[i]);
        if (f->param_values[i] != c->param_values[i])
            return socmon_fail(SOCMON_EINVAL, "parameter %s is %.17g in the file, %.17g now", f->param_names[i],
                               f->param_values[i], c->param_values[i]);
    }
    if (f->nparams != c->nparams)
        return socmon_fail(SOCMON_EINVAL, "the file has %zu device parameters, the set's device %zu (first extra: %s)",
                           f->nparams, c->nparams, f->nparams > c->nparams ? f->param_names[np] : c->param_names[np]);
    if (file_sim && sim && file_sim != sim)
        return socmon_fail(SOCMON_EINVAL, "the file's timestamps are a %s, the writer's a %s",
                           file_sim > 0 ? "model's simulated time" : "real clock",
                           sim > 0 ? "model's simulated time" : "real clock");
    return SOCMON_OK;
}

/* Maps fd's len bytes, scans them and checks the schema; *scan says where to continue. */
static socmon_status scan_fd(int fd, size_t len, const socmon_recording *want, int sim, smn_rec2_scan *scan)
{
    if (len < SOCMON_REC2_FIXED_HDR)
        return socmon_fail(SOCMON_EPARSE, "%zu bytes: too short for a recording header", len);
    uint8_t *p = mmap(NULL, len, PROT_READ, MAP_SHARED, fd, 0);
    if (p == MAP_FAILED)
        return socmon_fail(SOCMON_EIO, "cannot map the file: %s", strerror(errno));
    socmon_status st = SOCMON_OK;
    socmon_recording *have = NULL;
    uint32_t version = (uint32_t)socmon_rec2_get(p + 8, 4);
    if (memcmp(p, SOCMON_REC_MAGIC, 8) != 0)
        st = socmon_fail(SOCMON_EPARSE, "not a socmon recording (no SOCMONRC magic at offset 0)");
    else if (version != SOCMON_REC2_VERSION)
        st = socmon_fail(version == 1 ? SOCMON_EINVAL : SOCMON_EPARSE,
                         "format version %u: only version 2 recordings can be appended to%s", version,
                         version == 1 ? " (a version 1 file is written whole; load and save it to make a v2 one)"
                                      : "");
    else
        st = smn_rec2_scan_file(p, len, scan, &have);
    if (st == SOCMON_OK) {
        socmon_recording_info in;
        socmon_recording_get_info(have, &in);
        st = same_schema(have, want, in.clock_known ? (in.simulated ? 1 : -1) : 0, sim);
        if (st != SOCMON_OK)
            st = socmon_fail_prefix(st, "schema differs: ");
    }
    socmon_recording_free(have);
    munmap(p, len);
    return st;
}

socmon_status socmon_recwriter_reopen(int fd, const socmon_set *set, const char *target, uint64_t interval_ns,
                                      const socmon_recwriter_opts *opts, socmon_recwriter **out)
{
    if (!out)
        return socmon_fail(SOCMON_EINVAL, "recwriter_reopen: out is NULL");
    *out = NULL;
    if (!set)
        return socmon_fail(SOCMON_EINVAL, "recwriter_reopen: set is NULL");
    struct stat sb;
    int fl = fcntl(fd, F_GETFL);
    if (fd < 0 || fl < 0 || fstat(fd, &sb) != 0)
        return socmon_fail(SOCMON_EINVAL, "recwriter_reopen: file descriptor %d is not open", fd);
    if (!S_ISREG(sb.st_mode))
        return socmon_fail(SOCMON_EINVAL, "recwriter_reopen: file descriptor %d is not a regular file (only a file "
                           "can be read back and cut)", fd);
    if ((fl & O_ACCMODE) != O_RDWR)
        return socmon_fail(SOCMON_EINVAL, "recwriter_reopen: file descriptor %d must be open for reading and "
                           "writing (O_RDWR)", fd);
    if ((uint64_t)sb.st_size > SIZE_MAX)
        return socmon_fail(SOCMON_ERANGE, "recwriter_reopen: a file of %lld bytes cannot be mapped",
                           (long long)sb.st_size);
    socmon_recording *want = NULL;
    socmon_status st = socmon_recording_new(set, target, interval_ns, &want);
    if (st != SOCMON_OK)
        return st;
    smn_rec2_scan scan;
    st = scan_fd(fd, (size_t)sb.st_size, want, opts ? opts->simulated : 0, &scan);
    if (st == SOCMON_OK && (uint64_t)sb.st_size != scan.good_end && ftruncate(fd, (off_t)scan.good_end) != 0)
        st = socmon_fail(errno == EACCES || errno == EPERM ? SOCMON_EPERM : SOCMON_EIO,
                         "cutting the file back to its last good block (offset %llu): %s",
                         (unsigned long long)scan.good_end, strerror(errno));
    if (st == SOCMON_OK && lseek(fd, (off_t)scan.good_end, SEEK_SET) < 0)
        st = socmon_fail(SOCMON_EIO, "seeking to offset %llu: %s", (unsigned long long)scan.good_end,
                         strerror(errno));
    if (st == SOCMON_OK)
        st = smn_rec2_writer_resume(fd, want, opts, &scan, out);
    socmon_recording_free(want);
    return st == SOCMON_OK ? st : socmon_fail_prefix(st, "recwriter_reopen: ");
}
