/* Internal to the host target: the command it counts, forked and held before
 * exec until the counters are on it. */
#ifndef SOCMON_TARGETS_HOST_CHILD_H
#define SOCMON_TARGETS_HOST_CHILD_H

#include <stdint.h>
#include <sys/types.h>
#include "socmon/status.h"

typedef struct host_child {
    pid_t pid;         /* 0: none */
    int go_fd;         /* write end: one byte releases the child into exec */
    int err_fd;        /* read end: the exec's errno if it fails; EOF once it succeeded */
    int pidfd;         /* -1 where pidfd_open is missing */
    int started, exited, wstatus, exec_errno;
} host_child;

/* Forks argv[0] with argv, held before exec. */
socmon_status smn_host_child_fork(host_child *c, char *const argv[]);
/* Releases it; fails with the exec's errno (SOCMON_ENOENT / SOCMON_EPERM) if exec failed. */
socmon_status smn_host_child_start(host_child *c);
/* Reaps it if it has exited (no waiting): 1 if it has exited. */
int smn_host_child_poll(host_child *c);
/* Waits until it exits or CLOCK_MONOTONIC reaches deadline_ns: 1 if it exited. */
int smn_host_child_wait(host_child *c, uint64_t deadline_ns);
/* Ends a child still there (a held one is released into _exit; a running one gets SIGTERM,
 * then SIGKILL after a second) and reaps it; closes the descriptors. */
void smn_host_child_end(host_child *c);

#endif
