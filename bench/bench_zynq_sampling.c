/* Realtime sampling of the Zynq target: every counter (5 APM slots and both
 * A9 PMUs) every 1 ms for 10 s, paced against CLOCK_MONOTONIC through
 * socmon_sampler_run. Prints samples taken, intervals missed and the wake-up
 * jitter, plus what one interval costs (model advance + driver read).
 *
 * A sampler is only as punctual as the scheduler lets it be: on a busy host a
 * SCHED_OTHER thread can lose the CPU for milliseconds. The benchmark asks for
 * SCHED_FIFO (as a realtime monitor would run) and says whether it got it;
 * SOCMON_BENCH_NO_RT=1 measures plain scheduling instead.
 *
 * Usage: bench_zynq_sampling [interval_us [seconds]]   (defaults 1000, 10) */
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "socmon/socmon.h"

extern const socmon_target_ops smn_target_zynq_ops;

typedef struct run {
    uint64_t interval_ns, t0, k;
    uint64_t *late;         /* per advance: wake-up lateness */
    uint64_t *cost;         /* per advance: advance + read (until the callback) */
    size_t n, cap;
    uint64_t t_entry;
} run;

static run R;

static uint64_t mono_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* The sampler calls advance right after it wakes: that is when to look at the clock. */
static socmon_status timed_advance(void *priv, uint64_t ns, int *done)
{
    uint64_t now = mono_ns();
    /* this wake-up was due one interval after the previous deadline; a
     * late one also covers the intervals it missed (ns says how many) */
    uint64_t due = R.t0 + (R.k + 1) * R.interval_ns;
    R.k += ns / R.interval_ns;
    if (R.n < R.cap)
        R.late[R.n] = now > due ? now - due : 0;
    R.t_entry = now;
    return smn_target_zynq_ops.advance(priv, ns, done);
}

static socmon_status after_read(void *user, const socmon_sample *prev, const socmon_sample *cur,
                                const uint64_t *deltas)
{
    (void)user, (void)prev, (void)cur, (void)deltas;
    if (R.n < R.cap)
        R.cost[R.n++] = mono_ns() - R.t_entry;
    return SOCMON_OK;
}

/* Steal time (ms) from /proc/stat: on a VM, time the hypervisor ran someone
 * else; no priority inside the guest can win that back. -1 if unknown. */
static double steal_ms(void)
{
    FILE *fp = fopen("/proc/stat", "r");
    unsigned long long v[8] = {0};
    int n = fp ? fscanf(fp, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1], &v[2],
                        &v[3], &v[4], &v[5], &v[6], &v[7])
               : 0;
    if (fp)
        fclose(fp);
    return n == 8 ? (double)v[7] * 1000.0 / 100.0 : -1;   /* USER_HZ is 100 on Linux */
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

static double pct(uint64_t *v, size_t n, double p)
{
    if (!n)
        return 0;
    size_t i = (size_t)(p * (double)(n - 1) + 0.5);
    return (double)v[i];
}

int main(int argc, char **argv)
{
    uint64_t interval_us = argc > 1 ? strtoull(argv[1], NULL, 10) : 1000;
    uint64_t seconds = argc > 2 ? strtoull(argv[2], NULL, 10) : 10;
    if (interval_us < 100 || seconds == 0) {
        fprintf(stderr, "usage: %s [interval_us >= 100 [seconds >= 1]]\n", argv[0]);
        return 2;
    }
    const char *sched = "SCHED_OTHER";
    if (!getenv("SOCMON_BENCH_NO_RT")) {
        struct sched_param sp = {.sched_priority = 50};
        if (sched_setscheduler(0, SCHED_FIFO, &sp) == 0)
            sched = "SCHED_FIFO 50";
        else
            sched = "SCHED_OTHER (SCHED_FIFO not permitted)";
    }
    socmon_target_ops ops = smn_target_zynq_ops;
    ops.advance = timed_advance;
    char dur[32];
    snprintf(dur, sizeof dur, "%llu", (unsigned long long)(seconds * 1000 + 1000));
    socmon_kv kv[] = {{.key = "duration_ms", .value = dur}};
    socmon_target *t = NULL;
    socmon_set *set = NULL;
    socmon_status st = socmon_target_open_ops(&ops, kv, 1, &t);
    if (!st)
        st = socmon_target_start(t, "mixed");
    if (!st)
        st = socmon_set_new(socmon_target_device(t), NULL, &set);
    if (st) {
        fprintf(stderr, "bench_zynq_sampling: %s\n", socmon_errmsg());
        return 1;
    }
    R.interval_ns = interval_us * 1000;
    R.cap = (size_t)(seconds * 1000000 / interval_us) + 16;
    R.late = calloc(R.cap, sizeof *R.late);
    R.cost = calloc(R.cap, sizeof *R.cost);
    if (!R.late || !R.cost)
        return 1;
    socmon_sampler_opts o = {.interval_ns = R.interval_ns, .duration_ns = seconds * 1000000000ull,
        .realtime = 1, .max_intervals = 0};
    socmon_sampler_stats s;
    printf("zynq realtime sampling: %zu counters every %llu us for %llu s, %s ...\n",
           socmon_set_size(set), (unsigned long long)interval_us, (unsigned long long)seconds,
           sched);
    fflush(stdout);
    R.t0 = mono_ns();   /* the sampler's first deadline is one interval after its first read */
    uint64_t w0 = R.t0;
    double steal0 = steal_ms();
    st = socmon_sampler_run(t, set, &o, NULL, after_read, NULL, &s);
    uint64_t wall = mono_ns() - w0;
    double steal = steal_ms() - steal0;
    if (st) {
        fprintf(stderr, "bench_zynq_sampling: %s\n", socmon_errmsg());
        return 1;
    }
    size_t n = R.n;
    double mean_cost = 0;
    for (size_t i = 0; i < n; i++)
        mean_cost += (double)R.cost[i];
    mean_cost /= n ? (double)n : 1;
    qsort(R.late, n, sizeof *R.late, cmp_u64);
    qsort(R.cost, n, sizeof *R.cost, cmp_u64);
    printf("samples %llu (expected %llu), missed %llu, wall %.3f s\n",
           (unsigned long long)s.samples, (unsigned long long)(seconds * 1000000 / interval_us + 1),
           (unsigned long long)s.missed, (double)wall / 1e9);
    printf("jitter (sampler wake-up lateness): max %.1f us, mean %.1f us\n",
           (double)s.jitter_max_ns / 1e3, s.jitter_mean_ns / 1e3);
    printf("jitter (measured at advance): p50 %.1f us, p99 %.1f us, max %.1f us\n",
           pct(R.late, n, 0.50) / 1e3, pct(R.late, n, 0.99) / 1e3, pct(R.late, n, 1.0) / 1e3);
    printf("per interval (model advance + driver read of all counters): mean %.1f us, p99 %.1f us, "
           "max %.1f us\n",
           mean_cost / 1e3, pct(R.cost, n, 0.99) / 1e3, pct(R.cost, n, 1.0) / 1e3);
    if (steal0 >= 0)
        printf("host: %.0f ms of CPU time stolen by the hypervisor during the run (all CPUs)\n",
               steal);
    free(R.late);
    free(R.cost);
    socmon_set_free(set);
    socmon_target_close(t);
    return 0;
}
