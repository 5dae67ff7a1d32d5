/* Writes the seed corpus of fuzz/fuzz_recording_v2.c: small v2 recordings
 * made by the real writer, so the seeds follow the format as the code
 * writes it (regenerate them after a format change):
 *
 *   build/rec2_corpus fuzz/corpus/fuzz_recording_v2
 *
 * Seeds (each under the fuzz test's 4096-byte limit): several blocks and an
 * end record; values wider than their counters and flags; one sample; the
 * varint layout; a file cut mid-block (a killed recorder); one with a damaged
 * block; one with no samples; one whose clock is a model's simulated
 * time; one with gaps the writer declared (socmon_recwriter_skip_to); one with attachments
 * between and after its blocks (socmon_recwriter_attach: a small program profile, workload phases). */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "recording/recording_internal.h"
#include "recording/recording_v2.h"

static socmon_status zero_read(void *drv, const uint32_t *idx, size_t n, uint64_t *out)
{
    memset(out, 0, n * sizeof *out);
    return SOCMON_OK;
}

static const socmon_device_ops ops = {.read = zero_read, .destroy = NULL};

static int die(const char *what)
{
    fprintf(stderr, "rec2_corpus: %s: %s\n", what, socmon_errmsg());
    return 1;
}

/* n samples of the three counters (8, 32 and 64 bits) into a new recording. */
static socmon_recording *make(socmon_set *set, size_t n, int wide)
{
    socmon_recording *rec = NULL;
    if (socmon_recording_new(set, "esp", 1000, &rec) != SOCMON_OK)
        return NULL;
    uint64_t v[3] = {250, 0xfffffff0u, 1};
    socmon_sample s = {.t_ns = 0, .flags = 0, .missed = 0, .n = 3, .v = v};
    for (size_t i = 0; i < n; i++) {
        s.t_ns = 1000 * i + (i % 5 == 0 ? 3 : 0);
        v[0] = (v[0] + 3) & 0xff;
        v[1] = (v[1] + 7 + i % 3) & 0xffffffffu;
        v[2] = i % 9 == 0 ? v[2] - 5 : v[2] * 3;
        if (wide && i % 4 == 0)
            v[0] |= 0x100; /* wider than 8 bits */
        s.flags = i % 6 == 1 ? SOCMON_SAMPLE_MISSED : 0;
        s.missed = i % 6 == 1 ? 2 : 0;
        if (socmon_timeline_append(socmon_recording_timeline(rec), &s) != SOCMON_OK) {
            socmon_recording_free(rec);
            return NULL;
        }
    }
    rec->start_wall_ns = 1700000000000000000ull; /* fixed, so the seeds do not change from run to run */
    return rec;
}

/* Writes rec as v2 to dir/name; cut (if nonzero) keeps only that many bytes,
 * flip (if nonzero) inverts the byte at that offset from the end of the header. */
static int emit(const char *dir, const char *name, const socmon_recording *rec, uint32_t block_samples, int layout,
                size_t cut, size_t flip)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    int fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
    if (fd < 0) {
        perror(path);
        return 1;
    }
    socmon_recwriter_opts o = {.block_samples = block_samples, .level = 1, .flush_ns = 1000000000,
                               .simulated = !rec->info.clock_known ? 0 : rec->info.simulated ? 1 : -1};
    if (smn_recording_write_fd(rec, fd, &o, layout) != SOCMON_OK)
        return die(path);
    struct stat sb;
    fstat(fd, &sb);
    if (cut && cut < (size_t)sb.st_size && ftruncate(fd, (off_t)cut) != 0)
        return die("ftruncate");
    if (flip) {
        uint8_t b;
        size_t hl;
        uint8_t h[16];
        if (pread(fd, h, 16, 0) != 16)
            return die("pread");
        hl = (size_t)socmon_rec2_get(h + 12, 4);
        off_t at = (off_t)(SOCMON_REC2_FIXED_HDR + hl + 4 + flip);
        if (pread(fd, &b, 1, at) != 1)
            return die("pread");
        b ^= 0xff;
        if (pwrite(fd, &b, 1, at) != 1)
            return die("pwrite");
    }
    close(fd);
    return 0;
}

/* A writer of 8-sample blocks for DIR/NAME (its path in path), or NULL having said why. */
static socmon_recwriter *open_writer(const char *dir, const char *name, socmon_recording *empty, char *path,
                                     size_t len, int *fd)
{
    snprintf(path, len, "%s/%s", dir, name);
    *fd = open(path, O_RDWR | O_CREAT | O_TRUNC, 0644);
    if (*fd < 0) {
        perror(path);
        return NULL;
    }
    socmon_recwriter_opts o = {.block_samples = 8, .level = 1, .flush_ns = 1000000000};
    socmon_recwriter *w = NULL;
    if (smn_rec2_writer_new(*fd, empty, &o, -1, &w) != SOCMON_OK) {
        die(path);
        return NULL;
    }
    return w;
}

/* Samples of `src` written with gaps the writer declares (socmon_recwriter_skip_to): rows 12..19
 * skipped, and a skip of 5 at the end, as a collector whose agent lost samples writes them. */
static int emit_gaps(const char *dir, const char *name, socmon_recording *src, socmon_recording *empty)
{
    char path[1024];
    int fd = -1;
    socmon_recwriter *w = open_writer(dir, name, empty, path, sizeof path, &fd);
    if (!w)
        return 1;
    uint64_t v[3];
    socmon_sample s = {.t_ns = 0, .flags = 0, .missed = 0, .n = 3, .v = v};
    socmon_timeline *tl = socmon_recording_timeline(src);
    for (size_t i = 0; i < socmon_timeline_len(tl); i++) {
        if (i >= 12 && i < 20)
            continue;
        if ((i == 20 && socmon_recwriter_skip_to(w, 20) != SOCMON_OK) || socmon_timeline_get(tl, i, &s) != SOCMON_OK ||
            socmon_recwriter_append(w, &s) != SOCMON_OK)
            return die(path);
    }
    if (socmon_recwriter_skip_to(w, socmon_recwriter_next_index(w) + 5) != SOCMON_OK ||
        socmon_recwriter_close(w) != SOCMON_OK)
        return die(path);
    close(fd);
    return 0;
}

/* Samples of `src` with two attachments: one between blocks, a small profile at the end. */
static int emit_attached(const char *dir, const char *name, socmon_recording *src, socmon_recording *empty)
{
    static const char profile[] =
        "{\"format\":\"socmon-profile\",\"version\":1,\"program\":\"p.elf\",\"arch\":\"rv32imc\","
        "\"events\":[{\"name\":\"cycles\",\"width\":64}],\"total\":[9],\"functions\":[[\"_unknown\",0,0],"
        "[\"main\",1048704,1048720]],\"insns\":[[1048704,1,1,[9],\"addi zero, zero, 0\"]],"
        "\"nodes\":[[0,0,false,0,[0]],[0,1,false,1,[9]]],\"slices\":[[0,180,1,0]],\"slices_dropped\":0}";
    char path[1024];
    int fd = -1;
    socmon_recwriter *w = open_writer(dir, name, empty, path, sizeof path, &fd);
    if (!w)
        return 1;
    uint64_t v[3];
    socmon_sample s = {.t_ns = 0, .flags = 0, .missed = 0, .n = 3, .v = v};
    socmon_timeline *tl = socmon_recording_timeline(src);
    for (size_t i = 0; i < socmon_timeline_len(tl) && i < 20; i++) {
        if ((i == 10 && socmon_recwriter_attach(w, "notes", "between blocks", 14) != SOCMON_OK) ||
            socmon_timeline_get(tl, i, &s) != SOCMON_OK || socmon_recwriter_append(w, &s) != SOCMON_OK)
            return die(path);
    }
    static const char phases[] = "0 900000 non_coherent\n900000 1500000 llc_coherent\n1500000 2000000 coherent_dma\n";
    if (socmon_recwriter_attach(w, "profile", profile, sizeof profile - 1) != SOCMON_OK ||
        socmon_recwriter_attach(w, "phases", phases, sizeof phases - 1) != SOCMON_OK ||
        socmon_recwriter_close(w) != SOCMON_OK)
        return die(path);
    close(fd);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: rec2_corpus DIR   (writes the seeds of fuzz_recording_v2 into DIR)\n");
        return 2;
    }
    socmon_device *dev = NULL;
    socmon_set *set = NULL;
    static const socmon_counter c[3] = {
        {.name = "hits", .instance = "t0", .desc = "", .unit = "events", .width = 8, .reg = 0x10,
            .reg_hi = 0, .max_rate_hz = 0},
        {.name = "bytes", .instance = "t1", .desc = "", .unit = "bytes", .width = 32, .reg = 0x14,
            .reg_hi = 0, .max_rate_hz = 0},
        {.name = "cycles", .instance = "", .desc = "", .unit = "cycles", .width = 64, .reg = 0x18,
            .reg_hi = 0x1c, .max_rate_hz = 0},
    };
    if (socmon_device_new("seed", &ops, NULL, &dev) != SOCMON_OK)
        return die("device_new");
    for (int i = 0; i < 3; i++)
        if (socmon_device_add_counter(dev, &c[i], NULL) != SOCMON_OK)
            return die("add_counter");
    if (socmon_device_set_param(dev, "clock_hz", 50e6) != SOCMON_OK || socmon_set_new(dev, NULL, &set) != SOCMON_OK)
        return die("set");
    socmon_recording *plain = make(set, 60, 0), *wide = make(set, 30, 1), *one = make(set, 1, 0),
                     *none = make(set, 0, 0);
    socmon_recording *sim = make(set, 20, 0);
    if (!plain || !wide || !one || !none || !sim)
        return die("recording");
    socmon_recording_set_simulated(sim, 1);
    socmon_recording_set_simulated(wide, 0); /* a real clock */
    int bad = emit(argv[1], "blocks.rec", plain, 16, -1, 0, 0) ||
              emit(argv[1], "wide_flags.rec", wide, 8, -1, 0, 0) ||
              emit(argv[1], "one_sample.rec", one, 0, -1, 0, 0) ||
              emit(argv[1], "varint.rec", plain, 16, SOCMON_REC2_LAYOUT_VARINT, 0, 0) ||
              emit(argv[1], "cut.rec", plain, 16, -1, 420, 0) ||
              emit(argv[1], "damaged.rec", plain, 16, -1, 0, 60) ||
              emit(argv[1], "empty.rec", none, 0, -1, 0, 0) ||
              emit(argv[1], "simulated.rec", sim, 8, -1, 0, 0) ||
              emit_gaps(argv[1], "gaps.rec", plain, none) ||
              emit_attached(argv[1], "attached.rec", plain, none);
    socmon_recording_free(sim);
    socmon_recording_free(plain);
    socmon_recording_free(wide);
    socmon_recording_free(one);
    socmon_recording_free(none);
    socmon_set_free(set);
    socmon_device_free(dev);
    return bad;
}
