/* The collector: the host side of `socmon agent` (record/stat/serve --remote).
 *
 * collector_connect connects, authenticates (SUBSCRIBE with the token and no
 * samples yet) and reads the HELLO, from which it builds a schema-only
 * socmon_device (the agent's counters and parameters; its read op fails, as
 * there are no registers here) and a socmon_set of all its counters, so the
 * recording writer, metric binding and output code work unchanged. The
 * caller then subscribes from where it wants (a seq, the oldest buffered or
 * the latest sample) and runs the receive loop, which checks that sequence
 * numbers follow on (a sample the agent no longer has comes as an explicit
 * gap) and calls back for each sample, gap and the end. Single-threaded. */
#ifndef SOCMON_AGENT_COLLECTOR_H
#define SOCMON_AGENT_COLLECTOR_H

#include <stdint.h>

#include "agent/wire.h"
#include "socmon/sample.h"

typedef struct collector collector;

/* token may be NULL (an agent on loopback without --token-file). A refused
 * token, a protocol version mismatch or a refused connection is an error
 * whose message says so ("agent refused the token"). */
socmon_status collector_connect(const char *addr, const char *token, int timeout_ms, collector **out);
void collector_close(collector *c);

const wire_hello *collector_hello(const collector *c);
socmon_device *collector_device(collector *c);
socmon_set *collector_set(collector *c);

/* mode: WIRE_SUB_SEQ (from seq), WIRE_SUB_OLDEST or WIRE_SUB_LATEST. */
socmon_status collector_subscribe(collector *c, uint32_t mode, uint64_t seq);
/* Asks the agent to count other events (-e patterns); the agent refuses
 * unless it runs with --allow-config. The answer comes in collector_run: a
 * new HELLO (hello callback) or an ERROR (the run's failure, code
 * WIRE_ERR_CONFIG, which the config_refused callback sees instead if set). */
socmon_status collector_send_config(collector *c, const char *events);

/* Before subscribing: sends CONFIG and waits (at most timeout_ms) for the
 * answer: the new HELLO (the schema is then the new one) or the agent's
 * refusal, which is the error returned (its message says why). */
socmon_status collector_configure(collector *c, const char *events, int timeout_ms);

typedef struct collector_cb {
    void *user;
    /* Each callback may be NULL; a non-OK return ends collector_run with it. */
    socmon_status (*sample)(void *user, uint64_t seq, const socmon_sample *s);
    socmon_status (*gap)(void *user, const wire_gap *g);
    socmon_status (*stats)(void *user, const wire_stats *s);
    /* A HELLO after the first: the agent's counters changed (CONFIG).
     * collector_set/collector_device then describe the new schema. Without
     * this callback that ends the run with an error. */
    socmon_status (*hello)(void *user, const wire_hello *h);
    socmon_status (*config_refused)(void *user, const char *msg);
    void (*end)(void *user, const wire_end *e);
    /* Polled at least every 200 ms: nonzero ends the run (SOCMON_ESTATE). */
    int (*should_stop)(void *user);
    /* Called between frames and at least every 200 ms while none arrives, for
     * what must happen on time whatever the stream does (record's flush every
     * --flush period); a non-OK return ends the run with it. */
    socmon_status (*tick)(void *user);
} collector_cb;

/* The agent sends STATS every second whatever else it sends, so a connection
 * silent for this long means the agent is stopped, hung or cut off. */
#define COLLECTOR_IDLE_MS 5000
/* How long collector_run waits with nothing at all received before it gives
 * up with an error saying so (SOCMON_EIO); the default is COLLECTOR_IDLE_MS,
 * timeout_ms <= 0 waits forever. Only time with nothing readable counts: a collector that
 * was itself stopped finds the data waiting and goes on. */
void collector_set_idle_timeout(collector *c, int timeout_ms);

/* Receives until END (SOCMON_OK), a callback's failure, should_stop, or
 * an error: the agent gone without END or silent for the idle timeout, an
 * ERROR frame, a malformed frame, a sequence number out of order or a sample
 * older than the one before (time going backwards), each with a message
 * naming it. Strings the agent sends (HELLO text, END's reason, ERROR's
 * message) arrive with control bytes escaped (core/text.h); counter and
 * parameter names that are not identifiers are refused. */
socmon_status collector_run(collector *c, const collector_cb *cb);

typedef struct collector_stats {
    uint64_t samples;       /* received */
    uint64_t gaps, lost;    /* GAP frames and the samples they announced */
    uint64_t bytes;         /* received, headers included */
    uint64_t next_seq;      /* the seq expected next */
    int have_agent;         /* the agent's last STATS: */
    wire_stats agent;
} collector_stats;
void collector_get_stats(const collector *c, collector_stats *out);

#endif
