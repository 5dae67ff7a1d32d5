/* Internal: growable arrays. Every growing array in socmon (regions of a
 * model bus, device parameters, metric definitions, timeline chunks, table
 * rows, workload scripts) makes room the same way: double the capacity,
 * starting from a first size, and leave the array untouched when memory
 * runs out, so the caller's error path frees what it had. */
#ifndef SOCMON_CORE_GROW_H
#define SOCMON_CORE_GROW_H

#include <stddef.h>

/* Room for one more element when n == *cap: *arrp (a pointer to the array
 * pointer) is reallocated to twice *cap (or `first`) elements of elem
 * bytes. Returns 0, or -1 when out of memory or the size would overflow. */
int smn_grow(void *arrp, size_t *cap, size_t n, size_t elem, size_t first);

/* SOCMON_GROW(dev->p, dev->pcap, dev->np, 8): the same for an array field. */
#define SOCMON_GROW(arr, cap, n, first) smn_grow(&(arr), &(cap), (n), sizeof *(arr), (first))

#endif
