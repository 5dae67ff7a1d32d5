/* The options of every subcommand and their lines of --help (cli/opts_table.h). */
#include "cli/opts_table.h"
#include "serve/net.h"

#define STR_(x) #x
#define STR(x) STR_(x)

const cli_opt_entry cli_opt_table[] = {
    {OPT_TARGET, {"target", required_argument, 0, 't'},
     "-t, --target SPEC     NAME or NAME:key=value,... (default " SOCMON_DEFAULT_TARGET "; options: 'socmon list NAME')"},
    {OPT_EVENTS, {"events", required_argument, 0, 'e'},
     "-e, --events PATTERNS comma-separated globs on counter names, e.g. 'tile*.l2_*' (default: all)"},
    {OPT_WORKLOAD, {"workload", required_argument, 0, 'w'},
     "-w, --workload NAME   workload the model runs (default: the target's first; 'socmon list workloads')"},
    {OPT_FORMAT, {"field-separator", required_argument, 0, 'x'},
     "-x, --field-separator SEP  CSV output with this separator (e.g. -x,)"},
    {OPT_FORMAT, {"json", no_argument, 0, 'J'}, "    --json            JSON output"},
    {OPT_FORMAT, {"parquet", required_argument, 0, OPT_LONG_PARQUET},
     "    --parquet FILE    the CSV's table as Parquet into FILE, typed and compressed, for DuckDB,\n"
     "                        pandas, Spark (docs/parquet.md); stat and diff: -o FILE.parquet too"},
    {OPT_EXPOSITION, {"prometheus", no_argument, 0, OPT_LONG_PROMETHEUS},
     "    --prometheus      Prometheus text exposition 0.0.4 of the totals (docs/prometheus.md); with\n"
     "                        -o DIR/NAME.prom for node_exporter's textfile collector, which never\n"
     "                        sees half a file (written beside it, then renamed)"},
    {OPT_EXPOSITION, {"openmetrics", no_argument, 0, OPT_LONG_OPENMETRICS},
     "    --openmetrics     the same as OpenMetrics 1.0 text (UNIT lines, ends with # EOF)"},
    {OPT_ALL, {"all-cpus", no_argument, 0, 'a'},
     "-a, --all-cpus        without -t: every CPU of the host target, as perf's system-wide -a; on a\n"
     "                        model, every instance (every tile, core, slot), which socmon always counts"},
    {OPT_CPUS, {"cpu", required_argument, 0, 'C'},
     "-C, --cpu LIST        host: count only these CPUs (e.g. 0-3,6), as perf -C (without -t: -t host)"},
    {OPT_DELTAS, {"deltas", no_argument, 0, 'D'},
     "    --deltas          CSV/JSON interval rows also carry every counter's delta (-a and --all,\n"
     "                        its old names, still work)"},
    /* --all meant "show zero counters" for stat/read/record and "every counter's delta" for
     * report: one entry each, so each command's help says what --all does there (no command
     * takes both bits, so getopt never sees "all" twice) */
    {OPT_ALL, {"all", no_argument, 0, 'A'},
     "    --all             kept for old scripts: zero counters are always shown now"},
    {OPT_DELTAS, {"all", no_argument, 0, 'A'},
     "    --all             the old name of --deltas (so is -a): acts as --deltas, with a notice"},
    {OPT_REPEAT, {"repeat", required_argument, 0, 'r'},
     "-r, --repeat N        run N times (1..100000); print the mean of every counter and metric\n"
     "                        and its spread, ( +- 0.12% ), as perf stat -r does"},
    {OPT_APPEND, {"append", no_argument, 0, 'P'}, "    --append          with -o FILE: add to FILE instead of replacing it"},
    {OPT_METRIC_FILE, {"metric-file", required_argument, 0, 'F'},
     "    --metric-file FILE  metrics from this JSON file (docs/metrics.md) instead of the target's"},
    {OPT_FINDINGS, {"findings", required_argument, 0, OPT_LONG_FINDINGS},
     "    --findings FILE   more rules for the \"Where the time went\" section (docs/findings.md),\n"
     "                        added to the target's"},
    {OPT_DURATION, {"duration", required_argument, 0, 'd'},
     "-d, --duration TIME   how long to run (e.g. 10ms, 2s; bare numbers are ms). Default: until\n"
     "                        the workload finishes"},
    {OPT_INTERVAL, {"interval", required_argument, 0, 'I'},
     "-I, --interval TIME   sampling interval (e.g. 200us, 50ms; bare numbers are ms; default: the\n"
     "                        target's, 1ms for most, 50ms for zynq; stat: the longest wrap-safe step)"},
    {OPT_INTERVAL_COUNT, {"interval-count", required_argument, 0, 'N'},
     "    --interval-count N  stop after N intervals of -I (with -d: whichever ends first)"},
    {OPT_OUTPUT, {"output", required_argument, 0, 'o'},
     "-o, --output FILE     record: the recording to write (default socmon.rec); stat: where the\n"
     "                        counts go instead of stdout (stderr when a program runs)"},
    {OPT_INPUT, {"input", required_argument, 0, 'i'}, "-i, --input FILE      recording to read (default socmon.rec)"},
    {OPT_REALTIME, {"realtime", no_argument, 0, 'R'},
     "    --realtime        pace a model against the wall clock (hardware always is)"},
    {OPT_QUIET, {"quiet", no_argument, 0, 'q'}, "-q, --quiet           no live per-interval lines"},
    {OPT_SUMMARY, {"summary", no_argument, 0, 'S'},
     "    --summary         totals over the whole recording instead of one row per interval"},
    {OPT_EVERY, {"every", required_argument, 0, 'E'}, "    --every N         show every Nth interval live (default 1)"},
    {OPT_METRICS, {"metrics", required_argument, 0, 'M'},
     "-M, --metrics PATTERNS which metrics to show, globs on metric names (default: the first\n"
     "                        device-wide ones)"},
    {OPT_MAX_CYCLES, {"max-cycles", required_argument, 0, 'Y'},
     "    --max-cycles N    stop the program after N core cycles (exit status 4 if it has not halted)"},
    {OPT_BY_SYMBOL, {"by-symbol", no_argument, 0, 'B'},
     "    --by-symbol       one row per function (ELF symbol) of a program's recording, sorted by cycles"},
    {OPT_PROFILE, {"children", no_argument, 0, 0x1b0},
     "    --children        a program's recording: per function, inclusive (everything it called)\n"
     "                        next to self, exactly, like perf report --children"},
    {OPT_PROFILE, {"call-tree", no_argument, 0, 0x1b1},
     "    --call-tree       caller -> callee edges with their calls and inclusive counts"},
    {OPT_PROFILE, {"by-line", no_argument, 0, 0x1b2},
     "    --by-line         one row per source line (the ELF's DWARF) with every event"},
    {OPT_PROFILE, {"annotate", required_argument, 0, 0x1b3},
     "    --annotate FUNCTION  each instruction of FUNCTION with its source line and counts,\n"
     "                        the hottest marked, like perf annotate"},
    {OPT_PROFILE, {"folded", no_argument, 0, 0x1b4},
     "    --folded          folded stacks (main;mid;leaf 1234) for flamegraph.pl, inferno, speedscope"},
    {OPT_PROFILE, {"event", required_argument, 0, 0x1b5},
     "    --event E         the event of --folded and of the views' first column (default cycles)"},
    {OPT_PROFILE, {"elf", required_argument, 0, 0x1b6},
     "    --elf FILE        the program's ELF for --by-line and --annotate (default: the path it ran\n"
     "                        from, as the recording names it)"},
    {OPT_STATS, {"stats", no_argument, 0, 'K'},
     "    --stats           what the file holds: format version, samples, counters, blocks,\n"
     "                        bytes per value, and what could not be read (-x: CSV, --json: an\n"
     "                        object); not with --summary, --by-symbol, -M or --deltas"},
    {OPT_PERFETTO, {"perfetto", required_argument, 0, 0x150},
     "    --perfetto OUT.json  also write the recording as a trace the Perfetto UI (ui.perfetto.dev)\n"
     "                        and chrome://tracing open: a counter track per counter (delta per\n"
     "                        interval) and per metric, gaps marked (docs/perfetto.md); OUT.json\n"
     "                        appears only when whole, an existing one moves to OUT.json.old\n"
     "                        unless --force"},
    {OPT_HTML, {"html", required_argument, 0, 0x180},
     "    --html FILE       write the recording's charts as one self-contained page (opens offline in\n"
     "                        a browser: the live page's dashboards, zoom, hover; docs/charts.md;\n"
     "                        '-': standard output)"},
    /* diff's: the same letters as stat's and report's, in diff's words (no command takes both) */
    {OPT_DIFF, {"events", required_argument, 0, 'e'},
     "-e, --events PATTERNS only these counters and function values: comma-separated globs on\n"
     "                        their names ('tile*.l2_*', 'fn.*.cycles')"},
    {OPT_DIFF, {"metrics", required_argument, 0, 'M'},
     "-M, --metrics PATTERNS only these metrics: globs on 'instance.metric' or 'metric'"},
    {OPT_DIFF, {"output", required_argument, 0, 'o'},
     "-o, --output FILE     write the comparison there instead of stdout (whole or not at all)"},
    {OPT_DIFF, {"only-changed", no_argument, 0, OPT_LONG_ONLY_CHANGED},
     "    --only-changed    leave out the values that did not change"},
    {OPT_DIFF, {"html", required_argument, 0, 0x180},
     "    --html FILE       also write one self-contained page: each chart overlays the two runs\n"
     "                        (baseline dashed), above the table ('-': standard output)"},
    {OPT_CHECK, {"rules", required_argument, 0, OPT_LONG_RULES},
     "    --rules FILE      the rules: lines 'PATTERN LIMIT' (fn.*.cycles +0, ipc -2%, *.noc_bp* \xc2\xb1" "5%)"},
    {OPT_CHECK, {"junit", required_argument, 0, OPT_LONG_JUNIT},
     "    --junit FILE      also write the verdicts as JUnit XML (a testcase per rule)"},
    {OPT_CHECK, {"markdown", required_argument, 0, OPT_LONG_MARKDOWN},
     "    --markdown FILE   also write a summary for a pull-request comment"},
    {OPT_CHECK, {"update", no_argument, 0, OPT_LONG_UPDATE},
     "    --update          after the check, make NEW the baseline: BASELINE is replaced by a copy of\n"
     "                        NEW (whole or not at all); the exit status is the check's"},
    {OPT_BIG_NUM, {"no-big-num", no_argument, 0, 'G'},
     "    --no-big-num      no thousands separators in tables and live lines (1234567, not 1,234,567)"},
    {OPT_BIG_NUM, {"zeros", no_argument, 0, 0x1c0},
     "    --zeros           list every counter that stayed 0 (a table folds 10 or more into one line)"},
    {OPT_FLUSH, {"flush", required_argument, 0, 'L'},
     "    --flush TIME      write the samples so far to disk this often, wall-clock time (default 1s):\n"
     "                        the most a killed recorder can lose"},
    {OPT_FORCE, {"force", no_argument, 0, 'f'},
     "-f, --force           overwrite FILE instead of moving it to FILE.old; write through a device\n"
     "                        node, FIFO or symlink at FILE (never replacing it)"},
    {OPT_REMOTE, {"remote", required_argument, 0, 0x160},
     "    --remote HOST:PORT  take the samples from 'socmon agent' there instead of a local target\n"
     "                        (-t, -w and -I are then the agent's; -e asks the agent to count those\n"
     "                        events instead, which it does only with --allow-config; docs/agent.md)"},
    {OPT_REMOTE, {"token-file", required_argument, 0, 0x161},
     "    --token-file FILE with --remote: the agent's token (first line of FILE)"},
    {OPT_REMOTE, {"agent-timeout", required_argument, 0, 0x168},
     "    --agent-timeout TIME  with --remote: give up when the agent sends nothing for this long\n"
     "                        (default 5s; a live agent sends STATS every second), exit status 1"},
    {OPT_REMOTE, {"from", required_argument, 0, 0x169},
     "    --from now|oldest with --remote: start at the agent's next sample (now) or at the oldest\n"
     "                        it still holds (default: now with -d, else oldest)"},
    {OPT_TRACE, {"trace-bus", required_argument, 0, 'T'},
     "    --trace-bus FILE  log every register access of the driver to FILE ('-': stderr)"},
    {OPT_HTTP, {"http", required_argument, 0, 0x170},
     "    --http ADDR:PORT  serve the live page, its API and /metrics there (default 127.0.0.1:7462;\n"
     "                        port 0: any free port; an address other than loopback needs --token-file)"},
    /* socmon agent's: some share a name (and a field) with serve's or --remote's options, with
     * the help that says what they do on the agent (no command takes both bits) */
    {OPT_AGENT, {"listen", required_argument, 0, OPT_LONG_LISTEN},
     "    --listen ADDR:PORT  where collectors connect (default 127.0.0.1:" STR(NET_DEFAULT_PORT) "; port 0: any\n"
     "                        free port); an address other than loopback needs --token-file"},
    {OPT_AGENT, {"token-file", required_argument, 0, 0x161},
     "    --token-file FILE collectors must present the token on this file's first line\n"
     "                        (mode 600); compared in constant time, refusals logged"},
    {OPT_AGENT, {"allow-config", no_argument, 0, OPT_LONG_ALLOW_CONFIG},
     "    --allow-config    let collectors change the counted events (CONFIG frames);\n"
     "                        refused and logged otherwise: the agent is read-only by default"},
    {OPT_AGENT, {"ring", required_argument, 0, OPT_LONG_RING},
     "    --ring SAMPLES    ring size in samples (default 65536, less for very wide samples:\n"
     "                        at most 64 MiB of values)"},
    {OPT_AGENT, {"no-pace", no_argument, 0, 0x172},
     "    --no-pace         run a model as fast as it goes instead of paced to the wall clock\n"
     "                        (it then waits for subscribed collectors when the ring is full)"},
    {OPT_AGENT, {"max-clients", required_argument, 0, OPT_LONG_MAX_CLIENTS},
     "    --max-clients N   collectors at once (default 8; more are refused)"},
    {OPT_AGENT, {"wire-version", required_argument, 0, OPT_LONG_WIRE_VERSION},
     "    --wire-version N  the protocol version to speak, 1 or 2 (default 2: samples as the counters\n"
     "                        that moved; 1 for collectors of socmon before it; docs/agent-protocol.md)"},
    {OPT_AGENT, {"port-file", required_argument, 0, 0x171},
     "    --port-file FILE  write the port listened on to FILE (for scripts with --listen :0)"},
    {OPT_AGENT, {"wait-collector", no_argument, 0, OPT_LONG_WAIT_COLLECTOR},
     "    --wait-collector  start sampling when the first collector subscribes"},
    {OPT_AGENT, {"exit-when-drained", no_argument, 0, OPT_LONG_EXIT_DRAINED},
     "    --exit-when-drained  exit once the run is over and every collector got its end"},
    {OPT_AGENT, {"user", required_argument, 0, OPT_LONG_USER},
     "    --user NAME       as root, switch to this user once the target is open and the\n"
     "                        socket bound (default: nobody)"},
    {OPT_AGENT, {"http", required_argument, 0, 0x170},
     "    --http ADDR:PORT  also serve the live page and /metrics there (docs/live.md; port 0:\n"
     "                        any free port; the token of --token-file guards it too)"},
    {OPT_AGENT, {"http-port-file", required_argument, 0, OPT_LONG_HTTP_PORT_FILE},
     "    --http-port-file FILE  write the port --http bound to FILE"},
    {OPT_HTTP | OPT_AGENT, {"http-host", required_argument, 0, 0x173}, /* serve's and the agent's --http */
     "    --http-host NAMES  also answer requests whose Host is one of these names (comma-separated;\n"
     "                        repeatable; '*': any). Without it only localhost and IP addresses are\n"
     "                        answered, so no other web page can reach the server through DNS\n"
     "                        rebinding; others get 403"},
    {OPT_HTTP, {"port-file", required_argument, 0, 0x171},
     "    --port-file FILE  write the port --http bound to FILE (for scripts that ask for port 0)"},
    {OPT_HTTP, {"no-pace", no_argument, 0, 0x172},
     "    --no-pace         run a model as fast as it goes instead of at wall-clock pace"},
    {OPT_AGENT, {"quiet", no_argument, 0, 'q'}, "-q, --quiet           no log of connections"},
    {OPT_REMOTE_WRITE, {"remote-write", required_argument, 0, OPT_LONG_RW},
     "    --remote-write URL  push the series of /metrics to a Prometheus Remote-Write receiver\n"
     "                        (http://HOST:9090/api/v1/write; user:password@HOST for basic auth;\n"
     "                        docs/prometheus.md); a slow or absent receiver never holds up sampling"},
    {OPT_REMOTE_WRITE, {"remote-write-token-file", required_argument, 0, OPT_LONG_RW_TOKEN},
     "    --remote-write-token-file FILE  send the token on FILE's first line as a bearer token"},
    {OPT_REMOTE_WRITE, {"push-interval", required_argument, 0, OPT_LONG_RW_PUSH},
     "    --push-interval TIME  one point per TIME of the run, its intervals merged (default 1s;\n"
     "                        at most one per sampling interval)"},
    {OPT_REMOTE_WRITE, {"remote-write-queue", required_argument, 0, OPT_LONG_RW_QUEUE},
     "    --remote-write-queue N  points held while the receiver is down (default 600), then the\n"
     "                        oldest are dropped and counted (socmon_remote_write_dropped_total)"},
};

const size_t cli_nopts = sizeof cli_opt_table / sizeof cli_opt_table[0];
_Static_assert(sizeof cli_opt_table / sizeof cli_opt_table[0] <= CLI_MAX_OPTS, "raise CLI_MAX_OPTS");
