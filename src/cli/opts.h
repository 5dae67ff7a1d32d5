/* Options shared by read, stat, record, report, serve and agent, parsed in one place. */
#ifndef SOCMON_CLI_OPTS_H
#define SOCMON_CLI_OPTS_H

#include <stdint.h>
#include "analysis/metric_pick.h"
#include "cli/cli.h"

/* Which options a command takes: one bit each (a group for options that only go together), in a
 * 64-bit mask so there is room past the 32 the first commands used. */
typedef uint64_t cli_optmask;
#define OPT_BIT(n) ((cli_optmask)1 << (n))
#define OPT_TARGET OPT_BIT(0)    /* -t */
#define OPT_EVENTS OPT_BIT(1)    /* -e */
#define OPT_WORKLOAD OPT_BIT(2)  /* -w */
#define OPT_FORMAT OPT_BIT(3)    /* -x SEP, --json */
#define OPT_ALL OPT_BIT(4)       /* -a/--all-cpus (every instance; the old --all is an alias) */
#define OPT_DURATION OPT_BIT(5)  /* -d/--duration */
#define OPT_INTERVAL OPT_BIT(6)  /* -I */
#define OPT_OUTPUT OPT_BIT(7)    /* -o */
#define OPT_INPUT OPT_BIT(8)     /* -i */
#define OPT_REALTIME OPT_BIT(9)  /* --realtime */
#define OPT_QUIET OPT_BIT(10)    /* -q */
#define OPT_SUMMARY OPT_BIT(11)  /* --summary */
#define OPT_EVERY OPT_BIT(12)    /* --every N */
#define OPT_TRACE OPT_BIT(13)    /* --trace-bus FILE */
#define OPT_METRICS OPT_BIT(14)  /* -M PATTERNS */
#define OPT_PROGRAM OPT_BIT(15)  /* -- PROGRAM.elf (a target that runs a program: ibex) */
#define OPT_MAX_CYCLES OPT_BIT(16) /* --max-cycles N */
#define OPT_BY_SYMBOL OPT_BIT(17) /* --by-symbol */
#define OPT_INTERVAL_COUNT OPT_BIT(18) /* --interval-count N */
#define OPT_REPEAT OPT_BIT(19)   /* -r/--repeat N */
#define OPT_APPEND OPT_BIT(20)   /* --append (with -o) */
#define OPT_DELTAS OPT_BIT(21)   /* --deltas (report; -a/--all are its old names) */
#define OPT_METRIC_FILE OPT_BIT(22) /* --metric-file FILE */
#define OPT_FLUSH OPT_BIT(23)    /* --flush TIME (record) */
#define OPT_BIG_NUM OPT_BIT(24)  /* --no-big-num */
#define OPT_FORCE OPT_BIT(25)    /* -f/--force (record) */
#define OPT_STATS OPT_BIT(26)    /* --stats (report: what the file holds) */
#define OPT_HTML OPT_BIT(27)     /* --html FILE (report: the charts as one offline page) */
#define OPT_PERFETTO OPT_BIT(28) /* --perfetto OUT.json (report: a Perfetto / Chrome trace) */
#define OPT_REMOTE OPT_BIT(29)   /* --remote HOST:PORT, --token-file FILE (record, stat: from an agent) */
#define OPT_HTTP OPT_BIT(30)     /* --http ADDR:PORT, --http-host NAMES, --port-file FILE, --no-pace (serve) */
#define OPT_CPUS OPT_BIT(31)     /* -C LIST (the host target's CPUs) */
/* The agent's own: --listen, --token-file, --allow-config, --ring, --no-pace, --max-clients,
 * --port-file, --wait-collector, --exit-when-drained, --user, --http, --http-port-file,
 * --http-host, -q (some share a name with another command's option but mean the agent's thing,
 * said in its help) */
#define OPT_AGENT OPT_BIT(32)
#define OPT_FILES OPT_BIT(33)    /* operands: the files a command compares (diff, check: two) */
/* diff's own: -e/-M/--html in diff's words, --only-changed */
#define OPT_DIFF OPT_BIT(34)
#define OPT_EXPOSITION OPT_BIT(35) /* --prometheus, --openmetrics (documents of totals) */
#define OPT_CHECK OPT_BIT(36)    /* check's own: --rules, --junit, --markdown, --update */
/* report's views of a program's exact profile: --children, --call-tree, --by-line, --annotate F,
 * --folded, --event E, --elf FILE */
#define OPT_PROFILE OPT_BIT(37)
#define OPT_FINDINGS OPT_BIT(38) /* --findings FILE (stat, report: rules added to the target's) */
/* --remote-write URL, --remote-write-token-file FILE, --push-interval TIME, --remote-write-queue N */
#define OPT_REMOTE_WRITE OPT_BIT(39)

enum { CLI_FROM_NOW = 1, CLI_FROM_OLDEST };   /* agent/remote_open.h's REMOTE_FROM_* */

typedef struct cli_rw_opts {
    const char *url;        /* --remote-write URL: push the series of /metrics there */
    const char *token_file; /* --remote-write-token-file FILE: its bearer token */
    uint64_t push_ns;       /* --push-interval TIME (0: 1 s) */
    uint64_t queue;         /* --remote-write-queue N (0: 600 points) */
} cli_rw_opts;
enum { CLI_PV_CHILDREN = 1, CLI_PV_CALL_TREE, CLI_PV_LINES, CLI_PV_ANNOTATE, CLI_PV_FOLDED };

#define CLI_MAX_TARGETS 8
#define CLI_MAX_HTTP_HOSTS 8

typedef struct cli_opts {
    const char *target, *events, *workload, *output, *input, *trace, *metrics;
    const char *metric_file; /* --metric-file: a user's metric file instead of the target's */
    const char *findings;    /* --findings: a user's findings rules, added to the target's */
    const char *format;     /* output format: "table", "csv" (-x), "json" (--json), "parquet" (--parquet,
                               -o FILE.parquet), ... */
    const char *parquet;    /* --parquet FILE: the document as Parquet into FILE */
    char sep;
    int no_big_num;         /* --no-big-num: no thousands separators in tables and live lines */
    int zeros;              /* --zeros: tables list the counters that stayed 0 instead of folding them */
    int all_cpus, realtime, quiet, summary;
    int deltas;             /* report: every counter's delta in CSV/JSON interval rows */
    int stats;              /* report --stats: what the file holds, not its samples */
    int old_all;            /* the old --all was given (report --by-symbol: functions that never ran too) */
    unsigned repeat;        /* stat -r N: runs (1 unless given) */
    int append;             /* stat --append: add to -o FILE instead of replacing it */
    uint64_t duration_ns, interval_ns;
    int interval_set;       /* -I given; otherwise the target's default applies */
    uint64_t interval_count; /* --interval-count N: stop after N intervals (0: no limit) */
    unsigned every;
    const char *program;    /* the path after '--' (a program target: ibex) */
    char *const *command;   /* the host's command: every word after '--' (NULL-terminated) */
    int ncommand;
    const char *cpus;       /* -C LIST: the host target's CPUs */
    int target_set;         /* -t was given */
    const char *targets[CLI_MAX_TARGETS]; /* every -t, in order (several: one combined run) */
    int ntargets;
    uint64_t max_cycles;
    int max_cycles_set, by_symbol;
    int profile_view;          /* report: CLI_PV_* (0: none) */
    const char *annotate;      /* report --annotate FUNCTION */
    const char *event;         /* report --event E (the profile views' event; default cycles) */
    const char *elf;           /* report --elf FILE: the program's ELF instead of the profile's path */
    uint64_t flush_ns;      /* record: how often the recording is flushed to disk (default 1 s) */
    int force;              /* record: overwrite PATH, write through a device node, FIFO or symlink */
    int symbols;            /* the command wants per-function counters if the target has them */
    int to_stderr;          /* results to stderr (a program's own output owns stdout) */
    const char *print_path; /* results to this file instead (stat -o) */
    const char *remote;     /* --remote HOST:PORT: samples from 'socmon agent' there */
    const char *token_file; /* --token-file FILE: the agent's token */
    uint64_t agent_timeout_ns; /* --agent-timeout TIME: an agent silent this long is gone (default 5 s) */
    int agent_timeout_set;
    int from;               /* --from: CLI_FROM_NOW or CLI_FROM_OLDEST; 0: not given (cli/open_source.c decides) */
    const char *perfetto;   /* report --perfetto: the trace file to write */
    const char *html;       /* report --html FILE: the charts page to write */
    const char *http;       /* --http ADDR:PORT: where the live page and /metrics are served */
    const char *port_file;  /* --port-file FILE: the port actually bound is written there */
    const char *http_hosts[CLI_MAX_HTTP_HOSTS]; /* every --http-host (each a comma-separated list) */
    int nhttp_hosts;
    int no_pace;            /* --no-pace: a model runs as fast as it can, not at wall-clock pace */
    /* socmon agent's own (OPT_AGENT); its --port-file is the collectors' port, in port_file */
    const char *listen;     /* --listen ADDR:PORT: where collectors connect */
    const char *user;       /* --user NAME: the user to become once bound (as root) */
    const char *http_port_file; /* --http-port-file FILE: the port --http bound */
    int allow_config, wait_collector, exit_when_drained;
    uint64_t ring;          /* --ring SAMPLES (0: the agent's default) */
    unsigned max_clients;   /* --max-clients N (0: the agent's default) */
    unsigned wire_version;  /* --wire-version N (0: the newest) */
    const char *files[2];   /* OPT_FILES: the operands, in order */
    int nfiles;
    int only_changed;       /* diff --only-changed */
    const char *rules, *junit, *markdown; /* check --rules FILE, --junit FILE, --markdown FILE */
    int update;             /* check --update: NEW becomes the baseline */
    cli_rw_opts rw;         /* --remote-write and its options (cli/cli_rw.h) */
} cli_opts;

/* Parses argv (argv[0] is the subcommand). Returns -1 to continue, or an exit
 * code (0 after --help, 2 on a usage error, with the message printed). */
int cli_parse_opts(int argc, char **argv, cli_optmask allowed, void (*help)(FILE *), cli_opts *o);


/* The metric results a line or table shows (analysis/metric_pick.h). */
#define cli_pick_metrics smn_metrics_pick

/* Checks each item of -M's list against the bound metrics m of set ms: an item that gives no
 * result is an error, said as "matches no metric" or, for a metric the counters cannot
 * compute, "matches metric X, which needs counters <lacking>: <why>" (lacking: e.g. "not
 * selected by -e"). Returns 0, or the exit code 2 after the messages. */
int cli_check_metric_patterns(const char *cmd, const socmon_metricset *ms, const socmon_metrics *m,
                              const char *patterns, const char *lacking);

/* --metric-file FILE of which no metric can be computed from the counters at hand (another
 * target's file, say): one warning on stderr naming FILE and why its first metric gave nothing.
 * As perf does for such events, the run goes on (exit status unchanged). */
void cli_warn_metric_file(const char *cmd, const char *path, const socmon_metricset *ms, const socmon_metrics *m);

/* The option lines for --help, for the options in `allowed`. */
void cli_help_opts(FILE *fp, cli_optmask allowed);

#endif
