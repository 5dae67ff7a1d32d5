/* The CLI's one signal flag (see stop.h). A flag, because a handler may do almost nothing safely;
 * the run notices it at its next sample, at most one interval later (the realtime sampler's
 * clock_nanosleep resumes after EINTR until its deadline). */
#include "cli/stop.h"

#include <signal.h>
#include <string.h>

static volatile sig_atomic_t stop_sig;

static void on_signal(int sig)
{
    stop_sig = sig;
}

void cli_stop_install(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    /* SA_RESTART: output writes in progress are not cut short by EINTR. SA_RESETHAND: the second
     * signal takes the default action, so a stop that takes too long can still be forced. */
    sa.sa_flags = SA_RESTART | SA_RESETHAND;
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
}

int cli_stop_signal(void)
{
    return stop_sig;
}

const char *cli_stop_name(void)
{
    return stop_sig == SIGINT ? "SIGINT" : stop_sig == SIGTERM ? "SIGTERM" : "a signal";
}

socmon_status cli_stop_status(void)
{
    return socmon_fail(SOCMON_ESTATE, "stopped by %s", cli_stop_name());
}

int cli_stop_exit_code(void)
{
    return stop_sig ? 128 + stop_sig : 0;
}
