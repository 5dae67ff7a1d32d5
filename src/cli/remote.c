/* record --remote: a collector writing the normal recording from a `socmon agent`.
 *
 * The file is the one `record` writes (format v2 through socmon_recwriter, the same safe-output
 * rules of cli/dest.h), with the agent's schema, target and interval, so report, exports and
 * charts work the same. A sample's index in the file is its sequence number at the agent:
 * samples the agent no longer had (a GAP) become an explicit gap in the file
 * (socmon_recwriter_skip_to), never a silent hole. --append continues FILE after its last
 * index (socmon_recwriter_reopen, then subscribing from there): a collector killed and
 * restarted yields one file, with no hole as long as the agent's ring still holds what it
 * missed. -d counts the target's time from the first sample received. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "agent/collector.h"
#include "agent/net.h"
#include "cli/dest.h"
#include "cli/output.h"
#include "cli/remote.h"
#include "cli/stop.h"
#include "core/clock.h"
#include "core/error.h"

typedef struct rrec {
    const cli_opts *o;
    collector *c;
    socmon_recwriter *w;
    uint64_t first_t, samples, lost;
    int have_first, write_failed, done_by_duration;
    uint64_t next_flush, next_progress;
    char end_reason[WIRE_MAX_STR + 1];
    int ended;
} rrec;

socmon_status cli_remote_connect(const cli_opts *o, collector **c)
{
    char token[NET_TOKEN_MAX];
    socmon_status st;
    if (o->token_file && (st = net_read_token(o->token_file, token)) != SOCMON_OK)
        return st;
    if ((st = collector_connect(o->remote, o->token_file ? token : NULL, 10000, c)) != SOCMON_OK)
        return st;
    /* -e asks the agent to count other events: it does so only with --allow-config. */
    if (o->events && (st = collector_configure(*c, o->events, 10000)) != SOCMON_OK) {
        collector_close(*c);
        *c = NULL;
    }
    return st;
}

int cli_remote_idle_ms(const cli_opts *o)
{
    return o->agent_timeout_ns ? (int)((o->agent_timeout_ns + 999999) / 1000000) : COLLECTOR_IDLE_MS;
}

int cli_remote_check_opts(const char *cmd, const cli_opts *o)
{
    const char *bad = o->target && strcmp(o->target, SOCMON_DEFAULT_TARGET) ? "-t" : o->workload ? "-w"
                      : o->interval_set ? "-I" : o->program ? "--" : o->trace ? "--trace-bus"
                      : o->realtime ? "--realtime" : o->max_cycles_set ? "--max-cycles" : NULL;
    if (bad) {
        fprintf(stderr, "socmon %s: %s is the agent's to choose with --remote (give it to 'socmon agent')\n", cmd, bad);
        return 2;
    }
    if (o->token_file && !o->remote) {
        fprintf(stderr, "socmon %s: --token-file is for --remote\n", cmd);
        return 2;
    }
    return 0;
}

static socmon_status on_gap(void *user, const wire_gap *g)
{
    rrec *r = user;
    /* Counted as on_sample counts a late start: only the indices actually skipped in the file
     * (a GAP that overlaps what the file already holds loses nothing more, and skip_to cannot go back). */
    uint64_t next = socmon_recwriter_next_index(r->w), to = g->first_seq + g->count;
    if (to <= next)
        return SOCMON_OK;
    fprintf(stderr, "socmon record: the agent no longer had samples %llu..%llu (%llu lost: its ring is too small for "
            "how late this collector was); the file says so\n", (unsigned long long)next,
            (unsigned long long)(to - 1), (unsigned long long)(to - next));
    r->lost += to - next;
    socmon_status st = socmon_recwriter_skip_to(r->w, to);
    r->write_failed = st != SOCMON_OK;
    return st;
}

static socmon_status on_sample(void *user, uint64_t seq, const socmon_sample *s)
{
    rrec *r = user;
    if (!r->have_first) {
        r->first_t = s->t_ns;
        r->have_first = 1;
    }
    socmon_status st = SOCMON_OK;
    uint64_t next = socmon_recwriter_next_index(r->w);
    if (seq > next) {   /* the stream starts past the file's end: the ring no longer had those */
        fprintf(stderr, "socmon record: the agent's ring starts at seq %llu: samples %llu..%llu are gone (%llu "
                "lost); the file records them as a gap\n", (unsigned long long)seq, (unsigned long long)next,
                (unsigned long long)seq - 1, (unsigned long long)(seq - next));
        r->lost += seq - next;
        st = socmon_recwriter_skip_to(r->w, seq);
    }
    if (st == SOCMON_OK)
        st = socmon_recwriter_append(r->w, s);
    uint64_t now = socmon_mono_ns();
    if (st != SOCMON_OK) {
        r->write_failed = 1;
        return st;
    }
    r->samples++;
    if (!r->o->quiet && now >= r->next_progress) {
        fprintf(stderr, "socmon record: %llu samples from %s (seq %llu, %llu lost)\n", (unsigned long long)r->samples,
                r->o->remote, (unsigned long long)seq, (unsigned long long)r->lost);
        r->next_progress = now + 1000000000u;
    }
    if (r->o->duration_ns && s->t_ns - r->first_t >= r->o->duration_ns) {
        r->done_by_duration = 1;
        return SOCMON_ESTATE;
    }
    return SOCMON_OK;
}

/* The flush every --flush period runs on the collector's clock, not on sample arrival: samples
 * received before an agent falls silent are on disk within the period, even while the
 * collector waits for more (or is killed while it waits). */
static socmon_status on_tick(void *user)
{
    rrec *r = user;
    uint64_t now = socmon_mono_ns();
    if (now < r->next_flush || r->write_failed)
        return SOCMON_OK;
    r->next_flush = now + r->o->flush_ns;
    socmon_status st = socmon_recwriter_flush(r->w);
    r->write_failed = st != SOCMON_OK;
    return st;
}

static void on_end(void *user, const wire_end *e)
{
    rrec *r = user;
    r->ended = 1;
    snprintf(r->end_reason, sizeof r->end_reason, "%s", e->reason);
}

static int should_stop(void *user)
{
    (void)user;
    return cli_stop_signal();
}

/* --append to an existing FILE: the file itself, locked like a recorder's (cli/dest.h).
 * Returns -1 with errno ENOENT when there is no FILE yet (a fresh recording then). */
static int open_existing(const char *path, socmon_status *st)
{
    struct stat sb;
    if (lstat(path, &sb) != 0) {
        if (errno != ENOENT)
            *st = socmon_fail(SOCMON_EIO, "--append '%s': %s", path, strerror(errno));
        return -1;
    }
    if (!S_ISREG(sb.st_mode)) {
        *st = socmon_fail(SOCMON_EINVAL, "--append '%s': not a regular file (a recording to continue)", path);
        return -1;
    }
    int fd = open(path, O_RDWR | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0) {
        *st = socmon_fail(errno == EACCES ? SOCMON_EPERM : SOCMON_EIO, "--append '%s': %s", path, strerror(errno));
        return -1;
    }
    if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
        *st = socmon_fail(SOCMON_ESTATE, "--append '%s': being written by another recorder", path);
        close(fd);
        return -1;
    }
    return fd;
}

int cli_record_remote(const cli_opts *o)
{
    const char *path = o->output ? o->output : "socmon.rec";
    int rc = cli_remote_check_opts("record", o);
    if (rc)
        return rc;
    cli_stop_install();
    rrec r = {.o = o};
    socmon_status st = cli_remote_connect(o, &r.c);
    if (st != SOCMON_OK)
        return cli_error("record", st);
    const wire_hello *h = collector_hello(r.c);
    socmon_recwriter_opts wo = {.flush_ns = o->flush_ns, .simulated = h->simulated ? 1 : -1};
    cli_dest d = {.fd = -1};
    int fd = -1, appending = 0;
    st = SOCMON_OK;
    if (o->append)
        fd = open_existing(path, &st);
    if (fd >= 0) {
        appending = 1;
        if ((st = socmon_recwriter_reopen(fd, collector_set(r.c), h->target, h->interval_ns, &wo, &r.w)) != SOCMON_OK)
            socmon_fail_prefix(st, "--append '%s': ", path);
    } else if (st == SOCMON_OK && (st = cli_dest_open(&d, path, o->force)) == SOCMON_OK &&
               (st = socmon_recwriter_open(d.fd, collector_set(r.c), h->target, h->interval_ns, &wo, &r.w)) == SOCMON_OK) {
        st = cli_dest_publish(&d);
        if (st == SOCMON_OK && d.moved_old)
            fprintf(stderr, "socmon record: moved the existing '%s' to '%s.old'\n", path, path);
    }
    uint64_t from = socmon_recwriter_next_index(r.w);
    if (st == SOCMON_OK)
        st = appending ? collector_subscribe(r.c, WIRE_SUB_SEQ, from) : collector_subscribe(r.c, WIRE_SUB_OLDEST, 0);
    if (st != SOCMON_OK) {
        rc = cli_error("record", st);
        socmon_recwriter_close(r.w);
        if (fd >= 0)
            close(fd);
        cli_dest_close(&d);
        collector_close(r.c);
        return rc;
    }
    if (!o->quiet)
        fprintf(stderr, "socmon record: from agent %s (target %s, %zu counters, interval %.6g ms)%s\n", o->remote,
                h->target, h->ncounters, (double)h->interval_ns / 1e6, appending ? ", appending" : "");
    if (appending && !o->quiet)
        fprintf(stderr, "socmon record: continuing '%s' at seq %llu\n", path, (unsigned long long)from);
    signal(SIGXFSZ, SIG_IGN);
    r.next_flush = socmon_mono_ns() + o->flush_ns;
    collector_cb cb = {&r, on_sample, on_gap, NULL, NULL, NULL, on_end, should_stop, on_tick};
    collector_set_idle_timeout(r.c, cli_remote_idle_ms(o));
    st = collector_run(r.c, &cb);
    int sig = cli_stop_signal();
    if (st == SOCMON_ESTATE && (sig || r.done_by_duration))
        st = SOCMON_OK;
    if (st != SOCMON_OK)
        rc = cli_error("record", st);
    socmon_recwriter_stats ws;
    socmon_status wst = r.write_failed ? st : socmon_recwriter_flush(r.w);
    socmon_recwriter_get_stats(r.w, &ws);
    socmon_status cst = socmon_recwriter_close(r.w);
    if (wst == SOCMON_OK)
        wst = cst;
    if (fd >= 0 && close(fd) != 0 && wst == SOCMON_OK)
        wst = socmon_fail(SOCMON_EIO, "closing '%s': %s", path, strerror(errno));
    socmon_status dst = cli_dest_close(&d);
    if (wst == SOCMON_OK)
        wst = dst;
    if (wst != SOCMON_OK && !rc) {
        char what[4200];
        snprintf(what, sizeof what, "record: writing '%s'", path);
        rc = cli_error(what, wst);
    }
    collector_stats cs;
    collector_get_stats(r.c, &cs);
    /* record --remote | head: the reader went away; the recording is whole, the summary goes to stderr */
    int out_gone = cli_reader_gone(STDOUT_FILENO);
    if (out_gone)
        cli_drop_stdout();
    fprintf(rc || out_gone ? stderr : stdout, "wrote %llu samples (%llu lost at the agent) from %s to %s (%llu bytes received)\n",
            (unsigned long long)r.samples, (unsigned long long)r.lost, o->remote, path, (unsigned long long)cs.bytes);
    if (r.ended && !o->quiet)
        fprintf(stderr, "socmon record: the agent's run ended: %s\n", r.end_reason);
    if (sig) {
        fprintf(stderr, "socmon record: stopped by %s; the recording is complete up to there\n", cli_stop_name());
        if (!rc)
            rc = cli_stop_exit_code();
    }
    collector_close(r.c);
    return rc;
}
