/* socmon sweep: one stat per point of a grid of target options x workloads x programs, into one
 * table (socmon/sweep.h; docs/sweep.md); socmon sweep merge: shards joined into that table. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/help.h"
#include "cli/print.h"
#include "cli/stop.h"
#include "core/text.h"
#include "export/sweep_campaign.h"

#define SWEEP_MAX_TARGETS 32
#define SWEEP_MAX_RUN_ARGS 32

typedef struct sweep_cli {
    const char *targets[SWEEP_MAX_TARGETS];
    size_t ntargets;
    const char *workloads, *file, *output, *record_dir, *shard;
    const char *run_args[SWEEP_MAX_RUN_ARGS];
    size_t nrun_args;
    const char *const *programs;
    size_t nprograms;
    unsigned jobs;
    int json, parquet, quiet;
} sweep_cli;

static void help(FILE *fp)
{
    cli_help_intro(fp, "sweep");
}

static int usage_error(const char *fmt, const char *arg) __attribute__((format(printf, 1, 0)));
static int usage_error(const char *fmt, const char *arg)
{
    char *esc = smn_text_escape_dup(arg);
    fprintf(stderr, "socmon sweep: ");
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
    fprintf(stderr, fmt, esc ? esc : "?");
#pragma GCC diagnostic pop
    fprintf(stderr, "\n(socmon sweep --help shows the options)\n");
    free(esc);
    return 2;
}

static int parse_jobs(const char *s, unsigned *out)
{
    char *end;
    errno = 0;
    unsigned long v = strtoul(s, &end, 10);
    if (!*s || *s < '0' || *s > '9' || *end || errno || v < 1 || v > 1024)
        return -1;
    *out = (unsigned)v;
    return 0;
}

/* -1 to go on, else the exit code. */
static int parse(int argc, char **argv, sweep_cli *c)
{
    enum { O_JSON = 1000, O_RECORD_DIR, O_SHARD, O_MAX_CYCLES, O_METRIC_FILE, O_PARQUET };
    static const struct option longs[] = {
        {"file", required_argument, 0, 'f'},       {"jobs", required_argument, 0, 'j'},
        {"json", no_argument, 0, O_JSON},          {"record-dir", required_argument, 0, O_RECORD_DIR},
        {"shard", required_argument, 0, O_SHARD},  {"quiet", no_argument, 0, 'q'},
        {"max-cycles", required_argument, 0, O_MAX_CYCLES},
        {"metric-file", required_argument, 0, O_METRIC_FILE},
        {"parquet", required_argument, 0, O_PARQUET},
        {"duration", required_argument, 0, 'd'},   {"help", no_argument, 0, 'h'},
        {0, 0, 0, 0},
    };
    memset(c, 0, sizeof *c);
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    c->jobs = n > 0 && n < 1024 ? (unsigned)n : 1;
    optind = 1;
    opterr = 0;
    int ch;
    while ((ch = getopt_long(argc, argv, "+t:w:f:j:o:qe:I:d:h", longs, NULL)) != -1) {
        const char *flag = NULL;
        switch (ch) {
        case 't':
            if (c->ntargets == SWEEP_MAX_TARGETS)
                return usage_error("more than 32 -t (put the grid in a sweep file: -f)", optarg);
            c->targets[c->ntargets++] = optarg;
            break;
        case 'w': c->workloads = optarg; break;
        case 'f': c->file = optarg; break;
        case 'j':
            if (parse_jobs(optarg, &c->jobs) != 0)
                return usage_error("-j %s: expected a number of points at once, 1..1024", optarg);
            break;
        case 'o': c->output = optarg; break;
        case O_JSON: c->json = 1; break;
        case O_PARQUET:
            if (c->output && strcmp(c->output, optarg) != 0)
                return usage_error("--parquet %s and -o: give one file", optarg);
            c->output = optarg;
            c->parquet = 1;
            break;
        case O_RECORD_DIR: c->record_dir = optarg; break;
        case O_SHARD: c->shard = optarg; break;
        case 'q': c->quiet = 1; break;
        case 'e': flag = "-e"; break;
        case 'I': flag = "-I"; break;
        case 'd': flag = "-d"; break;
        case O_MAX_CYCLES: flag = "--max-cycles"; break;
        case O_METRIC_FILE: flag = "--metric-file"; break;
        case 'h': help(stdout); return 0;
        default:
            return usage_error(optopt && optopt < 256 ? "unknown option or missing value: -%s"
                                                      : "unknown option or missing value: %s",
                               optopt && optopt < 256 ? (char[]){(char)optopt, 0} : argv[optind - 1]);
        }
        if (flag) {
            if (c->nrun_args + 2 > SWEEP_MAX_RUN_ARGS)
                return usage_error("too many options for the points' stat (%s)", flag);
            c->run_args[c->nrun_args++] = flag;
            c->run_args[c->nrun_args++] = optarg;
        }
    }
    int dashdash = optind > 0 && strcmp(argv[optind - 1], "--") == 0;
    if (optind < argc && !dashdash)
        return usage_error("unexpected argument '%s' (programs go after '--')", argv[optind]);
    c->programs = (const char *const *)argv + optind;
    c->nprograms = (size_t)(argc - optind);
    if (c->file && (c->ntargets || c->workloads || c->nprograms))
        return usage_error("%s: give the grid either in the sweep file or by -t, -w and '--', not both", c->file);
    if (!c->file && !c->ntargets)
        return usage_error("%s", "no grid: give -t SPEC (with {a,b} choices) or -f SWEEPFILE");
    if (c->parquet && c->json)
        return usage_error("--parquet %s and --json: give one format", c->output);
    return -1;
}

/* How the campaign talks (export/sweep_campaign.h): its lines to stderr as they come, its failures
 * as every command reports them; it stops when a signal asked. */
static void say(void *user, const char *text)
{
    (void)user;
    fputs(text, stderr);
    fflush(stderr);
}

static void report(void *user, const char *what, socmon_status st)
{
    (void)user;
    cli_error(what, st);
}

static int stop_asked(void *user)
{
    (void)user;
    return cli_stop_signal();
}

static const smn_sweep_talk talk = {.say = say, .error = report};

static int run_sweep(const sweep_cli *c, const socmon_sweep_grid *g)
{
    char self[4096];   /* the points run as processes of this very program */
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n <= 0 || (size_t)n >= sizeof self - 1)
        return cli_error("sweep", socmon_fail(SOCMON_EIO, "cannot find this program's path (/proc/self/exe): %s",
                                              strerror(errno)));
    self[n] = '\0';
    smn_sweep_campaign sc = {
        .grid = g, .output = c->output, .json = c->json, .parquet = c->parquet, .shard = c->shard, .jobs = c->jobs,
        .record_dir = c->record_dir, .quiet = c->quiet, .exe = self, .arm_stop = cli_stop_install,
        .progress = c->quiet ? SMN_SWEEP_PROGRESS_NONE : isatty(2) ? SMN_SWEEP_PROGRESS_BAR : SMN_SWEEP_PROGRESS_LINES,
        .should_stop = stop_asked, .talk = talk};
    smn_sweep_outcome out;
    smn_sweep_campaign_run(&sc, &out);
    if (!out.stopped)
        return out.exit;
    fprintf(stderr, "socmon sweep: stopped by %s: run the same command again to finish the sweep\n", cli_stop_name());
    return cli_stop_exit_code();
}

/* socmon sweep merge A B ... [-o FILE] [--json] */
static int merge(int argc, char **argv)
{
    static const struct option longs[] = {{"json", no_argument, 0, 1}, {"help", no_argument, 0, 'h'}, {0, 0, 0, 0}};
    const char *output = NULL;
    int json = 0, ch;
    optind = 1;
    opterr = 0;
    while ((ch = getopt_long(argc, argv, "o:h", longs, NULL)) != -1) {
        if (ch == 'o')
            output = optarg;
        else if (ch == 1)
            json = 1;
        else if (ch == 'h') {
            help(stdout);
            return 0;
        } else
            return usage_error("merge: unknown option or missing value: %s", argv[optind - 1]);
    }
    if (optind >= argc)
        return usage_error("%s", "merge: name the tables to merge (socmon sweep merge A B ... -o FILE)");
    smn_sweep_outcome out;
    smn_sweep_campaign_merge((const char *const *)argv + optind, (size_t)(argc - optind), json, output, &talk, &out);
    return out.exit;
}

static void run_line_help(FILE *fp)
{
    (void)fp;   /* stat's whole help would bury the one line that matters: check_run_args says it */
}

/* The points' stat options, checked once before any point runs: a sweep file's 'run' line has not
 * been through getopt as -e, -I ... on the command line have, and a bad one would fail every point
 * with stat's usage line, or (-o FILE) be taken by each. stat's own parser, allowing only the
 * options a sweep gives its points. 0, or the exit status after the message. */
static int check_run_args(const socmon_sweep_grid *g, const char *file)
{
    size_t n = socmon_sweep_grid_nrun_args(g);
    const char *const *a = socmon_sweep_grid_run_args(g);
    if (!n)
        return 0;
    char **argv = calloc(n + 2, sizeof *argv);
    if (!argv) {
        fprintf(stderr, "socmon sweep: out of memory\n");
        return 1;
    }
    argv[0] = "sweep";
    for (size_t i = 0; i < n; i++)
        argv[i + 1] = (char *)a[i];
    cli_opts o;
    int rc = cli_parse_opts((int)n + 1, argv, OPT_EVENTS | OPT_INTERVAL | OPT_DURATION | OPT_MAX_CYCLES | OPT_METRIC_FILE,
                            run_line_help, &o);
    free(argv);
    if (rc < 0)
        return 0;
    fprintf(stderr, "socmon sweep: %s%sthe points' stat takes -e, -I, -d, --max-cycles and --metric-file, each "
                    "with its value; no point ran\n", file ? file : "", file ? ": the 'run' line: " : "");
    return 2;
}

int cmd_sweep(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "merge") == 0)
        return merge(argc - 1, argv + 1);
    sweep_cli c;
    int rc = parse(argc, argv, &c);
    if (rc >= 0)
        return rc;
    socmon_sweep_grid *g = NULL;
    socmon_status st;
    if (c.file) {
        st = socmon_sweep_grid_load(c.file, &g);
        if (st == SOCMON_OK && c.nrun_args)
            st = socmon_fail(SOCMON_EINVAL, "%s: put the points' stat options in the sweep file's 'run' line", c.file);
    } else {
        socmon_sweep_spec spec = {.size = sizeof spec, .targets = c.targets, .ntargets = c.ntargets,
                                  .workloads = c.workloads, .programs = c.programs, .nprograms = c.nprograms,
                                  .run_args = c.run_args, .nrun_args = c.nrun_args};
        st = socmon_sweep_grid_new(&spec, &g);
    }
    if (st != SOCMON_OK) {
        cli_error("sweep", st);
        socmon_sweep_grid_free(g);
        return 2;
    }
    rc = check_run_args(g, c.file);
    if (rc == 0)
        rc = run_sweep(&c, g);
    socmon_sweep_grid_free(g);
    return rc;
}
