/* faults PAGES: touches PAGES fresh pages of anonymous memory, one page fault each, so that
 * `socmon stat -e page-faults` over it counts about PAGES more faults than over `true`.
 * socmon diff's host test runs it with N and 2N pages. */
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    long pages = argc > 1 ? strtol(argv[1], NULL, 10) : 0, size = sysconf(_SC_PAGESIZE);
    if (pages <= 0 || pages > 1000000 || size <= 0) {
        fprintf(stderr, "usage: faults PAGES (1..1000000)\n");
        return 2;
    }
    volatile char *p = mmap(NULL, (size_t)(pages * size), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) {
        perror("faults: mmap");
        return 1;
    }
    for (long i = 0; i < pages; i++)
        p[i * size] = 1;
    return 0;
}
