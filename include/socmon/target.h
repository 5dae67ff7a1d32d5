/* Targets: a device plus a way to make time pass on it.
 *
 * A target is what the CLI and library users open by name: the built-in
 * virtual ESP SoC ("esp"), a Tensix core model ("tensix"), a Zynq model
 * ("zynq"), or real hardware. On a model target, time is simulated: advancing
 * runs the workload model for that long. On hardware, advancing sleeps.
 *
 * A target spec is NAME or NAME:key=value,key=value (e.g.
 * "esp:soc=my.soc", "tensix:bound=math,tiles=64"). Each target declares its
 * options as a table (socmon_option): unknown keys are errors naming the key
 * and listing the valid ones; bad values name the value and its valid range. */
#ifndef SOCMON_TARGET_H
#define SOCMON_TARGET_H

#include "socmon/export.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "socmon/bus.h"
#include "socmon/device.h"
#include "socmon/metrics.h"
#include "socmon/phase.h"
#include "socmon/profile.h"
#include "socmon/result.h"

SOCMON_BEGIN_DECLS

typedef struct socmon_target socmon_target;

typedef struct socmon_kv {
    const char *key;
    const char *value;
} socmon_kv;

/* ---- target options, declared as tables ----
 *
 * A target declares its options as a table of socmon_option, ended by an
 * entry with name NULL. One parser (socmon_options_parse) turns
 * key=value pairs into the target's own options struct: it rejects unknown
 * keys (listing the valid ones), converts and range-checks each value with a
 * message naming the key, the value and the valid range or set
 * ("zynq: slots=9 out of range 1..8"), and fills in defaults. `socmon list`
 * and the CLI's help print the same table (socmon_options_help). */
typedef enum socmon_opt_type {
    SOCMON_OPT_BOOL,     /* "0" or "1"; stored as int */
    SOCMON_OPT_UINT,     /* whole number, decimal or 0x hex (or 1e3), read exactly, within
                            lo..hi; uint64_t */
    SOCMON_OPT_DOUBLE,   /* number within lo..hi; double */
    SOCMON_OPT_STRING,   /* any text; const char * (into the caller's kv value) */
    SOCMON_OPT_PATH,     /* a file or device name, not empty; const char * */
    SOCMON_OPT_CHOICE,   /* one of choices[]; stored as unsigned, its index */
    SOCMON_OPT_LIST      /* items joined by '+' (',' separates options), 1..hi of them
                            (hi 0: any number); const char *, items parsed by the target */
} socmon_opt_type;

typedef struct socmon_option socmon_option;

struct socmon_option {
    const char *name;
    socmon_opt_type type;
    const char *help;             /* one line, without the default */
    const char *def;              /* default, as the text a user would give; NULL: none
                                     (the field keeps what the target put there) */
    double lo, hi;                /* UINT/DOUBLE: valid range (lo == hi == 0: any);
                                     LIST: hi = most items */
    const char *const *choices;   /* CHOICE: NULL-terminated */
    const char *arg;              /* placeholder in help ("FILE"); NULL: from the type */
    size_t offset;                /* where the value goes in the options struct */
    /* Optional: converts the value instead of the type's rule (for
     * vocabularies owned by a model). out is the whole options struct; a
     * failure's message gets "TARGET: " in front. The type still decides
     * the help's placeholder and choices. */
    socmon_status (*parse)(const socmon_option *opt, const char *value, void *out);
};

/* Parses kv into out (a struct the table's offsets point into): first every
 * default, then each given value; a key given twice is an error. *given (may be NULL) gets bit i set for
 * each table entry i given in kv (tables hold at most 64 options). The
 * strings stored point into kv. who names the target in messages. */
socmon_status socmon_options_parse(const char *who, const socmon_option *table, const socmon_kv *kv,
                                   size_t nkv, void *out, uint64_t *given);
/* SOCMON_OK if key is in the table, else SOCMON_EINVAL naming the valid keys. */
socmon_status socmon_options_check_key(const char *who, const socmon_option *table, const char *key);
/* Writes the table's help, one option a line ("  slots=N  monitored AXI
 * slots (1..8, default 5)"), each line starting with indent; returns the
 * length it needed, like snprintf. */
size_t socmon_options_help(const socmon_option *table, const char *indent, char *buf, size_t len);

/* ---- targets ---- */

/* What a target implementation provides. Built-in targets are listed in
 * src/targets/registry.c; users may open their own with socmon_target_open_ops.
 * A target backed by a socmon model is declared with the generic model target
 * (src/targets/model_target.h); a user's own target fills these callbacks. */
typedef struct socmon_target_ops socmon_target_ops;

/* Public because socmon_target_ops' grid op fills them: one cell of a target's grid. */
typedef struct socmon_grid_tile {
    char instance[32];   /* the counters' instance in this cell ("tile3") */
    unsigned x, y;       /* column and row */
    const char *type;    /* what the cell is ("cpu", "mem", "acc", "io", "empty"): static text */
} socmon_grid_tile;

typedef struct socmon_grid {
    const char *kind;    /* the layout's name, which the web page draws by ("esp-grid") */
    unsigned rows, cols;
    int planes;          /* layers of the network between cells (ESP's NoC planes), 0: unknown */
} socmon_grid;

/* Public because socmon_target_ops' program_end op returns it: how a program a target runs
 * ended (the CLI's exit status follows it). */
typedef enum socmon_program_end {
    SOCMON_PROGRAM_RUNNING,   /* not finished (yet) */
    SOCMON_PROGRAM_HALTED,    /* it said so (Ibex: wrote SimCtrl's halt register) */
    SOCMON_PROGRAM_TRAPPED,   /* an exception whose handler never returns */
    SOCMON_PROGRAM_LIMIT,     /* its cycle budget (max_cycles) ran out */
    SOCMON_PROGRAM_HANG       /* asleep forever, or a jump to itself with interrupts off */
} socmon_program_end;

struct socmon_target_ops {
    const char *name;
    const char *desc;
    const socmon_option *options;    /* the option table, or NULL: no options */
    const char *const *workloads;    /* NULL-terminated; workloads[0] is the default. An entry
                                        "NAME:ARGS" (a ':' in it) takes arguments: any workload
                                        "NAME:..." is the target's to parse */
    const char *metrics;             /* name of the built-in metric file, or NULL */
    int simulated;                   /* 1: time is simulated, no sleeping needed */
    const char *hotspots;            /* counter pattern whose largest deltas `stat` lists
                                        as hot spots (e.g. NoC backpressure), or NULL */
    /* self: the ops being opened (a copy, if the caller copied them). kv
     * holds only keys of self->options (socmon_target_open_ops checked);
     * open converts the values with socmon_options_parse into its own
     * options struct. Sets *priv and *dev, or fails and frees what it made. */
    socmon_status (*open)(const socmon_target_ops *self, const socmon_kv *kv, size_t nkv, void **priv,
                          socmon_device **dev);
    /* Begin a workload (NULL: the default). A model target nobody started
     * runs its default workload from the first advance. */
    socmon_status (*start)(void *priv, const char *workload);
    /* Let ns of target time pass; *done = 1 once the workload has finished.
     * A model simulates ns. Hardware needs no help for time to pass: its
     * advance only updates *done and returns at once; the waiting is done
     * by socmon_target_advance (or the sampler, to its deadlines). */
    socmon_status (*advance)(void *priv, uint64_t ns, int *done);
    uint64_t (*now_ns)(void *priv);
    void (*close)(void *priv);       /* frees priv and the device */
    /* Optional: 1 if this opened instance is real hardware although the
     * target is a model by default (e.g. esp:devmem=1), so it is paced in
     * real time. */
    int (*hardware)(void *priv);
    /* Optional: the bus the device's driver reads through (model or
     * hardware, trace wrapper included), for socmon_target_bus. */
    socmon_bus *(*bus)(void *priv);
    /* Optional: the model instance behind this opened instance, NULL on hardware. */
    void *(*model)(void *priv);
    uint64_t default_interval_ns;    /* sampling interval when none is given; 0: 1 ms */
    const void *impl;                /* for the implementation: the generic model
                                        target keeps its declaration here */
    /* Optional, hardware only: waits until CLOCK_MONOTONIC reaches deadline_ns or the
     * target's run ends first (a host command exits), whichever comes first; returns 1 if
     * the run ended. The sampler then takes the last sample at once instead of sleeping
     * out the interval. Without it the sampler sleeps to the deadline. */
    int (*wait)(void *priv, uint64_t deadline_ns);

    /* ---- capabilities: what the CLI, the exports and the agent ask a target instead of
     * comparing its name (docs/architecture.md, "Target capabilities"). Members are only
     * ever added here, at the end, so a declaration with designated initialisers keeps
     * compiling; a target leaves what it cannot do NULL or 0. ---- */
    unsigned caps;                   /* SOCMON_TARGET_* bits below */
    /* Optional: writes the names of the events the target takes (its -e vocabulary, when
     * that is not just its counters' names) to fp, as `socmon list TARGET` shows them. A
     * FILE because the list is read from the running system (the host's PMUs in sysfs). */
    void (*list_events)(FILE *fp);
    /* Optional: where a device's counters sit on a grid, for the heat map of the web page
     * (export/web_json.c builds the page's layout from this). Reads only counters and
     * parameters, as a recording or a remote agent gives them, so it needs no opened target.
     * Fills *grid and tiles[0..max); returns the number of tiles the grid has (more than max:
     * call again with room for them), 0 when these counters make no grid. */
    size_t (*grid)(const socmon_counter *counters, size_t ncounters, size_t nparams,
                   const char *const *param_names, const double *param_values, socmon_grid *grid,
                   socmon_grid_tile *tiles, size_t max);
    /* Optional, for a target that runs a program file (option "program", the CLI's
     * `-t TARGET -- prog.elf`): sends the program's console output (Ibex's SimCtrl) to fn,
     * one call per byte as it is produced; without it the output collects in the model. */
    void (*program_output)(void *priv, void (*fn)(void *ctx, uint8_t byte), void *ctx);
    /* Optional, with program_output: how the program ended; msg gets one line saying it. */
    socmon_program_end (*program_end)(void *priv, char *msg, size_t len);
    /* sizeof(socmon_target_ops) as the declaration was built, or 0 (this layout): members are
     * only added after this one, and the library reads them only where size covers them
     * (socmon_target_open_ops refuses another size with SOCMON_EINVAL). */
    size_t size;
    /* Optional, for a target whose model sees every instruction of the program it runs (ibex
     * with symbols=1): the program's exact profile so far (socmon/profile.h), the caller's to
     * free with socmon_profile_free. */
    socmon_status (*profile)(void *priv, socmon_profile **out);
    /* Optional, for a target that knows when a program stopped its counters (ibex: mcountinhibit):
     * fills out[0..max) with the counters that counted less than the run because of it; returns
     * how many there are. */
    size_t (*inhibited)(void *priv, socmon_inhibited *out, size_t max);
    /* The shortest sampling interval the target can do, or 0 (no limit): one sample reads every
     * counter over the device's bus, and an interval shorter than that would measure the
     * sampler rather than the workload. The sampler refuses a shorter interval with
     * SOCMON_ERANGE, naming both (docs/architecture.md, "Target capabilities"). */
    uint64_t min_interval_ns;
    /* Optional, for a target whose workload has phases (esp's multifft): fills out[0..max) with
     * the phases begun so far, on the clock of now_ns, the one running ending now; returns how
     * many there are (more than max: call again with room). */
    size_t (*phases)(void *priv, socmon_phase *out, size_t max);
    /* Optional, for a target whose workload has results of its own (esp's noc-trace and noc:
     * cycles to the drain, packets, latency): fills out[0..max) with the results of the run so
     * far; returns how many there are (more than max: call again with room). */
    size_t (*results)(void *priv, socmon_result *out, size_t max);
    /* Optional, for a target that runs a command or a program (`-- ARGV`: the host's command,
     * Ibex's ELF): open as open does, with argv (NULL-terminated, at least one word) as it
     * was given, never pasted into an option. A target without it refuses an argv. */
    socmon_status (*open_argv)(const socmon_target_ops *self, const socmon_kv *kv, size_t nkv,
                               char *const argv[], void **priv, socmon_device **dev);
};

/* socmon_target_ops.caps */
/* Runs the command given after `--` (socmon_target_open_command) and takes the CLI's -e as
 * the names of the events it opens (option "events"), -C and -a as options "cpus" and "all".
 * `socmon stat -- cmd` without -t opens the first built-in target declaring it. */
#define SOCMON_TARGET_RUNS_COMMAND 0x1u

size_t socmon_target_count(void);
const socmon_target_ops *socmon_target_at(size_t i);
const socmon_target_ops *socmon_target_lookup(const char *name);
/* The first built-in target whose caps hold every bit of caps, or NULL. */
const socmon_target_ops *socmon_target_with_caps(unsigned caps);

socmon_status socmon_target_open(const char *spec, socmon_target **out);
/* socmon_target_open with more options taken as they are, not parsed out of a spec: a value
 * may hold ',' or '=' (a file name such as "trace,a=b.txt" for trace_bus). Keys are checked
 * like the spec's; an extra option given in the spec too overrides it. The target's spec
 * (socmon_target_spec) stays spec. */
socmon_status socmon_target_open_kv(const char *spec, const socmon_kv *extra, size_t nextra,
                                    socmon_target **out);
/* Opens a target from its ops, for targets a user declares: fill name,
 * desc, options (or NULL), workloads, simulated and the callbacks open,
 * advance, now_ns and close (start, hardware, bus, model and the capabilities optional). Keys of
 * opts are checked against ops->options before ops->open runs; open parses
 * the values with socmon_options_parse. docs/architecture.md shows one. */
socmon_status socmon_target_open_ops(const socmon_target_ops *ops, const socmon_kv *opts,
                                     size_t nopts, socmon_target **out);
void socmon_target_close(socmon_target *t);
/* socmon_target_open_kv for a target that runs a command (SOCMON_TARGET_RUNS_COMMAND), running
 * argv (NULL-terminated; NULL or empty: no command; the op open_argv gets it as it is).
 * SOCMON_EINVAL if spec's target runs no command. */
socmon_status socmon_target_open_command(const char *spec, const socmon_kv *extra, size_t nextra,
                                         char *const argv[], socmon_target **out);

/* ---- Target specs: "NAME[:key=value,...]", and a combined run's "SPEC;SPEC" (src/targets/spec.c,
 * the one parser; nothing else cuts a spec's text) ---- */
typedef struct socmon_spec socmon_spec;
/* Parses one target's spec: its name and its options in order (keys are checked against the
 * target's table when it is opened). SOCMON_EINVAL names what is wrong: empty, no name, an option
 * that is not key=value, several targets (';'). */
socmon_status socmon_spec_parse(const char *text, socmon_spec **out);
/* A spec of target name with no options. */
socmon_status socmon_spec_new(const char *name, socmon_spec **out);
void socmon_spec_free(socmon_spec *s);
const char *socmon_spec_name(const socmon_spec *s);
/* The declaration of its target, NULL for a name no built-in target has. */
const socmon_target_ops *socmon_spec_target(const socmon_spec *s);
/* The options, in order (*kv valid until the spec changes); how many. */
size_t socmon_spec_options(const socmon_spec *s, const socmon_kv **kv);
/* The value of key, NULL when the spec does not set it. */
const char *socmon_spec_get(const socmon_spec *s, const char *key);
/* Sets key to a copy of value, replacing the spec's first value of key or adding it last; the
 * value is kept whole (it may hold ',' or '='). */
socmon_status socmon_spec_set(socmon_spec *s, const char *key, const char *value);
/* socmon_spec_set for this opening only: socmon_spec_text, and so the opened target's
 * socmon_target_spec, leave the option out (the CLI's -e, -C, -a and --trace-bus belong to the
 * command line, not to the target's spec). */
socmon_status socmon_spec_set_extra(socmon_spec *s, const char *key, const char *value);
/* The command or program the target runs (the CLI's `-- ARGV`), copied; argv may be NULL (or
 * empty): none. */
socmon_status socmon_spec_set_argv(socmon_spec *s, char *const argv[]);
/* The argv set, or NULL. */
char *const *socmon_spec_argv(const socmon_spec *s);
/* "NAME:key=value,..." (neither argv nor the extras are part of it), malloc'd, the caller's to
 * free; NULL when out of memory. */
char *socmon_spec_text(const socmon_spec *s);
/* Opens the spec's target with its options and argv (the op open_argv). */
socmon_status socmon_target_open_spec(const socmon_spec *spec, socmon_target **out);
/* A spec's text as recordings, sweeps and agents carry it: its target's name (a combined run's
 * first member's) into buf, cut to len - 1, returned; the declaration of its target (NULL for an
 * unknown name or a combined run); the number of members (1 for one target, 0 for ""); member
 * i's text into buf (NULL past the last). */
const char *socmon_spec_name_of(const char *text, char *buf, size_t len);
const socmon_target_ops *socmon_spec_ops_of(const char *text);
size_t socmon_spec_members(const char *text);
const char *socmon_spec_member(const char *text, size_t i, char *buf, size_t len);
/* A program's output and end on a target that runs one (the ops program_output and
 * program_end): -1 / SOCMON_PROGRAM_RUNNING ("program still running" in msg) for a target
 * without them. */
int socmon_target_program_output(socmon_target *t, void (*fn)(void *ctx, uint8_t byte), void *ctx);
socmon_program_end socmon_target_program_end(const socmon_target *t, char *msg, size_t len);
/* The exact profile of the program the target runs (the op profile): SOCMON_ENOENT from a
 * target without one (no such model, or symbols off). */
socmon_status socmon_target_profile(socmon_target *t, socmon_profile **out);
/* The counters the program stopped for part of its run (the op inhibited): how many (0 for a
 * target that cannot tell), out[0..max) filled. */
size_t socmon_target_inhibited(socmon_target *t, socmon_inhibited *out, size_t max);
/* The phases of the workload the target runs so far (the op phases): how many (0 for a target
 * that has none), out[0..max) filled. */
size_t socmon_target_phases(socmon_target *t, socmon_phase *out, size_t max);
/* The results of the workload the target runs (the op results): how many (0 for a target or a
 * workload without any), out[0..max) filled. */
size_t socmon_target_results(socmon_target *t, socmon_result *out, size_t max);
/* 1 if workload is one of ops' workloads: the same name, or for an entry "NAME:ARGS" any
 * "NAME:..." (the target parses the rest). */
int socmon_target_has_workload(const socmon_target_ops *ops, const char *workload);

const socmon_target_ops *socmon_target_ops_of(const socmon_target *t);
/* SOCMON_OK when the target can sample every interval_ns; SOCMON_ERANGE naming both when it is
 * below the target's min_interval_ns (the sampler checks the same; a caller that creates files
 * first asks before). */
socmon_status socmon_target_check_interval(const socmon_target *t, uint64_t interval_ns);
const char *socmon_target_spec(const socmon_target *t);
socmon_device *socmon_target_device(const socmon_target *t);
/* Starts workload on the target (NULL: the target's default). */
socmon_status socmon_target_start(socmon_target *t, const char *workload);
/* Lets ns of target time pass: simulates them on a model, sleeps on hardware.
 * A model whose workload ends inside the step stops its clock there and sets
 * *done, so socmon_target_now_ns is the workload's end; later calls let time
 * pass with the workload over. done may be NULL. */
socmon_status socmon_target_advance(socmon_target *t, uint64_t ns, int *done);
uint64_t socmon_target_now_ns(const socmon_target *t);
/* 1 if time on this target is real (hardware): sampling sleeps to deadlines. */
int socmon_target_is_hardware(const socmon_target *t);
/* The bus the target's driver reads through (model bus or the hardware
 * mapping, behind the trace_bus recorder if one was asked for): a user's own
 * driver can run against socmon's model or the board through it. NULL if
 * the target has no bus. Owned by the target. */
socmon_bus *socmon_target_bus(const socmon_target *t);
/* The model instance behind t if t is the model target named target_name
 * ("esp", "zynq", "tensix") and not a hardware instance of it, else NULL.
 * Its type is the model's (socmon/esp.h and the like give typed accessors). */
void *socmon_target_model(const socmon_target *t, const char *target_name);
/* Loads the target's built-in metric file (SOCMON_ENOENT if it has none). */
socmon_status socmon_target_metrics(const socmon_target *t, socmon_metricset **out);

/* For target implementations. A target that reaches its device over a bus
 * lists "trace_bus" among its options and passes its bus through this:
 * with trace_bus=PATH in opts, *out is a recording bus over inner that logs
 * every access to PATH (the CLI's --trace-bus); without it, *out = inner.
 * Free *trace (may be NULL) after the last use of *out. */
typedef struct socmon_bus_trace socmon_bus_trace;
socmon_status socmon_bus_trace_open(const socmon_kv *opts, size_t nopts, socmon_bus *inner,
                                    socmon_bus **out, socmon_bus_trace **trace);
void socmon_bus_trace_close(socmon_bus_trace *trace);
/* Writes out what t's trace_bus log still buffers and returns the first failure of any write
 * of the log, naming its path and errno (SOCMON_EIO); SOCMON_OK for a target without a trace.
 * An access whose log line fails already fails with that error, which stops a run; call this
 * at the end of a run so the last lines are checked too. t NULL has no trace either: SOCMON_OK. */
socmon_status socmon_target_trace_flush(socmon_target *t);

/* ==== several targets on one clock (issue 14) ==== */
/* Combines 2..8 opened targets into one: its device is the union of their counters (names
 * unchanged; two members with a counter of the same full name fail, naming both); if any
 * member is real (the host, a board) its clock is CLOCK_MONOTONIC and each model member is
 * advanced by the real time that passed, otherwise all are simulated together. The run ends
 * when the member running a command (the host's) ends, else when the first workload ends.
 * Its spec is the members' joined by ';' ("host;zynq"), and its metrics are the members'
 * metric files merged (socmon_metrics_for_spec). On success the combination owns the
 * members; on failure they stay the caller's. docs/combined.md. */
socmon_status socmon_target_combine(socmon_target *const *members, size_t n, socmon_target **out);
/* Member i of a combined target (NULL past the last, or if t is not combined). */
socmon_target *socmon_target_member(const socmon_target *t, size_t i);
/* The built-in metrics of a target spec: its target's file, or for a combined spec
 * ("host;zynq:...") the members' files merged into one set: each metric keeps its file's
 * "absent" rule, and a metric whose name an earlier member's file has already is renamed
 * TARGET_NAME (zynq_ipc), with the references in its own file's later metrics. SOCMON_ENOENT
 * if no member has metrics. */
socmon_status socmon_metrics_for_spec(const char *spec, socmon_metricset **out);
/* The built-in metric set of a target: ops's, or (ops NULL) that of spec's target, or a combined
 * spec's members' merged (socmon_metrics_for_spec). SOCMON_ENOENT when it has none. The one
 * lookup: socmon_target_metrics and socmon_source_metricset use it. */
socmon_status socmon_metrics_for_target(const socmon_target_ops *ops, const char *spec, socmon_metricset **out);

/* Built-in metric files compiled into the library from metrics/NAME.json. */
const char *socmon_builtin_metrics(const char *name);

SOCMON_END_DECLS
#endif
