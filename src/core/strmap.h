/* Internal: a map from strings to indices, for the places that must find or
 * refuse a name among very many (a metric file holds up to ~300,000 metrics;
 * comparing each name with every earlier one took minutes).
 *
 * Open addressing with linear probing, kept at most half full, so a lookup
 * or an insert costs O(1) on average. Keys are borrowed: the map stores the
 * caller's pointers, which must stay valid and unchanged while it is used
 * (strings owned by the structure the map indexes). Each map is a value of
 * its own; nothing is shared between maps. */
#ifndef SOCMON_CORE_STRMAP_H
#define SOCMON_CORE_STRMAP_H

#include <stddef.h>

typedef struct smn_strmap_slot {
    const char *key;   /* NULL: empty */
    size_t hash;
    size_t value;
} smn_strmap_slot;

typedef struct smn_strmap {
    smn_strmap_slot *slot;
    size_t nslot;      /* 0 or a power of 2 */
    size_t n;          /* keys held */
} smn_strmap;

/* An empty map; zero-initialising one ({0}) is the same. */
#define SOCMON_STRMAP_INIT {NULL, 0, 0}

/* Frees the table; the map is empty again and may be reused. */
void smn_strmap_free(smn_strmap *m);

/* Makes room for n keys in all, so that many inserts allocate nothing more.
 * 0, or -1 when out of memory (the map is unchanged). */
int smn_strmap_reserve(smn_strmap *m, size_t n);

/* Adds key -> value unless key is there already. Returns 1 when added; 0
 * when key was there (*found, if not NULL, gets the value it has, which is
 * kept: the first definition wins); -1 when out of memory (map unchanged). */
int smn_strmap_insert(smn_strmap *m, const char *key, size_t value, size_t *found);

/* 1 and *value (if not NULL) when key is in the map, else 0. */
int smn_strmap_find(const smn_strmap *m, const char *key, size_t *value);

#endif
