/* Regions: a program measuring two parts of itself, in two threads, with socmon's region API.
 *
 *   SOCMON_REGIONS=regions.smr ./example_regions     # measured (without it: every call is a no-op)
 *   socmon report -i regions.smr --summary            # per region: task_clock, page_faults, calls, time_ns
 *
 * "fill" touches fresh memory (page faults), "sum" reads it back; "work" holds both. */
/* madvise and MAP_ANONYMOUS are POSIX extensions a plain -std=c11 build hides */
#ifndef _DEFAULT_SOURCE
#define _DEFAULT_SOURCE
#endif
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>

#include <socmon/region.h>

#define PAGES 256

static socmon_regions *regions;

static void *work(void *arg)
{
    (void)arg;
    socmon_region_begin(regions, "work");
    socmon_region_begin(regions, "fill");
    /* fresh pages, without transparent huge pages: one page fault each */
    char *p = mmap(NULL, PAGES * 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
        p = NULL;
    else
        madvise(p, PAGES * 4096, MADV_NOHUGEPAGE);
    for (int i = 0; p && i < PAGES * 4096; i += 4096)
        p[i] = (char)i;
    socmon_region_end(regions, "fill");
    socmon_region_begin(regions, "sum");
    long s = 0;
    for (int i = 0; p && i < PAGES * 4096; i += 4096)
        s += p[i];
    socmon_region_end(regions, "sum");
    socmon_region_end(regions, "work");
    if (p)
        munmap(p, PAGES * 4096);
    return (void *)(long)(s & 1);
}

int main(void)
{
    if (socmon_regions_open_env(&regions) != SOCMON_OK) {
        fprintf(stderr, "example_regions: %s\n", socmon_errmsg());
        return 1;
    }
    pthread_t t[2];
    for (int i = 0; i < 2; i++)
        pthread_create(&t[i], NULL, work, NULL);
    for (int i = 0; i < 2; i++)
        pthread_join(t[i], NULL);
    if (socmon_regions_close(regions) != SOCMON_OK) {
        fprintf(stderr, "example_regions: %s\n", socmon_errmsg());
        return 1;
    }
    printf("regions: %s\n", regions ? "written" : "off (set SOCMON_REGIONS=FILE to measure)");
    return 0;
}
