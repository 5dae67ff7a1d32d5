/* The agent's main thread while it serves (agent.h): the run's end said once, an exit when
 * drained, and its own cost at the close. */
#include <stdio.h>
#include <time.h>

#include "agent/agent.h"

int agent_wait(agent *ag, int exit_when_drained, int (*should_stop)(void *user), void *user,
               void (*say)(void *user, const char *line))
{
    int said_end = 0;
    char line[768];
    while (!should_stop(user)) {
        char why[512];
        if (agent_failed(ag, why, sizeof why)) {   /* nothing serves the collectors any more */
            say(user, why);
            return 1;
        }
        if (agent_run_ended(ag) && !said_end) {
            char msg[512];
            if (agent_run_status(ag, msg, sizeof msg) != SOCMON_OK) {
                say(user, msg);
                return 1;
            }
            agent_stats s;
            agent_get_stats(ag, &s);
            snprintf(line, sizeof line, "run ended (%s) after %llu samples; %s", msg, (unsigned long long)s.samples,
                     exit_when_drained ? "exiting once collectors have it all" : "serving the ring until SIGINT/SIGTERM");
            say(user, line);
            said_end = 1;
        }
        if (exit_when_drained && agent_drained(ag))
            return 0;
        nanosleep(&(struct timespec){0, 20 * 1000000L}, NULL);
    }
    return -1;
}

void agent_cost_line(agent *ag, char *buf, size_t len)
{
    agent_stats s;
    agent_get_stats(ag, &s);
    double n = s.samples ? (double)s.samples : 1;
    snprintf(buf, len, "%llu samples; sampling thread CPU %.2f us/sample (%.3f s); %.1f bus accesses/sample; %llu bytes "
             "sent; %llu collectors (%llu refused or dropped); %llu samples overwritten before a collector read them",
             (unsigned long long)s.samples, (double)s.cpu_ns / n / 1e3, (double)s.cpu_ns / 1e9,
             (double)s.bus_accesses / n, (unsigned long long)s.bytes_sent, (unsigned long long)s.clients_total,
             (unsigned long long)s.refused, (unsigned long long)s.overwritten);
}
