/* Clock readings in seconds; see clock.h. */
#include "support/clock.h"

double clock_seconds(clockid_t c)
{
    struct timespec ts;
    clock_gettime(c, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}
