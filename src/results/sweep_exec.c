/* The points of a sweep run as processes of the socmon program (sweep_exec.h). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <poll.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "results/sweep_exec.h"
#include "core/clock.h"
#include "core/text.h"

#define ERR_TAIL 4096   /* the end of a point's stderr that its error is taken from */

typedef enum { SLOT_FREE, SLOT_STAT, SLOT_RECORD } slot_state;

typedef struct slot {
    slot_state state;
    pid_t pid;
    int pidfd;                   /* a pidfd of pid (poll: it ends), or -1 (a kernel without them) */
    const socmon_sweep_point *p;
    socmon_run *run;             /* the point's counts while its recording is made */
    char json[4096], err[4096], rec[4096];
} slot;

typedef struct runner {
    const smn_sweep_exec_opts *o;
    char dir[1024];              /* the temporary directory of the points' files */
    slot *slots;
    struct pollfd *fds;          /* wait_point's, one per slot */
    size_t next, ended;
    smn_sweep_exec_result *res;
    uint64_t t0_ns;              /* when the sweep started (smn_mono_ns) */
    int bar_drawn;
    double line_at;              /* SMN_SWEEP_PROGRESS_LINES: when the last line was written */
} runner;

static void vsayf(const smn_sweep_talk *t, const char *fmt, va_list ap) __attribute__((format(printf, 2, 0)));
static void vsayf(const smn_sweep_talk *t, const char *fmt, va_list ap)
{
    if (!t->say)
        return;
    char small[512], *text = small;
    va_list again;
    va_copy(again, ap);
    int n = vsnprintf(small, sizeof small, fmt, ap);
    if (n >= (int)sizeof small && (text = malloc((size_t)n + 1)) != NULL)
        vsnprintf(text, (size_t)n + 1, fmt, again);
    va_end(again);
    if (n >= 0)
        t->say(t->user, text ? text : "socmon sweep: out of memory saying why\n");
    if (text != small)
        free(text);
}

void smn_sweep_sayf(const smn_sweep_talk *t, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsayf(t, fmt, ap);
    va_end(ap);
}

static int stop_asked(const runner *r)
{
    return r->o->should_stop && r->o->should_stop(r->o->user) != 0;
}

/* Seconds since the sweep started. */
static double since(const runner *r)
{
    return (double)(smn_mono_ns() - r->t0_ns) / 1e9;
}

static void fmt_time(char *buf, size_t len, double s)
{
    unsigned long t = s < 0 ? 0 : (unsigned long)(s + 0.5);
    if (t >= 3600)
        snprintf(buf, len, "%lu:%02lu:%02lu", t / 3600, t / 60 % 60, t % 60);
    else
        snprintf(buf, len, "%lu:%02lu", t / 60, t % 60);
}

/* The bar: points done (of the whole grid or shard), failed, running, and the time left at the
 * pace so far. Drawn over itself on a terminal; in a log, the same figures as a line now and then
 * (the closing summary follows the last). */
static void draw_bar(runner *r, int final)
{
    if (r->o->progress == SMN_SWEEP_PROGRESS_NONE ||
        (r->o->progress == SMN_SWEEP_PROGRESS_LINES && (final || since(r) - r->line_at < SMN_SWEEP_LINE_EVERY_S)))
        return;
    size_t total = r->o->done_before + r->o->ntodo, done = r->o->done_before + r->ended;
    size_t running = r->next - r->ended;
    enum { W = 24 };
    char bar[W + 1];
    size_t fill = total ? done * W / total : W;
    for (size_t i = 0; i < W; i++)
        bar[i] = i < fill ? '#' : '.';
    bar[W] = '\0';
    char eta[32] = "--:--", el[32];
    double t = since(r);
    if (r->ended && done < total)
        fmt_time(eta, sizeof eta, t / (double)r->ended * (double)(total - done));
    else if (done == total)
        snprintf(eta, sizeof eta, "0:00");
    fmt_time(el, sizeof el, t);
    if (r->o->progress == SMN_SWEEP_PROGRESS_LINES) {
        r->line_at = t;
        smn_sweep_sayf(&r->o->talk, "socmon sweep: %zu/%zu points done, %zu failed, %s elapsed, ETA %s\n", done,
                       total, r->res->failed, el, eta);
        return;
    }
    smn_sweep_sayf(&r->o->talk, "\r\033[Ksweep [%s] %zu/%zu done, %zu failed, %zu running  %s elapsed, ETA %s%s",
                   bar, done, total, r->res->failed, running, el, eta, final ? "\n" : "");
    r->bar_drawn = !final;
}

/* A line that must not be drawn over: the bar (if any) is cleared first and redrawn after. */
static void say(runner *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void say(runner *r, const char *fmt, ...)
{
    if (r->bar_drawn)
        smn_sweep_sayf(&r->o->talk, "\r\033[K");
    va_list ap;
    va_start(ap, fmt);
    vsayf(&r->o->talk, fmt, ap);
    va_end(ap);
    draw_bar(r, 0);
}

/* Starts the program with argv, stdout to /dev/null and stderr to errpath. */
static pid_t spawn(runner *r, char **argv, const char *errpath)
{
    fflush(NULL);
    pid_t pid = fork();
    if (pid != 0)
        return pid;
    /* the child: the sweep's signal handlers are not its own (stat installs its own) */
    signal(SIGINT, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
    int in = open("/dev/null", O_RDONLY), out = open("/dev/null", O_WRONLY);
    int err = open(errpath, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (in < 0 || out < 0 || err < 0 || dup2(in, 0) < 0 || dup2(out, 1) < 0 || dup2(err, 2) < 0)
        _exit(126);
    execv(r->o->exe, argv);
    dprintf(2, "socmon sweep: cannot run %s: %s\n", r->o->exe, strerror(errno));
    _exit(127);
}
/* argv for one point's command ("stat" or "record"); strings borrowed from the point, the grid
 * and s. Returns 0, or -1 when it does not fit. */
static int point_argv(runner *r, slot *s, const char *cmd, char **argv, size_t cap)
{
    size_t n = 0;
    const socmon_sweep_point *p = s->p;
    const char *const *extra = socmon_sweep_grid_run_args(r->o->grid);
    size_t nextra = socmon_sweep_grid_nrun_args(r->o->grid);
    if (nextra + 16 > cap)
        return -1;
    argv[n++] = (char *)r->o->exe;
    argv[n++] = (char *)cmd;
    argv[n++] = "-t";
    argv[n++] = (char *)p->target;
    if (p->workload) {
        argv[n++] = "-w";
        argv[n++] = (char *)p->workload;
    }
    for (size_t i = 0; i < nextra; i++)
        argv[n++] = (char *)extra[i];
    if (strcmp(cmd, "stat") == 0) {
        argv[n++] = "--json";
        argv[n++] = "-o";
        argv[n++] = s->json;
    } else {
        argv[n++] = "-q";
        argv[n++] = "-f";
        argv[n++] = "-o";
        argv[n++] = s->rec;
    }
    if (p->program) {
        argv[n++] = "--";
        argv[n++] = (char *)p->program;
    }
    argv[n] = NULL;
    return 0;
}

static int start(runner *r, slot *s, const char *cmd)
{
    char *argv[512];
    if (point_argv(r, s, cmd, argv, sizeof argv / sizeof argv[0]) != 0)
        return -1;
    s->pid = spawn(r, argv, s->err);
    if (s->pid < 0)
        return -1;
#ifdef SYS_pidfd_open
    s->pidfd = (int)syscall(SYS_pidfd_open, s->pid, 0);
#else
    s->pidfd = -1;
#endif
    s->state = strcmp(cmd, "stat") == 0 ? SLOT_STAT : SLOT_RECORD;
    return 0;
}

/* Why a point's process failed: the last line it wrote to stderr (escaped for the terminal and the
 * table), or how it ended. Malloc'd; NULL when out of memory. */
static char *failure(const char *errpath, int status)
{
    char tail[ERR_TAIL + 1] = "";
    FILE *fp = fopen(errpath, "rb");
    if (fp) {
        if (fseek(fp, 0, SEEK_END) == 0) {
            long size = ftell(fp);
            fseek(fp, size > ERR_TAIL ? size - ERR_TAIL : 0, SEEK_SET);
        }
        size_t n = fread(tail, 1, ERR_TAIL, fp);
        tail[n] = '\0';
        fclose(fp);
    }
    size_t len = strlen(tail);
    while (len && (tail[len - 1] == '\n' || tail[len - 1] == '\r' || tail[len - 1] == ' '))
        tail[--len] = '\0';
    char *line = strrchr(tail, '\n');
    line = line ? line + 1 : tail;
    /* the command's own prefix says nothing in a sweep's table */
    static const char *const prefixes[] = {"socmon: stat: ", "socmon stat: ", "socmon: record: ", "socmon record: "};
    for (size_t i = 0; i < sizeof prefixes / sizeof prefixes[0]; i++)
        if (strncmp(line, prefixes[i], strlen(prefixes[i])) == 0) {
            line += strlen(prefixes[i]);
            break;
        }
    char how[96];
    if (WIFSIGNALED(status))
        snprintf(how, sizeof how, "killed by signal %d", WTERMSIG(status));
    else
        snprintf(how, sizeof how, "exit status %d", WIFEXITED(status) ? WEXITSTATUS(status) : -1);
    if (!*line)
        line = how;
    char *esc = smn_text_escape_dup(line);
    if (!esc || line == how)
        return esc;
    size_t n = strlen(esc) + strlen(how) + 4;
    char *msg = malloc(n);
    if (msg)
        snprintf(msg, n, "%s (%s)", esc, how);
    free(esc);
    return msg;
}

static int finish_point(runner *r, slot *s, const socmon_run *run, const char *error)
{
    s->state = SLOT_FREE;
    r->ended++;
    if (run)
        r->res->ok++;
    else
        r->res->failed++;
    if (!run) {
        char *t = smn_text_escape_dup(s->p->target);
        say(r, "socmon sweep: point %zu (%s%s%s) failed: %s\n", s->p->index, t ? t : "?", s->p->workload ? ", " : "",
            s->p->workload ? s->p->workload : "", error);
        free(t);
    }
    int rc = r->o->point_done(r->o->user, s->p, run, error, run && r->o->record_dir ? s->rec : NULL);
    draw_bar(r, 0);
    return rc;
}

/* A process of slot s ended with status: the point goes on (stat, then record) or ends. Returns
 * nonzero when the sweep must stop starting points. */
static int reap(runner *r, slot *s, int status)
{
    int stopped = stop_asked(r);
    int ok = WIFEXITED(status) && WEXITSTATUS(status) == 0;
    if (stopped && !ok) {   /* cut short by the stop: not a result, the point stays to do */
        s->state = SLOT_FREE;
        socmon_run_free(s->run);
        s->run = NULL;
        r->ended++;
        return 1;
    }
    if (!ok) {
        socmon_run_free(s->run);
        s->run = NULL;
        char *why = failure(s->err, status);
        int rc = finish_point(r, s, NULL, why ? why : "failed (out of memory saying why)");
        free(why);
        unlink(s->json);
        return rc;
    }
    if (s->state == SLOT_STAT) {
        socmon_run *run = NULL;
        socmon_status st = socmon_run_open(s->json, NULL, &run);
        unlink(s->json);
        if (st != SOCMON_OK) {
            char *why = smn_text_escape_dup(socmon_errmsg());
            int rc = finish_point(r, s, NULL, why ? why : "its counts could not be read");
            free(why);
            return rc;
        }
        int rc = 0;
        if (r->o->record_dir && !stopped) {   /* the recording next, in the same slot */
            if (start(r, s, "record") != 0) {
                rc = finish_point(r, s, NULL, "could not start socmon record");
            } else {
                s->run = run;   /* kept until the recording ends */
                return 0;
            }
        } else {
            rc = finish_point(r, s, run, NULL);
        }
        socmon_run_free(run);
        return rc;
    }
    socmon_run *run = s->run;   /* SLOT_RECORD */
    s->run = NULL;
    int rc = finish_point(r, s, run, NULL);
    socmon_run_free(run);
    return rc;
}

static socmon_status setup(runner *r)
{
    if (!r->o->exe || !*r->o->exe)
        return socmon_fail(SOCMON_EINVAL, "sweep: no program to run the points with");
    const char *tmp = getenv("TMPDIR");
    snprintf(r->dir, sizeof r->dir, "%.900s/socmon-sweep-XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(r->dir))
        return socmon_fail(SOCMON_EIO, "a temporary directory %s: %s", r->dir, strerror(errno));
    if (r->o->record_dir && mkdir(r->o->record_dir, 0777) != 0 && errno != EEXIST) {
        rmdir(r->dir);
        return socmon_fail(SOCMON_EIO, "--record-dir %s: %s", r->o->record_dir, strerror(errno));
    }
    return SOCMON_OK;
}

static void slot_files(runner *r, slot *s, size_t k)
{
    snprintf(s->json, sizeof s->json, "%s/slot%zu.json", r->dir, k);
    snprintf(s->err, sizeof s->err, "%s/slot%zu.err", r->dir, k);
    if (r->o->record_dir) {
        size_t total = socmon_sweep_grid_count(r->o->grid);
        int w = total > 1000 ? (total > 100000 ? 6 : 5) : 4;
        snprintf(s->rec, sizeof s->rec, "%.3000s/point-%0*zu.rec", r->o->record_dir, w, s->p->index);
    }
}

/* Waits for one of the sweep's own points to end, never for another child of the caller's (a
 * library that took any child's status, as waitpid(-1) does, would lose the application's): a
 * look at each running point, then poll on their pidfds until one ends, or, where the kernel
 * has no pidfds, a look every 10 ms. Returns the slot whose point ended, with its status (a
 * point's process reaped by someone else reads as exit 127), or NULL when a signal came or
 * none runs: the caller looks at the stop and starts points again. */
static slot *wait_point(runner *r, unsigned jobs, int *status)
{
    for (;;) {
        unsigned n = 0;
        int all_fds = 1;
        for (unsigned k = 0; k < jobs; k++) {
            slot *s = &r->slots[k];
            if (s->state == SLOT_FREE)
                continue;
            pid_t w = waitpid(s->pid, status, WNOHANG);
            if (w == s->pid || (w < 0 && errno == ECHILD)) {
                if (w < 0)
                    *status = 127 << 8;
                if (s->pidfd >= 0)
                    close(s->pidfd);
                s->pidfd = -1;
                return s;
            }
            if (s->pidfd < 0)
                all_fds = 0;
            else
                r->fds[n++] = (struct pollfd){.fd = s->pidfd, .events = POLLIN};
        }
        if (!n && all_fds)
            return NULL;
        if (poll(r->fds, n, all_fds ? -1 : 10) < 0 && errno == EINTR)
            return NULL;
    }
}

socmon_status smn_sweep_exec(const smn_sweep_exec_opts *o, smn_sweep_exec_result *res)
{
    memset(res, 0, sizeof *res);
    if (!o->ntodo)
        return SOCMON_OK;
    runner r = {.o = o, .res = res};
    socmon_status st = setup(&r);
    if (st != SOCMON_OK)
        return st;
    unsigned jobs = o->jobs ? o->jobs : 1;
    if (jobs > o->ntodo)
        jobs = (unsigned)o->ntodo;
    r.slots = calloc(jobs, sizeof *r.slots);
    r.fds = calloc(jobs, sizeof *r.fds);
    if (!r.slots || !r.fds) {
        free(r.slots);
        free(r.fds);
        rmdir(r.dir);
        return socmon_fail(SOCMON_ENOMEM, "sweep: out of memory");
    }
    r.t0_ns = smn_mono_ns();
    int halt = 0;
    draw_bar(&r, 0);
    for (;;) {
        halt |= stop_asked(&r);
        for (unsigned k = 0; !halt && k < jobs && r.next < o->ntodo; k++) {
            slot *s = &r.slots[k];
            if (s->state != SLOT_FREE)
                continue;
            s->p = socmon_sweep_grid_point(o->grid, o->todo[r.next]);
            slot_files(&r, s, k);
            r.next++;
            if (start(&r, s, "stat") != 0)
                halt |= finish_point(&r, s, NULL, "could not start socmon stat (out of processes?)");
        }
        size_t busy = 0;
        for (unsigned k = 0; k < jobs; k++)
            busy += r.slots[k].state != SLOT_FREE;
        if (!busy && (halt || r.next >= o->ntodo))
            break;
        int status;
        slot *ended = wait_point(&r, jobs, &status);
        if (ended)
            halt |= reap(&r, ended, status);
        /* a stop asked from outside the terminal (kill) reaches the sweep only: pass it on */
        if (stop_asked(&r))
            for (unsigned k = 0; k < jobs; k++)
                if (r.slots[k].state != SLOT_FREE)
                    kill(r.slots[k].pid, SIGTERM);
    }
    res->stopped = stop_asked(&r);
    draw_bar(&r, 1);
    for (unsigned k = 0; k < jobs; k++) {
        unlink(r.slots[k].json);
        unlink(r.slots[k].err);
    }
    rmdir(r.dir);
    free(r.slots);
    free(r.fds);
    return SOCMON_OK;
}
