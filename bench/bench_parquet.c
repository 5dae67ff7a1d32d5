/* Parquet against CSV for a sweep campaign's table (docs/parquet.md, "Figures"): bytes on disk
 * and the time to write the table, whole, as 10 shards and as 100, best of 5 writes each.
 *
 * The campaign is the one tests/export/parquet_campaign.test.sh runs: zynq at 1 simulated ms a
 * point, 100 seeds x 100 latencies = 10,000 points. Its table is built in this process (each
 * point's `socmon stat --json` document through the library, read back as the sweep reads its
 * points), so the figures need no CLI; or give a table socmon sweep wrote (CSV or JSON).
 * Usage: bench_parquet [TABLE] */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "export/output.h"
#include "socmon/document.h"
#include "socmon/sweep.h"
#include "bench_time.h"

static double bench_now_s(void)
{
    return bench_now_ns() / 1e9;
}

#define SHARDS 100   /* and 10: the test's campaign, and docs/sweep.md's on Slurm */
#define REPEATS 5

static int die(const char *what)
{
    fprintf(stderr, "bench_parquet: %s: %s\n", what, socmon_errmsg());
    return 1;
}

/* The campaign's table, every point run here, and its shards' (sweep --shard K/10, K/SHARDS). */
static socmon_status campaign(socmon_sweep **out, socmon_sweep **ten, socmon_sweep **shards)
{
    char seeds[600] = "", lats[600] = "";
    for (int i = 1; i <= 100; i++) {
        snprintf(seeds + strlen(seeds), sizeof seeds - strlen(seeds), "%s%d", i > 1 ? "," : "", i);
        snprintf(lats + strlen(lats), sizeof lats - strlen(lats), "%s%d", i > 1 ? "," : "", 100 + i);
    }
    char spec[1400];
    snprintf(spec, sizeof spec, "zynq:duration_ms=1,seed={%s},lat_ns={%s}", seeds, lats);
    const char *targets[] = {spec};
    socmon_sweep_spec sp = {.size = sizeof sp, .targets = targets, .ntargets = 1};
    socmon_sweep_grid *g = NULL;
    socmon_status st = socmon_sweep_grid_new(&sp, &g);
    if (st == SOCMON_OK)
        st = socmon_sweep_new(socmon_sweep_grid_id(g), socmon_sweep_grid_count(g), out);
    for (int k = 0; st == SOCMON_OK && k < SHARDS; k++)
        st = socmon_sweep_new(socmon_sweep_grid_id(g), socmon_sweep_grid_count(g), &shards[k]);
    for (int k = 0; st == SOCMON_OK && k < 10; k++)
        st = socmon_sweep_new(socmon_sweep_grid_id(g), socmon_sweep_grid_count(g), &ten[k]);
    char path[64];
    snprintf(path, sizeof path, "/tmp/bench_parquet_%d.json", (int)getpid());
    for (size_t i = 0; st == SOCMON_OK && i < socmon_sweep_grid_count(g); i++) {
        const socmon_sweep_point *p = socmon_sweep_grid_point(g, i);
        char *json = NULL;
        size_t len = 0;
        st = socmon_document_stat(p->target, p->workload, p->program, NULL, &json, &len);
        FILE *fp = st == SOCMON_OK ? fopen(path, "w") : NULL;
        if (st == SOCMON_OK && (!fp || fwrite(json, 1, len, fp) != len))
            st = socmon_fail(SOCMON_EIO, "writing %s", path);
        if (fp)
            fclose(fp);
        socmon_document_free(json);
        socmon_run *run = NULL;
        if (st == SOCMON_OK)
            st = socmon_run_open(path, NULL, &run);
        if (st == SOCMON_OK)
            st = socmon_sweep_set(*out, p, run, NULL, NULL);
        if (st == SOCMON_OK)
            st = socmon_sweep_set(shards[i % SHARDS], p, run, NULL, NULL);
        if (st == SOCMON_OK)
            st = socmon_sweep_set(ten[i % 10], p, run, NULL, NULL);
        socmon_run_free(run);
        if (i % 2000 == 1999)
            fprintf(stderr, "bench_parquet: %zu of %zu points run\n", i + 1, socmon_sweep_grid_count(g));
    }
    unlink(path);
    socmon_sweep_grid_free(g);
    return st;
}

/* Writes t in format to path; *bytes its size, the return its time in ms (negative: failed). */
static double write_one(const socmon_sweep *t, const char *format, const char *path, long long *bytes)
{
    smn_sink *sink;
    smn_output *o;
    double t0 = bench_now_s();
    if (smn_sink_path(path, SOCMON_PATH_PLAIN, 0, &sink) != SOCMON_OK)
        return -1;
    socmon_status st = smn_output_open(format, sink, NULL, &o);
    if (st == SOCMON_OK)
        st = smn_output_sweep(o, t);
    if (st == SOCMON_OK)
        st = smn_output_end(o);
    smn_output_free(o);
    socmon_status cst = smn_sink_close(sink);
    double ms = (bench_now_s() - t0) * 1e3;
    struct stat sb;
    *bytes = stat(path, &sb) == 0 ? (long long)sb.st_size : -1;
    unlink(path);
    return st == SOCMON_OK && cst == SOCMON_OK ? ms : -1;
}

/* The best of REPEATS writes of the tables in format: *bytes their size in all, the return their
 * time in ms (negative: failed). */
static double best_of(socmon_sweep *const *t, int n, const char *format, long long *bytes)
{
    char path[64];
    snprintf(path, sizeof path, "/tmp/bench_parquet_%d.out", (int)getpid());
    double best = 0;
    for (int r = 0; r < REPEATS; r++) {
        double ms = 0;
        *bytes = 0;
        for (int k = 0; k < n; k++) {
            long long b;
            double one = write_one(t[k], format, path, &b);
            if (one < 0)
                return -1;
            ms += one;
            *bytes += b;
        }
        if (r == 0 || ms < best)
            best = ms;
    }
    return best;
}

int main(int argc, char **argv)
{
    socmon_sweep *t = NULL, *ten[10] = {0}, *shards[SHARDS] = {0};
    double t0 = bench_now_s();
    if (argc > 1 ? socmon_sweep_load(argv[1], &t) != SOCMON_OK : campaign(&t, ten, shards) != SOCMON_OK)
        return die(argc > 1 ? argv[1] : "running the campaign");
    printf("bench_parquet: the table of %zu points (%s), %s in %.1f s; best of %d writes to /tmp\n",
           socmon_sweep_count(t), argc > 1 ? argv[1] : "zynq 1 ms, 100 seeds x 100 latencies",
           argc > 1 ? "read" : "run", bench_now_s() - t0, REPEATS);
    struct { const char *what; socmon_sweep *const *t; int n; } sets[] = {
        {"whole", &t, 1}, {"10 shards", ten, 10}, {"100 shards", shards, SHARDS}};
    for (int s = 0; s < (argc > 1 ? 1 : 3); s++) {
        long long csv_bytes, pq_bytes;
        double csv = best_of(sets[s].t, sets[s].n, "csv", &csv_bytes);
        double pq = best_of(sets[s].t, sets[s].n, "parquet", &pq_bytes);
        if (csv < 0 || pq < 0)
            return die(sets[s].what);
        printf("  %-10s  csv     %11lld bytes  %8.1f ms\n", sets[s].what, csv_bytes, csv);
        printf("  %-10s  parquet %11lld bytes  %8.1f ms   (%.3f of the bytes, %.2f x the time)\n", sets[s].what,
               pq_bytes, pq, (double)pq_bytes / (double)csv_bytes, pq / csv);
    }
    socmon_sweep_free(t);
    for (int k = 0; k < SHARDS; k++)
        socmon_sweep_free(shards[k]);
    for (int k = 0; k < 10; k++)
        socmon_sweep_free(ten[k]);
    return 0;
}
