/* Internal: which instance of one run pairs with which of the other (diff.c). Two runs of one
 * layout pair by name; runs of two layouts (ESP 2x3 against 4x4) pair their tiles by what they
 * are, never by index, so a memory tile is never compared with an accelerator. */
#ifndef SOCMON_ANALYSIS_DIFF_PAIRING_H
#define SOCMON_ANALYSIS_DIFF_PAIRING_H

#include "socmon/compare.h"

typedef struct smn_pairing {
    const char *mode;      /* "name", "coordinates" or "kind" (static text) */
    char **ka, **kb;       /* per value of a and of b: the key it pairs by (malloc'd) */
    size_t na, nb;
    char *note;            /* which tile paired with which; NULL when by name */
    char **warnings;       /* sentences, each without a final newline */
    size_t nwarnings, wcap;
} smn_pairing;

socmon_status smn_pairing_make(const socmon_run *a, const socmon_run *b, smn_pairing *p);
void smn_pairing_free(smn_pairing *p);

#endif
