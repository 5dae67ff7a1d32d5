/* The fixture the ESP register tests share: the default virtual SoC mapped on
 * a model bus at its monitor base, as a user gets it: an opened "esp" target,
 * its bus and its model. Public headers only, so the public-API test can use
 * it too. */
#ifndef SOCMON_TESTS_ESP_FIXTURE_H
#define SOCMON_TESTS_ESP_FIXTURE_H

#include <string.h>

#include "socmon/bus.h"
#include "socmon/esp.h"
#include "socmon/target.h"

typedef struct fx {
    socmon_esp_soc_desc d;
    socmon_target *t;
    socmon_esp_soc *soc;
    socmon_bus *bus;
    unsigned cpu, mem, acc;   /* tile indices, for tests that look them up */
} fx;

/* Returns 0, or -1 as a cmocka setup does. */
static inline int fx_open(fx *f)
{
    memset(f, 0, sizeof *f);
    socmon_esp_soc_desc_default(&f->d);
    if (socmon_target_open("esp", &f->t) != SOCMON_OK)
        return -1;
    f->soc = socmon_esp_soc_of_target(f->t);
    f->bus = socmon_target_bus(f->t);
    return f->soc && f->bus ? 0 : -1;
}

static inline int teardown(void **state)
{
    fx *f = *state;
    socmon_target_close(f->t);
    return 0;
}

#endif
