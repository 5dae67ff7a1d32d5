/* One getopt table for every subcommand; each says which options it takes. */
#include <getopt.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cli/help.h"
#include "cli/opts.h"
#include "cli/opts_table.h"
#include "results/catalog.h"
#include "core/argv.h"

static int parse_opts(int argc, char **argv, cli_optmask allowed, void (*help)(FILE *), cli_opts *o);


void cli_help_opts(FILE *fp, cli_optmask allowed)
{
    for (size_t i = 0; i < cli_nopts; i++) {
        size_t len = 0;
        const char *text = cli_opt_table[i].bit & allowed ? cli_help_option(cli_opt_table[i].key, &len) : NULL;
        if (text) {
            fputs("  ", fp);
            cli_help_write(fp, text, len);
            fputs("\n", fp);
        }
    }
    if (allowed & OPT_PROGRAM)
        fprintf(fp, "  -- COMMAND [ARGS...]  the command to count on the host (-t host, the default with a\n"
                    "                        command); its output is its own, socmon's goes to stderr\n"
                    "  -- PROGRAM.elf        with -t ibex: the program the core runs (options may follow it)\n");
    if (allowed & OPT_TARGET)
        fprintf(fp, "  -h, --help            this help (with -t NAME: also NAME's options)\n");
    else
        fprintf(fp, "  -h, --help            this help\n");
}

/* --help: the command's help, and with -t SPEC (before or after --help) the
 * options of that target, from the table its parser uses. */
static int show_help(void (*help)(FILE *), const char *cmd, const char *spec)
{
    help(stdout);
    socmon_status st = spec ? smn_catalog_options(stdout, spec) : SOCMON_OK;
    if (st == SOCMON_ENOENT)
        fprintf(stderr, "socmon %s: %s\n", cmd, socmon_errmsg());
    return st == SOCMON_ENOENT ? 2 : 0;
}

/* '-- PROGRAM' anywhere: takes the program out of argv (into args, which has room for argc + 1
 * pointers) so options may follow it ("record -- prog.elf -o run.rec"). Returns the new argc,
 * or -1 after printing a usage error. */
static int take_program(int argc, char **argv, cli_optmask allowed, char **args, const char **program)
{
    int n = 0;
    *program = NULL;
    for (int i = 0; i < argc; i++) {
        if (strcmp(argv[i], "--") != 0 || *program) {
            args[n++] = argv[i];
            continue;
        }
        if (!(allowed & OPT_PROGRAM)) {
            fprintf(stderr, "socmon %s: '--' takes a program, which 'socmon %s' does not run\n", argv[0], argv[0]);
            return -1;
        }
        if (i + 1 >= argc || !argv[i + 1][0]) {
            fprintf(stderr, "socmon %s: '--' needs a program after it (an RV32 ELF: -- prog.elf)\n", argv[0]);
            return -1;
        }
        *program = argv[++i];
    }
    args[n] = NULL;
    return n;
}

/* 1 if the target called name runs the command after '--' (the host), as it declares. */
static int runs_command(const char *name)
{
    const socmon_target_ops *t = socmon_target_lookup(name);
    return t && (t->caps & SOCMON_TARGET_RUNS_COMMAND);
}

/* The target named by a -t among argv[1..end) ("-t X", "-tX", "--target X", "--target=X"), as
 * its name (up to ':'), into name; 0 if none. Only to decide what '--' means before parsing. */
static int pre_target(int end, char **argv, char *name, size_t len)
{
    int found = 0;
    for (int i = 1; i < end; i++) {
        const char *v = NULL;
        if ((strcmp(argv[i], "-t") == 0 || strcmp(argv[i], "--target") == 0) && i + 1 < end)
            v = argv[++i];
        else if (strncmp(argv[i], "-t", 2) == 0 && argv[i][2] && argv[i][1] != '-')
            v = argv[i] + 2;
        else if (strncmp(argv[i], "--target=", 9) == 0)
            v = argv[i] + 9;
        if (v && (!found || !runs_command(name))) {
            socmon_spec_name_of(v, name, len);
            found = 1;
        }
    }
    return found;
}

int cli_parse_opts(int argc, char **argv, cli_optmask allowed, void (*help)(FILE *), cli_opts *o)
{
    /* '--' then a command, as perf stat takes one, unless -t names a target that runs no command
     * but a program file (ibex: '-- prog.elf', after which options may still follow) */
    int dd = 0;
    for (int i = 1; i < argc && !dd; i++)
        if (strcmp(argv[i], "--") == 0)
            dd = i;
    char tname[64] = "";
    if (dd && (allowed & OPT_PROGRAM) && (!pre_target(dd, argv, tname, sizeof tname) || runs_command(tname))) {
        if (dd + 1 >= argc || !argv[dd + 1][0]) {
            fprintf(stderr, "socmon %s: '--' needs a command after it (socmon %s -- ls -l)\n", argv[0], argv[0]);
            return 2;
        }
        int rc = parse_opts(dd, argv, allowed, help, o);
        if (rc < 0) {
            o->command = argv + dd + 1;
            o->ncommand = argc - dd - 1;
            o->to_stderr = 1; /* the command owns stdout; counts go to stderr, as perf stat's */
            const socmon_target_ops *runner = socmon_target_with_caps(SOCMON_TARGET_RUNS_COMMAND);
            if (!o->target_set && runner)
                o->target = runner->name;
        }
        return rc;
    }
    char **args = calloc((size_t)argc + 1, sizeof *args);
    const char *program = NULL;
    if (!args) {
        fprintf(stderr, "socmon: out of memory\n");
        return 1;
    }
    int n = take_program(argc, argv, allowed, args, &program);
    int rc = n < 0 ? 2 : parse_opts(n, args, allowed, help, o);
    if (rc < 0)
        o->program = program;
    o->to_stderr = program != NULL;
    free(args);
    return rc;
}

/* A comma-separated list (-e, -M) with an empty item is a mistake worth naming (core/argv.h):
 * 0 if every item has text, else -1 after the message. */
static int check_items(const char *cmd, const char *opt, const char *list)
{
    char err[1024];
    if (smn_arg_list_check(list, err, sizeof err) == 0)
        return 0;
    fprintf(stderr, "socmon %s: %s '%s': %s; give comma-separated items, e.g. 'tile*.l2_*,tile1.ddr_*' (a device's "
                    "counters) or 'task-clock,page-faults' (perf events, with a command)\n", cmd, opt, list, err);
    return -1;
}

/* The long name of the option whose getopt value is val, or NULL. */
static const char *long_name(const struct option *lo, int val)
{
    for (; lo->name; lo++)
        if (lo->val == val && lo->has_arg == required_argument)
            return lo->name;
    return NULL;
}

/* What an option sets in cli_opts, by its getopt value: the one table the parser reads (the
 * options a target takes are its option table; these are the command line's; core/argv.h
 * applies them). Options with a rule of their own (-t, -i, -a, --all, -x, --from, --http-host,
 * the profile views) are in parse_opts's switch. */
#define FIELD(f) .off = offsetof(cli_opts, f), .size = sizeof(((cli_opts *)0)->f)
#define A_STR(v, f) {.val = (v), .kind = SMN_ARG_STR, FIELD(f)}
#define FLAG(v, f) {.val = (v), .kind = SMN_ARG_FLAG, FIELD(f)}
#define FORMAT(v, name) {.val = (v), .kind = SMN_ARG_CONST, FIELD(format), .value = (name)}
#define NUM(v, f, b, l, h, w) {.val = (v), .kind = SMN_ARG_NUM, FIELD(f), .base = (b), .lo = (l), .hi = (h), .what = (w)}
#define DUR(v, f, l, h, w, e, set) \
    {.val = (v), .kind = SMN_ARG_DURATION, FIELD(f), .lo = (l), .hi = (h), .what = (w), .expect = (e), .set_off = (set)}
static const smn_arg_action actions[] = {
    A_STR('C', cpus), A_STR('e', events), A_STR('w', workload),
    A_STR('o', output), A_STR('F', metric_file), A_STR(OPT_LONG_FINDINGS, findings),
    A_STR(0x180, html), A_STR('T', trace), A_STR(0x160, remote),
    A_STR(0x161, token_file), A_STR('M', metrics), A_STR(0x1b5, event),
    A_STR(0x1b6, elf), A_STR(0x150, perfetto), A_STR(0x170, http),
    A_STR(0x171, port_file), A_STR(OPT_LONG_LISTEN, listen), A_STR(OPT_LONG_USER, user),
    A_STR(OPT_LONG_HTTP_PORT_FILE, http_port_file), A_STR(OPT_LONG_RULES, rules),
    A_STR(OPT_LONG_JUNIT, junit), A_STR(OPT_LONG_MARKDOWN, markdown), A_STR(OPT_LONG_PARQUET, parquet),
    A_STR(OPT_LONG_RW, rw.url), A_STR(OPT_LONG_RW_TOKEN, rw.token_file),
    FLAG('D', deltas), FLAG('P', append), FLAG('q', quiet),
    FLAG('R', realtime), FLAG('S', summary), FLAG('K', stats),
    FLAG('B', by_symbol), FLAG('G', no_big_num), FLAG(0x1c0, zeros),
    FLAG('f', force), FLAG(0x172, no_pace), FLAG(OPT_LONG_ALLOW_CONFIG, allow_config),
    FLAG(OPT_LONG_WAIT_COLLECTOR, wait_collector),
    FLAG(OPT_LONG_EXIT_DRAINED, exit_when_drained), FLAG(OPT_LONG_ONLY_CHANGED, only_changed),
    FLAG(OPT_LONG_UPDATE, update),
    FORMAT('J', "json"), FORMAT(OPT_LONG_PROMETHEUS, "prometheus"),
    FORMAT(OPT_LONG_OPENMETRICS, "openmetrics"),
    NUM('r', repeat, 10, 1, 100000, "-r/--repeat takes a run count 1..100000"),
    NUM('Y', max_cycles, 0, 1, 1ull << 53, "--max-cycles takes a cycle count 1..2^53"),
    NUM('N', interval_count, 10, 1, UINT64_MAX, "--interval-count takes a count of intervals >= 1"),
    NUM('E', every, 10, 1, 1000000000, "--every takes a count 1..1000000000"),
    NUM(OPT_LONG_RING, ring, 10, 2, 1ull << 32, "--ring takes a number 2..4294967296"),
    NUM(OPT_LONG_MAX_CLIENTS, max_clients, 10, 1, 1024, "--max-clients takes a number 1..1024"),
    NUM(OPT_LONG_WIRE_VERSION, wire_version, 10, 1, 2, "--wire-version takes a number 1..2"),
    NUM(OPT_LONG_RW_QUEUE, rw.queue, 10, 1, 1000000, "--remote-write-queue takes a number of points 1..1000000"),
    DUR(OPT_LONG_RW_PUSH, rw.push_ns, 1000000, 3600000000000ull, "--push-interval", "expected a time 1ms..1h, e.g. 1s",
        0),
    DUR('L', flush_ns, 0, 0, "--flush", "expected e.g. 200ms, 1s; at least 1ns", 0),
    DUR('d', duration_ns, 0, 0, "duration", "expected e.g. 500us, 10ms, 2s; at least 1ns", 0),
    DUR('I', interval_ns, 0, 0, "interval", "expected e.g. 500us, 10ms, 2s; at least 1ns",
        offsetof(cli_opts, interval_set)),
    DUR(0x168, agent_timeout_ns, 1000000, 3600000000000ull, "--agent-timeout", "expected a time 1ms..1h, e.g. 10s",
        offsetof(cli_opts, agent_timeout_set)),
    FLAG('Y', max_cycles_set),   /* with the count above: the limit was given */
};
#undef FIELD
#undef A_STR
#undef FLAG
#undef FORMAT
#undef NUM
#undef DUR

/* --parquet FILE, or -o FILE.parquet with no other format asked for: the Parquet format into
 * FILE. report has no -o: the file is where its document goes (print_path), as stat's -o is.
 * 0, or -1 after the message. */
static int pick_parquet(const char *cmd, cli_opts *o)
{
    size_t n = o->output ? strlen(o->output) : 0;
    int by_name = n > 8 && strcmp(o->output + n - 8, ".parquet") == 0 && strcmp(o->format, "table") == 0;
    if (!o->parquet && !by_name)
        return 0;
    if (o->parquet && strcmp(o->format, "table") != 0) {
        fprintf(stderr, "socmon %s: --parquet %s and the %s format: give one format\n", cmd, o->parquet, o->format);
        return -1;
    }
    if (o->parquet && o->output && strcmp(o->parquet, o->output) != 0) {
        fprintf(stderr, "socmon %s: --parquet %s and -o %s: give one file\n", cmd, o->parquet, o->output);
        return -1;
    }
    if (o->append) {
        fprintf(stderr, "socmon %s: --append with Parquet (%s): a Parquet file is one document with its footer "
                        "at the end; write the file anew\n", cmd, o->parquet ? o->parquet : o->output);
        return -1;
    }
    o->format = "parquet";
    if (o->parquet)
        o->output = o->parquet;
    o->print_path = o->output;
    return 0;
}

static int parse_opts(int argc, char **argv, cli_optmask allowed, void (*help)(FILE *), cli_opts *o)
{
    struct option lo[CLI_MAX_OPTS + 2];
    char so[2 * CLI_MAX_OPTS + 4] = "h";
    size_t n = 0, sl = 1;
    for (size_t i = 0; i < cli_nopts; i++) {
        if (!(cli_opt_table[i].bit & allowed))
            continue;
        lo[n++] = cli_opt_table[i].lo;
        if (cli_opt_table[i].lo.val < 'A' || cli_opt_table[i].lo.val > 'z' || strchr("JRSETYBNGDAPFLK", cli_opt_table[i].lo.val))
            continue;
        so[sl++] = (char)cli_opt_table[i].lo.val;
        if (cli_opt_table[i].lo.has_arg)
            so[sl++] = ':';
    }
    /* report keeps -a as the old --all (now --deltas): scripts that passed it still run */
    if ((allowed & OPT_DELTAS) && !(allowed & OPT_ALL))
        so[sl++] = 'a';
    so[sl] = '\0';
    lo[n++] = (struct option){"help", no_argument, 0, 'h'};
    lo[n] = (struct option){0, 0, 0, 0};

    memset(o, 0, sizeof *o);
    o->target = SOCMON_DEFAULT_TARGET;
    o->interval_ns = 1000000;
    o->every = 1;
    o->flush_ns = 1000000000;
    o->agent_timeout_ns = 5000000000ull;
    o->sep = ',';
    o->format = "table";
    o->repeat = 1;
    optind = 1;
    opterr = 0;
    int c, want_help = 0;
    const char *spec = NULL; /* -t as given, for --help */
    while ((c = getopt_long(argc, argv, so, lo, NULL)) != -1) {
        char err[512];
        int acted = c == '?' || c == ':' ? 0 : smn_arg_apply(actions, sizeof actions / sizeof actions[0], o, c, optarg,
                                                             err, sizeof err);
        if (acted < 0) {
            fprintf(stderr, "socmon %s: %s\n", argv[0], err);
            return 2;
        }
        if (acted)
            continue;
        switch (c) {
        case 't':
            if (o->ntargets == CLI_MAX_TARGETS) {
                fprintf(stderr, "socmon %s: more than %d -t\n", argv[0], CLI_MAX_TARGETS);
                return 2;
            }
            o->targets[o->ntargets++] = o->target = spec = optarg;
            o->target_set = 1;
            break;
        case 'i':
            /* a second -i used to replace the first silently: the user meant one of them, say which we saw */
            if (o->input) {
                fprintf(stderr, "socmon %s: -i given twice ('%s' and '%s'): %s reads one recording\n", argv[0],
                        o->input, optarg, argv[0]);
                return 2;
            }
            o->input = optarg;
            break;
        case 'a':
            if (allowed & OPT_ALL) {
                o->all_cpus = 1; /* what socmon does anyway: every instance */
                break;
            }
            /* report's -a is the old --all */
            __attribute__((fallthrough));
        case 'A':
            o->old_all = 1;
            if (allowed & OPT_DELTAS) {
                o->deltas = 1;
                fprintf(stderr, "socmon %s: %s is now --deltas (zero counters are always shown)\n", argv[0],
                        c == 'a' ? "-a" : "--all");
            } else {
                fprintf(stderr, "socmon: --all is no longer needed: every counter is counted; tables fold those that stayed 0 into one line, --zeros lists them\n");
            }
            break;
        case 0x169:
            if (strcmp(optarg, "now") && strcmp(optarg, "oldest")) {
                fprintf(stderr, "socmon %s: bad --from '%s' (expected now or oldest)\n", argv[0], optarg);
                return 2;
            }
            o->from = strcmp(optarg, "now") == 0 ? CLI_FROM_NOW : CLI_FROM_OLDEST;
            break;
        case 0x1b0: case 0x1b1: case 0x1b2: case 0x1b4: {
            int v = c == 0x1b0 ? CLI_PV_CHILDREN : c == 0x1b1 ? CLI_PV_CALL_TREE : c == 0x1b2 ? CLI_PV_LINES
                                                                                             : CLI_PV_FOLDED;
            if (o->profile_view && o->profile_view != v) {
                fprintf(stderr, "socmon %s: --children, --call-tree, --by-line, --annotate and --folded are "
                                "views of their own: give one\n", argv[0]);
                return 2;
            }
            o->profile_view = v;
            break;
        }
        case 0x1b3:
            if (o->profile_view && o->profile_view != CLI_PV_ANNOTATE) {
                fprintf(stderr, "socmon %s: --children, --call-tree, --by-line, --annotate and --folded are "
                                "views of their own: give one\n", argv[0]);
                return 2;
            }
            o->profile_view = CLI_PV_ANNOTATE;
            o->annotate = optarg;
            break;
        case 'x':
            if (cli_parse_sep(optarg, &o->sep) != 0) {
                fprintf(stderr, "socmon %s: -x takes one separator character, got '%s'\n", argv[0], optarg);
                return 2;
            }
            o->format = "csv";
            break;
        case 0x173:
            if (o->nhttp_hosts == CLI_MAX_HTTP_HOSTS) {
                fprintf(stderr, "socmon %s: more than %d --http-host (give several names in one, comma-separated)\n",
                        argv[0], CLI_MAX_HTTP_HOSTS);
                return 2;
            }
            o->http_hosts[o->nhttp_hosts++] = optarg;
            break;
        case 'h': want_help = 1; break;
        default:
            if (want_help) /* --help wins over a bad option, as it did before -t joined it */
                break;
            if (optopt && (optopt > 255 || !strchr(so, optopt)) && long_name(lo, optopt))
                /* a long-only option (its val is no short letter) given without its value */
                fprintf(stderr, "socmon %s: option --%s needs a value\n", argv[0], long_name(lo, optopt));
            else if (optopt)
                fprintf(stderr, "socmon %s: option -%c %s\n", argv[0], optopt,
                        strchr(so, optopt) ? "needs a value" : "is not known here");
            else
                fprintf(stderr, "socmon %s: option '%s' is not known here or needs a value\n", argv[0],
                        argv[optind - 1]);
            help(stderr);
            return 2;
        }
    }
    if (want_help)
        return show_help(help, argv[0], spec);
    if (o->interval_count && !o->interval_set) {   /* as perf: the count is of -I's intervals */
        fprintf(stderr, "socmon %s: --interval-count needs -I (the interval it counts)\n", argv[0]);
        return 2;
    }
    if ((allowed & OPT_FORMAT) && pick_parquet(argv[0], o) != 0)
        return 2;
    if (o->append && !o->output) {
        fprintf(stderr, "socmon %s: --append adds to the file -o names: give -o FILE\n", argv[0]);
        return 2;
    }
    if (o->events && check_items(argv[0], "-e", o->events) != 0)
        return 2;
    /* -a or -C without -t is perf's habit of counting this machine's CPUs (perf stat -a): that is
     * the target taking -a and -C (SOCMON_TARGET_RUNS_COMMAND), found by its capability, not the
     * default model, which counts every instance anyway (issue 37 item 10) */
    if ((o->all_cpus || o->cpus) && !o->target_set && !o->remote) {
        const socmon_target_ops *runner = socmon_target_with_caps(SOCMON_TARGET_RUNS_COMMAND);
        if (!runner) {
            fprintf(stderr, "socmon %s: %s counts this machine's CPUs, which no target of this build does "
                            "(-t host, on Linux); a model target counts every instance without it\n", argv[0],
                    o->cpus ? "-C" : "-a");
            return 2;
        }
        o->target = runner->name;
    }
    if (o->metrics && check_items(argv[0], "-M", o->metrics) != 0)
        return 2;
    for (; (allowed & OPT_FILES) && optind < argc && o->nfiles < 2; optind++)
        o->files[o->nfiles++] = argv[optind];
    if (optind < argc) {
        fprintf(stderr, "socmon %s: unexpected argument '%s'\n", argv[0], argv[optind]);
        help(stderr);
        return 2;
    }
    return -1;
}

static void say_cmd(void *cmd, const char *line)
{
    fprintf(stderr, "socmon %s: %s\n", (const char *)cmd, line);
}

int cli_check_metric_patterns(const char *cmd, const socmon_metricset *ms, const socmon_metrics *m,
                              const char *patterns, const char *lacking)
{
    socmon_status st = smn_metrics_check_patterns(ms, m, patterns, lacking, say_cmd, (void *)cmd);
    return st == SOCMON_OK ? 0 : st == SOCMON_ENOMEM ? cli_error(cmd, st) : 2;
}

void cli_warn_metric_file(const char *cmd, const char *path, const socmon_metricset *ms, const socmon_metrics *m)
{
    char line[1024];
    if (smn_metric_file_unused(path, ms, m, line, sizeof line))
        say_cmd((void *)cmd, line);
}
