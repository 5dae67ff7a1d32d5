/* socmon: performance monitors of SoCs, accelerators and CPUs, from the command line. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"

static const struct {
    const char *name;
    int (*fn)(int, char **);
    const char *help;
} commands[] = {
    {"list", cmd_list, "list targets, counters, metrics and workloads"},
    {"read", cmd_read, "read one snapshot of counter values"},
    {"stat", cmd_stat, "count over a workload: counter deltas, metrics, hot spots"},
    {"record", cmd_record, "sample every interval into a recording, with a live line per interval"},
    {"report", cmd_report, "show a recording: per-interval metrics or a summary"},
    {"diff", cmd_diff, "compare two runs (recordings or stat's JSON) value by value"},
    {"check", cmd_check, "gate changes between two runs by rules (exit 1 when one fails): for CI"},
    {"sweep", cmd_sweep, "one stat per point of a grid of target options x workloads x programs: one table"},
    {"agent", cmd_agent, "sample on the target and serve collectors over TCP (record/stat --remote)"},
    {"serve", cmd_serve, "live charts of a run in a web browser, and /metrics for Prometheus"},
};

static void usage(FILE *fp)
{
    fprintf(fp,
            "usage: socmon [--version] [--help] <command> [<args>]\n\n"
            "Reads hardware performance monitors through their register protocol, on silicon or\n"
            "on socmon's register-accurate models (the default target is the built-in virtual\n"
            "ESP SoC, so everything works with no hardware).\n\ncommands:\n");
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        fprintf(fp, "  %-8s %s\n", commands[i].name, commands[i].help);
    fprintf(fp, "\nRun 'socmon <command> --help' for a command's options.\n"
                "Typical: socmon stat -t esp -w multifft\n"
                "         socmon record -t esp -I 200us -o run.rec && socmon report -i run.rec\n");
}

/* Output a command printed straight to stdout (listings, status lines) is checked here, once:
 * a full disk or a closed pipe is an error, never exit status 0. The output formats check
 * their own writes and have reported them already when rc is not 0. */
static int finish(int rc)
{
    errno = 0;
    if (rc == 0 && (fflush(stdout) != 0 || ferror(stdout))) {
        fprintf(stderr, "socmon: writing stdout: %s\n", strerror(errno ? errno : EIO));
        return 1;
    }
    return rc;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "help") == 0) {
        usage(stdout);
        return 0;
    }
    if (strcmp(argv[1], "--version") == 0) {
        printf("socmon %s\n", SOCMON_VERSION);
        return 0;
    }
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (strcmp(argv[1], commands[i].name) == 0)
            return finish(commands[i].fn(argc - 1, argv + 1));
    fprintf(stderr, "socmon: unknown command '%s'\n\n", argv[1]);
    usage(stderr);
    return 2;
}
