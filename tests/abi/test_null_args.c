/* Every public function with each of its pointer arguments NULL in turn (issue 37, item 20).
 *
 * The table (null_args_gen.py, at build time) lists every function the public headers declare,
 * include/socmon/ and include/compat/ alike. For each pointer parameter the function is called
 * with it NULL and every other argument valid: opaque objects made through the public API
 * (an ESP target, its set, a pipeline...), zeroed memory for the rest, 1 for every number. Each
 * call runs in a child of its own (fork), so a crash or a hang is a failure of that one call.
 *   - A function returning socmon_status must return an error, never SOCMON_OK, and say why
 *     (a message), unless its comment allows that NULL ("NULL: the target's default"); then it
 *     must not crash.
 *   - Any other function may crash on a NULL only where its comment says it needs it ("t must
 *     not be NULL"): else, and where its comment allows NULL, it must survive the call.
 * A new function is checked the day it is declared; a new opaque type needs a line in make(). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "abi/null_args.h"
#include "models/perf/perf_model.h"
#include "socmon/socmon.h"
#include "socmon/analysis.h"
#include "socmon/check.h"
#include "socmon/compare.h"
#include "socmon/findings.h"
#include "socmon/sweep.h"
#include "socmon/tensix.h"
#include "socmon/zynq.h"
#include "esp_monitors.h"
#include "llk_perf_counters.h"
#include "llk_perf_host.h"

#if defined(__SANITIZE_ADDRESS__)
#define LSAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define LSAN 1
#endif
#endif
#ifdef LSAN
#include <sanitizer/lsan_interface.h>
#endif

#define ZERO_BYTES 65536          /* more than any public struct or array of one element */
#define MAX_ARGS 16

/* A caller's own context, handed back to its callbacks or its model: NULL is the caller's to
 * give, so the library never looks behind it. */
static const char *const contexts[] = {"user", "ctx", "priv", "model", "self", "drv", "clock_user", NULL};

/* Functions issue 37 found crashing on NULL, and two more this test found: their error names
 * the argument ("socmon_pipeline_gap: g (the gap) is NULL"). */
static const char *const named[] = {
    "socmon_pipeline_finish", "socmon_pipeline_begin", "socmon_pipeline_sample", "socmon_pipeline_gap",
    "socmon_pipeline_tick", "socmon_pipeline_end", "socmon_pipeline_consumer_status",
    "socmon_tensix_drv_load_config", "socmon_tensix_drv_store_config", "socmon_tensix_kernel_costs",
    "socmon_zynq_soc_start", "socmon_zynq_soc_set_traffic", "socmon_zynq_soc_set_cpu",
    "socmon_bus_trace_open", NULL};

/* msg names parameter name as the NULL one: "name is NULL" or "name (what it is) is NULL". */
static int names_null(const char *msg, const char *name)
{
    size_t n = strlen(name);
    for (const char *p = strstr(msg, name); p; p = strstr(p + 1, name)) {
        if (p != msg && p[-1] != ' ')
            continue;
        const char *r = p + n;
        if (*r == ' ' && r[1] == '(')
            r = strchr(r, ')') ? strchr(r, ')') + 1 : r;
        if (strncmp(r, " is NULL", 8) == 0)
            return 1;
    }
    return 0;
}

/* Functions whose status is not a verdict on their arguments: they report one. */
static const char *const reporters[] = {"socmon_fail", "socmon_fail_prefix", NULL};

static int in(const char *const *list, const char *s)
{
    for (; *list; list++)
        if (strcmp(*list, s) == 0)
            return 1;
    return 0;
}

/* Zeroed memory for one call's arguments, freed after the call (free_zeroed). */
static void *arena[4 * MAX_ARGS];
static size_t narena;

static void *zeroed(void)
{
    assert_true(narena < sizeof arena / sizeof arena[0]);
    void *p = calloc(1, ZERO_BYTES);
    assert_non_null(p);
    return arena[narena++] = p;
}

static void free_zeroed(void)
{
    while (narena)
        free(arena[--narena]);
}

/* ---- valid objects, made once in the parent (children inherit them) ---- */

static socmon_target *esp, *tensix, *zynq;
static socmon_set *esp_set;

static socmon_target *open_target(const char *spec)
{
    socmon_target *t = NULL;
    if (socmon_target_open(spec, &t) != SOCMON_OK)
        fail_msg("%s: %s", spec, socmon_errmsg());
    return t;
}

static const char *write_file(const char *name, const char *text)
{
    FILE *f = fopen(name, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
    return name;
}

static const char *stat_json =
    "{\"target\": \"esp\", \"counters\": [{\"name\": \"cycles\", \"value\": 10}],"
    " \"metrics\": [{\"name\": \"ipc\", \"value\": 1.5}]}";

static socmon_run *a_run(void)
{
    socmon_run *r = NULL;
    if (socmon_run_open(write_file("run.json", stat_json), NULL, &r) != SOCMON_OK)
        fail_msg("run: %s", socmon_errmsg());
    return r;
}

static socmon_source *a_source(void)
{
    socmon_source *s = NULL;
    socmon_source_target_opts o = {.size = sizeof o, .sampler = {.interval_ns = 100000, .duration_ns = 200000}};
    if (socmon_source_target(esp, esp_set, &o, &s) != SOCMON_OK)
        fail_msg("source: %s", socmon_errmsg());
    return s;
}

/* A valid object of an opaque type, or NULL when make() knows none (the test fails on it). */
static void *make_opaque(const char *type)
{
    socmon_status st = SOCMON_OK;
    void *o = NULL;
    if (!strcmp(type, "socmon_target"))
        o = esp;
    else if (!strcmp(type, "socmon_device"))
        o = socmon_target_device(esp);
    else if (!strcmp(type, "socmon_set"))
        o = esp_set;
    else if (!strcmp(type, "socmon_bus"))
        st = socmon_bus_model_new((socmon_bus **)&o);
    else if (!strcmp(type, "socmon_bus_trace")) {
        socmon_kv kv = {.key = "trace_bus", .value = "trace.log"};
        socmon_bus *b;
        st = socmon_bus_trace_open(&kv, 1, socmon_target_bus(esp), &b, (socmon_bus_trace **)&o);
    } else if (!strcmp(type, "socmon_timeline"))
        st = socmon_timeline_new(socmon_set_size(esp_set), (socmon_timeline **)&o);
    else if (!strcmp(type, "socmon_metricset"))
        st = socmon_target_metrics(esp, (socmon_metricset **)&o);
    else if (!strcmp(type, "socmon_metrics")) {
        socmon_pipeline *p = make_opaque("socmon_pipeline");
        o = (void *)socmon_pipeline_metrics(p);
    } else if (!strcmp(type, "socmon_scaling")) {
        socmon_pipeline *p = make_opaque("socmon_pipeline");
        o = (void *)socmon_pipeline_scaling(p);
        if (!o) {   /* the ESP's counters have no perf time counters: a perf pair of our own */
            static const socmon_counter c[2] = {{.name = "cycles", .width = 64},
                                                {.name = "cycles--enabled", .width = 64}};
            static const char *const names[2] = {"cycles", "cycles--enabled"};
            st = socmon_scaling_new(c, names, 2, (socmon_scaling **)&o);
        }
    } else if (!strcmp(type, "socmon_recording"))
        st = socmon_recording_new(esp_set, "esp", 100000, (socmon_recording **)&o);
    else if (!strcmp(type, "socmon_recwriter")) {
        int fd = open("w.rec", O_WRONLY | O_CREAT | O_TRUNC, 0600);
        st = socmon_recwriter_open(fd, esp_set, "esp", 100000, NULL, (socmon_recwriter **)&o);
    } else if (!strcmp(type, "socmon_regions")) {
        smn_perf_model *m;
        smn_perf_model_opts mo = {.hw_counters = 4, .paranoid = 2, .rdpmc = 1};
        st = smn_perf_model_new(&mo, &m);
        socmon_regions_opts ro = {.path = "regions.rec", .events = "cycles:u", .sys = smn_perf_model_sys(m)};
        if (!st)
            st = socmon_regions_open(&ro, (socmon_regions **)&o);
    } else if (!strcmp(type, "socmon_source"))
        o = a_source();
    else if (!strcmp(type, "socmon_pipeline")) {
        static socmon_pipeline *p;
        if (!p) {
            socmon_source *s = a_source();
            socmon_pipeline_opts po = {.size = sizeof po, .ms = make_opaque("socmon_metricset")};
            st = socmon_pipeline_new(socmon_source_info_of(s), &po, &p);
        }
        o = p;
    } else if (!strcmp(type, "socmon_run"))
        o = a_run();
    else if (!strcmp(type, "socmon_diff"))
        st = socmon_diff_new(a_run(), a_run(), NULL, (socmon_diff **)&o);
    else if (!strcmp(type, "socmon_rules"))
        st = socmon_rules_parse("cycles +0\n", 10, "t.rules", (socmon_rules **)&o);
    else if (!strcmp(type, "socmon_check"))
        st = socmon_check_new(make_opaque("socmon_diff"), make_opaque("socmon_rules"), (socmon_check **)&o);
    else if (!strcmp(type, "socmon_findingset"))
        st = socmon_findingset_new((socmon_findingset **)&o);
    else if (!strcmp(type, "socmon_findings")) {
        socmon_findingset *fs = make_opaque("socmon_findingset");
        socmon_analysis_info a = {.src = socmon_source_info_of(a_source())};
        socmon_totals t = {.runs = 1};
        st = socmon_findings_eval(fs, &a, &t, (socmon_findings **)&o);
    } else if (!strcmp(type, "socmon_esp_soc"))
        o = socmon_esp_soc_of_target(esp);
    else if (!strcmp(type, "socmon_tensix_core"))
        o = socmon_tensix_core_of_target(tensix);
    else if (!strcmp(type, "socmon_tensix_drv"))
        st = socmon_tensix_drv_new(socmon_target_bus(tensix), SOCMON_TENSIX_REGS_BASE, 0,
                                   (socmon_tensix_drv **)&o);
    else if (!strcmp(type, "socmon_zynq_soc"))
        o = socmon_zynq_soc_of_target(zynq);
    else if (!strcmp(type, "socmon_zynq_uio")) {
        st = socmon_zynq_uio_new(socmon_zynq_soc_of_target(zynq), (socmon_zynq_uio **)&o);
        if (!st)
            st = socmon_zynq_uio_set_timeout(o, 1000);
    } else if (!strcmp(type, "socmon_sweep"))
        st = socmon_sweep_new("id", 1, (socmon_sweep **)&o);
    else if (!strcmp(type, "socmon_spec"))
        st = socmon_spec_parse("esp:soc=esp_2x3", (socmon_spec **)&o);
    else if (!strcmp(type, "socmon_sweep_grid"))
        st = socmon_sweep_grid_parse("target esp\n", 11, "x.sweep", (socmon_sweep_grid **)&o);
    else if (!strcmp(type, "llk_perf_results")) {   /* a row: empty results write no file */
        st = llk_perf_results_new((llk_perf_results **)&o);
        if (!st)
            st = llk_perf_results_add(o, 0, 0, 1, 0, 100, 50, 0);
    }
    else if (!strcmp(type, "llk_perf_metrics"))
        st = llk_perf_compute_metrics(make_opaque("llk_perf_results"), NULL, (llk_perf_metrics **)&o);
    else if (!strcmp(type, "llk_perf_sim"))
        st = llk_perf_sim_new(NULL, (llk_perf_sim **)&o);
    else
        return NULL;
    if (st != SOCMON_OK || !o)
        fail_msg("cannot make a %s: %s", type, socmon_errmsg());
    return o;
}

static void dummy_fn(void) {}

/* One object of each opaque type, made the first time it is needed. */
static void *opaque(const char *type)
{
    static struct { const char *type; void *obj; } made[64];
    static size_t nmade;
    for (size_t i = 0; i < nmade; i++)
        if (!strcmp(made[i].type, type))
            return made[i].obj;
#ifdef LSAN
    __lsan_disable();   /* the objects live as long as the test process, on purpose */
#endif
    void *o = make_opaque(type);
#ifdef LSAN
    __lsan_enable();
#endif
    if (!o)
        fail_msg("no valid %s: add one to make_opaque() in test_null_args.c", type);
    assert_true(nmade < 64);
    made[nmade].type = type;
    made[nmade++].obj = o;
    return o;
}

/* A valid value for parameter q (not the one made NULL). */
static void *valid(const na_param *q)
{
    if (q->kind == NA_FNPTR)
        return (void *)(uintptr_t)dummy_fn;   /* called through another type: returns whatever */
    if (in(na_opaque, q->base))
        return opaque(q->base);
    size_t len = strlen(q->base);
    if (len > 1 && q->base[len - 1] == '*') {   /* an array of one pointer (or a place for one) */
        void **a = zeroed();
        char base[64];
        snprintf(base, sizeof base, "%.*s", (int)(len - 1), q->base);
        if (in(na_opaque, base)) {
            na_param inner = *q;
            inner.base = base;
            a[0] = valid(&inner);
        } else if (!strcmp(base, "char")) {
            a[0] = "x";
        }
        return a;
    }
    if (!strcmp(q->base, "char") && strstr(q->ctype, "const"))
        return "x";
    if (!strcmp(q->base, "FILE")) {   /* one stream: a child's fclose closes its own copy */
        static FILE *f;
        if (!f)
            f = tmpfile();
        assert_non_null(f);
        return f;
    }
    if (!strcmp(q->base, "socmon_esp_api_layout")) {   /* a zeroed one describes no field */
        static const socmon_esp_api_layout l = SOCMON_ESP_API_LAYOUT;
        return (void *)&l;
    }
    if (!strcmp(q->base, "socmon_kv")) {
        socmon_kv *kv = zeroed();
        kv->key = "x";
        kv->value = "1";
        return kv;
    }
    if (!strcmp(q->base, "socmon_sample")) {   /* one sample of the set, for every call */
        static socmon_sample s;
        if (!s.v)
            assert_int_equal(socmon_sample_alloc(esp_set, &s), SOCMON_OK);
        return &s;
    }
    return zeroed();
}

/* ---- one call in a child ---- */

typedef struct outcome {
    int crashed;             /* the signal that ended it, or 0 */
    int hung;
    long long rc;
    char msg[200];
} outcome;

static int devnull_fd(void)
{
    static int fd = -1;
    if (fd < 0)
        fd = open("/dev/null", O_RDWR);
    return fd;
}

static outcome call_in_child(const na_func *f, size_t nullk)
{
    void *p[MAX_ARGS] = {0};
    long long v[MAX_ARGS] = {0};
    size_t n = 0;
    for (; f->params[n].kind != NA_END; n++) {
        assert_true(n < MAX_ARGS);
        const na_param *q = &f->params[n];
        if (q->kind == NA_PTR || q->kind == NA_FNPTR)
            p[n] = n == nullk ? NULL : valid(q);
        else if (q->kind == NA_STRUCT)
            p[n] = zeroed();
        else if (q->kind == NA_SCALAR)
            v[n] = !strcmp(q->name, "fd") ? devnull_fd() : 1;
    }
    int fds[2];
    assert_int_equal(pipe(fds), 0);
    fflush(NULL);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        close(fds[0]);
        /* cmocka catches these to fail a test: here they must end the child */
        static const int sigs[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT};
        for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
            signal(sigs[i], SIG_DFL);
        alarm(10);
        int devnull = open("/dev/null", O_WRONLY);   /* what a function prints is not the test's */
        dup2(devnull, 1);
        dup2(devnull, 2);
        socmon_clear_error();
        outcome o = {0};
        o.rc = f->call(p, v);
        snprintf(o.msg, sizeof o.msg, "%s", socmon_errmsg());
        ssize_t w = write(fds[1], &o, sizeof o);
        _exit(w == (ssize_t)sizeof o ? 0 : 1);
    }
    close(fds[1]);
    outcome o = {0};
    ssize_t r = read(fds[0], &o, sizeof o);
    close(fds[0]);
    int ws;
    assert_int_equal(waitpid(pid, &ws, 0), pid);
    if (WIFSIGNALED(ws) && WTERMSIG(ws) == SIGALRM)
        o.hung = 1;
    else if (WIFSIGNALED(ws))
        o.crashed = WTERMSIG(ws);
    else if (r != (ssize_t)sizeof o)
        o.crashed = -1;
    free_zeroed();
    return o;
}

/* Runs every function with every pointer NULL in turn; returns how many calls broke the rules. */
static size_t check_all(int status_functions)
{
    size_t calls = 0, bad = 0;
    for (size_t i = 0; i < na_nfuncs; i++) {
        const na_func *f = &na_funcs[i];
        if (f->status != status_functions)
            continue;
        for (size_t k = 0; f->params[k].kind != NA_END; k++) {
            const na_param *q = &f->params[k];
            if (q->kind != NA_PTR && q->kind != NA_FNPTR)
                continue;
            if (!strcmp(q->base, "void") && !strstr(q->ctype, "const") && in(contexts, q->name))
                continue;
            outcome o = call_in_child(f, k);
            calls++;
            const char *why = NULL;
            char buf[160];
            if (o.hung)
                why = "hangs";
            else if (o.crashed && (status_functions || !q->doc || q->ok)) {
                snprintf(buf, sizeof buf, "crashes (signal %d)", o.crashed);
                why = buf;
            } else if (status_functions && !o.crashed && !q->ok && !in(reporters, f->name)) {
                if (o.rc == SOCMON_OK)
                    why = "returns SOCMON_OK";
                else if (!o.msg[0])
                    why = "fails without a message";
                else if (in(named, f->name) && !names_null(o.msg, q->name)) {
                    snprintf(buf, sizeof buf, "says not that %s is NULL: %.80s", q->name, o.msg);
                    why = buf;
                }
            }
            if (why) {
                bad++;
                printf("FAIL: %s (%s): %s NULL: %s%s\n", f->name, f->header, q->name, why,
                       status_functions ? ""
                       : q->ok          ? " (though its header allows NULL)"
                                        : " (and its header does not say it needs it)");
            }
        }
    }
    printf("%zu calls of %s with one pointer NULL, %zu broke the contract\n", calls,
           status_functions ? "status functions" : "other functions", bad);
    return bad;
}

static void status_functions_refuse_null(void **state)
{
    (void)state;
    size_t bad = check_all(1);
    if (bad)
        fail_msg("%zu calls with a NULL argument crashed, hung or returned SOCMON_OK", bad);
}

static void other_functions_document_or_survive_null(void **state)
{
    (void)state;
    size_t bad = check_all(0);
    if (bad)
        fail_msg("%zu calls with a NULL argument crashed where the header does not say it is needed", bad);
}

/* The table covers what the headers declare: every opaque type has a maker. */
static void the_table_is_whole(void **state)
{
    (void)state;
    assert_true(na_nfuncs > 400);
    for (size_t i = 0; na_opaque[i]; i++)
        assert_non_null(opaque(na_opaque[i]));
}

static char dir[] = "/tmp/socmon_null_args.XXXXXX";

static int setup(void **state)
{
    (void)state;
    if (!mkdtemp(dir) || chdir(dir) != 0)
        return -1;
    esp = open_target("esp");
    tensix = open_target("tensix");
    zynq = open_target("zynq");
    if (socmon_set_new(socmon_target_device(esp), NULL, &esp_set) != SOCMON_OK)
        return -1;
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    /* the objects go with the process; the directory holds what the calls wrote */
    char cmd[sizeof dir + 16];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    return system(cmd) != 0;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(the_table_is_whole),
        cmocka_unit_test(status_functions_refuse_null),
        cmocka_unit_test(other_functions_document_or_survive_null),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
