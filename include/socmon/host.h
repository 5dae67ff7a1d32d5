/* The host target ("host"): the Linux machine socmon runs on, counted through
 * perf_event (socmon/perf.h), as `perf stat` counts it.
 *
 * With a command, the target forks it held before exec, opens the events on it
 * with enable_on_exec (and inherit, so its children and threads count too), and
 * socmon_target_start releases it: the counts cover exactly the command. The
 * run ends when the command exits; socmon_host_target_status gives how. Without
 * a command the target counts every CPU (-a) for the duration the caller gives.
 *
 * Options (in a spec, list items are separated by '+'; through
 * socmon_target_open_kv, ',' works too):
 *   events=LIST   perf event names (default: perf stat's list: task-clock,
 *                 context-switches, cpu-migrations, page-faults, cycles,
 *                 instructions, branches, branch-misses); {a+b} groups them
 *   cpus=LIST     count these CPUs (perf's -C), e.g. 0-3+6 or 0-3,6
 *   all=1         count every CPU (perf's -a); implied without a command
 *   inherit=0|1   count the command's children and threads (default 1)
 *   no_rdpmc=1    always read(), never rdpmc
 *   command=...   the command, its words separated by the byte 0x1f (what
 *                 socmon_host_target_open builds from an argv)
 *
 * Events this machine cannot count are listed by socmon_perf_device_unsupported
 * on socmon_target_device(t); the run goes on with the others. */
#ifndef SOCMON_HOST_H
#define SOCMON_HOST_H

#include "socmon/export.h"

#include "socmon/target.h"

SOCMON_BEGIN_DECLS

/* Opens spec (a "host" spec, NULL for "host") with extra options, running argv
 * (NULL-terminated; NULL or empty: no command). */
socmon_status socmon_host_target_open(const char *spec, const socmon_kv *extra, size_t nextra,
                                      char *const argv[], socmon_target **out);
/* How the command ended, as waitpid(2) reports it: SOCMON_OK and *wstatus once it has
 * exited (the run is over), SOCMON_ESTATE while it runs or if t has no command. */
socmon_status socmon_host_target_status(const socmon_target *t, int *wstatus);
/* The errno of a command that could not be executed (ENOENT: not found, EACCES: not
 * executable), 0 if it was executed or has not been started. */
int socmon_host_target_exec_errno(const socmon_target *t);
/* The command's process id (0 if none). */
int socmon_host_target_pid(const socmon_target *t);

SOCMON_END_DECLS
#endif
