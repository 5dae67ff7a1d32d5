/* Which workload phase a timeline row belongs to (the phase column of report). */
#include "export/output.h"

const char *smn_row_phase(const socmon_phase *p, size_t n, uint64_t t_ns)
{
    if (!p || !n)
        return NULL;
    const socmon_phase *at = socmon_phase_at(p, n, t_ns ? t_ns - 1 : 0);
    return at ? at->name : "";
}
