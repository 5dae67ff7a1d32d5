/* socmon in a few lines: count DDR accesses and L2 hits of the virtual ESP SoC
 * over its multifft workload, then evaluate the target's metrics. */
#include <stdio.h>
#include <stdlib.h>

#include <socmon/socmon.h>

static int die(const char *what)
{
    fprintf(stderr, "quickstart: %s: %s\n", what, socmon_errmsg());
    return 1;
}

int main(void)
{
    socmon_target *t;
    socmon_set *set;
    socmon_sample before, after;
    if (socmon_target_open("esp", &t) != SOCMON_OK)
        return die("open");
    if (socmon_set_new(socmon_target_device(t), "tile*.ddr_accesses,tile*.l2_*", &set) != SOCMON_OK)
        return die("select");
    socmon_sample_alloc(set, &before);
    socmon_sample_alloc(set, &after);

    /* multifft lasts milliseconds of simulated time, far below the 32-bit
     * wrap period, so two readings suffice. For long runs use
     * socmon_sampler_run, which sums per-interval deltas. */
    socmon_target_start(t, "multifft");
    socmon_set_read(set, socmon_target_now_ns(t), &before);
    for (int done = 0; !done;)
        if (socmon_target_advance(t, 100000, &done) != SOCMON_OK)
            return die("advance");
    socmon_set_read(set, socmon_target_now_ns(t), &after);

    size_t n = socmon_set_size(set);
    uint64_t *d = calloc(n, sizeof *d);
    socmon_set_diff(set, &before, &after, d);
    for (size_t i = 0; i < n; i++)
        printf("%-24s %llu\n", socmon_set_full_name(set, i), (unsigned long long)d[i]);
    printf("simulated time: %.3f ms\n", (double)(after.t_ns - before.t_ns) / 1e6);

    free(d);
    socmon_sample_free(&before);
    socmon_sample_free(&after);
    socmon_set_free(set);
    socmon_target_close(t);
    return 0;
}
