/* Internal to src/targets: the host target's list_events op (host_events.c). */
#ifndef SOCMON_TARGETS_HOST_EVENTS_H
#define SOCMON_TARGETS_HOST_EVENTS_H

#include <stdio.h>

void smn_host_list_events(FILE *fp);

#endif
