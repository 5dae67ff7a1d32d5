/* The fixture the ESP register tests share: the default virtual SoC mapped on
 * a model bus at its monitor base. Public headers only, so the public-API
 * test can use it too. */
#ifndef SOCMON_TESTS_ESP_FIXTURE_H
#define SOCMON_TESTS_ESP_FIXTURE_H

#include <string.h>

#include "socmon/bus.h"
#include "socmon/esp.h"

typedef struct fx {
    socmon_esp_soc_desc d;
    socmon_esp_soc *soc;
    socmon_bus *bus;
    unsigned cpu, mem, acc;   /* tile indices, for tests that look them up */
} fx;

/* Returns 0, or -1 as a cmocka setup does. */
static inline int fx_open(fx *f)
{
    memset(f, 0, sizeof *f);
    socmon_esp_soc_desc_default(&f->d);
    if (socmon_esp_soc_new(&f->d, &f->soc) != SOCMON_OK || socmon_bus_model_new(&f->bus) != SOCMON_OK ||
        socmon_esp_soc_map(f->soc, f->bus) != SOCMON_OK)
        return -1;
    return 0;
}

static inline int teardown(void **state)
{
    fx *f = *state;
    socmon_bus_free(f->bus);
    socmon_esp_soc_free(f->soc);
    return 0;
}

#endif
