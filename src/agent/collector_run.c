/* The collector's receive loop: frames in, callbacks out, sequence numbers
 * checked so that nothing is lost or repeated without being said. */
#include <stdlib.h>
#include <string.h>

#include "agent/collector_internal.h"
#include "socmon/status.h"
#include "core/text.h"

/* Room for n samples in the decode buffer. */
static socmon_status grow_block(collector *c, uint32_t n)
{
    size_t nc = c->hello.ncounters;
    if (n <= c->blk_cap && c->blk.ncounters == nc)
        return SOCMON_OK;
    free(c->blk.t_ns);
    free(c->blk.flags);
    free(c->blk.missed);
    free(c->blk.values);
    c->blk = (wire_samples){0, 0, nc, calloc(n, sizeof(uint64_t)), calloc(n, sizeof(uint32_t)),
                            calloc(n, sizeof(uint32_t)), calloc((size_t)n * nc, sizeof(uint64_t))};
    c->blk_cap = n;
    if (!c->blk.t_ns || !c->blk.flags || !c->blk.missed || !c->blk.values) {
        c->blk_cap = 0;
        return socmon_fail(SOCMON_ENOMEM, "collector: out of memory for a block of %u samples", n);
    }
    return SOCMON_OK;
}

/* The seq a frame starts at must be the one expected next. */
static socmon_status check_seq(collector *c, const char *what, uint64_t first)
{
    if (c->any_seq) {
        c->any_seq = 0;
        c->st.next_seq = first;
    }
    if (first != c->st.next_seq)
        return socmon_fail(SOCMON_EPARSE, "agent %s: %s starts at seq %llu, expected %llu (samples %s without a GAP)",
                           c->addr, what, (unsigned long long)first, (unsigned long long)c->st.next_seq,
                           first > c->st.next_seq ? "skipped" : "repeated");
    return SOCMON_OK;
}

static socmon_status on_samples(collector *c, const collector_cb *cb, const uint8_t *p, size_t len)
{
    uint64_t first;
    uint32_t n;
    int v2 = c->version >= 2;
    socmon_status st = v2 ? wire_get_samples2_head(p, len, c->hello.ncounters, &first, &n)
                          : wire_get_samples_head(p, len, c->hello.ncounters, &first, &n);
    if (st != SOCMON_OK || (st = grow_block(c, n)) != SOCMON_OK || (st = check_seq(c, "SAMPLES", first)) != SOCMON_OK)
        return st == SOCMON_EPARSE ? socmon_fail_prefix(st, "agent %s: ", c->addr) : st;
    c->blk.n = n;
    st = v2 ? wire_get_samples2(p, len, c->masks, &c->stream, &c->blk) : wire_get_samples(p, len, c->masks, &c->blk);
    if (st != SOCMON_OK)
        return socmon_fail_prefix(st, "agent %s: ", c->addr);
    size_t nc = c->hello.ncounters;
    for (uint32_t k = 0; k < n; k++) {
        socmon_sample s = {.t_ns = c->blk.t_ns[k], .flags = c->blk.flags[k], .missed = c->blk.missed[k], .n = nc,
                           .v = c->blk.values + (size_t)k * nc};
        /* A sample older than the one before would make a negative interval (a huge one, in
         * unsigned time) in every rate computed from it: refused, with both times. A GAP does
         * not excuse it (the lost samples lay between the two); a new HELLO starts a new run,
         * whose clock may start again. */
        if (c->have_t && s.t_ns < c->last_t)
            return socmon_fail(SOCMON_EPARSE, "agent %s: sample seq %llu has time %llu ns, before the %llu ns of seq "
                               "%llu (its clock went back %llu ns): refused, the samples before it are kept",
                               c->addr, (unsigned long long)(first + k), (unsigned long long)s.t_ns,
                               (unsigned long long)c->last_t, (unsigned long long)c->last_t_seq,
                               (unsigned long long)(c->last_t - s.t_ns));
        if (cb->sample && (st = cb->sample(cb->user, first + k, &s)) != SOCMON_OK)
            return st;
        c->have_t = 1;
        c->last_t = s.t_ns;
        c->last_t_seq = first + k;
        c->st.samples++;
        c->st.next_seq = first + k + 1;
    }
    return SOCMON_OK;
}

static socmon_status on_hello(collector *c, const collector_cb *cb, const uint8_t *p, size_t len)
{
    wire_hello h;
    socmon_status st = wire_get_hello(p, len, &h);
    if (st != SOCMON_OK)
        return socmon_fail_prefix(st, "agent %s: ", c->addr);
    if (!cb->hello) {
        st = socmon_fail(SOCMON_ESTATE, "agent %s: its counters changed mid-run (a CONFIG, config generation %llu, "
                         "now %zu counters): this run's schema is fixed, so it ends here", c->addr,
                         (unsigned long long)h.config_gen, h.ncounters);
        wire_hello_free(&h);
        return st;
    }
    wire_hello_free(&c->hello);
    c->hello = h;
    c->have_t = 0;
    if ((st = collector_build_schema(c)) != SOCMON_OK)
        return st;
    return cb->hello(cb->user, &c->hello);
}

socmon_status collector_run(collector *c, const collector_cb *cb)
{
    static const collector_cb none = {0};
    if (!cb)
        cb = &none;
    if (!c->subscribed)
        return socmon_fail(SOCMON_ESTATE, "collector_run before collector_subscribe");
    size_t consumed = 0;
    for (;;) {
        wire_hdr h;
        const uint8_t *p;
        /* Asked between frames too: a busy stream never waits, so never polls. */
        if (cb->should_stop && cb->should_stop(cb->user))
            return SOCMON_ESTATE;
        socmon_status st;
        if (cb->tick && (st = cb->tick(cb->user)) != SOCMON_OK)
            return st;
        st = collector_next_frame(c, cb, -1, &h, &p, &consumed);
        if (st != SOCMON_OK)
            return st;
        switch (h.type) {
        case WIRE_SAMPLES:
            st = on_samples(c, cb, p, h.len);
            break;
        case WIRE_GAP: {
            wire_gap g;
            if ((st = wire_get_gap(p, h.len, &g)) != SOCMON_OK)
                return socmon_fail_prefix(st, "agent %s: ", c->addr);
            if ((st = check_seq(c, "GAP", g.first_seq)) != SOCMON_OK)
                return st;
            c->st.gaps++;
            c->st.lost += g.count;
            c->st.next_seq = g.first_seq + g.count;
            if (cb->gap)
                st = cb->gap(cb->user, &g);
            break;
        }
        case WIRE_STATS:
            if ((st = wire_get_stats(p, h.len, &c->st.agent)) != SOCMON_OK)
                return socmon_fail_prefix(st, "agent %s: ", c->addr);
            c->st.have_agent = 1;
            if (cb->stats)
                st = cb->stats(cb->user, &c->st.agent);
            break;
        case WIRE_HELLO:
            st = on_hello(c, cb, p, h.len);
            break;
        case WIRE_END: {
            wire_end e;
            if ((st = wire_get_end(p, h.len, &e)) != SOCMON_OK)
                return socmon_fail_prefix(st, "agent %s: ", c->addr);
            char reason[sizeof e.reason];   /* printed by the callers: control bytes escaped */
            smn_text_escape(reason, sizeof reason, e.reason);
            memcpy(e.reason, reason, sizeof reason);
            if (!c->any_seq && e.next_seq != c->st.next_seq)
                return socmon_fail(SOCMON_EPARSE, "agent %s: END after seq %llu, but the last received is %llu",
                                   c->addr, (unsigned long long)e.next_seq - 1, (unsigned long long)c->st.next_seq - 1);
            c->st.next_seq = e.next_seq;   /* also when nothing came: where the run ended */
            if (cb->end)
                cb->end(cb->user, &e);
            return SOCMON_OK;
        }
        case WIRE_ERROR: {
            wire_error e = {0};
            st = collector_error_frame(c, p, h.len, &e);
            if (e.code == WIRE_ERR_CONFIG && cb->config_refused)
                st = cb->config_refused(cb->user, e.msg);
            break;
        }
        default:
            return socmon_fail(SOCMON_EPARSE, "agent %s: unexpected %s frame from an agent", c->addr,
                               wire_type_name(h.type));
        }
        if (st != SOCMON_OK)
            return st;
    }
}
