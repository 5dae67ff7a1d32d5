/* A target's counters as `socmon list counters` shows them: a table of name, width, unit and
 * description with a count line, or (json) one JSON document, {"target", "device", ["index",]
 * "counters": [...]}, each counter with the vendor's number for it where the device has one
 * (ESP's "monitor"; null for a model-only counter). */
#ifndef SOCMON_EXPORT_COUNTER_LIST_H
#define SOCMON_EXPORT_COUNTER_LIST_H

#include <stdio.h>
#include "socmon/sample.h"

socmon_status smn_counter_list_write(FILE *fp, const char *spec, const socmon_device *dev, socmon_set *set, int json);

#endif
