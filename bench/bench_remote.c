/* bench_remote: the agent-to-collector rate on loopback next to a local record of the same run.
 *
 * An 8x8 ESP SoC with every monitor (2,840 counters) at -I 50us, workload multifft (the
 * acceptance run of issue 12), then idle for as long (the model costs nothing there, so it
 * shows what the sampling and transport paths alone can carry):
 *
 *   local   socmon record -t esp:soc=... -w W -I 50us -q -o local.rec
 *   remote  socmon agent -t esp:soc=... -w W -I 50us --no-pace --wait-collector
 *                 --exit-when-drained --listen 127.0.0.1:0 --port-file F --wire-version V
 *           socmon record --remote 127.0.0.1:PORT -q -o remote.rec
 *
 * The remote run goes twice: in the protocol's version 2 (rows "remote"), the default since
 * issue 29, and in version 1 (rows "remote v1"), so wire bytes and agent CPU per sample of the
 * two encodings of one workload stand next to each other.
 *
 * The collector talks to the agent through a relay in this process that counts the bytes each
 * way, so "wire B/sample" is what crossed the socket (the agent and the collector are the CLI,
 * unchanged). Printed per run: samples, samples/s of wall clock (local: the whole record; remote:
 * from starting the collector to its exit; the agent starts sampling when it subscribes),
 * remote/local ratio, wire bytes per sample, agent CPU per sample (its whole process, from
 * wait4), collector CPU per sample, and samples lost in the remote file, gaps included (read
 * back with the library; an unknown loss, a cut tail, shows as 1). The agent's own last lines (its CPU and bus accesses per sample) follow.
 * Goal (issue 12): remote >= 0.9x local and >= 10,000 samples/s with zero loss.
 *
 * Not a test (no timed assertions): `make bench` runs it; it exits 1 only if a run fails.
 * Usage: bench_remote [WORKLOAD...]; SOCMON_BIN (default: socmon next to this binary) and
 * SOCMON_SRC (default: from this file's path) as in the tests. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <arpa/inet.h>

#include "socmon/socmon.h"

extern char **environ;

#define RUN_TIMEOUT_S 300.0

static char g_bin[4096], g_soc[4096], g_dir[64];

static double mono_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void nap_ms(int ms)
{
    struct timespec ts = {0, (long)ms * 1000000L};
    nanosleep(&ts, NULL);
}

/* argv[0] is g_bin; stdout and stderr of the child go to the file err_path. */
static pid_t spawn(char *const argv[], const char *err_path)
{
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 1, err_path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    posix_spawn_file_actions_adddup2(&fa, 1, 2);
    pid_t pid;
    int e = posix_spawn(&pid, argv[0], &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    if (e) {
        fprintf(stderr, "bench_remote: cannot start %s: %s\n", argv[0], strerror(e));
        return -1;
    }
    return pid;
}

/* Waits for pid until deadline (then SIGKILL); 0 and its status and CPU seconds, or -1. */
static int reap(pid_t pid, double deadline, int *status, double *cpu_s)
{
    struct rusage ru;
    for (;;) {
        pid_t r = wait4(pid, status, WNOHANG, &ru);
        if (r == pid)
            break;
        if (r < 0 && errno != EINTR)
            return -1;
        if (mono_s() > deadline) {
            fprintf(stderr, "bench_remote: pid %d still running after the time limit: killed\n", (int)pid);
            kill(pid, SIGKILL);
            wait4(pid, status, 0, &ru);
            return -1;
        }
        nap_ms(2);
    }
    *cpu_s = ru.ru_utime.tv_sec + ru.ru_utime.tv_usec * 1e-6 + ru.ru_stime.tv_sec + ru.ru_stime.tv_usec * 1e-6;
    return 0;
}

static void show_tail(const char *path, const char *prefix, int lines)
{
    char cmd[4300];
    snprintf(cmd, sizeof cmd, "tail -n %d '%s' | sed 's/^/%s/'", lines, path, prefix);
    fflush(stdout);
    if (system(cmd) != 0)
        fprintf(stderr, "bench_remote: could not show %s\n", path);
}

typedef struct rec_figures {
    uint64_t samples, lost;  /* lost: samples the file says are missing, gaps included */
} rec_figures;

static int read_rec(const char *path, rec_figures *f)
{
    socmon_recording *rec;
    if (socmon_recording_load(path, &rec) != SOCMON_OK) {
        fprintf(stderr, "bench_remote: %s: %s\n", path, socmon_errmsg());
        return -1;
    }
    socmon_recording_info info;
    socmon_recording_get_info(rec, &info);
    f->samples = socmon_timeline_len(socmon_recording_timeline(rec));
    f->lost = info.samples_lost + (info.samples_lost_known ? 0 : 1);
    socmon_recording_free(rec);
    return 0;
}

/* ---- the relay: one collector connection to the agent, bytes counted each way ---- */

typedef struct relay {
    int lfd;                 /* listening, 127.0.0.1:port */
    unsigned short port, agent_port;
    uint64_t to_collector, to_agent;
    int failed;
} relay;

static int copy_some(int from, int to, uint64_t *count)
{
    static __thread char buf[1 << 18];
    ssize_t n = read(from, buf, sizeof buf);
    if (n <= 0)
        return -1;
    for (ssize_t off = 0; off < n;) {
        ssize_t w = write(to, buf + off, (size_t)(n - off));
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return -1;
        off += w;
    }
    *count += (uint64_t)n;
    return 0;
}

static void *relay_main(void *arg)
{
    relay *r = arg;
    int c = accept(r->lfd, NULL, NULL);
    int a = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in sa = {.sin_family = AF_INET, .sin_port = htons(r->agent_port)};
    sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (c < 0 || a < 0 || connect(a, (struct sockaddr *)&sa, sizeof sa) != 0) {
        fprintf(stderr, "bench_remote: relay: %s\n", strerror(errno));
        r->failed = 1;
        if (c >= 0)
            close(c);
        if (a >= 0)
            close(a);
        return NULL;
    }
    /* Until either side closes: then the other gets the close too, as without the relay. */
    struct pollfd p[2] = {{c, POLLIN, 0}, {a, POLLIN, 0}};
    for (;;) {
        if (poll(p, 2, -1) < 0) {
            if (errno == EINTR)
                continue;
            break;
        }
        if (p[1].revents && copy_some(a, c, &r->to_collector) != 0)
            break;
        if (p[0].revents && copy_some(c, a, &r->to_agent) != 0)
            break;
    }
    close(c);
    close(a);
    return NULL;
}

static int relay_open(relay *r)
{
    struct sockaddr_in sa = {.sin_family = AF_INET, .sin_port = 0};
    sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof sa;
    r->lfd = socket(AF_INET, SOCK_STREAM, 0);
    if (r->lfd < 0 || bind(r->lfd, (struct sockaddr *)&sa, sizeof sa) != 0 || listen(r->lfd, 1) != 0 ||
        getsockname(r->lfd, (struct sockaddr *)&sa, &len) != 0) {
        fprintf(stderr, "bench_remote: relay socket: %s\n", strerror(errno));
        return -1;
    }
    r->port = ntohs(sa.sin_port);
    return 0;
}

/* ---- the runs ---- */

typedef struct run_figures {
    rec_figures rec;
    double wall_s, cpu_s, agent_cpu_s;
    uint64_t wire_bytes;
} run_figures;

static void path_in_dir(char *buf, size_t len, const char *name)
{
    snprintf(buf, len, "%s/%s", g_dir, name);
}

static int run_local(const char *workload, const char *duration, run_figures *f)
{
    char spec[4200], out[128], log[128];
    snprintf(spec, sizeof spec, "esp:soc=%s", g_soc);
    path_in_dir(out, sizeof out, "local.rec");
    path_in_dir(log, sizeof log, "local.log");
    char *argv[16] = {g_bin, "record", "-t", spec, "-w", (char *)workload, "-I", "50us", "-q", "-f",
                      "-o", out};
    int n = 12;
    if (duration) {
        argv[n++] = "-d";
        argv[n++] = (char *)duration;
    }
    argv[n] = NULL;
    double t0 = mono_s();
    pid_t pid = spawn(argv, log);
    int status;
    if (pid < 0 || reap(pid, t0 + RUN_TIMEOUT_S, &status, &f->cpu_s) != 0 || !WIFEXITED(status) ||
        WEXITSTATUS(status) != 0) {
        fprintf(stderr, "bench_remote: local record failed:\n");
        show_tail(log, "  ", 5);
        return -1;
    }
    f->wall_s = mono_s() - t0;
    return read_rec(out, &f->rec);
}

static int read_port(const char *path, pid_t agent, double deadline, unsigned short *port)
{
    while (mono_s() < deadline) {
        FILE *fp = fopen(path, "r");
        unsigned p = 0;
        if (fp) {
            int ok = fscanf(fp, "%u", &p) == 1 && p > 0 && p < 65536;
            fclose(fp);
            if (ok) {
                *port = (unsigned short)p;
                return 0;
            }
        }
        int status;
        if (waitpid(agent, &status, WNOHANG) == agent) {
            fprintf(stderr, "bench_remote: the agent exited before listening\n");
            return -1;
        }
        nap_ms(5);
    }
    fprintf(stderr, "bench_remote: the agent did not write its port file in time\n");
    return -1;
}

static int run_remote(const char *workload, const char *duration, const char *version, run_figures *f)
{
    char spec[4200], out[128], alog[128], clog[128], portf[128], hostport[64];
    snprintf(spec, sizeof spec, "esp:soc=%s", g_soc);
    path_in_dir(out, sizeof out, "remote.rec");
    path_in_dir(alog, sizeof alog, "agent.log");
    path_in_dir(clog, sizeof clog, "collector.log");
    path_in_dir(portf, sizeof portf, "agent.port");
    unlink(portf);
    char *aargv[24] = {g_bin, "agent", "-t", spec, "-w", (char *)workload, "-I", "50us", "--no-pace",
                       "--wait-collector", "--exit-when-drained", "--listen", "127.0.0.1:0",
                       "--port-file", portf, "--wire-version", (char *)version};
    int n = 17;
    if (duration) {
        aargv[n++] = "-d";
        aargv[n++] = (char *)duration;
    }
    aargv[n] = NULL;
    relay r = {.lfd = -1};
    pthread_t th;
    int th_started = 0, rc = -1, status;
    double deadline = mono_s() + RUN_TIMEOUT_S;
    pid_t agent = spawn(aargv, alog), coll = -1;
    if (agent < 0 || read_port(portf, agent, mono_s() + 30, &r.agent_port) != 0 || relay_open(&r) != 0)
        goto out;
    if (pthread_create(&th, NULL, relay_main, &r) != 0)
        goto out;
    th_started = 1;
    snprintf(hostport, sizeof hostport, "127.0.0.1:%u", r.port);
    char *cargv[] = {g_bin, "record", "--remote", hostport, "-q", "-f", "-o", out, NULL};
    double t0 = mono_s();
    coll = spawn(cargv, clog);
    if (coll < 0)
        goto out;
    int cst = reap(coll, deadline, &status, &f->cpu_s);
    coll = -1;
    f->wall_s = mono_s() - t0;
    if (cst != 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
        fprintf(stderr, "bench_remote: the collector failed:\n");
        show_tail(clog, "  ", 5);
        goto out;
    }
    pthread_join(th, NULL);
    th_started = 0;
    /* --exit-when-drained: the agent leaves once the collector got the end. */
    int ast = reap(agent, mono_s() + 30, &status, &f->agent_cpu_s);
    agent = -1;
    if (ast != 0 || r.failed) {
        fprintf(stderr, "bench_remote: the agent did not finish cleanly:\n");
        show_tail(alog, "  ", 5);
        goto out;
    }
    f->wire_bytes = r.to_collector + r.to_agent;
    rc = read_rec(out, &f->rec);
out:
    if (coll > 0) {
        kill(coll, SIGKILL);
        waitpid(coll, &status, 0);
    }
    if (agent > 0) {
        kill(agent, SIGTERM);
        double cpu;
        reap(agent, mono_s() + 10, &status, &cpu);
    }
    if (th_started) {
        shutdown(r.lfd, SHUT_RDWR);
        pthread_cancel(th);
        pthread_join(th, NULL);
    }
    if (r.lfd >= 0)
        close(r.lfd);
    if (rc != 0)
        show_tail(alog, "  agent: ", 5);
    return rc;
}

static void locate(const char *argv0)
{
    const char *bin = getenv("SOCMON_BIN"), *src = getenv("SOCMON_SRC");
    if (bin) {
        snprintf(g_bin, sizeof g_bin, "%s", bin);
    } else {
        char self[4096];
        ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
        self[n > 0 ? n : 0] = 0;
        if (n <= 0)
            snprintf(self, sizeof self, "%s", argv0);
        char *slash = strrchr(self, '/');
        snprintf(g_bin, sizeof g_bin, "%.*s/socmon", slash ? (int)(slash - self) : 1, slash ? self : ".");
    }
    if (src) {
        snprintf(g_soc, sizeof g_soc, "%s/socs/esp_8x8.soc", src);
    } else {
        const char *f = __FILE__, *slash = strrchr(f, '/');
        snprintf(g_soc, sizeof g_soc, "%.*s/../socs/esp_8x8.soc", slash ? (int)(slash - f) : 1,
                 slash ? f : ".");
    }
}

/* cpu_rate: samples per second the busiest process could take on a core of its own (local: the
 * recorder; remote: the agent or the collector, whichever needs more CPU per sample), a figure
 * that does not depend on what else runs on the machine. */
static void print_row(const char *workload, const char *how, const run_figures *f, double local_rate,
                      double local_cpu_rate)
{
    double rate = f->wall_s > 0 ? f->rec.samples / f->wall_s : 0;
    double per = f->rec.samples ? 1e6 / (double)f->rec.samples : 0;
    double busiest = f->cpu_s > f->agent_cpu_s ? f->cpu_s : f->agent_cpu_s;
    double cpu_rate = busiest > 0 ? f->rec.samples / busiest : 0;
    printf("  %-9s %-7s %8llu %10.0f %10.0f", workload, how, (unsigned long long)f->rec.samples, rate,
           cpu_rate);
    if (local_rate <= 0) {
        printf(" %13s %10.1f\n", "", f->cpu_s * per);
        return;
    }
    printf("  %5.2f/%5.2fx %10.1f %10.1f %8.0f %6llu\n", rate / local_rate,
           local_cpu_rate > 0 ? cpu_rate / local_cpu_rate : 0, f->cpu_s * per, f->agent_cpu_s * per,
           f->rec.samples ? (double)f->wire_bytes / f->rec.samples : 0, (unsigned long long)f->rec.lost);
}

int main(int argc, char **argv)
{
    if (argc > 1 && (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0)) {
        printf("usage: bench_remote [WORKLOAD[:DURATION]...]\nLocal record vs agent -> collector on loopback, "
               "8x8 ESP, -I 50us (default: multifft:1s, the issue's acceptance run; multifft to its end;\n"
               "idle as long as that).\n");
        return 0;
    }
    signal(SIGPIPE, SIG_IGN);
    setvbuf(stdout, NULL, _IOLBF, 0);
    locate(argv[0]);
    snprintf(g_dir, sizeof g_dir, "/tmp/bench_remote_XXXXXX");
    if (!mkdtemp(g_dir)) {
        perror("bench_remote: mkdtemp");
        return 1;
    }
    /* WORKLOAD[:DURATION]. The first is the acceptance run: multifft for 1 s of simulated
     * time (the 28 ms FFT burst, then the SoC idles while monitoring goes on, as on a board: the
     * run behind the "8,300 samples/s today"). Then the burst alone (the cycle-level NoC
     * model dominates it), then idle as long as the burst. */
    static const char *const defaults[] = {"multifft:1s", "multifft", "idle"};
    const char *const *wl = argc > 1 ? (const char *const *)argv + 1 : defaults;
    int nwl = argc > 1 ? argc - 1 : 3, rc = 0;
    char first_d[32] = "";
    int burst = -1; /* the first run without a duration: the one idle copies */
    printf("agent -> collector on loopback vs local record: %s, -I 50us, every counter\n", g_soc);
    printf("  %-9s %-7s %8s %10s %10s %13s %10s %10s %8s %s\n", "workload", "run", "samples",
           "samples/s", "CPU-bound", "ratio", "rec us/s", "agent us/s", "wire B/s", "lost");
    for (int w = 0; w < nwl && rc == 0; w++) {
        /* A run without :DURATION goes to its workload's end, except that a later one lasts as long
         * as the first such run (idle alone lasts 1 ms). */
        char name[64], dur[32] = "";
        snprintf(name, sizeof name, "%s", wl[w]);
        char *colon = strchr(name, ':');
        if (colon) {
            *colon = '\0';
            snprintf(dur, sizeof dur, "%s", colon + 1);
        }
        const char *d = *dur ? dur : (*first_d ? first_d : NULL);
        run_figures loc = {{0, 0}, 0, 0, 0, 0}, rem = {{0, 0}, 0, 0, 0, 0}, rem1 = {{0, 0}, 0, 0, 0, 0};
        if (run_local(name, d, &loc) != 0 || run_remote(name, d, "2", &rem) != 0 ||
            run_remote(name, d, "1", &rem1) != 0) {
            rc = 1;
            break;
        }
        if (!*dur && burst < 0 && loc.rec.samples > 1) {
            burst = w;
            snprintf(first_d, sizeof first_d, "%lluus", (unsigned long long)(loc.rec.samples - 1) * 50);
        }
        double local_rate = loc.wall_s > 0 ? loc.rec.samples / loc.wall_s : 0;
        double local_cpu_rate = loc.cpu_s > 0 ? loc.rec.samples / loc.cpu_s : 0;
        print_row(wl[w], "local", &loc, 0, 0);
        print_row(wl[w], "remote", &rem, local_rate, local_cpu_rate);
        print_row(wl[w], "rem. v1", &rem1, local_rate, local_cpu_rate);
        if (rem.rec.samples != loc.rec.samples)
            printf("  note: the remote file holds %llu samples, the local one %llu\n",
                   (unsigned long long)rem.rec.samples, (unsigned long long)loc.rec.samples);
        char alog[128];
        path_in_dir(alog, sizeof alog, "agent.log");
        show_tail(alog, "    agent (v1): ", 2);
    }
    printf("  (samples/s: wall clock, the machine may be shared; CPU-bound: samples/s the busiest\n"
           "   process could take with a core of its own; ratio: remote/local, wall/CPU-bound; rec us/s:\n"
           "   CPU per sample of the recorder or the collector; agent us/s: the agent's; wire B/s: bytes\n"
           "   on the socket per sample; remote: protocol version 2, rem. v1: the agent with\n"
           "   --wire-version 1)\n");
    char cmd[200];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", g_dir);
    if (system(cmd) != 0)
        fprintf(stderr, "bench_remote: could not remove %s\n", g_dir);
    return rc;
}
