/* Counter sets (a selection of a device's counters) and samples of them. */
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "socmon/delta.h"
#include "socmon/sample.h"

struct socmon_set {
    socmon_device *dev;
    uint32_t *idx;
    uint8_t *width;       /* per selected counter, so a diff needs no device lookups */
    size_t n;
};

/* Appends every counter matching pat not already selected; returns how many matched. */
static size_t select_pattern(socmon_set *s, const char *pat, unsigned char *taken)
{
    size_t matched = 0, total = socmon_device_ncounters(s->dev);
    for (size_t i = 0; i < total; i++) {
        if (fnmatch(pat, socmon_device_full_name(s->dev, i), 0) != 0)
            continue;
        matched++;
        if (!taken[i]) {
            taken[i] = 1;
            s->idx[s->n++] = (uint32_t)i;
        }
    }
    return matched;
}

socmon_status socmon_set_new(socmon_device *dev, const char *patterns, socmon_set **out)
{
    if (!out)
        return socmon_fail(SOCMON_EINVAL, "socmon_set_new: out is NULL");
    *out = NULL;
    if (!dev)
        return socmon_fail(SOCMON_EINVAL, "socmon_set_new: device is NULL");
    size_t total = socmon_device_ncounters(dev);
    socmon_set *s = calloc(1, sizeof *s);
    unsigned char *taken = calloc(total + 1, 1);
    char *copy = strdup(patterns ? patterns : "");
    if (!s || !taken || !copy || !(s->idx = malloc((total + 1) * sizeof *s->idx))) {
        free(taken);
        free(copy);
        socmon_set_free(s);
        return socmon_fail(SOCMON_ENOMEM, "socmon_set_new: out of memory");
    }
    s->dev = dev;
    socmon_status st = SOCMON_OK;
    if (!*copy) {
        select_pattern(s, "*", taken);
    } else {
        char *save = NULL;
        for (char *p = strtok_r(copy, ",", &save); p; p = strtok_r(NULL, ",", &save)) {
            while (*p == ' ')
                p++;
            if (!*p)
                continue;
            if (select_pattern(s, p, taken) == 0) {
                st = socmon_fail(SOCMON_ENOENT, "counter pattern '%s' matches no counter of device '%s' "
                                 "(try `socmon list counters`)", p, socmon_device_name(dev));
                break;
            }
        }
    }
    free(taken);
    free(copy);
    if (st == SOCMON_OK && s->n == 0)
        st = socmon_fail(SOCMON_ENOENT, "device '%s' has no counters", socmon_device_name(dev));
    if (st == SOCMON_OK && !(s->width = malloc(s->n)))
        st = socmon_fail(SOCMON_ENOMEM, "socmon_set_new: out of memory");
    for (size_t i = 0; st == SOCMON_OK && i < s->n; i++)
        s->width[i] = (uint8_t)socmon_device_counter(dev, s->idx[i])->width;
    if (st != SOCMON_OK) {
        socmon_set_free(s);
        return st;
    }
    *out = s;
    return SOCMON_OK;
}

void socmon_set_free(socmon_set *set)
{
    if (!set)
        return;
    free(set->idx);
    free(set->width);
    free(set);
}

size_t socmon_set_size(const socmon_set *set)
{
    return set ? set->n : 0;
}

socmon_device *socmon_set_device(const socmon_set *set)
{
    return set ? set->dev : NULL;
}

uint32_t socmon_set_index(const socmon_set *set, size_t i)
{
    return set && i < set->n ? set->idx[i] : UINT32_MAX;
}

const socmon_counter *socmon_set_counter(const socmon_set *set, size_t i)
{
    return set && i < set->n ? socmon_device_counter(set->dev, set->idx[i]) : NULL;
}

const char *socmon_set_full_name(const socmon_set *set, size_t i)
{
    return set && i < set->n ? socmon_device_full_name(set->dev, set->idx[i]) : NULL;
}

socmon_status socmon_sample_alloc(const socmon_set *set, socmon_sample *s)
{
    if (!set || !s)
        return socmon_fail(SOCMON_EINVAL, "socmon_sample_alloc: NULL argument");
    memset(s, 0, sizeof *s);
    s->v = calloc(set->n ? set->n : 1, sizeof *s->v);
    if (!s->v)
        return socmon_fail(SOCMON_ENOMEM, "socmon_sample_alloc: out of memory");
    s->n = set->n;
    return SOCMON_OK;
}

void socmon_sample_free(socmon_sample *s)
{
    if (!s)
        return;
    free(s->v);
    s->v = NULL;
    s->n = 0;
}

socmon_status socmon_set_read(socmon_set *set, uint64_t t_ns, socmon_sample *s)
{
    if (!set || !s || !s->v)
        return socmon_fail(SOCMON_EINVAL, "socmon_set_read: NULL argument");
    if (s->n != set->n)
        return socmon_fail(SOCMON_EINVAL, "socmon_set_read: sample holds %zu values, set has %zu counters",
                           s->n, set->n);
    s->t_ns = t_ns;
    s->flags = 0;
    s->missed = 0;
    socmon_status st = socmon_device_read(set->dev, set->idx, set->n, s->v);
    if (st == SOCMON_EUNDEF)
        s->flags |= SOCMON_SAMPLE_UNDEF;
    return st;
}

socmon_status socmon_set_diff(const socmon_set *set, const socmon_sample *a, const socmon_sample *b,
                              uint64_t *deltas)
{
    if (!set || !a || !b || !deltas)
        return socmon_fail(SOCMON_EINVAL, "socmon_set_diff: NULL argument");
    if (a->n != set->n || b->n != set->n)
        return socmon_fail(SOCMON_EINVAL, "socmon_set_diff: samples hold %zu and %zu values, set has %zu",
                           a->n, b->n, set->n);
    for (size_t i = 0; i < set->n; i++)
        deltas[i] = socmon_delta(a->v[i], b->v[i], set->width[i]);
    return SOCMON_OK;
}
