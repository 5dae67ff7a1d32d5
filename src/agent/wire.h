/* The agent's wire protocol: frames between `socmon agent` and its collectors.
 *
 * Every frame is a 16-byte header (magic "SMAG", protocol version, type, a
 * reserved zero byte pair, payload length, CRC-32 of the payload) and a
 * payload of varints, length-prefixed strings and little-endian doubles.
 * docs/agent-protocol.md is the specification; this file is its one codec.
 *
 * The decoder reads untrusted bytes: every length and count is checked
 * against what is left of the payload before anything is allocated, a
 * payload above WIRE_MAX_PAYLOAD is refused from the header alone, and a
 * failure is SOCMON_EPARSE with a message naming the field and its offset.
 * Encoders append to a growable buffer (the agent's server thread, never the
 * sampling thread, encodes). */
#ifndef SOCMON_AGENT_WIRE_H
#define SOCMON_AGENT_WIRE_H

#include <stddef.h>
#include <stdint.h>

#include "socmon/device.h"
#include "socmon/status.h"

#define WIRE_MAGIC 0x47414d53u          /* "SMAG" little-endian */
#define WIRE_VERSION 2                  /* the newest version this socmon speaks */
#define WIRE_VERSION_MIN 1              /* ... and the oldest */
#define WIRE_VERSIONS_SPOKEN "1 and 2"  /* for messages */
#define WIRE_HDR 16
#define WIRE_MAX_PAYLOAD (8u << 20)     /* no frame payload is larger */
#define WIRE_MAX_CLIENT_PAYLOAD 65536u  /* what an agent accepts from a collector */
#define WIRE_MAX_STR 4096u              /* longest string field */
#define WIRE_MAX_COUNTERS 1000000u
#define WIRE_MAX_PARAMS 4096u

enum wire_type {
    WIRE_HELLO = 1,     /* agent: schema and target */
    WIRE_SUBSCRIBE = 2, /* collector: token and where to start */
    WIRE_SAMPLES = 3,   /* agent: a block of consecutive samples */
    WIRE_GAP = 4,       /* agent: samples the collector will never get */
    WIRE_STATS = 5,     /* agent: its own cost */
    WIRE_END = 6,       /* agent: the run is over and every sample was sent */
    WIRE_ERROR = 7,     /* either side: code + message, then the sender closes */
    WIRE_CONFIG = 8,    /* collector: change the counted events (agent --allow-config) */
    WIRE_TYPE_MAX = 8
};

/* ERROR codes (the payload's first varint). */
enum wire_err {
    WIRE_ERR_PROTOCOL = 1,  /* malformed frame, bad CRC, unexpected type */
    WIRE_ERR_VERSION = 2,   /* protocol version not spoken */
    WIRE_ERR_TOKEN = 3,     /* token missing or wrong */
    WIRE_ERR_BUSY = 4,      /* --max-clients reached */
    WIRE_ERR_CONFIG = 5,    /* CONFIG refused or failed */
    WIRE_ERR_RANGE = 6,     /* a SUBSCRIBE seq beyond what the agent has */
    WIRE_ERR_INTERNAL = 7,
    WIRE_ERR_RETRY = 8      /* dropped in its handshake for a newer connection: try again */
};

/* SUBSCRIBE modes. */
enum wire_sub_mode {
    WIRE_SUB_NONE = 0,   /* hello only: the collector subscribes again later */
    WIRE_SUB_SEQ = 1,    /* from seq (a gap first if seq is older than the ring) */
    WIRE_SUB_OLDEST = 2, /* from the oldest buffered sample */
    WIRE_SUB_LATEST = 3  /* from the next sample taken */
};

/* HELLO flags. */
#define WIRE_HELLO_CONFIG 1u   /* the agent accepts CONFIG */
#define WIRE_HELLO_ENDED 2u    /* the run is over: no sample after next_seq - 1 will come */

typedef struct wire_buf {
    uint8_t *p;
    size_t len, cap;
    int oom;          /* an append failed: the buffer is unusable until reset */
    uint8_t version;  /* the protocol version frames get in their header; 0: WIRE_VERSION */
} wire_buf;

void wire_buf_free(wire_buf *b);
/* Room for `more` bytes; 0 or -1 (out of memory, b->oom set). */
int wire_buf_reserve(wire_buf *b, size_t more);

typedef struct wire_hdr {
    uint32_t version;
    uint32_t type;
    uint32_t len;     /* payload bytes */
    uint32_t crc;
} wire_hdr;

/* Checks the header at p (avail bytes). Returns 1 with *h filled when a whole
 * header is there and sane (magic, reserved bytes, type known, len <= max),
 * 0 when more bytes are needed, or an error (SOCMON_EPARSE naming what is
 * wrong). A version other than WIRE_VERSION is not an error here: the caller
 * decides (an ERROR frame reads the same in every version). */
int wire_hdr_parse(const uint8_t *p, size_t avail, uint32_t max_payload, wire_hdr *h);
/* SOCMON_OK if the payload's CRC matches the header's. */
socmon_status wire_check_crc(const wire_hdr *h, const uint8_t *payload);
const char *wire_type_name(uint32_t type);

/* ---- frames ---- */

typedef struct wire_hello {
    uint32_t proto;
    char *target, *device, *workload;   /* workload may be "" */
    uint64_t interval_ns, duration_ns;  /* duration 0: until the workload ends */
    int simulated;
    uint64_t ring_capacity, oldest_seq, next_seq;
    uint32_t flags;                     /* WIRE_HELLO_* */
    uint64_t config_gen;                /* bumped by every accepted CONFIG */
    size_t ncounters;
    socmon_counter *counters;           /* name, instance, unit, desc, width, max_rate_hz, reg, reg_hi */
    size_t nparams;
    char **param_names;
    double *param_values;
} wire_hello;
void wire_hello_free(wire_hello *h);

typedef struct wire_subscribe {
    char token[WIRE_MAX_STR + 1];
    uint32_t mode;     /* enum wire_sub_mode */
    uint64_t seq;      /* WIRE_SUB_SEQ */
    uint32_t flags;    /* none defined yet: must be 0 */
} wire_subscribe;

typedef struct wire_gap {
    uint64_t first_seq, count;
    uint64_t t0_ns, t1_ns;  /* see docs/agent-protocol.md: the lost samples lie in (t0, t1] */
} wire_gap;

typedef struct wire_stats {
    uint64_t samples;       /* taken by the agent so far */
    uint64_t cpu_ns;        /* CPU time of its sampling thread */
    uint64_t bus_accesses;  /* register reads + writes of the target's bus */
    uint64_t bytes_sent;    /* to this collector, headers included */
    uint64_t clients;       /* collectors connected */
    uint64_t overwritten;   /* samples the ring dropped before some collector read them */
} wire_stats;

typedef struct wire_end {
    uint64_t next_seq;      /* one past the last sample */
    int32_t status;         /* socmon_status of the run: 0 ended normally */
    char reason[WIRE_MAX_STR + 1];
} wire_end;

typedef struct wire_error {
    uint32_t code;          /* enum wire_err */
    char msg[WIRE_MAX_STR + 1];
} wire_error;

typedef struct wire_config {
    char events[WIRE_MAX_STR + 1];  /* -e patterns; "" = every counter */
} wire_config;

/* A block of consecutive samples, values row-major (n rows of ncounters). */
typedef struct wire_samples {
    uint64_t first_seq;
    uint32_t n;
    size_t ncounters;
    uint64_t *t_ns;
    uint32_t *flags, *missed;
    uint64_t *values;
} wire_samples;

/* Encoders: append one whole frame (header + payload) to b. On out of memory
 * they return SOCMON_ENOMEM and leave b->oom set. */
socmon_status wire_put_hello(wire_buf *b, const wire_hello *h);
socmon_status wire_put_subscribe(wire_buf *b, const wire_subscribe *s);
socmon_status wire_put_gap(wire_buf *b, const wire_gap *g);
socmon_status wire_put_stats(wire_buf *b, const wire_stats *s);
socmon_status wire_put_end(wire_buf *b, const wire_end *e);
socmon_status wire_put_error(wire_buf *b, uint32_t code, const char *msg);
socmon_status wire_put_config(wire_buf *b, const wire_config *c);
/* masks[i] = 2^width - 1 of counter i: each value is sent as its wrap-safe
 * delta from the previous sample of the block (the first one whole). */
socmon_status wire_put_samples(wire_buf *b, const wire_samples *s, const uint64_t *masks);

/* Decoders of one payload (its header already checked). */
socmon_status wire_get_hello(const uint8_t *p, size_t len, wire_hello *out);
socmon_status wire_get_subscribe(const uint8_t *p, size_t len, wire_subscribe *out);
socmon_status wire_get_gap(const uint8_t *p, size_t len, wire_gap *out);
socmon_status wire_get_stats(const uint8_t *p, size_t len, wire_stats *out);
socmon_status wire_get_end(const uint8_t *p, size_t len, wire_end *out);
socmon_status wire_get_error(const uint8_t *p, size_t len, wire_error *out);
socmon_status wire_get_config(const uint8_t *p, size_t len, wire_config *out);
/* Reads the block's head: first seq, n and ncounters (checked against
 * expect_ncounters and against the payload's size, so n * ncounters values
 * fit in len bytes: the caller may allocate that much). */
socmon_status wire_get_samples_head(const uint8_t *p, size_t len, size_t expect_ncounters, uint64_t *first_seq,
                                    uint32_t *n);
/* Decodes the block into s, whose arrays have room for s->n samples (from
 * wire_get_samples_head) of s->ncounters values. A value beyond its counter's
 * width is an error. */
socmon_status wire_get_samples(const uint8_t *p, size_t len, const uint64_t *masks, wire_samples *s);

/* ---- version 2 samples (wire_samples2.c) ----
 *
 * A v2 SAMPLES block is encoded against the previous sample of the same
 * stream (one collector's connection), so both ends keep that sample. A block
 * whose first sample has none (the first after SUBSCRIBE, after a GAP, after a
 * new HELLO) says so and carries it against zero. Each sample lists only the
 * counters that moved: their number, then for each the zero counters skipped
 * since the previous one and its delta modulo 2^width. */
typedef struct wire_stream {
    size_t ncounters;
    uint64_t *prev;          /* the stream's last sample: ncounters values */
    uint64_t prev_seq, prev_t;
    int have;                /* prev holds sample prev_seq */
} wire_stream;
/* Room for ncounters values (allocated here, once per schema), and no previous sample. */
socmon_status wire_stream_init(wire_stream *st, size_t ncounters);
void wire_stream_free(wire_stream *st);
/* The worst-case payload of one v2 sample of nc counters: what a block must leave room for. */
size_t wire_samples2_max_bytes(size_t nc);
/* Appends a v2 SAMPLES frame of s against st, then makes s's last sample st's previous. */
socmon_status wire_put_samples2(wire_buf *b, const wire_samples *s, const uint64_t *masks, wire_stream *st);
/* Reads a v2 block's head as wire_get_samples_head does; n * ncounters is at most
 * WIRE_MAX_PAYLOAD values, so the caller may allocate that much. */
socmon_status wire_get_samples2_head(const uint8_t *p, size_t len, size_t expect_ncounters, uint64_t *first_seq,
                                     uint32_t *n);
/* Decodes a v2 block against st into s (room for s->n samples), then makes its last
 * sample st's previous. A block that says it follows a sample st does not hold, a
 * counter index past the end, a zero or too wide delta, a cut or long payload: an error. */
socmon_status wire_get_samples2(const uint8_t *p, size_t len, const uint64_t *masks, wire_stream *st,
                                wire_samples *s);

/* 2^width - 1 (width 1..64). */
static inline uint64_t wire_mask(unsigned width)
{
    return width >= 64 ? UINT64_MAX : (UINT64_C(1) << width) - 1;
}

#endif
