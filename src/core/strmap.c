/* A string -> index map: open addressing, linear probing, at most half full
 * (strmap.h says why it exists). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/strmap.h"

/* FNV-1a, then a final mix: the table's index is the hash's low bits, and in
 * FNV's product those depend only on the low bits of each step; the mix lets
 * the high bits count too. */
static size_t hash_str(const char *s)
{
    uint64_t h = 1469598103934665603u;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211u;
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdu;
    h ^= h >> 33;
    return (size_t)h;
}

/* The slot holding key, or the empty slot where it would go (the table is
 * never full, so the probe ends). */
static smn_strmap_slot *probe(const smn_strmap *m, const char *key, size_t h)
{
    size_t mask = m->nslot - 1;
    for (size_t i = h & mask;; i = (i + 1) & mask) {
        smn_strmap_slot *s = &m->slot[i];
        if (!s->key || (s->hash == h && strcmp(s->key, key) == 0))
            return s;
    }
}

void smn_strmap_free(smn_strmap *m)
{
    if (!m)
        return;
    free(m->slot);
    m->slot = NULL;
    m->nslot = 0;
    m->n = 0;
}

int smn_strmap_reserve(smn_strmap *m, size_t n)
{
    if (n <= m->nslot / 2)
        return 0;
    size_t nslot = m->nslot ? m->nslot : 16;
    while (nslot / 2 < n) {
        if (nslot > SIZE_MAX / 2 / sizeof *m->slot)
            return -1;
        nslot *= 2;
    }
    smn_strmap_slot *old = m->slot;
    size_t nold = m->nslot;
    smn_strmap_slot *ns = calloc(nslot, sizeof *ns);
    if (!ns)
        return -1;
    m->slot = ns;
    m->nslot = nslot;
    for (size_t i = 0; i < nold; i++)
        if (old[i].key)
            *probe(m, old[i].key, old[i].hash) = old[i];
    free(old);
    return 0;
}

int smn_strmap_insert(smn_strmap *m, const char *key, size_t value, size_t *found)
{
    size_t h = hash_str(key);
    if (m->nslot) {
        smn_strmap_slot *s = probe(m, key, h);
        if (s->key) {
            if (found)
                *found = s->value;
            return 0;
        }
    }
    if (m->n == SIZE_MAX || smn_strmap_reserve(m, m->n + 1))
        return -1;
    *probe(m, key, h) = (smn_strmap_slot){key, h, value};
    m->n++;
    return 1;
}

int smn_strmap_find(const smn_strmap *m, const char *key, size_t *value)
{
    if (!m->nslot)
        return 0;
    const smn_strmap_slot *s = probe(m, key, hash_str(key));
    if (!s->key)
        return 0;
    if (value)
        *value = s->value;
    return 1;
}
