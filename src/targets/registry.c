/* The built-in targets. Each target file defines one socmon_target_ops. */
#include <stddef.h>
#include <string.h>

#include "socmon/target.h"

/* One extern and one table entry per target. */
/* TARGET-EXTERNS */
extern const socmon_target_ops smn_target_esp_ops;
extern const socmon_target_ops smn_target_zynq_ops;
extern const socmon_target_ops smn_target_tensix_ops;
extern const socmon_target_ops smn_target_ibex_ops;
extern const socmon_target_ops smn_target_host_ops;

static const socmon_target_ops *const builtin[] = {
    /* TARGET-ENTRIES */
    &smn_target_esp_ops,
    &smn_target_zynq_ops,
    &smn_target_tensix_ops,
    &smn_target_ibex_ops,
    &smn_target_host_ops,
    NULL
};

size_t socmon_target_count(void)
{
    return sizeof builtin / sizeof builtin[0] - 1;
}

const socmon_target_ops *socmon_target_at(size_t i)
{
    return i < socmon_target_count() ? builtin[i] : NULL;
}

const socmon_target_ops *socmon_target_lookup(const char *name)
{
    if (!name)
        return NULL;
    for (size_t i = 0; i < socmon_target_count(); i++)
        if (strcmp(builtin[i]->name, name) == 0)
            return builtin[i];
    return NULL;
}

const socmon_target_ops *socmon_target_with_caps(unsigned caps)
{
    for (size_t i = 0; i < socmon_target_count(); i++)
        if ((builtin[i]->caps & caps) == caps)
            return builtin[i];
    return NULL;
}
