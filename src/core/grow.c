/* Growable arrays: see core/grow.h. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/grow.h"

int smn_grow(void *arrp, size_t *cap, size_t n, size_t elem, size_t first)
{
    if (n < *cap)
        return 0;
    size_t c = *cap ? *cap * 2 : first;
    if (c < *cap || elem == 0 || c > SIZE_MAX / elem)
        return -1;
    /* The array pointer is copied in and out bytewise: arrp points at a
     * pointer of the caller's element type, not at a void pointer. */
    void *old;
    memcpy(&old, arrp, sizeof old);
    void *p = realloc(old, c * elem);
    if (!p)
        return -1;
    memcpy(arrp, &p, sizeof p);
    *cap = c;
    return 0;
}
