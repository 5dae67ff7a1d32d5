/* socmon list: what can be measured. */
#include <getopt.h>
#include <string.h>

#include "cli/help.h"
#include "cli/cli.h"
#include "export/counter_list.h"
#include "results/catalog.h"

static void help(FILE *fp)
{
    cli_help_intro(fp, "list");
}

static socmon_status list_counters(const char *target, const char *events, int json)
{
    socmon_target *t = NULL;
    socmon_set *set = NULL;
    socmon_status st = socmon_target_open(target, &t);
    if (st == SOCMON_OK && (st = socmon_set_new(socmon_target_device(t), events, &set)) == SOCMON_OK)
        st = smn_counter_list_write(stdout, socmon_target_spec(t), socmon_target_device(t), set, json);
    socmon_set_free(set);
    socmon_target_close(t);
    return st;
}

int cmd_list(int argc, char **argv)
{
    static const struct option opts[] = {
        {"target", required_argument, 0, 't'}, {"events", required_argument, 0, 'e'},
        {"json", no_argument, 0, 'J'}, {"help", no_argument, 0, 'h'}, {0, 0, 0, 0}};
    const char *target = SOCMON_DEFAULT_TARGET, *events = NULL;
    int c, json = 0;
    optind = 1;
    while ((c = getopt_long(argc, argv, "t:e:h", opts, NULL)) != -1) {
        switch (c) {
        case 't': target = optarg; break;
        case 'e': events = optarg; break;
        case 'J': json = 1; break;
        case 'h': help(stdout); return 0;
        default: help(stderr); return 2;
        }
    }
    const char *what = optind < argc ? argv[optind] : "targets";
    if (optind + 1 < argc) {
        fprintf(stderr, "socmon: list: unexpected argument '%s'\n", argv[optind + 1]);
        return 2;
    }
    if (strcmp(what, "targets") == 0) {
        smn_catalog_targets(stdout);
        return 0;
    }
    if (json && strcmp(what, "counters") != 0) {
        fprintf(stderr, "socmon: list: --json is for 'list counters', not '%s'\n", what);
        return 2;
    }
    int kind = strcmp(what, "counters") == 0 ? 1 : strcmp(what, "metrics") == 0 ? 2 : strcmp(what, "workloads") == 0 ? 3
             : socmon_target_lookup(what) ? 4 : 0;
    if (!kind) {
        fprintf(stderr, "socmon: list: unknown list '%s' (targets, a target's name, counters, metrics, workloads)\n", what);
        return 2;
    }
    socmon_status st = kind == 1 ? list_counters(target, events, json)
                       : kind == 2 ? smn_catalog_metrics(stdout, target)
                       : kind == 3 ? smn_catalog_workloads(stdout, target) : SOCMON_OK;
    if (kind == 4)
        smn_catalog_target(stdout, socmon_target_lookup(what));
    return st == SOCMON_OK ? 0 : cli_error("list", st);
}
