/* A sweep campaign: resume, shards, the table kept written, merge (sweep_campaign.h). */
#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "export/sweep_campaign.h"
#include "export/dest.h"
#include "core/clock.h"

#define SAVE_EVERY_S 1.0   /* the table is rewritten at most this often while points end */

static double now_s(void)
{
    return (double)smn_mono_ns() / 1e9;
}

static int ends_with(const char *s, const char *tail)
{
    size_t n = s ? strlen(s) : 0, k = strlen(tail);
    return n > k && strcmp(s + n - k, tail) == 0;
}

/* The table's format: JSON with --json or a .json name, Parquet with --parquet or a .parquet
 * name, else CSV. */
static const char *format_of(int json, int parquet, const char *path)
{
    if (json || parquet)
        return json ? "json" : "parquet";
    return ends_with(path, ".json") ? "json" : ends_with(path, ".parquet") ? "parquet" : "csv";
}

static void report(const smn_sweep_talk *t, const char *what, socmon_status st)
{
    if (t->error)
        t->error(t->user, what, st);
}

/* Bad input: "socmon sweep: MESSAGE" said (whole: it names paths, which socmon_fail's message
 * could cut), st returned with the message, exit status 2. */
static socmon_status refuse(const smn_sweep_talk *t, smn_sweep_outcome *out, socmon_status st, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static socmon_status refuse(const smn_sweep_talk *t, smn_sweep_outcome *out, socmon_status st, const char *fmt, ...)
{
    char *msg = NULL;
    va_list ap;
    va_start(ap, fmt);
    int n = vasprintf(&msg, fmt, ap);
    va_end(ap);
    smn_sweep_sayf(t, "socmon sweep: %s\n", n >= 0 ? msg : "out of memory saying why");
    socmon_fail(st, "%s", n >= 0 ? msg : "out of memory");
    if (n >= 0)
        free(msg);
    out->exit = 2;
    return st;
}

socmon_status smn_sweep_table_write(const char *format, const char *path, const socmon_sweep *table)
{
    smn_dest d = {.format = format, .path = path, .opts = {.sep = ','}};
    smn_dest_output co;
    socmon_status st = smn_dest_open_whole(&co, &d);
    if (st == SOCMON_OK)
        st = smn_output_sweep(co.out, table);
    return smn_dest_finish(&co, st);
}

/* Writes the table; a failure is told as "sweep"'s. 0, or 1 after the message. */
static int write_table(const smn_sweep_talk *t, const char *format, const char *path, const socmon_sweep *table)
{
    socmon_status st = smn_sweep_table_write(format, path, table);
    if (st == SOCMON_OK)
        return 0;
    report(t, "sweep", st);
    return 1;
}

/* -o DIR/ (or an existing directory): the shard's own file in it, DIR/shard-K-of-N.parquet
 * (.json with json), DIR made if it is not there, into buf; buf stays "" for a file. */
static socmon_status shard_file(const smn_sweep_campaign *c, unsigned k, unsigned n, char *buf, size_t len,
                                smn_sweep_outcome *out)
{
    struct stat sb;
    int dir = stat(c->output, &sb) == 0 && S_ISDIR(sb.st_mode);
    if (!dir && !ends_with(c->output, "/"))
        return SOCMON_OK;
    if (!dir && mkdir(c->output, 0777) != 0 && errno != EEXIST)
        return refuse(&c->talk, out, SOCMON_EIO, "-o %s: cannot make the directory: %s", c->output, strerror(errno));
    const char *slash = ends_with(c->output, "/") ? "" : "/";
    if ((size_t)snprintf(buf, len, "%s%sshard-%u-of-%u.%s", c->output, slash, k, n, c->json ? "json" : "parquet")
        >= len)
        return refuse(&c->talk, out, SOCMON_EINVAL, "-o %s: the directory's name is too long", c->output);
    return SOCMON_OK;
}

/* The table to continue: the points output already holds for this grid, or a new one. */
static socmon_status open_table(const smn_sweep_campaign *c, const char *output, socmon_sweep **table,
                                smn_sweep_outcome *out)
{
    const socmon_sweep_grid *g = c->grid;
    const smn_sweep_talk *t = &c->talk;
    struct stat sb;
    if (output && stat(output, &sb) == 0 && S_ISREG(sb.st_mode) && sb.st_size > 0) {
        /* socmon writes Parquet and never reads it: the table to resume is a CSV or JSON one */
        if (strcmp(format_of(c->json, c->parquet, output), "parquet") == 0)
            return refuse(t, out, SOCMON_ENOTSUP, "-o %s exists, and a Parquet table is not resumed (socmon writes "
                          "Parquet, it does not read it): remove it to run the sweep again, or resume with a CSV or "
                          "JSON -o and convert with 'socmon sweep merge TABLE -o %s'", output, output);
        socmon_status st = socmon_sweep_load(output, table);
        if (st != SOCMON_OK)
            return refuse(t, out, st, "-o %s exists and is not a sweep's table to resume (%s): give another -o, or "
                          "remove it", output, socmon_errmsg());
        if (strcmp(socmon_sweep_id(*table), socmon_sweep_grid_id(g)) != 0) {
            st = refuse(t, out, SOCMON_EINVAL, "-o %s holds the table of another sweep (grid %s, this one is %s: "
                        "other points or run options): give another -o, or remove it to start over", output,
                        socmon_sweep_id(*table), socmon_sweep_grid_id(g));
            socmon_sweep_free(*table);
            *table = NULL;
            return st;
        }
        return SOCMON_OK;
    }
    socmon_status st = socmon_sweep_new(socmon_sweep_grid_id(g), socmon_sweep_grid_count(g), table);
    if (st != SOCMON_OK) {
        report(t, "sweep", st);
        out->exit = 1;
    }
    return st;
}

typedef struct campaign_state {
    const smn_sweep_campaign *c;
    socmon_sweep *table;
    const char *format, *output;
    double saved;                /* when the table was last written */
    int write_failed;
} campaign_state;

static int point_done(void *user, const socmon_sweep_point *p, const socmon_run *run, const char *error,
                      const char *recording)
{
    campaign_state *s = user;
    socmon_status st = socmon_sweep_set(s->table, p, run, error, recording);
    if (st != SOCMON_OK) {
        report(&s->c->talk, "sweep", st);
        return 1;
    }
    if (s->output && now_s() - s->saved >= SAVE_EVERY_S) {
        s->saved = now_s();
        if (write_table(&s->c->talk, s->format, s->output, s->table) != 0) {
            s->write_failed = 1;
            return 1;
        }
    }
    return 0;
}

static int should_stop(void *user)
{
    const campaign_state *s = user;
    return s->c->should_stop && s->c->should_stop(s->c->talk.user);
}

/* Runs the points to do of the opened table, writes it and tells the summary. */
static socmon_status run_points(const smn_sweep_campaign *c, campaign_state *s, smn_sweep_outcome *out)
{
    size_t total = socmon_sweep_grid_count(c->grid), ntodo = 0, done = 0;
    unsigned sk = 1, sn = 1;
    if (c->shard)
        socmon_sweep_shard_parse(c->shard, &sk, &sn);   /* parsed before: cannot fail */
    size_t *todo = calloc(total, sizeof *todo);
    if (!todo) {
        report(&c->talk, "sweep", socmon_fail(SOCMON_ENOMEM, "out of memory"));
        out->exit = 1;
        return SOCMON_ENOMEM;
    }
    for (size_t i = 0; i < total; i++) {
        if (i % sn != sk - 1)
            continue;
        const socmon_sweep_row *have = socmon_sweep_find(s->table, i);
        if (have && have->ok)
            done++;
        else
            todo[ntodo++] = i;
    }
    if (done && !c->quiet)
        smn_sweep_sayf(&c->talk, "socmon sweep: resuming %s: %zu of %zu points done, %zu to run\n", s->output, done,
                       done + ntodo, ntodo);
    if (c->arm_stop)
        c->arm_stop();
    smn_sweep_exec_opts eo = {.exe = c->exe, .grid = c->grid, .todo = todo, .ntodo = ntodo, .jobs = c->jobs,
                              .record_dir = c->record_dir, .progress = c->progress, .done_before = done,
                              .point_done = point_done, .should_stop = should_stop, .user = s, .talk = c->talk};
    smn_sweep_exec_result res;
    double t0 = now_s();
    socmon_status st = smn_sweep_exec(&eo, &res);
    free(todo);
    if (st != SOCMON_OK) {
        report(&c->talk, "sweep", st);
        out->exit = 1;
        return st;
    }
    int rc = s->write_failed ? 1 : write_table(&c->talk, s->format, s->output, s->table);
    size_t failed = 0;
    for (size_t i = 0; i < socmon_sweep_count(s->table); i++)
        failed += !socmon_sweep_row_at(s->table, i)->ok;
    if (!c->quiet || res.stopped)
        smn_sweep_sayf(&c->talk, "socmon sweep: %zu of %zu points ran in %.1f s (%zu ok, %zu failed)%s%s\n",
                       res.ok + res.failed, ntodo, now_s() - t0, res.ok, res.failed, s->output ? "; table: " : "",
                       s->output ? s->output : "");
    out->stopped = res.stopped;
    out->exit = !res.stopped && !rc && failed ? 1 : rc;
    return SOCMON_OK;
}

socmon_status smn_sweep_campaign_run(const smn_sweep_campaign *c, smn_sweep_outcome *out)
{
    out->exit = 2;
    out->stopped = 0;
    unsigned sk = 1, sn = 1;
    socmon_status st = c->shard ? socmon_sweep_shard_parse(c->shard, &sk, &sn) : SOCMON_OK;
    if (st != SOCMON_OK) {
        report(&c->talk, "sweep", st);
        return st;
    }
    char path[4096] = "";
    if (c->output && (st = shard_file(c, sk, sn, path, sizeof path, out)) != SOCMON_OK)
        return st;
    const char *output = path[0] ? path : c->output;
    /* -o FILE that cannot be written is found now, not after the first point */
    if (output && (st = smn_sink_check_path(output)) != SOCMON_OK) {
        report(&c->talk, "sweep", st);
        return st;
    }
    campaign_state s = {.c = c, .format = format_of(c->json, c->parquet, output), .output = output};
    st = open_table(c, output, &s.table, out);
    if (st == SOCMON_OK)
        st = run_points(c, &s, out);
    socmon_sweep_free(s.table);
    return st;
}

socmon_status smn_sweep_campaign_merge(const char *const *paths, size_t npaths, int json, const char *output,
                                       const smn_sweep_talk *t, smn_sweep_outcome *out)
{
    out->stopped = 0;
    socmon_sweep *all = NULL;
    socmon_status st = SOCMON_OK;
    for (size_t i = 0; i < npaths && st == SOCMON_OK; i++) {
        socmon_sweep *one = NULL;
        st = socmon_sweep_load(paths[i], &one);
        if (st == SOCMON_OK && !all) {
            all = one;
            continue;
        }
        if (st == SOCMON_OK)
            st = socmon_sweep_merge(all, one, paths[i]);
        socmon_sweep_free(one);
    }
    if (st != SOCMON_OK || !all) {
        socmon_sweep_free(all);
        st = st != SOCMON_OK ? st : socmon_fail(SOCMON_EINVAL, "no table to merge");
        report(t, "sweep merge", st);
        out->exit = 2;
        return st;
    }
    int rc = write_table(t, format_of(json, 0, output), output, all);
    size_t missing = socmon_sweep_total(all) - socmon_sweep_count(all), failed = 0;
    for (size_t i = 0; i < socmon_sweep_count(all); i++)
        failed += !socmon_sweep_row_at(all, i)->ok;
    if (missing) {
        smn_sweep_sayf(t, "socmon sweep merge: the tables hold %zu of the sweep's %zu points; missing:",
                       socmon_sweep_count(all), socmon_sweep_total(all));
        size_t shown = 0;
        for (size_t i = 0; i < socmon_sweep_total(all) && shown < 10; i++)
            if (!socmon_sweep_find(all, i)) {
                smn_sweep_sayf(t, " %zu", i);
                shown++;
            }
        smn_sweep_sayf(t, "%s\n", missing > shown ? " ..." : "");
    }
    if (failed)
        smn_sweep_sayf(t, "socmon sweep merge: %zu point%s failed\n", failed, failed == 1 ? "" : "s");
    socmon_sweep_free(all);
    out->exit = rc ? rc : missing || failed ? 1 : 0;
    return rc ? SOCMON_EIO : SOCMON_OK;
}
