/* Guarded mmio accesses: a SIGBUS raised by one 32-bit load or store of a
 * mapped file or device becomes an error return instead of killing the process.
 *
 * A mapping faults when the file behind it shrank or went away, when a UIO
 * device was unbound, or (on a board) when no slave answers at a PL address.
 * The kernel then sends SIGBUS to the thread that made the access, and the
 * default action kills the process with no message and no chance to flush.
 *
 * The design (docs/bus.md, "Faults"):
 * - One SIGBUS handler for the process, installed once (pthread_once) by the
 *   first guarded access, with the handler that was there before saved. A
 *   signal disposition is per process, so this is the one piece of state that
 *   cannot be per user; it is written once and only read afterwards.
 * - The recovery point is thread-local: a thread sets it around its own access
 *   only, so two users (threads, or two buses) never share one.
 * - The handler acts only on a fault the kernel raised while the faulting thread
 *   is inside a guarded access, whose window holds that one access. Any
 *   other SIGBUS goes to the previous handler, or gets the default action, as
 *   if we were not there.
 * - Recovery is siglongjmp back into the access, which then returns the signal
 *   number; the bus turns it into SOCMON_EIO naming the device and address. */
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>

#include "bus/bus_internal.h"

typedef struct guard {
    sigjmp_buf env;
} guard;

/* initial-exec: the handler may run on a thread that never made a guarded
 * access, and reading a lazily allocated (dynamic-model) TLS slot there is not
 * async-signal-safe. */
#if defined(__GNUC__)
#define GUARD_TLS __attribute__((tls_model("initial-exec")))
#else
#define GUARD_TLS
#endif
static _Thread_local guard *volatile current GUARD_TLS;

static pthread_once_t install_once = PTHREAD_ONCE_INIT;
static struct sigaction previous;   /* written once, before any guarded access can fault */
static int installed;

/* Whatever would have happened without us. */
static void chain(int sig, siginfo_t *si, void *ctx)
{
    if (previous.sa_flags & SA_SIGINFO) {
        if (previous.sa_sigaction) {
            previous.sa_sigaction(sig, si, ctx);
            return;
        }
    } else if (previous.sa_handler != SIG_DFL && previous.sa_handler != SIG_IGN) {
        previous.sa_handler(sig);
        return;
    }
    /* SIG_IGN: a SIGBUS someone sent (kill, sigqueue) is ignored as asked. A
     * fault cannot be: returning would retry the access forever. */
    if (previous.sa_handler == SIG_IGN && !(previous.sa_flags & SA_SIGINFO) && si && si->si_code <= 0)
        return;
    /* SIG_DFL: restore it and re-raise. The signal is blocked while this
     * handler runs, so it is delivered (and kills, with a core dump) on return. */
    struct sigaction dfl;
    memset(&dfl, 0, sizeof dfl);
    dfl.sa_handler = SIG_DFL;
    sigemptyset(&dfl.sa_mask);
    sigaction(sig, &dfl, NULL);
    raise(sig);
}

static void on_sigbus(int sig, siginfo_t *si, void *ctx)
{
    guard *g = current;
    /* A fault the kernel raised (si_code > 0) on a thread inside a guarded access is that access's:
     * the window holds the one load or store and nothing else. The fault address is not checked:
     * an imprecise external abort (Arm: a PL write with no slave, reported late) may carry none,
     * and qemu-user reports the page after the faulting one. */
    if (g && si && si->si_code > 0) {
        current = NULL;
        siglongjmp(g->env, 1);
    }
    chain(sig, si, ctx);
}

static void install(void)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = on_sigbus;
    sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
    sigemptyset(&sa.sa_mask);
    installed = sigaction(SIGBUS, &sa, &previous) == 0;
}

/* Unblocks SIGBUS after a recovery: the kernel blocked it for the handler, and
 * siglongjmp without a saved mask (saving it costs a system call per access)
 * does not unblock it. A fault while it is blocked would kill the process. */
static void unblock_sigbus(void)
{
    sigset_t s;
    sigemptyset(&s);
    sigaddset(&s, SIGBUS);
    pthread_sigmask(SIG_UNBLOCK, &s, NULL);
}

/* One access, loaded into *val or stored from it, with the recovery point set around it alone. */
static int guarded(volatile uint32_t *p, uint32_t *val, int store)
{
    pthread_once(&install_once, install);
    if (!installed) {
        if (store)
            __atomic_store_n(p, *val, __ATOMIC_RELEASE);
        else
            *val = __atomic_load_n(p, __ATOMIC_ACQUIRE);
        return 0;
    }
    guard g;
    guard *volatile outer = current;
    if (sigsetjmp(g.env, 0)) {
        current = outer;
        unblock_sigbus();
        return SIGBUS;
    }
    current = &g;
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    if (store)
        __atomic_store_n(p, *val, __ATOMIC_RELEASE);
    else
        *val = __atomic_load_n(p, __ATOMIC_ACQUIRE);
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    current = outer;
    return 0;
}

int smn_mmio_guarded_load(const volatile uint32_t *p, uint32_t *val)
{
    uint32_t v = 0;
    int sig = guarded((volatile uint32_t *)p, &v, 0);
    if (!sig)
        *val = v;
    return sig;
}

int smn_mmio_guarded_store(volatile uint32_t *p, uint32_t val)
{
    return guarded(p, &val, 1);
}
