/* The host target's command: forked, held on a pipe before exec while the
 * counters are opened on its pid with enable_on_exec (so they count exactly the
 * command, as perf stat's workload does), then released. A second pipe, closed
 * on exec, brings back the errno of an exec that failed, so "command not found"
 * is an error naming the command rather than a count of a failed child. The
 * child restores the signal dispositions a shell would give it. Waiting uses a
 * pidfd where the kernel has one (poll wakes the sampler the moment the command
 * exits), short sleeps otherwise. */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "core/clock.h"
#include "core/error.h"
#include "targets/host_child.h"

socmon_status smn_host_child_fork(host_child *c, char *const argv[])
{
    memset(c, 0, sizeof *c);
    c->go_fd = c->err_fd = c->pidfd = -1;
    if (!argv || !argv[0] || !argv[0][0])
        return socmon_fail(SOCMON_EINVAL, "host: empty command");
    int go[2], er[2];
    if (pipe2(go, O_CLOEXEC) < 0)
        return socmon_fail(SOCMON_EIO, "host: pipe: %s", strerror(errno));
    if (pipe2(er, O_CLOEXEC) < 0) {
        close(go[0]);
        close(go[1]);
        return socmon_fail(SOCMON_EIO, "host: pipe: %s", strerror(errno));
    }
    pid_t pid = fork();
    if (pid < 0) {
        int e = errno;
        close(go[0]), close(go[1]), close(er[0]), close(er[1]);
        return socmon_fail(SOCMON_EIO, "host: fork: %s", strerror(e));
    }
    if (pid == 0) {
        /* the child: async-signal-safe calls only until exec */
        close(go[1]);
        close(er[0]);
        struct sigaction dfl;
        memset(&dfl, 0, sizeof dfl);
        dfl.sa_handler = SIG_DFL;
        for (int s = 1; s < NSIG; s++)
            if (s != SIGKILL && s != SIGSTOP)
                sigaction(s, &dfl, NULL);
        sigset_t none;
        sigemptyset(&none);
        sigprocmask(SIG_SETMASK, &none, NULL);
        char b;
        ssize_t r;
        do
            r = read(go[0], &b, 1);
        while (r < 0 && errno == EINTR);
        if (r != 1)
            _exit(127); /* the parent gave up before starting it */
        execvp(argv[0], argv);
        int e = errno;
        ssize_t w = write(er[1], &e, sizeof e);
        (void)w;
        _exit(e == ENOENT ? 127 : 126);
    }
    close(go[0]);
    close(er[1]);
    c->pid = pid;
    c->go_fd = go[1];
    c->err_fd = er[0];
#ifdef SYS_pidfd_open
    long fd = syscall(SYS_pidfd_open, pid, 0);
    c->pidfd = fd < 0 ? -1 : (int)fd;
    if (c->pidfd >= 0)
        fcntl(c->pidfd, F_SETFD, FD_CLOEXEC);
#endif
    return SOCMON_OK;
}

socmon_status smn_host_child_start(host_child *c)
{
    if (!c->pid || c->started)
        return socmon_fail(SOCMON_ESTATE, "host: the command was already started");
    c->started = 1;
    char b = 1;
    if (write(c->go_fd, &b, 1) != 1)
        return socmon_fail(SOCMON_EIO, "host: releasing the command: %s", strerror(errno));
    close(c->go_fd);
    c->go_fd = -1;
    int e = 0;
    ssize_t r;
    do
        r = read(c->err_fd, &e, sizeof e);
    while (r < 0 && errno == EINTR);
    close(c->err_fd);
    c->err_fd = -1;
    if (r == (ssize_t)sizeof e) {
        c->exec_errno = e;
        smn_host_child_wait(c, UINT64_MAX);
        return socmon_fail(e == ENOENT ? SOCMON_ENOENT : SOCMON_EPERM, "host: cannot run the command: %s",
                           strerror(e));
    }
    return SOCMON_OK;
}

int smn_host_child_poll(host_child *c)
{
    if (!c->pid || c->exited)
        return c->exited;
    int ws;
    pid_t r = waitpid(c->pid, &ws, WNOHANG);
    if (r == c->pid) {
        c->exited = 1;
        c->wstatus = ws;
    } else if (r < 0 && errno == ECHILD) {
        c->exited = 1; /* reaped elsewhere (a SIGCHLD handler set to SIG_IGN): status unknown */
        c->wstatus = 0;
    }
    return c->exited;
}

int smn_host_child_wait(host_child *c, uint64_t deadline_ns)
{
    while (!smn_host_child_poll(c)) {
        uint64_t now = smn_mono_ns();
        if (now >= deadline_ns)
            return 0;
        uint64_t left = deadline_ns - now;
        if (c->pidfd >= 0) {
            struct pollfd p = {c->pidfd, POLLIN, 0};
            int ms = left / 1000000u > 1000 ? 1000 : (int)(left / 1000000u);
            if (ms == 0) {
                struct timespec ts = {0, (long)left};
                nanosleep(&ts, NULL);
            } else {
                poll(&p, 1, ms);
            }
        } else {
            struct timespec ts = {0, left < 1000000 ? (long)left : 1000000};
            nanosleep(&ts, NULL);
        }
    }
    return 1;
}

void smn_host_child_end(host_child *c)
{
    if (c->pid && !c->exited) {
        if (!c->started) {
            close(c->go_fd); /* the held child reads EOF and leaves */
            c->go_fd = -1;
        } else {
            kill(c->pid, SIGTERM);
        }
        if (!smn_host_child_wait(c, smn_mono_ns() + 1000000000u)) {
            kill(c->pid, SIGKILL);
            smn_host_child_wait(c, UINT64_MAX);
        }
    }
    if (c->go_fd >= 0)
        close(c->go_fd);
    if (c->err_fd >= 0)
        close(c->err_fd);
    if (c->pidfd >= 0)
        close(c->pidfd);
    c->go_fd = c->err_fd = c->pidfd = -1;
}
